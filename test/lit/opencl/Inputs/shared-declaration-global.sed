# The same declaration at file scope: not rewritten yet.
s/^int main(int argc, char \*\*argv) {$/static cl_mem scratch, buf;\
\
int main(int argc, char **argv) {/
s/^  cl_mem buf = clCreateBuffer(/  buf = clCreateBuffer(/
