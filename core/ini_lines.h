/*
 * ini_lines: the line source that inih's ini_parse_stream() reads an INI file through.
 * It counts the lines, so that a key's message can name its line, can cut a line longer
 * than inih's buffer instead of reading its rest as further lines, and can hand on empty
 * a line holding a control byte (a NUL included), which inih would read cut or garbled.
 * It also tells a repeated key: the manifests and PLAN.ini take the LAST value of a key
 * given twice in one section (as most INI readers do) and say so at the later line.
 */
#ifndef CORE_INI_LINES_H
#define CORE_INI_LINES_H

#include <stdbool.h>
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
	/*
	 * Called for a line holding a control byte other than tab and CR (a NUL included), but a
	 * comment: col is the 1-based byte column of the first, byte its value; the line then
	 * reads as empty. NULL: the line is handed on as read (a NUL ends it there).
	 */
	void (*control)(struct ini_lines *src, int64_t col, unsigned byte);
	void *user;		/* for too_long and control */
	/* the reader's own state: zero to begin */
	int enc;		/* 0 before the first byte; then plain, UTF-16LE or UTF-16BE */
	unsigned char out[4];	/* bytes of a decoded character (or the first bytes) not yet read */
	int nout, iout;
	int peek;		/* a byte read ahead after a "\r"; valid when has_peek */
	bool has_peek;
	struct ini_key_seen *seen;	/* ini_lines_repeat()'s record; ini_lines_release() frees it */
	size_t nseen, capseen;
};

/*
 * inih's reader: stream is a struct ini_lines. Reads a line into str[num] as
 * fgets() does. A file that begins with a UTF-16 byte-order mark (Windows
 * editors write one) is read as UTF-8, and a line that ends in "\r" alone
 * (old Mac editors) ends there; a UTF-8 byte-order mark is inih's to skip.
 */
char *ini_lines_next(char *str, int num, void *stream);

/*
 * Records that key `name` of `section` is given at the current line. Returns 0 the first
 * time, else the line where it was first given (the caller says that the value of the
 * current line is the one used).
 */
int64_t ini_lines_repeat(struct ini_lines *src, const char *section, const char *name);

/* Frees what ini_lines_repeat() recorded. */
void ini_lines_release(struct ini_lines *src);

#endif
