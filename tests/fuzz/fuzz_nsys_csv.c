/*
 * Fuzz target: any bytes as nsys CSV lines, straight to nsys_csv_reader
 * (ingest/nsys_csv.c), whatever the sniffer would make of them.
 */
#include "ingest/nsys_csv.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&nsys_csv_reader, data, size);
	return 0;
}
