#include "ingest/nsys_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/kname.h"
#include "core/xalloc.h"

#define MAX_COLS 24		/* columns of one table; a wider rule is no table of ours */
#define MAX_WARNINGS 16		/* nsys-table warnings from one file */
#define MAX_LISTED 32		/* rows of each kind listed in ctx->info */

/* What a table holds, by its report. */
enum kind { K_KERN, K_MEMTIME, K_MEMSIZE, K_NVTX, K_API, K_OSRT, K_OTHER, K_NONE };

/* Report names of both eras; a name not here is K_OTHER. */
static const struct {
	const char *report;
	enum kind kind;
} reports[] = {
	{ "cuda_gpu_kern_sum", K_KERN }, { "gpukernsum", K_KERN },
	{ "cuda_gpu_mem_time_sum", K_MEMTIME }, { "gpumemtimesum", K_MEMTIME },
	{ "cuda_gpu_mem_size_sum", K_MEMSIZE }, { "gpumemsizesum", K_MEMSIZE },
	{ "nvtx_sum", K_NVTX }, { "nvtxsum", K_NVTX }, { "nvtx_pushpop_sum", K_NVTX },
	{ "nvtxppsum", K_NVTX },
	{ "cuda_api_sum", K_API }, { "cudaapisum", K_API },
	{ "osrt_sum", K_OSRT }, { "osrtsum", K_OSRT },
};

/* The report name each kind is listed under when no line announced it. */
static const char *const kind_report[] = {
	[K_KERN] = "cuda_gpu_kern_sum", [K_MEMTIME] = "cuda_gpu_mem_time_sum",
	[K_MEMSIZE] = "cuda_gpu_mem_size_sum", [K_NVTX] = "nvtx_sum",
	[K_API] = "cuda_api_sum", [K_OSRT] = "osrt_sum", [K_OTHER] = "unknown",
};

/* Columns read, whatever their header's wording. */
enum col { C_PCT, C_TOTAL, C_COUNT, C_AVG, C_MED, C_BYTES, C_NAME, C_STYLE, C_NCOLS, C_SKIP };

/* A header's label (its text before any "(unit)") -> column. */
static const struct {
	const char *label;
	enum col col;
} labels[] = {
	{ "Time", C_PCT }, { "Total Time", C_TOTAL }, { "Total", C_BYTES },
	{ "Instances", C_COUNT }, { "Count", C_COUNT }, { "Num Calls", C_COUNT },
	{ "Calls", C_COUNT }, { "Operations", C_COUNT },
	{ "Avg", C_AVG }, { "Average", C_AVG }, { "Med", C_MED }, { "Median", C_MED },
	{ "Name", C_NAME }, { "Operation", C_NAME }, { "Range", C_NAME }, { "Style", C_STYLE },
};

/* A header's "(unit)" -> factor to ns or bytes. */
static const struct {
	const char *unit;
	double scale;
} units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "%", 1 },
	{ "B", 1 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
	{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
};

/* A table being read. */
struct table {
	enum kind kind;
	const char *report;	/* interned */
	int ncols;
	enum col cols[MAX_COLS];	/* column of each field */
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
	struct table t;		/* t.kind K_NONE between tables */
	struct nsys_row *rows[3];	/* kernels, memory operations, NVTX ranges */
	size_t nrows[3], cap[3];
	struct info *tables;	/* ctx->info `tables`; NULL until one */
	int64_t ntables, cut_names, warnings;
	int64_t lineno;		/* of the last line read */
};

enum list { L_KERN, L_MEM, L_NVTX };

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* ---- titles ---- */

static enum kind kind_of_report(const char *s)
{
	for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
		if (!strcmp(reports[i].report, s))
			return reports[i].kind;
	return K_OTHER;
}

/* The report name between [p, end) up to a ':' option or `stop`, interned; NULL if not a word. */
static const char *report_name(struct ns *n, const char *p, const char *end, char stop)
{
	const char *q = p;

	while (q < end && *q != stop && *q != ':' && (*q == '_' || (*q >= 'a' && *q <= 'z') ||
						       (*q >= '0' && *q <= '9')))
		q++;
	if (q == p || q == end || (*q != stop && *q != ':'))
		return NULL;
	return intern(&n->ctx->trial->strings, p, (size_t)(q - p));
}

static const char *find(const char *s, size_t len, const char *what)
{
	return memmem(s, len, what, strlen(what));
}

/* The report a title line announces; NULL when the line is no title. */
static const char *title(struct ns *n, const char *s, size_t len)
{
	const char *end = s + len, *p;

	if ((p = find(s, len, "Executing '")) && find(p, (size_t)(end - p), "' stats report"))
		return report_name(n, p + 11, end, '\'');
	if ((p = find(s, len, "** ")) && len > 2 && end[-1] == ':' && end[-2] == ')') {
		for (p = end - 2; p > s && p[-1] != '('; p--)
			;
		return p > s ? report_name(n, p, end, ')') : NULL;
	}
	if ((find(s, len, "Running [") || find(s, len, "Processing [")) && (p = find(s, len, ".py"))) {
		const char *b = p;

		while (b > s && b[-1] != '/' && b[-1] != '[')
			b--;
		return report_name(n, b, end, '.');
	}
	return NULL;
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

/* The column and unit factor of one header cell [p, end). */
static void header_cell(const char *p, const char *end, enum col *col, double *scale)
{
	const char *lab_end = end, *u = NULL;
	size_t ul = 0;

	trim(&p, &end);
	if (end > p && end[-1] == ')' && (u = memchr(p, '(', (size_t)(end - p)))) {
		lab_end = u;
		u++;
		ul = (size_t)(end - 1 - u);
	} else {
		lab_end = end;
	}
	trim(&p, &lab_end);
	*col = C_SKIP;
	*scale = u ? NAN : 1;
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strlen(labels[i].label) == (size_t)(lab_end - p) &&
		    !memcmp(labels[i].label, p, (size_t)(lab_end - p)))
			*col = labels[i].col;
	for (size_t i = 0; u && i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].unit) == ul && !memcmp(units[i].unit, u, ul))
			*scale = units[i].scale;
}

static bool has(const struct table *t, enum col c)
{
	for (int i = 0; i < t->ncols; i++)
		if (t->cols[i] == c)
			return true;
	return false;
}

/* The kind a table's columns say, when no line announced its report. */
static enum kind kind_of_columns(const struct table *t)
{
	if (t->cols[t->ncols - 1] != C_NAME || (!has(t, C_TOTAL) && !has(t, C_BYTES)))
		return K_NONE;
	if (has(t, C_STYLE))
		return K_NVTX;
	if (has(t, C_BYTES))
		return K_MEMSIZE;
	if (t->by_operation)
		return K_MEMTIME;
	return t->instances ? K_KERN : K_OTHER;
}

/* Reads the header in n->prev under a rule whose columns start at at[]; false: no table. */
static bool header(struct ns *n, const size_t at[], int ncols, int64_t lineno)
{
	struct table *t = &n->t;
	const char *h = n->prev.data;
	size_t hl = n->prev.len;

	*t = (struct table){ .kind = K_NONE, .ncols = ncols, .line = lineno };
	for (int i = 0; i < ncols; i++) {
		size_t a = at[i] < hl ? at[i] : hl;
		size_t b = i + 1 < ncols && at[i + 1] < hl ? at[i + 1] : hl;

		header_cell(h + a, h + b, &t->cols[i], &t->scale[i]);
		if (t->cols[i] == C_NAME)
			t->by_operation = find(h + a, b - a, "Operation") != NULL;
		if (t->cols[i] == C_COUNT)
			t->instances = find(h + a, b - a, "Instances") != NULL;
	}
	t->kind = n->report ? kind_of_report(n->report) : kind_of_columns(t);
	if (t->kind == K_NONE || t->cols[ncols - 1] != C_NAME || (!has(t, C_TOTAL) && !has(t, C_BYTES))) {
		t->kind = K_NONE;
		return false;
	}
	t->report = n->report ? n->report : intern_str(&n->ctx->trial->strings, kind_report[t->kind]);
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

static double nan_add(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a + b;
}

/* The entry of `name` in list l, added when new. */
static struct nsys_row *entry(struct ns *n, enum list l, const char *name)
{
	struct nsys_row *r;

	for (size_t i = 0; i < n->nrows[l]; i++)
		if (n->rows[l][i].name == name)
			return &n->rows[l][i];
	xgrow(&n->rows[l], &n->cap[l], n->nrows[l] + 1, sizeof(**n->rows));
	r = &n->rows[l][n->nrows[l]++];
	*r = (struct nsys_row){ .name = name, .instances = -1, .total_ns = NAN, .avg_ns = NAN,
				.med_ns = NAN, .bytes = NAN, .cls = EVC_COMPUTE };
	if (l == L_MEM)
		r->cls = EVC_MEMORY;
	else if (l == L_KERN && kname_comm(name, NULL))
		r->cls = EVC_COMM;
	return r;
}

/* Adds one row's values v[] (NaN absent) to its entry. */
static void add_row(struct ns *n, const char *name, const double v[C_NCOLS])
{
	static const int8_t list_of[] = {
		[K_KERN] = L_KERN, [K_MEMTIME] = L_MEM, [K_MEMSIZE] = L_MEM, [K_NVTX] = L_NVTX,
		[K_API] = -1, [K_OSRT] = -1, [K_OTHER] = -1,
	};
	int l = list_of[n->t.kind];
	bool fresh;
	struct nsys_row *r;

	if (l < 0)
		return;
	r = entry(n, (enum list)l, name);
	fresh = r->instances < 0 && isnan(r->total_ns);
	if (n->t.kind == K_MEMSIZE) {
		r->bytes = nan_add(r->bytes, v[C_BYTES]);
		if (r->instances < 0 && !isnan(v[C_COUNT]))
			r->instances = llround(v[C_COUNT]);
		return;
	}
	if (!isnan(v[C_COUNT]))
		r->instances = (r->instances < 0 ? 0 : r->instances) + llround(v[C_COUNT]);
	r->total_ns = nan_add(r->total_ns, v[C_TOTAL]);
	r->med_ns = fresh ? v[C_MED] : NAN;
	r->avg_ns = fresh && !isnan(v[C_AVG]) ? v[C_AVG] :
		    r->instances > 0 ? r->total_ns / (double)r->instances : NAN;
}

/* Reads a row; false when the line does not fit the table. */
static bool row(struct ns *n, const char *s, size_t len)
{
	const char *p = s, *end = s + len, *name;
	double v[C_NCOLS];

	for (int c = 0; c < C_NCOLS; c++)
		v[c] = NAN;
	for (int i = 0; i < n->t.ncols - 1; i++) {
		const char *q;
		enum col c = n->t.cols[i];

		while (p < end && is_space(*p))
			p++;
		for (q = p; q < end && !is_space(*q); q++)
			;
		if (q == p || (c < C_NAME && !number(p, q, &v[c])))
			return false;
		if (c < C_NAME)
			v[c] *= n->t.scale[i];
		p = q;
	}
	trim(&p, &end);
	if (p == end || (isnan(v[C_TOTAL]) && isnan(v[C_BYTES])))
		return false;
	name = intern(&n->ctx->trial->strings, p, (size_t)(end - p));
	n->cut_names += end - p >= 3 && !memcmp(end - 3, "\xe2\x80\xa6", 3);
	add_row(n, name, v);
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
	n->ntables++;
	n->t.kind = K_NONE;
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
	if (n->t.kind != K_NONE) {
		if (!blank(s, len) && row(n, s, len)) {
			n->t.rows++;
			n->ctx->src->events++;
			return 0;
		}
		end_table(n, lineno, blank(s, len));
	}
	if ((ncols = rule(s, len, at)) && header(n, at, ncols, lineno))
		return 0;
	if ((r = title(n, s, len)))
		n->report = r;
	buf_reset(&n->prev);
	buf_add(&n->prev, s, len);
	return 0;
}

/* ---- finish ---- */

/* Adds the rows of one list to the run's array of them, copied into the trial's arena. */
static void commit(struct ns *n, enum list l, struct nsys_row **arr, size_t *len)
{
	struct nsys_row *old = *arr;
	size_t nold = *len;

	for (size_t i = 0; i < nold; i++) {
		struct nsys_row *r = entry(n, l, old[i].name);
		bool fresh = r->instances < 0 && isnan(r->total_ns) && isnan(r->bytes);

		if (fresh) {
			*r = old[i];
			continue;
		}
		r->instances = old[i].instances < 0 ? r->instances :
			       (r->instances < 0 ? 0 : r->instances) + old[i].instances;
		r->total_ns = nan_add(r->total_ns, old[i].total_ns);
		r->bytes = nan_add(r->bytes, old[i].bytes);
		r->med_ns = NAN;
		r->avg_ns = r->instances > 0 ? r->total_ns / (double)r->instances : NAN;
	}
	*len = n->nrows[l];
	if (!*len)
		return;
	*arr = arena_alloc(&n->ctx->trial->arena, *len * sizeof(**arr));
	memcpy(*arr, n->rows[l], *len * sizeof(**arr));
}

static void describe_rows(struct ns *n, enum list l, const char *key)
{
	struct ingest_ctx *c = n->ctx;
	struct info *a = info_arr(c->arena, c->info, key);

	for (size_t i = 0; i < n->nrows[l] && i < MAX_LISTED; i++) {
		const struct nsys_row *r = &n->rows[l][i];
		struct info *o = info_obj(c->arena, a, NULL);

		info_str(c->arena, o, "name", r->name);
		if (r->instances >= 0)
			info_int(c->arena, o, "instances", r->instances);
		else
			info_null(c->arena, o, "instances");
		info_num(c->arena, o, "total_s", r->total_ns / NS_PER_S);
		if (l == L_MEM)
			info_num(c->arena, o, "bytes", r->bytes);
		else
			info_num(c->arena, o, "med_s", r->med_ns / NS_PER_S);
	}
}

/* What this file said: its tables, kernels, GPU time by class, memory operations, NVTX ranges. */
static void describe(struct ns *n)
{
	struct ingest_ctx *c = n->ctx;
	struct info *gt = info_obj(c->arena, c->info, "gpu_time_s");
	double by[3] = { 0, 0, 0 };
	int64_t inst = 0;

	for (size_t i = 0; i < n->nrows[L_KERN]; i++) {
		by[n->rows[L_KERN][i].cls] = nan_add(by[n->rows[L_KERN][i].cls], n->rows[L_KERN][i].total_ns);
		inst += n->rows[L_KERN][i].instances > 0 ? n->rows[L_KERN][i].instances : 0;
	}
	for (size_t i = 0; i < n->nrows[L_MEM]; i++)
		by[EVC_MEMORY] = nan_add(by[EVC_MEMORY], n->rows[L_MEM][i].total_ns);
	info_int(c->arena, c->info, "kernels", (int64_t)n->nrows[L_KERN]);
	info_int(c->arena, c->info, "kernel_instances", inst);
	info_int(c->arena, c->info, "cut_names", n->cut_names);
	info_num(c->arena, gt, "compute", by[EVC_COMPUTE] / NS_PER_S);
	info_num(c->arena, gt, "communication", by[EVC_COMM] / NS_PER_S);
	info_num(c->arena, gt, "memory", by[EVC_MEMORY] / NS_PER_S);
	describe_rows(n, L_MEM, "memory_ops");
	describe_rows(n, L_NVTX, "nvtx_ranges");
}

static int ns_finish(void *st)
{
	struct ns *n = st;
	struct run *r = n->ctx->run;

	if (n->t.kind != K_NONE)
		end_table(n, n->lineno, true);
	if (!n->ntables)
		return 0;
	describe(n);
	commit(n, L_KERN, &r->nsys_kernels, &r->nnsys_kernels);
	commit(n, L_MEM, &r->nsys_memops, &r->nnsys_memops);
	commit(n, L_NVTX, &r->nsys_nvtx, &r->nnsys_nvtx);
	r->nsys_tables += (int32_t)n->ntables;
	return 0;
}

static void *ns_open(struct ingest_ctx *ctx)
{
	struct ns *n = xcalloc(1, sizeof(*n));

	n->ctx = ctx;
	n->t.kind = K_NONE;
	buf_init(&n->prev, 0);
	return n;
}

static bool ns_found(void *st)
{
	return ((struct ns *)st)->ntables > 0;
}

static void ns_free(void *st)
{
	struct ns *n = st;

	buf_release(&n->prev);
	for (int l = 0; l < 3; l++)
		free(n->rows[l]);
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
