/*
 * xalloc: allocation that cannot fail. Out of memory is the one error that
 * is fatal deep down: it prints one line and exits with status 1. What
 * growable arrays take is counted in the memory budget (core/budget.h).
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
/*
 * Frees the array *p of capacity *cap grown by xgrow() and gives its bytes
 * back to the memory budget (core/budget.h), which xgrow() counted them in;
 * *p becomes NULL and *cap 0. A NULL *p gives nothing back whatever *cap
 * says, so an array handed to another owner by copying its pointer and
 * setting it to NULL is counted until that owner frees it.
 */
void xgrow_free(void *pp, size_t *cap, size_t size);

#endif
