/*
 * truth: the answers a trial's logs determine, computed from the timing
 * model's own intervals (never by reading the files back, never through
 * analysis/), written as truth.json with the keys of analysis.json (docs/analysis.schema.json). The
 * definitions it uses where the definitions leave a choice are in docs/generator.md.
 */
#ifndef GEN_TRUTH_H
#define GEN_TRUTH_H

#include "core/buf.h"
#include "samples/gen/timing.h"

/* Appends the truth.json of a trial whose two runs were simulated. */
void truth_json(struct buf *b, const struct scenario *sc, const struct sim_run runs[2]);

#endif
