#include "core/ini_lines.h"

#include <string.h>

/* Skips the rest of a line fgets() cut; false when the line had ended after all. */
static int skip_rest(FILE *f)
{
	int c = getc(f);

	if (c == EOF || c == '\n')
		return 0;
	while ((c = getc(f)) != EOF && c != '\n')
		;
	return 1;
}

char *ini_lines_next(char *str, int num, void *stream)
{
	struct ini_lines *src = stream;
	char *s = fgets(str, num, src->f);
	size_t n;

	if (!s)
		return NULL;
	src->line++;
	n = strlen(s);
	if (!src->too_long || (n && s[n - 1] == '\n') || !skip_rest(src->f))
		return s;
	src->too_long(src, num - 1);
	str[0] = '\0';
	return str;
}
