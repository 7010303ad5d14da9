/*
 * reader: the interface every format reader implements, and the context it
 * is given. The reader layer (ingest/ingest.c) owns files, gzip, line
 * splitting and positions; a reader only sees bytes or lines and fills the
 * model of its run plus an `info` summary of what it read (for `inspect`).
 *
 * Life of a reader on one file:
 *   st = open(ctx)                 allocate state; NULL means "not for me"
 *   feed(st, buf, len) ...         READ_BYTES readers: the decompressed bytes, any chunking
 *   line(st, line, len, lineno)... READ_LINES readers: each line without its end
 *                                  ("\n" or "\r\n"), lineno 1-based; a line longer
 *                                  than READER_MAX_LINE is cut to that length
 *   path(st, path)                 READ_PATH readers (SQLite): the file itself
 *   finish(st)                     end of input: commit to the model, fill ctx->info
 *   free(st)
 * feed/line/path/finish return 0, or -1 after recording a diagnostic when the
 * rest of the file cannot be used (the layer then stops feeding and still
 * calls finish so that what was read so far is kept and described).
 * Diagnostics go to ctx->diags with the file's position
 * (`file:line:` for text, `file: byte N:` for JSON and binary).
 *
 * Every text file is offered to every READ_LINES reader, since logs mix
 * formats (NCCL INFO lines inside a training log); a reader that found
 * nothing of its own leaves ctx->info untouched and reports found() false.
 */
#ifndef INGEST_READER_H
#define INGEST_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/info.h"
#include "core/model.h"

#define READER_MAX_LINE (1024 * 1024)
/*
 * How much a libcsv parser grows its field buffer by (csv_set_blk_size): its
 * default, 128 bytes, copies a field of a long line thousands of times over.
 */
#define READER_CSV_BLOCK (64 * 1024)

enum reader_input { READ_BYTES, READ_LINES, READ_PATH };

struct ingest_ctx {
	struct trial *trial;	/* strings (trial->strings), arena, diags */
	struct run *run;	/* the run this file belongs to; never NULL */
	bool loose;		/* the file belongs to no run (trial.ini's place): run is a scratch one */
	struct source *src;	/* this file's entry in run->sources: count events/errors here */
	const char *path;	/* interned; use it in srcpos */
	struct diags *diags;	/* where diagnostics go (usually &trial->diags) */
	struct arena *arena;	/* for ctx->info nodes */
	struct info *info;	/* the file's inspect object: add your keys to it */
	bool limited;		/* a reader of the file reached a limit: ingest_keep() said so once */
	int64_t tickets;	/* trial events ingest_keep() counted ahead for this file, unused */
};

struct reader {
	const char *name;	/* e.g. "kineto-trace"; the format it reads */
	enum reader_input input;
	void *(*open)(struct ingest_ctx *ctx);
	int (*feed)(void *st, const char *buf, size_t len);
	int (*line)(void *st, const char *line, size_t len, int64_t lineno);
	int (*path)(void *st, const char *path);
	int (*finish)(void *st);
	bool (*found)(void *st);	/* READ_LINES: did this file hold anything of mine */
	void (*free)(void *st);
};

#endif
