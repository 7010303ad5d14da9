/* The replay executor: one planned kernel on one device, through cuBLASLt, PTX or NCCL. */
#include "replay/exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct exec {
	int device;			/* the device kernels run on */
	struct cublaslt *lt;		/* opened on the first GEMM; NULL before */
};

static const char *const status_names[] = {
	[EXEC_DONE] = "done", [EXEC_SKIPPED] = "skipped", [EXEC_FAILED] = "failed",
};

const char *exec_status_name(enum exec_status s)
{
	return (unsigned)s < sizeof(status_names) / sizeof(status_names[0]) ? status_names[s] : "?";
}

const char *exec_coll_skip_reason(enum coll_op op, int nranks, int ngpus, char *buf, size_t n)
{
	if (nranks >= 1 && nranks <= ngpus)
		return NULL;
	if (nranks < 1)
		snprintf(buf, n, "the trial's rank count for %s is not known", coll_name(op));
	else
		snprintf(buf, n, "the trial ran %s over %d GPUs; this machine has %d", coll_name(op),
			 nranks, ngpus);
	return buf;
}

int exec_open(struct exec **out, int device, char *err, size_t errsz)
{
	*out = NULL;
	snprintf(err, errsz, "no CUDA driver layer in this build");
	(void)device;
	return -1;
}

void exec_close(struct exec *x)
{
	free(x);
}

/* Sets r to status st with a reason; the timing unknown. */
static void result_set(struct exec_result *r, enum exec_status st, const char *fmt, va_list ap)
{
	*r = (struct exec_result){ .status = st };
	r->timing = (struct op_timing){ .median_s = NAN, .p10_s = NAN, .p90_s = NAN, .reps = 0,
					.tflops = NAN, .gbps = NAN };
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
}

static void result_skip(struct exec_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void result_skip(struct exec_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result_set(r, EXEC_SKIPPED, fmt, ap);
	va_end(ap);
}

void exec_run(struct exec *x, const struct exec_req *req, struct exec_result *r)
{
	(void)x;
	(void)req;
	result_skip(r, "no CUDA driver layer in this build");
}

/* The dtype a planned GEMM runs in: tf32 where the kernel name said so over fp32 data. */
static enum dtype gemm_dtype(const struct plan_kernel *k)
{
	enum dtype t = k->gemm.a_type != DT_UNKNOWN ? k->gemm.a_type : k->dtype;

	if (t == DT_FP32 && k->dtype == DT_TF32)
		return DT_TF32;
	return t;
}

static int gemm_req(const struct plan_kernel *k, struct exec_req *req, char *why, size_t n)
{
	const struct plan_gemm *g = &k->gemm;

	if (g->m <= 0 || g->n <= 0 || g->k <= 0) {
		snprintf(why, n, "the GEMM's shape is not known");
		return -1;
	}
	req->cls = EXEC_GEMM;
	req->gemm = (struct gemm_shape){
		.m = g->n, .n = g->m, .k = g->k, .batch = g->batch > 0 ? g->batch : 1,
		.transa = g->transb, .transb = g->transa,
		.dtype = gemm_dtype(k), .out = g->c_type,
	};
	if (req->gemm.dtype == DT_FP8 || req->gemm.dtype == DT_FP8_E4M3) {
		req->gemm.transa = true;
		req->gemm.transb = false;
	}
	return 0;
}

static int memory_req(const struct plan_kernel *k, struct exec_req *req, char *why, size_t n)
{
	if (k->bytes <= 0) {
		snprintf(why, n, "the bytes it moved are not known");
		return -1;
	}
	req->cls = EXEC_MEMORY;
	req->bytes = k->bytes;
	req->fill = k->method == PM_FILL;
	return 0;
}

static int coll_req(const struct plan_kernel *k, struct exec_req *req, char *why, size_t n)
{
	const struct plan_coll *c = &k->coll;
	int size = c->dtype == DT_UNKNOWN ? 1 : dtype_size(c->dtype);

	if (c->op == COLL_NONE || c->count <= 0 || size <= 0) {
		snprintf(why, n, "the collective's op, count or dtype is not known");
		return -1;
	}
	req->cls = EXEC_COLLECTIVE;
	req->coll = c->op;
	req->coll_dtype = c->dtype;
	req->bytes = c->count * size;
	req->nranks = c->nranks;
	return 0;
}

int exec_req_from_plan(const struct plan_kernel *k, struct exec_req *req, char *why, size_t n)
{
	*req = (struct exec_req){ .cls = EXEC_OTHER, .bytes = -1, .coll = COLL_NONE, .nranks = -1 };
	switch (k->method) {
	case PM_CUBLASLT:
		return gemm_req(k, req, why, n);
	case PM_COPY:
	case PM_FILL:
		return memory_req(k, req, why, n);
	case PM_NCCL:
		return coll_req(k, req, why, n);
	default:
		snprintf(why, n, "%s", k->why_not ? k->why_not : "the plan does not replay it");
		return -1;
	}
}

void exec_kernel(struct exec *x, const struct plan_kernel *k, struct exec_result *r)
{
	struct exec_req req;
	char why[EXEC_REASON_MAX];

	if (exec_req_from_plan(k, &req, why, sizeof(why)) == 0) {
		exec_run(x, &req, r);
		return;
	}
	result_skip(r, "%s", why);
}
