/*
 * kineto: the reader of PyTorch profiler (Kineto) Chrome traces, `.json` or
 * `.json.gz`, streamed through yajl's push parser. It fills one rank of the
 * run: GPU work (kernels, memcpy, memset) with the CPU op and ProfilerStep
 * of its launch, step marks, [memory] samples and the rank's own device;
 * each collective's process group, with its size and ranks where
 * distributedInfo.pg_config lists them, goes to the trial's group table
 * (trial_group_add()). It says in ctx->info what it read.
 *
 * Memory grows with the events kept (growable arrays, interned names),
 * never with the size of the file: no tree of the JSON is built. Bytes per
 * event (x86-64):
 * - kept by the rank: a kernel, memcpy or memset 64 (struct gpu_event; its
 *   launching op, input types and dims are one pointer to the trial's
 *   launch_ops, ~56 bytes per distinct triple), a [memory] sample 32, a
 *   ProfilerStep 32; flows, instants and other events nothing;
 * - while the trace is read only: a CPU op 32 (+16 for one with collective
 *   args; its thread and its name, input types and dims are 4-byte indices
 *   into tables of the distinct ones: 24 + ~44 bytes per distinct triple,
 *   with the map that finds it by its text, 8 + ~16 per thread), a runtime
 *   or driver launch 24 (+16 for a ROCm call naming its "size", +16 for a
 *   correlation id past 32 bits);
 * - at the end, while the rank is linked: 4 more per op (sorted through
 *   an array of indices, which then holds each op's parent), 4 per launch
 *   and per op whose external id a launch carries (the id maps: index
 *   arrays sorted in place), then 4 per GPU event, [memory] sample and
 *   step while each kind is sorted (after the ops and launches are
 *   freed). Nothing is sorted through a copy (core/isort).
 * A distinct name is interned once (its length + 9 bytes + 16 per table
 * slot). The read buffer is 1 MiB, the inflate one 128 KiB.
 */
#ifndef INGEST_KINETO_H
#define INGEST_KINETO_H

#include <stddef.h>
#include <stdint.h>

#include "ingest/reader.h"

extern const struct reader kineto_reader;

/*
 * Converts a JSON number of microseconds, as its text s[0..n), to exact
 * nanoseconds in *ns ("1712195495505583.123" gives 1712195495505583123,
 * which a double cannot hold); digits past the nanosecond are rounded.
 * Returns 0, or -1 when the text is no number or the value does not fit.
 */
int kineto_us_to_ns(const char *s, size_t n, int64_t *ns);

#endif
