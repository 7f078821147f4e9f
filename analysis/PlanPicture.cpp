//===- PlanPicture.cpp - A picture of each record's layout, as DOT --------===//
//
// See PlanPicture.h. A cache line is drawn as one row of an HTML-like
// graphviz table, a column per byte: each array of a layout repeats a unit
// (an element, a group's element, a tile) made of runs of one field's
// elements, and a byte belongs to one element's field or to padding.
//
//===----------------------------------------------------------------------===//
#include "analysis/PlanPicture.h"
#include "analysis/PlanPrinter.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace dlopt;

namespace {

/// Colorbrewer's Set3, a colour per field (in declaration order).
const char *const Palette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                               "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                               "#bc80bd", "#ccebc5", "#ffed6f", "#d9d9d9"};
const char *const PaddingColour = "#f4f4f4";
constexpr unsigned NoField = ~0u;
/// Pixels per byte, and the widest line drawn.
constexpr unsigned PixelsPerByte = 11;
constexpr uint64_t MaxLineBytes = 128;

std::string colour(unsigned F) {
  return F == NoField ? PaddingColour : Palette[F % std::size(Palette)];
}

std::string html(StringRef S) {
  std::string Out;
  for (char C : S)
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  return Out;
}

/// Count elements of one field, side by side from Offset within a unit.
struct Run {
  unsigned Field;
  uint64_t Count, Offset;
};

/// What an array of a layout repeats: an element (AoS), one field's
/// element (SoA), a tile (Tiled).
struct Unit {
  std::vector<Run> Runs;
  uint64_t Bytes = 0;
};

uint64_t alignTo(uint64_t N, uint64_t A) { return A ? (N + A - 1) / A * A : N; }

/// The natural alignment of a field of \p Size bytes: the largest power of
/// two up to 8 that divides it (an array of floats aligns as a float).
uint64_t alignmentOf(uint64_t Size) {
  uint64_t A = 1;
  while (A < 8 && Size % (A * 2) == 0)
    A *= 2;
  return A;
}

/// \p Fields laid out as a struct of them, \p Count elements of each.
Unit packed(const RecordPlan &R, ArrayRef<unsigned> Fields, uint64_t Count) {
  Unit U;
  uint64_t MaxAlign = 1;
  for (unsigned F : Fields) {
    uint64_t A = alignmentOf(R.Fields[F].Size);
    MaxAlign = std::max(MaxAlign, A);
    U.Bytes = alignTo(U.Bytes, A);
    U.Runs.push_back({F, Count, U.Bytes});
    U.Bytes += Count * R.Fields[F].Size;
  }
  U.Bytes = alignTo(U.Bytes, MaxAlign);
  return U;
}

/// The record as written: every field at its offset, R.Size a unit.
Unit original(const RecordPlan &R) {
  Unit U;
  for (unsigned F = 0; F < R.Fields.size(); ++F)
    U.Runs.push_back({F, 1, R.Fields[F].Offset});
  U.Bytes = std::max<uint64_t>(R.Size, 1);
  return U;
}

/// The arrays a cluster's layout makes, each with its row label.
std::vector<std::pair<std::string, Unit>> clusterArrays(const RecordPlan &R,
                                                        const ClusterPlan &C) {
  std::vector<std::pair<std::string, Unit>> Out;
  std::string Fields = "{";
  for (unsigned F : C.Fields.Fields)
    Fields += (Fields.size() > 1 ? "," : "") + R.Fields[F].Name;
  Fields += "}";
  switch (C.Chosen.Kind) {
  case LayoutKind::AoS:
    Out.push_back({Fields + " AoS", packed(R, C.Fields.Fields, 1)});
    break;
  case LayoutKind::SoA:
    for (unsigned F : C.Fields.Fields)
      Out.push_back(
          {R.Fields[F].Name + "[] (" + Fields + " SoA)", packed(R, {F}, 1)});
    break;
  case LayoutKind::Tiled:
    Out.push_back({Fields + " " + C.Chosen.str() + ", a tile's start",
                   packed(R, C.Fields.Fields, C.Chosen.Tile)});
    break;
  }
  return Out;
}

/// One table row: the bytes [0, Line) of an array repeating \p U, a cell
/// per run of bytes of one element's field (or of padding).
std::string lineRow(const RecordPlan &R, StringRef Label, const Unit &U,
                    uint64_t Line) {
  struct Cell {
    unsigned Field;
    uint64_t Element, Bytes;
  };
  std::vector<Cell> Cells;
  for (uint64_t B = 0; B < Line; ++B) {
    uint64_t At = B % U.Bytes, Base = B / U.Bytes;
    Cell C{NoField, Base, 1};
    for (const Run &Rn : U.Runs) {
      uint64_t Size = std::max<uint64_t>(R.Fields[Rn.Field].Size, 1);
      if (At >= Rn.Offset && At < Rn.Offset + Rn.Count * Size) {
        C = {Rn.Field, Base * Rn.Count + (At - Rn.Offset) / Size, 1};
        break;
      }
    }
    if (!Cells.empty() && Cells.back().Field == C.Field &&
        Cells.back().Element == C.Element)
      ++Cells.back().Bytes;
    else
      Cells.push_back(C);
  }
  std::string S =
      "<TR><TD ALIGN=\"RIGHT\" BORDER=\"0\"><FONT POINT-SIZE=\"9\">" +
      html(Label) + "</FONT></TD>";
  for (const Cell &C : Cells) {
    std::string Name = C.Field == NoField ? "" : R.Fields[C.Field].Name;
    // The element's index where it fits ("x3"), else the name, else
    // nothing: the tooltip has both.
    auto Fits = [&](const std::string &S) {
      return S.size() * 6 + 2 <= C.Bytes * PixelsPerByte;
    };
    std::string Indexed = Name + std::to_string(C.Element);
    std::string Shown = C.Field == NoField ? ""
                        : Fits(Indexed)    ? Indexed
                        : Fits(Name)       ? Name
                                           : "";
    std::string Tip = C.Field == NoField
                          ? "padding"
                          : Name + " of element " + std::to_string(C.Element);
    S += "<TD COLSPAN=\"" + std::to_string(C.Bytes) + "\" WIDTH=\"" +
         std::to_string(C.Bytes * PixelsPerByte) +
         "\" HEIGHT=\"20\" FIXEDSIZE=\"TRUE\" BGCOLOR=\"" + colour(C.Field) +
         "\" TOOLTIP=\"" + html(Tip) + "\"><FONT POINT-SIZE=\"8\">" +
         html(Shown) + "</FONT></TD>";
  }
  return S + "</TR>";
}

/// \p S in a double-quoted DOT string (its escapes, \\l, kept).
std::string dotEscape(StringRef S) {
  std::string Out;
  for (char C : S)
    Out += C == '"' ? std::string("\\\"") : std::string(1, C);
  return Out;
}

std::string headerRow(StringRef Text, uint64_t Line) {
  return "<TR><TD BORDER=\"0\"></TD><TD COLSPAN=\"" + std::to_string(Line) +
         "\" BORDER=\"0\" ALIGN=\"LEFT\"><B>" + html(Text) + "</B></TD></TR>";
}

std::string nodeId(const RecordPlan &R, StringRef What) {
  return "\"" + R.Name + "." + What.str() + "\"";
}

/// The table of lines: before, and after in each array of the layout.
void printLines(raw_ostream &OS, const RecordPlan &R, uint64_t Epsilon) {
  uint64_t Line = std::min(Epsilon, MaxLineBytes);
  std::string Of = Line < Epsilon
                       ? "the first " + std::to_string(Line) + " of its " +
                             std::to_string(Epsilon) + " bytes"
                       : std::to_string(Line) + " bytes";
  OS << "    " << nodeId(R, "lines")
     << " [shape=plaintext, label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" "
        "CELLSPACING=\"0\" CELLPADDING=\"1\">";
  // Headers stay shorter than the line: a wider cell would widen the
  // byte columns unevenly.
  OS << headerRow("one cache line (" + Of + ") as written", Line)
     << lineRow(R, "struct " + R.Name + "[]", original(R), Line);
  if (R.transformable() && !R.unchanged()) {
    OS << headerRow("the same line in each array of the plan", Line);
    for (const ClusterPlan &C : R.Clusters)
      for (const auto &[Label, U] : clusterArrays(R, C))
        OS << lineRow(R, Label, U, Line);
  }
  OS << "</TABLE>>];\n";
  if (R.transformable() && !R.unchanged())
    return;
  // Why it stays, wrapped.
  std::string Why = R.transformable()
                        ? "The plan keeps it as it is."
                        : "Kept as it is: " + R.Blockers.front().Reason;
  std::string Wrapped;
  size_t Column = 0;
  for (StringRef Word : split(Why, ' ')) {
    if (Column + Word.size() > 90 && Column) {
      Wrapped += "\\l";
      Column = 0;
    }
    Wrapped += (Column ? " " : "") + Word.str();
    Column += Word.size() + 1;
  }
  OS << "    " << nodeId(R, "why") << " [shape=note, fontsize=9, label=\""
     << dotEscape(Wrapped) << "\\l\"];\n"
     << "    " << nodeId(R, "lines") << " -> " << nodeId(R, "why")
     << " [style=invis];\n";
}

/// The KDLG: fields by cluster, edges under epsilon, a legend.
void printGraph(raw_ostream &OS, const RecordPlan &R, uint64_t Epsilon) {
  for (unsigned C = 0; C < R.Clusters.size(); ++C) {
    const ClusterPlan &CP = R.Clusters[C];
    OS << "    subgraph \"cluster_" << R.Name << "_" << C << "\" {\n"
       << "      label=\"" << CP.Chosen.str()
       << (CP.Fields.Cold ? " (cold)" : "") << "\"; style=rounded;\n";
    for (unsigned F : CP.Fields.Fields)
      OS << "      " << nodeId(R, R.Fields[F].Name) << " [label=\""
         << R.Fields[F].Name << "\\n"
         << R.Fields[F].Size << " B\", style=filled, fillcolor=\"" << colour(F)
         << "\"];\n";
    OS << "    }\n";
    // Below the lines.
    if (!CP.Fields.Fields.empty())
      OS << "    " << nodeId(R, "lines") << " -> "
         << nodeId(R, R.Fields[CP.Fields.Fields.front()].Name)
         << " [style=invis];\n";
  }
  KdlgEdges Edges = edgesWithin(R, Epsilon);
  unsigned Far = Edges.Far, Never = Edges.Never;
  for (const KdlgEdges::Edge &E : Edges.Near)
    OS << "    " << nodeId(R, R.Fields[E.From].Name) << " -> "
       << nodeId(R, R.Fields[E.To].Name) << " [dir=none, label=\""
       << formatDistance(E.Delta) << " B\"];\n";
  OS << "    " << nodeId(R, "legend") << " [shape=note, fontsize=9, label=\""
     << "KDLG: an edge is the distance in bytes between two fields'\\l"
     << "accesses in a kernel, drawn below epsilon = " << Epsilon << " B\\l"
     << "(" << Far << (Far == 1 ? " pair" : " pairs") << " farther apart, "
     << Never << " never accessed together: not drawn);\\l"
     << "a box is a cluster, with its layout\\l\"];\n"
     << "    " << nodeId(R, "lines") << " -> " << nodeId(R, "legend")
     << " [style=invis];\n";
}

} // namespace

void dlopt::printPlanPicture(raw_ostream &OS, const LayoutPlan &Plan) {
  OS << "digraph dlopt_layout {\n"
     << "  rankdir=TB; nodesep=0.3; ranksep=0.35;\n"
     << "  node [fontname=\"Helvetica\", shape=box, fontsize=10];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  const RecordPlan *Previous = nullptr;
  for (const RecordPlan &R : Plan.Records) {
    uint64_t Epsilon = R.Epsilon ? R.Epsilon : Plan.CacheLine;
    // One panel under the other: below every node of the one before.
    if (Previous) {
      std::vector<std::string> Above = {"lines", "why", "legend"};
      if (Previous->transformable())
        for (const Field &F : Previous->Fields)
          Above.push_back(F.Name);
      else
        Above.pop_back();
      if (Previous->transformable() && !Previous->unchanged())
        Above.erase(Above.begin() + 1);
      for (const std::string &N : Above)
        OS << "  " << nodeId(*Previous, N) << " -> " << nodeId(R, "lines")
           << " [style=invis];\n";
    }
    Previous = &R;
    OS << "  subgraph \"cluster_" << R.Name << "\" {\n"
       << "    label=<<B>struct " << html(R.Name) << "</B> (" << R.Size
       << " B, " << R.Fields.size() << " fields)>; labeljust=l; "
       << "fontname=\"Helvetica\"; color=\"#999999\";\n";
    printLines(OS, R, Epsilon);
    if (R.transformable())
      printGraph(OS, R, Epsilon);
    OS << "  }\n";
  }
  OS << "}\n";
}
