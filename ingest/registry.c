#include "ingest/registry.h"

#include <string.h>

#include "ingest/collect_env.h"
#include "ingest/gpumon.h"
#include "ingest/kineto.h"
#include "ingest/manifest.h"
#include "ingest/memtimeline.h"
#include "ingest/nccl_log.h"
#include "ingest/nccl_tests.h"
#include "ingest/nsys_csv.h"
#include "ingest/nsys_sqlite.h"
#include "ingest/nsys_stats.h"
#include "ingest/trainlog.h"

/* Readers of whole files, by the format name they declare. */
static const struct reader *const file_readers[] = {
	&kineto_reader,
	&memtimeline_reader,
	&nsys_sqlite_reader,
	&trial_ini_reader,
	&run_ini_reader,
	NULL
};

/* Readers of text lines; a log may feed several of them. */
const struct reader *const line_readers[] = {
	&nccl_log_reader,
	&nccl_tests_reader,
	&trainlog_reader,
	&gpumon_smi_csv_reader,
	&gpumon_rocm_csv_reader,
	&gpumon_dmon_reader,
	&gpumon_dcgmi_reader,
	&gpumon_topo_reader,
	&gpumon_table_reader,
	&collect_env_reader,
	&nsys_csv_reader,
	&nsys_stats_reader,
	NULL
};

const struct reader *reader_for(enum format f)
{
	const char *name = format_name(f);

	for (size_t i = 0; file_readers[i]; i++)
		if (!strcmp(file_readers[i]->name, name))
			return file_readers[i];
	return NULL;
}
