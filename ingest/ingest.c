#include "ingest/ingest.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/budget.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "ingest/gunzip.h"
#include "ingest/registry.h"

/*
 * Bytes read from a file at a time, and inflated at a time: large reads
 * cost fewer calls per byte (yajl, before the tokenizer replaced it,
 * parsing 100 MB of a trace: 167 ms with 64 KiB reads, 160 ms with 1 MiB);
 * inflated pieces stay small enough for
 * the CPU's cache (256 KiB was slower than 128 KiB).
 */
#define READ_CHUNK (1024 * 1024)
#define INFLATE_CHUNK (128 * 1024)
#define PROGRESS_EVERY (2 * 1024 * 1024)	/* bytes as stored between two reports */
#define PROGRESS_MIN (8 * 1024 * 1024)	/* smaller inputs are read without a report */
#define HEAD_CUTS 64	/* runs of piece sizes of the head kept; the rest goes on whole */

static ingest_progress_fn *progress;	/* set before any thread reads: read-only after */
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;	/* one report at a time */

/* errno's message, safe in a worker thread (strerror may share one buffer between threads). */
#define ERRTEXT_MAX 128
static const char *errtext(int err, char *buf)
{
	return strerror_r(err, buf, ERRTEXT_MAX);
}

void ingest_set_progress(ingest_progress_fn *fn)
{
	progress = fn;
}

/*
 * The stream's two stages. The raw stage turns bytes as stored into the
 * content:
 *   RAW_LOOK     deciding from two bytes: a gzip member, or (first) plain
 *                bytes, or (after a member) trailing garbage, ignored as gzip does
 *   RAW_PLAIN    bytes pass through unchanged
 *   RAW_INFLATE  inside a gzip member
 *   RAW_DONE     a fault was recorded, or garbage follows the last member
 * The sink stage sends the content on, once the head has been sniffed:
 *   SINK_HEAD    gathering the head for sniffing
 *   SINK_LINES, SINK_BYTES   to the readers
 *   SINK_SPILL   to a temporary file for a reader of files
 *   SINK_NONE    nowhere: skipped, or the reader reads the backing file
 */
enum raw_state { RAW_LOOK, RAW_PLAIN, RAW_INFLATE, RAW_DONE };
/*
 * The text stage, between the raw and the sink stages: a byte-order mark at
 * the start of the content is dropped (UTF-8) or decides the decoding
 * (UTF-16, as Windows PowerShell writes logs), so that no reader sees either.
 */
enum text_enc { ENC_LOOK, ENC_PLAIN, ENC_UTF16LE, ENC_UTF16BE };
enum sink { SINK_HEAD, SINK_LINES, SINK_BYTES, SINK_SPILL, SINK_NONE };

/* Readers active on one input, with their states. */
struct active {
	const struct reader *r;
	void *st;
	bool stopped;		/* returned -1: fed no more */
};

struct ingest_stream {
	struct trial *t;
	struct arena *a;
	struct ingest_file out;	/* filled as the stream learns */
	/* raw stage */
	enum raw_state raw;
	bool member_ended;	/* a gzip member ended: RAW_LOOK looks for the next */
	unsigned char magic[2];	/* RAW_LOOK: bytes seen so far */
	size_t nmagic;
	struct gunzip *gz;	/* the inflater, once a gzip member was seen; NULL */
	unsigned char *zout;	/* INFLATE_CHUNK bytes of inflated output */
	int64_t fed;		/* bytes as stored taken so far */
	bool failed;		/* a fault of the input was recorded */
	int64_t reported;	/* `fed` at the last progress report */
	/* text stage: the encoding, from the first bytes */
	enum text_enc enc;
	unsigned char bom[3];	/* ENC_LOOK: the first bytes so far */
	size_t nbom;
	unsigned char unit[2];	/* UTF-16: a code unit's first byte */
	size_t nunit;
	unsigned high;		/* UTF-16: a high surrogate waiting for its pair; 0 */
	struct buf utf8;	/* UTF-16: a piece as UTF-8 */
	/* sink stage */
	enum sink sink;
	struct buf head;	/* SINK_HEAD: up to SNIFF_HEAD bytes, grown as they come */
	struct cuts {		/* how the head came in: runs of pieces of one size */
		size_t size, count;
	} cuts[HEAD_CUTS];
	size_t ncuts;
	const char *backing;	/* a file holding the same bytes; NULL */
	bool copy;		/* the reader of files reads a temporary copy */
	int spill_fd;		/* SINK_SPILL: the copy; -1 none */
	char spill_path[4096];	/* its path; "" none */
	/* readers */
	struct active act[16];
	size_t n;
	struct ingest_ctx ctx;
	struct run scratch;	/* the run of an input that belongs to none, dropped after */
	struct ingest_lines lines;	/* SINK_LINES: the splitter, calling to_readers() */
};

/* ---- lines ---- */

void ingest_lines_init(struct ingest_lines *l, const char *path, struct diags *d,
		       ingest_line_fn *fn, void *arg)
{
	*l = (struct ingest_lines){ .fn = fn, .arg = arg, .path = path, .diags = d };
	buf_init(&l->line, READER_MAX_LINE);
}

/*
 * How many of `add` more bytes the current line keeps: all until it passes
 * READER_MAX_LINE, then none (warned once per input).
 */
static size_t line_room(struct ingest_lines *l, size_t add)
{
	size_t room = READER_MAX_LINE - l->line.len;
	struct srcpos pos;

	if (l->cut)
		return 0;
	if (add <= room)
		return add;
	l->cut = true;
	if (!l->warned) {
		pos = SRCPOS_LINE(l->path, l->lineno + 1);
		diag_warn(l->diags, "long-line", &pos,
			  "line longer than 1 MiB: only its first 1 MiB was read");
		l->warned = true;
	}
	return room;
}

/* Hands on one line without its "\n"; a "\r" before it is dropped. */
static void emit_line(struct ingest_lines *l, const char *p, size_t n)
{
	l->lineno++;
	if (n && p[n - 1] == '\r')
		n--;
	l->fn(l->arg, p, n, l->lineno);
	l->cut = false;
}

/* A line that began in an earlier piece ends with p[0..n): join, then emit. */
static void emit_held(struct ingest_lines *l, const char *p, size_t n)
{
	buf_add(&l->line, p, line_room(l, n));
	emit_line(l, l->line.data, l->line.len);
	buf_reset(&l->line);
}

/* The first line end in p[0..n): "\n", or under cr also a "\r"; NULL when none. */
static const char *line_end(const struct ingest_lines *l, const char *p, size_t n)
{
	const char *nl = memchr(p, '\n', n), *cr;

	if (!l->cr)
		return nl;
	cr = memchr(p, '\r', nl ? (size_t)(nl - p) : n);
	return cr ? cr : nl;
}

/* Text without NUL bytes into lines. */
static void feed_text(struct ingest_lines *l, const char *p, size_t n)
{
	if (l->after_cr && n && *p == '\n') {	/* the "\n" of a "\r\n" split across pieces */
		p++;
		n--;
	}
	l->after_cr = false;
	while (n) {
		const char *nl = line_end(l, p, n);
		size_t take = nl ? (size_t)(nl - p) : n;

		if (!nl) {
			buf_add(&l->line, p, line_room(l, take));
			return;
		}
		if (l->line.len || l->cut || take > READER_MAX_LINE)
			emit_held(l, p, take);
		else
			emit_line(l, p, take);
		p = nl + 1;
		n -= take + 1;
		if (*nl == '\r' && n && *p == '\n') {
			p++;
			n--;
		}
		l->after_cr = *nl == '\r' && !n;
	}
}

void ingest_lines_feed(struct ingest_lines *l, const char *p, size_t n)
{
	while (n) {
		const char *z = memchr(p, 0, n);
		size_t take = z ? (size_t)(z - p) : n, nul = 0;

		if (take)
			feed_text(l, p, take);
		while (take + nul < n && !p[take + nul])
			nul++;
		if (nul && !l->nul_bytes)
			l->nul_line = l->lineno + 1;
		l->nul_bytes += (int64_t)nul;
		p += take + nul;
		n -= take + nul;
	}
}

void ingest_lines_end(struct ingest_lines *l)
{
	if (l->line.len || l->cut)
		emit_line(l, l->line.data, l->line.len);	/* a last line without its newline */
	if (l->nul_bytes) {
		struct srcpos pos = SRCPOS_LINE(l->path, l->nul_line);

		diag_warn(l->diags, "nul-bytes", &pos, "%lld NUL byte%s from here on left out, the text "
			  "around them read (a file left by a node that crashed while writing?)",
			  (long long)l->nul_bytes, l->nul_bytes == 1 ? "" : "s");
	}
	buf_release(&l->line);
}

/* The stream's line function: each line to every line reader still reading. */
static void to_readers(void *arg, const char *line, size_t len, int64_t lineno)
{
	struct ingest_stream *s = arg;

	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->act[i];

		if (!a->stopped && a->r->line(a->st, line, len, lineno) < 0)
			a->stopped = true;
	}
}

/* ---- the sink stage ---- */

static void feed_bytes(struct ingest_stream *s, const char *p, size_t n)
{
	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->act[i];

		if (!a->stopped && a->r->feed(a->st, p, n) < 0)
			a->stopped = true;
	}
}

static void spill_drop(struct ingest_stream *s)
{
	if (s->spill_fd >= 0)
		close(s->spill_fd);
	if (s->spill_path[0])
		unlink(s->spill_path);
	s->spill_fd = -1;
	s->spill_path[0] = '\0';
}

static void spill_fault(struct ingest_stream *s, const char *what)
{
	struct srcpos pos = SRCPOS_FILE(s->out.path);

	diag_error(&s->t->diags, "unreadable", &pos, "cannot copy it to a temporary file to read: %s",
		   what);
	spill_drop(s);
	s->sink = SINK_NONE;
}

static void spill_open(struct ingest_stream *s)
{
	const char *dir = getenv("TMPDIR");

	snprintf(s->spill_path, sizeof(s->spill_path), "%s/scaleaudit-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	s->spill_fd = mkstemp(s->spill_path);
	if (s->spill_fd < 0) {
		char err[ERRTEXT_MAX];

		s->spill_path[0] = '\0';
		spill_fault(s, errtext(errno, err));
	}
}

static void spill(struct ingest_stream *s, const char *p, size_t n)
{
	char err[ERRTEXT_MAX];

	while (n) {
		ssize_t put = write(s->spill_fd, p, n);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0) {
			spill_fault(s, put < 0 ? errtext(errno, err) : "nothing written");
			return;
		}
		p += put;
		n -= (size_t)put;
	}
}

static void sink(struct ingest_stream *s, const char *p, size_t n)
{
	switch (s->sink) {
	case SINK_LINES:
		ingest_lines_feed(&s->lines, p, n);
		break;
	case SINK_BYTES:
		feed_bytes(s, p, n);
		break;
	case SINK_SPILL:
		spill(s, p, n);
		break;
	case SINK_HEAD:
	case SINK_NONE:
		break;
	}
}

static void add_reader(struct ingest_stream *s, const struct reader *r)
{
	void *st;

	if (s->n == sizeof(s->act) / sizeof(s->act[0]))
		return;
	st = r->open(&s->ctx);
	if (st)
		s->act[s->n++] = (struct active){ .r = r, .st = st };
}

static void pick_readers(struct ingest_stream *s)
{
	const struct reader *r = reader_for(s->out.sniff.format);

	if (r) {
		add_reader(s, r);
		return;
	}
	if (!s->out.sniff.text)
		return;
	for (size_t i = 0; line_readers[i]; i++)
		add_reader(s, line_readers[i]);
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

/* Where the content goes once the format is known: the first reader's kind of input. */
static enum sink sink_for(struct ingest_stream *s)
{
	switch (s->act[0].r->input) {
	case READ_LINES:
		return SINK_LINES;
	case READ_BYTES:
		return SINK_BYTES;
	case READ_PATH:
		break;
	}
	/* the backing file holds the bytes as stored: of a gzip input, not the content */
	return s->backing && !s->out.gzip ? SINK_NONE : SINK_SPILL;
}

/* Remembers how the head came in: a run of pieces of one size grows, else a new run. */
static void cut_head(struct ingest_stream *s, size_t n)
{
	struct cuts *last = s->ncuts ? &s->cuts[s->ncuts - 1] : NULL;

	if (last && (last->size == n || s->ncuts == HEAD_CUTS)) {
		*last = last->size == n ? (struct cuts){ n, last->count + 1 } :
					  (struct cuts){ last->size * last->count + n, 1 };
		return;
	}
	s->cuts[s->ncuts++] = (struct cuts){ n, 1 };
}

/* Hands the head on cut as it came in, so that no reader can tell it was held. */
static void replay_head(struct ingest_stream *s)
{
	const char *p = s->head.data;

	for (size_t i = 0; i < s->ncuts; i++)
		for (size_t k = 0; k < s->cuts[i].count; k++) {
			sink(s, p, s->cuts[i].size);
			p += s->cuts[i].size;
		}
}

/* Sniffs the head, opens the readers and hands them the head. */
static void start(struct ingest_stream *s, bool complete)
{
	struct ingest_file *out = &s->out;

	s->lines.cr = sniff_cr_lines((const unsigned char *)s->head.data, s->head.len);
	sniff_bytes((const unsigned char *)s->head.data, s->head.len, complete, &out->sniff);
	describe(out, s->a);
	s->sink = SINK_NONE;
	if (s->head.len == 0 && s->failed) {
		out->unreadable = true;
		out->skipped = "cannot be read";
		return;
	}
	pick_readers(s);
	if (!s->n) {
		out->skipped = out->sniff.format == FMT_UNKNOWN ? out->sniff.why :
			       "recognised, but scaleaudit has no reader for it yet";
		return;
	}
	/* readers hold &s->ctx, so the source they count into can come now that one took it */
	s->ctx.src = run_add_source(s->ctx.run, out->path, format_name(out->sniff.format));
	s->sink = sink_for(s);
	if (s->sink == SINK_SPILL) {
		s->copy = true;
		spill_open(s);
	}
	replay_head(s);
	buf_release(&s->head);	/* the content goes straight on from now */
}

/* Content after decompression: gathered into the head until it can be sniffed. */
static void content(struct ingest_stream *s, const unsigned char *p, size_t n)
{
	size_t take;

	s->out.bytes += (int64_t)n;
	if (s->sink != SINK_HEAD) {
		sink(s, (const char *)p, n);
		return;
	}
	take = n < SNIFF_HEAD - s->head.len ? n : SNIFF_HEAD - s->head.len;
	buf_add(&s->head, p, take);
	if (take)
		cut_head(s, take);
	if (s->head.len < SNIFF_HEAD)
		return;
	start(s, false);
	sink(s, (const char *)p + take, n - take);
}

/* ---- the text stage ---- */

/* One UTF-16 code unit; an unpaired surrogate becomes U+FFFD. */
static void utf16_unit(struct ingest_stream *s, unsigned u)
{
	if (s->high && u >= 0xdc00 && u <= 0xdfff) {
		utf8_put(&s->utf8, 0x10000 + ((s->high - 0xd800) << 10) + (u - 0xdc00));
		s->high = 0;
		return;
	}
	if (s->high)
		utf8_put(&s->utf8, 0xfffd);
	s->high = 0;
	if (u >= 0xd800 && u <= 0xdbff)
		s->high = u;
	else
		utf8_put(&s->utf8, u >= 0xdc00 && u <= 0xdfff ? 0xfffd : u);
}

static void utf16(struct ingest_stream *s, const unsigned char *p, size_t n)
{
	bool le = s->enc == ENC_UTF16LE;

	buf_reset(&s->utf8);
	for (size_t i = 0; i < n; i++) {
		s->unit[s->nunit++] = p[i];
		if (s->nunit < 2)
			continue;
		s->nunit = 0;
		utf16_unit(s, le ? s->unit[0] | (unsigned)s->unit[1] << 8 : (unsigned)s->unit[0] << 8 | s->unit[1]);
	}
	content(s, (const unsigned char *)s->utf8.data, s->utf8.len);
}

/* The encoding from the first bytes; true once decided (the mark's bytes then dropped). */
static bool look_bom(struct ingest_stream *s)
{
	static const struct {
		unsigned char mark[3];
		size_t n;
		enum text_enc enc;
	} marks[] = {
		{ { 0xef, 0xbb, 0xbf }, 3, ENC_PLAIN },
		{ { 0xff, 0xfe }, 2, ENC_UTF16LE },
		{ { 0xfe, 0xff }, 2, ENC_UTF16BE },
	};
	bool could = false;

	for (size_t i = 0; i < sizeof(marks) / sizeof(*marks); i++) {
		size_t k = s->nbom < marks[i].n ? s->nbom : marks[i].n;

		if (memcmp(s->bom, marks[i].mark, k))
			continue;
		if (s->nbom < marks[i].n) {
			could = true;
			continue;
		}
		s->enc = marks[i].enc;
		s->nbom -= marks[i].n;
		memmove(s->bom, s->bom + marks[i].n, s->nbom);
		return true;
	}
	if (could)
		return false;
	s->enc = ENC_PLAIN;
	return true;
}

/* Content as stored (after gzip) in; as UTF-8 to the sink stage. */
static void text(struct ingest_stream *s, const unsigned char *p, size_t n)
{
	while (s->enc == ENC_LOOK && n) {
		s->bom[s->nbom++] = *p++;
		n--;
		if (look_bom(s) && s->nbom) {
			size_t k = s->nbom;

			s->nbom = 0;
			text(s, s->bom, k);
		}
	}
	if (!n)
		return;
	if (s->enc == ENC_PLAIN)
		content(s, p, n);
	else if (s->enc != ENC_LOOK)
		utf16(s, p, n);
}

/* The end of the content: bytes held while deciding go on; a unit cut in half is U+FFFD. */
static void text_end(struct ingest_stream *s)
{
	if (s->enc == ENC_LOOK && s->nbom) {
		s->enc = ENC_PLAIN;
		content(s, s->bom, s->nbom);
	}
	s->nbom = 0;
	if (s->enc == ENC_UTF16LE || s->enc == ENC_UTF16BE) {
		buf_reset(&s->utf8);
		if (s->high || s->nunit)
			utf8_put(&s->utf8, 0xfffd);
		s->high = 0;
		s->nunit = 0;
		content(s, (const unsigned char *)s->utf8.data, s->utf8.len);
	}
}

/* ---- the raw stage ---- */

/* The input cannot be read past here: says why, at the byte where the good content ends. */
static void fault(struct ingest_stream *s, const char *code, const char *why)
{
	struct srcpos pos = SRCPOS_BYTE(s->out.path, s->out.bytes);

	if (s->failed)
		return;
	diag_error(&s->t->diags, code, &pos, "%s", why);
	s->failed = true;
	s->raw = RAW_DONE;
}

/* Inflates p[0..n) of a gzip member; *used says how much of it the member took. */
static void inflate_some(struct ingest_stream *s, const unsigned char *p, size_t n, size_t *used)
{
	enum gunzip_status st;
	size_t took, made;
	char why[256];

	*used = 0;
	do {	/* until the piece is used up and no output is pending */
		st = gunzip_step(s->gz, p + *used, n - *used, &took, s->zout, INFLATE_CHUNK, &made);
		*used += took;
		text(s, s->zout, made);
	} while (st == GUNZIP_MORE && (took || made) && (*used < n || made == INFLATE_CHUNK));
	if (st == GUNZIP_END) {
		s->raw = RAW_LOOK;
		s->member_ended = true;
	} else if (st == GUNZIP_ERROR) {
		snprintf(why, sizeof(why), "compressed data is corrupt: %s", gunzip_error(s->gz));
		fault(s, "corrupt", why);
	}
}

/* Two bytes decide: a gzip member, plain content, or garbage after the last member. */
static void decide(struct ingest_stream *s, bool gzip)
{
	if (!gzip) {
		s->raw = s->member_ended ? RAW_DONE : RAW_PLAIN;
		return;
	}
	s->raw = RAW_INFLATE;
	s->out.gzip = true;
	if (s->gz) {
		gunzip_reset(s->gz);
		return;
	}
	s->gz = gunzip_new();
	if (!s->gz) {
		fault(s, "unreadable", "cannot read: out of memory");
		return;
	}
	s->zout = xmalloc(INFLATE_CHUNK);
}

/* Takes bytes as stored; the look-ahead bytes are replayed once the stage is decided. */
static void raw(struct ingest_stream *s, const unsigned char *p, size_t n)
{
	size_t used;

	while (n) {
		switch (s->raw) {
		case RAW_LOOK:
			if (s->nmagic == 0 && n >= 2) {
				decide(s, p[0] == 0x1f && p[1] == 0x8b);
				break;
			}
			s->magic[s->nmagic++] = *p++;
			n--;
			if (s->nmagic < 2)
				break;
			decide(s, s->magic[0] == 0x1f && s->magic[1] == 0x8b);
			s->nmagic = 0;
			raw(s, s->magic, 2);
			break;
		case RAW_PLAIN:
			text(s, p, n);
			return;
		case RAW_INFLATE:
			inflate_some(s, p, n, &used);
			p += used;
			n -= used;
			break;
		case RAW_DONE:
			return;
		}
	}
}

/* The end of the input as stored: a gzip member left open was cut short. */
static void raw_end(struct ingest_stream *s)
{
	if (s->raw == RAW_LOOK && s->nmagic && !s->member_ended) {
		s->raw = RAW_PLAIN;
		text(s, s->magic, s->nmagic);
	}
	if (s->raw == RAW_INFLATE)
		fault(s, "truncated", "compressed data ends early: the file is cut short");
	s->nmagic = 0;
	text_end(s);
}

/* ---- the stream ---- */

struct ingest_stream *ingest_stream_open(struct trial *t, struct run *r, const char *name,
					 int64_t size, struct arena *a)
{
	struct ingest_stream *s = xcalloc(1, sizeof(*s));

	s->t = t;
	s->a = a;
	s->out.path = intern_str(&t->strings, name);
	s->out.size = size;
	s->out.info = info_root(a);
	buf_init(&s->head, SNIFF_HEAD);
	buf_init(&s->utf8, 0);
	s->spill_fd = -1;
	s->scratch.name = s->scratch.dir = "(trial)";
	s->ctx = (struct ingest_ctx){ .trial = t, .run = r ? r : &s->scratch, .loose = !r,
				      .path = s->out.path, .diags = &t->diags, .arena = a,
				      .info = s->out.info };
	ingest_lines_init(&s->lines, s->out.path, &t->diags, to_readers, s);
	return s;
}

void ingest_stream_backing(struct ingest_stream *s, const char *path)
{
	s->backing = path;
}

static bool wants_more(const struct ingest_stream *s)
{
	return !s->failed && s->raw != RAW_DONE && s->sink != SINK_NONE;
}

static void report_progress(struct ingest_stream *s, bool end)
{
	int64_t total = s->out.size;

	if (!progress || total < PROGRESS_MIN)
		return;
	if (end || s->fed - s->reported >= PROGRESS_EVERY) {
		pthread_mutex_lock(&progress_lock);	/* files of several ranks report at once */
		progress(s->out.path, end ? total : s->fed, total);
		pthread_mutex_unlock(&progress_lock);
		s->reported = s->fed;
	}
}

int ingest_stream_feed(struct ingest_stream *s, const void *buf, size_t len)
{
	if (!wants_more(s))
		return 1;
	s->fed += (int64_t)len;
	raw(s, buf, len);
	if (s->sink != SINK_HEAD && s->sink != SINK_NONE)
		report_progress(s, false);
	return wants_more(s) ? 0 : 1;
}

void ingest_stream_fail(struct ingest_stream *s, const char *code, const char *why)
{
	fault(s, code, why);
}

/* The file a reader of files reads: the copy, else the backing file; NULL when neither. */
static const char *file_for_path(const struct ingest_stream *s)
{
	if (s->copy)
		return s->spill_path[0] ? s->spill_path : NULL;	/* "": the copy failed */
	return s->backing;
}

static void finish_readers(struct ingest_stream *s)
{
	struct ingest_file *f = &s->out;
	const char *file = file_for_path(s);

	if (s->sink == SINK_LINES)
		ingest_lines_end(&s->lines);
	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->act[i];

		if (a->r->input == READ_PATH) {
			if (!file) {	/* its copy failed: said already */
				a->r->free(a->st);
				continue;
			}
			a->r->path(a->st, file);
		}
		a->r->finish(a->st);
		if (a->r->input != READ_LINES || !a->r->found || a->r->found(a->st)) {
			/* content no signature caught, but a reader took: name it after that reader */
			if (!f->read && f->sniff.format == FMT_UNKNOWN)
				f->sniff.format = format_from_name(a->r->name);
			f->read = true;
		}
		a->r->free(a->st);
	}
}

/* Why readers took the input and found nothing in it. */
static const char *why_unread(const struct ingest_stream *s)
{
	if (s->copy && !s->spill_path[0])
		return "cannot be copied to a temporary file to read";
	/* no signature in the head, yet every line reader read every line: the whole file was looked at */
	if (s->out.sniff.format == FMT_UNKNOWN && s->out.sniff.text && s->out.bytes > SNIFF_HEAD)
		return "text of no known format, though read to its end";
	if (s->out.sniff.format == FMT_UNKNOWN)
		return s->out.sniff.why;
	return "nothing in it that scaleaudit reads";
}

int ingest_stream_finish(struct ingest_stream *s, struct ingest_file *out)
{
	raw_end(s);
	if (s->sink == SINK_HEAD)
		start(s, !s->failed);
	if (s->n) {
		if (s->sink != SINK_NONE || s->reported)
			report_progress(s, true);	/* a report begun is ended */
		finish_readers(s);
		ingest_keep_end(&s->ctx);	/* the trial's count exact again for the next file */
		info_str(s->a, s->out.info, "format", format_name(s->out.sniff.format));
		s->ctx.src->format = format_name(s->out.sniff.format);
		if (!s->out.read)
			s->out.skipped = why_unread(s);
	}
	*out = s->out;
	spill_drop(s);
	run_release(&s->scratch);
	buf_release(&s->lines.line);	/* ingest_lines_end() did, when lines were read */
	gunzip_free(s->gz);
	free(s->zout);
	buf_release(&s->head);
	buf_release(&s->utf8);
	free(s);
	return out->unreadable ? -1 : 0;
}

/* ---- files ---- */

/* What a path that is not a regular file is, for the warning that names it. */
static const struct {
	mode_t type;
	const char *what;
} not_regular[] = {
	{ S_IFIFO, "not a regular file (a FIFO)" },
	{ S_IFSOCK, "not a regular file (a socket)" },
	{ S_IFCHR, "not a regular file (a character device)" },
	{ S_IFBLK, "not a regular file (a block device)" },
};

/* What a file of that mode is when it is not a regular file or a directory; NULL otherwise. */
static const char *not_regular_what(mode_t mode)
{
	for (size_t i = 0; i < sizeof(not_regular) / sizeof(*not_regular); i++)
		if ((mode & S_IFMT) == not_regular[i].type)
			return not_regular[i].what;
	return NULL;
}

/* Why the file at path is left out unread; NULL: it is a regular file, a directory, or absent. */
static const char *why_left_out(const char *path)
{
	struct stat st;
	int err;

	if (stat(path, &st) == 0)
		return not_regular_what(st.st_mode);
	err = errno;
	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return NULL;
	return err == ELOOP ? "a symbolic link that loops" : "a dangling symbolic link";
}

static int left_out(struct diags *d, const char *path, const char *why)
{
	struct srcpos pos = SRCPOS_FILE(path);

	diag_warn(d, "left-out", &pos, "%s: not read", why);
	return -2;
}

const char *ingest_left_out(const char *path, struct diags *d)
{
	const char *why = strcmp(path, "-") ? why_left_out(path) : NULL;

	if (why)
		left_out(d, path, why);
	return why;
}

/*
 * Opens path ("-": standard input) without blocking on a FIFO. Returns the
 * descriptor; -1 after an error diagnostic; -2 when the path is not a regular
 * file and is left out (*why says what it is, and a warning names it).
 */
static int open_input(const char *path, struct diags *d, int64_t *size, const char **why)
{
	bool in = !strcmp(path, "-");
	int fd = in ? dup(0) : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err = errno;
	struct stat st;
	struct srcpos pos = SRCPOS_FILE(path);
	char text[ERRTEXT_MAX];

	*size = -1;
	*why = NULL;
	if (fd < 0 && !in && (*why = why_left_out(path)))
		return left_out(d, path, *why);
	if (fd < 0)
		return diag_error(d, "unreadable", &pos, "%s", errtext(err, text));
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		return diag_error(d, "unreadable", &pos, "%s", errtext(err, text));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return diag_error(d, "unreadable", &pos, "is a directory");
	}
	if (!in && !S_ISREG(st.st_mode)) {
		close(fd);
		*why = not_regular_what(st.st_mode);
		if (!*why)
			*why = "not a regular file";
		return left_out(d, path, *why);
	}
	if (!in)
		*size = st.st_size;
	return fd;
}

static int64_t max_events = MODEL_MAX_EVENTS;

void ingest_set_max_events(int64_t n)
{
	max_events = n > 0 ? n : MODEL_MAX_EVENTS;
}

int64_t ingest_max_events(void)
{
	return max_events;
}

int64_t ingest_max_trial_events(void)
{
	return max_events > INT64_MAX / INGEST_TRIAL_FACTOR ? INT64_MAX
							    : max_events * INGEST_TRIAL_FACTOR;
}

static _Atomic int64_t trial_events;	/* kept since ingest_trial_begin() */
static atomic_bool trial_limited;	/* a limit of the whole load was reached */

void ingest_trial_begin(void)
{
	atomic_store(&trial_events, 0);
	atomic_store(&trial_limited, false);
}

bool ingest_trial_limited(void)
{
	return atomic_load(&trial_limited);
}

int64_t ingest_trial_events(void)
{
	return atomic_load(&trial_events);
}

/* The limits ingest_keep() checks, in that order, and how its error names them. */
enum limit { LIMIT_NONE, LIMIT_FILE, LIMIT_TRIAL, LIMIT_MEMORY };

static const struct { const char *what, *option; } limits[] = {
	[LIMIT_FILE] = { "events", "--max-events" },
	[LIMIT_TRIAL] = { "events in the trial", "--max-events" },
	[LIMIT_MEMORY] = { "bytes of memory kept", "--max-memory" },
};

/*
 * Trial events a file counts at once while the whole block stays under the
 * trial's limit (one atomic operation per block, not per event); closer to
 * the limit each event is counted alone, so the limit is passed by the
 * same event as when every event was counted alone.
 */
#define TICKET_BLOCK 4096

/*
 * Counts one more event of ctx's file in the trial's count: from the block
 * the file holds, else a new block taken whole while it fits under max,
 * else alone. False when the event passes max.
 */
static bool count_trial_event(struct ingest_ctx *ctx, int64_t max)
{
	int64_t cur;

	if (ctx->tickets > 0) {
		ctx->tickets--;
		return true;
	}
	cur = atomic_load(&trial_events);
	while (cur <= max - TICKET_BLOCK)
		if (atomic_compare_exchange_weak(&trial_events, &cur, cur + TICKET_BLOCK)) {
			ctx->tickets = TICKET_BLOCK - 1;
			return true;
		}
	return atomic_fetch_add(&trial_events, 1) + 1 <= max;
}

void ingest_keep_end(struct ingest_ctx *ctx)
{
	atomic_fetch_sub(&trial_events, ctx->tickets);
	ctx->tickets = 0;
}

/* The limit one more event of a file (its kept-th) passes, and that limit in *n. */
static enum limit limit_passed(struct ingest_ctx *ctx, int64_t kept, int64_t *n)
{
	*n = max_events;
	if (kept > max_events)
		return LIMIT_FILE;
	*n = ingest_max_trial_events();
	if (!count_trial_event(ctx, *n))
		return LIMIT_TRIAL;
	*n = budget_max();
	return budget_over() ? LIMIT_MEMORY : LIMIT_NONE;
}

bool ingest_keep(struct ingest_ctx *ctx, int64_t *kept, bool *capped, const struct srcpos *pos)
{
	enum limit l;
	int64_t n;

	++*kept;
	if (*capped)
		return false;
	l = limit_passed(ctx, *kept, &n);
	if (l == LIMIT_NONE)
		return true;
	if (l != LIMIT_FILE)
		atomic_store(&trial_limited, true);
	*capped = true;
	if (ctx->limited)
		return false;	/* another reader of the file said it */
	ctx->limited = true;
	diag_error(ctx->diags, "limit", pos, "more than %lld %s: the rest is not kept (%s raises "
		   "the cap)", (long long)n, limits[l].what, limits[l].option);
	return false;
}

int ingest_keep_line(struct ingest_ctx *ctx, struct ingest_cap *c, int64_t lineno)
{
	struct srcpos pos = SRCPOS_LINE(ctx->path, lineno);

	return ingest_keep(ctx, &c->kept, &c->capped, &pos) ? 0 : -1;
}

int ingest_file(struct trial *t, struct run *r, const char *path, struct arena *a,
		struct ingest_file *out)
{
	const char *name = intern_str(&t->strings, path);
	struct ingest_stream *s;
	int64_t size;
	const char *why;
	int fd = open_input(name, &t->diags, &size, &why);
	char *chunk;
	ssize_t got;
	char err[ERRTEXT_MAX];

	if (fd < 0) {
		memset(out, 0, sizeof(*out));
		out->path = name;
		out->size = -1;
		out->info = info_root(a);
		out->unreadable = fd == -1;
		out->left_out = fd == -2;
		out->skipped = why ? why : "cannot be read";
		describe(out, a);
		return fd == -1 ? -1 : 0;
	}
	s = ingest_stream_open(t, r, name, size, a);
	if (strcmp(name, "-"))
		ingest_stream_backing(s, name);
	chunk = xmalloc(READ_CHUNK);
	while ((got = read(fd, chunk, READ_CHUNK)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ingest_stream_fail(s, "unreadable", errtext(errno, err));
			break;
		}
		if (ingest_stream_feed(s, chunk, (size_t)got))
			break;
	}
	free(chunk);
	close(fd);
	ingest_stream_finish(s, out);
	return 0;
}
