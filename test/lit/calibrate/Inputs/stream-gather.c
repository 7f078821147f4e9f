/* One struct streamed, one gathered by index: the synthetic model sends
   the first to SoA and the second to AoS. */
struct S { float a, b; };
struct G { float a, b; };
struct S s[1000];
struct G g[1000];
int idx[1000];

int main(void) {
  float t = 0;
  for (int i = 0; i < 1000; ++i)
    s[i].a = s[i].b * 2.0f;
  for (int i = 0; i < 1000; ++i)
    t += g[idx[i]].a + g[idx[i]].b;
  return (int)t;
}
