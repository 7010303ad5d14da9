#include "ingest/nsys_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "ingest/nsys_sum.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"

#define MAX_COLS 24		/* columns of one table; a wider rule is no table of ours */
#define MAX_WARNINGS 16		/* nsys-table warnings from one file */

/* A table being read. */
struct table {
	enum nsys_kind kind;
	const char *report;	/* interned */
	int ncols;
	enum nsys_col cols[MAX_COLS];	/* column of each field */
	double scale[MAX_COLS];		/* NaN: unit unknown */
	int64_t line;		/* of the rule */
	int64_t rows;
	bool by_operation;	/* the last column is "Operation" (memory tables) */
	bool instances;		/* the count column is "Instances" (kernels, NVTX), not calls */
};

struct ns {
	struct ingest_ctx *ctx;
	struct buf prev;	/* the line before, a header when a rule follows */
	const char *report;	/* announced by the last title line; NULL none */
	struct table t;		/* t.kind NSYS_NONE between tables */
	struct nsys_sum sum;	/* the rows of the file's tables; sum.tables: tables read */
	struct info *tables;	/* ctx->info `tables`; NULL until one */
	int64_t warnings;
	int64_t lineno;		/* of the last line read */
	struct ingest_cap cap;	/* rows kept, against the limits */
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* ---- header ---- */

/* A rule: runs of '-' separated by spaces, at least two of them; their starts in at[]. */
static int rule(const char *s, size_t len, size_t at[MAX_COLS])
{
	int runs = 0;

	for (size_t i = 0; i < len; i++) {
		if (is_space(s[i]))
			continue;
		if (s[i] != '-' || runs == MAX_COLS)
			return 0;
		at[runs++] = i;
		while (i + 1 < len && s[i + 1] == '-')
			i++;
	}
	return runs >= 2 ? runs : 0;
}

static void trim(const char **p, const char **end)
{
	while (*p < *end && is_space(**p))
		(*p)++;
	while (*end > *p && is_space((*end)[-1]))
		(*end)--;
}

/* Reads the header in n->prev under a rule whose columns start at at[]; false: no table. */
static bool header(struct ns *n, const size_t at[], int ncols, int64_t lineno)
{
	struct table *t = &n->t;
	const char *h = n->prev.data;
	size_t hl = n->prev.len;

	*t = (struct table){ .kind = NSYS_NONE, .ncols = ncols, .line = lineno };
	for (int i = 0; i < ncols; i++) {
		size_t a = at[i] < hl ? at[i] : hl;
		size_t b = i + 1 < ncols && at[i + 1] < hl ? at[i + 1] : hl;

		nsys_header_cell(h + a, h + b, &t->cols[i], &t->scale[i]);
		if (t->cols[i] == NSYS_NAME)
			t->by_operation = memmem(h + a, b - a, "Operation", 9) != NULL;
		if (t->cols[i] == NSYS_COUNT)
			t->instances = memmem(h + a, b - a, "Instances", 9) != NULL;
	}
	/* the columns must make a summary table, whichever report announced it */
	t->kind = nsys_kind_of_columns(t->cols, ncols, t->by_operation, t->instances);
	if (t->kind == NSYS_NONE)
		return false;
	if (n->report)
		t->kind = nsys_kind_of_report(n->report);
	t->report = n->report ? n->report : intern_str(&n->ctx->trial->strings, nsys_kind_report(t->kind));
	n->report = NULL;
	return true;
}

/* ---- rows ---- */

static void warn(struct ns *n, int64_t lineno, const char *what)
{
	struct srcpos pos = { .file = n->ctx->path, .line = lineno, .byte = -1 };

	if (n->warnings++ < MAX_WARNINGS)
		diag_warn(n->ctx->diags, "nsys-table", &pos, "table '%s' %s", n->t.report, what);
}

/* A number with thousands separators; false when [p, end) is none. */
static bool number(const char *p, const char *end, double *v)
{
	char tmp[64], *e;
	size_t k = 0;

	for (; p < end && k + 1 < sizeof(tmp); p++)
		if (*p != ',')
			tmp[k++] = *p;
	if (p < end || !k)
		return false;
	tmp[k] = '\0';
	*v = strtod(tmp, &e);
	return *e == '\0';
}

/*
 * Reads a row, kept unless a limit is reached (n->cap.capped); false when
 * the line does not fit the table.
 */
static bool row(struct ns *n, const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	double v[NSYS_NCOLS];

	for (int c = 0; c < NSYS_NCOLS; c++)
		v[c] = NAN;
	for (int i = 0; i < n->t.ncols - 1; i++) {
		const char *q;
		enum nsys_col c = n->t.cols[i];

		while (p < end && is_space(*p))
			p++;
		for (q = p; q < end && !is_space(*q); q++)
			;
		if (q == p || (c < NSYS_NAME && !number(p, q, &v[c])))
			return false;
		if (c < NSYS_NAME)
			v[c] *= n->t.scale[i];
		p = q;
	}
	trim(&p, &end);
	if (p == end || (isnan(v[NSYS_TOTAL]) && isnan(v[NSYS_BYTES])))
		return false;
	if (ingest_keep_line(n->ctx, &n->cap, n->lineno) == 0)
		nsys_sum_add(&n->sum, n->ctx, n->t.kind, p, (size_t)(end - p), v);
	return true;
}

/* ---- lines ---- */

static void end_table(struct ns *n, int64_t lineno, bool blank)
{
	struct ingest_ctx *c = n->ctx;
	struct info *o;

	if (!n->t.rows)
		warn(n, lineno, "ends before its first row");
	else if (!blank)
		warn(n, lineno, "has a line that does not fit its columns (cut short?); the table ends here");
	if (!n->tables)
		n->tables = info_arr(c->arena, c->info, "tables");
	o = info_obj(c->arena, n->tables, NULL);
	info_str(c->arena, o, "report", n->t.report);
	info_int(c->arena, o, "line", n->t.line - 1);
	info_int(c->arena, o, "rows", n->t.rows);
	n->sum.tables++;
	n->t.kind = NSYS_NONE;
}

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_space(s[i]))
			return false;
	return true;
}

static int ns_line(void *st, const char *s, size_t len, int64_t lineno)
{
	struct ns *n = st;
	size_t at[MAX_COLS];
	const char *r;
	int ncols;

	n->lineno = lineno;
	if (n->t.kind != NSYS_NONE) {
		if (!blank(s, len) && row(n, s, len)) {
			if (n->cap.capped)
				return -1;
			n->t.rows++;
			n->ctx->src->events++;
			return 0;
		}
		end_table(n, lineno, blank(s, len));
	}
	if ((ncols = rule(s, len, at)) && header(n, at, ncols, lineno))
		return 0;
	if ((r = nsys_title(n->ctx, s, len)))
		n->report = r;
	buf_reset(&n->prev);
	buf_add(&n->prev, s, len);
	return 0;
}

/* ---- finish ---- */

static int ns_finish(void *st)
{
	struct ns *n = st;

	if (n->t.kind != NSYS_NONE)
		end_table(n, n->lineno, true);
	nsys_sum_finish(&n->sum, n->ctx);
	return 0;
}

static void *ns_open(struct ingest_ctx *ctx)
{
	struct ns *n = xcalloc(1, sizeof(*n));

	n->ctx = ctx;
	n->t.kind = NSYS_NONE;
	buf_init(&n->prev, 0);
	return n;
}

static bool ns_found(void *st)
{
	return ((struct ns *)st)->sum.tables > 0;
}

static void ns_free(void *st)
{
	struct ns *n = st;

	buf_release(&n->prev);
	nsys_sum_release(&n->sum);
	free(n);
}

const struct reader nsys_stats_reader = {
	.name = "nsys-stats",
	.input = READ_LINES,
	.open = ns_open,
	.line = ns_line,
	.finish = ns_finish,
	.found = ns_found,
	.free = ns_free,
};
