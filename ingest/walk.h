/*
 * walk: the files named by command-line paths. A directory is walked
 * recursively in name order; entries whose name starts with '.' are left
 * out, and so are directories reached through symbolic links (no loops).
 * Every other entry is listed, regular file or not (FIFO, socket, device,
 * dangling or looping link): the reader leaves those out with a warning.
 */
#ifndef INGEST_WALK_H
#define INGEST_WALK_H

#include <stddef.h>

#include "core/diag.h"

struct walk {
	char **files;		/* owned paths, in order */
	size_t n, cap;
	size_t missing;		/* paths that did not exist or could not be listed */
	char **unlisted;	/* owned: the directories that could not be listed, in order */
	size_t nunlisted, cap_unlisted;
	size_t empty_dirs;	/* named directories that held no file */
};

/* Adds the files under path; records a diagnostic and returns -1 on failure. */
int walk_path(struct walk *w, const char *path, struct diags *d);
void walk_release(struct walk *w);

#endif
