/* bitonic.cl - the kernel of the OpenCL bitonic sort (bitonic.c is its host
 * program). One launch per pass of the network: work-item i compares its
 * item with item i ^ j, inside blocks of size k sorted ascending or
 * descending, and swaps the whole items when they are out of order, as in
 * examples/bitonic. The record is the host's struct Item, field for field.
 */
typedef struct Item {
  int key;
  float weight;
  float value;
  int tag;
} Item;

__kernel void bitonic_step(__global Item *a, int j, int k) {
  int i = get_global_id(0);
  int l = i ^ j;
  if (l > i) {
    int ascending = (i & k) == 0;
    if ((a[i].key > a[l].key) == ascending) {
      Item t = a[i];
      a[i] = a[l];
      a[l] = t;
    }
  }
}
