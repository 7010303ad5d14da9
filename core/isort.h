/*
 * isort: sorting an array in place, with no memory beyond the stack, for
 * the arrays of millions of records where qsort()'s temporary would raise
 * the peak (glibc's qsort allocates a copy of the records, or two pointers
 * per record when they are over 32 bytes). Not stable: where the order of
 * equal records matters, before() breaks the tie on something unique.
 */
#ifndef CORE_ISORT_H
#define CORE_ISORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISORT_MAX_SIZE 64	/* the largest record isort() moves */

/* True when record a goes before record b; ctx is isort()'s. A strict weak order. */
typedef bool (*isort_before_fn)(const void *a, const void *b, void *ctx);

/*
 * Sorts the n records of size bytes (1 to ISORT_MAX_SIZE) at base so that
 * none goes before() the one ahead of it: introsort (quicksort on the
 * median of three, heapsort past a depth of 2 log2 n, insertion sort for
 * short ranges), O(n log n) comparisons at worst.
 */
void isort(void *base, size_t n, size_t size, isort_before_fn before, void *ctx);

/*
 * Moves the record at ix[i] to i, for every i of the n records of size
 * bytes (1 to ISORT_MAX_SIZE) at base, following each cycle of the
 * permutation ix (n distinct indices below n): records sorted through an
 * array of their indices end in place. ix becomes the identity.
 */
void isort_permute(void *base, uint32_t *ix, size_t n, size_t size);

/*
 * Sorts as isort() does, but stably (records equal under before() keep
 * their order), through an array of 4-byte indices sorted in place and
 * then isort_permute(): 4 bytes per record while it sorts, where qsort()
 * took 16 (records over 32 bytes) or the records' own size. n < 2^32.
 */
void isort_stable(void *base, size_t n, size_t size, isort_before_fn before, void *ctx);

#endif
