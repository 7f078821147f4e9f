/* Boxes of a cell list with their neighbours held in an array member, as
   lavaMD's main.h declares them. Written for dlopt's tests. */
#ifndef BOXES_H
#define BOXES_H
typedef struct nei_str {
  int x, y, z;
  int number;
  long offset;
} nei_str;

typedef struct box_str {
  int x, y, z;
  int number;
  long offset;
  int nn;
  nei_str nei[26];
} box_str;
#endif
