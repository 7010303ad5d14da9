/*
 * Fuzz target: any bytes through yajl and jsonscan (ingest/jsonscan.c) side
 * by side (tests/fuzz/jsondiff.h); a difference aborts. The first byte picks
 * the chunk size, a callback that cancels, the portable scanner and the
 * sparse callbacks; the rest is the JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "ingest/jsonfeed.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/jsondiff.h"

/* One parse's report: the callbacks as records (kind, here, length, bytes), then the end. */
struct report {
	char *trace;
	size_t n, cap;
	bool failed;
	char msg[160];
	int64_t error_byte;
	bool at_end;
};

/* yajl driven as jsonfeed drove it: the reference. */
struct ref {
	yajl_handle yh;
	int64_t chunk_base, last_ok, tok, error_byte;
	bool tok_sep, failed, at_end;
};

struct rec {
	struct report *r;
	struct ref *ref;	/* NULL: jsonfeed */
	struct jsonfeed *jf;
	int calls, cancel_at;
};

static int64_t rec_here(const struct rec *c)
{
	if (c->jf)
		return jsonfeed_here(c->jf);
	return c->ref->chunk_base + (int64_t)yajl_get_bytes_consumed(c->ref->yh);
}

static void put(struct report *r, const void *p, size_t n)
{
	if (r->n + n > r->cap) {
		r->cap = (r->n + n) * 2 + 256;
		r->trace = realloc(r->trace, r->cap);
		if (!r->trace)
			abort();
	}
	memcpy(r->trace + r->n, p, n);
	r->n += n;
}

static int event(void *ctx, char kind, const void *p, size_t n)
{
	struct rec *c = ctx;
	int64_t here = rec_here(c);
	uint64_t len = n;

	if (c->jf) {
		jsonfeed_mark(c->jf);
	} else {
		c->ref->last_ok = here;
		c->ref->tok = -1;
		c->ref->tok_sep = false;
	}
	put(c->r, &kind, 1);
	put(c->r, &here, sizeof(here));
	put(c->r, &len, sizeof(len));
	put(c->r, p, n);
	return ++c->calls != c->cancel_at;
}

static int on_null(void *ctx) { return event(ctx, 'n', "", 0); }
static int on_bool(void *ctx, int b) { return event(ctx, 'b', b ? "1" : "0", 1); }
static int on_number(void *ctx, const char *s, size_t n) { return event(ctx, '#', s, n); }
static int on_string(void *ctx, const unsigned char *s, size_t n) { return event(ctx, 's', s, n); }
static int on_key(void *ctx, const unsigned char *s, size_t n) { return event(ctx, 'k', s, n); }
static int on_start_map(void *ctx) { return event(ctx, '{', "", 0); }
static int on_end_map(void *ctx) { return event(ctx, '}', "", 0); }
static int on_start_array(void *ctx) { return event(ctx, '[', "", 0); }
static int on_end_array(void *ctx) { return event(ctx, ']', "", 0); }

static const yajl_callbacks full = {
	.yajl_null = on_null, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = on_end_map, .yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};
static const yajl_callbacks sparse = {
	.yajl_start_map = on_start_map, .yajl_map_key = on_key, .yajl_end_map = on_end_map,
	.yajl_start_array = on_start_array, .yajl_end_array = on_end_array,
};

/* The old jsonfeed's rule: the first byte after last_ok, blanks and one ':' or ','. */
static void ref_next_token(struct ref *f, const uint8_t *buf, size_t len)
{
	size_t i = f->last_ok > f->chunk_base ? (size_t)(f->last_ok - f->chunk_base) : 0;

	for (; f->tok < 0 && i < len; i++) {
		if (strchr(" \t\r\n", buf[i]) && buf[i])
			continue;
		if (!f->tok_sep && (buf[i] == ':' || buf[i] == ',')) {
			f->tok_sep = true;
			continue;
		}
		f->tok = f->chunk_base + (int64_t)i;
	}
}

static int ref_feed(struct ref *f, const uint8_t *buf, size_t len)
{
	yajl_status st = yajl_parse(f->yh, buf, len);

	ref_next_token(f, buf, len);
	if (st != yajl_status_ok) {
		f->failed = true;
		f->error_byte = f->tok >= 0 ? f->tok : f->chunk_base + (int64_t)len;
		return -1;
	}
	f->chunk_base += (int64_t)len;
	return 0;
}

static void ref_run(const uint8_t *data, size_t size, const struct jsondiff_opts *o,
		    struct report *r)
{
	struct ref f = { .tok = -1, .error_byte = -1 };
	struct rec c = { .r = r, .ref = &f, .cancel_at = o->cancel_at };
	size_t step = o->chunk ? o->chunk : size;

	f.yh = yajl_alloc(o->sparse ? &sparse : &full, NULL, &c);
	if (!f.yh)
		abort();
	yajl_config(f.yh, yajl_dont_validate_strings, 1);
	for (size_t off = 0; off < size && !f.failed; off += step)
		ref_feed(&f, data + off, size - off < step ? size - off : step);
	if (!f.failed && yajl_complete_parse(f.yh) != yajl_status_ok) {
		f.failed = f.at_end = true;
		f.error_byte = f.chunk_base;
	}
	r->failed = f.failed;
	r->error_byte = f.error_byte;
	r->at_end = f.at_end;
	if (f.failed) {
		unsigned char *msg = yajl_get_error(f.yh, 0, NULL, 0);
		size_t n = strlen((const char *)msg);

		while (n && strchr(" .\n", msg[n - 1]))
			n--;
		snprintf(r->msg, sizeof(r->msg), "%.*s", (int)n, (const char *)msg);
		yajl_free_error(f.yh, msg);
	}
	yajl_free(f.yh);
}

static void scan_run(const uint8_t *data, size_t size, const struct jsondiff_opts *o,
		     struct report *r)
{
	struct jsonfeed *jf = malloc(sizeof(*jf));
	struct rec c = { .r = r, .jf = jf, .cancel_at = o->cancel_at };
	size_t step = o->chunk ? o->chunk : size;

	if (!jf || jsonfeed_init(jf, o->sparse ? &sparse : &full, &c) < 0)
		abort();
	jf->js.portable |= o->portable;
	for (size_t off = 0; off < size && !jf->failed; off += step)
		jsonfeed_feed(jf, (const char *)data + off, size - off < step ? size - off : step);
	if (!jf->failed)
		jsonfeed_end(jf);
	r->failed = jf->failed;
	r->error_byte = jf->error_byte;
	r->at_end = jf->at_end;
	if (jf->failed) {
		char *msg = jsonfeed_message(jf);

		snprintf(r->msg, sizeof(r->msg), "%s", msg);
		free(msg);
	}
	jsonfeed_release(jf);
	free(jf);
}

/* The offset of the first record that differs in two traces. */
static size_t first_diff(const struct report *a, const struct report *b)
{
	size_t i = 0, rec = 0;

	while (i < a->n && i < b->n) {
		uint64_t len;
		size_t size = 1 + 8 + 8;

		if (i + size <= a->n) {
			memcpy(&len, a->trace + i + 9, sizeof(len));
			size += len;
		}
		if (i + size > a->n || i + size > b->n || memcmp(a->trace + i, b->trace + i, size))
			return rec;
		i += size;
		rec++;
	}
	return rec;
}

int jsondiff(const uint8_t *data, size_t size, const struct jsondiff_opts *o,
	     bool *failed, char *why, size_t n)
{
	struct report a = { 0 }, b = { 0 };
	int rc = 0;

	ref_run(data, size, o, &a);
	scan_run(data, size, o, &b);
	if (a.n != b.n || (a.n && memcmp(a.trace, b.trace, a.n))) {
		snprintf(why, n, "callback %zu differs (yajl %zu trace bytes, jsonscan %zu)",
			 first_diff(&a, &b), a.n, b.n);
		rc = -1;
	} else if (a.failed != b.failed || strcmp(a.msg, b.msg) ||
		   a.error_byte != b.error_byte || a.at_end != b.at_end) {
		snprintf(why, n, "yajl: %s '%s' at %lld%s; jsonscan: %s '%s' at %lld%s",
			 a.failed ? "failed" : "ok", a.msg, (long long)a.error_byte,
			 a.at_end ? " (end)" : "", b.failed ? "failed" : "ok", b.msg,
			 (long long)b.error_byte, b.at_end ? " (end)" : "");
		rc = -1;
	}
	if (failed)
		*failed = a.failed;
	free(a.trace);
	free(b.trace);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t chunks[8] = { 0, 1, 2, 3, 7, 16, 64, 4096 };
	struct jsondiff_opts o = { 0 };
	char why[512];

	if (size == 0)
		return 0;
	o.chunk = chunks[data[0] & 7];
	o.portable = data[0] & 8;
	o.sparse = data[0] & 16;
	o.cancel_at = (data[0] >> 5) == 7 ? 3 : 0;
	if (jsondiff(data + 1, size - 1, &o, NULL, why, sizeof(why)) < 0) {
		fprintf(stderr, "fuzz_jsonscan: %s\n", why);
		abort();
	}
	return 0;
}
