/*
 * wrap: text wrapped at 80 columns into a buf, for help and for the plan's
 * prose. Words are split at spaces only; a word longer than a line stands
 * alone on its line.
 */
#ifndef CORE_WRAP_H
#define CORE_WRAP_H

#include <stddef.h>

#include "core/buf.h"

/*
 * Appends text to out, wrapped at 80 columns: words are moved to a new line
 * indented by `indent` spaces; `col` is the column out's last line is at.
 * A "\n" in text starts a new line (indented too).
 */
void text_wrap(struct buf *out, const char *text, size_t indent, size_t col);

#endif
