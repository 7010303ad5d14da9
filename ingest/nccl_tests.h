/*
 * nccl_tests: the reader of nccl-tests result tables (all_reduce_perf and
 * siblings) of every era, found in any text file: the 2018 "bytes N type op
 * ... res" header, the float "error" column, redop/root columns, #wrong as a
 * number or N/A, pastes that lost the leading '#', mpirun --tag-output
 * prefixes, and several tests one after the other in one file.
 *
 * A test starts at its command line (`./build/all_gather_perf ...`, which
 * names the op), its parameter line (`nThread 1 nGpus 2 ...`), its device
 * lines or its column header, and ends at its `# Avg bus bandwidth` footer.
 * Each data row goes to the run's nccl_tests array; `inspect` gets an
 * "nccl_tests" object:
 *
 *   ops             distinct ops named by the tests, in order ("all_reduce")
 *   rows            data rows of all tests
 *   avg_busbw_gbps  the footer's value when the file holds one test; null
 *                   when it holds several (see results) or none printed it
 *   max_busbw_gbps  largest busbw of any row, out-of-place or in-place
 *   gpus, devices   device lines of the test that listed the most
 *   nccl_version    from the nccl-library code, "compiled with NCCL X" or a
 *                   "NCCL version X" line of the same file
 *   nccl_tests_version, nccl_tests_commit, nccl_headers
 *                   the "# nccl-tests version 2.20.0 (b4d5bee)
 *                   nccl-headers=23102 ..." line (the first is also the
 *                   run's nccl_tests_version fact); null when not printed
 *   results         one object per test: op, gpus (its ranks: the device
 *                   lines, else nThread x nGpus, else null), nthread and
 *                   ngpus of its parameter line, dtype, rows,
 *                   avg_busbw_gbps, max_busbw_gbps, max_bytes
 *
 * Each row carries its test's rank count (nccl_test_row.nranks) so that
 * tables of different GPU counts are never mixed.
 */
#ifndef INGEST_NCCL_TESTS_H
#define INGEST_NCCL_TESTS_H

#include "ingest/reader.h"

extern const struct reader nccl_tests_reader;

#endif
