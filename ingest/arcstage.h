/*
 * arcstage: one pass over an archive that holds many trials, copying each
 * trial's members into a plain tar of its own, so that trials loaded one by
 * one (batch's workers) read each member once instead of the whole archive
 * each. The copy holds the members as listed (names, sizes, times), so a
 * trial loads from it exactly as from the archive; a trial whose members
 * cannot be copied faithfully is left to be read from the archive.
 */
#ifndef INGEST_ARCSTAGE_H
#define INGEST_ARCSTAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "ingest/discover.h"

/*
 * For each archive (or archive's archive) holding two or more of the trials
 * of dv marked in want[0..dv->n), reads it once under dv->limits and writes
 * DIR/<id>.tar for each of its marked trials, setting their `staged`. A
 * trial is not staged (and is read from the archive as before) when one of
 * its members is refused, passes a cap, has no declared size or lies apart
 * from its other members, when the archive is damaged, or when writing
 * fails: its worker then meets (and tells) the fault itself. Returns the
 * number of trials staged.
 */
size_t arc_stage(struct discovery *dv, const bool *want, const char *dir);

#endif
