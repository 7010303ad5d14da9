/*
 * cuBLASLt and NCCL loaders (replay/cublaslt.c, replay/nccl.c) and the
 * executor's pure parts (replay/exec.c), on a machine without a GPU.
 *
 * The CUDA toolkit's libraries are real: libcublasLt.so and libnccl.so.2
 * open and resolve every entry point without a GPU, and creating a handle
 * or a communicator then fails. The toolkit's stub libcuda (soname
 * libcuda.so.1) is loaded first so that the libraries' own dlopen of
 * libcuda.so.1 finds the stub even on a machine with a GPU: the failures
 * asserted here are the same everywhere. Known answers: the cudaDataType
 * and ncclDataType_t numbers of the libraries' public headers, and GEMM
 * FLOPs computed by hand.
 */
#include <dlfcn.h>
#include <glob.h>
#include <libgen.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/xalloc.h"
#include "replay/cublaslt.h"
#include "replay/exec.h"
#include "replay/nccl.h"
#include "replay/smoke_libs.h"
#include "tests/unit/skip.h"

/*
 * The first file matching `rel` (a glob) in the CUDA toolkit of the ptxas on
 * PATH, copied into path; skips the case when there is no ptxas.
 */
static void toolkit_file(const char *rel, char *path, size_t n)
{
	char bin[4096], *top, *pattern;
	FILE *p;
	glob_t g;

	skip_unless_tool("ptxas");
	p = popen("readlink -f \"$(command -v ptxas)\"", "r");
	assert_non_null(p);
	assert_non_null(fgets(bin, sizeof(bin), p));
	assert_int_equal(pclose(p), 0);
	bin[strcspn(bin, "\n")] = '\0';
	top = dirname(dirname(bin));	/* .../bin/ptxas -> ... */
	pattern = xasprintf("%s/%s", top, rel);
	if (glob(pattern, 0, NULL, &g) != 0)
		fail_msg("the CUDA toolkit has no %s", pattern);
	snprintf(path, n, "%s", g.gl_pathv[0]);
	globfree(&g);
	free(pattern);
}

/* Loads the toolkit's stub libcuda, so that libraries asking for libcuda.so.1 get it. */
static void load_stub_libcuda(void)
{
	char path[4096];

	toolkit_file("lib64/stubs/libcuda.so", path, sizeof(path));
	assert_non_null(dlopen(path, RTLD_NOW | RTLD_LOCAL));
}

/* "call: NAME (replay/file.c:" digits ")": the line number is the only part not fixed. */
static void assert_call_message(const char *got, const char *want_head)
{
	size_t n = strlen(want_head);
	const char *p = got + n;

	if (strncmp(got, want_head, n) != 0)
		fail_msg("got \"%s\", want \"%sNN)\"", got, want_head);
	assert_true(*p >= '1' && *p <= '9');
	p += strspn(p, "0123456789");
	assert_string_equal(p, ")");
}

static void cublaslt_absent(void **state)
{
	struct cublaslt *lt = (struct cublaslt *)1;
	struct cuda_err ce = { .msg = "" };

	setenv("SCALEAUDIT_LIBCUBLASLT", "/nonexistent/libcublasLt.so.13", 1);
	assert_int_equal(cublaslt_open(&lt, &ce), -1);
	unsetenv("SCALEAUDIT_LIBCUBLASLT");
	assert_null(lt);
	assert_string_equal(ce.msg, "cuBLASLt not found (dlopen: /nonexistent/libcublasLt.so.13: "
				 "cannot open shared object file: No such file or directory)");
}

/* A library without cuBLASLt's entry points is refused by name of the first missing one. */
static void cublaslt_wrong_library(void **state)
{
	struct cublaslt *lt;
	char path[1024], want[1200];
	struct cuda_err ce = { .msg = "" };

	toolkit_file("lib64/stubs/libcuda.so", path, sizeof(path));
	setenv("SCALEAUDIT_LIBCUBLASLT", path, 1);
	assert_int_equal(cublaslt_open(&lt, &ce), -1);
	unsetenv("SCALEAUDIT_LIBCUBLASLT");
	snprintf(want, sizeof(want), "cuBLASLt at %s lacks cublasLtCreate", path);
	assert_string_equal(ce.msg, want);
}

static void cublaslt_toolkit_without_gpu(void **state)
{
	struct cublaslt *lt;
	char path[4096];
	struct cuda_err ce = { .msg = "" };
	size_t v;

	load_stub_libcuda();
	toolkit_file("lib64/libcublasLt.so.1[23]", path, sizeof(path));
	setenv("SCALEAUDIT_LIBCUBLASLT", path, 1);
	assert_int_equal(cublaslt_open(&lt, &ce), 0);
	unsetenv("SCALEAUDIT_LIBCUBLASLT");
	assert_string_equal(cublaslt_path(lt), path);
	v = cublaslt_version(lt);
	/* major*10000 + minor*100 + patch, the major the soname's */
	assert_int_equal(v / 10000, strtol(strrchr(path, '.') + 1, NULL, 10));
	assert_int_equal(cublaslt_create(lt, &ce), -1);
	assert_call_message(ce.msg, "cublasLtCreate: CUBLAS_STATUS_NOT_INITIALIZED (replay/cublaslt.c:");
	cublaslt_close(lt);
}

static void cublaslt_numbers(void **state)
{
	/* cudaDataType: CUDA_R_32F 0, CUDA_R_16F 2, CUDA_R_16BF 14, CUDA_R_8F_E4M3 28 */
	assert_int_equal(cublaslt_cuda_type(DT_FP32), 0);
	assert_int_equal(cublaslt_cuda_type(DT_TF32), 0);
	assert_int_equal(cublaslt_cuda_type(DT_FP16), 2);
	assert_int_equal(cublaslt_cuda_type(DT_BF16), 14);
	assert_int_equal(cublaslt_cuda_type(DT_FP8_E4M3), 28);
	assert_int_equal(cublaslt_cuda_type(DT_FP8), 28);
	assert_int_equal(cublaslt_cuda_type(DT_FP64), -1);
	assert_int_equal(cublaslt_cuda_type(DT_INT8), -1);
	assert_string_equal(cublaslt_status_name(15), "CUBLAS_STATUS_NOT_SUPPORTED");
	assert_string_equal(cublaslt_status_name(1), "CUBLAS_STATUS_NOT_INITIALIZED");
	assert_string_equal(cublaslt_status_name(99), "CUBLAS_STATUS_99");
}

static void gemm_checks(void **state)
{
	struct gemm_shape s = { .m = 8192, .n = 8192, .k = 8192, .batch = 1, .dtype = DT_BF16 };

	assert_true(gemm_flops(&s) == 1099511627776.0);	/* 2 * 2^39 */
	s.batch = 3;
	s.m = 100;
	s.n = 7;
	s.k = 5;
	assert_true(gemm_flops(&s) == 21000.0);
	assert_null(gemm_unsupported(&s, 8, 0));
	assert_string_equal(gemm_unsupported(&s, 7, 5), "bf16 needs compute capability 8.0");
	assert_int_equal(gemm_bytes_a(&s), 3000);	/* 100 x 5 x 3 x 2 B */
	assert_int_equal(gemm_bytes_b(&s), 210);	/* 5 x 7 x 3 x 2 B */
	assert_int_equal(gemm_bytes_d(&s), 4200);	/* 100 x 7 x 3 x 2 B */
	s.dtype = DT_FP8_E4M3;
	assert_int_equal(gemm_bytes_a(&s), 1500);
	assert_int_equal(gemm_out_type(&s), DT_BF16);
	assert_int_equal(gemm_bytes_d(&s), 4200);
	s.out = DT_FP32;
	assert_int_equal(gemm_bytes_d(&s), 8400);
	s.out = DT_UNKNOWN;
	assert_string_equal(gemm_unsupported(&s, 8, 6), "fp8 needs compute capability 8.9");
	assert_null(gemm_unsupported(&s, 8, 9));
	assert_null(gemm_unsupported(&s, 12, 0));
	s.dtype = DT_FP64;
	assert_string_equal(gemm_unsupported(&s, 9, 0),
			    "cuBLASLt replay runs fp32, tf32, bf16, fp16 and fp8 e4m3 only");
	s = (struct gemm_shape){ .m = 1000000, .n = 1000000, .k = 1000000, .batch = 1, .dtype = DT_BF16 };
	/* (1e12 + 1e12) x 4 B of inputs + 1e12 x 4 B of output, counted at 4 B an element */
	assert_string_equal(gemm_unsupported(&s, 9, 0), "the shape needs up to 12000 GB, more than a GPU holds");
	s.m = 100;
	s.n = 7;
	s.k = 5;
	s.batch = 3000000000LL;	/* more than cuBLASLt's int32 batch count */
	assert_non_null(gemm_unsupported(&s, 9, 0));
	s.batch = 3;
	s.dtype = DT_FP16;
	s.k = -1;
	assert_true(isnan(gemm_flops(&s)));
	assert_string_equal(gemm_unsupported(&s, 9, 0), "the shape is not known");
}

static void nccl_absent(void **state)
{
	struct nccl *nc = (struct nccl *)1;
	struct cuda_err ce = { .msg = "" };

	setenv("SCALEAUDIT_LIBNCCL", "/nonexistent/libnccl.so.2", 1);
	assert_int_equal(nccl_open(&nc, &ce), -1);
	unsetenv("SCALEAUDIT_LIBNCCL");
	assert_null(nc);
	assert_string_equal(ce.msg, "NCCL not found (dlopen: /nonexistent/libnccl.so.2: "
				 "cannot open shared object file: No such file or directory)");
}

/*
 * NCCL is no part of the CUDA toolkit: the library the loader finds by its
 * soname is used. Where there is none, the case asserts the message that
 * says so; where there is one, its version and the communicator's failure.
 */
static void nccl_without_gpu(void **state)
{
	struct nccl *nc;
	struct cuda_err ce = { .msg = "" };
	void *h;
	int v;

	load_stub_libcuda();
	h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		assert_int_equal(nccl_open(&nc, &ce), -1);
		assert_string_equal(ce.msg, "NCCL not found (dlopen: libnccl.so.2: cannot open shared "
					    "object file: No such file or directory)");
		return;
	}
	dlclose(h);
	assert_int_equal(nccl_open(&nc, &ce), 0);
	assert_string_equal(nccl_path(nc), "libnccl.so.2");
	v = nccl_version(nc);
	/* NCCL_VERSION(X,Y,Z) = X*10000 + Y*100 + Z since 2.9: major 2 */
	assert_int_equal(v / 10000, 2);
	assert_true(nccl_supports(nc, COLL_ALLREDUCE));
	assert_true(nccl_supports(nc, COLL_SENDRECV));
	assert_false(nccl_supports(nc, COLL_BARRIER));
	assert_int_equal(nccl_comm_init(nc, 1, &ce), -1);
	assert_call_message(ce.msg, "ncclCommInitAll: ncclUnhandledCudaError: unhandled cuda error "
				    "(run with NCCL_DEBUG=INFO for details) (replay/nccl.c:");
	nccl_close(nc);
}

static void nccl_numbers(void **state)
{
	/* ncclDataType_t: Int8 0, Uint8 1, Int32 2, Uint32 3, Int64 4, Uint64 5, Float16 6,
	 * Float32 7, Float64 8, Bfloat16 9, Float8e4m3 10, Float8e5m2 11 */
	static const struct {
		enum dtype dt;
		int want;
	} t[] = {
		{ DT_INT8, 0 }, { DT_UINT8, 1 }, { DT_INT32, 2 }, { DT_UINT32, 3 },
		{ DT_INT64, 4 }, { DT_UINT64, 5 }, { DT_FP16, 6 }, { DT_FP32, 7 },
		{ DT_FP64, 8 }, { DT_BF16, 9 }, { DT_FP8_E4M3, 10 }, { DT_FP8_E5M2, 11 },
		{ DT_FP4, -1 }, { DT_UNKNOWN, -1 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(nccl_type(t[i].dt), t[i].want);
	assert_string_equal(nccl_result_name(4), "ncclInvalidArgument");
	assert_string_equal(nccl_result_name(42), "ncclResult42");
	assert_int_equal(nccl_count(COLL_ALLREDUCE, 1048576, DT_BF16), 524288);
	assert_int_equal(nccl_count(COLL_ALLGATHER, 1000, DT_UNKNOWN), 1000);
	assert_int_equal(nccl_count(COLL_ALLREDUCE, -1, DT_FP32), -1);
}

/* nccl-tests' size: the larger of a rank's send and receive buffers. */
static void nccl_sizes(void **state)
{
	struct nccl_coll c = { .op = COLL_ALLREDUCE, .count = 1048576, .dtype = DT_BF16, .nranks = 2 };

	assert_int_equal(nccl_coll_size(&c), 2097152);
	c = (struct nccl_coll){ .op = COLL_ALLGATHER, .count = 1000, .dtype = DT_FP32, .nranks = 4 };
	assert_int_equal(nccl_coll_size(&c), 16000);	/* 4 ranks x 1000 gathered */
	c.op = COLL_REDUCESCATTER;
	assert_int_equal(nccl_coll_size(&c), 4000);	/* 1000 in, 250 out */
	c.op = COLL_ALLTOALL;
	c.count = 1001;
	assert_int_equal(nccl_coll_size(&c), 4000);	/* 250 to each of 4 peers */
	c = (struct nccl_coll){ .op = COLL_SENDRECV, .count = 300, .dtype = DT_UNKNOWN, .nranks = 2 };
	assert_int_equal(nccl_coll_size(&c), 300);
	c.nranks = 0;
	assert_int_equal(nccl_coll_size(&c), -1);
}

static void coll_skip_reasons(void **state)
{
	char buf[128];

	assert_string_equal(exec_coll_skip_reason(COLL_ALLREDUCE, 2, 1, buf, sizeof(buf)),
			    "the trial ran AllReduce over 2 GPUs; this machine has 1");
	assert_string_equal(exec_coll_skip_reason(COLL_ALLGATHER, 8, 0, buf, sizeof(buf)),
			    "the trial ran AllGather over 8 GPUs; this machine has 0");
	assert_null(exec_coll_skip_reason(COLL_ALLREDUCE, 2, 2, buf, sizeof(buf)));
	assert_null(exec_coll_skip_reason(COLL_REDUCESCATTER, 2, 8, buf, sizeof(buf)));
	assert_string_equal(exec_coll_skip_reason(COLL_BROADCAST, -1, 4, buf, sizeof(buf)),
			    "the trial's rank count for Broadcast is not known");
	assert_string_equal(exec_status_name(EXEC_SKIPPED), "skipped");
}

/* aten::linear [[4096, 1024], [3072, 1024]] in bf16: C[4096,3072] = A[4096,1024] x W^T. */
static void request_from_gemm_plan(void **state)
{
	struct plan_kernel k = {
		.name = "nvjet_tst_128x256_64x4_1x2_h_bz_TNT", .method = PM_CUBLASLT,
		.dtype = DT_BF16, .bytes = -1,
		.gemm = { .m = 4096, .n = 3072, .k = 1024, .batch = 1, .transa = false,
			  .transb = true, .a_type = DT_BF16, .b_type = DT_BF16, .c_type = DT_BF16 },
	};
	struct exec_req r;
	char why[128] = "";

	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_int_equal(r.cls, EXEC_GEMM);
	/* column-major: C^T[3072,4096] = W[3072,1024] (stored [1024,3072] col-major: T) x A^T */
	assert_int_equal(r.gemm.m, 3072);
	assert_int_equal(r.gemm.n, 4096);
	assert_int_equal(r.gemm.k, 1024);
	assert_int_equal(r.gemm.batch, 1);
	assert_true(r.gemm.transa);
	assert_false(r.gemm.transb);
	assert_int_equal(r.gemm.dtype, DT_BF16);
	assert_int_equal(r.gemm.out, DT_BF16);

	/* fp32 data on TF32 tensor cores (the kernel name said tf32), bmm batch 12 */
	k.dtype = DT_TF32;
	k.gemm = (struct plan_gemm){ .m = 512, .n = 64, .k = 512, .batch = 12,
				     .a_type = DT_FP32, .b_type = DT_FP32, .c_type = DT_FP32 };
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_int_equal(r.gemm.m, 64);
	assert_int_equal(r.gemm.n, 512);
	assert_int_equal(r.gemm.batch, 12);
	assert_false(r.gemm.transa);
	assert_int_equal(r.gemm.dtype, DT_TF32);

	/* fp8 runs TN whatever the recorded layout */
	k.dtype = DT_FP8_E4M3;
	k.gemm = (struct plan_gemm){ .m = 2048, .n = 2048, .k = 2048, .batch = 1,
				     .a_type = DT_FP8_E4M3, .b_type = DT_FP8_E4M3, .c_type = DT_FP32 };
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_true(r.gemm.transa);
	assert_false(r.gemm.transb);
	assert_int_equal(r.gemm.out, DT_FP32);

	k.gemm.k = -1;
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), -1);
	assert_string_equal(why, "the GEMM's shape is not known");
}

static void request_from_other_plans(void **state)
{
	struct plan_kernel k = { .name = "Memcpy DtoD (Device -> Device)", .method = PM_COPY,
				 .bytes = 67108864 };
	struct exec_req r;
	char why[128] = "";

	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_int_equal(r.cls, EXEC_MEMORY);
	assert_int_equal(r.bytes, 67108864);
	assert_false(r.fill);
	k.method = PM_FILL;
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_true(r.fill);
	k.method = PM_HTOD;
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_int_equal(r.cls, EXEC_HTOD);
	assert_int_equal(r.bytes, 67108864);
	assert_false(r.fill);
	k.method = PM_DTOH;
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_int_equal(r.cls, EXEC_DTOH);
	k.bytes = -1;
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), -1);
	assert_string_equal(why, "the bytes it moved are not known");

	k = (struct plan_kernel){ .name = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
				  .method = PM_NCCL, .bytes = 8388608,
				  .coll = { .op = COLL_ALLREDUCE, .count = 4194304, .dtype = DT_BF16,
					    .nranks = 2 } };
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), 0);
	assert_int_equal(r.cls, EXEC_COLLECTIVE);
	assert_int_equal(r.coll, COLL_ALLREDUCE);
	assert_int_equal(r.bytes, 8388608);
	assert_int_equal(r.nranks, 2);

	k = (struct plan_kernel){ .name = "triton_poi_fused_add_0", .method = PM_NONE,
				  .why_not = "not replayed: a Triton kernel" };
	assert_int_equal(exec_req_from_plan(&k, &r, why, sizeof(why)), -1);
	assert_string_equal(why, "not replayed: a Triton kernel");
}

/* A kernel that cannot be run is skipped with the reason before anything touches a GPU (x unused). */
static void unrunnable_kernels_skip(void **state)
{
	struct plan_kernel k = { .name = "triton_poi_fused_add_0", .method = PM_NONE,
				 .why_not = "not replayed: a Triton kernel" };
	struct exec_result r;

	exec_kernel(NULL, &k, &r);
	assert_int_equal(r.status, EXEC_SKIPPED);
	assert_string_equal(r.reason, "not replayed: a Triton kernel");
	assert_int_equal(r.timing.reps, 0);
	assert_true(isnan(r.timing.median_s));
	k = (struct plan_kernel){ .name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL", .method = PM_NCCL,
				  .coll = { .op = COLL_ALLREDUCE, .count = -1, .dtype = DT_FP32, .nranks = 2 } };
	exec_kernel(NULL, &k, &r);
	assert_int_equal(r.status, EXEC_SKIPPED);
	assert_string_equal(r.reason, "the collective's op, count or dtype is not known");
}

static void exec_without_driver(void **state)
{
	struct exec *x = (struct exec *)1;
	char err[1024];

	setenv("SCALEAUDIT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
	assert_int_equal(exec_open(&x, 0, err, sizeof(err)), -1);
	unsetenv("SCALEAUDIT_LIBCUDA");
	assert_null(x);
	assert_string_equal(err, "no CUDA driver: /nonexistent/libcuda.so.1 not found (dlopen: "
				 "/nonexistent/libcuda.so.1: cannot open shared object file: "
				 "No such file or directory)");
	exec_close(NULL);
}

/* The stub answers cuInit with CUDA_ERROR_STUB_LIBRARY: the executor passes the driver's line on. */
static void exec_on_stub_driver(void **state)
{
	struct exec *x = (struct exec *)1;
	char path[1024], err[1024];

	toolkit_file("lib64/stubs/libcuda.so", path, sizeof(path));
	setenv("SCALEAUDIT_LIBCUDA", path, 1);
	assert_int_equal(exec_open(&x, 1, err, sizeof(err)), -1);
	unsetenv("SCALEAUDIT_LIBCUDA");
	assert_null(x);
	assert_call_message(err, "cuInit: CUDA_ERROR_STUB_LIBRARY: the CUDA driver library is the "
				 "toolkit's stub, not an installed driver (replay/cuda.c:");
}

/* Runs item `name` of smoke_libs on a made-up context of ndev devices, no driver behind it. */
static void run_item(const char *name, int ndev, bool ptx_loaded, struct smoke_report *rep)
{
	static struct smoke_ctx sc;
	const struct smoke_item *items;
	size_t n;

	memset(rep, 0, sizeof(*rep));
	rep->ndev = ndev;
	snprintf(rep->dev[0].info.name, sizeof(rep->dev[0].info.name), "NVIDIA H100 80GB HBM3");
	rep->dev[0].info.cc_major = 9;
	sc = (struct smoke_ctx){ .cu = NULL, .rep = rep };
	sc.ptx[0].mod = ptx_loaded ? (CUmodule)&sc : NULL;	/* never used: the items stop first */
	items = smoke_libs_items(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i].name, name) == 0) {
			sc.item = &items[i];
			items[i].run(&sc);
			return;
		}
	fail_msg("no smoke item %s", name);
}

static void assert_one_skip(const struct smoke_report *rep, const char *item, const char *detail)
{
	assert_int_equal(rep->n, 1);
	assert_string_equal(rep->results[0].item, item);
	assert_int_equal(rep->results[0].status, SMOKE_SKIP);
	assert_false(rep->results[0].essential);
	assert_string_equal(rep->results[0].detail, detail);
	assert_int_equal(rep->exit_status, 0);
}

static void smoke_items_skip(void **state)
{
	struct smoke_report rep;
	const struct smoke_item *items;
	size_t n;

	items = smoke_libs_items(&n);
	assert_int_equal(n, 2);
	assert_string_equal(items[0].name, "gemm");
	assert_string_equal(items[1].name, "nccl");

	run_item("nccl", 1, true, &rep);
	assert_one_skip(&rep, "nccl", "one GPU: an all-reduce needs two");
	smoke_report_release(&rep);

	setenv("SCALEAUDIT_LIBNCCL", "/nonexistent/libnccl.so.2", 1);
	run_item("nccl", 2, true, &rep);
	unsetenv("SCALEAUDIT_LIBNCCL");
	assert_one_skip(&rep, "nccl", "NCCL not found (dlopen: /nonexistent/libnccl.so.2: cannot open "
				      "shared object file: No such file or directory)");
	smoke_report_release(&rep);

	run_item("gemm", 1, false, &rep);
	assert_one_skip(&rep, "gemm", "the project's PTX kernels did not load on device 0 (see jit)");
	smoke_report_release(&rep);

	setenv("SCALEAUDIT_LIBCUBLASLT", "/nonexistent/libcublasLt.so.13", 1);
	run_item("gemm", 1, true, &rep);
	unsetenv("SCALEAUDIT_LIBCUBLASLT");
	assert_one_skip(&rep, "gemm", "cuBLASLt not found (dlopen: /nonexistent/libcublasLt.so.13: "
				      "cannot open shared object file: No such file or directory)");
	smoke_report_release(&rep);
}

/* ---- the executor against fake libraries (tests/data/fake_lib*.c) ---- */

struct fakes {
	char dir[64];
	char *cuda, *lt, *nccl;		/* the libraries built */
	void *hcuda, *hlt, *hnccl;	/* kept open so their logs and counters outlive each exec */
};

static void *build_fake(struct fakes *f, const char *src, const char *name, char **path)
{
	const char *top = getenv("TOP");
	char *cmd;
	void *h;

	*path = xasprintf("%s/%s", f->dir, name);
	cmd = xasprintf("${CC:-cc} -shared -fPIC -o %s %s/tests/data/%s", *path, top ? top : ".", src);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	h = dlopen(*path, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	return h;
}

static int fakes_setup(void **state)
{
	struct fakes *f = xcalloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_replay_libs.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->hcuda = build_fake(f, "fake_libcuda.c", "libcuda.so.1", &f->cuda);
	f->hlt = build_fake(f, "fake_libcublaslt.c", "libcublasLt.so.13", &f->lt);
	f->hnccl = build_fake(f, "fake_libnccl.c", "libnccl.so.2", &f->nccl);
	setenv("SCALEAUDIT_LIBCUDA", f->cuda, 1);
	setenv("SCALEAUDIT_LIBCUBLASLT", f->lt, 1);
	setenv("SCALEAUDIT_LIBNCCL", f->nccl, 1);
	*state = f;
	return 0;
}

static int fakes_teardown(void **state)
{
	struct fakes *f = *state;
	char *cmd = xasprintf("rm -rf %s", f->dir);

	unsetenv("SCALEAUDIT_LIBCUDA");
	unsetenv("SCALEAUDIT_LIBCUBLASLT");
	unsetenv("SCALEAUDIT_LIBNCCL");
	dlclose(f->hcuda);
	dlclose(f->hlt);
	dlclose(f->hnccl);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(f->cuda);
	free(f->lt);
	free(f->nccl);
	free(f);
	return 0;
}

static int fake_int(void *h, const char *fn)
{
	int (*f)(void) = (int (*)(void))dlsym(h, fn);

	assert_non_null(f);
	return f();
}

static const char *fake_log(void *h, const char *fn)
{
	const char *(*f)(void) = (const char *(*)(void))dlsym(h, fn);

	assert_non_null(f);
	return f();
}

static void fake_reset(void *h, const char *fn)
{
	void (*f)(void) = (void (*)(void))dlsym(h, fn);

	assert_non_null(f);
	f();
}

static void near(double got, double want)
{
	if (!(fabs(got - want) <= 1e-9 * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

/* Opens the executor on the fake driver with ndev devices ("1", "2"). */
static struct exec *open_fake(const char *ndev)
{
	struct exec *x = NULL;
	char err[EXEC_REASON_MAX];

	setenv("FAKE_CUDA_DEVICES", ndev, 1);
	if (exec_open(&x, 0, err, sizeof(err)))
		fail_msg("exec_open: %s", err);
	assert_string_equal(exec_device(x)->name, "NVIDIA H200");
	return x;
}

/* Closes it: every allocation, stream, event, context, descriptor and communicator given back. */
static void close_fake(struct fakes *f, struct exec *x)
{
	exec_close(x);
	unsetenv("FAKE_CUDA_DEVICES");
	assert_int_equal(fake_int(f->hcuda, "fake_cuda_live"), 0);
	assert_int_equal(fake_int(f->hlt, "fake_lt_live"), 0);
	assert_int_equal(fake_int(f->hnccl, "fake_nccl_live"), 0);
}

/* Every timed run of the fake takes 1 ms: 3 warm-ups, then the 10 runs the rule's spread allows. */
static void assert_timed(const struct exec_result *r, const char *method)
{
	if (r->status != EXEC_DONE)
		fail_msg("%s: %s: %s", method, exec_status_name(r->status), r->reason);
	assert_string_equal(r->method, method);
	assert_string_equal(r->reason, "");
	near(r->timing.median_s, 1e-3);
	near(r->timing.p10_s, 1e-3);
	near(r->timing.p90_s, 1e-3);
	assert_int_equal(r->timing.reps, 10);
}

static void fake_memory(void **state)
{
	struct fakes *f = *state;
	struct exec *x = open_fake("1");
	struct exec_req q = { .cls = EXEC_MEMORY, .bytes = 1 << 20 };
	struct exec_result r;

	exec_run(x, &q, &r);
	assert_timed(&r, "PTX copy");
	near(r.timing.gbps, 2 * 1048576 / 1e-3 / 1e9);	/* read and written */
	assert_true(isnan(r.timing.tflops));
	q.fill = true;
	exec_run(x, &q, &r);
	assert_timed(&r, "PTX write");
	near(r.timing.gbps, 1048576 / 1e-3 / 1e9);
	q.bytes = 2000000000000LL;
	exec_run(x, &q, &r);
	assert_int_equal(r.status, EXEC_SKIPPED);
	assert_string_equal(r.reason, "2000000000000 bytes is more than a GPU holds");
	q = (struct exec_req){ .cls = EXEC_COLLECTIVE, .coll = COLL_ALLREDUCE, .coll_dtype = DT_BF16,
			       .bytes = 1 << 20, .nranks = 2 };
	exec_run(x, &q, &r);
	assert_int_equal(r.status, EXEC_SKIPPED);
	assert_string_equal(r.reason, "the trial ran AllReduce over 2 GPUs; this machine has 1");
	assert_string_equal(r.method, "NCCL AllReduce bf16");
	close_fake(f, x);
}

/* Host<->device copies of a plan run as pinned copies of the same bytes, each byte moved once. */
static void fake_host_copies(void **state)
{
	struct fakes *f = *state;
	struct exec *x = open_fake("1");
	struct plan_kernel k = { .name = "Memcpy HtoD (Pinned -> Device)", .method = PM_HTOD,
				 .bytes = 4 << 20 };
	struct exec_req q = { .cls = EXEC_DTOH, .bytes = 3000000000000LL };
	struct exec_result r;

	exec_kernel(x, &k, &r);
	assert_timed(&r, "pinned HtoD copy");
	near(r.timing.gbps, 4194304 / 1e-3 / 1e9);
	assert_true(isnan(r.timing.tflops));
	k = (struct plan_kernel){ .name = "Memcpy DtoH (Device -> Pinned)", .method = PM_DTOH,
				  .bytes = 1000 };
	exec_kernel(x, &k, &r);
	assert_timed(&r, "pinned DtoH copy");
	near(r.timing.gbps, 1000 / 1e-3 / 1e9);
	exec_run(x, &q, &r);
	assert_int_equal(r.status, EXEC_SKIPPED);
	assert_string_equal(r.reason, "3000000000000 bytes is more than a GPU holds");
	assert_string_equal(r.method, "pinned DtoH copy");
	close_fake(f, x);
}

/*
 * aten::linear of [512, 256] by a [384, 256] weight in bf16: C[512,384] =
 * A x W^T. cuBLASLt, column-major, computes C^T[384,512] = W x A^T: A is
 * the weight read transposed (stored 256 x 384), B the activations (256 x
 * 512), D 384 x 512; compute CUBLAS_COMPUTE_32F (68), scale CUDA_R_32F (0),
 * CUDA_R_16BF (14), a 32 MiB workspace.
 */
static void fake_gemm_bf16(void **state)
{
	struct fakes *f = *state;
	struct exec *x = open_fake("1");
	struct plan_kernel k = {
		.name = "nvjet_tst_128x256_64x4_1x2_h_bz_TNT", .method = PM_CUBLASLT, .dtype = DT_BF16,
		.gemm = { .m = 512, .n = 384, .k = 256, .batch = 1, .transb = true,
			  .a_type = DT_BF16, .b_type = DT_BF16, .c_type = DT_BF16 },
	};
	struct exec_result r;

	fake_reset(f->hlt, "fake_lt_reset");
	exec_kernel(x, &k, &r);
	assert_timed(&r, "cuBLASLt bf16 TN");
	near(r.timing.tflops, 2.0 * 512 * 384 * 256 / 1e-3 / 1e12);
	assert_string_equal(fake_log(f->hlt, "fake_lt_log"),
			    "desc compute=68 scale=0\n"
			    "desc attr 3 = 1 (4 bytes)\n"
			    "desc attr 4 = 0 (4 bytes)\n"
			    "layout type=14 rows=256 cols=384 ld=256\n"
			    "layout type=14 rows=256 cols=512 ld=256\n"
			    "layout type=14 rows=384 cols=512 ld=384\n"
			    "pref attr 1 = 33554432 (8 bytes)\n"
			    "heuristic want=1 c_is_d=1\n"
			    "matmul alpha=1 beta=0 algo=42 in_place=1\n");
	assert_int_equal(fake_int(f->hlt, "fake_lt_matmuls"), 13);	/* 3 warm-ups + 10 timed */
	close_fake(f, x);
}

/*
 * A batched fp32 GEMM on TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32,
 * 77), batch 12 with dense strides; and an fp8 one: e4m3 (28) in "TN" with
 * scale pointers for A and B (17, 18) and the plan's fp32 output (0).
 */
static void fake_gemm_tf32_fp8(void **state)
{
	struct fakes *f = *state;
	struct exec *x = open_fake("1");
	struct exec_req q = { .cls = EXEC_GEMM, .gemm = { .m = 64, .n = 32, .k = 16, .batch = 12,
							  .dtype = DT_TF32 } };
	struct exec_result r;

	fake_reset(f->hlt, "fake_lt_reset");
	exec_run(x, &q, &r);
	assert_timed(&r, "cuBLASLt tf32 NN");
	assert_string_equal(fake_log(f->hlt, "fake_lt_log"),
			    "desc compute=77 scale=0\n"
			    "desc attr 3 = 0 (4 bytes)\n"
			    "desc attr 4 = 0 (4 bytes)\n"
			    "layout type=0 rows=64 cols=16 ld=64\n"
			    "layout attr 5 = 12 (4 bytes)\n"
			    "layout attr 6 = 1024 (8 bytes)\n"
			    "layout type=0 rows=16 cols=32 ld=16\n"
			    "layout attr 5 = 12 (4 bytes)\n"
			    "layout attr 6 = 512 (8 bytes)\n"
			    "layout type=0 rows=64 cols=32 ld=64\n"
			    "layout attr 5 = 12 (4 bytes)\n"
			    "layout attr 6 = 2048 (8 bytes)\n"
			    "pref attr 1 = 33554432 (8 bytes)\n"
			    "heuristic want=1 c_is_d=1\n"
			    "matmul alpha=1 beta=0 algo=42 in_place=1\n");
	near(r.timing.tflops, 2.0 * 64 * 32 * 16 * 12 / 1e-3 / 1e12);

	q.gemm = (struct gemm_shape){ .m = 64, .n = 32, .k = 16, .batch = 1, .transa = true,
				      .dtype = DT_FP8_E4M3, .out = DT_FP32 };
	fake_reset(f->hlt, "fake_lt_reset");
	exec_run(x, &q, &r);
	assert_timed(&r, "cuBLASLt fp8-e4m3 TN");
	assert_string_equal(fake_log(f->hlt, "fake_lt_log"),
			    "desc compute=68 scale=0\n"
			    "desc attr 3 = 1 (4 bytes)\n"
			    "desc attr 4 = 0 (4 bytes)\n"
			    "desc attr 17 = pointer (8 bytes)\n"
			    "desc attr 18 = pointer (8 bytes)\n"
			    "layout type=28 rows=16 cols=64 ld=16\n"
			    "layout type=28 rows=16 cols=32 ld=16\n"
			    "layout type=0 rows=64 cols=32 ld=64\n"
			    "pref attr 1 = 33554432 (8 bytes)\n"
			    "heuristic want=1 c_is_d=1\n"
			    "matmul alpha=1 beta=0 algo=42 in_place=1\n");
	close_fake(f, x);
}

static void fake_gemm_fails(void **state)
{
	struct fakes *f = *state;
	struct exec *x = open_fake("1");
	struct exec_req q = { .cls = EXEC_GEMM, .gemm = { .m = 64, .n = 32, .k = 16, .batch = 1,
							  .dtype = DT_FP16 } };
	struct exec_result r;

	setenv("FAKE_LT_NO_ALGO", "1", 1);
	exec_run(x, &q, &r);
	unsetenv("FAKE_LT_NO_ALGO");
	assert_int_equal(r.status, EXEC_FAILED);
	assert_string_equal(r.method, "cuBLASLt fp16 NN");
	assert_call_message(r.reason, "cublasLtMatmulAlgoGetHeuristic: no algorithm for this shape "
				      "(replay/cublaslt.c:");
	q.gemm.dtype = DT_FP64;
	exec_run(x, &q, &r);
	assert_int_equal(r.status, EXEC_SKIPPED);
	assert_string_equal(r.reason, "cuBLASLt replay runs fp32, tf32, bf16, fp16 and fp8 e4m3 only");
	close_fake(f, x);
}

/*
 * Collectives over the fake's two GPUs, 1 MiB per rank, each repetition
 * 1 ms: AllReduce of 524288 bf16 (ncclBfloat16 9, ncclSum 0), busbw =
 * 1 MiB / 1 ms x 2(2-1)/2; AllGather of 262144 fp32 (7) per rank, size
 * 2 MiB, factor 1/2; ReduceScatter into 131072 per rank; Send/Recv around
 * the ring; AllToAll is absent from this NCCL.
 */
static void fake_collectives(void **state)
{
	struct fakes *f = *state;
	struct exec *x = open_fake("2");
	struct exec_req q = { .cls = EXEC_COLLECTIVE, .coll = COLL_ALLREDUCE, .coll_dtype = DT_BF16,
			      .bytes = 1 << 20, .nranks = 2 };
	struct exec_result r;

	fake_reset(f->hnccl, "fake_nccl_reset");
	exec_run(x, &q, &r);
	assert_timed(&r, "NCCL AllReduce bf16");
	near(r.timing.gbps, 1048576 / 1e-3 / 1e9);
	assert_int_equal(fake_int(f->hnccl, "fake_nccl_groups"), 13);
	assert_string_equal(fake_log(f->hnccl, "fake_nccl_log"),
			    "init ndev=2 devlist=0\n"
			    "allreduce rank=0 count=524288 type=9 op=0\n"
			    "allreduce rank=1 count=524288 type=9 op=0\n");

	fake_reset(f->hnccl, "fake_nccl_reset");
	q.coll = COLL_ALLGATHER;
	q.coll_dtype = DT_FP32;
	exec_run(x, &q, &r);
	assert_timed(&r, "NCCL AllGather fp32");
	near(r.timing.gbps, 2097152 / 1e-3 / 1e9 * 0.5);
	q.coll = COLL_REDUCESCATTER;
	exec_run(x, &q, &r);
	assert_timed(&r, "NCCL ReduceScatter fp32");
	near(r.timing.gbps, 1048576 / 1e-3 / 1e9 * 0.5);
	q.coll = COLL_SENDRECV;
	q.coll_dtype = DT_UNKNOWN;
	exec_run(x, &q, &r);
	assert_timed(&r, "NCCL SendRecv bytes");
	assert_string_equal(fake_log(f->hnccl, "fake_nccl_log"),
			    "allgather rank=0 sendcount=262144 type=7\n"
			    "allgather rank=1 sendcount=262144 type=7\n"
			    "reducescatter rank=0 recvcount=131072 type=7 op=0\n"
			    "reducescatter rank=1 recvcount=131072 type=7 op=0\n"
			    "send rank=0 count=1048576 type=1 peer=1\n"
			    "recv rank=0 count=1048576 type=1 peer=1\n"
			    "send rank=1 count=1048576 type=1 peer=0\n"
			    "recv rank=1 count=1048576 type=1 peer=0\n");
	q.coll = COLL_ALLTOALL;
	exec_run(x, &q, &r);
	assert_int_equal(r.status, EXEC_SKIPPED);
	assert_string_equal(r.reason, "NCCL 22809 here has no AllToAll");
	close_fake(f, x);
}

static void fake_nccl_init_fails(void **state)
{
	struct fakes *f = *state;
	struct exec *x = open_fake("2");
	struct exec_req q = { .cls = EXEC_COLLECTIVE, .coll = COLL_BROADCAST, .coll_dtype = DT_FP16,
			      .bytes = 4096, .nranks = 2 };
	struct exec_result r;

	setenv("FAKE_NCCL_INIT_FAIL", "1", 1);
	exec_run(x, &q, &r);
	unsetenv("FAKE_NCCL_INIT_FAIL");
	assert_int_equal(r.status, EXEC_FAILED);
	assert_call_message(r.reason, "ncclCommInitAll: ncclUnhandledCudaError: unhandled cuda error "
				      "(run with NCCL_DEBUG=INFO for details) (replay/nccl.c:");
	q.coll = COLL_ALLREDUCE;
	setenv("FAKE_NCCL_COLL_FAIL", "1", 1);
	exec_run(x, &q, &r);
	unsetenv("FAKE_NCCL_COLL_FAIL");
	assert_int_equal(r.status, EXEC_FAILED);
	assert_call_message(r.reason, "ncclAllReduce: ncclInvalidArgument: invalid argument "
				      "(run with NCCL_DEBUG=WARN for details) (replay/nccl.c:");
	close_fake(f, x);
}

/* The smoke check's NCCL item on the fake's two H200s with 1 MiB transfers: 1 ms an all-reduce. */
static void fake_smoke_nccl(void **state)
{
	struct fakes *f = *state;
	size_t n;
	const struct smoke_item *items = smoke_libs_items(&n);
	struct smoke_options opt = { .copy_bytes = 1 << 20, .extra = { items + 1 }, .n_extra = { 1 } };
	struct smoke_report rep;
	const struct smoke_result *r;

	assert_string_equal(items[1].name, "nccl");
	setenv("FAKE_CUDA_DEVICES", "2", 1);
	assert_int_equal(smoke_run(&opt, &rep), 0);
	unsetenv("FAKE_CUDA_DEVICES");
	r = &rep.results[rep.n - 1];
	assert_string_equal(r->item, "nccl allreduce");
	assert_int_equal(r->status, SMOKE_PASS);
	assert_false(r->essential);
	near(r->value, 1048576 / 1e-3 / 1e9);	/* busbw factor 2(2-1)/2 = 1 */
	assert_string_equal(r->unit, "GB/s");
	assert_string_equal(r->detail, "NCCL 22809: 1 MiB of bf16 per GPU over 2 GPUs, median of 10: "
				       "1.000 ms; bus bandwidth 0.2% of the H200's nominal link "
				       "bandwidth of 450 GB/s");
	smoke_report_release(&rep);
	assert_int_equal(fake_int(f->hcuda, "fake_cuda_live"), 0);
	assert_int_equal(fake_int(f->hnccl, "fake_nccl_live"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cublaslt_absent),
		cmocka_unit_test(cublaslt_wrong_library),
		cmocka_unit_test(cublaslt_toolkit_without_gpu),
		cmocka_unit_test(cublaslt_numbers),
		cmocka_unit_test(gemm_checks),
		cmocka_unit_test(nccl_absent),
		cmocka_unit_test(nccl_without_gpu),
		cmocka_unit_test(nccl_numbers),
		cmocka_unit_test(nccl_sizes),
		cmocka_unit_test(coll_skip_reasons),
		cmocka_unit_test(request_from_gemm_plan),
		cmocka_unit_test(request_from_other_plans),
		cmocka_unit_test(unrunnable_kernels_skip),
		cmocka_unit_test(exec_without_driver),
		cmocka_unit_test(exec_on_stub_driver),
		cmocka_unit_test(smoke_items_skip),
	};

	const struct CMUnitTest with_fakes[] = {
		cmocka_unit_test(fake_memory),
		cmocka_unit_test(fake_host_copies),
		cmocka_unit_test(fake_gemm_bf16),
		cmocka_unit_test(fake_gemm_tf32_fp8),
		cmocka_unit_test(fake_gemm_fails),
		cmocka_unit_test(fake_collectives),
		cmocka_unit_test(fake_nccl_init_fails),
		cmocka_unit_test(fake_smoke_nccl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) |
	       cmocka_run_group_tests_name("fake libraries", with_fakes, fakes_setup, fakes_teardown);
}
