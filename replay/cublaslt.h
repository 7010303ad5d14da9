/*
 * cublaslt: cuBLASLt opened at run time with dlopen (never linked), its
 * entry points resolved by name, and a timed GEMM on random inputs.
 *
 * The library is searched as $SCALEAUDIT_LIBCUBLASLT when set, else
 * libcublasLt.so.13, else libcublasLt.so.12. Errors are written into a
 * caller's buffer as `cublasLtXxx: CUBLAS_STATUS_NAME (replay/file.c:line)`;
 * nothing here prints. A struct cublaslt owns the dlopen handle and, once
 * created, the cuBLASLt handle; cublaslt_close() releases both.
 */
#ifndef REPLAY_CUBLASLT_H
#define REPLAY_CUBLASLT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

struct cublaslt;

/* One GEMM as cuBLASLt runs it: D[m,n] = op(A)[m,k] x op(B)[k,n], column-major. */
struct gemm_shape {
	int64_t m, n, k;	/* > 0 */
	int64_t batch;		/* strided batch count; 1 = plain GEMM */
	bool transa;		/* A stored k x m and transposed */
	bool transb;		/* B stored n x k and transposed */
	enum dtype dtype;	/* inputs: DT_FP32, DT_TF32 (fp32 data, tf32 math), DT_BF16,
				 * DT_FP16, DT_FP8_E4M3 (DT_FP8 taken as e4m3) */
	enum dtype out;		/* D: DT_UNKNOWN = the input type (bf16 for fp8 inputs) */
};

/* Timing of repeated runs of one operation; NaN where unknown. */
struct op_timing {
	double median_s;	/* per call */
	double p10_s, p90_s;
	int reps;		/* timed repetitions behind the figures */
	double tflops;		/* 2*m*n*k*batch / median, 1e12 FLOP/s (GEMM only) */
	double gbps;		/* bytes moved / median, 1e9 B/s (copies, collectives: busbw) */
};

/*
 * Opens the library and resolves every entry point used here. Returns 0,
 * or -1 with the reason in err: "cuBLASLt not found (dlopen: ...)" when no
 * candidate loads, "cuBLASLt at PATH lacks cublasLtXxx" when one is missing.
 * The caller frees *out with cublaslt_close().
 */
int cublaslt_open(struct cublaslt **out, char *err, size_t errsz);
void cublaslt_close(struct cublaslt *lt);

/* The file that was opened ("libcublasLt.so.13" or the override path). */
const char *cublaslt_path(const struct cublaslt *lt);
/* cublasLtGetVersion(): e.g. 130100 for 13.1.0. */
size_t cublaslt_version(const struct cublaslt *lt);

/*
 * Creates the cuBLASLt handle (once; later calls return 0). cuBLASLt uses
 * the CUDA context current on the calling thread, so the caller makes the
 * device's primary context current first. -1 with
 * "cublasLtCreate: CUBLAS_STATUS_NOT_INITIALIZED (replay/cublaslt.c:NN)"
 * and the like in err.
 */
int cublaslt_create(struct cublaslt *lt, char *err, size_t errsz);

/* "CUBLAS_STATUS_NOT_SUPPORTED" for a status number; "CUBLAS_STATUS_<n>" unknown (static or per-call buffer). */
const char *cublaslt_status_name(int status);

/*
 * The cudaDataType number cuBLASLt uses for a dtype (CUDA_R_16BF = 14 ...),
 * -1 for a dtype the runner does not run. DT_TF32 is CUDA_R_32F.
 */
int cublaslt_cuda_type(enum dtype t);

/* Why a shape cannot run on a device of compute capability cc_major.cc_minor, NULL when it can. */
const char *gemm_unsupported(const struct gemm_shape *s, int cc_major, int cc_minor);

/* 2*m*n*k*batch; NaN when the shape is not positive. */
double gemm_flops(const struct gemm_shape *s);

#endif
