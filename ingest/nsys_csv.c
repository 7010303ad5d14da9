#include "ingest/nsys_csv.h"

#include <csv.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/kname.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/nsys_sum.h"

#define MAX_FIELDS 32

/* Columns of the timeline report, whatever their header says. */
enum col {
	C_NONE, C_START, C_DUR, C_CORR, C_DEVICE, C_STREAM, C_NAME, C_BYTES, C_NCOLS
};

/* Header text -> column, and the factor to ns or bytes of its values. */
static const struct {
	const char *header;
	uint8_t col;
	double scale;
} columns[] = {
	{ "Start (ns)", C_START, 1 }, { "Start", C_START, 1 }, { "Start (us)", C_START, 1e3 },
	{ "Duration (ns)", C_DUR, 1 }, { "Duration", C_DUR, 1 }, { "Duration (us)", C_DUR, 1e3 },
	{ "CorrId", C_CORR, 1 }, { "CorrID", C_CORR, 1 }, { "Correlation ID", C_CORR, 1 },
	{ "Device", C_DEVICE, 1 }, { "Strm", C_STREAM, 1 }, { "Stream", C_STREAM, 1 },
	{ "Name", C_NAME, 1 },
	{ "Bytes (MB)", C_BYTES, 1e6 }, { "Size (MB)", C_BYTES, 1e6 }, { "Bytes", C_BYTES, 1 },
};

enum table { T_NONE, T_TRACE, T_SUMMARY };

/* One line split into fields, NUL-terminated in `text`. */
struct fields {
	struct buf text;
	size_t off[MAX_FIELDS];
	int n;
	bool too_many;
};

struct nc {
	struct ingest_ctx *ctx;
	struct csv_parser csv;
	struct fields f;
	enum table table;	/* the table being read; T_NONE between tables */
	int pos[C_NCOLS];	/* timeline: field index of each column; -1 absent */
	double scale[C_NCOLS];
	int nfields;		/* fields of the header */
	const char *report;	/* announced by the last `Processing [...]` line; NULL none */
	enum nsys_kind kind;	/* summary: the report's kind */
	enum nsys_col scol[MAX_FIELDS];	/* summary: column of each field */
	double sscale[MAX_FIELDS];	/* summary: factor of each field to ns or bytes */
	struct nsys_sum sum;	/* summary rows of the file, for the run */
	struct gpu_event *ev;
	size_t nev, cap_ev;
	struct ingest_cap cap;	/* rows kept (timeline and summary), against the limits */
	int64_t count[3];	/* kernel, memcpy, memset */
	int64_t first, last;	/* span of the timeline; INT64_MIN none */
	struct info *summary;	/* the `summary` array; NULL until a summary row */
	bool found;
};

static void on_field(void *s, size_t len, void *data)
{
	struct fields *f = data;

	if (f->n == MAX_FIELDS) {
		f->too_many = true;
		return;
	}
	f->off[f->n++] = f->text.len;
	buf_add(&f->text, s, len);
	buf_addch(&f->text, '\0');
}

static void on_record(int c, void *data)
{
	(void)c;
	(void)data;
}

static const char *field(const struct nc *n, int i)
{
	return i >= 0 && i < n->f.n ? n->f.text.data + n->f.off[i] : NULL;
}

static const char *col(const struct nc *n, enum col c)
{
	return field(n, n->pos[c]);
}

static void split(struct nc *n, const char *line, size_t len)
{
	buf_reset(&n->f.text);
	n->f.n = 0;
	n->f.too_many = false;
	csv_parse(&n->csv, line, len, on_field, on_record, &n->f);
	csv_fini(&n->csv, on_field, on_record, &n->f);
}

static bool has_count(const struct nc *n)
{
	for (int i = 0; i < n->f.n; i++)
		if (n->scol[i] == NSYS_COUNT)
			return true;
	return false;
}

/* A summary report's header (nsys_sum's column labels); false when the fields are none. */
static bool summary_header(struct nc *n)
{
	bool by_operation = false, instances = false;

	for (int i = 0; i < n->f.n; i++) {
		const char *s = field(n, i);

		nsys_header_cell(s, s + strlen(s), &n->scol[i], &n->sscale[i]);
		by_operation |= n->scol[i] == NSYS_NAME && strstr(s, "Operation");
		instances |= n->scol[i] == NSYS_COUNT && strstr(s, "Instances");
	}
	n->kind = nsys_kind_of_columns(n->scol, n->f.n, by_operation, instances);
	if (n->kind == NSYS_NONE || !has_count(n))	/* every report counts; a stray CSV need not */
		return false;
	if (n->report)
		n->kind = nsys_kind_of_report(n->report);
	n->sum.tables++;
	return true;
}

/* A report's header row starts a table; anything else leaves it at T_NONE. */
static enum table header(struct nc *n)
{
	if (n->f.too_many)
		return T_NONE;
	for (int c = 0; c < C_NCOLS; c++)
		n->pos[c] = -1;
	for (int i = 0; i < n->f.n; i++) {
		for (size_t j = 0; j < sizeof(columns) / sizeof(columns[0]); j++) {
			if (strcmp(field(n, i), columns[j].header) || n->pos[columns[j].col] >= 0)
				continue;
			n->pos[columns[j].col] = i;
			n->scale[columns[j].col] = columns[j].scale;
		}
	}
	n->nfields = n->f.n;
	if (n->pos[C_START] >= 0 && n->pos[C_DUR] >= 0 && n->pos[C_NAME] >= 0)
		return T_TRACE;
	return summary_header(n) ? T_SUMMARY : T_NONE;
}

/* The number a field holds times scale; NAN when there is none. */
static double scaled(const char *s, double scale)
{
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	v = strtod(s, &end);
	return *end || !isfinite(v) ? NAN : v * scale;
}

/* A number of the timeline times its column's scale; NAN when there is none. */
static double number(const struct nc *n, enum col c)
{
	return scaled(col(n, c), n->scale[c]);
}

static int64_t as_i64(double v)
{
	return isnan(v) || v < 0 || v > 9e18 ? -1 : llround(v);
}

/* "NVIDIA H100 80GB HBM3 (0)" or "0": the device ordinal; -1 none. */
static int32_t device_of(const char *s)
{
	const char *p;
	long v;

	if (!s)
		return -1;
	p = strrchr(s, '(');
	p = p ? p + 1 : s;
	if (*p < '0' || *p > '9')
		return -1;
	v = strtol(p, NULL, 10);
	return v >= 0 && v < INT32_MAX ? (int32_t)v : -1;
}

static void trace_row(struct nc *n)
{
	const char *name = col(n, C_NAME);
	int64_t start = as_i64(number(n, C_START)), dur = as_i64(number(n, C_DUR));
	int64_t stream = as_i64(number(n, C_STREAM));
	struct gpu_event *g;

	if (!name || start < 0)
		return;
	xgrow(&n->ev, &n->cap_ev, n->nev + 1, sizeof(*n->ev));
	g = &n->ev[n->nev++];
	*g = (struct gpu_event){
		.start = start, .end = start + (dur > 0 ? dur : 0),
		.name = intern_str(&n->ctx->trial->strings, name),
		.launched = LAUNCH_UNKNOWN, .bytes = as_i64(number(n, C_BYTES)),
		.stream = -1, .device = device_of(col(n, C_DEVICE)),
		.step = -1, .kind = EV_KERNEL, .cls = EVC_COMPUTE,
	};
	if (stream >= 0 && stream <= INT32_MAX)
		g->stream = (int32_t)stream;
	if (!strncmp(name, "[CUDA memcpy", 12) || !strncmp(name, "[CUDA memset", 12)) {
		g->kind = name[11] == 'y' ? EV_MEMCPY : EV_MEMSET;
		g->cls = EVC_MEMORY;
	} else {
		g->bytes = -1;
		kname_classify(g);
	}
	n->count[g->kind]++;
	if (n->first == INT64_MIN || g->start < n->first)
		n->first = g->start;
	if (n->last == INT64_MIN || g->end > n->last)
		n->last = g->end;
}

/* A summary row's values by nsys_sum column, and its name; NULL when it has none. */
static const char *summary_values(const struct nc *n, double v[NSYS_NCOLS])
{
	const char *name = NULL;

	for (int c = 0; c < NSYS_NCOLS; c++)
		v[c] = NAN;
	for (int i = 0; i < n->f.n; i++) {
		if (n->scol[i] == NSYS_NAME)
			name = field(n, i);
		else if (n->scol[i] < NSYS_NAME)
			v[n->scol[i]] = scaled(field(n, i), n->sscale[i]);
	}
	return name && *name ? name : NULL;
}

/* A row of a summary: into the run's sums, and listed in ctx->info when it has a time. */
static void summary_row(struct nc *n)
{
	struct ingest_ctx *c = n->ctx;
	double v[NSYS_NCOLS];
	const char *name = summary_values(n, v);
	double total = v[NSYS_TOTAL];
	int64_t count = as_i64(v[NSYS_COUNT]);
	struct info *o;

	if (!name)
		return;
	nsys_sum_add(&n->sum, c, n->kind, name, strlen(name), v);
	c->src->events++;
	if (isnan(total))
		return;
	if (!n->summary)
		n->summary = info_arr(c->arena, c->info, "summary");
	o = info_obj(c->arena, n->summary, NULL);
	info_str(c->arena, o, "name", name);
	info_num(c->arena, o, "total_s", total / NS_PER_S);
	if (count >= 0)
		info_int(c->arena, o, "instances", count);
	else
		info_null(c->arena, o, "instances");
}

/* A row of the table: as many fields as its header and a number where one is due. */
static bool fits(const struct nc *n)
{
	double v[NSYS_NCOLS];

	if (n->f.n != n->nfields || n->f.too_many)
		return false;
	if (n->table == T_TRACE)
		return !isnan(number(n, C_START));
	summary_values(n, v);
	return !isnan(v[NSYS_TOTAL]) || !isnan(v[NSYS_BYTES]);
}

static int nc_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct nc *n = st;
	const char *r;

	split(n, line, len);
	if (n->table != T_NONE && fits(n)) {
		if (ingest_keep_line(n->ctx, &n->cap, lineno) < 0)
			return -1;
		if (n->table == T_TRACE)
			trace_row(n);
		else
			summary_row(n);
		return 0;
	}
	n->table = header(n);
	n->found |= n->table != T_NONE;
	if (n->table != T_NONE)
		n->report = NULL;
	else if ((r = nsys_title(n->ctx, line, len)))
		n->report = r;
	return 0;
}

/* ---- finish ---- */

static struct rank *rank_of(struct nc *n, int32_t dev)
{
	bool created;

	return run_trace_rank(n->ctx->run, n->ctx->path, dev, &created);
}

static void describe_trace(struct nc *n)
{
	struct ingest_ctx *c = n->ctx;
	struct info *ev = info_obj(c->arena, c->info, "events");
	int64_t comm = 0;

	info_int(c->arena, ev, "kernel", n->count[EV_KERNEL]);
	info_int(c->arena, ev, "gpu_memcpy", n->count[EV_MEMCPY]);
	info_int(c->arena, ev, "gpu_memset", n->count[EV_MEMSET]);
	for (size_t i = 0; i < n->nev; i++)
		comm += n->ev[i].cls == EVC_COMM;
	info_int(c->arena, c->info, "comm_kernels", comm);
	info_num(c->arena, c->info, "span_s", n->first == INT64_MIN ? NAN :
		 (double)(n->last - n->first) / NS_PER_S);
}

static int nc_finish(void *st)
{
	struct nc *n = st;

	nsys_sum_finish(&n->sum, n->ctx);
	if (!n->nev)
		return 0;
	gpu_events_sort(n->ev, n->nev);
	for (size_t i = 0; i < n->nev; i++)
		*rank_add_event(rank_of(n, n->ev[i].device)) = n->ev[i];
	n->ctx->src->events += (int64_t)n->nev;
	describe_trace(n);
	return 0;
}

static void *nc_open(struct ingest_ctx *ctx)
{
	struct nc *n = xcalloc(1, sizeof(*n));

	n->ctx = ctx;
	if (csv_init(&n->csv, CSV_APPEND_NULL) != 0) {
		free(n);
		return NULL;
	}
	csv_set_blk_size(&n->csv, READER_CSV_BLOCK);
	buf_init(&n->f.text, 0);
	n->first = n->last = INT64_MIN;
	return n;
}

static bool nc_found(void *st)
{
	return ((struct nc *)st)->found;
}

static void nc_free(void *st)
{
	struct nc *n = st;

	csv_free(&n->csv);
	buf_release(&n->f.text);
	xgrow_free(&n->ev, &n->cap_ev, sizeof(*n->ev));
	nsys_sum_release(&n->sum);
	free(n);
}

const struct reader nsys_csv_reader = {
	.name = "nsys-csv",
	.input = READ_LINES,
	.open = nc_open,
	.line = nc_line,
	.finish = nc_finish,
	.found = nc_found,
	.free = nc_free,
};
