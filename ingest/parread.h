/*
 * parread: reads the PyTorch profiler traces of a trial in worker threads,
 * each into a trial of its own, and moves each, in file order, into the
 * trial being loaded, leaving it as reading the file there would have
 * (ingest/trial.c calls it; what is shared between threads is listed at the
 * top of parread.c).
 */
#ifndef INGEST_PARREAD_H
#define INGEST_PARREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "ingest/ingest.h"
#include "ingest/trial.h"

struct parread;

/* True when the file at path is a regular file whose head (inflated, if gzip) is a Kineto trace. */
bool parread_is_trace(const char *path);

/*
 * Starts up to `jobs` threads reading the files i of src for which want[i]
 * (src->ingest must be safe to call from another thread for them, as
 * ingest_file() is). NULL when no file is wanted or jobs < 2.
 */
struct parread *parread_start(const struct trial_source *src, const bool *want, int jobs);

/* Whether file i is being read by a worker. */
bool parread_has(const struct parread *p, size_t i);

/*
 * Waits for file i, then moves what was read into run r of t and fills out
 * as src->ingest would have. Returns 0; -1 when the result cannot be moved
 * exactly (not a Kineto trace after all, or r holds a rank of its number
 * already): nothing of it is in t then, and the caller reads the file itself.
 * out->info lives until parread_end().
 */
int parread_take(struct parread *p, size_t i, struct trial *t, struct run *r,
		 struct ingest_file *out);

/*
 * Makes glibc map every block of 128 KiB and more (its threshold, which it
 * would raise as mapped blocks are freed): call it before a trial is read,
 * from one thread. The reason and what it saves are in parread.c.
 */
void parread_big_arrays_mapped(void);
/* Joins the threads and frees what p holds (files never taken are dropped). */
void parread_end(struct parread *p);

#endif
