#!/usr/bin/env python3
"""Microbenchmarks for calibrating dlopt's decision tree for OpenCL kernels.

The OpenCL counterpart of microbench.py, measured on the OpenCL device this
machine offers (PoCL's CPU device here, whose kernel compiler vectorizes
across work-items). Each configuration is one OpenCL program written the
way users write them, in AoS form: a host file that fills an array of a
record of FIELDS fields, copies it into a buffer and launches a kernel over
it, and a kernel file whose kernel, one work-item per element, reads the
first TOUCHED fields of its element (`a[i]`, `a[i + base]` or `a[idx[i]]`)
and writes the first one; or, nested (n-body's and SPH's pattern), reads
those fields of every element for its own and writes its result to a
separate array. As in microbench.py, the program holds one record and kernel
per layout, each layout written by dl-refactor itself (host and kernels,
the whole-program strategy), and each configuration is labelled with the
features the analysis reports for the cluster of the touched fields. Times
are of the kernels alone (OpenCL profiling events), ns per element (per
pair, nested), medians of interleaved repetitions.

usage: microbench_cl.py --out measurements.csv [--dl-refactor PATH] [--cc CC]
                        [--bodies elementwise,libm,sqrt,forces,pairs]
                        [--patterns stream,offset,gather,nested] [--quick]
"""
import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys

import microbench as mb

PATTERNS = ["stream", "offset", "gather", "nested"]
# A sum into one scalar is not a kernel's shape: no reduction body.
# accumulate: lavaMD's force loop, each work-item adding every element's
# contribution into its own element of a second array of the record inside
# the inner loop (a read-modify-write the index does not move).
BODIES = ["elementwise", "libm", "sqrt", "forces", "pairs", "accumulate"]
NESTED_ONLY = (*mb.NESTED_ONLY, "accumulate")
TILES = [4, 16, 64]
# The host's flags: the kernels are compiled by the OpenCL implementation.
HOST_FLAGS = "-O2"
COLUMNS = mb.COLUMNS


def configurations(quick, patterns, bodies):
    """microbench.py's shapes and bodies, at sizes an OpenCL device is used
    at: enough work-items per launch that the launch itself weighs little."""
    shapes = [(2, 4), (4, 4), (8, 4), (12, 4), (16, 4), (4, 8), (8, 8)]
    if not quick:
        shapes += [(24, 4), (2, 8), (16, 8)]
    for (fields, fbytes), pattern, body in itertools.product(shapes, patterns, bodies):
        nested = pattern == "nested"
        if (body in NESTED_ONLY) != nested and body != "elementwise":
            continue
        sizes = ([1 << 11] if quick else [1 << 10, 1 << 12]) if nested else \
            ([1 << 16, 1 << 20] if quick else [1 << 14, 1 << 17, 1 << 20, 1 << 22])
        for n, touched in itertools.product(sizes, sorted({1, 2, fields // 2, fields})):
            if body == "pairs" and touched % 2:
                continue
            if 1 <= touched <= fields:
                yield dict(cflags=HOST_FLAGS, fields=fields, field_bytes=fbytes,
                           touched=touched, pattern=pattern, body=body, n=n)


def value(c, get):
    return mb.value(c, get).replace("sinf(", "sin(").replace("sqrtf(", "sqrt(") \
        .replace("fabsf(", "fabs(")


def kernel(c, r):
    T = "float" if c["field_bytes"] == 4 else "double"
    acc = f", __global struct R{r} *acc" if c["body"] == "accumulate" else ""
    head = (f"__kernel void kernel{r}(__global struct R{r} *a, __global const int *idx, "
            f"__global {T} *out, int n, int base{acc}) {{\n"
            f"  int i = get_global_id(0);\n  if (i >= n)\n    return;\n")
    return body(c, head, lambda x: f"1.0f / sqrt({x})", value)


# Bodies that only read the record (microbench_cu.py).
READ_ONLY = ("readout", "readmath")


def body(c, head, rsqrt, value):
    """The kernel after its HEAD (signature, the work-item's index i and
    its bounds check), in OpenCL C or CUDA alike: RSQRT(x) spells 1/sqrt(x),
    VALUE(c, get) the element-wise expression (microbench.value)."""
    T = "float" if c["field_bytes"] == 4 else "double"
    k = range(c["touched"])
    if c["pattern"] == "nested":
        d = "".join(f"    {T} d{f} = a[j].f{f} - a[i].f{f};\n" for f in k)
        r2 = " + ".join(f"d{f} * d{f}" for f in k)
        if c["body"] == "accumulate":
            inner = (f"{d}    {T} s = {rsqrt(r2 + ' + 1e-3f')};\n"
                     + "".join(f"    acc[i].f{f} += d{f} * s;\n" for f in k))
            return head + f"  for (int j = 0; j < n; ++j) {{\n{inner}  }}\n}}\n"
        if c["body"] == "forces":
            inner = (f"{d}    {T} s = {rsqrt(r2 + ' + 1e-3f')};\n"
                     + "".join(f"    acc{f % 3} += d{f} * s;\n" for f in k))
        elif c["body"] == "pairs":
            inner = (f"{d}    {T} w = 1.0f / ({r2} + 1e-3f);\n"
                     + "".join(f"    acc{f % 2} += d{f} * w;\n" for f in k))
        else:
            inner = f"    acc0 += {value(c, lambda f: f'(a[j].f{f} - a[i].f{f})')};\n"
        return head + (f"  {T} acc0 = 0, acc1 = 0, acc2 = 0;\n"
                       f"  for (int j = 0; j < n; ++j) {{\n{inner}  }}\n"
                       f"  out[i] = (acc0 + acc1 + acc2) / n * 0.5f + 0.25f;\n}}\n")
    j = {"stream": "i", "offset": "i + base", "gather": "idx[i]"}[c["pattern"]]
    get = lambda f: f"a[{j}].f{f}"
    # readout, readmath (microbench_cu.py): the result in out[i], the fields
    # only read.
    target = "out[i]" if c["body"] in READ_ONLY else get(0)
    return head + f"  {target} = {value(c, get)} * 0.5f + 0.25f;\n}}\n"


def kernels(c, names):
    T = "float" if c["field_bytes"] == 4 else "double"
    fields = "".join(f"  {T} f{k};\n" for k in range(c["fields"]))
    head = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" if T == "double" else ""
    return head + "".join(f"struct R{r} {{\n{fields}}};\n\n" + kernel(c, r) + "\n"
                          for r in range(len(names)))


def host(c, names):
    T = "cl_float" if c["field_bytes"] == 4 else "cl_double"
    N, L = c["n"], len(names)
    nested = c["pattern"] == "nested"
    work = N * N if nested else N
    # About 2^24 element reads (2^21 with libm) per timing, in 2 to 16
    # launches.
    reps = max(2, min(16, (1 << (21 if c["body"] in ("libm", *NESTED_ONLY) else 24))
                      // work))
    fields = "".join(f"  {T} f{k};\n" for k in range(c["fields"]))
    init = "".join(f"    a[i].f{k} = ({T})((i * {k + 3}) % 17) * 0.125f + 1.0f;\n"
                   for k in range(c["touched"]))
    out = [f"""#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define N {N}
#define REPS {reps}
#define CHECK(call) \\
  do {{ \\
    cl_int err_ = (call); \\
    if (err_ != CL_SUCCESS) {{ \\
      fprintf(stderr, "line %d: OpenCL error %d\\n", __LINE__, err_); \\
      exit(1); \\
    }} \\
  }} while (0)
static cl_context context;
static cl_command_queue queue;
static cl_program program;
static cl_mem idx_buf, out_buf;
static double seconds(cl_event e) {{
  cl_ulong s = 0, t = 0;
  clWaitForEvents(1, &e);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL);
  clReleaseEvent(e);
  return (double)(t - s);
}}
"""]
    for r in range(L):
        # accumulate: the second array, zeroed, whose sums are the checksum
        # (read back into a).
        acc = c["body"] == "accumulate"
        zero = "".join(f"    b[i].f{k} = 0;\n" for k in range(c["touched"]))
        acc_alloc = (f"  struct R{r} *b = malloc(N * sizeof(struct R{r}));\n"
                     f"  for (int i = 0; i < N; ++i) {{\n{zero}  }}\n") if acc else ""
        acc_args = (f"  cl_mem acc = clCreateBuffer(context, CL_MEM_READ_WRITE,\n"
                    f"                              N * sizeof(struct R{r}), NULL, &err);\n"
                    f"  CHECK(err);\n"
                    f"  CHECK(clEnqueueWriteBuffer(queue, acc, CL_TRUE, 0,\n"
                    f"                             N * sizeof(struct R{r}), b, 0, NULL, NULL));\n"
                    f"  CHECK(clSetKernelArg(k, 5, sizeof(cl_mem), &acc));\n") if acc else ""
        acc_read = (f"  CHECK(clEnqueueReadBuffer(queue, acc, CL_TRUE, 0,\n"
                    f"                            N * sizeof(struct R{r}), b, 0, NULL, NULL));\n"
                    f"  for (int i = 0; i < N; ++i)\n    a[i].f0 = b[i].f0;\n"
                    f"  clReleaseMemObject(acc);\n  free(b);\n") if acc else ""
        out.append(f"""struct R{r} {{
{fields}}};
static double run{r}(double *sum) {{
  cl_int err;
  struct R{r} *a = malloc(N * sizeof(struct R{r}));
  for (int i = 0; i < N; ++i) {{
{init}  }}
{acc_alloc}  cl_kernel k = clCreateKernel(program, "kernel{r}", &err);
  CHECK(err);
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(struct R{r}),
                              NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, N * sizeof(struct R{r}), a, 0,
                             NULL, NULL));
  int n = N, base = 0;
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &idx_buf));
  CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &out_buf));
  CHECK(clSetKernelArg(k, 3, sizeof(int), &n));
  CHECK(clSetKernelArg(k, 4, sizeof(int), &base));
{acc_args}  size_t global = N;
  double t = 0;
  for (int rep = 0; rep < REPS; ++rep) {{
    cl_event e;
    CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, &e));
    t += seconds(e);
  }}
  CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, N * sizeof(struct R{r}), a, 0,
                            NULL, NULL));
{acc_read}  for (int i = 0; i < N; ++i)
    *sum += a[i].f0;
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  free(a);
  return t;
}}
""")
    runs = "".join(f"    times[{r}][rep] = run{r}(&sums[{r}]);\n" for r in range(L))
    TO = "cl_float" if c["field_bytes"] == 4 else "cl_double"
    setup = """int main(int argc, char **argv) {
  (void)argc;
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  char path[4096];
  snprintf(path, sizeof path, "%s.cl", argv[0]);
  FILE *f = fopen(path, "rb");
  if (!f)
    return 1;
  static char text[1 << 20];
  text[fread(text, 1, sizeof text - 1, f)] = 0;
  fclose(f);
  const char *src = text;
  program = clCreateProgramWithSource(context, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL));
"""
    buffers = f"""  idx_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           N * sizeof *idx, idx, &err);
  CHECK(err);
  out_buf = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof({TO}), NULL, &err);
  CHECK(err);
"""
    out.append(mb.C_CMP + setup + mb.C_SHUFFLE + buffers + mb.c_interleaved(names, runs)
               + mb.c_report(work) + "  free(idx);\n  return 0;\n}\n")
    return "".join(out)


def measure(c, cc, dl_refactor, work):
    """The configuration's rows, or None when a layout changed the output."""
    plans = mb.layouts(c, TILES)
    names = list(plans)
    src, cl = os.path.join(work, "mbcl.c"), os.path.join(work, "mbcl.cl")
    with open(src, "w") as f:
        f.write(host(c, names))
    with open(cl, "w") as f:
        f.write(kernels(c, names))
    forced = [f"--layout=R{r}={plans[n]}" for r, n in enumerate(names)]
    report = subprocess.run([dl_refactor, "--report", "--format=json", *forced, src, cl,
                             "--"], check=True, capture_output=True, text=True)
    record = next(r for r in json.loads(report.stdout)["records"]
                  if r["name"] == f"R{names.index('SoA')}")
    if "clusters" not in record:
        sys.exit(f"microbench_cl.py: {c}: not transformable: {record.get('blockers')}")
    features = next(cl["features"] for cl in record["clusters"] if "f0" in cl["fields"])
    subprocess.run([dl_refactor, "--apply", "--quiet", *forced, src, cl, "--"],
                   check=True, capture_output=True)
    exe = os.path.join(work, "mbcl")  # loads mbcl.cl, beside it
    subprocess.run([cc, HOST_FLAGS, src, "-o", exe, "-lOpenCL"], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return mb.output_rows(c, features, out, c["cflags"], "microbench_cl.py")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--dl-refactor", default=mb.default_dl_refactor())
    ap.add_argument("--bodies", default=",".join(BODIES))
    ap.add_argument("--patterns", default=",".join(PATTERNS))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--limit", type=int, default=0,
                    help="measure only the first N configurations (to try it)")
    o = ap.parse_args()
    configs = list(configurations(o.quick, o.patterns.split(","), o.bodies.split(",")))
    if o.limit:
        configs = configs[:o.limit]
    sys.exit(mb.sweep(configs, lambda c, work: measure(c, o.cc, o.dl_refactor, work),
                      o.out))


if __name__ == "__main__":
    main()
