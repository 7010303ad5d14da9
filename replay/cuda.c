/*
 * cuda: libcuda through dlopen. Entry points come from one table (name, the
 * CUDA version whose ABI the declared signature is, the versioned export to
 * dlsym when cuGetProcAddress cannot answer); every call goes through CALL(),
 * which formats the failure into the caller's struct cuda_err and returns -1.
 */
#include "replay/cuda.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* The driver's other handle types, as the public API declares them. */
typedef unsigned long long cu_u64;
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };
enum {
	CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
	CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
	CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
	CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};
enum { CU_STREAM_NON_BLOCKING = 1, CU_EVENT_DEFAULT = 0, CU_MEMHOSTALLOC_PORTABLE = 1 };

/*
 * X(name, cuda version of the declared ABI, versioned export or NULL, parameters).
 * The version pins the signature below when cuGetProcAddress resolves it.
 */
#define CUDA_FUNCS(X) \
	X(cuInit, 2000, NULL, (unsigned flags)) \
	X(cuDriverGetVersion, 2020, NULL, (int *v)) \
	X(cuDeviceGetCount, 2000, NULL, (int *n)) \
	X(cuDeviceGet, 2000, NULL, (CUdevice *d, int ordinal)) \
	X(cuDeviceGetName, 2000, NULL, (char *name, int len, CUdevice d)) \
	X(cuDeviceGetAttribute, 2000, NULL, (int *v, int attr, CUdevice d)) \
	X(cuDeviceTotalMem, 3020, "cuDeviceTotalMem_v2", (size_t *bytes, CUdevice d)) \
	X(cuDevicePrimaryCtxRetain, 7000, NULL, (CUcontext *c, CUdevice d)) \
	X(cuDevicePrimaryCtxRelease, 11000, "cuDevicePrimaryCtxRelease_v2", (CUdevice d)) \
	X(cuCtxSetCurrent, 4000, NULL, (CUcontext c)) \
	X(cuCtxSynchronize, 2000, NULL, (void)) \
	X(cuMemGetInfo, 3020, "cuMemGetInfo_v2", (size_t *free_b, size_t *total_b)) \
	X(cuMemAlloc, 3020, "cuMemAlloc_v2", (CUdeviceptr *p, size_t bytes)) \
	X(cuMemFree, 3020, "cuMemFree_v2", (CUdeviceptr p)) \
	X(cuMemHostAlloc, 2020, NULL, (void **p, size_t bytes, unsigned flags)) \
	X(cuMemFreeHost, 2000, NULL, (void *p)) \
	X(cuMemsetD8, 3020, "cuMemsetD8_v2", (CUdeviceptr p, unsigned char v, size_t n)) \
	X(cuMemsetD8Async, 3020, NULL, (CUdeviceptr p, unsigned char v, size_t n, CUstream s)) \
	X(cuMemcpyHtoD, 3020, "cuMemcpyHtoD_v2", (CUdeviceptr d, const void *h, size_t n)) \
	X(cuMemcpyDtoH, 3020, "cuMemcpyDtoH_v2", (void *h, CUdeviceptr d, size_t n)) \
	X(cuMemcpyDtoD, 3020, "cuMemcpyDtoD_v2", (CUdeviceptr d, CUdeviceptr s, size_t n)) \
	X(cuMemcpyHtoDAsync, 3020, "cuMemcpyHtoDAsync_v2", (CUdeviceptr d, const void *h, size_t n, CUstream s)) \
	X(cuMemcpyDtoHAsync, 3020, "cuMemcpyDtoHAsync_v2", (void *h, CUdeviceptr d, size_t n, CUstream s)) \
	X(cuMemcpyDtoDAsync, 3020, "cuMemcpyDtoDAsync_v2", (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st)) \
	X(cuMemcpyPeer, 4000, NULL, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n)) \
	X(cuMemcpyPeerAsync, 4000, NULL, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, \
					   CUstream st)) \
	X(cuDeviceCanAccessPeer, 4000, NULL, (int *can, CUdevice d, CUdevice peer)) \
	X(cuCtxEnablePeerAccess, 4000, NULL, (CUcontext peer, unsigned flags)) \
	X(cuModuleLoadDataEx, 2010, NULL, (CUmodule *m, const void *image, unsigned n, int *opts, void **vals)) \
	X(cuModuleGetFunction, 2000, NULL, (CUfunction *f, CUmodule m, const char *name)) \
	X(cuModuleUnload, 2000, NULL, (CUmodule m)) \
	X(cuLaunchKernel, 4000, NULL, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, \
				       unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params, \
				       void **extra)) \
	X(cuStreamCreate, 2000, NULL, (CUstream *s, unsigned flags)) \
	X(cuStreamDestroy, 4000, "cuStreamDestroy_v2", (CUstream s)) \
	X(cuStreamSynchronize, 2000, NULL, (CUstream s)) \
	X(cuEventCreate, 2000, NULL, (CUevent *e, unsigned flags)) \
	X(cuEventRecord, 2000, NULL, (CUevent e, CUstream s)) \
	X(cuEventSynchronize, 2000, NULL, (CUevent e)) \
	X(cuEventDestroy, 4000, "cuEventDestroy_v2", (CUevent e)) \
	X(cuEventElapsedTime, 2000, NULL, (float *ms, CUevent a, CUevent b)) \
	X(cuGetErrorName, 6000, NULL, (CUresult rc, const char **s)) \
	X(cuGetErrorString, 6000, NULL, (CUresult rc, const char **s))

#define PFN(name, ver, fallback, params) typedef CUresult (*pfn_##name) params;
CUDA_FUNCS(PFN)
#undef PFN

#define ENUM(name, ver, fallback, params) F_##name,
enum cuda_fn { CUDA_FUNCS(ENUM) F_COUNT };
#undef ENUM

struct cuda_fn_row {
	const char *name;
	int version;
	const char *fallback;
};
#define ROW(name, ver, fallback, params) { #name, ver, fallback },
static const struct cuda_fn_row cuda_fn_rows[F_COUNT] = { CUDA_FUNCS(ROW) };
#undef ROW

/* cuGetProcAddress: _v2 (12.0+) takes a query result, v1 (11.3+) does not. */
typedef CUresult (*pfn_gpa2)(const char *sym, void **fn, int ver, cu_u64 flags, int *status);
typedef CUresult (*pfn_gpa1)(const char *sym, void **fn, int ver, cu_u64 flags);

#define CUDA_MAX_DEVICES 64

struct cuda {
	void *lib;				/* dlopen handle */
	char path[512];				/* what was opened */
	pfn_gpa2 gpa2;
	pfn_gpa1 gpa1;
	void *fn[F_COUNT];			/* entry points, by enum cuda_fn */
	CUcontext ctx[CUDA_MAX_DEVICES];	/* retained primary contexts; NULL none */
	CUdevice dev[CUDA_MAX_DEVICES];		/* the device handle of each retained context */
};

/* A checked call: the result through cuda_check, 0 or -1. */
#define CALL(cu, err, name, args) \
	cuda_check((cu), (err), ((pfn_##name)(cu)->fn[F_##name]) args, #name, __FILE__, __LINE__)

const struct cuda_timing_rule cuda_timing_default = {
	.warmup = 3, .min_reps = 10, .max_reps = 200, .max_seconds = 2.0, .max_spread = 0.05,
};

/* Names and descriptions for when the driver's cuGetErrorName/String cannot answer. */
static const struct {
	CUresult code;
	const char *name;
	const char *text;
} cuda_errors[] = {
	{ 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
	{ 3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
	{ 4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down" },
	{ 34, "CUDA_ERROR_STUB_LIBRARY", "the CUDA driver library is the toolkit's stub, not an installed driver" },
	/* 35 (cudaErrorInsufficientDriver) is the runtime's, not a CUresult */
	{ 36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "the API call requires a newer CUDA driver than the one installed" },
	{ 46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "the device is unavailable (exclusive-process or prohibited compute mode)" },
	{ 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
	{ 101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
	{ 200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid" },
	{ 201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
	{ 209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device" },
	{ 217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access is not supported between these two devices" },
	{ 218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed" },
	{ 221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found" },
	{ 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain" },
	{ 223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation was disabled" },
	{ 400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
	{ 500, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
	{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
	{ 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch" },
	{ 704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled" },
	{ 719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure" },
	{ 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination" },
	{ 804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported HW" },
	{ 999, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

void cuda_err_clear(struct cuda_err *err)
{
	memset(err, 0, sizeof *err);
}

static void err_keep(struct cuda_err *err, CUresult code, const char *msg)
{
	if (err->count++ > 0)
		return;
	err->code = code;
	snprintf(err->msg, sizeof err->msg, "%s", msg);
}

int cuda_err_set(struct cuda_err *err, const char *fmt, ...)
{
	char buf[sizeof err->msg];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	err_keep(err, -1, buf);
	return -1;
}

/* The driver's own name and text for rc, or NULL when it cannot say. */
static void driver_names(const struct cuda *cu, CUresult rc, const char **name, const char **text)
{
	*name = *text = NULL;
	if (!cu)
		return;
	if (cu->fn[F_cuGetErrorName] && ((pfn_cuGetErrorName)cu->fn[F_cuGetErrorName])(rc, name) != CUDA_SUCCESS)
		*name = NULL;
	if (cu->fn[F_cuGetErrorString] &&
	    ((pfn_cuGetErrorString)cu->fn[F_cuGetErrorString])(rc, text) != CUDA_SUCCESS)
		*text = NULL;
}

void cuda_format_error(const struct cuda *cu, CUresult rc, const char *call, const char *file, int line,
		       char *buf, size_t size)
{
	const char *name, *text;
	char num[32];

	driver_names(cu, rc, &name, &text);
	for (size_t i = 0; i < sizeof cuda_errors / sizeof cuda_errors[0] && (!name || !text); i++) {
		if (cuda_errors[i].code != rc)
			continue;
		name = name ? name : cuda_errors[i].name;
		text = text ? text : cuda_errors[i].text;
	}
	if (!name) {
		snprintf(num, sizeof num, "CUresult %d", rc);
		name = num;
	}
	if (text)
		snprintf(buf, size, "%s: %s: %s (%s:%d)", call, name, text, file, line);
	else
		snprintf(buf, size, "%s: %s (%s:%d)", call, name, file, line);
}

static int cuda_check(const struct cuda *cu, struct cuda_err *err, CUresult rc, const char *call,
		      const char *file, int line)
{
	char buf[sizeof err->msg];

	if (rc == CUDA_SUCCESS)
		return 0;
	cuda_format_error(cu, rc, call, file, line, buf, sizeof buf);
	err_keep(err, rc, buf);
	return -1;
}

void *cuda_symbol(struct cuda *cu, const char *name, int cuda_version, const char *fallback)
{
	void *p = NULL;
	int status = 0;

	if (cu->gpa2 && cu->gpa2(name, &p, cuda_version, 0, &status) == CUDA_SUCCESS && p)
		return p;
	p = NULL;
	if (cu->gpa1 && cu->gpa1(name, &p, cuda_version, 0) == CUDA_SUCCESS && p)
		return p;
	return dlsym(cu->lib, fallback ? fallback : name);
}

/* Resolves the table; the first missing entry point is an error. */
static int resolve(struct cuda *cu, struct cuda_err *err)
{
	cu->gpa2 = (pfn_gpa2)dlsym(cu->lib, "cuGetProcAddress_v2");
	if (!cu->gpa2)
		cu->gpa1 = (pfn_gpa1)dlsym(cu->lib, "cuGetProcAddress");
	for (int i = 0; i < F_COUNT; i++) {
		const struct cuda_fn_row *r = &cuda_fn_rows[i];

		cu->fn[i] = cuda_symbol(cu, r->name, r->version, r->fallback);
		if (!cu->fn[i])
			return cuda_err_set(err, "no CUDA driver: %s lacks %s", cu->path, r->name);
	}
	return 0;
}

int cuda_open(struct cuda **out, struct cuda_err *err)
{
	const char *path = getenv(CUDA_LIBRARY_ENV);
	struct cuda *cu;

	*out = NULL;
	if (!path || !*path)
		path = CUDA_LIBRARY_DEFAULT;
	cu = xcalloc(1, sizeof *cu);
	snprintf(cu->path, sizeof cu->path, "%s", path);
	cu->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!cu->lib) {
		cuda_err_set(err, "no CUDA driver: %s not found (dlopen: %s)", path, dlerror());
		free(cu);
		return -1;
	}
	if (resolve(cu, err) < 0 || CALL(cu, err, cuInit, (0)) < 0) {
		cuda_close(cu);
		return -1;
	}
	*out = cu;
	return 0;
}

void cuda_close(struct cuda *cu)
{
	if (!cu)
		return;
	for (int i = 0; i < CUDA_MAX_DEVICES; i++)
		if (cu->ctx[i])
			((pfn_cuDevicePrimaryCtxRelease)cu->fn[F_cuDevicePrimaryCtxRelease])(cu->dev[i]);
	dlclose(cu->lib);
	free(cu);
}

const char *cuda_library(const struct cuda *cu)
{
	return cu->path;
}

int cuda_driver_version(struct cuda *cu, int *version, struct cuda_err *err)
{
	*version = -1;
	return CALL(cu, err, cuDriverGetVersion, (version));
}

int cuda_device_count(struct cuda *cu, int *count, struct cuda_err *err)
{
	*count = 0;
	return CALL(cu, err, cuDeviceGetCount, (count));
}

/* One attribute, or -1 when the driver does not answer (not an error: older drivers). */
static int attr(struct cuda *cu, int which, CUdevice d)
{
	int v = -1;

	if (((pfn_cuDeviceGetAttribute)cu->fn[F_cuDeviceGetAttribute])(&v, which, d) != CUDA_SUCCESS)
		return -1;
	return v;
}

static void fill_attrs(struct cuda *cu, CUdevice d, struct cuda_device_info *o)
{
	o->clock_khz = attr(cu, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, d);
	o->mem_clock_khz = attr(cu, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, d);
	o->bus_width_bits = attr(cu, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, d);
	o->l2_bytes = attr(cu, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, d);
	o->pci_domain = attr(cu, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
	o->pci_bus = attr(cu, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
	o->pci_device = attr(cu, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
	o->mem_gbps = NAN;
	if (o->mem_clock_khz > 0 && o->bus_width_bits > 0)
		o->mem_gbps = 2.0 * o->mem_clock_khz * 1e3 * (o->bus_width_bits / 8.0) / 1e9;
}

int cuda_device_info(struct cuda *cu, int ordinal, struct cuda_device_info *o, struct cuda_err *err)
{
	CUdevice d;
	size_t total = 0, free_b = 0;

	memset(o, 0, sizeof *o);
	o->ordinal = ordinal;
	o->total_bytes = o->free_bytes = -1;
	if (CALL(cu, err, cuDeviceGet, (&d, ordinal)) < 0 ||
	    CALL(cu, err, cuDeviceGetName, (o->name, (int)sizeof o->name - 1, d)) < 0 ||
	    CALL(cu, err, cuDeviceGetAttribute, (&o->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d)) < 0 ||
	    CALL(cu, err, cuDeviceGetAttribute, (&o->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d)) < 0 ||
	    CALL(cu, err, cuDeviceGetAttribute, (&o->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d)) < 0 ||
	    CALL(cu, err, cuDeviceTotalMem, (&total, d)) < 0)
		return -1;
	o->total_bytes = (int64_t)total;
	fill_attrs(cu, d, o);
	if (ordinal >= 0 && ordinal < CUDA_MAX_DEVICES && cu->ctx[ordinal]) {
		if (CALL(cu, err, cuCtxSetCurrent, (cu->ctx[ordinal])) < 0 ||
		    CALL(cu, err, cuMemGetInfo, (&free_b, &total)) < 0)
			return -1;
		o->free_bytes = (int64_t)free_b;
	}
	return 0;
}

static int bad_ordinal(struct cuda_err *err, int ordinal)
{
	return cuda_err_set(err, "device %d: out of range (at most %d devices)", ordinal, CUDA_MAX_DEVICES);
}

int cuda_ctx_open(struct cuda *cu, int ordinal, CUcontext *ctx, struct cuda_err *err)
{
	CUdevice d;

	if (ordinal < 0 || ordinal >= CUDA_MAX_DEVICES)
		return bad_ordinal(err, ordinal);
	if (!cu->ctx[ordinal]) {
		if (CALL(cu, err, cuDeviceGet, (&d, ordinal)) < 0 ||
		    CALL(cu, err, cuDevicePrimaryCtxRetain, (&cu->ctx[ordinal], d)) < 0) {
			cu->ctx[ordinal] = NULL;
			return -1;
		}
		cu->dev[ordinal] = d;
	}
	if (ctx)
		*ctx = cu->ctx[ordinal];
	return CALL(cu, err, cuCtxSetCurrent, (cu->ctx[ordinal]));
}

int cuda_ctx_use(struct cuda *cu, int ordinal, struct cuda_err *err)
{
	if (ordinal < 0 || ordinal >= CUDA_MAX_DEVICES)
		return bad_ordinal(err, ordinal);
	if (!cu->ctx[ordinal])
		return cuda_err_set(err, "device %d: no context open", ordinal);
	return CALL(cu, err, cuCtxSetCurrent, (cu->ctx[ordinal]));
}

int cuda_ctx_sync(struct cuda *cu, struct cuda_err *err)
{
	return CALL(cu, err, cuCtxSynchronize, ());
}

int cuda_mem_info(struct cuda *cu, int64_t *free_bytes, int64_t *total_bytes, struct cuda_err *err)
{
	size_t f = 0, t = 0;

	*free_bytes = *total_bytes = -1;
	if (CALL(cu, err, cuMemGetInfo, (&f, &t)) < 0)
		return -1;
	*free_bytes = (int64_t)f;
	*total_bytes = (int64_t)t;
	return 0;
}

int cuda_alloc(struct cuda *cu, CUdeviceptr *p, size_t bytes, struct cuda_err *err)
{
	*p = 0;
	if (bytes > SIZE_MAX - 15)
		return cuda_err_set(err, "cuMemAlloc: %zu bytes: too large", bytes);
	return CALL(cu, err, cuMemAlloc, (p, (bytes + 15) & ~(size_t)15));
}

int cuda_free(struct cuda *cu, CUdeviceptr p, struct cuda_err *err)
{
	return p ? CALL(cu, err, cuMemFree, (p)) : 0;
}

int cuda_host_alloc(struct cuda *cu, void **p, size_t bytes, struct cuda_err *err)
{
	*p = NULL;
	return CALL(cu, err, cuMemHostAlloc, (p, bytes, CU_MEMHOSTALLOC_PORTABLE));
}

int cuda_host_free(struct cuda *cu, void *p, struct cuda_err *err)
{
	return p ? CALL(cu, err, cuMemFreeHost, (p)) : 0;
}

int cuda_memset8(struct cuda *cu, CUdeviceptr p, unsigned char v, size_t bytes, struct cuda_err *err)
{
	return CALL(cu, err, cuMemsetD8, (p, v, bytes));
}

int cuda_h2d(struct cuda *cu, CUdeviceptr dst, const void *src, size_t bytes, CUstream s, struct cuda_err *err)
{
	if (s)
		return CALL(cu, err, cuMemcpyHtoDAsync, (dst, src, bytes, s));
	return CALL(cu, err, cuMemcpyHtoD, (dst, src, bytes));
}

int cuda_d2h(struct cuda *cu, void *dst, CUdeviceptr src, size_t bytes, CUstream s, struct cuda_err *err)
{
	if (s)
		return CALL(cu, err, cuMemcpyDtoHAsync, (dst, src, bytes, s));
	return CALL(cu, err, cuMemcpyDtoH, (dst, src, bytes));
}

int cuda_d2d(struct cuda *cu, CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s, struct cuda_err *err)
{
	if (s)
		return CALL(cu, err, cuMemcpyDtoDAsync, (dst, src, bytes, s));
	return CALL(cu, err, cuMemcpyDtoD, (dst, src, bytes));
}

/* Both devices' contexts, or -1 with the reason. */
static int two_ctx(struct cuda *cu, int a, int b, struct cuda_err *err)
{
	if (a < 0 || a >= CUDA_MAX_DEVICES || b < 0 || b >= CUDA_MAX_DEVICES)
		return bad_ordinal(err, a < 0 || a >= CUDA_MAX_DEVICES ? a : b);
	if (!cu->ctx[a] || !cu->ctx[b])
		return cuda_err_set(err, "device %d: no context open", cu->ctx[a] ? b : a);
	return 0;
}

int cuda_peer_copy(struct cuda *cu, int dst_dev, CUdeviceptr dst, int src_dev, CUdeviceptr src,
		   size_t bytes, CUstream s, struct cuda_err *err)
{
	if (two_ctx(cu, dst_dev, src_dev, err) < 0)
		return -1;
	if (s)
		return CALL(cu, err, cuMemcpyPeerAsync, (dst, cu->ctx[dst_dev], src, cu->ctx[src_dev], bytes, s));
	return CALL(cu, err, cuMemcpyPeer, (dst, cu->ctx[dst_dev], src, cu->ctx[src_dev], bytes));
}

int cuda_peer_can(struct cuda *cu, int dev, int peer, int *can, struct cuda_err *err)
{
	CUdevice d, p;

	*can = 0;
	if (CALL(cu, err, cuDeviceGet, (&d, dev)) < 0 || CALL(cu, err, cuDeviceGet, (&p, peer)) < 0)
		return -1;
	return CALL(cu, err, cuDeviceCanAccessPeer, (can, d, p));
}

int cuda_peer_enable(struct cuda *cu, int dev, int peer, struct cuda_err *err)
{
	CUresult rc;

	if (two_ctx(cu, dev, peer, err) < 0 || cuda_ctx_use(cu, dev, err) < 0)
		return -1;
	rc = ((pfn_cuCtxEnablePeerAccess)cu->fn[F_cuCtxEnablePeerAccess])(cu->ctx[peer], 0);
	if (rc == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
		return 0;
	return cuda_check(cu, err, rc, "cuCtxEnablePeerAccess", __FILE__, __LINE__);
}

/* Appends the JIT log's first line(s) to a load failure. */
static void add_jit_log(struct cuda_err *err, const char *log)
{
	size_t len = strlen(err->msg);
	char one[512];
	size_t j = 0;

	if (!*log || err->count > 1)
		return;
	for (const char *p = log; *p && j + 1 < sizeof one; p++)
		one[j++] = (*p == '\n' || *p == '\r') ? ' ' : *p;
	while (j > 0 && one[j - 1] == ' ')
		j--;
	one[j] = '\0';
	snprintf(err->msg + len, sizeof err->msg - len, "; jit: %s", one);
}

int cuda_module_load_ptx(struct cuda *cu, CUmodule *m, const char *ptx, struct cuda_err *err)
{
	char log[4096] = "";
	int opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[] = { log, (void *)(uintptr_t)sizeof log };
	int before = err->count;

	*m = NULL;
	if (CALL(cu, err, cuModuleLoadDataEx, (m, ptx, 2, opts, vals)) == 0)
		return 0;
	log[sizeof log - 1] = '\0';
	if (before == 0)
		add_jit_log(err, log);
	return -1;
}

int cuda_module_function(struct cuda *cu, CUmodule m, const char *name, CUfunction *f, struct cuda_err *err)
{
	*f = NULL;
	return CALL(cu, err, cuModuleGetFunction, (f, m, name));
}

int cuda_module_unload(struct cuda *cu, CUmodule m, struct cuda_err *err)
{
	return m ? CALL(cu, err, cuModuleUnload, (m)) : 0;
}

int cuda_launch(struct cuda *cu, CUfunction f, unsigned grid, unsigned block, unsigned shared_bytes,
		CUstream s, void **params, struct cuda_err *err)
{
	return CALL(cu, err, cuLaunchKernel, (f, grid, 1, 1, block, 1, 1, shared_bytes, s, params, NULL));
}

int cuda_stream_create(struct cuda *cu, CUstream *s, struct cuda_err *err)
{
	*s = NULL;
	return CALL(cu, err, cuStreamCreate, (s, CU_STREAM_NON_BLOCKING));
}

int cuda_stream_destroy(struct cuda *cu, CUstream s, struct cuda_err *err)
{
	return s ? CALL(cu, err, cuStreamDestroy, (s)) : 0;
}

int cuda_stream_sync(struct cuda *cu, CUstream s, struct cuda_err *err)
{
	return CALL(cu, err, cuStreamSynchronize, (s));
}

int cuda_event_create(struct cuda *cu, CUevent *e, struct cuda_err *err)
{
	*e = NULL;
	return CALL(cu, err, cuEventCreate, (e, CU_EVENT_DEFAULT));
}

int cuda_event_destroy(struct cuda *cu, CUevent e, struct cuda_err *err)
{
	return e ? CALL(cu, err, cuEventDestroy, (e)) : 0;
}

int cuda_event_record(struct cuda *cu, CUevent e, CUstream s, struct cuda_err *err)
{
	return CALL(cu, err, cuEventRecord, (e, s));
}

int cuda_event_sync(struct cuda *cu, CUevent e, struct cuda_err *err)
{
	return CALL(cu, err, cuEventSynchronize, (e));
}

int cuda_event_ms(struct cuda *cu, CUevent start, CUevent end, float *ms, struct cuda_err *err)
{
	*ms = NAN;
	return CALL(cu, err, cuEventElapsedTime, (ms, start, end));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of n sorted samples, linear between order statistics. */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int lo = (int)pos;

	if (lo >= n - 1)
		return v[n - 1];
	return v[lo] + (pos - lo) * (v[lo + 1] - v[lo]);
}

void cuda_timing_stats(double *samples, int n, struct cuda_timing *out)
{
	out->reps = n;
	out->median_s = out->p10_s = out->p90_s = out->spread = NAN;
	if (n <= 0)
		return;
	qsort(samples, (size_t)n, sizeof *samples, cmp_double);
	out->median_s = quantile(samples, n, 0.5);
	out->p10_s = quantile(samples, n, 0.1);
	out->p90_s = quantile(samples, n, 0.9);
	if (out->median_s > 0)
		out->spread = (out->p90_s - out->p10_s) / out->median_s;
}

static bool spread_ok(const struct cuda_timing_rule *rule, const double *samples, int n)
{
	double *tmp;
	struct cuda_timing t;

	if (n < rule->min_reps || n <= 0)
		return false;
	tmp = xmalloc((size_t)n * sizeof *tmp);
	memcpy(tmp, samples, (size_t)n * sizeof *tmp);
	cuda_timing_stats(tmp, n, &t);
	free(tmp);
	return t.spread <= rule->max_spread;
}

bool cuda_timing_done(const struct cuda_timing_rule *rule, const double *samples, int n, double total_s)
{
	int max = rule->max_reps < CUDA_TIMING_MAX_REPS ? rule->max_reps : CUDA_TIMING_MAX_REPS;

	if (n >= max || (n > 0 && total_s >= rule->max_seconds))
		return true;
	return spread_ok(rule, samples, n);
}

/* One timed run of op between the two events; its seconds into *s. */
static int time_once(struct cuda *cu, CUstream s, cuda_op_fn op, void *arg, CUevent ev[2], double *sec,
		     struct cuda_err *err)
{
	float ms;

	if (cuda_event_record(cu, ev[0], s, err) < 0 || op(arg, s, err) < 0 ||
	    cuda_event_record(cu, ev[1], s, err) < 0 || cuda_event_sync(cu, ev[1], err) < 0 ||
	    cuda_event_ms(cu, ev[0], ev[1], &ms, err) < 0)
		return -1;
	*sec = ms / 1e3;
	return 0;
}

static int time_loop(struct cuda *cu, CUstream s, cuda_op_fn op, void *arg, const struct cuda_timing_rule *rule,
		     CUevent ev[2], double *samples, int *n, struct cuda_err *err)
{
	double total = 0;

	for (int i = 0; i < rule->warmup; i++)
		if (op(arg, s, err) < 0)
			return -1;
	if (cuda_stream_sync(cu, s, err) < 0)
		return -1;
	*n = 0;
	while (!cuda_timing_done(rule, samples, *n, total)) {
		if (time_once(cu, s, op, arg, ev, &samples[*n], err) < 0)
			return -1;
		total += samples[(*n)++];
	}
	return 0;
}

int cuda_time(struct cuda *cu, CUstream s, cuda_op_fn op, void *arg,
	      const struct cuda_timing_rule *rule, struct cuda_timing *out, struct cuda_err *err)
{
	CUevent ev[2] = { NULL, NULL };
	double *samples = xcalloc(CUDA_TIMING_MAX_REPS, sizeof *samples);
	int n = 0, rc = -1;

	cuda_timing_stats(samples, 0, out);
	out->stable = false;
	if (cuda_event_create(cu, &ev[0], err) < 0 || cuda_event_create(cu, &ev[1], err) < 0 ||
	    time_loop(cu, s, op, arg, rule, ev, samples, &n, err) < 0)
		goto destroy;
	out->stable = spread_ok(rule, samples, n);
	cuda_timing_stats(samples, n, out);
	rc = 0;
destroy:
	cuda_event_destroy(cu, ev[1], err);
	cuda_event_destroy(cu, ev[0], err);
	free(samples);
	return rc;
}
