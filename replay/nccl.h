/*
 * nccl: NCCL opened at run time with dlopen (never linked), one
 * communicator per local GPU in this single process (ncclCommInitAll),
 * and timed collectives across them.
 *
 * The library is $SCALEAUDIT_LIBNCCL when set, else libnccl.so.2. Errors
 * are written into a caller's buffer as
 * `ncclXxx: ncclResultName: ncclGetErrorString text (replay/file.c:line)`;
 * nothing here prints. A struct nccl owns the dlopen handle and the
 * communicators; nccl_close() destroys them and closes the library.
 */
#ifndef REPLAY_NCCL_H
#define REPLAY_NCCL_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

struct nccl;

/*
 * Opens the library and resolves its entry points (ncclAllToAll is
 * optional: NCCL before 2.28 has none). Returns 0, or -1 with the reason in
 * err: "NCCL not found (dlopen: ...)", "NCCL at PATH lacks ncclXxx".
 */
int nccl_open(struct nccl **out, char *err, size_t errsz);
void nccl_close(struct nccl *nc);

/*
 * One communicator per device 0..ndev-1 (ncclCommInitAll: a single process
 * drives them all). Returns 0, or -1 with the NCCL message in err.
 */
int nccl_comm_init(struct nccl *nc, int ndev, char *err, size_t errsz);

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

#endif
