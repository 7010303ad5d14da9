#include "core/ini_lines.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/xalloc.h"

struct ini_key_seen {
	char *section, *name;	/* owned */
	int64_t line;		/* where it was first given */
};

enum { ENC_PLAIN = 1, ENC_LE, ENC_BE };

/* One UTF-16 code unit, or -1 at the end (a lone last byte ends the file too). */
static long unit(struct ini_lines *src)
{
	int a = getc(src->f), b;

	if (a == EOF || (b = getc(src->f)) == EOF)
		return -1;
	return src->enc == ENC_LE ? a | (long)b << 8 : (long)a << 8 | b;
}

/* The next character of UTF-16 as UTF-8 bytes in src->out; false at the end. */
static bool decode16(struct ini_lines *src)
{
	long u = unit(src), lo;

	if (u < 0)
		return false;
	if (u >= 0xd800 && u <= 0xdbff) {
		lo = unit(src);
		u = lo >= 0xdc00 && lo <= 0xdfff ? 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00) : 0xfffd;
	} else if (u >= 0xdc00 && u <= 0xdfff) {
		u = 0xfffd;
	}
	src->iout = 0;
	src->nout = (int)utf8_encode((unsigned)u, src->out);
	return true;
}

/* The first bytes: a UTF-16 byte-order mark, or plain bytes kept to be read. */
static void look(struct ini_lines *src)
{
	int a = getc(src->f), b;

	src->enc = ENC_PLAIN;
	if (a == EOF)
		return;
	src->out[src->nout++] = (unsigned char)a;
	if ((a != 0xff && a != 0xfe) || (b = getc(src->f)) == EOF)
		return;
	if ((a == 0xff && b == 0xfe) || (a == 0xfe && b == 0xff)) {
		src->enc = a == 0xff ? ENC_LE : ENC_BE;
		src->nout = 0;
		return;
	}
	src->out[src->nout++] = (unsigned char)b;
}

/* The next byte of the text as UTF-8, or EOF. */
static int next_byte(struct ini_lines *src)
{
	if (src->has_peek) {
		src->has_peek = false;
		return src->peek;
	}
	if (!src->enc)
		look(src);
	if (src->iout < src->nout)
		return src->out[src->iout++];
	src->iout = src->nout = 0;
	if (src->enc == ENC_PLAIN)
		return getc(src->f);
	return decode16(src) ? src->out[src->iout++] : EOF;
}

/* The byte after a "\r": a "\n" is its pair, anything else begins the next line. */
static bool crlf(struct ini_lines *src)
{
	int c = next_byte(src);

	if (c == '\n')
		return true;
	src->peek = c;
	src->has_peek = c != EOF;
	return false;
}

/* Skips the rest of a line cut at the buffer's size; false when the line had ended after all. */
static bool skip_rest(struct ini_lines *src)
{
	int c = next_byte(src);

	if (c == EOF || c == '\n' || (c == '\r' && (crlf(src), true)))
		return false;
	while ((c = next_byte(src)) != EOF && c != '\n')
		if (c == '\r') {
			crlf(src);
			break;
		}
	return true;
}

/* A byte that inih would misread: C0 but tab, CR and LF, and DEL. */
static bool control_byte(int c)
{
	return (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f;
}

/* A comment line (inih's ';' and '#' starts), whose bytes nobody reads. */
static bool comment(const char *s)
{
	s += strspn(s, " \t");
	return *s == ';' || *s == '#';
}

char *ini_lines_next(char *str, int num, void *stream)
{
	struct ini_lines *src = stream;
	int64_t col = 0;	/* of the first control byte; 0 none */
	unsigned byte = 0;
	int n = 0, c = EOF;

	while (n < num - 1 && (c = next_byte(src)) != EOF) {
		if (c == '\r') {	/* "\r\n", or "\r" alone: the line ends */
			crlf(src);
			c = '\n';
		}
		if (!col && control_byte(c)) {
			col = n + 1;
			byte = (unsigned)c;
		}
		str[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (!n)
		return NULL;
	str[n] = '\0';
	src->line++;
	if (src->too_long && c != '\n' && n == num - 1 && skip_rest(src)) {
		src->too_long(src, num - 1);
		str[0] = '\0';
	} else if (col && src->control && !comment(str)) {
		src->control(src, col, byte);
		str[0] = '\0';
	}
	return str;
}

int64_t ini_lines_repeat(struct ini_lines *src, const char *section, const char *name)
{
	for (size_t i = 0; i < src->nseen; i++)
		if (!strcmp(src->seen[i].section, section) && !strcmp(src->seen[i].name, name))
			return src->seen[i].line;
	xgrow(&src->seen, &src->capseen, src->nseen + 1, sizeof(*src->seen));
	src->seen[src->nseen++] = (struct ini_key_seen){ xstrdup(section), xstrdup(name), src->line };
	return 0;
}

void ini_lines_release(struct ini_lines *src)
{
	for (size_t i = 0; i < src->nseen; i++) {
		free(src->seen[i].section);
		free(src->seen[i].name);
	}
	free(src->seen);
	src->seen = NULL;
	src->nseen = src->capseen = 0;
}
