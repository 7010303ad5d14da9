/*
 * Fuzz target: any bytes as training log lines, straight to trainlog_reader
 * (ingest/trainlog.c), whatever the sniffer would make of them.
 */
#include "ingest/trainlog.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&trainlog_reader, data, size);
	return 0;
}
