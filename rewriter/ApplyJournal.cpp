//===- ApplyJournal.cpp - --apply: every file or none, even when killed ---===//
#include "rewriter/ApplyJournal.h"
#include "rewriter/ProjectPaths.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <unistd.h>

using namespace dlopt;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
namespace json = llvm::json;

namespace {

constexpr llvm::StringLiteral Format = "dlopt-apply-journal";
/// A temporary is "<file>" + TempInfix + six hexadecimal digits.
constexpr llvm::StringLiteral TempInfix = ".dlopt-";

llvm::Error failure(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

std::string journalPath(llvm::StringRef Root) {
  llvm::SmallString<256> P(Root);
  path::append(P, JournalName);
  return P.str().str();
}

/// Whether \p Name is \p Base's temporary: Base + TempInfix + 6 hex digits.
bool isTemporaryOf(llvm::StringRef Name, llvm::StringRef Base) {
  if (!Name.consume_front(Base) || !Name.consume_front(TempInfix))
    return false;
  return Name.size() == 6 && llvm::all_of(Name, llvm::isHexDigit);
}

/// The test hooks: kill the process after the N-th step of a kind, as a
/// user's Ctrl-C or the OOM killer would, with no chance to clean up.
void stopForTest(const char *Variable, unsigned Done) {
  std::optional<std::string> N = llvm::sys::Process::GetEnv(Variable);
  unsigned Stop;
  if (N && !llvm::StringRef(*N).getAsInteger(10, Stop) && Stop == Done) {
    llvm::outs().flush();
    llvm::errs().flush();
    std::raise(SIGKILL);
  }
}

/// Writes \p Text to the new file \p Pattern names (see createUniqueFile),
/// flushed to the disk, and returns its path.
llvm::Expected<std::string> writeNewFile(const llvm::Twine &Pattern,
                                         llvm::StringRef Text) {
  int FD;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = fs::createUniqueFile(Pattern, FD, Temp))
    return failure("cannot create '" + Pattern + "': " + EC.message());
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  OS.flush();
  // On the disk before a rename makes it the file: a crash must not leave a
  // renamed file without its data.
  bool Failed = OS.has_error() || ::fsync(FD) != 0;
  OS.close();
  if (Failed || OS.has_error()) {
    OS.clear_error();
    fs::remove(Temp);
    return failure("cannot write '" + Temp + "'");
  }
  return Temp.str().str();
}

/// One file of a journal: paths relative to the root.
struct Entry {
  std::string Dest, Temp;
};

/// Writes the journal atomically (a temporary renamed over it).
llvm::Error writeJournal(llvm::StringRef Root, llvm::StringRef State,
                         llvm::ArrayRef<Entry> Entries) {
  json::Array Files;
  for (const Entry &E : Entries) {
    json::Object O{{"dest", E.Dest}};
    if (!E.Temp.empty())
      O["temp"] = E.Temp;
    Files.push_back(std::move(O));
  }
  json::Object Journal{{"format", Format},
                       {"version", 1},
                       {"state", State},
                       {"files", std::move(Files)}};
  std::string Text = llvm::formatv("{0:2}\n", json::Value(std::move(Journal)));
  std::string Final = journalPath(Root);
  llvm::Expected<std::string> Temp = writeNewFile(Final + "-%%%%%%", Text);
  if (!Temp)
    return Temp.takeError();
  if (std::error_code EC = fs::rename(*Temp, Final)) {
    fs::remove(*Temp);
    return failure("cannot write '" + Final + "': " + EC.message());
  }
  return llvm::Error::success();
}

/// A journal's path below the root, checked: relative, without "..", so a
/// damaged journal cannot make a run rename files elsewhere.
llvm::Expected<std::string> checkedPath(llvm::StringRef Root,
                                        std::optional<llvm::StringRef> P) {
  if (!P || P->empty() || path::is_absolute(*P, path::Style::posix) ||
      llvm::is_contained(llvm::make_range(path::begin(*P), path::end(*P)),
                         ".."))
    return failure("bad path in the journal: '" + P.value_or("") + "'");
  llvm::SmallString<256> Full(Root);
  path::append(Full, path::Style::native, *P);
  return Full.str().str();
}

/// Removes every temporary of \p Dest (the "writing" state does not know
/// their names yet); returns how many.
unsigned removeTemporaries(llvm::StringRef Dest) {
  unsigned Removed = 0;
  std::error_code EC;
  llvm::StringRef Base = path::filename(Dest);
  for (fs::directory_iterator It(path::parent_path(Dest), EC), End;
       It != End && !EC; It.increment(EC))
    if (isTemporaryOf(path::filename(It->path()), Base) &&
        !fs::remove(It->path()))
      ++Removed;
  return Removed;
}

/// Temporaries of the journal itself, left by a run killed while writing it.
unsigned removeStrayJournals(llvm::StringRef Root) {
  unsigned Removed = 0;
  std::error_code EC;
  for (fs::directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    if (Name.consume_front(JournalName) && Name.consume_front("-") &&
        Name.size() == 6 && !fs::remove(It->path()))
      ++Removed;
  }
  return Removed;
}

/// Checks that \p F can be replaced; the temporary must be able to take its
/// place.
llvm::Error checkWritable(llvm::StringRef Root, const NewFile &F) {
  if (!isUnder(F.Path, Root)) // ProgramRefactor keeps such records as are.
    return failure("'" + F.Path + "' is outside the project root '" + Root +
                   "'; nothing written");
  fs::file_status Status;
  if (fs::status(F.Path, Status) || !fs::is_regular_file(Status))
    return failure("'" + displayPath(F.Path) +
                   "' is not a regular file; nothing written");
  // A file without write permission is read-only to us even as root.
  if (fs::access(F.Path, fs::AccessMode::Write) ||
      !(Status.permissions() & fs::all_write))
    return failure("'" + displayPath(F.Path) +
                   "' is not writable; nothing written");
  return llvm::Error::success();
}

} // namespace

llvm::Error dlopt::applyFiles(llvm::StringRef Root,
                              llvm::ArrayRef<NewFile> Files) {
  for (const NewFile &F : Files)
    if (llvm::Error E = checkWritable(Root, F))
      return E;
  const std::string Journal = journalPath(Root);
  if (fs::exists(Journal))
    return failure("'" + displayPath(Journal) +
                   "' exists: another --apply of this tree is running (or "
                   "was interrupted: run dl-refactor again to end it); "
                   "nothing written");
  std::vector<Entry> Entries;
  for (const NewFile &F : Files)
    Entries.push_back({relativePath(F.Path, Root), ""});
  if (llvm::Error E = writeJournal(Root, "writing", Entries))
    return failure(llvm::toString(std::move(E)) + "; nothing written");
  auto Abort = [&](const llvm::Twine &Message) {
    for (const Entry &E : Entries)
      if (!E.Temp.empty())
        fs::remove(Root + "/" + E.Temp);
    fs::remove(Journal);
    return failure(Message + "; nothing written");
  };
  for (unsigned I = 0; I < Files.size(); ++I) {
    llvm::Expected<std::string> Temp =
        writeNewFile(Files[I].Path + TempInfix + "%%%%%%", Files[I].Text);
    if (!Temp)
      return Abort(llvm::toString(Temp.takeError()));
    Entries[I].Temp = relativePath(*Temp, Root);
    if (llvm::ErrorOr<fs::perms> Perms = fs::getPermissions(Files[I].Path))
      fs::setPermissions(*Temp, *Perms);
    stopForTest("DLOPT_TEST_STOP_AFTER_TEMPORARIES", I + 1);
  }
  if (llvm::Error E = writeJournal(Root, "renaming", Entries))
    return Abort(llvm::toString(std::move(E)));
  for (unsigned I = 0; I < Files.size(); ++I) {
    if (std::error_code EC =
            fs::rename(Root + "/" + Entries[I].Temp, Files[I].Path))
      return failure(llvm::formatv(
          "cannot replace '{0}': {1}; {2} of {3} files are replaced: run "
          "dl-refactor again on this tree to replace the others (journal "
          "'{4}')",
          displayPath(Files[I].Path), EC.message(), I, Files.size(),
          displayPath(Journal)));
    stopForTest("DLOPT_TEST_STOP_AFTER_RENAMES", I + 1);
  }
  fs::remove(Journal);
  return llvm::Error::success();
}

llvm::Expected<Recovery> dlopt::recoverInterruptedApply(llvm::StringRef Root) {
  Recovery R;
  R.Journal = journalPath(Root);
  R.StrayJournals = removeStrayJournals(Root);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(R.Journal);
  if (!Buffer) {
    if (Buffer.getError() == std::errc::no_such_file_or_directory)
      return R;
    return failure("cannot read it: " + Buffer.getError().message());
  }
  llvm::Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return failure("malformed JSON: " + llvm::toString(Parsed.takeError()));
  const json::Object *O = Parsed->getAsObject();
  const json::Array *Files = O ? O->getArray("files") : nullptr;
  std::optional<llvm::StringRef> State =
      O ? O->getString("state") : std::nullopt;
  if (!O || O->getString("format") != Format || !Files ||
      (State != "writing" && State != "renaming"))
    return failure("not a dl-refactor journal");
  R.K = *State == "writing" ? Recovery::RolledBack : Recovery::Completed;
  R.Files = Files->size();
  for (const json::Value &V : *Files) {
    const json::Object *F = V.getAsObject();
    llvm::Expected<std::string> Dest =
        checkedPath(Root, F ? F->getString("dest") : std::nullopt);
    if (!Dest)
      return Dest.takeError();
    if (R.K == Recovery::RolledBack) {
      R.Done += removeTemporaries(*Dest);
      continue;
    }
    llvm::Expected<std::string> Temp = checkedPath(Root, F->getString("temp"));
    if (!Temp)
      return Temp.takeError();
    if (!isTemporaryOf(path::filename(*Temp), path::filename(*Dest)) ||
        path::parent_path(*Temp) != path::parent_path(*Dest))
      return failure("'" + *Temp + "' is not a temporary of '" + *Dest + "'");
    if (!fs::exists(*Temp)) // Renamed before the interruption.
      continue;
    if (std::error_code EC = fs::rename(*Temp, *Dest))
      return failure("cannot replace '" + displayPath(*Dest) +
                     "': " + EC.message());
    ++R.Done;
  }
  if (std::error_code EC = fs::remove(R.Journal))
    return failure("cannot remove it: " + EC.message());
  return R;
}

std::vector<std::string> dlopt::journalsAbove(llvm::StringRef Root) {
  std::vector<std::string> Found;
  for (llvm::StringRef Dir = path::parent_path(Root); !Dir.empty();
       Dir = path::parent_path(Dir)) {
    std::string Journal = journalPath(Dir);
    if (fs::exists(Journal))
      Found.push_back(Journal);
    if (Dir == path::root_path(Dir))
      break;
  }
  return Found;
}

std::vector<std::string>
dlopt::removeStrayTemporaries(const std::vector<std::string> &Dirs) {
  std::vector<std::string> Removed;
  for (const std::string &Dir : Dirs) {
    std::error_code EC;
    for (fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC)) {
      llvm::StringRef Name = path::filename(It->path());
      size_t At = Name.rfind(TempInfix);
      if (At == llvm::StringRef::npos || At == 0 ||
          !isTemporaryOf(Name, Name.take_front(At)))
        continue;
      // Only next to the file it would have replaced.
      llvm::SmallString<256> Of(Dir);
      path::append(Of, Name.take_front(At));
      if (fs::is_regular_file(Of) && !fs::remove(It->path()))
        Removed.push_back(It->path());
    }
  }
  return Removed;
}
