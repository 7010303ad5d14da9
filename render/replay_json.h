/*
 * replay_json: the JSON of `scaleaudit replay`: the plan that --dry-run
 * prints, and replay.json (what a replay measured and its verdicts, see
 * replay/verdict.h), written and read back (chart 09 is drawn from it).
 */
#ifndef RENDER_REPLAY_JSON_H
#define RENDER_REPLAY_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "replay/plan.h"
#include "replay/verdict.h"

#define REPLAY_JSON_FORMAT 1

/*
 * The plan as {"device": null, "run", "gpu", "ranks", "kernels": [{"name",
 * "class", "shape", "dtype", "bytes", "logged_median_s", "share", "method",
 * ...}]}, indented; method is "not replayed: <why>" where it is not run.
 * -1 on a write error.
 */
int replay_plan_write_json(const struct plan *p, FILE *f);

struct jfield;

/* replay.json's table of fields (core/jfields.h), for tests that walk it. */
const struct jfield *replay_json_fields(void);

/* replay.json, indented; -1 on a write error. */
int replay_write_json(const struct replay *r, FILE *f);

/*
 * Reads replay.json from len bytes of buf into r (zeroed first; release it
 * with replay_release()). Returns 0, or -1 with one line in err: "name: byte
 * N: message" (not JSON, not a scaleaudit replay, a key of the wrong type).
 * Missing keys and null read as unknown; unknown keys are ignored.
 */
int replay_parse_json(const char *buf, size_t len, const char *name, struct replay *r,
		      char *err, size_t errsz);
/* The same from the file at path; a file it cannot read (or over 64 MiB) is an error too. */
int replay_read_json(const char *path, struct replay *r, char *err, size_t errsz);

/*
 * Reads DIR/replay.json, when there is one, into a->replay (in a's arena)
 * for chart 09: returns 1 when attached, 0 when DIR holds none (or a is
 * already attached), -1 with one line in err when the file is damaged.
 */
int replay_attach(struct analysis *a, const char *dir, char *err, size_t errsz);

#endif
