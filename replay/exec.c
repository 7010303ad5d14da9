/* The replay executor: one planned kernel on one device, through cuBLASLt, PTX or NCCL. */
#include "replay/exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "replay/nccl.h"

/* Bytes above which a copy or collective is no replay a GPU holds (and sizes could overflow). */
#define EXEC_MAX_BYTES 1000000000000LL

struct exec {
	struct cuda *cu;
	int device;			/* the device kernels run on */
	int ngpus;			/* devices on this machine */
	struct cuda_device_info info;	/* of `device` */
	CUstream stream;		/* on `device` */
	struct ptx_module ptx;		/* loaded in exec_open; ptx.mod NULL when it failed */
	char ptx_err[EXEC_REASON_MAX];	/* why it failed */
	struct cublaslt *lt;		/* opened on the first GEMM; NULL before or when absent */
	struct nccl *nc;		/* opened on the first collective; NULL likewise */
	bool lt_tried, nc_tried;
	struct cuda_err lt_err;		/* why cuBLASLt could not be opened */
	struct cuda_err nc_err;		/* why NCCL could not be opened */
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

static int open_fail(struct exec *x, const struct cuda_err *ce, char *err, size_t errsz)
{
	snprintf(err, errsz, "%s", ce->msg);
	exec_close(x);
	return -1;
}

int exec_open(struct exec **out, int device, char *err, size_t errsz)
{
	struct exec *x;
	struct cuda_err ce = { .msg = "" };

	*out = NULL;
	x = xcalloc(1, sizeof(*x));
	x->device = device;
	if (cuda_open(&x->cu, &ce) || cuda_device_count(x->cu, &x->ngpus, &ce))
		return open_fail(x, &ce, err, errsz);
	if (device < 0 || device >= x->ngpus) {
		cuda_err_set(&ce, "device %d not present: this machine has %d GPU%s", device, x->ngpus,
			     x->ngpus == 1 ? "" : "s");
		return open_fail(x, &ce, err, errsz);
	}
	if (cuda_ctx_open(x->cu, device, NULL, &ce) || cuda_device_info(x->cu, device, &x->info, &ce) ||
	    cuda_stream_create(x->cu, &x->stream, &ce))
		return open_fail(x, &ce, err, errsz);
	if (ptx_load(x->cu, &x->ptx, x->info.sms, &ce)) {
		snprintf(x->ptx_err, sizeof(x->ptx_err), "%s", ce.msg);
		memset(&x->ptx, 0, sizeof(x->ptx));
	}
	*out = x;
	return 0;
}

void exec_close(struct exec *x)
{
	struct cuda_err ignore = { .msg = "" };

	if (!x)
		return;
	nccl_close(x->nc);
	cublaslt_close(x->lt);
	if (x->cu && x->ptx.mod)
		ptx_unload(x->cu, &x->ptx);
	if (x->cu && x->stream)
		cuda_stream_destroy(x->cu, x->stream, &ignore);
	cuda_close(x->cu);
	free(x);
}

const struct cuda_device_info *exec_device(const struct exec *x)
{
	return &x->info;
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

static void result_fail(struct exec_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void result_fail(struct exec_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result_set(r, EXEC_FAILED, fmt, ap);
	va_end(ap);
}

static void result_done(struct exec_result *r, const struct op_timing *t)
{
	r->status = EXEC_DONE;
	r->timing = *t;
	r->reason[0] = '\0';
}

/* The library behind a GEMM, opened once; NULL with x->lt_err set when absent. */
static struct cublaslt *gemm_lib(struct exec *x)
{
	if (!x->lt_tried && cublaslt_open(&x->lt, &x->lt_err))
		x->lt = NULL;
	x->lt_tried = true;
	return x->lt;
}

static struct nccl *coll_lib(struct exec *x)
{
	if (!x->nc_tried && nccl_open(&x->nc, &x->nc_err))
		x->nc = NULL;
	x->nc_tried = true;
	return x->nc;
}

static void run_gemm(struct exec *x, const struct gemm_shape *s, struct exec_result *r)
{
	const char *why = gemm_unsupported(s, x->info.cc_major, x->info.cc_minor);
	struct cuda_err ce = { .msg = "" };
	struct op_timing t;
	char method[sizeof(r->method)];

	snprintf(method, sizeof(method), "cuBLASLt %s %c%c", dtype_name(s->dtype),
		 s->transa ? 'T' : 'N', s->transb ? 'T' : 'N');
	if (why)
		result_skip(r, "%s", why);
	else if (!gemm_lib(x))
		result_skip(r, "%s", x->lt_err.msg);
	else if (!x->ptx.mod)
		result_fail(r, "%s", x->ptx_err);
	else if (cuda_ctx_use(x->cu, x->device, &ce) ||
		 cublaslt_gemm_time(x->lt, x->cu, &x->ptx, s, x->stream, NULL, &t, &ce))
		result_fail(r, "%s", ce.msg);
	else
		result_done(r, &t);
	snprintf(r->method, sizeof(r->method), "%s", method);
}

/* Device memory and what one timed run of a copy or fill moves. */
struct mem_call {
	struct exec *x;
	CUdeviceptr src, dst;
	size_t bytes;
	bool fill;
};

static int mem_op(void *arg, CUstream s, struct cuda_err *err)
{
	const struct mem_call *m = arg;

	if (m->fill)
		return ptx_write(m->x->cu, &m->x->ptx, m->dst, m->bytes, 0x3f803f80u, s, err);
	return ptx_copy(m->x->cu, &m->x->ptx, m->dst, m->src, m->bytes, s, err);
}

/* The timing of a copy or fill that moved `moved` bytes per run. */
static struct op_timing moved_timing(const struct cuda_timing *ct, double moved)
{
	return (struct op_timing){ .median_s = ct->median_s, .p10_s = ct->p10_s, .p90_s = ct->p90_s,
				   .reps = ct->reps, .tflops = NAN, .gbps = moved / ct->median_s / 1e9 };
}

static int mem_time(struct mem_call *m, struct op_timing *t, struct cuda_err *ce)
{
	struct exec *x = m->x;
	struct cuda_timing ct;
	double moved = (double)m->bytes * (m->fill ? 1 : 2);

	if (cuda_ctx_use(x->cu, x->device, ce) || cuda_alloc(x->cu, &m->dst, m->bytes, ce))
		return -1;
	if (!m->fill && (cuda_alloc(x->cu, &m->src, m->bytes, ce) ||
			 ptx_fill_random(x->cu, &x->ptx, m->src, m->bytes, DT_UINT8, 7u, x->stream, ce)))
		return -1;
	if (cuda_time(x->cu, x->stream, mem_op, m, &cuda_timing_default, &ct, ce))
		return -1;
	*t = moved_timing(&ct, moved);
	return 0;
}

/* Whether a copy or fill of req->bytes can run here; else r says why not. */
static bool bytes_runnable(const struct exec *x, const struct exec_req *req, struct exec_result *r)
{
	if (req->bytes <= 0)
		result_skip(r, "the bytes it moved are not known");
	else if (req->bytes > EXEC_MAX_BYTES)
		result_skip(r, "%lld bytes is more than a GPU holds", (long long)req->bytes);
	else if (!x->ptx.mod)
		result_fail(r, "%s", x->ptx_err);
	else
		return true;
	return false;
}

static void run_memory(struct exec *x, const struct exec_req *req, struct exec_result *r)
{
	struct mem_call m = { .x = x, .bytes = (size_t)req->bytes, .fill = req->fill };
	struct cuda_err ce = { .msg = "" }, ignore = { .msg = "" };
	struct op_timing t;

	if (bytes_runnable(x, req, r)) {
		if (mem_time(&m, &t, &ce))
			result_fail(r, "%s", ce.msg);
		else
			result_done(r, &t);
	}
	cuda_free(x->cu, m.src, &ignore);
	cuda_free(x->cu, m.dst, &ignore);
	snprintf(r->method, sizeof(r->method), "%s", req->fill ? "PTX write" : "PTX copy");
}

/* Pinned host memory, device memory and the direction of one timed host copy. */
struct host_call {
	struct exec *x;
	void *host;
	CUdeviceptr dev;
	size_t bytes;
	bool to_device;
};

static int host_op(void *arg, CUstream s, struct cuda_err *err)
{
	const struct host_call *h = arg;

	if (h->to_device)
		return cuda_h2d(h->x->cu, h->dev, h->host, h->bytes, s, err);
	return cuda_d2h(h->x->cu, h->host, h->dev, h->bytes, s, err);
}

/* Random bytes on the device, copied once to the pinned buffer, so both ends hold them. */
static int host_time(struct host_call *h, struct op_timing *t, struct cuda_err *ce)
{
	struct exec *x = h->x;
	struct cuda_timing ct;

	if (cuda_ctx_use(x->cu, x->device, ce) || cuda_alloc(x->cu, &h->dev, h->bytes, ce) ||
	    cuda_host_alloc(x->cu, &h->host, h->bytes, ce) ||
	    ptx_fill_random(x->cu, &x->ptx, h->dev, h->bytes, DT_UINT8, 7u, x->stream, ce) ||
	    cuda_stream_sync(x->cu, x->stream, ce) || cuda_d2h(x->cu, h->host, h->dev, h->bytes, NULL, ce))
		return -1;
	if (cuda_time(x->cu, x->stream, host_op, h, &cuda_timing_default, &ct, ce))
		return -1;
	*t = moved_timing(&ct, (double)h->bytes);
	return 0;
}

static void run_host(struct exec *x, const struct exec_req *req, struct exec_result *r)
{
	struct host_call h = { .x = x, .bytes = (size_t)req->bytes, .to_device = req->cls == EXEC_HTOD };
	struct cuda_err ce = { .msg = "" }, ignore = { .msg = "" };
	struct op_timing t;

	if (bytes_runnable(x, req, r)) {
		if (host_time(&h, &t, &ce))
			result_fail(r, "%s", ce.msg);
		else
			result_done(r, &t);
	}
	cuda_host_free(x->cu, h.host, &ignore);
	cuda_free(x->cu, h.dev, &ignore);
	snprintf(r->method, sizeof(r->method), "%s",
		 h.to_device ? "pinned HtoD copy" : "pinned DtoH copy");
}

static void run_coll(struct exec *x, const struct exec_req *req, struct exec_result *r)
{
	struct nccl_coll c = { .op = req->coll, .dtype = req->coll_dtype, .nranks = req->nranks };
	struct cuda_err ce = { .msg = "" }, ignore = { .msg = "" };
	char why[EXEC_REASON_MAX];
	struct op_timing t;

	c.count = nccl_count(req->coll, req->bytes, req->coll_dtype);
	if (req->bytes > EXEC_MAX_BYTES / (req->nranks > 1 ? req->nranks : 1))
		result_skip(r, "%lld bytes per GPU is more than a GPU holds", (long long)req->bytes);
	else if (exec_coll_skip_reason(req->coll, req->nranks, x->ngpus, why, sizeof(why)))
		result_skip(r, "%s", why);
	else if (c.count <= 0 || nccl_type(c.dtype == DT_UNKNOWN ? DT_UINT8 : c.dtype) < 0)
		result_skip(r, "NCCL has no %s collective of %lld bytes", dtype_name(c.dtype),
			    (long long)req->bytes);
	else if (!coll_lib(x))
		result_skip(r, "%s", x->nc_err.msg);
	else if (!nccl_supports(x->nc, req->coll))
		result_skip(r, "NCCL %d here has no %s", nccl_version(x->nc), coll_name(req->coll));
	else if (nccl_run(x->nc, x->cu, &c, NULL, &t, &ce))
		result_fail(r, "%s", ce.msg);
	else
		result_done(r, &t);
	cuda_ctx_use(x->cu, x->device, &ignore);
	snprintf(r->method, sizeof(r->method), "NCCL %s %s", coll_name(req->coll),
		 c.dtype == DT_UNKNOWN ? "bytes" : dtype_name(c.dtype));
}

void exec_run(struct exec *x, const struct exec_req *req, struct exec_result *r)
{
	result_skip(r, "not replayed: the planner does not replay this kind of kernel");
	switch (req->cls) {
	case EXEC_GEMM:
		run_gemm(x, &req->gemm, r);
		break;
	case EXEC_MEMORY:
		run_memory(x, req, r);
		break;
	case EXEC_COLLECTIVE:
		run_coll(x, req, r);
		break;
	case EXEC_HTOD:
	case EXEC_DTOH:
		run_host(x, req, r);
		break;
	default:
		break;
	}
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
	req->cls = k->method == PM_HTOD ? EXEC_HTOD : k->method == PM_DTOH ? EXEC_DTOH : EXEC_MEMORY;
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
	case PM_HTOD:
	case PM_DTOH:
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
