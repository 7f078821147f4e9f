// Plugin arguments: help, cache-line, model, and clear errors for the rest.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %dlopt-rules -fplugin-arg-dlopt-help -fsyntax-only %s 2>&1 | FileCheck --check-prefix=HELP %s
// HELP: dlopt plugin arguments (-fplugin-arg-dlopt-<arg>):
// HELP: report=FILE.json
// HELP: cache-line=N

// RUN: not %clang %dlopt-rules -fplugin-arg-dlopt-colour=red -fsyntax-only %s 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// UNKNOWN: error: dlopt: unknown argument 'colour=red'; valid arguments: report=FILE, report=DIR/, dot=FILE, cache-line=N, model=FILE, profile=FILE, profile-binary=EXE, this-configuration-only, help
// RUN: not %clang %dlopt-rules -fplugin-arg-dlopt-cache-line=zero -fsyntax-only %s 2>&1 | FileCheck --check-prefix=LINE %s
// LINE: error: dlopt: cache-line wants a byte count from 1 to 4096, got 'zero'
// RUN: not %clang %dlopt-rules -fplugin-arg-dlopt-report -fsyntax-only %s 2>&1 | FileCheck --check-prefix=NOFILE %s
// NOFILE: error: dlopt: 'report' needs a file name (report=FILE)
// RUN: not %clang %dlopt -fplugin-arg-dlopt-model=%t/missing.json -fsyntax-only %s 2>&1 | FileCheck --check-prefix=NOMODEL %s
// NOMODEL: error: dlopt: cannot read model '{{.*}}missing.json'
// RUN: echo '{"format": "dlopt-model", "version": 1, "tree": {"layout": "Tiled(8)"}}' > %t/tiled.json
// RUN: %clang %dlopt -fplugin-arg-dlopt-model=%t/tiled.json -fsyntax-only %s 2>&1 | FileCheck --check-prefix=MODEL %s
// MODEL: remark: dlopt: struct U (12 B, 3 fields, 1 array, 1 kernel): {a,b} Tiled(8) | {c} Tiled(8) at epsilon=64 B
// RUN: echo '{"format": "dlopt-model", "version": 1, "tree": {"layout": "Tiled(7)"}}' > %t/bad.json
// RUN: not %clang %dlopt -fplugin-arg-dlopt-model=%t/bad.json -fsyntax-only %s 2>&1 | FileCheck --check-prefix=BADMODEL %s
// BADMODEL: error: dlopt: {{.*}}bad.json: tree: unknown layout 'Tiled(7)'

// The threshold decides what shares a cluster: b and c are 100 x 8 - 4 B
// apart, a and c 800 B.
// RUN: %clang %dlopt-rules -fsyntax-only %s 2>&1 | FileCheck --check-prefix=EPS64 %s
// EPS64: struct U {{.*}}: {a,b} SoA | {c} SoA at epsilon=64 B
// RUN: %clang %dlopt-rules -fplugin-arg-dlopt-cache-line=800 -fsyntax-only %s 2>&1 | FileCheck --check-prefix=EPS800 %s
// EPS800: struct U {{.*}}: {a,b} SoA | {c} SoA at epsilon=800 B
// RUN: %clang %dlopt-rules -fplugin-arg-dlopt-cache-line=801 -fsyntax-only %s 2>&1 | FileCheck --check-prefix=EPS801 %s
// EPS801: struct U {{.*}}: {a,b,c} SoA at epsilon=801 B
struct U { int a, b, c; };
static struct U us[100];

// An integer sum vectorizes: the 1200 bytes of us are planned (a small
// array no vectorizable loop reaches keeps its layout).
int main(void) {
  int s = 0;
  for (int i = 0; i < 100; ++i)
    s += us[i].a + us[i].b;
  return s * us[0].c;
}
