/* Empty: clang 19's CUDA wrapper includes this header, which CUDA 13
 * removed. The tests' own clang-19 syntax checks find it after every other
 * include path (-idirafter), so a toolkit that has it wins. */
