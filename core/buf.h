/*
 * buf: a growable byte buffer, always NUL-terminated, with a size ceiling and
 * a sticky error (like git's strbuf and curl's dynbuf). When an append would
 * pass the ceiling the buffer keeps what it had, sets `overflow`, and ignores
 * further appends, so a caller checks once at the end.
 */
#ifndef CORE_BUF_H
#define CORE_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct buf {
	char *data;	/* NUL-terminated; never NULL after buf_init */
	size_t len;	/* bytes used, not counting the NUL */
	size_t cap;	/* bytes allocated */
	size_t max;	/* ceiling on len; 0 means no ceiling */
	bool overflow;	/* an append was refused: the content is cut */
};

#define BUF_INIT { .data = NULL }

void buf_init(struct buf *b, size_t max);
void buf_release(struct buf *b);		/* frees; the buffer is reusable after buf_init */
void buf_reset(struct buf *b);			/* empties, keeps the allocation */
bool buf_add(struct buf *b, const void *p, size_t n);	/* false when refused */
bool buf_addstr(struct buf *b, const char *s);
bool buf_addch(struct buf *b, int c);
bool buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool buf_vaddf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
char *buf_detach(struct buf *b);		/* hands the string to the caller, leaves b empty */
/*
 * Appends the bytes of the file at path to b, up to b's ceiling (b->overflow
 * set when the file is longer). Returns 0, -1 when the file cannot be opened
 * or -2 when it cannot be read, errno saying why.
 */
int buf_read_file(struct buf *b, const char *path);

#endif
