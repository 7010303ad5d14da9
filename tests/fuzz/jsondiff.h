/*
 * jsondiff: runs yajl (driven as jsonfeed drove it before it had jsonscan)
 * and jsonfeed (jsonscan) on the same bytes and compares what they report:
 * every callback with its kind, bytes and position, the error text, the
 * error byte and whether the input was cut short. Shared by the fuzz target
 * tests/fuzz/fuzz_jsonscan.c and the unit test tests/unit/test_jsonscan.c.
 */
#ifndef TESTS_FUZZ_JSONDIFF_H
#define TESTS_FUZZ_JSONDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jsondiff_opts {
	size_t chunk;		/* bytes per feed; 0: the whole input in one */
	int cancel_at;		/* the callback (1-based) that returns 0; 0 none */
	bool portable;		/* jsonscan without SIMD */
	bool sparse;		/* only the container callbacks set (as bench/floor.c) */
};

/*
 * 0 when both agree on data; otherwise -1 and what differs first in why
 * (size n). *failed (may be NULL): whether the input was refused.
 */
int jsondiff(const uint8_t *data, size_t size, const struct jsondiff_opts *o,
	     bool *failed, char *why, size_t n);

#endif
