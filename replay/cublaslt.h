/*
 * cublaslt: cuBLASLt opened at run time with dlopen (never linked), its
 * entry points resolved by name, and a timed GEMM on random inputs.
 *
 * The library is searched as $SCALEAUDIT_LIBCUBLASLT when set, else
 * libcublasLt.so.13, else libcublasLt.so.12. Errors are recorded into the
 * caller's struct cuda_err (replay/cuda.h) as
 * `cublasLtXxx: CUBLAS_STATUS_NAME (replay/file.c:line)`; nothing here
 * prints. A struct cublaslt owns the dlopen handle and, once created, the
 * cuBLASLt handle; cublaslt_close() releases both.
 */
#ifndef REPLAY_CUBLASLT_H
#define REPLAY_CUBLASLT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "replay/cuda.h"
#include "replay/ptx.h"

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
int cublaslt_open(struct cublaslt **out, struct cuda_err *err);
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
int cublaslt_create(struct cublaslt *lt, struct cuda_err *err);

/*
 * "CUBLAS_STATUS_NOT_SUPPORTED" for a status number; "CUBLAS_STATUS_<n>" for
 * one the tool does not know (in a per-thread buffer, valid until the next call).
 */
const char *cublaslt_status_name(int status);

/*
 * The cudaDataType number cuBLASLt uses for a dtype (CUDA_R_16BF = 14 ...),
 * -1 for a dtype the runner does not run. DT_TF32 is CUDA_R_32F.
 */
int cublaslt_cuda_type(enum dtype t);

/*
 * A prepared GEMM: the descriptors of one shape and the algorithm cuBLASLt's
 * heuristic chose for it, ready to launch many times. Owns its descriptors;
 * freed by cublaslt_gemm_free().
 */
struct lt_gemm;

/* Workspace cuBLASLt may use per GEMM (its guidance for Hopper and newer). */
#define CUBLASLT_WORKSPACE (32u << 20)

/* Bytes of A, B and D for a shape (all batches); -1 when the dtype has no size. */
int64_t gemm_bytes_a(const struct gemm_shape *s);
int64_t gemm_bytes_b(const struct gemm_shape *s);
int64_t gemm_bytes_d(const struct gemm_shape *s);
/* D's dtype: s->out, or the input type (fp32 for tf32, bf16 for fp8) when DT_UNKNOWN. */
enum dtype gemm_out_type(const struct gemm_shape *s);

/*
 * Describes shape s (created handle needed) and picks an algorithm within
 * `workspace` bytes. fp8 inputs take their scales from device pointer
 * `scales` (two floats: A's, B's; 0 = cuBLASLt's default of 1). Returns 0,
 * or -1 with the failing call's message in err.
 */
int cublaslt_gemm_prepare(struct cublaslt *lt, const struct gemm_shape *s, size_t workspace,
			  uint64_t scales, struct lt_gemm **out, struct cuda_err *err);
/*
 * Enqueues D = A x B (alpha 1, beta 0) on stream (a CUstream of the current
 * context); a, b, d, ws are device pointers. 0, or -1 with the message.
 */
int cublaslt_gemm_launch(struct lt_gemm *g, uint64_t a, uint64_t b, uint64_t d, uint64_t ws,
			 void *stream, struct cuda_err *err);
void cublaslt_gemm_free(struct lt_gemm *g);

/*
 * The GEMM runner: in the current context (the device's primary context,
 * cuda_ctx_open), creates the handle if needed, allocates A, B, D and the
 * workspace, fills A and B with the project's random fill through ptx (fp8
 * scales of 1), then times cublasLtMatmul on stream by rule (NULL:
 * cuda_timing_default). out gets median/p10/p90 seconds and TFLOP/s.
 * Everything allocated is freed. 0, or -1 with the first failure in err.
 */
int cublaslt_gemm_time(struct cublaslt *lt, struct cuda *cu, const struct ptx_module *ptx,
		       const struct gemm_shape *s, CUstream stream,
		       const struct cuda_timing_rule *rule, struct op_timing *out,
		       struct cuda_err *err);

/* Why a shape cannot run on a device of compute capability cc_major.cc_minor, NULL when it can. */
const char *gemm_unsupported(const struct gemm_shape *s, int cc_major, int cc_minor);

/* 2*m*n*k*batch; NaN when the shape is not positive. */
double gemm_flops(const struct gemm_shape *s);

#endif
