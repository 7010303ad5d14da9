/*
 * Fuzz target: any bytes as NCCL_DEBUG=INFO log lines, straight to nccl_log_reader
 * (ingest/nccl_log.c), whatever the sniffer would make of them.
 */
#include "ingest/nccl_log.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&nccl_log_reader, data, size);
	return 0;
}
