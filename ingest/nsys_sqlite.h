/*
 * nsys_sqlite: the reader of Nsight Systems SQLite exports (`nsys export
 * --type sqlite`). It reads the CUPTI kernel, memcpy, memset and runtime
 * tables, NVTX ranges named like steps, and TARGET_INFO_GPU, into one rank
 * per GPU of the file (rank numbers unknown: an nsys file does not say).
 *
 * Times are nanoseconds of the session, made absolute with
 * TARGET_INFO_SESSION_START_TIME.utcEpochNs when the file has it. Each
 * GPU event's step is the NVTX step range holding its runtime launch.
 */
#ifndef INGEST_NSYS_SQLITE_H
#define INGEST_NSYS_SQLITE_H

#include <stddef.h>
#include <stdint.h>

#include "ingest/reader.h"

extern const struct reader nsys_sqlite_reader;

/*
 * The step number of an NVTX range's text: "ProfilerStep#12", "step 12",
 * "train_step_12", "Iteration 12" give 12 (case ignored); -1 for any
 * other text.
 */
int64_t nsys_step_number(const char *text);

/*
 * The budgets of one export, for tests: the most rows its queries may give
 * (MODEL_MAX_SQL_ROWS) and the most milliseconds they may run
 * (MODEL_MAX_SQL_SECONDS); past either the rest is not read, with a "limit"
 * error naming the file. A negative value sets that budget back to its
 * default; 0 ms interrupts the first query that runs long enough to be
 * checked (every 100000 SQLite instructions).
 */
void nsys_sqlite_set_budget(int64_t rows, int64_t ms);

#endif
