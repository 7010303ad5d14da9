/*
 * arena: bump allocation for data that lives as long as one input or one
 * trial. Everything allocated from an arena is freed by one arena_release().
 * Blocks are never moved, so pointers stay valid until then. The blocks
 * are counted in the memory budget (core/budget.h) while they are held.
 */
#ifndef CORE_ARENA_H
#define CORE_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;	/* newest block first */
	size_t used;			/* bytes used in head */
	size_t total;			/* bytes handed out, for benchmarks */
};

#define ARENA_INIT { .head = NULL }

void *arena_alloc(struct arena *a, size_t n);		/* aligned for any type, zeroed */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
void arena_release(struct arena *a);
/* Makes src's blocks dst's (their pointers stay valid) and leaves src empty. */
void arena_adopt(struct arena *dst, struct arena *src);

#endif
