/*
 * imap: an open-addressing map from int64 keys to uint32 values, for the
 * id lookups of trace readers (correlation id -> launch, external id -> op).
 * Keys are any int64 but INT64_MIN, which marks an empty slot. The map owns
 * its two arrays; imap_release() frees them.
 */
#ifndef CORE_IMAP_H
#define CORE_IMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct imap {
	int64_t *keys;		/* INT64_MIN = empty */
	uint32_t *vals;
	size_t cap;		/* power of two, or 0 before the first put */
	size_t count;
};

#define IMAP_INIT { .keys = NULL }

/*
 * Maps key to val unless key is already present (the first value wins).
 * Returns true when it was added. A key of INT64_MIN is ignored.
 */
bool imap_put(struct imap *m, int64_t key, uint32_t val);
/* Stores the value of key in *val and returns true, or returns false. */
bool imap_get(const struct imap *m, int64_t key, uint32_t *val);
void imap_release(struct imap *m);

#endif
