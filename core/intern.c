#include "core/intern.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static void rehash(struct intern *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	const char **slots = xcalloc(cap, sizeof(*slots));
	uint32_t *hashes = xcalloc(cap, sizeof(*hashes));

	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		for (j = t->hashes[i] & (cap - 1); slots[j]; j = (j + 1) & (cap - 1))
			;
		slots[j] = t->slots[i];
		hashes[j] = t->hashes[i];
	}
	free(t->slots);
	free(t->hashes);
	t->slots = slots;
	t->hashes = hashes;
	t->cap = cap;
}

const char *intern(struct intern *t, const char *s, size_t n)
{
	uint32_t h;
	size_t i;

	n = strnlen(s, n);	/* a NUL inside the input ends the string */
	h = hash(s, n);

	if ((t->count + 1) * 4 > t->cap * 3)
		rehash(t);
	for (i = h & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1)) {
		if (t->hashes[i] == h && !strncmp(t->slots[i], s, n) && !t->slots[i][n])
			return t->slots[i];
	}
	t->slots[i] = arena_strndup(&t->arena, s, n);
	t->hashes[i] = h;
	t->count++;
	return t->slots[i];
}

const char *intern_str(struct intern *t, const char *s)
{
	return intern(t, s, strlen(s));
}

void intern_release(struct intern *t)
{
	free(t->slots);
	free(t->hashes);
	arena_release(&t->arena);
	t->slots = NULL;
	t->hashes = NULL;
	t->cap = 0;
	t->count = 0;
}
