#include "core/isort.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct sorting {
	size_t size;
	isort_before_fn before;
	void *ctx;
};

static char *at(const struct sorting *s, char *base, size_t i)
{
	return base + i * s->size;
}

static bool less(const struct sorting *s, const void *a, const void *b)
{
	return s->before(a, b, s->ctx);
}

static void swap(const struct sorting *s, char *a, char *b)
{
	char t[ISORT_MAX_SIZE];

	memcpy(t, a, s->size);
	memcpy(a, b, s->size);
	memcpy(b, t, s->size);
}

static void insertion(const struct sorting *s, char *base, size_t n)
{
	char x[ISORT_MAX_SIZE];

	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		memcpy(x, at(s, base, i), s->size);
		for (; j && less(s, x, at(s, base, j - 1)); j--)
			memcpy(at(s, base, j), at(s, base, j - 1), s->size);
		memcpy(at(s, base, j), x, s->size);
	}
}

static void sift(const struct sorting *s, char *base, size_t root, size_t n)
{
	for (size_t c; (c = 2 * root + 1) < n; root = c) {
		c += c + 1 < n && less(s, at(s, base, c), at(s, base, c + 1));
		if (!less(s, at(s, base, root), at(s, base, c)))
			return;
		swap(s, at(s, base, root), at(s, base, c));
	}
}

static void heapsort(const struct sorting *s, char *base, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(s, base, i, n);
	for (size_t i = n; i-- > 1;) {
		swap(s, base, at(s, base, i));
		sift(s, base, 0, i);
	}
}

/*
 * Splits base[0..n) (n > 2) around the median of its first, middle and
 * last record: returns i, 0 < i < n, with no record of [i, n) before one
 * of [0, i). The first and last records, put on either side of the pivot,
 * stop the scans.
 */
static size_t partition(const struct sorting *s, char *base, size_t n)
{
	size_t m = n / 2, i = 0, j = n - 1;
	char p[ISORT_MAX_SIZE];

	if (less(s, at(s, base, m), base))
		swap(s, at(s, base, m), base);
	if (less(s, at(s, base, n - 1), base))
		swap(s, at(s, base, n - 1), base);
	if (less(s, at(s, base, n - 1), at(s, base, m)))
		swap(s, at(s, base, n - 1), at(s, base, m));
	memcpy(p, at(s, base, m), s->size);
	for (;;) {
		while (less(s, at(s, base, ++i), p))
			;
		while (less(s, p, at(s, base, --j)))
			;
		if (i >= j)
			return i;
		swap(s, at(s, base, i), at(s, base, j));
	}
}

static void introsort(const struct sorting *s, char *base, size_t n, size_t depth)
{
	while (n > 16) {
		size_t i;

		if (!depth--) {
			heapsort(s, base, n);
			return;
		}
		i = partition(s, base, n);
		if (i < n - i) {	/* the shorter side recursively: log2 n deep at most */
			introsort(s, base, i, depth);
			base = at(s, base, i);
			n -= i;
		} else {
			introsort(s, at(s, base, i), n - i, depth);
			n = i;
		}
	}
	insertion(s, base, n);
}

void isort(void *base, size_t n, size_t size, isort_before_fn before, void *ctx)
{
	struct sorting s = { .size = size, .before = before, .ctx = ctx };
	size_t depth = 0;

	assert(size >= 1 && size <= ISORT_MAX_SIZE);
	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	introsort(&s, base, n, depth);
}

void isort_permute(void *base, uint32_t *ix, size_t n, size_t size)
{
	struct sorting s = { .size = size };
	char first[ISORT_MAX_SIZE];

	assert(size >= 1 && size <= ISORT_MAX_SIZE);
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		if (ix[i] == i)
			continue;
		memcpy(first, at(&s, base, i), size);
		while (ix[j] != i) {
			size_t next = ix[j];

			memcpy(at(&s, base, j), at(&s, base, next), size);
			ix[j] = (uint32_t)j;
			j = next;
		}
		memcpy(at(&s, base, j), first, size);
		ix[j] = (uint32_t)j;
	}
}

/* What isort_stable() sorts its indices by. */
struct by_record {
	const char *base;
	size_t size;
	isort_before_fn before;
	void *ctx;
};

/* Indices by their records, then by index: a total order, the stable one. */
static bool index_before(const void *pa, const void *pb, void *ctx)
{
	const struct by_record *r = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const char *x = r->base + a * r->size, *y = r->base + b * r->size;

	if (r->before(x, y, r->ctx))
		return true;
	return !r->before(y, x, r->ctx) && a < b;
}

void isort_stable(void *base, size_t n, size_t size, isort_before_fn before, void *ctx)
{
	struct by_record r = { .base = base, .size = size, .before = before, .ctx = ctx };
	uint32_t *ix;

	assert(n <= UINT32_MAX);
	if (n < 2)
		return;
	ix = xmalloc(n * sizeof(*ix));
	for (size_t i = 0; i < n; i++)
		ix[i] = (uint32_t)i;
	isort(ix, n, sizeof(*ix), index_before, &r);
	isort_permute(base, ix, n, size);
	free(ix);
}
