/*
 * walk: the one directory walker, shared by the trial loader, inspect,
 * stack and the Python environment scan. A directory is walked depth first
 * in name order (or its own order); names beginning with '.' are counted but never visited,
 * and a symbolic link is entered only under WALK_FOLLOW_LINKS, never into a
 * directory the walk is already inside (no loops). A policy bounds the walk
 * (depth, entries); a visitor decides what to enter and what each entry
 * means, and says its own messages: the walker prints and records nothing.
 *
 * walk_path() is the walk of the trial loader and inspect: the files named
 * by command-line paths, as a list. Every entry but a directory is listed,
 * regular file or not (FIFO, socket, device, dangling or looping link): the
 * reader leaves those out with a warning. A linked directory is walked as if
 * it were there (a run directory kept elsewhere and linked in), except one
 * that leads back into a directory it is inside: that is a "link-loop"
 * warning.
 */
#ifndef INGEST_WALK_H
#define INGEST_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/diag.h"

/* What a walk met. */
enum walk_type {
	WALK_FILE,		/* neither a directory nor a symbolic link: regular, FIFO, socket... */
	WALK_DIR,		/* a directory: the visitor says whether to enter it */
	WALK_LINK,		/* a symbolic link: target is where it leads, or err why not */
	WALK_NOSTAT,		/* lstat() failed: err */
	WALK_UNLISTED,		/* a directory to enter that could not be listed: err */
	WALK_TOO_DEEP,		/* a directory to enter that lies past the policy's max_depth */
	WALK_LOOP,		/* a linked directory to enter that the walk is already inside */
};

struct walk_entry {
	enum walk_type type;
	const char *path;	/* the directory's path, '/', the name; depth 0: as named */
	const char *name;	/* the last component of path */
	int depth;		/* 0: the named directory, 1: its entries, ... */
	mode_t mode;		/* lstat()'s st_mode (WALK_FILE, WALK_DIR, WALK_LINK) */
	mode_t target;		/* WALK_LINK: stat()'s st_mode; 0 when err */
	dev_t dev;		/* the directory's (a linked one's target's) device and inode */
	ino_t ino;
	int err;		/* errno of WALK_NOSTAT, WALK_UNLISTED, or a WALK_LINK that stat() failed */
};

enum walk_flag {
	WALK_DIR_ORDER = 1 << 0,	/* entries in the directory's own order (readdir's), not by name */
	WALK_FOLLOW_LINKS = 1 << 1,	/* a linked directory the visitor wants entered is entered */
};

struct walk_policy {
	unsigned flags;		/* enum walk_flag */
	int max_depth;		/* directories listed at most this many levels below the named one */
	size_t max_entries;	/* entries met in all (the named directories, hidden names too);
				   the walk stops past it; 0: no limit */
};

struct walk_visitor {
	/*
	 * Each entry met, in order; for WALK_DIR (and, under WALK_FOLLOW_LINKS,
	 * a WALK_LINK to a directory) returns true to enter it (the return
	 * value of the other types is not used).
	 */
	bool (*visit)(void *user, const struct walk_entry *e);
	/*
	 * NULL, or called with each directory's entries (sorted by name,
	 * hidden ones left out) before any of them is visited; returns false
	 * to enter none of its subdirectories.
	 */
	bool (*listed)(void *user, const struct walk_entry *dir, const struct walk_entry *e, size_t n);
	void *user;
};

/* Entries met, kept across walks so that one limit holds for several paths. */
struct walk_stats {
	size_t entries;		/* entries met so far */
	bool stopped;		/* the policy's max_entries was passed: nothing more is visited */
};

/*
 * Walks the directory dir (a symbolic link to one is followed: it was
 * named) under policy p, handing each entry to v. When dir itself cannot be
 * listed, v sees it as WALK_UNLISTED at depth 0.
 */
void walk_dir(const char *dir, const struct walk_policy *p, const struct walk_visitor *v,
	      struct walk_stats *st);

struct walk {
	char **files;		/* owned paths, in order */
	size_t n, cap;
	size_t missing;		/* paths that did not exist or could not be listed */
	char **unlisted;	/* owned: the directories that could not be listed, in order */
	size_t nunlisted, cap_unlisted;
	size_t empty_dirs;	/* named directories that held no file */
};

/*
 * Adds the files under path (at most 32 levels of directories down: deeper is
 * a "too-deep" error); records a diagnostic and returns -1 on failure.
 */
int walk_path(struct walk *w, const char *path, struct diags *d);
void walk_release(struct walk *w);

#endif
