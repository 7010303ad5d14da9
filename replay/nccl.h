/*
 * nccl: NCCL opened at run time with dlopen (never linked), one
 * communicator per local GPU in this single process (ncclCommInitAll),
 * and timed collectives across them.
 *
 * The library is $SCALEAUDIT_LIBNCCL when set, else libnccl.so.2. Errors
 * are recorded into the caller's struct cuda_err (replay/cuda.h) as
 * `ncclXxx: ncclResultName: ncclGetErrorString text (replay/file.c:line)`;
 * nothing here prints. A struct nccl owns the dlopen handle and the
 * communicators; nccl_close() destroys them and closes the library.
 */
#ifndef REPLAY_NCCL_H
#define REPLAY_NCCL_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "replay/cublaslt.h"
#include "replay/cuda.h"

struct nccl;

/*
 * Opens the library and resolves its entry points (ncclAllToAll is
 * optional: NCCL before 2.28 has none). Returns 0, or -1 with the reason in
 * err: "NCCL not found (dlopen: ...)", "NCCL at PATH lacks ncclXxx".
 */
int nccl_open(struct nccl **out, struct cuda_err *err);
void nccl_close(struct nccl *nc);

/*
 * One communicator per device 0..ndev-1 (ncclCommInitAll: a single process
 * drives them all). Returns 0, or -1 with the NCCL message in err.
 */
int nccl_comm_init(struct nccl *nc, int ndev, struct cuda_err *err);

const char *nccl_path(const struct nccl *nc);
/* ncclGetVersion(): e.g. 22809 for 2.28.9; -1 when the call failed. */
int nccl_version(const struct nccl *nc);

/* The ncclDataType_t number for a dtype (ncclBfloat16 = 9 ...); -1 when NCCL has none. */
int nccl_type(enum dtype t);
/* "ncclInvalidArgument" for a result number; "ncclResult<n>" when unknown. */
const char *nccl_result_name(int result);

/* Whether this NCCL can run op (AllToAll needs ncclAllToAll, Gather/Scatter/Barrier are not run). */
int nccl_supports(const struct nccl *nc, enum coll_op op);

/* Elements per rank a collective of `bytes` message bytes per rank moves: bytes / dtype size. */
int64_t nccl_count(enum coll_op op, int64_t bytes, enum dtype t);

/*
 * One collective across devices 0..nranks-1. count is the elements each
 * rank puts in, as a trace's "In msg nelems" counts them: AllReduce,
 * Broadcast, Reduce and Send/Recv move count; AllGather gathers count from
 * every rank (count x nranks out); ReduceScatter reduces count into
 * count / nranks per rank; AllToAll sends count / nranks to every peer.
 */
struct nccl_coll {
	enum coll_op op;
	int64_t count;		/* > 0 */
	enum dtype dtype;	/* DT_UNKNOWN: bytes */
	int nranks;		/* >= 1 local GPUs */
};

/* nccl-tests' "size" of the collective, bytes (algbw = size / time); -1 when unknown. */
int64_t nccl_coll_size(const struct nccl_coll *c);

/*
 * Runs c through NCCL on devices 0..nranks-1 (communicators made here on the
 * first call; every device's primary context is opened through cu), inputs
 * filled with the project's random fill. Each repetition is timed with
 * events on every device's stream and counts as its slowest device; the
 * repetitions follow rule (NULL: cuda_timing_default). out->gbps is the
 * bus bandwidth (nccl-tests' algbw x coll_busbw_factor). Returns 0, or -1
 * with the first failing call's message in err.
 */
int nccl_run(struct nccl *nc, struct cuda *cu, const struct nccl_coll *c,
	     const struct cuda_timing_rule *rule, struct op_timing *out, struct cuda_err *err);

#endif
