/*
 * ingest: reads one input into a run of the model. A stream takes the
 * input's bytes in pieces of any size, undoes gzip, sniffs the format from
 * the first bytes and hands bytes or numbered lines to the readers of
 * ingest/registry.c; ingest_file() is that stream fed from a file or from
 * standard input. What was read is counted in the run's sources and
 * summarised in an info tree for `inspect`.
 */
#ifndef INGEST_INGEST_H
#define INGEST_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/sniff.h"

struct ingest_file {
	const char *path;	/* interned in the trial: the name diagnostics use */
	struct sniff sniff;	/* what the content looks like */
	bool gzip;		/* the input was gzip-compressed */
	int64_t size;		/* bytes as stored (on disk, in the archive); -1 unknown */
	int64_t bytes;		/* bytes taken after decompression */
	bool unreadable;	/* could not be opened or read at all */
	bool left_out;		/* not a regular file (FIFO, socket, device, bad link): never opened */
	bool read;		/* at least one reader took something from it */
	const char *skipped;	/* why nothing was read from it; NULL when read */
	struct info *info;	/* the readers' summary (an object) */
};

/*
 * A hook told how far the reading of a large input has come: done and total
 * are bytes as stored (total -1 when unknown); it is called every few MiB
 * and once with done == total at the end. NULL: no progress. The CLI
 * installs one when stderr is a terminal. Threads: set it before anything is
 * read; it is called under a lock, from whichever thread reads the input
 * (trial_set_jobs()), so one call at a time.
 */
typedef void ingest_progress_fn(const char *path, int64_t done, int64_t total);
void ingest_set_progress(ingest_progress_fn *fn);

/*
 * The most events a reader keeps from one trace file (MODEL_MAX_EVENTS
 * unless set; n <= 0 sets the default back); past it the reader stops
 * keeping events with a "limit" error naming the file. Set it before
 * anything is read: worker threads only read it.
 */
void ingest_set_max_events(int64_t n);
int64_t ingest_max_events(void);
/*
 * The most events the readers keep from all the files of one trial, every
 * run and rank together: INGEST_TRIAL_FACTOR times ingest_max_events().
 */
#define INGEST_TRIAL_FACTOR 4
int64_t ingest_max_trial_events(void);
/*
 * Starts counting a new trial's events from 0. trial_load_source() calls it
 * before it reads anything, so every file of the load counts, whichever
 * thread reads it and whatever trial struct it is read into (worker
 * threads read traces into trials of their own). The count is one C11
 * atomic for the process: one trial loads at a time (batch forks a process
 * per trial); files read without a load (inspect's) count together.
 */
void ingest_trial_begin(void);
/* Events counted since ingest_trial_begin(). */
int64_t ingest_trial_events(void);
/*
 * True when, since ingest_trial_begin(), a file was cut by a limit of the
 * whole load (the trial's events or the memory budget), not of its own.
 * Which file such a limit cuts depends on the order the files were read
 * in, so a load read by threads is read again in turn when this is true.
 */
bool ingest_trial_limited(void);

/*
 * Counts one more event that a reader keeps from ctx's file (a kernel, a
 * monitor sample, a log step, a table row, a package: anything kept per
 * record or line) against the limits: *kept (the reader's count for this
 * file) against ingest_max_events(), the trial's count (atomic: ranks may
 * be read by parallel threads; see ingest_trial_begin()) against
 * ingest_max_trial_events(), and the memory kept against the budget
 * (--max-memory, core/budget.h). Returns true
 * while the event may be kept. Once a limit is reached it returns false
 * from then on (*capped), after a "limit" error at pos naming the file
 * and the limit (one per file, whichever of its readers reaches a limit
 * first); the reader keeps nothing more from the file (a line reader
 * returns -1).
 */
struct ingest_ctx;
bool ingest_keep(struct ingest_ctx *ctx, int64_t *kept, bool *capped, const struct srcpos *pos);
/*
 * Ends ingest_keep()'s counting for ctx's file: the trial events it counted
 * ahead of the file's events (it takes them in blocks while far from the
 * trial's limit) are given back, so that ingest_trial_events() is exact and
 * the next file read passes the limit at the same event as if every event
 * had been counted alone. ingest_stream_finish() calls it once the readers
 * are done; a caller that drives ingest_keep() with a context of its own
 * calls it at the end of the file.
 */
void ingest_keep_end(struct ingest_ctx *ctx);

/* What a reader kept from one file, for ingest_keep_line(); zero it at open. */
struct ingest_cap {
	int64_t kept;		/* events offered: those kept and any refused after them */
	bool capped;		/* a limit was reached: nothing more is kept */
};

/*
 * ingest_keep() for a line reader about to keep an event of line lineno:
 * 0 while it may, -1 once a limit is reached (the line reader returns it,
 * so the rest of the file is not read by that reader).
 */
int ingest_keep_line(struct ingest_ctx *ctx, struct ingest_cap *c, int64_t lineno);

/*
 * Reads path ("-": standard input) into run r of trial t (r NULL: a file of
 * the trial itself, such as trial.ini, that belongs to no run). Diagnostics
 * go to t->diags. The info tree is allocated from `a`. Returns 0 when the
 * file was read or deliberately skipped, -1 when it could not be opened.
 * A path that is not a regular file (a FIFO, socket or device; a dangling or
 * looping link) is never opened for reading: a warning names it and
 * out->skipped says what it is. A FIFO never blocks.
 */
int ingest_file(struct trial *t, struct run *r, const char *path, struct arena *a,
		struct ingest_file *out);

/*
 * When path is not a regular file (a FIFO, socket or device; a dangling or
 * looping link), warns in d ("left-out", naming it) and returns what it is;
 * NULL for a regular file, a directory, "-" or a path that does not exist.
 * Never opens path: for callers that read a named file another way.
 */
const char *ingest_left_out(const char *path, struct diags *d);

/*
 * The stream under ingest_file(), for bytes that come from elsewhere (an
 * archive member, a test). Life of a stream:
 *
 *   s = ingest_stream_open(t, r, name, size, a)   name: what every diagnostic
 *                                                 calls the input (interned); size: bytes as
 *                                                 stored, -1 unknown
 *   ingest_stream_feed(s, buf, len) ...           the input as stored (gzip or
 *                                                 plain), cut anywhere
 *   ingest_stream_finish(s, &out)                 end of input; frees s
 *
 * The result does not depend on how the bytes were cut. The stream keeps at
 * most the head that sniffing needs (SNIFF_HEAD bytes), one line
 * (READER_MAX_LINE) and the inflate window; what the readers keep is theirs.
 * A format read from a file (SQLite) is copied to a temporary file as it
 * arrives, handed to its reader under that file's path and removed at
 * finish; diagnostics still name `name`.
 */
struct ingest_stream;

struct ingest_stream *ingest_stream_open(struct trial *t, struct run *r, const char *name,
					 int64_t size, struct arena *a);
/*
 * The bytes are also the whole of the file at `path`: a format read from a
 * file is read from it and not copied (unless the bytes are gzip), and the
 * stream needs no bytes after the head. Call before the first feed.
 */
void ingest_stream_backing(struct ingest_stream *s, const char *path);
/*
 * Takes the next len bytes. Returns 0 while it wants more, 1 when it needs
 * no more (the input is skipped, its reader reads the backing file, or a
 * fault was recorded): the caller may stop feeding and finish; more bytes
 * are ignored.
 */
int ingest_stream_feed(struct ingest_stream *s, const void *buf, size_t len);
/* The caller could not read the input further: records why at the current position. */
void ingest_stream_fail(struct ingest_stream *s, const char *code, const char *why);
/*
 * Ends the input: the readers finish and commit to the model, out is filled
 * (its info allocated from the stream's arena) and s is freed. Returns 0, or
 * -1 when nothing could be read (out->unreadable).
 */
int ingest_stream_finish(struct ingest_stream *s, struct ingest_file *out);

/*
 * The line splitter under the stream, a push parser of its own: bytes in
 * pieces of any size in, lines out through fn as ingest/reader.h promises
 * them: without the "\n" (and a "\r" before it), numbered from 1, cut to
 * READER_MAX_LINE with one "long-line" warning per input (at path, in d).
 * NUL bytes are left out of the lines, with one "nul-bytes" warning per
 * input. With cr set (a file whose lines end in "\r" alone), a lone "\r"
 * ends a line too. A line is not NUL-terminated; the byte after it is
 * readable and is "\r", "\n" or NUL.
 */
typedef void ingest_line_fn(void *arg, const char *line, size_t len, int64_t lineno);

struct ingest_lines {
	ingest_line_fn *fn;
	void *arg;
	const char *path;	/* for the long-line warning */
	struct diags *diags;
	struct buf line;	/* a line begun in an earlier piece */
	int64_t lineno;		/* lines handed on so far */
	bool cut;		/* the current line passed READER_MAX_LINE */
	bool warned;		/* the long-line warning was given */
	bool cr;		/* a lone "\r" ends a line (set before the first piece) */
	bool after_cr;		/* cr: the last piece ended a line at "\r"; a "\n" now is its pair */
	int64_t nul_bytes;	/* NUL bytes left out so far */
	int64_t nul_line;	/* the line where the first was */
};

void ingest_lines_init(struct ingest_lines *l, const char *path, struct diags *d,
		       ingest_line_fn *fn, void *arg);
void ingest_lines_feed(struct ingest_lines *l, const char *p, size_t n);
/* End of input: hands on a last line that has no "\n", then frees what l holds. */
void ingest_lines_end(struct ingest_lines *l);

#endif
