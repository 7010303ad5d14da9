/*
 * Text from the inputs (a title, a run's directory name, a finding's message) in every
 * renderer: invalid UTF-8 shows as U+FFFD and control characters are escaped, in the
 * terminal text (whose own colour codes stay the only escape codes), in Markdown, in JSON
 * and in what pango measures and draws; a renderer that fails is not blamed on a stale errno.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "core/utf8.h"
#include "fixture_analysis.h"
#include "render/analysis_text.h"
#include "render/report.h"
#include "render/summary.h"
#include "render/text.h"

#define R UTF8_REPLACEMENT
#define TITLE "Caf\xe9 \x1b[2Jtrial"
#define TITLE_SHOWN "Caf" R " \\x1b[2Jtrial"

static void hostile(struct analysis *a)
{
	fixture_analysis_ddp(a);
	a->title = TITLE;
	a->runs[1].name = "2gpu\n\x1b]0;x\x07";
	a->findings[0].message = "bad \xc2\x9b byte";	/* C1 CSI */
}

static char *text_of(const struct analysis *a, bool color)
{
	struct analysis_text_options opt = { .color = color };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(analysis_write_text(a, f, &opt), 0);
	fclose(f);
	return text;
}

/* The only ESC bytes left are those of the colours: "\x1b[" then digits, ';' and 'm'. */
static size_t foreign_escapes(const char *s)
{
	size_t n = 0;

	for (const char *p = strchr(s, '\x1b'); p; p = strchr(p + 1, '\x1b')) {
		size_t k = strspn(p + 2, "0123456789;");

		n += p[1] != '[' || p[2 + k] != 'm';
	}
	return n;
}

static void terminal_text_escapes_input_text(void **state)
{
	struct analysis a;
	char *plain, *coloured;

	(void)state;
	hostile(&a);
	plain = text_of(&a, false);
	coloured = text_of(&a, true);
	assert_non_null(strstr(plain, "Trial: " TITLE_SHOWN "\n"));
	assert_non_null(strstr(plain, "2gpu\\x0a\\x1b]0;x\\x07"));
	assert_non_null(strstr(plain, "bad \\x9b byte"));
	assert_null(strchr(plain, '\x1b'));
	assert_true(utf8_valid(plain, strlen(plain)));
	/* colour on: the verdict and the severity words are coloured, nothing else gets through */
	assert_non_null(strstr(coloured, "\x1b[1;32mCONFIRMED\x1b[0m"));
	assert_non_null(strstr(coloured, "\x1b[1;33mwarning\x1b[0m: bad \\x9b byte"));
	assert_int_equal(foreign_escapes(coloured), 0);
	assert_non_null(strstr(coloured, "Trial: " TITLE_SHOWN "\n"));
	free(plain);
	free(coloured);
	fixture_analysis_release(&a);
}

static void markdown_keeps_each_line_one_line(void **state)
{
	struct analysis a;
	struct summary s;
	struct buf md;

	(void)state;
	hostile(&a);
	summary_build(&s, &a, NULL, 0);
	buf_init(&md, 0);
	summary_markdown(&s, NULL, NULL, NULL, 0, &md);
	assert_memory_equal(md.data, "# " "Caf" R " \\\\x1b\\[2Jtrial\n", strlen("# Caf" R " \\\\x1b\\[2Jtrial\n"));
	assert_null(strchr(md.data, '\x1b'));
	assert_true(utf8_valid(md.data, md.len));
	buf_release(&md);
	summary_release(&s);
	fixture_analysis_release(&a);
}

static void json_strings_are_valid_utf8(void **state)
{
	yajl_gen g = json_new();
	const unsigned char *p;
	size_t n;

	(void)state;
	yajl_gen_map_open(g);
	json_key(g, "k\xff");
	json_str(g, TITLE);
	yajl_gen_map_close(g);
	yajl_gen_get_buf(g, &p, &n);
	assert_string_equal((const char *)p, "{\"k" R "\":\"Caf" R " \\u001B[2Jtrial\"}");
	yajl_gen_free(g);
}

/* pango gets the escaped text: invalid UTF-8 measures as U+FFFD, not as nothing. */
static void pango_measures_the_escaped_text(void **state)
{
	double w1, h1, w2, h2;

	(void)state;
	text_size(FONT_BODY, TITLE, 0, &w1, &h1);
	text_size(FONT_BODY, TITLE_SHOWN, 0, &w2, &h2);
	assert_true(w1 > 0);
	assert_true(w1 == w2 && h1 == h2);
	text_release();
}

/* A renderer that fails after a library left errno set (pango's isatty: ENOTTY). */
static int failing_renderer(FILE *f, void *ctx)
{
	(void)f;
	(void)ctx;
	errno = ENOTTY;
	return -1;
}

/* A report file whose renderer fails says so, not a stale errno: one title byte did that. */
static void a_renderer_failure_names_no_stale_errno(void **state)
{
	char dir[] = "/tmp/test_hostile_textXXXXXX", path[64];
	struct diags d = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/report.pdf", dir);
	assert_int_equal(write_atomic_as("report-write", path, failing_renderer, NULL, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.items[0].message, "cannot write: the renderer failed");
	assert_int_equal(access(path, F_OK), -1);	/* nothing half-written left in place */
	diags_release(&d);
	assert_int_equal(rmdir(dir), 0);	/* and no temporary file left either */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(terminal_text_escapes_input_text),
		cmocka_unit_test(markdown_keeps_each_line_one_line),
		cmocka_unit_test(json_strings_are_valid_utf8),
		cmocka_unit_test(pango_measures_the_escaped_text),
		cmocka_unit_test(a_renderer_failure_names_no_stale_errno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
