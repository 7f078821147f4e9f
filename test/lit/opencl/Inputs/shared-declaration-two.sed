# shared-declaration.sed's output with scratch a buffer of another record,
# Pair, which the host fills (shared-declaration.test).
s/^#define CHECK(e)   /typedef struct Pair {\
  cl_float a, b;\
} Pair;\
\
#define CHECK(e)   /
s/^  cl_mem scratch = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err),$/  Pair *pairs = malloc(n * sizeof(Pair));\
  for (int i = 0; i < n; ++i)\
    pairs[i].a = pairs[i].b = (float)i;\
  cl_mem scratch = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof(Pair), pairs, \&err),/
