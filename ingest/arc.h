/*
 * arc: an archive read in place through libarchive (tar, plain or gzip,
 * bzip2, xz, zstd or lz4 compressed, and zip, told by content), member after
 * member, never extracted; also an archive that is a member of another. It
 * owns the safety rules: members whose name or link leaves the archive are
 * refused, and a member is stopped past the caps against archive bombs.
 */
#ifndef INGEST_ARC_H
#define INGEST_ARC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ingest/discover.h"

struct arc;

struct arc_entry {
	const char *name;	/* cleaned: no leading "/" or "./", no "." or empty components;
				   valid until the next arc_next() */
	int64_t size;		/* declared bytes; -1 unknown */
	int64_t mtime;		/* seconds; 0 unknown */
	bool file;		/* a regular file: its bytes can be read */
	bool link;		/* a symbolic or hard link (always refused) */
	const char *refused;	/* static: why the member must not be read; NULL when it may */
};

/* Opens the archive file at path; never NULL: a failure is told by arc_error(). */
struct arc *arc_open(const char *path, const struct archive_limits *lim);

/*
 * Opens the current member of outer as an archive, reading its bytes from
 * outer; head[0..n) are the member's first bytes that the caller already
 * took. name is what messages call it. Never NULL (see arc_error()); outer
 * must outlive it, and is left at an unknown place in the member.
 */
struct arc *arc_open_member(struct arc *outer, const char *name, const void *head, size_t n);

/* The next member: 1, 0 at the end, -1 when the archive cannot be read further (arc_error()). */
int arc_next(struct arc *a, struct arc_entry *e);

/*
 * Up to n bytes of the current member: the count, 0 at its end, -1 when it
 * is damaged or passed a cap (arc_error() says which, with the member's name
 * and the byte where reading stopped).
 */
ssize_t arc_read(struct arc *a, void *buf, size_t n);

/* Fills buf with the member's first bytes (up to n, fewer when it is shorter); -1 as arc_read(). */
ssize_t arc_read_head(struct arc *a, void *buf, size_t n);

/* What went wrong, "ARCHIVE: MEMBER: byte N: reason" or "ARCHIVE: reason"; NULL when nothing. */
const char *arc_error(const struct arc *a);

/*
 * The reason alone, without the position; *fatal (when not NULL) tells a
 * damaged archive (nothing more can be read) from a member that passed a cap
 * (the next member can be read).
 */
const char *arc_why(const struct arc *a, bool *fatal);

/* The member in whose bytes the fault arose; NULL when none (or it arose between members). */
const char *arc_failed_in(const struct arc *a);

/* The number of members arc_next() has returned so far. */
size_t arc_position(const struct arc *a);

void arc_close(struct arc *a);

/* True when a file beginning with head[0..n) may be an archive (a cheap test by magic numbers). */
bool arc_maybe(const unsigned char *head, size_t n);

#endif
