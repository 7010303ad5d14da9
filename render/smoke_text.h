/*
 * smoke_text: the smoke check's report (replay/smoke.h) written out, as a
 * text table with a units column or as one JSON object. Computing is
 * replay's; these only write what the report holds.
 */
#ifndef RENDER_SMOKE_TEXT_H
#define RENDER_SMOKE_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <yajl/yajl_gen.h>

#include "replay/smoke.h"

/* A text table of devices and results, with a units column; -1 on a write error. */
int smoke_write_text(const struct smoke_report *rep, FILE *f);
/* The report as one JSON object into g (core/json.h's writer). */
void smoke_json(const struct smoke_report *rep, yajl_gen g);
/* The same written to f; -1 on a write error. */
int smoke_write_json(const struct smoke_report *rep, FILE *f, bool pretty);

#endif
