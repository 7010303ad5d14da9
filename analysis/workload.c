/*
 * workload: two runs are one job only if their kernels say so
 * (docs/analysis.md, "Workload identity").
 */
#include "analysis/workload.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/facts.h"
#include "analysis/thresholds.h"
#include "core/imap.h"
#include "core/intern.h"
#include "core/kname.h"
#include "core/xalloc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *workload_basis_name(enum workload_basis b)
{
	static const char *const names[] = {
		[WL_NONE] = "none", [WL_KERNELS] = "kernels", [WL_DECLARED] = "declared",
	};

	return (unsigned)b < ARRAY_SIZE(names) ? names[b] : NULL;
}

/* ---- one run's kernel time by family ----------------------------------- */

/* The memo's value for a kernel name: its family's index, and whether Triton generated it. */
#define FAMILY_INDEX 0x7fffffffu
#define NO_FAMILY FAMILY_INDEX
#define GENERATED 0x80000000u

struct family_ns {
	const char *family;	/* interned in the accumulator */
	int64_t ns;
};

struct family_acc {
	struct imap by_name;	/* interned kernel name -> index | GENERATED, or NO_FAMILY */
	struct intern text;	/* each family's text once: equal families, equal pointers */
	struct family_ns *fam;	/* distinct families in first-seen order */
	size_t n, cap;
	int64_t total_ns;
	int64_t generated_ns;
};

/* The memo value of a kernel name not seen before, its family added when new. */
static uint32_t family_of_name(struct family_acc *f, const char *name)
{
	char buf[KNAME_FAMILY_MAX];
	size_t len = kname_family(name, buf, sizeof(buf));
	const char *fam;
	uint32_t v = NO_FAMILY;

	if (len) {
		fam = intern(&f->text, buf, len);
		for (v = 0; v < f->n && f->fam[v].family != fam; v++)
			;
		if (v == f->n) {	/* a new family: only a few hundred in a trace */
			xgrow(&f->fam, &f->cap, f->n + 1, sizeof(*f->fam));
			f->fam[f->n++] = (struct family_ns){ fam, 0 };
		}
		v |= kname_library(name) == LIB_TRITON ? GENERATED : 0;
	}
	imap_put(&f->by_name, (int64_t)(intptr_t)name, v);
	return v;
}

static void add_kernel(struct family_acc *f, const struct gpu_event *e)
{
	uint32_t v;
	int64_t ns = e->end - e->start;

	if (e->kind != EV_KERNEL || e->cls == EVC_COMM || !e->name)
		return;
	if (!imap_get(&f->by_name, (int64_t)(intptr_t)e->name, &v))
		v = family_of_name(f, e->name);
	if ((v & FAMILY_INDEX) == NO_FAMILY)
		return;
	f->fam[v & FAMILY_INDEX].ns += ns;
	f->total_ns += ns;
	f->generated_ns += v & GENERATED ? ns : 0;
}

/* Kernel time of every rank by family: of its steady steps, or of its whole span. */
static void add_ranks(struct family_acc *f, const struct run *r, const struct run_result *rr,
		      bool span)
{
	for (size_t g = 0; g < r->nranks && g < rr->ngpu; g++) {
		const struct rank *k = &r->ranks[g];
		struct steady_range steady = gpu_steady_range(&rr->gpu[g]);

		for (size_t i = 0; i < k->nev; i++) {
			bool in = k->ev[i].step >= 0 && steady_range_has(&steady, k->ev[i].step);

			if (span || in)
				add_kernel(f, &k->ev[i]);
		}
	}
}

static int by_time_desc(const void *x, const void *y)
{
	const struct family_ns *a = x, *b = y;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return strcmp(a->family, b->family);
}

static void family_acc_release(struct family_acc *f)
{
	imap_release(&f->by_name);
	intern_release(&f->text);
	xgrow_free(&f->fam, &f->cap, sizeof(*f->fam));
	*f = (struct family_acc){ .text = INTERN_INIT };
}

/* The run's families, largest first, into the analysis' arena. */
static void keep_families(struct analysis *a, struct run_result *rr, struct family_acc *f)
{
	qsort(f->fam, f->n, sizeof(*f->fam), by_time_desc);
	rr->families = arena_alloc(&a->arena, (f->n ? f->n : 1) * sizeof(*rr->families));
	rr->nfamilies = f->n;
	for (size_t i = 0; i < f->n; i++)
		rr->families[i] = (struct family_time){ arena_strdup(&a->arena, f->fam[i].family),
							f->fam[i].ns / 1e9 };
	rr->kernel_time_s = f->total_ns / 1e9;
	rr->generated_share = f->total_ns > 0 ? (double)f->generated_ns / (double)f->total_ns : NAN;
}

void workload_run(struct analysis *a, const struct run *r, struct run_result *rr)
{
	struct family_acc f = { .text = INTERN_INIT };

	rr->families = NULL;
	rr->nfamilies = 0;
	rr->kernel_time_s = 0;
	rr->generated_share = NAN;
	rr->families_span = run_measures_span(rr);
	add_ranks(&f, r, rr, rr->families_span);
	if (!f.total_ns && !rr->families_span) {	/* no kernel launched in a steady step */
		family_acc_release(&f);
		rr->families_span = true;
		add_ranks(&f, r, rr, true);
	}
	if (f.total_ns > 0)
		keep_families(a, rr, &f);
	family_acc_release(&f);
}

/* ---- the two runs compared --------------------------------------------- */

static bool has_family(const struct run_result *r, const char *family)
{
	for (size_t i = 0; i < r->nfamilies; i++)
		if (!strcmp(r->families[i].family, family))
			return true;
	return false;
}

/* The share of x's kernel time in families y also has: exactly 1 when x has no family of its own. */
static double overlap(const struct run_result *x, const struct run_result *y)
{
	double in[2] = { 0, 0 };	/* not shared, shared */

	for (size_t i = 0; i < x->nfamilies; i++)
		in[has_family(y, x->families[i].family)] += x->families[i].time_s;
	return in[1] / (in[0] + in[1]);
}

/* x's largest families that y lacks, at most WORKLOAD_ONLY_SHOWN, with their shares. */
static struct family_share *only_in(struct analysis *a, const struct run_result *x,
				    const struct run_result *y, size_t *n)
{
	struct family_share *out = arena_alloc(&a->arena, WORKLOAD_ONLY_SHOWN * sizeof(*out));

	*n = 0;
	for (size_t i = 0; i < x->nfamilies && *n < WORKLOAD_ONLY_SHOWN; i++)
		if (!has_family(y, x->families[i].family))
			out[(*n)++] = (struct family_share){ x->families[i].family,
							     x->families[i].time_s / x->kernel_time_s };
	return out;
}

/*
 * A share as a percentage, with as many decimals (up to 3) as it takes not
 * to read as the threshold it is compared with: 0.4996 is "49.96%", not "50%".
 */
static const char *pct(struct analysis *a, double v)
{
	int dec = 0;

	while (dec < 3 && v != WORKLOAD_MIN_OVERLAP &&
	       !strcmp(analysis_printf(a, "%.*f", dec, 100 * v),
		       analysis_printf(a, "%.*f", dec, 100 * WORKLOAD_MIN_OVERLAP)))
		dec++;
	return analysis_printf(a, "%.*f%%", dec, 100 * v);
}

/* "; only 2gpu ran split_embedding_codegen_forward_unweighted_kernel (21%), ... and gemm (3%)" */
static const char *only_text(struct analysis *a, const char *run, const struct family_share *s,
			     size_t n)
{
	const char *out = "";

	n = n < WORKLOAD_SAID_FAMILIES ? n : WORKLOAD_SAID_FAMILIES;	/* the rest is in analysis.json */
	for (size_t i = 0; i < n; i++)
		out = analysis_printf(a, "%s%s%s (%.0f%%)", out,
				      i == 0 ? analysis_printf(a, "; only %s ran ", run) :
				      i + 1 == n ? " and " : ", ", s[i].family, 100 * s[i].share);
	return out;
}

/* The families compared: a blocking confound when either overlap is under the threshold. */
static bool by_kernels(struct analysis *a, const struct run_result *b, const struct run_result *c,
		       struct confound *cf)
{
	struct workload *w = &a->cmp.workload;

	w->basis = WL_KERNELS;
	w->baseline_overlap = overlap(b, c);
	w->candidate_overlap = overlap(c, b);
	w->baseline_only = only_in(a, b, c, &w->nbaseline_only);
	w->candidate_only = only_in(a, c, b, &w->ncandidate_only);
	if (w->baseline_overlap >= WORKLOAD_MIN_OVERLAP && w->candidate_overlap >= WORKLOAD_MIN_OVERLAP)
		return false;
	*cf = (struct confound){
		.what = CF_WORKLOAD, .severity = CFS_BLOCKING,
		.baseline = analysis_printf(a, "%s overlap", pct(a, w->baseline_overlap)),
		.candidate = analysis_printf(a, "%s overlap", pct(a, w->candidate_overlap)),
		.why = analysis_printf(a, "not one job: each run of one job has %g%% or more of its "
				       "kernel time in kernel families both ran%s%s", 100 * WORKLOAD_MIN_OVERLAP,
				       only_text(a, b->name, w->baseline_only, w->nbaseline_only),
				       only_text(a, c->name, w->candidate_only, w->ncandidate_only)),
	};
	return true;
}

/* Mostly compiled (Triton) kernels: their names say nothing of the eager kernels they replace. */
static bool generated(const struct run_result *r)
{
	return r->generated_share > WORKLOAD_GENERATED_SHARE;
}

/*
 * The facts a run names that say which job it is, as the run uses them
 * (analysis/facts.h: what its logs say over what run.ini declares).
 */
static const enum fact_key named[] = { FACT_MODEL, FACT_DATASET, FACT_SEQ_LEN };

/* Fact i of a run as text; NULL when nothing names it. */
static const char *run_fact(struct analysis *a, const struct run_result *rr, size_t i)
{
	const struct run_fact *f = &rr->facts[named[i]];

	if (f->from == FACT_FROM_NONE)
		return NULL;
	return fact_key_is_text(named[i]) ? f->text : analysis_printf(a, "%lld", (long long)f->value);
}

/* Why the kernels were not compared: "1gpu has no trace", "2gpu's kernels are compiled ...". */
static const char *no_kernels_why(struct analysis *a, const struct trial *t)
{
	const struct comparison *cmp = &a->cmp;
	const struct run_result *rr[2] = { &a->runs[cmp->baseline], &a->runs[cmp->candidate] };
	const struct run *r[2] = { &t->runs[cmp->baseline], &t->runs[cmp->candidate] };
	const char *out = NULL;

	if (rr[0]->nfamilies && rr[1]->nfamilies) {
		size_t g = generated(rr[1]);

		return analysis_printf(a, "%s's kernels are compiled (%.0f%% of its kernel time in Triton "
				       "kernels) and %s's are not, so their names say nothing of each other",
				       rr[g]->name, 100 * rr[g]->generated_share, rr[!g]->name);
	}
	if (!rr[0]->nfamilies && !rr[1]->nfamilies && !r[0]->nranks && !r[1]->nranks)
		return "the runs have no trace";
	for (size_t i = 0; i < 2; i++)
		if (!rr[i]->nfamilies)
			out = analysis_printf(a, "%s%s%s %s", out ? out : "", out ? " and " : "", rr[i]->name,
					      r[i]->nranks ? "has no kernel in its traces" : "has no trace");
	return out;
}

/* What one side offers the comparison: "no trace", "compiled kernels", "kernels". */
static const char *side_of(const struct run *r, const struct run_result *rr, bool compiled)
{
	if (!rr->nfamilies)
		return r->nranks ? "no kernels" : "no trace";
	if (compiled)
		return generated(rr) ? "compiled kernels" : "eager kernels";
	return "kernels";
}

/* Nothing to compare: `workload` is unverified, and says what is missing. */
static bool unverified(struct analysis *a, const struct trial *t, bool any_fact, struct confound *cf)
{
	const struct comparison *cmp = &a->cmp;
	const struct run_result *b = &a->runs[cmp->baseline], *c = &a->runs[cmp->candidate];
	bool compiled = b->nfamilies && c->nfamilies;

	a->cmp.workload.basis = WL_NONE;
	*cf = (struct confound){
		.what = CF_WORKLOAD, .severity = CFS_UNVERIFIED,
		.baseline = side_of(&t->runs[cmp->baseline], b, compiled),
		.candidate = side_of(&t->runs[cmp->candidate], c, compiled),
		.why = analysis_printf(a, "workload not compared: %s, and %s",
				       no_kernels_why(a, t), any_fact ?
				       "no model, dataset or sequence length is named by both runs" :
				       "neither run names its model, dataset or sequence length"),
	};
	return true;
}

/*
 * The kernels cannot say: model, dataset and sequence length as the runs
 * use them. Named by both: the runs are taken as one job on them (where one
 * differs, its own confound, model, dataset or seq_len, already blocks).
 * None named by both: unverified.
 */
static bool by_facts(struct analysis *a, const struct trial *t, struct confound *cf)
{
	const struct comparison *cmp = &a->cmp;
	const struct run_result *b = &a->runs[cmp->baseline], *c = &a->runs[cmp->candidate];
	bool any = false, both = false;

	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		const char *vb = run_fact(a, b, i), *vc = run_fact(a, c, i);

		any |= vb || vc;
		both |= vb && vc;
	}
	if (!both)
		return unverified(a, t, any, cf);
	a->cmp.workload.basis = WL_DECLARED;
	return false;
}

bool workload_compare(struct analysis *a, const struct trial *t, struct confound *cf)
{
	const struct comparison *cmp = &a->cmp;
	const struct run_result *b = &a->runs[cmp->baseline], *c = &a->runs[cmp->candidate];

	a->cmp.workload = (struct workload){
		.present = true, .basis = WL_NONE, .baseline_overlap = NAN, .candidate_overlap = NAN,
	};
	if (b->nfamilies && c->nfamilies && generated(b) == generated(c))
		return by_kernels(a, b, c, cf);
	return by_facts(a, t, cf);
}
