/*
 * verdict: what a replay measured beside what the trial logged, and what it
 * means: per kernel the ratio replayed / logged and a verdict (confirmed,
 * differs with the likely cause, projected on another GPU model), and for
 * another model the step time this GPU would give, as a projection. Pure:
 * no GPU, no I/O; render/replay_json.h writes and reads it as replay.json.
 *
 * Ownership: a struct replay owns its strings and kernels (its arena);
 * replay_release() frees them.
 */
#ifndef REPLAY_VERDICT_H
#define REPLAY_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "core/arena.h"
#include "core/model.h"
#include "replay/plan.h"

#define REPLAY_TOLERANCE 0.15	/* confirmed: the replayed median within +-15% of the logged */

enum replay_verdict {
	RV_NOT_RUN,	/* planned "not replayed", skipped or failed: cause says why */
	RV_CONFIRMED,	/* same GPU model, within the tolerance */
	RV_DIFFERS,	/* same GPU model, outside it: cause names the likely reason */
	RV_PROJECTED,	/* another GPU model (or the trial's is unknown): the ratio projects */
	RV_COUNT
};
const char *replay_verdict_name(enum replay_verdict v);	/* "not-run", "confirmed", "differs", "projected" */
enum replay_verdict replay_verdict_from_name(const char *s);	/* inverse; RV_NOT_RUN otherwise */

struct replay_kernel {
	const char *name;
	enum crit_class cls;
	const char *shape;		/* the plan's; NULL */
	enum dtype dtype;
	int64_t bytes;			/* -1 unknown */
	double calls_per_step;
	double share;
	const char *method;		/* plan_method_name(), or what the executor said it ran */
	bool guessed;			/* the plan guessed part of the shape or dtype */
	double logged_median_s;
	double replayed_median_s;	/* NaN when not run */
	double replayed_p10_s;
	double replayed_p90_s;
	int64_t reps;			/* timed repetitions; -1 when not run */
	double ratio;			/* replayed / logged median; NaN */
	enum replay_verdict verdict;
	const char *cause;		/* differs: the likely cause; not-run: why; else NULL */
};

struct replay {
	const char *source;		/* the trial or analysis.json replayed */
	const char *run;		/* its run that was planned */
	const char *logged_gpu;		/* the GPU the trial ran on; NULL unknown */
	int64_t logged_gpu_memory;	/* its memory, bytes; -1 unknown */
	const char *device;		/* this machine's GPU; NULL when none ran */
	int32_t device_index;		/* -1 none */
	int64_t device_memory;		/* bytes; -1 */
	const char *driver_version;	/* "570.124.06" or the CUDA driver API's "12.8"; NULL */
	const char *cuda_version;	/* the CUDA version the driver supports: "12.8"; NULL */
	bool same_model;		/* device and logged_gpu are one row of the GPU table */
	double logged_step_s;		/* the run's median steady step; NaN */
	double projected_step_s;	/* projected verdicts only: see replay_finish(); NaN */
	struct replay_kernel *k;
	size_t n;
	struct arena arena;
};

/* A replay of plan p (no measurement yet: each kernel not-run, cause its why_not). */
void replay_init(struct replay *r, const struct plan *p, const char *source);
void replay_release(struct replay *r);
/* A string copied into r's arena (NULL stays NULL). */
const char *replay_strdup(struct replay *r, const char *s);

/*
 * True when device and logged name the same row of the GPU table (by
 * core/gpu.h gpu_lookup with each one's memory, -1 unknown), or, when the
 * table knows neither, the same name; false when either is NULL.
 */
bool replay_same_model(const char *device, int64_t device_mem, const char *logged, int64_t logged_mem);

/*
 * The verdict of one kernel measured at `replayed` seconds against `logged`:
 * projected when !same_model; confirmed within REPLAY_TOLERANCE; else
 * differs, with *cause: a guessed shape first, then for a slower replay
 * "clocks (power or thermal limit) or another library version", for a
 * faster one "another library version, or the trial's GPU ran slower
 * (clocks, contention)". *cause is NULL unless differs.
 */
enum replay_verdict replay_verdict_of(double logged, double replayed, bool same_model, bool guessed,
				      const char **cause);

/*
 * Sets r->same_model from the device and logged GPU, each measured kernel's
 * ratio and verdict, and for a projection the step time this GPU would give:
 * logged step - sum over measured compute and memory kernels of calls x
 * logged median x (1 - ratio). Collectives are left out of the projection
 * (their time overlaps compute, and the link differs by machine).
 */
void replay_finish(struct replay *r);

/*
 * The driver version in the first line of /proc/driver/nvidia/version
 * ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  Thu ...")
 * into out ("570.124.06"); returns out, or NULL when the line has none.
 */
const char *replay_driver_version(const char *line, char *out, size_t n);

#endif
