/*
 * A fake CUDA driver for tests on machines without a GPU, built by
 * test_replay_cuda into a shared library and opened through
 * SCALEAUDIT_LIBCUDA. Device memory is host memory; the project's four
 * kernels are emulated from their launch parameters (an implementation of
 * the fill hash independent of replay/ptx.c); every event pair is 1 ms apart,
 * so a bandwidth is bytes moved / 1 ms. Behaviour is chosen by environment:
 *   FAKE_CUDA_DEVICES=N      devices (default 1)
 *   FAKE_CUDA_B200=1         the devices are B200s (cc 10.0), else H200s (cc 9.0)
 *   FAKE_CUDA_JIT_FAIL=1     module loads fail with CUDA_ERROR_INVALID_PTX and a log
 *   FAKE_CUDA_OOM=1          allocations over 32 MiB fail with CUDA_ERROR_OUT_OF_MEMORY
 *   FAKE_CUDA_NO_PEER=1      cuDeviceCanAccessPeer answers 0
 * fake_cuda_live() says how many allocations and retained contexts are left.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

#define FREE_BYTES (64ull << 20)
#define MAX_DEV 8

static int retained[MAX_DEV];
static long live_allocs;
static int peer_enabled[MAX_DEV][MAX_DEV];
static int current = -1;

static int ndev(void)
{
	const char *s = getenv("FAKE_CUDA_DEVICES");

	return s ? atoi(s) : 1;
}

static int b200(void)
{
	return getenv("FAKE_CUDA_B200") != NULL;
}

int fake_cuda_live(void)
{
	int n = (int)live_allocs;

	for (int i = 0; i < MAX_DEV; i++)
		n += retained[i];
	return n;
}

CUresult cuInit(unsigned flags) { return flags ? 1 : 0; }
CUresult cuDriverGetVersion(int *v) { *v = 12080; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = ndev(); return 0; }

CUresult cuDeviceGet(int *d, int ordinal)
{
	if (ordinal < 0 || ordinal >= ndev())
		return 101;
	*d = ordinal + 100;	/* handles are not ordinals */
	return 0;
}

CUresult cuDeviceGetName(char *name, int len, int d)
{
	strncpy(name, b200() ? "NVIDIA B200" : "NVIDIA H200", (size_t)len);
	return d >= 100 ? 0 : 101;
}

CUresult cuDeviceGetAttribute(int *v, int attr, int d)
{
	switch (attr) {
	case 75: *v = b200() ? 10 : 9; return 0;
	case 76: *v = 0; return 0;
	case 16: *v = b200() ? 148 : 132; return 0;
	case 13: *v = 1980000; return 0;
	case 36: *v = 2619000; return 0;
	case 37: *v = 6144; return 0;
	default: *v = 0; return 1;	/* what the tool does not need */
	}
}

CUresult cuDeviceTotalMem_v2(size_t *b, int d)
{
	*b = b200() ? 191503138816ull : 143771ull << 20;
	return 0;
}

CUresult cuDevicePrimaryCtxRetain(void **c, int d)
{
	retained[d - 100]++;
	*c = (void *)(uintptr_t)(d - 100 + 1);
	return 0;
}

CUresult cuDevicePrimaryCtxRelease_v2(int d)
{
	return retained[d - 100]-- > 0 ? 0 : 201;
}

CUresult cuCtxSetCurrent(void *c)
{
	current = (int)(uintptr_t)c - 1;
	return 0;
}

CUresult cuCtxSynchronize(void) { return 0; }

CUresult cuMemGetInfo_v2(size_t *f, size_t *t)
{
	*f = FREE_BYTES;
	return cuDeviceTotalMem_v2(t, current + 100);
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	void *m;

	if (getenv("FAKE_CUDA_OOM") && n > (32u << 20))
		return 2;
	if (current < 0 || n % 16 || !(m = aligned_alloc(256, (n + 255) & ~(size_t)255)))
		return current < 0 ? 201 : 1;
	live_allocs++;
	*p = (CUdeviceptr)(uintptr_t)m;
	return 0;
}

CUresult cuMemFree_v2(CUdeviceptr p)
{
	live_allocs--;
	free((void *)(uintptr_t)p);
	return 0;
}

CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags)
{
	*p = malloc(n);
	live_allocs++;
	return *p ? 0 : 2;
}

CUresult cuMemFreeHost(void *p)
{
	live_allocs--;
	free(p);
	return 0;
}

#define P(x) ((void *)(uintptr_t)(x))
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) { memset(P(p), v, n); return 0; }
CUresult cuMemsetD8Async(CUdeviceptr p, unsigned char v, size_t n, void *s) { memset(P(p), v, n); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n) { memcpy(P(d), h, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n) { memcpy(h, P(d), n); return 0; }
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { memcpy(P(d), P(s), n); return 0; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *h, size_t n, void *s) { memcpy(P(d), h, n); return 0; }
CUresult cuMemcpyDtoHAsync_v2(void *h, CUdeviceptr d, size_t n, void *s) { memcpy(h, P(d), n); return 0; }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void *st) { memcpy(P(d), P(s), n); return 0; }

CUresult cuMemcpyPeer(CUdeviceptr d, void *dc, CUdeviceptr s, void *sc, size_t n)
{
	memcpy(P(d), P(s), n);
	return dc && sc ? 0 : 201;
}

CUresult cuMemcpyPeerAsync(CUdeviceptr d, void *dc, CUdeviceptr s, void *sc, size_t n, void *st)
{
	return cuMemcpyPeer(d, dc, s, sc, n);
}

CUresult cuDeviceCanAccessPeer(int *can, int d, int p)
{
	*can = !getenv("FAKE_CUDA_NO_PEER") && d != p;
	return d >= 100 && p >= 100 ? 0 : 101;
}

CUresult cuCtxEnablePeerAccess(void *peer, unsigned flags)
{
	int p = (int)(uintptr_t)peer - 1;

	if (peer_enabled[current][p]++)
		return 704;
	return 0;
}

static const char *const kernels[] = { "sa_fill_random", "sa_copy", "sa_read", "sa_write" };

CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts, void **vals)
{
	char *log = NULL;
	size_t size = 0;

	for (unsigned i = 0; i < n; i++) {
		if (opts[i] == 5)
			log = vals[i];
		if (opts[i] == 6)
			size = (size_t)(uintptr_t)vals[i];
	}
	if (getenv("FAKE_CUDA_JIT_FAIL")) {
		if (log && size > 40)
			strcpy(log, "ptxas fatal   : fake failure\nsecond line");
		return 218;
	}
	for (int k = 0; k < 4; k++)
		if (!strstr(image, kernels[k]))
			return 218;
	*m = P(0x1000);
	return 0;
}

CUresult cuModuleGetFunction(void **f, void *m, const char *name)
{
	for (int k = 0; k < 4; k++)
		if (strcmp(name, kernels[k]) == 0) {
			*f = P(k + 1);
			return 0;
		}
	return 500;
}

CUresult cuModuleUnload(void *m) { return m ? 0 : 400; }

static uint32_t hash(uint64_t i, uint32_t seed)
{
	uint32_t x = (uint32_t)i * 2654435761u ^ (uint32_t)(i >> 32) * 2246822519u ^ seed;

	x = (x ^ (x >> 16)) * 2246822507u;
	x = (x ^ (x >> 13)) * 3266489909u;
	return x ^ (x >> 16);
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			unsigned bz, unsigned shmem, void *s, void **params, void **extra)
{
	int k = (int)(uintptr_t)f;
	uint32_t *p = P(*(CUdeviceptr *)params[0]);
	uint64_t n = *(uint64_t *)params[1];

	if (gx == 0 || bx == 0 || gy != 1 || extra)
		return 1;
	if (k == 1) {	/* p, nwords, seed, mask, set */
		uint32_t seed = *(uint32_t *)params[2], mask = *(uint32_t *)params[3], set = *(uint32_t *)params[4];

		for (uint64_t i = 0; i < n; i++)
			p[i] = (hash(i, seed) & mask) | set;
	} else if (k == 2) {	/* dst, src, n16 */
		memcpy(p, P(*(CUdeviceptr *)params[1]), *(uint64_t *)params[2] * 16);
	} else if (k == 4) {	/* dst, n16, value */
		for (uint64_t i = 0; i < 4 * n; i++)
			p[i] = *(uint32_t *)params[2];
	}
	return k >= 1 && k <= 4 ? 0 : 400;
}

CUresult cuStreamCreate(void **s, unsigned flags) { *s = P(0x2000); live_allocs++; return 0; }
CUresult cuStreamDestroy_v2(void *s) { live_allocs--; return 0; }
CUresult cuStreamSynchronize(void *s) { return 0; }

static int events;
CUresult cuEventCreate(void **e, unsigned flags) { *e = P(0x3000 + ++events); live_allocs++; return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventDestroy_v2(void *e) { live_allocs--; return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = getenv("FAKE_CUDA_ZERO_TIME") ? 0.0f : 1.0f; return 0; }

CUresult cuGetErrorName(CUresult rc, const char **s)
{
	*s = rc == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : rc == 218 ? "CUDA_ERROR_INVALID_PTX" : NULL;
	return *s ? 0 : 1;
}

CUresult cuGetErrorString(CUresult rc, const char **s)
{
	*s = rc == 2 ? "out of memory" : rc == 218 ? "a PTX JIT compilation failed" : NULL;
	return *s ? 0 : 1;
}

/* Answers for a few names only, so both ways of resolving are used. */
CUresult cuGetProcAddress_v2(const char *sym, void **fn, int ver, unsigned long long flags, int *status)
{
	static const struct { const char *name; void *fn; } known[] = {
		{ "cuInit", (void *)cuInit },
		{ "cuMemAlloc", (void *)cuMemAlloc_v2 },
		{ "cuEventDestroy", (void *)cuEventDestroy_v2 },
	};

	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(sym, known[i].name) == 0) {
			*fn = known[i].fn;
			*status = 0;
			return 0;
		}
	*fn = NULL;
	*status = 1;
	return 500;
}
