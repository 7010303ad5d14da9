#include "ingest/codearc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/xalloc.h"
#include "ingest/arc.h"
#include "ingest/codescan.h"
#include "ingest/discover.h"

#define HEAD 4096		/* a member's first bytes: a binary's magic, a tar header inside gzip */
#define CHUNK (256 * 1024)

struct scan {
	codearc_fn each;
	void *user;
	struct codearc_stats *st;
	struct diags *d;
	unsigned char *chunk;	/* CHUNK bytes */
	bool said;		/* the damage that stops the reading is said (once) */
};

/* arc_error()'s "NAME: rest" as a diagnostic on NAME. */
static void say_damage(struct scan *s, const struct arc *a, const char *name)
{
	const char *msg = arc_error(a);
	size_t n = strlen(name);
	struct srcpos pos = SRCPOS_FILE(name);

	if (s->said || !msg)
		return;
	s->said = true;
	if (!strncmp(msg, name, n) && msg[n] == ':' && msg[n + 1] == ' ')
		msg += n + 2;
	diag_error(s->d, "archive", &pos, "%s", msg);
}

/*
 * A fault of arc_read() in member path of a (named name): a damaged archive
 * is said and stops the reading (-1); a member past a cap is said and
 * skipped (0).
 */
static int read_fault(struct scan *s, const struct arc *a, const char *name, const char *path)
{
	bool fatal;
	const char *why = arc_why(a, &fatal);
	struct srcpos pos = SRCPOS_FILE(path);

	s->st->unread++;
	if (fatal) {
		say_damage(s, a, name);
		return -1;
	}
	diag_error(s->d, "archive-member", &pos, "%s", why ? why : "cannot be read");
	return 0;
}

static void too_large(struct scan *s, const char *path, int64_t size)
{
	struct srcpos pos = SRCPOS_FILE(path);
	char what[64];

	s->st->unread++;
	if (size > 0)
		snprintf(what, sizeof(what), "%lld bytes", (long long)size);
	else
		snprintf(what, sizeof(what), "more than %lld bytes", (long long)CODEARC_MEMBER_MAX);
	diag_warn(s->d, "member-too-large", &pos, "a binary of %s inside an archive is not scanned "
		  "for GPU code: at most %lld bytes (256 MiB) are held in memory; extract the archive "
		  "to judge it", what, (long long)CODEARC_MEMBER_MAX);
}

/* The rest of the member into fd after head[0..n): its size, -1 on a fault, -2 past the cap. */
static int64_t fill(struct scan *s, struct arc *a, int fd, const unsigned char *head, size_t n)
{
	int64_t total = (int64_t)n;
	ssize_t got;

	if (fd_write_all(fd, head, n) < 0)
		return -3;
	while ((got = arc_read(a, s->chunk, CHUNK)) > 0) {
		total += got;
		if (total > CODEARC_MEMBER_MAX)
			return -2;
		if (fd_write_all(fd, s->chunk, (size_t)got) < 0)
			return -3;
	}
	return got < 0 ? -1 : total;
}

/* Hands o over when it holds GPU code; counts it. */
static void take(struct scan *s, struct code_object *o, int rc)
{
	s->st->binaries++;
	if (rc < 0)
		s->st->unread++;	/* damaged: said by codescan; what was read is kept */
	if (o->nentry) {
		s->each(s->user, o);
		return;
	}
	if (rc == 0)
		s->st->plain++;
	code_object_release(o);
}

/* A binary member, path, of size bytes (-1 unknown), whose first bytes are head[0..n). */
static int binary(struct scan *s, struct arc *a, const char *name, const char *path, int64_t size,
		  const unsigned char *head, size_t n)
{
	struct code_object o;
	int64_t len;
	int fd, rc;

	if (size > CODEARC_MEMBER_MAX) {
		too_large(s, path, size);
		return 0;
	}
	fd = memfd_create("codearc", MFD_CLOEXEC);
	len = fd < 0 ? -3 : fill(s, a, fd, head, n);
	if (len < 0) {
		int err = errno;
		struct srcpos pos = SRCPOS_FILE(path);

		if (fd >= 0)
			close(fd);
		if (len == -1)
			return read_fault(s, a, name, path);
		if (len == -2) {
			too_large(s, path, -1);
			return 0;
		}
		s->st->unread++;
		diag_error(s->d, "unreadable", &pos, "cannot hold in memory: %s", strerror(err));
		return 0;
	}
	rc = codescan_fd(fd, path, len, &o, s->d);
	close(fd);
	take(s, &o, rc);
	return 0;
}

static int read_archive(struct scan *s, struct arc *a, const char *name, int depth);

/* An archive that is the member path of a; its first bytes are head[0..n). */
static int nested(struct scan *s, struct arc *a, const char *name, const char *path,
		  const unsigned char *head, size_t n, int depth)
{
	struct arc *in = arc_open_member(a, path, head, n);
	int rc = arc_error(in) ? -1 : read_archive(s, in, path, depth);

	if (rc < 0 && arc_error(a)) {
		rc = read_fault(s, a, name, path);	/* the outer archive failed under it */
	} else if (rc < 0) {
		if (!s->said)
			s->st->unread++;
		say_damage(s, in, path);	/* the inner one is damaged: the outer goes on */
		s->said = false;
		rc = 0;
	}
	arc_close(in);
	return rc;
}

/* One member of a (named name): -1 when the archive cannot be read further. */
static int member(struct scan *s, struct arc *a, const char *name, const struct arc_entry *e,
		  int depth)
{
	char *path = xasprintf("%s/%s", name, e->name);
	unsigned char head[HEAD];
	struct srcpos pos = SRCPOS_FILE(path);
	ssize_t n;
	int rc = 0;

	if (e->refused && !e->link) {	/* a link: its target is read as a member of its own */
		s->st->unread++;
		diag_error(s->d, "archive-member", &pos, "%s", e->refused);
	}
	if (e->refused || !e->file)
		goto out;
	n = arc_read_head(a, head, sizeof(head));
	if (n < 0)
		rc = read_fault(s, a, name, path);
	else if (codescan_is_binary(head, (size_t)n))
		rc = binary(s, a, name, path, e->size, head, (size_t)n);
	else if (depth < CODEARC_DEPTH && arc_maybe(head, (size_t)n))
		rc = nested(s, a, name, path, head, (size_t)n, depth + 1);
out:
	free(path);
	return rc;
}

static int read_archive(struct scan *s, struct arc *a, const char *name, int depth)
{
	struct arc_entry e;
	int r;

	while ((r = arc_next(a, &e)) == 1)
		if (member(s, a, name, &e, depth) < 0)
			return -1;
	return r;
}

/* The first bytes of path say it may be an archive. */
static bool archive_head(const char *path)
{
	unsigned char head[HEAD];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n > 0 && arc_maybe(head, (size_t)n);
}

int codearc_scan(const char *path, codearc_fn each, void *user, struct codearc_stats *st,
		 struct diags *d)
{
	const struct archive_limits lim = ARCHIVE_LIMITS_DEFAULT;
	struct scan s = { .each = each, .user = user, .st = st, .d = d };
	struct arc *a;
	int rc;

	if (!archive_head(path))
		return 1;
	s.chunk = xmalloc(CHUNK);
	a = arc_open(path, &lim);
	rc = arc_error(a) ? -1 : read_archive(&s, a, path, 0);
	if (rc < 0)
		say_damage(&s, a, path);
	arc_close(a);
	free(s.chunk);
	return rc < 0 ? -1 : 0;
}
