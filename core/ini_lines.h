/*
 * ini_lines: the line source that inih's ini_parse_stream() reads an INI file through.
 * It counts the lines, so that a key's message can name its line, and can cut a line
 * longer than inih's buffer instead of reading its rest as further lines.
 */
#ifndef CORE_INI_LINES_H
#define CORE_INI_LINES_H

#include <stdint.h>
#include <stdio.h>

struct ini_lines {
	FILE *f;		/* open for reading; the caller closes it */
	int64_t line;		/* the line last read (1 the first); 0 before any */
	/*
	 * Called for a line longer than max characters, once the rest of it is skipped (the line
	 * then reads as empty); NULL: the rest is read as further lines, as fgets() leaves it.
	 */
	void (*too_long)(struct ini_lines *src, int max);
	void *user;		/* for too_long */
};

/* inih's reader: stream is a struct ini_lines. Reads a line into str[num] as fgets() does. */
char *ini_lines_next(char *str, int num, void *stream);

#endif
