/*
 * exec: the replay executor. Runs one planned kernel on device N of this
 * machine and returns the replayed timing, or why it was skipped or failed:
 * GEMMs through cuBLASLt with the recorded shape and dtype, memory-bound
 * kernels as the project's PTX copy moving the same bytes, collectives
 * through NCCL across the local GPUs when there are as many as the trial's
 * ranks, host<->device copies as copies of the same bytes from or to pinned
 * host memory.
 *
 * A struct exec owns the CUDA driver, cuBLASLt and NCCL it opened (each
 * opened the first time a kernel needs it) and is freed by exec_close().
 * Inputs are random (the PTX fill kernel), never zeros. Nothing here prints.
 */
#ifndef REPLAY_EXEC_H
#define REPLAY_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "replay/cublaslt.h"
#include "replay/cuda.h"
#include "replay/plan.h"

/* What a kernel is, for the executor (the planner's class). */
enum exec_class {
	EXEC_OTHER,		/* not replayed */
	EXEC_GEMM,
	EXEC_MEMORY,
	EXEC_COLLECTIVE,
	EXEC_HTOD,		/* a pinned host -> device copy of `bytes` */
	EXEC_DTOH,		/* a device -> pinned host copy of `bytes` */
};

/* One kernel to run: the fields of a planned kernel the executor needs. */
struct exec_req {
	enum exec_class cls;
	struct gemm_shape gemm;	/* EXEC_GEMM */
	int64_t bytes;		/* EXEC_MEMORY, EXEC_HTOD, EXEC_DTOH: bytes moved per call
				 * (read + written counted once);
				 * EXEC_COLLECTIVE: message bytes per rank; -1 unknown */
	enum coll_op coll;	/* EXEC_COLLECTIVE */
	enum dtype coll_dtype;	/* EXEC_COLLECTIVE: element type; DT_UNKNOWN = bytes (uint8) */
	int nranks;		/* EXEC_COLLECTIVE: the trial's ranks in the collective */
	bool fill;		/* EXEC_MEMORY: write-only (a memset), not a copy */
};

enum exec_status {
	EXEC_DONE,		/* timing holds the replayed figures */
	EXEC_SKIPPED,		/* could not be replayed here; reason says why */
	EXEC_FAILED,		/* a call failed; reason holds the library's message */
};

#define EXEC_REASON_MAX 1024

struct exec_result {
	enum exec_status status;
	struct op_timing timing;	/* EXEC_DONE; NaN / 0 reps otherwise */
	char method[64];		/* "cuBLASLt bf16 TN", "PTX copy", "NCCL AllReduce bf16",
					 * "pinned HtoD copy" */
	char reason[EXEC_REASON_MAX];	/* EXEC_SKIPPED / EXEC_FAILED: one line, lowercase start */
};

struct exec;

/*
 * Prepares to run kernels on `device` (0-based). Opens the CUDA driver and
 * makes the device's primary context current. Returns 0, or -1 with one
 * line in err ("no CUDA driver: libcuda.so.1 not found (dlopen: ...)",
 * "cuInit: CUDA_ERROR_...: ... (replay/cuda.c:NN)", "device 3 not present:
 * this machine has 1 GPU"). The caller frees *out with exec_close().
 */
int exec_open(struct exec **out, int device, char *err, size_t errsz);
void exec_close(struct exec *x);

/* The device kernels run on, as the driver describes it. */
const struct cuda_device_info *exec_device(const struct exec *x);

/* Runs one request; always fills r (never crashes on a bad request: EXEC_SKIPPED with why). */
void exec_run(struct exec *x, const struct exec_req *req, struct exec_result *r);

/*
 * The request that re-runs planned kernel k. A plan states GEMMs row-major
 * as PyTorch does; cuBLASLt is column-major, so the request computes
 * C^T = op(B)^T op(A)^T: m and n swap, and A's layout becomes B's. fp8
 * GEMMs run in the "TN" layout, the only one cuBLASLt takes for fp8 on
 * every GPU (same FLOPs). Returns 0, or -1 with why in why[0..n) when k
 * cannot be run (its method is "none", its shape or bytes are unknown).
 */
int exec_req_from_plan(const struct plan_kernel *k, struct exec_req *req, char *why, size_t n);

/* exec_req_from_plan() then exec_run(); a kernel that cannot be run is EXEC_SKIPPED with why. */
void exec_kernel(struct exec *x, const struct plan_kernel *k, struct exec_result *r);

/* "done" | "skipped" | "failed" */
const char *exec_status_name(enum exec_status s);

/*
 * The reason a collective over `nranks` GPUs is skipped on a machine with
 * `ngpus`, NULL when it can run: "the trial ran AllReduce over 2 GPUs; this
 * machine has 1". Written into buf (size n), which is returned.
 */
const char *exec_coll_skip_reason(enum coll_op op, int nranks, int ngpus, char *buf, size_t n);

#endif
