/*
 * diag: diagnostics about the user's inputs, kept in a list that the CLI
 * prints and the report lists as findings. A diagnostic names the file and,
 * where there is one, the position: `file:line:col: message` for text,
 * `file: byte N: message` for binary and JSON input.
 *
 * Repeated diagnostics of one code are capped (DIAG_CAP_PER_CODE); the rest
 * are counted in `suppressed` so that bad input never floods the output.
 */
#ifndef CORE_DIAG_H
#define CORE_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

enum diag_severity {
	DIAG_ERROR,	/* an input, or part of one, could not be used */
	DIAG_WARNING,	/* something was used but looks wrong, or was skipped */
	DIAG_INFO,	/* worth knowing */
};

struct srcpos {
	const char *file;	/* path as the user named it; NULL = none */
	int64_t line;		/* 1-based; 0 = none */
	int64_t col;		/* 1-based; 0 = none */
	int64_t byte;		/* 0-based offset for binary/JSON; -1 = none */
};

#define SRCPOS_NONE ((struct srcpos){ .file = NULL, .line = 0, .col = 0, .byte = -1 })
#define SRCPOS_FILE(f) ((struct srcpos){ .file = (f), .line = 0, .col = 0, .byte = -1 })
#define SRCPOS_LINE(f, l) ((struct srcpos){ .file = (f), .line = (l), .col = 0, .byte = -1 })
#define SRCPOS_BYTE(f, b) ((struct srcpos){ .file = (f), .line = 0, .col = 0, .byte = (b) })

struct diag {
	enum diag_severity severity;
	const char *code;	/* stable id from core/codes.h, e.g. "truncated"; static string */
	struct srcpos pos;	/* pos.file points at file */
	char *file;		/* owned copy of the path; NULL = none */
	char *message;		/* owned; lowercase, no trailing period */
};

#define DIAG_CAP_PER_CODE 20

struct diags {
	struct diag *items;
	size_t count;
	size_t cap;
	size_t suppressed;	/* diagnostics dropped by the per-code cap */
	size_t errors;		/* DIAG_ERROR seen, suppressed ones included */
	size_t warnings;	/* DIAG_WARNING seen, suppressed ones included */
};

#define DIAGS_INIT { .items = NULL }

/*
 * Records a diagnostic. `code` must be in the table of core/codes.h with this
 * severity (asserted in debug builds). Always returns -1, so a failure path is
 * one line.
 */
int diag_add(struct diags *d, enum diag_severity sev, const char *code,
	     const struct srcpos *pos, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int diag_error(struct diags *d, const char *code, const struct srcpos *pos,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int diag_warn(struct diags *d, const char *code, const struct srcpos *pos,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Appends "file:line:col: " (or "file: byte N: ", or "file: ") for pos. */
void srcpos_format(const struct srcpos *pos, struct buf *out);
/* Appends one line, without newline: position, "warning: " where it applies, message. */
void diag_format(const struct diag *d, struct buf *out);
/* Moves every diagnostic of src to the end of dst; src is left empty. */
void diags_move(struct diags *dst, struct diags *src);
/*
 * Adds src's diagnostics to the end of dst as if each had been recorded in
 * dst in turn: the per-code cap counts what dst holds already, so a list
 * kept apart (one file read by a worker thread) and merged afterwards ends
 * exactly as when it was recorded in dst. src is left empty.
 */
void diags_merge(struct diags *dst, struct diags *src);
void diags_release(struct diags *d);

const char *diag_severity_name(enum diag_severity sev);

#endif
