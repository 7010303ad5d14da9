/*
 * color: whether the CLI colours what it prints (--color=auto|always|never,
 * NO_COLOR), and the diagnostics it prints with their severity coloured.
 * The layers below never decide this: render/ takes a flag.
 */
#ifndef CLI_COLOR_H
#define CLI_COLOR_H

#include <stdbool.h>

#include "core/buf.h"
#include "core/diag.h"

enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };	/* indexes of color_choices */

extern int color_when;				/* set by --color; COLOR_AUTO by default */
extern const char *const color_choices[];	/* "auto", "always", "never", NULL */

/*
 * Whether output to the file descriptor fd is coloured: always, never, or
 * under auto when fd is a terminal and NO_COLOR is unset or empty.
 */
bool color_on(int fd);

/*
 * Appends d as diag_format() does, and with color its severity coloured:
 * "warning:" bold yellow, "note:" bold cyan, and the message of an error
 * (which carries no word) bold red. Without color the bytes are the same as
 * diag_format's. The path and the message are written as core/utf8's
 * utf8_escape() with UTF8_CONTROLS | UTF8_ONE_LINE writes them.
 */
void diag_format_color(const struct diag *d, bool color, struct buf *out);

#endif
