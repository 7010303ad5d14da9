/*
 * smoke_libs: the `replay --smoke` items that need cuBLASLt and NCCL, as a
 * second table for smoke_options.extra: GEMM throughput per dtype on device
 * 0 against the GPU table's peak, and an NCCL all-reduce across every local
 * GPU against the link's nominal bandwidth. Neither is essential.
 */
#ifndef REPLAY_SMOKE_LIBS_H
#define REPLAY_SMOKE_LIBS_H

#include <stddef.h>

#include "replay/smoke.h"

/* The items, in the order they run: "gemm", "nccl". */
const struct smoke_item *smoke_libs_items(size_t *n);

/* The GEMM size (m = n = k) and the all-reduce bytes per GPU the items use. */
#define SMOKE_GEMM_SIZE 8192
#define SMOKE_NCCL_BYTES (256LL << 20)

#endif
