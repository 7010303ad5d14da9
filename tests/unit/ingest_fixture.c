#include "tests/unit/ingest_fixture.h"

#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/buf.h"

void load_path(struct loaded *x, const char *path)
{
	x->t = trial_new();
	x->r = trial_add_run(x->t, "t", ".");
	x->a = (struct arena)ARENA_INIT;
	assert_int_equal(ingest_file(x->t, x->r, path, &x->a, &x->f), 0);
}

void unload(struct loaded *x)
{
	arena_release(&x->a);
	trial_free(x->t);
}

bool load_real(struct loaded *x, const char *rel)
{
	const char *shared = getenv("SHARED");
	char path[4096];

	if (!shared || !*shared)
		return false;
	snprintf(path, sizeof(path), "%s/realdata/%s", shared, rel);
	if (access(path, R_OK))
		return false;
	load_path(x, path);
	return true;
}

void load_bytes(struct loaded *x, const char *data, size_t n)
{
	char path[] = "/tmp/scaleaudit-test.XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	load_path(x, path);
	unlink(path);
}

void load_str(struct loaded *x, const char *s)
{
	load_bytes(x, s, strlen(s));
}

void load_chunks(struct loaded *x, const char *name, const char *bytes, size_t n, size_t chunk)
{
	struct ingest_stream *s;

	x->t = trial_new();
	x->r = trial_add_run(x->t, "t", ".");
	x->a = (struct arena)ARENA_INIT;
	s = ingest_stream_open(x->t, x->r, name, (int64_t)n, &x->a);
	for (size_t off = 0, k; off < n; off += k) {
		k = chunk && n - off > chunk ? chunk : n - off;
		if (ingest_stream_feed(s, bytes + off, k))
			break;
	}
	ingest_stream_finish(s, &x->f);
}

const struct info *info_object(const struct loaded *x, const char *key)
{
	const struct info *o = info_get(x->f.info, key);

	assert_non_null(o);
	assert_int_equal(o->type, INFO_OBJ);
	return o;
}

const char *get_str(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	if (v->type == INFO_NULL || (v->type == INFO_STR && !v->v.s))
		return NULL;
	assert_int_equal(v->type, INFO_STR);
	return v->v.s;
}

int64_t get_int(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	if (v->type == INFO_NULL)
		return -1;
	assert_int_equal(v->type, INFO_INT);
	return v->v.i;
}

double get_num(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	if (v->type == INFO_NULL)
		return NAN;
	if (v->type == INFO_INT)
		return (double)v->v.i;
	assert_int_equal(v->type, INFO_NUM);
	return v->v.d;
}

char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	struct buf b;
	char chunk[4096];
	size_t got;

	assert_non_null(f);
	buf_init(&b, 0);
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, got);
	assert_int_equal(ferror(f), 0);
	fclose(f);
	*n = b.len;
	return buf_detach(&b);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int remove_tree(const char *dir)
{
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
