/*
 * jsonscan: a streaming JSON tokenizer for large traces that calls yajl's
 * callbacks (yajl_callbacks) exactly as a yajl 2.1 handle configured with
 * yajl_dont_validate_strings and otherwise yajl's defaults would.
 *
 * What it accepts is RFC 8259 JSON as yajl reads it: one value, blanks
 * (space, \t, \n, \r, and also \v and \f, as yajl) around it, no comments,
 * no trailing garbage, strings not checked for UTF-8. Numbers go to
 * yajl_number as their raw text (yajl_integer and yajl_double are never
 * called: a callbacks struct that sets one of them without yajl_number is
 * refused). Escapes decode as yajl decodes them: \uXXXX to UTF-8, a pair of
 * surrogates to one 4-byte sequence, a high surrogate not followed by \u to
 * '?', a lone low surrogate to its 3-byte form, \u0000 to a NUL byte. The
 * error texts are yajl's ("lexical error: ...", "parse error: ..."), with
 * the trailing period and newline yajl adds left off.
 *
 * The intended differences from yajl: nesting deeper than
 * JSONSCAN_MAX_DEPTH and a token (string with its quotes, number) longer
 * than max_token bytes are errors, where yajl grows without bound. The
 * input may be cut into chunks anywhere; a token cut across chunks is
 * carried in a buffer that grows only to the longest such token.
 */
#ifndef INGEST_JSONSCAN_H
#define INGEST_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

#define JSONSCAN_MAX_DEPTH 10000		/* open arrays and objects at most */
#define JSONSCAN_MAX_TOKEN ((size_t)64 << 20)	/* default max_token: 64 MiB */

struct jsonscan {
	const yajl_callbacks *cb;	/* the callbacks, any of them NULL */
	void *ctx;			/* passed to each */
	int64_t base;		/* input offset of the chunk being scanned */
	int64_t tok_end;	/* input offset just after the token being reported */
	size_t max_token;	/* longest token accepted (JSONSCAN_MAX_TOKEN) */
	bool portable;		/* scan strings without SIMD (tests set it) */
	bool failed;		/* broken: nothing more is scanned */
	const char *error;	/* the failure's text, NULL while none */
	uint8_t pend;		/* kind of the token cut at the chunk's end, 0 none */
	uint8_t psub;		/* where in that token the scan stopped */
	bool pesc;		/* that token (a string) has escapes */
	char *carry;		/* the bytes of that token so far */
	size_t ncarry, carry_cap;
	char *dec;		/* an escaped string, decoded */
	size_t dec_cap;
	int depth;		/* open arrays and objects */
	uint8_t state[JSONSCAN_MAX_DEPTH + 1];	/* the parse state at each depth */
};

/* 0, or -1 when cb sets yajl_integer or yajl_double but not yajl_number. */
int jsonscan_init(struct jsonscan *s, const yajl_callbacks *cb, void *ctx);
void jsonscan_release(struct jsonscan *s);
/*
 * Scans the next len bytes of the input, calling back for each token
 * completed; 0, or -1 once the JSON is broken or a callback returned 0
 * (failed and error set; later calls return -1 at once).
 */
int jsonscan_feed(struct jsonscan *s, const char *buf, size_t len);
/* The end of the input: 0, or -1 when broken or cut short ("parse error: premature EOF"). */
int jsonscan_end(struct jsonscan *s);
/* The input offset just after the token being reported (in a callback). */
static inline int64_t jsonscan_here(const struct jsonscan *s)
{
	return s->tok_end;
}

#endif
