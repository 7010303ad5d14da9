/*
 * plan_files: a trial plan on disk. Writes a planned trial (trial.ini, one run.ini per
 * planned run, CHECKLIST.md) or the commented skeleton of every manifest key. Each file is
 * written to a temporary file beside it and renamed into place; a symlink is never followed.
 */
#ifndef RENDER_PLAN_FILES_H
#define RENDER_PLAN_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/plan.h"
#include "core/diag.h"

/* One planned run: a subdirectory of the trial with its run.ini. */
struct plan_run {
	const char *dir;		/* "1gpu", "2gpu": a plain name, no '/' */
	int gpus;			/* > 0 */
	const char *strategy;		/* a run.ini strategy, or the model's zero1|zero2|zero3 (written as zero) */
	int64_t global_batch;		/* <= 0 unknown: not written */
	int64_t grad_accum;		/* <= 0 unknown: not written */
	double predicted_peak_bytes;	/* per GPU, reserve included; NaN unknown: not written */
	double predicted_step_s;	/* NaN unknown: not written */
	int64_t micro_batch;		/* <= 0: the plan's micro_batch (it differs under step-time) */
};

/*
 * What plan writes. Strings NULL, counts <= 0, the seed -1 and numbers NaN (or negative;
 * expected_speedup <= 0) are unknown and not written (the manifest's default then applies),
 * so that what is written reads back without a finding; plan_files_init() sets every field so.
 */
struct plan_files {
	const char *title;
	const char *currency;	/* trial.ini currency; NULL unset */
	const char *hypothesis;		/* step-time|global-batch|feasibility */
	const char *tests;		/* what the planned multi-GPU run can show; NULL nothing */
	const char *hypothesis_note;	/* why the hypothesis cannot be shown; NULL none */
	double expected_speedup;	/* > 0 */
	const char *question;		/* single-config|hparam-sweep */
	int64_t target_samples;
	int64_t target_tokens;
	double gpu_hour_price;
	double memory_reserve_gb;
	/* the constants every run holds */
	const char *precision;		/* a dtype name: bf16, fp16, fp32, ... */
	int64_t micro_batch;
	int64_t seq_len;
	const char *dataset;
	const char *model;
	int64_t seed;
	const struct plan_run *runs;	/* borrowed */
	size_t nruns;
	/* the campaign (CHECKLIST.md; lot_gpus, margin, checkpoint_write_s and mtbf_hours in
	 * trial.ini too, where the manifest knows those keys) */
	const struct gpu_model *gpu;	/* the GPU to rent; NULL unknown */
	int window_days;		/* 3, 7 or 30; 0 unknown */
	int window_count;		/* consecutive windows of window_days; 0 unknown */
	int lots;			/* lots rented for the planned option; 0 unknown */
	int lot_gpus;			/* GPUs per lot; 0 unknown */
	double margin;			/* room over the days needed; NaN unknown */
	double days_needed;		/* at the planned rate; NaN unknown */
	double gpu_hours, cost;		/* as rented; NaN unknown */
	const char *rate_source;	/* "modelled", or where the measured rate comes from */
	bool has_stop;			/* a 30-day window: stop holds its criteria */
	struct plan_stop stop;
	double checkpoint_interval_s;	/* Young/Daly, on a 30-day window; NaN: none */
	double checkpoint_write_s;	/* its input C, the plan's estimate; NaN unknown */
	double mtbf_s;			/* its input M; NaN unknown */
	double mtbf_hours;		/* the same in hours, for trial.ini; NaN unknown */
	struct plan_fallback fallback[2 * PLAN_MAX_GPUS];	/* fallback GPUs a run does not fit */
	size_t nfallback;
	int profile_active;		/* active profiler steps; < 7 is raised to 7 */
	const char *batch_note;		/* how the runs hold the global batch; NULL: nothing to say */
};

enum plan_write_flag {
	PLAN_FORCE = 1 << 0,		/* replace an existing trial.ini (and the other files) */
};

/* Sets every field of pf to unknown (NULL, -1, NaN, 0) and profile_active to 7. */
void plan_files_init(struct plan_files *pf);

/*
 * The plan of the model's result r for inputs in: pf (plan_files_init() first), its runs in
 * run[0..1] (pf borrows run, and in's strings): 1gpu (single) and the recommended strategy on
 * in->gpus (dir "2gpu", or "ngpu" for N != 2), just 1gpu when nothing is recommended. The
 * hypothesis (in's, else what the recommended strategy tests) decides the global batch: under
 * data parallelism global-batch multiplies it by N on purpose; step-time holds it, by the
 * N-GPU run's micro batch divided by N, else its grad_accum divided by N, else the 1-GPU run's
 * grad_accum multiplied by N (pf->batch_note says which); feasibility keeps whatever fits.
 */
void plan_files_from(struct plan_files *pf, struct plan_run run[2], const struct plan_inputs *in,
		     const struct plan_result *r);

/*
 * Writes pf into dir (created when absent, with each run's subdirectory): trial.ini,
 * <run>/run.ini, CHECKLIST.md. Refuses (error "plan-exists") when dir/trial.ini exists and
 * flags lacks PLAN_FORCE; never writes through a symlink (error "plan-write"). Returns 0, or
 * -1 with an error in d; files already renamed into place stay, none is half-written.
 */
int plan_write_dir(const struct plan_files *pf, const char *dir, unsigned flags, struct diags *d);

/*
 * Writes the trial skeleton into dir: trial.ini, 1gpu/run.ini, 2gpu/run.ini and CHECKLIST.md,
 * every manifest key commented out with its meaning, allowed values and default, from the
 * manifest key table. Same refusal, symlink and error rules as plan_write_dir().
 */
int plan_write_skeleton(const char *dir, unsigned flags, struct diags *d);

#endif
