/*
 * result: everything the analysis decides about a trial, computed once and
 * rendered per format (text, analysis.json, charts, report.pdf, summary.md).
 * It is the contract between analysis/ and render/: render reads it and never
 * reaches back into the logs or the model.
 *
 * Units: seconds (double), bytes (int64), GB/s = 1e9 bytes/s. A value that
 * is not known is NaN for doubles, -1 for counts and bytes, NULL for strings;
 * the JSON writer turns each into null. Strings are owned by the analysis'
 * arena, or are static: the result holds no pointer into the trial it was
 * computed from, so the trial may be freed first, and render/analysis_json.h
 * can read the same struct back from analysis.json.
 */
#ifndef ANALYSIS_RESULT_H
#define ANALYSIS_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/diag.h"
#include "core/model.h"

/* The partition of a step window (docs/analysis.md); the first four add up to the window. */
struct step_parts {
	double compute;
	double exposed_comm;
	double memory;
	double idle;
	double comm_total;	/* union of communication kernels */
	double overlapped_comm;	/* comm_total - exposed_comm */
	double exposed_comm_wait;	/* exposed_comm while every comm kernel waits for a peer */
	double exposed_comm_transfer;	/* exposed_comm - exposed_comm_wait */
	double memory_total;	/* union of memcpy/memset */
	double kernel_busy;	/* union of all GPU work */
	double idle_host;	/* idle by cause (docs/analysis.md): the next work launched late; */
	double idle_sync;	/* launched early, held by a stream, event or peer; */
	double idle_other;	/* neither known; the three add up to idle */
};

/* One step of one GPU, for the timeline charts. */
struct step_point {
	int64_t number;		/* ProfilerStep number */
	double window_s;	/* the GPU step window */
	bool warmup;
	int64_t start_ns;	/* the window's start on the trace's clock; -1 unknown (a log's step) */
	bool trailing;		/* the last profiled step: nothing closes its window; never steady */
	struct step_parts parts;
};

/* A kernel family's time, for the top-kernels chart. */
/* One full kernel name within a label group, with its own time. */
struct kernel_member {
	const char *name;	/* the full kernel name */
	double time_per_step_s;	/* over steady steps */
	int64_t calls_per_step;
};

/* A label group: the kernels that one label names, summed. */
struct kernel_time {
	const char *label;	/* shortened for people: "GEMM bf16 (cuBLAS)" */
	const char *name;	/* the only member's full name; the label when the group has several */
	double time_per_step_s;	/* over steady steps, of every member */
	int64_t calls_per_step;
	uint8_t cls;		/* enum ev_class */
	struct kernel_member *members;	/* by time per step, largest first */
	size_t nmembers;
};

/* A kernel family's time in a run (kname_family()), for the workload comparison. */
struct family_time {
	const char *family;	/* "gemm", "elementwise CUDAFunctor_add", ... */
	double time_s;		/* kernel time, summed over the run's ranks */
};

/* One busy interval of one steady step, relative to the window start, for chart 7. */
struct lane_span {
	double start_s;
	double end_s;
	uint8_t cls;		/* enum ev_class */
};

enum mem_source { MEM_NVSMI, MEM_RESERVED, MEM_ALLOCATED, MEM_LOG, MEM_NSOURCES };
const char *mem_source_name(enum mem_source s);	/* "nvidia-smi", "reserved", "allocated", "log" */

struct gpu_result {
	int32_t rank;			/* -1 unknown */
	int32_t device;			/* CUDA ordinal; -1 unknown */
	const char *name;		/* "NVIDIA B200"; NULL unknown */
	int64_t memory_total;		/* bytes; -1 unknown */
	int64_t peak_memory;		/* the headline: first known of nvidia-smi, reserved, allocated, log */
	const char *peak_source;	/* mem_source_name() of the headline; NULL when none */
	int64_t peak_by_source[MEM_NSOURCES];	/* -1 where that source says nothing */
	double mean_step_s;		/* mean of this GPU's steady windows */
	struct step_parts step_s;	/* means over steady steps; add up to mean_step_s */
	struct step_parts span_s;	/* no closed step window: the whole profiled span's partition; else NaN */
	double busy_s;			/* compute + memory per step: work that waits on no other GPU */
	double clock_offset_s;		/* added to its times gives the lowest rank's clock; NaN unknown */
	struct step_point *steps;	/* every step of this GPU, warm-up included */
	size_t nsteps;
	struct kernel_time *top;	/* by time per step, largest first */
	size_t ntop;
	struct lane_span *lanes;	/* one steady step's busy intervals: the same number on every GPU of the run */
	size_t nlanes;
	double lanes_window_s;		/* that step's window */
	int64_t lanes_step;		/* that step's number; -1 none */
	/* --- the PyTorch memory timeline of this device (by category); not a peak_by_source --- */
	int64_t timeline_peak;			/* tensor bytes at the timeline's peak; -1 no timeline */
	int64_t timeline_at_peak[MEMCAT_COUNT];	/* each category's bytes at that peak; -1 */
	int64_t timeline_cat_peak[MEMCAT_COUNT];/* each category's own peak; -1 */
	double tflops;			/* FLOPs from op shapes / the kernel time of those ops, TFLOP/s; NaN */
};

struct coll_result {
	enum coll_op op;
	enum dtype dtype;
	double bytes_per_step;		/* summed message bytes per steady step */
	double time_per_step_s;		/* summed kernel time per steady step */
	double calls_per_step;
	double algbw_gbps;		/* bytes / time */
	double busbw_gbps;		/* algbw x nccl-tests factor for the run's ranks */
	double link_fraction;		/* busbw / the run's link_busbw_gbps; NaN when unknown */
	double transfer_time_per_step_s;	/* time_per_step_s less the waiting for peers */
	double wait_time_per_step_s;	/* the waiting for peers: time less transfer */
	double transfer_busbw_gbps;	/* bus bandwidth over transfer time: what the link delivered */
};

/* One measured point of bus bandwidth by message size (nccl-tests or a trace's collectives). */
struct bw_point {
	enum coll_op op;
	int64_t bytes;
	double busbw_gbps;
	bool from_nccl_tests;		/* false: from the trace */
};

/* A rank the others wait for (docs/analysis.md "Strategy and stragglers"). */
struct straggler {
	int32_t rank;
	const char *cause;		/* "host-bound" (its GPU idles) or "computing" */
	double wait_s;			/* its own waiting for peers, per step or span */
	double idle_s;			/* its idle time, per step or span */
	double busy_s;			/* its compute + memory time, per step or span */
};

struct imbalance {
	double memory_ratio;		/* max/min peak memory; NaN with fewer than 2 GPUs */
	double busy_ratio;		/* max/min busy time */
	bool flagged;
	int32_t saturated_rank;		/* the GPU that is saturated (or slowest); -1 none */
	int32_t waiting_rank;		/* the GPU that waits */
	double peer_wait_s;		/* the most exposed waiting for a peer of one GPU, per step */
	double peer_wait_share;		/* that over the GPU's mean step; NaN with fewer than 2 GPUs */
	const char *reason;		/* a sentence with the numbers; NULL when not flagged */
	struct straggler *stragglers;	/* the ranks the others wait for, by rank */
	size_t nstragglers;
	double straggler_cost_s;	/* the waiting of the other GPUs: their median, per step or span */
	double straggler_cost_share;	/* that over their step or span; NaN */
	const char *per;		/* "step" or "span": what the waiting is taken over; NULL */
	const char *straggler_reason;	/* the stragglers' part of reason; NULL without one */
};

/* An NCCL_* variable a run's NCCL log echoes ("NCCL_P2P_DISABLE", "1"). */
struct env_setting {
	const char *name;
	const char *value;
};

/* A kernel built for another GPU generation than the one it ran on: it runs, but is not tuned for it. */
struct foreign_kernel {
	const char *name;	/* the full kernel name */
	const char *arch;	/* the architecture its name says: "sm_90" */
	double time_share;	/* its share of the run's GPU kernel time */
};

/* One minimum version the run's GPU needs, against what the run's environment shows. */
struct readiness_item {
	const char *component;	/* "CUDA", "driver", "PyTorch", "NCCL", "cuDNN", "ROCm", "arch list" */
	const char *have;	/* as the environment shows it: "12.6" */
	const char *minimum;	/* "12.8"; for the arch list, the GPU's architecture */
	bool ok;
	const char *fix;	/* what to do; NULL when ok */
};

/* A binary with GPU code in the run's directory (a copied extension), judged for the run's GPU. */
struct readiness_code {
	const char *path;	/* as the trial names it */
	const char *kind;	/* "shared-object", "cubin", "fatbin", "hsaco" ... (static) */
	const char *sass;	/* its distinct archs of each kind, space-separated, sorted: */
	const char *ptx;	/*   "sm_90 sm_90a", "compute_120", "gfx942:sramecc+:xnack-"; */
	const char *amdgpu;	/*   "" when it has none of that kind */
	const char *verdict;	/* "native" | "jit" | "missing"; NULL when the GPU's architecture is unknown */
	const char *jit_ptx;	/* jit: the PTX the driver compiles ("compute_90"); NULL otherwise */
	const char *jit_driver;	/* jit: the driver that PTX needs ("570.26"); NULL otherwise or unknown */
	int64_t zstd_entries;	/* its ZSTD-compressed CUDA entries */
	const char *zstd_driver;	/* the oldest driver that loads them ("550.54.14", static); NULL: none */
};

/*
 * Whether a run's software targets its GPU (docs/analysis.md
 * "Blackwell readiness"): what the environment report says, the arch
 * warning PyTorch printed, and the kernels of another generation its
 * traces ran. present is false when the trial holds none of these.
 */
struct readiness {
	bool present;
	const char *gpu;		/* the GPU table's row ("B200"), else as the trace names it; NULL */
	const char *isa;		/* the GPU's architecture: "sm_100"; NULL unknown */
	const char *torch;		/* as collect_env prints it: "2.6.0+cu126"; NULL */
	const char *torch_cuda;		/* CUDA the wheel was built with: "12.6"; NULL */
	const char *arch_list;		/* torch.cuda.get_arch_list() or TORCH_CUDA_ARCH_LIST; NULL */
	const char *driver;		/* "570.124.06"; NULL */
	const char *nccl_version;	/* "2.21.5"; NULL */
	const char *arch_warning;	/* what PyTorch said of the GPU, with file:line; NULL none */
	struct readiness_item *checks;	/* core/readiness.h's minimum versions for the GPU (arena) */
	size_t nchecks;
	const char *verdict;		/* "ready" | "not-ready" | "unknown" */
	const char *reason;		/* the verdict's sentence */
	double foreign_share;		/* of GPU kernel time, in foreign kernels; NaN without kernels */
	struct foreign_kernel *foreign;	/* by share, largest first; at most READY_FOREIGN_MAX */
	size_t nforeign;
	struct readiness_code *code;	/* the run's binaries with GPU code, by path (arena) */
	size_t ncode;			/* one judged "missing" blocks the run (readiness_blocks) */
};

/* What replay makes of a kernel (docs/analysis.md "Critical kernels"). */
enum crit_class { CRIT_GEMM, CRIT_MEMORY, CRIT_COLLECTIVE, CRIT_OTHER, CRIT_COUNT };
const char *crit_class_name(enum crit_class c);	/* "gemm", "memory", "collective", "other" */
enum crit_class crit_class_from_name(const char *s);	/* inverse; CRIT_OTHER for anything else */

/*
 * One group of the slowest rank's steady kernels that replay re-runs: the
 * same name, launching op, Input Dims and Input type (one shape of one
 * operation, which replay can run alone). Timing is
 * per call over every call of the steady steps.
 */
struct critical_kernel {
	const char *name;		/* the full kernel name, or "Memcpy HtoD" ... */
	enum crit_class cls;
	const char *op;			/* the launching CPU op; NULL unknown */
	const char *input_dims;		/* as recorded: "[[4096, 1024], [1024, 4096]]"; NULL */
	const char *input_types;	/* as recorded: "c10::BFloat16, c10::BFloat16"; NULL */
	enum dtype dtype;		/* of its data; DT_UNKNOWN */
	enum coll_op coll;		/* collectives; COLL_NONE otherwise */
	int64_t bytes;			/* per call: memcpy/memset bytes, collective message bytes; -1 */
	double calls_per_step;		/* over steady steps */
	double median_s;		/* logged seconds per call: median, p10, p90 */
	double p10_s;
	double p90_s;
	double share;			/* its time over the rank's compute kernel time */
};

/* What plan predicted for a run (run.ini) and what the trial measured (-1, NaN unknown). */
struct plan_check {
	bool present;			/* run.ini predicts something; else the rest is unused */
	int64_t predicted_peak_bytes;	/* run.ini predicted_peak_gb x 1e9, per GPU; -1 none */
	int64_t measured_peak_bytes;	/* the largest GPU peak of the run; -1 unknown */
	double predicted_step_s;	/* run.ini predicted_step_s; NaN none */
	double measured_step_s;		/* the run's median step time; NaN unknown */
};

/*
 * The facts of a run that run.ini declares and the logs or traces also show
 * (docs/analysis.md "Declared against measured"), in analysis.json's order.
 */
enum fact_key {
	FACT_GPUS, FACT_PRECISION, FACT_GLOBAL_BATCH, FACT_MICRO_BATCH, FACT_GRAD_ACCUM,
	FACT_SEQ_LEN, FACT_STEPS, FACT_MODEL, FACT_DATASET,
	FACT_COUNT
};
const char *fact_key_name(enum fact_key k);	/* "global_batch", as run.ini and analysis.json name it */
bool fact_key_is_text(enum fact_key k);		/* precision, model, dataset: a name, not a count */

/* Where the value a run uses came from: measured wins, traces over logs over run.ini. */
enum fact_from { FACT_FROM_NONE, FACT_FROM_TRACE, FACT_FROM_LOG, FACT_FROM_MANIFEST, FACT_FROM_DERIVED };
const char *fact_from_name(enum fact_from f);	/* "trace", "log", "manifest", "derived"; NULL for NONE */

/* One fact of a run: the value used, where it came from, and what run.ini said. */
struct run_fact {
	enum fact_from from;		/* FACT_FROM_NONE: nothing known (null); the rest unused */
	int64_t value;			/* counted keys: the value used; -1 for text keys */
	const char *text;		/* text keys: the value used; NULL for counted keys */
	const char *at;			/* where it was read, from the trial's directory:
					   "1gpu/train.log:5", "1gpu/rank0.pt.trace.json"; NULL */
	int64_t declared;		/* counted keys: run.ini's value; -1 none */
	const char *declared_text;	/* text keys: run.ini's value as written; NULL none */
	const char *declared_at;	/* "1gpu/run.ini:6"; NULL when run.ini says nothing */
};

/* One op (name and recorded shapes) of the roofline: its FLOPs and bytes per call from its shapes. */
struct roof_op {
	const char *op;		/* "aten::mm" */
	const char *shape;	/* the recorded Input Dims */
	enum dtype dtype;	/* of its inputs; DT_UNKNOWN */
	double time_s;		/* kernel time of its kernels, summed over the run's GPUs and measured steps */
	double tflops;		/* achieved: its FLOPs / time_s / 1e12 */
	double flops_per_byte;	/* its FLOPs per byte moved (inputs + outputs) */
};

/*
 * Model FLOPs utilisation from op shapes (analysis/flops.c); every number NaN
 * and why set when the trace cannot give it.
 */
struct mfu {
	double value;		/* achieved TFLOP/s over the step / peak_tflops (0..1); NaN */
	double tflops;		/* FLOPs / kernel time of the ops with shapes, per GPU; NaN */
	double step_tflops;	/* FLOPs per step per GPU / the step time; NaN */
	double flops_per_step;	/* FLOPs of every GPU in one steady step (the span without one); NaN */
	enum dtype dtype;	/* the dominant matmul dtype the peak is taken for; DT_UNKNOWN */
	double peak_tflops;	/* the GPU table's dense peak for dtype; NaN */
	double covered_share;	/* of matmul-class kernel time, in ops whose shapes were recorded; NaN */
	double memory_gbps;	/* the GPU's memory bandwidth (GPU table), the roofline's slope; NaN */
	const char *source;	/* "trace-shapes"; NULL when no FLOPs were counted */
	const char *why;	/* why value is unknown; NULL when known */
	struct roof_op *ops;	/* the ops with the most kernel time, largest first (arena) */
	size_t nops;
};

/* One kernel name's calls and per-call durations (docs/analysis.md "Per-kernel statistics"). */
struct kernel_stat {
	const char *name;	/* the full kernel name, or "Memcpy HtoD" ... */
	const char *label;	/* kernel_label() of its first call: "GEMM bf16 (cuBLAS)" */
	int64_t calls;		/* over the window */
	double total_s;		/* over the window */
	double mean_s;		/* per call */
	double min_s;
	double max_s;
	double p50_s;		/* stats_percentile() of the calls' durations */
	double p90_s;
};

/* The top kernel names of a run by total time; present false: the run has no trace kernels. */
struct kernel_stats {
	bool present;
	const char *per;	/* "step": the slowest rank's steady steps; "span": its whole profiled span */
	int32_t rank;		/* the rank they are taken on; -1 unknown */
	int64_t steps;		/* steady steps of the window; -1 for a span */
	struct kernel_stat *kernels;	/* by total, largest first; at most KSTATS_TOP (arena) */
	size_t nkernels;
};

/*
 * What launching kernels costs the CPU (docs/analysis.md "Launch
 * statistics"), on the slowest rank's steady steps (or its span); the
 * numbers are NaN and -1 with why set when the trace cannot give them.
 */
struct launch_stats {
	bool present;		/* false: the run has no trace kernels */
	const char *per;	/* "step" or "span": what the times are summed over */
	int32_t rank;		/* -1 unknown */
	int64_t kernels;	/* kernels linked to their runtime launch call; -1 */
	double delay_p50_s;	/* kernel start - its launch call's end */
	double delay_p90_s;
	double delay_max_s;
	double launch_cpu_s;	/* the launch calls' CPU time, per step (or over the span) */
	double op_cpu_s;	/* top-level CPU ops that launched kernels: their CPU time, likewise */
	double op_kernel_s;	/* the GPU time of those ops' kernels, likewise */
	int64_t short_kernels;	/* kernels that ran shorter than their launch call; -1 */
	double short_share;	/* short_kernels / kernels; NaN */
	const char *bound;	/* "host-bound" | "gpu-bound" from op_cpu_s against op_kernel_s; NULL */
	const char *why;	/* why the numbers are unknown; NULL when known */
};

struct run_result {
	const char *name;
	int32_t gpus;			/* GPUs the run used; -1 unknown (no trace, log or run.ini says) */
	const char *manifest;		/* "1gpu/run.ini": where its declarations go, from the trial */
	enum run_status status;
	bool status_from_log;		/* the logs said it; else inferred from the steps */
	const char *strategy;		/* the declared one, else inferred_strategy */
	const char *inferred_strategy;	/* single|ddp|fsdp|tensor|pipeline|alltoall|device_map,
					   or a mix joined by '+' ("ddp+alltoall"); NULL */
	int64_t global_batch;		/* -1 unknown; likewise below */
	int64_t micro_batch;
	int64_t grad_accum;
	int64_t seq_len;
	const char *precision_declared;	/* as the manifest or log says; NULL */
	enum dtype precision_observed;	/* dominant matmul dtype (over 50%); DT_UNKNOWN */
	double matmul_share[DT_COUNT];	/* share of matmul-class time by dtype; NaN where none */
	int64_t steps_total;		/* steps seen on the slowest rank; -1 none */
	int64_t steps_warmup;
	int64_t steps_measured;
	int64_t steps_trailing;		/* 1 when the last profiled step is left out as trailing */
	double step_median_s;		/* over the slowest rank's steady windows */
	double step_p10_s;
	double step_p90_s;
	double step_cv;
	double samples_per_s;
	double tokens_per_s;
	int64_t examples_processed;	/* global batch x steady steps */
	struct gpu_result *gpu;		/* one per rank, in rank order */
	size_t ngpu;
	size_t slowest;			/* index into gpu of the largest mean_step_s */
	const char *transport;		/* p2p|shm|net-ib|net-socket|net-ofi|nvls|collnet|unknown */
	const char *link;		/* nvlink|pcie|network|unknown */
	const char *link_source;	/* the reader that said it ("nvidia-smi-topo", "nccl-log"), or
					   "gpu-model" when inferred from the GPU table; NULL unknown */
	double link_gbps;		/* the link's nominal GB/s per GPU and direction (GPU table); NaN */
	const char *nccl_version;
	struct coll_result *coll;
	size_t ncoll;
	const char *coll_per;		/* "step": per steady step; "span": over the profiled span */
	struct bw_point *bw;		/* for the bandwidth chart */
	size_t nbw;
	double link_busbw_gbps;		/* the link's ceiling where known; NaN */
	const char *link_busbw_source;	/* "nccl-tests" (measured) or "nominal" (a table); NULL */
	struct imbalance imbalance;
	struct gpu_sample *monitor;	/* nvidia-smi samples, for chart 8 (copies; name NULL) */
	size_t nmonitor;
	struct source *sources;		/* the files the run was read from (copies) */
	size_t nsources;
	int64_t failed_allocation;	/* bytes a CUDA OOM message says it tried to allocate; -1 */
	const char *time_source;	/* step time and throughput from: "trace", "log-iterations",
					   "log-summary" (whole job, start-up included), "nsys-nvtx"
					   (an NVTX range of Nsight Systems summary tables); NULL none */
	/* Nsight Systems console tables (no timeline): totals over the profile; NaN/NULL without tables */
	double nsys_compute_s;		/* kernel time of compute kernels */
	double nsys_comm_s;		/* kernel time of communication kernels */
	double nsys_memory_s;		/* memcpy/memset time */
	const char *nsys_step_range;	/* the NVTX range taken for the steps; NULL none */
	/* NCCL as the run's logs set it up (a disabled transport explains a slow one) */
	struct env_setting *nccl_env;	/* NCCL_* settings the log echoes, in order first seen; arena */
	size_t nnccl_env;
	int32_t nccl_tests_gpus;	/* rank count of the nccl-tests tables taken for bandwidth; -1 none */
	struct readiness readiness;	/* whether its software targets its GPU */
	/* the kernels replay re-runs, from the slowest rank's steady steps: the fewest
	   compute kernel groups making up >= 80% of its compute time (largest first), then each
	   collective group, then each memcpy/memset group (arena) */
	struct critical_kernel *critical;
	size_t ncritical;
	struct plan_check plan;		/* the plan's predictions against the run: present only where run.ini predicts */
	/* the workload (analysis/workload.h): kernel time by family, summed over the ranks, over
	   the steady steps, or the whole profiled span without one; not part of analysis.json */
	struct family_time *families;	/* largest first (arena); none without trace kernels */
	size_t nfamilies;
	double kernel_time_s;		/* their sum; 0 without kernels */
	double generated_share;		/* of kernel_time_s, in Triton-generated kernels; NaN without */
	bool families_span;		/* over the whole profiled span: no steady step */
	struct run_fact facts[FACT_COUNT];	/* declared against measured, by enum fact_key */
	/* checkpoint saves the training logs show; the times are only those the logs measure */
	int32_t checkpoint_saves;		/* saves seen; 0 none (analysis.json's null) */
	int32_t checkpoint_saves_measured;	/* of those, the saves whose write time the logs show */
	double checkpoint_write_s;		/* median write time of those, s; NaN unknown */
	double checkpoint_write_max_s;		/* the longest of them, s; NaN unknown */
	const char *checkpoint_write_source;	/* "1gpu/train.log:40": the first measured save; NULL */
	struct mfu mfu;			/* achieved TFLOP/s and MFU from op shapes */
	struct kernel_stats kernel_stats;	/* the top kernel names' per-call statistics */
	struct launch_stats launch;	/* what launching kernels costs the CPU */
};

bool run_failed(const struct run_result *r);		/* its logs say it ran out of memory or ended on an error */
int64_t run_largest_peak(const struct run_result *r);	/* of its GPUs' peaks; -1 when none is known */

enum confound_what {
	CF_PRECISION, CF_GLOBAL_BATCH, CF_MICRO_BATCH, CF_SEQ_LEN, CF_DATASET, CF_MODEL, CF_STEPS,
	CF_GPU_MODEL,		/* the runs used different GPU models (core/gpu.h rows) */
	CF_GPU_ARCH,		/* a run's software does not target its GPU */
	CF_WORKLOAD,		/* the runs are not one job: their kernels or declared facts differ */
	CF_GPUS,		/* a run's GPU count is unknown, so n = c / b is */
	CF_COUNT
};
const char *confound_name(enum confound_what w);	/* "precision", "global_batch", ... */
const char *confound_label(enum confound_what w);	/* "precision", "global batch", ...: in sentences */
/* Not a difference between the runs (too few steps, an unknown GPU count): its message is its own sentence. */
bool confound_whole(enum confound_what w);

/*
 * How much a confound weighs: blocking makes the verdict inconclusive; a
 * warning qualifies it; unverified says the fact is unknown for at least one
 * run, so it could not be checked (the verdict's sentence says so).
 */
enum confound_severity { CFS_BLOCKING, CFS_WARNING, CFS_UNVERIFIED };
const char *confound_severity_name(enum confound_severity s);	/* "blocking", ... */

struct confound {
	enum confound_what what;
	const char *baseline;		/* the value on each side, as text */
	const char *candidate;
	enum confound_severity severity;
	const char *why;		/* a sentence for people; unverified: "precision of 1gpu unknown" */
	const char *message;		/* the whole sentence: the values, and why it matters */
};

/* The answer to `question = hparam-sweep`: n independent runs or one n-GPU run. */
enum answer { ANSWER_NONE, ANSWER_INDEPENDENT, ANSWER_DISTRIBUTED, ANSWER_UNKNOWN };
const char *answer_name(enum answer v);	/* "independent-runs", "distributed", "unknown"; NULL for NONE */

/* One way to rent for the job (the baseline's GPUs, or the candidate's), sized from its throughput. */
struct rental_option {
	int32_t gpus;
	double samples_per_s;			/* the run's throughput */
	double gpu_hours_per_million_samples;	/* of the GPUs the run uses */
	double days_to_target;			/* target_samples or target_tokens; NaN without a target */
	int32_t window_days;			/* 3, 7 or 30: the shortest that holds the days with the
						   margin (30 for consecutive windows); -1 none */
	int32_t windows;			/* consecutive windows of window_days; -1 without a target */
	int32_t lots;				/* lots of lot_gpus that hold the run's GPUs */
	double gpu_hours;			/* used to the target; NaN without one */
	double window_gpu_hours;		/* rented: lots x lot_gpus x days of the windows x 24; NaN */
	double cost;				/* the windows as rented at gpu_hour_price; NaN without both */
	double cost_per_million_samples;	/* of the GPUs the run uses, at gpu_hour_price; NaN */
};

/* What to rent (docs/analysis.md "The decision"): lots of one GPU model for a window. */
struct rent {
	bool present;
	const char *gpu_model;		/* the GPU table's row, else the name the run reports */
	int32_t gpus;			/* GPUs per lot (trial.ini lot_gpus) */
	int32_t lots;
	int32_t window_days;		/* 3, 7 or 30; -1 without a target */
	int32_t windows;		/* consecutive windows of window_days; -1 without a target */
	int32_t run_gpus;		/* GPUs each run takes: the measured run's */
	int32_t concurrent_runs;	/* runs at once on the lots (a sweep's variants) */
};

/* An option that lost, and why. */
struct decision_alt {
	struct rent rent;		/* present false: the option could not be rented (it failed...) */
	const char *run;		/* the run measured for it */
	double days_needed;		/* NaN without a target or a throughput */
	double window_gpu_hours;	/* rented; NaN */
	double window_cost;		/* NaN */
	const char *why;		/* a sentence with its numbers */
};

/* A criterion for stopping a long campaign, with its numbers. */
struct stop_criterion {
	const char *id;			/* "throughput-floor", "halfway", "no-improvement", "window-end" */
	const char *text;
};

/* How often a long campaign writes a checkpoint (Young/Daly). */
struct checkpoint_plan {
	bool present;
	double interval_s;		/* sqrt(2 C M) - C */
	double write_s;			/* C */
	const char *write_from;		/* "logs" (measured) | "trial.ini" (the plan's estimate) */
	const char *write_at;		/* where it was read, "2gpu/train.log:812"; NULL */
	double mtbf_hours;		/* M of one machine, as used (trial.ini mtbf_hours or its default) */
	double rental_mtbf_hours;	/* M of the whole rental: mtbf_hours / lots */
};

struct decision {
	bool present;			/* false: no comparison, so nothing to decide from */
	struct rent rent;		/* present false: nothing can be rented from this trial; why says why */
	const char *run;		/* the run whose throughput the rental rests on */
	double samples_per_s;		/* its throughput */
	double tokens_per_s;		/* NaN */
	int64_t target;			/* samples or tokens each run must process; -1 none */
	const char *target_unit;	/* "samples" | "tokens"; NULL without a target */
	int32_t variants;		/* independent runs the rental holds (trial.ini variants) */
	bool variants_assumed;		/* hparam-sweep without variants: one lot's worth of runs */
	double days_needed;		/* all rounds of runs; NaN without a target */
	double margin;			/* the window's room over the days needed: total days / needed - 1 */
	double margin_required;		/* trial.ini margin, else RENTAL_MARGIN_DEFAULT */
	double window_gpu_hours;	/* rented; NaN without a target */
	double window_cost;		/* NaN without a target or a price */
	double gpu_hour_price;		/* NaN unset */
	const char *currency;		/* the analysis' currency (trial.currency in JSON); NULL unset */
	double gpu_hours_per_million_samples;	/* of the GPUs rented (an idle GPU of a lot counts) */
	double cost_per_million_samples;	/* NaN without a price */
	struct checkpoint_plan checkpoint;	/* present for a window of the longest kind */
	struct stop_criterion *stop;	/* for a window of the longest kind (arena) */
	size_t nstop;
	const char *why;		/* why this rental, or why none */
	struct decision_alt *alts;	/* cheapest first (arena) */
	size_t nalts;
};

/* What the workload comparison rests on. */
enum workload_basis {
	WL_NONE,	/* nothing could be compared: the `workload` confound is unverified */
	WL_KERNELS,	/* the runs' kernel families */
	WL_DECLARED,	/* model, dataset and sequence length from manifests and logs */
};
const char *workload_basis_name(enum workload_basis b);	/* "none", "kernels", "declared" */

/* A kernel family found in one run only, with its share of that run's kernel time. */
struct family_share {
	const char *family;
	double share;
};

/* Whether the two runs are one job (docs/analysis.md, "Workload identity"). */
struct workload {
	bool present;			/* a comparison was made; else analysis.json's null */
	enum workload_basis basis;
	double baseline_overlap;	/* share of its kernel time in families both ran; NaN unless kernels */
	double candidate_overlap;
	struct family_share *baseline_only;	/* its largest families the other lacks, at most */
	size_t nbaseline_only;			/* 3, largest first (arena) */
	struct family_share *candidate_only;
	size_t ncandidate_only;
};

enum verdict { VERDICT_NONE, VERDICT_CONFIRMED, VERDICT_REFUTED, VERDICT_INCONCLUSIVE };
const char *verdict_name(enum verdict v);	/* "confirmed", ...; NULL for NONE */

/*
 * What weakens a confirmed or refuted verdict, written beside it
 * (docs/analysis.md "Evidence for a verdict"): too few steady steps, ranks
 * without a trace, a fact left unverified, a step time from a whole-job
 * summary, a superlinear efficiency, a fact known only from run.ini.
 */
enum weak_what {
	WEAK_STEPS, WEAK_RANKS, WEAK_UNVERIFIED, WEAK_LOG_SUMMARY, WEAK_SUPERLINEAR, WEAK_DECLARED_ONLY,
	WEAK_COUNT
};
const char *weak_what_name(enum weak_what w);	/* "steps", "ranks", ..., "declared-only" */

struct weak_evidence {
	enum weak_what what;
	const char *message;		/* a short phrase: "precision of 2gpu unknown" */
};

/* The causes checked for an efficiency above SUPERLINEAR_EFFICIENCY, in this order. */
enum superlinear_cause {
	CAUSE_NEAR_CAPACITY,		/* "baseline-near-capacity" */
	CAUSE_PER_GPU_BATCH,		/* "per-gpu-batch" */
	CAUSE_HOST_BOUND,		/* "host-bound-baseline" */
	CAUSE_SAVED_MEMORY,		/* "baseline-saved-memory" */
	CAUSE_COUNT
};
const char *superlinear_cause_name(enum superlinear_cause c);

/* A scaling efficiency too good to be true until explained; present false: none. */
struct superlinear {
	bool present;
	double efficiency;		/* the comparison's scaling efficiency, > SUPERLINEAR_EFFICIENCY */
	const char *causes;		/* the ids of the causes that hold, space-separated, in the
					   order checked; "" when none holds */
};

/*
 * The per-op and per-kernel diff of baseline against candidate
 * (docs/analysis.md, "Per-op diff"). Every time is GPU time per steady step
 * (per profiled span where `span`), counted per b GPUs as attribution_s is:
 * the run's mean over its traced GPUs times its GPUs / b (the baseline's
 * b GPUs: its mean; the candidate's c: n times its mean). So a row's
 * added_s = candidate.time_s - baseline.time_s, and the rows' added_s
 * (those left out included) add up to total_s.candidate - total_s.baseline.
 * A chart draws rows[] as they stand: both sides' time_s per row.
 */
enum diff_kind { DIFF_OP, DIFF_KERNEL, DIFF_KIND_COUNT };

struct diff_side {
	double calls;			/* calls per step; 0: the row never ran on this side */
	double time_s;			/* GPU time per step of the row's kernels */
	double mean_s;			/* time_s / calls; NaN without calls */
	double share;			/* of the side's total_s */
};

struct diff_row {
	enum diff_kind kind;
	const char *name;		/* op: the launching CPU op ("aten::mm"), NULL not recorded;
					   kernel: the family ("gemm"), else the kernel's name
					   (communication, memcpy, memset) */
	struct diff_side baseline, candidate;
	double added_s;			/* candidate.time_s - baseline.time_s */
};

struct diff_sides {
	double baseline, candidate;
};

struct diff_left {
	int64_t op, kernel;		/* rows of each kind left out (beyond DIFF_TOP_ROWS) */
};

/* present false: no comparison; else per NULL and why set when no diff could be made. */
struct diff {
	bool present;
	const char *per;		/* "step" or "span"; NULL: no diff */
	struct diff_row *rows;		/* the ops ranked by added_s (largest first), then the kernels */
	size_t nrows;
	struct diff_left left_out;
	struct diff_sides total_s;	/* all GPU work per step, counted like the rows; NaN: no diff */
	const char *why;		/* why there is no diff; NULL when there is one */
};

struct comparison {
	bool valid;			/* a baseline and a candidate were found */
	size_t baseline;		/* indexes into analysis.runs */
	size_t candidate;
	double speedup;			/* Tb / Tc: baseline's median step over the candidate's */
	double throughput_ratio;	/* samples/s candidate / baseline */
	double scaling_efficiency;	/* speedup / n (throughput ratio / n under global-batch) */
	struct confound *confounds;
	size_t nconfounds;
	struct workload workload;	/* the kernel families of the two runs compared */
	struct step_parts attribution_s;	/* n Cc - Cb ... (only the first four are used) */
	double ideal_s;			/* mean_b: what n x mean_c would be with perfect scaling */
	double actual_s;		/* n x mean_c, n = comparison_gpu_ratio() */
	enum verdict verdict;
	const char *reason;		/* a sentence with the numbers */
	const char *criterion;		/* what the verdict tested, with its threshold; NULL with no verdict */
	enum answer answer;		/* ANSWER_NONE unless question = hparam-sweep */
	const char *answer_reason;	/* the answer's sentence with its numbers; NULL with no answer */
	struct rental_option *options;	/* the baseline's GPUs, then the candidate's (in the arena); none when blocked */
	size_t noptions;
	struct decision decision;	/* what to rent next */
	struct superlinear superlinear;	/* an efficiency above SUPERLINEAR_EFFICIENCY and its causes */
	struct weak_evidence *weak;	/* what weakens a confirmed or refuted verdict (arena); */
	size_t nweak;			/* none for another verdict */
	struct diff diff;		/* per op and per kernel family, baseline against candidate */
};

struct recommendation {
	const char *id;			/* stable: "two-independent-runs", "fits-h200", ... */
	const char *text;		/* a sentence with its numbers */
};

struct finding {
	enum diag_severity severity;
	const char *code;
	const char *message;
	const char *source;		/* "file:line" or NULL */
};

/* One replayed kernel, for chart 09 (render/replay_json.h replay_attach). */
struct replay_bar {
	const char *label;		/* "GEMM m=16384 n=2048 k=2048", "AllReduce count=... ranks=2" */
	double logged_s;		/* per call, as the trial logged it */
	double replayed_s;		/* per call, re-run on replay's device */
	const char *verdict;		/* "confirmed", "differs", "projected" */
};

/* What a replay.json beside the trial or the report says, for chart 09; present false: none. */
struct replay_view {
	bool present;
	const char *device;		/* the GPU it was re-run on */
	const char *logged_gpu;		/* the trial's GPU; NULL unknown */
	double logged_step_s;		/* NaN unknown */
	double projected_step_s;	/* NaN unless projected */
	struct replay_bar *bars;	/* the kernels that were re-run, in replay.json's order */
	size_t nbars;
};

struct analysis {
	const char *title;
	enum hypothesis hypothesis;
	enum question question;
	double memory_reserve_bytes;	/* trial.ini memory_reserve_gb in bytes; NaN unset */
	double expected_speedup;	/* trial.ini expected_speedup, else EXPECTED_SPEEDUP_DEFAULT */
	const char *currency;		/* trial.ini currency, shown with every cost; NULL unset */
	struct run_result *runs;
	size_t nruns;
	struct comparison cmp;
	struct recommendation *recs;
	size_t nrecs;
	struct finding *findings;
	size_t nfindings;
	struct arena arena;		/* owns the strings and fixed-size arrays above */
	size_t cap_findings;		/* capacities of the growable arrays (malloc'd): */
	size_t cap_recs;		/* findings, recs, cmp.confounds, and each run's */
	size_t cap_confounds;		/* coll, bw and gpu[].steps; analysis_free() frees them */
	struct replay_view replay;	/* what replay needs of the trial: not part of analysis.json; in the arena */
};

/*
 * n = the candidate's GPUs / the baseline's (c / b): 2 for 1 against 2 and for
 * 2 against 4, 1 for 2 against 2: the attribution's factor (the scaling
 * efficiency, speedup x b / c, is the speedup over it). NaN without a
 * comparison or when either count is unknown.
 */
double comparison_gpu_ratio(const struct analysis *a);

/*
 * The loss's host wait: n x the candidate's slowest GPU's idle_host less the
 * baseline's (as attribution_s counts idle), s per step; NaN without a
 * comparison or a split.
 */
double comparison_host_wait(const struct analysis *a);
/*
 * Whether the loss against perfect scaling is host-bound: idle is its
 * largest term and host wait over ADVICE_HOST_IDLE_SHARE of that idle. The
 * advice (fix-host-bound) and the Why line of the report use this one rule.
 */
bool comparison_host_bound(const struct analysis *a);

/*
 * Whether weak evidence i still needs its own words under the verdict: false
 * when the verdict's sentence already says it (an unverified fact is in its
 * "(not verified: ...)"), so that page 1 and the text say each thing once.
 */
bool comparison_weak_unsaid(const struct comparison *c, size_t i);

#endif
