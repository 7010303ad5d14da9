/*
 * json: writes JSON with yajl. Numbers are written in the shortest form that
 * reads back as the same double; NaN and infinities become null (a missing
 * value is null, never 0). Pretty output is indented with two spaces.
 */
#ifndef CORE_JSON_H
#define CORE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <yajl/yajl_gen.h>

#include "core/info.h"

yajl_gen json_new(void);
void json_num(yajl_gen g, double v);		/* NaN, inf: null */
/* Strings and keys: invalid UTF-8 is written as U+FFFD (core/utf8.h), controls as \u00XX. */
void json_str(yajl_gen g, const char *s);	/* NULL: null */
void json_key(yajl_gen g, const char *key);
void json_strn(yajl_gen g, const char *s, size_t n);	/* the n bytes at s, as a string */
void json_int(yajl_gen g, int64_t v);
void json_info(yajl_gen g, const struct info *n);	/* the whole tree under n */
/*
 * A document's "tool" object: {"name": "scaleaudit", "version", "document"
 * (left out when NULL), "format"}, the first thing a reader checks.
 */
void json_tool(yajl_gen g, const char *document, int format);
/* Writes what g holds to f (indented when pretty), then a newline; -1 on a write error. */
int json_flush(yajl_gen g, FILE *f, bool pretty);

/* Formats v in the shortest round-trip form into buf (at least 32 bytes). */
void json_format_double(double v, char *buf, size_t size);

#endif
