/*
 * outfile: writing output files safely, for every writer (report, plan,
 * batch, replay, the sample generator): directories made like mkdir -p,
 * files written under a new temporary name, flushed and renamed into place,
 * and a registry of temporary files and directories that are removed when
 * SIGINT, SIGTERM or SIGHUP ends the process mid-way.
 */
#ifndef CORE_OUTFILE_H
#define CORE_OUTFILE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"

/*
 * The marks of scaleaudit's own output directories, hidden files that say
 * "written by scaleaudit": what report and batch may replace or remove, and
 * what the trial loader never reads as a run when it lies inside a trial.
 */
#define OUTPUT_MARK_REPORT ".scaleaudit-report"
#define OUTPUT_MARK_BATCH ".scaleaudit-batch"

/*
 * Creates the mark name in dir (a new empty file, never through a link) unless
 * it is there: 0, or -1 with errno.
 */
int output_mark(const char *dir, const char *name);

/* Removes path and everything below it, never following a link: 0, or -1 with errno. */
int outfile_remove_tree(const char *path);

/*
 * Removes every directory (not a link) of dir named prefix plus mkdtemp's six
 * characters, with what it holds: the staging a process killed by SIGKILL
 * left. Call it only while holding dir's lock.
 */
void outfile_remove_temp_dirs(const char *dir, const char *prefix);

/* Whether dir is an output directory of scaleaudit's: it holds either mark, or a report's files. */
bool output_dir_is_ours(const char *dir);

/* Writes len bytes of p to fd, past short writes and EINTR: 0, or -1 with errno. */
int fd_write_all(int fd, const void *p, size_t len);

/* Creates dir and its missing parents, like mkdir -p; a failure is a diagnostic under code. */
int make_dirs_as(const char *code, const char *dir, struct diags *d);

typedef int (*write_fn)(FILE *f, void *ctx);
/*
 * Writes path through fn (which returns 0, or -1 on failure) under a
 * temporary name, then renames it into place. Returns 0, or -1 after a
 * diagnostic under code naming path.
 * The temporary file is new (mkstemp: O_CREAT|O_EXCL, so never a link or an
 * existing file), beside path, mode 0644, flushed to disk before the rename,
 * the directory after it; it is unlinked on failure and on SIGINT/SIGTERM/SIGHUP.
 * A link at path is replaced, never written through.
 */
int write_atomic_as(const char *code, const char *path, write_fn fn, void *ctx, struct diags *d);

/* How many temporary paths may be registered at once. */
#define OUTFILE_SLOTS 128

enum outfile_kind { OUTFILE_FILE = 1, OUTFILE_DIR };

/*
 * Registers path for removal when SIGINT, SIGTERM or SIGHUP ends the
 * process (files first, then directories, the latest first), installing the
 * handlers once (a signal the caller ignores stays ignored). Register a
 * path before creating it, or with the signals blocked, so that no moment
 * leaves it unregistered. Returns its slot, or -1 when none is free.
 */
int outfile_register(const char *path, enum outfile_kind kind);
/* Forgets slot (-1: nothing), once the path is in place or removed. */
void outfile_release(int slot);
/* Forgets every registered path. */
void outfile_release_all(void);
/* Blocks the signals whose handler removes the registered paths; the mask before in *old. */
void outfile_block_signals(sigset_t *old);
/* Flushes the directory holding path to disk, so that a rename into it survives a crash. */
void outfile_sync_dir_of(const char *path);

#endif
