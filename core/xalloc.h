/*
 * xalloc: allocation that cannot fail. Out of memory is the one error that
 * is fatal deep down: it prints one line and exits with status 1.
 */
#ifndef CORE_XALLOC_H
#define CORE_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Make room for `need` elements of `size` bytes in the array *p of capacity
 * *cap, growing it geometrically. Used for every growable array, so that no
 * event costs a malloc of its own.
 */
void xgrow(void *pp, size_t *cap, size_t need, size_t size);

#endif
