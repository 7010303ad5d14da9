/*
 * Fuzz target: any bytes as monitor output (nvidia-smi and rocm-smi CSV,
 * nvidia-smi dmon, dcgmi dmon, nvidia-smi topo -m and tables), the lines
 * offered to all six readers of ingest/gpumon.c at once as a log's are.
 */
#include "ingest/gpumon.h"
#include "tests/fuzz/fuzz.h"

static const struct reader *const readers[] = {
	&gpumon_smi_csv_reader, &gpumon_rocm_csv_reader, &gpumon_dmon_reader,
	&gpumon_dcgmi_reader,   &gpumon_topo_reader,     &gpumon_table_reader,
	NULL
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_readers(readers, false, data, size);
	return 0;
}
