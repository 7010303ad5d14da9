/*
 * batch: what the pieces of `scaleaudit batch` share: the trials found under
 * the PATH operands (cli/batch_find.c), each with a stable id, its location
 * and the fingerprint of its inputs.
 */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/outfile.h"
#include "ingest/discover.h"

struct batch_trial {
	const char *id;		/* stable: ingest/discover.h's, from the path and the trial's place */
	const char *source;	/* the PATH operand it was found under */
	const char *location;	/* where it is: a directory, or ARCHIVE/folder */
	const char *fingerprint;	/* 16 hex digits over its files' names, sizes and times */
	const struct discovery *dv;	/* how to load it: found_trial_load(dv, found) */
	const struct found_trial *found;
};

struct batch_trials {
	struct batch_trial *v;	/* in operand order, then name order */
	size_t n;
	struct discovery dv;
	char **sources;		/* the operand of each entry of dv */
};

/*
 * Finds the trials under the n paths (ingest/discover.h): directories and
 * archives read in place. Prints the problems met (a path that cannot be
 * read, a damaged archive: such an input is a trial that fails) and returns
 * -1 when a path could not be read at all, else 0; the trials found are kept.
 */
int batch_find(char *const *paths, int n, struct batch_trials *out);
void batch_trials_release(struct batch_trials *t);

/* Makes the staging folder dir with batch's mark in it; -1 after an error message. */
int batch_make_staging(const char *dir);

/* How batch_run() runs the trials. */
struct batch_opts {
	const char *out;	/* DIR: each trial's output goes to DIR/<id>/ */
	int jobs;		/* worker processes at once, >= 1 */
	int timeout_s;		/* wall time a trial may take; 0: no limit */
	int memory_mib;		/* address space a trial may take; 0: no limit */
	bool progress;		/* done/total, failures, the current trial and the ETA on stderr */
	/* called in the parent once trial t's output is complete in dir (DIR/<id>); dir is
	 * NULL when it could not be put there (the reason is printed) */
	void (*done)(void *ctx, const struct batch_trial *t, const char *dir);
	void *ctx;
};

/* The ranges of -j, --timeout and --memory-limit (docs/batch.md). */
#define BATCH_JOBS_MAX 256
#define BATCH_TIMEOUT_MAX 604800	/* s: 7 days; a literal, so that help can quote it */
#define BATCH_MEMORY_MAX 16777216	/* MiB: 16 TiB */

/* What batch_run() did. */
struct batch_result {
	size_t done;	/* trials that ended, failed or not */
	size_t failed;
	int signo;	/* the SIGTERM or SIGINT that stopped it; 0: none */
};

/*
 * Analyses and reports each of the n trials as `report` does, each in its
 * own process group (at most o->jobs at once) under the limits of o, into
 * DIR/<id>.tmp-<pid>/, then renames it to DIR/<id>/ with batch.json, the
 * result record (render/results_db.h), and batch.log, what the trial's
 * process printed. A trial that fails, crashes or passes a limit keeps only
 * those two, its status error with the reason and the kind of failure.
 * On SIGTERM or SIGINT it starts no more trials, sends the signal to the
 * workers' process groups, waits for them and removes their staging.
 */
struct batch_result batch_run(const struct batch_opts *o, struct batch_trial *const *todo, size_t n);

/*
 * True when a record's failure kind (batch_record.failure) is the trial's
 * own: its inputs, which fail the same way until they change. A limit, a
 * signal, an I/O error, a worker that could not start, or a kind not
 * recorded (an earlier version) is the run's circumstance: worth a retry.
 */
bool batch_failure_own(const char *failure);

/*
 * Every folder batch makes holds this file, so that batch removes or
 * replaces only what it wrote: never a folder of the user's whose name
 * happens to look like one of its own.
 */
#define BATCH_MARK OUTPUT_MARK_BATCH

/* True when path is a folder (not a link) that batch wrote: it holds BATCH_MARK. */
bool batch_owned(const char *path);

/* The pid in a name that ends in .tmp-PID or .old-PID (batch's staging); 0 otherwise. */
long batch_staging_pid(const char *name);

#endif
