/*
 * compute_text: how well a run computed and why its GPUs idled, in the words
 * analyze's text and summary.md both print (one sentence builder each, so the
 * two never differ).
 */
#ifndef RENDER_COMPUTE_TEXT_H
#define RENDER_COMPUTE_TEXT_H

#include "analysis/result.h"
#include "core/buf.h"

/*
 * "MFU 14% (312.9 TFLOP/s of 2250.0 bf16 dense); 416.7 TFLOP/s over the kernel
 * time of ops with shapes, 87% of matmul time covered by shapes", or "MFU
 * unknown: WHY..." when no value.
 */
void mfu_words(struct buf *out, const struct mfu *m);

/* "host 1.5, sync 0.000034, other 0" (ms) of one GPU's idle parts. */
void idle_words(struct buf *out, const struct step_parts *p);

/*
 * "launch delay p50 12 us, p90 40 us, max 90 us; CPU ops 5.1 ms against their
 * kernels' 3.2 ms per step: host-bound; launch calls 0.54 ms per step; 38% of
 * 1800 kernels shorter than their launch call", or "launch statistics
 * unknown: WHY" (docs/analysis.md "Launch statistics").
 */
void launch_words(struct buf *out, const struct launch_stats *l);

#endif
