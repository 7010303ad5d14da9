#include "core/arena.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/xalloc.h"

#define BLOCK_SIZE (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t size;
	alignas(max_align_t) unsigned char data[];
};

void *arena_alloc(struct arena *a, size_t n)
{
	size_t align = alignof(max_align_t);
	size_t off = (a->used + align - 1) & ~(align - 1);
	struct arena_block *b = a->head;

	if (!b || off + n > b->size) {
		size_t size = n > BLOCK_SIZE ? n : BLOCK_SIZE;

		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		budget_add((int64_t)(sizeof(*b) + size));
		b->next = a->head;
		a->head = b;
		off = 0;
	}
	a->used = off + n;
	a->total += n;
	memset(b->data + off, 0, n);
	return b->data + off;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void arena_release(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		budget_add(-(int64_t)(sizeof(*b) + b->size));
		free(b);
		b = next;
	}
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}

void arena_adopt(struct arena *dst, struct arena *src)
{
	struct arena_block *last;

	if (!src->head)
		return;
	if (!dst->head) {
		size_t total = dst->total;

		*dst = *src;
		dst->total += total;
		*src = (struct arena)ARENA_INIT;
		return;
	}
	for (last = src->head; last->next; last = last->next)
		;
	last->next = dst->head->next;	/* behind dst's head, which dst keeps filling */
	dst->head->next = src->head;
	dst->total += src->total;
	*src = (struct arena)ARENA_INIT;
}
