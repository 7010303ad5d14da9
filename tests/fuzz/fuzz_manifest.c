/*
 * Fuzz target: any bytes as an INI manifest, read as a trial.ini (a file of
 * no run) and as a run.ini (ingest/manifest.c, through inih).
 */
#include "ingest/manifest.h"
#include "tests/fuzz/fuzz.h"

static const struct reader *const trial_ini[] = { &trial_ini_reader, NULL };
static const struct reader *const run_ini[] = { &run_ini_reader, NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_readers(trial_ini, true, data, size);
	fuzz_readers(run_ini, false, data, size);
	return 0;
}
