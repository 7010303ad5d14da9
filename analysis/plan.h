/*
 * plan: the model of a trial before the rental, pure arithmetic: memory per
 * GPU of each parallel strategy (weights, gradients, optimizer states,
 * activations, a stated reserve), whether it fits each GPU model of
 * core/gpu, the communication per step and its time at the link's nominal
 * bandwidth, the hypothesis a 2-GPU run can test, a recommended strategy,
 * and the rental window, cost and checkpoint interval of each option.
 *
 * Inputs are set by key (plan_set()), from the command line or a PLAN.ini,
 * through one table of keys (plan_keys()) that also documents them. Units:
 * bytes, seconds, GB/s = 1e9 B/s. Unknown is NaN (or -1), never 0. Nothing
 * here allocates: a result holds pointers to static strings and GPU rows only.
 */
#ifndef ANALYSIS_PLAN_H
#define ANALYSIS_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/rental.h"
#include "core/gpu.h"

enum plan_strategy {
	PLAN_SINGLE,		/* one GPU holds everything */
	PLAN_DDP,		/* a full replica per GPU, gradients all-reduced */
	PLAN_ZERO1,		/* optimizer states sharded */
	PLAN_ZERO2,		/* + gradients sharded */
	PLAN_ZERO3,		/* + parameters sharded */
	PLAN_FSDP,		/* PyTorch FSDP FULL_SHARD: ZeRO-3's memory and traffic */
	PLAN_PIPELINE,		/* layers split in N stages, 1F1B schedule */
	PLAN_TENSOR,		/* every layer split N ways (Megatron, no sequence parallelism) */
	PLAN_NSTRATEGY
};

enum plan_optimizer {
	PLAN_ADAM,		/* Adam or AdamW: momentum and variance in fp32 */
	PLAN_SGD,		/* SGD with momentum */
	PLAN_ADAFACTOR,		/* no first moment, factored second moments */
	PLAN_ADAM8BIT,		/* bitsandbytes 8-bit Adam(W): both moments in 8 bits */
	PLAN_NOPTIMIZER
};

/* An optimizer's spelling (--optimizer, plan.ini) and what the memory model counts it as. */
struct plan_optimizer_alias {
	const char *name;		/* "adamw" */
	enum plan_optimizer optimizer;
};

/* Every spelling plan takes, NULL-name ended. */
extern const struct plan_optimizer_alias plan_optimizer_aliases[];

enum plan_checkpointing {
	PLAN_CKPT_NONE,		/* every activation kept */
	PLAN_CKPT_SELECTIVE,	/* attention's s*s terms recomputed */
	PLAN_CKPT_FULL,		/* only each layer's input kept */
};

/* How attention is computed: whether its s*s scores are kept for the backward pass. */
enum plan_attention {
	PLAN_ATTN_EAGER,	/* softmax scores and dropout mask stored (Korthikanti's 5as/h term) */
	PLAN_ATTN_FLASH,	/* FlashAttention / PyTorch SDPA: scores recomputed, never stored */
};

#define PLAN_MAX_GPUS 8		/* GPU models compared at once */
#define PLAN_CURRENCY_MAX 33	/* trial.ini currency: 8 characters of up to 4 bytes, and the NUL */
#define PLAN_TITLE_MAX 181	/* a title's bytes, its NUL included: one INI line of plan -o */

/*
 * What a finished trial measured (plan --from analysis.json): each figure
 * known here replaces the model's guess. Index 0 is the baseline (its GPU
 * count in gpus[0], 1 as a rule), 1 the multi-GPU run. NaN (or -1) unknown.
 */
struct plan_measured {
	const char *source;		/* "trial X (runs 1gpu, 2gpu)"; NULL: nothing measured */
	int gpus[2];
	int strategy[2];		/* the run's enum plan_strategy; -1 unknown (run.ini's zero) */
	double tokens_per_s[2];		/* the run's throughput, all its GPUs together */
	double samples_per_s[2];
	double peak_bytes[2];		/* the largest peak per GPU */
	double efficiency;		/* the multi-GPU run's scaling efficiency */
};

struct plan_inputs {
	const char *model;		/* a known model's name (plan_known_models()); NULL none */
	double params;			/* parameter count; NaN unknown */
	int64_t hidden, layers, heads, vocab;	/* -1 unknown */
	int64_t micro_batch, seq_len;	/* -1 unknown */
	int64_t grad_accum;		/* >= 1 */
	int gpus;			/* N of the multi-GPU strategies, >= 2 */
	enum dtype precision;		/* weights and gradients: DT_BF16/DT_FP16 (mixed, fp32 master) or DT_FP32 */
	enum plan_optimizer optimizer;
	const char *optimizer_name;	/* as given (an alias's static name): "adamw" */
	bool bucket_view;		/* DDP with gradient_as_bucket_view=True: no bucket copy */
	enum plan_checkpointing checkpointing;
	int strategy;			/* an enum plan_strategy asked for: shown alone, and chosen; -1 all */
	const struct gpu_model *gpu[PLAN_MAX_GPUS];	/* the GPU models to fit; the first is the target */
	size_t ngpu;
	const char *hypothesis;		/* "step-time" | "global-batch" | "feasibility"; NULL unset */
	char title[PLAN_TITLE_MAX];	/* the trial's title, for -o; "" unset */
	double expected_speedup;	/* NaN unset */
	const char *question;		/* "single-config" | "hparam-sweep"; NULL unset */
	int64_t target_samples, target_tokens;	/* -1 unset */
	double price;			/* per GPU-hour; NaN unset */
	char currency[PLAN_CURRENCY_MAX];	/* what price is in: "USD", "$"; "" unset */
	double reserve_bytes;		/* the whole reserve, overriding the parts below; NaN: the parts */
	double context_bytes;		/* CUDA context and kernels, per GPU */
	double nccl_bytes;		/* NCCL buffers, per GPU of a multi-GPU strategy */
	double fragmentation;		/* share of the allocated bytes lost to the caching allocator */
	double mfu;			/* assumed model FLOPs utilisation of the bf16 peak, 0..1 */
	double ckpt_write_gbps;		/* checkpoint write bandwidth, GB/s */
	double mtbf_hours;		/* mean time between failures of the rented machine */
	double margin;			/* room over the days needed when sizing a window, a share */
	int lot_gpus;			/* GPUs per rented lot */
	enum plan_attention attention;	/* default eager: the paper's formula as written */
	struct plan_measured measured;	/* nothing measured unless --from */
};

/* Memory one GPU holds, bytes; NaN unknown. */
struct plan_memory {
	double weights, gradients, optimizer, activations, reserve, total;
	double buckets;			/* DDP's gradient buckets, a second copy of the gradients; 0 none */
};

/* Whether a strategy fits one GPU model. */
struct plan_fit {
	const struct gpu_model *gpu;
	double capacity;		/* bytes: gpu_capacity_bytes(gpu, -1), the one capacity rule */
	bool capacity_reported;		/* whether that is the driver's figure (else nominal) */
	int fits;			/* 1 fits, 0 does not, -1 unknown (activations unknown, states fit) */
	double link_gbps;		/* gpu_link_gbps_for(gpu, gpus): per direction, for this GPU count */
	double comm_s;			/* comm_bytes / link_gbps; NaN unknown */
};

struct plan_strategy_result {
	enum plan_strategy strategy;
	int gpus;			/* 1 for single, else the inputs' N */
	struct plan_memory mem;		/* per GPU (the largest: pipeline's first stage) */
	bool mem_measured;		/* mem.total is a measured run's peak (--from), the parts modelled */
	double modelled_total;		/* the model's total when mem.total is measured */
	double comm_bytes;		/* bytes one GPU sends per optimizer step (ring); NaN unknown */
	double comm_payload_bytes;	/* the collectives' payload (NCCL's size) per step; NaN unknown */
	struct plan_fit fit[PLAN_MAX_GPUS];	/* one per inputs' gpu[] */
	const char *tests;		/* the hypothesis a run of it can test on gpu[0]; NULL none */
};

/*
 * When to stop a long campaign and re-plan, in the units of the target
 * (samples when a sample target and the sequence length are known, else
 * tokens): the throughput under min_rate for RENTAL_STOP_SLOW_DAYS; by day
 * half_days, less than half_target processed; at end_days, the window's end.
 */
struct plan_stop {
	bool samples;			/* the rates and targets count samples, else tokens */
	double min_rate;		/* per second: RENTAL_STOP_RATE_SHARE x the planned rate */
	double half_days, half_target;
	double end_days;
};

/* One rental option: a strategy on its GPUs at the estimated throughput, as rented. */
struct plan_option {
	enum plan_strategy strategy;
	int gpus;
	double tokens_per_s;		/* estimated (or measured, with --from); NaN unknown */
	double samples_per_s;		/* tokens_per_s / seq_len; NaN unknown */
	bool measured;			/* tokens_per_s comes from a trial's measure, not the model */
	bool scaled;			/* ... measured on 1 GPU, x gpus x the measured efficiency */
	double days_to_target;		/* days needed; NaN: no target or no throughput */
	int lots;			/* lots of lot_gpus rented to hold the option's GPUs */
	struct rental_window window;	/* rental_window_for(days, margin); days -1 unknown */
	int window_days;		/* window.days when count is 1; -1 none holds it or unknown */
	double gpu_hours_used;		/* days x 24 x gpus; NaN unknown */
	double gpu_hours, cost;		/* as rented: lots x lot_gpus x window days x 24 (x price); NaN unknown */
	double ckpt_write_s;		/* C: model states / write bandwidth */
	double ckpt_interval_s;		/* rental_checkpoint_interval_s(C, M); NaN unknown */
	struct plan_stop stop;		/* shown for a window of 30 days */
};

struct plan_result {
	struct plan_strategy_result s[PLAN_NSTRATEGY];	/* every strategy, in enum order */
	int recommended;		/* an enum plan_strategy; -1 none fits gpu[0] */
	bool chosen;			/* recommended is the strategy the inputs asked for */
	const char *reason;		/* static text: why, or why none (numbers are in the rest) */
	struct plan_option option[2];	/* single (1 GPU) and the recommended on N */
	size_t noption;
	double activation_per_layer;	/* bytes, per micro-batch, of the chosen checkpointing; NaN unknown */
	double optimizer_k;		/* K: optimizer bytes per parameter (master copy included) */
	const char *hypothesis_note;	/* why the inputs' hypothesis cannot be shown on gpu[0]; NULL none */
};

/* A model whose size the public config gives. */
struct plan_known_model {
	const char *name;		/* "llama-3-8b" (case ignored when looked up) */
	double params;
	int64_t hidden, layers, heads, vocab;	/* -1 unknown */
	const char *source;		/* where the numbers come from */
};

const struct plan_known_model *plan_known_models(size_t *n);
const struct plan_known_model *plan_model_find(const char *name);

/* A key of PLAN.ini's [plan] section, the same as the option --KEY (with '_' as '-'). */
struct plan_key {
	const char *name;		/* "micro_batch" */
	const char *values;		/* allowed values, for help and the commented skeleton */
	const char *help;		/* lowercase, no period */
};

const struct plan_key *plan_keys(size_t *n);

/* The defaults: nothing known, bf16 mixed precision, Adam, 2 GPUs, the stated reserve and MFU. */
void plan_inputs_init(struct plan_inputs *in);

/*
 * Sets the key (a plan_keys() name; '-' is taken for '_') to value. Returns
 * 0, or -1 with a one-line message in err (lowercase, no period) such as
 * "params: '7x' is not a count (7e9, 7B, 1.5B)". "gpu" adds a model (a
 * comma list adds several); "model" also fills in the size and shape that
 * were not set. Static strings and GPU rows only are stored: value must
 * outlive in only for "hypothesis" and "question", which are checked and
 * stored as static strings too.
 */
int plan_set(struct plan_inputs *in, const char *key, const char *value, char *err, size_t errsize);

/* Reads "7e9", "7B", "1.5B", "350M", "7000000000" as a count; NaN when not one. */
double plan_parse_count(const char *s);

/*
 * Checks that in can be computed (a parameter count, a GPU model); 0, or -1
 * with a message in err. plan_compute() computes only when this passes.
 */
int plan_check(const struct plan_inputs *in, char *err, size_t errsize);

/* The whole model for in (checked), into r. */
void plan_compute(const struct plan_inputs *in, struct plan_result *r);

/* A planned run that a fallback GPU (gpu[1..]) cannot hold. */
struct plan_fallback {
	const struct gpu_model *gpu;
	enum plan_strategy strategy;	/* the run's: single, or the recommended */
	double need;			/* its total per GPU, bytes */
	double capacity;		/* the GPU's, the one capacity rule */
};

/*
 * The planned runs (single when it fits gpu[0], and the recommended) that a
 * fallback GPU cannot hold, into fb (n at most); how many.
 */
size_t plan_fallbacks(const struct plan_result *r, const struct plan_inputs *in,
		      struct plan_fallback *fb, size_t n);

/* The rental option of strategy in r (single, or the recommended); NULL when r has none. */
const struct plan_option *plan_option_of(const struct plan_result *r, int strategy);

/* "single", "ddp", "zero1", "zero2", "zero3", "fsdp", "pipeline", "tensor"; -1 from _parse when none. */
const char *plan_strategy_name(enum plan_strategy s);
int plan_strategy_parse(const char *s);
const char *plan_optimizer_name(enum plan_optimizer o);	/* the canonical name: "adam" */
const char *plan_checkpointing_name(enum plan_checkpointing c);
const char *plan_attention_name(enum plan_attention a);	/* "eager", "flash" */

#endif
