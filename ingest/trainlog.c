#include "ingest/trainlog.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"

enum framework {
	FW_NONE, FW_HF, FW_MEGATRON, FW_DEEPSPEED, FW_TORCHTITAN, FW_LIGHTNING, FW_PLAIN,
	FW_COUNT
};

static const char *const framework_names[FW_COUNT] = {
	[FW_NONE] = NULL, [FW_HF] = "hf-trainer", [FW_MEGATRON] = "megatron",
	[FW_DEEPSPEED] = "deepspeed", [FW_TORCHTITAN] = "torchtitan",
	[FW_LIGHTNING] = "lightning", [FW_PLAIN] = "plain",
};

/* What the named groups of a pattern capture. */
enum field {
	/* a step record */
	F_STEP, F_STEP_TIME, F_STEP_TIME_MS, F_LOSS, F_SAMPLES_PER_S, F_TOKENS_PER_S,
	F_MEMORY_GIB, F_IT_PER_S, F_S_PER_IT, F_EPOCH, F_BATCH, F_BATCHES, F_TFLOPS, F_MFU,
	/* memory peaks: reserved or allocated, in GiB or MiB (a step record's or not) */
	F_RESERVED_GIB, F_ALLOCATED_GIB, F_RESERVED_MIB, F_ALLOCATED_MIB,
	/* facts about the run */
	F_GLOBAL_BATCH, F_MICRO_BATCH, F_GRAD_ACCUM, F_PRECISION, F_TOTAL_STEPS,
	F_WORLD_SIZE, F_TRAIN_RUNTIME, F_STEPS_PER_S, F_SEQ_LEN,
	F_DP_SIZE, F_TP_SIZE, F_PP_SIZE, F_MODEL, F_DATASET,
	F_KEY,		/* the name a fact is printed under, quoted when it disagrees */
	/* an out-of-memory message */
	F_OOM_TRIED, F_OOM_GPU, F_OOM_CAPACITY, F_OOM_ALLOCATED, F_OOM_FREE,
	F_OOM_RESERVED, F_OOM_UNALLOCATED,
	/* a checkpoint save's write time as printed */
	F_CKPT_MS, F_CKPT_S,
	NFIELD
};
#define F_LAST_STEP_FIELD F_MFU

enum ftype { T_NUM, T_SIZE, T_TEXT };

static const struct {
	const char *name;	/* the group name in patterns */
	enum ftype type;
} fields[NFIELD] = {
	[F_STEP] = { "step", T_NUM }, [F_STEP_TIME] = { "step_time", T_NUM },
	[F_STEP_TIME_MS] = { "step_time_ms", T_NUM }, [F_LOSS] = { "loss", T_NUM },
	[F_SAMPLES_PER_S] = { "samples_per_s", T_NUM },
	[F_TOKENS_PER_S] = { "tokens_per_s", T_NUM },
	[F_MEMORY_GIB] = { "memory_gib", T_NUM }, [F_IT_PER_S] = { "it_per_s", T_NUM },
	[F_S_PER_IT] = { "s_per_it", T_NUM }, [F_EPOCH] = { "epoch", T_NUM },
	[F_BATCH] = { "batch", T_NUM }, [F_BATCHES] = { "batches", T_NUM },
	[F_TFLOPS] = { "tflops", T_NUM }, [F_MFU] = { "mfu", T_NUM },
	[F_GLOBAL_BATCH] = { "global_batch", T_NUM }, [F_MICRO_BATCH] = { "micro_batch", T_NUM },
	[F_GRAD_ACCUM] = { "grad_accum", T_NUM }, [F_PRECISION] = { "precision", T_TEXT },
	[F_TOTAL_STEPS] = { "total_steps", T_NUM }, [F_WORLD_SIZE] = { "world_size", T_NUM },
	[F_TRAIN_RUNTIME] = { "train_runtime", T_NUM },
	[F_RESERVED_GIB] = { "reserved_gib", T_NUM }, [F_ALLOCATED_GIB] = { "allocated_gib", T_NUM },
	[F_RESERVED_MIB] = { "reserved_mib", T_NUM }, [F_ALLOCATED_MIB] = { "allocated_mib", T_NUM },
	[F_STEPS_PER_S] = { "steps_per_s", T_NUM }, [F_SEQ_LEN] = { "seq_len", T_NUM },
	[F_DP_SIZE] = { "dp_size", T_NUM }, [F_TP_SIZE] = { "tp_size", T_NUM },
	[F_PP_SIZE] = { "pp_size", T_NUM }, [F_MODEL] = { "model", T_TEXT },
	[F_DATASET] = { "dataset", T_TEXT }, [F_KEY] = { "key", T_TEXT },
	[F_OOM_TRIED] = { "oom_tried", T_SIZE }, [F_OOM_GPU] = { "oom_gpu", T_NUM },
	[F_OOM_CAPACITY] = { "oom_capacity", T_SIZE },
	[F_OOM_ALLOCATED] = { "oom_allocated", T_SIZE }, [F_OOM_FREE] = { "oom_free", T_SIZE },
	[F_OOM_RESERVED] = { "oom_reserved", T_SIZE },
	[F_OOM_UNALLOCATED] = { "oom_unallocated", T_SIZE },
	[F_CKPT_MS] = { "ckpt_ms", T_NUM }, [F_CKPT_S] = { "ckpt_s", T_NUM },
};

/* What a match of a row means. */
enum kind {
	K_SEEN = 1 << 0,	/* training output, nothing more */
	K_HEADER = 1 << 1,	/* a start-of-training banner: names the framework firmly */
	K_STEP = 1 << 2,	/* one step record */
	K_METRIC = 1 << 3,	/* a step record only when it holds a loss or a time */
	K_PROGRESS = 1 << 4,	/* a progress bar: a step record when its position moved on */
	K_DONE = 1 << 5,	/* training reached its end */
	K_OOM = 1 << 6,		/* a CUDA out-of-memory message */
	K_TRACEBACK = 1 << 7,	/* a Python traceback starts */
	K_ERROR = 1 << 8,	/* the exception line that ends a traceback */
	K_NO_BF16 = 1 << 9,	/* DeepSpeed says bf16 is off */
	K_NO_FP16 = 1 << 10,	/* DeepSpeed says fp16 is off */
	K_MEMORY = 1 << 11,	/* memory figures outside a step record */
	K_LOCAL_TPS = 1 << 12,	/* tokens/s of one GPU: step time = micro batch x seq len / it */
	K_CKPT_BEGIN = 1 << 13,	/* a checkpoint save begins (a finished one is closed first) */
	K_CKPT_PART = 1 << 14,	/* a file of a save is written: begins one only when none is open */
	K_CKPT_END = 1 << 15,	/* a save (or a file of it) is written */
	K_CKPT_TIME = 1 << 16,	/* a save's write time, printed (rank 0's) */
};
#define K_CKPT (K_CKPT_BEGIN | K_CKPT_PART | K_CKPT_END | K_CKPT_TIME)
#define K_RECORD (K_STEP | K_METRIC | K_PROGRESS)

struct row {
	enum framework fw;	/* FW_NONE: any framework prints it */
	unsigned kind;		/* enum kind bits; 0 = facts only */
	const char *needle;	/* a literal the line must hold (fast reject); NULL */
	const char *precision;	/* the precision a match implies; NULL */
	const char *re;
};

/* Pieces of patterns. */
#define NUM "(?:[-+]?(?:(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|" \
	    "[-+]?(?:nan|inf))"
#define INT "(?:\\d{1,3}(?:,\\d{3})+|\\d+)"
#define SIZE "\\d+(?:\\.\\d+)? ?(?:bytes|B|KiB|MiB|GiB|TiB)"
/* between a key and its value: ": ", " = ", "=", " ...... ", "  " */
#define SEP "['\"]?(?:\\s*[:=]\\s*|\\s+(?:\\.{2,}\\s*)?)"
#define OPT(x) "(?=(?:.*?" x ")?)"

/*
 * The built-in profiles, in the order they are tried. Facts and markers apply
 * from every row that matches a line; a line gives one step record at most
 * (the first recording row), and one OOM message at most.
 */
static const struct row rows[] = {
	/* CUDA out of memory, by PyTorch era: parenthesised (<= 2.0), sentence (2.1+) */
	{ FW_NONE, K_OOM, "CUDA out of memory", NULL,
	  "CUDA out of memory\\. Tried to allocate (?<oom_tried>" SIZE ") \\(GPU (?<oom_gpu>\\d+); "
	  "(?<oom_capacity>" SIZE ") total capacity; (?<oom_allocated>" SIZE ") already allocated; "
	  "(?<oom_free>" SIZE ") free;(?: " SIZE " allowed;)? (?<oom_reserved>" SIZE ") "
	  "(?:reserved in total by PyTorch|cached)" },
	{ FW_NONE, K_OOM, "CUDA out of memory", NULL,
	  "CUDA out of memory\\. Tried to allocate (?<oom_tried>" SIZE ")\\. GPU (?<oom_gpu>\\d+) "
	  "has a total capac(?:i)?ty of (?<oom_capacity>" SIZE ") of which (?<oom_free>" SIZE ") "
	  "is free\\." OPT("Of the allocated memory (?<oom_allocated>" SIZE ") is allocated by "
	  "PyTorch, and (?<oom_unallocated>" SIZE ") is reserved by PyTorch but unallocated") },
	{ FW_NONE, K_OOM, "CUDA out of memory", NULL,
	  "CUDA out of memory\\. Tried to allocate (?<oom_tried>" SIZE ")" },
	{ FW_NONE, K_OOM, "out of memory", NULL,
	  "(?:\\bRuntimeError|OutOfMemoryError): CUDA out of memory|CUDA error: out of memory" },

	/*
	 * A bare tqdm bar, as the Hugging Face Trainer's and many scripts' loops draw
	 * it (no description before it, else it is a shard loader's or a dataset
	 * map's); a launcher's or a paste's prefix may stand before it, a log dict
	 * after it.
	 */
	{ FW_NONE, K_PROGRESS, "%|", NULL,
	  "^(?:\\[\\d+\\] ?|\\[rank\\d+\\]: ?|\\d+: )?\\s*\\d{1,3}%\\|[^|]{0,200}\\|"
	  "\\s*(?<batch>\\d+)/(?<batches>\\d+)\\s*"
	  "\\[[^\\],]{0,60},\\s*(?:(?<it_per_s>" NUM ")it/s|(?<s_per_it>" NUM ")s/it)"
	  OPT("\\{'loss': (?:tensor\\()?(?<loss>" NUM ")") },

	/* Hugging Face Trainer */
	{ FW_HF, K_HEADER, "Running training", NULL, "\\*{5} Running training \\*{5}" },
	{ FW_HF, K_STEP, "{'loss': ", NULL,
	  "\\{'loss': (?:tensor\\()?(?<loss>" NUM ")" OPT("'step': (?<step>\\d+)") },
	{ FW_HF, K_SEEN, "{'eval_", NULL, "\\{'eval_\\w+': " },
	{ FW_HF, K_DONE, "'train_runtime': ", NULL,
	  "'train_runtime': (?<train_runtime>" NUM ")"
	  OPT("'train_samples_per_second': (?<samples_per_s>" NUM ")")
	  OPT("'train_steps_per_second': (?<steps_per_s>" NUM ")")
	  OPT("'train_tokens_per_second': (?<tokens_per_s>" NUM ")") },
	{ FW_HF, 0, "bf16=True", "bf16", "(?<![\\w-])bf16=True\\b" },
	{ FW_HF, 0, "fp16=True", "fp16", "(?<![\\w-])fp16=True\\b" },

	/* Megatron-LM (and the GPT-NeoX / Megatron-DeepSpeed variant) */
	{ FW_MEGATRON, K_STEP, "iteration", NULL,
	  "^(?=.*?\\biteration\\s+(?<step>\\d+)\\s*/\\s*(?<total_steps>\\d+)\\s*\\|)"
	  OPT("elapsed time per iteration \\(ms\\):\\s*(?<step_time_ms>" NUM ")")
	  OPT("global batch size:\\s*(?<global_batch>\\d+)")
	  OPT("\\blm[ _]loss:\\s*(?<loss>" NUM ")")
	  OPT("samples/sec:\\s*(?<samples_per_s>" NUM ")") },
	/* report_memory(): MB there are MiB (bytes / 1024 / 1024) */
	{ FW_MEGATRON, K_MEMORY, "memory (MB)", NULL,
	  "\\bmemory \\(MB\\)\\s*\\|\\s*allocated:\\s*" NUM
	  OPT("\\|\\s*max allocated:\\s*(?<allocated_mib>" NUM ")")
	  OPT("\\|\\s*max reserved:\\s*(?<reserved_mib>" NUM ")") },
	{ FW_MEGATRON, 0, "bf16 ..", "bf16", "(?<![\\w.-])bf16 \\.{2,} True\\b" },
	{ FW_MEGATRON, 0, "fp16 ..", "fp16", "(?<![\\w.-])fp16 \\.{2,} True\\b" },
	{ FW_MEGATRON, 0, "params_dtype", NULL,
	  "\\bparams_dtype \\.{2,} (?<precision>torch\\.\\w+)" },

	/* DeepSpeed: the config dump, its JSON form, the timer line */
	{ FW_DEEPSPEED, K_SEEN, NULL, NULL,
	  "\\b(?:bfloat16_enabled|fp16_enabled|train_micro_batch_size_per_gpu|"
	  "zero_optimization_stage)\\s+(?:\\.+\\s)?" },
	{ FW_DEEPSPEED, 0, "bfloat16_enabled", "bf16", "\\bbfloat16_enabled" SEP "True\\b" },
	{ FW_DEEPSPEED, 0, "fp16_enabled", "fp16", "\\bfp16_enabled" SEP "True\\b" },
	{ FW_DEEPSPEED, K_NO_BF16, "bfloat16_enabled", NULL, "\\bbfloat16_enabled" SEP "False\\b" },
	{ FW_DEEPSPEED, K_NO_FP16, "fp16_enabled", NULL, "\\bfp16_enabled" SEP "False\\b" },
	{ FW_NONE, 0, "enabled", "bf16",
	  "['\"](?:bf16|bfloat16)['\"]\\s*:\\s*\\{\\s*['\"]enabled['\"]\\s*:\\s*(?:true|True)\\b" },
	{ FW_NONE, 0, "enabled", "fp16",
	  "['\"]fp16['\"]\\s*:\\s*\\{\\s*['\"]enabled['\"]\\s*:\\s*(?:true|True)\\b" },
	{ FW_DEEPSPEED, K_STEP, "global_step=", NULL,
	  "\\bglobal_step=(?<step>\\d+)"
	  OPT("\\bCurrSamplesPerSec=(?<samples_per_s>" NUM ")")
	  OPT("\\bMaxMemAllocated=(?<allocated_gib>" NUM ")GB") },	/* GB = 2^30 bytes */
	{ FW_DEEPSPEED, 0, "dist_world_size=", NULL, "\\bdist_world_size=(?<world_size>\\d+)" },

	/* torchtitan (ANSI colours are stripped before matching) */
	{ FW_TORCHTITAN, K_HEADER, "Training starts at step", NULL,
	  "Training starts at step \\d+" },
	{ FW_TORCHTITAN, K_STEP | K_LOCAL_TPS, "step:", NULL,
	  "\\bstep:\\s*(?<step>\\d+)\\s+loss:\\s*(?<loss>" NUM ")"
	  OPT("\\bmemory:\\s*(?<reserved_gib>" NUM ")\\s*GiB")	/* max reserved */
	  OPT("\\btps:\\s*(?<tokens_per_s>" NUM ")")
	  OPT("\\btflops:\\s*(?<tflops>" NUM ")")
	  OPT("\\bmfu:\\s*(?<mfu>" NUM ")%") },
	{ FW_TORCHTITAN, K_DONE, "Training completed", NULL, "\\bINFO - Training completed\\b" },
	{ FW_NONE, 0, "mixed_precision_param", NULL,
	  "\\bmixed_precision_param\\s*=\\s*['\"](?<precision>\\w+)['\"]" },

	/* PyTorch Lightning */
	{ FW_LIGHTNING, K_SEEN, "GPU available: ", NULL, "\\bGPU available: (?:True|False)" },
	{ FW_LIGHTNING, 0, "Initializing distributed: ", NULL,
	  "Initializing distributed: GLOBAL_RANK: \\d+, MEMBER: \\d+/(?<world_size>\\d+)" },
	{ FW_LIGHTNING, K_SEEN, "Automatic Mixed Precision", NULL,
	  "Using (?<precision>bfloat16|16bit|16-bit)(?: native)? Automatic Mixed Precision" },
	{ FW_LIGHTNING, K_PROGRESS, "Epoch ", NULL,
	  "\\bEpoch (?<epoch>\\d+):\\s*\\d+%\\|[^|]{0,200}\\|"
	  "\\s*(?<batch>\\d+)/(?<batches>\\d+)\\s*"
	  "\\[[^\\],]{0,60},\\s*(?:(?<it_per_s>" NUM ")it/s|(?<s_per_it>" NUM ")s/it)"
	  "(?=(?:[^\\]]{0,300}?\\b(?:train_)?loss(?:_step)?=(?<loss>" NUM "))?)" },
	{ FW_LIGHTNING, K_DONE, "`Trainer.fit` stopped", NULL, "`Trainer\\.fit` stopped" },
	{ FW_NONE, 0, "precision", NULL,
	  "\\bprecision\\s*[=:]\\s*['\"]?(?<precision>bf16-mixed|16-mixed|bf16-true|16-true|"
	  "32-true|64-true)\\b" },

	/*
	 * Batch sizes, accumulation, length, planned steps and parallel sizes as
	 * most frameworks and scripts print them: the HF Trainer's banner,
	 * DeepSpeed's and Megatron's argument dumps, torchtitan's start line. The
	 * `key` group keeps the name printed, for a message that quotes it.
	 */
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<key>\\btrain_micro_batch_size_per_gpu|\\bper_device_train_batch_size|"
	  "\\bmicro_batch_size|\\bInstantaneous batch size per device|"
	  "\\bbatch size per (?:device|gpu)|\\blocal batch size)"
	  SEP "(?<micro_batch>" INT ")\\b" },
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<key>\\btrain_batch_size|\\bglobal_batch_size|\\bglobal batch size|"
	  "\\bTotal train batch size|\\beffective batch size)(?: \\([^)]{0,80}\\))?"
	  SEP "(?<global_batch>" INT ")\\b" },
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<key>\\bgradient[ _]accumulation[ _]steps)" SEP "(?<grad_accum>" INT ")\\b" },
	/* Megatron: global / (micro x data-parallel), its gradient accumulation */
	{ FW_MEGATRON, 0, "micro-batches", NULL,
	  "\\bsetting (?<key>number of micro-batches) to constant (?<grad_accum>\\d+)\\b" },
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<key>\\bTotal optimization steps|\\btrain_iters|\\btotal steps)"
	  SEP "(?<total_steps>" INT ")\\b" },
	/* the job's world size, not one node's (local_world_size, "Local World Size") */
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<!local[ _])(?<key>\\bworld[ _]size)" SEP "(?<world_size>\\d+)\\b" },
	/* Megatron's dump and its "using world size: ..." line; not expert or encoder sizes */
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<![\\w-])(?<key>data[-_ ]parallel[-_ ]size)" SEP "(?<dp_size>\\d+)\\b" },
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<![\\w-])(?<key>tensor[-_ ]model[-_ ]parallel[-_ ]size)" SEP "(?<tp_size>\\d+)\\b" },
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<![\\w-])(?<key>pipeline[-_ ]model[-_ ]parallel[-_ ]size)" SEP "(?<pp_size>\\d+)\\b" },
	/* as Megatron's dump, torchtitan's start line and HF arguments print it (not JSON) */
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?<![\\w'\"])(?<key>seq_length|sequence length|max_seq_length)"
	  "(?:\\s*[:=]\\s*|\\s+(?:\\.{2,}\\s*)?)(?<seq_len>" INT ")\\b" },
	/*
	 * The model and the data where the framework names them: torchtitan's
	 * "Building llama3 8B with ..." and "Preparing c4 dataset from ...",
	 * Megatron's data_path, and the model_name_or_path / dataset_name
	 * arguments of HF scripts (key=value, key: value, or --key value).
	 */
	{ FW_TORCHTITAN, 0, "ModelArgs(", NULL,
	  "\\bBuilding (?<model>[\\w.-]+ [\\w.-]+) with \\w*ModelArgs\\(" },
	{ FW_TORCHTITAN, 0, " total parameters", NULL,
	  "\\bModel (?<model>[\\w.-]+ [\\w.-]+) size: " INT " total parameters" },
	{ FW_TORCHTITAN, 0, " dataset from ", NULL,
	  "\\bPreparing (?<dataset>[\\w.-]+) dataset from \\S" },
	{ FW_MEGATRON, 0, " ..", NULL,
	  "(?<![\\w'\"])(?<key>data_path|dataset) \\.{2,} \\[?['\"]?(?<dataset>[^\\s'\",\\]]+)" },
	{ FW_NONE, 0, "model_name", NULL,
	  "(?|--(?<key>model_name_or_path|model_name)(?:=|\\s+)|"
	  "(?<![\\w-])(?<key>model_name_or_path|model_name)['\"]?\\s*[=:]\\s*)"
	  "['\"]?(?<model>[\\w.][\\w./:-]*)(?=[\\s'\",)]|$)" },
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)(?|--(?<key>dataset_name|dataset)(?:=|\\s+)|"
	  "(?<![\\w-])(?<key>dataset_name|dataset)['\"]?\\s*[=:]\\s*)"
	  "['\"]?(?<dataset>[\\w./~][\\w./:-]*)(?=[\\s'\",)]|$)" },
	{ FW_NONE, 0, NULL, NULL,
	  "(?i)\\bmixed[ _]precision(?: type)?\\s*[:=]\\s*['\"]?"
	  "(?<precision>bf16|fp16|fp8|no)\\b" },

	/* plain "step N ... time X" lines */
	{ FW_PLAIN, K_METRIC, NULL, NULL,
	  "(?i)\\b(?:global[ _])?step\\s*[:=#]?\\s*(?<step>\\d+)\\b"
	  "(?:\\s*/\\s*(?<total_steps>\\d+))?"
	  OPT("\\b(?:step[ _]?)?time\\s*[:=]?\\s*(?:(?<step_time_ms>" NUM ")\\s*ms\\b|"
	      "(?<step_time>" NUM ")(?:\\s*s\\b|\\s*sec\\b)?)")
	  OPT("\\bloss\\s*[:=]?\\s*(?<loss>" NUM ")")
	  OPT("\\b(?:samples/s(?:ec)?|samples_per_sec(?:ond)?)\\s*[:=]?\\s*"
	      "(?<samples_per_s>" NUM ")")
	  OPT("\\b(?:tokens/s(?:ec)?|tok/s|tokens_per_sec(?:ond)?)\\s*[:=]?\\s*"
	      "(?<tokens_per_s>" NUM ")") },

	/*
	 * Checkpoint saves. Megatron-LM times each save (`save-checkpoint` in
	 * the timers block after it, the slowest rank's time last; older
	 * releases print `time (ms) | save-checkpoint: T`); torchtitan prints
	 * its own duration. DeepSpeed's engine and checkpoint engine, the HF
	 * Trainer and Lightning only say that a save begins or ends: a write
	 * time comes from them only where timestamps bracket one save.
	 */
	{ FW_MEGATRON, K_CKPT_BEGIN, "saving checkpoint at iteration", NULL,
	  "\\bsaving checkpoint at iteration\\s+\\d+ to \\S" },
	{ FW_MEGATRON, K_CKPT_END, "successfully saved checkpoint", NULL,
	  "\\bsuccessfully saved checkpoint (?:at|from) iteration\\s+\\d+ to \\S" },
	{ FW_MEGATRON, K_CKPT_TIME, "save-checkpoint ", NULL,
	  "(?<![\\w-])save-checkpoint \\.{2,}:\\s*"
	  "(?|\\(\\s*" NUM ",\\s*(?<ckpt_ms>" NUM ")\\s*\\)|(?<ckpt_ms>" NUM "))\\s*$" },
	{ FW_MEGATRON, K_CKPT_TIME, "save-checkpoint:", NULL,
	  "\\btime \\(ms\\).*?\\|\\s*save-checkpoint:\\s*(?<ckpt_ms>" NUM ")\\s*(?:\\||$)" },
	{ FW_DEEPSPEED, K_CKPT_BEGIN, "[Torch] Checkpoint ", NULL,
	  "\\[Torch\\] Checkpoint \\S+ is (?:about to be saved|begin to save)!" },
	{ FW_DEEPSPEED, K_CKPT_BEGIN, "Saving model checkpoint: ", NULL,
	  "\\bSaving model checkpoint: \\S" },
	{ FW_DEEPSPEED, K_CKPT_PART, "[Torch] Saving ", NULL, "\\[Torch\\] Saving \\S" },
	{ FW_DEEPSPEED, K_CKPT_END, "[Torch] Saved ", NULL, "\\[Torch\\] Saved \\S" },
	{ FW_DEEPSPEED, K_CKPT_END, "zero checkpoint saved ", NULL, "\\bzero checkpoint saved \\S" },
	{ FW_DEEPSPEED, K_CKPT_END, "is ready now!", NULL,
	  "\\[Torch\\] Checkpoint \\S+ is ready now!" },
	{ FW_HF, K_CKPT_BEGIN, "Saving model checkpoint to ", NULL,
	  "\\bSaving model checkpoint to \\S" },
	{ FW_TORCHTITAN, K_CKPT_BEGIN, "Saving ", NULL,
	  "\\bSaving (?:the checkpoint|a full checkpoint|a model (?:weights )?only checkpoint)\\b" },
	{ FW_TORCHTITAN, K_CKPT_TIME, "Finished saving the checkpoint", NULL,
	  "\\bFinished saving the checkpoint\\b.{0,80}?\\bin (?<ckpt_s>" NUM ") ?seconds\\b" },
	{ FW_LIGHTNING, K_CKPT_BEGIN, "saving model to ", NULL,
	  "\\bEpoch \\d+, global step \\d+: .{0,300}?\\bsaving model to \\S" },

	/* how a run fails */
	{ FW_NONE, K_TRACEBACK, "Traceback (most recent call last)", NULL,
	  "Traceback \\(most recent call last\\)" },
	{ FW_NONE, K_ERROR, NULL, NULL,
	  "(?:^|[\\s:\\]>])(?:[A-Za-z_]\\w{0,60}\\.){0,12}[A-Z]\\w{0,60}"
	  "(?:Error|Exception|Interrupt)(?::\\s|:?$)" },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* A compiled pattern and the group number of each field (-1 absent). */
struct compiled {
	pcre2_code *code;
	int group[NFIELD];
};

static struct compiled builtin[NROWS];
static pcre2_code *prefix_re;		/* a launcher's rank prefix */
static pcre2_match_context *mctx;	/* limits, so no pattern runs away */
static bool ready;

/* Patterns from trainlog_load_patterns, tried first. */
static struct compiled *user;
static size_t nuser;
static const struct row user_row = { FW_PLAIN, K_METRIC, NULL, NULL, NULL };

static void find_groups(struct compiled *c)
{
	for (int f = 0; f < NFIELD; f++) {
		int n = pcre2_substring_number_from_name(c->code, (PCRE2_SPTR)fields[f].name);

		c->group[f] = n > 0 ? n : -1;
	}
}

static pcre2_code *compile(const char *re, size_t len, int *err, PCRE2_SIZE *off)
{
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)re, len, 0, err, off, NULL);

	if (code)
		pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	return code;
}

static int compile_builtin(void)
{
	int err;
	PCRE2_SIZE off;

	if (ready)
		return 0;
	for (size_t i = 0; i < NROWS; i++) {
		builtin[i].code = compile(rows[i].re, PCRE2_ZERO_TERMINATED, &err, &off);
		if (!builtin[i].code)
			return -1;	/* a bad built-in pattern: caught by the tests */
		find_groups(&builtin[i]);
	}
	prefix_re = compile("^\\s*(?|\\[rank(\\d+)\\]:|\\[default(\\d+)\\]:|"
			    "\\[\\d+,(\\d+)\\]<std(?:out|err)>:|(\\d+):\\s)",
			    PCRE2_ZERO_TERMINATED, &err, &off);
	if (!prefix_re)
		return -1;
	mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(mctx, 2000000);
	pcre2_set_depth_limit(mctx, 10000);
	ready = true;
	return 0;
}

/* ---- values ---------------------------------------------------------- */

/* A number as logs print it: "5,498", "1.160216E+01", "nan". */
static bool parse_num(const char *s, size_t n, double *out)
{
	char tmp[64];
	size_t k = 0;
	char *end;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == ',')
			continue;
		if (k + 1 >= sizeof(tmp))
			return false;
		tmp[k++] = s[i];
	}
	tmp[k] = '\0';
	if (!k)
		return false;
	errno = 0;
	*out = strtod(tmp, &end);
	return end == tmp + k && errno != ERANGE;
}

static const struct {
	const char *unit;
	double scale;
} size_units[] = {
	{ "bytes", 1 }, { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
	{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
};

/* "2.26 GiB" -> bytes. */
static bool parse_size(const char *s, size_t n, double *out)
{
	size_t k = 0;

	while (k < n && (s[k] == '.' || (s[k] >= '0' && s[k] <= '9')))
		k++;
	if (!parse_num(s, k, out))
		return false;
	while (k < n && s[k] == ' ')
		k++;
	for (size_t i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++) {
		const char *u = size_units[i].unit;

		if (strlen(u) == n - k && !memcmp(s + k, u, n - k)) {
			*out = round(*out * size_units[i].scale);
			return true;
		}
	}
	return false;
}

/* A precision the log declares, as a dtype_name() (floating types only); NULL. */
static const char *precision_name(const char *s, size_t n)
{
	enum dtype dt = precision_parse(s, n);

	return dt >= DT_FP64 && dt <= DT_FP4 ? dtype_name(dt) : NULL;
}

/* ---- one match ------------------------------------------------------- */

/* The values one match captured. */
struct hit {
	bool has[NFIELD];
	double v[NFIELD];
	const char *text[NFIELD];	/* text groups (precision, model, dataset, key); NULL */
	size_t ntext[NFIELD];
};

static void read_hit(const struct compiled *c, pcre2_match_data *md, const char *s, struct hit *h)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	uint32_t nov = pcre2_get_ovector_count(md);

	memset(h, 0, sizeof(*h));
	for (int f = 0; f < NFIELD; f++) {
		int g = c->group[f];
		const char *p;
		size_t n;

		if (g < 0 || (uint32_t)g >= nov || ov[2 * g] == PCRE2_UNSET)
			continue;
		p = s + ov[2 * g];
		n = ov[2 * g + 1] - ov[2 * g];
		if (fields[f].type == T_TEXT) {
			h->text[f] = p;
			h->ntext[f] = n;
			h->has[f] = true;
		} else if (fields[f].type == T_SIZE) {
			h->has[f] = parse_size(p, n, &h->v[f]);
		} else {
			h->has[f] = parse_num(p, n, &h->v[f]);
		}
	}
}

static bool try_match(const struct compiled *c, const struct row *r, pcre2_match_data *md,
		      const char *s, size_t n)
{
	if (r->needle && !memmem(s, n, r->needle, strlen(r->needle)))
		return false;
	return pcre2_match(c->code, (PCRE2_SPTR)s, n, 0, 0, md, mctx) >= 0;
}

static int64_t size_or_unknown(const struct hit *h, enum field f)
{
	return h->has[f] && h->v[f] >= 0 && h->v[f] < 9e18 ? (int64_t)h->v[f] : -1;
}

static void oom_from_hit(const struct hit *h, struct run_oom *o)
{
	o->tried_bytes = size_or_unknown(h, F_OOM_TRIED);
	o->capacity_bytes = size_or_unknown(h, F_OOM_CAPACITY);
	o->allocated_bytes = size_or_unknown(h, F_OOM_ALLOCATED);
	o->free_bytes = size_or_unknown(h, F_OOM_FREE);
	o->reserved_bytes = size_or_unknown(h, F_OOM_RESERVED);
	if (o->reserved_bytes < 0 && o->allocated_bytes >= 0 &&
	    size_or_unknown(h, F_OOM_UNALLOCATED) >= 0)
		o->reserved_bytes = o->allocated_bytes + size_or_unknown(h, F_OOM_UNALLOCATED);
	o->gpu = h->has[F_OOM_GPU] && h->v[F_OOM_GPU] < 1e6 ? (int32_t)h->v[F_OOM_GPU] : -1;
}

bool trainlog_parse_oom(const char *s, size_t n, struct run_oom *out)
{
	pcre2_match_data *md;
	bool found = false;
	struct hit h;

	if (compile_builtin() < 0)
		return false;
	md = pcre2_match_data_create(32, NULL);
	for (size_t i = 0; i < NROWS && !found; i++) {
		if (!(rows[i].kind & K_OOM) || !try_match(&builtin[i], &rows[i], md, s, n))
			continue;
		read_hit(&builtin[i], md, s, &h);
		oom_from_hit(&h, out);
		found = true;
	}
	pcre2_match_data_free(md);
	return found;
}

/* ---- the reader ------------------------------------------------------ */

/*
 * The checkpoint save the log is in the middle of: opened by its first
 * line, closed by a step record, by the next save's first line once this
 * one has ended, or by the end of the file.
 */
struct ckpt_open {
	bool open;
	bool ended;		/* an end line or a printed time was seen */
	int64_t line;		/* where it began */
	double start;		/* the time its first line prints, s; NAN none */
	double end;		/* the latest time an end line prints, s; NAN none */
	double printed_s;	/* its write time as printed; < 0 none */
};

struct trainlog {
	struct ingest_ctx *ctx;
	pcre2_match_data *md;
	struct buf clean;	/* the line without its ANSI colour codes */
	int64_t lineno;
	struct ingest_cap limit;	/* steps kept, against the limits */
	bool found;		/* something of a training log was seen */
	enum framework fw;	/* the framework the file is from */
	int fw_weight;		/* how firmly: 1 a config line, 2 a banner or step */
	struct run_facts facts;	/* this file's own facts, for inspect */
	double *times;		/* step times of this file's records, seconds */
	size_t ntimes, cap_times;
	double *rates;		/* samples/s of this file's records */
	size_t nrates, cap_rates;
	double *tokens;		/* tokens/s of this file's records */
	size_t ntokens, cap_tokens;
	double *tflops;		/* tflops of this file's records (torchtitan) */
	size_t ntflops, cap_tflops;
	double *mfu;		/* mfu of this file's records, percent */
	size_t nmfu, cap_mfu;
	int64_t tflops_line;	/* the first record with tflops or mfu; 0 none */
	double bar_total;	/* the total of the first bar without an epoch; 0 none */
	int64_t reserved_peak;	/* the largest reserved figure printed, bytes; 0 none */
	int64_t allocated_peak;	/* the largest allocated (or unnamed) one; 0 none */
	double summary_tokens;	/* train_tokens_per_second; < 0 none */
	size_t nsteps;		/* step records from this file */
	int64_t max_step;	/* -1 none */
	double progress;	/* last progress-bar position; -1 none */
	bool rec_this_line;	/* a step record was taken from the current line */
	bool oom_this_line;
	struct run_oom oom;	/* src.file NULL: none */
	int64_t done_line;	/* training reached its end; 0 never */
	int64_t traceback_line;	/* a traceback started; 0 none */
	int64_t failed_line;	/* the exception that ended it; 0 none */
	int64_t no_bf16_line, no_fp16_line;
	double runtime;		/* train_runtime, s; < 0 none */
	double summary_rate;	/* train_samples_per_second; < 0 none */
	enum run_status status;
	struct srcpos status_src;
	const char *seg;	/* the line (or carriage-return piece) being matched */
	size_t nseg;
	struct ckpt_open ckpt;	/* the checkpoint save being written; see ckpt_line() */
};

static void *tl_open(struct ingest_ctx *ctx)
{
	struct trainlog *st;

	if (compile_builtin() < 0)
		return NULL;
	st = xcalloc(1, sizeof(*st));
	st->ctx = ctx;
	st->md = pcre2_match_data_create(32, NULL);
	buf_init(&st->clean, READER_MAX_LINE);
	st->max_step = -1;
	st->progress = -1;
	st->runtime = -1;
	st->summary_rate = -1;
	st->summary_tokens = -1;
	st->oom.src = SRCPOS_NONE;
	return st;
}

static void set_framework(struct trainlog *st, const struct row *r)
{
	int w = r->kind & (K_HEADER | K_RECORD | K_DONE) ? 2 : 1;

	if (r->fw != FW_NONE && w > st->fw_weight) {
		st->fw = r->fw;
		st->fw_weight = w;
	}
}

static const char *const fact_words[] = {
	[F_GLOBAL_BATCH] = "global batch", [F_MICRO_BATCH] = "micro batch",
	[F_GRAD_ACCUM] = "gradient accumulation", [F_TOTAL_STEPS] = "total steps",
	[F_WORLD_SIZE] = "world size", [F_SEQ_LEN] = "sequence length",
	[F_DP_SIZE] = "data-parallel size", [F_TP_SIZE] = "tensor-parallel size",
	[F_PP_SIZE] = "pipeline-parallel size", [F_MODEL] = "model", [F_DATASET] = "dataset",
};

/* The name the fact of this match was printed under, interned; NULL when not captured. */
static const char *hit_key(struct trainlog *st, const struct hit *h)
{
	if (!h->has[F_KEY] || !h->ntext[F_KEY])
		return NULL;
	return intern(&st->ctx->trial->strings, h->text[F_KEY], h->ntext[F_KEY]);
}

/* "line 5" in this file, "other.log:5" in another. */
static void conflict(struct trainlog *st, enum field f, const char *v, const char *was,
		     const struct srcpos *at)
{
	struct srcpos pos = SRCPOS_LINE(st->ctx->path, st->lineno);
	bool here = at->file == st->ctx->path;

	diag_warn(st->ctx->diags, "train-conflict", &pos, "%s %s differs from %s read at %s%s%lld",
		  fact_words[f], v, was, here ? "line " : at->file, here ? "" : ":",
		  (long long)at->line);
}

static void set_i64(struct trainlog *st, enum field f, const struct hit *h,
		    struct fact_i64 *mine, struct fact_i64 *run)
{
	struct srcpos pos = SRCPOS_LINE(st->ctx->path, st->lineno);
	double v = h->v[f];
	char got[32], was[32];

	if (v < 1 || v > 1e15 || v != floor(v))
		return;
	if (fact_set_i64(mine, (int64_t)v, &pos))
		mine->key = hit_key(st, h);
	if (fact_set_i64(run, (int64_t)v, &pos)) {
		run->key = hit_key(st, h);
		return;
	}
	if (run->v == (int64_t)v && !run->key && run->src.file == pos.file && run->src.line == pos.line)
		run->key = hit_key(st, h);	/* a later row of the same line named it */
	if (run->v == (int64_t)v)
		return;
	snprintf(got, sizeof(got), "%lld", (long long)v);
	snprintf(was, sizeof(was), "%lld", (long long)run->v);
	conflict(st, f, got, was, &run->src);
}

/*
 * A name (model, dataset) as printed; "None" and a bare number (a blend
 * weight of Megatron's data_path) name nothing.
 */
static void set_name(struct trainlog *st, enum field f, const struct hit *h,
		     struct fact_str *mine, struct fact_str *run)
{
	struct srcpos pos = SRCPOS_LINE(st->ctx->path, st->lineno);
	const char *p = h->text[f];
	size_t n = h->ntext[f];
	char v[256];

	if (!n || n >= sizeof(v) || (n == 4 && !memcmp(p, "None", 4)) ||
	    strspn(p, "0123456789.") >= n)
		return;
	memcpy(v, p, n);
	v[n] = '\0';
	if (fact_set_str(st->ctx->trial, mine, v, &pos))
		mine->key = hit_key(st, h);
	if (fact_set_str(st->ctx->trial, run, v, &pos)) {
		run->key = hit_key(st, h);
		return;
	}
	if (strcmp(run->v, v))
		conflict(st, f, v, run->v, &run->src);
}

static void set_precision(struct trainlog *st, const char *dtype, int64_t line)
{
	struct srcpos pos = SRCPOS_LINE(st->ctx->path, line);

	fact_set_str(st->ctx->trial, &st->facts.precision, dtype, &pos);
	fact_set_str(st->ctx->trial, &st->ctx->run->logged.precision, dtype, &pos);
}

static void apply_precision(struct trainlog *st, const struct row *r, const struct hit *h)
{
	struct srcpos pos = SRCPOS_LINE(st->ctx->path, st->lineno);
	const char *dtype = r->precision;

	if (!dtype && h->has[F_PRECISION]) {
		dtype = precision_name(h->text[F_PRECISION], h->ntext[F_PRECISION]);
		if (!dtype)
			diag_warn(st->ctx->diags, "train-precision", &pos,
				  "precision \"%.*s\" is not one scaleaudit knows",
				  (int)h->ntext[F_PRECISION], h->text[F_PRECISION]);
	}
	if (dtype)
		set_precision(st, dtype, st->lineno);
}

/* Where each counted fact of a match goes in struct run_facts. */
static const struct {
	enum field f;
	size_t off;
} int_facts[] = {
	{ F_GLOBAL_BATCH, offsetof(struct run_facts, global_batch) },
	{ F_MICRO_BATCH, offsetof(struct run_facts, micro_batch) },
	{ F_GRAD_ACCUM, offsetof(struct run_facts, grad_accum) },
	{ F_TOTAL_STEPS, offsetof(struct run_facts, steps) },
	{ F_WORLD_SIZE, offsetof(struct run_facts, gpus) },
	{ F_SEQ_LEN, offsetof(struct run_facts, seq_len) },
	{ F_DP_SIZE, offsetof(struct run_facts, dp_size) },
	{ F_TP_SIZE, offsetof(struct run_facts, tp_size) },
	{ F_PP_SIZE, offsetof(struct run_facts, pp_size) },
}, name_facts[] = {
	{ F_MODEL, offsetof(struct run_facts, model) },
	{ F_DATASET, offsetof(struct run_facts, dataset) },
};

#define FACT_AT(facts, off, type) ((type *)((char *)(facts) + (off)))

static void apply_facts(struct trainlog *st, const struct row *r, const struct hit *h)
{
	struct run_facts *run = &st->ctx->run->logged;

	for (size_t i = 0; i < sizeof(int_facts) / sizeof(int_facts[0]); i++)
		if (h->has[int_facts[i].f])
			set_i64(st, int_facts[i].f, h, FACT_AT(&st->facts, int_facts[i].off, struct fact_i64),
				FACT_AT(run, int_facts[i].off, struct fact_i64));
	for (size_t i = 0; i < sizeof(name_facts) / sizeof(name_facts[0]); i++)
		if (h->has[name_facts[i].f])
			set_name(st, name_facts[i].f, h, FACT_AT(&st->facts, name_facts[i].off, struct fact_str),
				 FACT_AT(run, name_facts[i].off, struct fact_str));
	apply_precision(st, r, h);
}

static double positive(const struct hit *h, enum field f)
{
	return h->has[f] && h->v[f] >= 0 && isfinite(h->v[f]) ? h->v[f] : -1;
}

/* A count or byte size as int64; -1 when absent, negative or absurd. */
static int64_t count(const struct hit *h, enum field f)
{
	return positive(h, f) >= 0 && h->v[f] < 9e15 ? (int64_t)h->v[f] : -1;
}

static double step_time(const struct hit *h)
{
	if (positive(h, F_STEP_TIME) >= 0)
		return h->v[F_STEP_TIME];
	if (positive(h, F_STEP_TIME_MS) >= 0)
		return h->v[F_STEP_TIME_MS] / 1000.0;
	if (positive(h, F_S_PER_IT) >= 0)
		return h->v[F_S_PER_IT];
	if (positive(h, F_IT_PER_S) > 0)
		return 1.0 / h->v[F_IT_PER_S];
	return -1;
}

#define GIB 1073741824.0
#define MIB 1048576.0

/* The memory figures a match may hold, in the order a step record takes its own. */
static const struct {
	enum field f;
	double scale;		/* bytes per unit as the framework means it */
	bool reserved;		/* a reserved figure, else allocated or unnamed */
} mem_fields[] = {
	{ F_RESERVED_GIB, GIB, true }, { F_RESERVED_MIB, MIB, true },
	{ F_ALLOCATED_GIB, GIB, false }, { F_ALLOCATED_MIB, MIB, false },
	{ F_MEMORY_GIB, GIB, false },
};

static void set_peak(int64_t *peak, int64_t v)
{
	if (v > *peak)
		*peak = v;
}

/* Keeps the peaks of the match's memory figures; returns its first one, bytes, or -1. */
static int64_t apply_memory(struct trainlog *st, const struct hit *h)
{
	struct run *run = st->ctx->run;
	int64_t first = -1;

	for (size_t i = 0; i < sizeof(mem_fields) / sizeof(mem_fields[0]); i++) {
		enum field f = mem_fields[i].f;
		int64_t b;

		if (positive(h, f) < 0 || h->v[f] >= 1e9)
			continue;
		b = (int64_t)round(h->v[f] * mem_fields[i].scale);
		set_peak(mem_fields[i].reserved ? &st->reserved_peak : &st->allocated_peak, b);
		set_peak(mem_fields[i].reserved ? &run->log_reserved_peak : &run->log_allocated_peak, b);
		if (first < 0)
			first = b;
	}
	return first;
}

static void push(double **v, size_t *n, size_t *cap, double x)
{
	xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = x;
}

/*
 * torchtitan's tps counts the tokens of one GPU's batches (divided by the
 * non-data-parallel size): with the log's local batch and sequence length,
 * one step is micro batch x seq len / tps seconds (exact for data and fully
 * sharded parallelism); -1 when either is unknown.
 */
static double local_tps_time(struct trainlog *st, const struct hit *h)
{
	const struct run_facts *f = &st->facts;

	if (positive(h, F_TOKENS_PER_S) <= 0 || !f->micro_batch.set || !f->seq_len.set)
		return -1;
	return (double)(f->micro_batch.v * f->seq_len.v) / h->v[F_TOKENS_PER_S];
}

static bool has_step_field(const struct hit *h)
{
	for (int f = 0; f <= F_LAST_STEP_FIELD; f++)
		if (h->has[f])
			return true;
	return false;
}

/* Users' patterns record any step field; plain lines need a loss or a time. */
static bool worth_recording(const struct row *r, const struct hit *h)
{
	if (r == &user_row)
		return has_step_field(h);
	if (r->kind & K_METRIC)
		return h->has[F_LOSS] || step_time(h) >= 0;
	return true;
}

/*
 * Whether a bar without an epoch counts the training loop's steps: the first
 * such bar sets the total; one of another total (an evaluation loop's) does not.
 */
static bool training_bar(struct trainlog *st, double total)
{
	if (!st->bar_total)
		st->bar_total = total;
	return st->bar_total == total;
}

/* The step number of a progress bar; -1 when the bar did not move on. */
static int64_t progress_step(struct trainlog *st, const struct hit *h)
{
	double pos;

	if (!h->has[F_BATCH] || !h->has[F_BATCHES])
		return -1;
	if (!h->has[F_EPOCH] && !training_bar(st, h->v[F_BATCHES]))
		return -1;
	pos = (h->has[F_EPOCH] ? h->v[F_EPOCH] * h->v[F_BATCHES] : 0) + h->v[F_BATCH];
	if (pos <= st->progress || h->v[F_BATCH] < 1 || pos > 9e15)
		return -1;
	st->progress = pos;
	return (int64_t)pos;
}

/* torchtitan's per-GPU tflops and mfu (percent) of a step record. */
static void add_model_flops(struct trainlog *st, const struct hit *h)
{
	if (positive(h, F_TFLOPS) >= 0)
		push(&st->tflops, &st->ntflops, &st->cap_tflops, h->v[F_TFLOPS]);
	if (positive(h, F_MFU) >= 0)
		push(&st->mfu, &st->nmfu, &st->cap_mfu, h->v[F_MFU]);
	if ((h->has[F_TFLOPS] || h->has[F_MFU]) && !st->tflops_line)
		st->tflops_line = st->lineno;
}

/* ---- checkpoint saves ------------------------------------------------ */

/* n digits at s as a number; -1 when they are not all digits. */
static int digits(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days from 1970-01-01 to a date of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/*
 * The time at s[0..n): "2024-05-01 12:00:03,250" (also with a 'T' or a '.')
 * or "05/01/2024 12:00:03", as loggers print it; seconds on the log's own
 * clock, or NAN.
 */
static double stamp_at(const char *s, size_t n)
{
	bool iso = n >= 19 && s[4] == '-' && s[7] == '-' && (s[10] == ' ' || s[10] == 'T');
	bool us = n >= 19 && s[2] == '/' && s[5] == '/' && s[10] == ' ';
	int y, mo, d, h, mi, sec;
	double frac = 0, scale = 0.1;

	if (!iso && !us)
		return NAN;
	y = iso ? digits(s, 4) : digits(s + 6, 4);
	mo = iso ? digits(s + 5, 2) : digits(s, 2);
	d = iso ? digits(s + 8, 2) : digits(s + 3, 2);
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	sec = digits(s + 17, 2);
	if (s[13] != ':' || s[16] != ':' || y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60)
		return NAN;
	if (n > 20 && (s[19] == ',' || s[19] == '.'))
		for (size_t i = 20; i < n && i < 29 && s[i] >= '0' && s[i] <= '9'; i++, scale /= 10)
			frac += (s[i] - '0') * scale;
	return (double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + sec + frac;
}

/* The time a logger's prefix prints near the start of the line; NAN when none. */
static double line_time(const char *s, size_t n)
{
	for (size_t i = 0; i < n && i < 80; i++) {
		double t;

		if (s[i] < '0' || s[i] > '9' || (i && s[i - 1] >= '0' && s[i - 1] <= '9'))
			continue;
		t = stamp_at(s + i, n - i);
		if (!isnan(t))
			return t;
	}
	return NAN;
}

/* Hands the open save to the run: timed when it printed its time or two times bracket it. */
static void ckpt_finish(struct trainlog *st)
{
	struct ckpt_open *c = &st->ckpt;
	struct ckpt_save *save;

	if (!c->open)
		return;
	save = run_add_ckpt_save(st->ctx->run);
	save->src = SRCPOS_LINE(st->ctx->path, c->line);
	if (c->printed_s >= 0)
		save->write_s = c->printed_s;
	else if (c->end >= c->start)	/* false when either is NAN */
		save->write_s = c->end - c->start;
	c->open = false;
}

static void ckpt_begin(struct trainlog *st)
{
	st->ckpt = (struct ckpt_open){ .open = true, .line = st->lineno,
				       .start = line_time(st->seg, st->nseg), .end = NAN,
				       .printed_s = -1 };
}

/* A write time as printed: seconds, or -1 when the number is no time. */
static double printed_time(const struct hit *h)
{
	if (positive(h, F_CKPT_MS) >= 0)
		return h->v[F_CKPT_MS] / 1000.0;
	return positive(h, F_CKPT_S);
}

static void ckpt_time(struct trainlog *st, const struct hit *h, int rank)
{
	struct ckpt_open *c = &st->ckpt;

	if (rank > 0)
		return;		/* the same save as rank 0 times it */
	if (c->open && c->printed_s >= 0)
		ckpt_finish(st);
	if (!c->open)
		ckpt_begin(st);
	c->printed_s = printed_time(h);
	c->ended = true;
}

/* One line of a checkpoint save: the states are in struct ckpt_open. */
static void ckpt_line(struct trainlog *st, const struct row *r, const struct hit *h, int rank)
{
	struct ckpt_open *c = &st->ckpt;
	double t;

	if (r->kind & K_CKPT_TIME) {
		ckpt_time(st, h, rank);
		return;
	}
	if (rank > 0 && !(r->kind & K_CKPT_END))
		return;		/* rank 0 begins the save; every rank may end it later */
	if (r->kind & K_CKPT_BEGIN && c->open && c->ended)
		ckpt_finish(st);
	if (r->kind & (K_CKPT_BEGIN | K_CKPT_PART) && !c->open)
		ckpt_begin(st);
	if (!(r->kind & K_CKPT_END) || !c->open)
		return;		/* an end without its beginning times nothing */
	t = line_time(st->seg, st->nseg);
	if (isnan(c->end) || t > c->end)
		c->end = t;
	c->ended = true;
}

static void add_record(struct trainlog *st, const struct row *r, const struct hit *h)
{
	struct log_step *l;
	int64_t step = count(h, F_STEP);
	int64_t total = count(h, F_TOTAL_STEPS);

	if (!worth_recording(r, h))
		return;
	if (r->kind & K_PROGRESS && (step = progress_step(st, h)) < 0)
		return;
	if (ingest_keep_line(st->ctx, &st->limit, st->lineno) < 0)
		return;
	l = run_add_log_step(st->ctx->run);
	l->step = step;
	l->step_time_s = step_time(h);
	if (l->step_time_s < 0 && r->kind & K_LOCAL_TPS)
		l->step_time_s = local_tps_time(st, h);
	l->loss = h->has[F_LOSS] ? h->v[F_LOSS] : NAN;
	l->samples_per_s = positive(h, F_SAMPLES_PER_S);
	if (l->samples_per_s < 0 && l->step_time_s > 0 && positive(h, F_GLOBAL_BATCH) > 0)
		l->samples_per_s = h->v[F_GLOBAL_BATCH] / l->step_time_s;	/* Megatron */
	l->tokens_per_s = positive(h, F_TOKENS_PER_S);
	l->memory_bytes = apply_memory(st, h);
	st->ctx->src->events++;
	st->nsteps++;
	st->rec_this_line = true;
	ckpt_finish(st);	/* a save lies between two steps */
	if (step > st->max_step)
		st->max_step = step;
	if (l->step_time_s >= 0)
		push(&st->times, &st->ntimes, &st->cap_times, l->step_time_s);
	if (l->samples_per_s >= 0)
		push(&st->rates, &st->nrates, &st->cap_rates, l->samples_per_s);
	if (l->tokens_per_s >= 0)
		push(&st->tokens, &st->ntokens, &st->cap_tokens, l->tokens_per_s);
	add_model_flops(st, h);
	if (total > 0 && step >= total && !st->done_line)
		st->done_line = st->lineno;
}

static void add_oom(struct trainlog *st, const struct hit *h)
{
	st->oom_this_line = true;
	if (st->oom.src.file)
		return;		/* the first message is the one that stopped the job */
	oom_from_hit(h, &st->oom);
	st->oom.src = SRCPOS_LINE(st->ctx->path, st->lineno);
}

static void apply_summary(struct trainlog *st, const struct hit *h)
{
	struct srcpos pos = SRCPOS_LINE(st->ctx->path, st->lineno);
	struct run *run = st->ctx->run;

	if (!st->done_line)
		st->done_line = st->lineno;
	if (positive(h, F_TRAIN_RUNTIME) >= 0 && st->runtime < 0) {
		st->runtime = h->v[F_TRAIN_RUNTIME];
		fact_set_f64(&run->train_runtime_s, st->runtime, &pos);
	}
	if (positive(h, F_SAMPLES_PER_S) >= 0 && st->summary_rate < 0) {
		st->summary_rate = h->v[F_SAMPLES_PER_S];
		fact_set_f64(&run->train_samples_per_s, st->summary_rate, &pos);
	}
	if (positive(h, F_TOKENS_PER_S) >= 0 && st->summary_tokens < 0)
		st->summary_tokens = h->v[F_TOKENS_PER_S];
	if (positive(h, F_STEPS_PER_S) > 0)
		fact_set_f64(&run->train_steps_per_s, h->v[F_STEPS_PER_S], &pos);
}

/* Markers that say how the run went. */
static void apply_markers(struct trainlog *st, const struct row *r)
{
	if (r->kind & K_TRACEBACK)
		st->traceback_line = st->lineno;
	if (r->kind & K_ERROR && st->traceback_line && !st->failed_line)
		st->failed_line = st->lineno;
	if (r->kind & K_NO_BF16)
		st->no_bf16_line = st->lineno;
	if (r->kind & K_NO_FP16)
		st->no_fp16_line = st->lineno;
}

static void apply(struct trainlog *st, const struct row *r, const struct hit *h, int rank)
{
	if (!(r->kind & (K_TRACEBACK | K_ERROR)))
		st->found = true;
	set_framework(st, r);
	apply_facts(st, r, h);
	apply_markers(st, r);
	if (r->kind & K_OOM)
		add_oom(st, h);
	if (r->kind & K_CKPT)
		ckpt_line(st, r, h, rank);
	if (r->kind & K_MEMORY || r == &user_row)	/* users' lines may hold only memory */
		apply_memory(st, h);
	if (r->kind & K_DONE)
		apply_summary(st, h);
	else if (r->kind & K_RECORD && rank <= 0 && !st->rec_this_line)
		add_record(st, r, h);
}

/* Whether row r is worth trying on this segment. */
static bool wanted(const struct trainlog *st, const struct row *r)
{
	if (r->kind & K_OOM && st->oom_this_line)
		return false;
	if (r->kind & K_RECORD && st->rec_this_line)
		return false;
	if (r->kind & K_ERROR && (!st->traceback_line || st->failed_line))
		return false;
	return true;
}

static void try_rows(struct trainlog *st, const struct compiled *c, const struct row *r,
		     bool user_rows, size_t n, const char *s, size_t len, int rank)
{
	struct hit h;

	for (size_t i = 0; i < n; i++) {
		const struct row *row = user_rows ? &user_row : &r[i];

		if (!wanted(st, row) || !try_match(&c[i], row, st->md, s, len))
			continue;
		read_hit(&c[i], st->md, s, &h);
		apply(st, row, &h, rank);
	}
}

/* The rank a launcher's prefix names ("[rank1]:", "1: "...); -1 none. */
static int prefix_rank(struct trainlog *st, const char *s, size_t n)
{
	PCRE2_SIZE *ov;

	if (pcre2_match(prefix_re, (PCRE2_SPTR)s, n, 0, 0, st->md, mctx) < 0)
		return -1;
	ov = pcre2_get_ovector_pointer(st->md);
	return ov[3] - ov[2] > 6 ? -1 : atoi(s + ov[2]);
}

static void segment(struct trainlog *st, const char *s, size_t n)
{
	int rank = prefix_rank(st, s, n);

	st->seg = s;
	st->nseg = n;
	st->rec_this_line = false;
	st->oom_this_line = false;
	try_rows(st, user, NULL, true, nuser, s, n, rank);
	try_rows(st, builtin, rows, false, NROWS, s, n, rank);
}

/* Drops ANSI colour codes (ESC [ digits ; m) into st->clean. */
static void strip_ansi(struct trainlog *st, const char *s, size_t n)
{
	size_t i = 0;

	buf_reset(&st->clean);
	while (i < n) {
		const char *esc = memchr(s + i, '\x1b', n - i);
		size_t take = esc ? (size_t)(esc - (s + i)) : n - i;
		size_t j;

		buf_add(&st->clean, s + i, take);
		i += take;
		if (!esc)
			break;
		j = i + 1;
		if (j < n && s[j] == '[') {
			j++;
			while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';'))
				j++;
			if (j < n && s[j] == 'm')
				j++;
		}
		i = j;
	}
}

/* A line may hold several carriage-return-separated progress updates. */
static int tl_line(void *p, const char *line, size_t len, int64_t lineno)
{
	struct trainlog *st = p;

	st->lineno = lineno;
	if (memchr(line, '\x1b', len)) {
		strip_ansi(st, line, len);
		line = st->clean.data;
		len = st->clean.len;
	}
	while (len) {
		const char *cr = memchr(line, '\r', len);
		size_t n = cr ? (size_t)(cr - line) : len;

		if (n)
			segment(st, line, n);
		if (!cr)
			break;
		line += n + 1;
		len -= n + 1;
	}
	return st->limit.capped ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const int status_rank[] = {
	[RUN_UNKNOWN] = 0, [RUN_INCOMPLETE] = 1, [RUN_COMPLETED] = 2,
	[RUN_FAILED] = 3, [RUN_FAILED_OOM] = 4,
};

/* How this file says the run ended; the run keeps the gravest of its files'. */
static void decide_status(struct trainlog *st)
{
	struct run *run = st->ctx->run;
	int64_t total = st->facts.steps.set ? st->facts.steps.v : run->logged.steps.v;

	if (st->oom.src.file) {
		st->status = RUN_FAILED_OOM;
		st->status_src = st->oom.src;
	} else if (st->done_line) {
		st->status = RUN_COMPLETED;
		st->status_src = SRCPOS_LINE(st->ctx->path, st->done_line);
	} else if (st->failed_line) {
		st->status = RUN_FAILED;
		st->status_src = SRCPOS_LINE(st->ctx->path, st->failed_line);
	} else if (st->nsteps && st->max_step >= 0 && total > 0 && st->max_step < total) {
		st->status = RUN_INCOMPLETE;
		st->status_src = SRCPOS_LINE(st->ctx->path, st->lineno);
	}
	if (status_rank[st->status] > status_rank[run->status]) {
		run->status = st->status;
		run->status_src = st->status_src;
	}
	if (st->oom.src.file && !run->oom.src.file)
		run->oom = st->oom;
}

/* DeepSpeed with both bf16 and fp16 off trains in fp32. */
static void deepspeed_fp32(struct trainlog *st)
{
	int64_t line = st->no_bf16_line > st->no_fp16_line ? st->no_bf16_line : st->no_fp16_line;

	if (st->facts.precision.v || !st->no_bf16_line || !st->no_fp16_line)
		return;
	set_precision(st, "fp32", line);
}

static void info_fact(struct arena *a, struct info *o, const char *key, const struct fact_i64 *f)
{
	if (f->set)
		info_int(a, o, key, f->v);
	else
		info_null(a, o, key);
}

static void info_bytes(struct arena *a, struct info *o, const char *key, int64_t v)
{
	if (v >= 0)
		info_int(a, o, key, v);
	else
		info_null(a, o, key);
}

static void describe_oom(struct trainlog *st, struct info *train)
{
	struct arena *a = st->ctx->arena;
	const struct run_oom *m = &st->oom;
	struct info *o;

	if (!m->src.file) {
		info_null(a, train, "oom");
		return;
	}
	o = info_obj(a, train, "oom");
	info_bytes(a, o, "tried_bytes", m->tried_bytes);
	info_bytes(a, o, "capacity_bytes", m->capacity_bytes);
	info_bytes(a, o, "allocated_bytes", m->allocated_bytes);
	info_bytes(a, o, "free_bytes", m->free_bytes);
	info_bytes(a, o, "reserved_bytes", m->reserved_bytes);
	info_int(a, o, "line", m->src.line);
}

/*
 * The median of a file's per-iteration values in log order, over the steady
 * ones: from three values on, the first (whose interval holds the start-up)
 * is left out. NAN when there are none.
 */
static double steady_median(double *v, size_t n)
{
	size_t skip = n >= 3;

	return n ? median(v + skip, n - skip) : NAN;	/* v is NULL when n is 0 */
}

static void describe_throughput(struct trainlog *st, struct info *o)
{
	struct arena *a = st->ctx->arena;
	bool iter = st->nrates || st->ntokens;
	bool summary = st->summary_rate >= 0 || st->summary_tokens >= 0;

	info_num(a, o, "samples_per_s", iter ? steady_median(st->rates, st->nrates) :
		 st->summary_rate >= 0 ? st->summary_rate : NAN);
	info_num(a, o, "tokens_per_s", iter ? steady_median(st->tokens, st->ntokens) :
		 st->summary_tokens >= 0 ? st->summary_tokens : NAN);
	info_str(a, o, "throughput_source", iter ? "iterations" : summary ? "summary" : NULL);
	info_bytes(a, o, "peak_memory_bytes", st->reserved_peak ? st->reserved_peak :
		   st->allocated_peak ? st->allocated_peak : -1);
}

/*
 * torchtitan's tflops and mfu: the steady median of the file's records, as
 * facts of the run (at the first line that printed them) and in `train`.
 */
static void model_flops(struct trainlog *st, struct info *o)
{
	struct srcpos pos = SRCPOS_LINE(st->ctx->path, st->tflops_line);
	double tflops = steady_median(st->tflops, st->ntflops);
	double mfu = steady_median(st->mfu, st->nmfu);

	if (!isnan(tflops))
		fact_set_f64(&st->ctx->run->log_tflops, tflops, &pos);
	if (!isnan(mfu))
		fact_set_f64(&st->ctx->run->log_mfu, mfu, &pos);
	info_num(st->ctx->arena, o, "tflops", tflops);
	info_num(st->ctx->arena, o, "mfu", mfu);
}

static void describe(struct trainlog *st)
{
	struct arena *a = st->ctx->arena;
	struct info *o = info_obj(a, st->ctx->info, "train");

	info_str(a, o, "framework", framework_names[st->fw]);
	info_fact(a, o, "global_batch", &st->facts.global_batch);
	info_fact(a, o, "micro_batch", &st->facts.micro_batch);
	info_fact(a, o, "grad_accum", &st->facts.grad_accum);
	info_int(a, o, "steps", (int64_t)st->nsteps);
	info_str(a, o, "status", st->status ? run_status_name(st->status) : NULL);
	info_str(a, o, "precision", st->facts.precision.v);
	info_num(a, o, "step_time_s_median", median(st->times, st->ntimes));
	describe_oom(st, o);
	info_num(a, o, "train_runtime_s", st->runtime >= 0 ? st->runtime : NAN);
	describe_throughput(st, o);
	model_flops(st, o);
}

static int tl_finish(void *p)
{
	struct trainlog *st = p;

	ckpt_finish(st);
	if (!st->found)
		return 0;
	deepspeed_fp32(st);
	decide_status(st);
	describe(st);
	return 0;
}

static bool tl_found(void *p)
{
	return ((struct trainlog *)p)->found;
}

static void tl_free(void *p)
{
	struct trainlog *st = p;

	pcre2_match_data_free(st->md);
	buf_release(&st->clean);
	xgrow_free(&st->times, &st->cap_times, sizeof(*st->times));
	xgrow_free(&st->rates, &st->cap_rates, sizeof(*st->rates));
	xgrow_free(&st->tokens, &st->cap_tokens, sizeof(*st->tokens));
	xgrow_free(&st->tflops, &st->cap_tflops, sizeof(*st->tflops));
	xgrow_free(&st->mfu, &st->cap_mfu, sizeof(*st->mfu));
	free(st);
}

const struct reader trainlog_reader = {
	.name = "train-log",
	.input = READ_LINES,
	.open = tl_open,
	.line = tl_line,
	.finish = tl_finish,
	.found = tl_found,
	.free = tl_free,
};

/* ---- users' patterns ------------------------------------------------- */

static void free_compiled(struct compiled *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pcre2_code_free(c[i].code);
	free(c);
}

void trainlog_clear_patterns(void)
{
	free_compiled(user, nuser);
	user = NULL;
	nuser = 0;
}

static bool captures_any(const struct compiled *c)
{
	for (int f = 0; f < NFIELD; f++)
		if (c->group[f] >= 0)
			return true;
	return false;
}

/* Compiles one pattern line into *c; -1 after reporting why not. */
static int compile_user(const char *path, int64_t lineno, const char *re, size_t len,
			struct compiled *c, struct diags *d)
{
	struct srcpos pos = SRCPOS_LINE(path, lineno);
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int err;

	c->code = compile(re, len, &err, &off);
	if (!c->code) {
		pcre2_get_error_message(err, msg, sizeof(msg));
		return diag_error(d, "bad-pattern", &pos, "bad pattern: %s at offset %zu",
				  (const char *)msg, (size_t)off);
	}
	find_groups(c);
	if (!captures_any(c)) {
		pcre2_code_free(c->code);
		c->code = NULL;
		return diag_error(d, "bad-pattern", &pos,
				  "bad pattern: no named group scaleaudit reads (step, step_time, "
				  "loss, samples_per_s, tokens_per_s, memory_gib, global_batch, "
				  "micro_batch, grad_accum, precision)");
	}
	return 0;
}

static bool blank_or_comment(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i == n || s[i] == '#';
}

int trainlog_load_patterns(const char *path, struct diags *d)
{
	FILE *f = fopen(path, "r");
	struct srcpos pos = SRCPOS_FILE(path);
	struct compiled *c = NULL;
	size_t n = 0, cap = 0, size = 0;
	char *line = NULL;
	ssize_t len;
	int64_t lineno = 0;
	int bad = 0;

	if (!f)
		return diag_error(d, "unreadable", &pos, "%s", strerror(errno));
	if (compile_builtin() < 0) {
		fclose(f);
		return diag_error(d, "internal", &pos, "a built-in pattern does not compile");
	}
	while ((len = getline(&line, &size, f)) >= 0) {
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (blank_or_comment(line, (size_t)len))
			continue;
		xgrow(&c, &cap, n + 1, sizeof(*c));
		if (compile_user(path, lineno, line, (size_t)len, &c[n], d) < 0)
			bad = -1;
		else
			n++;
	}
	free(line);
	fclose(f);
	if (bad) {
		free_compiled(c, n);
		return -1;
	}
	trainlog_clear_patterns();
	user = c;
	nuser = n;
	return 0;
}
