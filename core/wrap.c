#include "core/wrap.h"

#include <stdbool.h>
#include <string.h>

#define LINE_MAX_COLS 79	/* a line holds at most 79 characters and its newline */

static void pad(struct buf *out, size_t n)
{
	while (n--)
		buf_addch(out, ' ');
}

void text_wrap(struct buf *out, const char *text, size_t indent, size_t col)
{
	bool fresh = true;	/* no word written on this line by us yet */

	for (const char *p = text; *p;) {
		size_t n;

		if (*p == '\n') {
			buf_addch(out, '\n');
			col = 0;
			fresh = true;
			p++;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		n = strcspn(p, " \n");
		if (!fresh && col + 1 + n > LINE_MAX_COLS) {
			buf_addch(out, '\n');
			col = 0;
			fresh = true;
		}
		if (fresh && col < indent) {
			pad(out, indent - col);
			col = indent;
		}
		if (!fresh) {
			buf_addch(out, ' ');
			col++;
		}
		buf_add(out, p, n);
		col += n;
		p += n;
		fresh = false;
	}
}
