/*
 * nsys_stats: the reader of Nsight Systems summary tables as `nsys profile
 * --stats=true` and `nsys stats` print them on the console, wherever they
 * stand in a text file (between a job's own lines, pasted in notes).
 *
 * A table is a header row, a rule of dashes under each column, then one row
 * per line up to a blank line. The report it belongs to comes from the line
 * that announces it (`Executing 'cuda_gpu_kern_sum' stats report`,
 * `** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):`, `Running [.../gpukernsum.py`),
 * else from its columns. Columns are found by header name, units by the
 * header's "(ns)", "(us)", "(MB)" ...; numbers may carry thousands separators;
 * the last column (Name, Operation, Range) is the rest of the line, spaces
 * and all, and may end in "..." (U+2026) where the report cut it.
 *
 * Read into the run (summed by name over the tables of the run):
 *   cuda_gpu_kern_sum (gpukernsum)          run->nsys_kernels, classed by kname
 *   cuda_gpu_mem_time_sum (gpumemtimesum)   run->nsys_memops: time and count
 *   cuda_gpu_mem_size_sum (gpumemsizesum)   run->nsys_memops: bytes
 *   nvtx_sum (nvtxsum, nvtxppsum)           run->nsys_nvtx
 *   cuda_api_sum, osrt_sum and others       counted in run->nsys_tables only
 * A table that ends before its first row, or a line inside a table that does
 * not fit its header (a row cut short), gets a `nsys-table` warning at its
 * line; the rows before it are kept.
 */
#ifndef INGEST_NSYS_STATS_H
#define INGEST_NSYS_STATS_H

#include "ingest/reader.h"

extern const struct reader nsys_stats_reader;

#endif
