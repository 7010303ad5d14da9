/*
 * jsonfeed: the JSON tokenizer (jsonscan, yajl's callbacks) fed by a
 * READ_BYTES reader, with the file positions its diagnostics name. An error
 * is placed at the first byte of the token after the last good one, so the
 * byte is the same wherever the input was cut into chunks.
 *
 * The reader's callbacks call jsonfeed_mark() at every token; memory is
 * the tokenizer's (through xmalloc: out of memory is fatal), released by
 * jsonfeed_release().
 */
#ifndef INGEST_JSONFEED_H
#define INGEST_JSONFEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ingest/jsonscan.h"

struct jsonfeed {
	struct jsonscan js;	/* the tokenizer */
	int64_t chunk_base;	/* file offset of the chunk being parsed */
	int64_t last_ok;	/* file offset just after the last token parsed */
	int64_t tok;		/* first byte of the token after it; -1 not seen yet */
	bool tok_sep;		/* a ':' or ',' was passed on the way to it */
	bool failed;		/* the JSON is broken: nothing more is parsed */
	int64_t error_byte;	/* where it broke; -1 while it has not */
	bool at_end;		/* it broke at the end of the input: cut short */
};

/* 0, or -1 when cb sets yajl_integer or yajl_double without yajl_number; callbacks get ctx. */
int jsonfeed_init(struct jsonfeed *j, const yajl_callbacks *cb, void *ctx);
void jsonfeed_release(struct jsonfeed *j);
/* The file offset just after the token being reported (in a callback). */
static inline int64_t jsonfeed_here(const struct jsonfeed *j)
{
	return jsonscan_here(&j->js);
}

/*
 * Notes that a token ended where the parser is now: call from every
 * callback (inline: it runs for every token of the input).
 */
static inline void jsonfeed_mark(struct jsonfeed *j)
{
	j->last_ok = jsonscan_here(&j->js);
	j->tok = -1;
	j->tok_sep = false;
}
/* Parses buf; 0, or -1 once the JSON is broken (failed and error_byte set). */
int jsonfeed_feed(struct jsonfeed *j, const char *buf, size_t len);
/* The end of the input: 0, or -1 when the JSON is broken or cut short (at_end). */
int jsonfeed_end(struct jsonfeed *j);
/* yajl's message for the failure, lowercase and without its trailing period: freed by the caller. */
char *jsonfeed_message(struct jsonfeed *j);

#endif
