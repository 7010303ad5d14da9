#include "core/imap.h"

#include <stdlib.h>

#include "core/xalloc.h"

#define EMPTY INT64_MIN

static size_t slot_of(int64_t key, size_t cap)
{
	uint64_t h = (uint64_t)key;

	/* splitmix64's finaliser: ids are often sequential */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	if (cap > UINT32_MAX)
		return (size_t)(h % cap);
	return (size_t)(((h >> 32) * (uint64_t)cap) >> 32);	/* into [0, cap) without a division */
}

static void insert(int64_t *keys, uint32_t *vals, size_t cap, int64_t key, uint32_t val)
{
	size_t i = slot_of(key, cap);

	while (keys[i] != EMPTY)
		i = i + 1 == cap ? 0 : i + 1;
	keys[i] = key;
	vals[i] = val;
}

/* Rehashes into cap slots (more than the count). */
static void resize(struct imap *m, size_t cap)
{
	int64_t *keys = xmalloc(cap * sizeof(*keys));
	uint32_t *vals = xmalloc(cap * sizeof(*vals));

	for (size_t i = 0; i < cap; i++)
		keys[i] = EMPTY;
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i] != EMPTY)
			insert(keys, vals, cap, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
}

static void grow(struct imap *m)
{
	resize(m, m->cap ? m->cap * 2 : 64);
}

void imap_reserve(struct imap *m, size_t n)
{
	size_t cap = n / 3 * 4 + 4;	/* imap_put's load factor holds at its n-th put */

	if (cap > m->cap)
		resize(m, cap);
}

bool imap_put(struct imap *m, int64_t key, uint32_t val)
{
	uint32_t old;

	if (key == EMPTY || imap_get(m, key, &old))
		return false;
	if ((m->count + 1) * 4 > m->cap * 3)	/* load factor 3/4 */
		grow(m);
	insert(m->keys, m->vals, m->cap, key, val);
	m->count++;
	return true;
}

bool imap_get(const struct imap *m, int64_t key, uint32_t *val)
{
	size_t i;

	if (!m->cap || key == EMPTY)
		return false;
	for (i = slot_of(key, m->cap); m->keys[i] != EMPTY; i = i + 1 == m->cap ? 0 : i + 1) {
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return true;
		}
	}
	return false;
}

void imap_release(struct imap *m)
{
	free(m->keys);
	free(m->vals);
	*m = (struct imap)IMAP_INIT;
}
