/*
 * Fuzz target: any bytes, as a file, through sniffing and every reader that
 * claims them. Built by `make fuzz` with clang's libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/model.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/scaleaudit-fuzz-XXXXXX";
	int fd = mkstemp(path);
	struct trial *t;
	struct arena a = ARENA_INIT;
	struct ingest_file f;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	t = trial_new();
	ingest_file(t, trial_add_run(t, "fuzz", "."), path, &a, &f);
	trial_free(t);
	arena_release(&a);
	unlink(path);
	return 0;
}
