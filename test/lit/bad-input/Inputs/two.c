typedef struct Item {
  double weight;
  double price;
  long id;
} Item;
#include <stdio.h>
static Item items[10];
int main(void) {
  double s = 0;
  for (int i = 0; i < 10; ++i)
    items[i].price = 2.0 * i;
  for (int i = 0; i < 10; ++i)
    s += items[i].price;
  printf("two %.1f\n", s);
  return 0;
}
