/*
 * helper: the boilerplate of the fuzz targets (see fuzz.h).
 */
#include "tests/fuzz/fuzz.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/ingest.h"

#define FUZZ_MAX_READERS 16

/* The readers of one input, as ingest.c keeps them. */
struct fuzz_run {
	const struct reader *r[FUZZ_MAX_READERS];
	void *st[FUZZ_MAX_READERS];
	int failed[FUZZ_MAX_READERS];
	size_t n;
};

static void to_lines(void *arg, const char *line, size_t len, int64_t lineno)
{
	struct fuzz_run *fr = arg;

	for (size_t i = 0; i < fr->n; i++)
		if (!fr->failed[i] && fr->r[i]->line(fr->st[i], line, len, lineno) < 0)
			fr->failed[i] = 1;
}

static void feed_bytes(struct fuzz_run *fr, const uint8_t *data, size_t size)
{
	size_t half = size / 2;

	for (size_t i = 0; i < fr->n; i++)
		if (fr->r[i]->feed(fr->st[i], (const char *)data, half) == 0)
			fr->r[i]->feed(fr->st[i], (const char *)data + half, size - half);
}

static void feed_lines(struct fuzz_run *fr, struct ingest_ctx *ctx, const uint8_t *data,
		       size_t size)
{
	struct ingest_lines l;

	ingest_lines_init(&l, ctx->path, ctx->diags, to_lines, fr);
	ingest_lines_feed(&l, (const char *)data, size);
	ingest_lines_end(&l);
}

static void feed_path(struct fuzz_run *fr, const uint8_t *data, size_t size)
{
	char path[4096];

	if (fuzz_file(data, size, path, sizeof(path)) < 0)
		return;
	for (size_t i = 0; i < fr->n; i++)
		fr->r[i]->path(fr->st[i], path);
	fuzz_remove(path);
}

void fuzz_readers(const struct reader *const *rs, bool loose, const uint8_t *data, size_t size)
{
	struct trial *t = trial_new();
	struct arena a = ARENA_INIT;
	struct run *run = trial_add_run(t, "fuzz", "fuzz");
	struct ingest_ctx ctx = { .trial = t, .run = run, .path = "fuzz-input",
				  .diags = &t->diags, .arena = &a, .loose = loose };
	struct fuzz_run fr = { .n = 0 };

	ctx.info = info_root(&a);
	for (size_t i = 0; rs[i] && fr.n < FUZZ_MAX_READERS; i++) {
		void *st = rs[i]->open(&ctx);

		if (st) {
			fr.r[fr.n] = rs[i];
			fr.st[fr.n++] = st;
		}
	}
	if (fr.n) {
		ctx.src = run_add_source(run, ctx.path, fr.r[0]->name);
		if (fr.r[0]->input == READ_BYTES)
			feed_bytes(&fr, data, size);
		else if (fr.r[0]->input == READ_LINES)
			feed_lines(&fr, &ctx, data, size);
		else
			feed_path(&fr, data, size);
	}
	for (size_t i = 0; i < fr.n; i++) {
		fr.r[i]->finish(fr.st[i]);
		if (fr.r[i]->found)
			(void)fr.r[i]->found(fr.st[i]);
		fr.r[i]->free(fr.st[i]);
	}
	trial_free(t);
	arena_release(&a);
}

void fuzz_reader(const struct reader *r, const uint8_t *data, size_t size)
{
	const struct reader *rs[] = { r, NULL };

	fuzz_readers(rs, false, data, size);
}

int fuzz_dir(char *path, size_t n)
{
	const char *tmp = getenv("TMPDIR");
	int len = snprintf(path, n, "%s/scaleaudit-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");

	if (len < 0 || (size_t)len >= n || !mkdtemp(path))
		return -1;
	return 0;
}

int fuzz_file(const uint8_t *data, size_t size, char *path, size_t n)
{
	size_t len;
	int fd;
	ssize_t w = 0;

	if (fuzz_dir(path, n) < 0)
		return -1;
	len = strlen(path);
	if (len + sizeof("/input") > n) {
		rmdir(path);
		return -1;
	}
	memcpy(path + len, "/input", sizeof("/input"));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	for (size_t done = 0; fd >= 0 && done < size; done += (size_t)w) {
		w = write(fd, data + done, size - done);
		if (w <= 0)
			break;
	}
	if (fd < 0 || w < 0 || close(fd) < 0) {
		path[len] = '\0';
		fuzz_remove(path);
		return -1;
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

void fuzz_remove(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	/* a file made by fuzz_file() goes with its private directory */
	if (slash && !strcmp(slash, "/input") && (size_t)(slash - path) < sizeof(dir)) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
		path = dir;
	}
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

FILE *fuzz_null(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}
