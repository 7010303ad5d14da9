/*
 * capacity: the memory a trial's GPU, or a GPU model the advice sizes a job
 * for, holds under the one capacity rule of core/gpu (gpu_capacity_bytes):
 * what the trial's own GPU reported, else the GPU table's reported figure,
 * else the nominal one. Reads the result only, so that it holds for an
 * analysis read back from analysis.json as well.
 */
#ifndef ANALYSIS_CAPACITY_H
#define ANALYSIS_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "core/gpu.h"

/* 64 bytes hold any capacity text below. */
#define CAPACITY_TEXT_LEN 64

/*
 * The driver-reported bytes behind g's memory_total, -1 when none: a GPU
 * named only in a log has the GPU table's figure, which is nominal (the
 * vendor's GB x 1e9, never what a driver reports, which counts MiB) when the
 * table knows no reported one. *m (may be NULL) gets g's table row or NULL.
 */
int64_t capacity_gpu_reported(const struct gpu_result *g, const struct gpu_model **m);

/* g's capacity as every command prints it (gpu_capacity_text): "80 GB nominal (85.0 GB / 79.2 GiB reported)". */
const char *capacity_gpu_text(char *out, size_t n, const struct gpu_result *g);

/*
 * What one GPU of model m holds for this trial: the reported figure of a
 * GPU of the trial of that model (the first, runs then GPUs in order), else
 * the table's; -1 when m is NULL. The text is gpu_capacity_text of the same.
 */
int64_t capacity_model_reported(const struct analysis *a, const struct gpu_model *m);
int64_t capacity_model_bytes(const struct analysis *a, const struct gpu_model *m);
const char *capacity_model_text(char *out, size_t n, const struct analysis *a, const struct gpu_model *m);

#endif
