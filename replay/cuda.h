/*
 * cuda: the CUDA driver, opened at run time with dlopen (never linked), its
 * entry points resolved through cuGetProcAddress at a pinned ABI version, and
 * a thin checked call layer over it: devices, primary contexts, memory,
 * copies, PTX modules, launches, streams, events, and a timing helper.
 *
 * Every failing driver call is recorded into a struct cuda_err the caller
 * owns as "cuXxx: CUDA_ERROR_NAME: description (replay/file.c:line)"; the
 * functions return 0 on success and -1 on failure. Nothing here prints.
 * The driver types below are declared from the public driver API (cuda.h);
 * the tool includes no CUDA header.
 */
#ifndef REPLAY_CUDA_H
#define REPLAY_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Driver API types, as the driver's public header declares them. */
typedef int CUresult;				/* 0 = CUDA_SUCCESS */
typedef int CUdevice;				/* ordinal 0..count-1 */
typedef unsigned long long CUdeviceptr;		/* a device address */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;		/* the same pointer a cudaStream_t is */
typedef struct CUevent_st *CUevent;

/* CUresult values the tool tests for. */
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
};

/* The environment variable that names the driver library instead of libcuda.so.1. */
#define CUDA_LIBRARY_ENV "SCALEAUDIT_LIBCUDA"
#define CUDA_LIBRARY_DEFAULT "libcuda.so.1"

/*
 * The first error since the caller cleared it (later ones, often cleanup
 * failures caused by the first, are counted but not kept). Zero it (or
 * cuda_err_clear) before use.
 */
struct cuda_err {
	char msg[1024];		/* one line, no newline; "" when none */
	CUresult code;		/* the driver's code; -1 for errors not from a driver call */
	int count;		/* errors recorded since the last clear */
};

void cuda_err_clear(struct cuda_err *err);
/*
 * Records an error that is not a driver call's (a cuBLASLt status, a missing
 * symbol, a bad argument): printf-style, one line. Keeps the first error as
 * above. Returns -1, so a failure path is `return cuda_err_set(...)`.
 */
int cuda_err_set(struct cuda_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A loaded driver: opaque. */
struct cuda;

/*
 * Opens the driver (CUDA_LIBRARY_ENV if set, else libcuda.so.1), resolves
 * every entry point, and calls cuInit(0). On failure *out is NULL and err
 * holds one line: "no CUDA driver: libcuda.so.1 not found (dlopen: ...)"
 * when the library cannot be loaded, "no CUDA driver: PATH lacks cuXxx"
 * when an entry point is missing, else the failing call's message (the
 * toolkit's stub library answers cuInit with CUDA_ERROR_STUB_LIBRARY).
 */
int cuda_open(struct cuda **out, struct cuda_err *err);
/* Releases the contexts still retained through cuda_ctx_open, closes the library. NULL is fine. */
void cuda_close(struct cuda *cu);
/* The library path that was opened. */
const char *cuda_library(const struct cuda *cu);

/*
 * Any other driver entry point, for code that calls the driver directly:
 * cuGetProcAddress(name, cuda_version), else dlsym of `fallback` (the
 * versioned export, "cuXxx_v2"; NULL: name itself). NULL when absent.
 */
void *cuda_symbol(struct cuda *cu, const char *name, int cuda_version, const char *fallback);

/* cuDriverGetVersion: 12080 = CUDA 12.8. */
int cuda_driver_version(struct cuda *cu, int *version, struct cuda_err *err);
int cuda_device_count(struct cuda *cu, int *count, struct cuda_err *err);

struct cuda_device_info {
	int ordinal;
	char name[256];		/* cuDeviceGetName */
	int cc_major, cc_minor;
	int sms;		/* multiprocessors */
	int64_t total_bytes;	/* cuDeviceTotalMem */
	int64_t free_bytes;	/* cuMemGetInfo in its primary context; -1 unless a context was open */
	int clock_khz;		/* SM clock, kHz; -1 unknown */
	int mem_clock_khz;	/* memory clock, kHz; -1 unknown */
	int bus_width_bits;	/* memory bus, bits; -1 unknown */
	double mem_gbps;	/* 2 x mem clock x bus width / 8, GB/s (1e9 B/s); NaN unknown */
	int l2_bytes;		/* -1 unknown */
	int pci_domain, pci_bus, pci_device;	/* -1 unknown */
};
/* Properties of device `ordinal`; free_bytes is filled when cuda_ctx_open was called for it. */
int cuda_device_info(struct cuda *cu, int ordinal, struct cuda_device_info *out, struct cuda_err *err);

/*
 * The device's primary context (shared with the CUDA runtime, so cuBLASLt
 * and NCCL see the same allocations and streams), retained and made current
 * on this thread. Retained once per device; cuda_close releases it.
 */
int cuda_ctx_open(struct cuda *cu, int ordinal, CUcontext *ctx, struct cuda_err *err);
/* Makes device `ordinal`'s context (cuda_ctx_open first) current on this thread. */
int cuda_ctx_use(struct cuda *cu, int ordinal, struct cuda_err *err);
int cuda_ctx_sync(struct cuda *cu, struct cuda_err *err);	/* cuCtxSynchronize */
/* Free and total bytes of the current context's device. */
int cuda_mem_info(struct cuda *cu, int64_t *free_bytes, int64_t *total_bytes, struct cuda_err *err);

/*
 * Device memory in the current context. The size is rounded up to a
 * multiple of 16 bytes, so the project's kernels may touch whole 16-byte
 * units; the address is at least 256-byte aligned. cuda_free(0) is fine.
 */
int cuda_alloc(struct cuda *cu, CUdeviceptr *p, size_t bytes, struct cuda_err *err);
int cuda_free(struct cuda *cu, CUdeviceptr p, struct cuda_err *err);
/* Pinned (page-locked) host memory, cuMemHostAlloc; cuda_host_free(NULL) is fine. */
int cuda_host_alloc(struct cuda *cu, void **p, size_t bytes, struct cuda_err *err);
int cuda_host_free(struct cuda *cu, void *p, struct cuda_err *err);

/* Copies and fills; a NULL stream means the synchronous call, else the async one on it. */
int cuda_memset8(struct cuda *cu, CUdeviceptr p, unsigned char v, size_t bytes, struct cuda_err *err);
int cuda_h2d(struct cuda *cu, CUdeviceptr dst, const void *src, size_t bytes, CUstream s, struct cuda_err *err);
int cuda_d2h(struct cuda *cu, void *dst, CUdeviceptr src, size_t bytes, CUstream s, struct cuda_err *err);
int cuda_d2d(struct cuda *cu, CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s, struct cuda_err *err);
/* Device `dst_dev` <- device `src_dev` (both contexts open), cuMemcpyPeer[Async]. */
int cuda_peer_copy(struct cuda *cu, int dst_dev, CUdeviceptr dst, int src_dev, CUdeviceptr src,
		   size_t bytes, CUstream s, struct cuda_err *err);
/* cuDeviceCanAccessPeer: *can = 1 when `dev` can reach `peer`'s memory. */
int cuda_peer_can(struct cuda *cu, int dev, int peer, int *can, struct cuda_err *err);
/* From `dev`'s context, enables access to `peer`'s (both open); already enabled is success. */
int cuda_peer_enable(struct cuda *cu, int dev, int peer, struct cuda_err *err);

/*
 * Loads PTX text (NUL-terminated) into the current context through the JIT
 * (cuModuleLoadDataEx with an error log). On failure err holds the call's
 * message followed by "; jit: " and the first line(s) of the JIT log.
 */
int cuda_module_load_ptx(struct cuda *cu, CUmodule *m, const char *ptx, struct cuda_err *err);
int cuda_module_function(struct cuda *cu, CUmodule m, const char *name, CUfunction *f, struct cuda_err *err);
int cuda_module_unload(struct cuda *cu, CUmodule m, struct cuda_err *err);	/* NULL is fine */
/* cuLaunchKernel with a 1-D grid and block; params as cuLaunchKernel takes them. */
int cuda_launch(struct cuda *cu, CUfunction f, unsigned grid, unsigned block, unsigned shared_bytes,
		CUstream s, void **params, struct cuda_err *err);

int cuda_stream_create(struct cuda *cu, CUstream *s, struct cuda_err *err);	/* non-blocking stream */
int cuda_stream_destroy(struct cuda *cu, CUstream s, struct cuda_err *err);	/* NULL is fine */
int cuda_stream_sync(struct cuda *cu, CUstream s, struct cuda_err *err);
int cuda_event_create(struct cuda *cu, CUevent *e, struct cuda_err *err);	/* timing enabled */
int cuda_event_destroy(struct cuda *cu, CUevent e, struct cuda_err *err);	/* NULL is fine */
int cuda_event_record(struct cuda *cu, CUevent e, CUstream s, struct cuda_err *err);
int cuda_event_sync(struct cuda *cu, CUevent e, struct cuda_err *err);
/* Milliseconds between two recorded, completed events. */
int cuda_event_ms(struct cuda *cu, CUevent start, CUevent end, float *ms, struct cuda_err *err);

/*
 * Timing. One operation (op enqueues work on stream s; it returns 0 or -1
 * with err set) is run `warmup` times, then timed one run at a time between
 * two events. The rule: at least min_reps timed runs; then stop as soon as
 * the relative spread (p90 - p10) / median is at most max_spread, or at
 * max_reps runs, or when the timed runs add up to max_seconds. `stable` says
 * whether the spread rule was met.
 */
struct cuda_timing_rule {
	int warmup;		/* untimed runs first */
	int min_reps;
	int max_reps;		/* at most CUDA_TIMING_MAX_REPS */
	double max_seconds;	/* budget of the timed runs */
	double max_spread;	/* (p90 - p10) / median */
};
#define CUDA_TIMING_MAX_REPS 1000
/* 3 warm-up runs; 10 to 200 timed runs, 2 s at most; stable at a spread of 5%. */
extern const struct cuda_timing_rule cuda_timing_default;

struct cuda_timing {
	double median_s, p10_s, p90_s;	/* seconds per run; NaN when nothing was timed */
	double spread;			/* (p90 - p10) / median */
	int reps;			/* timed runs */
	bool stable;			/* the spread rule was met */
};

typedef int (*cuda_op_fn)(void *arg, CUstream s, struct cuda_err *err);
int cuda_time(struct cuda *cu, CUstream s, cuda_op_fn op, void *arg,
	      const struct cuda_timing_rule *rule, struct cuda_timing *out, struct cuda_err *err);

/*
 * The statistics of cuda_time, without a GPU: median, p10, p90 (linear
 * interpolation between order statistics) and spread of n samples in
 * seconds (sorted in place); reps = n; stable is not touched.
 */
void cuda_timing_stats(double *samples, int n, struct cuda_timing *out);
/* Whether the rule stops after these n samples, whose sum is total_s. */
bool cuda_timing_done(const struct cuda_timing_rule *rule, const double *samples, int n, double total_s);

/*
 * The message for a driver result, as every checked call records it:
 * "call: NAME: description (file:line)", from cuGetErrorName/String, else
 * from the tool's own table of names, else "CUresult N". Written into buf.
 */
void cuda_format_error(const struct cuda *cu, CUresult rc, const char *call, const char *file, int line,
		       char *buf, size_t size);

#endif
