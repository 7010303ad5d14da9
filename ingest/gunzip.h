/*
 * gunzip: inflates one gzip member at a time, streaming, for the reading of
 * inputs (ingest.c). Built on ISA-L's igzip where the build found it (three
 * times zlib's speed on trace JSON), else on zlib: the same bytes come out
 * of both, and the same members are accepted.
 */
#ifndef INGEST_GUNZIP_H
#define INGEST_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>

struct gunzip;

enum gunzip_status {
	GUNZIP_MORE,		/* the member goes on: give it more input */
	GUNZIP_END,		/* the member ended (trailer checked) */
	GUNZIP_ERROR,		/* the data is corrupt: gunzip_error() says how */
};

/* A new inflater, ready for a member; NULL when out of memory. */
struct gunzip *gunzip_new(void);
/* Makes g ready for the next member. */
void gunzip_reset(struct gunzip *g);
void gunzip_free(struct gunzip *g);

/*
 * Inflates from in[0..n) into out[0..cap): *used is how much input it took,
 * *made how much output it wrote. Call again with the rest of the input (and
 * with none, while *made == cap) until it returns GUNZIP_END or GUNZIP_ERROR,
 * or takes nothing and makes nothing more: then it needs more input.
 */
enum gunzip_status gunzip_step(struct gunzip *g, const unsigned char *in, size_t n, size_t *used,
			       unsigned char *out, size_t cap, size_t *made);
/*
 * The first of a member's content, for sniffing a file by its head: inflates
 * in[0..n) (the first bytes of a gzip file) into out[0..cap) and returns how
 * much came out before the input, the room or the good data ran out.
 * *ended: the member ended within those bytes.
 */
size_t gunzip_head(const unsigned char *in, size_t n, unsigned char *out, size_t cap, bool *ended);
/* What was wrong, lowercase: "invalid block type"; valid after GUNZIP_ERROR. */
const char *gunzip_error(const struct gunzip *g);

#endif
