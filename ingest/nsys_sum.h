/*
 * nsys_sum: what Nsight Systems summary reports say, in whichever form they
 * come (console tables: ingest/nsys_stats.c; `--format csv`: ingest/nsys_csv.c):
 * the report names of both eras, the column labels and their units, the line
 * that announces a report, and the rows of one file summed by name, then
 * added to the run's nsys_* arrays. Both readers fill the run through here,
 * so a report gives the same numbers in either form.
 */
#ifndef INGEST_NSYS_SUM_H
#define INGEST_NSYS_SUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/imap.h"
#include "core/model.h"
#include "ingest/reader.h"

/* What a table holds, by its report. */
enum nsys_kind {
	NSYS_KERN, NSYS_MEMTIME, NSYS_MEMSIZE, NSYS_NVTX, NSYS_API, NSYS_OSRT, NSYS_OTHER, NSYS_NONE
};

/* Columns read, whatever their header's wording; NSYS_SKIP: a column not read. */
enum nsys_col {
	NSYS_PCT, NSYS_TOTAL, NSYS_COUNT, NSYS_AVG, NSYS_MED, NSYS_BYTES, NSYS_MIN, NSYS_MAX,
	NSYS_STDDEV, NSYS_NAME, NSYS_STYLE, NSYS_NCOLS, NSYS_SKIP
};

/* The kind of a report name of either era ("cuda_gpu_kern_sum", "gpukernsum"); NSYS_OTHER if unknown. */
enum nsys_kind nsys_kind_of_report(const char *report);

/* The current report name of a kind, for a table no line announced. */
const char *nsys_kind_report(enum nsys_kind k);

/*
 * The column of one header cell [p, end) ("Total Time (ns)", "Avg (us)",
 * "Operation") and the factor that takes its values to ns or bytes: 1 when
 * the cell names no unit, NaN when it names one not known.
 */
void nsys_header_cell(const char *p, const char *end, enum nsys_col *col, double *scale);

/*
 * The kind a table's columns say when no line announced its report: the
 * last column must be the name, with a total time or total size column;
 * `by_operation`: the name column reads "Operation"; `instances`: the count
 * column reads "Instances". NSYS_NONE: no summary table.
 */
enum nsys_kind nsys_kind_of_columns(const enum nsys_col *cols, int ncols, bool by_operation,
				    bool instances);

/*
 * The report a line announces (`Executing 'cuda_gpu_kern_sum' stats report`,
 * `** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):`,
 * `Processing [x.sqlite] with [/.../gpukernsum.py]...`), interned in the
 * trial's strings; NULL when the line announces none.
 */
const char *nsys_title(struct ingest_ctx *ctx, const char *s, size_t len);

/* The rows of one file, summed by name: kernels, memory operations, NVTX ranges. */
struct nsys_sum {
	struct nsys_row *rows[3];
	size_t nrows[3], cap[3];
	struct imap index[3];	/* interned name (its address) -> row, so a row is found in O(1) */
	int64_t tables;		/* tables of every kind seen */
	int64_t cut_names;	/* names the report cut (ending in U+2026) */
	struct info *listed[2];	/* ctx->info `kernel_rows`, `memory_rows`; NULL until a row */
};

/*
 * Adds one row of a table of kind k: its name [name, name + len), and its values v[] by column
 * (NaN where absent), already in ns and bytes. Rows are summed by name for
 * the run; kernel and memory rows are also listed as the table gives them
 * in ctx->info (`kernel_rows`, `memory_rows`, file order, null where the
 * table has no such column). Tables of kinds not kept
 * (API, OS runtime, other) add nothing; their tables count in s->tables,
 * which the reader increments.
 */
void nsys_sum_add(struct nsys_sum *s, struct ingest_ctx *ctx, enum nsys_kind k, const char *name,
		  size_t len, const double v[NSYS_NCOLS]);

/*
 * When s holds a table: describes the file in ctx->info (`kernels`,
 * `kernel_instances`, `cut_names`, `gpu_time_s` by class, `memory_ops`,
 * `nvtx_ranges`), adds its rows to the run's (summed with those of earlier
 * files, in the trial's arena) and its tables to run->nsys_tables.
 */
void nsys_sum_finish(struct nsys_sum *s, struct ingest_ctx *ctx);

void nsys_sum_release(struct nsys_sum *s);

#endif
