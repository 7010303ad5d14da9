/*
 * Trials found under directories and archives, and loaded from archives in
 * place. The archives are made here with libarchive from the committed
 * sample trials (samples/trials), with the damage and the unsafe members
 * planted on purpose; every expected id, message and count is written out.
 */
#define _XOPEN_SOURCE 700
#include <archive.h>
#include <archive_entry.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "core/buf.h"
#include "core/xalloc.h"
#include "ingest/discover.h"
#include "ingest/trial.h"
#include "ingest/walk.h"

static char tmp[4096];		/* the folder everything is made in */
static char in[4200];		/* tmp/in: the one path discovered */
static const char *top = ".";

/* ---- making archives ---- */

struct member {
	const char *name;	/* as stored */
	const char *src;	/* a file to copy the bytes from; NULL: data */
	const char *data;	/* the bytes when src is NULL */
	const char *symlink;	/* a symbolic link to this */
	const char *hardlink;	/* a hard link to this */
};

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *p;

	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &st), 0);
	p = xmalloc((size_t)st.st_size + 1);
	*n = fread(p, 1, (size_t)st.st_size, f);
	fclose(f);
	return p;
}

static void put(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void add_member(struct archive *a, const struct member *m)
{
	struct archive_entry *e = archive_entry_new();
	size_t n = m->data ? strlen(m->data) : 0;
	char *bytes = m->src ? slurp(m->src, &n) : NULL;
	struct stat st;

	archive_entry_set_pathname(e, m->name);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_mtime(e, 1700000000, 0);
	if (m->src && stat(m->src, &st) == 0)
		archive_entry_set_mtime(e, st.st_mtime, 0);	/* as on disk: the same fingerprint */
	if (m->symlink) {
		archive_entry_set_filetype(e, AE_IFLNK);
		archive_entry_set_symlink(e, m->symlink);
	} else {
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_size(e, m->hardlink ? 0 : (la_int64_t)n);
		if (m->hardlink)
			archive_entry_set_hardlink(e, m->hardlink);
	}
	assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
	if (n && !m->hardlink && !m->symlink)
		assert_int_equal(archive_write_data(a, bytes ? bytes : m->data, n), (la_ssize_t)n);
	archive_entry_free(e);
	free(bytes);
}

enum kind { TAR, TAR_GZ, ZIP };

static void write_archive(const char *path, enum kind kind, const struct member *m, size_t n)
{
	struct archive *a = archive_write_new();

	if (kind == ZIP) {
		archive_write_set_format_zip(a);
	} else {
		archive_write_set_format_pax_restricted(a);
		if (kind == TAR_GZ)
			archive_write_add_filter_gzip(a);
	}
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (size_t i = 0; i < n; i++)
		add_member(a, &m[i]);
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

/* The members of sample trial `trial`, named prefix + its path below the trial; backwards when asked. */
static size_t sample_members(const char *trial, const char *prefix, bool backwards,
			     struct member *m, size_t cap, char **names)
{
	struct walk w = { .n = 0 };
	struct diags d = DIAGS_INIT;
	char *dir = xasprintf("%s/samples/trials/%s", top, trial);
	size_t n = 0;

	assert_int_equal(walk_path(&w, dir, &d), 0);
	for (size_t i = 0; i < w.n && n < cap; i++) {
		size_t k = backwards ? w.n - 1 - i : i;
		char *name = xasprintf("%s%s", prefix, w.files[k] + strlen(dir) + 1);

		names[n] = name;
		m[n++] = (struct member){ .name = name, .src = xstrdup(w.files[k]) };
	}
	walk_release(&w);
	diags_release(&d);
	free(dir);
	return n;
}

static void free_members(struct member *m, char **names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		free((char *)(uintptr_t)m[i].src);
	}
}

static void copy_tree(const char *trial, const char *to)
{
	struct member m[32];
	char *names[32];
	size_t n = sample_members(trial, "", false, m, 32, names);

	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", to, m[i].name);
		size_t len;
		char *bytes = slurp(m[i].src, &len);

		for (char *p = path + strlen(tmp) + 1; (p = strchr(p, '/')); p++) {
			*p = 0;
			mkdir(path, 0755);
			*p = '/';
		}
		put(path, bytes, len);
		free(bytes);
		free(path);
	}
	free_members(m, names, n);
}

/* A gzip member of p[0..n). */
static void gzip_append(struct buf *out, const void *p, size_t n)
{
	z_stream z = { .next_in = (unsigned char *)(uintptr_t)p, .avail_in = (uInt)n };
	unsigned char chunk[65536];
	int rc;

	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = deflate(&z, Z_FINISH);
		buf_add(out, chunk, sizeof(chunk) - z.avail_out);
	} while (rc == Z_OK);
	assert_int_equal(rc, Z_STREAM_END);
	deflateEnd(&z);
}

/* Offset of the tar header of member name in a ustar/pax stream; asserts it is there. */
static size_t tar_header(const char *tar, size_t n, const char *name)
{
	for (size_t off = 0; off + 512 <= n; off += 512)
		if (!strcmp(tar + off, name))
			return off;
	fail_msg("no header for %s", name);
	return 0;
}

/*
 * Writes dir/name (returned, malloc'd) holding the sample trials named in
 * pairs of trial and member prefix in `trials` (NULL-ended), backwards or
 * in walk order, then the extra members.
 */
static char *sample_archive(const char *dir, const char *name, enum kind kind, bool backwards,
			    const char *const *trials, const struct member *extra, size_t nextra)
{
	struct member m[80];
	char *names[80];
	size_t n = 0;
	char *path = xasprintf("%s/%s", dir, name);

	for (size_t i = 0; trials[i]; i += 2)
		n += sample_members(trials[i], trials[i + 1], backwards, m + n, 32, names + n);
	assert_true(n + nextra <= 80);
	for (size_t i = 0; i < nextra; i++)
		m[n + i] = extra[i];
	write_archive(path, kind, m, n + nextra);
	free_members(m, names, n);
	return path;
}

/* clock-offset whole, then a gzip member whose deflate data is invalid from its first block. */
static void make_broken_gz(void)
{
	static const char *const trials[] = { "clock-offset", "clock-offset/", NULL };
	static const unsigned char bad[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x07, 0xff, 0xff };
	char *plain = sample_archive(tmp, "broken.tar", TAR, false, trials, NULL, 0);
	char *gz = xasprintf("%s/broken.tar.gz", in);
	struct buf out = BUF_INIT;
	size_t len;
	char *tar = slurp(plain, &len);

	buf_init(&out, 0);
	gzip_append(&out, tar, len - 1024);	/* the members, without the two zero blocks of the end */
	buf_add(&out, bad, sizeof(bad));
	put(gz, out.data, out.len);
	buf_release(&out);
	free(tar);
	free(plain);
	free(gz);
}

/* short-capture cut 1000 bytes into the data of 2gpu/rank0.pt.trace.json.gz. */
static void make_truncated_tar(void)
{
	static const char *const trials[] = { "short-capture", "short-capture/", NULL };
	char *path = sample_archive(in, "trunc.tar", TAR, false, trials, NULL, 0);
	size_t len;
	char *tar = slurp(path, &len);

	put(path, tar, tar_header(tar, len, "short-capture/2gpu/rank0.pt.trace.json.gz") + 512 + 1000);
	free(tar);
	free(path);
}

static void make_evil_tar(void)
{
	static const char *const trials[] = { "short-capture", "exp/", NULL };
	static const struct member evil[] = {
		{ .name = "exp/1gpu/../../etc/passwd", .data = "root:x:0:0\n" },
		{ .name = "/etc/hostname", .data = "host\n" },
		{ .name = "exp/1gpu/out.log", .symlink = "../../../etc/shadow" },
		{ .name = "exp/1gpu/in.log", .symlink = "train.log" },
		{ .name = "exp/2gpu/hard.log", .hardlink = "../etc/passwd" },
	};

	free(sample_archive(in, "evil.tar", TAR, false, trials, evil, sizeof(evil) / sizeof(evil[0])));
}

/* A tar.gz inside a zip, its members backwards. */
static void make_nested_zip(void)
{
	static const char *const trials[] = { "short-capture", "short-capture/", NULL }, *none[] = { NULL };
	struct member outer = { .name = "b200.tar.gz" };

	outer.src = sample_archive(tmp, "b200.tar.gz", TAR_GZ, true, trials, NULL, 0);
	free(sample_archive(in, "nested.zip", ZIP, false, none, &outer, 1));
	free((char *)(uintptr_t)outer.src);
}

/* A zip inside a tar: read as a stream, not through its central directory. */
static void make_zip_in_tar(void)
{
	static const char *const trials[] = { "fsdp-allgather", "fsdp-allgather/", NULL }, *none[] = { NULL };
	struct member outer = { .name = "lab/fsdp.zip" };

	outer.src = sample_archive(tmp, "fsdp.zip", ZIP, true, trials, NULL, 0);
	free(sample_archive(in, "zipped.tar", TAR, false, none, &outer, 1));
	free((char *)(uintptr_t)outer.src);
}

/* fsdp-allgather, and a GPU monitor file far more compressible than the caps of the test allow. */
static void make_bomb_zip(void)
{
	static const char *const trials[] = { "fsdp-allgather", "fsdp-allgather/", NULL };
	struct member big = { .name = "fsdp-allgather/1gpu/big.csv" };
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	buf_addstr(&b, "timestamp, index, name, memory.used [MiB]\n");
	while (b.len < (8 << 20))
		buf_addstr(&b, "2025/11/30 01:00:09.123, 0, NVIDIA B200, 0 MiB\n");
	big.data = b.data;
	free(sample_archive(tmp, "bomb.zip", ZIP, false, trials, &big, 1));
	buf_release(&b);
}

/* Two trials in a tar.gz, backwards (read in walk order all the same), and one in a zip. */
static void make_two(void)
{
	static const char *const two[] = { "clock-offset", "runs/clock-offset/", "ddp-scales-well",
					   "runs/ddp-scales-well/", NULL };
	static const char *const one[] = { "fsdp-allgather", "fsdp-allgather/", NULL };

	free(sample_archive(in, "two.tar.gz", TAR_GZ, true, two, NULL, 0));
	free(sample_archive(in, "one.zip", ZIP, false, one, NULL, 0));
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	char *lab;

	(void)state;
	if (getenv("TOP"))
		top = getenv("TOP");
	snprintf(tmp, sizeof(tmp), "/tmp/test_discover_XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(in, sizeof(in), "%s/in", tmp);
	mkdir(in, 0755);
	lab = xasprintf("%s/lab", in);
	mkdir(lab, 0755);
	free(lab);
	lab = xasprintf("%s/lab/exp1", in);
	copy_tree("ddp-scales-well", lab);
	free(lab);
	lab = xasprintf("%s/lab/exp2", in);
	copy_tree("short-capture", lab);
	free(lab);
	lab = xasprintf("%s/notes.txt", in);
	put(lab, "loose notes\n", 12);
	free(lab);
	make_two();
	make_broken_gz();
	make_truncated_tar();
	make_evil_tar();
	make_nested_zip();
	make_zip_in_tar();
	make_bomb_zip();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("KEEP"))
		return 0;
	return nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- checks ---- */

static char *diag_lines(const struct diags *d)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	buf_addstr(&b, "");
	for (size_t i = 0; i < d->count; i++) {
		diag_format(&d->items[i], &b);
		buf_addch(&b, '\n');
	}
	return buf_detach(&b);
}

/* s with every tmp replaced by "T". */
static char *untmp(const char *s)
{
	struct buf b = BUF_INIT;
	size_t n = strlen(tmp);

	buf_init(&b, 0);
	buf_addstr(&b, "");
	for (const char *p = s; *p;) {
		if (!strncmp(p, tmp, n)) {
			buf_addch(&b, 'T');
			p += n;
		} else {
			buf_addch(&b, *p++);
		}
	}
	return buf_detach(&b);
}

static void assert_untmp(const char *got, const char *want)
{
	char *u = untmp(got);

	assert_string_equal(u, want);
	free(u);
}

static void discovers_every_trial(void **state)
{
	static const struct {
		const char *id, *where, *member, *prefix;
		int archive;
		size_t files;
		bool error;
	} want[] = {
		{ "in--lab--exp1", "T/in/lab/exp1", NULL, NULL, 0, 11, false },
		{ "in--lab--exp2", "T/in/lab/exp2", NULL, NULL, 0, 11, false },
		{ "in--broken-tar-gz--clock-offset", "T/in/broken.tar.gz/clock-offset", NULL,
		  "clock-offset", 1, 7, true },
		{ "in--evil-tar--exp", "T/in/evil.tar/exp", NULL, "exp", 1, 15, false },
		{ "in--nested-zip--b200-tar-gz--short-capture",
		  "T/in/nested.zip/b200.tar.gz/short-capture", "b200.tar.gz", "short-capture", 2, 11,
		  false },
		{ "in--one-zip--fsdp-allgather", "T/in/one.zip/fsdp-allgather", NULL, "fsdp-allgather",
		  1, 11, false },
		{ "in--trunc-tar--short-capture", "T/in/trunc.tar/short-capture", NULL, "short-capture",
		  1, 6, true },
		{ "in--two-tar-gz--runs--clock-offset", "T/in/two.tar.gz/runs/clock-offset", NULL,
		  "runs/clock-offset", 1, 11, false },
		{ "in--two-tar-gz--runs--ddp-scales-well", "T/in/two.tar.gz/runs/ddp-scales-well", NULL,
		  "runs/ddp-scales-well", 1, 11, false },
		{ "in--zipped-tar--lab--fsdp-zip--fsdp-allgather",
		  "T/in/zipped.tar/lab/fsdp.zip/fsdp-allgather", "lab/fsdp.zip", "fsdp-allgather", 2, 11,
		  false },
	};
	const size_t nwant = sizeof(want) / sizeof(want[0]);
	struct discovery dv;
	struct diags d = DIAGS_INIT;
	const char *paths[] = { in };
	char *lines;

	(void)state;
	discovery_init(&dv);
	assert_int_equal(discover(&dv, paths, 1, &d), (int)nwant);
	assert_int_equal(dv.n, nwant);
	for (size_t i = 0; i < nwant; i++) {
		const struct found_trial *f = &dv.trials[i];

		assert_string_equal(f->id, want[i].id);
		assert_untmp(f->where, want[i].where);
		assert_int_equal(f->archive, want[i].archive);
		assert_int_equal(f->files, want[i].files);
		assert_int_equal(f->error != NULL, want[i].error);
		assert_int_equal(strlen(f->fingerprint_hex), 16);
		if (want[i].member)
			assert_string_equal(f->member, want[i].member);
		else
			assert_null(f->member);
		if (want[i].prefix)
			assert_string_equal(f->prefix, want[i].prefix);
		else
			assert_null(f->prefix);
		assert_ptr_equal(discovery_find(&dv, want[i].id), f);
	}
	lines = diag_lines(&d);
	assert_untmp(lines,
		     "T/in/broken.tar.gz: after clock-offset/2gpu/rank1.pt.trace.json.gz: byte 262144: "
		     "truncated input file (needed 84992 bytes, only 0 available)\n"
		     "T/in/evil.tar//etc/hostname: its name is an absolute path, outside the archive: "
		     "not read\n"
		     "T/in/trunc.tar: short-capture/2gpu/rank0.pt.trace.json.gz: byte 0: "
		     "truncated tar archive\n");
	assert_untmp(dv.trials[2].error, "T/in/broken.tar.gz: after "
		     "clock-offset/2gpu/rank1.pt.trace.json.gz: byte 262144: "
		     "truncated input file (needed 84992 bytes, only 0 available)");
	free(lines);
	discovery_release(&dv);
	diags_release(&d);
}

/* The same files give the same fingerprint in a directory and in an archive (mtimes kept). */
static void fingerprints_follow_the_files(void **state)
{
	struct discovery dv;
	struct diags d = DIAGS_INIT;
	char *disk = xasprintf("%s/samples/trials/fsdp-allgather", top);
	char *zip = xasprintf("%s/one.zip", in);
	const char *paths[] = { disk, zip, in };
	const struct found_trial *a, *b;

	(void)state;
	discovery_init(&dv);
	assert_true(discover(&dv, paths, 3, &d) > 2);
	a = &dv.trials[0];
	b = &dv.trials[1];
	assert_string_equal(a->id, "fsdp-allgather");
	assert_string_equal(b->id, "one-zip--fsdp-allgather");
	assert_string_equal(a->fingerprint_hex, b->fingerprint_hex);
	/* another trial, another fingerprint */
	assert_string_not_equal(dv.trials[2].fingerprint_hex, a->fingerprint_hex);
	/* the zip found again under `in`: the same place, kept once, under the first path */
	assert_null(discovery_find(&dv, "in--one-zip--fsdp-allgather"));
	assert_int_equal(dv.n, 2 + 10 - 1);
	discovery_release(&dv);
	diags_release(&d);
	free(disk);
	free(zip);
}

/* Two archives of one name in two folders: each id gets a hash of where it is. */
static void same_names_get_distinct_ids(void **state)
{
	struct discovery dv;
	struct diags d = DIAGS_INIT;
	char *a = xasprintf("%s/x", tmp), *b = xasprintf("%s/y", tmp);
	char *za = xasprintf("%s/one.zip", a), *zb = xasprintf("%s/one.zip", b);
	char *src = xasprintf("%s/one.zip", in);
	const char *paths[] = { za, zb };
	size_t n;
	char *bytes = slurp(src, &n);

	(void)state;
	mkdir(a, 0755);
	mkdir(b, 0755);
	put(za, bytes, n);
	put(zb, bytes, n);
	discovery_init(&dv);
	assert_int_equal(discover(&dv, paths, 2, &d), 2);
	assert_int_equal(strncmp(dv.trials[0].id, "one-zip--fsdp-allgather-", 24), 0);
	assert_int_equal(strlen(dv.trials[0].id), 24 + 8);
	assert_string_not_equal(dv.trials[0].id, dv.trials[1].id);
	discovery_release(&dv);
	diags_release(&d);
	remove(za);
	remove(zb);
	rmdir(a);
	rmdir(b);
	free(bytes);
	free(src);
	free(za);
	free(zb);
	free(a);
	free(b);
}

/* "." and ".." are named by the folder they are. */
static void dot_is_named_by_its_folder(void **state)
{
	struct discovery dv;
	struct diags d = DIAGS_INIT;
	char *lab = xasprintf("%s/lab/exp1", in), cwd[4096];
	const char *paths[] = { ".", "..", "." };	/* one path twice: its trial once */

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(lab), 0);
	discovery_init(&dv);
	assert_int_equal(discover(&dv, paths, 2, &d), 3);
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(dv.trials[0].id, "exp1");
	assert_string_equal(dv.trials[0].where, ".");
	assert_string_equal(dv.trials[1].id, "lab--exp1");
	assert_string_equal(dv.trials[2].id, "lab--exp2");
	discovery_release(&dv);
	diags_release(&d);
	free(lab);
}

/* A trial loaded from an archive and the same trial on disk: the same runs, ranks and counts. */
static void assert_same_trial(const struct trial *x, const struct trial_stats *sx,
			      const struct trial *y, const struct trial_stats *sy)
{
	assert_int_equal(x->nruns, y->nruns);
	for (size_t i = 0; i < x->nruns; i++) {
		assert_string_equal(x->runs[i].name, y->runs[i].name);
		assert_int_equal(x->runs[i].nranks, y->runs[i].nranks);
		for (size_t r = 0; r < x->runs[i].nranks; r++) {
			assert_int_equal(x->runs[i].ranks[r].nev, y->runs[i].ranks[r].nev);
			assert_int_equal(x->runs[i].ranks[r].nsteps, y->runs[i].ranks[r].nsteps);
		}
	}
	assert_int_equal(sx->files, sy->files);
	assert_int_equal(sx->read, sy->read);
	assert_int_equal(sx->unreadable, sy->unreadable);
	assert_int_equal(sx->skipped, sy->skipped);
	assert_int_equal(x->diags.count, y->diags.count);
}

static void loads_like_the_directory(void **state)
{
	static const struct {
		const char *id, *sample;
	} pairs[] = {
		{ "in--two-tar-gz--runs--clock-offset", "clock-offset" },
		{ "in--two-tar-gz--runs--ddp-scales-well", "ddp-scales-well" },
		{ "in--one-zip--fsdp-allgather", "fsdp-allgather" },
		{ "in--nested-zip--b200-tar-gz--short-capture", "short-capture" },
		{ "in--lab--exp2", "short-capture" },
		{ "in--zipped-tar--lab--fsdp-zip--fsdp-allgather", "fsdp-allgather" },
	};
	struct discovery dv;
	struct diags d = DIAGS_INIT;
	const char *paths[] = { in };

	(void)state;
	discovery_init(&dv);
	discover(&dv, paths, 1, &d);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char *dir = xasprintf("%s/samples/trials/%s", top, pairs[i].sample);
		struct trial_stats sa, sb;
		struct diags da = DIAGS_INIT, db = DIAGS_INIT;
		const struct found_trial *f = discovery_find(&dv, pairs[i].id);
		struct trial *a, *b;

		assert_non_null(f);
		a = found_trial_load(&dv, f, &da, &sa);
		b = trial_load(dir, &db, &sb);
		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(da.count, 0);
		assert_same_trial(a, &sa, b, &sb);
		assert_int_equal(sa.nnotes, 1);	/* truth.json, of no format */
		assert_string_equal(sa.notes[0].path + strlen(f->where), "/truth.json");
		trial_free(a);
		trial_free(b);
		trial_stats_release(&sa);
		trial_stats_release(&sb);
		diags_release(&da);
		diags_release(&db);
		free(dir);
	}
	discovery_release(&dv);
	diags_release(&d);
}

/* One trial of those discovered under some paths, loaded: and all it takes to release it. */
struct loaded {
	struct discovery dv;
	struct diags d;		/* discovery's */
	struct diags dl;	/* the load's */
	struct trial_stats st;
	struct trial *t;
	char *lines;		/* the trial's diagnostics, one a line */
};

static void load_found(struct loaded *l, const char *path, size_t ntrials, size_t which)
{
	const char *paths[] = { path };

	assert_int_equal(discover(&l->dv, paths, 1, &l->d), (int)ntrials);
	l->t = found_trial_load(&l->dv, &l->dv.trials[which], &l->dl, &l->st);
	assert_non_null(l->t);
	l->lines = diag_lines(&l->t->diags);
}

static void loaded_release(struct loaded *l)
{
	trial_free(l->t);
	trial_stats_release(&l->st);
	discovery_release(&l->dv);
	diags_release(&l->d);
	diags_release(&l->dl);
	free(l->lines);
	*l = (struct loaded){ .t = NULL };
	discovery_init(&l->dv);
}

static void assert_counts(const struct loaded *l, size_t nruns, size_t files, size_t unreadable)
{
	assert_int_equal(l->t->nruns, nruns);
	assert_int_equal(l->st.files, files);
	assert_int_equal(l->st.unreadable, unreadable);
}

static void unsafe_members_are_refused(void **state)
{
	static const char *const notes[] = {
		"exp/1gpu/../../etc/passwd: its name climbs out with '..': not read",
		"exp/1gpu/in.log: a link: links in an archive are not followed",
		"exp/1gpu/out.log: a link that points outside the archive: not read",
		"exp/2gpu/hard.log: a link that points outside the archive: not read",
		"exp/truth.json: text of no known format",
	};
	struct loaded l = { .t = NULL };
	char *path = xasprintf("%s/evil.tar", in);

	(void)state;
	discovery_init(&l.dv);
	load_found(&l, path, 1, 0);
	assert_counts(&l, 2, 15, 4);
	assert_int_equal(l.st.nnotes, 5);
	for (size_t i = 0; i < l.st.nnotes; i++) {
		char *got = xasprintf("%s: %s", l.st.notes[i].path + strlen(path) + 1,
				      l.st.notes[i].why);

		assert_string_equal(got, notes[i]);
		free(got);
	}
	assert_untmp(l.lines,
		     "T/in/evil.tar/exp/1gpu/../../etc/passwd: its name climbs out with '..': not read\n"
		     "T/in/evil.tar/exp/1gpu/in.log: a link: links in an archive are not followed\n"
		     "T/in/evil.tar/exp/1gpu/out.log: a link that points outside the archive: not read\n"
		     "T/in/evil.tar/exp/2gpu/hard.log: a link that points outside the archive: not read\n");
	loaded_release(&l);
	free(path);
}

/*
 * Where the inner trace's content stops when libarchive fails in its bytes:
 * ISA-L (HAVE_ISAL) decodes a cut deflate stream up to one byte less far than
 * zlib does, keeping back a last symbol whose bits it cannot look past. Here
 * zlib's extra byte is the '.' of a number, so the JSON reader's complaint
 * differs too (both measured, with and without ISAL=0).
 */
#ifdef HAVE_ISAL
#define CUT_BYTE "926513"
#define CUT_ERROR "parse error: premature EOF"
#else
#define CUT_BYTE "926514"
#define CUT_ERROR "lexical error: malformed number, a digit is required after the decimal point"
#endif

static void damaged_archives_keep_what_precedes(void **state)
{
	struct loaded l = { .t = NULL };
	char *broken = xasprintf("%s/broken.tar.gz", in), *trunc = xasprintf("%s/trunc.tar", in);

	(void)state;
	/*
	 * libarchive reads ahead: the bad gzip member after clock-offset is met
	 * in 2gpu/rank1's bytes; the members after it are lost, the rest load
	 */
	discovery_init(&l.dv);
	load_found(&l, broken, 1, 0);
	assert_counts(&l, 2, 7, 1);
	assert_int_equal(l.st.read, 7);
	assert_int_equal(l.dl.count, 0);
	assert_untmp(l.lines, "T/in/broken.tar.gz/clock-offset/2gpu/rank1.pt.trace.json.gz: "
		     "byte " CUT_BYTE ": gzip decompression failed\n"
		     "T/in/broken.tar.gz/clock-offset/2gpu/rank1.pt.trace.json.gz: byte " CUT_BYTE ": "
		     "the trace ends inside its JSON (" CUT_ERROR "): the 3640 events "
		     "before are kept\n");
	loaded_release(&l);
	/* the cut trace: one message with the archive, the member and the byte */
	load_found(&l, trunc, 1, 0);
	assert_counts(&l, 2, 6, 1);
	assert_untmp(l.lines, "T/in/trunc.tar/short-capture/2gpu/rank0.pt.trace.json.gz: byte 0: "
		     "truncated tar archive\n");
	assert_int_equal(l.dl.count, 0);
	loaded_release(&l);
	discovery_release(&l.dv);
	free(broken);
	free(trunc);
}

static void bombs_are_stopped(void **state)
{
	struct loaded l = { .t = NULL };
	char *path = xasprintf("%s/bomb.zip", tmp);

	(void)state;
	/* more than it may decompress to: refused before a byte is read */
	discovery_init(&l.dv);
	l.dv.limits.member_max = 1 << 20;
	load_found(&l, path, 1, 0);
	assert_untmp(l.lines, "T/bomb.zip/fsdp-allgather/1gpu/big.csv: declares more bytes than the "
		     "cap against archive bombs: not read\n");
	assert_int_equal(l.st.unreadable, 1);
	loaded_release(&l);
	/* more than 100 times its compressed size, past 1 MiB: stopped there */
	l.dv.limits.ratio_max = 100;
	l.dv.limits.ratio_floor = 1 << 20;
	load_found(&l, path, 1, 0);
	assert_string_equal(l.t->diags.items[0].message,
			    "decompresses to more than 100 times its compressed size, "
			    "the cap against archive bombs: not read further");
	assert_untmp(l.t->diags.items[0].file, "T/bomb.zip/fsdp-allgather/1gpu/big.csv");
	assert_int_equal(l.t->diags.items[0].pos.byte, 1 << 20);	/* read in 64 KiB pieces */
	assert_int_equal(l.st.unreadable, 1);
	loaded_release(&l);
	discovery_release(&l.dv);
	free(path);
}

/* Inputs that give no trial: each has an entry that says why, loading it says it again. */
static void inputs_without_trials(void **state)
{
	struct discovery dv;
	struct diags d = DIAGS_INIT, dl = DIAGS_INIT;
	char *notes = xasprintf("%s/notes.txt", in), *cut = xasprintf("%s/cut.tar.gz", tmp);
	char *missing = xasprintf("%s/missing", tmp), *src = xasprintf("%s/two.tar.gz", in);
	const char *paths[] = { notes, cut, missing };
	struct trial_stats st;
	size_t n;
	char *bytes = slurp(src, &n), *lines;

	(void)state;
	put(cut, bytes, 100);
	discovery_init(&dv);
	assert_int_equal(discover(&dv, paths, 3, &d), -1);	/* one path is not there */
	assert_int_equal(dv.n, 2);
	assert_string_equal(dv.trials[0].id, "notes-txt");
	assert_string_equal(dv.trials[1].id, "cut-tar-gz");
	assert_null(dv.trials[0].prefix);
	assert_string_equal(dv.trials[0].fingerprint_hex, "");
	assert_int_equal(dv.trials[1].files, 0);
	lines = diag_lines(&d);
	assert_untmp(lines, "T/in/notes.txt: neither a directory nor an archive (tar, compressed or "
		     "not, or zip)\n"
		     "T/cut.tar.gz: truncated gzip input\n"
		     "T/missing: no such file or directory\n");
	free(lines);
	assert_null(found_trial_load(&dv, &dv.trials[1], &dl, &st));
	lines = diag_lines(&dl);
	assert_untmp(lines, "T/cut.tar.gz: truncated gzip input\n");
	free(lines);
	trial_stats_release(&st);
	discovery_release(&dv);
	diags_release(&d);
	diags_release(&dl);
	remove(cut);
	free(bytes);
	free(notes);
	free(cut);
	free(missing);
	free(src);
}

/* Walk's order, component by component: "a/b" before "a-c" though '/' > '-'. */
static void path_order(void **state)
{
	(void)state;
	assert_true(trial_path_cmp("a/b", "a-c") < 0);
	assert_true(trial_path_cmp("a-c", "a/b") > 0);
	assert_true(trial_path_cmp("a", "a/b") < 0);
	assert_true(trial_path_cmp("ab/c", "a/c") > 0);
	assert_int_equal(trial_path_cmp("x/y", "x/y"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(discovers_every_trial),
		cmocka_unit_test(fingerprints_follow_the_files),
		cmocka_unit_test(same_names_get_distinct_ids),
		cmocka_unit_test(dot_is_named_by_its_folder),
		cmocka_unit_test(loads_like_the_directory),
		cmocka_unit_test(unsafe_members_are_refused),
		cmocka_unit_test(damaged_archives_keep_what_precedes),
		cmocka_unit_test(bombs_are_stopped),
		cmocka_unit_test(inputs_without_trials),
		cmocka_unit_test(path_order),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
