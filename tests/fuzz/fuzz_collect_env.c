/*
 * Fuzz target: any bytes as a torch.utils.collect_env report, straight to collect_env_reader
 * (ingest/collect_env.c), whatever the sniffer would make of them.
 */
#include "ingest/collect_env.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&collect_env_reader, data, size);
	return 0;
}
