# lit configuration of dlopt's regression tests.
#
# Substitutions:
#   %clang        clang-19 (able to load the plugin, also in sanitizer builds)
#   %cc           clang-19 as a plain compiler, one word (for scripts)
#   %clangxx      clang-19 as a C++ compiler and linker (test programs)
#   %dlopt        -fplugin=<build>/lib/libdlopt.so -Rpass=dlopt
#                 -Rpass-missed=dlopt (its plans and refusals shown; the
#                 analysis remarks and no remark at all: plugin/remarks.c)
#   %dlopt-plugin -fplugin=<build>/lib/libdlopt.so alone
#   %dl-refactor  <build>/bin/dl-refactor
#   %dl-refactor-rules, %dlopt-rules  the same with the model pinned to
#                 test/Inputs/rules-model.json (%rules-model)
#   %examples     the examples/ directory
#   %dlopt-version, %llvm-version  the project's version (CMake) and LLVM's
#   %python-sklearn  a python3 that can import sklearn (feature: sklearn)
#   %nvcc         the CUDA toolkit's nvcc; where it is missing, a command that
#                 fails saying so (CUDA tests fail, not skip, without it)
#   %build-only, %built  check_layouts.py's --build-only and the word it
#                 prints for a layout that builds ("builds"); in the
#                 sanitizer pass --rewrite-only and "rewritten"
# Features: opencl (the OpenCL headers), pocl (an OpenCL device to run on).
# FileCheck, not and count come from the LLVM 19 tools directory.
import os
import lit.formats

config.name = "dlopt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".cl", ".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dlopt_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Diagnostics without colours or a terminal's width.
config.environment["TERM"] = "dumb"

plugin = os.path.join(config.dlopt_obj_root, "lib", "libdlopt.so")

import shutil
import subprocess
if shutil.which("csmith") and os.path.isdir("/usr/include/csmith"):
    config.available_features.add("csmith")

# OpenCL host code needs the headers (feature: opencl); running it needs an
# OpenCL device, PoCL's CPU device here (feature: pocl).
if os.path.isfile("/usr/include/CL/cl.h"):
    config.available_features.add("opencl")
    if shutil.which("clinfo") and "Device" in subprocess.run(
            ["clinfo", "-l"], capture_output=True, text=True).stdout:
        config.available_features.add("pocl")

# CUDA: nvcc from PATH or the toolkit's usual place. No GPU is needed: the
# tests build the rewritten programs, they do not run them.
nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                if os.path.isfile("/usr/local/cuda/bin/nvcc") else None)
config.substitutions.append(
    ("%nvcc", nvcc or "sh -c 'echo \"nvcc not found: install the CUDA toolkit\" >&2; exit 1' nvcc"))

# The calibration trains with Debian's python3-sklearn, which a python3 from
# elsewhere on PATH (pyenv, venv) may not see.
for python in ("python3", "/usr/bin/python3"):
    if shutil.which(python) and subprocess.run(
            [python, "-c", "import sklearn"], capture_output=True).returncode == 0:
        config.available_features.add("sklearn")
        config.substitutions.append(("%python-sklearn", shutil.which(python)))
        break

# In a sanitizer build the tools carry ASan/UBSan; clang-19 does not, so the
# runtimes are preloaded where it loads the plugin. LLVM frees little at exit
# on purpose: leak reports would only be noise. libclang-cpp is not
# instrumented: a slab of the ASTContext's allocator that dlopt's
# instrumented inline code starts is poisoned whole, and the objects
# libclang-cpp then allocates in it are never unpoisoned, so reading them
# would be reported as use-after-poison (a template's specializations, read
# by a walk): LLVM's own poisoning is ignored (allow_user_poisoning=0).
clang_prefix = ""
if config.dlopt_sanitized:
    runtimes = [subprocess.check_output([config.dlopt_cxx, "-print-file-name=" + lib],
                                        text=True).strip()
                for lib in ("libasan.so", "libubsan.so")]
    clang_prefix = "env LD_PRELOAD=" + ":".join(runtimes) + " "
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:allow_user_poisoning=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("sanitized")
# The CUDA build checks spend most of their time in nvcc and clang's syntax
# checks, which the sanitizers leave as they are: the sanitizer pass only
# rewrites each layout (the tool's own work), the other pass builds them.
config.substitutions.append(("%build-only",
                             "--rewrite-only" if config.dlopt_sanitized else "--build-only"))
config.substitutions.append(("%built", "rewritten" if config.dlopt_sanitized else "builds"))
# Tests of the pipeline pin the hand-written model, so that their plans do
# not move when the default model is retrained (listed first: lit
# substitutes in order, and %dl-refactor is a prefix of these).
rules_model = os.path.join(config.dlopt_src_root, "test", "Inputs", "rules-model.json")
config.substitutions.append(("%dl-refactor-rules",
                             os.path.join(config.dlopt_obj_root, "bin", "dl-refactor") +
                             " --model=" + rules_model))
shown_remarks = " -Rpass=dlopt -Rpass-missed=dlopt"
config.substitutions.append(("%dlopt-rules",
                             "-fplugin=" + plugin + " -fplugin-arg-dlopt-model=" + rules_model +
                             shown_remarks))
config.substitutions.append(("%rules-model", rules_model))
# The version the CMake project declares, and the LLVM it was built with.
config.substitutions.append(("%dlopt-version", config.dlopt_version))
config.substitutions.append(("%llvm-version", config.llvm_version))
config.substitutions.append(("%dl-refactor",
                             os.path.join(config.dlopt_obj_root, "bin", "dl-refactor")))
config.substitutions.append(("%dlopt-plugin", "-fplugin=" + plugin))
config.substitutions.append(("%dlopt", "-fplugin=" + plugin + shown_remarks))
# C++ test programs, compiled and linked with the C++ library (before
# %clang, of which it is an extension).
config.substitutions.append(("%clangxx", config.dlopt_clang + " --driver-mode=g++"))
config.substitutions.append(("%clang", clang_prefix + config.dlopt_clang))
# A rewritten copy of a test file, without the check lines it carries in
# its comments: FileCheck would otherwise find each pattern in its own
# directive and pass whatever the rewrite wrote.
config.substitutions.append(
    ("%drop-checks",
     "sed -E 's#//[[:space:]]*[A-Z][A-Z0-9_]*(-[A-Z]+)?:.*##'"))
# A plain compiler for test programs, as one word for scripts.
config.substitutions.append(("%cc", config.dlopt_clang))
config.substitutions.append(("%examples",
                             os.path.join(config.dlopt_src_root, "examples")))
