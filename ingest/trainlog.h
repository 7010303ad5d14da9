/*
 * trainlog: the training job's stdout (format "train-log"). A READ_LINES
 * reader driven by a const table of per-framework profiles (Hugging Face
 * Trainer, Megatron-LM, DeepSpeed, torchtitan, Lightning, plain "step N ...
 * time X" lines), each row a PCRE2 pattern whose named groups say what the
 * line holds. It fills the run's logged facts, its log steps, its status and
 * the numbers of a CUDA out-of-memory message, the run's whole-job summary
 * (HF train_runtime, samples/s, steps/s: kept apart from the per-iteration
 * lines) and the largest reserved and allocated memory figures printed (in
 * each framework's unit: Megatron's MB are MiB, DeepSpeed's GB are GiB), and
 * the file's "train" object for inspect (samples_per_s, tokens_per_s: the
 * median of the steady per-iteration lines, else the summary's;
 * throughput_source; peak_memory_bytes; torchtitan's tflops and mfu, the
 * median of the steady lines, also the run's log_tflops and log_mfu).
 * It also adds the checkpoint saves the log shows to the run (run_add_ckpt_save),
 * each with its write time only where the log measures it: Megatron-LM's
 * save-checkpoint timer, torchtitan's printed duration, or the gap between
 * the timestamped lines that open and close one save (DeepSpeed); a save
 * ends at the next step record at the latest.
 *
 * Users' own formats come from a patterns file (trainlog_load_patterns),
 * tried before the built-in profiles. The patterns are process-wide state.
 *
 * How lines are read: ANSI colour codes are dropped and a line is split at
 * carriage returns (tqdm updates) before matching. A line gives at most one
 * step record; one whose launcher prefix names a rank other than 0
 * ("[rank1]:", "1: ", "[1,1]<stdout>:") gives none, so that every rank
 * printing the same step counts once. Facts are kept as first read; a later
 * different value is a "train-conflict" warning.
 *
 * Status of the file (the run keeps the gravest of its files'): failed-oom
 * when an OOM message was printed; completed when training reached its end
 * (HF train_runtime, Megatron's last iteration, torchtitan's or Lightning's
 * end line); failed when a traceback ended in an exception line; incomplete
 * when the last step printed is short of the planned total; else unknown.
 */
#ifndef INGEST_TRAINLOG_H
#define INGEST_TRAINLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/model.h"
#include "ingest/reader.h"

extern const struct reader trainlog_reader;

/*
 * Reads a file of PCRE2 patterns, one per line; blank lines and lines whose
 * first non-blank character is '#' are skipped. A pattern names what it
 * captures with named groups:
 *   step, step_time (seconds), step_time_ms, loss, samples_per_s,
 *   tokens_per_s, memory_gib, tflops, mfu (percent), global_batch,
 *   micro_batch, grad_accum, reserved_gib, allocated_gib, reserved_mib, allocated_mib (memory peaks,
 *   kept from any line; the largest reserved figure is the file's peak),
 *   precision (text such as "bf16", "torch.float16", "16-mixed"),
 *   total_steps, world_size.
 * A line matching a pattern that captures any of step, step_time,
 * step_time_ms, loss, samples_per_s, tokens_per_s, memory_gib, tflops or
 * mfu is a step record; the other groups are facts about the run.
 *
 * Every bad line is reported to d as `file:line: bad pattern: <pcre2
 * message> at offset N` (or `no named group ...` when it captures nothing
 * scaleaudit reads). Returns 0 and replaces the patterns in use when the whole
 * file is good; returns -1 and keeps the previous patterns otherwise (also
 * when the file cannot be read).
 */
int trainlog_load_patterns(const char *path, struct diags *d);

/* Forgets the patterns loaded by trainlog_load_patterns. */
void trainlog_clear_patterns(void);

/*
 * Parses a CUDA out-of-memory message of any PyTorch era in s[0..n). Returns
 * true when the line is one, with the numbers it printed in *out (-1 for
 * those it did not print; out->src is left alone).
 */
bool trainlog_parse_oom(const char *s, size_t n, struct run_oom *out);

#endif
