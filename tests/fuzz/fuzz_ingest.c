/*
 * Fuzz target: any bytes, as a file, through ingest_file(): sniffing and
 * every reader that claims them, the way `inspect` reads a file.
 */
#include "core/arena.h"
#include "core/model.h"
#include "ingest/ingest.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[4096];
	struct trial *t;
	struct arena a = ARENA_INIT;
	struct ingest_file f;

	if (fuzz_file(data, size, path, sizeof(path)) < 0)
		return 0;
	t = trial_new();
	ingest_file(t, trial_add_run(t, "fuzz", "."), path, &a, &f);
	trial_free(t);
	arena_release(&a);
	fuzz_remove(path);
	return 0;
}
