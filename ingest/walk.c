#include "ingest/walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/outfile.h"
#include "core/xalloc.h"

#define WALK_PATH_MAX_DEPTH 32	/* directory levels a trial may nest */

struct walker {
	const struct walk_policy *p;
	const struct walk_visitor *v;
	struct walk_stats *st;
};

/* One more entry met; false once the policy's limit is passed (the walk stops). */
static bool count(struct walker *w)
{
	w->st->entries++;
	if (w->p->max_entries && w->st->entries > w->p->max_entries)
		w->st->stopped = true;
	return !w->st->stopped;
}

static void stat_entry(struct walk_entry *e)
{
	struct stat st;

	if (lstat(e->path, &st) < 0) {
		e->type = WALK_NOSTAT;
		e->err = errno;
		return;
	}
	e->mode = st.st_mode;
	e->type = S_ISDIR(st.st_mode) ? WALK_DIR : S_ISLNK(st.st_mode) ? WALK_LINK : WALK_FILE;
	if (e->type == WALK_LINK && stat(e->path, &st) < 0) {
		e->err = errno;
		return;
	}
	if (e->type == WALK_LINK)
		e->target = st.st_mode;
	e->dev = st.st_dev;
	e->ino = st.st_ino;
}

/* The directories the walk is inside, innermost first: a linked one among them is a loop. */
struct inside {
	dev_t dev;
	ino_t ino;
	const struct inside *up;
};

static bool is_inside(const struct inside *in, const struct walk_entry *e)
{
	for (; in; in = in->up)
		if (in->dev == e->dev && in->ino == e->ino)
			return true;
	return false;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct walk_entry *)a)->name, ((const struct walk_entry *)b)->name);
}

static void free_entries(struct walk_entry *e, char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(e);
}

/* The visible names of dp as paths below dir (owned), in readdir's order; stops with the walk. */
static char **read_names(struct walker *w, DIR *dp, const char *dir, size_t *n)
{
	const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
	char **paths = NULL;
	size_t cap = 0;
	struct dirent *de;

	while ((de = readdir(dp))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!count(w))
			break;
		if (de->d_name[0] == '.')
			continue;
		xgrow(&paths, &cap, *n + 1, sizeof(*paths));
		paths[(*n)++] = xasprintf("%s%s%s", dir, sep, de->d_name);
	}
	return paths;
}

/*
 * The visible entries of dir, sorted and stated, in *e, their paths in
 * *paths (both owned). Returns 0, or an errno when dir cannot be listed;
 * *n is 0 when the walk stopped.
 */
static int list(struct walker *w, const struct walk_entry *dir, struct walk_entry **e,
		char ***paths, size_t *n)
{
	DIR *dp = opendir(dir->path);
	size_t len = strlen(dir->path);

	*e = NULL;
	*paths = NULL;
	*n = 0;
	if (!dp)
		return errno;
	*paths = read_names(w, dp, dir->path, n);
	closedir(dp);
	if (w->st->stopped) {
		free_entries(NULL, *paths, *n);
		*paths = NULL;
		*n = 0;
		return 0;
	}
	*e = xcalloc(*n ? *n : 1, sizeof(**e));
	for (size_t i = 0; i < *n; i++) {
		const char *p = (*paths)[i];

		(*e)[i] = (struct walk_entry){ .path = p, .depth = dir->depth + 1,
					       .name = p + len + (p[len] == '/') };
	}
	if (*n > 1 && !(w->p->flags & WALK_DIR_ORDER))
		qsort(*e, *n, sizeof(**e), by_name);
	for (size_t i = 0; i < *n; i++)
		stat_entry(&(*e)[i]);
	return 0;
}

/* Tells v that dir, which it wanted entered, is not: type says why. */
static void refuse(struct walker *w, const struct walk_entry *dir, enum walk_type type, int err)
{
	struct walk_entry r = *dir;

	r.type = type;
	r.err = err;
	w->v->visit(w->v->user, &r);
}

/* Whether e is a directory to enter, if the visitor wants: a linked one only under WALK_FOLLOW_LINKS. */
static bool enterable(const struct walker *w, const struct walk_entry *e)
{
	return e->type == WALK_DIR || (e->type == WALK_LINK && !e->err && S_ISDIR(e->target) &&
				       (w->p->flags & WALK_FOLLOW_LINKS));
}

static void walk_listing(struct walker *w, const struct walk_entry *dir, const struct inside *up)
{
	struct inside here = { .dev = dir->dev, .ino = dir->ino, .up = up };
	struct walk_entry *e;
	char **paths;
	size_t n;
	int err = list(w, dir, &e, &paths, &n);
	bool subdirs;

	if (err) {
		refuse(w, dir, WALK_UNLISTED, err);
		return;
	}
	subdirs = n && (!w->v->listed || w->v->listed(w->v->user, dir, e, n));
	for (size_t i = 0; i < n && !w->st->stopped; i++) {
		bool enter = w->v->visit(w->v->user, &e[i]);

		if (!enterable(w, &e[i]) || !enter || !subdirs)
			continue;
		if (e[i].depth > w->p->max_depth)
			refuse(w, &e[i], WALK_TOO_DEEP, 0);
		else if (is_inside(&here, &e[i]))
			refuse(w, &e[i], WALK_LOOP, 0);
		else
			walk_listing(w, &e[i], &here);
	}
	free_entries(e, paths, n);
}

void walk_dir(const char *dir, const struct walk_policy *p, const struct walk_visitor *v,
	      struct walk_stats *st)
{
	struct walker w = { .p = p, .v = v, .st = st };
	struct walk_entry top = { .type = WALK_DIR, .path = dir, .name = dir };
	struct stat sb;

	if (stat(dir, &sb) == 0) {
		top.dev = sb.st_dev;
		top.ino = sb.st_ino;
	}
	if (count(&w))
		walk_listing(&w, &top, NULL);
}

/* ---- walk_path: the files under the paths named, as a list ---- */

struct lister {
	struct walk *w;
	struct diags *d;
	bool failed;		/* some entry or directory could not be read */
};

static void walk_add(struct walk *w, const char *path)
{
	xgrow(&w->files, &w->cap, w->n + 1, sizeof(*w->files));
	w->files[w->n++] = xstrdup(path);
}

static void add_unlisted(struct walk *w, const char *dir)
{
	xgrow(&w->unlisted, &w->cap_unlisted, w->nunlisted + 1, sizeof(*w->unlisted));
	w->unlisted[w->nunlisted++] = xstrdup(dir);
}

/* A report or batch folder written inside the trial: said, and never read as a run. */
static bool own_output(struct lister *l, const struct walk_entry *e)
{
	struct srcpos pos = SRCPOS_FILE(e->path);

	if (!output_dir_is_ours(e->path))
		return false;
	diag_add(l->d, DIAG_INFO, "own-output", &pos, "scaleaudit's own output (a report or a batch "
		 "folder): not read as a run");
	return true;
}

/* What the list says: an error that fails the path, else whether a directory is entered. */
static bool list_visit(void *user, const struct walk_entry *e)
{
	struct lister *l = user;
	struct srcpos pos = SRCPOS_FILE(e->path);

	switch (e->type) {
	case WALK_DIR:
		return !own_output(l, e);
	case WALK_LINK:
		if (!e->err && S_ISDIR(e->target))
			return !own_output(l, e);	/* walked as if it were there; a loop is refused */
		walk_add(l->w, e->path);	/* the reader names a dangling link */
		return false;
	case WALK_LOOP:
		diag_warn(l->d, "link-loop", &pos, "a symbolic link back into a directory it is in: "
			     "not followed");
		return false;
	case WALK_FILE:
		walk_add(l->w, e->path);	/* and what is not a regular file (FIFO...) */
		return false;
	case WALK_UNLISTED:
		add_unlisted(l->w, e->path);
		diag_error(l->d, "unreadable", &pos, "%s", strerror(e->err));
		break;
	case WALK_NOSTAT:
		diag_error(l->d, "unreadable", &pos, "%s", strerror(e->err));
		break;
	case WALK_TOO_DEEP:
		diag_error(l->d, "too-deep", &pos, "directories nested too deep");
		break;
	}
	l->failed = true;
	return false;
}

int walk_path(struct walk *w, const char *path, struct diags *d)
{
	static const struct walk_policy policy = { .flags = WALK_FOLLOW_LINKS, .max_depth = WALK_PATH_MAX_DEPTH };
	struct lister l = { .w = w, .d = d };
	const struct walk_visitor v = { .visit = list_visit, .user = &l };
	struct walk_stats st = { 0 };
	struct stat sb;
	struct srcpos pos = SRCPOS_FILE(path);
	size_t before = w->n;

	if (!strcmp(path, "-")) {
		walk_add(w, path);
		return 0;
	}
	if (stat(path, &sb) < 0) {
		w->missing++;
		return diag_error(d, "unreadable", &pos, "%s", strerror(errno));
	}
	if (!S_ISDIR(sb.st_mode)) {
		walk_add(w, path);
		return 0;
	}
	walk_dir(path, &policy, &v, &st);
	if (l.failed)
		w->missing++;
	if (w->n == before) {
		w->empty_dirs++;
		return diag_error(d, "empty", &pos, "directory holds no files");
	}
	return 0;
}

void walk_release(struct walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->files[i]);
	free(w->files);
	for (size_t i = 0; i < w->nunlisted; i++)
		free(w->unlisted[i]);
	free(w->unlisted);
	memset(w, 0, sizeof(*w));
}
