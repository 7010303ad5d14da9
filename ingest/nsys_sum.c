#include "ingest/nsys_sum.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/kname.h"
#include "core/xalloc.h"

#define MAX_LISTED 32		/* rows of each kind listed in ctx->info */

/* Report names of both eras; a name not here is NSYS_OTHER. */
static const struct {
	const char *report;
	enum nsys_kind kind;
} reports[] = {
	{ "cuda_gpu_kern_sum", NSYS_KERN }, { "gpukernsum", NSYS_KERN },
	{ "cuda_gpu_mem_time_sum", NSYS_MEMTIME }, { "gpumemtimesum", NSYS_MEMTIME },
	{ "cuda_gpu_mem_size_sum", NSYS_MEMSIZE }, { "gpumemsizesum", NSYS_MEMSIZE },
	{ "nvtx_sum", NSYS_NVTX }, { "nvtxsum", NSYS_NVTX }, { "nvtx_pushpop_sum", NSYS_NVTX },
	{ "nvtxppsum", NSYS_NVTX },
	{ "cuda_api_sum", NSYS_API }, { "cudaapisum", NSYS_API },
	{ "osrt_sum", NSYS_OSRT }, { "osrtsum", NSYS_OSRT },
};

/* The report name each kind is listed under when no line announced it. */
static const char *const kind_report[] = {
	[NSYS_KERN] = "cuda_gpu_kern_sum", [NSYS_MEMTIME] = "cuda_gpu_mem_time_sum",
	[NSYS_MEMSIZE] = "cuda_gpu_mem_size_sum", [NSYS_NVTX] = "nvtx_sum",
	[NSYS_API] = "cuda_api_sum", [NSYS_OSRT] = "osrt_sum", [NSYS_OTHER] = "unknown",
	[NSYS_NONE] = "unknown",
};

/* A header's label (its text before any "(unit)") -> column. */
static const struct {
	const char *label;
	enum nsys_col col;
} labels[] = {
	{ "Time", NSYS_PCT }, { "Total Time", NSYS_TOTAL }, { "Total", NSYS_BYTES },
	{ "Instances", NSYS_COUNT }, { "Count", NSYS_COUNT }, { "Num Calls", NSYS_COUNT },
	{ "Calls", NSYS_COUNT }, { "Operations", NSYS_COUNT },
	{ "Avg", NSYS_AVG }, { "Average", NSYS_AVG }, { "Med", NSYS_MED }, { "Median", NSYS_MED },
	{ "Min", NSYS_MIN }, { "Minimum", NSYS_MIN }, { "Max", NSYS_MAX }, { "Maximum", NSYS_MAX },
	{ "StdDev", NSYS_STDDEV }, { "Std Dev", NSYS_STDDEV },
	{ "Name", NSYS_NAME }, { "Operation", NSYS_NAME }, { "Range", NSYS_NAME },
	{ "Style", NSYS_STYLE },
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

/* The list each kind's rows are summed in; -1: not kept. */
enum list { L_KERN, L_MEM, L_NVTX };
static const int8_t list_of[] = {
	[NSYS_KERN] = L_KERN, [NSYS_MEMTIME] = L_MEM, [NSYS_MEMSIZE] = L_MEM, [NSYS_NVTX] = L_NVTX,
	[NSYS_API] = -1, [NSYS_OSRT] = -1, [NSYS_OTHER] = -1, [NSYS_NONE] = -1,
};

enum nsys_kind nsys_kind_of_report(const char *s)
{
	for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
		if (!strcmp(reports[i].report, s))
			return reports[i].kind;
	return NSYS_OTHER;
}

const char *nsys_kind_report(enum nsys_kind k)
{
	return kind_report[k];
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static void trim(const char **p, const char **end)
{
	while (*p < *end && is_space(**p))
		(*p)++;
	while (*end > *p && is_space((*end)[-1]))
		(*end)--;
}

void nsys_header_cell(const char *p, const char *end, enum nsys_col *col, double *scale)
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
	*col = NSYS_SKIP;
	*scale = u ? NAN : 1;
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strlen(labels[i].label) == (size_t)(lab_end - p) &&
		    !memcmp(labels[i].label, p, (size_t)(lab_end - p)))
			*col = labels[i].col;
	for (size_t i = 0; u && i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].unit) == ul && !memcmp(units[i].unit, u, ul))
			*scale = units[i].scale;
}

static bool has(const enum nsys_col *cols, int ncols, enum nsys_col c)
{
	for (int i = 0; i < ncols; i++)
		if (cols[i] == c)
			return true;
	return false;
}

enum nsys_kind nsys_kind_of_columns(const enum nsys_col *cols, int ncols, bool by_operation,
				    bool instances)
{
	if (ncols < 2 || cols[ncols - 1] != NSYS_NAME ||
	    (!has(cols, ncols, NSYS_TOTAL) && !has(cols, ncols, NSYS_BYTES)))
		return NSYS_NONE;
	if (has(cols, ncols, NSYS_STYLE))
		return NSYS_NVTX;
	if (has(cols, ncols, NSYS_BYTES))
		return NSYS_MEMSIZE;
	if (by_operation)
		return NSYS_MEMTIME;
	return instances ? NSYS_KERN : NSYS_OTHER;
}

/* ---- titles ---- */

/* The report name between [p, end) up to a ':' option or `stop`, interned; NULL if not a word. */
static const char *report_name(struct ingest_ctx *ctx, const char *p, const char *end, char stop)
{
	const char *q = p;

	while (q < end && *q != stop && *q != ':' && (*q == '_' || (*q >= 'a' && *q <= 'z') ||
						       (*q >= '0' && *q <= '9')))
		q++;
	if (q == p || q == end || (*q != stop && *q != ':'))
		return NULL;
	return intern(&ctx->trial->strings, p, (size_t)(q - p));
}

static const char *find(const char *s, size_t len, const char *what)
{
	return memmem(s, len, what, strlen(what));
}

const char *nsys_title(struct ingest_ctx *ctx, const char *s, size_t len)
{
	const char *end = s + len, *p;

	if ((p = find(s, len, "Executing '")) && find(p, (size_t)(end - p), "' stats report"))
		return report_name(ctx, p + 11, end, '\'');
	if ((p = find(s, len, "** ")) && len > 2 && end[-1] == ':' && end[-2] == ')') {
		for (p = end - 2; p > s && p[-1] != '('; p--)
			;
		return p > s ? report_name(ctx, p, end, ')') : NULL;
	}
	if ((find(s, len, "Running [") || find(s, len, "Processing [")) && (p = find(s, len, ".py"))) {
		const char *b = p;

		while (b > s && b[-1] != '/' && b[-1] != '[')
			b--;
		return report_name(ctx, b, end, '.');
	}
	return NULL;
}

/* ---- rows ---- */

static double nan_add(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a + b;
}

/* The entry of `name` in list l, added when new. */
static struct nsys_row *entry(struct nsys_sum *s, enum list l, const char *name)
{
	struct nsys_row *r;
	uint32_t i;

	if (imap_get(&s->index[l], (int64_t)(intptr_t)name, &i))
		return &s->rows[l][i];
	assert(s->nrows[l] < UINT32_MAX);	/* ingest_keep() caps the rows long before */
	imap_put(&s->index[l], (int64_t)(intptr_t)name, (uint32_t)s->nrows[l]);
	xgrow(&s->rows[l], &s->cap[l], s->nrows[l] + 1, sizeof(**s->rows));
	r = &s->rows[l][s->nrows[l]++];
	*r = (struct nsys_row){ .name = name, .instances = -1, .total_ns = NAN, .avg_ns = NAN,
				.med_ns = NAN, .bytes = NAN, .cls = EVC_COMPUTE };
	if (l == L_MEM)
		r->cls = EVC_MEMORY;
	else if (l == L_KERN && kname_comm(name, NULL))
		r->cls = EVC_COMM;
	return r;
}

/* The keys a listed row's columns go under, by table kind: times in ns, sizes in bytes. */
static const struct {
	enum nsys_col col;
	const char *key[3];	/* kernel, memory time, memory size table */
} row_keys[] = {
	{ NSYS_PCT, { "time_pct", "time_pct", "time_pct" } },
	{ NSYS_TOTAL, { "total_ns", "total_ns", NULL } },
	{ NSYS_BYTES, { NULL, NULL, "total_bytes" } },
	{ NSYS_COUNT, { "instances", "count", "count" } },
	{ NSYS_AVG, { "avg_ns", "avg_ns", "avg_bytes" } },
	{ NSYS_MED, { "med_ns", "med_ns", "med_bytes" } },
	{ NSYS_MIN, { "min_ns", "min_ns", "min_bytes" } },
	{ NSYS_MAX, { "max_ns", "max_ns", "max_bytes" } },
	{ NSYS_STDDEV, { "stddev_ns", "stddev_ns", "stddev_bytes" } },
};

/* One row of a kernel or memory table, as the table gives it, appended to its ctx->info list. */
static void list_row(struct nsys_sum *s, struct ingest_ctx *c, enum nsys_kind k, const char *name,
		     const double v[NSYS_NCOLS])
{
	int t = k == NSYS_KERN ? 0 : k == NSYS_MEMTIME ? 1 : k == NSYS_MEMSIZE ? 2 : -1;
	int l = t ? 1 : 0;
	struct info *o;

	if (t < 0)
		return;
	if (!s->listed[l])
		s->listed[l] = info_arr(c->arena, c->info, l ? "memory_rows" : "kernel_rows");
	o = info_obj(c->arena, s->listed[l], NULL);
	if (l)
		info_str(c->arena, o, "report", nsys_kind_report(k));
	info_str(c->arena, o, "name", name);
	for (size_t i = 0; i < sizeof(row_keys) / sizeof(row_keys[0]); i++) {
		double x = v[row_keys[i].col];

		if (!row_keys[i].key[t])
			continue;
		if (row_keys[i].col == NSYS_COUNT && !isnan(x))	/* a count is whole: no 1e+03 */
			info_int(c->arena, o, row_keys[i].key[t], llround(x));
		else
			info_num(c->arena, o, row_keys[i].key[t], x);
	}
}

void nsys_sum_add(struct nsys_sum *s, struct ingest_ctx *ctx, enum nsys_kind k, const char *name,
		  size_t len, const double v[NSYS_NCOLS])
{
	int l = list_of[k];
	bool fresh;
	struct nsys_row *r;

	s->cut_names += len >= 3 && !memcmp(name + len - 3, "\xe2\x80\xa6", 3);
	if (l < 0)
		return;
	r = entry(s, (enum list)l, intern(&ctx->trial->strings, name, len));
	list_row(s, ctx, k, r->name, v);
	fresh = r->instances < 0 && isnan(r->total_ns);
	if (k == NSYS_MEMSIZE) {
		r->bytes = nan_add(r->bytes, v[NSYS_BYTES]);
		if (r->instances < 0 && !isnan(v[NSYS_COUNT]))
			r->instances = llround(v[NSYS_COUNT]);
		return;
	}
	if (!isnan(v[NSYS_COUNT]))
		r->instances = (r->instances < 0 ? 0 : r->instances) + llround(v[NSYS_COUNT]);
	r->total_ns = nan_add(r->total_ns, v[NSYS_TOTAL]);
	r->med_ns = fresh ? v[NSYS_MED] : NAN;
	r->avg_ns = fresh && !isnan(v[NSYS_AVG]) ? v[NSYS_AVG] :
		    r->instances > 0 ? r->total_ns / (double)r->instances : NAN;
}

/* ---- finish ---- */

/* Adds the rows of one list to the run's array of them, copied into the trial's arena. */
static void commit(struct nsys_sum *s, struct ingest_ctx *ctx, enum list l,
		   struct nsys_row **arr, size_t *len)
{
	struct nsys_row *old = *arr;
	size_t nold = *len;

	for (size_t i = 0; i < nold; i++) {
		struct nsys_row *r = entry(s, l, old[i].name);
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
	*len = s->nrows[l];
	if (!*len)
		return;
	*arr = arena_alloc(&ctx->trial->arena, *len * sizeof(**arr));
	memcpy(*arr, s->rows[l], *len * sizeof(**arr));
}

static void describe_rows(struct nsys_sum *s, struct ingest_ctx *c, enum list l, const char *key)
{
	struct info *a = info_arr(c->arena, c->info, key);

	for (size_t i = 0; i < s->nrows[l] && i < MAX_LISTED; i++) {
		const struct nsys_row *r = &s->rows[l][i];
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

/* What this file said: its kernels, GPU time by class, memory operations, NVTX ranges. */
static void describe(struct nsys_sum *s, struct ingest_ctx *c)
{
	struct info *gt = info_obj(c->arena, c->info, "gpu_time_s");
	double by[3] = { 0, 0, 0 };
	int64_t inst = 0;

	for (size_t i = 0; i < s->nrows[L_KERN]; i++) {
		by[s->rows[L_KERN][i].cls] = nan_add(by[s->rows[L_KERN][i].cls], s->rows[L_KERN][i].total_ns);
		inst += s->rows[L_KERN][i].instances > 0 ? s->rows[L_KERN][i].instances : 0;
	}
	for (size_t i = 0; i < s->nrows[L_MEM]; i++)
		by[EVC_MEMORY] = nan_add(by[EVC_MEMORY], s->rows[L_MEM][i].total_ns);
	info_int(c->arena, c->info, "kernels", (int64_t)s->nrows[L_KERN]);
	info_int(c->arena, c->info, "kernel_instances", inst);
	info_int(c->arena, c->info, "cut_names", s->cut_names);
	info_num(c->arena, gt, "compute", by[EVC_COMPUTE] / NS_PER_S);
	info_num(c->arena, gt, "communication", by[EVC_COMM] / NS_PER_S);
	info_num(c->arena, gt, "memory", by[EVC_MEMORY] / NS_PER_S);
	describe_rows(s, c, L_MEM, "memory_ops");
	describe_rows(s, c, L_NVTX, "nvtx_ranges");
}

void nsys_sum_finish(struct nsys_sum *s, struct ingest_ctx *ctx)
{
	struct run *r = ctx->run;

	if (!s->tables)
		return;
	describe(s, ctx);
	commit(s, ctx, L_KERN, &r->nsys_kernels, &r->nnsys_kernels);
	commit(s, ctx, L_MEM, &r->nsys_memops, &r->nnsys_memops);
	commit(s, ctx, L_NVTX, &r->nsys_nvtx, &r->nnsys_nvtx);
	r->nsys_tables += (int32_t)s->tables;
}

void nsys_sum_release(struct nsys_sum *s)
{
	for (int l = 0; l < 3; l++)
	{
		xgrow_free(&s->rows[l], &s->cap[l], sizeof(*s->rows[l]));
		imap_release(&s->index[l]);
	}
}
