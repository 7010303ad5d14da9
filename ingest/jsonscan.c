#include "ingest/jsonscan.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/xalloc.h"

/* The parse state at one depth: yajl's states, without its error states (failed). */
enum {
	S_START, S_DONE, S_MAP_START, S_MAP_NEED_KEY, S_MAP_SEP, S_MAP_NEED_VAL,
	S_MAP_GOT_VAL, S_ARR_START, S_ARR_NEED_VAL, S_ARR_GOT_VAL,
};

/* What the lexer found; T_EOF: the input ended inside the token (or before one). */
enum {
	T_EOF, T_ERROR, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COMMA, T_COLON,
	T_STR, T_STR_ESC, T_NUM, T_TRUE, T_FALSE, T_NULL,
};

/* The kind of a token cut at a chunk's end (pend); literals keep their T_ value. */
enum { P_NONE, P_STR = T_STR, P_NUM = T_NUM };

/* Where a number's scan stopped (psub). */
enum { N_START, N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

/* A string's sub-state (psub): plain, after '\', or after "\u" and 0-3 hex digits. */
enum { Q_PLAIN, Q_ESC, Q_HEX0 };

/* The texts yajl gives (yajl_get_error, not verbose), less the trailing ".\n". */
static const char E_CHAR[] = "lexical error: invalid char in json text";
static const char E_LITERAL[] = "lexical error: invalid string in json text";
static const char E_COMMENT[] =
	"lexical error: probable comment found in input text, comments are not enabled";
static const char E_MINUS[] =
	"lexical error: malformed number, a digit is required after the minus sign";
static const char E_DECIMAL[] =
	"lexical error: malformed number, a digit is required after the decimal point";
static const char E_EXPONENT[] =
	"lexical error: malformed number, a digit is required after the exponent";
static const char E_STRCHAR[] = "lexical error: invalid character inside string";
static const char E_ESCAPE[] =
	"lexical error: inside a string, '\\' occurs before a character which it may not";
static const char E_HEX[] =
	"lexical error: invalid (non-hex) character occurs after '\\u' inside string";
static const char E_TOO_LONG[] = "lexical error: token longer than the limit";
static const char E_EOF[] = "parse error: premature EOF";
static const char E_GARBAGE[] = "parse error: trailing garbage";
static const char E_UNALLOWED[] = "parse error: unallowed token at this point in JSON text";
static const char E_KEY[] = "parse error: invalid object key (must be a string)";
static const char E_COLON[] =
	"parse error: object key and value must be separated by a colon (':')";
static const char E_MAP_NEXT[] =
	"parse error: after key and value, inside map, I expect ',' or '}'";
static const char E_ARRAY_NEXT[] = "parse error: after array element, I expect ',' or ']'";
static const char E_CANCELLED[] = "parse error: client cancelled parse via callback return value";
static const char E_DEPTH[] = "parse error: nesting deeper than 10000 arrays and objects";

/* Character classes. */
enum { C_WS = 1, C_STR = 2, C_HEX = 4, C_ESC = 8, C_DIGIT = 16 };

#define RANGE4(a) [a] = C_HEX | C_DIGIT, [a + 1] = C_HEX | C_DIGIT, \
	[a + 2] = C_HEX | C_DIGIT, [a + 3] = C_HEX | C_DIGIT
static const uint8_t cls[256] = {
	[0x00] = C_STR, [0x01] = C_STR, [0x02] = C_STR, [0x03] = C_STR,
	[0x04] = C_STR, [0x05] = C_STR, [0x06] = C_STR, [0x07] = C_STR,
	[0x08] = C_STR, [0x09] = C_STR | C_WS, [0x0a] = C_STR | C_WS, [0x0b] = C_STR | C_WS,
	[0x0c] = C_STR | C_WS, [0x0d] = C_STR | C_WS, [0x0e] = C_STR, [0x0f] = C_STR,
	[0x10] = C_STR, [0x11] = C_STR, [0x12] = C_STR, [0x13] = C_STR,
	[0x14] = C_STR, [0x15] = C_STR, [0x16] = C_STR, [0x17] = C_STR,
	[0x18] = C_STR, [0x19] = C_STR, [0x1a] = C_STR, [0x1b] = C_STR,
	[0x1c] = C_STR, [0x1d] = C_STR, [0x1e] = C_STR, [0x1f] = C_STR,
	[' '] = C_WS, ['"'] = C_STR | C_ESC, ['\\'] = C_STR | C_ESC, ['/'] = C_ESC,
	RANGE4('0'), RANGE4('4'), ['8'] = C_HEX | C_DIGIT, ['9'] = C_HEX | C_DIGIT,
	['A'] = C_HEX, ['B'] = C_HEX, ['C'] = C_HEX, ['D'] = C_HEX, ['E'] = C_HEX, ['F'] = C_HEX,
	['a'] = C_HEX, ['b'] = C_HEX | C_ESC, ['c'] = C_HEX, ['d'] = C_HEX, ['e'] = C_HEX,
	['f'] = C_HEX | C_ESC, ['n'] = C_ESC, ['r'] = C_ESC, ['t'] = C_ESC,
};
#undef RANGE4

/* What an escape other than \u stands for. */
static const char unescaped[256] = {
	['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f',
	['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

static const char *const literal[] = { [T_TRUE] = "true", [T_FALSE] = "false", [T_NULL] = "null" };

int jsonscan_init(struct jsonscan *s, const yajl_callbacks *cb, void *ctx)
{
	memset(s, 0, offsetof(struct jsonscan, state));
	s->state[0] = S_START;
	s->cb = cb;
	s->ctx = ctx;
	s->max_token = JSONSCAN_MAX_TOKEN;
#ifndef __SSE2__
	s->portable = true;
#endif
	return !cb->yajl_number && (cb->yajl_integer || cb->yajl_double) ? -1 : 0;
}

void jsonscan_release(struct jsonscan *s)
{
	free(s->carry);
	free(s->dec);
	s->carry = s->dec = NULL;
	s->ncarry = s->carry_cap = s->dec_cap = 0;
}

static int fail(struct jsonscan *s, const char *error)
{
	s->failed = true;
	s->error = error;
	return -1;
}

/* ---- the lexer ---- */

static const uint8_t *span_portable(const uint8_t *p, const uint8_t *end)
{
	while (p < end && !(cls[*p] & C_STR))
		p++;
	return p;
}

#ifdef __SSE2__
/* The first '"', '\' or control byte from p, or end: 16 bytes at a time. */
static const uint8_t *span_sse2(const uint8_t *p, const uint8_t *end)
{
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);

	for (; end - p >= 16; p += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i hit = _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash));
		int bits;

		hit = _mm_or_si128(hit, _mm_cmpeq_epi8(_mm_min_epu8(x, ctl), x));
		bits = _mm_movemask_epi8(hit);
		if (bits)
			return p + __builtin_ctz((unsigned)bits);
	}
	return span_portable(p, end);
}

/* The first byte from p that is not a blank, or end. */
static const uint8_t *skip_sse2(const uint8_t *p, const uint8_t *end)
{
	const __m128i sp = _mm_set1_epi8(' '), lo = _mm_set1_epi8(0x09), hi = _mm_set1_epi8(0x0d);

	for (; end - p >= 16; p += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i in_range = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(x, lo), x),
						 _mm_cmpeq_epi8(_mm_min_epu8(x, hi), x));
		int bits = _mm_movemask_epi8(_mm_or_si128(in_range, _mm_cmpeq_epi8(x, sp)));

		if (bits != 0xffff)
			return p + __builtin_ctz((unsigned)~bits);
	}
	while (p < end && (cls[*p] & C_WS))
		p++;
	return p;
}
#endif

static const uint8_t *span(const struct jsonscan *s, const uint8_t *p, const uint8_t *end)
{
#ifdef __SSE2__
	if (!s->portable)
		return span_sse2(p, end);
#endif
	(void)s;
	return span_portable(p, end);
}

/* Blanks are skipped byte by byte up to 4, then in bulk (indentation). */
static const uint8_t *skip_blanks(const struct jsonscan *s, const uint8_t *p, const uint8_t *end)
{
	for (int i = 0; i < 4; i++, p++)
		if (p == end || !(cls[*p] & C_WS))
			return p;
#ifdef __SSE2__
	if (!s->portable)
		return skip_sse2(p, end);
#endif
	(void)s;
	while (p < end && (cls[*p] & C_WS))
		p++;
	return p;
}

/* A string from *pp (after its opening quote) in sub-state *sub: T_STR, T_STR_ESC, T_EOF or T_ERROR. */
static int lex_string(struct jsonscan *s, const uint8_t **pp, const uint8_t *end,
		      uint8_t *sub, bool *esc)
{
	const uint8_t *p = *pp;
	uint8_t st = *sub;

	for (;;) {
		if (st == Q_PLAIN) {
			p = span(s, p, end);
			if (p == end)
				break;
			if (*p == '"') {
				*pp = p + 1;
				return *esc ? T_STR_ESC : T_STR;
			}
			if (*p++ != '\\')
				return fail(s, E_STRCHAR), T_ERROR;
			*esc = true;
			st = Q_ESC;
			continue;
		}
		if (p == end)
			break;
		if (st == Q_ESC && *p == 'u')
			st = Q_HEX0;
		else if (st == Q_ESC && (cls[*p] & C_ESC))
			st = Q_PLAIN;
		else if (st == Q_ESC)
			return fail(s, E_ESCAPE), T_ERROR;
		else if (!(cls[*p] & C_HEX))
			return fail(s, E_HEX), T_ERROR;
		else
			st = st == Q_HEX0 + 3 ? Q_PLAIN : st + 1;
		p++;
	}
	*pp = end;
	*sub = st;
	return T_EOF;
}

static const uint8_t *digits(const uint8_t *p, const uint8_t *end)
{
	while (p < end && (cls[*p] & C_DIGIT))
		p++;
	return p;
}

/*
 * A number from *pp in sub-state *sub: T_NUM (*pp at the byte after it),
 * T_EOF (a number is known to end only at the byte after it) or T_ERROR.
 */
static int lex_number(struct jsonscan *s, const uint8_t **pp, const uint8_t *end, uint8_t *sub)
{
	const uint8_t *p = *pp;
	uint8_t st = *sub;

	for (; p < end; p++) {
		bool digit = cls[*p] & C_DIGIT;

		switch (st) {
		case N_START:
			st = *p == '-' ? N_MINUS : *p == '0' ? N_ZERO : N_INT;
			continue;
		case N_MINUS:
			if (!digit)
				return fail(s, E_MINUS), T_ERROR;
			st = *p == '0' ? N_ZERO : N_INT;
			continue;
		case N_INT:
		case N_FRAC:
		case N_EXP:
			p = digits(p, end);
			if (p == end || st == N_EXP)
				break;
			/* fall through */
		case N_ZERO:
			if (*p == '.' && st != N_FRAC) {
				st = N_DOT;
				continue;
			}
			if (*p == 'e' || *p == 'E') {
				st = N_E;
				continue;
			}
			break;
		case N_DOT:
			if (!digit)
				return fail(s, E_DECIMAL), T_ERROR;
			st = N_FRAC;
			continue;
		case N_E:
			if (*p == '+' || *p == '-') {
				st = N_ESIGN;
				continue;
			}
			/* fall through */
		case N_ESIGN:
			if (!digit)
				return fail(s, E_EXPONENT), T_ERROR;
			st = N_EXP;
			continue;
		}
		if (p == end)
			break;
		*pp = p;
		return T_NUM;
	}
	*pp = end;
	*sub = st;
	return T_EOF;
}

/*
 * A whole number from *pp that ends before end, in one pass: T_NUM, or
 * T_EOF when lex_number() must decide (an error, or the number reaches end).
 */
static int number_whole(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp + (**pp == '-'), *q;

	if (p < end && *p == '0')
		p++;
	else if ((q = digits(p, end)) != p)
		p = q;
	else
		return T_EOF;
	if (p < end && *p == '.') {
		if ((q = digits(p + 1, end)) == p + 1)
			return T_EOF;
		p = q;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p += p + 1 < end && (p[1] == '+' || p[1] == '-') ? 2 : 1;
		if ((q = digits(p, end)) == p)
			return T_EOF;
		p = q;
	}
	if (p >= end)
		return T_EOF;
	*pp = p;
	return T_NUM;
}

/* The rest of true, false or null from *pp, *sub of its bytes matched. */
static int lex_literal(struct jsonscan *s, const uint8_t **pp, const uint8_t *end,
		       int kind, uint8_t *sub)
{
	const char *want = literal[kind];
	const uint8_t *p = *pp;

	for (; want[*sub]; (*sub)++, p++) {
		if (p == end) {
			*pp = p;
			return T_EOF;
		}
		if (*p != (uint8_t)want[*sub])
			return fail(s, E_LITERAL), T_ERROR;
	}
	*pp = p;
	return kind;
}

/* Carries on with a token of kind pend, cut at a chunk's end. */
static int lex_more(struct jsonscan *s, int kind, const uint8_t **pp, const uint8_t *end,
		    uint8_t *sub, bool *esc)
{
	if (kind == P_STR)
		return lex_string(s, pp, end, sub, esc);
	if (kind == P_NUM)
		return lex_number(s, pp, end, sub);
	return lex_literal(s, pp, end, kind, sub);
}

/* The token at *pp (not a blank); a token cut at end leaves its kind and state in *kind, *sub. */
static int lex(struct jsonscan *s, const uint8_t **pp, const uint8_t *end,
	       int *kind, uint8_t *sub, bool *esc)
{
	const uint8_t *p = *pp;

	*sub = 0;
	*esc = false;
	switch (*p) {
	case '{': *pp = p + 1; return T_LBRACE;
	case '}': *pp = p + 1; return T_RBRACE;
	case '[': *pp = p + 1; return T_LBRACK;
	case ']': *pp = p + 1; return T_RBRACK;
	case ',': *pp = p + 1; return T_COMMA;
	case ':': *pp = p + 1; return T_COLON;
	case '"':
		*kind = P_STR;
		*pp = p + 1;
		return lex_string(s, pp, end, sub, esc);
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		*kind = P_NUM;
		if (number_whole(pp, end) == T_NUM)
			return T_NUM;
		return lex_number(s, pp, end, sub);
	case 't': *kind = T_TRUE; break;
	case 'f': *kind = T_FALSE; break;
	case 'n': *kind = T_NULL; break;
	case '/': return fail(s, E_COMMENT), T_ERROR;
	default: return fail(s, E_CHAR), T_ERROR;
	}
	*sub = 1;
	*pp = p + 1;
	return lex_literal(s, pp, end, *kind, sub);
}

/* ---- strings ---- */

static uint32_t hex4(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		uint8_t c = p[i];

		v = v << 4 | (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/*
 * The body [p, z) of a string the lexer passed, escapes decoded as yajl
 * does: a high surrogate takes the \u that follows it whatever it holds,
 * and stands alone as '?'. Never longer than the body.
 */
static size_t decode(struct jsonscan *s, const uint8_t *p, const uint8_t *z)
{
	char *o;

	if (s->dec_cap < (size_t)(z - p)) {
		s->dec_cap = (size_t)(z - p) * 2;
		s->dec = xrealloc(s->dec, s->dec_cap);
	}
	o = s->dec;
	while (p < z) {
		const uint8_t *bs = memchr(p, '\\', (size_t)(z - p));
		uint32_t cp;

		if (!bs)
			bs = z;
		memcpy(o, p, (size_t)(bs - p));
		o += bs - p;
		if (bs == z)
			break;
		p = bs + 2;
		if (bs[1] != 'u') {
			*o++ = unescaped[bs[1]];
			continue;
		}
		cp = hex4(p);
		p += 4;
		if ((cp & 0xfc00) == 0xd800 && z - p >= 2 && p[0] == '\\' && p[1] == 'u') {
			cp = 0x10000 + ((cp & 0x3ff) << 10) + (hex4(p + 2) & 0x3ff);
			p += 6;
		} else if ((cp & 0xfc00) == 0xd800) {
			*o++ = '?';
			continue;
		}
		o = put_utf8(o, cp);
	}
	return (size_t)(o - s->dec);
}

/* ---- the parser ---- */

static int cancelled(struct jsonscan *s)
{
	return fail(s, E_CANCELLED);
}

static int close_container(struct jsonscan *s, int (*end_cb)(void *))
{
	if (end_cb && !end_cb(s->ctx))
		return cancelled(s);
	s->depth--;
	return 0;
}

static int open_container(struct jsonscan *s, int (*start_cb)(void *))
{
	if (s->depth == JSONSCAN_MAX_DEPTH)
		return fail(s, E_DEPTH);
	return start_cb && !start_cb(s->ctx) ? cancelled(s) : 0;
}

/* A string token [a, z) with its quotes: its body to cb, decoded when it has escapes. */
static int string_cb(struct jsonscan *s, int t, const uint8_t *a, const uint8_t *z,
		     int (*cb)(void *, const unsigned char *, size_t))
{
	if (!cb)
		return 0;
	if (t == T_STR)
		return cb(s->ctx, a + 1, (size_t)(z - a - 2)) ? 0 : cancelled(s);
	size_t n = decode(s, a + 1, z - 1);

	return cb(s->ctx, (const unsigned char *)s->dec, n) ? 0 : cancelled(s);
}

/* A token where a value may stand (yajl's value states). */
static int value(struct jsonscan *s, int t, const uint8_t *a, const uint8_t *z)
{
	const yajl_callbacks *cb = s->cb;
	uint8_t *st = &s->state[s->depth];
	uint8_t push = S_START;
	int rc = 0;

	switch (t) {
	case T_STR:
	case T_STR_ESC:
		rc = string_cb(s, t, a, z, cb->yajl_string);
		break;
	case T_NUM:
		if (cb->yajl_number && !cb->yajl_number(s->ctx, (const char *)a, (size_t)(z - a)))
			rc = cancelled(s);
		break;
	case T_TRUE:
	case T_FALSE:
		if (cb->yajl_boolean && !cb->yajl_boolean(s->ctx, t == T_TRUE))
			rc = cancelled(s);
		break;
	case T_NULL:
		if (cb->yajl_null && !cb->yajl_null(s->ctx))
			rc = cancelled(s);
		break;
	case T_LBRACE:
		rc = open_container(s, cb->yajl_start_map);
		push = S_MAP_START;
		break;
	case T_LBRACK:
		rc = open_container(s, cb->yajl_start_array);
		push = S_ARR_START;
		break;
	case T_RBRACK:
		if (*st == S_ARR_START)
			return close_container(s, cb->yajl_end_array);
		/* fall through */
	default:
		return fail(s, E_UNALLOWED);
	}
	if (rc < 0)
		return -1;
	*st = *st == S_START ? S_DONE : *st == S_MAP_NEED_VAL ? S_MAP_GOT_VAL : S_ARR_GOT_VAL;
	if (push != S_START)
		s->state[++s->depth] = push;
	return 0;
}

/* One whole token [a, z) (strings with their quotes), by the state it comes in. */
static int token(struct jsonscan *s, int t, const uint8_t *a, const uint8_t *z)
{
	uint8_t *st = &s->state[s->depth];

	switch (*st) {
	case S_START:
	case S_MAP_NEED_VAL:
	case S_ARR_START:
	case S_ARR_NEED_VAL:
		return value(s, t, a, z);
	case S_MAP_START:
	case S_MAP_NEED_KEY:
		if (t == T_STR || t == T_STR_ESC) {
			*st = S_MAP_SEP;
			return string_cb(s, t, a, z, s->cb->yajl_map_key);
		}
		if (t == T_RBRACE && *st == S_MAP_START)
			return close_container(s, s->cb->yajl_end_map);
		return fail(s, E_KEY);
	case S_MAP_SEP:
		if (t != T_COLON)
			return fail(s, E_COLON);
		*st = S_MAP_NEED_VAL;
		return 0;
	case S_MAP_GOT_VAL:
		if (t == T_RBRACE)
			return close_container(s, s->cb->yajl_end_map);
		if (t != T_COMMA)
			return fail(s, E_MAP_NEXT);
		*st = S_MAP_NEED_KEY;
		return 0;
	case S_ARR_GOT_VAL:
		if (t == T_RBRACK)
			return close_container(s, s->cb->yajl_end_array);
		if (t != T_COMMA)
			return fail(s, E_ARRAY_NEXT);
		*st = S_ARR_NEED_VAL;
		return 0;
	default:	/* S_DONE */
		return fail(s, E_GARBAGE);
	}
}

/*
 * token() for the tokens that make most of a trace, without its two
 * dispatches: a key, or a string or number where a value belongs.
 */
static int plain_token(struct jsonscan *s, int t, const uint8_t *a, const uint8_t *z)
{
	uint8_t *st = &s->state[s->depth];
	const yajl_callbacks *cb = s->cb;

	if (t == T_STR && (*st == S_MAP_NEED_KEY || *st == S_MAP_START)) {
		*st = S_MAP_SEP;
		if (cb->yajl_map_key && !cb->yajl_map_key(s->ctx, a + 1, (size_t)(z - a - 2)))
			return cancelled(s);
		return 0;
	}
	if (*st != S_MAP_NEED_VAL && *st != S_ARR_NEED_VAL)
		return token(s, t, a, z);
	if (t == T_STR) {
		if (cb->yajl_string && !cb->yajl_string(s->ctx, a + 1, (size_t)(z - a - 2)))
			return cancelled(s);
	} else if (t == T_NUM) {
		if (cb->yajl_number && !cb->yajl_number(s->ctx, (const char *)a, (size_t)(z - a)))
			return cancelled(s);
	} else {
		return token(s, t, a, z);
	}
	*st = *st == S_MAP_NEED_VAL ? S_MAP_GOT_VAL : S_ARR_GOT_VAL;
	return 0;
}

/* A lexical error after the value is trailing garbage to yajl. */
static int lex_failed(struct jsonscan *s)
{
	if (s->depth == 0 && s->state[0] == S_DONE)
		s->error = E_GARBAGE;
	return -1;
}

static int carry(struct jsonscan *s, const uint8_t *p, size_t n)
{
	if (s->ncarry + n > s->max_token)
		return fail(s, E_TOO_LONG);
	if (s->ncarry + n > s->carry_cap) {
		s->carry_cap = (s->ncarry + n) * 2 < s->max_token ? (s->ncarry + n) * 2 : s->max_token;
		s->carry = xrealloc(s->carry, s->carry_cap);
	}
	memcpy(s->carry + s->ncarry, p, n);
	s->ncarry += n;
	return 0;
}

/* The token cut at the last chunk's end, carried on from b: *pp where scanning goes on. */
static int resume(struct jsonscan *s, const uint8_t *b, const uint8_t **pp, const uint8_t *end,
		  bool last)
{
	const uint8_t *p = b;
	int t = lex_more(s, s->pend, &p, end, &s->psub, &s->pesc);

	*pp = end;
	if (t == T_ERROR)
		return lex_failed(s);
	if (t == T_EOF)
		return last ? 0 : carry(s, b, (size_t)(end - b));
	if (carry(s, b, (size_t)(p - b)) < 0)
		return -1;
	size_t n = s->ncarry;

	*pp = p;
	s->pend = P_NONE;
	s->ncarry = 0;
	s->tok_end = s->base + (p - b);
	return token(s, t, (const uint8_t *)s->carry, (const uint8_t *)s->carry + n);
}

/* A ':' or ',' where it belongs (near half a trace's tokens), taken in passing: true; else false. */
static bool separator(struct jsonscan *s, uint8_t c)
{
	uint8_t *st = &s->state[s->depth];

	if (c == ',' && (*st == S_MAP_GOT_VAL || *st == S_ARR_GOT_VAL)) {
		*st = *st == S_MAP_GOT_VAL ? S_MAP_NEED_KEY : S_ARR_NEED_VAL;
		return true;
	}
	if (c == ':' && *st == S_MAP_SEP) {
		*st = S_MAP_NEED_VAL;
		return true;
	}
	return false;
}

static int scan(struct jsonscan *s, const uint8_t *b, size_t len, bool last)
{
	const uint8_t *p = b, *end = b + len;

	if (s->pend && resume(s, b, &p, end, last) < 0)
		return -1;
	for (;;) {
		const uint8_t *start;
		uint8_t sub;
		bool esc;
		int kind = P_NONE, t;

		p = skip_blanks(s, p, end);
		if (p == end)
			return 0;
		if (separator(s, *p)) {
			p++;
			continue;
		}
		start = p;
		t = lex(s, &p, end, &kind, &sub, &esc);
		if (t == T_ERROR)
			return lex_failed(s);
		if (t == T_EOF) {
			s->pend = (uint8_t)kind;
			s->psub = sub;
			s->pesc = esc;
			return last ? 0 : carry(s, start, (size_t)(end - start));
		}
		if ((size_t)(p - start) > s->max_token)
			return fail(s, E_TOO_LONG);
		s->tok_end = s->base + (p - b);
		if (plain_token(s, t, start, p) < 0)
			return -1;
	}
}

int jsonscan_feed(struct jsonscan *s, const char *buf, size_t len)
{
	if (s->failed)
		return -1;
	if (scan(s, (const uint8_t *)buf, len, false) < 0)
		return -1;
	s->base += (int64_t)len;
	return 0;
}

int jsonscan_end(struct jsonscan *s)
{
	if (s->failed)
		return -1;
	if (scan(s, (const uint8_t *)" ", 1, true) < 0)
		return -1;
	if (s->depth == 0 && s->state[0] == S_DONE)
		return 0;
	return fail(s, E_EOF);
}
