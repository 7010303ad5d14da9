/*
 * stack_json: the stack command's result (analysis/stack.h) as JSON
 * (docs/json.md's stack section): "targets", "items" with their archs,
 * verdicts, jit notes, ZSTD entries and fix, "environment" with its checks,
 * "binaries_without_gpu_code" and "ready"; unknown values are null.
 */
#ifndef RENDER_STACK_JSON_H
#define RENDER_STACK_JSON_H

#include <stdio.h>

#include "analysis/stack.h"

/* Writes s to f as indented JSON and a newline; -1 on a write error (not said here). */
int stack_json(const struct stack_result *s, FILE *f);

#endif
