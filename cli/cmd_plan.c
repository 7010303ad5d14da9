/*
 * plan: before the rental. Reads the model's inputs from the options and an
 * optional PLAN.ini ([plan] section, the same keys), computes the model
 * (analysis/plan), prints it as text or JSON (render/plan_text,
 * render/plan_json), with --explain every formula with its numbers, and with
 * -o DIR or --init DIR writes the trial plan (render/plan_files).
 */
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/plan.h"
#include "analysis/result.h"
#include "cli/cli.h"
#include "core/buf.h"
#include "core/ini_lines.h"
#include "core/utf8.h"
#include "render/analysis_json.h"
#include "render/plan_files.h"
#include "render/plan_json.h"
#include "render/plan_text.h"

static int json, explain, force;	/* --json, --explain, --force */
static const char *outdir, *initdir;	/* -o DIR, --init DIR */
static const char *from;		/* --from ANALYSIS.json */
static char from_source[320];		/* what the measures are, for every figure that uses one */
static struct buf gpu_list = BUF_INIT;	/* every --gpu, joined by commas */

enum given_key {
	G_PARAMS, G_GPUS, G_STRATEGY, G_MICRO_BATCH, G_SEQ_LEN, G_HIDDEN, G_LAYERS, G_HEADS,
	G_VOCAB, G_PRECISION, G_OPTIMIZER, G_CHECKPOINTING, G_ATTENTION, G_GRAD_ACCUM,
	G_HYPOTHESIS, G_TITLE, G_EXPECTED_SPEEDUP, G_QUESTION, G_TARGET_SAMPLES, G_TARGET_TOKENS,
	G_PRICE, G_CURRENCY, G_MEMORY_RESERVE_GB, G_CONTEXT_GB, G_NCCL_GB, G_FRAGMENTATION, G_MFU,
	G_CKPT_WRITE_GBPS, G_MTBF_HOURS, G_MARGIN, G_LOT_GPUS, G_BUCKET_VIEW,
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
	[G_CURRENCY] = { .key = "currency" },
	[G_MEMORY_RESERVE_GB] = { .key = "memory_reserve_gb" },
	[G_CONTEXT_GB] = { .key = "context_gb" },
	[G_NCCL_GB] = { .key = "nccl_gb" },
	[G_FRAGMENTATION] = { .key = "fragmentation" },
	[G_MFU] = { .key = "mfu" },
	[G_CKPT_WRITE_GBPS] = { .key = "ckpt_write_gbps" },
	[G_MTBF_HOURS] = { .key = "mtbf_hours" },
	[G_MARGIN] = { .key = "margin" },
	[G_LOT_GPUS] = { .key = "lot_gpus" },
	[G_BUCKET_VIEW] = { .key = "bucket_view" },
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
	OPTION_STRING(0, "optimizer", V(G_OPTIMIZER), "NAME",
		      "adam, adamw, sgd (with momentum), adafactor, adam8bit or adamw8bit (default adam)"),
	{ .kind = OPT_STRING, .long_name = "bucket-view", .value = V(G_BUCKET_VIEW), .value_name = "YES",
	  .flags = OPT_OPTIONAL_VALUE, .deflt = "yes",
	  .help = "DDP runs with gradient_as_bucket_view=True: no second copy of the gradients in "
		  "its buckets (yes or no; default no)" },
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
	OPTION_STRING(0, "currency", V(G_CURRENCY), "CODE", "what --price is in (USD, EUR, $), shown with every cost"),
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
	OPTION_STRING(0, "margin", V(G_MARGIN), "SHARE",
		      "room over the days needed when a rental window is chosen (default 0.15)"),
	OPTION_STRING(0, "lot-gpus", V(G_LOT_GPUS), "N", "GPUs per rented lot (default 2)"),
	OPTION_STRING(0, "from", &from, "ANALYSIS.json",
		      "take the throughput, scaling efficiency and peak memory a finished trial measured "
		      "(scaleaudit analyze --json) instead of the model's"),
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

/* The bad lines said one by one up to here; the rest are counted (a binary file would flood). */
#define PLAN_INI_SAID 20
/* A PLAN.ini is a few dozen lines: anything this large is not one. */
#define PLAN_INI_MAX (1024 * 1024)

/* A bad line's message, unless PLAN_INI_SAID were said already. */
static void __attribute__((format(printf, 2, 3))) say_bad(struct ini_read *r, const char *fmt, ...)
{
	va_list ap;

	if (r->bad++ >= PLAN_INI_SAID)
		return;
	va_start(ap, fmt);
	utf8_vline(stderr, fmt, ap);
	va_end(ap);
}

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
	say_bad(r, "%s:%lld: %s", r->path, (long long)r->src.line, err);
	return 1;
}

/* A line with a control byte is not read: said at its line and column, and the plan fails. */
static void plan_ini_control(struct ini_lines *src, int64_t col, unsigned byte)
{
	struct ini_read *r = src->user;

	say_bad(r, "%s:%lld:%lld: control byte 0x%02x in the line: not read", r->path,
		(long long)src->line, (long long)col, byte);
}

/* PLAN.ini into in; prints "file:line: message" for each bad line and returns EXIT_NO_INPUT then. */
/*
 * PLAN.ini opened for reading: a regular file of at most PLAN_INI_MAX bytes
 * (opened without blocking, so that a FIFO is refused, not waited on); NULL
 * after a message.
 */
static FILE *open_ini(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0 || fstat(fd, &st) < 0) {
		error("%s: %s", path, strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		error("%s: a directory, not a PLAN.ini", path);
	} else if (!S_ISREG(st.st_mode)) {
		error("%s: not a regular file (%s), not a PLAN.ini", path,
		      S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
	} else if (st.st_size > PLAN_INI_MAX) {
		error("%s: %lld bytes, larger than a PLAN.ini can be (1 MiB)", path, (long long)st.st_size);
	} else if (fcntl(fd, F_SETFL, 0) < 0 || !(f = fdopen(fd, "r"))) {
		error("%s: %s", path, strerror(errno));
	} else {
		return f;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int read_ini(const char *path, struct plan_inputs *in)
{
	struct ini_read r = { .in = in, .path = path,
			      .src = { .f = open_ini(path), .control = plan_ini_control } };
	int line;

	if (!r.src.f)
		return EXIT_NO_INPUT;
	r.src.user = &r;
	line = ini_parse_stream(ini_lines_next, &r.src, plan_ini_line, &r);
	fclose(r.src.f);
	ini_lines_release(&r.src);
	if (r.bad > PLAN_INI_SAID)
		fprintf(stderr, "%s: %d more bad lines not shown\n", path, r.bad - PLAN_INI_SAID);
	if (line > 0)
		fprintf(stderr, "%s:%d: not an INI line (expected [section] or key = value)\n", path, line);
	return line || r.bad ? EXIT_NO_INPUT : EXIT_DONE;
}

/* A measured run's plain numbers into slot i of m. */
static void measured_run(struct plan_measured *m, int i, const struct run_result *r)
{
	double peak = NAN;

	for (size_t g = 0; g < r->ngpu; g++)
		if (r->gpu[g].peak_memory >= 0 && !(peak >= (double)r->gpu[g].peak_memory))
			peak = (double)r->gpu[g].peak_memory;
	m->gpus[i] = r->gpus;
	m->strategy[i] = r->strategy ? plan_strategy_parse(r->strategy) : -1;
	m->samples_per_s[i] = r->samples_per_s;
	m->tokens_per_s[i] = isfinite(r->tokens_per_s) ? r->tokens_per_s :
			     r->seq_len > 0 ? r->samples_per_s * (double)r->seq_len : NAN;
	m->peak_bytes[i] = peak;
}

/* --from: the baseline and candidate runs of a finished trial's analysis.json. */
static int read_from(struct plan_inputs *in)
{
	struct diags d = DIAGS_INIT;
	struct analysis *a = analysis_read_json(from, &d);
	const struct comparison *c;
	int rc = EXIT_DONE;

	print_diags(&d);
	diags_release(&d);
	if (!a)
		return EXIT_NO_INPUT;
	c = &a->cmp;
	if (!c->valid) {
		rc = error("%s: no baseline and candidate run compared: nothing measured to plan from", from);
	} else {
		measured_run(&in->measured, 0, &a->runs[c->baseline]);
		measured_run(&in->measured, 1, &a->runs[c->candidate]);
		in->measured.efficiency = c->scaling_efficiency;
		snprintf(from_source, sizeof(from_source), "%s, runs %s and %s", from,
			 a->runs[c->baseline].name, a->runs[c->candidate].name);
		in->measured.source = from_source;
		/* the trial's currency names the price unless --currency or the PLAN.ini did */
		if (!in->currency[0] && a->currency && strlen(a->currency) < sizeof(in->currency))
			memcpy(in->currency, a->currency, strlen(a->currency) + 1);
	}
	analysis_free(a);
	return rc ? EXIT_NO_INPUT : EXIT_DONE;
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
		return plan_json(in, r, explain, stdout) < 0 ? -1 : 0;
	buf_init(&out, 0);
	plan_text(in, r, explain, &out);
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
	return gpu_list.len > 0 || from;
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
	if ((rc = apply_options(&in)) != EXIT_DONE || (from && (rc = read_from(&in)) != EXIT_DONE))
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
