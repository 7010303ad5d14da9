/*
 * plan: what `scaleaudit replay` re-runs of one run's critical kernels
 * (analysis/result.h struct critical_kernel) and how: GEMMs as m, n, k,
 * batch, layouts and dtypes recovered from the launching op's Input Dims and
 * Input type; memcpy/memset as the bytes they moved; collectives as op,
 * element count, dtype and the run's rank count; anything else is planned as
 * "not replayed" with the reason. Pure: reads a struct analysis, no GPU, no I/O.
 *
 * Ownership: a plan owns its strings and array (its arena); plan_release()
 * frees them. The analysis may be freed once plan_build() returns.
 */
#ifndef REPLAY_PLAN_H
#define REPLAY_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "core/arena.h"
#include "core/model.h"

/* How a planned kernel is re-run. */
enum plan_method {
	PM_NONE,	/* not replayed: plan_kernel.why_not says why */
	PM_CUBLASLT,	/* a cuBLASLt matmul of plan_kernel.gemm */
	PM_COPY,	/* a device-to-device copy of plan_kernel.bytes (memcpy; memory-bound) */
	PM_FILL,	/* a fill of plan_kernel.bytes (memset) */
	PM_NCCL,	/* an NCCL collective of plan_kernel.coll */
	PM_HTOD,	/* a pinned host-to-device copy of plan_kernel.bytes */
	PM_DTOH,	/* a device-to-pinned-host copy of plan_kernel.bytes */
	PM_COUNT
};
const char *plan_method_name(enum plan_method m);	/* "none", "cublaslt", "ptx-copy", "ptx-fill", "nccl", "htod", "dtoh" */

/*
 * A GEMM in row-major terms, as PyTorch states it: C[m,n] = op(A)[m,k] x
 * op(B)[k,n], batch times. transa: A is stored as [k,m]; transb: B is stored
 * as [n,k] (aten::linear's weight). cuBLASLt is column-major: the executor
 * computes C^T = op(B)^T op(A)^T, i.e. swaps A with B and m with n.
 */
struct plan_gemm {
	int64_t m, n, k;	/* -1 unknown */
	int64_t batch;		/* 1 for a plain matmul */
	bool transa;
	bool transb;
	enum dtype a_type;	/* input dtypes as recorded; DT_UNKNOWN */
	enum dtype b_type;
	enum dtype c_type;	/* output: the inputs' dtype (PyTorch's rule); bf16 for fp8 inputs
				   (_scaled_mm's usual out_dtype, marked guessed) */
};

/* A collective as NCCL takes it. */
struct plan_coll {
	enum coll_op op;
	int64_t count;		/* elements as the NCCL call takes them: AllReduce, Broadcast, Reduce the
				   message; AllGather the send count, ReduceScatter the receive count,
				   AllToAll the count per peer (the trace's bytes / size / nranks); -1 */
	enum dtype dtype;
	int32_t nranks;		/* the run's GPUs; -1 unknown */
};

struct plan_kernel {
	const char *name;	/* the full kernel name */
	enum crit_class cls;
	const char *op;		/* launching op; NULL */
	const char *shape;	/* for people: "m=4096 n=4096 k=1024", "1048576 B"; the recorded dims;
				   NULL when nothing says */
	enum dtype dtype;
	int64_t bytes;		/* per call; -1 unknown (a GEMM: A + B + C) */
	double logged_median_s;	/* seconds per call, as logged */
	double logged_p10_s;
	double logged_p90_s;
	double calls_per_step;
	double share;		/* of the rank's compute kernel time */
	enum plan_method method;
	const char *why_not;	/* PM_NONE: "aten::_scaled_mm: dims not recorded (record_shapes=False)" */
	bool guessed;		/* part of the shape or dtype was guessed (say so in a verdict) */
	struct plan_gemm gemm;	/* PM_CUBLASLT */
	struct plan_coll coll;	/* PM_NCCL (also filled when skipped for want of GPUs) */
};

struct plan {
	const char *run;	/* the run planned */
	const char *gpu;	/* the GPU its slowest rank ran on, as recorded; NULL unknown */
	int64_t gpu_memory;	/* that GPU's memory, bytes; -1 unknown */
	int32_t nranks;		/* the run's GPUs; -1 unknown */
	double step_s;		/* the run's median steady step; NaN unknown */
	double kernel_s;	/* logged seconds per step of the planned kernels (calls x median) */
	struct plan_kernel *k;	/* in the order of the run's critical kernels */
	size_t n;
	struct arena arena;
};

/*
 * The run to replay: the comparison's candidate (the one with several GPUs,
 * so its collectives too) when there is one, else the first run with
 * critical kernels; SIZE_MAX when no run has any.
 */
size_t plan_pick_run(const struct analysis *a);

/*
 * Plans run `run` of a. Zeroes p first. Returns 0, or -1 when run is out of
 * range or the run has no critical kernels (p is then empty but released
 * safely).
 */
int plan_build(struct plan *p, const struct analysis *a, size_t run);
void plan_release(struct plan *p);

/*
 * The GEMM that op with these recorded Input Dims and Input type runs
 * (aten::mm, addmm, bmm, baddbmm, matmul, linear, addmm_, _scaled_mm ...).
 * Returns 0 with g filled, or -1 with why (a phrase like "dims not recorded
 * (record_shapes=False)", written into why[0..size)).
 */
int plan_gemm_shape(const char *op, const char *dims, const char *types, struct plan_gemm *g,
		    char *why, size_t size);

#endif
