/*
 * cli/options: the parser against a table of every kind, its exact error
 * messages, and the help made from the table.
 *
 * The Makefile links cli/ into the scaleaudit binary only, so this test
 * compiles the parser in; cli/options.c depends on core/ alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/options.h"

static int quiet, verbose_level, json, jobs = -1, when = -1;
static const char *out, *patterns;

static const char *const whens[] = { "auto", "always", "never", NULL };

static const struct option common[] = {
	OPTION_FLAG('q', "quiet", &quiet, 1, "say less"),
	OPTION_FLAG('v', NULL, &verbose_level, 2, "say more"),
	{ .kind = OPT_ENUM, .long_name = "color", .value = &when, .value_name = "WHEN",
	  .choices = whens, .flags = OPT_OPTIONAL_VALUE, .deflt = "always", .help = "colour" },
	OPTION_STRING(0, "patterns", &patterns, "FILE", "your own formats"),
	OPTION_END,
};

static const struct option table[] = {
	OPTION_STRING('o', "output", &out, "DIR", "where to write"),
	OPTION_INTEGER('j', "jobs", &jobs, "N", "how many at once"),
	OPTION_FLAG(0, "json", &json, 1, "print JSON"),
	OPTION_INCLUDE(common, "common", "options every command takes"),
	OPTION_END,
};

static void reset(void)
{
	quiet = verbose_level = json = 0;
	jobs = when = -1;
	out = patterns = NULL;
}

/* Parses the words of line (at most 15, split at spaces) into argv; returns parse_options. */
static int parse(char *line, char **argv, char *err)
{
	int argc = 0;

	reset();
	err[0] = 0;
	for (char *w = strtok(line, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return parse_options(table, argc, argv, err, 128);
}

static void options_before_and_after_operands(void **state)
{
	char line[] = "-q TRIAL --json -o out";
	char *argv[16], err[128];

	assert_int_equal(parse(line, argv, err), 1);
	assert_string_equal(argv[0], "TRIAL");
	assert_int_equal(quiet, 1);
	assert_int_equal(json, 1);
	assert_string_equal(out, "out");
}

static void values_attached_or_apart(void **state)
{
	char a[] = "--output=d1 --jobs 4 x";
	char b[] = "-od2 -j12 --patterns=p.pat";
	char c[] = "--output d3 -o d4 --patterns=";
	char *argv[16], err[128];

	assert_int_equal(parse(a, argv, err), 1);
	assert_string_equal(out, "d1");
	assert_int_equal(jobs, 4);
	assert_string_equal(argv[0], "x");
	assert_int_equal(parse(b, argv, err), 0);
	assert_string_equal(out, "d2");
	assert_int_equal(jobs, 12);
	assert_string_equal(patterns, "p.pat");
	assert_int_equal(parse(c, argv, err), 0);
	assert_string_equal(out, "d4");			/* the last one counts */
	assert_string_equal(patterns, "");
}

static void grouped_flags_and_a_value_last(void **state)
{
	char line[] = "-qvo dir";
	char *argv[16], err[128];

	assert_int_equal(parse(line, argv, err), 0);
	assert_int_equal(quiet, 1);
	assert_int_equal(verbose_level, 2);
	assert_string_equal(out, "dir");
}

static void dashes_end_options_and_dash_is_an_operand(void **state)
{
	char line[] = "a - --json -- -q --json b";
	char *argv[16], err[128];

	assert_int_equal(parse(line, argv, err), 5);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "-");
	assert_string_equal(argv[2], "-q");
	assert_string_equal(argv[3], "--json");
	assert_string_equal(argv[4], "b");
	assert_int_equal(json, 1);
	assert_int_equal(quiet, 0);
}

static void an_optional_value_only_after_equals(void **state)
{
	char a[] = "--color x";
	char b[] = "--color=never";
	char *argv[16], err[128];

	assert_int_equal(parse(a, argv, err), 1);
	assert_int_equal(when, 1);			/* alone: always */
	assert_string_equal(argv[0], "x");
	assert_int_equal(parse(b, argv, err), 0);
	assert_int_equal(when, 2);
}

static const struct {
	const char *line;
	const char *message;
} errors[] = {
	{ "--frobnicate", "unknown option '--frobnicate'" },
	{ "--frob=1", "unknown option '--frob'" },
	{ "-x", "unknown option '-x'" },
	{ "-qx", "unknown option '-x'" },
	{ "--jso", "unknown option '--jso'" },		/* no abbreviations */
	{ "x -o", "-o needs a DIR" },
	{ "--output", "--output needs a DIR" },
	{ "--patterns", "--patterns needs a FILE" },
	{ "--json=yes", "--json takes no value" },
	{ "--quiet=", "--quiet takes no value" },
	{ "--color=sometimes", "--color: 'sometimes' is not auto, always or never" },
	{ "--color=", "--color: '' is not auto, always or never" },
	{ "-j x", "-j: 'x' is not an integer" },
	{ "--jobs=4x", "--jobs: '4x' is not an integer" },
	{ "--jobs=", "--jobs: '' is not an integer" },
	{ "--jobs 99999999999", "--jobs: '99999999999' is out of range" },
};

static void errors_are_exact(void **state)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		char line[64], *argv[16], err[128];

		snprintf(line, sizeof(line), "%s", errors[i].line);
		assert_int_equal(parse(line, argv, err), -1);
		assert_string_equal(err, errors[i].message);
	}
}

static const char help_want[] =
	"options:\n"
	"  -o, --output DIR  where to write\n"
	"  -j, --jobs N      how many at once\n"
	"  --json            print JSON\n"
	"\n"
	"options every command takes:\n"
	"  -q, --quiet       say less\n"
	"  -v                say more\n"
	"  --color[=WHEN]    colour; WHEN is auto, always or never (alone: always)\n"
	"  --patterns FILE   your own formats\n";

static void help_is_aligned_and_lists_included_tables(void **state)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	options_help(table, "options", &b);
	assert_string_equal(b.data, help_want);
	buf_release(&b);
}

static void long_help_wraps_under_its_column(void **state)
{
	static const struct option longs[] = {
		OPTION_FLAG(0, "a-rather-long-option-name", &json, 1, "goes below its name"),
		OPTION_FLAG('s', NULL, &json, 1,
			    "one two three four five six seven eight nine ten eleven twelve "
			    "thirteen fourteen fifteen sixteen seventeen"),
		OPTION_END,
	};
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	options_help(longs, NULL, &b);
	assert_string_equal(b.data,
		"  --a-rather-long-option-name\n"
		"                          goes below its name\n"
		"  -s                      one two three four five six seven eight nine ten\n"
		"                          eleven twelve thirteen fourteen fifteen sixteen\n"
		"                          seventeen\n");
	buf_release(&b);
}

static void wrap_keeps_lines_under_80_columns(void **state)
{
	struct buf b = BUF_INIT;
	const char *text = "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm "
			   "nnnn oooo pppp qqqq\n\nrr ssss";

	buf_init(&b, 0);
	text_wrap(&b, text, 0, 0);
	assert_string_equal(b.data,
		"aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp\n"
		"qqqq\n\nrr ssss");
	buf_release(&b);
}

/* OPT_REPEAT: every value kept, in order, joined by commas; the help says it may be repeated. */
static void repeated_values_are_appended(void **state)
{
	struct buf gpus = BUF_INIT;
	const struct option rep[] = {
		{ .kind = OPT_STRING, .long_name = "gpu", .value = &gpus, .value_name = "MODEL",
		  .flags = OPT_REPEAT, .help = "a GPU" },
		OPTION_END,
	};
	char a0[] = "--gpu", a1[] = "H200", a2[] = "--gpu=B200,MI300X", a3[] = "x";
	char *argv[] = { a0, a1, a2, a3, NULL };
	char err[128] = "";
	struct buf help = BUF_INIT;

	buf_init(&gpus, 0);
	buf_init(&help, 0);
	assert_int_equal(parse_options(rep, 4, argv, err, sizeof(err)), 1);
	assert_string_equal(gpus.data, "H200,B200,MI300X");
	options_help(rep, NULL, &help);
	assert_non_null(strstr(help.data, "--gpu MODEL"));
	assert_non_null(strstr(help.data, "a GPU (may be repeated)"));
	buf_release(&help);
	buf_release(&gpus);
}

static void list_names_each_table(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	options_list(table, "cmd", f);
	fclose(f);
	assert_string_equal(text,
		"cmd\t-o\t--output\n"
		"cmd\t-j\t--jobs\n"
		"cmd\t--json\n"
		"common\t-q\t--quiet\n"
		"common\t-v\n"
		"common\t--color\n"
		"common\t--patterns\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_before_and_after_operands),
		cmocka_unit_test(values_attached_or_apart),
		cmocka_unit_test(grouped_flags_and_a_value_last),
		cmocka_unit_test(dashes_end_options_and_dash_is_an_operand),
		cmocka_unit_test(an_optional_value_only_after_equals),
		cmocka_unit_test(errors_are_exact),
		cmocka_unit_test(help_is_aligned_and_lists_included_tables),
		cmocka_unit_test(long_help_wraps_under_its_column),
		cmocka_unit_test(wrap_keeps_lines_under_80_columns),
		cmocka_unit_test(repeated_values_are_appended),
		cmocka_unit_test(list_names_each_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
