/*
 * ingest_fixture: what the reader tests share: a file read through
 * ingest_file() into a one-run trial, from a path, from ../shared/realdata,
 * or from bytes written to a temporary file, or bytes fed to the stream in
 * pieces; and typed access to the info
 * tree a reader filled. Failures are cmocka assertions.
 */
#ifndef TESTS_INGEST_FIXTURE_H
#define TESTS_INGEST_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/ingest.h"

struct loaded {
	struct trial *t;
	struct run *r;		/* the trial's one run */
	struct arena a;		/* the info tree */
	struct ingest_file f;
};

void load_path(struct loaded *x, const char *path);
/* Loads $SHARED/realdata/<rel>; false (the caller skips) when SHARED is empty or the file absent. */
bool load_real(struct loaded *x, const char *rel);
/* Writes n bytes to a temporary file and loads it; the file is removed. */
void load_bytes(struct loaded *x, const char *data, size_t n);
void load_str(struct loaded *x, const char *s);
/*
 * Feeds n bytes to ingest_stream_*() under `name`, `chunk` bytes at a time
 * (0: all in one piece), as an input of n bytes as stored.
 */
void load_chunks(struct loaded *x, const char *name, const char *bytes, size_t n, size_t chunk);
void unload(struct loaded *x);
/* Removes dir and everything under it; 0, or -1 when something stayed. */
int remove_tree(const char *dir);
/* The whole of a file, NUL-terminated, in a malloc'd buffer; its length in *n. */
char *read_file(const char *path, size_t *n);

/* The object member `key` of the file's info; asserted present. */
const struct info *info_object(const struct loaded *x, const char *key);
/* Members of an object: NULL / -1 / NaN when JSON null; asserted present and typed. */
const char *get_str(const struct info *o, const char *key);
int64_t get_int(const struct info *o, const char *key);
double get_num(const struct info *o, const char *key);

#endif
