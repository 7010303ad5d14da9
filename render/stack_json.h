/*
 * stack_json: the stack command's result (analysis/stack.h) as JSON
 * (docs/json.md's stack section): "tool", "targets", "items" with their
 * archs, verdicts, jit notes, ZSTD entries, fix and variant group,
 * "environment" with its checks, "binaries_without_gpu_code", "ready" (yes,
 * jit, unknown or no per target) and "why"; unknown values are null.
 */
#ifndef RENDER_STACK_JSON_H
#define RENDER_STACK_JSON_H

#include <stdio.h>

#include "analysis/stack.h"

/*
 * The layout's version, tool.format: 2 since "ready" holds a verdict per
 * target ("yes", "jit", "unknown", "no") instead of true or false.
 */
#define STACK_JSON_FORMAT 2

/* Writes s to f as indented JSON and a newline; -1 on a write error (not said here). */
int stack_json(const struct stack_result *s, FILE *f);

#endif
