/*
 * Fuzz target: any bytes as an archive (tar, zip, 7z, cpio..., compressed or
 * not) through ingest/arc.c: every member listed, the archives inside
 * archives opened in turn, and each file member read to its end under small
 * limits (1 MiB a member, 100x its compressed size past 64 KiB).
 */
#include <stdbool.h>

#include "ingest/arc.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_ARC_DEPTH 3

static void walk(struct arc *a, int depth)
{
	struct arc_entry e;
	char buf[8192];
	unsigned char head[512];
	ssize_t got;
	bool fatal;

	while (arc_next(a, &e) == 1) {
		if (!e.file || e.refused)
			continue;
		got = arc_read_head(a, head, sizeof(head));
		if (got > 0 && depth < FUZZ_ARC_DEPTH && arc_maybe(head, (size_t)got)) {
			struct arc *in = arc_open_member(a, e.name, head, (size_t)got);

			if (!arc_error(in))
				walk(in, depth + 1);
			(void)arc_why(in, &fatal);
			arc_close(in);
			continue;
		}
		while (got > 0)
			got = arc_read(a, buf, sizeof(buf));
	}
	(void)arc_error(a);
	(void)arc_failed_in(a);
	(void)arc_position(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct archive_limits lim = { .member_max = 1 << 20, .ratio_max = 100,
					    .ratio_floor = 64 << 10 };
	char path[4096];
	struct arc *a;

	if (fuzz_file(data, size, path, sizeof(path)) < 0)
		return 0;
	a = arc_open(path, &lim);
	if (!arc_error(a))
		walk(a, 0);
	arc_close(a);
	fuzz_remove(path);
	return 0;
}
