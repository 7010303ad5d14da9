/*
 * ingest: reads one file into a run of the model. It opens the file (gzip or
 * plain, or standard input for "-"), sniffs its format, and hands its bytes
 * or lines to the readers of ingest/registry.c. What was read is counted in
 * the run's sources and summarised in an info tree for `inspect`.
 */
#ifndef INGEST_INGEST_H
#define INGEST_INGEST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/sniff.h"

struct ingest_file {
	const char *path;	/* interned in the trial */
	struct sniff sniff;	/* what the content looks like */
	bool gzip;		/* the file was gzip-compressed */
	int64_t size;		/* bytes on disk; -1 for standard input */
	int64_t bytes;		/* bytes read after decompression */
	bool unreadable;	/* could not be opened or read at all */
	bool read;		/* at least one reader took something from it */
	const char *skipped;	/* why nothing was read from it; NULL when read */
	struct info *info;	/* the readers' summary (an object) */
};

/*
 * A hook told how far the reading of a large file has come: done and total
 * are bytes of the file on disk (total -1 for standard input); it is called
 * every few MiB and once with done == total at the end. NULL: no progress.
 * The CLI installs one when stderr is a terminal.
 */
typedef void ingest_progress_fn(const char *path, int64_t done, int64_t total);
void ingest_set_progress(ingest_progress_fn *fn);

/*
 * Reads path into run r of trial t (r NULL: a file of the trial itself,
 * such as trial.ini, that belongs to no run). Diagnostics go to t->diags. The info
 * tree is allocated from `a`. Returns 0 when the file was read or
 * deliberately skipped, -1 when it could not be read at all.
 */
int ingest_file(struct trial *t, struct run *r, const char *path, struct arena *a,
		struct ingest_file *out);

#endif
