#include "render/summary.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/capacity.h"
#include "analysis/strategy.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "render/compute_text.h"
#include "render/decision_text.h"
#include "render/diff_text.h"
#include "render/numfmt.h"
#include "render/plan_text.h"
#include "render/readiness_text.h"

#define FINDINGS_MAX 8

/* The names of result.h's enums as people read them (the JSON names live with the analysis). */
#define CELL_NAME_CHARS 20	/* of a run's name in the runs table */
#define CELL_GPU_CHARS 40	/* of its GPU's name */

static const char *const verdict_texts[] = {
	[VERDICT_NONE] = "NO VERDICT",
	[VERDICT_CONFIRMED] = "CONFIRMED",
	[VERDICT_REFUTED] = "REFUTED",
	[VERDICT_INCONCLUSIVE] = "INCONCLUSIVE",
};

static const char *const confound_texts[] = {
	[CF_PRECISION] = "precision",
	[CF_GLOBAL_BATCH] = "global batch",
	[CF_MICRO_BATCH] = "micro batch",
	[CF_SEQ_LEN] = "sequence length",
	[CF_DATASET] = "dataset",
	[CF_MODEL] = "model",
	[CF_STEPS] = "steady steps",
	[CF_GPU_MODEL] = "GPU model",
	[CF_GPU_ARCH] = "GPU architecture support",
	[CF_WORKLOAD] = "workload",
	[CF_GPUS] = "GPU count",
};

/* What removes a blocking confound, for the why line; NULL: "repeat the trial with it unchanged". */
static const char *const confound_remedies[CF_COUNT] = {
	[CF_WORKLOAD] = "run the same job on both sides",
	[CF_GPU_MODEL] = "run the baseline on the candidate's GPU model",
};

static const char *const hypothesis_texts[] = {
	[HYP_UNSET] = "not stated",
	[HYP_STEP_TIME] = "the step time falls with more GPUs (step-time)",
	[HYP_GLOBAL_BATCH] = "more GPUs carry a larger global batch (global-batch)",
	[HYP_FEASIBILITY] = "the job only fits on more GPUs (feasibility)",
};

/* A comparison whose run indexes can be trusted. */
static bool compared(const struct analysis *a)
{
	return a->cmp.valid && a->cmp.baseline < a->nruns && a->cmp.candidate < a->nruns;
}

const char *summary_confound_text(enum confound_what w)
{
	return (unsigned)w < CF_COUNT ? confound_texts[w] : "another fact";
}

const char *summary_verdict_text(enum verdict v)
{
	return (unsigned)v < sizeof(verdict_texts) / sizeof(verdict_texts[0]) ? verdict_texts[v] : "NO VERDICT";
}

static void add(struct summary *s, enum sline_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct summary *s, enum sline_kind kind, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	xgrow(&s->lines, &s->cap, s->n + 1, sizeof(*s->lines));
	s->lines[s->n] = (struct sline){ kind, arena_strdup(&s->arena, tmp), NULL, 0 };
	s->n++;
}

/* Numbers through render/numfmt, into small rotating buffers, so that one line can hold several. */
#define NBUF 8
static char *ring(void)
{
	static char bufs[NBUF][NUMFMT_LEN];
	static int next;

	return bufs[next++ % NBUF];
}

static const char *num(double v)
{
	return qty_num(ring(), v);
}

static const char *count(int64_t n)
{
	return numfmt_count(ring(), n);
}

static const char *ratio(double v)
{
	return ratio_text(ring(), v);
}

static const char *ms(double s)
{
	return qty_duration(ring(), s);
}

static const char *gb(int64_t bytes)
{
	return qty_gb(ring(), (double)bytes);
}

static const char *run_name(const struct run_result *r)
{
	return r->name ? r->name : "run";
}

/* What fills a GPU, from its memory timeline: each category holding memory at the peak. */
static void timeline_item(struct summary *s, const struct run_result *r, size_t g)
{
	const struct gpu_result *x = &r->gpu[g];
	char cats[512] = "";
	size_t len = 0;

	if (x->timeline_peak <= 0)
		return;
	for (int c = 0; c < MEMCAT_COUNT && len < sizeof(cats); c++)
		if (x->timeline_at_peak[c] > 0)
			len += (size_t)snprintf(cats + len, sizeof(cats) - len, "%s%s %s",
						len ? ", " : "", mem_category_name((enum mem_category)c),
						qty_gb(ring(), (double)x->timeline_at_peak[c]));
	add(s, SL_ITEM, "%s GPU %d: tensors at the memory timeline's peak %s (%s)", run_name(r),
	    x->rank >= 0 ? x->rank : (int)g, qty_gb(ring(), (double)x->timeline_peak), cats);
}

/* A GPU's idle time per steady step by cause, where it idled at all. */
static void idle_item(struct summary *s, const struct run_result *r, size_t g)
{
	const struct gpu_result *x = &r->gpu[g];
	struct buf b = BUF_INIT;

	if (isnan(x->mean_step_s) || !(x->step_s.idle > 0))
		return;
	buf_init(&b, 0);
	idle_words(&b, &x->step_s);
	add(s, SL_ITEM, "%s GPU %d: idle %s per step, by cause (ms): %s", run_name(r),
	    x->rank >= 0 ? x->rank : (int)g, ms(x->step_s.idle), b.data);
	buf_release(&b);
}

/* A run's MFU, or why it is unknown, where it ran GPU kernels to judge. */
static void mfu_item(struct summary *s, const struct run_result *r)
{
	struct buf b = BUF_INIT;

	if (isnan(r->mfu.covered_share))
		return;
	buf_init(&b, 0);
	mfu_words(&b, &r->mfu);
	add(s, SL_ITEM, "%s: %s", run_name(r), b.data);
	buf_release(&b);
}

/* A run's launch statistics, where its traces ran kernels: the host-bound or GPU-bound line. */
static void launch_item(struct summary *s, const struct run_result *r)
{
	struct buf b = BUF_INIT;

	if (!r->launch.present)
		return;
	buf_init(&b, 0);
	launch_words(&b, &r->launch);
	add(s, SL_ITEM, "%s: %s", run_name(r), b.data);
	buf_release(&b);
}

static void key_numbers(struct summary *s, const struct analysis *a)
{
	const struct comparison *m = &a->cmp;
	size_t i, g;

	add(s, SL_HEADING, "Key numbers");
	add(s, SL_ITEM, "Hypothesis: %s", hypothesis_texts[(unsigned)a->hypothesis <= HYP_FEASIBILITY ? a->hypothesis : 0]);
	if (compared(a)) {
		add(s, SL_ITEM, "Speedup %s: median step %s on the baseline, %s on the candidate",
		    ratio(m->speedup), ms(a->runs[m->baseline].step_median_s),
		    ms(a->runs[m->candidate].step_median_s));
		add(s, SL_ITEM, "Scaling efficiency %s; throughput ratio %s",
		    qty_percent(ring(), m->scaling_efficiency), ratio(m->throughput_ratio));
	}
	for (i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];

		add(s, SL_ITEM, "%s: step %s (p10 %s, p90 %s), %s steady steps after %s warm-up, %s samples/s",
		    run_name(r), ms(r->step_median_s), ms(r->step_p10_s), ms(r->step_p90_s),
		    count(r->steps_measured),
		    count(r->steps_warmup),
		    num(r->samples_per_s));
		for (g = 0; g < r->ngpu; g++) {
			char cap[CAPACITY_TEXT_LEN];

			add(s, SL_ITEM, "%s GPU %d: peak memory %s (%s) of %s", run_name(r),
			    r->gpu[g].rank >= 0 ? r->gpu[g].rank : (int)g, gb(r->gpu[g].peak_memory),
			    r->gpu[g].peak_source ? r->gpu[g].peak_source : "no source",
			    r->gpu[g].memory_total > 0 ? capacity_gpu_text(cap, sizeof(cap), &r->gpu[g]) : "n/a");
			timeline_item(s, r, g);
			idle_item(s, r, g);
		}
		mfu_item(s, r);
		launch_item(s, r);
		if (r->imbalance.flagged)
			add(s, SL_ITEM, "Imbalance in %s: %s", run_name(r),
			    r->imbalance.reason ? r->imbalance.reason : "flagged");
	}
}

/* --- the decision: why, and the table of the runs --- */

#define DASH " \xe2\x80\x94 "	/* an em dash between a verdict and its sentence */

/* How a run ended, for the table and the why line; failures with their cause. */
static const char *const status_texts[] = {
	[RUN_UNKNOWN] = "ended", [RUN_COMPLETED] = "completed", [RUN_FAILED_OOM] = "failed: CUDA out of memory",
	[RUN_FAILED] = "failed", [RUN_INCOMPLETE] = "incomplete",
};

static const char *status_text(const struct run_result *r, char *b, size_t size)
{
	const char *st = (unsigned)r->status < sizeof(status_texts) / sizeof(status_texts[0])
		? status_texts[r->status] : "ended";

	if (r->status == RUN_FAILED_OOM && r->failed_allocation > 0)	/* PyTorch prints GiB: so do we */
		snprintf(b, size, "%s (needed %s more)", st, qty_gib(ring(), r->failed_allocation));
	else if (run_failed(r) || r->steps_measured < 0)
		snprintf(b, size, "%s", st);
	else
		snprintf(b, size, "%s, %s steady step%s", st, count(r->steps_measured),
			 r->steps_measured == 1 ? "" : "s");
	return b;
}

/* The GPU with the largest peak memory; -1 when none is known. */
static int fullest_gpu(const struct run_result *r)
{
	int best = -1;

	for (size_t g = 0; g < r->ngpu; g++)
		if (r->gpu[g].peak_memory >= 0 && (best < 0 || r->gpu[g].peak_memory > r->gpu[best].peak_memory))
			best = (int)g;
	return best;
}

/* "74.9 GB / 85.0 GB": the fullest GPU's peak against its capacity, with its number when there are several. */
static const char *peak_text(const struct run_result *r, char *b, size_t size)
{
	int g = fullest_gpu(r);

	if (g < 0)
		return "n/a";
	snprintf(b, size, "%s / %s", gb(r->gpu[g].peak_memory), gb(r->gpu[g].memory_total));
	if (r->ngpu > 1)
		snprintf(b + strlen(b), size - strlen(b), " (GPU %d)", r->gpu[g].rank >= 0 ? r->gpu[g].rank : g);
	return b;
}

/* The blocking confound stands first: nothing else explains a comparison it blocks. */
static bool why_confound(struct summary *s, const struct analysis *a)
{
	for (size_t i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *c = &a->cmp.confounds[i];
		bool said = c->why && a->cmp.reason && strstr(a->cmp.reason, c->why);

		if (c->severity != CFS_BLOCKING)
			continue;
		if (c->what == CF_STEPS && said)	/* the verdict's sentence already says it: not twice */
			add(s, SL_LEAD, "Why: too few steady steps to measure a step time; the numbers below are for "
			    "reference only");
		else if (c->what == CF_STEPS)	/* not a difference between the runs: too few steps to measure */
			add(s, SL_LEAD, "Why: %s", c->why ? c->why : "too few steady steps to measure a step time");
		else if (c->what == CF_GPUS)	/* not a difference either: n = c / b is unknown */
			add(s, SL_LEAD, "Why: %s; the numbers below are for reference only",
			    c->why ? c->why : "a GPU count is unknown");
		else if (isfinite(a->cmp.speedup))
			add(s, SL_LEAD, "Why: the measured speedup of %s (%s against %s) mixes the extra GPU with the "
			    "change of %s (%s against %s): %s", ratio(a->cmp.speedup),
			    ms(a->runs[a->cmp.baseline].step_median_s), ms(a->runs[a->cmp.candidate].step_median_s),
			    summary_confound_text(c->what), c->baseline ? c->baseline : "?", c->candidate ? c->candidate : "?",
			    (unsigned)c->what < CF_COUNT && confound_remedies[c->what] ? confound_remedies[c->what] :
			    "repeat the trial with it unchanged");
		else
			add(s, SL_LEAD, "Why: the runs differ in %s (%s against %s)%s%s", summary_confound_text(c->what),
			    c->baseline ? c->baseline : "?", c->candidate ? c->candidate : "?",
			    said ? ", which blocks the comparison; the numbers below are for reference only" :
			    c->why ? ": " : "", said || !c->why ? "" : c->why);
		return true;
	}
	return false;
}

/* A failed run of the two explains the verdict: what failed and how full the other's GPUs were. */
static bool why_failed(struct summary *s, const struct analysis *a)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *c = &a->runs[a->cmp.candidate];
	const struct run_result *f = run_failed(b) ? b : run_failed(c) ? c : NULL, *other = f == b ? c : b;
	char st[160], peak[96], other_peak[96], fg[NUMFMT_LEN], og[NUMFMT_LEN];

	if (!f)
		return false;
	status_text(f, st, sizeof(st));
	add(s, SL_LEAD, "Why: on %s the run %s, at a peak of %s; on %s it %s, at a peak of %s", numfmt_gpus(fg, f->gpus),
	    st, peak_text(f, peak, sizeof(peak)), numfmt_gpus(og, other->gpus),
	    status_texts[(unsigned)other->status < sizeof(status_texts) / sizeof(status_texts[0]) ? other->status : 0],
	    peak_text(other, other_peak, sizeof(other_peak)));
	return true;
}

static const char *const part_texts[] = { "compute", "exposed communication", "memory copies", "idle time" };

static double part(const struct step_parts *p, size_t i)
{
	const double v[] = { p->compute, p->exposed_comm, p->memory, p->idle };

	return v[i];
}

/* The attribution term that moved most, and the loss it belongs to; false when unknown. */
static bool largest_part(const struct analysis *a, size_t *which, double *total)
{
	*total = 0;
	*which = 0;
	for (size_t i = 0; i < 4; i++) {
		double v = part(&a->cmp.attribution_s, i);

		if (!isfinite(v))
			return false;
		*total += v;
		if (fabs(v) > fabs(part(&a->cmp.attribution_s, *which)))
			*which = i;
	}
	return true;
}

/* NCCL's slow transports between GPUs of one host, as people say them. */
static const struct {
	const char *transport;
	const char *words;
} slow_transports[] = {
	{ "net-socket", "sockets" },
	{ "shm", "shared host memory" },
};

static bool why_transport(struct summary *s, const struct analysis *a)
{
	const struct run_result *c = &a->runs[a->cmp.candidate];
	double total;
	size_t k, which;

	if (!c->transport || c->gpus < 2)
		return false;
	for (k = 0; k < sizeof(slow_transports) / sizeof(slow_transports[0]); k++)
		if (!strcmp(c->transport, slow_transports[k].transport))
			break;
	if (k == sizeof(slow_transports) / sizeof(slow_transports[0]))
		return false;
	if (!largest_part(a, &which, &total))
		total = NAN;
	add(s, SL_LEAD, "Why: NCCL sent the data over %s (%s), not GPU to GPU: exposed communication takes %s of "
	    "the %s per step that %d GPUs lose against %d", slow_transports[k].words, c->transport,
	    ms(a->cmp.attribution_s.exposed_comm), ms(total), c->gpus, a->runs[a->cmp.baseline].gpus);
	return true;
}

/* " from 2 GPUs": what perfect scaling starts from, said where the baseline has more than one GPU. */
static const char *scaling_from(const struct analysis *a, char *b, size_t size)
{
	int nb = a->runs[a->cmp.baseline].gpus;

	if (nb <= 1)
		return "";
	snprintf(b, size, " from %d GPUs", nb);
	return b;
}

/*
 * The loss is counted on mean steps (so that its parts add up), the verdict on
 * medians: the Why line quotes no step time of its own, only the loss, and says
 * once what it is counted on, so a reader never meets a second "step".
 */
#define LOSS_BASIS "counted on mean steps, so that the parts add up"

/* The same GPU count on both sides (n = 1): no scaling, the step itself changed. */
static void why_same_count(struct summary *s, const struct analysis *a, size_t which, double total)
{
	add(s, SL_LEAD, "Why: on %d GPUs each, the candidate's step is %s %s than the baseline's (%s); "
	    "%s changed most: %s", a->runs[a->cmp.baseline].gpus, ms(fabs(total)), total > 0 ? "longer" : "shorter",
	    LOSS_BASIS, part_texts[which], ms(part(&a->cmp.attribution_s, which)));
}

/*
 * What the candidate's exposed communication mostly waited for: the other
 * stage of a pipeline (a bubble), a straggler, or a slower peer; NULL when
 * most of it is transfer.
 */
static const char *waited_for(const struct run_result *c, char *b, size_t size)
{
	if (strategy_has(c->strategy, "pipeline"))
		return "waiting for the other stage of the pipeline (a bubble)";
	if (c->imbalance.nstragglers) {
		snprintf(b, size, "waiting for a straggler (GPU %d)", c->imbalance.stragglers[0].rank);
		return b;
	}
	return "waiting for a slower GPU (not a slow link)";
}

/*
 * "the largest part is compute: 7.1 ms"; exposed communication that is
 * mostly waiting for a peer (n Wc - Wb, the slowest GPUs' waiting, over half
 * the term) is named as the waiting, so that nobody tunes the link for it;
 * idle that is mostly host wait (the CPU launched the next work late) is
 * named as host-bound, so that nobody looks at the GPUs for it.
 */
static const char *largest_text(const struct analysis *a, size_t which, char *b, size_t size)
{
	const struct run_result *rb = &a->runs[a->cmp.baseline], *rc = &a->runs[a->cmp.candidate];
	double term = part(&a->cmp.attribution_s, which), wait = NAN;
	char who[64];

	if (which == 1 && rb->ngpu && rc->ngpu)
		wait = comparison_gpu_ratio(a) * rc->gpu[rc->slowest].step_s.exposed_comm_wait -
		       rb->gpu[rb->slowest].step_s.exposed_comm_wait;
	if (which == 3 && comparison_host_bound(a))	/* the advice's rule: mostly the CPU launching late */
		snprintf(b, size, "idle waiting for the CPU to launch work (host-bound): %s of the %s of idle",
			 ms(comparison_host_wait(a)), ms(term));
	else if (!(wait > term / 2) || !(term > 0) || which != 1)
		snprintf(b, size, "%s: %s", part_texts[which], ms(term));
	else
		snprintf(b, size, "%s: %s of the %s of exposed communication", waited_for(rc, who, sizeof(who)),
			 ms(wait), ms(term));
	return b;
}

/*
 * The largest term of the attribution: where the candidate's c GPUs lost (or
 * won) time against the baseline's b, with n = c / b.
 */
static bool why_attribution(struct summary *s, const struct analysis *a)
{
	int c = a->runs[a->cmp.candidate].gpus;
	double n = comparison_gpu_ratio(a), total;
	char from[32], largest[256];
	size_t which;

	if (!largest_part(a, &which, &total)) {
		add(s, SL_LEAD, "Why: not known: no timeline of the GPU work (a profiler trace) splits the steps "
		    "into compute and communication");
		return true;
	}
	if (n == 1)
		why_same_count(s, a, which, total);
	else if (total > 0)
		add(s, SL_LEAD, "Why: %d GPUs lose %s of GPU time per step against perfect scaling%s (%s); "
		    "the largest part is %s", c, ms(total), scaling_from(a, from, sizeof(from)), LOSS_BASIS,
		    largest_text(a, which, largest, sizeof(largest)));
	else
		add(s, SL_LEAD, "Why: %d GPUs beat perfect scaling%s by %s per step; %s changed most: %s", c,
		    scaling_from(a, from, sizeof(from)), ms(-total), part_texts[which],
		    ms(part(&a->cmp.attribution_s, which)));
	return true;
}

/* One line of why: the first rule that has something to say. */
static void why(struct summary *s, const struct analysis *a)
{
	static bool (*const rules[])(struct summary *, const struct analysis *) = {
		why_confound, why_failed, why_transport, why_attribution,
	};

	if (!compared(a)) {
		add(s, SL_LEAD, "Why: not known: no baseline and candidate to compare");
		return;
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]) && !rules[i](s, a); i++)
		;
}

#define TABLE_COLS 9

/* name, cut to max characters with an ellipsis (a table column keeps its width), then suffix. */
static void cut_name(const char *name, const char *suffix, char *out, size_t size, size_t max)
{
	struct buf b;

	buf_init(&b, 0);
	utf8_cut(name, strlen(name), 0, max, &b);
	snprintf(out, size, "%s%s", b.data, suffix);
	buf_release(&b);
}

static void add_cells(struct summary *s, enum sline_kind kind, const char *const *cells, size_t n)
{
	const char **copy = arena_alloc(&s->arena, n * sizeof(*copy));
	struct buf joined;

	buf_init(&joined, 0);
	for (size_t i = 0; i < n; i++) {
		copy[i] = arena_strdup(&s->arena, cells[i]);
		buf_addf(&joined, "%s%s", i ? "; " : "", cells[i]);
	}
	add(s, kind, "%s", joined.data);
	s->lines[s->n - 1].cells = copy;
	s->lines[s->n - 1].ncells = n;
	buf_release(&joined);
}

static const char *precision_text(const struct run_result *r, char *b, size_t size)
{
	const char *seen = r->precision_observed != DT_UNKNOWN ? dtype_name(r->precision_observed) : NULL;

	if (seen && r->precision_declared && strcmp(seen, r->precision_declared))
		snprintf(b, size, "%s (declared %s)", seen, r->precision_declared);
	else if (!seen && r->precision_declared)
		snprintf(b, size, "%s (declared)", r->precision_declared);
	else
		snprintf(b, size, "%s", seen ? seen : "n/a");
	return b;
}

static const char *transport_text(const struct run_result *r, char *b, size_t size)
{
	bool t = r->transport && strcmp(r->transport, "unknown"), l = r->link && strcmp(r->link, "unknown");

	if (r->gpus == 1)
		return "none (1 GPU)";
	if (!t && !l)
		return "n/a";
	snprintf(b, size, "%s / %s%s", t ? r->transport : "n/a", l ? r->link : "n/a",
		 l && r->link_source && !strcmp(r->link_source, "gpu-model") ? " (by GPU model)" : "");
	return b;
}

/* The runs side by side: what each ran on, how it ended, and what it measured. */
static void run_table(struct summary *s, const struct analysis *a)
{
	static const char *const head[TABLE_COLS] = {
		"Run", "GPUs", "Status", "Precision", "Global batch", "Step time", "Samples/s",
		"Peak / capacity", "Transport / link",
	};

	add_cells(s, SL_TABLE_HEAD, head, TABLE_COLS);
	for (size_t i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];
		const char *role = !compared(a) ? "" : i == a->cmp.baseline ? " (baseline)"
			: i == a->cmp.candidate ? " (candidate)" : "";
		char name[160], gpus[160], st[160], prec[96], peak[96], tr[96], g[NUMFMT_LEN];
		const char *cells[TABLE_COLS];

		cut_name(run_name(r), role, name, sizeof(name), CELL_NAME_CHARS);
		snprintf(gpus, sizeof(gpus), "%s%s", numfmt_int(g, r->gpus), r->ngpu && r->gpu[0].name ? " x " : "");
		if (r->ngpu && r->gpu[0].name)	/* as the log names it: any length */
			cut_name(r->gpu[0].name, "", gpus + strlen(gpus), sizeof(gpus) - strlen(gpus),
				 CELL_GPU_CHARS);
		cells[0] = name;
		cells[1] = gpus;
		cells[2] = status_text(r, st, sizeof(st));
		cells[3] = precision_text(r, prec, sizeof(prec));
		cells[4] = count(r->global_batch);
		cells[5] = ms(r->step_median_s);
		cells[6] = num(r->samples_per_s);
		cells[7] = peak_text(r, peak, sizeof(peak));
		cells[8] = transport_text(r, tr, sizeof(tr));
		add_cells(s, SL_TABLE_ROW, cells, TABLE_COLS);
	}
}

/* --- op by op: the per-op and per-kernel diff --- */

#define DIFF_COLS 7
#define DIFF_SUMMARY_ROWS 6	/* rows of each table; analyze --diff and analysis.json have more */
#define DIFF_NAME_CHARS 40

static const char *const diff_heads[DIFF_KIND_COUNT] = { [DIFF_OP] = "Op", [DIFF_KERNEL] = "Kernel family" };
static const char *const diff_words[DIFF_KIND_COUNT] = { [DIFF_OP] = "op", [DIFF_KERNEL] = "kernel famil" };

static const char *diff_time(const struct diff_side *d, double v)
{
	return d->calls > 0 ? ms(v) : "-";
}

static void diff_row(struct summary *s, const struct diff_row *r)
{
	char name[4 * DIFF_NAME_CHARS + 8], calls[2 * NUMFMT_LEN + 8];
	const char *cells[DIFF_COLS];

	snprintf(calls, sizeof(calls), "%s \xe2\x86\x92 %s", diff_calls(ring(), r->baseline.calls),
		 diff_calls(ring(), r->candidate.calls));
	cells[0] = diff_row_name(name, sizeof(name), r, DIFF_NAME_CHARS);
	cells[1] = calls;
	cells[2] = diff_time(&r->baseline, r->baseline.time_s);
	cells[3] = diff_time(&r->candidate, r->candidate.time_s);
	cells[4] = diff_time(&r->baseline, r->baseline.mean_s);
	cells[5] = diff_time(&r->candidate, r->candidate.mean_s);
	cells[6] = qty_duration_signed(ring(), r->added_s);
	add_cells(s, SL_TABLE_ROW, cells, DIFF_COLS);
}

/* One kind's table: its first rows as the analysis ranked them, and how many more there are. */
static void diff_table(struct summary *s, const struct analysis *a, enum diff_kind k)
{
	const struct diff *d = &a->cmp.diff;
	char b[CELL_NAME_CHARS * 4 + 16], c[CELL_NAME_CHARS * 4 + 16], h[4][CELL_NAME_CHARS * 4 + 32];
	const char *head[DIFF_COLS] = { diff_heads[k], "Calls per step", h[0], h[1], h[2], h[3], "Added" };
	int64_t more = k == DIFF_OP ? d->left_out.op : d->left_out.kernel;
	size_t shown = 0;

	cut_name(run_name(&a->runs[a->cmp.baseline]), "", b, sizeof(b), CELL_NAME_CHARS);
	cut_name(run_name(&a->runs[a->cmp.candidate]), "", c, sizeof(c), CELL_NAME_CHARS);
	snprintf(h[0], sizeof(h[0]), "Time, %s", b);
	snprintf(h[1], sizeof(h[1]), "Time, %s", c);
	snprintf(h[2], sizeof(h[2]), "Per call, %s", b);
	snprintf(h[3], sizeof(h[3]), "Per call, %s", c);
	add_cells(s, SL_TABLE_HEAD, head, DIFF_COLS);
	for (size_t i = 0; i < d->nrows; i++) {
		if (d->rows[i].kind != k)
			continue;
		if (shown++ < DIFF_SUMMARY_ROWS)
			diff_row(s, &d->rows[i]);
		else
			more++;
	}
	if (more > 0)
		add(s, SL_TEXT, "%s more %s%s, each adding less (scaleaudit analyze --diff lists them).",
		    count(more), diff_words[k], k == DIFF_OP ? more == 1 ? "" : "s" : more == 1 ? "y" : "ies");
}

/*
 * Which ops and kernels the candidate spends more GPU time in than the
 * baseline, counted as the loss is, and how the rows' sum relates to it.
 */
static void op_diff(struct summary *s, const struct analysis *a)
{
	const struct diff *d = &a->cmp.diff;
	const struct run_result *b, *c;

	if (!compared(a) || !d->present)
		return;
	add(s, SL_HEADING, "Op by op");
	if (!d->per) {
		add(s, SL_TEXT, "No per-op diff: %s.", d->why ? d->why : "no GPU work to compare");
		return;
	}
	b = &a->runs[a->cmp.baseline];
	c = &a->runs[a->cmp.candidate];
	add(s, SL_TEXT, "GPU time of each op's kernels %s, counted per %d GPU%s of %s as the loss is (%s: %g x "
	    "its mean GPU), largest addition first. All GPU work: %s against %s (%s); it is summed per kernel, "
	    "so overlapped communication counts in full and idle time is in no row.",
	    strcmp(d->per, "span") ? "per steady step" : "over the profiled span (no steady steps)", b->gpus,
	    b->gpus == 1 ? "" : "s", run_name(b), run_name(c), comparison_gpu_ratio(a), ms(d->total_s.baseline),
	    ms(d->total_s.candidate), qty_duration_signed(ring(), d->total_s.candidate - d->total_s.baseline));
	diff_table(s, a, DIFF_OP);
	diff_table(s, a, DIFF_KERNEL);
}

/* --- each run's top kernels, per call --- */

#define KSTATS_COLS 7
#define KSTATS_SUMMARY_ROWS 6	/* kernels per run; analyze --kernels and analysis.json have more */

static void kernel_table(struct summary *s, const struct run_result *r)
{
	const struct kernel_stats *k = &r->kernel_stats;
	char head0[CELL_NAME_CHARS * 4 + 64], run[CELL_NAME_CHARS * 4 + 16];
	const char *head[KSTATS_COLS] = { head0, "Calls", "Total", "Mean", "p50", "p90", "Max" };
	size_t i;

	cut_name(run_name(r), "", run, sizeof(run), CELL_NAME_CHARS);
	if (k->rank >= 0)
		snprintf(head0, sizeof(head0), "Kernel, %s GPU %d", run, (int)k->rank);
	else
		snprintf(head0, sizeof(head0), "Kernel, %s", run);
	add_cells(s, SL_TABLE_HEAD, head, KSTATS_COLS);
	for (i = 0; i < k->nkernels && i < KSTATS_SUMMARY_ROWS; i++) {
		const struct kernel_stat *e = &k->kernels[i];
		char name[4 * DIFF_NAME_CHARS + 8];
		const char *cells[KSTATS_COLS] = {
			kernel_cell(name, sizeof(name), e->name, DIFF_NAME_CHARS), count(e->calls), ms(e->total_s),
			ms(e->mean_s), ms(e->p50_s), ms(e->p90_s), ms(e->max_s),
		};

		add_cells(s, SL_TABLE_ROW, cells, KSTATS_COLS);
	}
	if (k->nkernels > KSTATS_SUMMARY_ROWS)
		add(s, SL_TEXT, "%s more kernels in analysis.json (scaleaudit analyze --kernels lists them).",
		    count((int64_t)(k->nkernels - KSTATS_SUMMARY_ROWS)));
}

/*
 * Each run's kernels with the most time, per call, on its slowest GPU: a
 * kernel whose p90 or max is far above its p50 is stalled now and then,
 * one whose mean grew from the baseline is slower per call.
 */
static bool has_kernel_stats(const struct run_result *r)
{
	return r->kernel_stats.present && r->kernel_stats.nkernels;
}

static void kernel_tables(struct summary *s, const struct analysis *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->nruns; i++)
		n += has_kernel_stats(&a->runs[i]);
	if (!n)
		return;
	add(s, SL_HEADING, "Top kernels");
	add(s, SL_TEXT, "Each run's kernels with the most time on its slowest GPU, over its steady steps (its "
	    "whole profiled span without one), with the time of one call: mean, median (p50), p90 and the "
	    "longest. A p90 or a longest call far above the median is a kernel held up now and then.");
	for (i = 0; i < a->nruns; i++)
		if (has_kernel_stats(&a->runs[i]))
			kernel_table(s, &a->runs[i]);
}

static void confounds(struct summary *s, const struct analysis *a)
{
	size_t i;

	if (!compared(a))
		return;
	add(s, SL_HEADING, "Confounds and unverified facts");
	if (!a->cmp.nconfounds)
		add(s, SL_ITEM, "none found");
	for (i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *c = &a->cmp.confounds[i];

		add(s, SL_ITEM, "[%s] %s: %s (baseline) vs %s (candidate)%s%s", confound_severity_name(c->severity),
		    (unsigned)c->what < CF_COUNT ? confound_texts[c->what] : "other",
		    c->baseline ? c->baseline : "?", c->candidate ? c->candidate : "?",
		    c->why ? ": " : "", c->why ? c->why : "");
	}
}

static void findings(struct summary *s, const struct analysis *a)
{
	size_t i, shown = 0, serious = 0;

	for (i = 0; i < a->nfindings; i++)
		serious += a->findings[i].severity != DIAG_INFO;
	if (!serious)
		return;
	add(s, SL_HEADING, "Findings about the inputs");
	for (i = 0; i < a->nfindings && shown < FINDINGS_MAX; i++) {
		const struct finding *f = &a->findings[i];

		if (f->severity == DIAG_INFO)
			continue;
		add(s, SL_ITEM, "%s%s%s%s", f->source ? f->source : "", f->source ? ": " : "",
		    f->severity == DIAG_ERROR ? "error: " : "warning: ", f->message ? f->message : "");
		shown++;
	}
	if (serious > shown)
		add(s, SL_ITEM, "and %zu more in analysis.json", serious - shown);
}

/* Each run's software against its GPU, a line at a time, where the trial says anything of it. */
static void readiness(struct summary *s, const struct analysis *a)
{
	struct buf b = BUF_INIT;

	if (!readiness_any(a))
		return;
	add(s, SL_HEADING, "Blackwell readiness");
	buf_init(&b, 0);
	for (size_t i = 0; i < a->nruns; i++)
		readiness_lines(&a->runs[i], "", &b);
	for (char *p = b.data, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		add(s, SL_ITEM, "%s", p);
	}
	buf_release(&b);
}

/* The plan against the trial, a line per planned run, where a run.ini carries predictions. */
static void plan(struct summary *s, const struct analysis *a)
{
	struct buf b;

	if (!plan_any(a))
		return;
	add(s, SL_HEADING, "Plan against measured");
	buf_init(&b, 0);
	for (size_t i = 0; i < a->nruns; i++)
		plan_line(&a->runs[i], "", &b);
	for (char *p = b.data, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		add(s, SL_ITEM, "%s", p);
	}
	buf_release(&b);
}

/* What weakens the verdict, in one line right under it. */
static void weak_evidence(struct summary *s, const struct analysis *a)
{
	struct buf b;

	if (!compared(a))
		return;
	buf_init(&b, 0);
	for (size_t i = 0; i < a->cmp.nweak; i++)
		if (comparison_weak_unsaid(&a->cmp, i))
			buf_addf(&b, "%s%s", b.len ? "; " : "", a->cmp.weak[i].message);
	if (b.len)
		add(s, SL_WEAK, "Weak evidence: %s", b.data);
	buf_release(&b);
}

/* A run's stragglers cost every other GPU: said on the first page, by the verdict. */
static void stragglers(struct summary *s, const struct analysis *a)
{
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].imbalance.straggler_reason)
			add(s, SL_LEAD, "Stragglers in %s: %s", run_name(&a->runs[i]),
			    a->runs[i].imbalance.straggler_reason);
}

/* What to rent next leads: the line, and for a 30-day window its checkpoint interval and stop criteria. */
static void decision(struct summary *s, const struct analysis *a)
{
	const struct decision *d = &a->cmp.decision;
	struct buf b;

	if (!compared(a) || !d->present)
		return;
	buf_init(&b, 0);
	decision_line(&b, d);
	add(s, SL_DECISION, "%s", b.data);
	buf_reset(&b);
	decision_checkpoint_line(&b, d);
	if (b.len)
		add(s, SL_REASON, "%s", b.data);
	buf_release(&b);
	for (size_t i = 0; i < d->nstop; i++)
		add(s, SL_REASON, "Stop when %s", d->stop[i].text);
}

/* The rentals that lost, each with why: after the key numbers, page 1 holding the decision itself. */
static void alternatives(struct summary *s, const struct analysis *a)
{
	const struct decision *d = &a->cmp.decision;

	if (!compared(a) || !d->present || !d->nalts)
		return;
	add(s, SL_HEADING, "Other rentals");
	for (size_t i = 0; i < d->nalts; i++)
		add(s, SL_ITEM, "%s", d->alts[i].why);
}

/* question = hparam-sweep: the answer leads, before the hypothesis. */
static void answer(struct summary *s, const struct analysis *a)
{
	static const char *const texts[] = {
		[ANSWER_INDEPENDENT] = "independent runs", [ANSWER_DISTRIBUTED] = "one distributed run",
		[ANSWER_UNKNOWN] = "unknown",
	};

	if (!compared(a) || a->cmp.answer == ANSWER_NONE ||
	    (unsigned)a->cmp.answer >= sizeof(texts) / sizeof(texts[0]))
		return;
	add(s, SL_ANSWER, "Answer: %s" DASH "%s", texts[a->cmp.answer],
	    a->cmp.answer_reason ? a->cmp.answer_reason : "no reason given");
}

void summary_build(struct summary *s, const struct analysis *a, const struct left_out *out, size_t nout)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->verdict = compared(a) ? a->cmp.verdict : VERDICT_NONE;
	add(s, SL_TITLE, "%s", a->title ? a->title : "Scaling trial");
	decision(s, a);
	answer(s, a);
	add(s, SL_VERDICT, "%s" DASH "%s", summary_verdict_text(s->verdict), a->cmp.reason ? a->cmp.reason
	    : compared(a) ? "no reason given" : "no baseline and candidate to compare");
	weak_evidence(s, a);
	if (compared(a) && a->cmp.criterion)
		add(s, SL_REASON, "Criterion: %s", a->cmp.criterion);
	why(s, a);
	stragglers(s, a);
	run_table(s, a);
	confounds(s, a);
	add(s, SL_HEADING, "Recommendations");
	if (!a->nrecs)
		add(s, SL_ITEM, "none");
	for (i = 0; i < a->nrecs; i++)
		add(s, SL_ITEM, "%s", a->recs[i].text ? a->recs[i].text : a->recs[i].id);
	s->decision_end = s->n;
	key_numbers(s, a);
	op_diff(s, a);
	kernel_tables(s, a);
	alternatives(s, a);
	readiness(s, a);
	plan(s, a);
	findings(s, a);
	if (nout)
		add(s, SL_HEADING, "Charts left out");
	for (i = 0; i < nout; i++)
		add(s, SL_ITEM, "%s: %s", out[i].id, out[i].why);
}

void summary_release(struct summary *s)
{
	free(s->lines);
	arena_release(&s->arena);
	memset(s, 0, sizeof(*s));
}

static const char *const md_prefix[] = {
	[SL_TITLE] = "# ", [SL_META] = "", [SL_VERDICT] = "**Verdict: ", [SL_REASON] = "",
	[SL_HEADING] = "## ", [SL_ITEM] = "- ", [SL_TEXT] = "", [SL_ANSWER] = "**",
	[SL_LEAD] = "", [SL_TABLE_HEAD] = "| ", [SL_TABLE_ROW] = "| ", [SL_WEAK] = "_",
	[SL_DECISION] = "**",
};

/*
 * Appends text with Markdown's active characters escaped, so names like "run_1" stay literal;
 * invalid UTF-8 as U+FFFD and control characters (a newline too: each line is one Markdown
 * line) as \xNN, so a name cannot end a heading or a table row.
 */
static void md_escape(struct buf *out, const char *text)
{
	struct buf t;

	buf_init(&t, 0);
	utf8_escape(text, strlen(text), UTF8_CONTROLS | UTF8_ONE_LINE, &t);
	for (const char *p = t.data; *p; p++) {
		if (strchr("\\`*_[]<>#|", *p))
			buf_addch(out, '\\');
		buf_addch(out, *p);
	}
	buf_release(&t);
}

/* A table line as a Markdown table row; the head is followed by its delimiter row. */
static void md_row(const struct sline *l, struct buf *out)
{
	for (size_t c = 0; c < l->ncells; c++) {
		md_escape(out, l->cells[c]);
		buf_addstr(out, " |");
		buf_addstr(out, c + 1 < l->ncells ? " " : "\n");
	}
	if (l->kind != SL_TABLE_HEAD)
		return;
	buf_addch(out, '|');
	for (size_t c = 0; c < l->ncells; c++)
		buf_addstr(out, "---|");
	buf_addch(out, '\n');
}

void summary_markdown(const struct summary *s, const char *const *ids, const char *const *titles,
		      const char *const *captions, size_t ncharts, struct buf *out)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct sline *l = &s->lines[i];
		enum sline_kind next = i + 1 < s->n ? s->lines[i + 1].kind : SL_TEXT;

		if (l->kind == SL_HEADING && i > 0 && s->lines[i - 1].kind == SL_ITEM)
			buf_addch(out, '\n');
		buf_addstr(out, md_prefix[l->kind]);
		if (l->cells) {
			md_row(l, out);
			if (next != SL_TABLE_ROW)
				buf_addch(out, '\n');
			continue;
		}
		md_escape(out, l->text);
		buf_addstr(out, l->kind == SL_VERDICT || l->kind == SL_ANSWER || l->kind == SL_DECISION ? "**" : l->kind == SL_WEAK ? "_" : "");
		/* Markdown joins adjacent lines: end a paragraph line with a hard break or a blank. */
		if (l->kind == SL_META && next == SL_META)
			buf_addstr(out, "  ");
		buf_addch(out, '\n');
		if (l->kind == SL_TITLE || l->kind == SL_HEADING || l->kind == SL_VERDICT || l->kind == SL_REASON
		    || l->kind == SL_ANSWER || l->kind == SL_LEAD || l->kind == SL_WEAK || l->kind == SL_DECISION
		    || l->kind == SL_TEXT || (l->kind == SL_META && next != SL_META))
			buf_addch(out, '\n');
	}
	if (ncharts)
		buf_addstr(out, "\n## Charts\n");
	for (i = 0; i < ncharts; i++)
		buf_addf(out, "\n### %s\n\n![%s](charts/%s.png)\n\n%s\n", titles[i], titles[i], ids[i], captions[i]);
}

enum category summary_verdict_category(enum verdict v)
{
	static const enum category cats[] = {
		[VERDICT_NONE] = CAT_INK,
		[VERDICT_CONFIRMED] = CAT_MEMORY,
		[VERDICT_REFUTED] = CAT_EXPOSED_COMM,
		[VERDICT_INCONCLUSIVE] = CAT_OVERLAPPED_COMM,
	};

	return (unsigned)v < sizeof(cats) / sizeof(cats[0]) ? cats[v] : CAT_INK;
}
