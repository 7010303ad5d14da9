#include "ingest/ingest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/xalloc.h"
#include "ingest/registry.h"

#define CHUNK (64 * 1024)
#define PROGRESS_EVERY (2 * 1024 * 1024)	/* bytes on disk between two reports */
#define PROGRESS_MIN (8 * 1024 * 1024)	/* smaller files are read without a report */

static ingest_progress_fn *progress;

void ingest_set_progress(ingest_progress_fn *fn)
{
	progress = fn;
}

/* One open input: the gzip stream (plain files read through it unchanged). */
struct input {
	gzFile gz;
	const char *path;
	int64_t offset;		/* decompressed bytes read so far */
	struct diags *diags;
	bool failed;		/* a read error was recorded */
	off_t reported;		/* file offset of the last progress report */
};

static int input_open(struct input *in, const char *path, struct diags *d, int64_t *size)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : dup(0);
	struct stat st;
	struct srcpos pos = SRCPOS_FILE(path);

	in->path = path;
	in->diags = d;
	in->offset = 0;
	in->failed = false;
	in->reported = 0;
	*size = -1;
	if (fd < 0)
		return diag_error(d, "unreadable", &pos, "%s", strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return diag_error(d, "unreadable", &pos, "is a directory");
	}
	if (strcmp(path, "-") && fstat(fd, &st) == 0)
		*size = st.st_size;
	in->gz = gzdopen(fd, "rb");
	if (!in->gz) {
		close(fd);
		return diag_error(d, "unreadable", &pos, "cannot read: out of memory");
	}
	gzbuffer(in->gz, CHUNK);
	return 0;
}

/*
 * Reads up to n bytes; 0 at the end; -1 after recording why. Data that came
 * before a fault is returned first; the fault is recorded once, at the byte
 * offset where the good data ends, and every later read returns -1.
 */
static ssize_t input_read(struct input *in, void *buf, size_t n)
{
	int got;
	int zerr = Z_OK;
	const char *msg;
	struct srcpos pos;

	if (in->failed)
		return -1;
	got = gzread(in->gz, buf, (unsigned)n);
	if (got > 0)
		in->offset += got;
	msg = gzerror(in->gz, &zerr);
	if (zerr == Z_OK && got >= 0)
		return got;
	in->failed = true;
	pos = SRCPOS_BYTE(in->path, in->offset);
	if (zerr == Z_BUF_ERROR)
		diag_error(in->diags, "truncated", &pos,
			   "compressed data ends early: the file is cut short");
	else if (zerr == Z_ERRNO)
		diag_error(in->diags, "unreadable", &pos, "%s", strerror(errno));
	else
		diag_error(in->diags, "corrupt", &pos, "compressed data is corrupt: %s", msg);
	return got > 0 ? got : -1;
}

/* Tells the progress hook how far into the file (on disk) reading is. */
static void report_progress(struct input *in, const struct ingest_file *f, bool end)
{
	off_t at;

	if (!progress || f->size < PROGRESS_MIN)
		return;
	at = gzoffset(in->gz);
	if (end || at - in->reported >= PROGRESS_EVERY) {
		progress(f->path, end ? f->size : (int64_t)at, f->size);
		in->reported = at;
	}
}

/* Readers active on one file, with their states. */
struct active {
	const struct reader *r;
	void *st;
	bool stopped;		/* returned -1: fed no more */
};

struct session {
	struct active act[16];
	size_t n;
	struct ingest_ctx ctx;
	struct buf line;	/* the line being assembled */
	int64_t lineno;
	bool line_cut;		/* the current line passed READER_MAX_LINE */
	bool warned_long;
};

static void add_reader(struct session *s, const struct reader *r)
{
	void *st;

	if (s->n == sizeof(s->act) / sizeof(s->act[0]))
		return;
	st = r->open(&s->ctx);
	if (st)
		s->act[s->n++] = (struct active){ .r = r, .st = st };
}

static void emit_line(struct session *s)
{
	const char *p = s->line.data;
	size_t n = s->line.len;

	s->lineno++;
	if (n && p[n - 1] == '\r')
		n--;
	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->act[i];

		if (!a->stopped && a->r->line(a->st, p, n, s->lineno) < 0)
			a->stopped = true;
	}
	buf_reset(&s->line);
	s->line_cut = false;
}

static void feed_lines(struct session *s, const char *p, size_t n)
{
	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t take = nl ? (size_t)(nl - p) : n;

		if (!s->line_cut && !buf_add(&s->line, p, take)) {
			size_t room = READER_MAX_LINE - s->line.len;

			s->line.overflow = false;
			buf_add(&s->line, p, room);
			s->line_cut = true;
			if (!s->warned_long) {
				struct srcpos pos = SRCPOS_LINE(s->ctx.path, s->lineno + 1);

				diag_warn(s->ctx.diags, "long-line", &pos,
					  "line longer than 1 MiB: only its first 1 MiB was read");
				s->warned_long = true;
			}
		}
		if (!nl)
			return;
		emit_line(s);
		p = nl + 1;
		n -= take + 1;
	}
}

static void feed_bytes(struct session *s, const char *p, size_t n)
{
	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->act[i];

		if (!a->stopped && a->r->feed(a->st, p, n) < 0)
			a->stopped = true;
	}
}

static void feed(struct session *s, bool lines, const char *p, size_t n)
{
	if (lines)
		feed_lines(s, p, n);
	else
		feed_bytes(s, p, n);
}

static void pick_readers(struct session *s, const struct ingest_file *f)
{
	const struct reader *r = reader_for(f->sniff.format);

	if (r) {
		add_reader(s, r);
		return;
	}
	if (!f->sniff.text)
		return;
	for (size_t i = 0; line_readers[i]; i++)
		add_reader(s, line_readers[i]);
}

static void finish_all(struct session *s, struct ingest_file *f, bool lines)
{
	if (lines && (s->line.len || s->line_cut))
		emit_line(s);		/* a last line without its newline */
	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->act[i];

		if (a->r->path && a->r->input == READ_PATH)
			a->r->path(a->st, f->path);
		a->r->finish(a->st);
		if (a->r->input != READ_LINES || !a->r->found || a->r->found(a->st)) {
			/* content no signature caught, but a reader took: name it after that reader */
			if (!f->read && f->sniff.format == FMT_UNKNOWN)
				f->sniff.format = format_from_name(a->r->name);
			f->read = true;
		}
		a->r->free(a->st);
	}
	buf_release(&s->line);
}

static void describe(struct ingest_file *f, struct arena *a)
{
	info_str(a, f->info, "path", f->path);
	info_str(a, f->info, "format", format_name(f->sniff.format));
	info_bool(a, f->info, "compressed", f->gzip);
	if (f->size >= 0)
		info_int(a, f->info, "size_bytes", f->size);
	else
		info_null(a, f->info, "size_bytes");
}

int ingest_file(struct trial *t, struct run *r, const char *path, struct arena *a,
		struct ingest_file *out)
{
	struct session s = { .n = 0 };
	struct run scratch;	/* the run of a file that belongs to none, dropped after */
	struct input in;
	unsigned char *head = xmalloc(SNIFF_HEAD);
	char *chunk = NULL;
	ssize_t got = 0;
	size_t have = 0;
	bool lines;
	const struct reader *reader;

	memset(out, 0, sizeof(*out));
	memset(&scratch, 0, sizeof(scratch));
	scratch.name = scratch.dir = "(trial)";
	out->path = intern_str(&t->strings, path);
	out->info = info_root(a);
	if (input_open(&in, out->path, &t->diags, &out->size) < 0) {
		out->unreadable = true;
		out->skipped = "cannot be read";
		free(head);
		return -1;
	}
	while (have < SNIFF_HEAD && (got = input_read(&in, head + have, SNIFF_HEAD - have)) > 0)
		have += (size_t)got;
	out->gzip = !gzdirect(in.gz);
	sniff_bytes(head, have, got == 0, &out->sniff);
	describe(out, a);
	if (have == 0 && got < 0) {
		out->unreadable = true;
		out->skipped = "cannot be read";
		goto close;
	}

	reader = reader_for(out->sniff.format);
	if (reader && reader->input == READ_PATH && !strcmp(path, "-")) {
		out->skipped = "this format is read from a named file, not from standard input";
		goto close;
	}
	s.ctx = (struct ingest_ctx){ .trial = t, .run = r ? r : &scratch, .loose = !r,
				     .path = out->path, .diags = &t->diags, .arena = a,
				     .info = out->info };
	buf_init(&s.line, READER_MAX_LINE);
	pick_readers(&s, out);
	if (!s.n) {
		out->skipped = out->sniff.format == FMT_UNKNOWN ? out->sniff.why :
			       "recognised, but scaleaudit has no reader for it yet";
		goto close;
	}
	/* readers hold &s.ctx, so the source they count into can come now that one took the file */
	s.ctx.src = run_add_source(s.ctx.run, out->path, format_name(out->sniff.format));
	lines = s.act[0].r->input == READ_LINES;
	if (s.act[0].r->input != READ_PATH) {
		feed(&s, lines, (const char *)head, have);
		chunk = xmalloc(CHUNK);
		while (got > 0 && (got = input_read(&in, chunk, CHUNK)) > 0) {
			feed(&s, lines, chunk, (size_t)got);
			report_progress(&in, out, false);
		}
		report_progress(&in, out, true);
	}
	finish_all(&s, out, lines);
	info_str(a, out->info, "format", format_name(out->sniff.format));
	s.ctx.src->format = format_name(out->sniff.format);
	if (!out->read)
		out->skipped = out->sniff.format == FMT_UNKNOWN ? out->sniff.why :
			       "nothing in it that scaleaudit reads";
close:
	run_release(&scratch);
	out->bytes = in.offset;
	gzclose(in.gz);
	free(chunk);
	free(head);
	return 0;
}
