/* cuBLASLt through dlopen: the loader, status names, type numbers and shape checks. */
#include "replay/cublaslt.h"

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
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

/* cudaDataType numbers of the dtypes the runner runs. */
static const struct {
	enum dtype dt;
	int cuda;
} cuda_types[] = {
	{ DT_FP32, 0 }, { DT_TF32, 0 }, { DT_FP16, 2 }, { DT_BF16, 14 },
	{ DT_FP8, 28 }, { DT_FP8_E4M3, 28 },
};

static int lt_fail(char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int lt_fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (!err || !n)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

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
	     int line, char *err, size_t n)
{
	const char *name;

	if (status == 0)
		return 0;
	name = lt && lt->api.cublasLtGetStatusName ? lt->api.cublasLtGetStatusName(status) : NULL;
	if (!name || !*name)
		name = cublaslt_status_name(status);
	return lt_fail(err, n, "%s: %s (%s:%d)", call, name, file, line);
}

static void *open_first(const char **path, char *err, size_t n)
{
	const char *env = getenv("SCALEAUDIT_LIBCUBLASLT");
	void *h;

	if (env && *env) {
		*path = env;
		h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			lt_fail(err, n, "cuBLASLt not found (dlopen: %s)", dlerror());
		return h;
	}
	for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
		*path = sonames[i];
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	lt_fail(err, n, "cuBLASLt not found (dlopen: %s)", dlerror());
	return NULL;
}

int cublaslt_open(struct cublaslt **out, char *err, size_t errsz)
{
	struct cublaslt *lt;
	const char *path = NULL;
	void *h;

	*out = NULL;
	h = open_first(&path, err, errsz);
	if (!h)
		return -1;
	lt = xcalloc(1, sizeof(*lt));
	lt->dl = h;
	lt->path = xstrdup(path);
	for (size_t i = 0; i < sizeof(lt_syms) / sizeof(lt_syms[0]); i++) {
		void *f = dlsym(h, lt_syms[i].name);

		if (!f) {
			lt_fail(err, errsz, "cuBLASLt at %s lacks %s", path, lt_syms[i].name);
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

int cublaslt_create(struct cublaslt *lt, char *err, size_t errsz)
{
	int st;

	if (lt->handle)
		return 0;
	st = lt->api.cublasLtCreate(&lt->handle);
	if (st)
		lt->handle = NULL;
	return lt_check(lt, st, "cublasLtCreate", __FILE__, __LINE__, err, errsz);
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
	int cc = cc_major * 10 + cc_minor;

	if (s->m <= 0 || s->n <= 0 || s->k <= 0 || s->batch <= 0)
		return "the shape is not known";
	if (cublaslt_cuda_type(s->dtype) < 0)
		return "cuBLASLt replay runs fp32, tf32, bf16, fp16 and fp8 e4m3 only";
	if ((s->dtype == DT_FP8 || s->dtype == DT_FP8_E4M3) && cc < 89)
		return "fp8 needs compute capability 8.9";
	if (s->dtype == DT_BF16 && cc < 80)
		return "bf16 needs compute capability 8.0";
	if (s->dtype == DT_TF32 && cc < 80)
		return "tf32 needs compute capability 8.0";
	return NULL;
}

double gemm_flops(const struct gemm_shape *s)
{
	if (s->m <= 0 || s->n <= 0 || s->k <= 0 || s->batch <= 0)
		return NAN;
	return 2.0 * (double)s->m * (double)s->n * (double)s->k * (double)s->batch;
}
