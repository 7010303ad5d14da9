/*
 * codes_md: writes docs/codes.md to stdout from the code table of
 * core/codes.c (`make docs/codes.md`). Takes no arguments.
 */
#include <stdio.h>

#include "core/buf.h"
#include "core/codes.h"

int main(void)
{
	struct buf md = BUF_INIT;
	int rc;

	buf_init(&md, 0);
	codes_markdown(&md);
	rc = fwrite(md.data, 1, md.len, stdout) == md.len && fflush(stdout) == 0 ? 0 : 1;
	buf_release(&md);
	return rc;
}
