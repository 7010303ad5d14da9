/*
 * The Nsight Systems SQLite reader, on exports this test writes with the
 * sqlite3 API (no real export is public): the current schema, an older one
 * (shortName only, inline NVTX text), and a corrupt file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "ingest/ingest.h"
#include "ingest/nsys_sqlite.h"
#include "tests/unit/skip.h"

#define EPOCH 1700000000000000000LL

static const char *const current_schema =
	"CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);"
	"CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, busLocation TEXT, totalMemory INTEGER,"
	" smCount INTEGER, computeMajor INTEGER, computeMinor INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
	" globalPid INTEGER, demangledName INTEGER, shortName INTEGER, gridX INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" eventClass INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER,"
	" returnValue INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
	" globalPid INTEGER, bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
	" globalPid INTEGER, value INTEGER, bytes INTEGER, memKind INTEGER);"
	"CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER,"
	" rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,"
	" endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);";

static const char *const current_rows =
	"INSERT INTO StringIds VALUES"
	" (1, 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)'),"
	" (2, 'ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn'),"
	" (3, 'gemm_short'), (4, 'nccl_short'), (6, 'cudaLaunchKernel_v7000'), (7, 'train_step 5');"
	"INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '', '');"
	"INSERT INTO TARGET_INFO_GPU VALUES"
	" (0, 'NVIDIA H100 80GB HBM3', '0000:18:00.0', 85520809984, 132, 9, 0),"
	" (1, 'NVIDIA H200', '0000:2a:00.0', 150754820096, 132, 9, 0);"
	"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
	" (1000, 2000, 0, 1, 7, 10, 1, 2, 3, 8),"
	" (2500, 4500, 0, 1, 13, 11, 1, 1, 4, 8),"
	" (6000, 6500, 0, 1, 7, 12, 1, 2, 3, 8),"
	" (7000, 7100, 1, 1, 7, 13, 1, 2, 3, 8);"
	"INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
	" (900, 950, 1, 1, 10, 6, 0), (2400, 2450, 1, 1, 11, 6, 0),"
	" (5900, 5950, 1, 1, 12, 6, 0), (100, 120, 1, 1, 14, 6, 0);"
	"INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (150, 300, 0, 1, 7, 14, 1, 1048576, 1, 0, 1);"
	"INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (4600, 4700, 0, 1, 7, 15, 1, 0, 4096, 1);"
	"INSERT INTO NVTX_EVENTS VALUES"
	" (800, 5000, 59, NULL, NULL, NULL, 'ProfilerStep#4', 1, NULL, NULL, 0),"
	" (5000, 8000, 59, NULL, NULL, NULL, NULL, 1, NULL, 7, 0),"
	" (850, 1200, 59, NULL, NULL, NULL, 'forward', 1, NULL, NULL, 0),"
	" (300, NULL, 34, NULL, NULL, NULL, 'step 99', 1, NULL, NULL, 0);";

/* An older export: shortName only, NVTX text inline, no session start, no GPU table. */
static const char *const old_db =
	"CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
	" shortName INTEGER);"
	"CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER,"
	" text TEXT);"
	"INSERT INTO StringIds VALUES (1, 'ncclKernel_AllGather_RING_LL_Sum_half');"
	"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 20, 2, 1, 7, 5, 1), (30, 35, 2, 1, 7, 6, 1),"
	" (9223372036854775000, 9223372036854775807, 2, 1, 7, 7, 1), (50, 40, 2, 1, 7, 8, 1);"
	"INSERT INTO NVTX_EVENTS VALUES (0, 100, 59, 'Iteration 3');";

struct loaded {
	char dir[64];
	char path[128];
	struct trial *t;
	struct run *r;
	struct arena a;
	struct ingest_file f;
};

static void make_db(struct loaded *l, const char *sql)
{
	sqlite3 *db;
	char *err = NULL;

	snprintf(l->dir, sizeof(l->dir), "/tmp/test_nsys_XXXXXX");
	assert_non_null(mkdtemp(l->dir));
	snprintf(l->path, sizeof(l->path), "%s/report.sqlite", l->dir);
	assert_int_equal(sqlite3_open(l->path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("sqlite: %s", err);
	sqlite3_close(db);
}

static void load(struct loaded *l)
{
	l->t = trial_new();
	l->r = trial_add_run(l->t, "run", ".");
	assert_int_equal(ingest_file(l->t, l->r, l->path, &l->a, &l->f), 0);
}

static void cleanup(struct loaded *l)
{
	arena_release(&l->a);
	trial_free(l->t);
	unlink(l->path);
	rmdir(l->dir);
}

static int64_t info_i(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_INT);
	return v->v.i;
}

static void test_step_names(void **state)
{
	(void)state;
	assert_int_equal(nsys_step_number("ProfilerStep#12"), 12);
	assert_int_equal(nsys_step_number("step 12"), 12);
	assert_int_equal(nsys_step_number("Step_7"), 7);
	assert_int_equal(nsys_step_number("train_step_12"), 12);
	assert_int_equal(nsys_step_number("Iteration 12"), 12);
	assert_int_equal(nsys_step_number("iter#0"), 0);
	assert_int_equal(nsys_step_number("stepper"), -1);
	assert_int_equal(nsys_step_number("step"), -1);
	assert_int_equal(nsys_step_number("step 12a"), -1);
	assert_int_equal(nsys_step_number("forward"), -1);
	assert_int_equal(nsys_step_number(""), -1);
}

static void test_current_schema(void **state)
{
	struct loaded l = { .a = ARENA_INIT };
	char *sql = NULL;
	const struct rank *k;
	const struct gpu_event *e;
	const struct info *ev;

	(void)state;
	sql = malloc(strlen(current_schema) + strlen(current_rows) + 1);
	strcpy(sql, current_schema);
	strcat(sql, current_rows);
	make_db(&l, sql);
	free(sql);
	load(&l);
	assert_string_equal(format_name(l.f.sniff.format), "nsys-sqlite");
	assert_int_equal(l.t->diags.count, 0);
	assert_int_equal(l.r->nranks, 2);	/* one per device */
	k = &l.r->ranks[0];
	assert_int_equal(k->rank, -1);
	assert_int_equal(k->dev.index, 0);
	assert_string_equal(k->dev.name, "NVIDIA H100 80GB HBM3");
	assert_int_equal(k->dev.memory_total, 85520809984LL);
	assert_int_equal(k->dev.cc_major, 9);
	assert_int_equal(k->dev.num_sms, 132);
	assert_int_equal(k->nev, 5);
	e = &k->ev[0];		/* sorted: the memcpy comes first */
	assert_string_equal(e->name, "Memcpy HtoD");
	assert_int_equal(e->kind, EV_MEMCPY);
	assert_int_equal(e->start, EPOCH + 150);
	assert_int_equal(e->bytes, 1048576);
	assert_int_equal(e->step, -1);	/* launched before the first step */
	e = &k->ev[1];
	assert_string_equal(e->name, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn");
	assert_int_equal(e->cls, EVC_COMPUTE);
	assert_int_equal(e->step, 4);
	assert_int_equal(e->launched, EPOCH + 900);	/* its runtime call's start */
	e = &k->ev[2];
	assert_int_equal(e->cls, EVC_COMM);
	assert_int_equal(e->coll, COLL_ALLREDUCE);
	assert_int_equal(e->dtype, DT_BF16);
	assert_int_equal(e->stream, 13);
	assert_int_equal(e->step, 4);
	e = &k->ev[3];
	assert_string_equal(e->name, "Memset");
	assert_int_equal(e->bytes, 4096);
	assert_int_equal(e->step, -1);	/* no runtime call for it */
	e = &k->ev[4];
	assert_int_equal(e->step, 5);	/* "train_step 5", a registered string */
	assert_int_equal(e->end, EPOCH + 6500);
	assert_int_equal(k->nsteps, 2);
	assert_int_equal(k->steps[0].number, 4);
	assert_int_equal(k->steps[0].start, EPOCH + 800);
	assert_int_equal(k->steps[0].source, STEP_NVTX);
	assert_int_equal(k->steps[1].number, 5);
	k = &l.r->ranks[1];
	assert_string_equal(k->dev.name, "NVIDIA H200");
	assert_int_equal(k->nev, 1);
	assert_int_equal(k->ev[0].step, -1);
	ev = info_get(l.f.info, "events");
	assert_int_equal(info_i(ev, "kernel"), 4);
	assert_int_equal(info_i(ev, "gpu_memcpy"), 1);
	assert_int_equal(info_i(ev, "gpu_memset"), 1);
	assert_int_equal(info_i(ev, "cuda_runtime"), 4);
	assert_int_equal(info_i(l.f.info, "comm_kernels"), 1);
	assert_int_equal(info_i(l.f.info, "steps"), 2);
	assert_true(info_get(l.f.info, "span_s")->v.d == 7900e-9);	/* runtime at 100 to step end 8000 */
	assert_int_equal(info_get(l.f.info, "rank")->type, INFO_NULL);
	assert_string_equal(info_get(info_get(l.f.info, "devices")->child, "compute_capability")->v.s, "9.0");
	assert_int_equal(l.r->sources[0].events, 6);
	cleanup(&l);
}

static void test_old_schema(void **state)
{
	struct loaded l = { .a = ARENA_INIT };
	const struct rank *k;

	(void)state;
	make_db(&l, old_db);
	load(&l);
	assert_int_equal(l.t->diags.count, 0);
	assert_int_equal(l.r->nranks, 1);
	k = &l.r->ranks[0];
	assert_int_equal(k->dev.index, 2);
	assert_null(k->dev.name);
	assert_int_equal(k->nev, 2);
	assert_int_equal(k->ev[0].start, 10);	/* no session start: times stay relative */
	assert_int_equal(k->ev[0].coll, COLL_ALLGATHER);
	assert_int_equal(k->ev[0].dtype, DT_FP16);
	assert_int_equal(k->ev[0].step, -1);	/* no runtime table to link the launch */
	assert_int_equal(k->nsteps, 1);
	assert_int_equal(k->steps[0].number, 3);
	assert_int_equal(info_i(info_get(l.f.info, "events"), "cuda_runtime"), 0);
	assert_int_equal(l.r->sources[0].errors, 2);	/* a time past int64 with the epoch, an end before its start */
	cleanup(&l);
}

/* A file that looks like an export but is not a database: one clear error. */
static void test_corrupt(void **state)
{
	struct loaded l = { .a = ARENA_INIT };
	FILE *f;
	struct buf line;
	char want[256];

	(void)state;
	snprintf(l.dir, sizeof(l.dir), "/tmp/test_nsys_XXXXXX");
	assert_non_null(mkdtemp(l.dir));
	snprintf(l.path, sizeof(l.path), "%s/report.sqlite", l.dir);
	f = fopen(l.path, "wb");
	assert_non_null(f);
	fwrite("SQLite format 3\0", 1, 16, f);
	for (int i = 0; i < 200; i++)
		fputs("\x01\x02 CUPTI_ACTIVITY_KIND_KERNEL garbage \xff\xfe", f);
	fclose(f);
	load(&l);
	assert_string_equal(format_name(l.f.sniff.format), "nsys-sqlite");
	assert_int_equal(l.t->diags.count, 1);
	buf_init(&line, 0);
	diag_format(&l.t->diags.items[0], &line);
	snprintf(want, sizeof(want), "%s: cannot query the export: file is not a database", l.path);
	assert_string_equal(line.data, want);
	buf_release(&line);
	assert_int_equal(l.r->nranks, 0);
	cleanup(&l);
}

/* ---- the budgets: rows, time and --max-events ---- */

/* An export of n kernels, one a microsecond, written by a recursive query (the file holds a table). */
static void make_kernels(struct loaded *l, int n)
{
	char sql[1024];

	snprintf(sql, sizeof(sql),
		 "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
		 "INSERT INTO StringIds VALUES (1, 'gemm_kernel');"
		 "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
		 " deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
		 " globalPid INTEGER, demangledName INTEGER, shortName INTEGER);"
		 "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT %d)"
		 " INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT x * 1000, x * 1000 + 500, 0, 1, 7, x,"
		 " 1, 1, 1 FROM c;", n);
	make_db(l, sql);
}

/* The one diagnostic of l reads "<path>: <msg>", with code "limit". */
static void assert_limit(const struct loaded *l, const char *msg)
{
	struct buf line = BUF_INIT;
	char want[512];

	assert_int_equal(l->t->diags.count, 1);
	diag_format(&l->t->diags.items[0], &line);
	snprintf(want, sizeof(want), "%s: %s", l->path, msg);
	assert_string_equal(line.data, want);
	assert_string_equal(l->t->diags.items[0].code, "limit");
	buf_release(&line);
}

/* Loads l's export: one "limit" diagnostic, msg, and `kept` kernels kept. */
static void assert_budget(struct loaded *l, const char *msg, size_t kept)
{
	load(l);
	assert_limit(l, msg);
	assert_int_equal(l->r->nranks, 1);
	assert_int_equal(l->r->ranks[0].nev, kept);
	cleanup(l);
}

static void test_row_budget(void **state)
{
	struct loaded l = { .a = ARENA_INIT };

	(void)state;
	make_kernels(&l, 20);
	nsys_sqlite_set_budget(10, -1);
	assert_budget(&l, "holds more than 10 rows: the rest is not read", 10);
	nsys_sqlite_set_budget(-1, -1);
	make_kernels(&l, 20);
	load(&l);	/* the default budget reads all of it */
	assert_int_equal(l.t->diags.count, 0);
	assert_int_equal(l.r->ranks[0].nev, 20);
	cleanup(&l);
}

/*
 * A budget of 0 ms interrupts the first query that runs long enough to be
 * checked (100000 SQLite instructions): 50000 kernels take far more.
 */
static void test_time_budget(void **state)
{
	struct loaded l = { .a = ARENA_INIT };

	(void)state;
	make_kernels(&l, 50000);
	nsys_sqlite_set_budget(-1, 0);
	load(&l);
	nsys_sqlite_set_budget(-1, -1);
	assert_limit(&l, "its queries ran for more than 0 s: the rest is not read");
	assert_true(l.r->nranks == 0 || l.r->ranks[0].nev < 50000);
	cleanup(&l);
}

static void test_max_events(void **state)
{
	struct loaded l = { .a = ARENA_INIT };

	(void)state;
	make_kernels(&l, 20);
	ingest_set_max_events(5);	/* the trial's cap, 20, counts from here */
	ingest_trial_begin();
	assert_budget(&l, "more than 5 events: the rest is not kept (--max-events raises the cap)", 5);
	ingest_set_max_events(0);
}

/* ---- nsys stats --format csv ---- */

static void load_text(struct loaded *l, const char *name)
{
	const char *top = getenv("TOP");

	snprintf(l->path, sizeof(l->path), "%s%stests/data/nsys/%s", top && *top ? top : "",
		 top && *top ? "/" : "", name);
	load(l);
}

static void release(struct loaded *l)
{
	arena_release(&l->a);
	trial_free(l->t);
}

/* The n-th entry of the `summary` array. */
static const struct info *summary(const struct loaded *l, int n)
{
	const struct info *s = info_get(l->f.info, "summary");

	assert_non_null(s);
	for (s = s->child; s && n; n--)
		s = s->next;
	assert_non_null(s);
	return s;
}

static void assert_summary(const struct loaded *l, int n, const char *name, double total_s,
			   int64_t instances)
{
	const struct info *s = summary(l, n);

	assert_string_equal(info_get(s, "name")->v.s, name);
	assert_true(info_get(s, "total_s")->v.d == total_s);
	assert_int_equal(info_i(s, "instances"), instances);
}

static void test_csv_real_mem_time_sum(void **state)
{
	const char *shared = getenv("SHARED");
	struct loaded l = { .a = ARENA_INIT };
	FILE *f;

	(void)state;
	if (!shared || !*shared)
		skip_without_shared();
	snprintf(l.path, sizeof(l.path), "%s/realdata/nsys/"
		 "issue-vllm-7599_nsys-2024.5.1_cuda_gpu_mem_time_sum_CSV_H100.txt", shared);
	f = fopen(l.path, "r");
	if (!f)
		skip_without_shared();
	fclose(f);
	load(&l);
	assert_string_equal(format_name(l.f.sniff.format), "nsys-csv");
	/* the four rows of the file, read by eye: Total Time (ns) / 1e9, Count */
	assert_summary(&l, 0, "[CUDA memcpy Host-to-Device]", 2.472025475, 27260);
	assert_summary(&l, 1, "[CUDA memcpy Device-to-Device]", 0.066765576, 21920);
	assert_summary(&l, 2, "[CUDA memset]", 0.016075754, 16975);
	assert_summary(&l, 3, "[CUDA memcpy Device-to-Host]", 0.004058353, 1711);
	assert_null(summary(&l, 3)->next);
	/* and the same rows in the run, as the console table's reader gives them */
	assert_int_equal(l.r->nsys_tables, 1);
	assert_int_equal(l.r->nnsys_memops, 4);
	assert_string_equal(l.r->nsys_memops[1].name, "[CUDA memcpy Device-to-Device]");
	assert_true(l.r->nsys_memops[1].total_ns == 66765576.0);
	assert_int_equal(l.r->nsys_memops[1].instances, 21920);
	assert_int_equal(l.r->nsys_memops[1].cls, EVC_MEMORY);
	assert_null(info_get(l.f.info, "events"));	/* no timeline in it */
	assert_int_equal(l.t->diags.count, 0);
	release(&l);
}

/* Current names, CRLF, preamble lines, quoted names with commas, a cut last line. */
static void test_csv_2024(void **state)
{
	static const char fill[] = "void at::native::vectorized_elementwise_kernel<4, "
		"at::native::FillFunctor<float>, at::detail::Array<char*, 1>>(int, "
		"at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";
	static const char nccl[] = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, "
		"unsigned long, ncclWork*)";
	struct loaded l = { .a = ARENA_INIT };
	const struct rank *k;

	(void)state;
	load_text(&l, "report_2024.csv");
	assert_int_equal(l.r->nranks, 2);	/* devices 0 and 1 */
	k = &l.r->ranks[0];
	assert_int_equal(k->dev.index, 0);
	assert_int_equal(k->nev, 4);
	assert_string_equal(k->ev[0].name, fill);
	assert_int_equal(k->ev[0].start, 1000);
	assert_int_equal(k->ev[0].end, 1500);
	assert_int_equal(k->ev[0].bytes, -1);
	assert_string_equal(k->ev[1].name, nccl);
	assert_int_equal(k->ev[1].cls, EVC_COMM);
	assert_int_equal(k->ev[1].coll, COLL_ALLREDUCE);
	assert_int_equal(k->ev[1].dtype, DT_BF16);
	assert_int_equal(k->ev[1].stream, 13);
	assert_true(k->ev[1].launched == LAUNCH_UNKNOWN);	/* a CSV has no runtime calls */
	assert_int_equal(k->ev[2].kind, EV_MEMCPY);
	assert_int_equal(k->ev[2].bytes, 1049000);	/* 1.049 MB */
	assert_int_equal(k->ev[3].kind, EV_MEMSET);
	assert_int_equal(k->ev[3].bytes, 4000);
	assert_int_equal(l.r->ranks[1].dev.index, 1);
	assert_int_equal(l.r->ranks[1].nev, 1);
	assert_int_equal(info_i(info_get(l.f.info, "events"), "kernel"), 3);
	assert_int_equal(info_i(info_get(l.f.info, "events"), "gpu_memcpy"), 1);
	assert_int_equal(info_i(info_get(l.f.info, "events"), "gpu_memset"), 1);
	assert_int_equal(info_i(l.f.info, "comm_kernels"), 1);
	assert_true(info_get(l.f.info, "span_s")->v.d == 5400e-9);
	assert_summary(&l, 0, nccl, 3e-6, 1);
	assert_summary(&l, 1, fill, 5e-7, 1);
	assert_summary(&l, 2, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", 4e-7, 1);
	assert_null(summary(&l, 2)->next);	/* "12.8,50": cut short, not a row */
	release(&l);
}

/* The older names: "Size (MB)", "Stream", "Time(%)", "Operations", all quoted. */
static void test_csv_2021(void **state)
{
	struct loaded l = { .a = ARENA_INIT };
	const struct rank *k;

	(void)state;
	load_text(&l, "report_2021.csv");
	assert_int_equal(l.r->nranks, 1);
	k = &l.r->ranks[0];
	assert_int_equal(k->dev.index, 3);
	assert_int_equal(k->nev, 2);
	assert_int_equal(k->ev[0].coll, COLL_ALLGATHER);
	assert_int_equal(k->ev[0].dtype, DT_FP16);
	assert_int_equal(k->ev[0].stream, 22);
	assert_string_equal(k->ev[1].name, "[CUDA memcpy DtoH]");
	assert_int_equal(k->ev[1].bytes, 524000);
	assert_summary(&l, 0, "[CUDA memcpy DtoH]", 1.5e-6, 1);
	assert_summary(&l, 1, "[CUDA memset]", 1e-7, 2);
	release(&l);
}

/* A summary pasted into a training log, with binary noise after it. */
static void test_csv_in_log(void **state)
{
	struct loaded l = { .a = ARENA_INIT };

	(void)state;
	load_text(&l, "train_with_kern_sum.log");
	assert_true(l.f.read);
	assert_summary(&l, 0, "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn",
		       0.123456789, 1000);
	assert_summary(&l, 1, "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, "
		       "unsigned int, 3, 128, 1>(float *, at::native::(anonymous namespace)::"
		       "CatArrInputTensorMetadata<float, unsigned int, 128, 1>, int, unsigned int)",
		       0.098765432, 2000);
	assert_null(summary(&l, 1)->next);
	assert_int_equal(l.r->nranks, 0);
	release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_names),
		cmocka_unit_test(test_current_schema),
		cmocka_unit_test(test_old_schema),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_row_budget),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_max_events),
		cmocka_unit_test(test_csv_real_mem_time_sum),
		cmocka_unit_test(test_csv_2024),
		cmocka_unit_test(test_csv_2021),
		cmocka_unit_test(test_csv_in_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
