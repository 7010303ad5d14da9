/*
 * codes: every code a diagnostic or a finding can carry (analysis.json
 * `findings[].code`), in one const table that says for each its severities,
 * who raises it, what it means and what to do. docs/codes.md is generated
 * from the table (codes_markdown), and diag_add checks against it in debug
 * builds, so a code that is not documented here cannot ship.
 */
#ifndef CORE_CODES_H
#define CORE_CODES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "core/diag.h"

/* The severities a code is raised with, as bits: some have more than one. */
enum code_severity {
	CODE_ERROR = 1 << DIAG_ERROR,
	CODE_WARNING = 1 << DIAG_WARNING,
	CODE_INFO = 1 << DIAG_INFO,
};

/* The stage that raises a code; also the sections of docs/codes.md. */
enum code_layer {
	CODE_INPUT,	/* reading the trial's files (every command) */
	CODE_ANALYSIS,	/* the analysis (analyze, report) */
	CODE_OUTPUT,	/* writing results (report) */
};

struct code_info {
	const char *code;	/* stable id, lowercase words joined by '-' */
	unsigned severity;	/* enum code_severity bits, never 0 */
	enum code_layer layer;
	const char *raised_by;	/* the reader or step that raises it, for a user */
	const char *meaning;	/* one or two sentences: what happened */
	const char *action;	/* what the user can do about it */
};

/* The entry of `code`, or NULL when no such code is documented. */
const struct code_info *codes_find(const char *code);

/* The whole table in documentation order (by layer, then by code); *n gets its length. */
const struct code_info *codes_all(size_t *n);

/* True when `code` is documented and may be raised with severity `sev`. */
bool codes_allow(const char *code, enum diag_severity sev);

/* "error", "warning, info", ...: the severities of a code, in enum order. */
void codes_severity_names(unsigned severity, struct buf *out);

/* Appends the Markdown of docs/codes.md, generated from the table. */
void codes_markdown(struct buf *out);

#endif
