/*
 * Fuzz target: any bytes as a Kineto (PyTorch profiler) JSON trace, in two pieces, straight to kineto_reader
 * (ingest/kineto.c), whatever the sniffer would make of them.
 */
#include "ingest/kineto.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader(&kineto_reader, data, size);
	return 0;
}
