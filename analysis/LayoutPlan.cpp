//===- LayoutPlan.cpp - What the analysis decided, and why ----------------===//
#include "analysis/LayoutPlan.h"

using namespace dlopt;

bool RecordPlan::unchanged() const {
  return Clusters.size() == 1 && Clusters[0].Chosen == Layout::aos();
}

std::string RecordPlan::fieldSet(const Cluster &C) const {
  std::string S = "{";
  for (unsigned I = 0; I < C.Fields.size(); ++I)
    S += (I ? "," : "") + Fields[C.Fields[I]].Name;
  return S + "}";
}

std::string RecordPlan::notation() const {
  std::string S = Name + ":";
  for (unsigned C = 0; C < Clusters.size(); ++C)
    S += (C ? " | " : " ") + fieldSet(Clusters[C].Fields) + " " +
         Clusters[C].Chosen.str();
  return S;
}
