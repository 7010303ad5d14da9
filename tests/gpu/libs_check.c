/*
 * libs_check: the GPU checks of the cuBLASLt/NCCL layer and the executor,
 * run by tests/gpu/run.sh where a GPU exists (never by make check).
 *
 * 1. Correctness of the GEMM descriptors: for every dtype the device runs
 *    and every layout (NN, NT, TN, TT; fp8 TN only), a small batched GEMM on
 *    the project's random inputs is compared element by element with the
 *    same product computed here in double from the inputs copied back. The
 *    error is measured against sum |a||b| of each element, so it does not
 *    depend on cancellation: 1e-5 for fp32, 1e-2 for the rest.
 * 2. Throughput: an 8192^3 GEMM per dtype, a 256 MiB copy and fill, and
 *    an all-reduce over every GPU, through the executor as replay runs them.
 * Prints one line per check ("ok ..." / "FAIL ..." / "skip ..."). Exit 0
 * when nothing failed, 1 otherwise, 77 when there is no usable driver/GPU.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/cublaslt.h"
#include "replay/cuda.h"
#include "replay/exec.h"
#include "replay/ptx.h"

static int failures;

static const enum dtype dtypes[] = { DT_FP32, DT_TF32, DT_BF16, DT_FP16, DT_FP8_E4M3 };

/* One stored element of type t at index i of buf, as a double. */
static double element(const unsigned char *buf, int64_t i, enum dtype t)
{
	uint32_t u;
	uint16_t h;
	float f;
	int e, m;

	switch (t) {
	case DT_FP32:
	case DT_TF32:
		memcpy(&f, buf + 4 * i, 4);
		return f;
	case DT_BF16:
		memcpy(&h, buf + 2 * i, 2);
		u = (uint32_t)h << 16;
		memcpy(&f, &u, 4);
		return f;
	case DT_FP16:
		memcpy(&h, buf + 2 * i, 2);
		e = h >> 10 & 31;
		m = h & 1023;
		f = e ? ldexpf(1.0f + m / 1024.0f, e - 15) : ldexpf(m / 1024.0f, -14);
		return h & 0x8000 ? -f : f;
	default:	/* fp8 e4m3: bias 7, no infinities */
		u = buf[i];
		e = u >> 3 & 15;
		m = u & 7;
		f = e ? ldexpf(1.0f + m / 8.0f, e - 7) : ldexpf(m / 8.0f, -6);
		return u & 0x80 ? -f : f;
	}
}

/* op(A)[i,p] and op(B)[p,j] of batch b, column-major as cuBLASLt stores them. */
static double at_a(const struct gemm_shape *s, const unsigned char *a, int64_t b, int64_t i, int64_t p)
{
	int64_t off = b * s->m * s->k + (s->transa ? p + i * s->k : i + p * s->m);

	return element(a, off, s->dtype);
}

static double at_b(const struct gemm_shape *s, const unsigned char *bb, int64_t b, int64_t p, int64_t j)
{
	int64_t off = b * s->k * s->n + (s->transb ? j + p * s->n : p + j * s->k);

	return element(bb, off, s->dtype);
}

/* The worst error of D against the product in double, relative to sum |a||b|. */
static double worst_error(const struct gemm_shape *s, const unsigned char *a, const unsigned char *b,
			  const unsigned char *d)
{
	double worst = 0;

	for (int64_t n = 0; n < s->batch; n++)
		for (int64_t j = 0; j < s->n; j++)
			for (int64_t i = 0; i < s->m; i++) {
				double sum = 0, mag = 0, x;

				for (int64_t p = 0; p < s->k; p++) {
					x = at_a(s, a, n, i, p) * at_b(s, b, n, p, j);
					sum += x;
					mag += fabs(x);
				}
				x = element(d, n * s->m * s->n + i + j * s->m, gemm_out_type(s));
				x = fabs(x - sum) / (mag > 0 ? mag : 1);
				worst = x > worst || isnan(x) ? x : worst;
			}
	return worst;
}

struct dev {
	struct cuda *cu;
	struct cuda_device_info info;
	CUstream stream;
	struct ptx_module ptx;
	struct cublaslt *lt;
};

/* Runs s once on random inputs; copies A, B, D back; 0 or -1 with err. */
static int gemm_once(struct dev *g, const struct gemm_shape *s, unsigned char *ha, unsigned char *hb,
		     unsigned char *hd, struct cuda_err *err)
{
	enum dtype in = s->dtype == DT_TF32 ? DT_FP32 : s->dtype;
	CUdeviceptr a = 0, b = 0, d = 0, ws = 0;
	struct lt_gemm *lg = NULL;
	int rc;

	rc = cuda_alloc(g->cu, &a, (size_t)gemm_bytes_a(s), err) ||
	     cuda_alloc(g->cu, &b, (size_t)gemm_bytes_b(s), err) ||
	     cuda_alloc(g->cu, &d, (size_t)gemm_bytes_d(s), err) ||
	     cuda_alloc(g->cu, &ws, CUBLASLT_WORKSPACE, err) ||
	     ptx_fill_random(g->cu, &g->ptx, a, (size_t)gemm_bytes_a(s), in, 3u, g->stream, err) ||
	     ptx_fill_random(g->cu, &g->ptx, b, (size_t)gemm_bytes_b(s), in, 5u, g->stream, err) ||
	     cublaslt_gemm_prepare(g->lt, s, CUBLASLT_WORKSPACE, 0, &lg, err) ||
	     cublaslt_gemm_launch(lg, a, b, d, ws, g->stream, err) ||
	     cuda_stream_sync(g->cu, g->stream, err) ||
	     cuda_d2h(g->cu, ha, a, (size_t)gemm_bytes_a(s), NULL, err) ||
	     cuda_d2h(g->cu, hb, b, (size_t)gemm_bytes_b(s), NULL, err) ||
	     cuda_d2h(g->cu, hd, d, (size_t)gemm_bytes_d(s), NULL, err) ? -1 : 0;
	cublaslt_gemm_free(lg);
	cuda_free(g->cu, a, err);
	cuda_free(g->cu, b, err);
	cuda_free(g->cu, d, err);
	cuda_free(g->cu, ws, err);
	return rc;
}

static void check_layout(struct dev *g, enum dtype t, bool ta, bool tb)
{
	struct gemm_shape s = { .m = 96, .n = 80, .k = 64, .batch = 2, .transa = ta, .transb = tb,
				.dtype = t };
	struct cuda_err err = { .msg = "" };
	double tol = t == DT_FP32 ? 1e-5 : 1e-2, e;
	unsigned char *ha = malloc((size_t)gemm_bytes_a(&s)), *hb = malloc((size_t)gemm_bytes_b(&s));
	unsigned char *hd = malloc((size_t)gemm_bytes_d(&s));
	const char *name = dtype_name(t);

	if (!ha || !hb || !hd || gemm_once(g, &s, ha, hb, hd, &err)) {
		printf("FAIL gemm-correct %s %c%c: %s\n", name, ta ? 'T' : 'N', tb ? 'T' : 'N',
		       err.msg[0] ? err.msg : "out of memory");
		failures++;
	} else {
		e = worst_error(&s, ha, hb, hd);
		printf("%s gemm-correct %s %c%c m=96 n=80 k=64 batch=2: worst error %.2g (limit %.0g)\n",
		       e <= tol ? "ok" : "FAIL", name, ta ? 'T' : 'N', tb ? 'T' : 'N', e, tol);
		failures += !(e <= tol);
	}
	free(ha);
	free(hb);
	free(hd);
}

static void check_gemms(struct dev *g)
{
	struct gemm_shape probe = { .m = 1, .n = 1, .k = 1, .batch = 1 };
	const char *why;

	for (size_t i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++) {
		probe.dtype = dtypes[i];
		why = gemm_unsupported(&probe, g->info.cc_major, g->info.cc_minor);
		if (why) {
			printf("skip gemm-correct %s: %s\n", dtype_name(dtypes[i]), why);
			continue;
		}
		for (int l = 0; l < 4; l++)
			if (dtypes[i] != DT_FP8_E4M3 || l == 2)
				check_layout(g, dtypes[i], l >> 1, l & 1);
	}
}

static void report(const char *what, const struct exec_result *r)
{
	const struct op_timing *t = &r->timing;

	if (r->status == EXEC_DONE)
		printf("ok %s [%s]: median %.4f ms (p10 %.4f, p90 %.4f, %d reps), %.1f TFLOP/s, %.1f GB/s\n",
		       what, r->method, t->median_s * 1e3, t->p10_s * 1e3, t->p90_s * 1e3, t->reps,
		       t->tflops, t->gbps);
	else
		printf("%s %s [%s]: %s\n", r->status == EXEC_SKIPPED ? "skip" : "FAIL", what, r->method,
		       r->reason);
	failures += r->status == EXEC_FAILED;
}

static void check_exec(int ngpus)
{
	struct exec *x;
	struct exec_result r;
	struct exec_req q;
	char err[EXEC_REASON_MAX], what[64];

	if (exec_open(&x, 0, err, sizeof(err))) {
		printf("FAIL exec_open: %s\n", err);
		failures++;
		return;
	}
	for (size_t i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++) {
		q = (struct exec_req){ .cls = EXEC_GEMM, .gemm = { .m = 8192, .n = 8192, .k = 8192,
				       .batch = 1, .transa = true, .dtype = dtypes[i] } };
		exec_run(x, &q, &r);
		snprintf(what, sizeof(what), "gemm %s 8192^3", dtype_name(dtypes[i]));
		report(what, &r);
	}
	q = (struct exec_req){ .cls = EXEC_MEMORY, .bytes = 256LL << 20 };
	exec_run(x, &q, &r);
	report("copy 256 MiB", &r);
	q.fill = true;
	exec_run(x, &q, &r);
	report("fill 256 MiB", &r);
	q = (struct exec_req){ .cls = EXEC_COLLECTIVE, .coll = COLL_ALLREDUCE, .coll_dtype = DT_BF16,
			       .bytes = 256LL << 20, .nranks = ngpus };
	exec_run(x, &q, &r);
	report("allreduce 256 MiB bf16 over every GPU", &r);
	q.nranks = ngpus + 1;
	exec_run(x, &q, &r);
	snprintf(err, sizeof(err), "the trial ran AllReduce over %d GPUs; this machine has %d", ngpus + 1,
		 ngpus);
	printf("%s allreduce over one GPU more than here is skipped: %s\n",
	       r.status == EXEC_SKIPPED && strcmp(r.reason, err) == 0 ? "ok" : "FAIL", r.reason);
	failures += !(r.status == EXEC_SKIPPED && strcmp(r.reason, err) == 0);
	exec_close(x);
}

int main(void)
{
	struct dev g = { 0 };
	struct cuda_err err = { .msg = "" };
	int ngpus = 0;

	if (cuda_open(&g.cu, &err) || cuda_device_count(g.cu, &ngpus, &err) || ngpus < 1) {
		printf("skip: %s\n", err.msg[0] ? err.msg : "no GPU");
		cuda_close(g.cu);
		return 77;
	}
	if (cuda_ctx_open(g.cu, 0, NULL, &err) || cuda_device_info(g.cu, 0, &g.info, &err) ||
	    cuda_stream_create(g.cu, &g.stream, &err) || ptx_load(g.cu, &g.ptx, g.info.sms, &err) ||
	    cublaslt_open(&g.lt, &err) || cublaslt_create(g.lt, &err)) {
		printf("FAIL setup: %s\n", err.msg);
		failures++;
	} else {
		printf("device 0: %s, cc %d.%d, %d GPUs; cuBLASLt %s version %zu\n", g.info.name,
		       g.info.cc_major, g.info.cc_minor, ngpus, cublaslt_path(g.lt), cublaslt_version(g.lt));
		check_gemms(&g);
	}
	cublaslt_close(g.lt);
	if (g.ptx.mod)
		ptx_unload(g.cu, &g.ptx);
	cuda_stream_destroy(g.cu, g.stream, &err);
	cuda_close(g.cu);
	check_exec(ngpus);
	printf("%d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures ? 1 : 0;
}
