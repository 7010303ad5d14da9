/* NCCL through dlopen: the loader, result names, type numbers and counts. */
#include "replay/nccl.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

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

static int nc_fail(char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int nc_fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (!err || !n)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

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
		    int line, char *err, size_t n)
{
	const char *text;

	if (res == 0)
		return 0;
	text = nc->api.ncclGetErrorString ? nc->api.ncclGetErrorString(res) : NULL;
	return nc_fail(err, n, "%s: %s: %s (%s:%d)", call, nccl_result_name(res),
		       text ? text : "no description", file, line);
}

static void *open_lib(const char **path, char *err, size_t n)
{
	const char *env = getenv("SCALEAUDIT_LIBNCCL");
	void *h;

	*path = env && *env ? env : "libnccl.so.2";
	h = dlopen(*path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		nc_fail(err, n, "NCCL not found (dlopen: %s)", dlerror());
	return h;
}

int nccl_open(struct nccl **out, char *err, size_t errsz)
{
	struct nccl *nc;
	const char *path;
	void *h;

	*out = NULL;
	h = open_lib(&path, err, errsz);
	if (!h)
		return -1;
	nc = xcalloc(1, sizeof(*nc));
	nc->dl = h;
	nc->path = xstrdup(path);
	nc->version = -1;
	for (size_t i = 0; i < sizeof(nccl_syms) / sizeof(nccl_syms[0]); i++) {
		void *f = dlsym(h, nccl_syms[i].name);

		if (!f && nccl_syms[i].required) {
			nc_fail(err, errsz, "NCCL at %s lacks %s", path, nccl_syms[i].name);
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

void nccl_close(struct nccl *nc)
{
	if (!nc)
		return;
	for (int i = 0; i < nc->ncomms; i++)
		if (nc->comms[i])
			nc->api.ncclCommDestroy(nc->comms[i]);
	free(nc->comms);
	/* the library stays mapped: its proxy threads and atexit hooks live there */
	free(nc->path);
	free(nc);
}

int nccl_comm_init(struct nccl *nc, int ndev, char *err, size_t errsz)
{
	int res;

	if (nc->comms)
		return nc->ncomms == ndev ? 0 : nc_fail(err, errsz, "NCCL is already set up over %d GPUs", nc->ncomms);
	if (ndev < 1)
		return nc_fail(err, errsz, "NCCL needs at least one GPU");
	nc->comms = xcalloc((size_t)ndev, sizeof(*nc->comms));
	res = nc->api.ncclCommInitAll(nc->comms, ndev, NULL);
	if (res) {
		free(nc->comms);
		nc->comms = NULL;
		return nc_check(nc, res, "ncclCommInitAll", __FILE__, __LINE__, err, errsz);
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
	switch (op) {
	case COLL_ALLREDUCE: case COLL_ALLGATHER: case COLL_REDUCESCATTER:
	case COLL_BROADCAST: case COLL_REDUCE: case COLL_SENDRECV: case COLL_SEND:
	case COLL_RECV:
		return 1;
	case COLL_ALLTOALL:
		return nc->api.ncclAlltoAll != NULL;
	default:
		return 0;
	}
}

int64_t nccl_count(enum coll_op op, int64_t bytes, enum dtype t)
{
	int size = t == DT_UNKNOWN ? 1 : dtype_size(t);

	(void)op;
	if (bytes <= 0 || size <= 0)
		return -1;
	return bytes / size;
}
