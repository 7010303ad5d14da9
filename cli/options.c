#include "cli/options.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HELP_COL_MAX 26		/* the help column; longer names put their help below */

struct parse {
	const struct option *opts;	/* the table read against */
	char *err;			/* where the message of an error goes */
	size_t errsize;			/* its size */
};

static int reject(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int reject(struct parse *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->errsize, fmt, ap);
	va_end(ap);
	return -1;
}

/* The option named -s (s != 0) or --name (name[0..len)), here or in an included table. */
static const struct option *find(const struct option *o, char s, const char *name, size_t len)
{
	for (; o->kind != OPT_END; o++) {
		if (o->kind == OPT_INCLUDE) {
			const struct option *in = find(o->include, s, name, len);

			if (in)
				return in;
		} else if (s ? o->short_name == s
			     : o->long_name && strlen(o->long_name) == len &&
			       !strncmp(o->long_name, name, len)) {
			return o;
		}
	}
	return NULL;
}

/* "auto, always or never" */
static void choices_list(const struct option *o, struct buf *out)
{
	for (size_t i = 0; o->choices[i]; i++) {
		if (i)
			buf_addstr(out, o->choices[i + 1] ? ", " : " or ");
		buf_addstr(out, o->choices[i]);
	}
}

static int store_integer(struct parse *p, const struct option *o, const char *spelled, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end)
		return reject(p, "%s: '%s' is not an integer", spelled, v);
	if (o->range && (errno == ERANGE || n < o->lo || n > o->hi))
		return reject(p, "%s %s is out of range: give %s", spelled, v, o->range);
	if (errno == ERANGE || n < INT_MIN || n > INT_MAX)
		return reject(p, "%s: '%s' is out of range", spelled, v);
	*(int *)o->value = (int)n;
	return 0;
}

static int store_enum(struct parse *p, const struct option *o, const char *spelled, const char *v)
{
	struct buf list = BUF_INIT;

	for (int i = 0; o->choices[i]; i++) {
		if (!strcmp(o->choices[i], v)) {
			*(int *)o->value = i;
			return 0;
		}
	}
	buf_init(&list, 0);
	choices_list(o, &list);
	reject(p, "%s: '%s' is not %s", spelled, v, list.data);
	buf_release(&list);
	return -1;
}

/* Stores the value v of option o, spelled as the user wrote it ("--color", "-o"). */
static int store(struct parse *p, const struct option *o, const char *spelled, const char *v)
{
	switch (o->kind) {
	case OPT_FLAG:
		*(int *)o->value = o->set;
		return 0;
	case OPT_STRING:
		if (o->flags & OPT_REPEAT) {
			struct buf *b = o->value;

			if (b->len)
				buf_addch(b, ',');
			buf_addstr(b, v);
			return 0;
		}
		*(const char **)o->value = v;
		return 0;
	case OPT_INTEGER:
		return store_integer(p, o, spelled, v);
	case OPT_ENUM:
		return store_enum(p, o, spelled, v);
	case OPT_END:
	case OPT_INCLUDE:
		break;
	}
	return reject(p, "%s: not an option", spelled);
}

/* The value of o when none is attached to it: its default, or the next word. */
static int next_value(struct parse *p, const struct option *o, const char *spelled, int argc,
		      char **argv, int *i)
{
	if (o->flags & OPT_OPTIONAL_VALUE)
		return store(p, o, spelled, o->deflt);
	if (*i + 1 >= argc)
		return reject(p, "%s needs a %s", spelled, o->value_name);
	return store(p, o, spelled, argv[++*i]);
}

/* argv[*i] is "--name" or "--name=value". */
static int parse_long(struct parse *p, int argc, char **argv, int *i)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o = find(p->opts, 0, name, len);
	char spelled[64];

	if (!o)
		return reject(p, "unknown option '--%.*s'", (int)len, name);
	snprintf(spelled, sizeof(spelled), "--%s", o->long_name);
	if (o->kind == OPT_FLAG)
		return eq ? reject(p, "%s takes no value", spelled) : store(p, o, spelled, NULL);
	if (eq)
		return store(p, o, spelled, eq + 1);
	return next_value(p, o, spelled, argc, argv, i);
}

/* argv[*i] is "-q", "-qv", "-oDIR" or "-o" followed by DIR. */
static int parse_short(struct parse *p, int argc, char **argv, int *i)
{
	for (const char *c = argv[*i] + 1; *c; c++) {
		const struct option *o = find(p->opts, *c, NULL, 0);
		char spelled[3] = { '-', *c, 0 };

		if (!o)
			return reject(p, "unknown option '%s'", spelled);
		if (o->kind == OPT_FLAG) {
			store(p, o, spelled, NULL);
			continue;
		}
		if (c[1])
			return store(p, o, spelled, c + 1);
		return next_value(p, o, spelled, argc, argv, i);
	}
	return 0;
}

int parse_options(const struct option *opts, int argc, char **argv, char *err, size_t errsize)
{
	struct parse p = { .opts = opts, .err = err, .errsize = errsize };
	bool operands_only = false;
	int n = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (operands_only || a[0] != '-' || !a[1]) {
			argv[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			operands_only = true;
			continue;
		}
		rc = a[1] == '-' ? parse_long(&p, argc, argv, &i) : parse_short(&p, argc, argv, &i);
		if (rc < 0)
			return -1;
	}
	return n;
}

/* "-o DIR", "-q, --quiet", "--color[=WHEN]", "--patterns FILE" */
static void spell(const struct option *o, struct buf *out)
{
	if (o->short_name)
		buf_addf(out, "-%c%s", o->short_name, o->long_name ? ", " : "");
	if (o->long_name)
		buf_addf(out, "--%s", o->long_name);
	if (o->kind == OPT_FLAG)
		return;
	if (o->flags & OPT_OPTIONAL_VALUE)
		buf_addf(out, "[=%s]", o->value_name);
	else
		buf_addf(out, " %s", o->value_name);
}

/* The widest spelling of opts and its included tables. */
static size_t spell_width(const struct option *opts)
{
	struct buf b = BUF_INIT;
	size_t w = 0;

	buf_init(&b, 0);
	for (const struct option *o = opts; o->kind != OPT_END; o++) {
		size_t n;

		if (o->kind == OPT_INCLUDE) {
			n = spell_width(o->include);
		} else {
			buf_reset(&b);
			spell(o, &b);
			n = b.len;
		}
		w = n > w ? n : w;
	}
	buf_release(&b);
	return w;
}

static void pad(struct buf *out, size_t n)
{
	while (n--)
		buf_addch(out, ' ');
}

/* One option's line(s): names at column 2, help at column `at`. */
static void help_line(const struct option *o, size_t at, struct buf *out)
{
	struct buf text = BUF_INIT;
	size_t start = out->len;

	buf_init(&text, 0);
	buf_addstr(out, "  ");
	spell(o, out);
	if (out->len - start + 2 > at) {
		buf_addch(out, '\n');
		start = out->len;
	}
	pad(out, at - (out->len - start));
	buf_addstr(&text, o->help);
	if (o->kind == OPT_ENUM) {
		buf_addf(&text, "; %s is ", o->value_name);
		choices_list(o, &text);
	}
	if (o->flags & OPT_OPTIONAL_VALUE)
		buf_addf(&text, " (alone: %s)", o->deflt);
	if (o->flags & OPT_REPEAT)
		buf_addstr(&text, " (may be repeated)");
	text_wrap(out, text.data, at, at);
	buf_addch(out, '\n');
	buf_release(&text);
}

static void help_table(const struct option *opts, const char *heading, size_t at, struct buf *out)
{
	bool own = false;

	for (const struct option *o = opts; o->kind != OPT_END; o++) {
		if (o->kind == OPT_INCLUDE)
			continue;
		if (!own && heading)
			buf_addf(out, "%s:\n", heading);
		own = true;
		help_line(o, at, out);
	}
	for (const struct option *o = opts; o->kind != OPT_END; o++) {
		if (o->kind != OPT_INCLUDE)
			continue;
		if (own)
			buf_addch(out, '\n');
		help_table(o->include, o->help, at, out);
		own = true;
	}
}

void options_help(const struct option *opts, const char *heading, struct buf *out)
{
	size_t at = 2 + spell_width(opts) + 2;

	help_table(opts, heading, at < HELP_COL_MAX ? at : HELP_COL_MAX, out);
}

void options_list(const struct option *opts, const char *name, FILE *f)
{
	for (const struct option *o = opts; o->kind != OPT_END; o++) {
		if (o->kind == OPT_INCLUDE) {
			options_list(o->include, o->long_name, f);
			continue;
		}
		fputs(name, f);
		if (o->short_name)
			fprintf(f, "\t-%c", o->short_name);
		if (o->long_name)
			fprintf(f, "\t--%s", o->long_name);
		fputc('\n', f);
	}
}
