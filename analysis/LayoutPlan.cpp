//===- LayoutPlan.cpp - What the analysis decided, and why ----------------===//
#include "analysis/LayoutPlan.h"

using namespace dlopt;

bool RecordPlan::unchanged() const {
  return Clusters.size() == 1 && Clusters[0].Chosen == Layout::aos();
}

std::string RecordPlan::notation() const {
  std::string S = Name + ":";
  for (unsigned C = 0; C < Clusters.size(); ++C) {
    S += C ? " | {" : " {";
    const std::vector<unsigned> &Fs = Clusters[C].Fields.Fields;
    for (unsigned I = 0; I < Fs.size(); ++I)
      S += (I ? "," : "") + Fields[Fs[I]].Name;
    S += "} " + Clusters[C].Chosen.str();
  }
  return S;
}
