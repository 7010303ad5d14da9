/*
 * ingest/gunzip: members made by zlib's deflate come back byte for byte at
 * every input and output step size, a member's end leaves the next member
 * untaken, a head gives the content's beginning, and damage is named in
 * zlib's words (whichever library the build inflates with: ISA-L or zlib).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "ingest/gunzip.h"

#define TEXT_BYTES 300000

/* Trace-like text: JSON events with varied numbers, so deflate has work to do. */
static char *make_text(size_t *n)
{
	char *t = malloc(TEXT_BYTES + 128);
	size_t len = 0;
	uint32_t x = 12345;

	while (len < TEXT_BYTES) {
		x = x * 1103515245u + 12345u;
		len += (size_t)sprintf(t + len, "{\"ph\": \"X\", \"name\": \"k%u\", \"ts\": %u.%03u},\n",
				       x % 977, x % 100000, x % 1000);
	}
	*n = len;
	return t;
}

/* data[0..n) as one gzip member appended to out (cap bytes), its length returned. */
static size_t deflate_member(const char *data, size_t n, unsigned char *out, size_t cap)
{
	z_stream z = { 0 };
	size_t len;

	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	len = cap - z.avail_out;
	deflateEnd(&z);
	return len;
}

/*
 * Inflates one member from gz[0..n) giving `in_step` bytes of input and
 * `out_step` of room at a time; returns the status it stopped on, the input
 * it took in *took and the output in out (*made bytes).
 */
static enum gunzip_status run(struct gunzip *g, const unsigned char *gz, size_t n, size_t in_step,
			      size_t out_step, char *out, size_t cap, size_t *took, size_t *made)
{
	enum gunzip_status st = GUNZIP_MORE;
	size_t used, got, pos = 0;

	*made = 0;
	while (st == GUNZIP_MORE) {
		size_t give = n - pos < in_step ? n - pos : in_step;
		size_t room = cap - *made < out_step ? cap - *made : out_step;

		st = gunzip_step(g, gz + pos, give, &used, (unsigned char *)out + *made, room, &got);
		pos += used;
		*made += got;
		if (st == GUNZIP_MORE && !used && !got && pos == n)
			break;	/* it wants input there is none of */
	}
	*took = pos;
	return st;
}

/* Two members back to back: each comes out whole, and the first stops at its own end. */
static void test_members_every_step(void **state)
{
	static const size_t steps[][2] = { { 1, 1 }, { 1, 4096 }, { 7, 13 }, { 4096, 1 },
					   { 65536, 131072 }, { SIZE_MAX, SIZE_MAX } };
	size_t n, first, second, took, made;
	char *text = make_text(&n);
	unsigned char *gz = malloc(2 * n + 1024);
	char *out = malloc(n + 1);
	struct gunzip *g = gunzip_new();

	(void)state;
	first = deflate_member(text, n / 3, gz, 2 * n + 1024);
	second = deflate_member(text + n / 3, n - n / 3, gz + first, 2 * n + 1024 - first);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		gunzip_reset(g);
		assert_int_equal(run(g, gz, first + second, steps[i][0], steps[i][1], out, n, &took,
				     &made), GUNZIP_END);
		assert_int_equal(took, first);
		assert_int_equal(made, n / 3);
		assert_memory_equal(out, text, made);
		gunzip_reset(g);
		assert_int_equal(run(g, gz + first, second, steps[i][0], steps[i][1], out, n, &took,
				     &made), GUNZIP_END);
		assert_int_equal(took, second);
		assert_int_equal(made, n - n / 3);
		assert_memory_equal(out, text + n / 3, made);
	}
	gunzip_free(g);
	free(out);
	free(gz);
	free(text);
}

/* A member cut short wants more input, and what came out is the text's beginning. */
static void test_cut(void **state)
{
	size_t n, len, took, made;
	char *text = make_text(&n);
	unsigned char *gz = malloc(n + 1024);
	char *out = malloc(n + 1);
	struct gunzip *g = gunzip_new();

	(void)state;
	len = deflate_member(text, n, gz, n + 1024);
	assert_int_equal(run(g, gz, len / 2, 4096, 4096, out, n, &took, &made), GUNZIP_MORE);
	assert_int_equal(took, len / 2);
	assert_true(made > n / 4 && made < n);
	assert_memory_equal(out, text, made);
	gunzip_free(g);
	free(out);
	free(gz);
	free(text);
}

/* The head of a member: its content's beginning, whether the member ended in it or not. */
static void test_head(void **state)
{
	size_t n, len, got;
	char *text = make_text(&n);
	unsigned char *gz = malloc(n + 1024), out[4096];
	bool ended;

	(void)state;
	len = deflate_member(text, n, gz, n + 1024);
	got = gunzip_head(gz, 4096, out, sizeof(out), &ended);	/* 4 KiB of a long member */
	assert_int_equal(got, sizeof(out));
	assert_memory_equal(out, text, got);
	assert_false(ended);
	len = deflate_member(text, 1000, gz, n + 1024);	/* a member that ends in the head */
	got = gunzip_head(gz, len, out, sizeof(out), &ended);
	assert_int_equal(got, 1000);
	assert_memory_equal(out, text, got);
	assert_true(ended);
	assert_int_equal(gunzip_head((const unsigned char *)"\x1f\x8b\x08", 3, out, sizeof(out),
				     &ended), 0);
	assert_false(ended);
	free(gz);
	free(text);
}

/* Damage, named as zlib names it. */
static void test_damage(void **state)
{
	static const struct {
		long at;	/* byte to change; < 0 from the end */
		unsigned char xor;
		const char *error;
	} cases[] = {
		{ 2, 0x07, "unknown compression method" },	/* CM 8 becomes 15 */
		{ -8, 0x01, "incorrect data check" },	/* the CRC-32 */
	};
	size_t n, len, took, made;
	char *text = make_text(&n);
	unsigned char *gz = malloc(n + 1024);
	char *out = malloc(n + 1);

	(void)state;
	len = deflate_member(text, n, gz, n + 1024);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t at = cases[i].at < 0 ? len - (size_t)-cases[i].at : (size_t)cases[i].at;
		struct gunzip *g = gunzip_new();

		gz[at] ^= cases[i].xor;
		assert_int_equal(run(g, gz, len, 4096, 65536, out, n, &took, &made), GUNZIP_ERROR);
		assert_string_equal(gunzip_error(g), cases[i].error);
		gz[at] ^= cases[i].xor;
		gunzip_free(g);
	}
	free(out);
	free(gz);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members_every_step),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_damage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
