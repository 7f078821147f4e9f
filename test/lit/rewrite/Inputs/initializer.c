typedef struct I {
  int a;
  int b;
} I;

static I table[3] = {{1, 2}, {3, 4}, {5, 6}};

int main(void) {
  int s = 0;
  for (int i = 0; i < 3; ++i)
    s += table[i].a;
  return s;
}
