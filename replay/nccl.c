/* NCCL through dlopen: the loader, result names, type numbers and counts. */
#include "replay/nccl.h"

#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "replay/ptx.h"

/* The NCCL ABI, declared from the public API: a communicator is a pointer, results ints. */
typedef void *nccl_comm;

struct nccl_api {
	int (*ncclGetVersion)(int *v);
	const char *(*ncclGetErrorString)(int res);
	int (*ncclCommInitAll)(nccl_comm *comms, int ndev, const int *devs);
	int (*ncclCommDestroy)(nccl_comm c);
	int (*ncclGroupStart)(void);
	int (*ncclGroupEnd)(void);
	int (*ncclAllReduce)(const void *s, void *r, size_t count, int type, int op, nccl_comm c,
			     void *stream);
	int (*ncclAllGather)(const void *s, void *r, size_t count, int type, nccl_comm c,
			     void *stream);
	int (*ncclReduceScatter)(const void *s, void *r, size_t count, int type, int op,
				 nccl_comm c, void *stream);
	int (*ncclBroadcast)(const void *s, void *r, size_t count, int type, int root,
			     nccl_comm c, void *stream);
	int (*ncclReduce)(const void *s, void *r, size_t count, int type, int op, int root,
			  nccl_comm c, void *stream);
	int (*ncclSend)(const void *s, size_t count, int type, int peer, nccl_comm c, void *stream);
	int (*ncclRecv)(void *r, size_t count, int type, int peer, nccl_comm c, void *stream);
	int (*ncclAlltoAll)(const void *s, void *r, size_t count, int type, nccl_comm c,
			    void *stream);	/* optional: NCCL 2.28+ */
};

struct nccl {
	void *dl;		/* dlopen handle; never dlclosed */
	char *path;		/* what was opened; owned */
	struct nccl_api api;
	int version;		/* ncclGetVersion(); -1 unknown */
	nccl_comm *comms;	/* one per device after nccl_comm_init(); owned */
	int ncomms;
};

#define NCCL_SYM(name, need) { #name, offsetof(struct nccl_api, name), need }
static const struct {
	const char *name;
	size_t off;
	bool required;
} nccl_syms[] = {
	NCCL_SYM(ncclGetVersion, true),	   NCCL_SYM(ncclGetErrorString, true),
	NCCL_SYM(ncclCommInitAll, true),   NCCL_SYM(ncclCommDestroy, true),
	NCCL_SYM(ncclGroupStart, true),	   NCCL_SYM(ncclGroupEnd, true),
	NCCL_SYM(ncclAllReduce, true),	   NCCL_SYM(ncclAllGather, true),
	NCCL_SYM(ncclReduceScatter, true), NCCL_SYM(ncclBroadcast, true),
	NCCL_SYM(ncclReduce, true),	   NCCL_SYM(ncclSend, true),
	NCCL_SYM(ncclRecv, true),	   NCCL_SYM(ncclAlltoAll, false),
};

/* The entry point each collective the runner runs needs (Send/Recv: ncclSend, with ncclRecv). */
static const struct {
	enum coll_op op;
	size_t off;
} coll_entry[] = {
	{ COLL_ALLREDUCE, offsetof(struct nccl_api, ncclAllReduce) },
	{ COLL_ALLGATHER, offsetof(struct nccl_api, ncclAllGather) },
	{ COLL_REDUCESCATTER, offsetof(struct nccl_api, ncclReduceScatter) },
	{ COLL_BROADCAST, offsetof(struct nccl_api, ncclBroadcast) },
	{ COLL_REDUCE, offsetof(struct nccl_api, ncclReduce) },
	{ COLL_ALLTOALL, offsetof(struct nccl_api, ncclAlltoAll) },
	{ COLL_SENDRECV, offsetof(struct nccl_api, ncclSend) },
	{ COLL_SEND, offsetof(struct nccl_api, ncclSend) },
	{ COLL_RECV, offsetof(struct nccl_api, ncclRecv) },
};

static const char *const result_names[] = {
	"ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
	"ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress",
};

/* ncclDataType_t numbers (ncclNumTypes = 12 since 2.24). */
static const struct {
	enum dtype dt;
	int nccl;
} nccl_types[] = {
	{ DT_INT8, 0 },	    { DT_UINT8, 1 },	{ DT_BOOL, 1 },	 { DT_INT32, 2 },
	{ DT_UINT32, 3 },   { DT_INT64, 4 },	{ DT_UINT64, 5 }, { DT_FP16, 6 },
	{ DT_FP32, 7 },	    { DT_TF32, 7 },	{ DT_FP64, 8 },	 { DT_BF16, 9 },
	{ DT_FP8, 10 },	    { DT_FP8_E4M3, 10 }, { DT_FP8_E5M2, 11 },
};

const char *nccl_result_name(int result)
{
	static _Thread_local char other[32];

	if (result >= 0 && (size_t)result < sizeof(result_names) / sizeof(result_names[0]))
		return result_names[result];
	snprintf(other, sizeof(other), "ncclResult%d", result);
	return other;
}

/* 0, or -1 with `ncclXxx: ncclResultName: text (file:line)` in err. */
static int nc_check(const struct nccl *nc, int res, const char *call, const char *file,
		    int line, struct cuda_err *err)
{
	const char *text;

	if (res == 0)
		return 0;
	text = nc->api.ncclGetErrorString ? nc->api.ncclGetErrorString(res) : NULL;
	return cuda_err_set(err, "%s: %s: %s (%s:%d)", call, nccl_result_name(res),
		       text ? text : "no description", file, line);
}

static void *open_lib(const char **path, struct cuda_err *err)
{
	const char *env = getenv("SCALEAUDIT_LIBNCCL");
	void *h;

	*path = env && *env ? env : "libnccl.so.2";
	h = dlopen(*path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		cuda_err_set(err, "NCCL not found (dlopen: %s)", dlerror());
	return h;
}

int nccl_open(struct nccl **out, struct cuda_err *err)
{
	struct nccl *nc;
	const char *path;
	void *h;

	*out = NULL;
	h = open_lib(&path, err);
	if (!h)
		return -1;
	nc = xcalloc(1, sizeof(*nc));
	nc->dl = h;
	nc->path = xstrdup(path);
	nc->version = -1;
	for (size_t i = 0; i < sizeof(nccl_syms) / sizeof(nccl_syms[0]); i++) {
		void *f = dlsym(h, nccl_syms[i].name);

		if (!f && nccl_syms[i].required) {
			cuda_err_set(err, "NCCL at %s lacks %s", path, nccl_syms[i].name);
			nccl_close(nc);
			return -1;
		}
		memcpy((char *)&nc->api + nccl_syms[i].off, &f, sizeof(f));
	}
	if (nc->api.ncclGetVersion(&nc->version) != 0)
		nc->version = -1;
	*out = nc;
	return 0;
}

/* Destroys the communicators, if any. */
static void comms_destroy(struct nccl *nc)
{
	for (int i = 0; i < nc->ncomms; i++)
		if (nc->comms[i])
			nc->api.ncclCommDestroy(nc->comms[i]);
	free(nc->comms);
	nc->comms = NULL;
	nc->ncomms = 0;
}

void nccl_close(struct nccl *nc)
{
	if (!nc)
		return;
	comms_destroy(nc);
	/* the library stays mapped: its proxy threads and atexit hooks live there */
	free(nc->path);
	free(nc);
}

int nccl_comm_init(struct nccl *nc, int ndev, struct cuda_err *err)
{
	int res;

	if (nc->comms && nc->ncomms == ndev)
		return 0;
	comms_destroy(nc);
	if (ndev < 1)
		return cuda_err_set(err, "NCCL needs at least one GPU");
	nc->comms = xcalloc((size_t)ndev, sizeof(*nc->comms));
	res = nc->api.ncclCommInitAll(nc->comms, ndev, NULL);
	if (res) {
		free(nc->comms);
		nc->comms = NULL;
		return nc_check(nc, res, "ncclCommInitAll", __FILE__, __LINE__, err);
	}
	nc->ncomms = ndev;
	return 0;
}

const char *nccl_path(const struct nccl *nc)
{
	return nc->path;
}

int nccl_version(const struct nccl *nc)
{
	return nc->version;
}

int nccl_type(enum dtype t)
{
	for (size_t i = 0; i < sizeof(nccl_types) / sizeof(nccl_types[0]); i++)
		if (nccl_types[i].dt == t)
			return nccl_types[i].nccl;
	return -1;
}

int nccl_supports(const struct nccl *nc, enum coll_op op)
{
	for (size_t i = 0; i < sizeof(coll_entry) / sizeof(coll_entry[0]); i++)
		if (coll_entry[i].op == op) {
			void *f;

			memcpy(&f, (const char *)&nc->api + coll_entry[i].off, sizeof(f));
			return f != NULL;
		}
	return 0;
}

int64_t nccl_count(enum coll_op op, int64_t bytes, enum dtype t)
{
	int size = t == DT_UNKNOWN ? 1 : dtype_size(t);

	(void)op;
	if (bytes <= 0 || size <= 0)
		return -1;
	return bytes / size;
}

/* Element size of a collective's data; 1 for bytes. */
static int64_t esize(enum dtype t)
{
	return t == DT_UNKNOWN ? 1 : dtype_size(t);
}

/* Elements in each rank's send and receive buffers. */
static void buffer_counts(const struct nccl_coll *c, int64_t *send, int64_t *recv)
{
	int64_t n = c->nranks;

	*send = *recv = c->count;
	if (c->op == COLL_ALLGATHER)
		*recv = c->count * n;
	if (c->op == COLL_REDUCESCATTER || c->op == COLL_ALLTOALL)
		*send = *recv = c->count / n * n;
	if (c->op == COLL_REDUCESCATTER)
		*recv = c->count / n;
}

int64_t nccl_coll_size(const struct nccl_coll *c)
{
	int64_t send, recv;

	if (c->count <= 0 || c->nranks < 1 || esize(c->dtype) <= 0)
		return -1;
	buffer_counts(c, &send, &recv);
	return (send > recv ? send : recv) * esize(c->dtype);
}

/* What one rank holds for the timed runs. */
struct rank_state {
	CUdeviceptr send, recv;
	CUstream stream;
	CUevent start, end;
};

struct coll_run {
	struct nccl *nc;
	struct cuda *cu;
	const struct nccl_coll *c;
	struct rank_state *r;
	int type;		/* ncclDataType_t */
};

/* Enqueues rank d's part of the collective (inside a group). */
static int launch_rank(const struct coll_run *cr, int d)
{
	const struct nccl_api *a = &cr->nc->api;
	const struct rank_state *r = &cr->r[d];
	const void *sb = (const void *)(uintptr_t)r->send;
	void *rb = (void *)(uintptr_t)r->recv, *s = r->stream;
	nccl_comm comm = cr->nc->comms[d];
	int n = cr->c->nranks, t = cr->type, res;
	size_t count = (size_t)cr->c->count;

	switch (cr->c->op) {
	case COLL_ALLREDUCE:
		return a->ncclAllReduce(sb, rb, count, t, 0, comm, s);
	case COLL_ALLGATHER:
		return a->ncclAllGather(sb, rb, count, t, comm, s);
	case COLL_REDUCESCATTER:
		return a->ncclReduceScatter(sb, rb, count / (size_t)n, t, 0, comm, s);
	case COLL_BROADCAST:
		return a->ncclBroadcast(sb, rb, count, t, 0, comm, s);
	case COLL_REDUCE:
		return a->ncclReduce(sb, rb, count, t, 0, 0, comm, s);
	case COLL_ALLTOALL:
		return a->ncclAlltoAll(sb, rb, count / (size_t)n, t, comm, s);
	default:	/* send to the next rank, receive from the previous: a ring */
		res = a->ncclSend(sb, count, t, (d + 1) % n, comm, s);
		return res ? res : a->ncclRecv(rb, count, t, (d + n - 1) % n, comm, s);
	}
}

/* One repetition: events around the grouped collective on every stream; seconds of the slowest. */
static int run_once(const struct coll_run *cr, double *seconds, struct cuda_err *err)
{
	int n = cr->c->nranks, res = 0;
	float ms, worst = 0;

	for (int d = 0; d < n; d++)
		if (cuda_ctx_use(cr->cu, d, err) || cuda_event_record(cr->cu, cr->r[d].start, cr->r[d].stream, err))
			return -1;
	res = cr->nc->api.ncclGroupStart();
	if (!res) {
		int end;

		for (int d = 0; d < n && !res; d++)
			res = launch_rank(cr, d);
		end = cr->nc->api.ncclGroupEnd();	/* closes the group whatever happened */
		res = res ? res : end;
	}
	if (res)
		return cuda_err_set(err, "%s: %s: %s (%s:%d)", coll_name(cr->c->op), nccl_result_name(res),
				    cr->nc->api.ncclGetErrorString(res), __FILE__, __LINE__);
	for (int d = 0; d < n; d++)
		if (cuda_ctx_use(cr->cu, d, err) || cuda_event_record(cr->cu, cr->r[d].end, cr->r[d].stream, err))
			return -1;
	for (int d = 0; d < n; d++) {
		if (cuda_event_sync(cr->cu, cr->r[d].end, err) ||
		    cuda_event_ms(cr->cu, cr->r[d].start, cr->r[d].end, &ms, err))
			return -1;
		worst = ms > worst ? ms : worst;
	}
	*seconds = worst / 1e3;
	return 0;
}

static int time_runs(const struct coll_run *cr, const struct cuda_timing_rule *rule,
		     struct cuda_timing *t, struct cuda_err *err)
{
	double samples[CUDA_TIMING_MAX_REPS], total = 0, s;
	int n = 0, max = rule->max_reps < CUDA_TIMING_MAX_REPS ? rule->max_reps : CUDA_TIMING_MAX_REPS;

	for (int i = 0; i < rule->warmup; i++)
		if (run_once(cr, &s, err))
			return -1;
	while (n < max && !cuda_timing_done(rule, samples, n, total)) {
		if (run_once(cr, &samples[n], err))
			return -1;
		total += samples[n++];
	}
	t->stable = false;
	cuda_timing_stats(samples, n, t);
	t->stable = t->spread <= rule->max_spread;
	return 0;
}

/* Opens rank d's context and stream, allocates and fills its buffers. */
static int rank_setup(struct coll_run *cr, int d, struct cuda_err *err)
{
	struct rank_state *r = &cr->r[d];
	struct cuda_device_info info;
	struct ptx_module m = { 0 };
	int64_t send, recv, es = esize(cr->c->dtype);
	int rc;

	buffer_counts(cr->c, &send, &recv);
	if (cuda_ctx_open(cr->cu, d, NULL, err) || cuda_device_info(cr->cu, d, &info, err) ||
	    cuda_stream_create(cr->cu, &r->stream, err) || cuda_event_create(cr->cu, &r->start, err) ||
	    cuda_event_create(cr->cu, &r->end, err) ||
	    cuda_alloc(cr->cu, &r->send, (size_t)(send * es), err) ||
	    cuda_alloc(cr->cu, &r->recv, (size_t)(recv * es), err))
		return -1;
	if (ptx_load(cr->cu, &m, info.sms, err))
		return -1;
	rc = ptx_fill_random(cr->cu, &m, r->send, (size_t)(send * es), cr->c->dtype, 1234u + (unsigned)d,
			     r->stream, err);
	rc = rc ? rc : cuda_stream_sync(cr->cu, r->stream, err);
	ptx_unload(cr->cu, &m);
	return rc;
}

static void rank_release(struct coll_run *cr, int d)
{
	struct rank_state *r = &cr->r[d];
	struct cuda_err ignore = { .msg = "" };

	if (cuda_ctx_use(cr->cu, d, &ignore))
		return;
	cuda_free(cr->cu, r->send, &ignore);
	cuda_free(cr->cu, r->recv, &ignore);
	cuda_event_destroy(cr->cu, r->start, &ignore);
	cuda_event_destroy(cr->cu, r->end, &ignore);
	cuda_stream_destroy(cr->cu, r->stream, &ignore);
}

static void fill_timing(const struct nccl_coll *c, const struct cuda_timing *t, struct op_timing *out)
{
	double size = (double)nccl_coll_size(c);

	*out = (struct op_timing){ .median_s = t->median_s, .p10_s = t->p10_s, .p90_s = t->p90_s,
				   .reps = t->reps, .tflops = NAN };
	out->gbps = t->median_s > 0 ? size / t->median_s / 1e9 * coll_busbw_factor(c->op, c->nranks) : NAN;
}

int nccl_run(struct nccl *nc, struct cuda *cu, const struct nccl_coll *c,
	     const struct cuda_timing_rule *rule, struct op_timing *out, struct cuda_err *err)
{
	struct coll_run cr = { .nc = nc, .cu = cu, .c = c, .type = nccl_type(c->dtype) };
	struct cuda_timing t;
	int rc = 0, made = 0;

	*out = (struct op_timing){ NAN, NAN, NAN, 0, NAN, NAN };
	if (c->dtype == DT_UNKNOWN)
		cr.type = nccl_type(DT_UINT8);
	if (cr.type < 0 || c->nranks < 1 || nccl_coll_size(c) <= 0 || !nccl_supports(nc, c->op))
		return cuda_err_set(err, "NCCL cannot run %s of %lld %s over %d GPUs", coll_name(c->op),
				    (long long)c->count, dtype_name(c->dtype), c->nranks);
	cr.r = xcalloc((size_t)c->nranks, sizeof(*cr.r));
	for (; made < c->nranks && !rc; made++)
		rc = rank_setup(&cr, made, err);
	if (!rc)
		rc = nccl_comm_init(nc, c->nranks, err);
	if (!rc)
		rc = time_runs(&cr, rule ? rule : &cuda_timing_default, &t, err);
	if (!rc)
		fill_timing(c, &t, out);
	for (int d = 0; d < made; d++)
		rank_release(&cr, d);
	free(cr.r);
	return rc;
}
