#include "core/intern.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/*
 * Each string is stored after a header that forwards it to its copy in the
 * table it was merged into (NULL: it is the copy). A slot keeps the hash and
 * length, so a probe compares bytes only when both match.
 */
struct intern_hdr {
	const char *canon;
};

struct intern_slot {
	const char *s;
	uint32_t hash;
	uint32_t len;
};

#define MAX_LEN UINT32_MAX

static uint64_t load8(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* One step of a lane: eight bytes in, multiplied and folded. */
static uint64_t mix8(uint64_t h, const char *p)
{
	h ^= load8(p);
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

/*
 * Sixteen bytes a step in two lanes that do not wait on each other (kernel
 * names run to hundreds of bytes), then eight, then the tail; the lanes
 * are combined before the final fold.
 */
static uint32_t hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, g = 0x2545f4914f6cdd1dULL;
	size_t i = 0;

	for (; i + 16 <= n; i += 16) {
		h = mix8(h, s + i);
		g = mix8(g, s + i + 8);
	}
	if (i + 8 <= n) {
		h = mix8(h, s + i);
		i += 8;
	}
	h ^= g * 0x94d049bb133111ebULL;
	if (i < n) {
		uint64_t tail = 0;

		if (n >= 8)	/* the last eight bytes, those hashed already shifted out */
			tail = load8(s + n - 8) >> (8 * (8 - (n - i)));
		else
			memcpy(&tail, s + i, n - i);
		h ^= tail;
		h *= 0xc4ceb9fe1a85ec53ULL;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return (uint32_t)h;
}

uint32_t intern_hash(const char *s, size_t n)
{
	return hash(s, n);
}

static void place(struct intern_slot *slots, size_t cap, struct intern_slot e)
{
	size_t j;

	for (j = e.hash & (cap - 1); slots[j].s; j = (j + 1) & (cap - 1))
		;
	slots[j] = e;
}

static void rehash(struct intern *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct intern_slot *slots = xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].s)
			place(slots, cap, t->slots[i]);
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
}

/* The slot of s[0..n) with hash h: its string, or an empty one where it goes. */
static struct intern_slot *find(struct intern *t, const char *s, size_t n, uint32_t h)
{
	size_t i;

	if ((t->count + 1) * 4 > t->cap * 3)
		rehash(t);
	for (i = h & (t->cap - 1); t->slots[i].s; i = (i + 1) & (t->cap - 1)) {
		const struct intern_slot *e = &t->slots[i];

		if (e->hash == h && e->len == n && !memcmp(e->s, s, n))
			break;
	}
	return &t->slots[i];
}

static struct intern_hdr *hdr_of(const char *s)
{
	return (struct intern_hdr *)(uintptr_t)(s - sizeof(struct intern_hdr));	/* the arena's, writable */
}

const char *intern(struct intern *t, const char *s, size_t n)
{
	const char *nul = memchr(s, '\0', n);	/* a NUL inside the input ends the string */
	struct intern_slot *e;
	uint32_t h;
	char *p;

	if (nul)
		n = (size_t)(nul - s);
	if (n > MAX_LEN)
		n = MAX_LEN;
	h = hash(s, n);
	e = find(t, s, n, h);
	if (e->s)
		return e->s;
	p = arena_alloc(&t->arena, sizeof(struct intern_hdr) + n + 1);	/* zeroed: no forward */
	p += sizeof(struct intern_hdr);
	memcpy(p, s, n);
	*e = (struct intern_slot){ .s = p, .hash = h, .len = (uint32_t)n };
	t->count++;
	return p;
}

const char *intern_str(struct intern *t, const char *s)
{
	return intern(t, s, strlen(s));
}

void intern_release(struct intern *t)
{
	free(t->slots);
	arena_release(&t->arena);
	t->slots = NULL;
	t->cap = 0;
	t->count = 0;
}

void intern_merge(struct intern *dst, struct intern *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		const struct intern_slot *e = &src->slots[i];
		struct intern_slot *d;

		if (!e->s)
			continue;
		d = find(dst, e->s, e->len, e->hash);
		if (d->s) {
			hdr_of(e->s)->canon = d->s;
			continue;
		}
		*d = *e;
		dst->count++;
	}
	arena_adopt(&dst->arena, &src->arena);
	free(src->slots);
	src->slots = NULL;
	src->cap = 0;
	src->count = 0;
}

const char *intern_canon(const char *s)
{
	const char *c;

	while (s && (c = hdr_of(s)->canon) != NULL)	/* a table merged on again: follow */
		s = c;
	return s;
}
