/*
 * The Kineto trace reader: real traces against counts computed
 * independently, hand-made traces of each timestamp era and layout, every
 * chunk size from 1 to 64 bytes, and each kind of bad input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kernels.h"
#include "core/budget.h"
#include "core/buf.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "tests/unit/ingest_fixture.h"
#include "ingest/kineto.h"
#include "tests/unit/skip.h"

#define DATA "tests/data/kineto/"

/* ---- helpers ---- */

struct trace_loaded {
	struct trial *t;
	struct run *r;
	struct arena a;
	struct ingest_file f;
	char path[4096];
	int64_t budget;		/* budget_used() before it was read */
};

/* A file of tests/data, from the repository root (TOP when the runner sets it). */
static void data_path(char *out, size_t size, const char *name)
{
	const char *top = getenv("TOP");

	snprintf(out, size, "%s%s" DATA "%s", top && *top ? top : "", top && *top ? "/" : "",
		 name);
}

/* A real trace of ../shared; skips the test when it is not there. */
static void real_path(char *out, size_t size, const char *name)
{
	const char *shared = getenv("SHARED");
	FILE *f;

	if (!shared || !*shared)
		skip_without_shared();
	snprintf(out, size, "%s/realdata/kineto_trace/%s", shared, name);
	f = fopen(out, "rb");
	if (!f)
		skip_without_shared();
	fclose(f);
}

static struct trace_loaded *trace_load(const char *path)
{
	struct trace_loaded *l = xcalloc(1, sizeof(*l));

	snprintf(l->path, sizeof(l->path), "%s", path);
	l->budget = budget_used();
	l->t = trial_new();
	l->r = trial_add_run(l->t, "run", ".");
	assert_int_equal(ingest_file(l->t, l->r, l->path, &l->a, &l->f), 0);
	assert_string_equal(format_name(l->f.sniff.format), "kineto-trace");
	return l;
}

/* Frees what trace_load() read: the memory budget's count is back where it was. */
static void trace_unload(struct trace_loaded *l)
{
	arena_release(&l->a);
	trial_free(l->t);
	assert_int_equal(budget_used(), l->budget);
	free(l);
}

static int64_t info_i(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_INT);
	return v->v.i;
}

/* An int member, or -1 when it is null. */
static int64_t info_i_or_null(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	if (v->type == INFO_NULL)
		return -1;
	assert_int_equal(v->type, INFO_INT);
	return v->v.i;
}

/* How many diagnostics read exactly `want`. */
static int count_diag(const struct diags *d, const char *want)
{
	struct buf line;
	int n = 0;

	buf_init(&line, 0);
	for (size_t i = 0; i < d->count; i++) {
		buf_reset(&line);
		diag_format(&d->items[i], &line);
		n += !strcmp(line.data, want);
	}
	buf_release(&line);
	return n;
}

static void print_diags(const struct diags *d)
{
	struct buf line;

	buf_init(&line, 0);
	for (size_t i = 0; i < d->count; i++) {
		buf_reset(&line);
		diag_format(&d->items[i], &line);
		print_message("diag: %s\n", line.data);
	}
	buf_release(&line);
}

static const struct gpu_event *find_event(const struct rank *k, const char *name)
{
	for (size_t i = 0; i < k->nev; i++)
		if (!strcmp(k->ev[i].name, name))
			return &k->ev[i];
	fail_msg("no event \"%s\"", name);
	return NULL;
}

static void assert_sorted(const struct rank *k)
{
	for (size_t i = 1; i < k->nev; i++)
		assert_true(k->ev[i - 1].start <= k->ev[i].start);
}

static void dump_rank(struct buf *b, const struct rank *k)
{
	buf_addf(b, "rank %d/%d dev %d %s %lld %d.%d %d\n", (int)k->rank, (int)k->world_size,
		 (int)k->dev.index, k->dev.name ? k->dev.name : "-",
		 (long long)k->dev.memory_total, (int)k->dev.cc_major, (int)k->dev.cc_minor,
		 (int)k->dev.num_sms);
	for (size_t i = 0; i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];

		buf_addf(b, "ev %lld %lld %s op=%s in=%s dims=%s c=%lld b=%lld s=%d d=%d st=%d g=%d "
			 "%d%d%d%d\n",
			 (long long)e->start, (long long)e->end, e->name, ev_op_name(e) ? ev_op_name(e) : "-",
			 ev_input_types(e) ? ev_input_types(e) : "-", ev_input_dims(e) ? ev_input_dims(e) : "-",
			 (long long)e->correlation,
			 (long long)e->bytes, (int)e->stream, (int)e->device, (int)e->step,
			 (int)e->group, e->kind, e->cls, e->dtype, e->coll);
	}
	for (size_t i = 0; i < k->nsteps; i++)
		buf_addf(b, "step %lld %lld %lld %d\n", (long long)k->steps[i].number,
			 (long long)k->steps[i].start, (long long)k->steps[i].end,
			 k->steps[i].source);
	for (size_t i = 0; i < k->nmem; i++)
		buf_addf(b, "mem %lld %lld %lld %d\n", (long long)k->mem[i].ts,
			 (long long)k->mem[i].allocated, (long long)k->mem[i].reserved,
			 (int)k->mem[i].device);
}

static void dump_group(struct buf *b, const struct process_group *g)
{
	buf_addf(b, "group %s %s %d", g->name, g->desc ? g->desc : "-", (int)g->size);
	for (size_t i = 0; i < g->nranks; i++)
		buf_addf(b, "%c%d", i ? ',' : ' ', (int)g->ranks[i]);
	buf_addch(b, '\n');
}

/* The info tree as text: the test's own, so that it depends on no renderer. */
static void dump_info(struct buf *b, const struct info *n)
{
	if (n->key)
		buf_addf(b, "%s=", n->key);
	switch (n->type) {
	case INFO_NULL:
		buf_addstr(b, "null");
		break;
	case INFO_BOOL:
		buf_addstr(b, n->v.b ? "true" : "false");
		break;
	case INFO_INT:
		buf_addf(b, "%lld", (long long)n->v.i);
		break;
	case INFO_NUM:
		buf_addf(b, "%.17g", n->v.d);
		break;
	case INFO_STR:
		buf_addf(b, "\"%s\"", n->v.s ? n->v.s : "(null)");
		break;
	case INFO_ARR:
	case INFO_OBJ:
		buf_addch(b, n->type == INFO_ARR ? '[' : '{');
		for (const struct info *c = n->child; c; c = c->next) {
			dump_info(b, c);
			buf_addch(b, ' ');
		}
		buf_addch(b, n->type == INFO_ARR ? ']' : '}');
		break;
	}
}

/*
 * Feeds data to the reader `chunk` bytes at a time (0: all at once) and
 * returns everything it produced as text: the model, the info, the diagnostics.
 */
static char *digest(const char *data, size_t len, size_t chunk)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "run", ".");
	struct arena a = ARENA_INIT;
	struct ingest_ctx ctx = { .trial = t, .run = r, .path = "mem", .diags = &t->diags,
				  .arena = &a };
	struct buf b;
	void *st;

	ctx.info = info_root(&a);
	ctx.src = run_add_source(r, "mem", "kineto-trace");
	st = kineto_reader.open(&ctx);
	assert_non_null(st);
	for (size_t off = 0, n; off < len; off += n) {
		n = chunk && len - off > chunk ? chunk : len - off;
		if (kineto_reader.feed(st, data + off, n) < 0)
			break;
	}
	kineto_reader.finish(st);
	kineto_reader.free(st);
	buf_init(&b, 0);
	for (size_t i = 0; i < r->nranks; i++)
		dump_rank(&b, &r->ranks[i]);
	for (size_t i = 0; i < t->ngroups; i++)
		dump_group(&b, &t->groups[i]);
	dump_info(&b, ctx.info);
	for (size_t i = 0; i < t->diags.count; i++) {
		buf_addch(&b, '\n');
		diag_format(&t->diags.items[i], &b);
	}
	buf_addf(&b, "\nsource %lld %lld\n", (long long)r->sources[0].events,
		 (long long)r->sources[0].errors);
	arena_release(&a);
	trial_free(t);
	return buf_detach(&b);
}

/* ---- exact numbers ---- */

static void test_us_to_ns(void **state)
{
	int64_t v;

	(void)state;
	/* the ns-resolution era: 19 digits, more than a double holds */
	assert_int_equal(kineto_us_to_ns("1712195495505583.123", 20, &v), 0);
	assert_int_equal(v, 1712195495505583123LL);
	assert_int_equal(kineto_us_to_ns("1712195495505583", 16, &v), 0);
	assert_int_equal(v, 1712195495505583000LL);
	assert_int_equal(kineto_us_to_ns("4203669604595.407", 17, &v), 0);
	assert_int_equal(v, 4203669604595407LL);
	assert_int_equal(kineto_us_to_ns("68.0", 4, &v), 0);
	assert_int_equal(v, 68000);
	assert_int_equal(kineto_us_to_ns("12.0005", 7, &v), 0);	/* half a ns rounds up */
	assert_int_equal(v, 12001);
	assert_int_equal(kineto_us_to_ns("12.00049", 8, &v), 0);
	assert_int_equal(v, 12000);
	assert_int_equal(kineto_us_to_ns("-2.0005", 7, &v), 0);
	assert_int_equal(v, -2001);
	assert_int_equal(kineto_us_to_ns("1.5e3", 5, &v), 0);
	assert_int_equal(v, 1500000);
	assert_int_equal(kineto_us_to_ns("1712195495505583123E-3", 22, &v), 0);
	assert_int_equal(v, 1712195495505583123LL);
	assert_int_equal(kineto_us_to_ns("0.0000004", 9, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kineto_us_to_ns("0", 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kineto_us_to_ns("1e300", 5, &v), -1);	/* does not fit */
	assert_int_equal(kineto_us_to_ns("99999999999999999", 17, &v), -1);
	assert_int_equal(kineto_us_to_ns("", 0, &v), -1);
	assert_int_equal(kineto_us_to_ns("-", 1, &v), -1);
	assert_int_equal(kineto_us_to_ns("1.2.3", 5, &v), -1);
}

/* The one-pass reading of the usual numbers agrees with the digit-by-digit one at its edges. */
static void test_us_to_ns_edges(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(kineto_us_to_ns("9223372036854775.807", 20, &v), 0);
	assert_int_equal(v, INT64_MAX);
	assert_int_equal(kineto_us_to_ns("-9223372036854775.807", 21, &v), 0);
	assert_int_equal(v, -INT64_MAX);
	assert_int_equal(kineto_us_to_ns("9223372036854775.808", 20, &v), -1);
	assert_int_equal(kineto_us_to_ns("9223372036854775.8074", 21, &v), 0);
	assert_int_equal(v, INT64_MAX);
	assert_int_equal(kineto_us_to_ns("9223372036854775.8075", 21, &v), -1);	/* rounds past */
	assert_int_equal(kineto_us_to_ns("0.9995", 6, &v), 0);	/* the carry reaches the µs */
	assert_int_equal(v, 1000);
	assert_int_equal(kineto_us_to_ns("0.0005", 6, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(kineto_us_to_ns("-0.0005", 7, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(kineto_us_to_ns("-0", 2, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kineto_us_to_ns("-1500", 5, &v), 0);
	assert_int_equal(v, -1500000);
	assert_int_equal(kineto_us_to_ns("00012.5", 7, &v), 0);
	assert_int_equal(v, 12500);
	assert_int_equal(kineto_us_to_ns("12345678901234567", 17, &v), -1);	/* 17 digits of µs */
	assert_int_equal(kineto_us_to_ns("1234567890123456.7", 18, &v), 0);
	assert_int_equal(v, 1234567890123456700LL);
	assert_int_equal(kineto_us_to_ns("15E2", 4, &v), 0);
	assert_int_equal(v, 1500000);
	assert_int_equal(kineto_us_to_ns("1.5e-3", 6, &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(kineto_us_to_ns("7.00000000000000000000000000000000000000000001", 46, &v),
			 0);	/* more fraction digits than a digit buffer holds */
	assert_int_equal(v, 7000);
	assert_int_equal(kineto_us_to_ns("1.5x", 4, &v), -1);
	assert_int_equal(kineto_us_to_ns("98765432.1", 10, &v), 0);	/* eight digits at once */
	assert_int_equal(v, 98765432100LL);
	assert_int_equal(kineto_us_to_ns("9876543:1", 9, &v), -1);	/* ':' follows '9' */
	assert_int_equal(kineto_us_to_ns("1234567/12", 10, &v), -1);	/* '/' precedes '0' */
	assert_int_equal(kineto_us_to_ns("1234567812345678", 16, &v), 0);
	assert_int_equal(v, 1234567812345678000LL);
}

/*
 * Keys in any order, unknown members whose objects and arrays hold keys the
 * reader knows (skipped whole), escapes in names and args, the 2021 layout's
 * capitals where args and categories allow them, and none in an event's keys.
 */
static void test_key_order(void **state)
{
	char path[4096], want[4200];
	struct trace_loaded *l;
	const struct rank *k;
	const struct gpu_event *e;

	(void)state;
	data_path(path, sizeof(path), "order.json");
	l = trace_load(path);
	assert_int_equal(l->r->nranks, 1);
	k = &l->r->ranks[0];
	assert_int_equal(k->nev, 2);
	e = &k->ev[0];
	assert_string_equal(e->name, "gemm<\"half\">!");
	assert_int_equal(e->start, 105001);
	assert_int_equal(e->end, 108251);
	assert_int_equal(e->stream, 7);
	assert_int_equal(e->device, 0);
	assert_int_equal(e->launched, 102000);	/* its launch, correlation 42, at 102 us */
	assert_string_equal(ev_op_name(e), "aten::mm");
	assert_string_equal(ev_input_types(e), "c10::Half, Scalar");
	assert_string_equal(ev_input_dims(e), "[[4096,1024],[]]");
	e = &k->ev[1];
	assert_string_equal(e->name, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
	assert_int_equal(e->start, 200000);
	assert_int_equal(e->cls, EVC_COMM);
	assert_int_equal(e->coll, COLL_ALLREDUCE);
	assert_int_equal(e->dtype, DT_FP32);
	assert_int_equal(e->bytes, 4096);
	assert_int_equal(e->stream, 9);
	assert_int_equal(info_i(info_get(l->f.info, "events"), "kernel"), 2);
	assert_int_equal(info_i(info_get(l->f.info, "events"), "cpu_op"), 1);
	snprintf(want, sizeof(want), "%s: byte 1094: warning: event \"upper-case ts is no ts\" "
		 "has no usable \"ts\": skipped", path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	assert_int_equal(l->t->diags.count, 1);
	trace_unload(l);
}

/*
 * Correlation ids past 32 bits (kept apart from the launches' 32-bit field)
 * link to their own launch, not to the one of their low 32 bits, and so do
 * the largest 32-bit ids; a kernel whose id no launch has gets no op.
 */
static void test_big_correlation(void **state)
{
	static const struct { const char *kernel, *op; int64_t launched; } want[] = {
		{ "k_big", "aten::mm", 110000 },	/* correlation 5000000000 */
		{ "k_low", "aten::add", 210000 },	/* 5000000000 mod 2^32 */
		{ "k_max", "aten::relu", 310000 },	/* 4294967295 */
		{ "k_under", "aten::sub", 410000 },	/* 4294967294 */
		{ "k_none", NULL, LAUNCH_UNKNOWN },	/* 9000000000: no launch has it */
	};
	char path[4096];
	struct trace_loaded *l;

	(void)state;
	data_path(path, sizeof(path), "big-corr.json");
	l = trace_load(path);
	assert_int_equal(l->r->nranks, 1);
	assert_int_equal(l->r->ranks[0].nev, 5);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct gpu_event *e = find_event(&l->r->ranks[0], want[i].kernel);

		assert_non_null(e);
		assert_int_equal(e->launched, want[i].launched);
		if (want[i].op)
			assert_string_equal(ev_op_name(e), want[i].op);
		else
			assert_null(ev_op_name(e));
	}
	trace_unload(l);
}

/*
 * Ops found again by the text of their name, input types and dims: a repeat
 * gets the site of its first, other dims a site of their own, a name with a
 * NUL inside is the name before it (as interned, found the long way), an op
 * without args none; each kernel names its launching op's.
 */
static void test_op_sites(void **state)
{
	static const struct { const char *kernel, *op, *types, *dims; } want[] = {
		{ "k1", "aten::mm", "float, float", "[[2,3],[3,4]]" },
		{ "k2", "aten::mm", "float, float", "[[2,3],[3,4]]" },
		{ "k3", "aten::mm", "float, float", "[[2,3],[3,5]]" },
		{ "k4", "aten::mm", "float, float", "[[2,3],[3,4]]" },
		{ "k5", "aten::mm", "float, float", "[[2,3],[3,4]]" },
		{ "k6", "aten::add", NULL, NULL },
		{ "k7", "aten::add", NULL, NULL },
		{ "k8", "aten::mm", "float, float", "[[2,3],[3,4]]" },
	};
	const struct gpu_event *first = NULL;
	char path[4096];
	struct trace_loaded *l;

	(void)state;
	data_path(path, sizeof(path), "sites.json");
	l = trace_load(path);
	assert_int_equal(l->r->ranks[0].nev, 8);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct gpu_event *e = find_event(&l->r->ranks[0], want[i].kernel);

		assert_non_null(e);
		assert_non_null(e->op);
		assert_string_equal(ev_op_name(e), want[i].op);
		if (want[i].types) {
			assert_string_equal(ev_input_types(e), want[i].types);
			assert_string_equal(ev_input_dims(e), want[i].dims);
		} else {
			assert_null(ev_input_types(e));
			assert_null(ev_input_dims(e));
		}
		if (i == 0)
			first = e;
		else if (want[i].dims && !strcmp(want[i].dims, ev_input_dims(first)))
			assert_ptr_equal(ev_input_dims(e), ev_input_dims(first));	/* one interned copy */
	}
	trace_unload(l);
}

/* ---- hand-made traces: one per timestamp era ---- */

/* 2021 layout: "Kernel"/"Runtime"/"Operator", "external id", tid "stream 7"; integer µs. */
static void test_era_2021(void **state)
{
	char path[4096];
	struct trace_loaded *l;
	const struct rank *k;
	const struct gpu_event *e;

	(void)state;
	data_path(path, sizeof(path), "era-2021.json");
	l = trace_load(path);
	assert_int_equal(l->r->nranks, 1);
	k = &l->r->ranks[0];
	assert_int_equal(k->rank, -1);
	assert_int_equal(info_i_or_null(l->f.info, "rank"), -1);
	assert_int_equal(k->nev, 3);
	assert_sorted(k);
	e = find_event(k, "volta_sgemm_64x64_nn");
	assert_int_equal(e->start, 1621401187223150000LL);
	assert_int_equal(e->end, 1621401187223180000LL);
	assert_string_equal(ev_op_name(e), "aten::mm");
	assert_string_equal(ev_input_types(e), "float, float");
	assert_string_equal(ev_input_dims(e), "[[32,64],[64,16]]");
	assert_int_equal(e->step, 1);
	assert_int_equal(e->stream, 7);
	assert_int_equal(e->device, 0);
	assert_int_equal(e->cls, EVC_COMPUTE);
	e = find_event(k, "Memcpy DtoH (Device -> Pageable)");
	assert_int_equal(e->kind, EV_MEMCPY);
	assert_int_equal(e->cls, EVC_MEMORY);
	assert_int_equal(e->bytes, 4096);
	assert_int_equal(e->step, 1);
	assert_null(ev_op_name(e));	/* its external id names no op, and no op encloses it */
	e = find_event(k, "Memset (Device)");
	assert_int_equal(e->kind, EV_MEMSET);
	assert_int_equal(e->bytes, 128);
	assert_int_equal(e->step, -1);	/* launched after ProfilerStep#1 ended */
	assert_int_equal(e->device, 0);	/* from its pid */
	assert_int_equal(e->stream, 7);	/* from args */
	assert_int_equal(k->nsteps, 1);
	assert_int_equal(k->steps[0].number, 1);
	assert_int_equal(k->steps[0].source, STEP_CPU_ANNOTATION);
	assert_int_equal(info_i(info_get(l->f.info, "events"), "cpu_op"), 2);
	assert_int_equal(info_i(info_get(l->f.info, "events"), "cuda_runtime"), 3);
	assert_int_equal(info_i(l->f.info, "steps"), 1);
	assert_true(info_get(l->f.info, "span_s")->v.d == 520e-6);
	assert_int_equal(l->t->diags.count, 0);
	trace_unload(l);
}

/* Absolute µs with ns digits; the rank's own device is the second entry. */
static void test_era_frac(void **state)
{
	char path[4096];
	struct trace_loaded *l;
	const struct rank *k;
	const struct gpu_event *e;

	(void)state;
	data_path(path, sizeof(path), "era-frac.json");
	l = trace_load(path);
	k = &l->r->ranks[0];
	assert_int_equal(k->rank, 1);
	assert_int_equal(k->world_size, 2);
	assert_int_equal(k->dev.index, 1);
	assert_string_equal(k->dev.name, "NVIDIA H200");
	assert_int_equal(k->dev.memory_total, 150754820096LL);
	assert_int_equal(k->dev.cc_major, 9);
	assert_int_equal(k->dev.cc_minor, 0);
	assert_int_equal(k->dev.num_sms, 132);
	assert_string_equal(l->r->nccl_version.v, "2.21.5");
	assert_int_equal(k->nev, 5);
	assert_sorted(k);
	e = find_event(k, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64");
	assert_int_equal(e->start, 1712195495505583123LL);
	assert_int_equal(e->end, 1712195495505595124LL);	/* dur 12.0005 µs */
	assert_string_equal(ev_op_name(e), "aten::addmm");
	assert_string_equal(ev_input_types(e), "c10::BFloat16, c10::BFloat16, c10::BFloat16, Scalar");
	assert_string_equal(ev_input_dims(e), "[[1024],[8,512],[512,1024],[],[]]");
	assert_int_equal(e->step, 3);
	assert_int_equal(e->cls, EVC_COMPUTE);
	e = find_event(k, "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)");
	assert_int_equal(e->cls, EVC_COMM);	/* the collective comes from record_param_comms */
	assert_int_equal(e->coll, COLL_ALLREDUCE);
	assert_int_equal(e->dtype, DT_BF16);
	assert_int_equal(e->bytes, 1048576 * 2);
	assert_string_equal(ev_op_name(e), "record_param_comms");
	assert_int_equal(e->stream, 20);
	/* its process group: record_param_comms' numeric "Process Group ID" 0, as "0" */
	assert_int_equal(e->group, 1);
	assert_int_equal(l->t->ngroups, 1);
	assert_string_equal(l->t->groups[0].name, "0");
	e = find_event(k, "triton_poi_fused_1");	/* one of two kernels of a graph launch */
	assert_int_equal(e->launched, 1712195495505800000LL);	/* the graph launch, correlation 22 */
	assert_int_equal(e->step, 3);
	assert_null(ev_op_name(e));
	e = find_event(k, "Memset (Device)");
	assert_int_equal(e->step, -1);	/* no launch in the trace */
	assert_int_equal(e->bytes, 64);
	assert_int_equal(k->nmem, 1);	/* the CPU sample (Device Type 0) is left out */
	assert_int_equal(k->mem[0].ts, 1712195495505511000LL);
	assert_int_equal(k->mem[0].allocated, 1048576);
	assert_int_equal(k->mem[0].reserved, 2097152);
	assert_int_equal(k->mem[0].device, 1);
	assert_int_equal(info_i(l->f.info, "comm_kernels"), 1);
	assert_int_equal(info_i(l->f.info, "memory_events"), 1);
	assert_string_equal(info_get(l->f.info, "nccl_version")->v.s, "2.21.5");
	assert_true(info_get(l->f.info, "span_s")->v.d == 1021499e-9);
	assert_int_equal(l->t->diags.count, 0);
	trace_unload(l);
}

/* Relative µs, baseTimeNanoseconds after traceEvents; ROCm; symmetric memory. */
static void test_era_base(void **state)
{
	static const int64_t base = 1735632360000000000LL;
	char path[4096];
	struct trace_loaded *l;
	const struct rank *k;
	const struct gpu_event *e;
	struct info *dev;

	(void)state;
	data_path(path, sizeof(path), "era-base.json");
	l = trace_load(path);
	k = &l->r->ranks[0];
	assert_int_equal(k->rank, 2);
	assert_int_equal(k->world_size, 4);
	assert_int_equal(k->dev.index, 2);
	assert_string_equal(k->dev.name, "AMD Instinct MI300X");
	assert_int_equal(k->nev, 5);
	assert_sorted(k);
	e = &k->ev[0];
	assert_string_equal(e->name, "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
	assert_int_equal(e->start, base + 1120000);
	assert_int_equal(e->coll, COLL_ALLGATHER);
	assert_int_equal(e->dtype, DT_FP32);	/* from the enclosing record_param_comms */
	assert_int_equal(e->bytes, 1024 * 4);	/* Out msg nelems, the larger */
	assert_string_equal(ev_op_name(e), "c10d::_allgather_base_impl");
	assert_int_equal(e->step, 10);
	assert_int_equal(e->group, 1);	/* "Process Group Name" of its record_param_comms */
	assert_string_equal(l->t->groups[0].name, "0");
	e = find_event(k, "ncclSymkDevKernel_AllReduce_RSxLD_AGxST_bf16");
	assert_int_equal(e->coll, COLL_ALLREDUCE);
	assert_int_equal(e->dtype, DT_BF16);
	assert_int_equal(e->bytes, 4096 * 2);
	assert_int_equal(e->step, 11);
	e = find_event(k, "void c10d::symmetric_memory::multimem_all_reduce_kernel<float, 16>(float*, unsigned long, unsigned long, unsigned long)");
	assert_int_equal(e->cls, EVC_COMM);
	assert_int_equal(e->coll, COLL_ALLREDUCE);
	assert_int_equal(e->bytes, -1);
	e = find_event(k, "Cijk_Ailk_Bljk_BBS_BH_MT128x128x32");
	assert_int_equal(e->cls, EVC_COMPUTE);
	assert_int_equal(e->step, 11);
	assert_int_equal(e->end - e->start, 40500);
	assert_int_equal(k->nsteps, 3);
	assert_int_equal(k->steps[0].number, 10);
	assert_int_equal(k->steps[0].start, base + 1000000);
	assert_int_equal(k->steps[0].source, STEP_CPU_ANNOTATION);
	assert_int_equal(k->steps[1].number, 10);
	assert_int_equal(k->steps[1].source, STEP_GPU_ANNOTATION);
	assert_int_equal(k->steps[2].number, 11);
	assert_int_equal(k->nmem, 1);
	assert_int_equal(k->mem[0].ts, base + 1111500);
	assert_int_equal(k->mem[0].allocated, 3145728);
	assert_int_equal(info_i(l->f.info, "steps"), 2);
	assert_int_equal(info_i(l->f.info, "comm_kernels"), 3);
	assert_int_equal(info_get(l->f.info, "nccl_version")->type, INFO_NULL);
	dev = info_get(l->f.info, "devices");
	assert_non_null(dev->child);
	assert_string_equal(info_get(dev->child, "compute_capability")->v.s, "9.4");
	assert_int_equal(info_i(dev->child, "memory_total_bytes"), 206141652992LL);
	trace_unload(l);
}

/* Every chunk size from 1 to 64 bytes gives what one whole buffer gives. */
static void test_chunks(void **state)
{
	static const char *const files[] = { "era-2021.json", "era-frac.json", "era-base.json",
					     "deep.json", "invalid.json", "bare.json",
					     "edge-times.json", "pg-config.json", "pg-after.json",
					     "order.json", "mi300x-remap/mi300x.pt.trace.json" };
	char path[4096];

	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		size_t len;
		char *data;
		char *whole;

		data_path(path, sizeof(path), files[f]);
		data = read_file(path, &len);
		whole = digest(data, len, 0);
		assert_non_null(strstr(whole, "events={"));
		for (size_t chunk = 1; chunk <= 64; chunk++) {
			char *part = digest(data, len, chunk);

			if (strcmp(whole, part))
				fail_msg("%s in chunks of %zu:\n%s\nwhole:\n%s", files[f], chunk,
					 part, whole);
			free(part);
		}
		free(whole);
		free(data);
	}
}

/* CRLF line ends are JSON whitespace: the same as the LF file. */
static void test_crlf(void **state)
{
	char path[4096];
	size_t la, lb;
	char *a, *b, *da, *db;

	(void)state;
	data_path(path, sizeof(path), "era-2021.json");
	a = read_file(path, &la);
	data_path(path, sizeof(path), "crlf.json");
	b = read_file(path, &lb);
	assert_true(lb > la);
	da = digest(a, la, 0);
	db = digest(b, lb, 7);
	assert_string_equal(da, db);
	free(a);
	free(b);
	free(da);
	free(db);
}

/* ---- bad input ---- */

static void test_invalid_json(void **state)
{
	char path[4096], want[16384];
	struct trace_loaded *l;

	(void)state;
	data_path(path, sizeof(path), "invalid.json");
	l = trace_load(path);
	snprintf(want, sizeof(want), "%s: byte 175: invalid JSON: parse error: after key and "
		 "value, inside map, I expect ',' or '}'", path);
	print_diags(&l->t->diags);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	assert_int_equal(l->t->diags.count, 1);	/* one message, then stop */
	assert_int_equal(l->r->ranks[0].nev, 1);	/* the event before it is kept */
	assert_int_equal(l->r->sources[0].errors, 1);
	trace_unload(l);
}

static void test_binary_noise(void **state)
{
	char path[4096], want[16384];
	struct trace_loaded *l;

	(void)state;
	data_path(path, sizeof(path), "garbage.json");
	l = trace_load(path);
	snprintf(want, sizeof(want),
		 "%s: byte 166: invalid JSON: lexical error: invalid character inside string", path);
	print_diags(&l->t->diags);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	assert_int_equal(l->r->ranks[0].nev, 1);
	trace_unload(l);
}

/* A gzip cut in the middle: what was read is kept, the cut is named by its byte. */
static void test_truncated_gzip(void **state)
{
	char path[4096], want[16384];
	struct trace_loaded *l;
	const struct rank *k;

	(void)state;
	data_path(path, sizeof(path), "cut.json.gz");
	l = trace_load(path);
	/* 294397: python3 zlib.decompressobj(31).decompress() of the cut file's bytes;
	 * 1481: the complete events in those bytes */
	snprintf(want, sizeof(want), "%s: byte 294397: the trace ends inside its JSON "
		 "(parse error: premature EOF): the 1481 events before are kept", path);
	print_diags(&l->t->diags);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	k = &l->r->ranks[0];
	assert_int_equal(k->rank, 0);
	assert_int_equal(k->nev, 1481);
	assert_sorted(k);
	assert_int_equal(k->ev[1480].start, (1000000 + 10 * 1480) * 1000LL);
	assert_int_equal(info_i(info_get(l->f.info, "events"), "kernel"), 1481);
	trace_unload(l);
}

static void test_no_gpu_events(void **state)
{
	char path[4096], want[16384];
	struct trace_loaded *l;

	(void)state;
	data_path(path, sizeof(path), "nogpu.json");
	l = trace_load(path);
	snprintf(want, sizeof(want), "%s: warning: no GPU activity in the trace (CPU-only profile)",
		 path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	assert_int_equal(l->t->diags.count, 1);
	assert_int_equal(l->r->ranks[0].rank, 3);
	assert_int_equal(l->r->ranks[0].nev, 0);
	assert_int_equal(l->r->ranks[0].dev.index, -1);
	assert_int_equal(info_i(l->f.info, "steps"), 1);
	assert_int_equal(info_get(l->f.info, "devices")->child, NULL);
	trace_unload(l);
}

/* Deep nesting is skipped whole; events without a usable ts are counted and named. */
static void test_deep_and_bad_events(void **state)
{
	char path[4096], want[16384];
	struct trace_loaded *l;
	const struct gpu_event *e;

	(void)state;
	data_path(path, sizeof(path), "deep.json");
	l = trace_load(path);
	assert_int_equal(l->r->ranks[0].nev, 3);
	e = find_event(&l->r->ranks[0], "k_deep");
	assert_int_equal(e->launched, 25000);	/* correlation 5, read after 100 levels of arrays, linked */
	assert_null(ev_input_types(e));
	e = find_event(&l->r->ranks[0], "k_after");
	assert_int_equal(e->start, 50000);
	snprintf(want, sizeof(want), "%s: byte 741: warning: event \"no_ts\" has no usable "
		 "\"ts\": skipped", path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	snprintf(want, sizeof(want), "%s: byte 818: warning: event \"huge_ts\" has no usable "
		 "\"ts\": skipped", path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	assert_int_equal(l->r->sources[0].errors, 2);
	trace_unload(l);
}

/*
 * "Input Dims" nested 71 arrays deep: the 60 that fall within the reader's
 * 64 levels are kept, closed as they were opened; the deeper ones (and the
 * number inside them) are skipped whole.
 */
static void test_deep_dims(void **state)
{
	char path[4096], want[128];
	struct trace_loaded *l;
	const struct gpu_event *e;

	(void)state;
	data_path(path, sizeof(path), "deep-dims.json");
	l = trace_load(path);
	e = find_event(&l->r->ranks[0], "k_dims");
	assert_string_equal(ev_op_name(e), "aten::deep");
	memset(want, '[', 60);
	memset(want + 60, ']', 60);
	want[120] = '\0';
	assert_string_equal(ev_input_dims(e), want);
	trace_unload(l);
}

/* Times that would overflow int64 once the base is added are refused, and said. */
static void test_edge_times(void **state)
{
	char path[4096], want[16384];
	struct trace_loaded *l;

	(void)state;
	data_path(path, sizeof(path), "edge-times.json");
	l = trace_load(path);
	assert_int_equal(l->r->ranks[0].nev, 1);
	assert_int_equal(l->r->ranks[0].ev[0].start, 5000);	/* the bad base is not added */
	assert_int_equal(l->r->ranks[0].nmem, 0);	/* its ts is out of range */
	assert_int_equal(l->r->sources[0].errors, 2);
	snprintf(want, sizeof(want), "%s: byte 130: warning: event \"k_far\" has no usable "
		 "\"ts\": skipped", path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	snprintf(want, sizeof(want), "%s: byte 256: warning: event \"k_long\" has no usable "
		 "\"dur\": skipped", path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	snprintf(want, sizeof(want), "%s: warning: \"baseTimeNanoseconds\" is out of range: "
		 "times are kept relative", path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	assert_int_equal(l->t->diags.count, 3);
	trace_unload(l);
}

/* Two traces of one rank are kept apart and said. */
static void test_duplicate_rank(void **state)
{
	char path[4096], want[16384];
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "run", ".");
	struct arena a = ARENA_INIT;
	struct ingest_file f;

	(void)state;
	data_path(path, sizeof(path), "era-frac.json");
	assert_int_equal(ingest_file(t, r, path, &a, &f), 0);
	assert_int_equal(ingest_file(t, r, path, &a, &f), 0);
	assert_int_equal(r->nranks, 2);
	assert_int_equal(r->ranks[0].rank, 1);
	assert_int_equal(r->ranks[1].rank, 1);
	assert_int_equal(r->ranks[0].nev, 5);
	assert_int_equal(r->ranks[1].nev, 5);
	snprintf(want, sizeof(want), "%s: warning: rank 1 was already read from \"%s\": the two "
		 "traces are kept apart", path, path);
	assert_int_equal(count_diag(&t->diags, want), 1);
	arena_release(&a);
	trial_free(t);
}

/* ---- process groups (pg_config) and ROCm copy sizes ---- */

/* The group of the communication kernel named name. */
static const struct process_group *group_of_kernel(const struct trace_loaded *l, const char *name)
{
	const struct gpu_event *e = find_event(&l->r->ranks[0], name);

	assert_true(e->group > 0 && e->group <= l->t->ngroups);
	return &l->t->groups[e->group - 1];
}

/*
 * pg_config before traceEvents: each kernel's "Process Group Name" finds
 * its group with size and ranks; a name pg_config lacks is known by name
 * alone; a rank list with a negative rank is dropped, its size kept.
 */
static void test_pg_config(void **state)
{
	char path[4096];
	struct trace_loaded *l;
	const struct process_group *g;
	const struct info *groups, *o;
	const struct rank *k;

	(void)state;
	data_path(path, sizeof(path), "pg-config.json");
	l = trace_load(path);
	k = &l->r->ranks[0];
	assert_int_equal(k->rank, 3);
	g = group_of_kernel(l, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
	assert_string_equal(g->name, "1");
	assert_string_equal(g->desc, "tp");
	assert_int_equal(g->size, 2);
	assert_int_equal(g->nranks, 2);
	assert_int_equal(g->ranks[0], 2);
	assert_int_equal(g->ranks[1], 3);
	g = group_of_kernel(l, "ncclDevKernel_AllGather_RING_LL");
	assert_string_equal(g->name, "0");
	assert_string_equal(g->desc, "default_pg");
	assert_int_equal(g->size, 4);
	assert_int_equal(g->nranks, 4);
	g = group_of_kernel(l, "ncclDevKernel_SendRecv_Sum_i8_RING_SIMPLE");
	assert_string_equal(g->name, "9");	/* not in pg_config */
	assert_int_equal(g->size, -1);
	assert_null(g->ranks);
	g = group_of_kernel(l, "ncclDevKernel_Broadcast_RING_LL");
	assert_string_equal(g->name, "3");
	assert_int_equal(g->size, 2);
	assert_null(g->ranks);	/* [-1, 3] */
	assert_int_equal(l->t->ngroups, 4);	/* "2" (pp) has no collective here */
	/* inspect: all four, as pg_config lists them; the nested "extra" is not read */
	groups = info_get(l->f.info, "groups");
	assert_int_equal(groups->type, INFO_ARR);
	o = groups->child;
	assert_string_equal(info_get(o, "name")->v.s, "0");
	assert_string_equal(info_get(o, "description")->v.s, "default_pg");
	assert_int_equal(info_i(o, "size"), 4);
	assert_string_equal(info_get(o, "ranks")->v.s, "0-3");
	o = o->next->next;
	assert_string_equal(info_get(o, "name")->v.s, "2");
	assert_int_equal(info_i(o, "size"), 2);
	assert_string_equal(info_get(o, "ranks")->v.s, "1, 3");
	o = o->next;
	assert_string_equal(info_get(o, "name")->v.s, "3");
	assert_int_equal(info_get(o, "ranks")->type, INFO_NULL);
	assert_null(o->next);
	assert_int_equal(info_i(l->f.info, "process_groups"), 4);
	/* copies: the launching call's "size" where the copy has no "bytes" (ROCm) */
	assert_int_equal(find_event(k, "Memcpy HtoD (Host -> Device)")->bytes, 4096);
	assert_int_equal(find_event(k, "Memset (Device)")->bytes, 512);
	assert_int_equal(find_event(k, "Memcpy DtoD (Device -> Device)")->bytes, 100);
	assert_int_equal(find_event(k, "Memcpy DtoH (Device -> Host)")->bytes, -1);	/* "0x10" */
	assert_int_equal(l->t->diags.count, 0);
	trace_unload(l);
}

/*
 * The April 2024 layout: distributedInfo after traceEvents, "uid" for
 * "pg_desc", a numeric pg_name, and "Process Group ID" on record_param_comms.
 */
static void test_pg_after(void **state)
{
	char path[4096];
	struct trace_loaded *l;
	const struct process_group *g;
	const struct info *o;

	(void)state;
	data_path(path, sizeof(path), "pg-after.json");
	l = trace_load(path);
	g = group_of_kernel(l, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
	assert_string_equal(g->name, "0");
	assert_null(g->desc);
	assert_int_equal(g->size, 2);
	assert_int_equal(g->nranks, 2);
	g = group_of_kernel(l, "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)");
	assert_string_equal(g->name, "1");
	assert_int_equal(g->size, 1);
	assert_int_equal(g->ranks[0], 1);
	o = info_get(l->f.info, "groups")->child->next;
	assert_string_equal(info_get(o, "name")->v.s, "1");
	assert_int_equal(info_get(o, "description")->type, INFO_NULL);
	assert_string_equal(info_get(o, "ranks")->v.s, "1");
	trace_unload(l);
}

/* Group "0" of two traces with other members: two entries of the trial, not one. */
static void test_pg_two_traces(void **state)
{
	char path[4096];
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "run", ".");
	struct arena a = ARENA_INIT;
	struct ingest_file f;
	size_t zeros = 0;

	(void)state;
	data_path(path, sizeof(path), "pg-config.json");
	assert_int_equal(ingest_file(t, r, path, &a, &f), 0);
	data_path(path, sizeof(path), "pg-after.json");
	assert_int_equal(ingest_file(t, r, path, &a, &f), 0);
	assert_int_equal(ingest_file(t, r, path, &a, &f), 0);	/* the same members again */
	for (size_t i = 0; i < t->ngroups; i++)
		zeros += !strcmp(t->groups[i].name, "0");
	assert_int_equal(zeros, 2);
	assert_int_equal(t->ngroups, 6);	/* 1, 0 (4 ranks), 9, 3; then 0 (2 ranks), 1 (1 rank) */
	arena_release(&a);
	trial_free(t);
}

/* ---- real traces ---- */

struct truth {
	const char *file;
	int64_t kernel, memcpy, memset, cpu_op, runtime, driver;
	int64_t comm, steps, memory, rank, world;
	const char *device;	/* the rank's own device; NULL when the trace has none */
	int64_t in_step;	/* GPU events whose launch lies in a CPU ProfilerStep */
	int64_t first;		/* start of the first GPU event, ns; -1 none */
	int64_t comm_bytes;	/* sum of the communication kernels' message bytes */
	int64_t copy_bytes;	/* sum of memcpy and memset bytes (ROCm: the hipMemcpy's "size") */
	int64_t groups;		/* pg_config entries; -1 none */
	int64_t comm_sized;	/* communication kernels whose group pg_config sizes */
	int64_t group_size;	/* that size when they share one; -1 */
};

/*
 * Computed once by tests/data/kineto/truth.py (Python's json module over the
 * whole file, Decimal for the times), independently of this reader:
 *   python3 tests/data/kineto/truth.py ../shared/realdata/kineto_trace/ *.json.gz
 * (-1: the trace does not say). The MI250 trace's 5120 copy bytes are its two
 * HtoD copies, whose own args carry no size, at the "size": "2560" of the
 * hipMemcpyWithStream each was launched by; nccl_data's 21 collectives run
 * in pg_config's group "0" of pg_size 2.
 */
static const struct truth truths[] = {
	{ "hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz", 14, 2, 0, 70, 21, 0, 0, 2, 0, -1, -1, "AMD Radeon Graphics", 16, 1739836029603454206LL, 0, 5120, -1, 0, -1 },
	{ "hta__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 0, 0, 0, 4, 0, 0, 0, 1, 0, 34, 300, NULL, 0, -1, 0, 0, 11, 0, -1 },
	{ "hta__critical_path__cuda_event_sync__event_sync_trace.json.gz", 4, 1, 0, 10, 12, 0, 0, 1, 0, 0, -1, "NVIDIA A100-PG509-200", 5, 1707417525512145000LL, 0, 1, -1, 0, -1 },
	{ "hta__nccl_parser_config__nccl_data.json.gz", 2700, 960, 114, 14346, 8740, 0, 21, 3, 0, 0, 2, "NVIDIA A100-PG509-200", 3774, 1716423322422880181LL, 307323096, 716464101, 1, 21, 2 },
	{ "hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 4350, 1600, 145, 23910, 15329, 0, 0, 5, 0, 0, 1, "Tesla V100-SXM2-32GB", 6095, 1712195495505582988LL, 0, 799910160, 1, 0, -1 },
	{ "hta__trace_compare__base__base.json.gz", 6, 6, 6, 6, 5, 0, 0, 2, 0, 1, -1, NULL, 2, 1661938466265125000LL, 0, 9777180, -1, 0, -1 },
	{ "hta__trace_filter__sampled_rank-0.json.gz", 1154, 40, 10, 2329, 1204, 0, 10, 2, 0, 0, 128, NULL, 1204, 1682725898082228000LL, 0, 222097863, -1, 0, -1 },
	{ "hta__trace_filter__sampled_rank-1.json.gz", 1104, 40, 10, 2302, 1154, 0, 10, 2, 0, 1, 128, NULL, 1154, 1682725898082381000LL, 0, 3362442928, -1, 0, -1 },
	{ "hta__triton_example__triton_example.json.gz", 1, 0, 0, 3, 1, 1, 0, 1, 0, -1, -1, "NVIDIA A100-PG509-200", 1, 1730156791097444592LL, 0, 0, -1, 0, -1 },
};

static void test_real(void **state)
{
	const struct truth *w = *state;
	char path[4096];
	struct trace_loaded *l;
	const struct info *ev;
	const struct rank *k;
	int64_t in_step = 0, comm_bytes = 0, copy_bytes = 0, comm_sized = 0, group_size = -1;
	const struct info *groups;
	int64_t ngroups = 0;

	real_path(path, sizeof(path), w->file);
	l = trace_load(path);
	print_diags(&l->t->diags);
	ev = info_get(l->f.info, "events");
	assert_int_equal(info_i(ev, "kernel"), w->kernel);
	assert_int_equal(info_i(ev, "gpu_memcpy"), w->memcpy);
	assert_int_equal(info_i(ev, "gpu_memset"), w->memset);
	assert_int_equal(info_i(ev, "cpu_op"), w->cpu_op);
	assert_int_equal(info_i(ev, "cuda_runtime"), w->runtime);
	assert_int_equal(info_i(ev, "cuda_driver"), w->driver);
	assert_int_equal(info_i(l->f.info, "comm_kernels"), w->comm);
	assert_int_equal(info_i(l->f.info, "steps"), w->steps);
	assert_int_equal(info_i(l->f.info, "memory_events"), w->memory);
	assert_int_equal(info_i_or_null(l->f.info, "rank"), w->rank);
	assert_int_equal(info_i_or_null(l->f.info, "world_size"), w->world);
	assert_int_equal(l->r->nranks, 1);
	k = &l->r->ranks[0];
	assert_int_equal(k->rank, w->rank);
	assert_int_equal(k->world_size, w->world);
	assert_int_equal(k->nev, w->kernel + w->memcpy + w->memset);
	if (w->device)
		assert_string_equal(k->dev.name, w->device);
	else
		assert_null(k->dev.name);
	assert_sorted(k);
	for (size_t i = 0; i < k->nev; i++) {
		in_step += k->ev[i].step >= 0;
		if (k->ev[i].cls == EVC_COMM && k->ev[i].bytes > 0)
			comm_bytes += k->ev[i].bytes;
		if (k->ev[i].kind != EV_KERNEL && k->ev[i].bytes > 0)
			copy_bytes += k->ev[i].bytes;
		if (k->ev[i].cls == EVC_COMM && trial_group_size(l->t, k->ev[i].group) > 0) {
			int32_t n = trial_group_size(l->t, k->ev[i].group);

			group_size = !comm_sized++ || group_size == n ? n : -1;
		}
	}
	assert_int_equal(in_step, w->in_step);
	assert_int_equal(comm_bytes, w->comm_bytes);
	assert_int_equal(copy_bytes, w->copy_bytes);
	assert_int_equal(comm_sized, w->comm_sized);
	assert_int_equal(group_size, w->group_size);
	groups = info_get(l->f.info, "groups");
	for (const struct info *g = groups->child; g; g = g->next)
		ngroups++;
	assert_int_equal(groups->type == INFO_NULL ? -1 : ngroups, w->groups);
	assert_int_equal(k->nev ? k->ev[0].start : -1, w->first);
	assert_int_equal(l->t->diags.errors, 0);
	trace_unload(l);
}

/* The CPU-only real trace says so, in the exact words. */
static void test_real_cpu_only(void **state)
{
	char path[4096], want[16384];
	struct trace_loaded *l;

	(void)state;
	real_path(path, sizeof(path), "hta__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
	l = trace_load(path);
	snprintf(want, sizeof(want), "%s: warning: no GPU activity in the trace (CPU-only profile)",
		 path);
	assert_int_equal(count_diag(&l->t->diags, want), 1);
	/* "deviceProperties": [] lists no device; it does not leave them unknown */
	assert_int_equal(info_get(l->f.info, "devices")->type, INFO_ARR);
	assert_null(info_get(l->f.info, "devices")->child);
	/* distributedInfo: "backend": "gloo", "pg_count": 10 (read with Python's json) */
	assert_string_equal(info_get(l->f.info, "backend")->v.s, "gloo");
	assert_int_equal(info_get(l->f.info, "process_groups")->v.i, 10);
	trace_unload(l);
}

/* A bare array of events, without the object around it: devices unknown. */
static void test_bare_array(void **state)
{
	char path[4096];
	struct trace_loaded *l;

	(void)state;
	data_path(path, sizeof(path), "bare.json");
	l = trace_load(path);
	assert_int_equal(l->r->ranks[0].nev, 1);
	assert_int_equal(l->r->ranks[0].ev[0].start, 1500);
	assert_int_equal(l->r->ranks[0].ev[0].end, 2500);
	assert_int_equal(info_get(l->f.info, "devices")->type, INFO_NULL);
	assert_int_equal(info_get(l->f.info, "rank")->type, INFO_NULL);
	assert_int_equal(info_get(l->f.info, "process_groups")->type, INFO_NULL);
	trace_unload(l);
}

/* The 2-rank NCCL trace: its collectives, as the kernels' args give them. */
static void test_real_nccl(void **state)
{
	char path[4096];
	struct trace_loaded *l;
	const struct rank *k;
	int allreduce = 0, bcast_f32 = 0, bcast_i64 = 0, with_op = 0, in_group = 0;

	(void)state;
	real_path(path, sizeof(path), "hta__nccl_parser_config__nccl_data.json.gz");
	l = trace_load(path);
	k = &l->r->ranks[0];
	for (size_t i = 0; i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];

		if (e->cls != EVC_COMM)
			continue;
		allreduce += e->coll == COLL_ALLREDUCE && e->dtype == DT_FP32;
		bcast_f32 += e->coll == COLL_BROADCAST && e->dtype == DT_FP32;
		bcast_i64 += e->coll == COLL_BROADCAST && e->dtype == DT_INT64;
		with_op += ev_op_name(e) && !strcmp(ev_op_name(e), "record_param_comms");
		in_group += e->group && !strcmp(l->t->groups[e->group - 1].name, "0");
	}
	/*
	 * python3, Counter of (name, args dtype) over the nccl kernels: 15
	 * ncclKernel_AllReduce_RING_LL_Sum_float with dtype Float; 6
	 * ncclKernel_Broadcast_RING_LL_Sum_int8_t, 3 with dtype Float and 3
	 * with Long (the tensor's dtype wins over the int8 NCCL moves); all 21
	 * launched from record_param_comms (its External id is the launch's)
	 */
	assert_int_equal(allreduce, 15);
	assert_int_equal(bcast_f32, 3);
	assert_int_equal(bcast_i64, 3);
	assert_int_equal(with_op, 21);
	assert_int_equal(in_group, 21);	/* each kernel's "Process Group Name": "0" */
	assert_string_equal(l->r->nccl_version.v, "2.17.1");
	trace_unload(l);
}

/*
 * The ops are sorted by thread and start, the outer of two that start
 * together first, and ops equal in all three keep their file order (the
 * later is inside the earlier): written in a scrambled order across three
 * threads, each launch must find the innermost op around it. Pair i: ops
 * "outer_i" and "inner_i" with the same thread, start and end, and for
 * even i a "leaf_i" that ends before the launch (its parent is walked up).
 */
static void test_op_order(void **state)
{
	enum { N = 300 };
	struct loaded x;
	struct buf b;

	(void)state;
	buf_init(&b, 0);
	buf_addstr(&b, "{\"traceEvents\": [\n");
	for (int j = 0; j < N; j++) {
		int i = (j * 7919) % N;
		long long ts = 1000 + (long long)i * 100;
		int tid = 30 - i % 3;

		buf_addf(&b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"outer_%d\", "
			 "\"pid\": 1, \"tid\": %d, \"ts\": %lld, \"dur\": 50},\n", i, tid, ts);
		buf_addf(&b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"inner_%d\", "
			 "\"pid\": 1, \"tid\": %d, \"ts\": %lld, \"dur\": 50},\n", i, tid, ts);
		if (i % 2 == 0)
			buf_addf(&b, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"leaf_%d\", "
				 "\"pid\": 1, \"tid\": %d, \"ts\": %lld, \"dur\": 2},\n", i, tid,
				 ts + 5);
		buf_addf(&b, "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
			 "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": %d, \"ts\": %lld, \"dur\": 5, "
			 "\"args\": {\"correlation\": %d}},\n", tid, ts + 10, i + 1);
		buf_addf(&b, "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_%d\", "
			 "\"pid\": 0, \"tid\": 7, \"ts\": %lld, \"dur\": 10, \"args\": "
			 "{\"device\": 0, \"stream\": 7, \"correlation\": %d}}%s\n", i, ts + 20, i + 1,
			 j + 1 < N ? "," : "");
	}
	buf_addstr(&b, "]}\n");
	load_str(&x, b.data);
	assert_int_equal(x.r->nranks, 1);
	assert_int_equal(x.r->ranks[0].nev, N);
	for (int i = 0; i < N; i++) {
		char name[32], op[32];
		const struct gpu_event *e;

		snprintf(name, sizeof(name), "k_%d", i);
		snprintf(op, sizeof(op), "inner_%d", i);
		e = find_event(&x.r->ranks[0], name);
		assert_non_null(ev_op_name(e));
		assert_string_equal(ev_op_name(e), op);
	}
	unload(&x);
	buf_release(&b);
}

/*
 * A launch finds the op of its external id even when an inner op (of
 * another id, which no launch carries) encloses it: with the ids close
 * together (bitmap of the launches' ids) and 10^15 apart (every id kept).
 */
static void test_ext_far_apart(void **state)
{
	static const long long base[] = { 7, 1000000000000000LL };
	char trace[2048];

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct loaded x;

		snprintf(trace, sizeof(trace),
			 "{\"traceEvents\": [\n"
			 "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"outer_a\", \"pid\": 1, \"tid\": 1, "
			 "\"ts\": 100, \"dur\": 50, \"args\": {\"External id\": %lld}},\n"
			 "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"inner_a\", \"pid\": 1, \"tid\": 1, "
			 "\"ts\": 105, \"dur\": 20, \"args\": {\"External id\": %lld}},\n"
			 "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
			 "\"tid\": 1, \"ts\": 110, \"dur\": 5, \"args\": {\"External id\": %lld, \"correlation\": 1}},\n"
			 "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"outer_b\", \"pid\": 1, \"tid\": 1, "
			 "\"ts\": 200, \"dur\": 50, \"args\": {\"External id\": %lld}},\n"
			 "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"inner_b\", \"pid\": 1, \"tid\": 1, "
			 "\"ts\": 205, \"dur\": 20, \"args\": {\"External id\": %lld}},\n"
			 "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
			 "\"tid\": 1, \"ts\": 210, \"dur\": 5, \"args\": {\"External id\": %lld, \"correlation\": 2}},\n"
			 "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_a\", \"pid\": 0, \"tid\": 7, \"ts\": 300, "
			 "\"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1}},\n"
			 "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_b\", \"pid\": 0, \"tid\": 7, \"ts\": 400, "
			 "\"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 2}}\n]}\n",
			 5LL, 6LL, 5LL, base[i], base[i] + 1, base[i]);
		load_str(&x, trace);
		assert_int_equal(x.r->ranks[0].nev, 2);
		assert_string_equal(ev_op_name(find_event(&x.r->ranks[0], "k_a")), "outer_a");
		assert_string_equal(ev_op_name(find_event(&x.r->ranks[0], "k_b")), "outer_b");
		unload(&x);
	}
}

/*
 * Every array the reader grows is counted in the memory budget and given
 * back when the trial is freed, also those fitted to their length before
 * linking (the ops, the launches, the GPU events): the count returns to
 * where it was, or --max-memory would stop later loads early.
 */
static void test_budget_given_back(void **state)
{
	char path[4096];
	struct trace_loaded *l;
	int64_t before;

	(void)state;
	data_path(path, sizeof(path), "sites.json");
	before = budget_used();
	l = trace_load(path);
	assert_true(budget_used() > before);
	trace_unload(l);
	assert_int_equal(budget_used(), before);
}

/*
 * A CPU op the trace leaves unnamed ("name": "") still gives its launches
 * its input types, as before the ops were kept as triples: the event's op
 * is a triple with no name, and the kernel's label (analyze's tables) comes
 * from the kernel's own name, not from the missing op name.
 */
static void test_unnamed_op(void **state)
{
	static const char trace[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 100, \"dur\": 50, \"args\": {\"External id\": 5, \"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 110, \"dur\": 5, \"args\": {\"External id\": 5, \"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"my_kernel\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 300, \"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1}}\n]}\n";
	const struct gpu_event *e;
	struct loaded x;
	char label[256];

	(void)state;
	load_str(&x, trace);
	assert_int_equal(x.r->ranks[0].nev, 1);
	e = find_event(&x.r->ranks[0], "my_kernel");
	assert_non_null(e);
	assert_null(ev_op_name(e));
	assert_string_equal(ev_input_types(e), "float");
	kernel_label(e, label, sizeof(label));
	assert_string_equal(label, "my_kernel");
	unload(&x);
}

/* ---- a kernel's device that deviceProperties does not list (ROCm) ---- */

/*
 * A trace with deviceProperties ids[0..n) named names[] (memory mem[]), one
 * kernel on each device of kdev[0..nk), and one [memory] sample of Device
 * Type 6 (HIP) on each of memdev[0..nm).
 */
static void load_devices(struct loaded *x, const int *ids, const char *const *names,
			 const long long *mem, size_t n, const int *kdev, size_t nk,
			 const int *memdev, size_t nm)
{
	struct buf b;

	buf_init(&b, 0);
	buf_addstr(&b, "{\"deviceProperties\": [");
	for (size_t i = 0; i < n; i++)
		buf_addf(&b, "%s{\"id\": %d, \"name\": \"%s\", \"totalGlobalMem\": %lld}",
			 i ? ", " : "", ids[i], names[i], mem[i]);
	buf_addstr(&b, "],\n\"traceEvents\": [\n");
	for (size_t i = 0; i < nk; i++)
		buf_addf(&b, "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%zu\", \"pid\": %d, "
			 "\"tid\": 0, \"ts\": %zu, \"dur\": 5, \"args\": {\"device\": %d, "
			 "\"stream\": 0}},\n", i, kdev[i], 100 + 10 * i, kdev[i]);
	for (size_t i = 0; i < nm; i++)
		buf_addf(&b, "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, "
			 "\"tid\": 1, \"ts\": %zu, \"args\": {\"Device Type\": 6, \"Device Id\": %d, "
			 "\"Total Allocated\": %zu, \"Total Reserved\": %zu}},\n",
			 50 + i, memdev[i], 1000 + i, 2000 + i);
	buf_addstr(&b, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"tid\": 0}\n]}\n");
	load_str(x, b.data);
	buf_release(&b);
}

/* How many diagnostics have this code. */
static int count_code(const struct diags *d, const char *code)
{
	int n = 0;

	for (size_t i = 0; i < d->count; i++)
		n += !strcmp(d->items[i].code, code);
	return n;
}

/* The message of the one device-remapped note; fails when there is not exactly one. */
static const char *remap_message(const struct diags *d)
{
	assert_int_equal(count_code(d, "device-remapped"), 1);
	for (size_t i = 0; i < d->count; i++)
		if (!strcmp(d->items[i].code, "device-remapped")) {
			assert_int_equal(d->items[i].severity, DIAG_INFO);
			return d->items[i].message;
		}
	return NULL;
}

/*
 * The shape of a real MI300X capture: deviceProperties lists id 0, every
 * kernel runs on device 9, the [memory] samples (Device Type 6, HIP) name
 * id 0 in one file and id 9 in the other: both are the MI300X's, with its
 * 152.17 GB reserved peak, and the events are read on device 0.
 */
static void test_rocm_only_device(void **state)
{
	static const char *const files[] = { "mi300x-remap/mi300x.pt.trace.json",
					     "mi300x-remap-kdev/mi300x.pt.trace.json" };
	char path[4096];

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		struct trace_loaded *l;
		const struct rank *k;
		int64_t reserved = -1;

		data_path(path, sizeof(path), files[f]);
		l = trace_load(path);
		assert_int_equal(l->r->nranks, 1);
		k = &l->r->ranks[0];
		assert_int_equal(k->dev.index, 0);
		assert_string_equal(k->dev.name, "AMD Instinct MI300X");
		assert_int_equal(k->dev.memory_total, 205822885888LL);
		assert_int_equal(k->nev, 8);
		for (size_t i = 0; i < k->nev; i++)
			assert_int_equal(k->ev[i].device, 0);
		assert_int_equal(k->nmem, 4);	/* Device Type 6 is read like CUDA's 1 */
		for (size_t i = 0; i < k->nmem; i++) {
			assert_int_equal(k->mem[i].device, 0);
			reserved = k->mem[i].reserved > reserved ? k->mem[i].reserved : reserved;
		}
		assert_int_equal(reserved, 152170000000LL);
		assert_int_equal(k->mem[3].allocated, 140000000000LL);
		assert_string_equal(remap_message(&l->t->diags), "the GPU work ran on device 9, "
				    "which deviceProperties does not list: read as device 0 \"AMD "
				    "Instinct MI300X\", the only device the trace lists");
		assert_string_equal(l->t->diags.items[0].file, path);
		trace_unload(l);
	}
}

/* The k-th device id the GPU work used is the k-th listed id, when the counts agree. */
static void test_rocm_by_order(void **state)
{
	static const int ids[] = { 1, 0 };
	static const char *const names[] = { "AMD Instinct MI250X", "AMD Instinct MI300X" };
	static const long long mem[] = { 68702699520LL, 205822885888LL };
	static const int kdev[] = { 3, 2, 3 }, memdev[] = { 2, 3, 7 }, memdev_read[] = { 0, 1, 7 };
	struct loaded x;
	const struct rank *k;

	(void)state;
	load_devices(&x, ids, names, mem, 2, kdev, 3, memdev, 3);
	k = &x.r->ranks[0];
	assert_int_equal(k->dev.index, 1);	/* most kernels ran on 3, the second id used */
	assert_string_equal(k->dev.name, "AMD Instinct MI250X");
	assert_int_equal(find_event(k, "k0")->device, 1);
	assert_int_equal(find_event(k, "k1")->device, 0);
	assert_int_equal(find_event(k, "k2")->device, 1);
	assert_int_equal(k->nmem, 3);
	for (size_t i = 0; i < k->nmem; i++)	/* 2 -> 0, 3 -> 1; 7 was no kernel's: kept */
		assert_int_equal(k->mem[i].device, memdev_read[i]);
	assert_string_equal(remap_message(&x.t->diags), "the GPU work ran on device 3, which "
			    "deviceProperties does not list: read as device 1 \"AMD Instinct MI250X\", "
			    "by order: the trace lists as many devices as its GPU work used");
	unload(&x);
}

/* Several listed devices, all alike, and no order to go by: the first listed. */
static void test_rocm_alike(void **state)
{
	static const int ids[] = { 4, 5, 6 };
	static const char *const names[] = { "AMD Radeon Graphics", "AMD Radeon Graphics",
					     "AMD Radeon Graphics" };
	static const long long mem[] = { 68702699520LL, 68702699520LL, 68702699520LL };
	static const int kdev[] = { 9, 9 }, memdev[] = { 9 };
	struct loaded x;
	const struct rank *k;

	(void)state;
	load_devices(&x, ids, names, mem, 3, kdev, 2, memdev, 1);
	k = &x.r->ranks[0];
	assert_int_equal(k->dev.index, 4);
	assert_string_equal(k->dev.name, "AMD Radeon Graphics");
	assert_int_equal(k->dev.memory_total, 68702699520LL);
	assert_int_equal(k->mem[0].device, 4);
	assert_string_equal(remap_message(&x.t->diags), "the GPU work ran on device 9, which "
			    "deviceProperties does not list: read as device 4 \"AMD Radeon Graphics\", "
			    "every device the trace lists has the same name and memory");
	unload(&x);
}

/*
 * Left as it was: a listed id (the MI250 layout: kernels on device 2 of
 * ids 0-3), and several different devices with no rule that tells which.
 */
static void test_rocm_not_remapped(void **state)
{
	static const int ids[] = { 0, 1, 2, 3 };
	static const char *const names[] = { "A", "A", "A", "A" }, *const other[] = { "A", "B" };
	static const long long mem[] = { 1, 1, 1, 1 }, diff[] = { 1, 2 };
	static const int kdev2[] = { 2 }, kdev9[] = { 9 }, memdev[] = { 9 };
	struct loaded x;

	(void)state;
	load_devices(&x, ids, names, mem, 4, kdev2, 1, memdev, 1);
	assert_int_equal(x.r->ranks[0].dev.index, 2);
	assert_int_equal(x.r->ranks[0].mem[0].device, 9);
	assert_int_equal(count_code(&x.t->diags, "device-remapped"), 0);
	unload(&x);
	load_devices(&x, ids, other, diff, 2, kdev9, 1, memdev, 1);
	assert_int_equal(x.r->ranks[0].dev.index, 9);
	assert_null(x.r->ranks[0].dev.name);
	assert_int_equal(x.r->ranks[0].dev.memory_total, -1);
	assert_int_equal(x.r->ranks[0].ev[0].device, 9);
	assert_int_equal(count_code(&x.t->diags, "device-remapped"), 0);
	unload(&x);
}

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_us_to_ns),
		cmocka_unit_test(test_us_to_ns_edges),
		cmocka_unit_test(test_key_order),
		cmocka_unit_test(test_big_correlation),
		cmocka_unit_test(test_op_sites),
		cmocka_unit_test(test_era_2021),
		cmocka_unit_test(test_era_frac),
		cmocka_unit_test(test_era_base),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_invalid_json),
		cmocka_unit_test(test_binary_noise),
		cmocka_unit_test(test_truncated_gzip),
		cmocka_unit_test(test_no_gpu_events),
		cmocka_unit_test(test_deep_and_bad_events),
		cmocka_unit_test(test_deep_dims),
		cmocka_unit_test(test_duplicate_rank),
		cmocka_unit_test(test_real_cpu_only),
		cmocka_unit_test(test_real_nccl),
		cmocka_unit_test(test_bare_array),
		cmocka_unit_test(test_edge_times),
		cmocka_unit_test(test_pg_config),
		cmocka_unit_test(test_pg_after),
		cmocka_unit_test(test_pg_two_traces),
		cmocka_unit_test(test_op_order),
		cmocka_unit_test(test_ext_far_apart),
		cmocka_unit_test(test_budget_given_back),
		cmocka_unit_test(test_unnamed_op),
		cmocka_unit_test(test_rocm_only_device),
		cmocka_unit_test(test_rocm_by_order),
		cmocka_unit_test(test_rocm_alike),
		cmocka_unit_test(test_rocm_not_remapped),
	};
	enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]), NREAL = sizeof(truths) / sizeof(truths[0]) };
	struct CMUnitTest tests[NFIXED + NREAL];

	memcpy(tests, fixed, sizeof(fixed));
	for (size_t i = 0; i < NREAL; i++) {
		/* one test per real trace, named by its file */
		tests[NFIXED + i] = (struct CMUnitTest)cmocka_unit_test_prestate(test_real, NULL);
		tests[NFIXED + i].name = truths[i].file;
		tests[NFIXED + i].initial_state = (void *)(uintptr_t)&truths[i];
	}
	return _cmocka_run_group_tests("kineto", tests, NFIXED + NREAL, NULL, NULL);
}
