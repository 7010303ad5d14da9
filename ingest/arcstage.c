#include "ingest/arcstage.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "ingest/arc.h"

#define CHUNK (256 * 1024)

enum stage_state { ST_NEW, ST_OPEN, ST_CLOSED, ST_BAD };

struct staged {
	struct found_trial *f;
	char *file;		/* DIR/<id>.tar */
	enum stage_state state;
};

/* One archive's trials, by prefix. */
struct group {
	struct staged *v;
	size_t n;
	struct staged *cur;	/* the one being written */
	struct archive *w;
	unsigned char *chunk;
};

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* True when f lies in the archive (and inner member) of g. */
static bool same_archive(const struct found_trial *f, const struct found_trial *g)
{
	return f->archive && g->archive && !strcmp(f->path, g->path) && same(f->member, g->member);
}

static int by_prefix(const void *a, const void *b)
{
	return strcmp(((const struct staged *)a)->f->prefix, ((const struct staged *)b)->f->prefix);
}

/* The trial whose folder holds name: at most one, as trials never nest. */
static struct staged *owner(struct group *g, const char *name)
{
	struct staged key;
	struct found_trial kf;
	char *dir = xstrdup(name);

	key.f = &kf;
	for (char *slash = strchr(dir, '/'); slash; slash = strchr(slash + 1, '/')) {
		struct staged *s;

		*slash = '\0';
		kf.prefix = dir;
		s = bsearch(&key, g->v, g->n, sizeof(*g->v), by_prefix);
		*slash = '/';
		if (s) {
			free(dir);
			return s;
		}
	}
	free(dir);
	return NULL;
}

static void drop(struct staged *s)
{
	s->state = ST_BAD;
	unlink(s->file);
}

static void close_current(struct group *g)
{
	if (!g->cur)
		return;
	if (archive_write_close(g->w) != ARCHIVE_OK)
		drop(g->cur);
	else if (g->cur->state == ST_OPEN)
		g->cur->state = ST_CLOSED;
	archive_write_free(g->w);
	g->w = NULL;
	g->cur = NULL;
}

static bool open_for(struct group *g, struct staged *s)
{
	close_current(g);
	g->w = archive_write_new();
	archive_write_set_format_pax_restricted(g->w);
	archive_write_set_bytes_in_last_block(g->w, 1);
	if (archive_write_open_filename(g->w, s->file) != ARCHIVE_OK) {
		archive_write_free(g->w);
		g->w = NULL;
		drop(s);
		return false;
	}
	g->cur = s;
	s->state = ST_OPEN;
	return true;
}

/* Copies the member at a, described by e, into the current trial's tar: false when it cannot. */
static bool copy_member(struct group *g, struct arc *a, const struct arc_entry *e)
{
	struct archive_entry *we = archive_entry_new();
	int64_t total = 0;
	ssize_t got;
	bool ok;

	archive_entry_set_pathname(we, e->name);
	archive_entry_set_filetype(we, AE_IFREG);
	archive_entry_set_perm(we, 0644);
	archive_entry_set_size(we, e->size);
	archive_entry_set_mtime(we, (time_t)e->mtime, 0);
	ok = archive_write_header(g->w, we) == ARCHIVE_OK;
	archive_entry_free(we);
	while (ok && (got = arc_read(a, g->chunk, CHUNK)) > 0) {
		total += got;
		ok = total <= e->size && archive_write_data(g->w, g->chunk, (size_t)got) == got;
	}
	return ok && got == 0 && total == e->size;
}

/* One member of the archive: into its trial's tar, or its trial marked as not staged. */
static void stage_member(struct group *g, struct arc *a, const struct arc_entry *e)
{
	struct staged *s = owner(g, e->name);

	if (!s || s->state == ST_BAD)
		return;
	if (s->state == ST_CLOSED || e->refused || e->size < 0 || e->mtime < 0) {
		if (g->cur == s)
			close_current(g);
		drop(s);
		return;
	}
	if (g->cur != s && !open_for(g, s))
		return;
	if (!copy_member(g, a, e)) {
		close_current(g);
		drop(s);
	}
}

/* Reads the archive of g once, writing each trial's tar. */
static void stage_group(struct group *g, const struct discovery *dv)
{
	const struct found_trial *f = g->v[0].f;
	struct arc *outer = arc_open(f->path, &dv->limits), *inner = NULL, *a = outer;
	struct arc_entry e;
	bool fatal = false;

	if (f->member) {
		unsigned char head[4096];
		ssize_t n = -1;

		while (arc_next(outer, &e) > 0)
			if (!strcmp(e.name, f->member)) {
				n = arc_read_head(outer, head, sizeof(head));
				break;
			}
		a = inner = n < 0 ? NULL : arc_open_member(outer, f->member, head, (size_t)n);
	}
	g->chunk = xmalloc(CHUNK);
	while (a && !fatal && arc_next(a, &e) > 0) {
		if (e.file && e.name[0])
			stage_member(g, a, &e);
		arc_why(a, &fatal);
	}
	close_current(g);
	if (!a || (arc_error(a) && fatal))	/* what the fault cut is read from the archive */
		for (size_t i = 0; i < g->n; i++)
			if (g->v[i].state != ST_BAD)
				drop(&g->v[i]);
	free(g->chunk);
	arc_close(inner);
	arc_close(outer);
}

/* True when the archive of dv->trials[i] told of damage at discovery (an entry with an error). */
static bool found_damaged(const struct discovery *dv, size_t i)
{
	for (size_t j = 0; j < dv->n; j++)
		if (dv->trials[j].error && same_archive(&dv->trials[j], &dv->trials[i]))
			return true;
	return false;
}

size_t arc_stage(struct discovery *dv, const bool *want, const char *dir)
{
	bool *seen = xcalloc(dv->n + 1, sizeof(*seen));
	size_t staged = 0;

	for (size_t i = 0; i < dv->n; i++) {
		struct group g = { .n = 0 };

		if (seen[i] || !want[i] || !dv->trials[i].prefix || !dv->trials[i].archive)
			continue;
		g.v = xcalloc(dv->n - i, sizeof(*g.v));
		for (size_t j = i; j < dv->n; j++)
			if (!seen[j] && want[j] && dv->trials[j].prefix &&
			    same_archive(&dv->trials[j], &dv->trials[i])) {
				seen[j] = true;
				g.v[g.n++] = (struct staged){ .f = &dv->trials[j], .state = ST_NEW,
					.file = xasprintf("%s/%s.tar", dir, dv->trials[j].id) };
			}
		if (g.n >= 2 && !found_damaged(dv, i)) {
			qsort(g.v, g.n, sizeof(*g.v), by_prefix);
			stage_group(&g, dv);
		}
		for (size_t k = 0; k < g.n; k++) {
			if (g.v[k].state == ST_CLOSED) {
				free(g.v[k].f->staged);
				g.v[k].f->staged = g.v[k].file;
				staged++;
			} else {
				free(g.v[k].file);
			}
		}
		free(g.v);
	}
	free(seen);
	return staged;
}
