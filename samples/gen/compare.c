#include "samples/gen/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define OVERLAP_MIN 0.5		/* a run with less of its kernel time in shared families is another job */
#define TRITON_MOSTLY 0.5	/* kernel time mostly Inductor's: names say nothing of the model */
#define SUPERLINEAR_EFF 1.05	/* an efficiency above this is implausible until explained */
#define NEAR_CAPACITY 0.85	/* a baseline GPU this full may have paid for it in speed */
#define HOST_BOUND_IDLE 0.10	/* a baseline GPU idle this share of its step waited for its host */
#define SAVED_MEMORY 1.05	/* a candidate GPU this much fuller than the baseline's did not save memory */

const char *const severity_names[] = { NULL, "unverified", "warning", "blocking" };
const char *const basis_names[] = { [BASIS_KERNELS] = "kernels", [BASIS_DECLARED] = "declared",
				    [BASIS_NONE] = "none" };
const char *const cause_ids[NCAUSE] = {
	[CAUSE_NEAR_CAPACITY] = "baseline-near-capacity", [CAUSE_PER_GPU_BATCH] = "per-gpu-batch",
	[CAUSE_HOST_BOUND] = "host-bound-baseline", [CAUSE_SAVED_MEMORY] = "baseline-saved-memory",
};
const char *const weak_names[NWEAK] = {
	[W_DECLARED_ONLY] = "declared-only", [W_LOG_SUMMARY] = "log-summary", [W_RANKS] = "ranks",
	[W_STEPS] = "steps", [W_SUPERLINEAR] = "superlinear", [W_UNVERIFIED] = "unverified",
};

static void add_confound(struct gen_comparison *c, const char *what, const char *a, const char *b,
			 enum severity sev)
{
	struct gen_confound *cf;

	if (sev == SEV_NONE)
		return;
	cf = &c->cf[c->ncf++];
	cf->what = what;
	snprintf(cf->baseline, sizeof(cf->baseline), "%s", a ? a : "");
	snprintf(cf->candidate, sizeof(cf->candidate), "%s", b ? b : "");
	cf->sev = sev;
	c->blocking |= sev == SEV_BLOCKING;
	c->blocked |= sev == SEV_BLOCKING && strcmp(what, "global_batch");
	if (sev == SEV_UNVERIFIED)
		snprintf(c->note, sizeof(c->note), "not verified: %s", what);
}

static const char *prec_name(const struct run_stats *st)
{
	return st->precision == DT_UNKNOWN ? NULL : dtype_name((enum dtype)st->precision);
}

/* Steady steps: 3 or more on each completed side plain, 2 a warning, fewer blocking. */
static enum severity steps_severity(const struct run_stats st[2])
{
	int least = 1 << 30;

	for (int i = 0; i < 2; i++)
		if (!st[i].failed && st[i].measured < least)
			least = st[i].measured;
	return least >= 3 ? SEV_NONE : least == 2 ? SEV_WARNING : SEV_BLOCKING;
}

/* --- workload identity --- */

static int has_trace(const struct run_stats *st)
{
	return !st->failed && !st->logs && st->kernel_ns > 0;
}

static int triton_mostly(const struct run_stats *st)
{
	return (double)st->triton_ns > TRITON_MOSTLY * (double)st->kernel_ns;
}

/*
 * Whether the two runs' kernel names can be compared: both traced, and both
 * or neither mostly Inductor's triton_* kernels (whose names do not name the
 * eager kernels). Across GPU architectures the families still match: a
 * matmul-class kernel's family is its class, whatever library kernel the GPU
 * gets.
 */
static int names_comparable(const struct run_stats st[2])
{
	return has_trace(&st[0]) && has_trace(&st[1]) && triton_mostly(&st[0]) == triton_mostly(&st[1]);
}

/* The share of a's kernel time in families that b also has. */
static double overlap(const struct run_stats *a, const struct run_stats *b)
{
	int64_t shared = 0;

	for (int i = 0; i < a->nfam; i++)
		for (int k = 0; k < b->nfam; k++)
			if (!strcmp(a->fam[i].fam, b->fam[k].fam)) {
				shared += a->fam[i].ns;
				break;
			}
	return (double)shared / (double)a->kernel_ns;
}

/* run.ini's dataset; NULL when it names none (no log of these scenarios names one either). */
static const char *dataset_of(const struct run_spec *s)
{
	return s->no_dataset ? NULL : "wikitext-103";
}

/*
 * Without comparable kernel names: the model, dataset and sequence length
 * that run.ini or the logs give (no scenario names a model). Agreement on
 * what both sides know is no confound; nothing known on both is unverified.
 */
static enum severity declared_workload(struct gen_comparison *c)
{
	const struct run_spec *a = c->st[0].run->spec, *b = c->st[1].run->spec;
	int known = 0, differ = 0;

	if (dataset_of(a) && dataset_of(b)) {
		known++;
		differ |= strcmp(dataset_of(a), dataset_of(b)) != 0;
	}
	if (a->seq_len && b->seq_len) {
		known++;
		differ |= a->seq_len != b->seq_len;
	}
	c->basis = known ? BASIS_DECLARED : BASIS_NONE;
	return !known ? SEV_UNVERIFIED : differ ? SEV_BLOCKING : SEV_NONE;
}

static void workload(struct gen_comparison *c)
{
	char a[16], b[16];

	c->overlap[0] = c->overlap[1] = NAN;
	if (!names_comparable(c->st)) {
		add_confound(c, "workload", NULL, NULL, declared_workload(c));
		return;
	}
	c->basis = BASIS_KERNELS;
	c->overlap[0] = overlap(&c->st[0], &c->st[1]);
	c->overlap[1] = overlap(&c->st[1], &c->st[0]);
	snprintf(a, sizeof(a), "%.3f", c->overlap[0]);
	snprintf(b, sizeof(b), "%.3f", c->overlap[1]);
	add_confound(c, "workload", a, b,
		     c->overlap[0] < OVERLAP_MIN || c->overlap[1] < OVERLAP_MIN ? SEV_BLOCKING : SEV_NONE);
}

static void confounds(struct gen_comparison *c)
{
	const struct run_stats *st = c->st;
	const struct run_spec *a = st[0].run->spec, *b = st[1].run->spec;
	int pa = st[0].precision, pb = st[1].precision;
	char x[32], y[32];

	add_confound(c, "precision", prec_name(&st[0]), prec_name(&st[1]),
		     pa == DT_UNKNOWN || pb == DT_UNKNOWN ? SEV_UNVERIFIED : pa != pb ? SEV_BLOCKING : SEV_NONE);
	snprintf(x, sizeof(x), "%d", a->global_batch);
	snprintf(y, sizeof(y), "%d", b->global_batch);
	add_confound(c, "global_batch", x, y,
		     !strcmp(c->sc->hypothesis, "step-time") && a->global_batch != b->global_batch ? SEV_BLOCKING : SEV_NONE);
	add_confound(c, "gpu_model", st[0].run->gpu->name, st[1].run->gpu->name,
		     a->gpu != b->gpu ? SEV_BLOCKING : SEV_NONE);
	snprintf(x, sizeof(x), "%d", st[0].measured);
	snprintf(y, sizeof(y), "%d", st[1].measured);
	add_confound(c, "steps", st[0].failed ? NULL : x, y, steps_severity(st));
	workload(c);
}

/* --- superlinear scaling --- */

int64_t compare_memory_model(const struct run_stats *st)
{
	const char *s = st->run->spec->strategy;
	int replicas = !strcmp(s, "ddp") || !strcmp(s, "single");
	int64_t model = 0;

	for (int r = 0; r < st->run->nranks; r++) {
		int64_t p = st->peak_smi[r];

		model = replicas ? (p > model ? p : model) : model + p;
	}
	return model;
}

static int64_t largest_peak(const struct run_stats *st)
{
	int64_t v = 0;

	for (int r = 0; r < st->run->nranks; r++)
		v = st->peak_smi[r] > v ? st->peak_smi[r] : v;
	return v;
}

/* Which explanations of an efficiency above SUPERLINEAR_EFF hold. */
static void superlinear(struct gen_comparison *c)
{
	const struct run_stats *b = &c->st[0], *k = &c->st[1];
	const struct rank_stats *slow = &b->rk[b->slowest];
	const char *strategy = k->run->spec->strategy;

	/* a blocking confound already explains the numbers; one GPU count compares configurations */
	c->superlinear = !isnan(c->eff) && c->eff > SUPERLINEAR_EFF && !c->blocking && c->n > 1;
	if (!c->superlinear)
		return;
	for (int r = 0; r < b->run->nranks; r++)
		c->cause[CAUSE_NEAR_CAPACITY] |= (double)b->peak_smi[r] >= NEAR_CAPACITY * (double)b->run->gpu->mem;
	c->cause[CAUSE_PER_GPU_BATCH] = b->run->spec->micro_batch != k->run->spec->micro_batch;
	c->cause[CAUSE_HOST_BOUND] = !b->logs && slow->mean[P_IDLE] >= HOST_BOUND_IDLE * slow->mean_step;
	c->cause[CAUSE_SAVED_MEMORY] = (!strcmp(strategy, "ddp") || !strcmp(strategy, "single")) &&
				       (double)largest_peak(k) > SAVED_MEMORY * (double)largest_peak(b);
}

/* The verdict is confirmed or refuted: nothing blocks it, and under step-time the baseline ran. */
static int verdict_stands(const struct gen_comparison *c)
{
	return !c->blocking && (!strcmp(c->sc->hypothesis, "feasibility") || !c->st[0].failed);
}

/* What weakens a confirmed or refuted verdict; nothing for an inconclusive one. */
static void weak_evidence(struct gen_comparison *c)
{
	if (!verdict_stands(c))
		return;
	for (int i = 0; i < c->ncf; i++) {
		c->weak[W_UNVERIFIED] |= c->cf[i].sev == SEV_UNVERIFIED;
		c->weak[W_STEPS] |= !strcmp(c->cf[i].what, "steps") && c->cf[i].sev == SEV_WARNING;
	}
	c->weak[W_DECLARED_ONLY] = c->basis == BASIS_DECLARED;
	c->weak[W_SUPERLINEAR] = c->superlinear;
}

void compare_runs(struct gen_comparison *c, const struct scenario *sc, const struct run_stats st[2])
{
	memset(c, 0, sizeof(*c));
	c->sc = sc;
	c->st = st;
	c->n = (double)st[1].run->nranks / st[0].run->nranks;
	c->speedup = c->ratio = c->eff = NAN;
	if (!st[0].failed && !st[1].failed) {
		c->speedup = st[0].med / st[1].med;
		c->ratio = st[1].sps / st[0].sps;
		c->eff = !strcmp(sc->hypothesis, "global-batch") ? c->ratio / c->n : st[0].med / (c->n * st[1].med);
	}
	confounds(c);
	superlinear(c);
	weak_evidence(c);
}
