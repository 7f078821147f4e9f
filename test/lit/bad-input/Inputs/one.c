typedef struct Item {
  int key;
  int value;
} Item;
#include <stdio.h>
static Item items[10];
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; ++i)
    items[i].value = i;
  for (int i = 0; i < 10; ++i)
    s += items[i].value;
  printf("one %d\n", s);
  return 0;
}
