#include "cli/color.h"

#include <stdlib.h>
#include <unistd.h>

#include "core/utf8.h"

#define SGR_RESET "\033[0m"

int color_when = COLOR_AUTO;
const char *const color_choices[] = { "auto", "always", "never", NULL };

/* What diag_format writes before the message for each severity, and its colour. */
static const struct {
	const char *word;	/* "warning:"; NULL for errors */
	const char *sgr;	/* the colour of the word, or of the message when there is none */
} severities[] = {
	[DIAG_ERROR] = { NULL, "\033[1;31m" },
	[DIAG_WARNING] = { "warning:", "\033[1;33m" },
	[DIAG_INFO] = { "note:", "\033[1;36m" },
};

bool color_on(int fd)
{
	const char *no = getenv("NO_COLOR");

	if (color_when != COLOR_AUTO)
		return color_when == COLOR_ALWAYS;
	return (!no || !*no) && isatty(fd);
}

void diag_format_color(const struct diag *d, bool color, struct buf *out)
{
	const char *word = severities[d->severity].word;
	const char *sgr = severities[d->severity].sgr;
	struct diag safe = *d;	/* path and message as core/utf8 makes them safe for a terminal */
	char *file = utf8_dup(d->pos.file, UTF8_CONTROLS | UTF8_ONE_LINE);

	safe.pos.file = file;
	safe.message = utf8_dup(d->message, UTF8_CONTROLS | UTF8_ONE_LINE);
	if (!color)
		diag_format(&safe, out);
	else {
		srcpos_format(&safe.pos, out);
		if (word)
			buf_addf(out, "%s%s" SGR_RESET " %s", sgr, word, safe.message);
		else
			buf_addf(out, "%s%s" SGR_RESET, sgr, safe.message);
	}
	free(file);
	free(safe.message);
}
