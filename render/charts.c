/*
 * The chart table (chart_defs, in report order) and what the chart families
 * share: run order, colours and labels, and the not-comparable banner. The
 * charts themselves are in render/charts_step.c, charts_memory.c,
 * charts_comm.c, charts_more.c and charts_roof.c.
 */
#include "render/charts.h"

#include <string.h>

#include "core/utf8.h"
#include "render/charts_internal.h"
#include "render/numfmt.h"

/* A comparison whose run indexes can be trusted. */
bool compared(const struct analysis *a)
{
	return a->cmp.valid && a->cmp.baseline < a->nruns && a->cmp.candidate < a->nruns;
}

/* Runs in chart order: baseline, candidate, then the others; returns how many. */
size_t run_order(const struct analysis *a, size_t *order)
{
	size_t n = 0, i;

	if (compared(a) && a->cmp.baseline < a->nruns)
		order[n++] = a->cmp.baseline;
	if (compared(a) && a->cmp.candidate < a->nruns && a->cmp.candidate != a->cmp.baseline)
		order[n++] = a->cmp.candidate;
	for (i = 0; i < a->nruns && n < MAX_ORDER; i++)
		if (!compared(a) || (i != a->cmp.baseline && i != a->cmp.candidate))
			order[n++] = i;
	return n;
}

enum category run_cat(const struct analysis *a, size_t i)
{
	static const enum category others[] = { CAT_OTHER_RUN, CAT_OTHER_RUN2 };
	size_t order[MAX_ORDER], n = run_order(a, order), k;

	if (compared(a) && i == a->cmp.baseline)
		return CAT_BASELINE;
	if (compared(a) && i == a->cmp.candidate)
		return CAT_CANDIDATE;
	for (k = 0; k < n && order[k] != i; k++)
		;
	if (!compared(a) && k < 2)
		return k == 0 ? CAT_BASELINE : CAT_CANDIDATE;
	return others[k % 2];
}

const char *chart_run_name(const struct run_result *r, struct chart_layout *c)
{
	const char *name = r->name ? r->name : "run";
	unsigned flags = UTF8_CONTROLS | UTF8_ONE_LINE;
	struct buf b;

	if (strlen(name) <= CHART_NAME_CHARS && utf8_clean(name, strlen(name), flags))
		return name;
	buf_init(&b, 0);
	utf8_cut(name, strlen(name), flags, CHART_NAME_CHARS, &b);
	name = chart_strf(c, "%s", b.data);
	buf_release(&b);
	return name;
}

const char *run_label(const struct analysis *a, size_t i, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[i];
	const char *role = !compared(a) ? NULL
		: i == a->cmp.baseline ? "baseline" : i == a->cmp.candidate ? "candidate" : NULL;
	const char *name = chart_run_name(r, c);
	char g[NUMFMT_LEN];

	if (!role)
		return chart_strf(c, "%s (%s)", name, numfmt_gpus(g, r->gpus));
	return chart_strf(c, "%s: %s (%s)", role, name, numfmt_gpus(g, r->gpus));
}

int gpu_number(const struct gpu_result *g, size_t index)
{
	return g->rank >= 0 ? g->rank : (int)index;
}

const char *gpu_cat_label(const struct analysis *a, size_t run, size_t gi, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[run];

	return chart_strf(c, "%s\nGPU %d", chart_run_name(r, c), gpu_number(&r->gpu[gi], gi));
}

/* The not-comparable banner of comparison charts. */

/* How a blocking confound reads in the banner, by enum confound_what. */
static const char *const confound_phrases[CF_COUNT] = {
	[CF_PRECISION] = "precision differs",
	[CF_GLOBAL_BATCH] = "global batch differs",
	[CF_MICRO_BATCH] = "micro batch differs",
	[CF_SEQ_LEN] = "sequence length differs",
	[CF_DATASET] = "dataset differs",
	[CF_MODEL] = "model differs",
	[CF_STEPS] = "too few steady steps",
	[CF_GPU_MODEL] = "GPU models differ",
	[CF_GPU_ARCH] = "a build does not target its GPU",
	[CF_WORKLOAD] = "not one job",
	[CF_GPUS] = "GPU count unknown",
};

/*
 * A confound's value as the banner shows it: a readiness verdict, an id
 * ("not-ready"), in words; the runs' own values (a dataset, a model) as
 * written; "?" for none.
 */
static const char *value_words(const struct confound *f, const char *v, struct chart_layout *c)
{
	char w[64];
	size_t i;

	if (!v)
		return "?";
	if (f->what != CF_GPU_ARCH || strlen(v) >= sizeof(w))
		return v;
	for (i = 0; v[i]; i++)
		w[i] = v[i] == '-' ? ' ' : v[i];
	w[i] = '\0';
	return chart_strf(c, "%s", w);
}

/*
 * "Not comparable: precision differs (1gpu bf16, 2gpu tf32); numbers shown
 * for reference", one clause per blocking confound but those in the mask
 * (1u << what: a chart that corrects for one); NULL when none stands.
 */
const char *banner_text(const struct analysis *a, struct chart_layout *c, unsigned skip)
{
	const char *base, *cand, *text = NULL;
	size_t i;

	if (!compared(a))
		return NULL;
	base = a->runs[a->cmp.baseline].name ? chart_run_name(&a->runs[a->cmp.baseline], c) : "baseline";
	cand = a->runs[a->cmp.candidate].name ? chart_run_name(&a->runs[a->cmp.candidate], c) : "candidate";
	for (i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *f = &a->cmp.confounds[i];

		if (f->severity != CFS_BLOCKING || (unsigned)f->what >= CF_COUNT || (skip & 1u << f->what))
			continue;
		text = chart_strf(c, "%s%s%s (%s %s, %s %s)", text ? text : "Not comparable: ", text ? "; " : "",
				  confound_phrases[f->what], base, value_words(f, f->baseline, c), cand,
				  value_words(f, f->candidate, c));
	}
	return text ? chart_strf(c, "%s; numbers shown for reference", text) : NULL;
}

const char *chart_confound_phrase(enum confound_what w)
{
	return (unsigned)w < CF_COUNT && confound_phrases[w] ? confound_phrases[w] : "a confound stands";
}

void chart_set_banner(const struct analysis *a, struct chart_layout *c)
{
	c->banner = banner_text(a, c, 0);
}


const struct chart_def chart_defs[] = {
	{ "01-step-time", "Each run's step time (slowest GPU) over the profiled steps. Look at the gap "
	  "between the dashed medians: that is the speedup. Steps in the shaded warm-up are left out of "
	  "every number; a line that keeps moving after it means the run never settled.", chart_step_time },
	{ "02-breakdown", "Each GPU's mean steady step split into compute, exposed communication, memory "
	  "copies and idle. Look at what grows from the baseline to the candidate: that is what the "
	  "second GPU costs.", chart_breakdown },
	{ "03-waterfall", "From the ideal (one GPU's step, spread perfectly over n GPUs) to the GPU time "
	  "actually spent. Each middle bar is the extra GPU time one category took; the tallest one is "
	  "what to fix first.", chart_waterfall },
	{ "04-memory", "Peak memory of each GPU, in GB of 1e9 bytes, against the total its driver reported "
	  "and the capacity of an H200, B200 and MI300X as their drivers report it. A bar under a line means the job fits that "
	  "GPU; bars of very different heights within a run mean the split is unbalanced.", chart_memory },
	{ "05-communication", "Bus bandwidth reached per message size and operation, against the link's "
	  "nominal ceiling where the link is known, and how much of each GPU's communication runs with "
	  "nothing else on the GPU (exposed) rather than hidden under compute.", chart_comm },
	{ "06-top-kernels", "The kernels that take the most time per step, per GPU. A kernel that is "
	  "slower on the candidate than on the baseline, or a communication kernel near the top, "
	  "points at the cause.", chart_kernels },
	{ "07-timeline", "One steady step of each run, lane by lane: the same step number on every "
	  "GPU of the run, the one whose slowest GPU is nearest the run's median step. Gaps in the compute lane "
	  "where the communication lane is busy are exposed communication; gaps in every lane are "
	  "idle time.", chart_timeline },
	{ "08-monitor", "nvidia-smi's view of each GPU around the profiled steps: memory used against the "
	  "GPU's reported total, and utilisation. Look for one GPU working while another waits, and for "
	  "memory that climbs to the total.",
	  chart_monitor },
	{ "09-replay", "Each critical kernel's time in the trial's logs against its time re-run on "
	  "this GPU. Bars far apart mean the logged timings were not what the kernels cost.",
	  chart_replay },
	{ "10-options", "What each way of renting buys, from the runs' throughput: samples per second, "
	  "GPU-hours per million samples and, when the trial sets a target, the days to it inside the "
	  "window each option rents (lots of GPUs for 3, 7 or 30 days, with the margin); with a price "
	  "per GPU-hour, what that window costs as rented. The note above says what to rent.", chart_options },
	{ "11-sweep", "For a sweep of configurations: the same GPUs used as independent 1-GPU runs, one "
	  "configuration each, or together as one distributed run. The taller bar finishes more "
	  "configurations per day.", chart_sweep },
	{ "12-precision", "Which data types each run's matrix multiplications ran in, as a share of their "
	  "time. Under each bar, the precision the run declared and the one observed; a run whose bar "
	  "changes colour against the others did different arithmetic.", chart_precision },
	{ "13-waiting", "Left: each GPU's mean step, from the bottom: waiting for a slower peer, its own "
	  "work, the rest. Waiting above the dashed tick is imbalance, not a slow link. Right: the largest "
	  "over the smallest GPU's peak memory and busy time, against the ratios that flag imbalance.",
	  chart_waiting },
	{ "14-roofline", "Each run's top ops by kernel time: achieved TFLOP/s against FLOPs per byte, both "
	  "from the ops' recorded shapes, under the GPU's compute ceiling (flat) and memory ceiling "
	  "(slope). An op far under the ceiling above it leaves that much of the GPU unused; one under "
	  "the slope is held by memory bandwidth, not arithmetic.", chart_roofline },
	{ "15-diff", "The ops that add the most GPU time from the baseline to the candidate, largest first: "
	  "the baseline's bar above the candidate's, the time added beside them. An op that grows is work "
	  "the extra GPUs repeat, wait in or add (communication); one that shrinks split well. The report's "
	  "'Op by op' tables give calls and time per call, and the kernels by family.", chart_diff },
};

const size_t chart_ndefs = sizeof(chart_defs) / sizeof(chart_defs[0]);

int chart_build(size_t i, const struct analysis *a, struct chart_layout *c, const char **why)
{
	int rc;

	chart_init(c, chart_defs[i].id, "");
	*why = NULL;
	rc = chart_defs[i].build(a, c, why);
	if (rc == 0)
		chart_finish(c);
	return rc;
}
