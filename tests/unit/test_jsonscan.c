/*
 * jsonscan (ingest/jsonscan.c) against yajl, through jsonfeed: the same
 * callbacks with the same bytes and positions, the same error text, error
 * byte and cut-short flag (tests/fuzz/jsondiff.h) for every JSON file of
 * tests/data and tests/fuzz/seeds, the real traces of ../shared, hand-made
 * edge cases and a few thousand generated documents and mutations of them,
 * each fed 1, 7 and 4096 bytes at a time and whole, with the SIMD and the
 * portable scanner. Then what only jsonscan does: its depth and token caps.
 */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "ingest/jsonfeed.h"
#include "tests/fuzz/jsondiff.h"
#include "tests/unit/skip.h"

static const size_t chunks[] = { 1, 7, 4096, 0 };

/* Every chunk size, SIMD and portable; fails on the first difference. */
static void agree(const char *name, const uint8_t *data, size_t size, int cancel_at, bool sparse)
{
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++)
		for (int portable = 0; portable < 2; portable++) {
			struct jsondiff_opts o = { chunks[i], cancel_at, portable, sparse };
			char why[512];

			if (jsondiff(data, size, &o, NULL, why, sizeof(why)) < 0)
				fail_msg("%s (chunk %zu%s): %s", name, chunks[i],
					 portable ? ", portable" : "", why);
		}
}

static uint8_t *slurp(const char *path, size_t *size)
{
	gzFile f = gzopen(path, "rb");
	uint8_t *data = NULL;
	size_t n = 0, cap = 0;
	int got;

	assert_non_null(f);
	do {
		if (cap - n < 65536) {
			cap = cap * 2 + 65536;
			data = realloc(data, cap);
			assert_non_null(data);
		}
		got = gzread(f, data + n, (unsigned)(cap - n));
		assert_true(got >= 0);
		n += (size_t)got;
	} while (got > 0);
	gzclose(f);
	*size = n;
	return data;
}

static int files_seen;

static int check_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t len = strlen(path), size;
	uint8_t *data;

	(void)st;
	(void)ftw;
	if (type != FTW_F || ((len < 5 || strcmp(path + len - 5, ".json")) &&
			      (len < 3 || strcmp(path + len - 3, ".gz"))))
		return 0;
	data = slurp(path, &size);
	agree(path, data, size, 0, false);
	files_seen++;
	free(data);
	return 0;
}

static void walk(const char *dir)
{
	const char *top = getenv("TOP");
	char path[4096];

	snprintf(path, sizeof(path), "%s%s%s", top && *top ? top : ".", "/", dir);
	assert_int_equal(nftw(path, check_file, 16, FTW_PHYS), 0);
}

static void test_repository_files(void **state)
{
	(void)state;
	files_seen = 0;
	walk("tests/data");
	walk("tests/fuzz/seeds");
	assert_true(files_seen >= 50);	/* 57 .json when this was written */
}

static void test_real_traces(void **state)
{
	const char *shared = getenv("SHARED");
	char path[4096];

	(void)state;
	if (!shared || !*shared)
		skip_without_shared();
	snprintf(path, sizeof(path), "%s/realdata/kineto_trace", shared);
	files_seen = 0;
	assert_int_equal(nftw(path, check_file, 16, FTW_PHYS), 0);
	assert_int_equal(files_seen, 10);
}

/* Known answers: yajl's own verdicts, which jsonscan must give too. */
struct known {
	const char *json;
	const char *error;	/* NULL: accepted */
	int64_t byte;		/* the error byte */
};

static const struct known knowns[] = {
	{ "", "parse error: premature EOF", 0 },
	{ " \t\r\n\v\f ", "parse error: premature EOF", 7 },
	{ "1", NULL, 0 },
	{ "-0.5e+10", NULL, 0 },
	{ "\"a\\u0000b\\ud83d\\ude00\\udc00\\ud800x\"", NULL, 0 },
	{ "{} \"unterminated", NULL, 0 },
	{ "[1,]", "parse error: unallowed token at this point in JSON text", 3 },
	{ "[01]", "parse error: after array element, I expect ',' or ']'", 2 },
	{ "{\"a\" 1}", "parse error: object key and value must be separated by a colon (':')", 5 },
	{ "{\"a\":1 \"b\"}", "parse error: after key and value, inside map, I expect ',' or '}'", 7 },
	{ "{1:2}", "parse error: invalid object key (must be a string)", 1 },
	{ "{", "parse error: premature EOF", 1 },
	{ "{} x", "parse error: trailing garbage", 3 },
	{ "{} tr", "parse error: trailing garbage", 5 },
	{ "[tx]", "lexical error: invalid string in json text", 1 },
	{ "[-]", "lexical error: malformed number, a digit is required after the minus sign", 1 },
	{ "[1.]", "lexical error: malformed number, a digit is required after the decimal point", 1 },
	{ "[1e]", "lexical error: malformed number, a digit is required after the exponent", 1 },
	{ "[1", "parse error: premature EOF", 2 },
	{ "[/]", "lexical error: probable comment found in input text, comments are not enabled", 1 },
	{ "[@]", "lexical error: invalid char in json text", 1 },
	{ "[\"\t\"]", "lexical error: invalid character inside string", 1 },
	{ "[\"\\x\"]", "lexical error: inside a string, '\\' occurs before a character which it may not", 1 },
	{ "[\"\\u12g4\"]", "lexical error: invalid (non-hex) character occurs after '\\u' inside string", 1 },
};

static int mark_cb(void *ctx)
{
	jsonfeed_mark(ctx);
	return 1;
}

static int mark_str_cb(void *ctx, const unsigned char *s, size_t n)
{
	(void)s;
	(void)n;
	jsonfeed_mark(ctx);
	return 1;
}

static int mark_num_cb(void *ctx, const char *s, size_t n)
{
	(void)s;
	(void)n;
	jsonfeed_mark(ctx);
	return 1;
}

static int mark_bool_cb(void *ctx, int b)
{
	(void)b;
	jsonfeed_mark(ctx);
	return 1;
}

/* Callbacks that mark every token, as the readers' do. */
static const yajl_callbacks marking = {
	.yajl_null = mark_cb, .yajl_boolean = mark_bool_cb, .yajl_number = mark_num_cb,
	.yajl_string = mark_str_cb, .yajl_start_map = mark_cb, .yajl_map_key = mark_str_cb,
	.yajl_end_map = mark_cb, .yajl_start_array = mark_cb, .yajl_end_array = mark_cb,
};

static void test_known_answers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(knowns) / sizeof(knowns[0]); i++) {
		const struct known *k = &knowns[i];
		struct jsonfeed jf;
		size_t n = strlen(k->json);
		int rc;

		agree(k->json, (const uint8_t *)k->json, n, 0, false);
		assert_int_equal(jsonfeed_init(&jf, &marking, &jf), 0);
		rc = jsonfeed_feed(&jf, k->json, n);
		if (rc == 0)
			rc = jsonfeed_end(&jf);
		if (!k->error) {
			assert_int_equal(rc, 0);
		} else {
			char *msg = jsonfeed_message(&jf);

			assert_int_equal(rc, -1);
			assert_string_equal(msg, k->error);
			assert_int_equal(jf.error_byte, k->byte);
			free(msg);
		}
		jsonfeed_release(&jf);
	}
}

/* ---- generated documents ---- */

struct gen {
	uint64_t rng;
	char *s;
	size_t n, cap;
};

static uint32_t rnd(struct gen *g, uint32_t below)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return (uint32_t)(g->rng >> 11) % below;
}

static void add(struct gen *g, const char *s, size_t n)
{
	if (g->n + n > g->cap) {
		g->cap = (g->n + n) * 2 + 64;
		g->s = realloc(g->s, g->cap);
		assert_non_null(g->s);
	}
	memcpy(g->s + g->n, s, n);
	g->n += n;
}

static void adds(struct gen *g, const char *s)
{
	add(g, s, strlen(s));
}

static void blanks(struct gen *g)
{
	static const char *const ws[] = { "", "", "", " ", "\n  ", "\t", "\r\n", "\v", "\f",
					  "                    " };

	adds(g, ws[rnd(g, 10)]);
}

static void gen_string(struct gen *g)
{
	static const char *const bits[] = {
		"a", "Input Dims", "\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t",
		"\\u0041", "\\u00e9", "\\u20AC", "\\u0000", "\\ud83d\\ude00", "\\uD800", "\\udc00",
		"\\ud800\\u0041", "\\uDBFF\\uDFFF", "\\ud800\\\\u", "\xc3\xa9", "\xff\xfe", "\x7f",
		"aten::convolution_backward", "0123456789abcdef0123456789abcdef",
	};
	int parts = (int)rnd(g, 6);

	adds(g, "\"");
	for (int i = 0; i < parts; i++)
		adds(g, bits[rnd(g, sizeof(bits) / sizeof(bits[0]))]);
	adds(g, "\"");
}

static void gen_number(struct gen *g)
{
	static const char *const nums[] = {
		"0", "-0", "1", "-1", "0.5", "-0.0", "1e5", "1E+5", "1e-05", "2.5E-3",
		"123456789012345678901234567890", "9223372036854775807", "-9223372036854775808",
		"1.7976931348623157e308", "1e400", "4.9e-324", "1234.5678", "10",
	};

	adds(g, nums[rnd(g, sizeof(nums) / sizeof(nums[0]))]);
}

static void gen_value(struct gen *g, int depth)
{
	uint32_t k = rnd(g, depth > 6 ? 5 : 8);

	blanks(g);
	if (k == 0)
		gen_string(g);
	else if (k == 1 || k == 2)
		gen_number(g);
	else if (k == 3)
		adds(g, rnd(g, 2) ? "true" : "false");
	else if (k == 4)
		adds(g, "null");
	else if (k == 5 || k == 6) {
		int n = (int)rnd(g, 5);

		adds(g, "{");
		for (int i = 0; i < n; i++) {
			if (i)
				adds(g, ",");
			blanks(g);
			gen_string(g);
			blanks(g);
			adds(g, ":");
			gen_value(g, depth + 1);
			blanks(g);
		}
		blanks(g);
		adds(g, "}");
	} else {
		int n = (int)rnd(g, 5);

		adds(g, "[");
		for (int i = 0; i < n; i++) {
			if (i)
				adds(g, ",");
			gen_value(g, depth + 1);
			blanks(g);
		}
		blanks(g);
		adds(g, "]");
	}
	blanks(g);
}

/* Cuts, flips, inserts or deletes a byte, or nests deep. */
static void mutate(struct gen *g)
{
	static const char ins[] = "\"\\,:{}[]/\x01\x1f\x7f\xffue.-+ \v0tfnE";
	size_t at = g->n ? rnd(g, (uint32_t)g->n) : 0;

	switch (rnd(g, 6)) {
	case 0:
		g->n = at;
		break;
	case 1:
		if (g->n)
			g->s[at] ^= (char)(1u << rnd(g, 8));
		break;
	case 2:
		add(g, " ", 1);
		memmove(g->s + at + 1, g->s + at, g->n - at - 1);
		g->s[at] = ins[rnd(g, sizeof(ins) - 1)];
		break;
	case 3:
		if (g->n) {
			memmove(g->s + at, g->s + at + 1, g->n - at - 1);
			g->n--;
		}
		break;
	case 4: {
		int d = (int)rnd(g, 300);

		g->n = 0;
		for (int i = 0; i < d; i++)
			adds(g, rnd(g, 3) ? "[" : "{\"k\":");
		break;
	}
	default:
		break;
	}
}

static void test_generated(void **state)
{
	struct gen g = { .rng = 0x5ca1ea0d17ULL };
	int failed = 0;

	(void)state;
	for (int i = 0; i < 3000; i++) {
		char name[64];
		bool refused;
		struct jsondiff_opts o = { 0 };
		char why[512];

		g.n = 0;
		gen_value(&g, 0);
		if (i % 3)
			mutate(&g);
		if (i % 5 == 0)
			mutate(&g);
		snprintf(name, sizeof(name), "generated case %d", i);
		agree(name, (const uint8_t *)g.s, g.n, i % 11 == 0 ? 1 + i % 7 : 0, i % 13 == 0);
		assert_int_equal(jsondiff((const uint8_t *)g.s, g.n, &o, &refused, why, sizeof(why)), 0);
		failed += refused;
	}
	free(g.s);
	/* the mix holds both: a generator that made only errors would test little */
	assert_in_range(failed, 500, 2500);
}

/* A callback returning 0 stops both at once, whichever callback it is. */
static void test_cancel_everywhere(void **state)
{
	static const char doc[] =
		"{\"a\": [1, -2.5e3, \"s\", \"\\u00e9\\n\", true, false, null, {}, []],\n"
		" \"b\\t\": {\"c\": {\"d\": [[0]]}}, \"e\": 12345}";
	const size_t n = sizeof(doc) - 1;

	(void)state;
	for (int at = 1; at <= 32; at++) {	/* 30 callbacks, and two past them */
		char name[32];

		snprintf(name, sizeof(name), "cancel at %d", at);
		agree(name, (const uint8_t *)doc, n, at, false);
		agree(name, (const uint8_t *)doc, n, at, true);
	}
}

/* ---- the caps, which yajl has not ---- */

static int count_cb(void *ctx)
{
	(*(int *)ctx)++;
	return 1;
}

static void feed_all(struct jsonfeed *jf, const char *s, size_t n, size_t step)
{
	for (size_t off = 0; off < n && !jf->failed; off += step)
		jsonfeed_feed(jf, s + off, n - off < step ? n - off : step);
	if (!jf->failed)
		jsonfeed_end(jf);
}

static void test_depth_cap(void **state)
{
	size_t n = 2 * (JSONSCAN_MAX_DEPTH + 1);
	char *s = malloc(n);
	const yajl_callbacks cb = { .yajl_start_array = count_cb };

	(void)state;
	assert_non_null(s);
	for (size_t step = 1; step <= n; step = step * 97 + 1) {
		struct jsonfeed jf;
		int opened = 0;
		char *msg;

		memset(s, '[', JSONSCAN_MAX_DEPTH);
		memset(s + JSONSCAN_MAX_DEPTH, ']', JSONSCAN_MAX_DEPTH);
		assert_int_equal(jsonfeed_init(&jf, &cb, &opened), 0);
		feed_all(&jf, s, 2 * JSONSCAN_MAX_DEPTH, step);
		assert_false(jf.failed);
		assert_int_equal(opened, JSONSCAN_MAX_DEPTH);
		jsonfeed_release(&jf);

		memset(s, '[', JSONSCAN_MAX_DEPTH + 1);
		memset(s + JSONSCAN_MAX_DEPTH + 1, ']', JSONSCAN_MAX_DEPTH + 1);
		opened = 0;
		assert_int_equal(jsonfeed_init(&jf, &cb, &opened), 0);
		feed_all(&jf, s, n, step);
		msg = jsonfeed_message(&jf);
		assert_true(jf.failed);
		assert_false(jf.at_end);
		assert_string_equal(msg, "parse error: nesting deeper than 10000 arrays and objects");
		assert_int_equal(jf.error_byte, 0);	/* no callback marked a token */
		assert_int_equal(opened, JSONSCAN_MAX_DEPTH);
		free(msg);
		jsonfeed_release(&jf);
	}
	free(s);
}

static void test_token_cap(void **state)
{
	static const struct {
		const char *json;
		bool ok;
	} cases[] = {
		{ "[\"123456\", 12345678]", true },	/* 8 bytes each: at the cap */
		{ "[\"1234567\"]", false },
		{ "[\"123\\n4567\"]", false },
		{ "[123456789]", false },
		{ "[\"12345678", false },	/* cut short past the cap: too long, not cut */
	};
	const yajl_callbacks cb = {
		.yajl_start_array = mark_cb, .yajl_string = mark_str_cb,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			const char *s = cases[i].json;
			size_t n = strlen(s);
			struct jsonfeed jf;
			char *msg;

			assert_int_equal(jsonfeed_init(&jf, &cb, &jf), 0);
			jf.js.max_token = 8;
			feed_all(&jf, s, n, chunks[c] ? chunks[c] : n);
			assert_int_equal(jf.failed, !cases[i].ok);
			if (!cases[i].ok) {
				msg = jsonfeed_message(&jf);
				assert_string_equal(msg, "lexical error: token longer than the limit");
				assert_int_equal(jf.error_byte, 1);
				free(msg);
			}
			jsonfeed_release(&jf);
		}
}

/* yajl_integer or yajl_double without yajl_number: refused, not silently dropped. */
static int int_cb(void *ctx, long long v)
{
	(void)ctx;
	(void)v;
	return 1;
}

static void test_refuses_integer_callbacks(void **state)
{
	const yajl_callbacks cb = { .yajl_integer = int_cb };
	struct jsonfeed jf;

	(void)state;
	assert_int_equal(jsonfeed_init(&jf, &cb, NULL), -1);
	jsonfeed_release(&jf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_repository_files),
		cmocka_unit_test(test_real_traces),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_cancel_everywhere),
		cmocka_unit_test(test_depth_cap),
		cmocka_unit_test(test_token_cap),
		cmocka_unit_test(test_refuses_integer_callbacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
