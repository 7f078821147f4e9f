//===- Kdlg.cpp - Kernel data layout graph --------------------------------===//
#include "analysis/Kdlg.h"
#include <algorithm>
#include <cassert>

using namespace dlopt;

Kdlg::Kdlg(std::vector<Field> Fs)
    : Fields(std::move(Fs)), Accessed(Fields.size(), false),
      Delta(Fields.size() * Fields.size(), InfiniteDistance) {
  for (unsigned F = 0; F < Fields.size(); ++F)
    Delta[F * Fields.size() + F] = 0;
}

double Kdlg::delta(unsigned F1, unsigned F2) const {
  assert(F1 < size() && F2 < size());
  return Delta[F1 * size() + F2];
}

void Kdlg::setDelta(unsigned F1, unsigned F2, double D) {
  assert(F1 < size() && F2 < size());
  Delta[F1 * size() + F2] = D;
  Delta[F2 * size() + F1] = D;
}

bool Kdlg::anyAccessed() const {
  return std::find(Accessed.begin(), Accessed.end(), true) != Accessed.end();
}

Kdlg Kdlg::forKernel(std::vector<Field> Fields,
                     const std::vector<unsigned> &FieldIds,
                     const std::vector<PlacedAccess> &Placed) {
  assert(Fields.size() == FieldIds.size());
  Kdlg G(std::move(Fields));
  for (unsigned F = 0; F < G.size(); ++F)
    G.Accessed[F] =
        std::any_of(Placed.begin(), Placed.end(), [&](const PlacedAccess &A) {
          return A.Access.Field == FieldIds[F];
        });
  for (unsigned F1 = 0; F1 < G.size(); ++F1)
    for (unsigned F2 = F1 + 1; F2 < G.size(); ++F2)
      G.setDelta(F1, F2, memoryDistance(Placed, FieldIds[F1], FieldIds[F2]));
  return G;
}

std::vector<bool>
dlopt::significantKernels(const std::vector<KernelGraph> &Kernels,
                          double Significance) {
  double Heaviest = 0;
  for (const KernelGraph &K : Kernels)
    Heaviest = std::max(Heaviest, K.Weight);
  std::vector<bool> Keep;
  for (const KernelGraph &K : Kernels)
    Keep.push_back(K.Graph.anyAccessed() &&
                   K.Weight >= Significance * Heaviest);
  return Keep;
}

Kdlg dlopt::mergeKernelGraphs(const std::vector<Field> &Fields,
                              const std::vector<KernelGraph> &Kernels,
                              double Significance) {
  Kdlg Merged(Fields);
  std::vector<bool> Keep = significantKernels(Kernels, Significance);
  std::vector<const Kdlg *> Significant;
  for (unsigned K = 0; K < Kernels.size(); ++K)
    if (Keep[K])
      Significant.push_back(&Kernels[K].Graph);

  for (unsigned F1 = 0; F1 < Merged.size(); ++F1) {
    for (const Kdlg *G : Significant)
      if (G->accessed(F1))
        Merged.setAccessed(F1);
    for (unsigned F2 = F1 + 1; F2 < Merged.size(); ++F2) {
      bool Considered = false;
      double Max = 0;
      for (const Kdlg *G : Significant) {
        if (!G->accessed(F1) && !G->accessed(F2))
          continue;
        Considered = true;
        Max = std::max(Max, G->delta(F1, F2));
      }
      Merged.setDelta(F1, F2, Considered ? Max : InfiniteDistance);
    }
  }
  return Merged;
}
