#include "render/summary.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

#define FINDINGS_MAX 8

/* The names of result.h's enums as people read them (the JSON names live with the analysis). */
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
	s->lines[s->n].kind = kind;
	s->lines[s->n].text = arena_strdup(&s->arena, tmp);
	s->n++;
}

/* Formatting into small rotating buffers, so that one line can hold several numbers. */
#define NBUF 8
static const char *num(double v, int decimals, const char *unit)
{
	static char bufs[NBUF][48];
	static int next;
	char *b = bufs[next++ % NBUF];

	if (!isfinite(v))
		return "n/a";
	snprintf(b, 48, "%.*f%s", decimals, v, unit);
	return b;
}

static const char *ms(double s)
{
	double v = s * 1e3;

	return num(v, fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2, " ms");
}

static const char *gb(int64_t bytes)
{
	return bytes < 0 ? "n/a" : num((double)bytes / 1e9, 1, " GB");
}

static const char *run_name(const struct run_result *r)
{
	return r->name ? r->name : "run";
}

static void meta(struct summary *s, const struct analysis *a)
{
	const struct comparison *m = &a->cmp;
	size_t i;

	add(s, SL_META, "Hypothesis: %s", hypothesis_texts[(unsigned)a->hypothesis <= HYP_FEASIBILITY ? a->hypothesis : 0]);
	for (i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];
		const char *role = !compared(a) ? "Run" : i == m->baseline ? "Baseline"
			: i == m->candidate ? "Candidate" : "Other run";

		add(s, SL_META, "%s: %s, %d GPU%s%s%s, %s, global batch %s", role, run_name(r), r->gpus,
		    r->gpus == 1 ? "" : "s", r->ngpu && r->gpu[0].name ? " " : "",
		    r->ngpu && r->gpu[0].name ? r->gpu[0].name : "", r->strategy ? r->strategy : "strategy n/a",
		    r->global_batch >= 0 ? num((double)r->global_batch, 0, "") : "n/a");
	}
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
			len += (size_t)snprintf(cats + len, sizeof(cats) - len, "%s%s %.2f GB",
						len ? ", " : "", mem_category_name((enum mem_category)c),
						x->timeline_at_peak[c] / 1e9);
	add(s, SL_ITEM, "%s GPU %d: tensors at the memory timeline's peak %.2f GB (%s)", run_name(r),
	    x->rank >= 0 ? x->rank : (int)g, x->timeline_peak / 1e9, cats);
}

static void key_numbers(struct summary *s, const struct analysis *a)
{
	const struct comparison *m = &a->cmp;
	size_t i, g;

	add(s, SL_HEADING, "Key numbers");
	if (compared(a)) {
		add(s, SL_ITEM, "Speedup %s: median step %s on the baseline, %s on the candidate",
		    num(m->speedup, 2, "x"), ms(a->runs[m->baseline].step_median_s),
		    ms(a->runs[m->candidate].step_median_s));
		add(s, SL_ITEM, "Scaling efficiency %s; throughput ratio %s",
		    num(m->scaling_efficiency * 100, 0, "%"), num(m->throughput_ratio, 2, "x"));
	}
	for (i = 0; i < a->nruns; i++) {
		const struct run_result *r = &a->runs[i];

		add(s, SL_ITEM, "%s: step %s (p10 %s, p90 %s), %s steady steps after %s warm-up, %s samples/s",
		    run_name(r), ms(r->step_median_s), ms(r->step_p10_s), ms(r->step_p90_s),
		    r->steps_measured >= 0 ? num((double)r->steps_measured, 0, "") : "n/a",
		    r->steps_warmup >= 0 ? num((double)r->steps_warmup, 0, "") : "n/a",
		    num(r->samples_per_s, 1, ""));
		for (g = 0; g < r->ngpu; g++) {
			add(s, SL_ITEM, "%s GPU %d: peak memory %s of %s (%s)", run_name(r),
			    r->gpu[g].rank >= 0 ? r->gpu[g].rank : (int)g, gb(r->gpu[g].peak_memory),
			    gb(r->gpu[g].memory_total), r->gpu[g].peak_source ? r->gpu[g].peak_source : "no source");
			timeline_item(s, r, g);
		}
		if (r->imbalance.flagged)
			add(s, SL_ITEM, "Imbalance in %s: %s", run_name(r),
			    r->imbalance.reason ? r->imbalance.reason : "flagged");
	}
}

static void confounds(struct summary *s, const struct analysis *a)
{
	size_t i;

	if (!compared(a))
		return;
	add(s, SL_HEADING, "Confounds");
	if (!a->cmp.nconfounds)
		add(s, SL_ITEM, "none found");
	for (i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *c = &a->cmp.confounds[i];

		add(s, SL_ITEM, "[%s] %s: %s (baseline) vs %s (candidate)%s%s", confound_severity_name(c->severity),
		    (unsigned)c->what < CF_COUNT ? confound_texts[c->what] : "other",
		    c->baseline ? c->baseline : "n/a", c->candidate ? c->candidate : "n/a",
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
	add(s, SL_ANSWER, "Answer: %s", texts[a->cmp.answer]);
	add(s, SL_REASON, "%s", a->cmp.answer_reason ? a->cmp.answer_reason : "no reason given");
}

void summary_build(struct summary *s, const struct analysis *a, const struct left_out *out, size_t nout)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->verdict = compared(a) ? a->cmp.verdict : VERDICT_NONE;
	add(s, SL_TITLE, "%s", a->title ? a->title : "Scaling trial");
	answer(s, a);
	meta(s, a);
	add(s, SL_VERDICT, "%s", summary_verdict_text(s->verdict));
	add(s, SL_REASON, "%s", a->cmp.reason ? a->cmp.reason
	    : compared(a) ? "no reason given" : "no baseline and candidate to compare");
	if (compared(a) && a->cmp.criterion)
		add(s, SL_REASON, "Criterion: %s", a->cmp.criterion);
	key_numbers(s, a);
	confounds(s, a);
	add(s, SL_HEADING, "Recommendations");
	if (!a->nrecs)
		add(s, SL_ITEM, "none");
	for (i = 0; i < a->nrecs; i++)
		add(s, SL_ITEM, "%s", a->recs[i].text ? a->recs[i].text : a->recs[i].id);
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
};

/* Appends text with Markdown's active characters escaped, so names like "run_1" stay literal. */
static void md_escape(struct buf *out, const char *text)
{
	for (; *text; text++) {
		if (strchr("\\`*_[]<>#|", *text))
			buf_addch(out, '\\');
		buf_addch(out, *text);
	}
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
		md_escape(out, l->text);
		buf_addstr(out, l->kind == SL_VERDICT || l->kind == SL_ANSWER ? "**" : "");
		/* Markdown joins adjacent lines: end a paragraph line with a hard break or a blank. */
		if (l->kind == SL_META && next == SL_META)
			buf_addstr(out, "  ");
		buf_addch(out, '\n');
		if (l->kind == SL_TITLE || l->kind == SL_HEADING || l->kind == SL_VERDICT || l->kind == SL_REASON
		    || l->kind == SL_ANSWER
		    || (l->kind == SL_META && next != SL_META))
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
