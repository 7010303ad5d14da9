#include "ingest/jsonfeed.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

static void *jf_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return xmalloc(n);
}

static void *jf_realloc(void *ctx, void *p, size_t n)
{
	(void)ctx;
	return xrealloc(p, n);
}

static void jf_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

int jsonfeed_init(struct jsonfeed *j, const yajl_callbacks *cb, void *ctx)
{
	yajl_alloc_funcs af = { jf_malloc, jf_realloc, jf_free, NULL };	/* yajl copies it */

	memset(j, 0, sizeof(*j));
	j->tok = -1;
	j->error_byte = -1;
	j->yh = yajl_alloc(cb, &af, ctx);
	if (j->yh)	/* a name that is not UTF-8 is kept: every writer shows it with U+FFFD */
		yajl_config(j->yh, yajl_dont_validate_strings, 1);
	return j->yh ? 0 : -1;
}

void jsonfeed_release(struct jsonfeed *j)
{
	if (j->yh)
		yajl_free(j->yh);
	j->yh = NULL;
}

/* The first byte after the last good token, blanks and one separator, if it lies in buf. */
static void next_token(struct jsonfeed *j, const char *buf, size_t len)
{
	size_t i = j->last_ok > j->chunk_base ? (size_t)(j->last_ok - j->chunk_base) : 0;

	for (; j->tok < 0 && i < len; i++) {
		char c = buf[i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (!j->tok_sep && (c == ':' || c == ',')) {
			j->tok_sep = true;
			continue;
		}
		j->tok = j->chunk_base + (int64_t)i;
	}
}

int jsonfeed_feed(struct jsonfeed *j, const char *buf, size_t len)
{
	yajl_status s;

	if (j->failed)
		return -1;
	s = yajl_parse(j->yh, (const unsigned char *)buf, len);
	next_token(j, buf, len);
	if (s != yajl_status_ok) {
		j->failed = true;
		j->error_byte = j->tok >= 0 ? j->tok : j->chunk_base + (int64_t)len;
		return -1;
	}
	j->chunk_base += (int64_t)len;
	return 0;
}

int jsonfeed_end(struct jsonfeed *j)
{
	if (j->failed)
		return -1;
	if (yajl_complete_parse(j->yh) == yajl_status_ok)
		return 0;
	j->failed = j->at_end = true;
	j->error_byte = j->chunk_base;
	return -1;
}

char *jsonfeed_message(struct jsonfeed *j)
{
	unsigned char *msg = yajl_get_error(j->yh, 0, NULL, 0);
	size_t n = strlen((const char *)msg);
	char *out;

	while (n && strchr(" .\n", msg[n - 1]))
		n--;
	out = xmalloc(n + 1);
	memcpy(out, msg, n);
	out[n] = '\0';
	yajl_free_error(j->yh, msg);
	return out;
}
