//===- ProjectPaths.cpp - Which file is which, the project root -----------===//
#include "rewriter/ProjectPaths.h"
#include "analysis/WholeProgram.h"
#include "clang/Basic/FileManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace dlopt;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string dlopt::realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!fs::real_path(Path, Real))
    return Real.str().str();
  Real = Path;
  fs::make_absolute(Real);
  path::remove_dots(Real, /*remove_dot_dot=*/true);
  return Real.str().str();
}

bool dlopt::isUnder(llvm::StringRef Path, llvm::StringRef Root) {
  if (!Path.starts_with(Root))
    return false;
  return Path.size() == Root.size() || path::is_separator(Root.back()) ||
         path::is_separator(Path[Root.size()]);
}

std::string dlopt::commonDirectory(const std::vector<std::string> &Files) {
  std::vector<std::string> Common;
  for (unsigned I = 0; I < Files.size(); ++I) {
    llvm::SmallString<256> Dir(Files[I]);
    fs::make_absolute(Dir);
    path::remove_dots(Dir, /*remove_dot_dot=*/true);
    path::remove_filename(Dir);
    std::vector<std::string> Parts(path::begin(Dir), path::end(Dir));
    if (I == 0) {
      Common = std::move(Parts);
      continue;
    }
    unsigned Same = 0;
    while (Same < Common.size() && Same < Parts.size() &&
           Common[Same] == Parts[Same])
      ++Same;
    Common.resize(Same);
  }
  llvm::SmallString<256> Dir;
  for (const std::string &Part : Common)
    path::append(Dir, Part);
  return realPath(Dir.empty() ? "." : Dir.str());
}

std::string dlopt::relativePath(llvm::StringRef Path, llvm::StringRef Base) {
  if (!isUnder(Path, Base))
    return Path.str();
  llvm::StringRef Rest = Path.drop_front(Base.size());
  while (!Rest.empty() && path::is_separator(Rest.front()))
    Rest = Rest.drop_front();
  return Rest.empty() ? "." : path::convert_to_slash(Rest);
}

std::string dlopt::displayPath(llvm::StringRef Path) {
  // Computed once: threads ask too, and the directory does not change.
  static const std::string Cwd = [] {
    llvm::SmallString<256> Dir;
    return fs::current_path(Dir) ? std::string() : realPath(Dir);
  }();
  std::string Real = realPath(Path);
  if (Cwd.empty() || !isUnder(Real, Cwd))
    return Real;
  return relativePath(Real, Cwd);
}

//===----------------------------------------------------------------------===//
// FileSpellings
//===----------------------------------------------------------------------===//

FileSpellings::FileSpellings(const clang::SourceManager &SM) {
  clang::FileManager &FM = SM.getFileManager();
  for (unsigned I = 0; I < SM.local_sloc_entry_size(); ++I) {
    const clang::SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const clang::SrcMgr::ContentCache &C = E.getFile().getContentCache();
    if (!C.OrigEntry)
      continue;
    // Locations use the name the file was first entered by, the content
    // cache keeps the last one: either may be in a message.
    for (llvm::StringRef Name : {C.OrigEntry->getName(), C.Filename}) {
      if (Name.empty() || Real.count(Name))
        continue;
      llvm::SmallString<256> Abs(Name);
      FM.makeAbsolutePath(Abs);
      path::remove_dots(Abs, /*remove_dot_dot=*/true);
      // Absolute already (the FileManager fills it in); realPath() then
      // resolves symbolic links the operating system left in it.
      llvm::StringRef Known = C.OrigEntry->getFileEntry().tryGetRealPathName();
      std::string R = realPath(Known.empty() ? Abs.str() : Known);
      Real.emplace(Name.str(), R);
      Names[R].insert(Abs.str().str());
    }
  }
}

const std::string &FileSpellings::displayOf(const std::string &RealPath) const {
  auto [It, New] = Display.try_emplace(RealPath);
  if (New)
    It->second = displayPath(RealPath);
  return It->second;
}

std::string FileSpellings::realPathOf(llvm::StringRef Name) const {
  auto It = Real.find(Name);
  return It == Real.end() ? "" : It->second;
}

/// Splits "name:line:col" into the name and ":line:col" (false if \p Pos is
/// not of that form).
static bool splitPosition(llvm::StringRef Pos, llvm::StringRef &Name,
                          llvm::StringRef &LineCol) {
  auto [Rest, Col] = Pos.rsplit(':');
  auto [File, Line] = Rest.rsplit(':');
  unsigned N;
  if (File.empty() || Line.getAsInteger(10, N) || Col.getAsInteger(10, N))
    return false;
  Name = File;
  LineCol = Pos.drop_front(File.size());
  return true;
}

std::string FileSpellings::canonicalPosition(llvm::StringRef Pos) const {
  llvm::StringRef Name, LineCol;
  if (!splitPosition(Pos, Name, LineCol))
    return Pos.str();
  std::string R = realPathOf(Name);
  return R.empty() ? Pos.str() : displayOf(R) + LineCol.str();
}

std::string FileSpellings::canonicalMessage(llvm::StringRef Message) const {
  // "name:line:col: text": the position ends at the first ": " after which
  // the part before it parses (a name may itself contain ':').
  for (size_t At = Message.find(": "); At != llvm::StringRef::npos;
       At = Message.find(": ", At + 1)) {
    llvm::StringRef Name, LineCol;
    if (splitPosition(Message.take_front(At), Name, LineCol))
      return canonicalPosition(Message.take_front(At)) +
             Message.drop_front(At).str();
  }
  return Message.str();
}

void FileSpellings::canonicalize(
    LayoutPlan &Plan,
    std::map<std::string, std::set<std::string>> &Files) const {
  for (RecordPlan &R : Plan.Records) {
    std::set<std::string> &In = Files[recordKey(R)];
    auto Fix = [&](SourcePos &Pos) {
      llvm::StringRef Name, LineCol;
      if (!splitPosition(Pos, Name, LineCol))
        return;
      std::string Path = realPathOf(Name);
      if (Path.empty())
        return;
      In.insert(Path);
      Pos = displayOf(Path) + LineCol.str();
    };
    Fix(R.Location);
    for (ArrayRoot &A : R.Arrays)
      Fix(A.Location);
    for (KernelSummary &K : R.Kernels) {
      Fix(K.Location);
      for (LoopInfo &L : K.Loops)
        Fix(L.Location);
      for (AccessInfo &A : K.Accesses)
        Fix(A.Location);
      for (std::vector<FieldGroup> *Groups : {&K.Held, &K.VectorStores})
        for (FieldGroup &G : *Groups)
          Fix(G.Location);
    }
    for (std::vector<Blocker> *Bs :
         {&R.Blockers, &R.LeftAsWritten, &R.SetAside})
      for (Blocker &B : *Bs)
        Fix(B.Location);
    for (ExternalSymbol &S : R.Externals)
      Fix(S.Location);
    if (!R.SubArrayAt.empty())
      Fix(R.SubArrayAt);
    for (MacroInvocation &M : R.MacroUses)
      Fix(M.Location);
    for (HeaderView &H : R.Headers)
      H.Name = displayOf(H.File);
  }
}
