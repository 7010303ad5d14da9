/*
 * batch: what the pieces of `scaleaudit batch` share: the trials found under
 * the PATH operands (cli/batch_find.c), each with a stable id, its location
 * and the fingerprint of its inputs.
 */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include <stdbool.h>
#include <stddef.h>

struct batch_trial {
	char *id;		/* stable: from the operand's name and the trial's path below it */
	char *source;		/* the PATH operand it was found under */
	char *location;		/* the trial's directory, as report takes it */
	char *fingerprint;	/* 16 hex digits over its files' paths, sizes and times */
};

struct batch_trials {
	struct batch_trial *v;	/* in operand order, then path order */
	size_t n, cap;
};

/*
 * Finds the trials under the n paths: a directory holding trial.ini, or one
 * whose sub-directories hold run.ini, at any depth; an operand below which
 * nothing is found is taken as a trial itself. Prints an error for each path
 * that cannot be read and returns -1 then (the trials found are kept), else 0.
 */
int batch_find(char *const *paths, int n, struct batch_trials *out);
void batch_trials_release(struct batch_trials *t);

/* How batch_run() runs the trials. */
struct batch_opts {
	const char *out;	/* DIR: each trial's output goes to DIR/<id>/ */
	int jobs;		/* worker processes at once, >= 1 */
	int timeout_s;		/* wall time a trial may take; 0: no limit */
	int memory_mib;		/* address space a trial may take; 0: no limit */
	bool progress;		/* done/total, failures, the current trial and the ETA on stderr */
	/* called in the parent once trial t's output is complete in dir (DIR/<id>) */
	void (*done)(void *ctx, const struct batch_trial *t, const char *dir);
	void *ctx;
};

/*
 * Analyses and reports each of the n trials as `report` does, each in its
 * own process (at most o->jobs at once) under the limits of o, into
 * DIR/<id>.tmp-<pid>/, then renames it to DIR/<id>/ with batch.json, the
 * result record (render/results_db.h), and batch.log, what the trial's
 * process printed. A trial that fails, crashes or passes a limit keeps only
 * those two, its status error with the reason. Returns how many failed.
 */
size_t batch_run(const struct batch_opts *o, struct batch_trial *const *todo, size_t n);

/* The entries of dir (names), sorted, without . and ..; NULL with errno set when it cannot be read. */
char **batch_list_dir(const char *dir, size_t *n);
void batch_free_list(char **names, size_t n);

/* Removes path and everything below it; 0, or -1 with errno set. */
int batch_remove_tree(const char *path);

#endif
