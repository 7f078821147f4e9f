# lit configuration of dlopt's regression tests.
#
# Substitutions:
#   %clang        clang-19
#   %dlopt        -fplugin=<build>/lib/libdlopt.so
#   %dl-refactor  <build>/bin/dl-refactor
#   %examples     the examples/ directory
# FileCheck, not and count come from the LLVM 19 tools directory.
import os
import lit.formats

config.name = "dlopt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".cl", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dlopt_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Diagnostics without colours or a terminal's width.
config.environment["TERM"] = "dumb"

plugin = os.path.join(config.dlopt_obj_root, "lib", "libdlopt.so")
config.substitutions.append(("%dl-refactor",
                             os.path.join(config.dlopt_obj_root, "bin", "dl-refactor")))
config.substitutions.append(("%dlopt", "-fplugin=" + plugin))
config.substitutions.append(("%clang", config.dlopt_clang))
config.substitutions.append(("%examples",
                             os.path.join(config.dlopt_src_root, "examples")))
