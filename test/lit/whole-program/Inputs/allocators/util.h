/* Memory helpers, as a program keeps them in a file of their own. */
#ifndef UTIL_H
#define UTIL_H
#include <stddef.h>

void *xmalloc(size_t bytes);
void *aligned_xmalloc(size_t bytes);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t bytes);
void *counted_malloc(size_t bytes);
void xfree(void *p);
extern size_t bytes_allocated;

#endif
