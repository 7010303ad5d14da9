#include "ingest/trial.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/xalloc.h"
#include "ingest/codescan.h"
#include "ingest/ingest.h"
#include "ingest/parread.h"
#include "ingest/sniff.h"
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

static void note(struct trial_stats *s, const char *path, const char *why)
{
	xgrow(&s->notes, &s->cap_notes, s->nnotes + 1, sizeof(*s->notes));
	s->notes[s->nnotes++] = (struct trial_note){ path, why };
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
	if (f->unreadable || !f->read)
		note(s, f->path, f->skipped ? f->skipped : "cannot be read");
}

/* A file that is not read (an archive member whose name or link leaves the archive). */
static void refuse_file(struct trial *t, const char *file, const char *why, struct trial_stats *s)
{
	const char *path = intern_str(&t->strings, file);
	struct srcpos pos = SRCPOS_FILE(path);

	s->files++;
	s->unreadable++;
	note(s, path, why);
	diag_error(&t->diags, "archive-member", &pos, "%s", why);
}

static int jobs_wanted;	/* trial_set_jobs(); 0: one per online CPU */

void trial_set_jobs(int n)
{
	jobs_wanted = n > 0 ? n : 0;
}

int trial_jobs(void)
{
	long cpus;

	if (jobs_wanted > 0)
		return jobs_wanted;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus > 0 ? (int)(cpus < 1024 ? cpus : 1024) : 1;
}

static void load_file(struct trial *t, const struct trial_source *src, size_t i, bool one_run,
		      struct parread *par, struct arena *a, struct trial_stats *s)
{
	const char *dir = src->dir, *file = src->files[i];
	size_t len = run_part(dir, file);
	struct run *r = NULL;
	struct ingest_file f;
	size_t errors = t->diags.errors;

	if (src->refused && src->refused[i]) {
		refuse_file(t, file, src->refused[i], s);
		return;
	}
	if (one_run)
		r = t->nruns ? &t->runs[0] : run_for(t, dir, strlen(dir));
	else if (len)
		r = run_for(t, file, len);
	if (!parread_has(par, i) || parread_take(par, i, t, r, &f) < 0)
		src->ingest(src->arg, t, r, i, a, &f);
	if (src->on_disk && r && !f.read && !f.unreadable && !f.left_out &&
	    codescan_run_file(t, r, f.path) > 0) {
		f.read = true;	/* a binary with GPU code: the run's readiness judges it */
		f.skipped = NULL;
	}
	count(s, &f);
	if (r && !f.read && !f.unreadable && !f.left_out) {
		struct srcpos pos = SRCPOS_FILE(f.path);

		diag_warn(&t->diags, "not-read", &pos, "in run '%s' but not read: %s", r->name,
			  f.skipped ? f.skipped : "nothing in it that scaleaudit reads");
	}
	if (t->diags.errors > errors && !f.unreadable) {
		s->unreadable++;
		if (f.read)
			note(s, f.path, "read only in part (the errors above say why)");
	}
	if (!r && f.sniff.format != FMT_TRIAL_INI && f.sniff.format != FMT_UNKNOWN) {
		struct srcpos pos = SRCPOS_FILE(f.path);

		diag_warn(&t->diags, "outside-run", &pos,
			  "%s at the top of the trial belongs to no run: move it into a run's directory",
			  format_what(f.sniff.format));
	}
}

/*
 * Where in path, a file under dir, its part below dir begins (depth 0), or
 * ends after depth directories (the length of that directory's path); 0 when
 * the file is not that deep.
 */
static size_t dir_prefix(const char *dir, const char *path, int depth)
{
	const char *p = path + strlen(dir);

	while (*p == '/')
		p++;
	if (!depth)
		return (size_t)(p - path);
	for (int i = 0; i < depth; i++) {
		const char *slash = strchr(p, '/');

		if (!slash)
			return 0;
		p = slash + 1;
	}
	return (size_t)(p - path - 1);
}

/* What the head of a file is, by its content; FMT_UNKNOWN when it cannot be read. */
static enum format head_format(void *arg, size_t i)
{
	const char *path = ((const struct walk *)arg)->files[i];
	unsigned char head[4096];
	struct sniff sn;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* a FIFO must not block */
	struct stat st;
	ssize_t n = -1;

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = read(fd, head, sizeof(head));
	if (fd >= 0)
		close(fd);
	if (n < 0)
		return FMT_UNKNOWN;
	sniff_bytes(head, (size_t)n, (size_t)n < sizeof(head), &sn);
	return sn.format;
}

/*
 * The trials below dir (docs: a directory of several trials is refused): a
 * sub-directory that holds a trial.ini, or whose own sub-directories hold a
 * run.ini (runs of a trial of its own). Names them in *d and returns how many.
 */
static size_t nested_trials(const struct trial_source *src, struct diags *d)
{
	const char *dir = src->dir;
	struct buf names = BUF_INIT;
	struct srcpos pos = SRCPOS_FILE(dir);
	size_t n = 0, last = 0;
	const char *prev = NULL;

	buf_init(&names, 0);
	for (size_t i = 0; i < src->n; i++) {
		const char *f = src->files[i];
		size_t one = dir_prefix(dir, f, 1), two = dir_prefix(dir, f, 2);
		enum format fmt;

		if (!one || (prev && one == last && !strncmp(prev, f, one)))
			continue;	/* a top-level file, or a trial already named */
		if (src->refused && src->refused[i])
			continue;
		fmt = src->head(src->arg, i);
		if (fmt != FMT_TRIAL_INI && !(fmt == FMT_RUN_INI && two))
			continue;
		prev = f;
		last = one;
		if (n++ < 20)
			buf_addf(&names, "%s%.*s", n > 1 ? ", " : "", (int)(one - dir_prefix(dir, f, 0)),
				 f + dir_prefix(dir, f, 0));
	}
	if (n)
		diag_error(d, "several-trials", &pos,
			   "holds %zu trial%s, not the runs of one: %s%s: analyse one of them, "
			   "or every one with 'scaleaudit batch %s'", n, n == 1 ? "" : "s", names.data,
			   n > 20 ? ", ..." : "", dir);
	buf_release(&names);
	return n;
}

/* Same GPU work, event by event (readers hand events over sorted), same steps and memory samples. */
static bool same_trace(const struct rank *x, const struct rank *y)
{
	if (x->nev != y->nev || x->nsteps != y->nsteps || x->nmem != y->nmem || !x->nev)
		return false;
	for (size_t i = 0; i < x->nev; i++)
		if (x->ev[i].start != y->ev[i].start || x->ev[i].end != y->ev[i].end ||
		    x->ev[i].name != y->ev[i].name)	/* interned: equal names, equal pointers */
			return false;
	return true;
}

/*
 * One trace given twice as two ranks (a copied file, the same rank saved
 * under two names): the later one is left out, with a warning naming both.
 */
static void drop_duplicate_traces(struct trial *t, struct run *r)
{
	for (size_t i = 0; i < r->nranks; i++) {
		for (size_t j = i + 1; j < r->nranks;) {
			struct rank *y = &r->ranks[j];
			struct srcpos pos = SRCPOS_FILE(y->trace);

			if (!same_trace(&r->ranks[i], y)) {
				j++;
				continue;
			}
			diag_warn(&t->diags, "duplicate-trace", &pos,
				  "holds the same GPU work as %s (%zu events): one trace given as two "
				  "ranks; this one is left out", r->ranks[i].trace, y->nev);
			rank_free_arrays(y);
			memmove(y, y + 1, (r->nranks - j - 1) * sizeof(*y));
			r->nranks--;
		}
	}
}

/*
 * The traces of runs that worker threads may read while the main thread
 * reads the rest (files on disk only: an archive is read in one pass).
 */
static struct parread *start_workers(const struct trial_source *src, bool one_run)
{
	int jobs = trial_jobs();
	bool *want;
	struct parread *p;

	if (jobs < 2 || !src->on_disk)
		return NULL;
	want = xcalloc(src->n ? src->n : 1, sizeof(*want));
	for (size_t i = 0; i < src->n; i++)
		want[i] = !(src->refused && src->refused[i]) &&
			  (one_run || run_part(src->dir, src->files[i])) &&
			  parread_is_trace(src->files[i]);
	p = parread_start(src, want, jobs);
	free(want);
	return p;
}

void trial_stats_release(struct trial_stats *stats)
{
	free(stats->notes);
	memset(stats, 0, sizeof(*stats));
}

/* Reads the files of src into a new trial: the traces by worker threads when parallel. */
static struct trial *load_files(const struct trial_source *src, bool one_run, bool parallel,
				struct trial_stats *stats)
{
	struct arena scratch = ARENA_INIT;	/* inspect summaries, not kept */
	struct trial *t = trial_new();
	struct parread *par;

	t->dir = intern_str(&t->strings, src->dir);
	parread_big_arrays_mapped();
	par = parallel ? start_workers(src, one_run) : NULL;
	for (size_t i = 0; i < src->n; i++)
		load_file(t, src, i, one_run, par, &scratch, stats);
	parread_end(par);
	for (size_t i = 0; i < t->nruns; i++)
		drop_duplicate_traces(t, &t->runs[i]);
	arena_release(&scratch);
	return t;
}

struct trial *trial_load_source(const struct trial_source *src, struct diags *d,
				struct trial_stats *stats)
{
	struct trial *t;
	bool one_run = true;

	memset(stats, 0, sizeof(*stats));
	ingest_trial_begin();	/* before any file is read, on any thread */
	if ((stats->trials = nested_trials(src, d)))
		return NULL;
	for (size_t i = 0; i < src->n; i++)
		if (run_part(src->dir, src->files[i]) && !(src->refused && src->refused[i]))
			one_run = false;
	t = load_files(src, one_run, true, stats);
	if (ingest_trial_limited() && trial_jobs() > 1 && src->on_disk) {
		/*
		 * The trial's event cap or the memory budget cut a file: which one
		 * depends on the order the workers read in. Read again in turn, so
		 * that the outcome is the same for any --jobs.
		 */
		trial_free(t);
		trial_stats_release(stats);
		ingest_trial_begin();
		t = load_files(src, one_run, false, stats);
	}
	return t;
}

static void ingest_walked(void *arg, struct trial *t, struct run *r, size_t i, struct arena *a,
			  struct ingest_file *out)
{
	ingest_file(t, r, ((const struct walk *)arg)->files[i], a, out);
}

/* The directories that could not be listed: their files are missing, so the trial is partial. */
static void unlisted(struct trial *t, const struct walk *w, struct trial_stats *s)
{
	for (size_t i = 0; i < w->nunlisted; i++) {
		s->unreadable++;
		note(s, intern_str(&t->strings, w->unlisted[i]),
		     "directory cannot be listed: its files are not read");
	}
}

struct trial *trial_load(const char *dir, struct diags *d, struct trial_stats *stats)
{
	struct walk w = { .n = 0 };
	struct stat st;
	struct srcpos pos = SRCPOS_FILE(dir);
	struct trial_source src = { .dir = dir, .head = head_format, .ingest = ingest_walked,
				    .arg = &w, .on_disk = true };
	struct diags wd = DIAGS_INIT;	/* the walk's: the trial's own once it is loaded */
	struct trial *t;

	memset(stats, 0, sizeof(*stats));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		diag_error(d, "not-a-trial", &pos, "not a directory: a trial is a directory of runs");
		return NULL;
	}
	if (walk_path(&w, dir, &wd) < 0 && !w.n) {
		diags_move(d, &wd);
		walk_release(&w);
		return NULL;
	}
	src.files = (const char *const *)w.files;
	src.n = w.n;
	t = trial_load_source(&src, d, stats);
	if (t)
		unlisted(t, &w, stats);
	diags_move(t ? &t->diags : d, &wd);	/* a run that could not be listed is a finding */
	walk_release(&w);
	return t;
}

/* Components compared one by one, as walk sorts each directory's names. */
int trial_path_cmp(const char *a, const char *b)
{
	for (;;) {
		size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
		int c = strncmp(a, b, la < lb ? la : lb);

		if (c)
			return c;
		if (la != lb)	/* one name is a prefix of the other: the shorter first */
			return la < lb ? -1 : 1;
		if (!a[la] || !b[lb])
			return !a[la] ? (b[lb] ? -1 : 0) : 1;
		a += la + 1;
		b += lb + 1;
	}
}
