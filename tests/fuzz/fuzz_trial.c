/*
 * Fuzz target: a whole trial. The input is a little container of files, each
 * opened by a line "=== NAME" and running to the next such line:
 *
 *   === trial.ini
 *   [trial]
 *   ...
 *   === 1gpu/trace.json
 *   {"traceEvents": [...]}
 *
 * (bytes before the first header are ignored; a name that is empty, absolute,
 * climbs with "..", holds other than [A-Za-z0-9._/-] or goes deeper than four
 * levels becomes "fileN"). The files are laid out in a private temporary
 * directory, loaded with trial_load(), analysed, written as analysis.json and
 * as the text of `analyze`, and every report chart (and the page-1 chart) is
 * laid out and dumped. PNG, PDF, SVG and HTML are not encoded: too slow for
 * fuzzing. The directory is removed after each input.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/diag.h"
#include "ingest/trial.h"
#include "render/analysis_json.h"
#include "render/analysis_text.h"
#include "render/charts.h"
#include "render/page1.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_TRIAL_FILES 24
#define FUZZ_NAME_MAX 128
#define FUZZ_DEPTH 4

static const char header[] = "=== ";

/* True when name[0..n) may be used as a path below the trial. */
static bool name_ok(const char *name, size_t n)
{
	int depth = 1;

	if (!n || n >= FUZZ_NAME_MAX || name[0] == '/' || name[n - 1] == '/')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/",
			    name[i]) || !name[i])
			return false;
		if (name[i] == '/' && (name[i + 1] == '/' || ++depth > FUZZ_DEPTH))
			return false;
		if (name[i] == '.' && (i == 0 || name[i - 1] == '/') && i + 1 < n &&
		    (name[i + 1] == '.' || name[i + 1] == '/'))
			return false;
	}
	return !(n == 1 && name[0] == '.');
}

/* Creates dir/name (and the folders above it) holding p[0..n). */
static void put_file(const char *dir, const char *name, size_t nlen, const uint8_t *p, size_t n,
		     int i)
{
	char path[4096];
	int fd, len;

	if (name_ok(name, nlen))
		len = snprintf(path, sizeof(path), "%s/%.*s", dir, (int)nlen, name);
	else
		len = snprintf(path, sizeof(path), "%s/file%d", dir, i);
	if (len < 0 || (size_t)len >= sizeof(path))
		return;
	for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*s = '/';
			return;
		}
		*s = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			break;
		p += w;
		n -= (size_t)w;
	}
	close(fd);
}

/* The first header at a line start at or after from (itself a line start), or NULL. */
static const uint8_t *next_header(const uint8_t *from, const uint8_t *end)
{
	const size_t hl = sizeof(header) - 1;

	for (const uint8_t *q = from; q && (size_t)(end - q) >= hl;) {
		const uint8_t *nl;

		if (!memcmp(q, header, hl))
			return q;
		nl = memchr(q, '\n', (size_t)(end - q));
		q = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* Lays the container out in dir: each file ends at the "\n" before the next header. */
static void unpack(const char *dir, const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *h = next_header(data, end);

	for (int i = 0; h && i < FUZZ_TRIAL_FILES; i++) {
		const uint8_t *name = h + sizeof(header) - 1;
		const uint8_t *eol = memchr(name, '\n', (size_t)(end - name));
		const uint8_t *body = eol ? eol + 1 : end;
		const uint8_t *next = next_header(body, end);
		const uint8_t *stop = next ? (next > body ? next - 1 : body) : end;

		put_file(dir, (const char *)name, (size_t)((eol ? eol : end) - name), body,
			 (size_t)(stop - body), i);
		h = next;
	}
}

/* Every chart the report would draw, laid out and dumped. */
static void charts(const struct analysis *a)
{
	struct chart_layout c;
	struct buf dump;
	const char *why;

	buf_init(&dump, 1 << 24);
	for (size_t i = 0; i < chart_ndefs; i++) {
		if (chart_build(i, a, &c, &why) == 0)
			chart_layout_dump(&c, &dump);
		chart_layout_release(&c);
		buf_reset(&dump);
	}
	if (page1_chart(a, &c) == 0) {
		chart_layout_dump(&c, &dump);
		chart_layout_release(&c);
	}
	buf_release(&dump);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[4096];
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	struct trial *t;
	struct analysis *a = NULL;

	if (fuzz_dir(dir, sizeof(dir)) < 0)
		return 0;
	unpack(dir, data, size);
	memset(&st, 0, sizeof(st));
	t = trial_load(dir, &d, &st);
	if (t && t->nruns)
		a = analysis_run(t);
	if (a && fuzz_null()) {
		analysis_write_json(a, fuzz_null());
		analysis_write_text(a, fuzz_null(), NULL);
		charts(a);
	}
	analysis_free(a);
	trial_free(t);
	trial_stats_release(&st);
	diags_release(&d);
	fuzz_remove(dir);
	return 0;
}
