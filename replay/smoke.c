/*
 * smoke: first implementation (API commit): the items follow.
 */
#include "replay/smoke.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "render/json.h"

const char *smoke_status_name(enum smoke_status s)
{
	static const char *const names[] = { "pass", "fail", "skip" };

	return names[s];
}

const struct smoke_item *smoke_items(size_t *n)
{
	*n = 0;
	return NULL;
}

static void add(struct smoke_ctx *sc, const char *what, enum smoke_status st, double value, const char *unit,
		const char *fmt, va_list ap)
{
}

void smoke_pass(struct smoke_ctx *sc, const char *what, double value, const char *unit, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(sc, what, SMOKE_PASS, value, unit, fmt, ap);
	va_end(ap);
}

void smoke_fail(struct smoke_ctx *sc, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(sc, what, SMOKE_FAIL, NAN, "", fmt, ap);
	va_end(ap);
}

void smoke_skip(struct smoke_ctx *sc, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(sc, what, SMOKE_SKIP, NAN, "", fmt, ap);
	va_end(ap);
}

int smoke_run(const struct smoke_options *opt, struct smoke_report *rep)
{
	memset(rep, 0, sizeof *rep);
	rep->driver_version = -1;
	snprintf(rep->error, sizeof rep->error, "replay --smoke: not built yet");
	rep->exit_status = 1;
	return 1;
}

void smoke_report_release(struct smoke_report *rep)
{
	free(rep->results);
	rep->results = NULL;
	rep->n = rep->cap = 0;
}

int smoke_write_text(const struct smoke_report *rep, FILE *f)
{
	return fprintf(f, "%s\n", rep->error) < 0 ? -1 : 0;
}

void smoke_json(const struct smoke_report *rep, yajl_gen g)
{
	yajl_gen_map_open(g);
	json_key(g, "error");
	json_str(g, rep->error[0] ? rep->error : NULL);
	yajl_gen_map_close(g);
}

int smoke_write_json(const struct smoke_report *rep, FILE *f, bool pretty)
{
	yajl_gen g = json_new();
	int rc;

	smoke_json(rep, g);
	rc = json_flush(g, f, pretty);
	yajl_gen_free(g);
	return rc;
}
