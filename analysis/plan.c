#include "analysis/plan.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/rental.h"
#include "analysis/thresholds.h"
#include "core/count.h"
#include "core/manifest_keys.h"

#define DAY_S 86400.0
#define PLAN_MAX_SIZE 1000000000	/* micro batch, sequence, shape, accumulation: at most */
#define PLAN_MAX_COUNT 1e18		/* parameters, samples, tokens: at most */

/* The stated defaults (docs/plan.md). */
#define PLAN_DEFAULT_GPUS 2
#define PLAN_DEFAULT_CONTEXT_BYTES 1e9		/* CUDA context, cuBLAS/cuDNN workspaces and kernels */
#define PLAN_DEFAULT_NCCL_BYTES 0.5e9		/* NCCL channel buffers and communicator state */
#define PLAN_DEFAULT_FRAGMENTATION 0.05		/* of the allocated bytes, lost in the caching allocator */
#define PLAN_DEFAULT_MFU 0.40			/* of the GPU's dense peak in the training precision */
#define PLAN_DEFAULT_CKPT_WRITE_GBPS 2.0	/* a checkpoint written to local NVMe */

static const char *const strategy_names[PLAN_NSTRATEGY + 1] = {
	"single", "ddp", "zero1", "zero2", "zero3", "fsdp", "pipeline", "tensor", NULL,
};
static const char *const optimizer_names[PLAN_NOPTIMIZER] = { "adam", "sgd", "adafactor", "adam8bit" };

/* Every spelling of an optimizer plan takes; the names the memory model counts it as. */
const struct plan_optimizer_alias plan_optimizer_aliases[] = {
	{ "adam", PLAN_ADAM }, { "adamw", PLAN_ADAM }, { "sgd", PLAN_SGD },
	{ "adafactor", PLAN_ADAFACTOR }, { "adam8bit", PLAN_ADAM8BIT },
	{ "adamw8bit", PLAN_ADAM8BIT }, { NULL, PLAN_ADAM },
};
static const char *const checkpointing_names[] = { "none", "selective", "full", NULL };
static const char *const attention_names[] = { "eager", "flash", NULL };
static const char *const hypotheses[] = { "step-time", "global-batch", "feasibility", NULL };
static const char *const questions[] = { "single-config", "hparam-sweep", NULL };

/*
 * Sizes and shapes from each model's public configuration (config.json of
 * its Hugging Face repository, the paper for the ZeRO model); params is the
 * count the released checkpoint holds.
 */
static const struct plan_known_model known[] = {
	{ "llama-3-8b", 8030261248, 4096, 32, 32, 128256,
	  "meta-llama/Meta-Llama-3-8B config.json" },
	{ "llama-3-70b", 70553706496, 8192, 80, 64, 128256,
	  "meta-llama/Meta-Llama-3-70B config.json" },
	{ "llama-2-7b", 6738415616, 4096, 32, 32, 32000, "meta-llama/Llama-2-7b-hf config.json" },
	{ "llama-2-13b", 13015864320, 5120, 40, 40, 32000, "meta-llama/Llama-2-13b-hf config.json" },
	{ "mistral-7b", 7241732096, 4096, 32, 32, 32000, "mistralai/Mistral-7B-v0.1 config.json" },
	{ "gpt2-xl", 1557611200, 1600, 48, 25, 50257, "openai-community/gpt2-xl config.json (GPT-2 1.5B)" },
	{ "zero-7.5b", 7.5e9, -1, -1, -1, -1,
	  "Rajbhandari et al. 2020, ZeRO, section 3 (the 7.5B example; no shape given)" },
};

#define NKNOWN (sizeof(known) / sizeof(known[0]))

const struct plan_known_model *plan_known_models(size_t *n)
{
	*n = NKNOWN;
	return known;
}

const struct plan_known_model *plan_model_find(const char *name)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (!strcasecmp(known[i].name, name))
			return &known[i];
	return NULL;
}

const char *plan_strategy_name(enum plan_strategy s)
{
	return s < PLAN_NSTRATEGY ? strategy_names[s] : "unknown";
}

static int index_of(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n && list[i]; i++)
		if (!strcmp(list[i], s))
			return (int)i;
	return -1;
}

int plan_strategy_parse(const char *s)
{
	return index_of(strategy_names, PLAN_NSTRATEGY, s);
}

const char *plan_optimizer_name(enum plan_optimizer o)
{
	return optimizer_names[o];
}

const char *plan_checkpointing_name(enum plan_checkpointing c)
{
	return checkpointing_names[c];
}

const char *plan_attention_name(enum plan_attention a)
{
	return attention_names[a];
}

void plan_inputs_init(struct plan_inputs *in)
{
	*in = (struct plan_inputs){
		.params = NAN, .hidden = -1, .layers = -1, .heads = -1, .vocab = -1,
		.micro_batch = -1, .seq_len = -1, .grad_accum = 1, .gpus = PLAN_DEFAULT_GPUS,
		.precision = DT_BF16, .optimizer = PLAN_ADAM, .checkpointing = PLAN_CKPT_NONE,
		.strategy = -1, .expected_speedup = NAN, .target_samples = -1, .target_tokens = -1,
		.price = NAN, .reserve_bytes = NAN, .context_bytes = PLAN_DEFAULT_CONTEXT_BYTES,
		.nccl_bytes = PLAN_DEFAULT_NCCL_BYTES, .fragmentation = PLAN_DEFAULT_FRAGMENTATION,
		.mfu = PLAN_DEFAULT_MFU, .ckpt_write_gbps = PLAN_DEFAULT_CKPT_WRITE_GBPS,
		.mtbf_hours = RENTAL_MTBF_HOURS_DEFAULT, .margin = RENTAL_MARGIN_DEFAULT,
		.lot_gpus = RENTAL_LOT_GPUS_DEFAULT, .optimizer_name = "adam",
		.measured = { .gpus = { -1, -1 }, .strategy = { -1, -1 }, .tokens_per_s = { NAN, NAN },
			      .samples_per_s = { NAN, NAN }, .peak_bytes = { NAN, NAN },
			      .efficiency = NAN },
	};
}

/* --- setting inputs by key --- */

double plan_parse_count(const char *s)
{
	double v = count_parse(s);

	return v > 0 ? v : NAN;
}

static int fail(char *err, size_t errsize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errsize, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsize, fmt, ap);
	va_end(ap);
	return -1;
}

/* A whole number from min to PLAN_MAX_SIZE, or -1 with the message. */
static int parse_int(const char *key, const char *v, int64_t min, int64_t *out, char *err,
		     size_t errsize)
{
	if (!count_parse_whole(v, min, PLAN_MAX_SIZE, out))
		return fail(err, errsize, "%s: '%s' is not a whole number from %lld to %lld", key, v,
			    (long long)min, (long long)PLAN_MAX_SIZE);
	return 0;
}

/* A number in [min, max], or -1 with the message. */
static int parse_num(const char *key, const char *v, double min, double max, double *out,
		     char *err, size_t errsize)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(d) || d < min || d > max)
		return fail(err, errsize, "%s: '%s' is not a number from %g to %g", key, v, min, max);
	*out = d;
	return 0;
}

/* One of list (NULL-ended), or -1 with "key: 'v' is not a, b or c". */
static int parse_choice(const char *key, const char *v, const char *const *list, int *out,
			char *err, size_t errsize)
{
	char names[160] = "";
	size_t n = 0;
	int i = index_of(list, 64, v);

	if (i >= 0) {
		*out = i;
		return 0;
	}
	while (list[n])
		n++;
	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(names);

		snprintf(names + len, sizeof(names) - len, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ",
			 list[k]);
	}
	return fail(err, errsize, "%s: '%s' is not %s", key, v, names);
}

static int set_count(const char *key, const char *v, double *out, char *err, size_t errsize)
{
	double d = plan_parse_count(v);

	if (isnan(d))
		return fail(err, errsize, "%s: '%s' is not a count (7e9, 7B, 1.5B)", key, v);
	if (d > PLAN_MAX_COUNT)
		return fail(err, errsize, "%s: '%s' is more than %g", key, v, PLAN_MAX_COUNT);
	*out = d;
	return 0;
}

/* "gpu: 'H100' is one of H100 SXM, H100 PCIe, H100 NVL: say which", or unknown. */
static int unknown_gpu(const char *name, char *err, size_t errsize)
{
	size_t n, len = 0, found = 0;
	const struct gpu_model *m = gpu_models(&n);
	char rows[160] = "";

	for (size_t i = 0; i < n; i++) {
		if (!m[i].family || strcasecmp(m[i].family, name))
			continue;
		len += (size_t)snprintf(rows + len, len < sizeof(rows) ? sizeof(rows) - len : 0, "%s%s",
					found++ ? ", " : "", m[i].name);
		if (len >= sizeof(rows))
			len = sizeof(rows);
	}
	if (found)
		return fail(err, errsize, "gpu: '%s' is one of %s: say which", name, rows);
	return fail(err, errsize, "gpu: '%s' is not a GPU model scaleaudit knows", name);
}

static int set_gpu(struct plan_inputs *in, const char *v, char *err, size_t errsize)
{
	const char *p = v;

	while (*p) {
		size_t len = strcspn(p, ",");
		char name[96];
		const struct gpu_model *g;

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		g = len < sizeof(name) ? gpu_lookup(name, -1) : NULL;
		if (!g)
			return unknown_gpu(name, err, errsize);
		if (in->ngpu == PLAN_MAX_GPUS)
			return fail(err, errsize, "gpu: more than %d GPU models", PLAN_MAX_GPUS);
		in->gpu[in->ngpu++] = g;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* The shape of a known model fills in what was not set. */
static int set_model(struct plan_inputs *in, const char *v, char *err, size_t errsize)
{
	const struct plan_known_model *m = plan_model_find(v);

	if (!m)
		return fail(err, errsize, "model: '%s' is not a model scaleaudit knows", v);
	in->model = m->name;
	if (isnan(in->params))
		in->params = m->params;
	if (in->hidden < 0)
		in->hidden = m->hidden;
	if (in->layers < 0)
		in->layers = m->layers;
	if (in->heads < 0)
		in->heads = m->heads;
	if (in->vocab < 0)
		in->vocab = m->vocab;
	return 0;
}

static int set_precision(struct plan_inputs *in, const char *v, char *err, size_t errsize)
{
	enum dtype t = precision_parse(v, strlen(v));

	if (t != DT_BF16 && t != DT_FP16 && t != DT_FP32)
		return fail(err, errsize, "precision: '%s' is not bf16, fp16 or fp32", v);
	in->precision = t;
	return 0;
}

static int set_gb(const char *key, const char *v, double *out, char *err, size_t errsize)
{
	double gb;

	if (parse_num(key, v, 0, 1e6, &gb, err, errsize) < 0)
		return -1;
	*out = gb * 1e9;
	return 0;
}

static const struct plan_key keys[] = {
	{ "model", "llama-3-8b, llama-3-70b, llama-2-7b, llama-2-13b, mistral-7b, gpt2-xl, zero-7.5b",
	  "a known model: its parameter count and shape fill in what is not given" },
	{ "params", "a count: 7e9, 7B, 1.5B, 350M", "parameter count" },
	{ "gpu", "a GPU model scaleaudit knows (H200, B200, H100 SXM, MI300X...); a comma list for several",
	  "the GPU models to fit, the first is the one to rent" },
	{ "gpus", "a whole number, 2 to 1e9 (default 2)", "GPUs of the multi-GPU strategies" },
	{ "strategy", "single, ddp, zero1, zero2, zero3, fsdp, pipeline or tensor (default all)",
	  "show this strategy only" },
	{ "micro_batch", "a whole number, 1 to 1e9", "sequences per GPU per forward pass" },
	{ "seq_len", "a whole number, 1 to 1e9", "tokens per sequence" },
	{ "hidden", "a whole number, 1 to 1e9", "hidden size" },
	{ "layers", "a whole number, 1 to 1e9", "transformer layers" },
	{ "heads", "a whole number, 1 to 1e9", "attention heads" },
	{ "vocab", "a whole number, 1 to 1e9", "vocabulary size" },
	{ "precision", "bf16, fp16 (mixed: fp32 master weights) or fp32 (default bf16)",
	  "weights and gradients" },
	{ "optimizer", "adam, adamw, sgd (with momentum), adafactor, adam8bit or adamw8bit (default adam)",
	  "optimizer" },
	{ "bucket_view", "yes or no (default no; --bucket-view alone: yes)",
	  "DDP runs with gradient_as_bucket_view=True: its gradient buckets are no second copy" },
	{ "checkpointing", "none, selective or full (default none)", "activation checkpointing" },
	{ "attention", "eager or flash (default eager)",
	  "flash: FlashAttention or PyTorch SDPA, whose attention scores are never stored" },
	{ "grad_accum", "a whole number, 1 to 1e9 (default 1)",
	  "micro-batches per optimizer step (a pipeline's micro-batches)" },
	{ "hypothesis", "step-time, global-batch or feasibility", "what the 2-GPU run is to show" },
	{ "title", "one line of text, up to 180 characters", "the trial's title, written to trial.ini" },
	{ "expected_speedup", "a number > 0 (the analysis' default 1.1)",
	  "the speedup that confirms the hypothesis" },
	{ "question", "single-config or hparam-sweep", "one long run, or many independent ones" },
	{ "target_samples", "a count: 1e6, 10M", "samples the campaign must process" },
	{ "target_tokens", "a count: 2e10, 20B", "tokens the campaign must process" },
	{ "price", "a number >= 0", "price per GPU-hour" },
	{ "currency", "a code or a symbol of 1 to 8 characters without spaces (USD, EUR, $)",
	  "what price is in, shown with every cost and written to trial.ini" },
	{ "memory_reserve_gb", "GB >= 0 (default: context + NCCL + fragmentation)",
	  "the whole run-time reserve per GPU, replacing the three parts" },
	{ "context_gb", "GB >= 0 (default 1)", "CUDA context, library workspaces and kernels per GPU" },
	{ "nccl_gb", "GB >= 0 (default 0.5)", "NCCL buffers per GPU of a multi-GPU strategy" },
	{ "fragmentation", "a share from 0 to 1 (default 0.05)",
	  "of the allocated bytes lost to the caching allocator" },
	{ "mfu", "a share above 0 up to 1 (default 0.4)",
	  "model FLOPs utilisation assumed for the throughput estimate" },
	{ "ckpt_write_gbps", "GB/s > 0 (default 2)", "checkpoint write bandwidth" },
	{ "mtbf_hours", "hours > 0 (default 24)", "mean time between failures of the rented machine" },
	{ "margin", "a share >= 0 (default 0.15)",
	  "room over the days needed when a rental window is chosen" },
	{ "lot_gpus", "a whole number, 1 to 1e9 (default 2)", "GPUs per rented lot" },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

const struct plan_key *plan_keys(size_t *n)
{
	*n = NKEYS;
	return keys;
}

/* The key with '-' read as '_'; NULL when none. */
static const char *key_name(const char *key)
{
	char k[32];
	size_t i;

	for (i = 0; key[i] && i + 1 < sizeof(k); i++)
		k[i] = key[i] == '-' ? '_' : key[i];
	k[i] = 0;
	for (size_t j = 0; j < NKEYS; j++)
		if (!strcmp(keys[j].name, k))
			return keys[j].name;
	return NULL;
}

/* An optimizer by any of its spellings (plan_optimizer_aliases). */
static int set_optimizer(struct plan_inputs *in, const char *v, char *err, size_t errsize)
{
	const char *names[sizeof(plan_optimizer_aliases) / sizeof(plan_optimizer_aliases[0])];
	size_t n = 0;
	int i;

	for (const struct plan_optimizer_alias *a = plan_optimizer_aliases; a->name; a++)
		names[n++] = a->name;
	names[n] = NULL;
	if (parse_choice("optimizer", v, names, &i, err, errsize) < 0)
		return -1;
	in->optimizer = plan_optimizer_aliases[i].optimizer;
	in->optimizer_name = plan_optimizer_aliases[i].name;
	return 0;
}

static int set_bucket_view(struct plan_inputs *in, const char *v, char *err, size_t errsize)
{
	static const char *const words[] = { "no", "yes", "false", "true", "0", "1", NULL };
	int i;

	if (parse_choice("bucket_view", v, words, &i, err, errsize) < 0)
		return -1;
	in->bucket_view = i % 2;
	return 0;
}

static int set_choice_key(struct plan_inputs *in, const char *k, const char *v, char *err,
			  size_t errsize)
{
	int i;

	if (!strcmp(k, "strategy")) {
		if (parse_choice(k, v, strategy_names, &i, err, errsize) < 0)
			return -1;
		in->strategy = i;
	} else if (!strcmp(k, "optimizer")) {
		return set_optimizer(in, v, err, errsize);
	} else if (!strcmp(k, "checkpointing")) {
		if (parse_choice(k, v, checkpointing_names, &i, err, errsize) < 0)
			return -1;
		in->checkpointing = (enum plan_checkpointing)i;
	} else if (!strcmp(k, "attention")) {
		if (parse_choice(k, v, attention_names, &i, err, errsize) < 0)
			return -1;
		in->attention = (enum plan_attention)i;
	} else if (!strcmp(k, "hypothesis")) {
		if (parse_choice(k, v, hypotheses, &i, err, errsize) < 0)
			return -1;
		in->hypothesis = hypotheses[i];
	} else {
		if (parse_choice(k, v, questions, &i, err, errsize) < 0)
			return -1;
		in->question = questions[i];
	}
	return 0;
}

/* Where each whole-number key goes, and its least value. */
static int64_t *int_field(struct plan_inputs *in, const char *k, int64_t *min)
{
	static const struct { const char *name; size_t off; int64_t min; } f[] = {
		{ "micro_batch", offsetof(struct plan_inputs, micro_batch), 1 },
		{ "seq_len", offsetof(struct plan_inputs, seq_len), 1 },
		{ "hidden", offsetof(struct plan_inputs, hidden), 1 },
		{ "layers", offsetof(struct plan_inputs, layers), 1 },
		{ "heads", offsetof(struct plan_inputs, heads), 1 },
		{ "vocab", offsetof(struct plan_inputs, vocab), 1 },
		{ "grad_accum", offsetof(struct plan_inputs, grad_accum), 1 },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcmp(f[i].name, k)) {
			*min = f[i].min;
			return (int64_t *)((char *)in + f[i].off);
		}
	return NULL;
}

/* Where each number key goes, its range, and its unit factor. */
static int set_number_key(struct plan_inputs *in, const char *k, const char *v, char *err,
			  size_t errsize)
{
	static const struct { const char *name; size_t off; double min, max; } f[] = {
		{ "expected_speedup", offsetof(struct plan_inputs, expected_speedup), 1e-9, 1e6 },
		{ "price", offsetof(struct plan_inputs, price), 0, 1e9 },
		{ "fragmentation", offsetof(struct plan_inputs, fragmentation), 0, 1 },
		{ "mfu", offsetof(struct plan_inputs, mfu), 1e-6, 1 },
		{ "ckpt_write_gbps", offsetof(struct plan_inputs, ckpt_write_gbps), 1e-6, 1e6 },
		{ "mtbf_hours", offsetof(struct plan_inputs, mtbf_hours), 1e-6, 1e9 },
		{ "margin", offsetof(struct plan_inputs, margin), 0, 100 },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcmp(f[i].name, k))
			return parse_num(k, v, f[i].min, f[i].max, (double *)((char *)in + f[i].off), err,
					 errsize);
	if (!strcmp(k, "memory_reserve_gb"))
		return set_gb(k, v, &in->reserve_bytes, err, errsize);
	if (!strcmp(k, "context_gb"))
		return set_gb(k, v, &in->context_bytes, err, errsize);
	return set_gb(k, v, &in->nccl_bytes, err, errsize);
}

static int set_target(struct plan_inputs *in, const char *k, const char *v, char *err,
		      size_t errsize)
{
	double d = NAN;

	if (set_count(k, v, &d, err, errsize) < 0)
		return -1;
	*(!strcmp(k, "target_samples") ? &in->target_samples : &in->target_tokens) = (int64_t)llround(d);
	return 0;
}

/* The title, copied: inih's value buffer does not outlive the line. */
static int set_title(struct plan_inputs *in, const char *v, char *err, size_t errsize)
{
	size_t n = strlen(v);

	if (n >= sizeof(in->title))
		return fail(err, errsize, "title: longer than %zu characters", sizeof(in->title) - 1);
	if (strpbrk(v, "\r\n"))
		return fail(err, errsize, "title: one line of text, without a line break");
	for (const char *p = v; *p; p++)	/* the trial.ini plan -o writes would refuse its line */
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
			return fail(err, errsize, "title: control character 0x%02x: not allowed in a manifest",
				    (unsigned char)*p);
	memcpy(in->title, v, n + 1);
	return 0;
}

/* The currency, copied, as trial.ini's `currency` takes it. */
static int set_currency(struct plan_inputs *in, const char *v, char *err, size_t errsize)
{
	if (!manifest_currency_valid(v) || strlen(v) >= sizeof(in->currency))
		return fail(err, errsize, "currency: '%s' is not a code or a symbol of 1 to 8 characters "
			    "without spaces (USD, EUR, $)", v);
	memcpy(in->currency, v, strlen(v) + 1);
	return 0;
}

int plan_set(struct plan_inputs *in, const char *key, const char *value, char *err, size_t errsize)
{
	const char *k = key_name(key);
	int64_t min, *ip;

	if (!k)
		return fail(err, errsize, "'%s' is not a plan key", key);
	if ((ip = int_field(in, k, &min)))
		return parse_int(k, value, min, ip, err, errsize);
	if (!strcmp(k, "params"))
		return set_count(k, value, &in->params, err, errsize);
	if (!strcmp(k, "model"))
		return set_model(in, value, err, errsize);
	if (!strcmp(k, "gpu"))
		return set_gpu(in, value, err, errsize);
	if (!strcmp(k, "precision"))
		return set_precision(in, value, err, errsize);
	if (!strcmp(k, "title"))
		return set_title(in, value, err, errsize);
	if (!strcmp(k, "currency"))
		return set_currency(in, value, err, errsize);
	if (!strcmp(k, "gpus") || !strcmp(k, "lot_gpus")) {
		int64_t n;

		if (parse_int(k, value, *k == 'g' ? 2 : 1, &n, err, errsize) < 0)
			return -1;
		*(*k == 'g' ? &in->gpus : &in->lot_gpus) = (int)n;
		return 0;
	}
	if (!strcmp(k, "bucket_view"))
		return set_bucket_view(in, value, err, errsize);
	if (!strcmp(k, "target_samples") || !strcmp(k, "target_tokens"))
		return set_target(in, k, value, err, errsize);
	if (!strcmp(k, "strategy") || !strcmp(k, "optimizer") || !strcmp(k, "checkpointing") ||
	    !strcmp(k, "attention") || !strcmp(k, "hypothesis") || !strcmp(k, "question"))
		return set_choice_key(in, k, value, err, errsize);
	return set_number_key(in, k, value, err, errsize);
}

int plan_check(const struct plan_inputs *in, char *err, size_t errsize)
{
	if (isnan(in->params))
		return fail(err, errsize, "no parameter count: give --params N or --model NAME");
	if (!in->ngpu)
		return fail(err, errsize, "no GPU model: give --gpu MODEL (H200, B200...)");
	return 0;
}

/* --- the model --- */

/* Bytes per element of weights and gradients. */
static double state_bytes(const struct plan_inputs *in)
{
	return dtype_size(in->precision);
}

/*
 * K: optimizer bytes per parameter, the fp32 master copy included under
 * mixed precision (ZeRO section 3.1: K = 12 for mixed-precision Adam).
 * Adafactor's factored second moments (about 8/hidden bytes a parameter) are
 * left out; it keeps no first moment by default. 8-bit Adam (Dettmers et al.
 * 2022, "8-bit Optimizers via Block-wise Quantization") keeps both moments in
 * one byte each; its per-block scales (a float per 2048 values) are left out.
 */
static double optimizer_k(const struct plan_inputs *in)
{
	static const double fp32_states[] = {
		[PLAN_ADAM] = 8, [PLAN_SGD] = 4, [PLAN_ADAFACTOR] = 0, [PLAN_ADAM8BIT] = 2,
	};
	double master = in->precision == DT_FP32 ? 0 : 4;

	return master + fp32_states[in->optimizer];
}

/*
 * Activation bytes of one layer for one micro-batch, t-way tensor parallel
 * (t = 1 without): Korthikanti et al. 2022, table 2, for 16-bit activations;
 * fp32 doubles it. Flash attention never stores the 5as/h scores, as
 * selective recomputation does not. NaN when the shape is unknown.
 */
static double activation_layer(const struct plan_inputs *in, int t)
{
	double s = (double)in->seq_len, b = (double)in->micro_batch, h = (double)in->hidden;
	double a = (double)in->heads, scale = in->precision == DT_FP32 ? 2 : 1;
	double sbh = s * b * h;

	if (in->seq_len < 0 || in->micro_batch < 0 || in->hidden < 0 || in->heads < 0)
		return NAN;
	switch (in->checkpointing) {
	case PLAN_CKPT_FULL:
		return scale * 2 * sbh;
	case PLAN_CKPT_SELECTIVE:
		return scale * sbh * (10 + 24.0 / t);
	case PLAN_CKPT_NONE:
		break;
	}
	if (in->attention == PLAN_ATTN_FLASH)
		return scale * sbh * (10 + 24.0 / t);
	return scale * sbh * (10 + 24.0 / t + 5 * a * s / (h * t));
}

static double activations(const struct plan_inputs *in, int t)
{
	if (in->layers < 0)
		return NAN;
	return (double)in->layers * activation_layer(in, t);
}

/* Which of weights, gradients and optimizer states a strategy splits N ways. */
static const struct { bool w, g, o; } sharded[PLAN_NSTRATEGY] = {
	[PLAN_ZERO1] = { false, false, true },
	[PLAN_ZERO2] = { false, true, true },
	[PLAN_ZERO3] = { true, true, true },
	[PLAN_FSDP] = { true, true, true },
	[PLAN_PIPELINE] = { true, true, true },
	[PLAN_TENSOR] = { true, true, true },
};

static void memory(const struct plan_inputs *in, enum plan_strategy st, int n, struct plan_memory *m)
{
	double psi = in->params, wb = state_bytes(in), k = optimizer_k(in);
	double alloc, frag_base;

	m->weights = psi * wb / (sharded[st].w ? n : 1);
	m->gradients = psi * wb / (sharded[st].g ? n : 1);
	m->optimizer = psi * k / (sharded[st].o ? n : 1);
	/* DDP's buckets hold a copy of the gradients unless they are views of them */
	m->buckets = st == PLAN_DDP && !in->bucket_view ? psi * wb : 0;
	m->activations = activations(in, st == PLAN_TENSOR ? n : 1);
	/* 1F1B: the first stage keeps min(n, micro-batches) micro-batches of its L/n layers */
	if (st == PLAN_PIPELINE)
		m->activations *= (double)(in->grad_accum < n ? in->grad_accum : n) / n;
	alloc = m->weights + m->gradients + m->buckets + m->optimizer + m->activations;
	frag_base = isnan(alloc) ? m->weights + m->gradients + m->buckets + m->optimizer : alloc;
	if (!isnan(in->reserve_bytes))
		m->reserve = in->reserve_bytes;
	else
		m->reserve = in->context_bytes + (n > 1 ? in->nccl_bytes : 0) +
			     in->fragmentation * frag_base;
	m->total = alloc + m->reserve;
}

/* The lower bound of the total: everything but the activations. */
static double known_part(const struct plan_memory *m)
{
	return m->weights + m->gradients + m->buckets + m->optimizer + m->reserve;
}

/*
 * Per optimizer step: the collectives' payload and what one GPU sends of it
 * (ring algorithms: all-reduce 2(n-1)/n, all-gather and reduce-scatter
 * (n-1)/n, send/recv 1), as in ZeRO section 7 (2Ψ for DDP, 3Ψ for ZeRO-3 as
 * n grows). Sets both, NaN when the shape they need is unknown.
 */
static void comm(const struct plan_inputs *in, enum plan_strategy st, int n, double *payload,
		 double *sent)
{
	double psi = in->params, wb = state_bytes(in), ga = (double)in->grad_accum;
	double ring = (double)(n - 1) / n;
	double ab = in->precision == DT_FP32 ? 4 : 2;
	double sbh = (double)in->seq_len * (double)in->micro_batch * (double)in->hidden * ab;
	bool shape = in->seq_len > 0 && in->micro_batch > 0 && in->hidden > 0;

	switch (st) {
	case PLAN_SINGLE:
		*payload = *sent = 0;
		return;
	case PLAN_DDP:
	case PLAN_ZERO1:
		*payload = psi * wb;
		*sent = *payload * 2 * ring;
		return;
	case PLAN_ZERO2:
		*payload = psi * wb * ga + psi * wb;
		*sent = *payload * ring;
		return;
	case PLAN_ZERO3:
	case PLAN_FSDP:
		*payload = 3 * psi * wb * ga;
		*sent = *payload * ring;
		return;
	case PLAN_PIPELINE:
		*payload = shape ? 2.0 * (n - 1) * sbh * ga : NAN;
		*sent = shape ? sbh * ga * (n > 2 ? 2 : 1) : NAN;
		return;
	case PLAN_TENSOR:
		*payload = shape && in->layers > 0 ?
			   (in->checkpointing == PLAN_CKPT_FULL ? 6 : 4) * (double)in->layers * sbh * ga :
			   NAN;
		*sent = *payload * 2 * ring;
		return;
	case PLAN_NSTRATEGY:
		break;
	}
	*payload = *sent = NAN;
}

static bool data_parallel(enum plan_strategy st)
{
	return st >= PLAN_DDP && st <= PLAN_FSDP;
}

static void fit(const struct plan_inputs *in, const struct gpu_model *g,
		const struct plan_strategy_result *s, struct plan_fit *f)
{
	f->gpu = g;
	f->capacity = (double)gpu_capacity_bytes(g, -1);
	f->capacity_reported = g->memory_reported > 0;
	if (!isnan(s->mem.total))
		f->fits = s->mem.total <= f->capacity;
	else
		f->fits = known_part(&s->mem) > f->capacity ? 0 : -1;
	f->link_gbps = gpu_link_gbps_for(g, s->gpus);
	f->comm_s = s->strategy == PLAN_SINGLE ? 0 : s->comm_bytes / (f->link_gbps * 1e9);
}

/*
 * What a run of s can show on gpu[0], given whether one GPU holds the job:
 * feasibility when one cannot; else step-time (the same global batch in a
 * shorter step: every strategy can hold it) or, under data parallelism only,
 * global-batch (a larger batch per step). The hypothesis asked for, when s
 * can show it; NULL when s shows nothing, or not what was asked.
 */
static const char *tests(const struct plan_inputs *in, const struct plan_strategy_result *s,
			 int single_fits)
{
	const char *h = in->hypothesis;

	if (s->strategy == PLAN_SINGLE || s->fit[0].fits != 1)
		return NULL;
	if (single_fits != 1)
		return !h || !strcmp(h, "feasibility") ? "feasibility" : NULL;
	if (!h)
		return data_parallel(s->strategy) ? "global-batch" : "step-time";
	if (!strcmp(h, "feasibility") || (!strcmp(h, "global-batch") && !data_parallel(s->strategy)))
		return NULL;
	return h;
}

/*
 * The preference among strategies that fit gpu[0]: the least sharding first
 * (a replica overlaps its one all-reduce with the backward pass); then a
 * split of every layer where an NVLink or Infinity Fabric link carries its
 * per-layer all-reduces, a split of the layers (sending only the boundary
 * activations) over PCIe.
 */
static const enum plan_strategy prefer_fast_link[] = {
	PLAN_DDP, PLAN_ZERO1, PLAN_ZERO2, PLAN_ZERO3, PLAN_FSDP, PLAN_TENSOR, PLAN_PIPELINE,
};
static const enum plan_strategy prefer_pcie[] = {
	PLAN_DDP, PLAN_ZERO1, PLAN_ZERO2, PLAN_ZERO3, PLAN_FSDP, PLAN_PIPELINE, PLAN_TENSOR,
};

static const char *const reasons[PLAN_NSTRATEGY] = {
	[PLAN_DDP] = "a full replica fits each GPU: plain data parallelism, one gradient "
		     "all-reduce per step that overlaps the backward pass",
	[PLAN_ZERO1] = "a full replica does not fit; sharding the optimizer states is enough, "
		       "for the same traffic as DDP",
	[PLAN_ZERO2] = "a full replica does not fit, nor one with sharded optimizer states; "
		       "sharding the gradients as well is enough",
	[PLAN_ZERO3] = "only sharding the parameters as well fits: ZeRO-3 (or FSDP), which "
		       "gathers the parameters in every forward and backward pass",
	[PLAN_FSDP] = "only sharding the parameters as well fits (FSDP FULL_SHARD)",
	[PLAN_TENSOR] = "only splitting every layer fits; the GPUs' NVLink carries tensor "
			"parallelism's all-reduces in every layer",
	[PLAN_PIPELINE] = "only splitting the layers fits; over PCIe a pipeline sends only the "
			  "activations at the stage boundary (its bubble shrinks with more "
			  "micro-batches per step)",
};

/* The strategy asked for is the one chosen, when it fits: no other is put in its place. */
static void choose(const struct plan_inputs *in, struct plan_result *r)
{
	int f = r->s[in->strategy].fit[0].fits;

	r->chosen = true;
	r->recommended = f == 1 ? in->strategy : -1;
	r->reason = f == 1 ? "the strategy asked for, and it fits" :
		    f == 0 ? "the strategy asked for does not fit: another strategy, more GPUs, "
			     "activation checkpointing, a smaller micro batch or a GPU with more memory" :
		    "the strategy asked for is not known to fit: the activations are unknown (give "
		    "micro batch, sequence length, hidden size, layers and heads, or a known model)";
}

static void recommend(const struct plan_inputs *in, struct plan_result *r)
{
	bool fast = in->gpu[0]->link != GPU_LINK_PCIE;
	const enum plan_strategy *order = fast ? prefer_fast_link : prefer_pcie;
	bool unknown = false;

	r->recommended = -1;
	if (in->strategy >= 0) {
		choose(in, r);
		return;
	}
	for (size_t i = 0; i < sizeof(prefer_pcie) / sizeof(prefer_pcie[0]); i++) {
		int f = r->s[order[i]].fit[0].fits;

		unknown |= f < 0;
		if (f == 1 && r->recommended < 0)
			r->recommended = order[i];
	}
	if (r->recommended >= 0)
		r->reason = reasons[r->recommended];
	else if (unknown)
		r->reason = "no strategy is known to fit: the activations are unknown (give micro "
			    "batch, sequence length, hidden size, layers and heads, or a known model)";
	else
		r->reason = "no strategy fits: more GPUs, activation checkpointing, a smaller micro "
			    "batch or a GPU with more memory";
}

/*
 * Tokens per second of n GPUs: n x mfu x peak / FLOPs per token, with
 * 6Ψ FLOPs per token (forward 2Ψ, backward 4Ψ), 8Ψ with full recomputation
 * (Kaplan et al. 2020, section 2.1; Narayanan et al. 2021, section 5.1;
 * without the attention term).
 */
static double throughput(const struct plan_inputs *in, int n)
{
	double peak = gpu_peak_tflops(in->gpu[0], in->precision == DT_FP32 ? DT_TF32 : in->precision);
	double flops = (in->checkpointing == PLAN_CKPT_FULL ? 8 : 6) * in->params;

	return n * in->mfu * peak * 1e12 / flops;
}

/*
 * The stop criteria of a window, in samples when the target is a sample
 * count (and the sequence length is known), else in tokens.
 */
static void stop_criteria(const struct plan_inputs *in, double tokens, struct plan_option *o)
{
	bool samples = in->target_samples > 0 && in->seq_len > 0;
	struct rental_stop st = rental_stop_for(samples ? o->samples_per_s : o->tokens_per_s,
						samples ? (double)in->target_samples : tokens, o->days_to_target,
						o->window);

	o->stop = (struct plan_stop){ .samples = samples, .min_rate = st.min_rate, .half_days = st.half_day,
				      .half_target = st.half_target, .end_days = st.end_day };
}

/*
 * An option as rented: its GPUs in lots of lot_gpus, for the window that
 * holds the days needed with the margin (analysis/rental), priced for every
 * GPU of the lots for every hour of the window.
 */
/*
 * The throughput of n GPUs from a finished trial: its run on n GPUs, else its
 * 1-GPU run x n x its measured scaling efficiency (1 when unknown). NaN when
 * nothing measured applies; sets o->measured and o->scaled.
 */
static double measured_throughput(const struct plan_inputs *in, int n, struct plan_option *o)
{
	const struct plan_measured *m = &in->measured;

	if (!m->source)
		return NAN;
	for (int i = 0; i < 2; i++)
		if (m->gpus[i] == n && isfinite(m->tokens_per_s[i])) {
			o->measured = true;
			return m->tokens_per_s[i];
		}
	if (m->gpus[0] != 1 || !isfinite(m->tokens_per_s[0]))
		return NAN;
	o->measured = o->scaled = true;
	return m->tokens_per_s[0] * n * (isfinite(m->efficiency) ? m->efficiency : 1);
}

static void option(const struct plan_inputs *in, const struct plan_strategy_result *s,
		   struct plan_option *o)
{
	double tokens = NAN;

	*o = (struct plan_option){ .strategy = s->strategy, .gpus = s->gpus };
	o->tokens_per_s = measured_throughput(in, s->gpus, o);
	if (!o->measured)
		o->tokens_per_s = throughput(in, s->gpus);
	o->samples_per_s = in->seq_len > 0 ? o->tokens_per_s / (double)in->seq_len : NAN;
	if (in->target_tokens > 0)
		tokens = (double)in->target_tokens;
	else if (in->target_samples > 0 && in->seq_len > 0)
		tokens = (double)in->target_samples * (double)in->seq_len;
	o->days_to_target = tokens / o->tokens_per_s / DAY_S;
	o->lots = (s->gpus + in->lot_gpus - 1) / in->lot_gpus;
	o->window = rental_window_for(o->days_to_target, in->margin);
	o->window_days = o->window.days;
	o->gpu_hours_used = o->days_to_target * 24 * s->gpus;
	o->gpu_hours = rental_window_gpu_hours(o->window, o->lots * in->lot_gpus);
	o->cost = o->gpu_hours * in->price;
	o->ckpt_write_s = in->params * (state_bytes(in) + optimizer_k(in)) / (in->ckpt_write_gbps * 1e9);
	o->ckpt_interval_s = rental_checkpoint_interval_s(o->ckpt_write_s, in->mtbf_hours * 3600);
	stop_criteria(in, tokens, o);
}

/* A finished trial's peak per GPU, for the strategy and GPU count it ran, replaces the model's total. */
static void measured_memory(const struct plan_inputs *in, struct plan_strategy_result *s)
{
	const struct plan_measured *m = &in->measured;

	for (int i = 0; m->source && i < 2; i++)
		if (m->gpus[i] == s->gpus && m->strategy[i] == (int)s->strategy &&
		    isfinite(m->peak_bytes[i])) {
			s->modelled_total = s->mem.total;
			s->mem.total = m->peak_bytes[i];
			s->mem_measured = true;
			return;
		}
}

static void strategy(const struct plan_inputs *in, enum plan_strategy st, struct plan_strategy_result *s)
{
	int n = st == PLAN_SINGLE ? 1 : in->gpus;

	*s = (struct plan_strategy_result){ .strategy = st, .gpus = n, .modelled_total = NAN };
	memory(in, st, n, &s->mem);
	measured_memory(in, s);
	comm(in, st, n, &s->comm_payload_bytes, &s->comm_bytes);
	for (size_t g = 0; g < in->ngpu; g++)
		fit(in, in->gpu[g], s, &s->fit[g]);
}

/*
 * A hypothesis the GPUs cannot show: feasibility needs a job one GPU cannot
 * hold, a faster step or a larger batch needs a baseline that one GPU holds.
 */
static const char *hypothesis_note(const struct plan_inputs *in, int single_fits)
{
	if (!in->hypothesis || single_fits < 0)
		return NULL;
	if (!strcmp(in->hypothesis, "feasibility") && single_fits == 1)
		return "one GPU holds the job, so a 2-GPU run cannot show feasibility: test "
		       "step-time or global-batch";
	if (strcmp(in->hypothesis, "feasibility") && single_fits == 0)
		return "one GPU cannot hold the job, so the 1-GPU baseline would fail: the "
		       "trial can show feasibility, not a speedup";
	return NULL;
}

void plan_compute(const struct plan_inputs *in, struct plan_result *r)
{
	*r = (struct plan_result){ .recommended = -1 };
	r->optimizer_k = optimizer_k(in);
	r->activation_per_layer = activation_layer(in, 1);
	for (int i = 0; i < PLAN_NSTRATEGY; i++)
		strategy(in, (enum plan_strategy)i, &r->s[i]);
	for (int i = 0; i < PLAN_NSTRATEGY; i++)
		r->s[i].tests = tests(in, &r->s[i], r->s[PLAN_SINGLE].fit[0].fits);
	recommend(in, r);
	r->hypothesis_note = hypothesis_note(in, r->s[PLAN_SINGLE].fit[0].fits);
	if (r->s[PLAN_SINGLE].fit[0].fits == 1)
		option(in, &r->s[PLAN_SINGLE], &r->option[r->noption++]);
	if (r->recommended > PLAN_SINGLE)
		option(in, &r->s[r->recommended], &r->option[r->noption++]);
}

size_t plan_fallbacks(const struct plan_result *r, const struct plan_inputs *in,
		      struct plan_fallback *fb, size_t n)
{
	int runs[2], nruns = 0;
	size_t k = 0;

	if (r->s[PLAN_SINGLE].fit[0].fits == 1)
		runs[nruns++] = PLAN_SINGLE;
	if (r->recommended > PLAN_SINGLE)
		runs[nruns++] = r->recommended;
	for (int i = 0; i < nruns; i++)
		for (size_t g = 1; g < in->ngpu && k < n; g++) {
			const struct plan_strategy_result *s = &r->s[runs[i]];

			if (s->fit[g].fits == 0)
				fb[k++] = (struct plan_fallback){ .gpu = s->fit[g].gpu,
					.strategy = s->strategy, .need = s->mem.total,
					.capacity = s->fit[g].capacity };
		}
	return k;
}

const struct plan_option *plan_option_of(const struct plan_result *r, int strategy)
{
	for (size_t i = 0; i < r->noption; i++)
		if ((int)r->option[i].strategy == strategy)
			return &r->option[i];
	return NULL;
}
