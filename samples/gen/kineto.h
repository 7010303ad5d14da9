/*
 * kineto: one rank's PyTorch profiler trace in the current Kineto layout
 * (schemaVersion, deviceProperties, distributedInfo, baseTimeNanoseconds and
 * relative ts, ProfilerStep#N, cpu_op / cuda_runtime / ac2g flows / kernels,
 * record_param_comms and NCCL kernels with their collective args, [memory]).
 */
#ifndef GEN_KINETO_H
#define GEN_KINETO_H

#include <stdint.h>

#include "core/buf.h"
#include "samples/gen/timing.h"

/* Appends the JSON of rank r's trace to b. */
void kineto_trace(struct buf *b, const struct sim_run *run, int r);

/* Unix ns of the rank's trace base (baseTimeNanoseconds). */
int64_t kineto_base_ns(const struct sim_run *run, int r);
/* The OS pid of rank r's process (logs use it too). */
int kineto_pid(const struct sim_run *run, int r);

#endif
