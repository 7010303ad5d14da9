/*
 * logs: the text files of a trial besides the traces: the job's stdout (HF
 * Trainer, or Megatron-LM for a run without traces, under torchrun; NCCL
 * INFO lines on multi-GPU runs; the CUDA OOM traceback of a run that died),
 * nvidia-smi --query-gpu CSV, run.ini and trial.ini. Each appends to a
 * buffer; nothing here does I/O.
 */
#ifndef GEN_LOGS_H
#define GEN_LOGS_H

#include "core/buf.h"
#include "samples/gen/timing.h"

void logs_train(struct buf *b, const struct sim_run *run);
void logs_nvidia_smi(struct buf *b, const struct sim_run *run);
void logs_run_ini(struct buf *b, const struct sim_run *run);
void logs_trial_ini(struct buf *b, const struct scenario *sc);

/* What Megatron-LM's log prints as step i's elapsed time per iteration, in
 * tenths of a ms: the longest ProfilerStep range of the step over the ranks. */
int64_t logs_iteration_tenths_ms(const struct sim_run *run, int i);

/* The largest memory.used nvidia-smi.csv shows for rank r, MiB. */
int64_t logs_smi_peak_mib(const struct sim_run *run, int r);

/* What the OOM traceback of a failed run says it tried to allocate, MiB (3.50 GiB). */
#define LOGS_OOM_ALLOC_MIB 3584

#endif
