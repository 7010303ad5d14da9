/*
 * Fuzz target: the ingest stream (ingest/ingest.c) on gzip input, as a
 * Kineto trace usually comes (trace.json.gz). The first byte chooses: its
 * low bit set, the rest is gzip-compressed here first, so the readers see
 * the fuzzer's bytes through a valid member (and a second member when bit 1
 * is set too); clear, the rest goes in as stored, so damaged gzip headers,
 * members and trailers reach the inflater. Its upper bits pick the size of
 * the pieces the bytes are fed in (1 byte to 64 KiB), since the result must
 * not depend on where the input is cut.
 */
#include <stdlib.h>
#include <zlib.h>

#include "core/arena.h"
#include "core/model.h"
#include "ingest/ingest.h"
#include "tests/fuzz/fuzz.h"

/* Appends a gzip member of in[0..n) to out; returns its end, or out when zlib fails. */
static unsigned char *gzip_member(const uint8_t *in, size_t n, unsigned char *out, size_t room)
{
	z_stream z = { .zalloc = Z_NULL };
	unsigned char *end = out;

	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return out;
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)room;
	if (deflate(&z, Z_FINISH) == Z_STREAM_END)
		end = z.next_out;
	deflateEnd(&z);
	return end;
}

static void feed(struct ingest_stream *s, const unsigned char *p, size_t n, size_t piece)
{
	for (size_t off = 0; off < n; off += piece)
		if (ingest_stream_feed(s, p + off, n - off < piece ? n - off : piece))
			break;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trial *t;
	struct arena a = ARENA_INIT;
	struct ingest_stream *s;
	struct ingest_file f;
	unsigned char *gz = NULL, *end;
	size_t piece, room;

	if (!size)
		return 0;
	piece = (size_t)1 << ((data[0] >> 2) % 17);
	t = trial_new();
	s = ingest_stream_open(t, trial_add_run(t, "fuzz", "fuzz"), "fuzz.json.gz", -1, &a);
	if (data[0] & 1) {
		room = 2 * (compressBound((uLong)size) + 64);
		gz = malloc(room);
		end = gz ? gzip_member(data + 1, size - 1, gz, room / 2) : gz;
		if (end && (data[0] & 2))
			end = gzip_member(data + 1, (size - 1) / 2, end, room - (size_t)(end - gz));
		if (gz)
			feed(s, gz, (size_t)(end - gz), piece);
	} else {
		feed(s, data + 1, size - 1, piece);
	}
	ingest_stream_finish(s, &f);
	free(gz);
	trial_free(t);
	arena_release(&a);
	return 0;
}
