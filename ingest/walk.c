#include "ingest/walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/xalloc.h"

static void add(struct walk *w, const char *path)
{
	xgrow(&w->files, &w->cap, w->n + 1, sizeof(*w->files));
	w->files[w->n++] = xstrdup(path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_dir(struct walk *w, const char *dir, struct diags *d, int depth);

static int walk_entry(struct walk *w, const char *path, struct diags *d, int depth)
{
	struct stat st;
	struct srcpos pos = SRCPOS_FILE(path);

	if (lstat(path, &st) < 0)
		return diag_error(d, "unreadable", &pos, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return walk_dir(w, path, d, depth + 1);
	if (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;	/* linked directories are left out: no loops */
	add(w, path);	/* the reader names what is not a regular file (FIFO, dangling link...) */
	return 0;
}

static int walk_dir(struct walk *w, const char *dir, struct diags *d, int depth)
{
	DIR *dp;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;
	struct srcpos pos = SRCPOS_FILE(dir);

	if (depth > 32)
		return diag_error(d, "too-deep", &pos, "directories nested too deep");
	dp = opendir(dir);
	if (!dp) {
		xgrow(&w->unlisted, &w->cap_unlisted, w->nunlisted + 1, sizeof(*w->unlisted));
		w->unlisted[w->nunlisted++] = xstrdup(dir);
		return diag_error(d, "unreadable", &pos, "%s", strerror(errno));
	}
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		xgrow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xasprintf("%s%s%s", dir,
				       dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
	}
	closedir(dp);
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		if (walk_entry(w, names[i], d, depth) < 0)
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int walk_path(struct walk *w, const char *path, struct diags *d)
{
	struct stat st;
	struct srcpos pos = SRCPOS_FILE(path);
	size_t before = w->n;

	if (!strcmp(path, "-")) {
		add(w, path);
		return 0;
	}
	if (stat(path, &st) < 0) {
		w->missing++;
		return diag_error(d, "unreadable", &pos, "%s", strerror(errno));
	}
	if (!S_ISDIR(st.st_mode)) {
		add(w, path);
		return 0;
	}
	if (walk_dir(w, path, d, 0) < 0)
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
