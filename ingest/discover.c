#include "ingest/discover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/xalloc.h"
#include "ingest/arc.h"
#include "ingest/codescan.h"
#include "ingest/gunzip.h"
#include "ingest/ingest.h"
#include "ingest/sniff.h"
#include "ingest/walk.h"

#define HEAD 4096	/* bytes of a file looked at to tell what it is */
#define ID_MAX 80	/* an id longer than this is cut and given a hash */
#define CHUNK (64 * 1024)

/* One file of a listing: a directory's files, or an archive's members. */
struct lentry {
	char *name;		/* below the listing's root, cleaned */
	int64_t size, mtime;
	enum format format;	/* by its head (gzip undone) */
	const char *refused;	/* static: why it must not be read; NULL */
	bool archive;		/* it may be an archive (its head says so) */
	size_t seq;		/* in an archive: arc_position() at its header */
	size_t copies;		/* members of this name in the archive (the last one is kept) */
	struct listing *inner;	/* an archive member listed as an archive; NULL */
};

/* The files under one root: a directory, an archive, or an archive inside one. */
struct listing {
	struct lentry *e;
	size_t n, cap;
	char *where;		/* the root as diagnostics name it */
	char *path;		/* the directory or the archive file */
	char *member;		/* an archive's archive: its member name; NULL */
	int level;		/* 0 directory, 1 archive, 2 archive's archive */
	char *error;		/* the listing stopped here: the message; NULL */
	char *error_in;		/* the member in whose bytes it stopped; NULL */
	char *error_after;	/* the last member listed before it stopped; NULL */
};

/* ---- names, hashes ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ull

/* True when a component of name starts with '.' (walk leaves those out). */
static bool hidden(const char *name)
{
	for (const char *p = name; *p; p++)
		if (*p == '.' && (p == name || p[-1] == '/'))
			return true;
	return false;
}

/* True when name lies in folder prefix ("" is the top). */
static bool below(const char *prefix, const char *name)
{
	size_t n = strlen(prefix);

	return !n || (!strncmp(prefix, name, n) && name[n] == '/');
}

/* name below prefix. */
static const char *rel_to(const char *prefix, const char *name)
{
	size_t n = strlen(prefix);

	return n ? name + n + 1 : name;
}

static char *join(const char *a, const char *b)
{
	return *b ? xasprintf("%s/%s", a, b) : xstrdup(a);
}

/* A path as given, without the trailing '/'s (but "/" stays). */
static char *trim_slashes(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return xstrndup(path, n);
}

/* One component of an id: [A-Za-z0-9_] kept, runs of anything else one '-'. */
static void id_component(struct buf *b, const char *p, size_t len)
{
	size_t start = b->len;
	bool dash = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_';

		if (keep) {
			if (dash && b->len > start)
				buf_addch(b, '-');
			buf_addch(b, (char)c);
		}
		dash = !keep;
	}
	if (b->len == start)
		buf_addch(b, '_');
}

/*
 * The id of where, a path that begins with root (a path as given): the last
 * component of root, then the rest, components joined by "--".
 */
static char *make_id(const char *root, const char *where)
{
	struct buf b = BUF_INIT;
	const char *base = strrchr(root, '/');
	const char *rest = where + strlen(root);
	char *id, *real = NULL;

	buf_init(&b, 0);
	base = base && base[1] ? base + 1 : root;
	if (!strcmp(base, ".") || !strcmp(base, "..")) {	/* "batch ." names the folder */
		real = realpath(root, NULL);
		base = real && strrchr(real, '/')[1] ? strrchr(real, '/') + 1 : base;
	}
	id_component(&b, base, strlen(base));
	free(real);
	for (const char *p = rest; *p;) {
		size_t len;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		if (!len)
			break;
		buf_addstr(&b, "--");
		id_component(&b, p, len);
		p += len;
	}
	if (b.len > ID_MAX) {
		uint64_t h = fnv(FNV_INIT, b.data, b.len);

		b.len = ID_MAX - 9;
		while (b.len && b.data[b.len - 1] == '-')
			b.len--;
		b.data[b.len] = 0;
		buf_addf(&b, "-%08x", (unsigned)(h >> 32));
	}
	id = buf_detach(&b);
	return id;
}

/* ---- heads ---- */

/* What a file is by its head; a gzip head is inflated first, as the readers would. */
static enum format head_format(const unsigned char *head, size_t n, bool complete)
{
	unsigned char out[HEAD];
	struct sniff sn;

	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
		bool ended;

		n = gunzip_head(head, n, out, sizeof(out), &ended);
		complete = complete && ended;
		head = out;
	}
	sniff_bytes(head, n, complete, &sn);
	return sn.format;
}

/* ---- listings ---- */

static struct listing *listing_new(const char *where, const char *path, const char *member,
				   int level)
{
	struct listing *l = xcalloc(1, sizeof(*l));

	l->where = xstrdup(where);
	l->path = xstrdup(path);
	l->member = member ? xstrdup(member) : NULL;
	l->level = level;
	return l;
}

static void listing_free(struct listing *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].name);
		listing_free(l->e[i].inner);
	}
	free(l->e);
	free(l->where);
	free(l->path);
	free(l->member);
	free(l->error);
	free(l->error_in);
	free(l->error_after);
	free(l);
}

static struct lentry *listing_add(struct listing *l, const char *name)
{
	struct lentry *e;

	xgrow(&l->e, &l->cap, l->n + 1, sizeof(*l->e));
	e = &l->e[l->n++];
	*e = (struct lentry){ .name = xstrdup(name), .size = -1, .copies = 1 };
	return e;
}

static int by_name(const void *a, const void *b)
{
	const struct lentry *x = a, *y = b;
	int c = trial_path_cmp(x->name, y->name);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Sorted as walk sorts; of a name given twice (a tar appended to), the last
 * one stays, as tar extracts it, and counts the copies for the warning.
 */
static void listing_sort(struct listing *l)
{
	size_t out = 0;

	if (l->n > 1)
		qsort(l->e, l->n, sizeof(*l->e), by_name);
	for (size_t i = 0; i < l->n; i++) {
		if (i + 1 < l->n && !strcmp(l->e[i].name, l->e[i + 1].name)) {
			l->e[i + 1].copies += l->e[i].copies;
			free(l->e[i].name);
			listing_free(l->e[i].inner);
			continue;
		}
		l->e[out++] = l->e[i];
	}
	l->n = out;
}

static void list_archive(struct listing *l, struct arc *a, bool nest,
			 const struct archive_limits *lim);

/* The member just read as a head: an archive inside the archive, listed now, while its bytes pass. */
static void list_inner(struct listing *l, struct lentry *e, struct arc *a, const unsigned char *head,
		       size_t n, const struct archive_limits *lim)
{
	char *where = join(l->where, e->name);
	struct arc *in = arc_open_member(a, where, head, n);
	struct listing *il = listing_new(where, l->path, e->name, l->level + 1);

	list_archive(il, in, false, lim);
	if (!il->n && il->error && !arc_position(in)) {
		listing_free(il);	/* not an archive after all: a file of the listing */
		e->archive = false;
	} else {
		e->inner = il;
	}
	arc_close(in);
	free(where);
}

static void list_member(struct listing *l, struct arc *a, const struct arc_entry *ae, bool nest,
			const struct archive_limits *lim)
{
	unsigned char head[HEAD];
	struct lentry *e = listing_add(l, ae->name);
	ssize_t n;

	e->size = ae->size;
	e->mtime = ae->mtime;
	e->seq = arc_position(a);
	e->refused = ae->refused;
	if (e->refused)
		return;
	n = arc_read_head(a, head, sizeof(head));
	if (n < 0)
		return;	/* the fault ends the listing */
	e->format = head_format(head, (size_t)n, (size_t)n < sizeof(head));
	e->archive = arc_maybe(head, (size_t)n);
	if (e->archive && nest)
		list_inner(l, e, a, head, (size_t)n, lim);
}

/* The members of a; nest: open the archives among them as listings of their own. */
static void list_archive(struct listing *l, struct arc *a, bool nest,
			 const struct archive_limits *lim)
{
	struct arc_entry ae;
	bool fatal = false;

	while (!fatal && arc_next(a, &ae) > 0) {
		if (!ae.file || !ae.name[0] || (hidden(ae.name) && !ae.refused))
			continue;	/* as walk leaves them out; a refusal is always told */
		list_member(l, a, &ae, nest, lim);
		arc_why(a, &fatal);	/* a member past a cap is no end of the listing */
	}
	arc_why(a, &fatal);
	if (arc_error(a) && fatal) {
		l->error = xstrdup(arc_error(a));
		if (arc_failed_in(a))
			l->error_in = xstrdup(arc_failed_in(a));
		if (l->n)
			l->error_after = xstrdup(l->e[l->n - 1].name);
	}
	listing_sort(l);
}

/* The files under a directory, with what their heads say. */
static void list_dir(struct listing *l, const struct walk *w)
{
	size_t root = strlen(l->path);

	for (size_t i = 0; i < w->n; i++) {
		const char *f = w->files[i];
		unsigned char head[HEAD];
		struct stat st;
		struct lentry *e = listing_add(l, f + root + strspn(f + root, "/"));
		FILE *fp = fopen(f, "rb");
		size_t n = 0;

		if (stat(f, &st) == 0) {
			e->size = st.st_size;
			e->mtime = st.st_mtime;
		}
		if (fp) {
			n = fread(head, 1, sizeof(head), fp);
			fclose(fp);
		}
		e->format = head_format(head, n, n < sizeof(head));
		e->archive = arc_maybe(head, n);
	}
}

/* A listing's error without the "WHERE: " it begins with (when it does). */
static const char *error_text(const struct listing *l)
{
	size_t n = strlen(l->where);

	if (!strncmp(l->error, l->where, n) && l->error[n] == ':' && l->error[n + 1] == ' ')
		return l->error + n + 2;
	return l->error;
}

/* ---- which folders are trials ---- */

/* Depth of name below prefix: 1 for a file in it, 2 in a sub-folder, ... */
static int depth_below(const char *prefix, const char *name)
{
	int d = 1;

	for (const char *p = rel_to(prefix, name); *p; p++)
		d += *p == '/';
	return d;
}

/* entries [lo, hi) of l, all below prefix: is prefix a trial by rule (strict: the manifests)? */
static bool trial_here(const struct listing *l, size_t lo, size_t hi, const char *prefix,
		       bool strict)
{
	bool subfolders = false, own = false;

	for (size_t i = lo; i < hi; i++) {
		const struct lentry *e = &l->e[i];
		int d = depth_below(prefix, e->name);
		bool known = e->format != FMT_UNKNOWN && !e->archive && !e->refused;

		subfolders |= d > 1;
		if (strict && ((d == 1 && e->format == FMT_TRIAL_INI) ||
			       (d == 2 && e->format == FMT_RUN_INI)))
			return true;
		if (!strict && d == 2 && known)
			return true;
		own |= d == 1 && known;
	}
	return !strict && own && !subfolders;
}

/* Is there a folder below prefix (or prefix itself) that is a trial by its manifests? */
static bool strict_below(const struct listing *l, size_t lo, size_t hi, const char *prefix)
{
	for (size_t i = lo; i < hi; i++) {
		int d = depth_below(prefix, l->e[i].name);

		if (l->e[i].format == FMT_TRIAL_INI || (l->e[i].format == FMT_RUN_INI && d >= 2))
			return true;
	}
	return false;
}

struct found_list {
	char **prefixes;	/* trial folders of one listing, in name order */
	size_t n, cap;
};

static void classify(const struct listing *l, size_t lo, size_t hi, const char *prefix,
		     bool strict, struct found_list *out);

/* The sub-folders of prefix among [lo, hi): each classified in turn. */
static void classify_children(const struct listing *l, size_t lo, size_t hi, const char *prefix,
			      bool strict, struct found_list *out)
{
	size_t i = lo;

	while (i < hi) {
		const char *rel = rel_to(prefix, l->e[i].name);
		size_t len = strcspn(rel, "/"), j = i + 1;
		char *child;

		if (!rel[len] || !len) {	/* a file of prefix itself, or an absolute name */
			i++;
			continue;
		}
		child = xstrndup(l->e[i].name, (size_t)(rel - l->e[i].name) + len);
		while (j < hi && below(child, l->e[j].name))
			j++;
		classify(l, i, j, child, strict, out);
		free(child);
		i = j;
	}
}

static void classify(const struct listing *l, size_t lo, size_t hi, const char *prefix,
		     bool strict, struct found_list *out)
{
	if (strict && !strict_below(l, lo, hi, prefix))
		strict = false;	/* no manifests down here: what the files are decides */
	if (trial_here(l, lo, hi, prefix, strict)) {
		xgrow(&out->prefixes, &out->cap, out->n + 1, sizeof(*out->prefixes));
		out->prefixes[out->n++] = xstrdup(prefix);
		return;
	}
	classify_children(l, lo, hi, prefix, strict, out);
}

/* ---- entries ---- */

static struct found_trial *add_found(struct discovery *dv, const char *root, const char *where)
{
	struct found_trial *f;

	xgrow(&dv->trials, &dv->cap, dv->n + 1, sizeof(*dv->trials));
	f = &dv->trials[dv->n++];
	*f = (struct found_trial){ .id = make_id(root, where), .where = xstrdup(where) };
	return f;
}

static void set_fingerprint(struct found_trial *f, const struct listing *l, const char *prefix)
{
	uint64_t h = FNV_INIT;

	for (size_t i = 0; i < l->n; i++) {
		const struct lentry *e = &l->e[i];
		const char *rel = rel_to(prefix, e->name);

		if (!below(prefix, e->name))
			continue;
		h = fnv(h, rel, strlen(rel) + 1);
		h = fnv(h, &e->size, sizeof(e->size));
		h = fnv(h, &e->mtime, sizeof(e->mtime));
		f->files++;
	}
	f->fingerprint = h;
	snprintf(f->fingerprint_hex, sizeof(f->fingerprint_hex), "%016llx", (unsigned long long)h);
}

static bool in_any(const struct found_list *fl, const char *name)
{
	for (size_t i = 0; i < fl->n; i++)
		if (below(fl->prefixes[i], name))
			return true;
	return false;
}

static void found_list_release(struct found_list *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->prefixes[i]);
	free(fl->prefixes);
}

static void take_listing(struct discovery *dv, const char *root, struct listing *l,
			 struct diags *d);

/* An archive file met in a directory, outside every trial. */
static void take_archive_file(struct discovery *dv, const char *root, const char *path,
			      struct diags *d)
{
	struct arc *a = arc_open(path, &dv->limits);
	struct listing *l = listing_new(path, path, NULL, 1);

	list_archive(l, a, true, &dv->limits);
	arc_close(a);
	take_listing(dv, root, l, d);
	listing_free(l);
}

/* The damage that stopped a listing: on the trial it hit, or an entry of its own. */
static void take_error(struct discovery *dv, const char *root, const struct listing *l,
		       struct found_list *fl, size_t first, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(l->where);
	struct found_trial *f = NULL;
	const char *hit = l->error_in ? l->error_in : l->error_after;

	diag_error(d, "archive", &pos, "%s", error_text(l));
	for (size_t i = 0; hit && i < fl->n; i++)
		if (below(fl->prefixes[i], hit))
			f = &dv->trials[first + i];
	if (!f) {
		f = add_found(dv, root, l->where);
		f->archive = l->level;
		f->path = xstrdup(l->path);
		f->member = l->member ? xstrdup(l->member) : NULL;
	}
	f->error = xstrdup(l->error);
}

/* Refused members that belong to no trial: told here, as no trial's load will tell them. */
static void refused_outside(const struct listing *l, const struct found_list *fl, struct diags *d)
{
	for (size_t i = 0; i < l->n; i++) {
		char *where;
		struct srcpos pos;

		if (!l->e[i].refused || in_any(fl, l->e[i].name))
			continue;
		where = join(l->where, l->e[i].name);
		pos = (struct srcpos)SRCPOS_FILE(where);
		diag_error(d, "archive-member", &pos, "%s", l->e[i].refused);
		free(where);
	}
}

static void take_listing(struct discovery *dv, const char *root, struct listing *l,
			 struct diags *d)
{
	struct found_list fl = { .n = 0 };
	size_t first = dv->n;

	classify(l, 0, l->n, "", true, &fl);
	for (size_t i = 0; i < fl.n; i++) {
		char *where = join(l->where, fl.prefixes[i]);
		struct found_trial *f = add_found(dv, root, where);

		f->archive = l->level;
		f->path = xstrdup(l->level ? l->path : where);
		f->member = l->member ? xstrdup(l->member) : NULL;
		f->prefix = l->level ? xstrdup(fl.prefixes[i]) : NULL;
		set_fingerprint(f, l, fl.prefixes[i]);
		free(where);
	}
	if (l->error)
		take_error(dv, root, l, &fl, first, d);
	refused_outside(l, &fl, d);
	for (size_t i = 0; i < l->n; i++) {
		const struct lentry *e = &l->e[i];
		char *path;

		if (!e->archive || in_any(&fl, e->name))
			continue;
		if (e->inner) {
			take_listing(dv, root, e->inner, d);
			continue;
		}
		if (l->level)
			continue;
		path = join(l->path, e->name);
		take_archive_file(dv, root, path, d);
		free(path);
	}
	found_list_release(&fl);
}

/* ---- the public part ---- */

/* A whole positive number from the environment into *v; left as it is when unset or not one. */
static void env_limit(const char *name, int64_t *v)
{
	const char *s = getenv(name);
	char *end;
	long long n;

	if (!s || !*s)
		return;
	n = strtoll(s, &end, 10);
	if (!*end && n > 0)
		*v = n;
}

void discovery_init(struct discovery *dv)
{
	*dv = (struct discovery){ .limits = ARCHIVE_LIMITS_DEFAULT };
	env_limit("SCALEAUDIT_ARCHIVE_SECONDS", &dv->limits.seconds_max);
	env_limit("SCALEAUDIT_ARCHIVE_BYTES", &dv->limits.archive_max);
}

static void found_release(struct found_trial *f)
{
	free(f->id);
	free(f->where);
	free(f->path);
	free(f->member);
	free(f->prefix);
	free(f->staged);
	free(f->error);
}

/* A trial found twice at the same place (a path given twice) is kept once. */
static void drop_repeats(struct discovery *dv, size_t from)
{
	size_t out = from;

	for (size_t i = from; i < dv->n; i++) {
		bool seen = false;

		for (size_t j = 0; j < out && !seen; j++)
			seen = !strcmp(dv->trials[j].where, dv->trials[i].where);
		if (seen)
			found_release(&dv->trials[i]);
		else
			dv->trials[out++] = dv->trials[i];
	}
	dv->n = out;
}

/* Ids met twice (archives of one name in two folders) get a hash of where they are. */
static void unique_ids(struct discovery *dv, size_t from)
{
	for (size_t i = from; i < dv->n; i++) {
		bool twice = false;

		for (size_t j = 0; j < dv->n; j++)
			if (j != i && !strcmp(dv->trials[i].id, dv->trials[j].id))
				twice = true;
		if (twice) {
			struct found_trial *f = &dv->trials[i];
			uint64_t h = fnv(FNV_INIT, f->where, strlen(f->where));
			char *id = xasprintf("%s-%08x", f->id, (unsigned)(h >> 32));

			free(f->id);
			f->id = id;
		}
	}
}

static bool worth_opening(const char *path);

static int discover_path(struct discovery *dv, const char *given, struct diags *d)
{
	char *root = trim_slashes(given);
	struct srcpos pos = SRCPOS_FILE(root);
	struct stat st;
	int ret = 0;

	if (stat(root, &st) < 0) {
		ret = diag_error(d, "unreadable", &pos, "no such file or directory");
	} else if (S_ISDIR(st.st_mode)) {
		struct walk w = { .n = 0 };
		struct listing *l = listing_new(root, root, NULL, 0);

		walk_path(&w, root, d);
		list_dir(l, &w);
		walk_release(&w);
		take_listing(dv, root, l, d);
		listing_free(l);
	} else if (!worth_opening(root)) {
		struct listing *l = listing_new(root, root, NULL, 1);

		l->error = xasprintf("%s: neither a directory nor an archive (tar, compressed or not, "
				     "or zip)", root);
		take_listing(dv, root, l, d);
		listing_free(l);
	} else {
		take_archive_file(dv, root, root, d);
	}
	free(root);
	return ret;
}

int discover(struct discovery *dv, const char *const *paths, size_t n, struct diags *d)
{
	size_t before = dv->n;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		if (discover_path(dv, paths[i], d) < 0)
			ret = -1;
	drop_repeats(dv, before);
	unique_ids(dv, 0);
	return ret < 0 ? -1 : (int)(dv->n - before);
}

const struct found_trial *discovery_find(const struct discovery *dv, const char *id)
{
	for (size_t i = 0; i < dv->n; i++)
		if (!strcmp(dv->trials[i].id, id))
			return &dv->trials[i];
	return NULL;
}

void discovery_release(struct discovery *dv)
{
	for (size_t i = 0; i < dv->n; i++)
		found_release(&dv->trials[i]);
	free(dv->trials);
	discovery_init(dv);
}

/* The first bytes of the regular file at path into head; -1 when it is none or unreadable. */
static ssize_t file_head(const char *path, unsigned char *head, size_t size)
{
	struct stat st;
	size_t n;
	FILE *fp;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(fp = fopen(path, "rb")))
		return -1;
	n = fread(head, 1, size, fp);
	fclose(fp);
	return (ssize_t)n;
}

bool discover_is_archive(const char *path)
{
	unsigned char head[HEAD];
	ssize_t n = file_head(path, head, sizeof(head));

	return n >= 0 && arc_maybe(head, (size_t)n);
}

/* A file named on the command line is opened as an archive when it may be one, or is gzip (cut short?). */
static bool worth_opening(const char *path)
{
	unsigned char head[HEAD];
	ssize_t n = file_head(path, head, sizeof(head));

	return n >= 0 && (arc_maybe(head, (size_t)n) || (n >= 2 && head[0] == 0x1f && head[1] == 0x8b));
}

/* ---- loading from an archive ---- */

/* Where the members of the trial are read from, reopened when a member was passed already. */
struct cursor {
	const struct found_trial *f;
	const struct discovery *dv;
	const struct listing *l;	/* the trial's members (names below the archive's top) */
	struct arc *outer, *inner;
	unsigned char head[HEAD];	/* the inner archive's first bytes, for arc_open_member() */
	bool broken;			/* the archive was found damaged: said once */
	char **files;			/* where + "/" + name below the trial */
	const char **refused;
	size_t *index;			/* files[i] is l->e[index[i]] */
	size_t n;
	/* members passed on the way to another, kept for their turn (see SAVE_*) */
	size_t *file_at;		/* by arc position: the file there, or SIZE_MAX */
	size_t nseq;
	bool *done;			/* files[i] was read */
	struct buf *saved;		/* files[i]'s bytes, when kept (saved[i].data not NULL) */
	int64_t saved_bytes;		/* kept now */
	size_t reopened;		/* times the archive was opened again */
};

/*
 * An archive's members come in its order, a trial's are read in walk order:
 * a member met before its turn is kept in memory when it is small (as
 * stored), so that the archive is read again only for the large ones.
 */
#define SAVE_MEMBER_MAX ((int64_t)16 << 20)
#define SAVE_TOTAL_MAX ((int64_t)256 << 20)

/* The file a trial's members are read from: its staged copy when it has one, else its archive. */
static const char *source_path(const struct found_trial *f)
{
	return f->staged ? f->staged : f->path;
}

/* The inner archive's member name in source_path(f); NULL when the members are at its top. */
static const char *source_member(const struct found_trial *f)
{
	return f->staged ? NULL : f->member;
}

static struct arc *cursor_arc(const struct cursor *c)
{
	return c->inner ? c->inner : c->outer;
}

static void cursor_close(struct cursor *c)
{
	arc_close(c->inner);
	arc_close(c->outer);
	c->inner = c->outer = NULL;
}

/* Moves a to the member named name (the first of that name): true when found. */
static bool seek_name(struct arc *a, const char *name)
{
	struct arc_entry ae;

	while (arc_next(a, &ae) > 0)
		if (!strcmp(ae.name, name))
			return true;
	return false;
}

static void cursor_open(struct cursor *c)
{
	ssize_t n;

	cursor_close(c);
	c->outer = arc_open(source_path(c->f), &c->dv->limits);
	if (!source_member(c->f))
		return;
	if (!seek_name(c->outer, c->f->member) ||
	    (n = arc_read_head(c->outer, c->head, sizeof(c->head))) < 0)
		return;
	c->inner = arc_open_member(c->outer, c->l->where, c->head, (size_t)n);
}

/* True when the cursor's archive cannot be read further. */
static bool cursor_dead(const struct cursor *c)
{
	bool fatal = false;

	if (!c->outer || (source_member(c->f) && !c->inner))
		return true;
	arc_why(cursor_arc(c), &fatal);
	return arc_error(cursor_arc(c)) && fatal;
}

/* The member just met, when it is one of the trial's not read yet and small: kept. */
static void keep_for_later(struct cursor *c, const struct arc_entry *ae)
{
	size_t pos = arc_position(cursor_arc(c)), i;
	struct buf *b;
	unsigned char chunk[CHUNK / 4];
	ssize_t got;

	if (pos >= c->nseq || (i = c->file_at[pos]) == SIZE_MAX || c->done[i] ||
	    c->saved[i].data || ae->refused || ae->size < 0 || ae->size > SAVE_MEMBER_MAX ||
	    c->saved_bytes + ae->size > SAVE_TOTAL_MAX)
		return;
	b = &c->saved[i];
	buf_init(b, 0);
	buf_addstr(b, "");
	while ((got = arc_read(cursor_arc(c), chunk, sizeof(chunk))) > 0 &&
	       b->len + (size_t)got <= (size_t)ae->size)
		buf_add(b, chunk, (size_t)got);
	if (got != 0) {	/* damaged, past a cap or longer than it said: read in its turn */
		buf_release(b);
		b->data = NULL;
		return;
	}
	c->saved_bytes += (int64_t)b->len;
}

/* Moves to the member at seq: true when there (false: the archive gave out before it). */
static bool cursor_seek(struct cursor *c, size_t seq)
{
	struct arc_entry ae;

	if (cursor_dead(c) || arc_position(cursor_arc(c)) >= seq) {
		c->reopened += c->outer != NULL;
		cursor_open(c);
	}
	if (cursor_dead(c))
		return false;
	while (arc_position(cursor_arc(c)) < seq) {
		if (arc_next(cursor_arc(c), &ae) <= 0)
			return false;
		keep_for_later(c, &ae);
	}
	return true;
}

/* A member the archive gave out before: a note, and the damage said once. */
static void unreached(struct cursor *c, struct trial *t, size_t i, struct arena *a,
		      struct ingest_file *out)
{
	const struct lentry *e = &c->l->e[c->index[i]];
	const struct arc *ar = c->outer ? cursor_arc(c) : NULL;
	struct srcpos pos = SRCPOS_FILE(c->l->where);

	*out = (struct ingest_file){ .path = intern_str(&t->strings, c->files[i]), .size = e->size,
				     .unreadable = true, .info = info_root(a),
				     .skipped = "not reached: the archive is damaged before it" };
	if (c->broken)
		return;
	c->broken = true;
	diag_error(&t->diags, "archive", &pos, "%s",
		   ar && arc_why(ar, NULL) ? arc_why(ar, NULL) : "cannot be read");
}

/*
 * A binary inside an archive is scanned for GPU code from its bytes, held in
 * memory while scanned, when it is at most this size (as stored).
 */
#define SCAN_MEMBER_MAX ((int64_t)256 << 20)

/* Drops what keep holds of a member that is not judged: *over. */
static void drop_kept(struct buf *keep, bool *over)
{
	*over = true;
	buf_release(keep);
	buf_init(keep, SCAN_MEMBER_MAX);
}

/* Keeps the next len bytes of a member in keep (its ceiling: SCAN_MEMBER_MAX). */
static void keep_bytes(struct buf *keep, bool *over, const unsigned char *p, size_t len)
{
	if (!*over && !buf_add(keep, p, len))
		drop_kept(keep, over);
}

/*
 * Reads the rest of the member at the cursor into s; a fault is told on s.
 * keep (NULL: none) also gets the member's bytes, for codescan.
 */
static void feed_from_archive(struct cursor *c, struct ingest_stream *s, struct buf *keep, bool *over)
{
	unsigned char *chunk = xmalloc(CHUNK);
	bool want = true;	/* the stream takes more */
	ssize_t got = 0;

	while ((want || (keep && !*over)) && (got = arc_read(cursor_arc(c), chunk, CHUNK)) > 0) {
		if (want && ingest_stream_feed(s, chunk, (size_t)got))
			want = false;
		if (keep)
			keep_bytes(keep, over, chunk, (size_t)got);
	}
	if (got < 0) {
		bool fatal;
		const char *why = arc_why(cursor_arc(c), &fatal);

		if (fatal)
			ingest_stream_fail(s, "archive", why);
		else
			ingest_stream_fail(s, "archive-member", why);
		c->broken |= fatal;
		if (keep)	/* damaged: not judged from part of it */
			drop_kept(keep, over);
	}
	free(chunk);
}

/* True when member e of run r is a binary that codescan judges from its bytes. */
static bool scans_code(const struct lentry *e, const struct run *r)
{
	return r && (e->format == FMT_ELF || e->format == FMT_CUBIN || e->format == FMT_FATBIN);
}

/*
 * After the stream: a binary member (len bytes at p; none when it was not
 * kept) with GPU code joins its run's binaries as one on disk does; one too
 * large to keep says why it was not judged.
 */
static void scan_member(struct trial *t, struct run *r, const struct lentry *e, const void *p,
			size_t len, bool kept, struct ingest_file *out)
{
	if (out->read || out->unreadable)
		return;
	if (!kept) {
		struct srcpos pos = SRCPOS_FILE(out->path);

		if (e->size >= 0 && e->size <= SCAN_MEMBER_MAX)
			return;	/* damaged: the stream said so */
		out->skipped = "a binary of more than 256 MiB inside an archive: not scanned for GPU code";
		diag_add(&t->diags, DIAG_INFO, "binary-not-scanned", &pos, "a binary of more than 256 MiB "
			 "inside an archive is not scanned for GPU code, so run '%s' is judged without it: "
			 "extract the trial to judge it", r->name);
		return;
	}
	if (codescan_run_bytes(t, r, out->path, p, len) > 0) {
		out->read = true;	/* a binary with GPU code: the run's readiness judges it */
		out->skipped = NULL;
	}
}

static void ingest_member(void *arg, struct trial *t, struct run *r, size_t i, struct arena *a,
			  struct ingest_file *out)
{
	struct cursor *c = arg;
	const struct lentry *e = &c->l->e[c->index[i]];
	struct ingest_stream *s;
	struct buf keep = BUF_INIT;
	bool scan = scans_code(e, r), over = e->size > SCAN_MEMBER_MAX;

	c->done[i] = true;
	if (c->saved[i].data) {
		s = ingest_stream_open(t, r, c->files[i], e->size, a);
		ingest_stream_feed(s, c->saved[i].data, c->saved[i].len);
		ingest_stream_finish(s, out);
		if (scan)
			scan_member(t, r, e, c->saved[i].data, c->saved[i].len, true, out);
		c->saved_bytes -= (int64_t)c->saved[i].len;
		buf_release(&c->saved[i]);
		c->saved[i].data = NULL;
		return;
	}
	if (!cursor_seek(c, e->seq)) {
		unreached(c, t, i, a, out);
		return;
	}
	buf_init(&keep, SCAN_MEMBER_MAX);
	s = ingest_stream_open(t, r, c->files[i], e->size, a);
	feed_from_archive(c, s, scan ? &keep : NULL, &over);
	ingest_stream_finish(s, out);
	if (scan)
		scan_member(t, r, e, keep.data, keep.len, !over, out);
	buf_release(&keep);
}

static enum format head_member(void *arg, size_t i)
{
	const struct cursor *c = arg;

	return c->l->e[c->index[i]].format;
}

/* The members of the archive that holds f (the inner one of an archive's archive). */
static struct listing *load_listing(const struct discovery *dv, const struct found_trial *f)
{
	const char *where_end = f->where + strlen(f->where) - strlen(f->prefix);
	char *top = xstrndup(f->where, (size_t)(where_end - f->where) - (*f->prefix && where_end > f->where));
	struct listing *l = listing_new(top, f->path, f->member, f->archive);
	struct arc *outer = arc_open(source_path(f), &dv->limits), *inner = NULL;
	unsigned char head[HEAD];
	ssize_t n = 0;

	free(top);
	if (source_member(f) && seek_name(outer, f->member) &&
	    (n = arc_read_head(outer, head, sizeof(head))) >= 0)
		inner = arc_open_member(outer, l->where, head, (size_t)n);
	if (inner || !source_member(f))
		list_archive(l, inner ? inner : outer, false, &dv->limits);
	else
		l->error = arc_error(outer) ? xstrdup(arc_error(outer))
			   : xasprintf("%s: no member %s in it any more", f->path, f->member);
	arc_close(inner);
	arc_close(outer);
	return l;
}

static void cursor_files(struct cursor *c)
{
	const char *prefix = c->f->prefix;

	c->files = xcalloc(c->l->n + 1, sizeof(*c->files));
	c->refused = xcalloc(c->l->n + 1, sizeof(*c->refused));
	c->index = xcalloc(c->l->n + 1, sizeof(*c->index));
	for (size_t i = 0; i < c->l->n; i++) {
		const struct lentry *e = &c->l->e[i];

		if (!below(prefix, e->name))
			continue;
		c->files[c->n] = xasprintf("%s/%s", c->f->where, rel_to(prefix, e->name));
		c->refused[c->n] = e->refused;
		c->index[c->n++] = i;
		c->nseq = e->seq + 1 > c->nseq ? e->seq + 1 : c->nseq;
	}
	c->file_at = xmalloc((c->nseq + 1) * sizeof(*c->file_at));
	memset(c->file_at, 0xff, (c->nseq + 1) * sizeof(*c->file_at));
	for (size_t i = 0; i < c->n; i++)
		c->file_at[c->l->e[c->index[i]].seq] = i;
	c->done = xcalloc(c->n + 1, sizeof(*c->done));
	c->saved = xcalloc(c->n + 1, sizeof(*c->saved));
}

static void cursor_release(struct cursor *c)
{
	cursor_close(c);
	for (size_t i = 0; i < c->n; i++) {
		free(c->files[i]);
		if (c->saved[i].data)
			buf_release(&c->saved[i]);
	}
	free(c->files);
	free(c->file_at);
	free(c->done);
	free(c->saved);
	free(c->refused);
	free(c->index);
}

/* True when reading member `name` of the trial met the damage and said so. */
static bool told(const struct trial *t, const struct cursor *c, const char *name)
{
	for (size_t i = 0; name && i < c->n; i++) {
		if (strcmp(c->l->e[c->index[i]].name, name))
			continue;
		for (size_t k = 0; k < t->diags.count; k++)
			if (t->diags.items[k].severity == DIAG_ERROR && t->diags.items[k].file &&
			    !strcmp(t->diags.items[k].file, c->files[i]))
				return true;
	}
	return false;
}

/* The trial's members that the archive holds more than once: which copy was read. */
static void warn_copies(struct trial *t, const struct cursor *c)
{
	struct srcpos pos = SRCPOS_FILE(c->l->where);

	for (size_t i = 0; i < c->n; i++) {
		const struct lentry *e = &c->l->e[c->index[i]];

		if (e->copies < 2)
			continue;
		diag_warn(&t->diags, "archive-duplicate", &pos,
			  "member %s is in the archive %zu times: its last copy was read, as tar "
			  "extracts it, and the earlier ones were left out", e->name, e->copies);
	}
}

struct trial *found_trial_load(const struct discovery *dv, const struct found_trial *f,
			       struct diags *d, struct trial_stats *stats)
{
	struct srcpos pos = SRCPOS_FILE(f->where);
	struct cursor c = { .f = f, .dv = dv };
	struct listing *l;
	struct trial *t;

	memset(stats, 0, sizeof(*stats));
	if (!f->archive && f->path)
		return trial_load(f->path, d, stats);
	if (!f->prefix) {	/* an input that gave no trial: its damage again */
		size_t n = strlen(f->where);
		bool named = f->error && !strncmp(f->error, f->where, n) && f->error[n] == ':';

		diag_error(d, "archive", &pos, "%s",
			   named ? f->error + n + 2 : f->error ? f->error : "holds no trial");
		return NULL;
	}
	c.l = l = load_listing(dv, f);
	cursor_files(&c);
	t = trial_load_source(&(struct trial_source){ .dir = f->where,
				.files = (const char *const *)c.files, .refused = c.refused,
				.n = c.n, .head = head_member, .ingest = ingest_member, .arg = &c },
			      d, stats);
	if (t)
		warn_copies(t, &c);
	if (t && l->error && !told(t, &c, l->error_in ? l->error_in : l->error_after)) {
		pos = (struct srcpos)SRCPOS_FILE(l->where);
		diag_error(d, "archive", &pos, "%s", error_text(l));
		stats->unreadable++;	/* members past the damage are lost: a partial trial */
	}
	cursor_release(&c);
	listing_free(l);
	return t;
}
