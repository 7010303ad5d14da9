/*
 * gunzip: one gzip member at a time, through ISA-L's igzip (HAVE_ISAL) or
 * zlib. Both check the member's header, its CRC-32 and its length, and stop
 * at its end, leaving what follows (another member, or garbage) untaken.
 */
#include "ingest/gunzip.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/xalloc.h"

#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

/* One call takes at most this much input or output (both libraries count in 32 bits). */
#define STEP_MAX ((size_t)UINT32_MAX)

static uint32_t clamp(size_t n)
{
	return (uint32_t)(n > STEP_MAX ? STEP_MAX : n);
}

#ifdef HAVE_ISAL

struct gunzip {
	struct inflate_state st;
	const char *error;
};

/* ISA-L's codes in zlib's words, so that a message reads the same from either build. */
static const struct {
	int code;
	const char *text;
} isal_errors[] = {
	{ ISAL_INVALID_BLOCK, "invalid block type" },
	{ ISAL_INVALID_SYMBOL, "invalid code" },
	{ ISAL_INVALID_LOOKBACK, "invalid distance too far back" },
	{ ISAL_INVALID_WRAPPER, "incorrect header check" },
	{ ISAL_UNSUPPORTED_METHOD, "unknown compression method" },
	{ ISAL_INCORRECT_CHECKSUM, "incorrect data check" },
	{ ISAL_NEED_DICT, "a preset dictionary is needed" },
};

struct gunzip *gunzip_new(void)
{
	struct gunzip *g = xmalloc(sizeof(*g));

	gunzip_reset(g);
	return g;
}

void gunzip_reset(struct gunzip *g)
{
	isal_inflate_init(&g->st);
	g->st.crc_flag = ISAL_GZIP;	/* parse the gzip header, check the trailer */
	g->error = NULL;
}

void gunzip_free(struct gunzip *g)
{
	free(g);
}

static const char *isal_error(int rc)
{
	for (size_t i = 0; i < sizeof(isal_errors) / sizeof(isal_errors[0]); i++)
		if (isal_errors[i].code == rc)
			return isal_errors[i].text;
	return "compressed data error";
}

enum gunzip_status gunzip_step(struct gunzip *g, const unsigned char *in, size_t n, size_t *used,
			       unsigned char *out, size_t cap, size_t *made)
{
	uint32_t avail_in = clamp(n), avail_out = clamp(cap);
	int rc;

	g->st.next_in = (uint8_t *)(uintptr_t)in;
	g->st.avail_in = avail_in;
	g->st.next_out = out;
	g->st.avail_out = avail_out;
	rc = isal_inflate(&g->st);
	*used = avail_in - g->st.avail_in;
	*made = avail_out - g->st.avail_out;
	if (rc < 0 || rc == ISAL_NEED_DICT) {
		g->error = isal_error(rc);
		return GUNZIP_ERROR;
	}
	return g->st.block_state == ISAL_BLOCK_FINISH ? GUNZIP_END : GUNZIP_MORE;
}

#else

struct gunzip {
	z_stream z;
	const char *error;
};

struct gunzip *gunzip_new(void)
{
	struct gunzip *g = xcalloc(1, sizeof(*g));

	if (inflateInit2(&g->z, 15 + 16) != Z_OK) {	/* 16: the gzip wrapper only */
		free(g);
		return NULL;
	}
	return g;
}

void gunzip_reset(struct gunzip *g)
{
	inflateReset(&g->z);
	g->error = NULL;
}

void gunzip_free(struct gunzip *g)
{
	if (!g)
		return;
	inflateEnd(&g->z);
	free(g);
}

enum gunzip_status gunzip_step(struct gunzip *g, const unsigned char *in, size_t n, size_t *used,
			       unsigned char *out, size_t cap, size_t *made)
{
	uint32_t avail_in = clamp(n), avail_out = clamp(cap);
	int rc;

	g->z.next_in = (unsigned char *)(uintptr_t)in;
	g->z.avail_in = avail_in;
	g->z.next_out = out;
	g->z.avail_out = avail_out;
	rc = inflate(&g->z, Z_NO_FLUSH);
	*used = avail_in - g->z.avail_in;
	*made = avail_out - g->z.avail_out;
	if (rc == Z_STREAM_END)
		return GUNZIP_END;
	if (rc == Z_OK || rc == Z_BUF_ERROR)
		return GUNZIP_MORE;
	g->error = g->z.msg ? g->z.msg : "compressed data error";
	return GUNZIP_ERROR;
}

#endif

const char *gunzip_error(const struct gunzip *g)
{
	return g->error ? g->error : "compressed data error";
}

size_t gunzip_head(const unsigned char *in, size_t n, unsigned char *out, size_t cap, bool *ended)
{
	struct gunzip *g = gunzip_new();
	enum gunzip_status st = GUNZIP_MORE;
	size_t took = 0, got = 0, used, made;

	*ended = false;
	if (!g)
		return 0;
	while (st == GUNZIP_MORE && got < cap) {
		st = gunzip_step(g, in + took, n - took, &used, out + got, cap - got, &made);
		took += used;
		got += made;
		if (!used && !made)
			break;	/* it wants input there is none of */
	}
	*ended = st == GUNZIP_END;
	gunzip_free(g);
	return got;
}
