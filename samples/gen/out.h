/*
 * out: writing the generator's files. Every function returns 0 or -1 after
 * printing "scaleaudit-gen: PATH: reason" on stderr, so that main can exit 1.
 * Gzip output carries a fixed header (mtime 0, no name) for byte-identical
 * files on every run. Files are written as every output of the tool is
 * (core/outfile.h): under a new temporary name, flushed, then renamed, so an
 * interrupted run leaves no half-written file and a link is never written
 * through.
 */
#ifndef GEN_OUT_H
#define GEN_OUT_H

#include "core/buf.h"

int out_mkdirs(const char *path);			/* mkdir -p */
int out_write(const char *path, const struct buf *b);	/* the buffer as is */
int out_write_gz(const char *path, const struct buf *b);	/* gzip -9 of it */
char *out_path(const char *dir, const char *name);	/* "dir/name", caller frees */

#endif
