/*
 * gpumon: readers of GPU monitor logs, the time series of what each card
 * held and did while the job ran. Each is a READ_LINES reader that is
 * offered every text file and claims only lines of its own shape:
 *
 *   nvidia-smi-csv    nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]
 *   rocm-smi-csv      rocm-smi --csv (device,GPU use (%),VRAM Total Memory (B),...)
 *   nvidia-smi-dmon   nvidia-smi dmon, old and new column sets, -o DT
 *   dcgmi-dmon        dcgmi dmon -e ... (#Entity / ID headers, "GPU N" rows)
 *   nvidia-smi-topo   nvidia-smi topo -m (the link between each pair of GPUs)
 *   nvidia-smi-table  the default nvidia-smi table (names, memory, driver, CUDA)
 *
 * Samples go to the run through run_add_gpu_sample() (memory in bytes, MiB
 * counted as 1048576 bytes; util in percent; power in watts; ts in ns since
 * the epoch, the log's local time read as UTC, or -1 when the log has none).
 * They are held by the reader until the end of the file and committed only
 * when the file proved to be of its format, so a stray look-alike line in a
 * training log adds nothing.
 *
 * Inspect keys: "gpus": [{"index", "name", "memory_total_bytes",
 * "memory_used_max_bytes", "samples", "util_gpu_max", "power_w_max"}] (merged
 * by index when several of these readers find GPUs in one file),
 * "topology": {"pairs": [{"a", "b", "link", "raw"}]}, "driver",
 * "cuda_version". A value the log does not hold is null.
 */
#ifndef INGEST_GPUMON_H
#define INGEST_GPUMON_H

#include "ingest/reader.h"

extern const struct reader gpumon_smi_csv_reader;
extern const struct reader gpumon_rocm_csv_reader;
extern const struct reader gpumon_dmon_reader;
extern const struct reader gpumon_dcgmi_reader;
extern const struct reader gpumon_topo_reader;
extern const struct reader gpumon_table_reader;

/*
 * Parses an nvidia-smi timestamp "YYYY/MM/DD HH:MM:SS[.fff]" (the whole of
 * s[0..n), surrounding blanks allowed) into ns since the epoch, reading the
 * wall-clock time as UTC. Returns false when s is not one.
 */
bool gpumon_parse_time(const char *s, size_t n, int64_t *ns);

#endif
