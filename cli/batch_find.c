/*
 * batch_find: trials in plain directories (the archives' own discovery
 * replaces this walk once it lands).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/batch.h"
#include "cli/cli.h"
#include "core/buf.h"
#include "core/xalloc.h"

#define FIND_DEPTH 16	/* directories below an operand that are searched */

char **batch_list_dir(const char *dir, size_t *n)
{
	struct dirent **ents;
	int k = scandir(dir, &ents, NULL, alphasort);
	char **names;
	size_t m = 0;

	if (k < 0)
		return NULL;
	names = xcalloc((size_t)k + 1, sizeof(*names));
	for (int i = 0; i < k; i++) {
		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, ".."))
			names[m++] = xstrdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	*n = m;
	return names;
}

void batch_free_list(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool has_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool yes = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return yes;
}

/* A directory with trial.ini, or with a sub-directory holding run.ini. */
static bool is_trial(const char *dir, char **names, size_t n)
{
	bool yes = has_file(dir, "trial.ini");

	for (size_t i = 0; i < n && !yes; i++) {
		char *sub = xasprintf("%s/%s", dir, names[i]);

		yes = is_dir(sub) && has_file(sub, "run.ini");
		free(sub);
	}
	return yes;
}

/* ---------------------------------------------------------------- fingerprint */

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		*h = (*h ^ s[i]) * 0x100000001b3ULL;
}

/* Hashes every file below dir: its path below the trial, size and modification time, in name order. */
static void hash_tree(const char *dir, const char *rel, uint64_t *h, int depth)
{
	size_t n = 0;
	char **names = depth < FIND_DEPTH ? batch_list_dir(dir, &n) : NULL;

	for (size_t i = 0; names && i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		char *r = xasprintf("%s%s%s", rel, *rel ? "/" : "", names[i]);
		struct stat st;

		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			hash_tree(path, r, h, depth + 1);
		} else if (stat(path, &st) == 0) {
			int64_t v[3] = { st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec };

			fnv(h, r, strlen(r) + 1);
			fnv(h, v, sizeof(v));
		}
		free(r);
		free(path);
	}
	if (names)
		batch_free_list(names, n);
}

static char *fingerprint(const char *dir)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	hash_tree(dir, "", &h, 0);
	return xasprintf("%016" PRIx64, h);
}

/* ---------------------------------------------------------------- ids */

/* The last component of path, without trailing slashes. */
static char *base_name(const char *path)
{
	size_t n = strlen(path), b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (b = n; b > 0 && path[b - 1] != '/'; b--)
		;
	return xstrndup(path + b, n - b);
}

/* NAME-REL with every character but letters, digits, '.', '_' and '-' turned into '-'. */
static char *make_id(const char *operand, const char *rel)
{
	char *base = base_name(operand);
	char *id = *rel ? xasprintf("%s-%s", base, rel) : xstrdup(base);

	for (char *p = id; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			*p = '-';
	if (*id == '.' || !*id) {
		char *t = xasprintf("trial%s", id);

		free(id);
		id = t;
	}
	free(base);
	return id;
}

/* An id already taken gets the hash of its location, so it stays the same from run to run. */
static void unique_id(struct batch_trials *t, struct batch_trial *x)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].id, x->id))
			continue;
		fnv(&h, x->location, strlen(x->location));
		char *id = xasprintf("%s-%08" PRIx32, x->id, (uint32_t)h);

		free(x->id);
		x->id = id;
		return;
	}
}

static void add_trial(struct batch_trials *t, const char *operand, const char *dir, const char *rel)
{
	struct batch_trial x = {
		.id = make_id(operand, rel),
		.source = xstrdup(operand),
		.location = xstrdup(dir),
		.fingerprint = fingerprint(dir),
	};

	unique_id(t, &x);
	xgrow(&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n++] = x;
}

/* ---------------------------------------------------------------- walk */

static int walk(struct batch_trials *t, const char *operand, const char *dir, const char *rel, int depth)
{
	size_t n = 0;
	char **names = batch_list_dir(dir, &n);
	int rc = 0;

	if (!names)
		return error("%s: %s", dir, strerror(errno));
	if (is_trial(dir, names, n)) {
		add_trial(t, operand, dir, rel);
		batch_free_list(names, n);
		return 0;
	}
	for (size_t i = 0; i < n && depth < FIND_DEPTH; i++) {
		char *sub = xasprintf("%s/%s", dir, names[i]);
		char *r = xasprintf("%s%s%s", rel, *rel ? "/" : "", names[i]);

		if (is_dir(sub) && walk(t, operand, sub, r, depth + 1) < 0)
			rc = -1;
		free(r);
		free(sub);
	}
	batch_free_list(names, n);
	return rc;
}

int batch_find(char *const *paths, int n, struct batch_trials *out)
{
	int rc = 0;

	for (int i = 0; i < n; i++) {
		size_t before = out->n;

		errno = 0;
		if (!is_dir(paths[i])) {
			rc = error("%s: %s", paths[i], errno ? strerror(errno) : "not a directory");
			continue;
		}
		if (walk(out, paths[i], paths[i], "", 0) < 0)
			rc = -1;
		if (out->n == before)
			add_trial(out, paths[i], paths[i], "");
	}
	return rc;
}

void batch_trials_release(struct batch_trials *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].id);
		free(t->v[i].source);
		free(t->v[i].location);
		free(t->v[i].fingerprint);
	}
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}
