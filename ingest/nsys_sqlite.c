#include "ingest/nsys_sqlite.h"

#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/buf.h"
#include "core/imap.h"
#include "core/kname.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"

#define MAX_TIME 4000000000000000000LL	/* keeps epoch + time inside int64 */

enum { N_KERNEL, N_MEMCPY, N_MEMSET, N_RUNTIME, N_COUNT };

static const char *const count_keys[N_COUNT] = {
	[N_KERNEL] = "kernel", [N_MEMCPY] = "gpu_memcpy", [N_MEMSET] = "gpu_memset",
	[N_RUNTIME] = "cuda_runtime",
};

struct ns {
	struct ingest_ctx *ctx;
	sqlite3 *db;
	int64_t epoch;		/* session start, ns since the epoch; 0 unknown */
	struct gpu_event *ev;
	size_t nev, cap_ev;
	struct step_mark *steps;
	size_t nsteps, cap_steps;
	int64_t *launch_ts;	/* runtime calls' starts, by index */
	size_t nlaunch, cap_launch;
	struct imap by_corr;	/* correlation id -> launch_ts index */
	struct device_info *devs;
	size_t ndevs, cap_devs;
	int64_t count[N_COUNT];
	int64_t first, last;	/* span of GPU work, launches and steps; INT64_MIN none */
	bool failed;		/* the export could not be read: no findings about it */
	int64_t rows;		/* rows read so far, against the row budget */
	int64_t deadline;	/* ms (monotonic clock) when the queries are interrupted */
	struct ingest_cap cap;	/* rows kept, against --max-events and the other limits */
};

/* The budgets of one export: rows read and milliseconds of queries (nsys_sqlite_set_budget()). */
static int64_t max_rows = MODEL_MAX_SQL_ROWS;
static int64_t max_ms = MODEL_MAX_SQL_SECONDS * 1000LL;

void nsys_sqlite_set_budget(int64_t rows, int64_t ms)
{
	max_rows = rows >= 0 ? rows : MODEL_MAX_SQL_ROWS;
	max_ms = ms >= 0 ? ms : MODEL_MAX_SQL_SECONDS * 1000LL;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* CUPTI_ActivityMemcpyKind, as Kineto names the copies. */
static const char *const copy_kinds[] = {
	"Memcpy", "Memcpy HtoD", "Memcpy DtoH", "Memcpy HtoA", "Memcpy AtoH", "Memcpy AtoA",
	"Memcpy AtoD", "Memcpy DtoA", "Memcpy DtoD", "Memcpy HtoH", "Memcpy PtoP",
};

/* Texts of NVTX ranges that mark a step, lowercase; the number follows. */
static const char *const step_prefixes[] = {
	"profilerstep#", "train_step", "train step", "step", "iteration", "iter",
};

int64_t nsys_step_number(const char *text)
{
	for (size_t i = 0; i < sizeof(step_prefixes) / sizeof(step_prefixes[0]); i++) {
		size_t n = strlen(step_prefixes[i]);
		const char *p = text + n;
		int64_t v = 0;

		if (strncasecmp(text, step_prefixes[i], n))
			continue;
		p += strspn(p, " _#:=-");
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9' && v < INT64_MAX / 10 - 9; p++)
			v = v * 10 + (*p - '0');
		return *p ? -1 : v;
	}
	return -1;
}

static void span(struct ns *n, int64_t start, int64_t end)
{
	if (n->first == INT64_MIN || start < n->first)
		n->first = start;
	if (n->last == INT64_MIN || end > n->last)
		n->last = end;
}

static int sql_error(struct ns *n, const char *what)
{
	struct srcpos pos = SRCPOS_FILE(n->ctx->path);

	n->ctx->src->errors++;
	n->failed = true;
	return diag_error(n->ctx->diags, "sqlite", &pos, "%s: %s", what, sqlite3_errmsg(n->db));
}

/* "<what> more than <limit> <unit>: the rest is not read" */
static int limit_error(struct ns *n, const char *what, double limit, const char *unit)
{
	struct srcpos pos = SRCPOS_FILE(n->ctx->path);

	n->ctx->src->errors++;
	n->failed = true;
	return diag_error(n->ctx->diags, "limit", &pos, "%s more than %.15g %s: the rest is not read",
			  what, limit, unit);
}

/* sqlite3_progress_handler: non-zero interrupts the query once its time is up. */
static int over_time(void *arg)
{
	return now_ms() >= ((const struct ns *)arg)->deadline;
}

/* An SQLite URI that opens path read-only as immutable: no -shm/-wal beside it, no lock. */
static void immutable_uri(const char *path, struct buf *uri)
{
	static const char keep[] = "-._~/";

	buf_addstr(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr(keep, *p))
			buf_add(uri, p, 1);
		else
			buf_addf(uri, "%%%02X", *p);
	}
	buf_addstr(uri, "?immutable=1");
}

static bool has_table(struct ns *n, const char *table)
{
	sqlite3_stmt *st;
	bool found = false;

	/* tables only: a view named like an nsys table could cost anything to read */
	if (sqlite3_prepare_v2(n->db, "SELECT 1 FROM sqlite_master WHERE name = ?1 AND "
			       "type = 'table'", -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static bool has_column(struct ns *n, const char *table, const char *column)
{
	char sql[128];
	sqlite3_stmt *st;
	bool found = false;

	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", table);
	if (sqlite3_prepare_v2(n->db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	while (!found && sqlite3_step(st) == SQLITE_ROW)
		found = !strcmp((const char *)sqlite3_column_text(st, 1), column);
	sqlite3_finalize(st);
	return found;
}

/* NULL reads as -1: "unknown", never 0. */
static int64_t col_i64(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, i);
}

static int32_t col_i32(sqlite3_stmt *st, int i)
{
	int64_t v = col_i64(st, i);

	return v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
}

static const char *col_str(struct ns *n, sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? intern_str(&n->ctx->trial->strings, s) : NULL;
}

/* Times of a row that can be used: 0 <= start <= end <= MAX_TIME. */
static bool times_ok(struct ns *n, int64_t start, int64_t end)
{
	if (start >= 0 && start <= end && end <= MAX_TIME)
		return true;
	n->ctx->src->errors++;
	return false;
}

/* A GPU event from the first five columns: start, end, device, stream, correlation. */
static struct gpu_event *add_event(struct ns *n, sqlite3_stmt *st, enum ev_kind kind)
{
	struct gpu_event *g;

	if (!times_ok(n, col_i64(st, 0), col_i64(st, 1)))
		return NULL;
	xgrow(&n->ev, &n->cap_ev, n->nev + 1, sizeof(*n->ev));
	g = &n->ev[n->nev++];
	*g = (struct gpu_event){
		.start = col_i64(st, 0), .end = col_i64(st, 1), .device = col_i32(st, 2),
		.stream = col_i32(st, 3), .correlation = col_i64(st, 4), .bytes = -1,
		.step = -1, .kind = (uint8_t)kind, .cls = EVC_MEMORY,
	};
	span(n, g->start, g->end);
	return g;
}

static void kernel_row(struct ns *n, sqlite3_stmt *st)
{
	struct gpu_event *g = add_event(n, st, EV_KERNEL);

	if (!g)
		return;
	g->name = col_str(n, st, 5);
	g->cls = EVC_COMPUTE;
	kname_classify(g);
	n->count[N_KERNEL]++;
}

static void memcpy_row(struct ns *n, sqlite3_stmt *st)
{
	struct gpu_event *g = add_event(n, st, EV_MEMCPY);
	int64_t kind = col_i64(st, 6);

	if (!g)
		return;
	g->bytes = col_i64(st, 5);
	g->name = intern_str(&n->ctx->trial->strings, copy_kinds[kind > 0 && kind < 11 ? kind : 0]);
	n->count[N_MEMCPY]++;
}

static void memset_row(struct ns *n, sqlite3_stmt *st)
{
	struct gpu_event *g = add_event(n, st, EV_MEMSET);

	if (!g)
		return;
	g->bytes = col_i64(st, 5);
	g->name = intern_str(&n->ctx->trial->strings, "Memset");
	n->count[N_MEMSET]++;
}

static void runtime_row(struct ns *n, sqlite3_stmt *st)
{
	int64_t corr = col_i64(st, 0);

	n->count[N_RUNTIME]++;
	if (!times_ok(n, col_i64(st, 1), col_i64(st, 2)))
		return;
	span(n, col_i64(st, 1), col_i64(st, 2));
	if (corr < 0)
		return;
	xgrow(&n->launch_ts, &n->cap_launch, n->nlaunch + 1, sizeof(*n->launch_ts));
	n->launch_ts[n->nlaunch] = col_i64(st, 1);
	if (imap_put(&n->by_corr, corr, (uint32_t)n->nlaunch))
		n->nlaunch++;
}

static void nvtx_row(struct ns *n, sqlite3_stmt *st)
{
	const char *text = (const char *)sqlite3_column_text(st, 2);
	int64_t num = text ? nsys_step_number(text) : -1;

	if (num < 0 || !times_ok(n, col_i64(st, 0), col_i64(st, 1)))
		return;
	xgrow(&n->steps, &n->cap_steps, n->nsteps + 1, sizeof(*n->steps));
	n->steps[n->nsteps++] = (struct step_mark){
		.number = num, .start = col_i64(st, 0), .end = col_i64(st, 1),
		.source = STEP_NVTX,
	};
	span(n, col_i64(st, 0), col_i64(st, 1));
}

/* TARGET_INFO_GPU's columns have changed names over the versions. */
static void gpu_row(struct ns *n, sqlite3_stmt *st)
{
	struct device_info *d;

	xgrow(&n->devs, &n->cap_devs, n->ndevs + 1, sizeof(*n->devs));
	d = &n->devs[n->ndevs++];
	*d = (struct device_info){ .index = -1, .memory_total = -1, .cc_major = -1,
				   .cc_minor = -1, .num_sms = -1 };
	for (int i = 0; i < sqlite3_column_count(st); i++) {
		const char *c = sqlite3_column_name(st, i);

		if (!strcmp(c, "cuDevice") || (!strcmp(c, "id") && d->index < 0))
			d->index = col_i32(st, i);
		else if (!strcmp(c, "name"))
			d->name = col_str(n, st, i);
		else if (!strcmp(c, "totalMemory"))
			d->memory_total = col_i64(st, i);
		else if (!strcmp(c, "smCount"))
			d->num_sms = col_i32(st, i);
		else if (!strcmp(c, "computeMajor") || !strcmp(c, "computeCapabilityMajor"))
			d->cc_major = col_i32(st, i);
		else if (!strcmp(c, "computeMinor") || !strcmp(c, "computeCapabilityMinor"))
			d->cc_minor = col_i32(st, i);
	}
}

static void epoch_row(struct ns *n, sqlite3_stmt *st)
{
	int64_t v = col_i64(st, 0);

	n->epoch = v > 0 && v <= MAX_TIME ? v : 0;
}

static int run_query(struct ns *n, const char *sql, void (*row)(struct ns *, sqlite3_stmt *))
{
	struct srcpos pos = SRCPOS_FILE(n->ctx->path);
	sqlite3_stmt *st;
	bool kept = true;
	int rc;

	if (sqlite3_prepare_v2(n->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_error(n, "cannot query the export");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && ++n->rows <= max_rows &&
	       (kept = ingest_keep(n->ctx, &n->cap.kept, &n->cap.capped, &pos)))
		row(n, st);
	sqlite3_finalize(st);
	if (!kept) {	/* ingest_keep() said which limit */
		n->ctx->src->errors++;
		n->failed = true;
		return -1;
	}
	if (rc == SQLITE_ROW)
		return limit_error(n, "holds", (double)max_rows, "rows");
	if (rc == SQLITE_INTERRUPT)
		return limit_error(n, "its queries ran for", (double)max_ms / 1000, "s");
	return rc == SQLITE_DONE ? 0 : sql_error(n, "cannot read the export");
}

/* A table read when the file has it: its name, the query, what a row gives. */
struct table_read {
	const char *table;
	const char *sql;
	void (*row)(struct ns *, sqlite3_stmt *);
};

static const struct table_read reads[] = {
	{ "TARGET_INFO_SESSION_START_TIME",
	  "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME", epoch_row },
	{ "TARGET_INFO_GPU", "SELECT * FROM TARGET_INFO_GPU", gpu_row },
	{ "CUPTI_ACTIVITY_KIND_RUNTIME",
	  "SELECT correlationId, start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME", runtime_row },
	{ "CUPTI_ACTIVITY_KIND_MEMCPY",
	  "SELECT start, end, deviceId, streamId, correlationId, bytes, copyKind "
	  "FROM CUPTI_ACTIVITY_KIND_MEMCPY", memcpy_row },
	{ "CUPTI_ACTIVITY_KIND_MEMSET",
	  "SELECT start, end, deviceId, streamId, correlationId, bytes "
	  "FROM CUPTI_ACTIVITY_KIND_MEMSET", memset_row },
};

/* The kernel's name: demangled where the export has it, else the short one. */
static int read_kernels(struct ns *n)
{
	static const char *const fmt = "SELECT k.start, k.end, k.deviceId, k.streamId, "
		"k.correlationId, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
		"LEFT JOIN StringIds s ON s.id = k.%s";
	const char *col = has_column(n, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName") ?
			  "demangledName" : "shortName";
	char sql[512];

	if (!has_table(n, "CUPTI_ACTIVITY_KIND_KERNEL"))
		return 0;
	snprintf(sql, sizeof(sql), fmt, col);
	return run_query(n, sql, kernel_row);
}

/* NVTX text is inline (text) or, in newer exports, registered (textId). */
static int read_nvtx(struct ns *n)
{
	const char *sql = has_column(n, "NVTX_EVENTS", "textId") ?
		"SELECT n.start, n.end, COALESCE(n.text, s.value) FROM NVTX_EVENTS n "
		"LEFT JOIN StringIds s ON s.id = n.textId WHERE n.end > n.start" :
		"SELECT start, end, text FROM NVTX_EVENTS WHERE end > start";

	return has_table(n, "NVTX_EVENTS") ? run_query(n, sql, nvtx_row) : 0;
}

static int ns_path(void *st, const char *path)
{
	struct ns *n = st;

	struct buf uri = BUF_INIT;
	int rc;

	immutable_uri(path, &uri);
	rc = sqlite3_open_v2(uri.data, &n->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	buf_release(&uri);
	if (rc != SQLITE_OK)
		return sql_error(n, "cannot open the export");
	n->deadline = now_ms() + max_ms;
	sqlite3_progress_handler(n->db, 100000, over_time, n);
	if (sqlite3_exec(n->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK)
		return sql_error(n, "cannot query the export");	/* not a database after all */
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++)
		if (has_table(n, reads[i].table) && run_query(n, reads[i].sql, reads[i].row) < 0)
			return -1;
	if (read_kernels(n) < 0 || read_nvtx(n) < 0)
		return -1;
	return 0;
}

/* ---- finish ---- */

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_step(const void *pa, const void *pb)
{
	return cmp_i64(((const struct step_mark *)pa)->start, ((const struct step_mark *)pb)->start);
}

static int64_t step_at(const struct ns *n, int64_t ts)
{
	size_t lo = 0, hi = n->nsteps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (n->steps[mid].start <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && n->steps[lo - 1].end >= ts ? n->steps[lo - 1].number : -1;
}

static void shift(struct ns *n)
{
	for (size_t i = 0; i < n->nev; i++) {
		n->ev[i].start += n->epoch;
		n->ev[i].end += n->epoch;
		if (n->ev[i].launched != LAUNCH_UNKNOWN)
			n->ev[i].launched += n->epoch;
	}
	for (size_t i = 0; i < n->nsteps; i++) {
		n->steps[i].start += n->epoch;
		n->steps[i].end += n->epoch;
	}
}

/* The rank of one device of the file, made (with its device and steps) on first use. */
static struct rank *rank_of(struct ns *n, int32_t dev)
{
	bool created;
	struct rank *k = run_trace_rank(n->ctx->run, n->ctx->path, dev, &created);

	if (!created)
		return k;
	for (size_t i = 0; i < n->ndevs; i++)
		if (n->devs[i].index == dev)
			k->dev = n->devs[i];
	for (size_t i = 0; i < n->nsteps; i++)
		*rank_add_step(k) = n->steps[i];
	return k;
}

static void commit(struct ns *n)
{
	uint32_t li;

	if (n->nsteps > 1)
		qsort(n->steps, n->nsteps, sizeof(*n->steps), cmp_step);
	for (size_t i = 0; i < n->nev; i++) {
		struct gpu_event *g = &n->ev[i];
		bool linked = imap_get(&n->by_corr, g->correlation, &li);

		g->launched = linked ? n->launch_ts[li] : LAUNCH_UNKNOWN;	/* the id is done with */
		if (linked)
			g->step = (int32_t)step_at(n, n->launch_ts[li]);
	}
	shift(n);
	gpu_events_sort(n->ev, n->nev);
	for (size_t i = 0; i < n->nev; i++)
		*rank_add_event(rank_of(n, n->ev[i].device)) = n->ev[i];
}

static void describe(struct ns *n)
{
	struct ingest_ctx *c = n->ctx;
	struct info *arr = info_arr(c->arena, c->info, "devices");
	struct info *ev;
	int64_t comm = 0, distinct = 0;
	char cc[32];

	info_null(c->arena, c->info, "rank");
	info_null(c->arena, c->info, "world_size");
	for (size_t i = 0; i < n->ndevs; i++) {
		const struct device_info *d = &n->devs[i];
		struct info *o = info_obj(c->arena, arr, NULL);

		info_str(c->arena, o, "name", d->name);
		if (d->memory_total >= 0)
			info_int(c->arena, o, "memory_total_bytes", d->memory_total);
		else
			info_null(c->arena, o, "memory_total_bytes");
		snprintf(cc, sizeof(cc), "%d.%d", (int)d->cc_major, (int)d->cc_minor);
		info_str(c->arena, o, "compute_capability", d->cc_major >= 0 ? cc : NULL);
	}
	ev = info_obj(c->arena, c->info, "events");
	for (int i = 0; i < N_COUNT; i++)
		info_int(c->arena, ev, count_keys[i], n->count[i]);
	for (size_t i = 0; i < n->nev; i++)
		comm += n->ev[i].cls == EVC_COMM;
	for (size_t i = 0; i < n->nsteps; i++)	/* sorted by start: numbers rise */
		distinct += i == 0 || n->steps[i].number != n->steps[i - 1].number;
	info_int(c->arena, c->info, "comm_kernels", comm);
	info_int(c->arena, c->info, "steps", distinct);
	info_num(c->arena, c->info, "span_s", n->first == INT64_MIN ? NAN :
		 (double)(n->last - n->first) / NS_PER_S);
}

static int ns_finish(void *st)
{
	struct ns *n = st;
	struct srcpos pos = SRCPOS_FILE(n->ctx->path);

	commit(n);
	n->ctx->src->events += n->count[N_KERNEL] + n->count[N_MEMCPY] + n->count[N_MEMSET];
	describe(n);
	if (!n->nev && !n->failed)
		diag_warn(n->ctx->diags, "cpu-only", &pos,
			  "no GPU activity in the export (no kernel, memcpy or memset)");
	return 0;
}

static void *ns_open(struct ingest_ctx *ctx)
{
	struct ns *n = xcalloc(1, sizeof(*n));

	n->ctx = ctx;
	n->by_corr = (struct imap)IMAP_INIT;
	n->first = n->last = INT64_MIN;
	return n;
}

static bool ns_found(void *st)
{
	(void)st;
	return true;
}

static void ns_free(void *st)
{
	struct ns *n = st;

	sqlite3_close(n->db);
	imap_release(&n->by_corr);
	xgrow_free(&n->ev, &n->cap_ev, sizeof(*n->ev));
	xgrow_free(&n->steps, &n->cap_steps, sizeof(*n->steps));
	xgrow_free(&n->launch_ts, &n->cap_launch, sizeof(*n->launch_ts));
	xgrow_free(&n->devs, &n->cap_devs, sizeof(*n->devs));
	free(n);
}

const struct reader nsys_sqlite_reader = {
	.name = "nsys-sqlite",
	.input = READ_PATH,
	.open = ns_open,
	.path = ns_path,
	.finish = ns_finish,
	.found = ns_found,
	.free = ns_free,
};
