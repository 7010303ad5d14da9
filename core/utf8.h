/*
 * utf8: user-given text (titles, run and file names, GPU and kernel names read from logs) made
 * safe to write out. Invalid UTF-8 becomes U+FFFD, one per maximal invalid subpart (Unicode's
 * recommended practice: overlongs, surrogates and code points above U+10FFFF included); control
 * characters are escaped visibly (`\x1b`) for the terminal, charts and PDF. Every writer of
 * such text goes through here, so none can fail on it or pass an escape sequence on raw.
 */
#ifndef CORE_UTF8_H
#define CORE_UTF8_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/buf.h"

/* UTF-8 of U+FFFD, the replacement character. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"
/* UTF-8 of U+2026, the ellipsis a cut text ends with. */
#define UTF8_ELLIPSIS "\xe2\x80\xa6"

/* How utf8_escape() treats control characters. */
enum utf8_flags {
	UTF8_CONTROLS = 1 << 0,	/* escape C0 (but tab and newline unless UTF8_ONE_LINE), DEL and C1 */
	UTF8_ONE_LINE = 1 << 1,	/* with UTF8_CONTROLS: tab, newline and CR are escaped too */
};

/*
 * The length of the valid UTF-8 sequence at s[0..n) (1 to 4), or 0 when s starts an invalid
 * one; *bad is then set to the length of its maximal invalid subpart (1 to 3). n > 0.
 */
size_t utf8_seq(const char *s, size_t n, size_t *bad);

/* True when s[0..n) is well-formed UTF-8 (NUL bytes are well-formed). */
bool utf8_valid(const char *s, size_t n);

/* Code point c (at most U+10FFFF) as UTF-8 in u; returns how many bytes (1 to 4). */
size_t utf8_encode(unsigned c, unsigned char u[4]);

/* Appends code point c to out as UTF-8. */
void utf8_put(struct buf *out, unsigned c);

/* True when s[0..n) is well-formed UTF-8 without a control character that flags would escape. */
bool utf8_clean(const char *s, size_t n, unsigned flags);

/*
 * Appends s[0..n) to out with every maximal invalid subpart replaced by U+FFFD; returns the
 * number of replacements. The result is well-formed UTF-8.
 */
size_t utf8_sanitize(const char *s, size_t n, struct buf *out);

/*
 * s[0..*n) when it is valid UTF-8, else its utf8_sanitize() copy in tmp (and *n its length).
 * tmp is initialised here and released by the caller either way.
 */
const char *utf8_valid_text(const char *s, size_t *n, struct buf *tmp);

/*
 * utf8_sanitize(), and with UTF8_CONTROLS each control character (U+0000-U+001F, U+007F,
 * U+0080-U+009F) written as `\xNN` (its code point in two lowercase hex digits), except tab
 * and newline when flags lack UTF8_ONE_LINE. Returns the number of replacements and escapes.
 */
size_t utf8_escape(const char *s, size_t n, unsigned flags, struct buf *out);

/*
 * The bytes of s[0..n) that hold its first max_chars code points as utf8_escape() with flags
 * writes them (an escape counts 4, an invalid subpart 1): a prefix never split inside a
 * sequence or an escape, for a column cut without an ellipsis.
 */
size_t utf8_prefix(const char *s, size_t n, unsigned flags, size_t max_chars);

/*
 * utf8_escape() of s limited to at most max_chars code points of output: when longer, the
 * text is cut at a code point boundary and ends with U+2026 (which counts in max_chars).
 * max_chars >= 1. Returns true when the text was cut.
 */
bool utf8_cut(const char *s, size_t n, unsigned flags, size_t max_chars, struct buf *out);

/* Writes s[0..n) to f as utf8_escape() with flags writes it; -1 when f failed, else 0. */
int utf8_write(FILE *f, const char *s, size_t n, unsigned flags);

/*
 * Writes one line of terminal output: fmt formatted, then escaped with UTF8_CONTROLS |
 * UTF8_ONE_LINE (so a name holding a newline or an escape sequence stays on its line and
 * shows as \x0a, \x1b), then a newline. -1 when f failed, else 0.
 */
int utf8_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* utf8_line with its arguments as a va_list. */
int utf8_vline(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/*
 * The string s as utf8_escape() writes it, NUL-terminated, in memory the caller frees;
 * NULL for NULL. For a one-off piece of text handed to a library (pango, a printf).
 */
char *utf8_dup(const char *s, unsigned flags);

#endif
