#include "ingest/gpumon.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"

#define MAX_FIELDS 64		/* columns of one CSV or dmon line */
#define MAX_GPU_INDEX 4095	/* a larger index is noise, not a GPU */
#define MAX_KEYS 1024		/* distinct uuids / bus ids told apart */
#define MAX_PAIRS 4096		/* topology pairs kept */
#define WARN_CAP 5		/* warnings of one kind per file */
#define GROUP_GAP_NS (50 * NS_PER_MS)	/* rows of one nvidia-smi sample lie closer */

/* ---- patterns: compiled once, on first use ---- */

enum pat {
	P_TOPO_HEAD, P_TOPO_ROW, P_TABLE_HEAD, P_TABLE_DATE, P_TABLE_GPU, P_TABLE_USE,
	P_DMON_HEAD, P_DCGMI_HEAD, P_DCGMI_ID, P_DCGMI_ROW, P_DCGMI_ERROR, P_BUSID,
	P_COUNT
};

static const char *const pattern_src[P_COUNT] = {
	[P_TOPO_HEAD] = "^\\s*GPU0(?:\\s+(?:GPU|NIC|mlx)\\w*)*\\s+CPU Affinity",
	[P_TOPO_ROW] = "^\\s*GPU(\\d+)\\s",
	[P_TABLE_HEAD] = "NVIDIA-SMI\\s+(\\S+)\\s+Driver Version:\\s+(\\S+)"
			 "(?:\\s+CUDA Version:\\s+([\\w.]+))?",
	[P_TABLE_DATE] = "^\\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\\s+"
			 "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\s+(\\d{1,2})\\s+"
			 "(\\d\\d):(\\d\\d):(\\d\\d)\\s+(\\d{4})\\s*$",
	[P_TABLE_GPU] = "^\\|\\s+(\\d+)\\s+(\\S.*?)\\s+(?:On|Off|WDDM|TCC|N/A)\\s+\\|"
			"\\s+[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9A-Fa-f]\\s",
	[P_TABLE_USE] = "^\\|\\s*(?:\\d+%|N/A)\\s+(?:\\d+C|N/A)\\s+(?:P\\d+|N/A)\\s+"
			"(?:(\\d+(?:\\.\\d+)?)W|N/A|ERR!)\\s*/\\s*(?:\\d+(?:\\.\\d+)?W|N/A|ERR!)\\s*\\|"
			"\\s*(\\d+)MiB\\s*/\\s*(\\d+)MiB\\s*\\|\\s*(?:(\\d+)%|N/A|ERR!)",
	[P_DMON_HEAD] = "^\\s*#\\s*(?:Date\\s+)?(?:Time\\s+)?gpu(?:\\s+[a-z][a-z0-9]*)+\\s*$",
	[P_DCGMI_HEAD] = "^\\s*#\\s*Entity((?:\\s+[A-Z][A-Z0-9_]*)+)\\s*$",
	[P_DCGMI_ID] = "^\\s*I[Dd]\\s*$",
	[P_DCGMI_ROW] = "^\\s*GPU\\s+(\\d+)\\s",
	[P_DCGMI_ERROR] = "^\\s*(Error\\b.*?)\\s*$",
	[P_BUSID] = "^[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9A-Fa-f]$",
};

static pcre2_code *compiled[P_COUNT];
static struct pattern_table patterns = PATTERN_TABLE(pattern_src, compiled, 0);

static bool compile_patterns(void)
{
	return pattern_compile(&patterns);	/* false: a bad built-in pattern, caught by the tests */
}

static bool matches(enum pat p, const char *s, size_t n)
{
	return pattern_find(&patterns, p, s, n);
}

/* Group g of the last match: its start and length; false when it did not take part. */
static bool group(int g, const char *s, const char **start, size_t *len)
{
	return pattern_get(&patterns, g, s, start, len);
}

/* ---- small text helpers ---- */

struct span {
	const char *p;
	size_t n;
};

static struct span trim(const char *p, size_t n)
{
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return (struct span){ p, n };
}

static bool span_eq(struct span s, const char *lit)
{
	return s.n == strlen(lit) && !memcmp(s.p, lit, s.n);
}

/* Splits at blanks into at most max spans; returns the count, max + 1 if there were more. */
static size_t split_ws(const char *p, size_t n, struct span *out, size_t max)
{
	size_t k = 0;
	size_t i = 0;

	while (i < n) {
		size_t j;

		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i == n)
			break;
		for (j = i; j < n && p[j] != ' ' && p[j] != '\t'; j++)
			;
		if (k == max)
			return max + 1;
		out[k++] = (struct span){ p + i, j - i };
		i = j;
	}
	return k;
}

/* A decimal integer making up the whole span. */
static bool span_int(struct span s, int64_t *v)
{
	int64_t x = 0;

	if (!s.n || s.n > 18)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
		x = x * 10 + (s.p[i] - '0');
	}
	*v = x;
	return true;
}

/* A number at the start of the span; *rest gets what follows it. */
static bool span_num(struct span s, double *v, struct span *rest)
{
	char tmp[64];
	char *end;

	if (!s.n || s.n >= sizeof(tmp))
		return false;
	memcpy(tmp, s.p, s.n);
	tmp[s.n] = '\0';
	if (!(tmp[0] >= '0' && tmp[0] <= '9') && tmp[0] != '.' && tmp[0] != '-')
		return false;
	*v = strtod(tmp, &end);
	if (end == tmp || !isfinite(*v))
		return false;
	*rest = trim(s.p + (end - tmp), s.n - (size_t)(end - tmp));
	return true;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool civil_ns(int64_t y, int64_t mo, int64_t d, int64_t h, int64_t mi, int64_t s,
		     int64_t *ns)
{
	if (y < 1970 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    s > 60)
		return false;
	*ns = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 * NS_PER_S + s * NS_PER_S;
	return true;
}

/* Reads n digits at p; false if any is not a digit. */
static bool digits(const char *p, int n, int64_t *v)
{
	struct span s = { p, (size_t)n };

	return span_int(s, v);
}

bool gpumon_parse_time(const char *str, size_t len, int64_t *ns)
{
	struct span s = trim(str, len);
	const char *p = s.p;
	int64_t y, mo, d, h, mi, sec, frac = 0, scale = NS_PER_S;

	if (s.n < 19 || p[4] != '/' || p[7] != '/' || p[10] != ' ' || p[13] != ':' || p[16] != ':')
		return false;
	if (!digits(p, 4, &y) || !digits(p + 5, 2, &mo) || !digits(p + 8, 2, &d) ||
	    !digits(p + 11, 2, &h) || !digits(p + 14, 2, &mi) || !digits(p + 17, 2, &sec))
		return false;
	if (s.n > 19) {
		if (p[19] != '.' || s.n == 20 || s.n > 29)
			return false;
		for (size_t i = 20; i < s.n; i++) {
			if (p[i] < '0' || p[i] > '9')
				return false;
			frac = frac * 10 + (p[i] - '0');
			scale /= 10;
		}
	}
	if (!civil_ns(y, mo, d, h, mi, sec, ns))
		return false;
	*ns += frac * scale;
	return true;
}

/* dmon -o DT: "20240131" and "12:00:00". */
static bool dmon_time(struct span date, struct span time, int64_t *ns)
{
	int64_t y, mo, d, h, mi, s;

	if (date.n != 8 || time.n != 8 || time.p[2] != ':' || time.p[5] != ':')
		return false;
	if (!digits(date.p, 4, &y) || !digits(date.p + 4, 2, &mo) || !digits(date.p + 6, 2, &d) ||
	    !digits(time.p, 2, &h) || !digits(time.p + 3, 2, &mi) || !digits(time.p + 6, 2, &s))
		return false;
	return civil_ns(y, mo, d, h, mi, s, ns);
}

/* ---- what every monitor reader shares: held samples, names, the inspect summary ---- */

struct gpu_name {
	int32_t index;
	const char *name;	/* interned */
};

struct monitor {
	struct ingest_ctx *ctx;
	struct gpu_sample *s;	/* held until finish */
	size_t ns, cap;
	struct gpu_name *names;
	size_t nnames, cap_names;
	int64_t errors;		/* rows or values that could not be used */
	int warned;		/* warnings given in this file */
	struct ingest_cap limit;	/* samples kept, against the limits */
};

/* Per-GPU totals for inspect. */
struct gpu_sum {
	int32_t index;
	const char *name;
	int64_t mem_total;	/* -1 unknown */
	int64_t used_max;	/* -1 unknown */
	int64_t samples;
	double util_max;	/* < 0 unknown */
	double power_max;	/* < 0 unknown */
};

static void mon_init(struct monitor *m, struct ingest_ctx *ctx)
{
	memset(m, 0, sizeof(*m));
	m->ctx = ctx;
}

static void mon_release(struct monitor *m)
{
	xgrow_free(&m->s, &m->cap, sizeof(*m->s));
	xgrow_free(&m->names, &m->cap_names, sizeof(*m->names));
}

/* A new sample of line lineno; NULL once a limit is reached (m->limit.capped). */
static struct gpu_sample *mon_sample(struct monitor *m, int32_t gpu, int64_t lineno)
{
	struct gpu_sample *g;

	if (ingest_keep_line(m->ctx, &m->limit, lineno) < 0)
		return NULL;
	xgrow(&m->s, &m->cap, m->ns + 1, sizeof(*m->s));
	g = &m->s[m->ns++];
	*g = (struct gpu_sample){ .ts = -1, .gpu = gpu, .memory_used = -1, .memory_total = -1,
				  .util_gpu = -1, .power_w = -1 };
	return g;
}

static void mon_name(struct monitor *m, int32_t gpu, const char *name, size_t n)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (m->names[i].index == gpu)
			return;		/* the first name given stays */
	xgrow(&m->names, &m->cap_names, m->nnames + 1, sizeof(*m->names));
	m->names[m->nnames++] = (struct gpu_name){ gpu, intern(&m->ctx->trial->strings, name, n) };
}

/* A warning about line `lineno`, at most WARN_CAP per reader and file. */
static void mon_warn(struct monitor *m, const char *code, int64_t lineno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void mon_warn(struct monitor *m, const char *code, int64_t lineno, const char *fmt, ...)
{
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, lineno);
	struct buf msg;
	va_list ap;

	if (m->warned++ >= WARN_CAP)
		return;
	buf_init(&msg, 4096);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	diag_warn(m->ctx->diags, code, &pos, "%s", msg.data);
	buf_release(&msg);
}

static struct gpu_sum *sum_for(struct gpu_sum **v, size_t *n, size_t *cap, int32_t index)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].index == index)
			return &(*v)[i];
	xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[*n] = (struct gpu_sum){ .index = index, .mem_total = -1, .used_max = -1,
				     .util_max = -1, .power_max = -1 };
	return &(*v)[(*n)++];
}

static int by_index(const void *a, const void *b)
{
	const struct gpu_sum *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static void max_i64(int64_t *acc, int64_t v)
{
	if (v >= 0 && v > *acc)
		*acc = v;
}

static void max_f64(double *acc, double v)
{
	if (v >= 0 && v > *acc)
		*acc = v;
}

/* Merges a known value into a member holding the maximum so far (or null). */
static void merge_int(struct arena *a, struct info *o, const char *key, int64_t v)
{
	struct info *old = info_get(o, key);

	if (v < 0) {
		if (!old)
			info_null(a, o, key);
		return;
	}
	if (!old || old->type != INFO_INT || old->v.i < v)
		info_int(a, o, key, v);
}

static void merge_num(struct arena *a, struct info *o, const char *key, double v)
{
	struct info *old = info_get(o, key);

	if (v < 0) {
		if (!old)
			info_null(a, o, key);
		return;
	}
	if (!old || old->type != INFO_NUM || old->v.d < v)
		info_num(a, o, key, v);
}

static struct info *gpus_entry(struct ingest_ctx *ctx, int32_t index)
{
	struct info *arr = info_get(ctx->info, "gpus");
	struct info *e;

	if (!arr || arr->type != INFO_ARR)
		arr = info_arr(ctx->arena, ctx->info, "gpus");
	for (e = arr->child; e; e = e->next) {
		struct info *i = info_get(e, "index");

		if (i && i->type == INFO_INT && i->v.i == index)
			return e;
	}
	e = info_obj(ctx->arena, arr, NULL);
	info_int(ctx->arena, e, "index", index);
	info_null(ctx->arena, e, "name");
	info_null(ctx->arena, e, "memory_total_bytes");
	info_null(ctx->arena, e, "memory_used_max_bytes");
	info_int(ctx->arena, e, "samples", 0);
	info_null(ctx->arena, e, "util_gpu_max");
	info_null(ctx->arena, e, "power_w_max");
	return e;
}

static void publish_one(struct ingest_ctx *ctx, const struct gpu_sum *g)
{
	struct info *e = gpus_entry(ctx, g->index);
	struct info *name = info_get(e, "name");
	struct info *samples = info_get(e, "samples");

	if (g->name && name->type == INFO_NULL)
		info_str(ctx->arena, e, "name", g->name);
	merge_int(ctx->arena, e, "memory_total_bytes", g->mem_total);
	merge_int(ctx->arena, e, "memory_used_max_bytes", g->used_max);
	info_int(ctx->arena, e, "samples", samples->v.i + g->samples);
	merge_num(ctx->arena, e, "util_gpu_max", g->util_max);
	merge_num(ctx->arena, e, "power_w_max", g->power_max);
}

/* The per-GPU summary into ctx->info "gpus", merged with what is there. */
static void mon_publish(struct monitor *m)
{
	struct gpu_sum *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < m->ns; i++) {
		const struct gpu_sample *s = &m->s[i];
		struct gpu_sum *g = sum_for(&v, &n, &cap, s->gpu);

		g->samples++;
		max_i64(&g->mem_total, s->memory_total);
		max_i64(&g->used_max, s->memory_used);
		max_f64(&g->util_max, s->util_gpu);
		max_f64(&g->power_max, s->power_w);
	}
	for (size_t i = 0; i < m->nnames; i++)
		sum_for(&v, &n, &cap, m->names[i].index)->name = m->names[i].name;
	if (n)
		qsort(v, n, sizeof(*v), by_index);
	if (!info_get(m->ctx->info, "gpus"))
		info_arr(m->ctx->arena, m->ctx->info, "gpus");
	for (size_t i = 0; i < n; i++)
		publish_one(m->ctx, &v[i]);
	free(v);
}

/* The held samples into the run, the counts into the source, the summary into info. */
static void mon_commit(struct monitor *m)
{
	struct run *r = m->ctx->run;

	if (m->ns) {
		for (size_t i = 0; i < m->ns; i++)	/* each sample names its GPU */
			for (size_t k = 0; k < m->nnames; k++)
				if (m->names[k].index == m->s[i].gpu)
					m->s[i].name = m->names[k].name;
		xgrow(&r->gpu, &r->cap_gpu, r->ngpu + m->ns, sizeof(*r->gpu));
		memcpy(r->gpu + r->ngpu, m->s, m->ns * sizeof(*m->s));
		r->ngpu += m->ns;
	}
	m->ctx->src->events += (int64_t)m->ns;
	m->ctx->src->errors += m->errors;
	mon_publish(m);
}

/* ---- values with units: "2856 MiB", "36 %", "106.56 W", "[N/A]" ---- */

enum role {
	R_OTHER, R_TIMESTAMP, R_INDEX, R_NAME, R_UUID, R_BUS, R_DEVICE,
	R_MEM_USED, R_MEM_TOTAL, R_UTIL, R_POWER, R_DATE, R_TIME
};

enum qty { Q_NONE, Q_BYTES, Q_PERCENT, Q_WATT, Q_OTHER };

static const struct unit {
	const char *name;
	enum qty q;
	double scale;		/* to bytes, percent, watts */
} units[] = {
	{ "B", Q_BYTES, 1 }, { "KiB", Q_BYTES, 1024 }, { "MiB", Q_BYTES, 1048576 },
	{ "MB", Q_BYTES, 1048576 },	/* nvidia-smi's MB are MiB */
	{ "GiB", Q_BYTES, 1073741824.0 }, { "%", Q_PERCENT, 1 }, { "W", Q_WATT, 1 },
	{ "MHz", Q_OTHER, 1 }, { "C", Q_OTHER, 1 },
};

static const struct unit *unit_find(struct span s)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (span_eq(s, units[i].name))
			return &units[i];
	return NULL;
}

static enum qty role_qty(enum role r)
{
	switch (r) {
	case R_MEM_USED:
	case R_MEM_TOTAL:
		return Q_BYTES;
	case R_UTIL:
		return Q_PERCENT;
	case R_POWER:
		return Q_WATT;
	default:
		return Q_NONE;
	}
}

/* A column of a CSV, dmon or dcgmi table. */
struct column {
	enum role role;
	const struct unit *unit;	/* from the header; NULL: none given */
};

/* A missing value: "[N/A]", "[Not Supported]", "N/A", "-", empty. */
static bool is_missing(struct span s)
{
	return !s.n || s.p[0] == '[' || span_eq(s, "N/A") || span_eq(s, "-");
}

/*
 * The value of a numeric cell in the column's unit: 1 with *v set, 0 when the
 * log says it is missing, -1 when it is not a value of that column.
 */
static int cell_value(struct span s, const struct column *c, const struct unit *fallback,
		      double *v)
{
	const struct unit *u = c->unit ? c->unit : fallback;
	struct span rest;

	if (is_missing(s))
		return 0;
	if (!span_num(s, v, &rest))
		return -1;
	if (rest.n) {
		u = unit_find(rest);
		if (!u)
			return -1;
	}
	if (u && u->q != role_qty(c->role))
		return -1;
	*v *= u ? u->scale : 1;
	return *v >= 0 ? 1 : -1;
}

/* Stores a numeric cell in the sample; false when it was garbage. */
static bool sample_set(struct gpu_sample *g, const struct column *c, struct span s,
		       const struct unit *mem_default)
{
	double v;
	int got = cell_value(s, c, c->role == R_MEM_USED || c->role == R_MEM_TOTAL ?
				   mem_default : NULL, &v);

	if (got <= 0)
		return got == 0;
	if (c->role == R_MEM_USED)
		g->memory_used = (int64_t)llround(v);
	else if (c->role == R_MEM_TOTAL)
		g->memory_total = (int64_t)llround(v);
	else if (c->role == R_UTIL)
		g->util_gpu = v;
	else if (c->role == R_POWER)
		g->power_w = v;
	return true;
}

/* ---- CSV lines through libcsv ---- */

struct fields {
	struct csv_parser csv;
	struct buf text;		/* the fields, each NUL-terminated */
	size_t off[MAX_FIELDS];
	size_t len[MAX_FIELDS];
	size_t n;
	bool too_many;
};

static void field_cb(void *p, size_t n, void *data)
{
	struct fields *f = data;

	if (f->n == MAX_FIELDS) {
		f->too_many = true;
		return;
	}
	f->off[f->n] = f->text.len;
	f->len[f->n] = n;
	buf_add(&f->text, p ? p : "", n);
	buf_addch(&f->text, '\0');
	f->n++;
}

static void record_cb(int c, void *data)
{
	(void)c;
	(void)data;
}

static void fields_init(struct fields *f)
{
	memset(f, 0, sizeof(*f));
	csv_init(&f->csv, 0);
	csv_set_blk_size(&f->csv, READER_CSV_BLOCK);
	buf_init(&f->text, 0);
}

static void fields_release(struct fields *f)
{
	csv_free(&f->csv);
	buf_release(&f->text);
}

/* Splits one line; spaces around unquoted fields are dropped (libcsv's default). */
static void fields_split(struct fields *f, const char *line, size_t len)
{
	buf_reset(&f->text);
	f->n = 0;
	f->too_many = false;
	csv_parse(&f->csv, line, len, field_cb, record_cb, f);
	csv_fini(&f->csv, field_cb, record_cb, f);
}

static struct span field(const struct fields *f, size_t i)
{
	return trim(f->text.data + f->off[i], f->len[i]);
}

/* ---- nvidia-smi --query-gpu CSV and rocm-smi CSV ---- */

/* Field names of --query-gpu that the model uses; aliases print canonical names, but logs written by hand may not. */
static const struct {
	const char *name;
	enum role role;
} smi_fields[] = {
	{ "timestamp", R_TIMESTAMP }, { "index", R_INDEX }, { "name", R_NAME },
	{ "gpu_name", R_NAME }, { "uuid", R_UUID }, { "gpu_uuid", R_UUID },
	{ "pci.bus_id", R_BUS }, { "gpu_bus_id", R_BUS }, { "memory.used", R_MEM_USED },
	{ "memory.total", R_MEM_TOTAL }, { "utilization.gpu", R_UTIL },
	{ "power.draw", R_POWER }, { "power.draw.instant", R_POWER },
	{ "power.draw.average", R_POWER },
};

/* Other --query-gpu fields (exact names, or prefixes ending in '.'). */
static const char *const smi_known[] = {
	"driver_version", "count", "serial", "vbios_version", "pstate", "display_mode",
	"display_active", "persistence_mode", "compute_mode", "compute_cap", "fan.speed",
	"memory.", "utilization.", "temperature.", "power.", "enforced.power.limit", "clocks.",
	"clocks_throttle_reasons.", "clocks_event_reasons.", "pcie.", "pci.", "ecc.",
	"retired_pages.", "mig.", "encoder.", "inforom.", "gom.", "accounting.",
	"reset_status.", "driver_model.", "protected_memory.", "addressing_mode",
};

static const struct {
	const char *name;
	enum role role;
	const char *unit;
} rocm_fields[] = {
	{ "device", R_DEVICE, NULL },
	{ "GPU use (%)", R_UTIL, "%" },
	{ "VRAM Total Memory (B)", R_MEM_TOTAL, "B" },
	{ "VRAM Total Used Memory (B)", R_MEM_USED, "B" },
	{ "Average Graphics Package Power (W)", R_POWER, "W" },
	{ "Current Socket Graphics Package Power (W)", R_POWER, "W" },
	{ "GPU memory use (%)", R_OTHER, NULL },
	{ "GPU Memory Allocated (VRAM%)", R_OTHER, NULL },
	{ "Temperature (Sensor edge) (C)", R_OTHER, NULL },
	{ "Temperature (Sensor junction) (C)", R_OTHER, NULL },
	{ "Temperature (Sensor memory) (C)", R_OTHER, NULL },
};

struct csvmon {
	struct monitor m;
	struct fields f;
	bool rocm;		/* the rocm-smi dialect */
	struct column col[MAX_FIELDS];
	size_t ncols;		/* 0: no header (yet) */
	bool headered;		/* the columns came from a header line */
	bool found;
	int64_t rows;		/* data rows read */
	int64_t first_row;	/* line of the first headerless row */
	int ambiguous;		/* headerless columns with units that were left out */
	bool time_col;		/* there is a timestamp column */
	const char **keys;	/* uuids or bus ids, by GPU number */
	size_t nkeys, cap_keys;
	int64_t last_ts;	/* timestamp of the previous row */
	int32_t pos;		/* row number within the current sample */
};

static bool smi_known_name(struct span s)
{
	for (size_t i = 0; i < sizeof(smi_known) / sizeof(smi_known[0]); i++) {
		size_t k = strlen(smi_known[i]);

		if (smi_known[i][k - 1] == '.' ? s.n > k && !memcmp(s.p, smi_known[i], k) :
						 span_eq(s, smi_known[i]))
			return true;
	}
	return false;
}

/* "memory.used [MiB]": the name and the unit; false when the field is not shaped so. */
static bool smi_head_field(struct span s, struct span *name, struct span *unit)
{
	size_t i = 0;

	if (!s.n || s.p[0] < 'a' || s.p[0] > 'z')
		return false;
	while (i < s.n && (strchr("abcdefghijklmnopqrstuvwxyz0123456789_.", s.p[i]) && s.p[i]))
		i++;
	*name = (struct span){ s.p, i };
	*unit = (struct span){ NULL, 0 };
	if (i == s.n)
		return true;
	if (s.n - i < 3 || s.p[i] != ' ' || s.p[i + 1] != '[' || s.p[s.n - 1] != ']')
		return false;
	*unit = (struct span){ s.p + i + 2, s.n - i - 3 };
	return true;
}

static enum role smi_role(struct span name, int *known)
{
	for (size_t i = 0; i < sizeof(smi_fields) / sizeof(smi_fields[0]); i++) {
		if (span_eq(name, smi_fields[i].name)) {
			++*known;
			return smi_fields[i].role;
		}
	}
	if (smi_known_name(name))
		++*known;
	return R_OTHER;
}

/*
 * A --query-gpu header: fields joined by ", " as nvidia-smi writes them,
 * every one a name (with a unit), most of them known, and one a measurement
 * the model keeps (memory, utilization or power).
 */
static bool smi_header(struct csvmon *c, const char *line, size_t len)
{
	struct column col[MAX_FIELDS];
	int known = 0, used = 0;

	if (c->f.too_many || !c->f.n || (c->f.n > 1 && !memmem(line, len, ", ", 2)))
		return false;
	for (size_t i = 0; i < c->f.n; i++) {
		struct span name, unit;

		if (!smi_head_field(field(&c->f, i), &name, &unit))
			return false;
		col[i].role = smi_role(name, &known);
		col[i].unit = unit.n ? unit_find(unit) : NULL;
		used += role_qty(col[i].role) != Q_NONE;
	}
	if (!used || (size_t)known * 2 < c->f.n + 1)
		return false;
	memcpy(c->col, col, c->f.n * sizeof(col[0]));
	c->ncols = c->f.n;
	return true;
}

static bool rocm_header(struct csvmon *c)
{
	struct column col[MAX_FIELDS];
	int used = 0;

	if (c->f.too_many || c->f.n < 2 || !span_eq(field(&c->f, 0), "device"))
		return false;
	for (size_t i = 0; i < c->f.n; i++) {
		struct span s = field(&c->f, i);

		col[i] = (struct column){ .role = R_OTHER };
		for (size_t k = 0; k < sizeof(rocm_fields) / sizeof(rocm_fields[0]); k++) {
			if (!span_eq(s, rocm_fields[k].name))
				continue;
			col[i].role = rocm_fields[k].role;
			if (rocm_fields[k].unit)
				col[i].unit = unit_find((struct span){ rocm_fields[k].unit,
								       strlen(rocm_fields[k].unit) });
		}
		used += col[i].role != R_OTHER && col[i].role != R_DEVICE;
	}
	if (!used)
		return false;
	memcpy(c->col, col, c->f.n * sizeof(col[0]));
	c->ncols = c->f.n;
	return true;
}

static void csv_new_header(struct csvmon *c)
{
	c->headered = true;
	c->found = true;
	c->pos = 0;
	c->last_ts = -1;
	c->time_col = false;
	for (size_t i = 0; i < c->ncols; i++)
		c->time_col |= c->col[i].role == R_TIMESTAMP;
}

/* A GPU name in a headerless row: letters, and a blank or dash ("NVIDIA A100-SXM4-80GB"). */
static bool looks_name(struct span s)
{
	bool alpha = false, sep = false;

	if (!s.n || s.p[0] == '[' || (s.p[0] >= '0' && s.p[0] <= '9'))
		return false;
	for (size_t i = 0; i < s.n; i++) {
		alpha |= (s.p[i] >= 'A' && s.p[i] <= 'Z') || (s.p[i] >= 'a' && s.p[i] <= 'z');
		sep |= s.p[i] == ' ' || s.p[i] == '-';
	}
	return alpha && sep;
}

/*
 * A headerless row (--format=csv,noheader) starting with a timestamp: the
 * columns that say what they are by their shape (timestamp, pci.bus_id, uuid,
 * a single name) are read; columns with units cannot be told apart (memory.used
 * or memory.total, utilization.gpu or .memory) and are left out with a warning.
 */
static bool smi_infer(struct csvmon *c)
{
	int names = 0;
	int64_t ns;
	double v;
	struct span rest;

	if (c->f.too_many || c->f.n < 3 || !gpumon_parse_time(field(&c->f, 0).p, field(&c->f, 0).n, &ns))
		return false;
	c->ambiguous = 0;
	for (size_t i = 0; i < c->f.n; i++) {
		struct span s = field(&c->f, i);

		c->col[i] = (struct column){ .role = R_OTHER };
		if (gpumon_parse_time(s.p, s.n, &ns))
			c->col[i].role = R_TIMESTAMP;
		else if (s.n > 4 && !memcmp(s.p, "GPU-", 4))
			c->col[i].role = R_UUID;
		else if (matches(P_BUSID, s.p, s.n))
			c->col[i].role = R_BUS;
		else if (looks_name(s))
			c->col[i].role = R_NAME, names++;
		else if (span_num(s, &v, &rest) && rest.n && unit_find(rest) &&
			 unit_find(rest)->q != Q_OTHER)
			c->ambiguous++;
	}
	if (names > 1)
		for (size_t i = 0; i < c->f.n; i++)
			if (c->col[i].role == R_NAME)
				c->col[i].role = R_OTHER;
	c->ncols = c->f.n;
	c->headered = false;
	c->pos = 0;
	c->last_ts = -1;
	c->time_col = true;
	return true;
}

/* A headerless row has the shape of the first: the same columns say what they are. */
static bool smi_same_shape(struct csvmon *c)
{
	int64_t ns;

	for (size_t i = 0; i < c->ncols; i++) {
		struct span s = field(&c->f, i);
		bool ok = true;

		switch (c->col[i].role) {
		case R_TIMESTAMP:
			ok = gpumon_parse_time(s.p, s.n, &ns);
			break;
		case R_UUID:
			ok = s.n > 4 && !memcmp(s.p, "GPU-", 4);
			break;
		case R_BUS:
			ok = matches(P_BUSID, s.p, s.n);
			break;
		case R_NAME:
			ok = looks_name(s);
			break;
		default:
			break;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* The GPU number of a uuid or bus id: its order of first appearance. */
static int32_t key_gpu(struct csvmon *c, struct span s)
{
	const char *k = intern(&c->m.ctx->trial->strings, s.p, s.n);

	for (size_t i = 0; i < c->nkeys; i++)
		if (c->keys[i] == k)
			return (int32_t)i;
	if (c->nkeys == MAX_KEYS)
		return -1;
	xgrow(&c->keys, &c->cap_keys, c->nkeys + 1, sizeof(*c->keys));
	c->keys[c->nkeys++] = k;
	return (int32_t)c->nkeys - 1;
}

/* The column that tells GPUs apart: index or device, else uuid, else pci.bus_id; -1 none. */
static int id_column(const struct csvmon *c)
{
	static const enum role order[] = { R_INDEX, R_DEVICE, R_UUID, R_BUS };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (size_t i = 0; i < c->ncols; i++)
			if (c->col[i].role == order[k])
				return (int)i;
	return -1;
}

/* Which GPU a row is about: an identity column, else its place within its sample. */
static int32_t row_gpu(struct csvmon *c, int64_t ts)
{
	int at = id_column(c);
	struct span s;
	int64_t v;

	if (at < 0) {
		if (c->time_col && ts >= 0 && c->last_ts >= 0 &&
		    llabs(ts - c->last_ts) > GROUP_GAP_NS)
			c->pos = 0;
		c->last_ts = ts;
		return c->pos <= MAX_GPU_INDEX ? c->pos++ : -1;
	}
	s = field(&c->f, (size_t)at);
	if (c->col[at].role == R_DEVICE && s.n > 4 && !memcmp(s.p, "card", 4))
		s = (struct span){ s.p + 4, s.n - 4 };
	if (c->col[at].role == R_INDEX || c->col[at].role == R_DEVICE)
		return span_int(s, &v) && v <= MAX_GPU_INDEX ? (int32_t)v : -1;
	return key_gpu(c, s);
}

static void csv_row(struct csvmon *c, int64_t lineno)
{
	struct gpu_sample *g;
	int64_t ts = -1;
	int32_t gpu;
	bool bad = false;
	const struct unit *mem_default = &units[2];	/* MiB */

	for (size_t i = 0; i < c->ncols; i++)
		if (c->col[i].role == R_TIMESTAMP &&
		    !gpumon_parse_time(field(&c->f, i).p, field(&c->f, i).n, &ts))
			ts = -1, bad = !is_missing(field(&c->f, i));
	gpu = row_gpu(c, ts);
	if (gpu < 0) {
		c->m.errors++;
		mon_warn(&c->m, "gpumon-row", lineno, "%s row names no GPU it could be told apart by",
			 c->rocm ? "rocm-smi" : "nvidia-smi");
		return;
	}
	g = mon_sample(&c->m, gpu, lineno);
	if (!g)
		return;
	g->ts = ts;
	for (size_t i = 0; i < c->ncols; i++) {
		struct span s = field(&c->f, i);

		if (c->col[i].role == R_NAME && !is_missing(s))
			mon_name(&c->m, gpu, s.p, s.n);
		else if (role_qty(c->col[i].role) != Q_NONE)
			bad |= !sample_set(g, &c->col[i], s, mem_default);
	}
	c->rows++;
	if (bad) {
		c->m.errors++;
		mon_warn(&c->m, "gpumon-value", lineno, "%s row holds a value that is not a number "
			 "of its column's unit: left out", c->rocm ? "rocm-smi" : "nvidia-smi");
	}
}

static void *csv_open_dialect(struct ingest_ctx *ctx, bool rocm)
{
	struct csvmon *c;

	if (!compile_patterns())
		return NULL;
	c = xcalloc(1, sizeof(*c));
	mon_init(&c->m, ctx);
	fields_init(&c->f);
	c->rocm = rocm;
	c->last_ts = -1;
	return c;
}

static void *smi_csv_open(struct ingest_ctx *ctx)
{
	return csv_open_dialect(ctx, false);
}

static void *rocm_csv_open(struct ingest_ctx *ctx)
{
	return csv_open_dialect(ctx, true);
}

static int csvmon_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct csvmon *c = st;

	if (!len || !memchr(line, ',', len))
		return 0;	/* not a CSV line: prose, noise, a blank between blocks */
	fields_split(&c->f, line, len);
	if (c->rocm ? rocm_header(c) : smi_header(c, line, len)) {
		csv_new_header(c);
		return 0;
	}
	if (!c->ncols) {
		if (c->rocm || !smi_infer(c))
			return 0;
		c->first_row = lineno;
	}
	if (!c->headered && (c->f.n != c->ncols || c->f.too_many || !smi_same_shape(c)))
		return 0;	/* not a row of the headerless table */
	if (c->f.n != c->ncols || c->f.too_many) {
		c->m.errors += c->headered;
		if (c->headered)
			mon_warn(&c->m, "gpumon-row", lineno, "%s row has a different number of "
				 "fields than its header: left out", c->rocm ? "rocm-smi" : "nvidia-smi");
		return 0;
	}
	csv_row(c, lineno);
	return c->m.limit.capped ? -1 : 0;
}

static bool csvmon_found(void *st)
{
	struct csvmon *c = st;

	return c->found || (!c->headered && c->rows >= 2);
}

static int csvmon_finish(void *st)
{
	struct csvmon *c = st;
	struct srcpos pos = SRCPOS_LINE(c->m.ctx->path, c->first_row);

	if (!csvmon_found(c))
		return 0;
	if (!c->headered && c->ambiguous)
		diag_warn(c->m.ctx->diags, "gpumon-noheader", &pos,
			  "nvidia-smi csv without a header: %d columns with units cannot be told "
			  "apart (memory.used or memory.total?) and were left out; "
			  "log with --format=csv to keep them", c->ambiguous);
	mon_commit(&c->m);
	return 0;
}

static void csvmon_free(void *st)
{
	struct csvmon *c = st;

	fields_release(&c->f);
	mon_release(&c->m);
	xgrow_free(&c->keys, &c->cap_keys, sizeof(*c->keys));
	free(c);
}

const struct reader gpumon_smi_csv_reader = {
	.name = "nvidia-smi-csv",
	.input = READ_LINES,
	.open = smi_csv_open,
	.line = csvmon_line,
	.finish = csvmon_finish,
	.found = csvmon_found,
	.free = csvmon_free,
};

const struct reader gpumon_rocm_csv_reader = {
	.name = "rocm-smi-csv",
	.input = READ_LINES,
	.open = rocm_csv_open,
	.line = csvmon_line,
	.finish = csvmon_finish,
	.found = csvmon_found,
	.free = csvmon_free,
};

/* ---- nvidia-smi dmon and dcgmi dmon: blank-separated columns under a '#' header ---- */

static const struct {
	const char *name;
	enum role role;
	const char *unit;
} dmon_fields[] = {
	{ "gpu", R_INDEX, NULL }, { "Date", R_DATE, NULL }, { "Time", R_TIME, NULL },
	{ "pwr", R_POWER, "W" }, { "sm", R_UTIL, "%" },
	{ "fb", R_MEM_USED, "MB" },	/* frame buffer used, MB meaning MiB */
	{ "gtemp", R_OTHER, NULL }, { "mtemp", R_OTHER, NULL }, { "temp", R_OTHER, NULL },
	{ "mem", R_OTHER, NULL }, { "enc", R_OTHER, NULL }, { "dec", R_OTHER, NULL },
	{ "jpg", R_OTHER, NULL }, { "ofa", R_OTHER, NULL }, { "mclk", R_OTHER, NULL },
	{ "pclk", R_OTHER, NULL }, { "pviol", R_OTHER, NULL }, { "tviol", R_OTHER, NULL },
	{ "bar1", R_OTHER, NULL }, { "ccpm", R_OTHER, NULL }, { "sbecc", R_OTHER, NULL },
	{ "dbecc", R_OTHER, NULL }, { "pci", R_OTHER, NULL }, { "rxpci", R_OTHER, NULL },
	{ "txpci", R_OTHER, NULL },
};

/* dcgmi's field tags for the DCGM fields the model uses (dcgm_fields.h ids in comments). */
static const struct {
	const char *name;
	enum role role;
	const char *unit;
} dcgmi_fields[] = {
	{ "GPUTL", R_UTIL, "%" },	/* 203 DCGM_FI_DEV_GPU_UTIL */
	{ "POWER", R_POWER, "W" },	/* 155 DCGM_FI_DEV_POWER_USAGE */
	{ "FBUSD", R_MEM_USED, "MB" },	/* 252 DCGM_FI_DEV_FB_USED, MiB */
	{ "FBTTL", R_MEM_TOTAL, "MB" },	/* 250 DCGM_FI_DEV_FB_TOTAL, MiB */
};

struct dmon {
	struct monitor m;
	bool dcgmi;		/* dcgmi dmon rather than nvidia-smi dmon */
	struct column col[MAX_FIELDS];
	size_t ncols;		/* 0: no header yet */
	bool found;
	bool rows_seen;		/* a row since the last header */
};

static const struct unit *unit_named(const char *name)
{
	return name ? unit_find((struct span){ name, strlen(name) }) : NULL;
}

/* Columns of an nvidia-smi dmon header "# gpu pwr gtemp ..." (the '#' may touch the first name). */
static bool dmon_header(struct dmon *d, const char *line, size_t len)
{
	struct span tok[MAX_FIELDS];
	const char *hash = memchr(line, '#', len);
	size_t n;
	bool known = false;

	if (!matches(P_DMON_HEAD, line, len))
		return false;
	n = split_ws(hash + 1, len - (size_t)(hash + 1 - line), tok, MAX_FIELDS);
	if (n > MAX_FIELDS)
		return false;
	for (size_t i = 0; i < n; i++) {
		d->col[i] = (struct column){ .role = R_OTHER };
		for (size_t k = 0; k < sizeof(dmon_fields) / sizeof(dmon_fields[0]); k++) {
			if (!span_eq(tok[i], dmon_fields[k].name))
				continue;
			d->col[i].role = dmon_fields[k].role;
			d->col[i].unit = unit_named(dmon_fields[k].unit);
			known |= k >= 3;
		}
	}
	if (!known)
		return false;
	d->ncols = n;
	return true;
}

static bool dcgmi_header(struct dmon *d, const char *line, size_t len)
{
	struct span tok[MAX_FIELDS];
	const char *cols;
	size_t n, clen;

	if (!matches(P_DCGMI_HEAD, line, len) || !group(1, line, &cols, &clen))
		return false;
	n = split_ws(cols, clen, tok, MAX_FIELDS - 2);
	if (n > MAX_FIELDS - 2)
		return false;
	/* a row is "GPU", its number, then the fields */
	d->col[0] = (struct column){ .role = R_OTHER };
	d->col[1] = (struct column){ .role = R_INDEX };
	for (size_t i = 0; i < n; i++) {
		struct column *c = &d->col[i + 2];

		*c = (struct column){ .role = R_OTHER };
		for (size_t k = 0; k < sizeof(dcgmi_fields) / sizeof(dcgmi_fields[0]); k++) {
			if (span_eq(tok[i], dcgmi_fields[k].name)) {
				c->role = dcgmi_fields[k].role;
				c->unit = unit_named(dcgmi_fields[k].unit);
			}
		}
	}
	d->ncols = n + 2;
	return true;
}

static void dmon_row(struct dmon *d, const struct span *tok, int64_t lineno)
{
	struct gpu_sample *g = NULL;
	struct span date = { NULL, 0 }, time = { NULL, 0 };
	int64_t v;
	bool bad = false;

	for (size_t i = 0; i < d->ncols; i++) {
		if (d->col[i].role == R_INDEX && span_int(tok[i], &v) && v <= MAX_GPU_INDEX)
			g = mon_sample(&d->m, (int32_t)v, lineno);
	}
	if (d->m.limit.capped)
		return;
	if (!g) {
		d->m.errors++;
		mon_warn(&d->m, "gpumon-row", lineno, "%s row without a GPU number: left out",
			 d->dcgmi ? "dcgmi dmon" : "nvidia-smi dmon");
		return;
	}
	for (size_t i = 0; i < d->ncols; i++) {
		if (d->col[i].role == R_DATE)
			date = tok[i];
		else if (d->col[i].role == R_TIME)
			time = tok[i];
		else if (role_qty(d->col[i].role) != Q_NONE)
			bad |= !sample_set(g, &d->col[i], tok[i], NULL);
	}
	if (date.n && !dmon_time(date, time, &g->ts))
		g->ts = -1;
	if (bad) {
		d->m.errors++;
		mon_warn(&d->m, "gpumon-value", lineno, "%s row holds a value that is not a number: "
			 "left out", d->dcgmi ? "dcgmi dmon" : "nvidia-smi dmon");
	}
}

static void *dmon_open_kind(struct ingest_ctx *ctx, bool dcgmi)
{
	struct dmon *d;

	if (!compile_patterns())
		return NULL;
	d = xcalloc(1, sizeof(*d));
	mon_init(&d->m, ctx);
	d->dcgmi = dcgmi;
	return d;
}

static void *dmon_open(struct ingest_ctx *ctx)
{
	return dmon_open_kind(ctx, false);
}

static void *dcgmi_open(struct ingest_ctx *ctx)
{
	return dmon_open_kind(ctx, true);
}

/* dcgmi prints an error in place of rows when it cannot watch the fields. */
static void dcgmi_error(struct dmon *d, const char *line, size_t len, int64_t lineno)
{
	const char *msg;
	size_t n;
	char *text;

	if (!matches(P_DCGMI_ERROR, line, len) || !group(1, line, &msg, &n))
		return;
	text = xstrndup(msg, n < 200 ? n : 200);
	d->m.errors++;
	mon_warn(&d->m, "dcgmi-error", lineno, "dcgmi dmon printed no samples: '%s'", text);
	free(text);
}

static int dmon_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct dmon *d = st;
	struct span tok[MAX_FIELDS];
	struct span first = trim(line, len);
	size_t n;

	if (!first.n)
		return 0;
	if (first.p[0] == '#') {
		if (d->dcgmi ? dcgmi_header(d, line, len) : dmon_header(d, line, len)) {
			d->found = true;
			d->rows_seen = false;
		}
		return 0;	/* the units line, a comment */
	}
	if (!d->ncols)
		return 0;
	if (d->dcgmi && !matches(P_DCGMI_ROW, line, len)) {
		if (!d->rows_seen && !matches(P_DCGMI_ID, line, len))
			dcgmi_error(d, line, len, lineno);
		return 0;
	}
	n = split_ws(line, len, tok, MAX_FIELDS);
	if (n != d->ncols) {
		int64_t v;

		/* a row of this table cut short or run on; other text is not ours */
		if (d->dcgmi || (n > 1 && span_int(tok[0], &v))) {
			d->m.errors++;
			mon_warn(&d->m, "gpumon-row", lineno, "%s row has a different number of "
				 "columns than its header: left out",
				 d->dcgmi ? "dcgmi dmon" : "nvidia-smi dmon");
		}
		return 0;
	}
	dmon_row(d, tok, lineno);
	d->rows_seen = true;
	return d->m.limit.capped ? -1 : 0;
}

static bool dmon_found(void *st)
{
	return ((struct dmon *)st)->found;
}

static int dmon_finish(void *st)
{
	struct dmon *d = st;

	if (d->found)
		mon_commit(&d->m);
	return 0;
}

static void dmon_free(void *st)
{
	struct dmon *d = st;

	mon_release(&d->m);
	free(d);
}

const struct reader gpumon_dmon_reader = {
	.name = "nvidia-smi-dmon",
	.input = READ_LINES,
	.open = dmon_open,
	.line = dmon_line,
	.finish = dmon_finish,
	.found = dmon_found,
	.free = dmon_free,
};

const struct reader gpumon_dcgmi_reader = {
	.name = "dcgmi-dmon",
	.input = READ_LINES,
	.open = dcgmi_open,
	.line = dmon_line,
	.finish = dmon_finish,
	.found = dmon_found,
	.free = dmon_free,
};

/* ---- nvidia-smi topo -m ---- */

struct topo_pair {
	int32_t a, b;		/* GPU numbers, a < b */
	const char *raw;	/* interned cell: "NV18", "PIX" */
};

struct topo {
	struct ingest_ctx *ctx;
	int32_t gpu[MAX_FIELDS];	/* the GPU of each matrix column; -1 a NIC */
	size_t ncols;
	bool in_matrix;
	bool found;
	int64_t head_line;
	struct topo_pair *pairs;
	size_t npairs, cap_pairs;
	int64_t errors;
};

/* The link a matrix cell names: "nvlink", "pcie", or NULL when it is not a link cell. */
static const char *topo_link(struct span s)
{
	static const char *const pcie[] = { "PIX", "PXB", "PHB", "NODE", "SYS", "SOC" };
	int64_t v;

	if (s.n > 2 && !memcmp(s.p, "NV", 2) && span_int((struct span){ s.p + 2, s.n - 2 }, &v))
		return "nvlink";
	for (size_t i = 0; i < sizeof(pcie) / sizeof(pcie[0]); i++)
		if (span_eq(s, pcie[i]))
			return "pcie";
	return NULL;
}

static int32_t gpu_number(struct span s)
{
	int64_t v;

	if (s.n > 3 && !memcmp(s.p, "GPU", 3) && span_int((struct span){ s.p + 3, s.n - 3 }, &v) &&
	    v <= MAX_GPU_INDEX)
		return (int32_t)v;
	return -1;
}

static bool topo_header(struct topo *t, const char *line, size_t len, int64_t lineno)
{
	struct span tok[MAX_FIELDS];
	size_t n;

	if (!matches(P_TOPO_HEAD, line, len))
		return false;
	n = split_ws(line, len, tok, MAX_FIELDS);
	t->ncols = 0;
	for (size_t i = 0; i < n && i < MAX_FIELDS && !span_eq(tok[i], "CPU"); i++)
		t->gpu[t->ncols++] = gpu_number(tok[i]);
	t->in_matrix = true;
	if (!t->found)
		t->head_line = lineno;
	t->found = true;
	return true;
}

static void topo_add(struct topo *t, int32_t a, int32_t b, struct span raw)
{
	if (a > b) {
		int32_t x = a;

		a = b;
		b = x;
	}
	for (size_t i = 0; i < t->npairs; i++)
		if (t->pairs[i].a == a && t->pairs[i].b == b)
			return;		/* the upper triangle came first */
	if (t->npairs == MAX_PAIRS)
		return;
	xgrow(&t->pairs, &t->cap_pairs, t->npairs + 1, sizeof(*t->pairs));
	t->pairs[t->npairs++] = (struct topo_pair){ a, b, intern(&t->ctx->trial->strings, raw.p,
								 raw.n) };
}

static void topo_row(struct topo *t, const char *line, size_t len)
{
	struct span tok[MAX_FIELDS + 1];
	size_t n = split_ws(line, len, tok, MAX_FIELDS + 1);
	int32_t a = gpu_number(tok[0]);

	if (n > MAX_FIELDS + 1)
		n = MAX_FIELDS + 1;
	for (size_t j = 0; j < t->ncols && j + 1 < n; j++) {
		struct span cell = tok[j + 1];

		if (t->gpu[j] < 0 || t->gpu[j] == a)
			continue;
		if (!topo_link(cell)) {
			t->errors++;
			continue;
		}
		topo_add(t, a, t->gpu[j], cell);
	}
}

static void *topo_open(struct ingest_ctx *ctx)
{
	struct topo *t;

	if (!compile_patterns())
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->ctx = ctx;
	return t;
}

static int topo_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct topo *t = st;
	struct span tok[1];

	if (topo_header(t, line, len, lineno) || !t->in_matrix)
		return 0;
	if (matches(P_TOPO_ROW, line, len)) {
		topo_row(t, line, len);
		return 0;
	}
	if (split_ws(line, len, tok, 1) >= 1 && tok[0].n > 3 &&
	    (!memcmp(tok[0].p, "NIC", 3) || !memcmp(tok[0].p, "mlx", 3)))
		return 0;	/* a NIC's row */
	t->in_matrix = false;
	return 0;
}

static int by_pair(const void *x, const void *y)
{
	const struct topo_pair *p = x, *q = y;

	if (p->a != q->a)
		return (p->a > q->a) - (p->a < q->a);
	return (p->b > q->b) - (p->b < q->b);
}

static int topo_finish(void *st)
{
	struct topo *t = st;
	struct info *arr;
	const char *common = NULL;
	struct srcpos pos = SRCPOS_LINE(t->ctx->path, t->head_line);

	if (!t->found)
		return 0;
	if (t->npairs)
		qsort(t->pairs, t->npairs, sizeof(*t->pairs), by_pair);
	arr = info_arr(t->ctx->arena, info_obj(t->ctx->arena, t->ctx->info, "topology"), "pairs");
	for (size_t i = 0; i < t->npairs; i++) {
		struct info *o = info_obj(t->ctx->arena, arr, NULL);
		struct span raw = { t->pairs[i].raw, strlen(t->pairs[i].raw) };
		const char *link = topo_link(raw);

		info_int(t->ctx->arena, o, "a", t->pairs[i].a);
		info_int(t->ctx->arena, o, "b", t->pairs[i].b);
		info_str(t->ctx->arena, o, "link", link);
		info_str(t->ctx->arena, o, "raw", t->pairs[i].raw);
		common = i == 0 || (common && !strcmp(common, link)) ? link : NULL;
	}
	/* the run's link, when every pair of its GPUs is joined the same way */
	if (common)
		fact_set_str(t->ctx->trial, &t->ctx->run->link, common, &pos);
	t->ctx->src->events += (int64_t)t->npairs;
	t->ctx->src->errors += t->errors;
	return 0;
}

static bool topo_found(void *st)
{
	return ((struct topo *)st)->found;
}

static void topo_free(void *st)
{
	struct topo *t = st;

	xgrow_free(&t->pairs, &t->cap_pairs, sizeof(*t->pairs));
	free(t);
}

const struct reader gpumon_topo_reader = {
	.name = "nvidia-smi-topo",
	.input = READ_LINES,
	.open = topo_open,
	.line = topo_line,
	.finish = topo_finish,
	.found = topo_found,
	.free = topo_free,
};

/* ---- the default nvidia-smi table ---- */

struct table {
	struct monitor m;
	bool found;
	const char *driver;	/* interned; NULL unknown */
	const char *cuda;	/* the highest CUDA the driver supports */
	int64_t ts;		/* the date line printed above the table; -1 none */
	int32_t pending;	/* GPU of the row above the usage row; -1 none */
};

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

static void table_date(struct table *t, const char *line)
{
	const char *p[7];
	size_t n[7];
	int64_t v[7] = { 0 };

	for (int g = 1; g <= 6; g++)
		if (!group(g, line, &p[g], &n[g]))
			return;
	for (int i = 0; i < 12; i++)
		if (!memcmp(p[1], months[i], 3))
			v[1] = i + 1;
	for (int g = 2; g <= 6; g++)
		span_int((struct span){ p[g], n[g] }, &v[g]);
	if (!civil_ns(v[6], v[1], v[2], v[3], v[4], v[5], &t->ts))
		t->ts = -1;
}

static const char *table_version(struct table *t, int g, const char *line)
{
	const char *p;
	size_t n;

	if (!group(g, line, &p, &n) || (n == 3 && !memcmp(p, "N/A", 3)))
		return NULL;
	return intern(&t->m.ctx->trial->strings, p, n);
}

static void table_usage(struct table *t, const char *line, int64_t lineno)
{
	struct gpu_sample *g = mon_sample(&t->m, t->pending, lineno);
	const char *p;
	size_t n;
	int64_t v;
	double w;
	struct span rest;

	if (!g)
		return;
	g->ts = t->ts;
	if (group(1, line, &p, &n) && span_num((struct span){ p, n }, &w, &rest))
		g->power_w = w;
	if (group(2, line, &p, &n) && span_int((struct span){ p, n }, &v))
		g->memory_used = v * 1048576;
	if (group(3, line, &p, &n) && span_int((struct span){ p, n }, &v))
		g->memory_total = v * 1048576;
	if (group(4, line, &p, &n) && span_int((struct span){ p, n }, &v))
		g->util_gpu = (double)v;
	t->pending = -1;
}

static void *table_open(struct ingest_ctx *ctx)
{
	struct table *t;

	if (!compile_patterns())
		return NULL;
	t = xcalloc(1, sizeof(*t));
	mon_init(&t->m, ctx);
	t->ts = -1;
	t->pending = -1;
	return t;
}

static int table_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct table *t = st;
	const char *p;
	size_t n;
	int64_t v;

	if (memmem(line, len, "NVIDIA-SMI", 10) && matches(P_TABLE_HEAD, line, len)) {
		t->found = true;
		t->driver = table_version(t, 2, line);
		t->cuda = table_version(t, 3, line);
		return 0;
	}
	if (len && line[0] != '|') {
		if (matches(P_TABLE_DATE, line, len))
			table_date(t, line);
		return 0;
	}
	if (!t->found)
		return 0;
	if (matches(P_TABLE_GPU, line, len) && group(1, line, &p, &n) &&
	    span_int((struct span){ p, n }, &v) && v <= MAX_GPU_INDEX) {
		t->pending = (int32_t)v;
		if (group(2, line, &p, &n))
			mon_name(&t->m, t->pending, p, n);
	} else if (t->pending >= 0 && matches(P_TABLE_USE, line, len)) {
		table_usage(t, line, lineno);
	}
	return t->m.limit.capped ? -1 : 0;
}

static int table_finish(void *st)
{
	struct table *t = st;

	if (!t->found)
		return 0;
	mon_commit(&t->m);
	info_str(t->m.ctx->arena, t->m.ctx->info, "driver", t->driver);
	info_str(t->m.ctx->arena, t->m.ctx->info, "cuda_version", t->cuda);
	return 0;
}

static bool table_found(void *st)
{
	return ((struct table *)st)->found;
}

static void table_free(void *st)
{
	struct table *t = st;

	mon_release(&t->m);
	free(t);
}

const struct reader gpumon_table_reader = {
	.name = "nvidia-smi-table",
	.input = READ_LINES,
	.open = table_open,
	.line = table_line,
	.finish = table_finish,
	.found = table_found,
	.free = table_free,
};
