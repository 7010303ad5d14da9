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
 *   cuda_gpu_kern_sum (gpukernsum),    summaries, through ingest/nsys_sum.c:
 *   cuda_gpu_mem_time_sum, _size_sum,  the run's nsys_* rows as the console
 *   nvtx_sum, cuda_api_sum, osrt_sum   tables give them; rows with a time
 *                                      also in ctx->info `summary`
 *                                      [{name, total_s, instances}]
 *
 * A summary's report is the one the `Processing [.../<report>.py]` line
 * before it names, else the one its columns fit. Both naming eras of the
 * columns are read ("Strm"/"Stream", "Instances"/"Count"/"Operations",
 * "Time (%)"/"Time(%)", ...).
 */
#ifndef INGEST_NSYS_CSV_H
#define INGEST_NSYS_CSV_H

#include "ingest/reader.h"

extern const struct reader nsys_csv_reader;

#endif
