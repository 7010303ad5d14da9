#include "ingest/arc.h"

#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "core/buf.h"
#include "core/xalloc.h"
#include "ingest/gunzip.h"

#define BLOCK (64 * 1024)

struct arc {
	struct archive *ar;
	char *name;		/* what messages call the archive */
	struct archive_limits lim;
	char *error;		/* the first fault; NULL none */
	char *why;		/* the same without the position */
	bool failed_in;		/* the fault arose in the current member's bytes */
	bool fatal;		/* the archive cannot be read further (else: one member passed a cap) */
	struct buf member;	/* the current member's cleaned name */
	size_t position;	/* members returned so far */
	int64_t out;		/* bytes of the current member read */
	int64_t raw0;		/* compressed bytes consumed when the member began */
	bool entered;		/* a member is current */
	/* a member of another archive: where the bytes come from */
	struct arc *outer;
	const unsigned char *head;	/* the bytes the caller took already, served first */
	size_t nhead, head_off;
	unsigned char *block;	/* what the last read callback handed to libarchive */
	int fd;			/* the archive file; -1 for a member */
	int64_t total;		/* bytes of every member read */
	struct timespec t0;	/* when it was opened */
};

/* The formats and filters read: no external programs, no guessing formats from text. */
static struct archive *reader(void)
{
	struct archive *ar = archive_read_new();

	archive_read_support_format_tar(ar);
	archive_read_support_format_gnutar(ar);
	archive_read_support_format_zip(ar);
	archive_read_support_filter_gzip(ar);
	archive_read_support_filter_bzip2(ar);
	archive_read_support_filter_xz(ar);
	archive_read_support_filter_lzma(ar);
	archive_read_support_filter_zstd(ar);
	archive_read_support_filter_lz4(ar);
	return ar;
}

/* libarchive says "Truncated tar archive": messages here start lowercase. */
static char *lower_first(char *s)
{
	if (s[0] && isupper((unsigned char)s[0]) && !isupper((unsigned char)s[1]))
		s[0] = (char)tolower((unsigned char)s[0]);
	return s;
}

static void fail(struct arc *a, const char *why, bool fatal)
{
	if (a->error)
		return;
	a->fatal = fatal;
	a->failed_in = a->entered;
	a->why = xstrdup(why);
	if (a->entered)
		a->error = xasprintf("%s: %s: byte %lld: %s", a->name, a->member.data,
				     (long long)a->out, why);
	else if (a->position)	/* where in the (decompressed) archive the damage was met */
		a->error = xasprintf("%s: after %s: byte %lld: %s", a->name, a->member.data,
				     (long long)archive_filter_bytes(a->ar, 0), why);
	else
		a->error = xasprintf("%s: %s", a->name, why);
	lower_first(a->error + strlen(a->name) + 2);
}

static bool budget_spent(struct arc *a, char *why, size_t size);

/* libarchive's reason; the budget's when it is spent (libarchive may call that a truncation). */
static void fail_ar(struct arc *a, const char *what)
{
	const char *msg = archive_error_string(a->ar);
	char spent[240];
	char *why = budget_spent(a, spent, sizeof(spent)) ? xstrdup(spent)
		    : xasprintf("%s", msg ? msg : what);

	fail(a, lower_first(why), true);
	free(why);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/*
 * The whole archive's budget: into why (and true) when it is spent. The
 * bytes decompressed count the members skipped, which libarchive decompresses
 * to pass them (a tar.zst of 16 GiB members of zeros).
 */
static bool budget_spent(struct arc *a, char *why, size_t size)
{
	int64_t out = archive_filter_bytes(a->ar, 0), raw = archive_filter_bytes(a->ar, -1);

	out = out > a->total ? out : a->total;
	if (out > a->lim.archive_max)
		snprintf(why, size, "decompresses to more than %lld bytes in all, the cap on an archive "
			 "against archive bombs: read no further, after %zu members and %lld bytes",
			 (long long)a->lim.archive_max, a->position, (long long)out);
	else if (out > a->lim.archive_floor && out / (raw > 0 ? raw : 1) > a->lim.ratio_max)
		snprintf(why, size, "decompresses to more than %lld times its size in all, the cap on an "
			 "archive against archive bombs: read no further, after %zu members and %lld bytes",
			 (long long)a->lim.ratio_max, a->position, (long long)out);
	else if (a->lim.seconds_max > 0 && seconds_since(&a->t0) > (double)a->lim.seconds_max)
		snprintf(why, size, "took more than %lld seconds to read, the time an archive may take: "
			 "read no further, after %zu members and %lld bytes",
			 (long long)a->lim.seconds_max, a->position, (long long)out);
	else
		return false;
	return true;
}

/* True, with libarchive told why, once the archive's budget is spent: its reader then stops. */
static bool stop_when_spent(struct archive *ar, struct arc *a)
{
	char why[240];

	if (!budget_spent(a, why, sizeof(why)))
		return false;
	archive_set_error(ar, -1, "%s", why);
	return true;
}

/* libarchive's read callback for an archive file: its next block, unless the budget is spent. */
static la_ssize_t file_read(struct archive *ar, void *arg, const void **out)
{
	struct arc *a = arg;
	ssize_t got;

	if (stop_when_spent(ar, a))
		return -1;
	if (!a->block)
		a->block = xmalloc(BLOCK);
	do
		got = read(a->fd, a->block, BLOCK);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		archive_set_error(ar, errno, "%s", strerror(errno));
		return -1;
	}
	*out = a->block;
	return got;
}

static struct arc *arc_new(const char *name, const struct archive_limits *lim)
{
	struct arc *a = xcalloc(1, sizeof(*a));

	a->ar = reader();
	a->name = xstrdup(name);
	a->lim = *lim;
	a->fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &a->t0);
	buf_init(&a->member, 0);
	buf_addstr(&a->member, "");
	return a;
}

struct arc *arc_open(const char *path, const struct archive_limits *lim)
{
	struct arc *a = arc_new(path, lim);

	a->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (a->fd < 0) {
		char *why = xasprintf("cannot be opened: %s", strerror(errno));

		fail(a, why, true);
		free(why);
	} else if (archive_read_open(a->ar, a, NULL, file_read, NULL) != ARCHIVE_OK) {
		fail_ar(a, "cannot be opened as an archive");
	}
	return a;
}

/* libarchive's read callback for a member of another archive: the head first, then the rest. */
static la_ssize_t member_read(struct archive *ar, void *arg, const void **out)
{
	struct arc *a = arg;
	ssize_t got;

	if (stop_when_spent(ar, a))
		return -1;
	if (a->head_off < a->nhead) {
		*out = a->head + a->head_off;
		got = (ssize_t)(a->nhead - a->head_off);
		a->head_off = a->nhead;
		return got;
	}
	if (!a->block)
		a->block = xmalloc(BLOCK);
	got = arc_read(a->outer, a->block, BLOCK);
	*out = a->block;
	if (got < 0) {
		archive_set_error(ar, -1, "%s", arc_error(a->outer));
		return -1;
	}
	return got;
}

struct arc *arc_open_member(struct arc *outer, const char *name, const void *head, size_t n)
{
	struct arc *a = arc_new(name, &outer->lim);

	a->outer = outer;
	a->head = head;
	a->nhead = n;
	if (archive_read_open(a->ar, a, NULL, member_read, NULL) != ARCHIVE_OK)
		fail_ar(a, "cannot be opened as an archive");
	return a;
}

/* True when name, cleaned, climbs out of the folder it starts in. */
static bool leaves(const char *name)
{
	int depth = 0;

	for (const char *p = name; *p;) {
		size_t len = strcspn(p, "/");

		if (len == 2 && !strncmp(p, "..", 2))
			depth--;
		else if (len && !(len == 1 && *p == '.'))
			depth++;
		if (depth < 0)
			return true;
		p += len;
		p += *p == '/';
	}
	return false;
}

/* True when a component of name is "..". */
static bool dotdot(const char *name)
{
	for (const char *p = name; *p;) {
		size_t len = strcspn(p, "/");

		if (len == 2 && !strncmp(p, "..", 2))
			return true;
		p += len;
		p += *p == '/';
	}
	return false;
}

/* name without leading "./" and "/", "." and empty components; into b. */
static void clean(const char *name, struct buf *b)
{
	buf_reset(b);
	for (const char *p = name; *p;) {
		size_t len = strcspn(p, "/");

		if (len && !(len == 1 && *p == '.')) {
			if (b->len)
				buf_addch(b, '/');
			buf_add(b, p, len);
		}
		p += len;
		p += *p == '/';
	}
	buf_addstr(b, "");
}

/* Why a link member must not be read: it leaves the archive, or links are not followed. */
static const char *link_refusal(const char *name, const char *target)
{
	char *joined;
	const char *dir_end = strrchr(name, '/');
	bool out;

	if (target[0] == '/')
		return "a link to an absolute path, outside the archive: not read";
	joined = xasprintf("%.*s%s%s", dir_end ? (int)(dir_end - name) : 0, name,
			   dir_end ? "/" : "", target);
	out = leaves(joined);
	free(joined);
	return out ? "a link that points outside the archive: not read"
		   : "a link: links in an archive are not followed";
}

static const char *refusal(struct arc *a, struct archive_entry *ae, const char *raw)
{
	const char *sym = archive_entry_symlink(ae), *hard = archive_entry_hardlink(ae);

	if (raw[0] == '/')
		return "its name is an absolute path, outside the archive: not read";
	if (dotdot(raw))
		return "its name climbs out with '..': not read";
	if (sym)
		return link_refusal(a->member.data, sym);
	if (hard)	/* named from the top of the archive */
		return hard[0] == '/' || leaves(hard)
			? "a link that points outside the archive: not read"
			: "a link: links in an archive are not followed";
	if (archive_entry_filetype(ae) == AE_IFREG && archive_entry_size_is_set(ae) &&
	    archive_entry_size(ae) > a->lim.member_max)
		return "declares more bytes than the cap against archive bombs: not read";
	return NULL;
}

int arc_next(struct arc *a, struct arc_entry *e)
{
	struct archive_entry *ae;
	const char *raw;
	int rc;

	if (a->error && a->fatal)
		return -1;
	free(a->error);
	free(a->why);
	a->error = a->why = NULL;
	a->entered = false;
	rc = archive_read_next_header(a->ar, &ae);
	if (rc == ARCHIVE_EOF)
		return 0;
	if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {	/* RETRY too: a damaged tar */
		fail_ar(a, "damaged");
		return -1;
	}
	raw = archive_entry_pathname(ae);
	if (!raw)
		raw = "";
	if (raw[0] == '/') {	/* refused below: named as it is written */
		buf_reset(&a->member);
		buf_addstr(&a->member, raw);
	} else {
		clean(raw, &a->member);
	}
	a->position++;
	a->entered = true;
	a->out = 0;
	a->raw0 = archive_filter_bytes(a->ar, -1);
	*e = (struct arc_entry){
		.name = a->member.data,
		.size = archive_entry_size_is_set(ae) ? archive_entry_size(ae) : -1,
		.mtime = archive_entry_mtime_is_set(ae) ? (int64_t)archive_entry_mtime(ae) : 0,
		.file = archive_entry_filetype(ae) == AE_IFREG || archive_entry_symlink(ae) ||
			archive_entry_hardlink(ae),
		.link = archive_entry_symlink(ae) || archive_entry_hardlink(ae),
		.refused = refusal(a, ae, raw),
	};
	return 1;
}

/* The caps against archive bombs, after a read: false (and the fault) when one is passed. */
static bool within_caps(struct arc *a)
{
	int64_t raw = archive_filter_bytes(a->ar, -1) - a->raw0;
	char why[160];

	if (a->out > a->lim.member_max) {
		snprintf(why, sizeof(why), "decompresses to more than %lld bytes, the cap against "
			 "archive bombs: not read further", (long long)a->lim.member_max);
		fail(a, why, false);
		return false;
	}
	if (a->out > a->lim.ratio_floor && a->out / (raw > 0 ? raw : 1) > a->lim.ratio_max) {
		snprintf(why, sizeof(why), "decompresses to more than %lld times its compressed "
			 "size, the cap against archive bombs: not read further",
			 (long long)a->lim.ratio_max);
		fail(a, why, false);
		return false;
	}
	return true;
}

ssize_t arc_read(struct arc *a, void *buf, size_t n)
{
	la_ssize_t got;

	if (a->error)
		return -1;
	if (!a->entered)
		return 0;
	got = archive_read_data(a->ar, buf, n);
	if (got < 0) {
		fail_ar(a, "damaged");
		return -1;
	}
	a->out += got;
	a->total += got;
	return within_caps(a) ? got : -1;
}

ssize_t arc_read_head(struct arc *a, void *buf, size_t n)
{
	size_t have = 0;

	while (have < n) {
		ssize_t got = arc_read(a, (char *)buf + have, n - have);

		if (got < 0)
			return -1;
		if (!got)
			break;
		have += (size_t)got;
	}
	return (ssize_t)have;
}

const char *arc_error(const struct arc *a)
{
	return a->error;
}

const char *arc_why(const struct arc *a, bool *fatal)
{
	if (fatal)
		*fatal = a->fatal;
	return a->why;
}

const char *arc_failed_in(const struct arc *a)
{
	return a->error && a->failed_in ? a->member.data : NULL;
}

size_t arc_position(const struct arc *a)
{
	return a->position;
}

void arc_close(struct arc *a)
{
	if (!a)
		return;
	archive_read_free(a->ar);
	if (a->fd >= 0)
		close(a->fd);
	free(a->name);
	free(a->error);
	free(a->why);
	free(a->block);
	buf_release(&a->member);
	free(a);
}

static bool tar_magic(const unsigned char *p, size_t n)
{
	return n >= 262 && !memcmp(p + 257, "ustar", 5);
}

/* A gzip head that inflates to a tar header (and not, say, a gzip-compressed trace). */
static bool gzip_tar(const unsigned char *head, size_t n)
{
	unsigned char out[512];
	bool ended;

	return tar_magic(out, gunzip_head(head, n, out, sizeof(out), &ended));
}

bool arc_maybe(const unsigned char *head, size_t n)
{
	static const struct magic {
		const char *bytes;
		size_t len;
	} magics[] = {
		{ "PK\3\4", 4 },		/* zip */
		{ "PK\5\6", 4 },		/* empty zip */
		{ "\x28\xb5\x2f\xfd", 4 },	/* zstd */
		{ "\xfd" "7zXZ\0", 6 },		/* xz */
		{ "BZh", 3 },			/* bzip2 */
		{ "\x04\x22\x4d\x18", 4 },	/* lz4 */
	};

	if (tar_magic(head, n))
		return true;
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return gzip_tar(head, n);
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (n >= magics[i].len && !memcmp(head, magics[i].bytes, magics[i].len))
			return true;
	return false;
}
