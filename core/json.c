#include "core/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

/*
 * yajl's own beautifier splits empty containers over lines; this one writes
 * "[]" and "{}" whole, indents by two spaces and puts ": " after keys.
 */
static void indent(FILE *f, int depth)
{
	putc_unlocked('\n', f);
	for (int i = 0; i < depth; i++)
		putc_unlocked(' ', f), putc_unlocked(' ', f);
}

/* Byte by byte under one lock of f: analysis.json runs to hundreds of MB. */
static void write_pretty(const unsigned char *p, size_t n, FILE *f)
{
	int depth = 0;
	bool in_str = false;

	flockfile(f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (in_str) {
			putc_unlocked(c, f);
			if (c == '\\' && i + 1 < n)
				putc_unlocked(p[++i], f);
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case '"':
			in_str = true;
			putc_unlocked(c, f);
			break;
		case '{':
		case '[':
			putc_unlocked(c, f);
			if (i + 1 < n && (p[i + 1] == '}' || p[i + 1] == ']'))
				putc_unlocked(p[++i], f);
			else
				indent(f, ++depth);
			break;
		case '}':
		case ']':
			indent(f, --depth);
			putc_unlocked(c, f);
			break;
		case ',':
			putc_unlocked(c, f);
			indent(f, depth);
			break;
		case ':':
			putc_unlocked(':', f), putc_unlocked(' ', f);
			break;
		default:
			putc_unlocked(c, f);
		}
	}
	funlockfile(f);
}

yajl_gen json_new(void)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	yajl_gen_config(g, yajl_gen_validate_utf8, 1);
	return g;
}

void json_format_double(double v, char *buf, size_t size)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void json_num(yajl_gen g, double v)
{
	char tmp[40];

	if (isnan(v) || isinf(v)) {
		yajl_gen_null(g);
		return;
	}
	json_format_double(v, tmp, sizeof(tmp));
	yajl_gen_number(g, tmp, strlen(tmp));
}

/*
 * Every string and key goes through here: invalid UTF-8 from a log or a file name becomes
 * U+FFFD (core/utf8), so yajl never refuses one and the document stays valid. yajl writes
 * control characters as \u00XX itself.
 */
void json_strn(yajl_gen g, const char *s, size_t n)
{
	struct buf tmp;

	s = utf8_valid_text(s, &n, &tmp);
	yajl_gen_string(g, (const unsigned char *)s, n);
	buf_release(&tmp);
}

void json_str(yajl_gen g, const char *s)
{
	if (!s) {
		yajl_gen_null(g);
		return;
	}
	json_strn(g, s, strlen(s));
}

void json_key(yajl_gen g, const char *key)
{
	json_strn(g, key, strlen(key));
}

void json_int(yajl_gen g, int64_t v)
{
	yajl_gen_integer(g, (long long)v);
}

void json_info(yajl_gen g, const struct info *n)
{
	switch (n->type) {
	case INFO_NULL:
		yajl_gen_null(g);
		break;
	case INFO_BOOL:
		yajl_gen_bool(g, n->v.b);
		break;
	case INFO_INT:
		json_int(g, n->v.i);
		break;
	case INFO_NUM:
		json_num(g, n->v.d);
		break;
	case INFO_STR:
		json_str(g, n->v.s);
		break;
	case INFO_ARR:
		yajl_gen_array_open(g);
		for (const struct info *c = n->child; c; c = c->next)
			json_info(g, c);
		yajl_gen_array_close(g);
		break;
	case INFO_OBJ:
		yajl_gen_map_open(g);
		for (const struct info *c = n->child; c; c = c->next) {
			json_key(g, c->key);
			json_info(g, c);
		}
		yajl_gen_map_close(g);
		break;
	}
}

int json_flush(yajl_gen g, FILE *f, bool pretty)
{
	const unsigned char *p;
	size_t n;

	yajl_gen_get_buf(g, &p, &n);
	if (pretty)
		write_pretty(p, n, f);
	else
		fwrite(p, 1, n, f);
	fputc('\n', f);
	yajl_gen_clear(g);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}

void json_tool(yajl_gen g, const char *document, int format)
{
	yajl_gen_map_open(g);
	json_key(g, "name");
	json_str(g, "scaleaudit");
	json_key(g, "version");
	json_str(g, SCALEAUDIT_VERSION);
	if (document) {
		json_key(g, "document");
		json_str(g, document);
	}
	json_key(g, "format");
	json_int(g, format);
	yajl_gen_map_close(g);
}
