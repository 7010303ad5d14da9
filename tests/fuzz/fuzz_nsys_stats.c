/*
 * Fuzz target: any bytes as nsys stats console tables, straight to nsys_stats_reader
 * (ingest/nsys_stats.c), whatever the sniffer would make of them.
 */
#include "ingest/nsys_stats.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&nsys_stats_reader, data, size);
	return 0;
}
