/*
 * results_db: what a batch keeps of each trial. The per-trial result record
 * (DIR/<id>/batch.json: status, fingerprint, error) and DIR/results.sqlite,
 * one row per trial, run, GPU, confound and finding (docs/batch.md), written
 * one transaction per trial, with summary.csv and summary.json read from it.
 */
#ifndef RENDER_RESULTS_DB_H
#define RENDER_RESULTS_DB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/result.h"
#include "core/arena.h"
#include "core/diag.h"

/* The result record of one trial: what batch.json holds. */
struct batch_record {
	const char *id;			/* the trial's stable id: its directory under DIR */
	const char *source;		/* the PATH operand it was found under */
	const char *trial;		/* its location: a directory, or ARCHIVE/member path */
	const char *fingerprint;	/* of its inputs: unchanged inputs, unchanged fingerprint */
	const char *status;		/* "ok" | "error" */
	const char *error;		/* why it failed; when ok, the first problem with a file that
					   could not be read, or only in part; NULL: none */
	const char *analysed_at;	/* UTC, "2026-12-01T06:43:13Z" */
	/* why an error: "input" (the trial's own), or a circumstance of the run: "timeout",
	   "memory", "signal", "io", "start"; NULL when ok, or in a record of an earlier version */
	const char *failure;
	int64_t timeout_s;		/* the limits it ran under (0: none); -1: not recorded */
	int64_t memory_limit_mib;
};

/* Writes r as DIR/<id>/batch.json to f; -1 on a write error. */
int batch_record_write(const struct batch_record *r, FILE *f);
/*
 * Reads the batch.json at path into *r, its strings in arena a. Returns 0,
 * or -1 after one DIAG_ERROR `path: byte N: message` in d (not JSON, not a
 * record, a key of the wrong type, status neither ok nor error).
 */
int batch_record_read(const char *path, struct arena *a, struct batch_record *r, struct diags *d);

/* One row of the trials table, for the summaries (NULL, NaN and -1 where unknown). */
struct trial_row {
	const char *id, *source, *trial, *fingerprint, *status, *error;
	const char *title, *hypothesis, *verdict, *reason, *gpu_model, *precision, *confounds;
	double speedup, efficiency;
	double lost_s[4];	/* n x step_n - step_1 per step: compute, exposed comm, memory, idle */
	const char *analysed_at;
	/* comparison.decision: its line (render/decision_text.h), NULL without a comparison; */
	const char *decision;
	/* what it rents, NULL and -1 when nothing is rented or the value is unknown */
	const char *rent_gpu_model;
	int64_t rent_lots, rent_lot_gpus, rent_window_days, rent_windows;
	double days_needed, window_gpu_hours, window_cost;
	const char *failure;	/* batch_record's */
};

struct results_db;

/*
 * Opens (creating it and its tables as needed) the database at path, in
 * rollback-journal mode, so that after each commit the file alone is the
 * database. A trials table written by an earlier version gets the columns it
 * lacks (NULL in its rows), and every trial then counts as not current, so
 * that its row is put again from its folder. NULL after a diagnostic in d.
 */
struct results_db *results_db_open(const char *path, struct diags *d);
/* Closes db; NULL is allowed. */
void results_db_close(struct results_db *db);
/*
 * Replaces every row of trial r->id with r and, when a is not NULL, its
 * analysis: runs, GPUs, confounds, findings. One transaction: a killed
 * process leaves the trial's old rows or its new ones, never a mix.
 * 0, or -1 after a diagnostic in d.
 */
int results_db_put(struct results_db *db, const struct batch_record *r, const struct analysis *a,
		   struct diags *d);
/* True when the trials table holds r->id with r's fingerprint and analysed_at, and was not migrated. */
bool results_db_current(struct results_db *db, const struct batch_record *r);
/*
 * The trials table, ordered by id, into *rows (an array and strings in a);
 * returns the count, or -1 after a diagnostic in d.
 */
long results_db_trials(struct results_db *db, struct arena *a, struct trial_row **rows, struct diags *d);

/* summary.csv: a header, then one line per row, every field quoted by libcsv; -1 on a write error. */
int results_write_csv(const struct trial_row *rows, size_t n, FILE *f);
/* summary.json: {"trials": [...]} with the row's columns as keys; -1 on a write error. */
int results_write_json(const struct trial_row *rows, size_t n, FILE *f);

#endif
