/*
 * nsys_csv: the reader of `nsys stats --format csv` reports, wherever they
 * stand in a text file (alone, after `Processing [...]` preamble lines, or
 * pasted in a log). It is a line reader: each line is split with libcsv,
 * a known header starts a table, and the table runs until a line that does
 * not fit it.
 *
 *   cuda_gpu_trace (gputrace)          a timeline: GPU events into one rank
 *                                      per device (times relative to the
 *                                      session, as the report gives them)
 *   cuda_gpu_kern_sum (gpukernsum),    summaries: ctx->info `summary`,
 *   cuda_gpu_mem_time_sum (gpumemtimesum)  [{name, total_s, instances}]
 *
 * Both naming eras of the columns are read ("Strm"/"Stream",
 * "Instances"/"Count"/"Operations", "Time (%)"/"Time(%)", ...).
 */
#ifndef INGEST_NSYS_CSV_H
#define INGEST_NSYS_CSV_H

#include "ingest/reader.h"

extern const struct reader nsys_csv_reader;

#endif
