/*
 * Fuzz target: any bytes as a PyTorch memory timeline (JSON), in two pieces, straight to memtimeline_reader
 * (ingest/memtimeline.c), whatever the sniffer would make of them.
 */
#include "ingest/memtimeline.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&memtimeline_reader, data, size);
	return 0;
}
