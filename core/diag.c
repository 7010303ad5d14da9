#include "core/diag.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/codes.h"
#include "core/xalloc.h"

static size_t count_code(const struct diags *d, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < d->count; i++)
		n += !strcmp(d->items[i].code, code);
	return n;
}

__attribute__((format(printf, 5, 0)))
static int vadd(struct diags *d, enum diag_severity sev, const char *code,
		const struct srcpos *pos, const char *fmt, va_list ap)
{
	struct buf msg = BUF_INIT;
	struct diag *it;

	assert(codes_allow(code, sev));	/* every code is documented in core/codes.c */
	if (sev == DIAG_ERROR)
		d->errors++;
	else if (sev == DIAG_WARNING)
		d->warnings++;
	if (count_code(d, code) >= DIAG_CAP_PER_CODE) {
		d->suppressed++;
		return -1;
	}
	buf_init(&msg, 4096);
	buf_vaddf(&msg, fmt, ap);
	xgrow(&d->items, &d->cap, d->count + 1, sizeof(*d->items));
	it = &d->items[d->count++];
	it->severity = sev;
	it->code = code;
	it->pos = pos ? *pos : SRCPOS_NONE;
	it->file = it->pos.file ? xstrdup(it->pos.file) : NULL;
	it->pos.file = it->file;
	it->message = buf_detach(&msg);
	return -1;
}

int diag_add(struct diags *d, enum diag_severity sev, const char *code,
	     const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(d, sev, code, pos, fmt, ap);
	va_end(ap);
	return -1;
}

int diag_error(struct diags *d, const char *code, const struct srcpos *pos,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(d, DIAG_ERROR, code, pos, fmt, ap);
	va_end(ap);
	return -1;
}

int diag_warn(struct diags *d, const char *code, const struct srcpos *pos,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(d, DIAG_WARNING, code, pos, fmt, ap);
	va_end(ap);
	return -1;
}

void srcpos_format(const struct srcpos *pos, struct buf *out)
{
	if (!pos->file)
		return;
	buf_addstr(out, pos->file);
	if (pos->line > 0) {
		buf_addf(out, ":%" PRId64, pos->line);
		if (pos->col > 0)
			buf_addf(out, ":%" PRId64, pos->col);
		buf_addstr(out, ": ");
	} else if (pos->byte >= 0) {
		buf_addf(out, ": byte %" PRId64 ": ", pos->byte);
	} else {
		buf_addstr(out, ": ");
	}
}

void diag_format(const struct diag *d, struct buf *out)
{
	srcpos_format(&d->pos, out);
	if (d->severity == DIAG_WARNING)
		buf_addstr(out, "warning: ");
	else if (d->severity == DIAG_INFO)
		buf_addstr(out, "note: ");
	buf_addstr(out, d->message);
}

void diags_move(struct diags *dst, struct diags *src)
{
	if (src->count) {	/* memcpy from or to NULL is undefined even for 0 bytes */
		xgrow(&dst->items, &dst->cap, dst->count + src->count, sizeof(*dst->items));
		memcpy(dst->items + dst->count, src->items, src->count * sizeof(*src->items));
	}
	dst->count += src->count;
	dst->suppressed += src->suppressed;
	dst->errors += src->errors;
	dst->warnings += src->warnings;
	xgrow_free(&src->items, &src->cap, sizeof(*src->items));
	memset(src, 0, sizeof(*src));
}

void diags_merge(struct diags *dst, struct diags *src)
{
	for (size_t i = 0; i < src->count; i++) {
		struct diag *it = &src->items[i];

		if (count_code(dst, src->items[i].code) >= DIAG_CAP_PER_CODE) {
			dst->suppressed++;	/* the cap of dst, reached before this one */
			free(it->file);
			free(it->message);
			continue;
		}
		xgrow(&dst->items, &dst->cap, dst->count + 1, sizeof(*dst->items));
		dst->items[dst->count++] = *it;
	}
	dst->suppressed += src->suppressed;
	dst->errors += src->errors;
	dst->warnings += src->warnings;
	free(src->items);
	memset(src, 0, sizeof(*src));
}

void diags_release(struct diags *d)
{
	for (size_t i = 0; i < d->count; i++) {
		free(d->items[i].file);
		free(d->items[i].message);
	}
	xgrow_free(&d->items, &d->cap, sizeof(*d->items));
	memset(d, 0, sizeof(*d));
}

const char *diag_severity_name(enum diag_severity sev)
{
	static const char *const names[] = {
		[DIAG_ERROR] = "error", [DIAG_WARNING] = "warning", [DIAG_INFO] = "info",
	};

	return names[sev];
}
