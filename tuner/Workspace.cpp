//===- Workspace.cpp - Copies of the project the tuner builds and runs ----===//
#include "tuner/Workspace.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace dlopt;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static volatile std::sig_atomic_t Interrupted = 0;

static void onInterrupt(int) { Interrupted = 1; }

void dlopt::catchInterrupts() {
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
}

bool dlopt::interrupted() { return Interrupted != 0; }

llvm::Expected<ScratchDir> ScratchDir::create(llvm::StringRef Prefix) {
  llvm::SmallString<256> Path;
  if (std::error_code EC = fs::createUniqueDirectory(Prefix, Path))
    return llvm::createStringError(EC, "cannot create a scratch directory: " +
                                           EC.message());
  return ScratchDir(Path.str().str());
}

ScratchDir::~ScratchDir() {
  if (!Path.empty())
    fs::remove_directories(Path, /*IgnoreErrors=*/true);
}

/// A directory the copy leaves out: version control and build trees.
static bool skippedDirectory(llvm::StringRef Dir) {
  llvm::StringRef Name = path::filename(Dir);
  if (Name == ".git" || Name == ".hg" || Name == ".svn")
    return true;
  llvm::SmallString<256> Cache(Dir);
  path::append(Cache, "CMakeCache.txt");
  return fs::exists(Cache);
}

static bool skippedFile(llvm::StringRef File) {
  return path::filename(File).starts_with(".dlopt-apply");
}

/// Recreates the symbolic link \p Source at \p Target: a link to a file
/// as a copy of the file, a link to a directory as a link to its real path.
static std::error_code copyLink(llvm::StringRef Source,
                                llvm::StringRef Target) {
  fs::file_status Status;
  if (std::error_code EC = fs::status(Source, Status)) // Follows the link.
    return EC;
  if (fs::is_regular_file(Status)) {
    if (std::error_code EC = fs::copy_file(Source, Target))
      return EC;
    return fs::setPermissions(Target, Status.permissions());
  }
  llvm::SmallString<256> Real;
  if (std::error_code EC = fs::real_path(Source, Real))
    return EC;
  return fs::create_link(Real, Target);
}

llvm::Error dlopt::copyProject(llvm::StringRef From, llvm::StringRef To) {
  auto Fail = [](const llvm::Twine &What, std::error_code EC) {
    return llvm::createStringError(EC, "cannot copy the project: " + What +
                                           ": " + EC.message());
  };
  if (std::error_code EC = fs::create_directories(To))
    return Fail(To, EC);
  std::error_code EC;
  // Links are not followed: a link to a directory above would never end.
  for (fs::recursive_directory_iterator It(From, EC, /*follow=*/false), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Source = It->path();
    llvm::SmallString<256> Target(To);
    path::append(Target, Source.drop_front(From.size()));
    llvm::ErrorOr<fs::basic_file_status> Status = It->status();
    if (!Status)
      return Fail(Source, Status.getError());
    if (Status->type() == fs::file_type::symlink_file) {
      if (std::error_code LinkEC = copyLink(Source, Target))
        return Fail(Source, LinkEC);
    } else if (fs::is_directory(*Status)) {
      // The copies themselves, where the project holds $TMPDIR.
      if (skippedDirectory(Source) || path::parent_path(To) == Source) {
        It.no_push();
        continue;
      }
      if (std::error_code DirEC = fs::create_directories(Target))
        return Fail(Target, DirEC);
    } else if (fs::is_regular_file(*Status) && !skippedFile(Source)) {
      if (std::error_code CopyEC = fs::copy_file(Source, Target))
        return Fail(Source, CopyEC);
      fs::setPermissions(Target, Status->permissions());
    }
  }
  if (EC)
    return Fail(From, EC);
  return llvm::Error::success();
}

TreeState dlopt::treeState(llvm::StringRef Dir) {
  TreeState State;
  std::error_code EC;
  // As in copyProject: a linked directory is not the copy's to watch.
  for (fs::recursive_directory_iterator It(Dir, EC, /*follow=*/false), End;
       It != End && !EC; It.increment(EC)) {
    fs::file_status Status;
    if (fs::status(It->path(), Status) || !fs::is_regular_file(Status))
      continue;
    int64_t Time = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       Status.getLastModificationTime().time_since_epoch())
                       .count();
    State[llvm::StringRef(It->path()).drop_front(Dir.size()).str()] = {
        Status.getSize(), Time};
  }
  return State;
}

std::map<std::string, uint64_t> dlopt::changedFiles(llvm::StringRef Dir,
                                                    const TreeState &Before) {
  std::map<std::string, uint64_t> Changed;
  for (const auto &[Name, State] : treeState(Dir)) {
    auto It = Before.find(Name);
    if (It != Before.end() && It->second == State)
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(Dir + Name);
    if (Buffer)
      Changed[Name] = llvm::xxh3_64bits((*Buffer)->getBuffer());
  }
  return Changed;
}

std::string dlopt::withDir(llvm::StringRef Command, llvm::StringRef Dir) {
  std::string Out;
  for (size_t At; (At = Command.find("{dir}")) != llvm::StringRef::npos;) {
    Out += Command.take_front(At);
    Out += Dir;
    Command = Command.drop_front(At + 5);
  }
  return Out + Command.str();
}

/// 'Text' for the shell.
static std::string shellQuoted(llvm::StringRef Text) {
  std::string Out = "'";
  for (char C : Text)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

/// Starts `/bin/sh -c Script` in a process group of its own, stdin from
/// /dev/null, stdout and stderr to files; -1 (and \p Error) if it cannot.
/// Not LLVM's ExecuteNoWait: a command stopped on a timeout or an interrupt
/// must not leave its children running, to skew the timings that follow,
/// and only a group of its own can be killed whole.
static pid_t spawnInGroup(const std::string &Script, const std::string &Out,
                          const std::string &Err, std::string &Error) {
  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 1, Out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&Files, 2, Err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&Attr, 0);
  // Interrupts as a terminal would deliver them, also where a shell
  // started dl-refactor in the background with them ignored.
  sigset_t Default, Empty;
  sigemptyset(&Default);
  sigaddset(&Default, SIGINT);
  sigaddset(&Default, SIGTERM);
  sigemptyset(&Empty);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  posix_spawnattr_setsigmask(&Attr, &Empty);
  const char *Argv[] = {"/bin/sh", "-c", Script.c_str(), nullptr};
  pid_t Pid = -1;
  int RC = posix_spawn(&Pid, "/bin/sh", &Files, &Attr,
                       const_cast<char *const *>(Argv), environ);
  posix_spawnattr_destroy(&Attr);
  posix_spawn_file_actions_destroy(&Files);
  if (RC) {
    Error = std::strerror(RC);
    return -1;
  }
  return Pid;
}

CommandRun dlopt::runCommand(llvm::StringRef Command, llvm::StringRef Dir,
                             llvm::StringRef StdoutPath,
                             llvm::StringRef StderrPath,
                             std::optional<double> Timeout) {
  CommandRun Run;
  if (interrupted()) {
    Run.Interrupted = true;
    return Run;
  }
  std::string Script =
      "cd " + shellQuoted(Dir) + " && " + withDir(Command, Dir);
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start = Clock::now();
  pid_t Pid =
      spawnInGroup(Script, StdoutPath.str(), StderrPath.str(), Run.Error);
  if (Pid < 0)
    return Run;
  // Polled, so that an interrupt or the timeout can stop the command.
  for (;;) {
    int Status = 0;
    pid_t Done = ::waitpid(Pid, &Status, WNOHANG);
    Run.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
    if (Done == Pid || Done < 0) {
      Run.ExitCode =
          Done == Pid && WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
      ::kill(-Pid, SIGKILL); // What the command left running in the background.
      return Run;
    }
    Run.Interrupted = interrupted();
    Run.TimedOut = Timeout && Run.Seconds > *Timeout;
    if (Run.Interrupted || Run.TimedOut) {
      ::kill(-Pid, SIGKILL);
      ::waitpid(Pid, &Status, 0);
      return Run;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}
