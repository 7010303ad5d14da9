/*
 * Unit tests of core/jfields: every table of analysis.json and replay.json
 * holds each field's size to its kind and inside its struct; the check
 * catches a planted mismatch of each sort; and the one null rule holds, a
 * struct of unknowns written as nulls and read back from nulls and from
 * missing keys alike.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "core/jfields.h"
#include "core/json.h"
#include "render/analysis_json.h"
#include "render/replay_json.h"

static void every_table_matches_its_kinds(void **state)
{
	char why[256];
	int n;

	(void)state;
	n = jfields_check(analysis_json_fields(), sizeof(struct analysis), why, sizeof(why));
	if (n < 0)
		fail_msg("analysis.json: %s", why);
	assert_true(n > 300);	/* every table below the root was walked, not the root alone */
	n = jfields_check(replay_json_fields(), sizeof(struct replay), why, sizeof(why));
	if (n < 0)
		fail_msg("replay.json: %s", why);
	assert_int_equal(n, 5 + 12 + 17);	/* root, top fields, kernel fields */
}

struct inner {
	double x;
};

struct outer {
	int64_t count;
	double num;
	const char *str;
	bool flag;
	struct inner in;
	struct inner *elems;
	size_t nelems;
};

static const struct jfield inner_fields[] = {
	JF_NUM(struct inner, x, "x"),
	JF_END
};

/* What the macros cannot make: a kind on a member of another size, or out of its struct. */
static void planted_mismatches_fail(void **state)
{
	static const struct jfield num_on_count[] = {
		{ "count", JK_NUM, offsetof(struct outer, count) + 4, 4, NULL }, JF_END };
	static const struct jfield str_on_bool[] = {
		{ "flag", JK_STR, offsetof(struct outer, flag), sizeof(bool), NULL }, JF_END };
	static const struct jfield past_end[] = {
		{ "x", JK_NUM, sizeof(struct inner), sizeof(double), NULL }, JF_END };
	static const struct jfield nested_past_end[] = {
		JF_OBJ(struct outer, in, "in", past_end), JF_END };
	static const struct jarray wide = { offsetof(struct outer, nelems), 4, inner_fields, false };
	static const struct jfield elem_too_small[] = {
		JF_ARR(struct outer, elems, "elems", &wide), JF_END };
	static const struct jfield enum_without_names[] = {
		{ "e", JK_ENUM, 0, 4, NULL }, JF_END };
	static const struct { const struct jfield *t; const char *why; } bad[] = {
		{ num_on_count, "'count': kind 6 of 4 bytes at 4 in a struct of 56" },
		{ str_on_bool, "'flag': kind 0 of 1 bytes at 24 in a struct of 56" },
		{ nested_past_end, "'x': kind 6 of 8 bytes at 8 in a struct of 8" },
		{ elem_too_small, "'x': kind 6 of 8 bytes at 0 in a struct of 4" },
		{ enum_without_names, "'e': kind 10 lacks what it needs" },
	};
	char why[256];

	(void)state;
	assert_int_equal(sizeof(struct outer), 56);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(jfields_check(bad[i].t, sizeof(struct outer), why, sizeof(why)), -1);
		assert_string_equal(why, bad[i].why);
	}
}

static const struct jarray outer_elems = JARRAY(struct outer, elems, nelems, inner_fields, false);

static const struct jfield outer_fields[] = {
	JF_COUNT(struct outer, count, "count"),
	JF_NUM(struct outer, num, "num"),
	JF_STR(struct outer, str, "str"),
	JF_BOOL(struct outer, flag, "flag"),
	JF_OBJ(struct outer, in, "in", inner_fields),
	JF_ARR(struct outer, elems, "elems", &outer_elems),
	JF_END
};

static char *write_outer(const struct outer *o)
{
	struct jwrite w = { .g = json_new() };
	char *s = NULL;
	size_t len;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	yajl_gen_map_open(w.g);
	jfields_write(&w, outer_fields, o);
	yajl_gen_map_close(w.g);
	assert_int_equal(json_flush(w.g, f, false), 0);
	yajl_gen_free(w.g);
	assert_int_equal(fclose(f), 0);
	assert_true(len > 0 && s[len - 1] == '\n');
	s[len - 1] = '\0';	/* json_flush ends the document with a newline */
	return s;
}

static void read_outer(const char *doc, struct outer *o, struct arena *a)
{
	struct jread r = { .arena = a };
	const char *err = NULL;
	const struct jnode *root = jtree_parse(a, doc, strlen(doc), &err, &r.err_at);

	assert_non_null(root);
	memset(o, 0x5a, sizeof(*o));	/* nothing may stay as it was */
	assert_int_equal(jfields_read(&r, root, outer_fields, o), 0);
	assert_string_equal(r.err, "");
}

static void unknowns_are_null_both_ways(void **state)
{
	struct outer o = { .count = -1, .num = NAN, .in.x = NAN }, back;
	struct arena a = ARENA_INIT;
	static const char *const docs[] = {
		"{\"count\":null,\"num\":null,\"str\":null,\"flag\":false,\"in\":{\"x\":null},\"elems\":[]}",
		"{}",
		"{\"in\":null,\"elems\":null}",
	};
	char *s = write_outer(&o);

	(void)state;
	assert_string_equal(s, docs[0]);
	free(s);
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		read_outer(docs[i], &back, &a);
		assert_int_equal(back.count, -1);
		assert_true(isnan(back.num) && isnan(back.in.x));
		assert_null(back.str);
		assert_false(back.flag);
		assert_int_equal(back.nelems, 0);
		s = write_outer(&back);
		assert_string_equal(s, docs[0]);
		free(s);
	}
	arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_table_matches_its_kinds),
		cmocka_unit_test(planted_mismatches_fail),
		cmocka_unit_test(unknowns_are_null_both_ways),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
