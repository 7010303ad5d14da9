/*
 * trial: loads a trial directory into the model (the layout README.md and the man page describe). Each
 * subdirectory that holds files is a run (its files are searched
 * recursively); a directory without subdirectories is a trial of one run.
 * trial.ini at the top sets the trial's facts; run.ini in a run sets the run's.
 */
#ifndef INGEST_TRIAL_H
#define INGEST_TRIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/model.h"
#include "ingest/sniff.h"

struct ingest_file;

/* A file that gave nothing, or less than it holds, and why. */
struct trial_note {
	const char *path;	/* interned in the trial */
	const char *why;	/* static: "cannot be read", "not a format scaleaudit reads", ... */
};

struct trial_stats {
	size_t files;		/* files looked at */
	size_t read;		/* files something was read from */
	size_t unreadable;	/* files that could not be read, or only in part */
	size_t skipped;		/* files of no use (unknown format, nothing inside) */
	size_t trials;		/* trials found below dir: when > 0 nothing was loaded */
	struct trial_note *notes;	/* the unreadable and skipped files, in walk order (malloc'd) */
	size_t nnotes, cap_notes;
};

/*
 * Loads dir. Returns the trial (diagnostics in trial->diags), or NULL after
 * recording in *d why nothing could be loaded (not a directory, no runs, or
 * a directory of several trials: a sub-directory holds a trial.ini, or
 * runs of its own with their run.ini; then stats->trials counts them and
 * the message names them). Release stats with trial_stats_release(); its
 * notes' paths live as long as the trial.
 */
struct trial *trial_load(const char *dir, struct diags *d, struct trial_stats *stats);
void trial_stats_release(struct trial_stats *stats);

/*
 * The files of a trial that do not sit in a directory (the members of an
 * archive), for trial_load_source(): the same runs, order, notes and
 * refusals as trial_load() gives the same files in a directory.
 */
struct trial_source {
	const char *dir;	/* the trial's folder as diagnostics name it */
	const char *const *files;	/* each dir + "/" + its name below dir, in
					   trial_path_cmp() order, no component starting with '.' */
	const char *const *refused;	/* per file: why it must not be read (static), or NULL;
					   the array may be NULL */
	size_t n;
	enum format (*head)(void *arg, size_t i);	/* what files[i] holds, by its head */
	/* Reads files[i] into run r (NULL: the trial's own) as ingest_file() does. */
	void (*ingest)(void *arg, struct trial *t, struct run *r, size_t i, struct arena *a,
		       struct ingest_file *out);
	void *arg;
	bool on_disk;	/* files[] are paths on disk: binaries among them are scanned for
			   GPU code (headers only), and traces may be read by worker
			   threads (trial_set_jobs()); archive members are not */
};

/*
 * Loads src as trial_load() loads a directory. A refused file is not read:
 * it is counted unreadable, gets a note with its reason and an
 * "archive-member" error in the trial's diagnostics.
 */
struct trial *trial_load_source(const struct trial_source *src, struct diags *d,
				struct trial_stats *stats);

/*
 * How many threads read the trace files of a trial at once: 1 reads every
 * file in turn; n > 1 reads PyTorch profiler traces in up to n worker
 * threads, each into a model of its own, merged in file order so that the
 * trial, its diagnostics and its notes are the same as when read in turn;
 * 0 (the default) means one per online CPU. Set it before loading: it is
 * read-only while a trial loads.
 */
void trial_set_jobs(int n);
int trial_jobs(void);	/* what n > 0 the next load uses */

/* The order trial_load() reads files in: path components compared one by one. */
int trial_path_cmp(const char *a, const char *b);

#endif
