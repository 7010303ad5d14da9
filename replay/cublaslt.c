/* cuBLASLt through dlopen: the loader, status names, type numbers and shape checks. */
#include "replay/cublaslt.h"

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* The cuBLASLt ABI, declared from the public API: handles are pointers, statuses ints. */
typedef void *lt_handle;
typedef void *lt_desc;		/* cublasLtMatmulDesc_t, cublasLtMatrixLayout_t, ... */
typedef struct {
	uint64_t data[8];
} lt_algo;			/* cublasLtMatmulAlgo_t */
typedef struct {
	lt_algo algo;
	size_t workspace_size;
	int state;
	float waves_count;
	int reserved[4];
} lt_heur;			/* cublasLtMatmulHeuristicResult_t */

struct lt_api {
	int (*cublasLtCreate)(lt_handle *h);
	int (*cublasLtDestroy)(lt_handle h);
	size_t (*cublasLtGetVersion)(void);
	const char *(*cublasLtGetStatusName)(int st);
	const char *(*cublasLtGetStatusString)(int st);
	int (*cublasLtMatmulDescCreate)(lt_desc *d, int compute, int scale);
	int (*cublasLtMatmulDescDestroy)(lt_desc d);
	int (*cublasLtMatmulDescSetAttribute)(lt_desc d, int attr, const void *v, size_t n);
	int (*cublasLtMatrixLayoutCreate)(lt_desc *l, int type, uint64_t rows, uint64_t cols,
					  int64_t ld);
	int (*cublasLtMatrixLayoutDestroy)(lt_desc l);
	int (*cublasLtMatrixLayoutSetAttribute)(lt_desc l, int attr, const void *v, size_t n);
	int (*cublasLtMatmulPreferenceCreate)(lt_desc *p);
	int (*cublasLtMatmulPreferenceDestroy)(lt_desc p);
	int (*cublasLtMatmulPreferenceSetAttribute)(lt_desc p, int attr, const void *v, size_t n);
	int (*cublasLtMatmulAlgoGetHeuristic)(lt_handle h, lt_desc op, lt_desc a, lt_desc b,
					      lt_desc c, lt_desc d, lt_desc pref, int want,
					      lt_heur *res, int *got);
	int (*cublasLtMatmul)(lt_handle h, lt_desc op, const void *alpha, const void *a,
			      lt_desc adesc, const void *b, lt_desc bdesc, const void *beta,
			      const void *c, lt_desc cdesc, void *d, lt_desc ddesc,
			      const lt_algo *algo, void *ws, size_t ws_size, void *stream);
};

struct cublaslt {
	void *dl;		/* dlopen handle; never dlclosed */
	char *path;		/* what was opened; owned */
	struct lt_api api;
	lt_handle handle;	/* cublasLtCreate()'s; NULL until cublaslt_create() */
};

/* Library names tried in order when SCALEAUDIT_LIBCUBLASLT is not set. */
static const char *const sonames[] = { "libcublasLt.so.13", "libcublasLt.so.12" };

/* Every entry point used, by name and where its pointer goes. */
#define LT_SYM(name) { #name, offsetof(struct lt_api, name) }
static const struct {
	const char *name;
	size_t off;
} lt_syms[] = {
	LT_SYM(cublasLtCreate), LT_SYM(cublasLtDestroy), LT_SYM(cublasLtGetVersion),
	LT_SYM(cublasLtGetStatusName), LT_SYM(cublasLtGetStatusString),
	LT_SYM(cublasLtMatmulDescCreate), LT_SYM(cublasLtMatmulDescDestroy),
	LT_SYM(cublasLtMatmulDescSetAttribute), LT_SYM(cublasLtMatrixLayoutCreate),
	LT_SYM(cublasLtMatrixLayoutDestroy), LT_SYM(cublasLtMatrixLayoutSetAttribute),
	LT_SYM(cublasLtMatmulPreferenceCreate), LT_SYM(cublasLtMatmulPreferenceDestroy),
	LT_SYM(cublasLtMatmulPreferenceSetAttribute), LT_SYM(cublasLtMatmulAlgoGetHeuristic),
	LT_SYM(cublasLtMatmul),
};

static const struct {
	int status;
	const char *name;
} status_names[] = {
	{ 0, "CUBLAS_STATUS_SUCCESS" },		{ 1, "CUBLAS_STATUS_NOT_INITIALIZED" },
	{ 3, "CUBLAS_STATUS_ALLOC_FAILED" },	{ 7, "CUBLAS_STATUS_INVALID_VALUE" },
	{ 8, "CUBLAS_STATUS_ARCH_MISMATCH" },	{ 11, "CUBLAS_STATUS_MAPPING_ERROR" },
	{ 13, "CUBLAS_STATUS_EXECUTION_FAILED" }, { 14, "CUBLAS_STATUS_INTERNAL_ERROR" },
	{ 15, "CUBLAS_STATUS_NOT_SUPPORTED" },	{ 16, "CUBLAS_STATUS_LICENSE_ERROR" },
};

/* The dtypes the runner runs: cudaDataType number, and the compute capability each needs. */
static const struct {
	enum dtype dt;
	int cuda;
	int min_cc;		/* major x 10 + minor */
	const char *why;	/* when the device is older */
} cuda_types[] = {
	{ DT_FP32, 0, 0, NULL },
	{ DT_TF32, 0, 80, "tf32 needs compute capability 8.0" },
	{ DT_FP16, 2, 0, NULL },
	{ DT_BF16, 14, 80, "bf16 needs compute capability 8.0" },
	{ DT_FP8, 28, 89, "fp8 needs compute capability 8.9" },
	{ DT_FP8_E4M3, 28, 89, "fp8 needs compute capability 8.9" },
};

/* A, B and D together above this are no GEMM a GPU holds (and their sizes could overflow). */
#define GEMM_MAX_BYTES 1e12

const char *cublaslt_status_name(int status)
{
	static _Thread_local char other[32];

	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (status_names[i].status == status)
			return status_names[i].name;
	snprintf(other, sizeof(other), "CUBLAS_STATUS_%d", status);
	return other;
}

static int lt_check(const struct cublaslt *lt, int status, const char *call, const char *file,
		    int line, struct cuda_err *err)
{
	const char *name;

	if (status == 0)
		return 0;
	name = lt && lt->api.cublasLtGetStatusName ? lt->api.cublasLtGetStatusName(status) : NULL;
	if (!name || !*name)
		name = cublaslt_status_name(status);
	return cuda_err_set(err, "%s: %s (%s:%d)", call, name, file, line);
}

static void *open_first(const char **path, struct cuda_err *err)
{
	const char *env = getenv("SCALEAUDIT_LIBCUBLASLT");
	void *h;

	if (env && *env) {
		*path = env;
		h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			cuda_err_set(err, "cuBLASLt not found (dlopen: %s)", dlerror());
		return h;
	}
	for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
		*path = sonames[i];
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	cuda_err_set(err, "cuBLASLt not found (dlopen: %s)", dlerror());
	return NULL;
}

int cublaslt_open(struct cublaslt **out, struct cuda_err *err)
{
	struct cublaslt *lt;
	const char *path = NULL;
	void *h;

	*out = NULL;
	h = open_first(&path, err);
	if (!h)
		return -1;
	lt = xcalloc(1, sizeof(*lt));
	lt->dl = h;
	lt->path = xstrdup(path);
	for (size_t i = 0; i < sizeof(lt_syms) / sizeof(lt_syms[0]); i++) {
		void *f = dlsym(h, lt_syms[i].name);

		if (!f) {
			cuda_err_set(err, "cuBLASLt at %s lacks %s", path, lt_syms[i].name);
			cublaslt_close(lt);
			return -1;
		}
		memcpy((char *)&lt->api + lt_syms[i].off, &f, sizeof(f));
	}
	*out = lt;
	return 0;
}

void cublaslt_close(struct cublaslt *lt)
{
	if (!lt)
		return;
	if (lt->handle)
		lt->api.cublasLtDestroy(lt->handle);
	/* the library stays mapped: its runtime keeps threads and atexit hooks */
	free(lt->path);
	free(lt);
}

const char *cublaslt_path(const struct cublaslt *lt)
{
	return lt->path;
}

size_t cublaslt_version(const struct cublaslt *lt)
{
	return lt->api.cublasLtGetVersion();
}

int cublaslt_create(struct cublaslt *lt, struct cuda_err *err)
{
	int st;

	if (lt->handle)
		return 0;
	st = lt->api.cublasLtCreate(&lt->handle);
	if (st)
		lt->handle = NULL;
	return lt_check(lt, st, "cublasLtCreate", __FILE__, __LINE__, err);
}

int cublaslt_cuda_type(enum dtype t)
{
	for (size_t i = 0; i < sizeof(cuda_types) / sizeof(cuda_types[0]); i++)
		if (cuda_types[i].dt == t)
			return cuda_types[i].cuda;
	return -1;
}

const char *gemm_unsupported(const struct gemm_shape *s, int cc_major, int cc_minor)
{
	static _Thread_local char big[96];
	double bytes;

	if (s->m <= 0 || s->n <= 0 || s->k <= 0 || s->batch <= 0)
		return "the shape is not known";
	if (cublaslt_cuda_type(s->dtype) < 0)
		return "cuBLASLt replay runs fp32, tf32, bf16, fp16 and fp8 e4m3 only";
	bytes = (double)s->batch * ((double)s->m * (double)s->k + (double)s->k * (double)s->n) * 4 +
		(double)s->batch * (double)s->m * (double)s->n * 4;
	if (bytes > GEMM_MAX_BYTES || s->batch > INT32_MAX) {
		snprintf(big, sizeof(big), "the shape needs up to %.0f GB, more than a GPU holds", bytes / 1e9);
		return big;
	}
	for (size_t i = 0; i < sizeof(cuda_types) / sizeof(cuda_types[0]); i++)
		if (cuda_types[i].dt == s->dtype && cc_major * 10 + cc_minor < cuda_types[i].min_cc)
			return cuda_types[i].why;
	return NULL;
}

double gemm_flops(const struct gemm_shape *s)
{
	if (s->m <= 0 || s->n <= 0 || s->k <= 0 || s->batch <= 0)
		return NAN;
	return 2.0 * (double)s->m * (double)s->n * (double)s->k * (double)s->batch;
}

/* cuBLASLt enum numbers used below (cublasLt.h, cublas_api.h). */
enum {
	LT_COMPUTE_32F = 68, LT_COMPUTE_32F_FAST_TF32 = 77, LT_R_32F = 0,
	LT_DESC_TRANSA = 3, LT_DESC_TRANSB = 4, LT_DESC_A_SCALE = 17, LT_DESC_B_SCALE = 18,
	LT_LAYOUT_BATCH_COUNT = 5, LT_LAYOUT_BATCH_STRIDE = 6, LT_PREF_MAX_WORKSPACE = 1,
	LT_OP_N = 0, LT_OP_T = 1,
};

struct lt_gemm {
	struct cublaslt *lt;
	lt_desc op, a, b, d, pref;	/* NULL until created */
	lt_heur heur;			/* the chosen algorithm */
	size_t workspace;
};

static bool is_fp8(enum dtype t)
{
	return t == DT_FP8 || t == DT_FP8_E4M3;
}

enum dtype gemm_out_type(const struct gemm_shape *s)
{
	if (s->out != DT_UNKNOWN)
		return s->out;
	if (s->dtype == DT_TF32)
		return DT_FP32;
	return is_fp8(s->dtype) ? DT_BF16 : s->dtype;
}

static int64_t elem_bytes(enum dtype t, int64_t rows, int64_t cols, int64_t batch)
{
	int size = dtype_size(t == DT_TF32 ? DT_FP32 : t == DT_FP8 ? DT_FP8_E4M3 : t);

	return size > 0 ? rows * cols * batch * size : -1;
}

int64_t gemm_bytes_a(const struct gemm_shape *s)
{
	return elem_bytes(s->dtype, s->m, s->k, s->batch);
}

int64_t gemm_bytes_b(const struct gemm_shape *s)
{
	return elem_bytes(s->dtype, s->k, s->n, s->batch);
}

int64_t gemm_bytes_d(const struct gemm_shape *s)
{
	return elem_bytes(gemm_out_type(s), s->m, s->n, s->batch);
}

/* A column-major rows x cols matrix of type t, batched with a dense stride. */
static int make_layout(struct cublaslt *lt, lt_desc *l, enum dtype t, int64_t rows, int64_t cols,
		       int64_t batch, struct cuda_err *err)
{
	int32_t count = (int32_t)batch;
	int64_t stride = rows * cols;
	int st;

	st = lt->api.cublasLtMatrixLayoutCreate(l, cublaslt_cuda_type(t), (uint64_t)rows,
						 (uint64_t)cols, rows);
	if (lt_check(lt, st, "cublasLtMatrixLayoutCreate", __FILE__, __LINE__, err))
		return -1;
	if (batch == 1)
		return 0;
	st = lt->api.cublasLtMatrixLayoutSetAttribute(*l, LT_LAYOUT_BATCH_COUNT, &count,
						       sizeof(count));
	if (st == 0)
		st = lt->api.cublasLtMatrixLayoutSetAttribute(*l, LT_LAYOUT_BATCH_STRIDE, &stride,
							       sizeof(stride));
	return lt_check(lt, st, "cublasLtMatrixLayoutSetAttribute", __FILE__, __LINE__, err);
}

static int make_op(struct lt_gemm *g, const struct gemm_shape *s, uint64_t scales, struct cuda_err *err)
{
	struct cublaslt *lt = g->lt;
	int32_t ta = s->transa ? LT_OP_T : LT_OP_N, tb = s->transb ? LT_OP_T : LT_OP_N;
	int compute = s->dtype == DT_TF32 ? LT_COMPUTE_32F_FAST_TF32 : LT_COMPUTE_32F;
	uint64_t sa = scales, sb = scales ? scales + sizeof(float) : 0;
	int st;

	st = lt->api.cublasLtMatmulDescCreate(&g->op, compute, LT_R_32F);
	if (lt_check(lt, st, "cublasLtMatmulDescCreate", __FILE__, __LINE__, err))
		return -1;
	st = lt->api.cublasLtMatmulDescSetAttribute(g->op, LT_DESC_TRANSA, &ta, sizeof(ta));
	if (st == 0)
		st = lt->api.cublasLtMatmulDescSetAttribute(g->op, LT_DESC_TRANSB, &tb, sizeof(tb));
	if (st == 0 && is_fp8(s->dtype) && scales)
		st = lt->api.cublasLtMatmulDescSetAttribute(g->op, LT_DESC_A_SCALE, &sa, sizeof(sa));
	if (st == 0 && is_fp8(s->dtype) && scales)
		st = lt->api.cublasLtMatmulDescSetAttribute(g->op, LT_DESC_B_SCALE, &sb, sizeof(sb));
	return lt_check(lt, st, "cublasLtMatmulDescSetAttribute", __FILE__, __LINE__, err);
}

static int pick_algo(struct lt_gemm *g, struct cuda_err *err)
{
	struct cublaslt *lt = g->lt;
	uint64_t ws = g->workspace;
	int got = 0, st;

	st = lt->api.cublasLtMatmulPreferenceCreate(&g->pref);
	if (lt_check(lt, st, "cublasLtMatmulPreferenceCreate", __FILE__, __LINE__, err))
		return -1;
	st = lt->api.cublasLtMatmulPreferenceSetAttribute(g->pref, LT_PREF_MAX_WORKSPACE, &ws,
							   sizeof(ws));
	if (lt_check(lt, st, "cublasLtMatmulPreferenceSetAttribute", __FILE__, __LINE__, err))
		return -1;
	st = lt->api.cublasLtMatmulAlgoGetHeuristic(lt->handle, g->op, g->a, g->b, g->d, g->d,
						     g->pref, 1, &g->heur, &got);
	if (lt_check(lt, st, "cublasLtMatmulAlgoGetHeuristic", __FILE__, __LINE__, err))
		return -1;
	if (got < 1)
		return cuda_err_set(err, "cublasLtMatmulAlgoGetHeuristic: no algorithm for this shape (%s:%d)",
			       __FILE__, __LINE__);
	return 0;
}

int cublaslt_gemm_prepare(struct cublaslt *lt, const struct gemm_shape *s, size_t workspace,
			  uint64_t scales, struct lt_gemm **out, struct cuda_err *err)
{
	struct lt_gemm *g;
	int64_t ar = s->transa ? s->k : s->m, ac = s->transa ? s->m : s->k;
	int64_t br = s->transb ? s->n : s->k, bc = s->transb ? s->k : s->n;

	*out = NULL;
	if (!lt->handle)
		return cuda_err_set(err, "cuBLASLt: no handle (cublaslt_create first)");
	if (gemm_unsupported(s, 99, 9))
		return cuda_err_set(err, "cuBLASLt: %s", gemm_unsupported(s, 99, 9));
	g = xcalloc(1, sizeof(*g));
	g->lt = lt;
	g->workspace = workspace;
	if (make_op(g, s, scales, err) ||
	    make_layout(lt, &g->a, s->dtype, ar, ac, s->batch, err) ||
	    make_layout(lt, &g->b, s->dtype, br, bc, s->batch, err) ||
	    make_layout(lt, &g->d, gemm_out_type(s), s->m, s->n, s->batch, err) ||
	    pick_algo(g, err)) {
		cublaslt_gemm_free(g);
		return -1;
	}
	*out = g;
	return 0;
}

int cublaslt_gemm_launch(struct lt_gemm *g, uint64_t a, uint64_t b, uint64_t d, uint64_t ws,
			 void *stream, struct cuda_err *err)
{
	struct cublaslt *lt = g->lt;
	const float alpha = 1.0f, beta = 0.0f;
	int st;

	st = lt->api.cublasLtMatmul(lt->handle, g->op, &alpha, (const void *)(uintptr_t)a, g->a,
				    (const void *)(uintptr_t)b, g->b, &beta,
				    (const void *)(uintptr_t)d, g->d, (void *)(uintptr_t)d, g->d,
				    &g->heur.algo, (void *)(uintptr_t)ws, g->workspace, stream);
	return lt_check(lt, st, "cublasLtMatmul", __FILE__, __LINE__, err);
}

void cublaslt_gemm_free(struct lt_gemm *g)
{
	if (!g)
		return;
	if (g->pref)
		g->lt->api.cublasLtMatmulPreferenceDestroy(g->pref);
	if (g->d)
		g->lt->api.cublasLtMatrixLayoutDestroy(g->d);
	if (g->b)
		g->lt->api.cublasLtMatrixLayoutDestroy(g->b);
	if (g->a)
		g->lt->api.cublasLtMatrixLayoutDestroy(g->a);
	if (g->op)
		g->lt->api.cublasLtMatmulDescDestroy(g->op);
	free(g);
}

/* Device memory of one timed GEMM. */
struct gemm_bufs {
	CUdeviceptr a, b, d, ws, scales;
};

struct gemm_call {
	struct lt_gemm *g;
	const struct gemm_bufs *m;
};

/* cuda_time's operation: one matmul on stream s. */
static int gemm_op(void *arg, CUstream s, struct cuda_err *err)
{
	const struct gemm_call *c = arg;

	return cublaslt_gemm_launch(c->g, c->m->a, c->m->b, c->m->d, c->m->ws, s, err);
}

static int gemm_alloc(struct cuda *cu, const struct ptx_module *ptx, const struct gemm_shape *s,
		      CUstream stream, struct gemm_bufs *m, struct cuda_err *err)
{
	static const float one[2] = { 1.0f, 1.0f };
	enum dtype in = s->dtype == DT_TF32 ? DT_FP32 : is_fp8(s->dtype) ? DT_FP8_E4M3 : s->dtype;

	if (cuda_alloc(cu, &m->a, (size_t)gemm_bytes_a(s), err) ||
	    cuda_alloc(cu, &m->b, (size_t)gemm_bytes_b(s), err) ||
	    cuda_alloc(cu, &m->d, (size_t)gemm_bytes_d(s), err) ||
	    cuda_alloc(cu, &m->ws, CUBLASLT_WORKSPACE, err))
		return -1;
	if (is_fp8(s->dtype) && (cuda_alloc(cu, &m->scales, sizeof(one), err) ||
				 cuda_h2d(cu, m->scales, one, sizeof(one), NULL, err)))
		return -1;
	if (ptx_fill_random(cu, ptx, m->a, (size_t)gemm_bytes_a(s), in, 17u, stream, err) ||
	    ptx_fill_random(cu, ptx, m->b, (size_t)gemm_bytes_b(s), in, 29u, stream, err))
		return -1;
	return cuda_stream_sync(cu, stream, err);
}

static void gemm_release(struct cuda *cu, struct gemm_bufs *m)
{
	struct cuda_err ignore = { .msg = "" };

	cuda_free(cu, m->a, &ignore);
	cuda_free(cu, m->b, &ignore);
	cuda_free(cu, m->d, &ignore);
	cuda_free(cu, m->ws, &ignore);
	cuda_free(cu, m->scales, &ignore);
}

int cublaslt_gemm_time(struct cublaslt *lt, struct cuda *cu, const struct ptx_module *ptx,
		       const struct gemm_shape *s, CUstream stream,
		       const struct cuda_timing_rule *rule, struct op_timing *out,
		       struct cuda_err *err)
{
	struct gemm_bufs m = { 0 };
	struct gemm_call call = { .m = &m };
	struct cuda_timing t;
	int rc = 0;

	*out = (struct op_timing){ NAN, NAN, NAN, 0, NAN, NAN };
	if (cublaslt_create(lt, err))
		return -1;
	if (gemm_alloc(cu, ptx, s, stream, &m, err))
		rc = -1;
	if (!rc)
		rc = cublaslt_gemm_prepare(lt, s, CUBLASLT_WORKSPACE, m.scales, &call.g, err);
	if (!rc)
		rc = cuda_time(cu, stream, gemm_op, &call, rule ? rule : &cuda_timing_default, &t, err);
	if (!rc) {
		*out = (struct op_timing){ .median_s = t.median_s, .p10_s = t.p10_s, .p90_s = t.p90_s,
					   .reps = t.reps, .gbps = NAN };
		out->tflops = gemm_flops(s) / t.median_s / 1e12;
	}
	cublaslt_gemm_free(call.g);
	gemm_release(cu, &m);
	return rc;
}
