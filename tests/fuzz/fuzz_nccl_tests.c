/*
 * Fuzz target: any bytes as an nccl-tests output table, straight to nccl_tests_reader
 * (ingest/nccl_tests.c), whatever the sniffer would make of them.
 */
#include "ingest/nccl_tests.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&nccl_tests_reader, data, size);
	return 0;
}
