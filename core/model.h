/*
 * model: the trial / run / rank / event model that every reader fills and
 * every later stage reads. Units are int64 nanoseconds and bytes throughout.
 *
 * Ownership: a trial owns everything below it. Strings are interned in the
 * trial's string table or allocated from its arena; event, step and sample
 * arrays are growable arrays owned by their rank or run. trial_free()
 * releases all of it.
 *
 * A value read from a log or manifest is a fact: it carries where it came
 * from, so that a disagreement between two sources can name both.
 */
#ifndef CORE_MODEL_H
#define CORE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/codeobj.h"
#include "core/diag.h"
#include "core/intern.h"
#include "core/launchop.h"

#define NS_PER_US 1000LL
#define NS_PER_MS 1000000LL
#define NS_PER_S 1000000000LL

/*
 * The most ranks (world size) a trace may claim: a trace claiming more, or a
 * rank at or past it, has them taken as unknown with a warning, so a damaged
 * or hostile trace cannot make the analysis loop over billions of ranks.
 */
#define MODEL_MAX_WORLD 4096

/*
 * The most events kept from one trace file unless --max-events says
 * otherwise (about 1 GB of events): past it the rest of the file is not
 * kept, and an error names the file and the byte where it stopped.
 */
#define MODEL_MAX_EVENTS 10000000LL

/*
 * The most rows one nsys SQLite export may give (about 2 GB of events kept)
 * and the most seconds its queries may run: past either the rest of the
 * file is not read, and an error names it.
 */
#define MODEL_MAX_SQL_ROWS 20000000LL
#define MODEL_MAX_SQL_SECONDS 300

/* Data types, named as every output names them (dtype_name()). */
enum dtype {
	DT_UNKNOWN,
	DT_FP64, DT_FP32, DT_TF32, DT_BF16, DT_FP16,
	DT_FP8, DT_FP8_E4M3, DT_FP8_E5M2, DT_FP4,
	DT_INT8, DT_UINT8, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64, DT_BOOL,
	DT_COUNT
};

const char *dtype_name(enum dtype t);		/* "bf16"; "unknown" for DT_UNKNOWN */
enum dtype dtype_from_name(const char *s);	/* inverse of dtype_name; DT_UNKNOWN if none */
/*
 * The dtype that the word s[0..n) names, in any spelling the tool meets:
 * the names above, PyTorch's ("torch.bfloat16", "c10::BFloat16", "Half",
 * "Float8_e4m3fn"), NCCL's and nccl-tests' ("float", "half", "int8_t",
 * "f8e4m3"), C's ("double", "long", "unsigned char") and short forms
 * ("f16", "e4m3"). Case is ignored, so are blanks around the word and one
 * namespace prefix ("torch.", "c10::", "at::", "cutlass::"). DT_UNKNOWN for
 * anything else, including declared precisions like "bf16-mixed".
 */
enum dtype dtype_parse(const char *s, size_t n);
/*
 * A declared precision (run.ini `precision`, a training log's) as the dtype
 * it names: fp32, tf32, bf16, fp16, fp8 (fp8-e4m3, fp8-e5m2), fp4, int8 or
 * fp64 in any spelling dtype_parse() takes ("bfloat16", "torch.float16"),
 * with a mixed-precision affix ("bf16-mixed", "amp-bf16", "16-true") or as
 * Lightning's bit count ("16-mixed", "32"). DT_UNKNOWN for anything else,
 * such as "banana" or an integer type other than int8.
 */
enum dtype precision_parse(const char *s, size_t n);
int dtype_size(enum dtype t);			/* bytes per element; 0 when unknown or sub-byte */

/* Collective operations, as NCCL names them (coll_name()). */
enum coll_op {
	COLL_NONE,
	COLL_ALLREDUCE, COLL_ALLGATHER, COLL_REDUCESCATTER, COLL_BROADCAST,
	COLL_REDUCE, COLL_ALLTOALL, COLL_SENDRECV, COLL_SEND, COLL_RECV,
	COLL_GATHER, COLL_SCATTER, COLL_BARRIER,
	COLL_COUNT
};

const char *coll_name(enum coll_op op);		/* "AllReduce" */
enum coll_op coll_from_name(const char *s, size_t n);	/* case-insensitive, '_' ignored */
/* nccl-tests' bus bandwidth factor for n ranks: AllReduce 2(n-1)/n, ... */
double coll_busbw_factor(enum coll_op op, int nranks);

enum ev_kind { EV_KERNEL, EV_MEMCPY, EV_MEMSET };
enum ev_class { EVC_COMPUTE, EVC_COMM, EVC_MEMORY };

/* One piece of GPU work: 64 bytes (x86-64), kept compact, a trace holds millions. */
struct gpu_event {
	int64_t start;		/* ns on the rank's clock */
	int64_t end;		/* ns; end >= start */
	const char *name;	/* interned kernel name, or "Memcpy HtoD" ... */
	const struct launch_op *op;	/* the CPU op that launched it, its input types and
					 * dims (the trial's launch_ops); NULL */
	union {
		int64_t correlation;	/* while its reader links it: the launch's correlation id; -1 */
		int64_t launched;	/* once read: ns (the rank's clock) its runtime launch call
					 * started, which idle by cause needs; LAUNCH_UNKNOWN */
	};
	int64_t bytes;		/* memcpy/memset bytes, collective message bytes; -1 unknown */
	int32_t stream;		/* stream id; -1 unknown */
	int32_t step;		/* ProfilerStep number its launch fell in; -1 none */
	int16_t device;		/* device index; -1 unknown (or beyond 32767) */
	uint16_t group;		/* process group of a communication kernel: trial_group(); 0 unknown */
	uint8_t kind;		/* enum ev_kind */
	uint8_t cls;		/* enum ev_class */
	uint8_t dtype;		/* enum dtype of its data; DT_UNKNOWN */
	uint8_t coll;		/* enum coll_op, for communication kernels */
};

/* gpu_event.launched of an event whose launch no record gives. */
#define LAUNCH_UNKNOWN INT64_MIN

/* The name, input types and input dims of the op that launched e; NULL when not known. */
static inline const char *ev_op_name(const struct gpu_event *e)
{
	return e->op ? e->op->name : NULL;
}

static inline const char *ev_input_types(const struct gpu_event *e)
{
	return e->op ? e->op->input_types : NULL;
}

static inline const char *ev_input_dims(const struct gpu_event *e)
{
	return e->op ? e->op->input_dims : NULL;
}

enum step_source { STEP_CPU_ANNOTATION, STEP_GPU_ANNOTATION, STEP_NVTX, STEP_LOG };

/* A step range as the profiler or log marked it (on the CPU for ProfilerStep). */
struct step_mark {
	int64_t number;		/* the N of ProfilerStep#N, or the log's step */
	int64_t start;		/* ns */
	int64_t end;		/* ns */
	uint8_t source;		/* enum step_source */
};

/* The caching allocator's totals at one instant (Kineto [memory] events): 32 bytes. */
struct mem_sample {
	int64_t ts;		/* ns */
	int64_t allocated;	/* bytes; -1 unknown */
	int64_t reserved;	/* bytes; -1 unknown */
	int32_t device;
};

struct device_info {
	int32_t index;		/* CUDA ordinal; -1 unknown */
	const char *name;	/* "NVIDIA H200"; NULL unknown */
	int64_t memory_total;	/* bytes; -1 unknown */
	int32_t cc_major;	/* compute capability; -1 unknown */
	int32_t cc_minor;
	int32_t num_sms;	/* -1 unknown */
};

/* One sample of a GPU monitor (nvidia-smi, dmon, dcgmi, rocm-smi). */
struct gpu_sample {
	int64_t ts;		/* ns since the epoch; -1 when the log has no time */
	int32_t gpu;		/* GPU index */
	int64_t memory_used;	/* bytes; -1 unknown */
	int64_t memory_total;	/* bytes; -1 unknown */
	double util_gpu;	/* percent; < 0 unknown */
	double power_w;		/* watts; < 0 unknown */
	const char *name;	/* interned GPU name the monitor printed; NULL unknown */
};

/*
 * Facts: a value and where it was read. An unset fact has src.file == NULL.
 * key is the name the source printed it under ("Total train batch size"),
 * interned, so that a disagreement can quote it; NULL when not kept.
 */
struct fact_i64 { int64_t v; bool set; struct srcpos src; const char *key; };
struct fact_f64 { double v; bool set; struct srcpos src; };
struct fact_str { const char *v; struct srcpos src; const char *key; };	/* v == NULL: unset */

/* An NCCL_* variable as the NCCL log echoes it ("NCCL_P2P_DISABLE set by environment to 1"). */
#define NCCL_MAX_SETTINGS 32
struct nccl_setting {
	const char *name;	/* interned "NCCL_P2P_DISABLE" */
	const char *value;	/* interned "1", as printed (a trailing '.' dropped) */
	struct srcpos src;	/* where it was first echoed */
};

/*
 * What an NCCL_* setting turns off ("peer-to-peer access between GPUs" for
 * NCCL_P2P_DISABLE=1, also NCCL_P2P_LEVEL=LOC or 0, NCCL_SHM_DISABLE=1);
 * NULL when name=value turns off no transport.
 */
const char *nccl_setting_turns_off(const char *name, const char *value);

/* What a run says about itself: once from its manifest, once from its logs. */
struct run_facts {
	struct fact_i64 gpus;
	struct fact_str strategy;	/* single|ddp|fsdp|zero|tensor|pipeline|device_map */
	struct fact_str precision;	/* a dtype_name(), or "amp-bf16" style as declared */
	struct fact_i64 global_batch;
	struct fact_i64 micro_batch;
	struct fact_i64 grad_accum;
	struct fact_i64 seq_len;
	struct fact_str dataset;
	struct fact_str model;
	struct fact_i64 steps;		/* steps the job ran or planned */
	struct fact_i64 dp_size;	/* logs only: data-parallel ranks (Megatron's data_parallel_size) */
	struct fact_i64 tp_size;	/* logs only: tensor-parallel ranks */
	struct fact_i64 pp_size;	/* logs only: pipeline stages */
	struct fact_i64 seed;		/* run.ini only */
	struct fact_f64 predicted_peak_gb;	/* run.ini only: plan's peak memory per GPU */
	struct fact_f64 predicted_step_s;	/* run.ini only: plan's step time */
};

enum run_status { RUN_UNKNOWN, RUN_COMPLETED, RUN_FAILED_OOM, RUN_FAILED, RUN_INCOMPLETE };
const char *run_status_name(enum run_status s);	/* "completed", "failed-oom", ... */

/*
 * What launching kernels cost the CPU in one ProfilerStep of a rank, from
 * its trace's runtime launch calls and CPU ops (ingest/kineto_link.c); step
 * -1 holds what fell in no step. A rank read from two traces may hold one
 * step twice: the numbers add up.
 */
struct launch_step {
	int64_t kernels;	/* kernels linked to their runtime launch call */
	int64_t short_kernels;	/* of those, the ones that ran shorter than that call */
	int64_t launch_ns;	/* CPU time of those launch calls, each call once */
	int64_t op_cpu_ns;	/* CPU time of the top-level ops those kernels were launched within */
	int64_t op_kernel_ns;	/* GPU time of the kernels launched within those ops */
	int32_t step;		/* the launch's ProfilerStep (the top-level op's start for op_*) */
};

/* One kernel's launch delay: its start less the end of its runtime launch call. */
struct launch_delay {
	int64_t ns;		/* negative when the kernel started before the call returned */
	int32_t step;		/* the launch's ProfilerStep; -1 none */
};

/* One rank of a run: its device and what its trace recorded. */
struct rank {
	int32_t rank;		/* global rank; -1 unknown */
	int32_t world_size;	/* -1 unknown */
	struct device_info dev;	/* the rank's own GPU */
	const char *trace;	/* path of the trace it came from */
	struct gpu_event *ev;	/* in no particular order until sorted */
	size_t nev, cap_ev;
	struct step_mark *steps;
	size_t nsteps, cap_steps;
	struct mem_sample *mem;
	size_t nmem, cap_mem;
	struct launch_step *lsteps;	/* by step as linked; none without launch records */
	size_t nlsteps, cap_lsteps;
	struct launch_delay *delays;	/* one per kernel linked to its launch call */
	size_t ndelays, cap_delays;
};

/* One log line's step record (training stdout). */
struct log_step {
	int64_t step;		/* -1 unknown */
	double step_time_s;	/* < 0 unknown */
	double loss;		/* NAN unknown */
	double samples_per_s;	/* < 0 unknown */
	double tokens_per_s;	/* < 0 unknown */
	int64_t memory_bytes;	/* -1 unknown */
};

/*
 * A CUDA out-of-memory message and the numbers it printed (the train-log
 * reader fills it from the job's stdout). Older PyTorch prints the total reserved
 * ("reserved in total", "cached"); newer prints what is reserved but
 * unallocated, to which `allocated` is added so that `reserved` always means
 * the caching allocator's total.
 */
struct run_oom {
	int64_t tried_bytes;	/* the allocation that failed; -1 not printed */
	int64_t capacity_bytes;	/* the GPU's total memory; -1 */
	int64_t allocated_bytes;/* allocated by PyTorch; -1 */
	int64_t free_bytes;	/* free on the GPU; -1 */
	int64_t reserved_bytes;	/* reserved by PyTorch in total; -1 */
	int32_t gpu;		/* the device index printed; -1 */
	struct srcpos src;	/* where it was printed; file == NULL: no OOM seen */
};

/*
 * One checkpoint save a training log shows (ingest/trainlog.c): its write
 * time only where the log measures it, as a printed duration or as the gap
 * between the timestamped lines that open and close that one save.
 */
struct ckpt_save {
	double write_s;		/* seconds; < 0 when the log does not time it */
	struct srcpos src;	/* the line where the save begins (else the one that timed it) */
};

/* A file that contributed to a run, for `sources` and inspect. */
struct source {
	const char *path;
	const char *format;	/* a format name of ingest/sniff.h */
	int64_t events;		/* records read */
	int64_t errors;		/* records or parts that could not be used */
};

/*
 * One row of an nccl-tests result table (all_reduce_perf and siblings), kept
 * so that the analysis can compare measured bus bandwidth with the trace's.
 * Added for ingest/nccl_tests.c.
 */
struct nccl_test_row {
	const char *op;		/* interned nccl-tests name, "all_reduce"; NULL unknown */
	int32_t nranks;		/* device lines of its test, else nThread x nGpus; -1 unknown */
	int32_t root;		/* -1 when not applicable or not printed */
	int64_t bytes;		/* size (B) */
	int64_t count;		/* elements */
	uint8_t dtype;		/* enum dtype; DT_UNKNOWN */
	const char *redop;	/* interned "sum", "none"; NULL when not printed */
	int64_t time_oop_ns;	/* out-of-place time; -1 unknown */
	double algbw_oop;	/* GB/s; < 0 unknown */
	double busbw_oop;	/* GB/s; < 0 unknown */
	int64_t wrong_oop;	/* #wrong; -1 N/A or a float error column */
	int64_t time_ip_ns;	/* in-place; same conventions */
	double algbw_ip;
	double busbw_ip;
	int64_t wrong_ip;
	int64_t line;		/* its line in the source file */
	const char *file;	/* interned path of that file */
};

/* --- the software stack as the environment report and logs show it --- */

/* torch.cuda's "<gpu> with CUDA capability sm_120 is not compatible ..." warning. */
struct env_arch_warning {
	const char *gpu;	/* interned "NVIDIA GeForce RTX 5090" */
	const char *capability;	/* interned "sm_120" */
	const char *supported;	/* interned "sm_50 sm_60 ... sm_90"; NULL when not printed */
	struct srcpos src;
};

struct env_library {
	const char *name;	/* interned "torch", as pip or conda lists it */
	const char *version;	/* interned "2.2.1" */
};

/* Arrays live in the trial's arena; a value not reported is NULL / unset. */
struct env_info {
	struct fact_str torch;		/* "2.8.0.dev20250408" (no "+cu128") */
	struct fact_str torch_cuda;	/* CUDA the wheel was built with: "12.8" */
	struct fact_str cuda_runtime;	/* the system's CUDA runtime: "12.8.93" */
	struct fact_str driver;		/* "570.124.06" */
	struct fact_str cudnn;		/* "9.2.1"; unset when several libraries disagree */
	struct fact_str cuda_archs;	/* "CUDA Archs" or TORCH_CUDA_ARCH_LIST: "7.5 8.0 ... 12.0+PTX" */
	const char **gpus;		/* interned GPU names, in CUDA order */
	size_t ngpus;
	struct env_library *libs;	/* [pip3] / [conda] lines, vLLM's version */
	size_t nlibs;
	struct env_arch_warning *arch_warnings;	/* in log order */
	size_t narch_warnings;
	bool no_kernel_image;		/* "no kernel image is available for execution" */
	struct srcpos no_kernel_image_src;
	/* what a Blackwell check needs of the stack */
	struct fact_str torch_full;	/* "2.6.0+cu126": the version with its local part */
	struct fact_str arch_list;	/* torch.cuda.get_arch_list(): "sm_50 ... sm_90" */
	struct fact_str rocm_build;	/* "ROCM used to build PyTorch": "6.2.41133-dd7f95766" */
	struct fact_str hip_runtime;	/* "HIP runtime version": "6.2.41133" */
	struct fact_str miopen;		/* "MIOpen runtime version": "3.2.0" */
	struct fact_str rocm_version;	/* vLLM's "ROCM Version" (hipcc's HIP version): "6.3.42133-1b9c17779" */
};

/*
 * One row of an Nsight Systems console summary table, summed by name over
 * the tables of a run (ingest/nsys_stats.c): a run's times as Nsight Systems
 * summed them, for a run profiled without a Kineto trace.
 */
struct nsys_row {
	const char *name;	/* interned kernel name, memory operation or NVTX range; ends in U+2026 where the report cut it */
	int64_t instances;	/* instances, operations; -1 unknown */
	double total_ns;	/* time of all instances; NaN unknown */
	double avg_ns;		/* NaN unknown */
	double med_ns;		/* NaN unknown, or when summed over several tables */
	double bytes;		/* memory operations: bytes of all instances; NaN unknown */
	uint8_t cls;		/* enum ev_class: kernels by name, memory operations EVC_MEMORY */
};

/*
 * Tensor memory by the category PyTorch's memory profiler gives it, in the
 * order of its exports' category index (export_memory_timeline), as
 * ingest/memtimeline.c reads them.
 */
enum mem_category {
	MEMCAT_PARAMETER, MEMCAT_OPTIMIZER_STATE, MEMCAT_INPUT, MEMCAT_TEMPORARY,
	MEMCAT_ACTIVATION, MEMCAT_GRADIENT, MEMCAT_AUTOGRAD_DETAIL, MEMCAT_UNKNOWN,
	MEMCAT_COUNT
};
const char *mem_category_name(enum mem_category c);	/* "parameter", "optimizer_state", ... */

/* One memory timeline file: one device's peak, and its categories (what the memory was for). */
struct mem_timeline {
	const char *path;	/* interned file it was read from */
	int32_t device;		/* the CUDA ordinal its file name gives, else 0 (PyTorch's default) */
	int64_t samples;	/* distinct instants read */
	int64_t peak;		/* bytes of all categories together at their peak; -1 none */
	int64_t at_peak[MEMCAT_COUNT];	/* bytes of each category at that instant */
	int64_t cat_peak[MEMCAT_COUNT];	/* each category's own peak, at any instant */
};

struct run {
	const char *name;	/* run.ini name, else the directory's base name */
	const char *dir;	/* the directory */
	struct run_facts declared;	/* run.ini */
	struct run_facts logged;	/* what the logs say */
	enum run_status status;
	struct srcpos status_src;	/* where the status was decided (an OOM line) */
	struct rank *ranks;
	size_t nranks, cap_ranks;
	struct gpu_sample *gpu;		/* monitor samples, all GPUs */
	size_t ngpu, cap_gpu;
	struct log_step *log;		/* training stdout steps */
	size_t nlog, cap_log;
	struct source *sources;
	size_t nsources, cap_sources;
	/* NCCL as the logs describe it */
	struct fact_str nccl_version;
	struct fact_str transport;	/* p2p|shm|net-ib|net-socket|net-ofi|nvls|collnet */
	struct fact_str link;		/* nvlink|pcie|network */
	/* nccl-tests result rows (ingest/nccl_tests.c), in file order */
	struct nccl_test_row *nccl_tests;
	size_t nnccl_tests, cap_nccl_tests;
	/*
	 * From the train-log reader: what the job's stdout said
	 * about how it ended. Nothing else in the model holds these.
	 */
	struct run_oom oom;			/* the first CUDA OOM message; src.file NULL: none */
	struct fact_f64 train_runtime_s;	/* the trainer's whole-run time (HF train_runtime) */
	struct fact_f64 train_samples_per_s;	/* the trainer's own samples/s over the run */
	/* --- the software stack (ingest/collect_env.c) --- */
	struct env_info env;
	/* "# nccl-tests version 2.20.0 ..." (ingest/nccl_tests.c): the build that measured the links */
	struct fact_str nccl_tests_version;	/* "2.20.0" */
	/* --- Nsight Systems console summary tables (ingest/nsys_stats.c); arrays in the trial's arena --- */
	struct nsys_row *nsys_kernels;	/* cuda_gpu_kern_sum rows by kernel name */
	size_t nnsys_kernels;
	struct nsys_row *nsys_memops;	/* cuda_gpu_mem_time_sum / _size_sum rows by operation */
	size_t nnsys_memops;
	struct nsys_row *nsys_nvtx;	/* nvtx_sum rows by range name */
	size_t nnsys_nvtx;
	int32_t nsys_tables;		/* summary tables read (every report kind) */
	/* --- NCCL_* settings the NCCL log echoes (ingest/nccl_log.c) --- */
	struct nccl_setting nccl_env[NCCL_MAX_SETTINGS];	/* in order first seen */
	size_t nnccl_env;
	/* --- logs-only numbers (ingest/trainlog.c): a run with no trace still has these --- */
	struct fact_f64 train_steps_per_s;	/* the trainer's own steps/s over the run (HF) */
	int64_t log_reserved_peak;	/* largest reserved figure a training log printed, bytes; 0 none */
	int64_t log_allocated_peak;	/* largest allocated (or unnamed) figure, bytes; 0 none */
	struct fact_f64 log_tflops;	/* torchtitan's tflops per GPU: median of the steady per-iteration lines */
	struct fact_f64 log_mfu;	/* torchtitan's mfu, percent: median of the steady per-iteration lines */
	struct ckpt_save *ckpt;		/* checkpoint saves the training logs show, in reading order */
	size_t nckpt, cap_ckpt;
	/* --- PyTorch memory timelines (ingest/memtimeline.c) --- */
	struct mem_timeline *memtl;		/* one per file, in reading order */
	size_t nmemtl, cap_memtl;
	/*
	 * --- compiled GPU code in the run's directory (ingest/codescan.c), for readiness ---
	 * One per binary that holds GPU code (a copied extension .so, a .cubin ...),
	 * in reading order; everything in the trial's arena (path copied, entries
	 * with the same kind, arch, PTX ISA and codec kept once; cap and ncontainers 0).
	 */
	struct code_object *code;
	size_t ncode;
	size_t ncode_dropped;	/* binaries with GPU code past the loader's cap, not kept */
};

/*
 * A process group: its name, and its members where the trace's
 * distributedInfo.pg_config lists them. Groups of one name but other
 * members (rank 0 alone in a 1-GPU run, ranks 0 and 1 in a 2-GPU run) are
 * distinct entries.
 */
struct process_group {
	const char *name;	/* interned "0", "tp"; never NULL */
	const char *desc;	/* interned "default_pg"; NULL not given */
	int32_t size;		/* ranks in the group; -1 unknown */
	const int32_t *ranks;	/* its global ranks, in the trial's arena; NULL unknown */
	size_t nranks;		/* entries of ranks */
};

enum hypothesis { HYP_UNSET, HYP_STEP_TIME, HYP_GLOBAL_BATCH, HYP_FEASIBILITY };
enum question { Q_UNSET, Q_SINGLE_CONFIG, Q_HPARAM_SWEEP };

struct trial {
	const char *dir;
	struct fact_str title;
	enum hypothesis hypothesis;
	struct srcpos hypothesis_src;
	struct fact_str baseline;	/* run directory name */
	enum question question;
	struct fact_i64 target_samples;
	struct fact_i64 target_tokens;
	struct fact_f64 gpu_hour_price;
	struct fact_str currency;	/* what gpu_hour_price is in: "USD", "$"; unset: its bare units */
	struct fact_f64 memory_reserve_gb;
	struct fact_f64 expected_speedup;	/* the verdict's threshold, written before the rental */
	struct fact_i64 lot_gpus;	/* GPUs per rented lot (the decision) */
	struct fact_f64 margin;		/* room a window keeps over the days needed, a share */
	struct fact_i64 variants;	/* independent runs of a sweep, each to the target */
	struct fact_f64 mtbf_hours;	/* the rented machine's mean time between failures */
	struct fact_f64 checkpoint_write_s;	/* a checkpoint's write time as planned (plan -o) */
	struct run *runs;
	size_t nruns, cap_runs;
	struct arena arena;	/* strings and small objects of the whole trial */
	struct intern strings;	/* kernel names, op names, paths */
	struct launch_ops launch_ops;	/* gpu_event.op: each distinct launching op once */
	struct diags diags;	/* everything said about the inputs */
	struct process_group *groups;	/* gpu_event.group - 1 indexes it */
	size_t ngroups, cap_groups;
};

struct trial *trial_new(void);
void trial_free(struct trial *t);
struct run *trial_add_run(struct trial *t, const char *name, const char *dir);
struct run *trial_find_run(struct trial *t, const char *name);	/* NULL if none */
/*
 * The id of the process group named s[0..n) ("0", "default_pg" ...), the
 * same for every rank of the trial, so that the ranks' collectives can be
 * matched: 1, 2, ... in first-seen order; 0 for an empty name or past 65535.
 */
uint16_t trial_group(struct trial *t, const char *s, size_t n);
/*
 * The id of the group g describes (name, description, size and ranks, which
 * are copied; a size of -1 with ranks is their count): an entry of the same
 * name, size and ranks is reused, else one is added. A g with neither size
 * nor ranks is trial_group() of its name. 0 when g has no name or past 65535
 * groups.
 */
uint16_t trial_group_add(struct trial *t, const struct process_group *g);
/* The size of group id; -1 when it is not known (id 0, or a name-only group). */
int32_t trial_group_size(const struct trial *t, uint16_t id);

/* The rank numbered `rank` of the run, added if absent (rank -1 always adds). */
struct rank *run_rank(struct run *r, int32_t rank);
struct source *run_add_source(struct run *r, const char *path, const char *format);
/*
 * The rank that a file holding several GPUs' work (nsys) gives to device
 * dev: found by the file's interned path and the device, or added with rank
 * -1, that trace and that device index (then *created is set, so that the
 * caller fills in what it knows of the device).
 */
struct rank *run_trace_rank(struct run *r, const char *trace, int32_t dev, bool *created);
/* Frees what a run owns (its arrays), not the run itself: for runs outside a trial. */
/* Frees a rank's arrays (its events, steps, memory and launch records), giving their bytes back. */
void rank_free_arrays(struct rank *k);
void run_release(struct run *r);

/* Sorts events by start, then end: the order every reader hands them over in. */
void gpu_events_sort(struct gpu_event *ev, size_t n);
struct gpu_event *rank_add_event(struct rank *k);	/* zeroed but for -1 "unknown" fields */
struct step_mark *rank_add_step(struct rank *k);
struct mem_sample *rank_add_mem(struct rank *k);
struct gpu_sample *run_add_gpu_sample(struct run *r);
struct log_step *run_add_log_step(struct run *r);
struct nccl_test_row *run_add_nccl_test_row(struct run *r);	/* unknown fields -1/NULL */
struct mem_timeline *run_add_mem_timeline(struct run *r);	/* peaks -1, device 0 */
struct ckpt_save *run_add_ckpt_save(struct run *r);	/* write_s -1, src none */

/* Sets a fact unless it is already set; returns true when it was set now. */
bool fact_set_i64(struct fact_i64 *f, int64_t v, const struct srcpos *src);
bool fact_set_f64(struct fact_f64 *f, double v, const struct srcpos *src);
bool fact_set_str(struct trial *t, struct fact_str *f, const char *v, const struct srcpos *src);

const char *hypothesis_name(enum hypothesis h);	/* "step-time", ...; NULL for HYP_UNSET */
enum hypothesis hypothesis_from_name(const char *s);
const char *question_name(enum question q);
enum question question_from_name(const char *s);

#endif
