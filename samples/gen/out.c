#include "samples/gen/out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/outfile.h"
#include "core/xalloc.h"

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "scaleaudit-gen: %s: %s\n", path, why);
	return -1;
}

/* Prints what d holds as "scaleaudit-gen: PATH: reason" and frees it; returns rc. */
static int say(struct diags *d, int rc)
{
	struct buf line = BUF_INIT;

	for (size_t i = 0; i < d->count; i++) {
		buf_reset(&line);
		diag_format(&d->items[i], &line);
		fprintf(stderr, "scaleaudit-gen: %s\n", line.data);
	}
	buf_release(&line);
	diags_release(d);
	return rc;
}

int out_mkdirs(const char *path)
{
	struct diags d = { 0 };

	return say(&d, make_dirs_as("gen-write", path, &d));
}

struct bytes {
	const void *data;
	size_t len;
};

static int put_bytes(FILE *f, void *ctx)
{
	const struct bytes *b = ctx;

	return b->len && fwrite(b->data, 1, b->len, f) != b->len ? -1 : 0;
}

/* The file is written under a temporary name and renamed (core/outfile.h): never half-written, never through a link. */
static int write_all(const char *path, const void *data, size_t len)
{
	struct diags d = { 0 };
	struct bytes b = { data, len };

	return say(&d, write_atomic_as("gen-write", path, put_bytes, &b, &d));
}

int out_write(const char *path, const struct buf *b)
{
	return write_all(path, b->data, b->len);
}

int out_write_gz(const char *path, const struct buf *b)
{
	z_stream z;
	gz_header h;
	size_t cap;
	unsigned char *dst;
	int rc;

	memset(&z, 0, sizeof(z));
	memset(&h, 0, sizeof(h));
	h.os = 3;	/* Unix; time 0, no name, as a fixed header */
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return fail(path, "deflateInit2 failed");
	cap = deflateBound(&z, b->len) + 64;
	dst = xmalloc(cap);
	deflateSetHeader(&z, &h);
	z.next_in = (unsigned char *)b->data;
	z.avail_in = (uInt)b->len;
	z.next_out = dst;
	z.avail_out = (uInt)cap;
	rc = deflate(&z, Z_FINISH);
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(dst);
		return fail(path, "deflate failed");
	}
	rc = write_all(path, dst, cap - z.avail_out);
	free(dst);
	return rc;
}

char *out_path(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}
