/*
 * stack_text: the stack command's result (analysis/stack.h) as a table for
 * people: the targets, one row per file with GPU code (kind, archs, the
 * verdict per target, the fix), the notes on PTX-only and ZSTD-compressed
 * code, the environment's checks and whether each target is ready.
 */
#ifndef RENDER_STACK_TEXT_H
#define RENDER_STACK_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/stack.h"

/*
 * Writes s to f. Paths and versions read from files go through core/utf8
 * (invalid UTF-8 and controls made visible). The caller checks f for a write
 * error (fflush, ferror).
 */
void stack_text(const struct stack_result *s, FILE *f);

/* A PTX ISA version as text into out (size n): "7.8" for 78, "unknown" when isa < 0. */
void stack_isa_text(int isa, char *out, size_t n);

#endif
