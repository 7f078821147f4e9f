# kernel-params/swarm.c with the kernel passed on: setup() and kick() hand
# their kernel parameter to bind() and launch(), defined before them
# (kernel-params.test, FORWARD).
/^int main(int argc, char \*\*argv) {$/i\
static void setup(cl_kernel k, cl_mem drones, int n) { bind(k, drones, n); }\
\
static void kick(cl_command_queue q, cl_kernel k, size_t n) {\
  launch(q, k, n);\
}\

s/^  bind(\(advance\|damp\), buffer, N);$/  setup(\1, buffer, N);/
s/launch(queue, \(advance\|damp\), N);$/kick(queue, \1, N);/
