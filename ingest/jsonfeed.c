#include "ingest/jsonfeed.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

int jsonfeed_init(struct jsonfeed *j, const yajl_callbacks *cb, void *ctx)
{
	j->chunk_base = j->last_ok = 0;
	j->tok_sep = j->failed = j->at_end = false;
	j->tok = -1;
	j->error_byte = -1;
	/* a name that is not UTF-8 is kept: every writer shows it with U+FFFD */
	return jsonscan_init(&j->js, cb, ctx);
}

void jsonfeed_release(struct jsonfeed *j)
{
	jsonscan_release(&j->js);
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
	int rc;

	if (j->failed)
		return -1;
	rc = jsonscan_feed(&j->js, buf, len);
	next_token(j, buf, len);
	if (rc < 0) {
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
	if (jsonscan_end(&j->js) == 0)
		return 0;
	j->failed = j->at_end = true;
	j->error_byte = j->chunk_base;
	return -1;
}

char *jsonfeed_message(struct jsonfeed *j)
{
	return xstrdup(j->js.error ? j->js.error : "unknown error");
}
