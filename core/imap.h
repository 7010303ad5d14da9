/*
 * imap: an open-addressing map from int64 keys to uint32 values, for the
 * id lookups of trace readers (correlation id -> launch, external id -> op).
 * Keys are any int64 but INT64_MIN, which marks an empty slot. The map owns
 * its two arrays; imap_release() frees them. A slot costs 12 bytes; the
 * map holds 3/4 as many keys as slots, half as many just after it grows.
 */
#ifndef CORE_IMAP_H
#define CORE_IMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct imap {
	int64_t *keys;		/* INT64_MIN = empty */
	uint32_t *vals;
	size_t cap;		/* slots (any number: 4/3 of the keys and up); 0 before the first put */
	size_t count;
};

#define IMAP_INIT { .keys = NULL }

/*
 * Maps key to val unless key is already present (the first value wins).
 * Returns true when it was added. A key of INT64_MIN is ignored.
 */
bool imap_put(struct imap *m, int64_t key, uint32_t val);
/*
 * Makes room for n keys in all before they are put, so that the map is
 * sized once (no chain of growing copies, each alive with the next).
 */
void imap_reserve(struct imap *m, size_t n);
/* Stores the value of key in *val and returns true, or returns false. */
bool imap_get(const struct imap *m, int64_t key, uint32_t *val);
void imap_release(struct imap *m);

#endif
