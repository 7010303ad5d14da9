/*
 * Fuzz target: any bytes as a binary that may hold GPU code (ELF, fatbin,
 * cubin, HIP offload bundle), through codescan_bytes() (ingest/codescan.c).
 */
#include "core/diag.h"
#include "ingest/codescan.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct code_object o;
	struct diags d = DIAGS_INIT;

	codescan_bytes("fuzz-input", data, size, &o, &d);
	code_object_release(&o);
	diags_release(&d);
	return 0;
}
