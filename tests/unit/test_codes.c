/*
 * test_codes: the code table of core/codes.c is well formed, its lookups
 * answer, and docs/codes.md is exactly what the table generates now.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/codes.h"
#include "core/diag.h"
#include "ingest_fixture.h"

static void find_answers_known_and_unknown(void **state)
{
	const struct code_info *c = codes_find("truncated");

	assert_non_null(c);
	assert_string_equal(c->code, "truncated");
	assert_int_equal(c->severity, CODE_ERROR);
	assert_int_equal(c->layer, CODE_INPUT);
	assert_non_null(codes_find("report-write"));
	assert_null(codes_find("no-such-code"));
	assert_null(codes_find("truncate"));
	assert_null(codes_find(""));
	assert_null(codes_find(NULL));
}

static void allow_checks_the_severity(void **state)
{
	assert_true(codes_allow("gpu-count", DIAG_WARNING));
	assert_true(codes_allow("gpu-count", DIAG_INFO));
	assert_false(codes_allow("gpu-count", DIAG_ERROR));
	assert_true(codes_allow("unreadable", DIAG_ERROR));
	assert_false(codes_allow("unreadable", DIAG_WARNING));
	assert_false(codes_allow("no-such-code", DIAG_ERROR));
}

static void severity_names_in_enum_order(void **state)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	codes_severity_names(CODE_INFO | CODE_WARNING, &b);
	assert_string_equal(b.data, "warning, info");
	buf_reset(&b);
	codes_severity_names(CODE_ERROR, &b);
	assert_string_equal(b.data, "error");
	buf_release(&b);
}

/* Lowercase words of letters and digits joined by single '-'. */
static bool well_formed_code(const char *s)
{
	if (!*s || *s == '-' || s[strlen(s) - 1] == '-' || strstr(s, "--"))
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(s);
}

/* Text for one Markdown table cell: a sentence, no '|' and no line break. */
static void assert_cell(const char *code, const char *s, bool sentence)
{
	if (!s || !*s || strpbrk(s, "|\n") || (sentence && s[strlen(s) - 1] != '.'))
		fail_msg("code '%s': text \"%s\" cannot be a table cell%s", code, s ? s : "(null)",
			 sentence ? " ending in a period" : "");
}

static void table_is_well_formed(void **state)
{
	size_t n;
	const struct code_info *t = codes_all(&n);

	assert_true(n >= 44);
	for (size_t i = 0; i < n; i++) {
		if (!well_formed_code(t[i].code))
			fail_msg("code '%s' is not lowercase words joined by '-'", t[i].code);
		assert_int_not_equal(t[i].severity, 0);
		assert_int_equal(t[i].severity & ~(unsigned)(CODE_ERROR | CODE_WARNING | CODE_INFO), 0);
		assert_true(t[i].layer <= CODE_OUTPUT);
		assert_cell(t[i].code, t[i].raised_by, false);
		assert_cell(t[i].code, t[i].meaning, true);
		assert_cell(t[i].code, t[i].action, true);
		assert_ptr_equal(codes_find(t[i].code), &t[i]);
		if (i && (t[i].layer < t[i - 1].layer ||
			  (t[i].layer == t[i - 1].layer && strcmp(t[i - 1].code, t[i].code) >= 0)))
			fail_msg("'%s' then '%s': the table goes by layer, then by code",
				 t[i - 1].code, t[i].code);
	}
}

static void docs_match_the_table(void **state)
{
	const char *top = getenv("TOP");
	char path[1024];
	struct buf want = BUF_INIT;
	size_t n;
	char *have;

	snprintf(path, sizeof(path), "%s/docs/codes.md", top && *top ? top : ".");
	have = read_file(path, &n);
	buf_init(&want, 0);
	codes_markdown(&want);
	if (n != want.len || memcmp(have, want.data, n))
		fail_msg("%s differs from the table in core/codes.c: run 'make docs/codes.md'", path);
	free(have);
	buf_release(&want);
}

/* Every code of the table gets its own row, with its severities. */
static void docs_list_every_code(void **state)
{
	struct buf md = BUF_INIT, row = BUF_INIT;
	size_t n;
	const struct code_info *t = codes_all(&n);

	buf_init(&md, 0);
	buf_init(&row, 0);
	codes_markdown(&md);
	for (size_t i = 0; i < n; i++) {
		buf_reset(&row);
		buf_addf(&row, "\n| `%s` | ", t[i].code);
		codes_severity_names(t[i].severity, &row);
		buf_addf(&row, " | %s |", t[i].raised_by);
		if (!strstr(md.data, row.data))
			fail_msg("no row for '%s'", t[i].code);
	}
	assert_non_null(strstr(md.data, "\n| `gpu-count` | warning, info | "));
	buf_release(&row);
	buf_release(&md);
}

static void diag_keeps_documented_codes(void **state)
{
	struct diags d = DIAGS_INIT;

	diag_error(&d, "unreadable", NULL, "is a directory");
	diag_add(&d, DIAG_INFO, "gpu-count", NULL, "two GPUs");
	diag_warn(&d, "gpu-count", NULL, "three GPUs");
	assert_int_equal(d.count, 3);
	assert_string_equal(d.items[1].code, "gpu-count");
	assert_int_equal(d.errors, 1);
	assert_int_equal(d.warnings, 1);
	diags_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_answers_known_and_unknown),
		cmocka_unit_test(allow_checks_the_severity),
		cmocka_unit_test(severity_names_in_enum_order),
		cmocka_unit_test(table_is_well_formed),
		cmocka_unit_test(docs_match_the_table),
		cmocka_unit_test(docs_list_every_code),
		cmocka_unit_test(diag_keeps_documented_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
