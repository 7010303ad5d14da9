#include "render/analysis_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/capacity.h"
#include "core/arena.h"
#include "core/utf8.h"
#include "core/xalloc.h"

#include "render/compute_text.h"
#include "render/decision_text.h"
#include "render/diff_text.h"
#include "render/numfmt.h"
#include "render/plan_text.h"
#include "render/readiness_text.h"

/* A table cell from numfmt, "-" where it says n/a (unknown). */
static const char *cell(const char *s)
{
	return strcmp(s, "n/a") ? s : "-";
}

/* A figure in a sentence from numfmt, "unknown" where it says n/a. */
static const char *known(const char *s)
{
	return strcmp(s, "n/a") ? s : "unknown";
}

/* The colour of each verdict word and severity word when colour is on. */
#define SGR_RESET "\033[0m"
static const char *const verdict_sgr[] = {
	[VERDICT_CONFIRMED] = "\033[1;32m",	/* bold green */
	[VERDICT_REFUTED] = "\033[1;31m",	/* bold red */
	[VERDICT_INCONCLUSIVE] = "\033[1;33m",	/* bold yellow */
};

static const struct {
	const char *word;	/* as printed before the message */
	const char *sgr;	/* its colour */
} severity_words[] = {
	[DIAG_ERROR] = { "error", "\033[1;31m" },
	[DIAG_WARNING] = { "warning", "\033[1;33m" },
	[DIAG_INFO] = { "note", "\033[1;36m" },
};

/* A name in capitals, as the first screen shouts a verdict or an answer. */
static const char *upper(char *buf, size_t size, const char *s)
{
	snprintf(buf, size, "%s", s);
	for (char *p = buf; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	return buf;
}

/*
 * The text is written to a memory stream and sent through core/utf8 as a whole, so that no
 * name, title or message from the inputs reaches the terminal with a control character or
 * invalid UTF-8 in it. The colours are the only escape codes sent: each is marked at its
 * offset and inserted on the way out.
 */
struct marks {
	size_t n, cap;
	struct mark {
		long at;		/* offset in the text */
		const char *sgr;	/* the code inserted there */
	} *v;
};

/* Marks the colour sgr at the end of what f holds; k NULL: no colour. Returns "" for a printf. */
static const char *colour(FILE *f, struct marks *k, const char *sgr)
{
	if (!k)
		return "";
	fflush(f);
	xgrow(&k->v, &k->cap, k->n + 1, sizeof(*k->v));
	k->v[k->n++] = (struct mark){ ftell(f), sgr };
	return "";
}

/* What to rent next, first: the line, a 30-day window's checkpoint interval and stop criteria. */
static void decision(const struct decision *d, FILE *f)
{
	struct buf b;

	if (!d->present)
		return;
	buf_init(&b, 0);
	decision_line(&b, d);
	fprintf(f, "Decision: %s\n", b.data);
	buf_reset(&b);
	decision_checkpoint_line(&b, d);
	if (b.len)
		fprintf(f, "  %s\n", b.data);
	for (size_t i = 0; i < d->nstop; i++)
		fprintf(f, "  Stop when %s\n", d->stop[i].text);
	buf_release(&b);
}

static void header(const struct analysis *a, FILE *f, struct marks *color)
{
	const struct comparison *c = &a->cmp;
	const char *v = verdict_name(c->verdict);
	char up[32];
	bool weak_said = false;

	fprintf(f, "Trial: %s\n", a->title ? a->title : "(untitled: no title in trial.ini)");
	decision(&c->decision, f);
	if (answer_name(c->answer))	/* the question the trial was run for comes first */
		fprintf(f, "Answer (%s): %s: %s\n", question_name(a->question),
			upper(up, sizeof(up), answer_name(c->answer)), c->answer_reason);
	fprintf(f, "Hypothesis: %s\n", hypothesis_name(a->hypothesis) ?
		hypothesis_name(a->hypothesis) : "none written in trial.ini");
	if (v) {
		fputs("Verdict: ", f);
		colour(f, color, verdict_sgr[c->verdict]);
		fputs(upper(up, sizeof(up), v), f);
		colour(f, color, SGR_RESET);
		fprintf(f, ": %s\n", c->reason);
	}
	else
		fprintf(f, "Verdict: none: %s\n", c->reason ? c->reason : "nothing to compare");
	for (size_t i = 0; i < c->nweak; i++)	/* what weakens the verdict stands beside it */
		if (comparison_weak_unsaid(c, i)) {
			fprintf(f, "%s%s", weak_said ? "; " : "Weak evidence: ", c->weak[i].message);
			weak_said = true;
		}
	if (weak_said)
		fputc('\n', f);
	if (c->criterion)
		fprintf(f, "Criterion: %s\n", c->criterion);
	fputc('\n', f);
}

/* Whether run.ini declares another value of fact k than the one the run uses. */
static bool contradicted(const struct run_result *r, enum fact_key k)
{
	const struct run_fact *x = &r->facts[k];

	return x->from != FACT_FROM_NONE && x->from != FACT_FROM_MANIFEST && x->declared >= 0 &&
	       x->declared != x->value;
}

/* The global batch used, marked "*" where run.ini says another. */
static const char *batch_cell(char *out, size_t n, const struct run_result *r)
{
	char b[NUMFMT_LEN];

	snprintf(out, n, "%s%s", cell(numfmt_count(b, r->global_batch)),
		 contradicted(r, FACT_GLOBAL_BATCH) ? "*" : "");
	return out;
}

static void runs_table(const struct analysis *a, FILE *f)
{
	char gb[NUMFMT_LEN + 2], b2[NUMFMT_LEN], b3[32];
	bool marked = false;

	fprintf(f, "%-12s %5s %-11s %-9s %12s %21s %14s %8s %10s\n", "run", "GPUs", "status",
		"precision", "global batch", "step median p10-p90", "throughput", "steps", "strategy");
	fprintf(f, "%-12s %5s %-11s %-9s %12s %21s %14s %8s %10s\n", "", "", "", "", "samples",
		"ms", "samples/s", "steady", "");
	for (size_t i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];
		char range[128], m[NUMFMT_LEN], lo[NUMFMT_LEN], hi[NUMFMT_LEN], g[NUMFMT_LEN];

		qty_num(m, r->step_median_s * 1e3);
		if (isnan(r->step_median_s))
			snprintf(range, sizeof(range), "-");
		else if (isnan(r->step_p10_s))	/* a whole-job summary: one figure */
			snprintf(range, sizeof(range), "%s -", m);
		else
			snprintf(range, sizeof(range), "%s %s-%s", m, qty_num(lo, r->step_p10_s * 1e3),
				 qty_num(hi, r->step_p90_s * 1e3));
		fprintf(f, "%-12s %5s %-11s %-9s %12s %21s %14s ", r->name, numfmt_int(g, r->gpus),
			run_status_name(r->status),
			r->precision_observed != DT_UNKNOWN ? dtype_name(r->precision_observed) :
			r->precision_declared ? r->precision_declared : "-",
			batch_cell(gb, sizeof(gb), r), range,
			cell(qty_num(b2, r->samples_per_s)));
		marked |= contradicted(r, FACT_GLOBAL_BATCH);
		if (r->steps_total >= 0)
			snprintf(b3, sizeof(b3), "%lld/%lld", (long long)r->steps_measured,
				 (long long)r->steps_total);
		else
			snprintf(b3, sizeof(b3), "-");
		fprintf(f, "%8s %10s\n", b3, r->strategy ? r->strategy : "-");
	}
	if (marked)
		fprintf(f, "* the logs' global batch, where run.ini says another (manifest-conflict below)\n");
	for (size_t i = 0; i < a->nruns; i++)	/* what costs every other GPU stands by its run */
		if (a->runs[i].imbalance.straggler_reason)
			fprintf(f, "Stragglers in %s: %s\n", a->runs[i].name,
				a->runs[i].imbalance.straggler_reason);
	fputc('\n', f);
}

/*
 * What the loss subtracts, on each run's slowest GPU's mean step (the verdict's
 * medians would not add up): "n x mean step - 1-GPU mean step" against one GPU,
 * else with the runs' counts, "2 x 4-GPU mean step - 2-GPU mean step" (n = c / b),
 * or with equal counts (n = 1) "candidate mean step - baseline mean step, 2 GPUs each".
 */
static const char *loss_terms(const struct analysis *a, char *b, size_t size)
{
	int32_t nb = a->runs[a->cmp.baseline].gpus, nc = a->runs[a->cmp.candidate].gpus;

	if (nb == 1 || nb <= 0 || nc <= 0)
		return "n x mean step - 1-GPU mean step, slowest GPU";
	if (nb == nc)
		snprintf(b, size, "candidate mean step - baseline mean step, slowest GPU, %d GPUs each", nb);
	else
		snprintf(b, size, "%g x %d-GPU mean step - %d-GPU mean step, slowest GPU", comparison_gpu_ratio(a), nc, nb);
	return b;
}

static void scaling(const struct analysis *a, FILE *f)
{
	const struct comparison *c = &a->cmp;
	char b1[NUMFMT_LEN], b2[NUMFMT_LEN], b3[NUMFMT_LEN], b4[NUMFMT_LEN], b5[NUMFMT_LEN], terms[80];

	if (!c->valid)
		return;
	fprintf(f, "%s against %s: speedup %s, scaling efficiency %s, throughput ratio %s\n",
		a->runs[c->candidate].name, a->runs[c->baseline].name,
		known(ratio_text(b1, c->speedup)), known(qty_percent(b2, c->scaling_efficiency)),
		known(ratio_text(b3, c->throughput_ratio)));
	if (!isnan(c->ideal_s) && !isnan(c->attribution_s.compute))
		fprintf(f, "Lost against perfect scaling (%s, ms): compute %s, "
			"exposed comm %s, memory %s, idle %s = %s\n", loss_terms(a, terms, sizeof(terms)),
			qty_signed(b1, c->attribution_s.compute * 1e3),
			qty_signed(b2, c->attribution_s.exposed_comm * 1e3),
			qty_signed(b3, c->attribution_s.memory * 1e3),
			qty_signed(b4, c->attribution_s.idle * 1e3),
			qty_signed(b5, (c->actual_s - c->ideal_s) * 1e3));
	else if (!isnan(c->ideal_s))
		fprintf(f, "Lost against perfect scaling: %s per step (no trace says where)\n",
			qty_duration_signed(b1, c->actual_s - c->ideal_s));
	fputc('\n', f);
}

/* One GPU's row: its window and partition; "waiting" is exposed comm spent waiting for a peer. */
static void time_row(FILE *f, const char *run, int rank, double window, const struct step_parts *p)
{
	char b[7][NUMFMT_LEN];

	fprintf(f, "%-12s %4d %9s %9s %13s %9s %9s %9s %11s\n", run, rank,
		cell(qty_num(b[0], window * 1e3)), cell(qty_num(b[1], p->compute * 1e3)),
		cell(qty_num(b[2], p->exposed_comm * 1e3)),
		cell(qty_num(b[3], p->exposed_comm_wait * 1e3)), cell(qty_num(b[4], p->memory * 1e3)),
		cell(qty_num(b[5], p->idle * 1e3)), cell(qty_num(b[6], p->overlapped_comm * 1e3)));
}

/* The span's length: its four parts add up to it. */
static double span_len(const struct step_parts *p)
{
	return p->compute + p->exposed_comm + p->memory + p->idle;
}

/*
 * Idle by cause under a time table: one line per GPU of the table with idle
 * time (docs/analysis.md, "Idle by cause"); nothing when none has any.
 */
static void idle_lines(const struct analysis *a, FILE *f, bool span)
{
	bool head = false;

	for (size_t i = 0; i < a->nruns; i++)
		for (size_t g = 0; g < a->runs[i].ngpu; g++) {
			const struct gpu_result *x = &a->runs[i].gpu[g];
			const struct step_parts *p = span ? &x->span_s : &x->step_s;
			struct buf b = BUF_INIT;

			if (isnan(x->mean_step_s) != span || !(p->idle > 0))
				continue;
			if (!head)
				fprintf(f, "Idle by cause (ms; host: the CPU had not launched the next work yet, "
					"sync: launched but held by a stream, event or peer):\n");
			head = true;
			buf_init(&b, 0);
			idle_words(&b, p);
			fprintf(f, "  %s GPU %d: %s\n", a->runs[i].name, x->rank, b.data);
			buf_release(&b);
		}
	if (head)
		fputc('\n', f);
}

static void time_header(FILE *f, const char *title, const char *window)
{
	fprintf(f, "%s\n", title);
	fprintf(f, "%-12s %4s %9s %9s %13s %9s %9s %9s %11s\n", "run", "GPU", window, "compute",
		"exposed comm", "waiting", "memory", "idle", "overlapped");
}

/*
 * Where the time went: each GPU's mean steady step; then, for GPUs with no
 * closed step window, their whole profiled span (a capture without steps
 * can be short: numfmt keeps three significant digits below 10 ms).
 */
static void time_table(const struct analysis *a, FILE *f)
{
	bool steps = false, spans = false;

	for (size_t i = 0; i < a->nruns; i++)
		for (size_t g = 0; g < a->runs[i].ngpu; g++) {
			const struct gpu_result *x = &a->runs[i].gpu[g];

			steps |= !isnan(x->mean_step_s);
			spans |= isnan(x->mean_step_s) && !isnan(span_len(&x->span_s));
		}
	if (steps) {
		time_header(f, "Where the time went, per steady step (ms; waiting = exposed comm spent "
			    "waiting for a peer):", "step");
		for (size_t i = 0; i < a->nruns; i++)
			for (size_t g = 0; g < a->runs[i].ngpu; g++) {
				const struct gpu_result *x = &a->runs[i].gpu[g];

				if (!isnan(x->mean_step_s))
					time_row(f, a->runs[i].name, x->rank, x->mean_step_s, &x->step_s);
			}
		fputc('\n', f);
		idle_lines(a, f, false);
	}
	if (!spans)
		return;
	time_header(f, "No closed step window: the whole profiled span (ms):", "span");
	for (size_t i = 0; i < a->nruns; i++)
		for (size_t g = 0; g < a->runs[i].ngpu; g++) {
			const struct gpu_result *x = &a->runs[i].gpu[g];

			if (isnan(x->mean_step_s) && !isnan(span_len(&x->span_s)))
				time_row(f, a->runs[i].name, x->rank, span_len(&x->span_s), &x->span_s);
		}
	fputc('\n', f);
	idle_lines(a, f, true);
}

/* One run's MFU line: MFU over the step, the peak it is taken against, what the shapes covered. */
static void mfu_line(FILE *f, const struct run_result *r)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	mfu_words(&b, &r->mfu);
	fprintf(f, "  %s: %s\n", r->name, b.data);
	buf_release(&b);
}

/* Achieved TFLOP/s and MFU of each run with GPU kernels (docs/analysis.md). */
static void mfu_lines(const struct analysis *a, FILE *f)
{
	bool any = false;

	for (size_t i = 0; i < a->nruns; i++)
		any |= !isnan(a->runs[i].mfu.covered_share);
	if (!any)
		return;
	fprintf(f, "Compute from op shapes (FLOPs of the matmul-class ops' recorded shapes):\n");
	for (size_t i = 0; i < a->nruns; i++)
		if (!isnan(a->runs[i].mfu.covered_share))
			mfu_line(f, &a->runs[i]);
	fputc('\n', f);
}

/* One line per run with trace kernels: what launching them costs the CPU (docs/analysis.md). */
static void launch_lines(const struct analysis *a, FILE *f)
{
	bool any = false;

	for (size_t i = 0; i < a->nruns; i++)
		any |= a->runs[i].launch.present;
	if (!any)
		return;
	fprintf(f, "Kernel launches, slowest GPU (delay: kernel start less the end of its launch call):\n");
	for (size_t i = 0; i < a->nruns; i++) {
		struct buf b = BUF_INIT;

		if (!a->runs[i].launch.present)
			continue;
		buf_init(&b, 0);
		launch_words(&b, &a->runs[i].launch);
		fprintf(f, "  %s: %s\n", a->runs[i].name, b.data);
		buf_release(&b);
	}
	fputc('\n', f);
}

/* Microseconds in a table cell: three significant digits below 10 (numfmt's rule). */
static const char *us_cell(char out[NUMFMT_LEN], double seconds)
{
	return qty_num(out, seconds * 1e6);
}

/* One run's top kernels by total time, each with its per-call statistics (--kernels). */
static void kernel_table(FILE *f, const struct run_result *r)
{
	const struct kernel_stats *k = &r->kernel_stats;
	char c[6][NUMFMT_LEN];

	if (!k->present) {
		fprintf(f, "%s: no trace with GPU kernels\n\n", r->name);
		return;
	}
	if (!strcmp(k->per, "span"))
		fprintf(f, "%s, GPU %d, whole profiled span (no steady step):\n", r->name, k->rank);
	else
		fprintf(f, "%s, GPU %d, %lld steady step%s:\n", r->name, k->rank, (long long)k->steps,
			k->steps == 1 ? "" : "s");
	fprintf(f, "%7s %9s %9s %9s %9s %9s %9s  %s\n", "calls", "total ms", "mean us", "min us",
		"p50 us", "p90 us", "max us", "kernel");
	for (size_t i = 0; i < k->nkernels; i++) {
		const struct kernel_stat *s = &k->kernels[i];

		bool same = !s->label || !strcmp(s->label, s->name);

		fprintf(f, "%7lld %9s %9s %9s %9s %9s %9s  %s%s%s\n", (long long)s->calls,
			qty_num(c[0], s->total_s * 1e3), us_cell(c[1], s->mean_s), us_cell(c[2], s->min_s),
			us_cell(c[3], s->p50_s), us_cell(c[4], s->p90_s), us_cell(c[5], s->max_s),
			same ? "" : s->label, same ? "" : ": ", s->name);
	}
	fputc('\n', f);
}

/* --kernels: per run, its launch line and its top kernels' table. */
static void kernels_view(const struct analysis *a, FILE *f)
{
	for (size_t i = 0; i < a->nruns; i++)
		kernel_table(f, &a->runs[i]);
	launch_lines(a, f);
}

/*
 * The memory timeline's tensors at their peak, one line per GPU that has
 * one: each category that holds memory then, in GB, and their sum.
 */
static void timeline_line(FILE *f, const struct gpu_result *x)
{
	char b[NUMFMT_LEN];

	if (x->timeline_peak <= 0)
		return;
	fprintf(f, "  GPU %d tensors at the timeline's peak (GB):", x->rank);
	for (int c = 0; c < MEMCAT_COUNT; c++)
		if (x->timeline_at_peak[c] > 0)
			fprintf(f, " %s %s,", mem_category_name((enum mem_category)c),
				qty_num(b, x->timeline_at_peak[c] / 1e9));
	fprintf(f, " in all %s\n", qty_num(b, x->timeline_peak / 1e9));
}

static void memory_table(const struct analysis *a, FILE *f)
{
	char b1[NUMFMT_LEN], cap[CAPACITY_TEXT_LEN];

	fprintf(f, "Memory per GPU:\n");
	fprintf(f, "%-12s %4s %-26s %10s %-11s %5s %s\n", "run", "GPU", "device", "peak", "from", "used",
		"capacity");
	for (size_t i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];

		for (size_t g = 0; g < r->ngpu; g++) {
			const struct gpu_result *x = &r->gpu[g];
			char pct[NUMFMT_LEN] = "-";

			if (x->peak_memory >= 0 && x->memory_total > 0)
				qty_percent(pct, (double)x->peak_memory / (double)x->memory_total);
			fprintf(f, "%-12s %4d %-26.26s %10s %-11s %5s %s\n", r->name, x->rank,
				x->name ? x->name : "-", cell(qty_gb(b1, (double)x->peak_memory)),
				x->peak_source ? x->peak_source : "-", pct,
				x->memory_total > 0 ? capacity_gpu_text(cap, sizeof(cap), x) : "-");
			timeline_line(f, x);
		}
		if (r->imbalance.flagged)
			fprintf(f, "  %s is unbalanced: %s\n", r->name, r->imbalance.reason);
	}
	fputc('\n', f);
}

/* Calls per step: whole when they are (every GPU, every step alike), else to a tenth. */
static const char *calls_cell(char *out, double calls)
{
	if (isnan(calls))
		snprintf(out, NUMFMT_LEN, "-");
	else
		snprintf(out, NUMFMT_LEN, "%.*f", fabs(calls - round(calls)) < 0.05 ? 0 : 1, calls);
	return out;
}

static void comm_lines(const struct analysis *a, FILE *f)
{
	char b1[NUMFMT_LEN];

	for (size_t i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];

		if (!r->ncoll && !r->transport)
			continue;
		fprintf(f, "Communication in %s: NCCL %s, transport %s, link %s%s", r->name,
			r->nccl_version ? r->nccl_version : "(version unknown)",
			r->transport ? r->transport : "unknown", r->link ? r->link : "unknown",
			r->link_source && !strcmp(r->link_source, "gpu-model") ? " (inferred from the GPU model)" : "");
		if (!isnan(r->link_gbps))
			fprintf(f, ", %s nominal per GPU and direction", qty_gbps(b1, r->link_gbps));
		fputc('\n', f);
		if (!isnan(r->link_busbw_gbps))
			fprintf(f, "  link ceiling %s (%s)\n", qty_gbps(b1, r->link_busbw_gbps),
				r->link_busbw_source);
		if (r->ncoll && r->coll_per && !strcmp(r->coll_per, "span"))
			fprintf(f, "  no step closes: each collective over the whole profiled span, per GPU\n");
		for (size_t c = 0; c < r->ncoll; c++) {
			char frac[NUMFMT_LEN + 16] = "", pc[NUMFMT_LEN];

			if (!isnan(r->coll[c].link_fraction))
				snprintf(frac, sizeof(frac), ", %s of the link",
					 qty_percent(pc, r->coll[c].link_fraction));
			const struct coll_result *x = &r->coll[c];
			char mb[NUMFMT_LEN], ms[NUMFMT_LEN], tb[NUMFMT_LEN], calls[NUMFMT_LEN], wt[NUMFMT_LEN];
			const char *per = r->coll_per && !strcmp(r->coll_per, "span") ? "span" : "step";

			calls_cell(calls, x->calls_per_step);
			/* unknown message bytes are "-", never 0; transfer: the time no rank waited */
			fprintf(f, "  %-13s %-8s %6s call%s %9s MB/%s %8s ms/%s (%s ms waiting)  busbw %s GB/s "
				"(%s over transfer time)%s\n", coll_name(x->op), x->dtype ? dtype_name(x->dtype) : "-",
				calls, strcmp(calls, "1") ? "s" : " ",
				cell(qty_num(mb, x->bytes_per_step > 0 ? x->bytes_per_step / 1e6 : NAN)), per,
				cell(qty_num(ms, x->time_per_step_s * 1e3)), per,
				cell(qty_num(wt, x->wait_time_per_step_s * 1e3)),
				cell(qty_num(b1, x->busbw_gbps)), cell(qty_num(tb, x->transfer_busbw_gbps)),
				frac);
		}
	}
}

#define FINDINGS_SHOWN 12

/* Readiness: whether each run's software targets its GPU; only where the trial says. */
static void readiness(const struct analysis *a, FILE *f)
{
	struct buf b = BUF_INIT;

	if (!readiness_any(a))
		return;
	buf_init(&b, 0);
	for (size_t i = 0; i < a->nruns; i++)
		readiness_lines(&a->runs[i], "  ", &b);
	fprintf(f, "\nReadiness (the software against each run's GPU):\n%s", b.data);
	buf_release(&b);
}

/* The plan against the trial: only where a run.ini carries plan's predictions. */
static void plan(const struct analysis *a, FILE *f)
{
	struct buf b;

	if (!plan_any(a))
		return;
	buf_init(&b, 0);
	for (size_t i = 0; i < a->nruns; i++)
		plan_line(&a->runs[i], "  ", &b);
	fprintf(f, "\nPlan against measured (run.ini's predictions):\n%s", b.data);
	buf_release(&b);
}

static void lists(const struct analysis *a, FILE *f, struct marks *color)
{
	size_t warnings = 0, errors = 0;

	fprintf(f, "\nConfounds:%s\n", a->cmp.nconfounds ? "" : " none");
	for (size_t i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *c = &a->cmp.confounds[i];

		fprintf(f, "  [%s] %s: %s against %s: %s\n", confound_severity_name(c->severity),
			confound_name(c->what), c->baseline ? c->baseline : "?",
			c->candidate ? c->candidate : "?", c->why);
	}
	fprintf(f, "Recommendations:%s\n", a->nrecs ? "" : " none");
	for (size_t i = 0; i < a->nrecs; i++)
		fprintf(f, "  - %s\n", a->recs[i].text);
	if (a->cmp.decision.present && a->cmp.decision.nalts)
		fprintf(f, "Other rentals:\n");
	for (size_t i = 0; a->cmp.decision.present && i < a->cmp.decision.nalts; i++)
		fprintf(f, "  - %s\n", a->cmp.decision.alts[i].why);
	for (size_t i = 0; i < a->nfindings; i++) {
		errors += a->findings[i].severity == DIAG_ERROR;
		warnings += a->findings[i].severity == DIAG_WARNING;
	}
	if (!a->nfindings)
		return;
	fprintf(f, "Findings about the inputs: %zu errors, %zu warnings, %zu notes\n", errors,
		warnings, a->nfindings - errors - warnings);
	for (size_t i = 0; i < a->nfindings && i < FINDINGS_SHOWN; i++) {
		const struct finding *fd = &a->findings[i];

		fprintf(f, "  %s%s", fd->source ? fd->source : "", fd->source ? ": " : "");
		colour(f, color, severity_words[fd->severity].sgr);
		fputs(severity_words[fd->severity].word, f);
		colour(f, color, SGR_RESET);
		fprintf(f, ": %s\n", fd->message);
	}
	if (a->nfindings > FINDINGS_SHOWN)
		fprintf(f, "  ... and %zu more in analyze --json\n", a->nfindings - FINDINGS_SHOWN);
}

/* s on one line (a newline or tab escaped as \x0a, \x09), in ar; s itself when it is. */
static const char *line_of(struct arena *ar, const char *s)
{
	char *d;
	const char *r;

	if (!s || utf8_clean(s, strlen(s), UTF8_CONTROLS | UTF8_ONE_LINE))
		return s;
	d = utf8_dup(s, UTF8_CONTROLS | UTF8_ONE_LINE);
	r = arena_strdup(ar, d);
	free(d);
	return r;
}

/*
 * v: a with the names the text puts in table rows and one-line fields (the title, run and
 * GPU names, a finding's file) each on one line: a run directory may be named with a
 * newline, which the whole text's escaping keeps, as the text's own line breaks.
 */
static void one_line_view(const struct analysis *a, struct analysis *v, struct arena *ar)
{
	*v = *a;
	v->title = line_of(ar, a->title);
	v->runs = arena_alloc(ar, (a->nruns + 1) * sizeof(*v->runs));
	for (size_t i = 0; i < a->nruns; i++) {
		struct run_result *r = &v->runs[i];

		*r = a->runs[i];
		r->name = line_of(ar, r->name);
		r->gpu = arena_alloc(ar, (r->ngpu + 1) * sizeof(*r->gpu));
		for (size_t g = 0; g < r->ngpu; g++) {
			r->gpu[g] = a->runs[i].gpu[g];
			r->gpu[g].name = line_of(ar, r->gpu[g].name);
		}
	}
	v->findings = arena_alloc(ar, (a->nfindings + 1) * sizeof(*v->findings));
	for (size_t i = 0; i < a->nfindings; i++) {
		v->findings[i] = a->findings[i];
		v->findings[i].source = line_of(ar, a->findings[i].source);
	}
}

/* The text with the colours of k inserted, written to out through core/utf8. */
static int send(const char *text, size_t n, const struct marks *k, FILE *out)
{
	size_t from = 0;
	int rc = 0;

	for (size_t i = 0; i < k->n; i++) {
		size_t at = (size_t)k->v[i].at;

		rc |= utf8_write(out, text + from, at - from, UTF8_CONTROLS);
		fputs(k->v[i].sgr, out);
		from = at;
	}
	return rc | utf8_write(out, text + from, n - from, UTF8_CONTROLS);
}

int analysis_write_text(const struct analysis *in, FILE *out, const struct analysis_text_options *opt)
{
	struct marks k = { 0 };
	struct arena ar = ARENA_INIT;
	struct analysis view, *a = &view;
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	int rc;

	if (!f)
		return -1;
	one_line_view(in, &view, &ar);
	if (opt && opt->kernels) {
		kernels_view(a, f);
		goto done;
	}
	header(a, f, opt && opt->color ? &k : NULL);
	runs_table(a, f);
	scaling(a, f);
	time_table(a, f);
	mfu_lines(a, f);
	launch_lines(a, f);
	memory_table(a, f);
	comm_lines(a, f);
	readiness(a, f);
	plan(a, f);
	lists(a, f, opt && opt->color ? &k : NULL);
done:
	if (opt && opt->diff)
		diff_text(a, f);
	rc = fclose(f) ? -1 : send(text, n, &k, out);
	free(text);
	free(k.v);
	arena_release(&ar);
	return rc || fflush(out) == EOF || ferror(out) ? -1 : 0;
}
