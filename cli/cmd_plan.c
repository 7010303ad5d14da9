/*
 * plan: before the rental. Reads the model's inputs from the options and an
 * optional PLAN.ini ([plan] section, the same keys), computes the model
 * (analysis/plan), prints a table per strategy and the recommendation, or
 * its JSON, with --explain every formula with its numbers, and with -o DIR
 * or --init DIR writes the trial plan (render/plan_files).
 */
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/plan.h"
#include "cli/cli.h"
#include "core/buf.h"
#include "core/ini_lines.h"
#include "core/utf8.h"
#include "core/json.h"
#include "render/plan_files.h"

static int json, explain, force;	/* --json, --explain, --force */
static const char *outdir, *initdir;	/* -o DIR, --init DIR */
static struct buf gpu_list = BUF_INIT;	/* every --gpu, joined by commas */

enum given_key {
	G_PARAMS,
	G_GPUS,
	G_STRATEGY,
	G_MICRO_BATCH,
	G_SEQ_LEN,
	G_HIDDEN,
	G_LAYERS,
	G_HEADS,
	G_VOCAB,
	G_PRECISION,
	G_OPTIMIZER,
	G_CHECKPOINTING, G_ATTENTION,
	G_GRAD_ACCUM,
	G_HYPOTHESIS,
	G_TITLE,
	G_EXPECTED_SPEEDUP,
	G_QUESTION,
	G_TARGET_SAMPLES,
	G_TARGET_TOKENS,
	G_PRICE,
	G_MEMORY_RESERVE_GB,
	G_CONTEXT_GB,
	G_NCCL_GB,
	G_FRAGMENTATION,
	G_MFU,
	G_CKPT_WRITE_GBPS,
	G_MTBF_HOURS,
	G_MODEL,
	NGIVEN
};

/* The keys given as options, applied in this order ("model" last: it fills only what is unset). */
static struct { const char *key, *value; } given[NGIVEN] = {
	[G_PARAMS] = { .key = "params" },
	[G_GPUS] = { .key = "gpus" },
	[G_STRATEGY] = { .key = "strategy" },
	[G_MICRO_BATCH] = { .key = "micro_batch" },
	[G_SEQ_LEN] = { .key = "seq_len" },
	[G_HIDDEN] = { .key = "hidden" },
	[G_LAYERS] = { .key = "layers" },
	[G_HEADS] = { .key = "heads" },
	[G_VOCAB] = { .key = "vocab" },
	[G_PRECISION] = { .key = "precision" },
	[G_OPTIMIZER] = { .key = "optimizer" },
	[G_CHECKPOINTING] = { .key = "checkpointing" },
	[G_ATTENTION] = { .key = "attention" },
	[G_GRAD_ACCUM] = { .key = "grad_accum" },
	[G_HYPOTHESIS] = { .key = "hypothesis" },
	[G_TITLE] = { .key = "title" },
	[G_EXPECTED_SPEEDUP] = { .key = "expected_speedup" },
	[G_QUESTION] = { .key = "question" },
	[G_TARGET_SAMPLES] = { .key = "target_samples" },
	[G_TARGET_TOKENS] = { .key = "target_tokens" },
	[G_PRICE] = { .key = "price" },
	[G_MEMORY_RESERVE_GB] = { .key = "memory_reserve_gb" },
	[G_CONTEXT_GB] = { .key = "context_gb" },
	[G_NCCL_GB] = { .key = "nccl_gb" },
	[G_FRAGMENTATION] = { .key = "fragmentation" },
	[G_MFU] = { .key = "mfu" },
	[G_CKPT_WRITE_GBPS] = { .key = "ckpt_write_gbps" },
	[G_MTBF_HOURS] = { .key = "mtbf_hours" },
	[G_MODEL] = { .key = "model" },
};

#define V(i) (&given[i].value)

const struct option plan_options[] = {
	OPTION_STRING(0, "params", V(G_PARAMS), "N", "parameter count: 7e9, 7B, 1.5B, 350M"),
	OPTION_STRING(0, "model", V(G_MODEL), "NAME",
		      "a known model whose size and shape fill in what is not given: llama-3-8b, "
		      "llama-3-70b, llama-2-7b, llama-2-13b, mistral-7b, gpt2-xl, zero-7.5b"),
	{ .kind = OPT_STRING, .long_name = "gpu", .value = &gpu_list, .value_name = "MODEL",
	  .flags = OPT_REPEAT,
	  .help = "a GPU model to fit (H200, B200, H100 SXM, MI300X...), or a comma list; the "
		  "first is the one to rent" },
	OPTION_STRING(0, "gpus", V(G_GPUS), "N", "GPUs of the multi-GPU strategies (default 2)"),
	OPTION_STRING(0, "strategy", V(G_STRATEGY), "NAME",
		      "show only single, ddp, zero1, zero2, zero3, fsdp, pipeline or tensor"),
	OPTION_STRING(0, "micro-batch", V(G_MICRO_BATCH), "N", "sequences per GPU per forward pass"),
	OPTION_STRING(0, "seq-len", V(G_SEQ_LEN), "N", "tokens per sequence"),
	OPTION_STRING(0, "hidden", V(G_HIDDEN), "N", "hidden size"),
	OPTION_STRING(0, "layers", V(G_LAYERS), "N", "transformer layers"),
	OPTION_STRING(0, "heads", V(G_HEADS), "N", "attention heads"),
	OPTION_STRING(0, "vocab", V(G_VOCAB), "N", "vocabulary size"),
	OPTION_STRING(0, "precision", V(G_PRECISION), "P",
		      "weights and gradients: bf16 or fp16 (mixed, with fp32 master weights) or "
		      "fp32 (default bf16)"),
	OPTION_STRING(0, "optimizer", V(G_OPTIMIZER), "NAME", "adam, sgd (with momentum) or adafactor (default adam)"),
	{ .kind = OPT_STRING, .long_name = "checkpointing", .value = V(G_CHECKPOINTING), .value_name = "KIND",
	  .flags = OPT_OPTIONAL_VALUE, .deflt = "full",
	  .help = "activation checkpointing: none, selective or full (default none)" },
	OPTION_STRING(0, "attention", V(G_ATTENTION), "KIND",
		      "eager or flash (default eager); flash for FlashAttention or PyTorch SDPA, whose "
		      "attention scores are never stored"),
	OPTION_STRING(0, "grad-accum", V(G_GRAD_ACCUM), "N", "micro-batches per optimizer step (default 1)"),
	OPTION_STRING(0, "hypothesis", V(G_HYPOTHESIS), "H",
		      "what the 2-GPU run is to show: step-time, global-batch or feasibility"),
	OPTION_STRING(0, "title", V(G_TITLE), "TEXT", "the trial's title, written to trial.ini by -o"),
	OPTION_STRING(0, "expected-speedup", V(G_EXPECTED_SPEEDUP), "X", "the speedup that confirms the hypothesis"),
	OPTION_STRING(0, "question", V(G_QUESTION), "Q", "single-config or hparam-sweep"),
	OPTION_STRING(0, "target-samples", V(G_TARGET_SAMPLES), "N", "samples the campaign must process"),
	OPTION_STRING(0, "target-tokens", V(G_TARGET_TOKENS), "N", "tokens the campaign must process: 2e10, 20B"),
	OPTION_STRING(0, "price", V(G_PRICE), "P", "price per GPU-hour"),
	OPTION_STRING(0, "memory-reserve-gb", V(G_MEMORY_RESERVE_GB), "GB",
		      "the whole run-time reserve per GPU, instead of context + NCCL + fragmentation"),
	OPTION_STRING(0, "context-gb", V(G_CONTEXT_GB), "GB", "CUDA context and workspaces per GPU (default 1)"),
	OPTION_STRING(0, "nccl-gb", V(G_NCCL_GB), "GB", "NCCL buffers per GPU of a multi-GPU strategy (default 0.5)"),
	OPTION_STRING(0, "fragmentation", V(G_FRAGMENTATION), "SHARE",
		      "share of the allocated bytes lost to the caching allocator (default 0.05)"),
	OPTION_STRING(0, "mfu", V(G_MFU), "SHARE",
		      "model FLOPs utilisation assumed for the throughput estimate (default 0.4)"),
	OPTION_STRING(0, "ckpt-write-gbps", V(G_CKPT_WRITE_GBPS), "GBPS", "checkpoint write bandwidth (default 2)"),
	OPTION_STRING(0, "mtbf-hours", V(G_MTBF_HOURS), "H",
		      "mean time between failures of the rented machine (default 24)"),
	OPTION_FLAG(0, "json", &json, 1, "print the plan as JSON"),
	OPTION_FLAG(0, "explain", &explain, 1, "show every formula with its numbers and its source"),
	OPTION_STRING('o', NULL, &outdir, "DIR", "write trial.ini, a run.ini per run and CHECKLIST.md into DIR"),
	OPTION_STRING(0, "init", &initdir, "DIR",
		      "write a commented trial skeleton into DIR (every key, its values and default)"),
	OPTION_FLAG(0, "force", &force, 1, "replace the files of an existing plan in DIR"),
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

/* --- inputs --- */

/* "micro_batch: 'x' ..." as "--micro-batch: 'x' ..." for a message about an option. */
static void option_message(const char *err, struct buf *out)
{
	size_t n = strcspn(err, ":");

	buf_addstr(out, "--");
	for (size_t i = 0; i < n; i++)
		buf_addch(out, err[i] == '_' ? '-' : err[i]);
	buf_addstr(out, err + n);
}

static int options_error(const char *err)
{
	struct buf msg = BUF_INIT;
	int rc;

	buf_init(&msg, 0);
	option_message(err, &msg);
	rc = usage_error("plan", "%s", msg.data);
	buf_release(&msg);
	return rc;
}

struct ini_read {
	struct plan_inputs *in;
	const char *path;
	struct ini_lines src;	/* the file, and the line inih is handling */
	int bad;		/* lines with a bad key or value */
};

/* One key: set, or its message printed as file:line: and the reading goes on. */
static int plan_ini_line(void *user, const char *section, const char *name, const char *value)
{
	struct ini_read *r = user;
	char err[256];

	int64_t first;

	if (!strcmp(name, "gpu"))
		r->in->ngpu = 0;	/* a gpu line gives the whole list: the last one is used */
	if (strcmp(section, "plan"))
		snprintf(err, sizeof(err), "[%s] %s: plan keys go in a [plan] section", section, name);
	else if (plan_set(r->in, name, value, err, sizeof(err)) == 0) {
		first = ini_lines_repeat(&r->src, section, name);
		if (first)
			utf8_line(stderr, "%s:%lld: warning: '%s' repeated in [plan] (first at line %lld): "
				  "the value of line %lld is used", r->path, (long long)r->src.line, name,
				  (long long)first, (long long)r->src.line);
		return 1;
	}
	utf8_line(stderr, "%s:%lld: %s", r->path, (long long)r->src.line, err);
	r->bad++;
	return 1;
}

/* A line with a control byte is not read: said at its line and column, and the plan fails. */
static void plan_ini_control(struct ini_lines *src, int64_t col, unsigned byte)
{
	struct ini_read *r = src->user;

	utf8_line(stderr, "%s:%lld:%lld: control byte 0x%02x in the line: not read", r->path,
		  (long long)src->line, (long long)col, byte);
	r->bad++;
}

/* PLAN.ini into in; prints "file:line: message" for each bad line and returns EXIT_NO_INPUT then. */
static int read_ini(const char *path, struct plan_inputs *in)
{
	struct ini_read r = { .in = in, .path = path,
			      .src = { .f = fopen(path, "r"), .control = plan_ini_control } };
	struct stat st;
	int line;

	if (!r.src.f) {
		error("%s: %s", path, strerror(errno));
		return EXIT_NO_INPUT;
	}
	if (fstat(fileno(r.src.f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(r.src.f);
		error("%s: a directory, not a PLAN.ini", path);
		return EXIT_NO_INPUT;
	}
	r.src.user = &r;
	line = ini_parse_stream(ini_lines_next, &r.src, plan_ini_line, &r);
	fclose(r.src.f);
	ini_lines_release(&r.src);
	if (line > 0)
		fprintf(stderr, "%s:%d: not an INI line (expected [section] or key = value)\n", path, line);
	return line || r.bad ? EXIT_NO_INPUT : EXIT_DONE;
}

/* The options over the PLAN.ini: a --gpu replaces its GPU list. */
static int apply_options(struct plan_inputs *in)
{
	char err[256];

	if (gpu_list.len) {
		in->ngpu = 0;
		if (plan_set(in, "gpu", gpu_list.data, err, sizeof(err)) < 0)
			return options_error(err);
	}
	for (size_t i = 0; i < NGIVEN; i++)
		if (given[i].value && plan_set(in, given[i].key, given[i].value, err, sizeof(err)) < 0)
			return options_error(err);
	return EXIT_DONE;
}

/* --- text --- */

static const char *fits_word(int fits)
{
	return fits == 1 ? "yes" : fits == 0 ? "no" : "unknown";
}

/* bytes as GB in a column; "?" unknown */
static void gb(struct buf *out, double bytes, int width, int decimals)
{
	if (isnan(bytes))
		buf_addf(out, " %*s", width, "?");
	else
		buf_addf(out, " %*.*f", width, decimals, bytes / 1e9);
}

static bool shown(const struct plan_inputs *in, int s)
{
	return in->strategy < 0 || in->strategy == s;
}

static void memory_table(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	buf_addf(out, "%-15s %4s %7s %7s %7s %7s %7s %7s  fits:", "memory per GPU", "gpus", "weights",
		 "grads", "optim", "activ", "reserve", "total");
	for (size_t g = 0; g < in->ngpu; g++)
		buf_addf(out, "%s%s", g ? ", " : " ", in->gpu[g]->name);
	buf_addf(out, "\n%-15s %4s %7s %7s %7s %7s %7s %7s\n", "", "", "GB", "GB", "GB", "GB", "GB", "GB");
	for (int i = 0; i < PLAN_NSTRATEGY; i++) {
		const struct plan_strategy_result *s = &r->s[i];

		if (!shown(in, i))
			continue;
		buf_addf(out, "%-15s %4d", plan_strategy_name(s->strategy), s->gpus);
		gb(out, s->mem.weights, 7, 1);
		gb(out, s->mem.gradients, 7, 1);
		gb(out, s->mem.optimizer, 7, 1);
		gb(out, s->mem.activations, 7, 1);
		gb(out, s->mem.reserve, 7, 1);
		gb(out, s->mem.total, 7, 1);
		buf_addstr(out, "  ");
		for (size_t g = 0; g < in->ngpu; g++)
			buf_addf(out, "%s%s", g ? ", " : "", fits_word(s->fit[g].fits));
		buf_addch(out, '\n');
	}
}

static void capacities(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	buf_addstr(out, "capacity:");
	for (size_t g = 0; g < in->ngpu; g++) {
		const struct plan_fit *f = &r->s[PLAN_SINGLE].fit[g];

		buf_addf(out, "%s %s %.1f GB (%s)", g ? "," : "", f->gpu->name, f->capacity / 1e9,
			 f->capacity_reported ? "as the driver reports it" : "nominal");
	}
	buf_addch(out, '\n');
}

static void comm_table(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	buf_addstr(out, "comm per step   sent/GPU  payload");
	for (size_t g = 0; g < in->ngpu; g++)
		buf_addf(out, "  %8.8s", in->gpu[g]->name);
	buf_addf(out, "  a run tests (%s)\n                      GB       GB", in->gpu[0]->name);
	for (size_t g = 0; g < in->ngpu; g++)
		buf_addf(out, "  %8s", "s");
	buf_addch(out, '\n');
	for (int i = 0; i < PLAN_NSTRATEGY; i++) {
		const struct plan_strategy_result *s = &r->s[i];

		if (!shown(in, i))
			continue;
		buf_addf(out, "%-15s", plan_strategy_name(s->strategy));
		gb(out, s->comm_bytes, 9, 2);
		gb(out, s->comm_payload_bytes, 8, 2);
		for (size_t g = 0; g < in->ngpu; g++)
			if (isnan(s->fit[g].comm_s))
				buf_addf(out, "  %8s", "?");
			else
				buf_addf(out, "  %8.3f", s->fit[g].comm_s);
		buf_addf(out, "  %s\n", s->tests ? s->tests : "-");
	}
}

static void option_line(const struct plan_inputs *in, const struct plan_option *o, struct buf *out)
{
	buf_addf(out, "  %s on %d x %s: %.0f tokens/s", plan_strategy_name(o->strategy), o->gpus,
		 in->gpu[0]->name, o->tokens_per_s);
	if (isnan(o->days_to_target)) {
		buf_addstr(out, "; no target given (--target-tokens, or --target-samples and --seq-len)\n");
		return;
	}
	buf_addf(out, ", %.1f days to the target, ", o->days_to_target);
	if (o->window_days > 0)
		buf_addf(out, "a %d-day window", o->window_days);
	else
		buf_addstr(out, "longer than a 30-day window");
	buf_addf(out, ", %.0f GPU-hours", o->gpu_hours);
	if (!isnan(o->cost))
		buf_addf(out, ", cost %.0f", o->cost);
	buf_addch(out, '\n');
	if (o->window_days < 0 || o->window_days >= 30)
		buf_addf(out, "    checkpoint every %.0f s (Young/Daly: write %.0f s, MTBF %g h)\n",
			 o->ckpt_interval_s, o->ckpt_write_s, in->mtbf_hours);
}

static void recommendation(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	int rec = r->recommended;

	if (rec < 0)
		buf_addf(out, "recommended: none on %d x %s: %s", in->gpus, in->gpu[0]->name, r->reason);
	else
		buf_addf(out, "recommended: %s on %d x %s: %s", plan_strategy_name(rec),
			 r->s[rec].gpus, in->gpu[0]->name, r->reason);
	if (rec >= 0 && r->s[rec].tests)
		buf_addf(out, "; a run of it tests %s", r->s[rec].tests);
	buf_addch(out, '\n');
	if (r->hypothesis_note)
		buf_addf(out, "hypothesis %s: %s\n", in->hypothesis, r->hypothesis_note);
	if (!r->noption)
		return;
	buf_addf(out, "\nrental (estimated throughput: %.0f%% MFU of the %s peak, %dΨ FLOPs per "
		 "token):\n", in->mfu * 100, in->precision == DT_FP32 ? "tf32" : dtype_name(in->precision),
		 in->checkpointing == PLAN_CKPT_FULL ? 8 : 6);
	for (size_t i = 0; i < r->noption; i++)
		option_line(in, &r->option[i], out);
}

/* 7e9 as "7B", 1.5576e9 as "1.558B", 350e6 as "350M" */
static void count(struct buf *out, double n)
{
	if (n >= 1e9)
		buf_addf(out, "%.4gB", n / 1e9);
	else if (n >= 1e6)
		buf_addf(out, "%.4gM", n / 1e6);
	else
		buf_addf(out, "%.4g", n);
}

static void header(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	buf_addstr(out, "plan: ");
	count(out, in->params);
	buf_addf(out, " parameters%s%s%s, %s%s, %s (K = %g), %d GPUs\n", in->model ? " (" : "",
		 in->model ? in->model : "", in->model ? ")" : "", dtype_name(in->precision),
		 in->precision == DT_FP32 ? "" : " mixed precision (fp32 master weights)",
		 plan_optimizer_name(in->optimizer), r->optimizer_k, in->gpus);
	if (isnan(r->activation_per_layer) || in->layers < 0)
		buf_addstr(out, "activations: unknown (give --micro-batch, --seq-len, --hidden, "
				"--layers, --heads or --model)\n");
	else
		buf_addf(out, "activations: micro batch %lld, seq len %lld, hidden %lld, %lld layers, "
			 "%lld heads, checkpointing %s, grad accum %lld\n", (long long)in->micro_batch,
			 (long long)in->seq_len, (long long)in->hidden, (long long)in->layers,
			 (long long)in->heads, plan_checkpointing_name(in->checkpointing),
			 (long long)in->grad_accum);
	if (in->attention == PLAN_ATTN_FLASH)
		buf_addstr(out, "attention: flash (its scores are never stored)\n");
	if (!isnan(in->reserve_bytes))
		buf_addf(out, "reserve per GPU: %.2f GB as given\n", in->reserve_bytes / 1e9);
	else
		buf_addf(out, "reserve per GPU: CUDA context %.2f GB + NCCL %.2f GB (multi-GPU) + "
			 "%g%% of the allocated bytes (fragmentation)\n", in->context_bytes / 1e9,
			 in->nccl_bytes / 1e9, in->fragmentation * 100);
}

/*
 * Appends text's lines to out, each wrapped at 80 columns with its
 * continuation indented 4 more than its own leading spaces. Consumes text.
 */
static void wrap_lines(struct buf *out, struct buf *text)
{
	char *end = text->data + text->len;

	for (char *line = text->data, *nl; line < end; line = nl + 1) {
		size_t lead = strspn(line, " ");

		nl = strchr(line, '\n');
		if (!nl)
			nl = end;
		*nl = 0;
		/* text_wrap pads a line up to its indent: told the first starts there, it does not */
		buf_addf(out, "%*s", (int)lead, "");
		text_wrap(out, line + lead, lead + 4, lead + 4);
		buf_addch(out, '\n');
	}
}

static void write_text(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	struct buf text = BUF_INIT;

	buf_init(&text, 0);
	header(in, r, &text);
	wrap_lines(out, &text);
	buf_addch(out, '\n');
	memory_table(in, r, out);
	buf_reset(&text);
	capacities(in, r, &text);
	wrap_lines(out, &text);
	buf_addch(out, '\n');
	comm_table(in, r, out);
	buf_addch(out, '\n');
	buf_reset(&text);
	recommendation(in, r, &text);
	wrap_lines(out, &text);
	buf_release(&text);
}

/* --- --explain: every formula with its numbers and its source --- */

static void explain_states(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	double psi = in->params, wb = dtype_size(in->precision), k = r->optimizer_k;
	int n = in->gpus;

	buf_addf(out, "model states (Rajbhandari et al. 2020, \"ZeRO: Memory Optimizations Toward "
		      "Training Trillion Parameter Models\", section 3.1): %gΨ + %gΨ + KΨ bytes\n", wb, wb);
	buf_addf(out, "  K = %g: %s%s\n", k, in->precision == DT_FP32 ? "" : "fp32 master weights 4 + ",
		 in->optimizer == PLAN_ADAM ? "Adam momentum 4 + variance 4" :
		 in->optimizer == PLAN_SGD ? "SGD momentum 4" :
		 "Adafactor's factored second moments (about 8/hidden bytes, left out)");
	buf_addf(out, "  Ψ = %.0f: weights %g x Ψ = %.2f GB, gradients %g x Ψ = %.2f GB, optimizer "
		 "%g x Ψ = %.2f GB; %.2f GB in all\n", psi, wb, wb * psi / 1e9, wb, wb * psi / 1e9, k,
		 k * psi / 1e9, (2 * wb + k) * psi / 1e9);
	buf_addf(out, "  ZeRO section 5 over N = %d: zero1 shards the optimizer (%.2f GB), zero2 the "
		 "gradients too (%.2f GB), zero3 and fsdp the weights too (%.2f GB); pipeline and "
		 "tensor split all three N ways\n", n, (2 * wb + k / n) * psi / 1e9,
		 (wb + (wb + k) / n) * psi / 1e9, (2 * wb + k) * psi / n / 1e9);
}

static void explain_activations(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	double s = (double)in->seq_len, b = (double)in->micro_batch, h = (double)in->hidden;
	double a = (double)in->heads;

	buf_addstr(out, "activations (Korthikanti et al. 2022, \"Reducing Activation Recomputation in "
			"Large Transformer Models\", section 4, table 2), bytes per layer in 16 bits:\n"
			"  none s·b·h·(34 + 5·a·s/h), or s·b·h·34 with flash attention (the 5·a·s/h "
			"scores are never stored); selective s·b·h·34; full 2·s·b·h (the layer's input); "
			"t-way tensor parallel: s·b·h·(10 + 24/t + 5·a·s/(h·t)); fp32 doubles them\n");
	if (isnan(r->activation_per_layer) || in->layers < 0) {
		buf_addstr(out, "  unknown here: the micro batch, sequence length, hidden size, layers "
				"or heads are not given\n");
		return;
	}
	buf_addf(out, "  s = %g, b = %g, h = %g, a = %g, checkpointing %s: %.4g GB per layer x %lld "
		 "layers = %.2f GB\n", s, b, h, a, plan_checkpointing_name(in->checkpointing),
		 r->activation_per_layer / 1e9, (long long)in->layers,
		 r->s[PLAN_SINGLE].mem.activations / 1e9);
	buf_addf(out, "  tensor over t = %d: %.2f GB; pipeline (1F1B): its first stage keeps "
		 "min(N, grad accum) = %lld micro-batches of L/%d layers: %.2f GB\n", in->gpus,
		 r->s[PLAN_TENSOR].mem.activations / 1e9,
		 (long long)(in->grad_accum < in->gpus ? in->grad_accum : in->gpus), in->gpus,
		 r->s[PLAN_PIPELINE].mem.activations / 1e9);
}

static void explain_fit(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	if (!isnan(in->reserve_bytes))
		buf_addf(out, "reserve (as given): %.2f GB per GPU\n", in->reserve_bytes / 1e9);
	else
		buf_addf(out, "reserve (stated default, overridable): CUDA context %.2f GB + NCCL "
			 "buffers %.2f GB on a multi-GPU strategy + %g%% of weights, gradients, "
			 "optimizer and activations for fragmentation\n", in->context_bytes / 1e9,
			 in->nccl_bytes / 1e9, in->fragmentation * 100);
	buf_addstr(out, "fit: total <= capacity, the memory the driver reports (nvidia-smi "
			"memory.total) where known, else the vendor's nominal GB\n");
	if (r->recommended >= 0) {
		const struct plan_strategy_result *s = &r->s[r->recommended];

		buf_addf(out, "  %s: %.2f + %.2f + %.2f + %.2f + %.2f = %.2f GB <= %.2f GB (%s)\n",
			 plan_strategy_name(s->strategy), s->mem.weights / 1e9, s->mem.gradients / 1e9,
			 s->mem.optimizer / 1e9, s->mem.activations / 1e9, s->mem.reserve / 1e9,
			 s->mem.total / 1e9, s->fit[0].capacity / 1e9, s->fit[0].gpu->name);
	}
}

static void explain_comm(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	const struct gpu_model *g = in->gpu[0];
	int n = in->gpus;

	buf_addf(out, "communication per optimizer step (ZeRO section 7: 2Ψ for DDP, 3Ψ for ZeRO-3, "
		      "as N grows), what one GPU sends with ring algorithms: all-reduce 2(N-1)/N of "
		      "its payload, all-gather and reduce-scatter (N-1)/N, send/recv 1; N = %d, "
		      "grad accum %lld\n", n, (long long)in->grad_accum);
	buf_addf(out, "  ddp, zero1: all-reduce of the gradients, payload %.2f GB, sends %.2f GB\n",
		 r->s[PLAN_DDP].comm_payload_bytes / 1e9, r->s[PLAN_DDP].comm_bytes / 1e9);
	buf_addf(out, "  zero2: reduce-scatter of the gradients every micro-batch + all-gather of "
		 "the weights, payload %.2f GB, sends %.2f GB\n", r->s[PLAN_ZERO2].comm_payload_bytes / 1e9,
		 r->s[PLAN_ZERO2].comm_bytes / 1e9);
	buf_addf(out, "  zero3, fsdp: all-gather forward + all-gather backward + reduce-scatter, every "
		 "micro-batch, payload %.2f GB, sends %.2f GB\n", r->s[PLAN_ZERO3].comm_payload_bytes / 1e9,
		 r->s[PLAN_ZERO3].comm_bytes / 1e9);
	buf_addf(out, "  pipeline: the activations forward and their gradients back at each stage "
		 "boundary, s·b·h x 2 bytes per micro-batch: sends %.4g GB\n", r->s[PLAN_PIPELINE].comm_bytes / 1e9);
	buf_addf(out, "  tensor (Megatron): %d all-reduces of s·b·h x 2 bytes per layer and "
		 "micro-batch: payload %.4g GB, sends %.4g GB\n",
		 in->checkpointing == PLAN_CKPT_FULL ? 6 : 4, r->s[PLAN_TENSOR].comm_payload_bytes / 1e9,
		 r->s[PLAN_TENSOR].comm_bytes / 1e9);
	buf_addf(out, "  time = sent / the link's nominal bandwidth per direction: %s %s %g GB/s\n",
		 g->name, gpu_link_name(g->link), g->link_gbps);
}

static void explain_rental(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	const struct gpu_model *g = in->gpu[0];
	enum dtype t = in->precision == DT_FP32 ? DT_TF32 : in->precision;
	int f = in->checkpointing == PLAN_CKPT_FULL ? 8 : 6;

	buf_addf(out, "throughput (Kaplan et al. 2020, \"Scaling Laws for Neural Language Models\", "
		      "section 2.1: 6Ψ FLOPs per token; Narayanan et al. 2021, \"Efficient Large-Scale "
		      "Language Model Training on GPU Clusters Using Megatron-LM\", section 5.1, for "
		      "recomputation; both without the attention term): %dΨ FLOPs per token%s; tokens/s = N x MFU x peak / %dΨ = N x "
		      "%g x %g TFLOP/s (%s %s) / (%d x %.0f) = N x %.0f\n", f,
		      f == 8 ? " (full recomputation adds a forward pass)" : "", f, in->mfu,
		      gpu_peak_tflops(g, t), g->name, dtype_name(t), f, in->params,
		      in->mfu * gpu_peak_tflops(g, t) * 1e12 / (f * in->params));
	buf_addstr(out, "rental window: days = target tokens (or samples x seq len) / tokens/s / "
			"86400, fitted in 3, 7 or 30 days; GPU-hours = days x 24 x N; cost = GPU-hours "
			"x price\n");
	if (!r->noption)
		return;
	buf_addf(out, "checkpoint interval (Young 1974; Daly 2006): √(2·C·M), C = (%g + %g) x Ψ "
		 "bytes / %g GB/s = %.1f s, M = %g h: √(2 x %.1f x %.0f) = %.0f s\n",
		 (double)dtype_size(in->precision), r->optimizer_k, in->ckpt_write_gbps,
		 r->option[0].ckpt_write_s, in->mtbf_hours, r->option[0].ckpt_write_s,
		 in->mtbf_hours * 3600, r->option[0].ckpt_interval_s);
}

static void write_explain(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	explain_states(in, r, out);
	explain_activations(in, r, out);
	explain_fit(in, r, out);
	explain_comm(in, r, out);
	explain_rental(in, r, out);
}

/* --- JSON --- */

static void json_count(yajl_gen g, const char *key, int64_t v)
{
	json_key(g, key);
	if (v < 0)
		yajl_gen_null(g);
	else
		json_int(g, v);
}

static void json_field(yajl_gen g, const char *key, double v)
{
	json_key(g, key);
	json_num(g, v);
}

static void json_text(yajl_gen g, const char *key, const char *s)
{
	json_key(g, key);
	json_str(g, s);
}

static void json_inputs(yajl_gen g, const struct plan_inputs *in)
{
	json_key(g, "inputs");
	yajl_gen_map_open(g);
	json_text(g, "model", in->model);
	json_field(g, "params", in->params);
	json_count(g, "hidden", in->hidden);
	json_count(g, "layers", in->layers);
	json_count(g, "heads", in->heads);
	json_count(g, "vocab", in->vocab);
	json_count(g, "micro_batch", in->micro_batch);
	json_count(g, "seq_len", in->seq_len);
	json_count(g, "grad_accum", in->grad_accum);
	json_count(g, "gpus", in->gpus);
	json_text(g, "precision", dtype_name(in->precision));
	json_text(g, "optimizer", plan_optimizer_name(in->optimizer));
	json_text(g, "checkpointing", plan_checkpointing_name(in->checkpointing));
	json_text(g, "attention", plan_attention_name(in->attention));
	json_key(g, "gpu_models");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < in->ngpu; i++)
		json_str(g, in->gpu[i]->name);
	yajl_gen_array_close(g);
	json_text(g, "hypothesis", in->hypothesis);
	json_field(g, "expected_speedup", in->expected_speedup);
	json_text(g, "question", in->question);
	json_text(g, "title", in->title[0] ? in->title : NULL);
	json_count(g, "target_samples", in->target_samples);
	json_count(g, "target_tokens", in->target_tokens);
	json_field(g, "price", in->price);
	json_field(g, "memory_reserve_bytes", in->reserve_bytes);
	json_field(g, "context_bytes", in->context_bytes);
	json_field(g, "nccl_bytes", in->nccl_bytes);
	json_field(g, "fragmentation", in->fragmentation);
	json_field(g, "mfu", in->mfu);
	json_field(g, "ckpt_write_gbps", in->ckpt_write_gbps);
	json_field(g, "mtbf_hours", in->mtbf_hours);
	yajl_gen_map_close(g);
}

static void json_gpus(yajl_gen g, const struct plan_inputs *in, const struct plan_result *r)
{
	json_key(g, "gpu_models");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < in->ngpu; i++) {
		const struct plan_fit *f = &r->s[PLAN_SINGLE].fit[i];

		yajl_gen_map_open(g);
		json_text(g, "name", f->gpu->name);
		json_field(g, "capacity_bytes", f->capacity);
		json_text(g, "capacity_source", f->capacity_reported ? "reported" : "nominal");
		json_text(g, "link", gpu_link_name(f->gpu->link));
		json_field(g, "link_gbps", f->gpu->link_gbps);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_memory(yajl_gen g, const struct plan_memory *m)
{
	json_key(g, "memory_per_gpu_bytes");
	yajl_gen_map_open(g);
	json_field(g, "weights", m->weights);
	json_field(g, "gradients", m->gradients);
	json_field(g, "optimizer", m->optimizer);
	json_field(g, "activations", m->activations);
	json_field(g, "reserve", m->reserve);
	json_field(g, "total", m->total);
	yajl_gen_map_close(g);
}

static void json_strategy(yajl_gen g, const struct plan_inputs *in, const struct plan_strategy_result *s)
{
	yajl_gen_map_open(g);
	json_text(g, "name", plan_strategy_name(s->strategy));
	json_count(g, "gpus", s->gpus);
	json_memory(g, &s->mem);
	json_key(g, "fits");
	yajl_gen_map_open(g);
	for (size_t i = 0; i < in->ngpu; i++) {
		json_key(g, in->gpu[i]->name);
		if (s->fit[i].fits < 0)
			yajl_gen_null(g);
		else
			yajl_gen_bool(g, s->fit[i].fits);
	}
	yajl_gen_map_close(g);
	json_field(g, "comm_bytes_per_step", s->comm_bytes);
	json_field(g, "comm_payload_bytes_per_step", s->comm_payload_bytes);
	json_key(g, "comm_s_per_step");
	yajl_gen_map_open(g);
	for (size_t i = 0; i < in->ngpu; i++)
		json_field(g, in->gpu[i]->name, s->fit[i].comm_s);
	yajl_gen_map_close(g);
	json_text(g, "tests", s->tests);
	yajl_gen_map_close(g);
}

static void json_option(yajl_gen g, const struct plan_inputs *in, const struct plan_option *o)
{
	yajl_gen_map_open(g);
	json_text(g, "strategy", plan_strategy_name(o->strategy));
	json_count(g, "gpus", o->gpus);
	json_text(g, "gpu_model", in->gpu[0]->name);
	json_field(g, "tokens_per_s", o->tokens_per_s);
	json_field(g, "days_to_target", o->days_to_target);
	json_count(g, "window_days", o->window_days);
	json_field(g, "gpu_hours", o->gpu_hours);
	json_field(g, "cost", o->cost);
	json_field(g, "checkpoint_write_s", o->ckpt_write_s);
	json_field(g, "checkpoint_interval_s", o->ckpt_interval_s);
	yajl_gen_map_close(g);
}

/* The explanation, one string per line. */
static void json_explain(yajl_gen g, const struct plan_inputs *in, const struct plan_result *r)
{
	struct buf text = BUF_INIT;

	buf_init(&text, 0);
	write_explain(in, r, &text);
	json_key(g, "explain");
	yajl_gen_array_open(g);
	for (char *line = text.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		json_str(g, line);
	}
	yajl_gen_array_close(g);
	buf_release(&text);
}

static int write_json(const struct plan_inputs *in, const struct plan_result *r)
{
	yajl_gen g = json_new();
	int rc;

	yajl_gen_map_open(g);
	json_inputs(g, in);
	json_gpus(g, in, r);
	json_key(g, "strategies");
	yajl_gen_array_open(g);
	for (int i = 0; i < PLAN_NSTRATEGY; i++)
		if (shown(in, i))
			json_strategy(g, in, &r->s[i]);
	yajl_gen_array_close(g);
	json_text(g, "recommended", r->recommended < 0 ? NULL : plan_strategy_name(r->recommended));
	json_text(g, "reason", r->reason);
	json_text(g, "hypothesis_note", r->hypothesis_note);
	json_key(g, "options");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < r->noption; i++)
		json_option(g, in, &r->option[i]);
	yajl_gen_array_close(g);
	if (explain)
		json_explain(g, in, r);
	yajl_gen_map_close(g);
	rc = json_flush(g, stdout, true);
	yajl_gen_free(g);
	return rc;
}

/* --- the plan on disk --- */

static int write_plan(const struct plan_inputs *in, const struct plan_result *r)
{
	struct plan_files pf;
	struct plan_run run[2];
	struct diags d = DIAGS_INIT;
	int rc;

	plan_files_from(&pf, run, in, r);
	rc = plan_write_dir(&pf, outdir, force ? PLAN_FORCE : 0, &d);
	print_diags(&d);
	diags_release(&d);
	return rc < 0 ? EXIT_NO_INPUT : EXIT_DONE;
}

static int write_skeleton(void)
{
	struct diags d = DIAGS_INIT;
	int rc = plan_write_skeleton(initdir, force ? PLAN_FORCE : 0, &d);

	print_diags(&d);
	diags_release(&d);
	return rc < 0 ? EXIT_NO_INPUT : EXIT_DONE;
}

static int print_plan(const struct plan_inputs *in, const struct plan_result *r)
{
	struct buf out = BUF_INIT;
	int rc = 0;

	if (json)
		return write_json(in, r) < 0 ? -1 : 0;
	buf_init(&out, 0);
	write_text(in, r, &out);
	if (explain) {
		struct buf text = BUF_INIT;

		buf_init(&text, 0);
		buf_addstr(&out, "\nhow these numbers are made:\n");
		write_explain(in, r, &text);
		wrap_lines(&out, &text);
		buf_release(&text);
	}
	if (utf8_write(stdout, out.data, out.len, UTF8_CONTROLS) < 0 || fflush(stdout))	/* a title */
		rc = -1;
	buf_release(&out);
	return rc;
}

static bool any_input(void)
{
	for (size_t i = 0; i < NGIVEN; i++)
		if (given[i].value)
			return true;
	return gpu_list.len > 0;
}

static int plan(int argc, char **argv)
{
	struct plan_inputs in;
	struct plan_result r;
	char err[256];
	int rc;

	if (initdir)
		return outdir || argc || any_input() ?
		       usage_error("plan", "--init DIR writes the skeleton only: no inputs, no -o") :
		       write_skeleton();
	if (argc > 1)
		return usage_error("plan", "one PLAN.ini at a time");
	plan_inputs_init(&in);
	if (argc == 1 && (rc = read_ini(argv[0], &in)) != EXIT_DONE)
		return rc;
	if ((rc = apply_options(&in)) != EXIT_DONE)
		return rc;
	if (plan_check(&in, err, sizeof(err)) < 0)
		return usage_error("plan", "%s", err);
	plan_compute(&in, &r);
	if (print_plan(&in, &r) < 0)
		return EXIT_NO_INPUT;	/* the write error is said once, by main */
	return outdir ? write_plan(&in, &r) : EXIT_DONE;
}

int cmd_plan(int argc, char **argv)
{
	int rc = plan(argc, argv);

	buf_release(&gpu_list);
	return rc;
}
