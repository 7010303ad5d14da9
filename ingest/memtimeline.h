/*
 * memtimeline: the reader of PyTorch's memory timeline exports
 * (`prof.export_memory_timeline(path, device)`), raw or coalesced, streamed
 * through yajl's push parser. It adds one struct mem_timeline to the run:
 * the device's peak of all tensor memory together, each category's bytes at
 * that peak, and each category's own peak.
 *
 * Forms (one device per file; the file does not say which, so the device is
 * the number after "cuda", "gpu", "rank" or "device" in the file's name,
 * else 0, the device PyTorch exports when none is given):
 *   raw        [[time_ns, action, bytes, category], ...]: action 1..4
 *              (pre-existing, create, new version, destroy), bytes signed,
 *              category 0..7 in enum mem_category order; time -1 for
 *              memory that existed before profiling
 *   coalesced  [[time_us, ...], [[0, parameter, ..., unknown], ...]]: the
 *              bytes of each category after each instant
 * The raw records of one instant are added up before the instant is
 * measured, as PyTorch coalesces them, so both forms of one profile give the
 * same peaks. Memory stays the same whatever the size of the file.
 */
#ifndef INGEST_MEMTIMELINE_H
#define INGEST_MEMTIMELINE_H

#include <stdint.h>

#include "ingest/reader.h"

extern const struct reader memtimeline_reader;

/* The device that a file's path names ("mem_rank1.raw.json.gz" gives 1), else 0. */
int32_t memtimeline_device(const char *path);

#endif
