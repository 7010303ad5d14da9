#include "core/utf8.h"

#include <stdarg.h>
#include <string.h>

/*
 * Well-formed sequences by lead byte (Unicode table 3-7): how many bytes, and the range the
 * second byte takes (the others are always 80..BF). The narrower second ranges are what
 * exclude overlongs (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
 */
struct lead {
	unsigned char lo, hi;	/* lead byte range */
	unsigned char len;	/* bytes in the sequence */
	unsigned char lo2, hi2;	/* second byte range */
};

static const struct lead leads[] = {
	{ 0xc2, 0xdf, 2, 0x80, 0xbf },
	{ 0xe0, 0xe0, 3, 0xa0, 0xbf },
	{ 0xe1, 0xec, 3, 0x80, 0xbf },
	{ 0xed, 0xed, 3, 0x80, 0x9f },
	{ 0xee, 0xef, 3, 0x80, 0xbf },
	{ 0xf0, 0xf0, 4, 0x90, 0xbf },
	{ 0xf1, 0xf3, 4, 0x80, 0xbf },
	{ 0xf4, 0xf4, 4, 0x80, 0x8f },
};

static const struct lead *lead_of(unsigned char c)
{
	for (size_t i = 0; i < sizeof(leads) / sizeof(*leads); i++)
		if (c >= leads[i].lo && c <= leads[i].hi)
			return &leads[i];
	return NULL;
}

size_t utf8_seq(const char *s, size_t n, size_t *bad)
{
	const unsigned char *p = (const unsigned char *)s;
	const struct lead *l;
	size_t i;

	*bad = 0;
	if (p[0] < 0x80)
		return 1;
	l = lead_of(p[0]);
	if (!l) {
		*bad = 1;
		return 0;
	}
	for (i = 1; i < l->len && i < n; i++) {
		unsigned char lo = i == 1 ? l->lo2 : 0x80, hi = i == 1 ? l->hi2 : 0xbf;

		if (p[i] < lo || p[i] > hi)
			break;
	}
	if (i == l->len)
		return i;
	*bad = i;	/* the lead and the continuation bytes that fitted */
	return 0;
}

/* The code point of the valid sequence s[0..len). */
static unsigned long code_point(const unsigned char *p, size_t len)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	unsigned long cp = p[0] & lead_mask[len];

	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	return cp;
}

/* True when the code point is a control character that flags escape. */
static bool escaped(unsigned long cp, unsigned flags)
{
	if (!(flags & UTF8_CONTROLS))
		return false;
	if ((cp == '\t' || cp == '\n') && !(flags & UTF8_ONE_LINE))
		return false;
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

size_t utf8_encode(unsigned c, unsigned char u[4])
{
	if (c < 0x80) {
		u[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		u[0] = (unsigned char)(0xc0 | c >> 6);
		u[1] = (unsigned char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		u[0] = (unsigned char)(0xe0 | c >> 12);
		u[1] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		u[2] = (unsigned char)(0x80 | (c & 0x3f));
		return 3;
	}
	u[0] = (unsigned char)(0xf0 | c >> 18);
	u[1] = (unsigned char)(0x80 | (c >> 12 & 0x3f));
	u[2] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
	u[3] = (unsigned char)(0x80 | (c & 0x3f));
	return 4;
}

void utf8_put(struct buf *out, unsigned c)
{
	unsigned char u[4];

	buf_add(out, u, utf8_encode(c, u));
}

bool utf8_valid(const char *s, size_t n)
{
	return utf8_clean(s, n, 0);
}

bool utf8_clean(const char *s, size_t n, unsigned flags)
{
	size_t i = 0, bad, len;

	while (i < n) {
		len = utf8_seq(s + i, n - i, &bad);
		if (!len || escaped(code_point((const unsigned char *)s + i, len), flags))
			return false;
		i += len;
	}
	return true;
}

/*
 * One step of utf8_escape(): writes what s[0..n) starts with and returns the bytes it took;
 * *changed is set when that was a replacement or an escape.
 */
static size_t escape_one(const char *s, size_t n, unsigned flags, struct buf *out, bool *changed)
{
	size_t bad, len = utf8_seq(s, n, &bad);
	unsigned long cp;

	*changed = true;
	if (!len) {
		buf_addstr(out, UTF8_REPLACEMENT);
		return bad;
	}
	cp = code_point((const unsigned char *)s, len);
	if (escaped(cp, flags)) {
		buf_addf(out, "\\x%02lx", cp);
		return len;
	}
	*changed = false;
	buf_add(out, s, len);
	return len;
}

size_t utf8_escape(const char *s, size_t n, unsigned flags, struct buf *out)
{
	size_t i = 0, changes = 0;
	bool changed;

	while (i < n) {
		size_t run = i;

		/* plain printable ASCII in one append: most text is only that */
		while (run < n && (unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x7f)
			run++;
		buf_add(out, s + i, run - i);
		i = run;
		if (i == n)
			break;
		i += escape_one(s + i, n - i, flags, out, &changed);
		changes += changed;
	}
	return changes;
}

size_t utf8_sanitize(const char *s, size_t n, struct buf *out)
{
	return utf8_escape(s, n, 0, out);
}

const char *utf8_valid_text(const char *s, size_t *n, struct buf *tmp)
{
	buf_init(tmp, 0);
	if (utf8_valid(s, *n))
		return s;
	utf8_sanitize(s, *n, tmp);
	*n = tmp->len;
	return tmp->data;
}

/* The bytes of s[0..n) that make its first max code points once escaped; *more: text left. */
static size_t prefix_of(const char *s, size_t n, unsigned flags, size_t max, bool *more)
{
	size_t i = 0, chars = 0, bad, len;

	while (i < n) {
		size_t w = 1;	/* output code points of this step */

		len = utf8_seq(s + i, n - i, &bad);
		if (len && escaped(code_point((const unsigned char *)s + i, len), flags))
			w = 4;
		if (chars + w > max)
			break;
		chars += w;
		i += len ? len : bad;
	}
	*more = i < n;
	return i;
}

size_t utf8_prefix(const char *s, size_t n, unsigned flags, size_t max_chars)
{
	bool more;

	return prefix_of(s, n, flags, max_chars, &more);
}

bool utf8_cut(const char *s, size_t n, unsigned flags, size_t max_chars, struct buf *out)
{
	bool more;
	size_t all = prefix_of(s, n, flags, max_chars, &more);

	if (!more) {
		utf8_escape(s, all, flags, out);
		return false;
	}
	utf8_escape(s, prefix_of(s, n, flags, max_chars - 1, &more), flags, out);
	buf_addstr(out, UTF8_ELLIPSIS);
	return true;
}

char *utf8_dup(const char *s, unsigned flags)
{
	struct buf b;
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s);
	buf_init(&b, 0);
	utf8_escape(s, n, flags, &b);
	return buf_detach(&b);
}

int utf8_write(FILE *f, const char *s, size_t n, unsigned flags)
{
	struct buf b;
	int rc = 0;

	if (utf8_clean(s, n, flags))
		return fwrite(s, 1, n, f) == n ? 0 : -1;
	buf_init(&b, 0);
	utf8_escape(s, n, flags, &b);
	if (fwrite(b.data, 1, b.len, f) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}

int utf8_vline(FILE *f, const char *fmt, va_list ap)
{
	struct buf b;
	int rc;

	buf_init(&b, 0);
	buf_vaddf(&b, fmt, ap);
	rc = utf8_write(f, b.data, b.len, UTF8_CONTROLS | UTF8_ONE_LINE);
	buf_release(&b);
	return putc('\n', f) == EOF ? -1 : rc;
}

int utf8_line(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = utf8_vline(f, fmt, ap);
	va_end(ap);
	return rc;
}
