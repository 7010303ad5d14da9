#include "core/ini_lines.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct ini_key_seen {
	char *section, *name;	/* owned */
	int64_t line;		/* where it was first given */
};

/* Skips the rest of a line cut at the buffer's size; false when the line had ended after all. */
static bool skip_rest(FILE *f)
{
	int c = getc(f);

	if (c == EOF || c == '\n')
		return false;
	while ((c = getc(f)) != EOF && c != '\n')
		;
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

	while (n < num - 1 && (c = getc(src->f)) != EOF) {
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
	if (src->too_long && c != '\n' && n == num - 1 && skip_rest(src->f)) {
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
