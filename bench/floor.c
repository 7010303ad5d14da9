/*
 * floor: the parse floor of the benchmark (not part of the tool).
 * Stream-parses one Kineto trace (plain JSON, or gzip found by its magic
 * bytes) with yajl and only counts the events (the objects directly inside
 * the top-level "traceEvents" array), reading with large reads; or, with
 * --inflate, only reads and inflates it and counts the bytes. Whatever
 * scaleaudit does per event comes on top of this. With --scan, the same
 * count with the tool's own tokenizer (ingest/jsonscan.c) in place of yajl:
 * the floor is yajl's, this shows what the tokenizer costs against it.
 *
 * usage: floor [--inflate | --scan] [--chunk BYTES] FILE
 * prints: events N bytes B seconds S   (N is -1 with --inflate; B counts
 * the uncompressed JSON; S is the wall time of the read, inflate and parse)
 * exit: 0 done, 1 unreadable or broken input, 2 usage error
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "ingest/jsonscan.h"

enum { CHUNK_DEFAULT = 1 << 20 };

/* Where the parser is: depth of open maps and arrays, and the depth of the
 * traceEvents array once it is open (0 while outside it). */
struct count {
	int depth;		/* maps and arrays open */
	int events_depth;	/* depth of the traceEvents array; 0 outside */
	bool key_is_events;	/* the last top-level key was "traceEvents" */
	int64_t events;		/* objects opened directly in traceEvents */
};

static int on_start_map(void *ctx)
{
	struct count *c = ctx;

	if (c->events_depth && c->depth == c->events_depth)
		c->events++;
	c->depth++;
	return 1;
}

static int on_end_map(void *ctx)
{
	struct count *c = ctx;

	c->depth--;
	return 1;
}

static int on_map_key(void *ctx, const unsigned char *key, size_t len)
{
	struct count *c = ctx;

	if (c->depth == 1)
		c->key_is_events = len == 11 && !memcmp(key, "traceEvents", 11);
	return 1;
}

static int on_start_array(void *ctx)
{
	struct count *c = ctx;

	c->depth++;
	if (c->depth == 2 && c->key_is_events)
		c->events_depth = c->depth;
	return 1;
}

static int on_end_array(void *ctx)
{
	struct count *c = ctx;

	if (c->depth == c->events_depth)
		c->events_depth = 0;
	c->depth--;
	return 1;
}

static const yajl_callbacks count_callbacks = {
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_map_key,
	.yajl_end_map = on_end_map,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

/* One input: the file, the optional inflater and the parser (NULL with --inflate). */
struct feed {
	const char *path;
	int fd;
	bool gz;
	z_stream z;
	yajl_handle yh;
	struct jsonscan *js;	/* --scan: the tokenizer in yajl's place */
	unsigned char *in, *out;
	size_t chunk;
	int64_t bytes;		/* uncompressed bytes passed on */
};

static int parse(struct feed *f, const unsigned char *buf, size_t len)
{
	f->bytes += (int64_t)len;
	if (f->js) {
		if (jsonscan_feed(f->js, (const char *)buf, len) == 0)
			return 0;
		fprintf(stderr, "floor: %s: %s\n", f->path, f->js->error);
		return -1;
	}
	if (!f->yh || yajl_parse(f->yh, buf, len) == yajl_status_ok)
		return 0;
	unsigned char *msg = yajl_get_error(f->yh, 0, buf, len);
	fprintf(stderr, "floor: %s: %s\n", f->path, (const char *)msg);
	yajl_free_error(f->yh, msg);
	return -1;
}

/* Inflates one read's bytes, gzip members one after the other. */
static int inflate_chunk(struct feed *f, size_t len)
{
	f->z.next_in = f->in;
	f->z.avail_in = (uInt)len;
	while (f->z.avail_in) {
		f->z.next_out = f->out;
		f->z.avail_out = (uInt)f->chunk;
		int rc = inflate(&f->z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
			fprintf(stderr, "floor: %s: inflate: %s\n", f->path,
				f->z.msg ? f->z.msg : "broken gzip");
			return -1;
		}
		size_t got = f->chunk - f->z.avail_out;
		if (rc == Z_BUF_ERROR && !got) {
			fprintf(stderr, "floor: %s: inflate makes no progress\n", f->path);
			return -1;
		}
		if (parse(f, f->out, got))
			return -1;
		if (rc == Z_STREAM_END && inflateReset(&f->z) != Z_OK)
			return -1;
	}
	return 0;
}

static int run(struct feed *f)
{
	for (;;) {
		ssize_t n = read(f->fd, f->in, f->chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "floor: %s: %s\n", f->path, strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		if (f->gz ? inflate_chunk(f, (size_t)n) : parse(f, f->in, (size_t)n))
			return -1;
	}
	if ((f->yh && yajl_complete_parse(f->yh) != yajl_status_ok) ||
	    (f->js && jsonscan_end(f->js) < 0)) {
		fprintf(stderr, "floor: %s: the JSON is cut short or broken\n", f->path);
		return -1;
	}
	return 0;
}

static bool is_gzip(int fd)
{
	unsigned char magic[2];
	bool gz = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	return gz;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(void)
{
	fprintf(stderr, "usage: floor [--inflate | --scan] [--chunk BYTES] FILE\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct count c = { 0 };
	struct feed f = { .chunk = CHUNK_DEFAULT, .fd = -1 };
	bool parse_json = true, scan = false;
	int i = 1;

	for (; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--inflate"))
			parse_json = false;
		else if (!strcmp(argv[i], "--scan"))
			scan = true;
		else if (!strcmp(argv[i], "--chunk") && i + 2 < argc)
			f.chunk = strtoul(argv[++i], NULL, 0);
		else
			return usage();
	}
	if (i != argc - 1 || f.chunk == 0 || f.chunk > (1u << 30) || (scan && !parse_json))
		return usage();
	f.path = argv[i];
	f.fd = open(f.path, O_RDONLY);
	if (f.fd < 0) {
		fprintf(stderr, "floor: %s: %s\n", f.path, strerror(errno));
		return 1;
	}
	f.gz = is_gzip(f.fd);
	f.in = malloc(f.chunk);
	f.out = malloc(f.chunk);
	if (!f.in || !f.out || (f.gz && inflateInit2(&f.z, 15 + 16) != Z_OK))
		return 1;
	if (scan && (!(f.js = malloc(sizeof(*f.js))) || jsonscan_init(f.js, &count_callbacks, &c)))
		return 1;
	if (parse_json && !scan && !(f.yh = yajl_alloc(&count_callbacks, NULL, &c)))
		return 1;

	double t0 = now();
	int rc = run(&f);
	double secs = now() - t0;

	if (!rc)
		printf("events %lld bytes %lld seconds %.3f\n",
		       parse_json ? (long long)c.events : -1LL, (long long)f.bytes, secs);
	if (f.yh)
		yajl_free(f.yh);
	if (f.js)
		jsonscan_release(f.js);
	free(f.js);
	if (f.gz)
		inflateEnd(&f.z);
	free(f.in);
	free(f.out);
	close(f.fd);
	return rc ? 1 : 0;
}
