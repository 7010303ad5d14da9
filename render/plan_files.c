#include "render/plan_files.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/thresholds.h"
#include "core/buf.h"
#include "core/gpu.h"
#include "core/model.h"
#include "core/manifest_keys.h"
#include "core/money.h"
#include "core/qty.h"
#include "core/xalloc.h"
#include "render/report.h"

#define FILE_MAX (1u << 20)	/* a plan file is a few KB; this bounds a runaway */
#define WRAP 90			/* comment lines are wrapped at this column */

/* Where the value of a manifest key comes from in the plan. */
enum field_type {
	F_STR,		/* const char *, NULL unknown */
	F_I64,		/* int64_t, < 0 unknown (a seed may be 0) */
	F_COUNT,	/* int64_t, <= 0 unknown */
	F_MICRO,	/* the run's micro batch, else the plan's */
	F_INT,		/* int, <= 0 unknown */
	F_NUM,		/* double, NaN or negative unknown */
	F_RATIO,	/* double, NaN or <= 0 unknown */
	F_GB,		/* double bytes, NaN or negative unknown, written in GB */
	F_STRATEGY,	/* const char *: the model's strategy, written as run.ini's */
	F_BASELINE,	/* none: the run with the fewest GPUs */
};

struct field {
	const char *key;	/* a manifest key of core/manifest_keys.h */
	enum field_type type;
	bool per_run;		/* in struct plan_run, else in struct plan_files */
	size_t offset;
};

#define P(f) false, offsetof(struct plan_files, f)
#define PR(f) true, offsetof(struct plan_run, f)

static const struct field fields[] = {
	{ "title", F_STR, P(title) },
	{ "hypothesis", F_STR, P(hypothesis) },
	{ "baseline", F_BASELINE, P(runs) },
	{ "question", F_STR, P(question) },
	{ "target_samples", F_COUNT, P(target_samples) },
	{ "target_tokens", F_COUNT, P(target_tokens) },
	{ "gpu_hour_price", F_NUM, P(gpu_hour_price) },
	{ "currency", F_STR, P(currency) },
	{ "memory_reserve_gb", F_NUM, P(memory_reserve_gb) },
	{ "expected_speedup", F_RATIO, P(expected_speedup) },
	{ "name", F_STR, PR(dir) },
	{ "gpus", F_INT, PR(gpus) },
	{ "strategy", F_STRATEGY, PR(strategy) },
	{ "precision", F_STR, P(precision) },
	{ "global_batch", F_COUNT, PR(global_batch) },
	{ "micro_batch", F_MICRO, PR(micro_batch) },
	{ "grad_accum", F_COUNT, PR(grad_accum) },
	{ "seq_len", F_COUNT, P(seq_len) },
	{ "dataset", F_STR, P(dataset) },
	{ "model", F_STR, P(model) },
	{ "seed", F_I64, P(seed) },
	{ "predicted_peak_gb", F_GB, PR(predicted_peak_bytes) },
	{ "predicted_step_s", F_NUM, PR(predicted_step_s) },
	/* the rental's keys: written where the manifest's table holds them */
	{ "lot_gpus", F_INT, P(lot_gpus) },
	{ "margin", F_NUM, P(margin) },
	{ "mtbf_hours", F_NUM, P(mtbf_hours) },
	{ "checkpoint_write_s", F_NUM, P(checkpoint_write_s) },
};

/* The run.ini keys every run holds at the same value. */
static const char *const held[] = {
	"precision", "micro_batch", "seq_len", "dataset", "model", "seed",
};

/* The model's strategies that run.ini names otherwise. */
static const struct { const char *model, *manifest; } strategy_names[] = {
	{ "zero1", "zero" }, { "zero2", "zero" }, { "zero3", "zero" },
};

void plan_files_init(struct plan_files *pf)
{
	*pf = (struct plan_files){
		.expected_speedup = NAN, .target_samples = -1, .target_tokens = -1,
		.gpu_hour_price = NAN, .memory_reserve_gb = NAN, .micro_batch = -1,
		.seq_len = -1, .seed = -1, .checkpoint_interval_s = NAN,
		.checkpoint_write_s = NAN, .mtbf_s = NAN, .profile_active = 7, .margin = NAN,
		.days_needed = NAN, .gpu_hours = NAN, .cost = NAN, .mtbf_hours = NAN,
	};
}

/* run.ini's name for a strategy; NULL when run.ini has none. */
static const char *manifest_strategy(const char *s)
{
	for (size_t i = 0; i < sizeof(strategy_names) / sizeof(strategy_names[0]); i++)
		if (!strcmp(strategy_names[i].model, s))
			return strategy_names[i].manifest;
	for (size_t i = 0; manifest_strategies[i]; i++)
		if (!strcmp(manifest_strategies[i], s))
			return s;
	return NULL;
}

/* The estimated step time of a run: its tokens per step at its estimated throughput. */
static double step_s(const struct plan_inputs *in, const struct plan_result *r, int strategy,
		     int64_t global_batch)
{
	const struct plan_option *o = plan_option_of(r, strategy);

	if (!o || global_batch < 0 || in->seq_len < 0)
		return NAN;
	return (double)global_batch * (double)in->seq_len / o->tokens_per_s;
}

/* The peak per GPU of strategy with the micro batch micro instead of the inputs'. */
static double peak_with_micro(const struct plan_inputs *in, int strategy, int64_t micro)
{
	struct plan_inputs m = *in;
	struct plan_result r;

	m.micro_batch = micro;
	plan_compute(&m, &r);
	return r.s[strategy].mem.total;
}

/* A step-time trial under data parallelism: the runs step over the same global batch. */
static void hold_global_batch(const struct plan_inputs *in, int rec, struct plan_run run[2],
			      const char **note)
{
	int64_t b = in->micro_batch, ga = in->grad_accum, n = in->gpus;

	if (b > 0 && b % n == 0) {
		run[0].micro_batch = b;
		run[1].micro_batch = b / n;
		run[1].predicted_peak_bytes = peak_with_micro(in, rec, b / n);
		*note = "the multi-GPU run's micro batch is the 1-GPU run's divided by its GPU count, "
			"so that both runs step over the same global batch";
	} else if (ga % n == 0) {
		run[1].grad_accum = ga / n;
		*note = "the multi-GPU run's grad_accum is the 1-GPU run's divided by its GPU count, "
			"so that both runs step over the same global batch";
	} else {
		run[0].grad_accum = ga * n;
		*note = "neither the micro batch nor grad_accum divides by the GPU count, so the 1-GPU "
			"run's grad_accum is multiplied by it: both runs step over the same global batch";
	}
}

/* The planned runs into run[0..1]; their count. */
static size_t planned_runs(const struct plan_inputs *in, const struct plan_result *r,
			   const char *hypothesis, struct plan_run run[2], const char **note)
{
	int rec = r->recommended;
	int64_t b = in->micro_batch;
	bool dp = rec >= PLAN_DDP && rec <= PLAN_FSDP;

	*note = NULL;
	run[0] = (struct plan_run){ .dir = "1gpu", .gpus = 1, .strategy = "single",
				    .grad_accum = in->grad_accum,
				    .predicted_peak_bytes = r->s[PLAN_SINGLE].mem.total };
	if (rec > PLAN_SINGLE) {	/* --strategy single plans the 1-GPU run alone */
		run[1] = (struct plan_run){ .dir = in->gpus == 2 ? "2gpu" : "ngpu", .gpus = in->gpus,
					    .strategy = plan_strategy_name(rec),
					    .grad_accum = in->grad_accum,
					    .predicted_peak_bytes = r->s[rec].mem.total };
		if (dp && hypothesis && !strcmp(hypothesis, "step-time"))
			hold_global_batch(in, rec, run, note);
		/* data parallelism: every GPU steps over its own micro batches */
		run[1].global_batch = b < 0 ? -1 : (run[1].micro_batch > 0 ? run[1].micro_batch : b) *
				      run[1].grad_accum * (dp ? in->gpus : 1);
		run[1].predicted_step_s = step_s(in, r, rec, run[1].global_batch);
	}
	run[0].global_batch = b < 0 ? -1 : b * run[0].grad_accum;
	run[0].predicted_step_s = step_s(in, r, PLAN_SINGLE, run[0].global_batch);
	return rec > PLAN_SINGLE ? 2 : 1;
}

/* The planned option's rental: its window as rented, checkpoints and stop criteria. */
static void rental_from(struct plan_files *pf, const struct plan_inputs *in, const struct plan_option *o)
{
	pf->checkpoint_write_s = o->ckpt_write_s;
	pf->rate_source = o->measured ? in->measured.source : "modelled";
	if (o->window.days <= 0)
		return;
	pf->window_days = o->window.days;
	pf->window_count = o->window.count;
	pf->lots = o->lots;
	pf->days_needed = o->days_to_target;
	pf->gpu_hours = o->gpu_hours;
	pf->cost = o->cost;
	if (o->window.days < 30)
		return;
	pf->has_stop = true;
	pf->stop = o->stop;
	pf->checkpoint_interval_s = o->ckpt_interval_s;
	pf->mtbf_s = in->mtbf_hours * 3600;
}

void plan_files_from(struct plan_files *pf, struct plan_run run[2], const struct plan_inputs *in,
		     const struct plan_result *r)
{
	const struct plan_option *o = r->recommended < 0 ? NULL : plan_option_of(r, r->recommended);

	plan_files_init(pf);
	pf->hypothesis = in->hypothesis ? in->hypothesis :
			 r->recommended < 0 ? NULL : r->s[r->recommended].tests;
	pf->tests = r->recommended > PLAN_SINGLE ? r->s[r->recommended].tests : NULL;
	pf->hypothesis_note = r->hypothesis_note;
	pf->title = in->title[0] ? in->title : NULL;
	pf->currency = in->currency[0] ? in->currency : NULL;
	pf->expected_speedup = in->expected_speedup;
	pf->question = in->question;
	pf->target_samples = in->target_samples;
	pf->target_tokens = in->target_tokens;
	pf->gpu_hour_price = in->price;
	pf->memory_reserve_gb = in->reserve_bytes / 1e9;
	pf->precision = dtype_name(in->precision);
	pf->micro_batch = in->micro_batch;
	pf->seq_len = in->seq_len;
	pf->model = in->model;
	pf->runs = run;
	pf->nruns = planned_runs(in, r, pf->hypothesis, run, &pf->batch_note);
	pf->gpu = in->gpu[0];
	pf->nfallback = plan_fallbacks(r, in, pf->fallback, sizeof(pf->fallback) / sizeof(pf->fallback[0]));
	pf->lot_gpus = in->lot_gpus;
	pf->margin = in->margin;
	pf->mtbf_hours = in->mtbf_hours;
	if (o)
		rental_from(pf, in, o);
}

/* The baseline: the first run with the fewest GPUs; NULL without runs. */
static const struct plan_run *baseline(const struct plan_files *pf)
{
	const struct plan_run *best = NULL;

	for (size_t i = 0; i < pf->nruns; i++)
		if (!best || pf->runs[i].gpus < best->gpus)
			best = &pf->runs[i];
	return best;
}

static const struct field *field_of(const char *key)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].key, key))
			return &fields[i];
	return NULL;
}

/* The micro batch of run r (NULL: of the plan) in out[n]; false when unknown. */
static bool micro_batch(const struct plan_files *pf, const struct plan_run *r, char *out, size_t n)
{
	int64_t v = r && r->micro_batch > 0 ? r->micro_batch : pf->micro_batch;

	return v > 0 && snprintf(out, n, "%lld", (long long)v) > 0;
}

/* True when the runs are planned with micro batches of their own that differ. */
static bool micro_batches_differ(const struct plan_files *pf)
{
	for (size_t i = 1; i < pf->nruns; i++)
		if (pf->runs[i].micro_batch != pf->runs[0].micro_batch)
			return true;
	return false;
}

/* True when key of the held list is the same in every run (the micro batch may not be). */
static bool held_by_all(const struct plan_files *pf, const char *key)
{
	return strcmp(key, "micro_batch") || !micro_batches_differ(pf);
}

/* The field's value at base, as its type stores it. */
static const char *str_at(const char *base) { return *(const char *const *)(const void *)base; }
static int64_t i64_at(const char *base) { return *(const int64_t *)(const void *)base; }
static int int_at(const char *base) { return *(const int *)(const void *)base; }
static double num_at(const char *base) { return *(const double *)(const void *)base; }

/* The lowest value of a known number of type t. */
static double num_floor(enum field_type t)
{
	return t == F_RATIO ? DBL_MIN : 0;
}

/* The value of key for run r as text in out[n]; false when unknown or not planned. */
static bool value_of(const struct plan_files *pf, const struct plan_run *r, const char *key,
		     char *out, size_t n)
{
	const struct field *f = field_of(key);
	const char *base, *s;

	if (!f)
		return false;
	if (f->type == F_MICRO)
		return micro_batch(pf, r, out, n);
	if (f->per_run && !r)
		return false;
	base = (f->per_run ? (const char *)r : (const char *)pf) + f->offset;
	switch (f->type) {
	case F_STR:
		return (s = str_at(base)) && snprintf(out, n, "%s", s) > 0;
	case F_STRATEGY:
		return (s = str_at(base)) && (s = manifest_strategy(s)) && snprintf(out, n, "%s", s) > 0;
	case F_I64:
	case F_COUNT:
		return i64_at(base) >= (f->type == F_COUNT) &&
		       snprintf(out, n, "%lld", (long long)i64_at(base)) > 0;
	case F_INT:
		return int_at(base) > 0 && snprintf(out, n, "%d", int_at(base)) > 0;
	case F_NUM:
	case F_RATIO:
		return isfinite(num_at(base)) && num_at(base) >= num_floor(f->type) &&
		       snprintf(out, n, "%.6g", num_at(base)) > 0;
	case F_GB:
		return isfinite(num_at(base)) && num_at(base) >= 0 &&
		       snprintf(out, n, "%.3f", num_at(base) / 1e9) > 0;
	case F_BASELINE:
		return pf->nruns > 1 && snprintf(out, n, "%s", baseline(pf)->dir) > 0;
	case F_MICRO:	/* above */
		break;
	}
	return false;
}

/* Appends text as comment lines ("# ..."), wrapped at WRAP columns. */
static void comment(struct buf *b, const char *text)
{
	while (*text) {
		size_t n = strlen(text), cut = n;

		if (n > WRAP - 2) {
			cut = WRAP - 2;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (!cut)
				cut = strcspn(text, " ");
		}
		buf_addf(b, "# %.*s\n", (int)cut, text);
		text += cut;
		text += *text == ' ';
	}
}

/* A planned manifest: each known key of section with its meaning above it. */
static void planned_ini(struct buf *b, const struct plan_files *pf, const struct plan_run *r,
			const char *section)
{
	size_t n;
	const struct manifest_key *k = manifest_keys(&n);
	char v[512];

	buf_addf(b, "[%s]\n", section);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].section, section) || !value_of(pf, r, k[i].name, v, sizeof(v)))
			continue;
		buf_addch(b, '\n');
		comment(b, k[i].help);
		buf_addf(b, "%s = %s\n", k[i].name, v);
	}
}

/*
 * trial.ini's note of the constants: they are [run] keys, declared in each run.ini (in
 * trial.ini they would be ignored), so here they are a comment.
 */
static void held_comment(struct buf *b, const struct plan_files *pf)
{
	struct buf line;
	char v[512];

	buf_init(&line, FILE_MAX);
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (held_by_all(pf, held[i]) && value_of(pf, NULL, held[i], v, sizeof(v)))
			buf_addf(&line, "%s%s = %s", line.len ? ", " : "Held constant in every run "
				 "(each run.ini declares them; analyze checks them against the logs): ",
				 held[i], v);
	if (line.len) {
		buf_addch(b, '\n');
		comment(b, line.data);
	}
	buf_release(&line);
}

/* The skeleton of a manifest: every key of section commented out, with its meaning. */
static void skeleton_ini(struct buf *b, const char *section)
{
	size_t n;
	const struct manifest_key *k = manifest_keys(&n);

	buf_addf(b, "[%s]\n", section);
	for (size_t i = 0; i < n; i++) {
		char *line;

		if (strcmp(k[i].section, section))
			continue;
		line = xasprintf("%s. Allowed: %s. Without it: %s.", k[i].help, k[i].allowed, k[i].dflt);
		buf_addch(b, '\n');
		comment(b, line);
		buf_addf(b, "# %s =\n", k[i].name);
		free(line);
	}
}

/* A duration for a person: minutes under two hours, else hours. */
static void duration(struct buf *b, double s)
{
	if (s < 7200)
		buf_addf(b, "%.0f min", s / 60);
	else
		buf_addf(b, "%.1f h", s / 3600);
}

/* CHECKLIST.md: what to hold constant. */
static void checklist_constants(struct buf *b, const struct plan_files *pf)
{
	char v[512];

	buf_addstr(b, "\n## Hold constant\n\nEvery run declares these in its run.ini, and "
		   "`scaleaudit analyze` checks them against the logs; a run that changes one "
		   "answers another question.\n\n");
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++) {
		if (!held_by_all(pf, held[i]))
			continue;	/* the runs' own, in the table below */
		buf_addf(b, "- `%s` = %s\n", held[i],
			 value_of(pf, NULL, held[i], v, sizeof(v)) ? v : "(not planned: write it down)");
	}
	buf_addf(b, "- the global batch: %s\n", pf->hypothesis && !strcmp(pf->hypothesis, "global-batch") ?
		 "grows with the GPUs (the hypothesis), while the micro batch stays" :
		 "the same in every run unless the hypothesis is global-batch");
	if (pf->batch_note)
		buf_addf(b, "  (%s)\n", pf->batch_note);
	buf_addstr(b, "- the code, the software environment and the node type\n");
}

/* CHECKLIST.md: the runs and what the plan predicts for each. */
static void checklist_runs(struct buf *b, const struct plan_files *pf)
{
	char v[64];

	buf_addstr(b, "\n## Planned runs\n\n| run | GPUs | strategy | micro batch | global batch |"
		   " predicted peak per GPU (GB) | predicted step (s) |\n"
		   "| --- | --- | --- | --- | --- | --- | --- |\n");
	for (size_t i = 0; i < pf->nruns; i++) {
		const struct plan_run *r = &pf->runs[i];

		/* run.ini's word, so that the checklist and the manifest say the same */
		buf_addf(b, "| %s | %d | %s | ", r->dir, r->gpus,
			 value_of(pf, r, "strategy", v, sizeof(v)) ? v : "?");
		buf_addf(b, "%s | ", value_of(pf, r, "micro_batch", v, sizeof(v)) ? v : "?");
		buf_addf(b, "%s | ", value_of(pf, r, "global_batch", v, sizeof(v)) ? v : "?");
		buf_addf(b, "%s | ", value_of(pf, r, "predicted_peak_gb", v, sizeof(v)) ? v : "?");
		buf_addf(b, "%s |\n", value_of(pf, r, "predicted_step_s", v, sizeof(v)) ? v : "?");
	}
}

/* CHECKLIST.md: the commands, in the order they run. */
static void checklist_commands(struct buf *b, const struct plan_files *pf)
{
	int active = pf->profile_active < 7 ? 7 : pf->profile_active;

	buf_addstr(b, "\n## Before the rental\n\n"
		   "- [ ] Check the software environment the job will run in:\n"
		   "  `scaleaudit stack /path/to/venv` (Blackwell and ROCm readiness of the wheels "
		   "and extensions)\n"
		   "\n## First thing on the rented node\n\n"
		   "- [ ] `scaleaudit replay --smoke` (the essential kernels run on these GPUs)\n"
		   "- [ ] `nvidia-smi topo -m > topo.txt` (how the GPUs are linked)\n"
		   "- [ ] `python -m torch.utils.collect_env > collect_env.txt`\n"
		   "- [ ] nccl-tests: `all_reduce_perf -b 8 -e 1G -f 2 -g 2 > all_reduce_perf.txt` "
		   "(what the link delivers)\n");
	buf_addstr(b, "\n## Each run, in its own directory\n\n"
		   "- [ ] Start the GPU monitor before the job, in the run's directory:\n\n"
		   "      nvidia-smi --query-gpu=timestamp,index,name,memory.used,memory.total,"
		   "utilization.gpu,power.draw --format=csv -l 1 > nvidia-smi.csv &\n\n"
		   "- [ ] Run the job with NCCL's log on and keep its output (GPUS: the run's "
		   "`gpus`):\n\n"
		   "      NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV torchrun "
		   "--nproc_per_node=GPUS train.py ... 2>&1 | tee train.log\n\n");
	buf_addf(b, "- [ ] Profile %d steps after one to wait and one to warm up, with shapes and "
		 "memory:\n\n"
		 "      from torch.profiler import ProfilerActivity, profile, schedule, "
		 "tensorboard_trace_handler\n"
		 "      with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],\n"
		 "                   schedule=schedule(wait=1, warmup=1, active=%d, repeat=1),\n"
		 "                   record_shapes=True, profile_memory=True, with_stack=False,\n"
		 "                   on_trace_ready=tensorboard_trace_handler(\".\")) as prof:\n"
		 "          for step, batch in enumerate(loader):\n"
		 "              train_step(batch)\n"
		 "              prof.step()\n\n"
		 "  (or `on_trace_ready=lambda p: p.export_chrome_trace(f\"rank{rank}.pt.trace.json\")`;"
		 " one trace per rank)\n"
		 "- [ ] Stop the monitor (`kill %%1`) when the job ends\n", active, active);
	buf_addstr(b, "\n## After the trial\n\n"
		   "- [ ] `scaleaudit analyze TRIAL` (or `scaleaudit report TRIAL -o OUT`): the verdict, "
		   "and the predicted peaks and step times next to the measured ones\n");
}

/* A count for a person: 1,000,000; 2.5e+15 beyond what digits read well. */
static void add_count(struct buf *b, double v)
{
	char digits[MONEY_LEN];

	if (!(v < 1e15))
		buf_addf(b, "%.4g", v);
	else
		buf_addstr(b, count_text(digits, v));
}

/* CHECKLIST.md: the window as rented and, for 30 days, when to stop and re-plan. */
static void checklist_rental(struct buf *b, const struct plan_files *pf)
{
	char digits[MONEY_LEN];

	const struct plan_stop *st = &pf->stop;
	const char *unit = st->samples ? "samples" : "tokens";
	char q1[QTY_LEN], q2[QTY_LEN];

	if (pf->window_days <= 0)
		return;
	buf_addf(b, "- The rental planned: %d lot%s of %d GPU%s%s%s for ", pf->lots,
		 pf->lots == 1 ? "" : "s", pf->lot_gpus, pf->lot_gpus == 1 ? "" : "s",
		 pf->gpu ? " of " : "", pf->gpu ? pf->gpu->name : "");
	if (pf->window_count > 1)
		buf_addf(b, "%d consecutive %d-day windows", pf->window_count, pf->window_days);
	else
		buf_addf(b, "a %d-day window", pf->window_days);
	buf_addf(b, ": %.1f days needed at the planned rate (%s), with a %g%% margin; %s GPU-hours "
		 "rented", pf->days_needed, pf->rate_source ? pf->rate_source : "modelled",
		 pf->margin * 100, gpu_hours_text(digits, pf->gpu_hours));
	if (isfinite(pf->cost))
		buf_addf(b, ", cost %s%s", money_cost(digits, pf->cost, pf->currency),
			 pf->currency ? "" : " (in the price's units; currency names them)");
	buf_addstr(b, ".\n");
	if (!pf->has_stop)
		return;
	buf_addf(b, "- Stop and re-plan when the throughput stays under %s (%g%% of the "
		 "planned %s) for %d day%s, or when fewer than ", qty_rate(q1, st->min_rate, unit),
		 RENTAL_STOP_RATE_SHARE * 100, qty_rate(q2, st->min_rate / RENTAL_STOP_RATE_SHARE, unit),
		 RENTAL_STOP_SLOW_DAYS, RENTAL_STOP_SLOW_DAYS == 1 ? "" : "s");
	add_count(b, st->half_target);
	buf_addf(b, " %s are processed by day %g (half the target by half the days needed); stop at day "
		 "%g, the window's end, whatever the loss.\n", unit, st->half_days, st->end_days);
}

/* CHECKLIST.md: when to stop, and how often to checkpoint. */
static void checklist_stop(struct buf *b, const struct plan_files *pf)
{
	buf_addf(b, "\n## Stop criteria\n\n"
		 "- Stop a profiled run once its %d profiled steps are written; the profile does "
		 "not get better with more.\n"
		 "- Stop before any run when `replay --smoke` or `stack` reports a blocking problem: "
		 "the trial would measure a broken setup.\n"
		 "- A run that runs out of GPU memory: keep its train.log (the failed allocation "
		 "is evidence), and do not rerun other settings in its directory.\n"
		 "- Give the GPUs back once `analyze` confirms or refutes the hypothesis; when it is "
		 "inconclusive, fix the confound it names and rerun only the run concerned.\n",
		 pf->profile_active < 7 ? 7 : pf->profile_active);
	checklist_rental(b, pf);
	if (!isfinite(pf->checkpoint_interval_s))
		return;
	buf_addstr(b, "- Checkpoint every ");
	duration(b, pf->checkpoint_interval_s);
	buf_addstr(b, " (Young/Daly: sqrt(2 x C x M) - C");
	if (isfinite(pf->checkpoint_write_s) && isfinite(pf->mtbf_s)) {
		buf_addf(b, " with C = %.0f s to write a checkpoint and M = ", pf->checkpoint_write_s);
		duration(b, pf->mtbf_s);
		buf_addstr(b, " between failures");
	}
	buf_addstr(b, "); resume from the last one after a failure.\n");
}

/* What each hypothesis asks of the runs, and how analyze decides it. */
static const struct { const char *name, *text; } hypothesis_texts[] = {
	{ "step-time", "the multi-GPU run steps over the same global batch as the 1-GPU run in a "
		       "shorter step; `analyze` confirms it when the speedup (the 1-GPU step time over "
		       "the multi-GPU one) reaches expected_speedup (default 1.1)" },
	{ "global-batch", "the multi-GPU run steps over N times the 1-GPU run's global batch, each GPU "
			  "keeping the micro batch; `analyze` confirms it when the throughput ratio "
			  "reaches expected_speedup (default 1.1) with every GPU's peak memory under its "
			  "capacity" },
	{ "feasibility", "the 1-GPU run cannot hold the job and the multi-GPU run can; `analyze` "
			 "confirms it when the baseline fails (out of memory) and the multi-GPU run "
			 "completes with every GPU under its capacity" },
};

static void checklist_hypothesis(struct buf *b, const struct plan_files *pf)
{
	for (size_t i = 0; pf->hypothesis && i < sizeof(hypothesis_texts) / sizeof(hypothesis_texts[0]); i++)
		if (!strcmp(hypothesis_texts[i].name, pf->hypothesis))
			buf_addf(b, "\nWhat the runs test: %s.\n", hypothesis_texts[i].text);
	if (pf->hypothesis_note)
		buf_addf(b, "\n**Warning**: %s.\n", pf->hypothesis_note);
	else if (pf->hypothesis && pf->nruns > 1 && (!pf->tests || strcmp(pf->tests, pf->hypothesis)))
		buf_addf(b, "\n**Warning**: the planned %s run cannot show %s%s%s.\n",
			 pf->runs[1].strategy ? pf->runs[1].strategy : "multi-GPU", pf->hypothesis,
			 pf->tests ? "; it can show " : "", pf->tests ? pf->tests : "");
}

/* CHECKLIST.md: the GPU to rent with its capacity, and each fallback a run does not fit. */
static void checklist_gpus(struct buf *b, const struct plan_files *pf)
{
	char cap[64];

	if (!pf->gpu)
		return;
	buf_addf(b, "\n## GPUs\n\n- To rent: %s, %s; a fit is judged against the reported memory "
		 "where known.\n", pf->gpu->name, gpu_capacity_text(cap, sizeof(cap), pf->gpu, -1));
	for (size_t i = 0; i < pf->nfallback; i++) {
		const struct plan_fallback *f = &pf->fallback[i];
		char strategy[32], q[QTY_LEN];

		snprintf(strategy, sizeof(strategy), "%s", plan_strategy_name(f->strategy));
		buf_addf(b, "- **Warning**: the fallback %s cannot hold the planned %s run: it needs "
			 "%s per GPU, the %s has %s.\n", f->gpu->name,
			 manifest_strategy(strategy) ? manifest_strategy(strategy) : strategy,
			 qty_gb(q, f->need), f->gpu->name, gpu_capacity_text(cap, sizeof(cap), f->gpu, -1));
	}
}

static void checklist(struct buf *b, const struct plan_files *pf)
{
	buf_addf(b, "# Trial checklist%s%s\n\n", pf->title ? ": " : "", pf->title ? pf->title : "");
	if (pf->hypothesis)
		buf_addf(b, "Hypothesis: **%s**", pf->hypothesis);
	else
		buf_addstr(b, "Hypothesis: not yet written (set `hypothesis` in trial.ini before the "
			   "rental)");
	if (isfinite(pf->expected_speedup))
		buf_addf(b, ", confirmed at an expected_speedup of %.6g or more (the speedup; under "
			 "global-batch the throughput ratio)", pf->expected_speedup);
	buf_addstr(b, ".\n");
	checklist_hypothesis(b, pf);
	checklist_gpus(b, pf);
	checklist_constants(b, pf);
	if (pf->nruns)
		checklist_runs(b, pf);
	checklist_commands(b, pf);
	checklist_stop(b, pf);
}

/* One file to write: its path and content. */
struct out_file {
	char *path;
	struct buf text;
};

struct plan_out {
	const char *dir;
	struct out_file files[16];	/* trial.ini last */
	size_t n;
	struct diags *d;
};

static struct buf *add_file(struct plan_out *o, const char *sub, const char *name)
{
	struct out_file *f = &o->files[o->n++];

	f->path = sub ? xasprintf("%s/%s/%s", o->dir, sub, name) : xasprintf("%s/%s", o->dir, name);
	buf_init(&f->text, FILE_MAX);
	return &f->text;
}

static void out_release(struct plan_out *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->files[i].path);
		buf_release(&o->files[i].text);
	}
}

/* Creates dir and its missing parents, like mkdir -p; an existing one must be a directory. */
static int make_dirs(const char *dir, struct diags *d)
{
	struct stat st;

	if (make_dirs_as("plan-write", dir, d))
		return -1;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return diag_error(d, "plan-write", &SRCPOS_FILE(dir), "not a directory");
	return 0;
}

/* A run's directory under the trial: created, or an existing directory that is no link. */
static int make_run_dir(const char *dir, const char *sub, struct diags *d)
{
	char *p = xasprintf("%s/%s", dir, sub);
	struct stat st;
	int rc = 0;

	if (mkdir(p, 0777) && errno != EEXIST)
		rc = diag_error(d, "plan-write", &SRCPOS_FILE(p), "cannot create directory: %s",
				strerror(errno));
	else if (lstat(p, &st) || !S_ISDIR(st.st_mode))
		rc = diag_error(d, "plan-write", &SRCPOS_FILE(p), "not a directory (%s): nothing written",
				S_ISLNK(st.st_mode) ? "a symbolic link, not followed" : "a file");
	free(p);
	return rc;
}

/* Refuses a target that is a symbolic link, and an existing trial.ini without PLAN_FORCE. */
static int check_target(const char *path, bool is_trial, unsigned flags, struct diags *d)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	if (S_ISLNK(st.st_mode))
		return diag_error(d, "plan-write", &SRCPOS_FILE(path),
				  "is a symbolic link: not followed, nothing written");
	if (!S_ISREG(st.st_mode))
		return diag_error(d, "plan-write", &SRCPOS_FILE(path), "not a regular file: nothing written");
	if (is_trial && !(flags & PLAN_FORCE))
		return diag_error(d, "plan-exists", &SRCPOS_FILE(path),
				  "already exists: not replaced (--force replaces it)");
	return 0;
}

/* Writes the text of a struct out_file; a text over FILE_MAX is refused (EFBIG). */
static int put_text(FILE *f, void *ctx)
{
	const struct out_file *o = ctx;

	if (o->text.overflow) {
		errno = EFBIG;
		return -1;
	}
	return fwrite(o->text.data, 1, o->text.len, f) == o->text.len ? 0 : -1;
}

/*
 * Writes every file of o: checks all targets first (so a refusal writes nothing), creates
 * the run directories, then each file, trial.ini last.
 */
static int out_write(struct plan_out *o, const char *const *subs, size_t nsubs, unsigned flags)
{
	if (make_dirs(o->dir, o->d))
		return -1;
	for (size_t i = 0; i < o->n; i++)
		if (check_target(o->files[i].path, i == o->n - 1, flags, o->d))
			return -1;
	for (size_t i = 0; i < nsubs; i++)
		if (make_run_dir(o->dir, subs[i], o->d))
			return -1;
	for (size_t i = 0; i < o->n; i++)
		if (write_atomic_as("plan-write", o->files[i].path, put_text, &o->files[i], o->d))
			return -1;
	return 0;
}

/* A value's characters: with its key, the line stays within the 199 the INI reader takes. */
#define TEXT_MAX 180

/* A text value an INI line can carry as it is: no control character, no inline comment. */
static int check_text(const char *what, const char *s, const char *dir, struct diags *d)
{
	if (!s)
		return 0;
	if (strlen(s) > TEXT_MAX)
		return diag_error(d, "plan-write", &SRCPOS_FILE(dir), "%s is longer than %d characters: "
				  "nothing written", what, TEXT_MAX);
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || (p > s && *p == ';' && p[-1] == ' '))
			return diag_error(d, "plan-write", &SRCPOS_FILE(dir),
					  "%s '%s' cannot be written on one INI line (a control character "
					  "or ' ;'): nothing written", what, s);
	return 0;
}

#define RUNS_MAX 8

static int check_plan(const struct plan_files *pf, const char *dir, struct diags *d)
{
	const char *const texts[][2] = {
		{ "title", pf->title }, { "hypothesis", pf->hypothesis }, { "question", pf->question },
		{ "precision", pf->precision }, { "dataset", pf->dataset }, { "model", pf->model },
	};

	if (pf->nruns > RUNS_MAX)
		return diag_error(d, "plan-write", &SRCPOS_FILE(dir), "%zu runs planned: at most %d",
				  pf->nruns, RUNS_MAX);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (check_text(texts[i][0], texts[i][1], dir, d))
			return -1;
	for (size_t i = 0; i < pf->nruns; i++) {
		const struct plan_run *r = &pf->runs[i];

		if (!r->dir || !*r->dir || strchr(r->dir, '/') || !strcmp(r->dir, ".") ||
		    !strcmp(r->dir, "..") || check_text("run directory", r->dir, dir, d))
			return diag_error(d, "plan-write", &SRCPOS_FILE(dir),
					  "run directory '%s' is not a plain name: nothing written",
					  r->dir ? r->dir : "");
		if (r->strategy && !manifest_strategy(r->strategy))
			return diag_error(d, "plan-write", &SRCPOS_FILE(dir),
					  "run '%s': strategy '%s' has no run.ini name: nothing written",
					  r->dir, r->strategy);
	}
	return 0;
}

static const char trial_head[] =
	"# trial.ini: the trial as planned before the rental, by `scaleaudit plan`.\n"
	"# `scaleaudit analyze` reads it with the runs' logs; `scaleaudit plan --init DIR`\n"
	"# writes every key with its meaning, allowed values and default.\n";
static const char run_head[] =
	"# run.ini: this run as planned. `scaleaudit analyze` checks each value against the\n"
	"# run's logs and compares the predicted figures with the measured ones.\n";

int plan_write_dir(const struct plan_files *pf, const char *dir, unsigned flags, struct diags *d)
{
	struct plan_out o = { .dir = dir, .d = d };
	const char *subs[RUNS_MAX];
	struct buf *b;
	int rc;

	if (check_plan(pf, dir, d))
		return -1;
	for (size_t i = 0; i < pf->nruns; i++) {
		subs[i] = pf->runs[i].dir;
		b = add_file(&o, subs[i], "run.ini");
		buf_addstr(b, run_head);
		planned_ini(b, pf, &pf->runs[i], "run");
	}
	checklist(add_file(&o, NULL, "CHECKLIST.md"), pf);
	b = add_file(&o, NULL, "trial.ini");
	buf_addstr(b, trial_head);
	planned_ini(b, pf, NULL, "trial");
	held_comment(b, pf);
	rc = out_write(&o, subs, pf->nruns, flags);
	out_release(&o);
	return rc;
}

int plan_write_skeleton(const char *dir, unsigned flags, struct diags *d)
{
	static const char *const subs[] = { "1gpu", "2gpu" };
	struct plan_out o = { .dir = dir, .d = d };
	struct plan_files pf;
	struct buf *b;
	int rc;

	plan_files_init(&pf);
	for (size_t i = 0; i < 2; i++) {
		b = add_file(&o, subs[i], "run.ini");
		buf_addstr(b, "# run.ini: one run of the trial. Every key is optional: uncomment those\n"
			   "# you know. `scaleaudit analyze` checks each against the run's logs.\n");
		skeleton_ini(b, "run");
	}
	checklist(add_file(&o, NULL, "CHECKLIST.md"), &pf);
	b = add_file(&o, NULL, "trial.ini");
	buf_addstr(b, "# trial.ini: the trial, written before the rental. Every key is optional:\n"
		   "# uncomment those you know; write at least the hypothesis.\n");
	skeleton_ini(b, "trial");
	rc = out_write(&o, subs, 2, flags);
	out_release(&o);
	return rc;
}
