//===- Partition.cpp - Clustering a KDLG at a cache-line threshold --------===//
#include "analysis/Partition.h"
#include <algorithm>

using namespace dlopt;

static double linkage(const Kdlg &G, const Cluster &A, const Cluster &B) {
  double Max = 0;
  for (unsigned F1 : A.Fields)
    for (unsigned F2 : B.Fields)
      Max = std::max(Max, G.delta(F1, F2));
  return Max;
}

std::vector<Cluster> dlopt::partitionKdlg(const Kdlg &G, double Epsilon) {
  std::vector<Cluster> Clusters;
  Cluster ColdFields;
  ColdFields.Cold = true;
  for (unsigned F = 0; F < G.size(); ++F) {
    if (G.accessed(F))
      Clusters.push_back(Cluster{{F}, 0, false});
    else
      ColdFields.Fields.push_back(F);
  }

  while (true) {
    // Closest pair of clusters by their farthest fields; ties go to the
    // earliest clusters so results do not depend on container order.
    double Best = InfiniteDistance;
    unsigned BestA = 0, BestB = 0;
    for (unsigned A = 0; A < Clusters.size(); ++A)
      for (unsigned B = A + 1; B < Clusters.size(); ++B) {
        double L = linkage(G, Clusters[A], Clusters[B]);
        if (L < Best) {
          Best = L;
          BestA = A;
          BestB = B;
        }
      }
    if (!(Best < Epsilon))
      break;
    Cluster &Into = Clusters[BestA];
    Into.Fields.insert(Into.Fields.end(), Clusters[BestB].Fields.begin(),
                       Clusters[BestB].Fields.end());
    std::sort(Into.Fields.begin(), Into.Fields.end());
    Into.MaxDelta = std::max({Into.MaxDelta, Clusters[BestB].MaxDelta, Best});
    Clusters.erase(Clusters.begin() + BestB);
  }

  if (!ColdFields.Fields.empty())
    Clusters.push_back(std::move(ColdFields));
  std::sort(Clusters.begin(), Clusters.end(),
            [](const Cluster &A, const Cluster &B) {
              return A.Fields.front() < B.Fields.front();
            });
  return Clusters;
}
