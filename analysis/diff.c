/*
 * diff: which ops and which kernels got slower, or appeared, from the
 * baseline to the candidate (docs/analysis.md, "Per-op diff").
 */
#include "analysis/diff.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/thresholds.h"
#include "core/imap.h"
#include "core/intern.h"
#include "core/kname.h"
#include "core/xalloc.h"

/* One row while the events are summed: per-step sums of each side, before the GPU scaling. */
struct acc_row {
	enum diff_kind kind;
	const char *name;	/* interned in acc.text; NULL: an op the trace did not record */
	double calls[2];	/* per step, summed over the side's counted GPUs */
	double ns[2];
	int64_t gpu_calls, gpu_ns;	/* of the GPU being summed, before it is divided by its steps */
};

struct acc {
	struct intern text;	/* row names: equal names, equal pointers */
	struct imap memo[DIFF_KIND_COUNT];	/* trial string (op or kernel name) -> row */
	struct imap rows_of[DIFF_KIND_COUNT];	/* interned row name -> row */
	struct acc_row *row;
	size_t n, cap;
	size_t gpus[2];		/* GPUs whose events were counted, per side */
};

/* Row key of the op a GPU event was launched from, or of its kernel: the family where it has one. */
static const char *row_name(struct acc *x, enum diff_kind kind, const char *s)
{
	char buf[KNAME_FAMILY_MAX];
	size_t len;

	if (!s)
		return NULL;
	if (kind == DIFF_KERNEL && (len = kname_family(s, buf, sizeof(buf))))
		return intern(&x->text, buf, len);
	return intern_str(&x->text, s);
}

static uint32_t row_of_name(struct acc *x, enum diff_kind kind, const char *name)
{
	uint32_t i;

	if (imap_get(&x->rows_of[kind], (int64_t)(intptr_t)name, &i))
		return i;
	xgrow(&x->row, &x->cap, x->n + 1, sizeof(*x->row));
	x->row[x->n] = (struct acc_row){ .kind = kind, .name = name };
	imap_put(&x->rows_of[kind], (int64_t)(intptr_t)name, (uint32_t)x->n);
	return (uint32_t)x->n++;
}

/* The row of s (an op or kernel name of the trial): memoised by its pointer. */
static struct acc_row *row_of(struct acc *x, enum diff_kind kind, const char *s)
{
	uint32_t i;

	if (!imap_get(&x->memo[kind], (int64_t)(intptr_t)s, &i)) {
		i = row_of_name(x, kind, row_name(x, kind, s));
		imap_put(&x->memo[kind], (int64_t)(intptr_t)s, i);
	}
	return &x->row[i];
}

static void add_event(struct acc *x, const struct gpu_event *e)
{
	/* indexes, not pointers: adding a row may move the rows */
	size_t op = (size_t)(row_of(x, DIFF_OP, ev_op_name(e)) - x->row);
	size_t kernel = (size_t)(row_of(x, DIFF_KERNEL, e->name) - x->row);

	x->row[op].gpu_calls++;
	x->row[op].gpu_ns += e->end - e->start;
	x->row[kernel].gpu_calls++;
	x->row[kernel].gpu_ns += e->end - e->start;
}

/* One GPU's sums, per step, into its side's: counts and times stay exact until divided. */
static void end_gpu(struct acc *x, int side, double steps)
{
	for (size_t i = 0; i < x->n; i++) {
		struct acc_row *r = &x->row[i];

		r->calls[side] += (double)r->gpu_calls / steps;
		r->ns[side] += (double)r->gpu_ns / steps;
		r->gpu_calls = r->gpu_ns = 0;
	}
	x->gpus[side]++;
}

/* Every GPU event of r launched in a steady step of its GPU (span: every one), per step. */
static void add_run(struct acc *x, int side, const struct run *r, const struct run_result *rr,
		    bool span)
{
	for (size_t g = 0; g < r->nranks && g < rr->ngpu; g++) {
		const struct rank *k = &r->ranks[g];
		struct steady_range st = gpu_steady_range(&rr->gpu[g]);
		double steps = gpu_per_steps(&rr->gpu[g], span);

		if (steps <= 0 || !k->nev)	/* a GPU without steady steps or without GPU work */
			continue;
		for (size_t i = 0; i < k->nev; i++)
			if (span || (k->ev[i].step >= 0 && steady_range_has(&st, k->ev[i].step)))
				add_event(x, &k->ev[i]);
		end_gpu(x, side, steps);
	}
}

static void acc_release(struct acc *x)
{
	for (int k = 0; k < DIFF_KIND_COUNT; k++) {
		imap_release(&x->memo[k]);
		imap_release(&x->rows_of[k]);
	}
	intern_release(&x->text);
	xgrow_free(&x->row, &x->cap, sizeof(*x->row));
}

/* ---- ranking ------------------------------------------------------------ */

static int by_added(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;

	if (a->added_s != b->added_s)
		return a->added_s < b->added_s ? 1 : -1;
	if (!a->name || !b->name)
		return !a->name - !b->name;
	return strcmp(a->name, b->name);
}

size_t diff_rank(struct diff_row *rows, size_t n, size_t top)
{
	if (n)
		qsort(rows, n, sizeof(*rows), by_added);
	return n < top ? n : top;
}

/* ---- the rows, scaled like attribution_s -------------------------------- */

static struct diff_side side_of(const struct acc_row *r, int s, double scale, double total)
{
	struct diff_side d = { .calls = r->calls[s] * scale, .time_s = r->ns[s] / 1e9 * scale };

	d.mean_s = d.calls > 0 ? d.time_s / d.calls : NAN;
	d.share = total > 0 ? d.time_s / total : NAN;
	return d;
}

/* The ops, then the kernels, each ranked and cut to DIFF_TOP_ROWS, into the analysis' arena. */
static void keep_rows(struct analysis *a, const struct acc *x, const double scale[2])
{
	struct diff *d = &a->cmp.diff;
	struct diff_row *all = xcalloc(x->n + 1, sizeof(*all));
	size_t n[DIFF_KIND_COUNT] = { 0 }, kept[DIFF_KIND_COUNT], at = 0;
	double *total[2] = { &d->total_s.baseline, &d->total_s.candidate };

	for (int s = 0; s < 2; s++) {
		double ns = 0;

		for (size_t i = 0; i < x->n; i++)
			ns += x->row[i].kind == DIFF_KERNEL ? x->row[i].ns[s] : 0;
		*total[s] = ns / 1e9 * scale[s];
	}
	d->rows = arena_alloc(&a->arena, (x->n + 1) * sizeof(*d->rows));
	for (int k = 0; k < DIFF_KIND_COUNT; k++) {
		for (size_t i = 0; i < x->n; i++) {
			const struct acc_row *r = &x->row[i];
			struct diff_row *o = &all[n[k]];

			if (r->kind != (enum diff_kind)k)
				continue;
			*o = (struct diff_row){ .kind = r->kind, .name = r->name ?
						arena_strdup(&a->arena, r->name) : NULL };
			o->baseline = side_of(r, 0, scale[0], d->total_s.baseline);
			o->candidate = side_of(r, 1, scale[1], d->total_s.candidate);
			o->added_s = o->candidate.time_s - o->baseline.time_s;
			n[k]++;
		}
		kept[k] = diff_rank(all, n[k], DIFF_TOP_ROWS);
		memcpy(d->rows + at, all, kept[k] * sizeof(*all));
		at += kept[k];
	}
	d->nrows = at;
	d->left_out = (struct diff_left){ (int64_t)(n[DIFF_OP] - kept[DIFF_OP]),
					  (int64_t)(n[DIFF_KERNEL] - kept[DIFF_KERNEL]) };
	free(all);
}

/* ---- why there is no diff ------------------------------------------------ */

static const char *no_trace(struct analysis *a, const struct trial *t, size_t b, size_t c)
{
	bool nb = !t->runs[b].nranks, nc = !t->runs[c].nranks;

	if (nb && nc)
		return "neither run has a trace, so no op or kernel can be compared";
	if (nb || nc)
		return analysis_printf(a, "%s has no trace, so its ops and kernels are unknown",
				       a->runs[nb ? b : c].name);
	return NULL;
}

static const char *no_count(struct analysis *a, size_t b, size_t c)
{
	for (int s = 0; s < 2; s++) {
		const struct run_result *r = &a->runs[s ? c : b];

		if (r->gpus <= 0)
			return analysis_printf(a, "the GPU count of %s is unknown (set gpus = in its "
					       "run.ini), so its GPU time cannot be counted against "
					       "the other run's", r->name);
	}
	return NULL;
}

static const char *no_work(struct analysis *a, const struct acc *x, size_t b, size_t c)
{
	for (int s = 0; s < 2; s++)
		if (!x->gpus[s])
			return analysis_printf(a, "%s has no GPU work in its traces%s",
					       a->runs[s ? c : b].name,
					       x->gpus[!s] ? "" : ", nor has the other run");
	return NULL;
}

void analysis_diff(struct analysis *a, const struct trial *t)
{
	struct diff *d = &a->cmp.diff;
	size_t b = a->cmp.baseline, c = a->cmp.candidate;
	struct acc x = { .text = INTERN_INIT };
	bool span;
	double scale[2];

	*d = (struct diff){ .total_s = { NAN, NAN } };
	if (!a->cmp.valid || b >= t->nruns || c >= t->nruns)
		return;
	d->present = true;
	if ((d->why = no_trace(a, t, b, c)) || (d->why = no_count(a, b, c)))
		return;
	span = run_measures_span(&a->runs[b]) || run_measures_span(&a->runs[c]);
	add_run(&x, 0, &t->runs[b], &a->runs[b], span);
	add_run(&x, 1, &t->runs[c], &a->runs[c], span);
	if (!(d->why = no_work(a, &x, b, c))) {
		/* the run's mean over its counted GPUs, times its GPUs / the baseline's */
		for (int s = 0; s < 2; s++)
			scale[s] = (double)a->runs[s ? c : b].gpus / (double)x.gpus[s] /
				   (double)a->runs[b].gpus;
		d->per = span ? "span" : "step";
		keep_rows(a, &x, scale);
	}
	acc_release(&x);
}
