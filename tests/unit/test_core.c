/* Unit tests of core/: buf, arena, intern, diag, info, model tables. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/count.h"
#include "core/diag.h"
#include "core/info.h"
#include "core/intern.h"
#include "core/isort.h"
#include "core/launchop.h"
#include "core/model.h"

static void buf_appends_and_formats(void **state)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	assert_string_equal(b.data, "");
	buf_addstr(&b, "rank ");
	buf_addf(&b, "%d of %d", 1, 2);
	buf_addch(&b, '!');
	assert_string_equal(b.data, "rank 1 of 2!");
	assert_int_equal(b.len, 12);
	buf_reset(&b);
	assert_string_equal(b.data, "");
	buf_release(&b);
}

static void buf_ceiling_is_sticky(void **state)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 8);
	assert_true(buf_addstr(&b, "12345"));
	assert_false(buf_addstr(&b, "6789"));	/* would make 9 > 8 */
	assert_true(b.overflow);
	assert_string_equal(b.data, "12345");
	assert_false(buf_addstr(&b, "6"));	/* sticky even though it would fit */
	assert_string_equal(b.data, "12345");
	buf_release(&b);
}

/* A file read whole, cut at the ceiling, and the two failures told apart. */
static void buf_reads_a_file(void **state)
{
	char path[] = "/tmp/test_core_bufXXXXXX";
	struct buf b = BUF_INIT;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	for (int i = 0; i < 20000; i++)
		fputs("0123456789", f);	/* 200,000 bytes: more than one 64 KiB read */
	fclose(f);
	buf_init(&b, 0);
	assert_int_equal(buf_read_file(&b, path), 0);
	assert_int_equal(b.len, 200000);
	assert_false(b.overflow);
	assert_memory_equal(b.data + 199990, "0123456789", 10);
	buf_release(&b);
	buf_init(&b, 199999);
	assert_int_equal(buf_read_file(&b, path), 0);
	assert_true(b.overflow);
	buf_release(&b);
	buf_init(&b, 0);
	assert_int_equal(buf_read_file(&b, "/tmp"), -2);	/* opens, cannot be read: a directory */
	assert_int_equal(buf_read_file(&b, "/nonexistent/test_core"), -1);
	assert_int_equal(b.len, 0);
	buf_release(&b);
	unlink(path);
}

static void arena_zeroes_and_aligns(void **state)
{
	struct arena a = ARENA_INIT;
	char *s = arena_strdup(&a, "kernel");
	double *d = arena_alloc(&a, sizeof(double) * 3);
	char *big = arena_alloc(&a, 200000);	/* larger than a block */

	assert_string_equal(s, "kernel");
	assert_int_equal((uintptr_t)d % _Alignof(max_align_t), 0);
	assert_true(d[0] == 0 && d[2] == 0);
	assert_int_equal(big[199999], 0);
	arena_release(&a);
	assert_null(a.head);
}

static void intern_gives_one_copy(void **state)
{
	struct intern t = INTERN_INIT;
	const char *a = intern_str(&t, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
	const char *b = intern(&t, "ncclDevKernel_AllReduce_Sum_bf16_RING_LLxyz", 40);
	const char *c = intern_str(&t, "ncclDevKernel_AllReduce_Sum_bf16_RING_L");
	char name[32];

	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, c);
	for (int i = 0; i < 5000; i++) {	/* forces several rehashes */
		snprintf(name, sizeof(name), "k%d", i);
		intern_str(&t, name);
	}
	assert_int_equal(t.count, 5002);
	assert_ptr_equal(intern_str(&t, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), a);
	assert_string_equal(intern_str(&t, "k4321"), "k4321");
	assert_ptr_equal(intern(&t, "k7\0junk", 7), intern_str(&t, "k7"));
	intern_release(&t);
}

/*
 * intern_hash() reads every byte of s[0..n) and none after it, at every
 * length its two lanes, eight-byte step and tail cover: one byte changed
 * changes the hash, bytes past n do not.
 */
static void intern_hash_reads_all_bytes(void **state)
{
	char a[64], b[64];

	(void)state;
	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (char)('a' + i % 26);
	for (size_t n = 1; n <= 48; n++) {
		uint32_t h = intern_hash(a, n);

		memcpy(b, a, sizeof(b));
		b[n] ^= 0x55;	/* past the end: ignored */
		assert_int_equal(intern_hash(b, n), h);
		for (size_t p = 0; p < n; p++) {
			memcpy(b, a, sizeof(b));
			b[p] ^= 0x01;
			assert_int_not_equal(intern_hash(b, n), h);
		}
	}
}

/* Two ranks' tables merged: shared strings forward to the trial's copy, new ones keep theirs. */
static void intern_merges_tables(void **state)
{
	struct intern trial = INTERN_INIT, rank = INTERN_INIT, later = INTERN_INIT;
	const char *t_gemm = intern_str(&trial, "sm90_xmma_gemm");
	const char *r_gemm = intern_str(&rank, "sm90_xmma_gemm");
	const char *r_nccl = intern_str(&rank, "ncclDevKernel_AllGather");
	const char *l_nccl = intern_str(&later, "ncclDevKernel_AllGather");
	const char *l_new = intern_str(&later, "elementwise");
	char name[16];

	for (int i = 0; i < 3000; i++) {	/* several arena blocks and rehashes in the rank's */
		snprintf(name, sizeof(name), "r%d", i);
		intern_str(&rank, name);
	}
	assert_ptr_not_equal(t_gemm, r_gemm);
	assert_ptr_equal(intern_canon(t_gemm), t_gemm);
	intern_merge(&trial, &rank);
	assert_int_equal(rank.count, 0);
	assert_null(rank.slots);
	assert_int_equal(trial.count, 3002);
	assert_ptr_equal(intern_canon(r_gemm), t_gemm);
	assert_ptr_equal(intern_canon(r_nccl), r_nccl);	/* new to the trial: kept */
	assert_ptr_equal(intern_str(&trial, "ncclDevKernel_AllGather"), r_nccl);
	assert_string_equal(intern_str(&trial, "r2999"), "r2999");
	assert_ptr_equal(intern_canon(intern_str(&trial, "r17")), intern_str(&trial, "r17"));
	intern_merge(&trial, &later);
	assert_ptr_equal(intern_canon(l_nccl), r_nccl);
	assert_ptr_equal(intern_canon(l_new), l_new);
	assert_int_equal(trial.count, 3003);
	assert_null(intern_canon(NULL));
	intern_release(&rank);
	intern_release(&later);
	intern_release(&trial);
}

/* One copy per (op, types, dims); a rank's table merged on forwards to the trial's copies. */
static void launch_ops_merge_tables(void **state)
{
	struct intern ts = INTERN_INIT, rs = INTERN_INIT;
	struct launch_ops trial = LAUNCH_OPS_INIT, rank = LAUNCH_OPS_INIT;
	const char *mm = intern_str(&ts, "aten::mm"), *bf = intern_str(&ts, "c10::BFloat16");
	const struct launch_op *t_mm = launch_op_get(&trial, mm, bf, NULL);
	const struct launch_op *r_mm, *r_add, *r_mm_dims;
	char name[16];

	(void)state;
	assert_ptr_equal(launch_op_get(&trial, mm, bf, NULL), t_mm);
	assert_ptr_not_equal(launch_op_get(&trial, mm, NULL, NULL), t_mm);
	r_mm = launch_op_get(&rank, intern_str(&rs, "aten::mm"), intern_str(&rs, "c10::BFloat16"), NULL);
	r_add = launch_op_get(&rank, intern_str(&rs, "aten::add"), NULL, NULL);
	r_mm_dims = launch_op_get(&rank, r_mm->name, r_mm->input_types, intern_str(&rs, "[[8,8]]"));
	for (int i = 0; i < 1000; i++) {	/* past the first table's size: rehashed */
		snprintf(name, sizeof(name), "op%d", i);
		launch_op_get(&rank, intern_str(&rs, name), NULL, NULL);
	}
	assert_int_equal(rank.count, 1003);
	assert_ptr_not_equal(r_mm->name, mm);
	intern_merge(&ts, &rs);
	launch_ops_merge(&trial, &rank);
	assert_int_equal(rank.count, 0);
	assert_null(rank.nodes);
	assert_int_equal(trial.count, 2 + 1002);
	assert_ptr_equal(launch_op_canon(r_mm), t_mm);	/* held already: forwarded */
	assert_ptr_equal(launch_op_canon(r_add), r_add);	/* new: kept, its strings the trial's */
	assert_ptr_equal(r_add->name, intern_str(&ts, "aten::add"));
	assert_ptr_equal(launch_op_get(&trial, intern_str(&ts, "aten::add"), NULL, NULL), r_add);
	assert_ptr_equal(r_mm_dims->name, mm);
	assert_ptr_equal(r_mm_dims->input_types, bf);
	assert_string_equal(r_mm_dims->input_dims, "[[8,8]]");
	assert_ptr_equal(launch_op_get(&trial, mm, bf, r_mm_dims->input_dims), r_mm_dims);
	assert_null(launch_op_canon(NULL));
	launch_ops_release(&rank);
	launch_ops_release(&trial);
	intern_release(&rs);
	intern_release(&ts);
}

struct rec {
	int32_t key, order;	/* sorted by key, then order */
	char pad[32];		/* a 40-byte record, as kineto's ops */
};

static bool rec_before(const void *pa, const void *pb, void *ctx)
{
	const struct rec *a = pa, *b = pb;

	(*(int *)ctx)++;
	return a->key != b->key ? a->key < b->key : a->order < b->order;
}

static bool u32_before(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return *(const uint32_t *)pa < *(const uint32_t *)pb;
}

/* In place, every length, few and many equal keys, and sorted, reversed and organ-pipe input. */
static void isort_orders_in_place(void **state)
{
	enum { N = 5000 };
	struct rec *r = calloc(N, sizeof(*r));
	uint32_t *u = calloc(N, sizeof(*u));
	int calls;

	(void)state;
	for (size_t n = 0; n <= N; n = n < 40 ? n + 1 : n * 3) {
		for (int shape = 0; shape < 5; shape++) {
			int64_t sum = 0, usum = 0;

			for (size_t i = 0; i < n; i++) {
				int32_t k[] = { (int32_t)((i * 7919) % 13), (int32_t)i, (int32_t)(n - i),
						(int32_t)(i < n / 2 ? i : n - i), (int32_t)((i * 104729) % 1009) };

				r[i] = (struct rec){ .key = k[shape], .order = (int32_t)(n - i) };
				u[i] = (uint32_t)k[shape];
			}
			for (size_t i = 0; i < n; i++) {
				sum += (int64_t)r[i].key * N + r[i].order;
				usum += u[i];
			}
			calls = 0;
			isort(r, n, sizeof(*r), rec_before, &calls);
			isort(u, n, sizeof(*u), u32_before, NULL);
			for (size_t i = 0; i < n; i++) {	/* the same records, each once */
				sum -= (int64_t)r[i].key * N + r[i].order;
				usum -= u[i];
			}
			assert_int_equal(sum, 0);
			assert_int_equal(usum, 0);
			for (size_t i = 1; i < n; i++) {
				assert_true(rec_before(&r[i - 1], &r[i], &calls));
				assert_true(u[i - 1] <= u[i]);
			}
			/* n log n at worst: 2 n log2 n + 16 n is far above introsort's count */
			assert_true((double)calls <= 2.0 * (double)n * log2((double)n + 1) + 16.0 * (double)n + 64);
		}
	}
	free(r);
	free(u);
}

/* By start, then end; events equal in both keep their order (the bytes field numbers them here). */
static void gpu_events_sort_is_stable(void **state)
{
	enum { N = 3000 };
	struct gpu_event *ev = calloc(N, sizeof(*ev));

	(void)state;
	for (int i = 0; i < N; i++)
		ev[i] = (struct gpu_event){ .start = (i * 7919) % 37, .end = 100 + (i * 104729) % 5,
					    .bytes = i };
	gpu_events_sort(ev, N);
	for (int i = 1; i < N; i++) {
		const struct gpu_event *a = &ev[i - 1], *b = &ev[i];

		assert_true(a->start < b->start || (a->start == b->start && a->end < b->end) ||
			    (a->start == b->start && a->end == b->end && a->bytes < b->bytes));
	}
	gpu_events_sort(ev, 1);
	gpu_events_sort(NULL, 0);
	free(ev);
}

static void diag_formats_positions(void **state)
{
	struct diags d = DIAGS_INIT;
	struct buf b = BUF_INIT;
	struct srcpos line = { .file = "train.log", .line = 12, .col = 3, .byte = -1 };
	struct srcpos byte = SRCPOS_BYTE("rank0.json", 4096);

	buf_init(&b, 0);
	assert_int_equal(diag_error(&d, "manifest-value", &line, "bad value '%s'", "bf17"), -1);
	diag_warn(&d, "bad-event", &byte, "invalid JSON");
	diag_add(&d, DIAG_INFO, "cuda-oom", NULL, "no position");
	diag_format(&d.items[0], &b);
	assert_string_equal(b.data, "train.log:12:3: bad value 'bf17'");
	buf_reset(&b);
	diag_format(&d.items[1], &b);
	assert_string_equal(b.data, "rank0.json: byte 4096: warning: invalid JSON");
	buf_reset(&b);
	diag_format(&d.items[2], &b);
	assert_string_equal(b.data, "note: no position");
	assert_int_equal(d.errors, 1);
	assert_int_equal(d.warnings, 1);
	buf_release(&b);
	diags_release(&d);
}

static void diag_caps_repeats(void **state)
{
	struct diags d = DIAGS_INIT;
	struct diags all = DIAGS_INIT;
	struct srcpos pos = SRCPOS_FILE("a.log");

	for (int i = 0; i < 100; i++)
		diag_warn(&d, "long-line", &pos, "line %d", i);
	diag_warn(&d, "bad-event", &pos, "different");
	assert_int_equal(d.count, DIAG_CAP_PER_CODE + 1);
	assert_int_equal(d.suppressed, 100 - DIAG_CAP_PER_CODE);
	assert_int_equal(d.warnings, 101);
	diags_move(&all, &d);
	assert_int_equal(all.count, DIAG_CAP_PER_CODE + 1);
	assert_int_equal(d.count, 0);
	assert_string_equal(all.items[DIAG_CAP_PER_CODE].message, "different");
	diags_release(&all);
}

static void info_replaces_keys_in_place(void **state)
{
	struct arena a = ARENA_INIT;
	struct info *root = info_root(&a);
	struct info *arr;

	info_int(&a, root, "rank", 0);
	info_str(&a, root, "name", NULL);
	info_num(&a, root, "span_s", NAN);
	info_int(&a, root, "rank", 1);		/* replaced, not added */
	arr = info_arr(&a, root, "ops");
	info_str(&a, arr, NULL, "all_reduce");
	info_str(&a, arr, NULL, "all_gather");
	assert_int_equal(info_get(root, "rank")->v.i, 1);
	assert_ptr_equal(root->child, info_get(root, "rank"));
	assert_int_equal(info_get(root, "name")->type, INFO_NULL);
	assert_int_equal(info_get(root, "span_s")->type, INFO_NULL);
	assert_string_equal(arr->child->next->v.s, "all_gather");
	assert_null(info_get(root, "missing"));
	arena_release(&a);
}

static void model_tables(void **state)
{
	assert_string_equal(dtype_name(DT_BF16), "bf16");
	assert_string_equal(dtype_name(DT_FP8_E4M3), "fp8-e4m3");
	assert_int_equal(dtype_from_name("tf32"), DT_TF32);
	assert_int_equal(dtype_from_name("bfloat"), DT_UNKNOWN);
	assert_int_equal(dtype_size(DT_BF16), 2);
	assert_int_equal(coll_from_name("all_reduce", 10), COLL_ALLREDUCE);
	assert_int_equal(coll_from_name("ReduceScatter", 13), COLL_REDUCESCATTER);
	assert_int_equal(coll_from_name("_allgather_base", 15), COLL_ALLGATHER);
	assert_int_equal(coll_from_name("allreducex", 10), COLL_NONE);
	assert_true(fabs(coll_busbw_factor(COLL_ALLREDUCE, 2) - 1.0) < 1e-12);
	assert_true(fabs(coll_busbw_factor(COLL_ALLREDUCE, 8) - 1.75) < 1e-12);
	assert_true(fabs(coll_busbw_factor(COLL_ALLGATHER, 4) - 0.75) < 1e-12);
	assert_true(fabs(coll_busbw_factor(COLL_BROADCAST, 8) - 1.0) < 1e-12);
	assert_string_equal(run_status_name(RUN_FAILED_OOM), "failed-oom");
	assert_int_equal(hypothesis_from_name("global-batch"), HYP_GLOBAL_BATCH);
	assert_int_equal(hypothesis_from_name("faster"), HYP_UNSET);
	assert_string_equal(question_name(Q_HPARAM_SWEEP), "hparam-sweep");
}

static void model_grows_and_keeps_facts(void **state)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "2gpu", "trial/2gpu");
	struct rank *k0 = run_rank(r, 0);
	struct rank *k1 = run_rank(r, 1);
	struct srcpos pos = SRCPOS_LINE("run.ini", 3);

	assert_ptr_equal(run_rank(r, 1), k1);
	assert_int_equal(r->nranks, 2);
	(void)k0;
	for (int i = 0; i < 10000; i++)
		rank_add_event(&r->ranks[0])->start = i;
	assert_int_equal(r->ranks[0].nev, 10000);
	assert_int_equal(r->ranks[0].ev[9999].start, 9999);
	assert_true(r->ranks[0].ev[5].launched == LAUNCH_UNKNOWN);
	assert_true(fact_set_str(t, &r->declared.precision, "bf16", &pos));
	assert_false(fact_set_str(t, &r->declared.precision, "fp32", &pos));
	assert_string_equal(r->declared.precision.v, "bf16");
	assert_int_equal(r->declared.precision.src.line, 3);
	assert_ptr_equal(trial_find_run(t, "2gpu"), r);
	assert_null(trial_find_run(t, "1gpu"));
	trial_free(t);
}

/*
 * The count syntax: digits exactly (2^53 + 1 = 9007199254740993 survives, which a double
 * would round), an exponent or one suffix (k, M, B or G, T, either case) when it comes to a
 * whole number; nothing else.
 */
static void counts_parse(void **state)
{
	int64_t v = -1;

	(void)state;
	assert_true(count_parse("7B") == 7e9 && count_parse("1.5b") == 1.5e9);
	assert_true(count_parse("350M") == 350e6 && count_parse("2k") == 2000);
	assert_true(count_parse("0") == 0 && count_parse("1e12") == 1e12 && count_parse("3T") == 3e12);
	assert_true(isnan(count_parse("")) && isnan(count_parse("-1")) && isnan(count_parse("7x")));
	assert_true(isnan(count_parse("7BB")) && isnan(count_parse("inf")) && isnan(count_parse("nan")));
	assert_true(count_parse_whole("9007199254740993", 0, INT64_MAX, &v) && v == 9007199254740993);
	assert_true(count_parse_whole("1e9", 0, INT64_MAX, &v) && v == 1000000000);
	assert_true(count_parse_whole("10M", 0, INT64_MAX, &v) && v == 10000000);
	assert_true(count_parse_whole("1.5k", 0, INT64_MAX, &v) && v == 1500);
	assert_true(count_parse_whole("0", 0, 10, &v) && v == 0);
	v = 42;
	assert_false(count_parse_whole("1.5", 0, INT64_MAX, &v));
	assert_false(count_parse_whole("0", 1, 10, &v));
	assert_false(count_parse_whole("11", 0, 10, &v));
	assert_false(count_parse_whole("2e1", 0, 10, &v));
	assert_false(count_parse_whole("1e19", 0, INT64_MAX, &v));	/* past int64_t */
	assert_false(count_parse_whole("-3", 0, 10, &v));
	assert_false(count_parse_whole("-3k", -5000, 10, &v));	/* a negative: digits only */
	assert_int_equal(v, 42);					/* untouched on refusal */
	assert_true(count_parse_whole("-3", -5, 10, &v) && v == -3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_parse),
		cmocka_unit_test(buf_appends_and_formats),
		cmocka_unit_test(buf_ceiling_is_sticky),
		cmocka_unit_test(buf_reads_a_file),
		cmocka_unit_test(arena_zeroes_and_aligns),
		cmocka_unit_test(intern_gives_one_copy),
		cmocka_unit_test(intern_hash_reads_all_bytes),
		cmocka_unit_test(intern_merges_tables),
		cmocka_unit_test(launch_ops_merge_tables),
		cmocka_unit_test(isort_orders_in_place),
		cmocka_unit_test(gpu_events_sort_is_stable),
		cmocka_unit_test(diag_formats_positions),
		cmocka_unit_test(diag_caps_repeats),
		cmocka_unit_test(info_replaces_keys_in_place),
		cmocka_unit_test(model_tables),
		cmocka_unit_test(model_grows_and_keeps_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
