/*
 * The communication charts: bus bandwidth by message size with exposed
 * against overlapped communication (05), and one steady step's timeline per
 * GPU, whose lanes show where communication ran against compute (07).
 */
#include "render/charts_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/gpu.h"
#include "core/xalloc.h"
#include "render/charts.h"
#include "render/numfmt.h"

/* 5. Communication: bus bandwidth by message size; exposed vs overlapped per step. */

static bool run_has_comm(const struct run_result *r)
{
	size_t gi;

	for (gi = 0; gi < r->ngpu; gi++)
		if (isfinite(r->gpu[gi].step_s.comm_total) && r->gpu[gi].step_s.comm_total > 0)
			return true;
	return false;
}

/* Marker and dash per series of one run, so its operations stay apart in its colour. */
static const unsigned series_styles[] = {
	MS_MARKERS, MS_SQUARES | MS_DASHED, MS_MARKERS | MS_HOLLOW, MS_SQUARES | MS_HOLLOW | MS_DASHED,
	MS_MARKERS | MS_LIGHT, MS_SQUARES | MS_LIGHT | MS_DASHED,
};

/*
 * One series per (operation, source) of a run: its points by message size,
 * each the analysis' total bytes over total time at that size (the GPU
 * count is the run's: the analysis keeps only nccl-tests tables of one
 * count). Returns how many series of the run are drawn before this one.
 */
static size_t bw_series(const struct analysis *a, size_t run, bool nccl_tests, size_t nth,
			struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	int op;
	size_t k;

	for (op = 0; op < COLL_COUNT; op++) {
		unsigned style = series_styles[nth % (sizeof(series_styles) / sizeof(series_styles[0]))];
		const char *name = NULL;
		char g[NUMFMT_LEN];

		if (!nccl_tests)
			style = MS_SQUARES | MS_NOLINE | (nth % 2 ? MS_HOLLOW : 0);
		for (k = 0; k < r->nbw; k++) {
			const struct bw_point *b = &r->bw[k];

			if ((int)b->op != op || b->from_nccl_tests != nccl_tests || b->bytes <= 0 ||
			    !isfinite(b->busbw_gbps))
				continue;
			if (!name) {
				name = chart_strf(c, "%s %s, %s, %s", chart_run_name(r, c),
						  op == COLL_NONE ? "collective" : coll_name((enum coll_op)op),
						  nccl_tests ? "nccl-tests" : "trace", numfmt_gpus(g, r->gpus));
				panel_line(p, run_cat(a, run), style, name);
			}
			panel_point(p, log2((double)b->bytes), b->busbw_gbps);
		}
		if (name) {
			chart_add_legend(c, run_cat(a, run), style, true, name);
			nth++;
		}
	}
	return nth;
}

/* "NVLink", "PCIe": the link as people write it; NULL when not a GPU link. */
static const char *link_text(const char *link)
{
	static const struct {
		const char *name, *text;
	} links[] = { { "nvlink", "NVLink" }, { "pcie", "PCIe" } };
	size_t k;

	for (k = 0; link && k < sizeof(links) / sizeof(links[0]); k++)
		if (!strcmp(link, links[k].name))
			return links[k].text;
	return NULL;
}

static const char *transport_text(const char *t)
{
	static const struct {
		const char *name, *text;
	} transports[] = {
		{ "p2p", "P2P" }, { "shm", "shared memory (SHM)" },
		{ "net-socket", "sockets (NET/Socket)" }, { "net-ib", "InfiniBand (NET/IB)" },
		{ "net-ofi", "libfabric (NET/OFI)" }, { "nvls", "NVLink SHARP (NVLS)" },
		{ "collnet", "CollNet" },
	};
	size_t k;

	for (k = 0; t && k < sizeof(transports) / sizeof(transports[0]); k++)
		if (!strcmp(t, transports[k].name))
			return transports[k].text;
	return "unknown";
}

/*
 * The link's nominal ceiling from the GPU table: "H200 NVLink nominal 450
 * GB/s"; NULL when the link or its bandwidth is unknown.
 */
static const char *ceiling_label(const struct run_result *r, struct chart_layout *c)
{
	const struct gpu_model *m = r->ngpu ? gpu_lookup(r->gpu[0].name, r->gpu[0].memory_total) : NULL;

	char b[NUMFMT_LEN];

	if (!link_text(r->link) || !isfinite(r->link_gbps))
		return NULL;
	return chart_strf(c, "%s%s%s nominal %s", m ? m->name : "", m ? " " : "", link_text(r->link),
			  qty_gbps(b, r->link_gbps));
}

/*
 * The ceiling drawn for r, in GB/s, and its label: the link's nominal
 * bandwidth; where NCCL ran over something else (sockets, a network) or the
 * link is unknown, the GPU link these GPUs are built around, saying NCCL did
 * not use it (the reference that shows how far under it the run stayed).
 * NaN when neither is known.
 */
static double run_ceiling(const struct run_result *r, struct chart_layout *c, const char **label)
{
	const struct gpu_model *m = r->ngpu ? gpu_lookup(r->gpu[0].name, r->gpu[0].memory_total) : NULL;
	char b[NUMFMT_LEN];
	double gbps;

	if ((*label = ceiling_label(r, c)))
		return r->link_gbps;
	if (!m || (m->link != GPU_LINK_NVLINK && m->link != GPU_LINK_PCIE) || r->gpus < 2 ||
	    !isfinite(gbps = gpu_link_gbps_for(m, r->gpus)))
		return NAN;
	*label = chart_strf(c, "%s %s nominal %s, not used (NCCL: %s)", m->name, gpu_link_name(m->link),
			    qty_gbps(b, gbps), transport_text(r->transport));
	return gbps;
}

/*
 * The bus bandwidth over transfer time only, beside the busbw points: one
 * hollow point per collective of r that waits for peers, at its mean message
 * size, named with the share of its time spent waiting.
 */
static void transfer_points(const struct analysis *a, size_t run, struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	char b[NUMFMT_LEN];
	size_t k;

	for (k = 0; k < r->ncoll; k++) {
		const struct coll_result *o = &r->coll[k];
		const char *name;

		if (!isfinite(o->transfer_busbw_gbps) || !isfinite(o->wait_time_per_step_s) || o->calls_per_step <= 0 ||
		    o->bytes_per_step <= 0 || !(o->time_per_step_s > 0) || o->wait_time_per_step_s < o->time_per_step_s / 100 ||
		    o->wait_time_per_step_s > o->time_per_step_s)	/* a share, or not drawn */
			continue;
		name = chart_strf(c, "%s %s, during transfer (%s of its time waiting)", chart_run_name(r, c),
				  coll_name(o->op), qty_percent(b, o->wait_time_per_step_s / o->time_per_step_s));
		panel_line(p, run_cat(a, run), MS_MARKERS | MS_NOLINE | MS_HOLLOW, name);
		panel_point(p, log2(o->bytes_per_step / o->calls_per_step), o->transfer_busbw_gbps);
		chart_add_legend(c, run_cat(a, run), MS_MARKERS | MS_NOLINE | MS_HOLLOW, true, name);
	}
}

/* The highest bandwidth point and the highest ceiling the panel draws, GB/s (NaN: none). */
static void bw_extent(const struct panel *p, double *top, double *ceiling)
{
	size_t k, j;

	*top = *ceiling = NAN;
	for (k = 0; k < p->nmarks; k++) {
		const struct mark *m = &p->marks[k];

		for (j = 0; m->kind == MARK_LINE && j < m->npts; j++)
			*top = isnan(*top) ? p->pts[m->first + j].y : fmax(*top, p->pts[m->first + j].y);
		if (m->kind == MARK_HLINE)
			*ceiling = isnan(*ceiling) ? m->y0 : fmax(*ceiling, m->y0);
	}
}

/*
 * Under a ceiling more than BW_LOG_RATIO times the highest point a linear
 * axis flattens every point onto zero (9 GB/s under 900): the axis goes
 * log10, every value converted.
 */
#define BW_LOG_RATIO 20.0

static void bw_log_scale(struct panel *p)
{
	double top, ceiling;
	size_t k;

	bw_extent(p, &top, &ceiling);
	if (!(top > 0) || !(ceiling / top > BW_LOG_RATIO))
		return;
	p->y.scale = AXIS_LOG10;
	p->y.zero = false;
	p->y.tight = true;	/* whole decades, no headroom */
	p->y.label = "bus bandwidth (GB/s, log scale)";
	for (k = 0; k < p->npts; k++)
		p->pts[k].y = log10(p->pts[k].y);
	for (k = 0; k < p->nmarks; k++)
		if (p->marks[k].kind == MARK_HLINE)
			p->marks[k].y0 = log10(p->marks[k].y0);
}

/* One run's transport and link for the subtitle: "2gpu: NCCL transport: sockets (NET/Socket); ..." */
static const char *comm_facts(const struct run_result *r, struct chart_layout *c)
{
	const char *name = chart_run_name(r, c);
	bool inferred = r->link_source && !strcmp(r->link_source, "gpu-model");
	char b[NUMFMT_LEN];

	if (link_text(r->link) && isfinite(r->link_gbps))
		return chart_strf(c, "%s: NCCL transport: %s; link: %s%s, %s each way", name,
				  transport_text(r->transport), link_text(r->link),
				  inferred ? " (inferred from the GPU)" : "", qty_gbps(b, r->link_gbps));
	return chart_strf(c, "%s: NCCL transport: %s; link: %s, no nominal ceiling of its own", name,
			  transport_text(r->transport), r->link ? r->link : "unknown");
}

static void bw_panel(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	struct panel *p = chart_add_panel(c, "message size", "bus bandwidth (GB/s)");
	const char *drawn[MAX_ORDER];
	size_t k, j, ndrawn = 0;

	p->title = "Bus bandwidth by message size";
	p->x.scale = AXIS_LOG2_BYTES;
	p->x.tight = true;
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];
		const char *ceiling;
		double gbps = run_ceiling(r, c, &ceiling);

		bw_series(a, order[k], false, bw_series(a, order[k], true, 0, c, p), c, p);
		if (r->nbw)
			transfer_points(a, order[k], c, p);
		if (!r->nbw || !ceiling)
			continue;
		for (j = 0; j < ndrawn && strcmp(drawn[j], ceiling); j++)
			;
		if (j == ndrawn) {
			panel_hline(p, CAT_REFERENCE, MS_DASHED, gbps, ceiling);
			drawn[ndrawn++] = ceiling;
		}
	}
	bw_log_scale(p);
}

static void overlap_panel(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	struct panel *p = chart_add_panel(c, "run and GPU", "communication per step (ms)");
	size_t k, gi;

	p->title = "Exposed vs overlapped comm";
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu; gi++) {
			const struct step_parts *s = &r->gpu[gi].step_s;
			double x, e, o;
			char b[NUMFMT_LEN];

			if (!isfinite(s->exposed_comm) || !isfinite(s->overlapped_comm) || !run_has_comm(r))
				continue;
			x = (double)axis_add_cat(&p->x, gpu_cat_label(a, order[k], gi, c));
			e = MS(s->exposed_comm);
			o = MS(s->overlapped_comm);
			panel_rect(p, CAT_EXPOSED_COMM, x - 0.3, 0, x + 0.3, e);
			panel_rect(p, CAT_OVERLAPPED_COMM, x - 0.3, e, x + 0.3, e + o);
			panel_label(p, CAT_INK, MS_ABOVE, x, e + o, chart_strf(c, "%s exposed",
						qty_percent(b, e + o > 0 ? e / (e + o) : 0)));
		}
	}
	chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, "exposed comm");
	chart_add_legend(c, CAT_OVERLAPPED_COMM, 0, false, "overlapped comm");
}

/* The subtitle: what is shown, then each multi-GPU run's transport and link. */
static const char *comm_subtitle(const struct analysis *a, const size_t *order, size_t n, bool bw,
				 struct chart_layout *c)
{
	const char *s = bw ? "bus bandwidth = total bytes / total time, as nccl-tests defines it"
		: "exposed = communication with nothing else running on the GPU";
	size_t k;

	for (k = 0; k < n; k++)
		if (a->runs[order[k]].gpus > 1 || a->runs[order[k]].ngpu > 1)
			s = chart_strf(c, "%s. %s", s, comm_facts(&a->runs[order[k]], c));
	return s;
}

/* A multi-GPU run whose traces hold collectives: what the chart lacks then is sizes or steps, not collectives. */
static bool run_has_colls(const struct run_result *r)
{
	return (r->gpus > 1 || r->ngpu > 1) && r->ncoll > 0;
}

/*
 * Why the chart is left out, from what the runs have: with collectives but
 * neither a bandwidth point nor a step breakdown, the message sizes and the
 * profiler steps are what is missing, and the capture options that give them.
 */
static const char *comm_why(bool colls)
{
	if (!colls)
		return "no communication: no collectives in the multi-GPU runs' traces and no nccl-tests output";
	return "no communication chart: the multi-GPU runs' traces hold collectives but no message sizes "
	       "(profile with record_shapes=True, or add nccl-tests output) and no steady profiler step to "
	       "split exposed from overlapped time (call prof.step() every step)";
}

/* Below this a message is latency-bound: nccl-tests' curves reach the link from tens of MiB. */
#define SMALL_MESSAGE (16LL << 20)

/* The smallest message with a bandwidth point in the runs drawn; INT64_MAX when none. */
static int64_t smallest_message(const struct analysis *a, const size_t *order, size_t n)
{
	int64_t least = INT64_MAX;

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < a->runs[order[k]].nbw; i++)
			if (a->runs[order[k]].bw[i].bytes > 0 && a->runs[order[k]].bw[i].bytes < least)
				least = a->runs[order[k]].bw[i].bytes;
	return least;
}

/* Said under the chart when the bandwidth panel is missing though the runs have collectives. */
#define NO_SIZES_NOTE " No bandwidth panel: the multi-GPU runs' traces hold collectives but no message " \
	"sizes (profile with record_shapes=True, or add nccl-tests output)."

int chart_comm(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	bool multi = false, bw = false, comm = false, ceiling = false, colls = false, unused = false;
	const char *label;

	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		multi |= r->gpus > 1 || r->ngpu > 1;
		bw |= r->nbw > 0;
		comm |= r->ngpu > 1 && run_has_comm(r);
		colls |= run_has_colls(r);
	}
	if (!multi) {
		*why = "no communication: single-GPU runs only";
		return 1;
	}
	if (!bw && !comm) {
		*why = comm_why(colls);
		return 1;
	}
	chart_init(c, "05-communication", "Communication");
	chart_set_banner(a, c);
	for (k = 0; k < n; k++) {	/* after chart_init: the label lives in the chart's arena */
		const struct run_result *r = &a->runs[order[k]];
		bool drawn = r->nbw > 0 && isfinite(run_ceiling(r, c, &label));

		ceiling |= drawn;
		unused |= drawn && !ceiling_label(r, c);
	}
	c->subtitle = comm_subtitle(a, order, n, bw, c);
	if (bw)
		bw_panel(a, order, n, c);
	if (comm)
		overlap_panel(a, order, n, c);
	c->caption = chart_strf(c, "%s%s%s%s",
				!bw ? "" : unused ? "Left: bus bandwidth reached per message size and operation; "
				"the dashed line is the nominal bandwidth of the GPUs' own link, which NCCL did not "
				"use: the distance to it comes from the transport NCCL chose, not from the message "
				"size. "
				: ceiling && smallest_message(a, order, n) < SMALL_MESSAGE ?
				"Left: bus bandwidth reached per message size and operation "
				"against the link's nominal ceiling (dashed); small messages never reach it. "
				: ceiling ? "Left: bus bandwidth reached per message size and operation "
				"against the link's nominal ceiling (dashed); the messages are large, so the "
				"distance to it does not come from their size. "
				: "Left: bus bandwidth reached per message size and operation; the link's nominal "
				"bandwidth is unknown, so no ceiling is drawn. ",
				!comm ? "" : bw ? "Right: how much" : "How much",
				comm ? " of each GPU's communication runs with nothing else on the GPU "
				"(exposed) rather than hidden under compute." : "", !bw && colls ? NO_SIZES_NOTE : "");
	return 0;
}

/* 7. One step number's timeline on every GPU, on each run's common clock. */

/* Each GPU's lanes, one y category each: compute on top, comm, memory lowest. */
static const struct {
	enum category cat;
	double offset;		/* of the lane's centre from its GPU's comm lane */
	const char *name;
} lanes[] = {
	[EVC_COMPUTE] = { CAT_COMPUTE, 1, "compute" },
	[EVC_COMM] = { CAT_EXPOSED_COMM, 0, "comm" },
	[EVC_MEMORY] = { CAT_MEMORY, -1, "memory" },
};

#define LANE_H 0.38		/* half a lane's height, in categories */

/* The steady step whose busy intervals g->lanes holds (number lanes_step); SIZE_MAX none. */
static size_t lanes_step(const struct gpu_result *g)
{
	size_t k;

	for (k = 0; k < g->nsteps && g->lanes_step >= 0; k++)
		if (g->steps[k].number == g->lanes_step && !g->steps[k].warmup && !g->steps[k].trailing)
			return k;
	return SIZE_MAX;
}

/*
 * How long after the earliest GPU of its run GPU gi started the step it
 * shows, on the run's common clock (each trace's clock plus its
 * clock_offset_s), in seconds: against the same step number on every GPU;
 * 0 for a lone GPU; NaN where a start or an offset is unknown.
 */
static double common_shift(const struct run_result *r, size_t gi)
{
	const struct gpu_result *g = &r->gpu[gi];
	size_t p = lanes_step(g), h, k;
	double shift = 0;

	if (r->ngpu < 2)
		return 0;
	if (p == SIZE_MAX || g->steps[p].start_ns < 0 || !isfinite(g->clock_offset_s))
		return NAN;
	for (h = 0; h < r->ngpu; h++) {
		const struct gpu_result *o = &r->gpu[h];

		for (k = 0; k < o->nsteps; k++) {
			if (o->steps[k].number != g->steps[p].number || o->steps[k].start_ns < 0)
				continue;
			if (!isfinite(o->clock_offset_s))
				return NAN;
			shift = fmax(shift, (double)(g->steps[p].start_ns - o->steps[k].start_ns) / 1e9 +
					    g->clock_offset_s - o->clock_offset_s);
		}
	}
	return shift;
}

/* The step number every GPU of r with lanes shows; -1 where they differ or none has lanes. */
static int64_t run_step(const struct run_result *r)
{
	size_t gi;
	int64_t n = -1;

	for (gi = 0; gi < r->ngpu; gi++) {
		if (!r->gpu[gi].nlanes || r->gpu[gi].lanes_step < 0)
			continue;
		if (n >= 0 && r->gpu[gi].lanes_step != n)
			return -1;
		n = r->gpu[gi].lanes_step;
	}
	return n;
}

/* Whether the GPUs of r show different steps (their labels then say which). */
static bool steps_differ(const struct run_result *r)
{
	size_t gi;

	for (gi = 0; gi < r->ngpu; gi++)
		if (r->gpu[gi].nlanes && run_step(r) < 0)
			return true;
	return false;
}

/* "2gpu GPU 1: compute" on one line, with ", step 5" where the run's GPUs show different steps. */
static const char *lane_label(const struct analysis *a, size_t run, size_t gi, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[run];
	const char *gpu = chart_strf(c, "%s GPU %d", chart_run_name(r, c), gpu_number(&r->gpu[gi], gi));

	if (!steps_differ(r) || r->gpu[gi].lanes_step < 0)
		return chart_strf(c, "%s: compute", gpu);
	return chart_strf(c, "%s, step %lld: compute", gpu, (long long)r->gpu[gi].lanes_step);
}

/* The subtitle's "step 5 on every GPU", or each run's step where runs differ. */
static const char *steps_shown(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	const char *out = "";
	int64_t one = -2;
	size_t k;

	for (k = 0; k < n; k++) {
		int64_t s = a->runs[order[k]].ngpu ? run_step(&a->runs[order[k]]) : -1;

		if (s < 0 && steps_differ(&a->runs[order[k]]))
			return "each GPU's median steady step (no step number is steady on all of a run's GPUs)";
		if (s >= 0)
			one = one == -2 || one == s ? s : -1;
	}
	if (one >= 0)
		return chart_strf(c, "step %lld on every GPU", (long long)one);
	for (k = 0; k < n; k++) {
		int64_t s = run_step(&a->runs[order[k]]);

		if (s >= 0)
			out = chart_strf(c, "%s%sstep %lld of %s", out, *out ? ", " : "", (long long)s,
					 a->runs[order[k]].name);
	}
	return chart_strf(c, "%s (the same step on each GPU of a run)", out);
}

struct span {
	double s, e;
};

static int by_start(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	return (a->s > b->s) - (a->s < b->s);
}

static int by_value(const void *x, const void *y)
{
	const double *a = x, *b = y;

	return (*a > *b) - (*a < *b);
}

/* The compute spans of g, sorted by start, in a malloc'd array. */
static struct span *compute_spans(const struct gpu_result *g, size_t *n)
{
	struct span *v = xmalloc((g->nlanes ? g->nlanes : 1) * sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; i < g->nlanes; i++)
		if (g->lanes[i].cls == EVC_COMPUTE && isfinite(g->lanes[i].start_s) && isfinite(g->lanes[i].end_s))
			v[(*n)++] = (struct span){ g->lanes[i].start_s, g->lanes[i].end_s };
	qsort(v, *n, sizeof(*v), by_start);
	return v;
}

/* One run on its common clock: each GPU's shift and its communication starts (common clock, sorted). */
struct run_clock {
	const struct run_result *r;
	double *shift;		/* common_shift() of each GPU */
	double **starts;	/* each GPU's communication spans' starts, shift included, in order */
	size_t *nstarts;
	bool match;		/* the k-th spans of the GPUs can be matched: same step, as many spans */
};

static void run_clock_init(struct run_clock *k, const struct run_result *r)
{
	size_t n = r->ngpu ? r->ngpu : 1, gi, i;

	k->r = r;
	k->shift = xmalloc(n * sizeof(*k->shift));
	k->starts = xcalloc(n, sizeof(*k->starts));
	k->nstarts = xcalloc(n, sizeof(*k->nstarts));
	k->match = r->ngpu > 1 && !steps_differ(r);
	for (gi = 0; gi < r->ngpu; gi++) {
		const struct gpu_result *g = &r->gpu[gi];

		k->shift[gi] = common_shift(r, gi);
		k->starts[gi] = xmalloc((g->nlanes ? g->nlanes : 1) * sizeof(**k->starts));
		for (i = 0; i < g->nlanes; i++)
			if (g->lanes[i].cls == EVC_COMM && isfinite(g->lanes[i].start_s))
				k->starts[gi][k->nstarts[gi]++] = k->shift[gi] + g->lanes[i].start_s;
		qsort(k->starts[gi], k->nstarts[gi], sizeof(**k->starts), by_value);
		if (g->nlanes && (!isfinite(k->shift[gi]) || k->nstarts[gi] != k->nstarts[0]))
			k->match = false;
	}
}

static void run_clock_release(struct run_clock *k)
{
	size_t gi;

	for (gi = 0; gi < k->r->ngpu; gi++)
		free(k->starts[gi]);
	free(k->starts);
	free(k->nstarts);
	free(k->shift);
}

/*
 * Where GPU gi's communication span that starts at s (its own step's time)
 * stops waiting for a peer, as docs/analysis.md defines waiting: its k-th
 * span in start order is matched with the k-th of every GPU of the run, and
 * it waits until the latest of their starts. NaN (all transfer) where the
 * spans cannot be matched (a lone GPU, different steps or span counts).
 */
static double wait_until(const struct run_clock *k, size_t gi, double s)
{
	double at = k->shift[gi] + s, latest = at;
	size_t h, i = 0;

	if (!k->match)
		return NAN;
	while (i < k->nstarts[gi] && k->starts[gi][i] < at)
		i++;
	for (h = 0; h < k->r->ngpu; h++)
		if (k->r->gpu[h].nlanes && i < k->nstarts[h])
			latest = fmax(latest, k->starts[h][i]);
	return latest - k->shift[gi];
}

/* What the comm lane of one row needs: its centre, its shift (s), the compute spans under it. */
struct comm_row {
	struct panel *p;
	double mid, shift;
	const struct span *busy;
	size_t nbusy;
	double visible;		/* a waiting piece this long (s) shows at the chart's width */
	bool waited;		/* set when a visible waiting piece was drawn: the legend names it */
};

static void comm_rect(struct comm_row *w, enum category cat, unsigned style, double s, double e)
{
	panel_rect(w->p, cat, MS(w->shift + s), w->mid - LANE_H, MS(w->shift + e), w->mid + LANE_H)->style = style;
}

/* Exposed communication from s to e: waiting for a peer (hatched) until wait, transfer after. */
static void exposed_piece(struct comm_row *w, double s, double e, double wait)
{
	double until = isfinite(wait) ? fmin(e, wait) : s;

	if (until > s) {
		comm_rect(w, CAT_EXPOSED_COMM, MS_HATCHED, s, until);
		w->waited |= until - s >= w->visible;
		s = until;
	}
	if (e > s)
		comm_rect(w, CAT_EXPOSED_COMM, 0, s, e);
}

/* One communication span: overlapped where compute runs, exposed elsewhere (the step partition). */
static void comm_span(struct comm_row *w, double s, double e, double wait)
{
	double cur = s;
	size_t i;

	for (i = 0; i < w->nbusy && w->busy[i].s < e && cur < e; i++) {
		if (w->busy[i].e <= cur)
			continue;
		if (w->busy[i].s > cur)
			exposed_piece(w, cur, w->busy[i].s, wait);
		comm_rect(w, CAT_OVERLAPPED_COMM, 0, fmax(cur, w->busy[i].s), fmin(e, w->busy[i].e));
		cur = fmax(cur, w->busy[i].e);
	}
	if (cur < e)
		exposed_piece(w, cur, e, wait);
}

/* One GPU's row at y; returns true when it drew waiting for a peer. */
static bool timeline_row(const struct run_clock *k, size_t gi, double y, struct panel *p)
{
	const struct gpu_result *g = &k->r->gpu[gi];
	struct comm_row w = { p, y, isfinite(k->shift[gi]) ? k->shift[gi] : 0, NULL, 0,
			      isfinite(g->lanes_window_s) ? g->lanes_window_s / 500 : 0, false };
	struct span *busy = compute_spans(g, &w.nbusy);
	size_t i;

	w.busy = busy;
	for (i = 0; i < g->nlanes; i++) {
		const struct lane_span *l = &g->lanes[i];
		double mid;

		if (l->cls > EVC_MEMORY || !isfinite(l->start_s) || !isfinite(l->end_s))
			continue;
		if (l->cls == EVC_COMM) {
			comm_span(&w, l->start_s, l->end_s, wait_until(k, gi, l->start_s));
			continue;
		}
		mid = y + lanes[l->cls].offset;
		panel_rect(p, lanes[l->cls].cat, MS(w.shift + l->start_s), mid - LANE_H, MS(w.shift + l->end_s),
			   mid + LANE_H);
	}
	free(busy);
	if (isfinite(g->lanes_window_s)) {
		panel_line(p, CAT_INK, MS_DASHED, "window end");
		panel_point(p, MS(w.shift + g->lanes_window_s), y - 1.45);
		panel_point(p, MS(w.shift + g->lanes_window_s), y + 1.45);
	}
	return w.waited;
}

/* Lays out one run's rows, last GPU lowest; returns false when a GPU could not be put on the common clock. */
static bool timeline_run(const struct analysis *a, size_t run, struct chart_layout *c, struct panel *p,
			 bool *waited)
{
	const struct run_result *r = &a->runs[run];
	struct run_clock k;
	bool common = true;
	size_t gi;

	run_clock_init(&k, r);
	for (gi = 0; gi < r->ngpu; gi++)
		common &= isfinite(k.shift[gi]) || !r->gpu[gi].nlanes;
	for (gi = r->ngpu; gi-- > 0;) {
		double y;

		if (!r->gpu[gi].nlanes)
			continue;
		axis_add_cat(&p->y, lanes[EVC_MEMORY].name);
		y = (double)axis_add_cat(&p->y, lanes[EVC_COMM].name);
		axis_add_cat(&p->y, lane_label(a, run, gi, c));
		*waited |= timeline_row(&k, gi, y, p);
	}
	run_clock_release(&k);
	return common;
}

/*
 * The caption says which step is drawn, as the subtitle does: one step
 * number per run, the same on each of its GPUs, where one is steady on all
 * of them (not each GPU's own median step), and what the hatch means where
 * a GPU waited.
 */
static void timeline_caption(const struct analysis *a, const size_t *order, size_t n, bool waited,
			     struct chart_layout *c)
{
	bool own = false;

	for (size_t k = 0; k < n; k++)
		own |= a->runs[order[k]].ngpu && run_step(&a->runs[order[k]]) < 0 && steps_differ(&a->runs[order[k]]);
	c->caption = chart_strf(c, "%s Gaps in the compute lane where the communication lane is busy are exposed "
				"communication; gaps in every lane are idle time.%s",
				own ? "Each GPU's median steady step, lane by lane: no step number is steady on all "
				"of its run's GPUs."
				: "One steady step of each run, lane by lane: the same step number on every GPU of "
				"the run, the one whose slowest GPU is nearest the run's median step.",
				waited ? " Hatched: time a GPU waited inside a collective for a slower peer (a pipeline "
				"bubble or a straggler), not time spent moving data." : "");
}

int chart_timeline(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	struct panel *p;
	bool common = true, waited = false;

	chart_init(c, "07-timeline", "One steady step, GPU by GPU");
	chart_set_banner(a, c);
	p = chart_add_panel(c, "time from the run's first GPU to start the step, common clock (ms)", "");
	p->x.zero = true;
	p->x.tight = true;
	for (k = n; k-- > 0;)
		common &= timeline_run(a, order[k], c, p, &waited);
	if (!p->y.ncats) {
		*why = "no timeline: no GPU has a steady step's kernels";
		return 1;
	}
	c->subtitle = chart_strf(c, common ? "%s, on its run's common clock (traces aligned), from the first GPU to "
						"start that step; three lanes per GPU: compute, comm, memory"
					   : "%s, each GPU on its own clock (no clock offset to align them); three lanes "
					     "per GPU: compute, comm, memory",
				 steps_shown(a, order, n, c));
	timeline_caption(a, order, n, waited, c);
	chart_add_legend(c, CAT_COMPUTE, 0, false, "compute");
	chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, waited ? "exposed comm: transfer" : "exposed comm");
	if (waited)
		chart_add_legend(c, CAT_EXPOSED_COMM, MS_HATCHED, false, "exposed comm: waiting for a peer");
	chart_add_legend(c, CAT_OVERLAPPED_COMM, 0, false, "overlapped comm (under compute)");
	chart_add_legend(c, CAT_MEMORY, 0, false, "memory (copy/set)");
	chart_add_legend(c, CAT_INK, MS_DASHED, true, "end of the step window");
	return 0;
}
