// The plugin's remarks follow Clang's optimization-remark conventions: none
// without an -R flag matching "dlopt" (its report= file is still written),
// -Rpass=dlopt for records whose layout changes, -Rpass-missed=dlopt for
// those kept (blockers as notes), -Rpass-analysis=dlopt for the KDLG and
// the clusters, each with Clang's flag text; -Rno-everything silences them,
// and -fsave-optimization-record gets them in LLVM's YAML remark format.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %dlopt-plugin -fplugin-arg-dlopt-report=%t/plan.json -fno-caret-diagnostics -fsyntax-only %s 2>&1 | count 0
// RUN: FileCheck --check-prefix=JSON %s < %t/plan.json
// JSON: "format": "dlopt-plan"

// RUN: %clang %dlopt-plugin -Rpass=dlopt -fno-caret-diagnostics -fsyntax-only %s 2>&1 | FileCheck --check-prefix=PASS --implicit-check-not=remark: --implicit-check-not=note: %s
// PASS: remarks.c:[[@LINE+46]]:8: remark: dlopt: struct Hot (16 B, 4 fields, 1 array, 1 kernel): {x,y} SoA | {z,w} AoS at epsilon=64 B [-Rpass=dlopt]

// RUN: %clang %dlopt-plugin -Rpass-missed=dlopt -fno-caret-diagnostics -fsyntax-only %s 2>&1 | FileCheck --check-prefix=MISSED --implicit-check-not=remark: %s
// MISSED: remarks.c:[[@LINE+46]]:8: remark: dlopt: struct Kept (8 B, 2 fields, 1 array): not transformable: cast of 'struct Kept *' to 'char *' [-Rpass-missed=dlopt]
// MISSED: remarks.c:[[@LINE+71]]:10: note: blocks the rewrite: cast of 'struct Kept *' to 'char *'

// RUN: %clang %dlopt-plugin -Rpass-analysis=dlopt -fno-caret-diagnostics -fsyntax-only %s 2>&1 | FileCheck --check-prefix=ANALYSIS --implicit-check-not=remark: %s
// ANALYSIS: remark: dlopt: struct Hot KDLG (delta in bytes, epsilon=64 B): x-y 4 B [-Rpass-analysis=dlopt]
// ANALYSIS-NEXT: note: cluster {x,y} SoA: sigma=8 B, max delta=4 B (
// ANALYSIS-NEXT: note: cluster {z,w} AoS: sigma=8 B (cold
// ANALYSIS: remarks.c:[[@LINE+42]]:8: remark: dlopt: struct Elsewhere: its arrays reach other files; the whole program decides (dl-refactor --merge-reports over every file's report) [-Rpass-analysis=dlopt]
// ANALYSIS: remarks.c:[[@LINE+65]]:8: note: in this file: 'Elsewhere' array passed to 'fill', which is not defined in the analyzed files

// Another pass's pattern shows nothing of dlopt; -Rpass=.* does, and
// -Rno-everything silences it again.
// RUN: %clang %dlopt-plugin -Rpass=inline -fno-caret-diagnostics -fsyntax-only %s 2>&1 | count 0
// RUN: %clang %dlopt-plugin -Rpass=.* -fno-caret-diagnostics -fsyntax-only %s 2>&1 | FileCheck --check-prefix=ANY %s
// ANY: remark: dlopt: struct Hot
// RUN: %clang %dlopt-plugin -Rpass=dlopt -Rpass-missed=dlopt -Rno-everything -fno-caret-diagnostics -fsyntax-only %s 2>&1 | count 0

// The optimization record: every kind, whatever -R says, each under a
// function (the heaviest kernel, else the function of the first blocker),
// readable by llvm-remarkutil. The YAML writer wraps long lines, so a long
// path puts Line: on the next line.
// RUN: cd %t && %clang %dlopt-plugin -O1 -fsave-optimization-record -c %s -o remarks.o
// RUN: FileCheck --check-prefix=YAML %s < %t/remarks.opt.yaml
// YAML:      Pass: dlopt
// YAML-NEXT: Name: LayoutPlanned
// YAML-NEXT: DebugLoc: { File: '{{.*}}remarks.c',
// YAML:      Line: [[@LINE+17]],
// YAML:      Function: sum
// YAML-NEXT: Args:
// YAML-NEXT:   - String: 'struct Hot (16 B
// YAML:      --- !Missed
// YAML-NEXT: Pass: dlopt
// YAML-NEXT: Name: LayoutKept
// YAML:      Function: main
// YAML:        - Note: 'blocks the rewrite: cast of ''struct Kept *'' to ''char *'''
// YAML-NEXT:     DebugLoc: { File: '{{.*}}remarks.c',
// YAML:            Line: [[@LINE+36]],
// RUN: llvm-remarkutil count --parser=yaml --pass-name=dlopt --group-by=total %t/remarks.opt.yaml | FileCheck --check-prefix=COUNT %s
// COUNT: 4
// RUN: cd %t && %clang %dlopt-plugin -O1 -fsave-optimization-record -foptimization-record-passes=inline -c %s -o only-inline.o
// RUN: not grep dlopt %t/only-inline.opt.yaml
#include <string.h>

struct Hot {
  float x, y, z, w;
};
struct Kept {
  int a, b;
};
struct Elsewhere {
  int p, q;
};
// Defined in another file of the program.
void fill(struct Elsewhere *e, int n);

static struct Hot hot[1024];
static struct Kept kept[16];
static struct Elsewhere far[8];

float sum(int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += hot[i].x * hot[i].y;
  for (int i = 0; i < 16; ++i)
    s += kept[i].a * kept[i].b;
  for (int i = 0; i < 8; ++i)
    s += far[i].p - far[i].q;
  return s;
}

int main(void) {
  hot[0].z = hot[0].w = 1;
  memset((char *)kept, 0, sizeof kept);
  fill(far, 8);
  return (int)sum(1024);
}
