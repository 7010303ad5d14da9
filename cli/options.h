/*
 * options: the option tables of the commands, the parser that reads a
 * command line against one (like git's parse-options), and the help text
 * made from the same table, so that an option cannot be accepted without
 * being documented. Neither the parser nor the help prints or exits: the
 * caller says what went wrong, and how.
 */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "core/buf.h"
#include "core/wrap.h"	/* text_wrap(), which help uses */

enum option_kind {
	OPT_END,	/* ends a table */
	OPT_FLAG,	/* takes no value: stores .set in *(int *)value */
	OPT_STRING,	/* takes a value: stores the argument in *(const char **)value */
	OPT_INTEGER,	/* takes a decimal integer: stores it in *(int *)value */
	OPT_ENUM,	/* takes one of .choices: stores its index in *(int *)value */
	OPT_INCLUDE,	/* the options of .include, listed under the heading .help */
};

enum option_flags {
	OPT_OPTIONAL_VALUE = 1 << 0,	/* the value only as --name=VALUE; alone it is .deflt */
	OPT_REPEAT = 1 << 1,		/* OPT_STRING: each value is appended, after a comma, to
					 * the initialised struct buf *value */
};

/*
 * One option. A table is an array ending in OPT_END; an option is found by
 * its short or its long name, in the table and then in its included tables.
 */
struct option {
	enum option_kind kind;
	char short_name;		/* 'o' for -o; 0 = none */
	const char *long_name;		/* "json" for --json; NULL = none (OPT_INCLUDE: the table's name) */
	const char *value_name;		/* "DIR", shown in the help; NULL for OPT_FLAG */
	const char *help;		/* lowercase, no period; the heading for OPT_INCLUDE */
	void *value;			/* where the value goes, typed by kind */
	int set;			/* OPT_FLAG: the value stored */
	const char *const *choices;	/* OPT_ENUM: NULL-terminated */
	const char *deflt;		/* OPT_OPTIONAL_VALUE: the value of the bare option */
	unsigned flags;			/* enum option_flags */
	const struct option *include;	/* OPT_INCLUDE: the table */
	long lo, hi;			/* OPT_INTEGER with .range: the values taken */
	const char *range;		/* "1 to 256 trials at once": named when a value is outside
					   lo..hi or too large to read; NULL: any int */
};

#define OPTION_FLAG(s, l, v, n, h) \
	{ .kind = OPT_FLAG, .short_name = (s), .long_name = (l), .value = (v), .set = (n), .help = (h) }
#define OPTION_STRING(s, l, v, name, h) \
	{ .kind = OPT_STRING, .short_name = (s), .long_name = (l), .value = (v), \
	  .value_name = (name), .help = (h) }
#define OPTION_INTEGER(s, l, v, name, h) \
	{ .kind = OPT_INTEGER, .short_name = (s), .long_name = (l), .value = (v), \
	  .value_name = (name), .help = (h) }
/* A number's digits as a string literal, for help and range texts: OPTION_STR(256) is "256". */
#define OPTION_STR_(x) #x
#define OPTION_STR(x) OPTION_STR_(x)

/* An integer option that takes lo..hi only; range says so in words ("0 (no limit) to 600 seconds"). */
#define OPTION_INTEGER_RANGE(s, l, v, name, h, low, high, words) \
	{ .kind = OPT_INTEGER, .short_name = (s), .long_name = (l), .value = (v), \
	  .value_name = (name), .help = (h), .lo = (low), .hi = (high), .range = (words) }
#define OPTION_INCLUDE(table, name, heading) \
	{ .kind = OPT_INCLUDE, .include = (table), .long_name = (name), .help = (heading) }
#define OPTION_END { .kind = OPT_END }

/*
 * Reads argv[0..argc) (the words after the command's name) against opts,
 * storing each option's value as its kind says. Options may come before or
 * after operands; "--" ends them; "-" is an operand. Long options take
 * their value as --name=VALUE or --name VALUE, short ones as -oVALUE or
 * -o VALUE; short flags may be grouped (-qv).
 *
 * Returns the number of operands, moved in order to argv[0..n), or -1 with
 * a one-line message in err (lowercase, no period): "unknown option '-x'",
 * "-o needs a DIR", "--json takes no value", "--color: 'x' is not auto,
 * always or never", "--jobs: 'x' is not an integer". Values stored before
 * an error stay stored.
 */
int parse_options(const struct option *opts, int argc, char **argv, char *err, size_t errsize);

/*
 * Appends the help of opts to out: one line per option, its names and value
 * name ("-o DIR", "--color[=WHEN]"), the help aligned in one column and
 * wrapped at 80 columns; each included table follows under its heading.
 * Each heading ends in a colon; the first is `heading` (NULL: none), shown
 * only when the table has options of its own.
 */
void options_help(const struct option *opts, const char *heading, struct buf *out);

/*
 * Writes one line per option of opts: the name of the table that holds it
 * (`name` for opts itself, the include's name for the others), then its
 * spellings ("-q --quiet"), separated by tabs. For shell completion and the
 * test that every option is documented.
 */
void options_list(const struct option *opts, const char *name, FILE *f);

#endif
