/*
 * Fuzz target: any bytes as an nsys SQLite export, written to a file, straight to nsys_sqlite_reader
 * (ingest/nsys_sqlite.c), whatever the sniffer would make of them.
 */
#include "ingest/nsys_sqlite.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&nsys_sqlite_reader, data, size);
	return 0;
}
