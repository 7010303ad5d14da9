/*
 * intern: one copy of each distinct string (kernel names repeat millions of
 * times in a trace). Interned strings live in the table's arena until
 * intern_release(); two interned strings are equal iff their pointers are.
 */
#ifndef CORE_INTERN_H
#define CORE_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

struct intern {
	struct arena arena;	/* owns the strings */
	const char **slots;	/* open addressing; NULL = empty */
	uint32_t *hashes;	/* hash of each slot */
	size_t cap;		/* power of two */
	size_t count;		/* distinct strings */
};

#define INTERN_INIT { .arena = ARENA_INIT }

const char *intern(struct intern *t, const char *s, size_t n);
const char *intern_str(struct intern *t, const char *s);
void intern_release(struct intern *t);

#endif
