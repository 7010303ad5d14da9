/*
 * analysis_json: the analysis.json format (docs/analysis.md, docs/analysis.schema.json), written from and read
 * back into a struct analysis. One table of fields drives both directions, so
 * a document read and written again comes out byte for byte the same, and a
 * report drawn from analysis.json alone equals the one drawn from the trial.
 *
 * Keys are stable: keys are added, never renamed or removed. Unknown values
 * are null. tool.format is the version of the layout: a reader refuses a
 * document without it (older than the keys the report needs) or newer than
 * ANALYSIS_JSON_FORMAT.
 */
#ifndef RENDER_ANALYSIS_JSON_H
#define RENDER_ANALYSIS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/result.h"
#include "core/diag.h"

#define ANALYSIS_JSON_FORMAT 1

struct jfield;

/* analysis.json's table of fields (core/jfields.h), for tests that walk it. */
const struct jfield *analysis_json_fields(void);

/* Writes the document to f, indented; -1 on a write error. */
int analysis_write_json(const struct analysis *a, FILE *f);

/*
 * Reads a document from len bytes of buf; name is the file named in
 * diagnostics. Returns a new analysis (free it with analysis_free()), or
 * NULL after adding exactly one DIAG_ERROR `name: byte N: message` to d:
 * not JSON, truncated, not a scaleaudit analysis, a tool.format it cannot
 * read, a key of the wrong type or an unknown enumerated value. Keys it
 * does not know are ignored; a missing key reads as null. The analysis holds
 * no pointer into buf.
 */
struct analysis *analysis_parse_json(const char *buf, size_t len, const char *name,
				     struct diags *d);
/* Reads the file at path (as analysis_parse_json(); a file it cannot read is one error too). */
struct analysis *analysis_read_json(const char *path, struct diags *d);
/*
 * True when buf (the head of a file) opens a JSON object whose first key is
 * "tool", as every analysis.json does; a trace or other JSON is not taken for one.
 */
bool analysis_json_sniff(const char *buf, size_t len);

#endif
