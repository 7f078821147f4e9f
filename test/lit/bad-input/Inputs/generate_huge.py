"""Prints a valid C program of about N lines: many small kernels over one
array of structs, all called from main."""
import sys

n = int(sys.argv[1])
kernels = max(1, (n - 10) // 8)
print("typedef struct H {\n  int a;\n  int b;\n} H;\n\nstatic H hs[64];\n")
for k in range(kernels):
    print(f"static int f{k}(int n) {{\n  int s = 0;\n  for (int i = 0; i < n; ++i) {{\n"
          f"    s += hs[i].a * {k % 97};\n    hs[i].b = s;\n  }}\n  return s;\n}}")
print("int main(void) {\n  int t = 0;")
for k in range(kernels):
    print(f"  t += f{k}(64);")
print("  return t & 1;\n}")
