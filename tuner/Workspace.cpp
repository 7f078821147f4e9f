//===- Workspace.cpp - Copies of the project the tuner builds and runs ----===//
#include "tuner/Workspace.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <csignal>
#include <signal.h>
#include <thread>

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

llvm::Error dlopt::writeTextFile(llvm::StringRef Path,
                                 llvm::StringRef Content) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (!EC) {
    OS << Content;
    OS.close();
    EC = OS.error();
  }
  if (EC)
    return llvm::createStringError(EC, "cannot write '" + Path +
                                           "': " + EC.message());
  return llvm::Error::success();
}

TreeState dlopt::treeState(llvm::StringRef Dir) {
  TreeState State;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
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
  llvm::StringRef Args[] = {"/bin/sh", "-c", Script};
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef("/dev/null"),
                                                StdoutPath, StderrPath};
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start = Clock::now();
  bool Failed = false;
  llvm::sys::ProcessInfo PI = llvm::sys::ExecuteNoWait(
      "/bin/sh", Args, std::nullopt, Redirects, 0, &Run.Error, &Failed);
  if (Failed)
    return Run;
  // Polled, so that an interrupt or the timeout can stop the command.
  for (;;) {
    llvm::sys::ProcessInfo Done =
        llvm::sys::Wait(PI, 0, &Run.Error, nullptr, /*Polling=*/true);
    double Seconds =
        std::chrono::duration<double>(Clock::now() - Start).count();
    if (Done.Pid == PI.Pid) {
      Run.Seconds = Seconds;
      Run.ExitCode = Done.ReturnCode < 0 ? -1 : Done.ReturnCode;
      return Run;
    }
    Run.Interrupted = interrupted();
    Run.TimedOut = Timeout && Seconds > *Timeout;
    if (Run.Interrupted || Run.TimedOut) {
      ::kill(PI.Pid, SIGKILL);
      llvm::sys::Wait(PI, std::nullopt);
      Run.Seconds = Seconds;
      return Run;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}
