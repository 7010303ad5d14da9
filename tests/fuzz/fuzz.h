/*
 * fuzz: what every fuzz target of tests/fuzz/ shares. A target is one
 * fuzz_<name>.c that defines LLVMFuzzerTestOneInput() and calls these
 * helpers; it is linked either with clang's libFuzzer (`make fuzz`) or with
 * tests/fuzz/driver.c, a main() that runs each file named on its command line
 * once (the seed test of `make check`, with or without sanitizers).
 * Nothing here prints; every iteration frees and removes what it made.
 */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ingest/reader.h"

/* The entry point libFuzzer and the driver call: one input, then return 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Runs the readers rs (NULL-terminated, all of one input kind) on data as the
 * ingest layer runs them on one file of a run of a fresh trial: bytes in two
 * pieces cut at half, lines through the ingest line splitter, a file for the
 * READ_PATH ones; then finish, found and free. Routing by content (sniffing)
 * is skipped: each reader sees every input. loose: the file belongs to no
 * run (trial.ini's place), as ingest_ctx.loose says.
 */
void fuzz_readers(const struct reader *const *rs, bool loose, const uint8_t *data, size_t size);

/* fuzz_readers() for one reader. */
void fuzz_reader(const struct reader *r, const uint8_t *data, size_t size);

/*
 * Writes data to a new file in a private temporary directory and puts its
 * path in path (size n). Returns 0, or -1 (nothing is left behind). Remove
 * it with fuzz_remove().
 */
int fuzz_file(const uint8_t *data, size_t size, char *path, size_t n);

/* Makes a private temporary directory; its path goes to path (size n). 0 or -1. */
int fuzz_dir(char *path, size_t n);

/* Removes path and, when it is a directory, everything below it (links are not followed). */
void fuzz_remove(const char *path);

/* A stream open on /dev/null for writers to write to; opened once, never closed. */
FILE *fuzz_null(void);

#endif
