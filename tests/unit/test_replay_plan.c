/*
 * The replay planner (replay/plan.h), the critical kernels it starts from
 * (analysis/critical.h), the verdicts (replay/verdict.h) and replay.json
 * (render/replay_json.h).
 *
 * Known answers: the sample generator (samples/gen/kineto.c put_inputs)
 * records aten::linear [[B, S, in], [out, in], [out]] and the backward
 * aten::mm [[B*S, H], [H, H]], with B the micro batch, S the sequence and H
 * 2048 for models up to 1.5B parameters; so every planned GEMM has
 * m = B*S. ddp-scales-well: B 8, S 2048, H 2048 (run.ini). The real traces'
 * collective counts were read from their record_param_comms "In msg nelems"
 * with a few lines of Python (not with scaleaudit).
 */
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "core/xalloc.h"
#include "fixture_analysis.h"
#include "render/replay_json.h"
#include "replay/plan.h"
#include "replay/verdict.h"
#include "skip.h"

/* --- GEMM shapes from an op's Input Dims --- */

struct shape_case {
	const char *op, *dims, *types;
	int64_t m, n, k, batch;
	bool transb;
	enum dtype a, c;
	const char *why;	/* non-NULL: expected to fail with this reason */
};

static const struct shape_case shapes[] = {
	{ "aten::mm", "[[16384,2048],[2048,2048]]", "c10::BFloat16, c10::BFloat16",
	  16384, 2048, 2048, 1, false, DT_BF16, DT_BF16, NULL },
	{ "aten::mm", "[[4096, 1024], [1024, 512]]", "float, float", 4096, 512, 1024, 1, false,
	  DT_FP32, DT_FP32, NULL },
	{ "aten::addmm", "[[512], [64, 1024], [1024, 512], [], []]", "c10::Half, c10::Half, c10::Half, Scalar, Scalar",
	  64, 512, 1024, 1, false, DT_FP16, DT_FP16, NULL },
	{ "aten::bmm", "[[12, 128, 64], [12, 64, 256]]", "float, float", 128, 256, 64, 12, false,
	  DT_FP32, DT_FP32, NULL },
	{ "aten::baddbmm", "[[12, 128, 256], [12, 128, 64], [12, 64, 256], [], []]", "float, float, float",
	  128, 256, 64, 12, false, DT_FP32, DT_FP32, NULL },
	{ "aten::linear", "[[8, 2048, 2048], [8192, 2048], [8192]]", "c10::BFloat16, c10::BFloat16, c10::BFloat16",
	  16384, 8192, 2048, 1, true, DT_BF16, DT_BF16, NULL },
	{ "aten::linear", "[[4, 10], [3, 10], []]", "float, float", 4, 3, 10, 1, true, DT_FP32, DT_FP32, NULL },
	{ "aten::matmul", "[[2, 7, 32], [32, 5]]", "float, float", 14, 5, 32, 1, false, DT_FP32, DT_FP32, NULL },
	{ "aten::matmul", "[[2, 3, 7, 32], [2, 3, 32, 5]]", "float, float", 7, 5, 32, 6, false,
	  DT_FP32, DT_FP32, NULL },
	{ "aten::_scaled_mm", "[[64, 128], [128, 256], [], []]", "c10::Float8_e4m3fn, c10::Float8_e4m3fn",
	  64, 256, 128, 1, false, DT_FP8_E4M3, DT_BF16, NULL },
	{ "aten::_scaled_mm", NULL, NULL, 0, 0, 0, 0, false, 0, 0, "dims not recorded (record_shapes=False)" },
	{ "aten::mm", "[]", "", 0, 0, 0, 0, false, 0, 0, "dims not recorded (record_shapes=False)" },
	{ "aten::mm", "[[4, 5], [6, 7]]", "float, float", 0, 0, 0, 0, false, 0, 0,
	  "operand dims do not multiply: [[4, 5], [6, 7]]" },
	{ "aten::matmul", "[[2, 7, 32], [3, 32, 5]]", "float, float", 0, 0, 0, 0, false, 0, 0,
	  "operand dims do not multiply: [[2, 7, 32], [3, 32, 5]]" },
	{ "aten::convolution", "[[1, 3, 224, 224]]", "float", 0, 0, 0, 0, false, 0, 0,
	  "no GEMM shape rule for this op" },
	{ "aten::mm", "[[4, x]]", "float", 0, 0, 0, 0, false, 0, 0, "dims not understood: [[4, x]]" },
	{ "aten::mm", "[[2147483648, 2147483648], [2147483648, 2]]", "float", 0, 0, 0, 0, false, 0, 0,
	  "dims too large for one GPU: [[2147483648, 2147483648], [2147483648, 2]]" },
	{ "aten::matmul", "[[65536, 65536, 65536, 64], [64, 8]]", "float", 0, 0, 0, 0, false, 0, 0,
	  "dims too large for one GPU: [[65536, 65536, 65536, 64], [64, 8]]" },
	{ "aten::mm", "[[4294967296, 1], [1, 1]]", "float", 0, 0, 0, 0, false, 0, 0,
	  "dims not understood: [[4294967296, 1], [1, 1]]" },
};

static void gemm_shapes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape_case *c = &shapes[i];
		struct plan_gemm g;
		char why[160] = "";
		int r = plan_gemm_shape(c->op, c->dims, c->types, &g, why, sizeof(why));

		if (c->why) {
			assert_int_equal(r, -1);
			assert_string_equal(why, c->why);
			continue;
		}
		assert_int_equal(r, 0);
		assert_int_equal(g.m, c->m);
		assert_int_equal(g.n, c->n);
		assert_int_equal(g.k, c->k);
		assert_int_equal(g.batch, c->batch);
		assert_int_equal(g.transb, c->transb);
		assert_false(g.transa);
		assert_int_equal(g.a_type, c->a);
		assert_int_equal(g.b_type, c->a);
		assert_int_equal(g.c_type, c->c);
	}
}

/* --- the plan of the sample trials --- */

static const struct plan_kernel *find(const struct plan *p, const char *op, const char *shape)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->k[i].op && !strcmp(p->k[i].op, op) && p->k[i].shape && !strcmp(p->k[i].shape, shape))
			return &p->k[i];
	return NULL;
}

static size_t count_method(const struct plan *p, enum plan_method m, enum crit_class cls)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->k[i].method == m && p->k[i].cls == cls;
	return n;
}

static void ddp_scales_well(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-scales-well");
	const struct plan_kernel *k;
	struct plan p;

	(void)state;
	assert_int_equal(plan_build(&p, a, plan_pick_run(a)), 0);
	analysis_free(a);
	assert_string_equal(p.run, "2gpu");
	assert_string_equal(p.gpu, "NVIDIA B200");
	assert_int_equal(p.nranks, 2);
	assert_int_equal(p.n, 12);
	/* two backward mm kernels of [[B*S,H],[H,H]], then FC1, FC2 and QKV */
	assert_int_equal(count_method(&p, PM_CUBLASLT, CRIT_GEMM), 5);
	assert_non_null(k = find(&p, "aten::mm", "m=16384 n=2048 k=2048"));
	assert_int_equal(k->bytes, (16384LL * 2048 + 2048 * 2048 + 16384LL * 2048) * 2);
	assert_int_equal(k->calls_per_step, 13);
	assert_non_null(k = find(&p, "aten::linear", "m=16384 n=8192 k=2048 transb"));
	assert_int_equal(k->gemm.a_type, DT_BF16);
	assert_non_null(find(&p, "aten::linear", "m=16384 n=2048 k=8192 transb"));
	assert_non_null(find(&p, "aten::linear", "m=16384 n=6144 k=2048 transb"));
	/* DDP's two AllReduce buckets: fp32, 960 MB and 480 MB messages */
	assert_non_null(k = find(&p, "record_param_comms", "AllReduce count=240000000 ranks=2"));
	assert_int_equal(k->method, PM_NCCL);
	assert_int_equal(k->coll.dtype, DT_FP32);
	assert_int_equal(k->bytes, 960000000);
	assert_non_null(find(&p, "record_param_comms", "AllReduce count=120000000 ranks=2"));
	/* the generator's copies: 96 MiB memset, B*S*8*2 bytes of token ids, a 4-byte loss */
	assert_non_null(k = find(&p, "aten::zero_", "100663296 B"));
	assert_int_equal(k->method, PM_FILL);
	assert_non_null(k = find(&p, "aten::copy_", "262144 B"));
	assert_int_equal(k->method, PM_HTOD);
	assert_non_null(k = find(&p, "aten::_local_scalar_dense", "4 B"));
	assert_int_equal(k->method, PM_DTOH);
	/* flash attention backward: planned, not replayed */
	assert_non_null(k = find(&p, "aten::_scaled_dot_product_flash_attention_backward",
				 "[[8,16,2048,128],[8,16,2048,128],[8,16,2048,128],[8,16,2048,128],[8,16,2048,128],"
				 "[8,16,2048]]"));	/* grad_out, q, k, v, out, logsumexp */
	assert_int_equal(k->method, PM_NONE);
	assert_string_equal(k->why_not, "not replayed: attention kernels are not replayed (not a library call)");
	plan_release(&p);
}

/* The compute groups kept are the fewest that reach 80%: without the last one they do not. */
static void assert_minimal(const struct run_result *rr)
{
	double sum = 0, last = 0;
	size_t ncompute = 0;

	for (size_t i = 0; i < rr->ncritical; i++) {
		const struct critical_kernel *c = &rr->critical[i];

		if (c->cls == CRIT_COLLECTIVE || c->cls == CRIT_MEMORY)
			continue;
		assert_true(!ncompute || c->share <= last);	/* largest first */
		last = c->share;
		sum += c->share;
		ncompute++;
	}
	assert_true(ncompute > 0);
	assert_true(sum >= 0.80 - 1e-12);
	assert_true(sum - last < 0.80);
}

/* Every planned GEMM of the generator's traces has m = micro batch x sequence. */
static void assert_gemm_rows(const struct plan *p, const struct run_result *rr)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->k[i].method == PM_CUBLASLT)
			assert_int_equal(p->k[i].gemm.m, rr->micro_batch * rr->seq_len);
}

/* A collective's count x dtype size (x ranks for AllGather, ReduceScatter) gives back its bytes. */
static void assert_coll_counts(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_kernel *k = &p->k[i];
		int64_t per = dtype_size(k->coll.dtype);

		if (k->method != PM_NCCL)
			continue;
		if (k->coll.op == COLL_ALLGATHER || k->coll.op == COLL_REDUCESCATTER)
			per *= k->coll.nranks;
		assert_int_equal(k->coll.count * per, k->bytes);
	}
}

static void every_sample_trial(void **state)
{
	glob_t g;
	size_t trials = 0, unrecorded = 0, traceless = 0;

	(void)state;
	assert_int_equal(glob("samples/trials/*/", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct analysis *a = analyse_dir(g.gl_pathv[i]);
		size_t run = plan_pick_run(a);
		struct plan p;

		trials++;
		if (run == SIZE_MAX) {	/* logs-only: no trace, nothing to replay */
			assert_non_null(strstr(g.gl_pathv[i], "logs-only"));
			traceless++;
			analysis_free(a);
			continue;
		}
		assert_int_equal(plan_build(&p, a, run), 0);
		for (size_t r = 0; r < a->nruns; r++)
			if (a->runs[r].ncritical)
				assert_minimal(&a->runs[r]);
		assert_gemm_rows(&p, &a->runs[run]);
		assert_coll_counts(&p);
		assert_int_equal(count_method(&p, PM_FILL, CRIT_MEMORY), 1);
		for (size_t k = 0; k < p.n; k++)
			unrecorded += p.k[k].why_not && strstr(p.k[k].why_not, "record_shapes=False");
		plan_release(&p);
		analysis_free(a);
	}
	globfree(&g);
	assert_int_equal(trials, 21);
	assert_int_equal(traceless, 1);
	/* unknown-precision is the one trial recorded without shapes: its 9 GEMM groups say so */
	assert_int_equal(unrecorded, 9);
}

static void trial_without_trace(void **state)
{
	struct analysis *a = analyse_dir("tests/data/trials/log-only");
	struct plan p;

	(void)state;
	assert_int_equal(plan_pick_run(a), SIZE_MAX);
	assert_int_equal(plan_build(&p, a, 0), -1);
	assert_int_equal(p.n, 0);
	plan_release(&p);
	analysis_free(a);
}

/* --- real traces (../shared/realdata) --- */

static char *realdata_trial(const char *trace)
{
	const char *shared = getenv("SHARED");
	char *dir, cmd[1024];

	if (!shared || !*shared)
		skip_without_shared();
	dir = xstrdup("/tmp/test_replay_plan.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "mkdir '%s/run' && cp '%s/realdata/kineto_trace/%s' '%s/run/'",
		 dir, shared, trace, dir);
	assert_int_equal(system(cmd), 0);
	return dir;
}

static void remove_trial(char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

static struct analysis *analyse_real(const char *trace, char **dir)
{
	*dir = realdata_trial(trace);
	return analyse_dir(*dir);
}

static void realdata_v100_resnet(void **state)
{
	static const int64_t copies[] = { 1024, 9437184, 8, 4194304, 2048, 1048576, 2359296, 512 };
	char *dir;
	struct analysis *a = analyse_real("hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", &dir);
	struct plan p;
	size_t conv = 0;

	(void)state;
	assert_int_equal(plan_build(&p, a, plan_pick_run(a)), 0);
	assert_string_equal(p.gpu, "Tesla V100-SXM2-32GB");
	assert_int_equal(p.n, 33);
	assert_int_equal(count_method(&p, PM_CUBLASLT, CRIT_GEMM), 0);	/* a ResNet: no matmul op */
	for (size_t i = 0; i < p.n; i++)
		conv += p.k[i].why_not && strstr(p.k[i].why_not, "convolutions are not replayed");
	assert_int_equal(conv, 16);
	/* the largest 8 device-to-device copy groups, each a size the trace's memcpy events have */
	assert_int_equal(count_method(&p, PM_COPY, CRIT_MEMORY), 8);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(p.k[p.n - 8 + i].bytes, copies[i]);
	plan_release(&p);
	analysis_free(a);
	remove_trial(dir);
}

static void realdata_a100_collectives(void **state)
{
	static const struct { enum coll_op op; int64_t count; enum dtype dt; } want[] = {
		{ COLL_ALLREDUCE, 2049000, DT_FP32 }, { COLL_ALLREDUCE, 7875584, DT_FP32 },
		{ COLL_ALLREDUCE, 6563840, DT_FP32 }, { COLL_ALLREDUCE, 6637568, DT_FP32 },
		{ COLL_ALLREDUCE, 2431040, DT_FP32 }, { COLL_BROADCAST, 53120, DT_FP32 },
		{ COLL_BROADCAST, 53, DT_INT64 },
	};
	char *dir;
	struct analysis *a = analyse_real("hta__nccl_parser_config__nccl_data.json.gz", &dir);
	struct plan p;
	size_t n = 0;

	(void)state;
	assert_int_equal(plan_build(&p, a, plan_pick_run(a)), 0);
	assert_int_equal(p.nranks, 2);
	for (size_t i = 0; i < p.n; i++) {
		bool found = false;

		if (p.k[i].cls != CRIT_COLLECTIVE)
			continue;
		for (size_t j = 0; j < sizeof(want) / sizeof(want[0]); j++)
			found |= want[j].op == p.k[i].coll.op && want[j].count == p.k[i].coll.count &&
				 want[j].dt == p.k[i].coll.dtype;
		assert_true(found);
		assert_int_equal(p.k[i].method, PM_NCCL);
		assert_int_equal(p.k[i].coll.nranks, 2);
		n++;
	}
	assert_int_equal(n, 7);
	plan_release(&p);
	analysis_free(a);
	remove_trial(dir);
}

/* --- verdicts, with made-up measurements --- */

static void verdicts(void **state)
{
	const char *cause;

	(void)state;
	assert_int_equal(replay_verdict_of(1.0, 1.10, true, false, &cause), RV_CONFIRMED);
	assert_null(cause);
	assert_int_equal(replay_verdict_of(1.0, 0.86, true, false, &cause), RV_CONFIRMED);
	assert_int_equal(replay_verdict_of(1.0, 1.20, true, false, &cause), RV_DIFFERS);
	assert_string_equal(cause, "clocks (power or thermal limit) or another library version");
	assert_int_equal(replay_verdict_of(1.0, 0.80, true, false, &cause), RV_DIFFERS);
	assert_string_equal(cause, "another library version, or the trial's GPU ran slower (clocks, contention)");
	assert_int_equal(replay_verdict_of(1.0, 1.50, true, true, &cause), RV_DIFFERS);
	assert_string_equal(cause, "a shape or dtype the planner guessed");
	assert_int_equal(replay_verdict_of(1.0, 0.40, false, false, &cause), RV_PROJECTED);
	assert_null(cause);
	assert_int_equal(replay_verdict_of(1.0, NAN, true, false, &cause), RV_NOT_RUN);
	assert_true(replay_same_model("NVIDIA B200", -1, "B200", -1));
	assert_true(replay_same_model("NVIDIA H100 80GB HBM3", -1, "NVIDIA H100 80GB HBM3", -1));
	assert_false(replay_same_model("NVIDIA H200", -1, "NVIDIA B200", -1));
	assert_false(replay_same_model("NVIDIA H100 PCIe", -1, "NVIDIA H100 80GB HBM3", -1));
	assert_false(replay_same_model(NULL, -1, "NVIDIA B200", -1));
	assert_true(replay_same_model("Mystery GPU 9", -1, "Mystery GPU 9", -1));
}

static void driver_versions(void **state)
{
	char v[32];

	(void)state;
	assert_string_equal(replay_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  "
						  "Wed Feb 26 02:11:34 UTC 2025\n", v, sizeof(v)), "570.124.06");
	assert_string_equal(replay_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  "
						  "575.57.08  Release Build", v, sizeof(v)), "575.57.08");
	assert_null(replay_driver_version("GCC version:  gcc version 12.2.0", v, sizeof(v)));
	assert_null(replay_driver_version("NVRM version: Kernel Module  ", v, sizeof(v)));
	assert_null(replay_driver_version("Kernel Module 570.124.06", v, 4));	/* does not fit */
}

/* A two-kernel plan, as the planner would give it. */
static void small_plan(struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->run = "2gpu";
	p->gpu = "NVIDIA B200";
	p->gpu_memory = -1;
	p->nranks = 2;
	p->step_s = 0.100;
	p->n = 3;
	p->k = arena_alloc(&p->arena, 3 * sizeof(*p->k));
	p->k[0] = (struct plan_kernel){ .name = "gemm", .cls = CRIT_GEMM, .shape = "m=8 n=8 k=8",
		.dtype = DT_BF16, .bytes = 384, .logged_median_s = 0.004, .calls_per_step = 10,
		.share = 0.5, .method = PM_CUBLASLT };
	p->k[1] = (struct plan_kernel){ .name = "allreduce", .cls = CRIT_COLLECTIVE, .dtype = DT_FP32,
		.bytes = 4096, .logged_median_s = 0.010, .calls_per_step = 2, .share = 0.2,
		.method = PM_NCCL };
	p->k[2] = (struct plan_kernel){ .name = "flash", .cls = CRIT_OTHER, .bytes = -1,
		.logged_median_s = 0.002, .calls_per_step = 3, .share = 0.1, .method = PM_NONE,
		.why_not = "not replayed: attention kernels are not replayed (not a library call)" };
}

static void measured(struct replay *r, const char *device)
{
	r->device = replay_strdup(r, device);
	r->device_index = 0;
	r->k[0].replayed_median_s = 0.002;	/* twice as fast */
	r->k[0].reps = 50;
	r->k[1].replayed_median_s = 0.005;
	r->k[1].reps = 20;
	replay_finish(r);
}

static void projection(void **state)
{
	struct plan p;
	struct replay r;

	(void)state;
	small_plan(&p);
	replay_init(&r, &p, "trial");
	measured(&r, "NVIDIA H200");
	assert_false(r.same_model);
	assert_int_equal(r.k[0].verdict, RV_PROJECTED);
	close_to(r.k[0].ratio, 0.5);
	assert_int_equal(r.k[1].verdict, RV_PROJECTED);
	assert_int_equal(r.k[2].verdict, RV_NOT_RUN);
	assert_string_equal(r.k[2].cause, p.k[2].why_not);
	/* 0.100 - 10 x 0.004 x (1 - 0.5); the collective stays as logged */
	close_to(r.projected_step_s, 0.080);
	replay_release(&r);

	replay_init(&r, &p, "trial");
	measured(&r, "NVIDIA B200");
	assert_true(r.same_model);
	assert_int_equal(r.k[0].verdict, RV_DIFFERS);
	assert_true(isnan(r.projected_step_s));
	replay_release(&r);
	arena_release(&p.arena);
}

/* --- replay.json --- */

static char *write_to_string(const struct replay *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(replay_write_json(r, f), 0);
	fclose(f);
	return buf;
}

static void json_round_trip(void **state)
{
	struct plan p;
	struct replay r, back;
	char err[256] = "", *one, *two;

	(void)state;
	small_plan(&p);
	replay_init(&r, &p, "samples/trials/x");
	r.driver_version = "570.124.06";
	r.cuda_version = "12.8";
	measured(&r, "NVIDIA H200");
	one = write_to_string(&r);
	assert_non_null(strstr(one, "\"verdict\": \"projected\""));
	assert_non_null(strstr(one, "\"projection\": \"projection: "));
	assert_int_equal(replay_parse_json(one, strlen(one), "replay.json", &back, err, sizeof(err)), 0);
	assert_int_equal(back.n, 3);
	assert_string_equal(back.device, "NVIDIA H200");
	assert_string_equal(back.cuda_version, "12.8");
	assert_int_equal(back.k[0].cls, CRIT_GEMM);
	assert_int_equal(back.k[0].reps, 50);
	assert_int_equal(back.k[0].verdict, RV_PROJECTED);
	assert_int_equal(back.k[2].reps, -1);
	assert_true(isnan(back.k[2].ratio));
	close_to(back.projected_step_s, 0.080);
	two = write_to_string(&back);
	assert_string_equal(one, two);	/* what is read back writes the same document */
	free(one);
	free(two);
	replay_release(&back);
	replay_release(&r);
	arena_release(&p.arena);
}

static void json_errors(void **state)
{
	static const struct { const char *doc, *msg; } bad[] = {
		{ "{\"tool\": {\"name\": \"scaleaudit\", \"document\": \"replay\", \"format\": 1},"
		  " \"kernels\": 3}", "replay.json: byte 79: 'kernels' is a number, not an array" },
		{ "{\"tool\": {\"name\": \"scaleaudit\", \"document\": \"analysis\", \"format\": 1}}",
		  "replay.json: byte 9: 'tool' does not say scaleaudit replay" },
		{ "{\"tool\": {\"name\": \"scaleaudit\", \"document\": \"replay\", \"format\": 9}}",
		  "replay.json: byte 64: 'tool.format' is not a format this scaleaudit reads" },
		{ "{\"tool\": {\"name\": \"scaleaudit\", \"document\": \"replay\", \"format\": 1},"
		  " \"kernels\": [{\"reps\": -2}]}", "replay.json: byte 89: 'kernels[0].reps' is out of range" },
		/* the same wording as analysis.json's, from the same field tables */
		{ "{\"tool\": {\"name\": \"scaleaudit\", \"document\": \"replay\", \"format\": 1},"
		  " \"kernels\": [{}, {\"class\": \"attention\"}]}",
		  "replay.json: byte 94: 'kernels[1].class' is 'attention', which this scaleaudit does not know" },
		{ "{\"tool\": {\"name\": \"scaleaudit\", \"document\": \"replay\", \"format\": 1},"
		  " \"device_index\": 4294967296}",
		  "replay.json: byte 84: 'device_index' is out of range" },
		{ "{\"tool\": {\"name\": \"scaleaudit\", \"document\": \"replay\", \"format\": 1},"
		  " \"same_model\": 1}", "replay.json: byte 82: 'same_model' is a number, not true or false" },
		{ "[1]", "replay.json: byte 0: not a scaleaudit replay: not an object" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct replay r;

		assert_int_equal(replay_parse_json(bad[i].doc, strlen(bad[i].doc), "replay.json", &r, err,
						   sizeof(err)), -1);
		assert_string_equal(err, bad[i].msg);
		replay_release(&r);
	}
}

/* --- chart 09, from the made-up replay.json of tests/data/replay --- */

static void chart_09(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-scales-well");
	char dir[] = "/tmp/test_replay_plan.XXXXXX", cmd[256], err[256];
	const char *why;
	char *d;

	(void)state;
	assert_null(dump_chart(a, "09-replay", &why));
	assert_string_equal(why, "no replay: the trial has no replay.json of its kernels re-run on a GPU (write one with "
			    "scaleaudit replay TRIAL -o TRIAL/replay.json on a machine with the GPU)");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(replay_attach(a, dir, err, sizeof(err)), 0);	/* none there */
	snprintf(cmd, sizeof(cmd), "cp tests/data/replay/ddp-scales-well-h200.json %s/replay.json", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(replay_attach(a, dir, err, sizeof(err)), 1);
	assert_int_equal(a->replay.nbars, 10);	/* the 12 planned less attention and the optimizer */
	d = dump_chart(a, "09-replay", &why);
	assert_non_null(d);
	has_line(d, "subtitle = per call; trial on NVIDIA B200; projected step 42.4 ms -> 62.0 ms");
	has_line(d, "legend.1 = candidate hatched \"replayed on NVIDIA H200: a projection\" at=154.5,59.2");
	/* the first GEMM: 0.8008 ms logged, 1.32853 ms replayed (the file's numbers) */
	has_line(d, "panel.0.mark.27 = rect baseline x=0..0.8008 y=9.02..9.38");
	has_line(d, "panel.0.mark.28 = rect candidate hatched x=0..1.32853 y=8.62..8.98");
	has_line(d, "panel.0.mark.14 = label ink at=1.98876,4 \"1.12x projected\"");
	free(d);
	analysis_free(a);
	a = analyse_dir("samples/trials/ddp-scales-well");
	snprintf(cmd, sizeof(cmd), "printf '{\"tool\": 3}' > %s/replay.json", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(replay_attach(a, dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/replay.json: byte 9: 'tool' does not say scaleaudit replay"));
	assert_false(a->replay.present);
	analysis_free(a);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gemm_shapes),
		cmocka_unit_test(ddp_scales_well),
		cmocka_unit_test(every_sample_trial),
		cmocka_unit_test(trial_without_trace),
		cmocka_unit_test(realdata_v100_resnet),
		cmocka_unit_test(realdata_a100_collectives),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(driver_versions),
		cmocka_unit_test(projection),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(json_errors),
		cmocka_unit_test(chart_09),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
