/*
 * discover: the trials under command-line paths (directories, and tar, tar.gz,
 * tar.zst, tar.xz or zip archives told by content, with archives inside them
 * one level deep), each with a stable id, where it is and a fingerprint of
 * its inputs; and loading one of them, from an archive read in place.
 *
 * A folder is a trial when it holds a trial.ini, or when one of its
 * sub-folders holds a run.ini; failing both, when one of its sub-folders
 * holds a file of a format scaleaudit reads (or, with no sub-folders, it
 * holds such files itself). Folders are looked at from the top down and a
 * trial is never looked into for more trials: a folder of several trials is
 * several trials. An archive met outside every trial is opened (not one
 * inside an archive's archive); one inside a trial belongs to the trial.
 */
#ifndef INGEST_DISCOVER_H
#define INGEST_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "ingest/trial.h"

/*
 * Caps against archive bombs: a member is stopped, with a message, past
 * member_max or ratio_max; a whole archive (every byte decompressed, the
 * members skipped included) past archive_max, ratio_max once past
 * archive_floor, or seconds_max of reading, with a message naming it and
 * what was read.
 */
struct archive_limits {
	int64_t member_max;	/* bytes one member may decompress to */
	int64_t ratio_max;	/* decompressed / compressed bytes, checked once past ratio_floor */
	int64_t ratio_floor;	/* bytes a member may give before the ratio is checked */
	int64_t archive_max;	/* bytes a whole archive may decompress to */
	int64_t archive_floor;	/* bytes an archive may give before its ratio is checked */
	int64_t seconds_max;	/* wall time one reading of an archive may take; 0: none */
};

/*
 * 64 GiB a member, and 1000x its compressed size once past 64 MiB; 256 GiB
 * an archive, 1000x once past 1 GiB, and 30 minutes.
 */
#define ARCHIVE_LIMITS_DEFAULT \
	((struct archive_limits){ .member_max = (int64_t)64 << 30, .ratio_max = 1000, \
				  .ratio_floor = (int64_t)64 << 20, .archive_max = (int64_t)256 << 30, \
				  .archive_floor = (int64_t)1 << 30, .seconds_max = 1800 })

struct found_trial {
	char *id;		/* stable, filesystem-safe ([A-Za-z0-9_-]), unique in the list */
	char *where;		/* the trial's folder as diagnostics name it: "runs/exp1",
				   "runs.tar.gz/exp1", "all.zip/b200.tar.gz/exp1" */
	char *path;		/* the directory (the trial itself) when archive is 0, else the
				   archive file */
	char *member;		/* in an archive's archive: the inner archive's member name in
				   path; NULL when none */
	char *prefix;		/* in an archive: the trial's folder in it, "" for its top, no
				   trailing '/'; NULL for a directory */
	int archive;		/* 0 a directory, 1 in an archive, 2 in an archive's archive */
	uint64_t fingerprint;	/* of the inputs: names, sizes and mtimes of its files */
	char fingerprint_hex[17];	/* the same, as 16 lowercase hex digits; "" for an
					   entry that is only an error */
	size_t files;		/* files (members) of the trial */
	char *staged;		/* in an archive: a plain tar of the trial's members alone
				   (ingest/arcstage.h), read instead of the archive; NULL */
	char *error;		/* not NULL: the archive is damaged (the message, as also given
				   in the diags). With prefix set, a trial the damage cut: what
				   precedes it loads. With prefix NULL, an archive (or a file
				   that is none) that gave no trial past the damage: id, where
				   and path name it, and found_trial_load() only says why */
};

struct discovery {
	struct found_trial *trials;	/* by path given; in one, the trials of its folders
					   in name order, then those in its archives */
	size_t n, cap;
	struct archive_limits limits;	/* used by discover() and found_trial_load() */
};

/*
 * Empty, with the default limits, but for SCALEAUDIT_ARCHIVE_SECONDS (the
 * time an archive may take) and SCALEAUDIT_ARCHIVE_BYTES (its bytes in all,
 * for tests) when set to a positive whole number.
 */
void discovery_init(struct discovery *dv);

/*
 * Adds the trials found under paths[0..n) to dv. Problems (a path that does
 * not exist, a damaged archive, a member refused) are recorded in d; a
 * damaged input also gets an entry with `error` set, so that every input
 * that gave nothing is accounted for. Returns the number of entries added,
 * or -1 when a path could not be read at all.
 */
int discover(struct discovery *dv, const char *const *paths, size_t n, struct diags *d);

/* The entry with this id, or NULL. */
const struct found_trial *discovery_find(const struct discovery *dv, const char *id);

void discovery_release(struct discovery *dv);

/*
 * Loads the trial f, as trial_load() loads a directory (same runs, same
 * order, same notes), with archive members read in place and never
 * written anywhere. Members whose name leaves the archive (absolute, `..`),
 * links, and members past dv->limits are not read: each gets a trial_note
 * and an error diagnostic. Returns NULL (after recording why in d) as
 * trial_load() does, or for an entry that is only an error (prefix NULL).
 */
struct trial *found_trial_load(const struct discovery *dv, const struct found_trial *f,
			       struct diags *d, struct trial_stats *stats);

/* True when the file at path looks like an archive by its first bytes (a directory does not). */
bool discover_is_archive(const char *path);

#endif
