#include "ingest/trial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arena.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/walk.h"

static const char *base_name(const char *path, char *buf, size_t size)
{
	size_t n = strlen(path);
	const char *p;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (p = path + n; p > path && p[-1] != '/'; p--)
		;
	snprintf(buf, size, "%.*s", (int)(path + n - p), p);
	return buf;
}

/* The run directory of file (the first component below dir), or 0 for a top-level file. */
static size_t run_part(const char *dir, const char *file)
{
	const char *rel = file + strlen(dir);
	const char *slash;

	while (*rel == '/')
		rel++;
	slash = strchr(rel, '/');
	return slash ? (size_t)(slash - file) : 0;
}

static struct run *run_for(struct trial *t, const char *file, size_t len)
{
	char *dir = xstrndup(file, len);
	char name[256];
	struct run *r = NULL;

	for (size_t i = 0; i < t->nruns; i++)
		if (!strcmp(t->runs[i].dir, dir))
			r = &t->runs[i];
	if (!r)
		r = trial_add_run(t, base_name(dir, name, sizeof(name)), dir);
	free(dir);
	return r;
}

static void count(struct trial_stats *s, const struct ingest_file *f)
{
	s->files++;
	if (f->unreadable)
		s->unreadable++;
	else if (f->read)
		s->read++;
	else
		s->skipped++;
}

static void load_file(struct trial *t, const char *dir, const char *file, bool one_run,
		      struct arena *a, struct trial_stats *s)
{
	size_t len = run_part(dir, file);
	struct run *r = NULL;
	struct ingest_file f;
	size_t errors = t->diags.errors;

	if (one_run)
		r = t->nruns ? &t->runs[0] : run_for(t, dir, strlen(dir));
	else if (len)
		r = run_for(t, file, len);
	ingest_file(t, r, file, a, &f);
	count(s, &f);
	if (t->diags.errors > errors && !f.unreadable)
		s->unreadable++;
	if (!r && f.sniff.format != FMT_TRIAL_INI && f.sniff.format != FMT_UNKNOWN) {
		struct srcpos pos = SRCPOS_FILE(f.path);

		diag_warn(&t->diags, "outside-run", &pos,
			  "%s at the top of the trial belongs to no run: move it into a run's directory",
			  format_what(f.sniff.format));
	}
}

struct trial *trial_load(const char *dir, struct diags *d, struct trial_stats *stats)
{
	struct walk w = { .n = 0 };
	struct stat st;
	struct srcpos pos = SRCPOS_FILE(dir);
	struct arena scratch = ARENA_INIT;	/* inspect summaries, not kept */
	struct trial *t;
	bool one_run = true;

	memset(stats, 0, sizeof(*stats));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		diag_error(d, "not-a-trial", &pos, "not a directory: a trial is a directory of runs");
		return NULL;
	}
	if (walk_path(&w, dir, d) < 0 && !w.n) {
		walk_release(&w);
		return NULL;
	}
	for (size_t i = 0; i < w.n; i++)
		if (run_part(dir, w.files[i]))
			one_run = false;
	t = trial_new();
	t->dir = intern_str(&t->strings, dir);
	for (size_t i = 0; i < w.n; i++)
		load_file(t, dir, w.files[i], one_run, &scratch, stats);
	arena_release(&scratch);
	walk_release(&w);
	return t;
}
