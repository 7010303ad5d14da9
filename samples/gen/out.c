#include "samples/gen/out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "core/xalloc.h"

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "scaleaudit-gen: %s: %s\n", path, why);
	return -1;
}

int out_mkdirs(const char *path)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			rc = fail(p, strerror(errno));
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

static int write_all(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return fail(path, strerror(errno));
	if (len && fwrite(data, 1, len, f) != len) {
		fclose(f);
		return fail(path, strerror(errno));
	}
	if (fclose(f))
		return fail(path, strerror(errno));
	return 0;
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
