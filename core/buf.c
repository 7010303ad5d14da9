#include "core/buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/xalloc.h"

static char empty[1];

void buf_init(struct buf *b, size_t max)
{
	b->data = empty;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->overflow = false;
}

void buf_release(struct buf *b)
{
	if (b->cap)
		xgrow_free(&b->data, &b->cap, 1);
	buf_init(b, b->max);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	b->overflow = false;
	if (b->cap)
		b->data[0] = '\0';
}

static bool reserve(struct buf *b, size_t n)
{
	size_t cap;

	if (!b->data)
		buf_init(b, 0);
	if (b->overflow || (b->max && (n > b->max || b->len > b->max - n))) {
		b->overflow = true;
		return false;
	}
	if (b->len + n + 1 <= b->cap)
		return true;
	if (!b->cap)
		b->data = NULL;
	cap = b->cap;
	xgrow(&b->data, &cap, b->len + n + 1, 1);
	b->cap = cap;
	return true;
}

bool buf_add(struct buf *b, const void *p, size_t n)
{
	if (!reserve(b, n))
		return false;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return true;
}

bool buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

bool buf_addch(struct buf *b, int c)
{
	char ch = (char)c;

	return buf_add(b, &ch, 1);
}

bool buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || !reserve(b, (size_t)n))
		return false;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return true;
}

bool buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return ok;
}

char *buf_detach(struct buf *b)
{
	char *s = b->cap ? b->data : xstrdup("");

	budget_add(-(int64_t)b->cap);	/* the caller's now, freed with free() */
	buf_init(b, b->max);
	return s;
}

int buf_read_file(struct buf *b, const char *path)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	int err;

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) && buf_add(b, chunk, n))
		;
	err = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	errno = err;
	return err ? -2 : 0;
}
