/*
 * compare: what the statistics of a trial's two runs say about their
 * comparison, by the definitions docs/generator.md writes down: n (candidate
 * GPUs over baseline GPUs), speedup and efficiency, the confounds (workload
 * identity from the hand-labelled kernel families included), superlinear
 * scaling and the causes that hold, and what weakens the verdict. It writes
 * no JSON (truth.c does) and never uses analysis/.
 */
#ifndef GEN_COMPARE_H
#define GEN_COMPARE_H

#include "samples/gen/stats.h"

enum severity { SEV_NONE, SEV_UNVERIFIED, SEV_WARNING, SEV_BLOCKING };

struct gen_confound {
	const char *what;	/* "precision", "global_batch", "gpu_model", "steps", "workload" */
	char baseline[48], candidate[48];	/* "" for unknown */
	enum severity sev;
};

/* How the runs were found to be one job (comparison.workload.basis). */
enum basis { BASIS_KERNELS, BASIS_DECLARED, BASIS_NONE };

/* Causes of a superlinear efficiency, in the order truth.json lists them. */
enum cause { CAUSE_NEAR_CAPACITY, CAUSE_PER_GPU_BATCH, CAUSE_HOST_BOUND, CAUSE_SAVED_MEMORY, NCAUSE };

/* What weakens a verdict (comparison.weak_evidence[].what), in sorted order. */
enum weak { W_DECLARED_ONLY, W_LOG_SUMMARY, W_RANKS, W_STEPS, W_SUPERLINEAR, W_UNVERIFIED, NWEAK };

extern const char *const severity_names[];	/* NULL, "unverified", "warning", "blocking" */
extern const char *const basis_names[];		/* "kernels", "declared", "none" */
extern const char *const cause_ids[NCAUSE];	/* "baseline-near-capacity", ... */
extern const char *const weak_names[NWEAK];	/* "declared-only", ... */

struct gen_comparison {
	const struct scenario *sc;
	const struct run_stats *st;	/* [0] baseline, [1] candidate */
	double n;			/* candidate GPUs / baseline GPUs */
	double speedup, ratio, eff;	/* NAN when the baseline failed */
	struct gen_confound cf[8];
	int ncf;
	int blocking;			/* a blocking confound */
	int blocked;			/* a blocking confound other than global_batch */
	char note[64];			/* "not verified: ..." for an unverified confound */
	enum basis basis;
	double overlap[2];		/* share of each run's kernel time in shared families; NAN unless kernels */
	int superlinear;		/* efficiency above SUPERLINEAR_EFF */
	int cause[NCAUSE];		/* which causes hold (superlinear only) */
	int weak[NWEAK];
};

/* Compares the two runs (st[0] the baseline, st[1] the candidate). */
void compare_runs(struct gen_comparison *c, const struct scenario *sc, const struct run_stats st[2]);

/* Bytes one GPU would need for the run: its GPUs' nvidia-smi peaks, the
 * largest for a replicating strategy (single, ddp), their sum for one that
 * splits the model. */
int64_t compare_memory_model(const struct run_stats *st);

#endif
