//===- ProfileCounts.cpp - Measured execution counts ----------------------===//
#include "analysis/ProfileCounts.h"
#include "llvm/ProfileData/Coverage/CoverageMapping.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>

using namespace dlopt;

static std::string realOrSelf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return Real.str().str();
}

llvm::Expected<std::unique_ptr<ProfileCounts>>
ProfileCounts::load(llvm::StringRef ProfData, llvm::StringRef Binary) {
  // The coverage library's messages do not say which file they are about.
  for (llvm::StringRef F : {ProfData, Binary})
    if (!llvm::sys::fs::is_regular_file(F))
      return llvm::createStringError("'" + F.str() +
                                     "': no such file (--profile wants "
                                     "FILE.profdata and --profile-binary "
                                     "the instrumented program)");
  auto FS = llvm::vfs::getRealFileSystem();
  auto Mapping = llvm::coverage::CoverageMapping::load({Binary}, ProfData, *FS);
  if (!Mapping)
    return llvm::createStringError(
        "cannot read the profile '" + ProfData.str() + "' of '" + Binary.str() +
        "': " + llvm::toString(Mapping.takeError()) +
        " (build with -fprofile-instr-generate -fcoverage-mapping, run, "
        "then llvm-profdata merge)");
  auto Counts = std::make_unique<ProfileCounts>();
  Counts->Mismatched = (*Mapping)->getMismatchedCount();
  for (llvm::StringRef Name : (*Mapping)->getUniqueSourceFiles()) {
    llvm::coverage::CoverageData Data = (*Mapping)->getCoverageForFile(Name);
    std::vector<Segment> Segments;
    for (const llvm::coverage::CoverageSegment &S : Data)
      Segments.push_back({S.Line, S.Col, S.Count, S.HasCount});
    std::string Path = realOrSelf(Name);
    std::string Base = llvm::sys::path::filename(Name).str();
    auto [It, New] = Counts->ByName.try_emplace(Base, Path);
    if (!New && It->second != Path)
      It->second.clear();
    Counts->ByPath[Path] = std::move(Segments);
  }
  return Counts;
}

const std::vector<ProfileCounts::Segment> *
ProfileCounts::segmentsOf(llvm::StringRef File) const {
  auto It = ByPath.find(File);
  if (It != ByPath.end())
    return &It->second;
  auto Named = ByName.find(llvm::sys::path::filename(File));
  if (Named == ByName.end() || Named->second.empty())
    return nullptr;
  return &ByPath.find(Named->second)->second;
}

std::optional<uint64_t> ProfileCounts::countAt(llvm::StringRef File,
                                               unsigned Line,
                                               unsigned Col) const {
  const std::vector<Segment> *Segments = segmentsOf(File);
  if (!Segments)
    return std::nullopt;
  // Segments start regions (or end them, giving back the enclosing count)
  // in source order: the last one at or before Line:Col is in effect there.
  auto After = std::upper_bound(
      Segments->begin(), Segments->end(), std::make_pair(Line, Col),
      [](std::pair<unsigned, unsigned> At, const Segment &S) {
        return At < std::make_pair(S.Line, S.Col);
      });
  if (After == Segments->begin() || !std::prev(After)->HasCount)
    return std::nullopt;
  return std::prev(After)->Count;
}
