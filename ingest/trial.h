/*
 * trial: loads a trial directory into the model (the layout README.md and the man page describe). Each
 * subdirectory that holds files is a run (its files are searched
 * recursively); a directory without subdirectories is a trial of one run.
 * trial.ini at the top sets the trial's facts; run.ini in a run sets the run's.
 */
#ifndef INGEST_TRIAL_H
#define INGEST_TRIAL_H

#include <stddef.h>

#include "core/model.h"

struct trial_stats {
	size_t files;		/* files looked at */
	size_t read;		/* files something was read from */
	size_t unreadable;	/* files that could not be read, or only in part */
	size_t skipped;		/* files of no use (unknown format, nothing inside) */
};

/*
 * Loads dir. Returns the trial (diagnostics in trial->diags), or NULL after
 * recording in *d why nothing could be loaded (not a directory, no runs).
 */
struct trial *trial_load(const char *dir, struct diags *d, struct trial_stats *stats);

#endif
