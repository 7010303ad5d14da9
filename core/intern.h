/*
 * intern: one copy of each distinct string (kernel names repeat millions of
 * times in a trace). Interned strings live in the table's arena until
 * intern_release(); two strings interned by one table are equal iff their
 * pointers are. A table belongs to one thread: ranks read in parallel each
 * intern into their own and are merged into the trial's afterwards
 * (intern_merge(), then intern_canon() on every pointer the rank kept).
 */
#ifndef CORE_INTERN_H
#define CORE_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

struct intern_slot;

struct intern {
	struct arena arena;	/* owns the strings */
	struct intern_slot *slots;	/* open addressing; s == NULL: empty */
	size_t cap;		/* power of two */
	size_t count;		/* distinct strings */
};

#define INTERN_INIT { .arena = ARENA_INIT }

/* The one copy of s[0..n) (cut at a NUL inside it). */
const char *intern(struct intern *t, const char *s, size_t n);
const char *intern_str(struct intern *t, const char *s);
/*
 * The 32-bit hash intern() files s[0..n) under (all n bytes, a NUL
 * included): for callers that memoize on text before interning it.
 */
uint32_t intern_hash(const char *s, size_t n);
void intern_release(struct intern *t);

/*
 * Moves every string of src into dst and leaves src empty (as released).
 * A string dst already held is forwarded to dst's copy: intern_canon() of
 * src's pointer gives it; a string new to dst keeps its pointer. src's
 * memory now belongs to dst, so pointers into src stay valid.
 */
void intern_merge(struct intern *dst, struct intern *src);
/*
 * The copy to use for s after intern_merge(): s itself unless it was
 * forwarded. s must be NULL (gives NULL) or a pointer intern() returned.
 */
const char *intern_canon(const char *s);

#endif
