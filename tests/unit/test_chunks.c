/*
 * The ingest stream (ingest/ingest.c) at every chunk size. Every input of
 * a line reader (tests/data, and ../shared/realdata when present), fed 1 to
 * 64 bytes at a time and in one large piece, gives the same info tree (as
 * JSON), model and diagnostics as in one piece; and in one piece, the same
 * model and readers' info as the readers given the lines by this test's own
 * splitter. The splitter alone gives exactly the lines of that splitter.
 * Then gzip at every chunk size, CR/LF at every split point, lines at and
 * past READER_MAX_LINE, progress, and an nsys SQLite export (plain and gzip)
 * through the stream.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <yajl/yajl_gen.h>
#include <zlib.h>

#include "core/buf.h"
#include "core/json.h"
#include "ingest/ingest.h"
#include "ingest/reader.h"
#include "ingest/registry.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

#define LARGE_CHUNK 4093	/* the one large size, prime so pieces fall everywhere */

/* What one read produced, as text, so that a failure shows both sides. */
struct digest {
	char *info;	/* the whole info tree as JSON */
	char *readers;	/* the keys the readers added, as JSON */
	char *model;	/* counts, facts with positions, diagnostics */
};

static void digest_free(struct digest *d)
{
	free(d->info);
	free(d->readers);
	free(d->model);
}

/* The keys the layer writes, not the readers. */
static bool layer_key(const char *key)
{
	static const char *const keys[] = { "path", "format", "compressed", "size_bytes" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

static char *info_json(const struct info *root, bool readers_only)
{
	yajl_gen g = json_new();
	const unsigned char *p;
	size_t n;
	char *s;

	yajl_gen_map_open(g);
	for (const struct info *c = root->child; c; c = c->next) {
		if (readers_only && layer_key(c->key))
			continue;
		json_key(g, c->key);
		json_info(g, c);
	}
	yajl_gen_map_close(g);
	yajl_gen_get_buf(g, &p, &n);
	s = strndup((const char *)p, n);
	yajl_gen_free(g);
	return s;
}

static void dump_fact(struct buf *b, const char *what, const char *v, const struct srcpos *src)
{
	buf_addf(b, "%s %s @%lld\n", what, v ? v : "-", (long long)src->line);
}

static void dump_i64(struct buf *b, const char *what, const struct fact_i64 *f)
{
	buf_addf(b, "%s %d %lld @%lld\n", what, f->set, (long long)f->v, (long long)f->src.line);
}

static void dump_ranks(struct buf *b, const struct run *r)
{
	for (size_t i = 0; i < r->nranks; i++) {
		const struct rank *k = &r->ranks[i];
		long long busy = 0, steps = 0;

		for (size_t j = 0; j < k->nev; j++)
			busy += k->ev[j].end - k->ev[j].start;
		for (size_t j = 0; j < k->nsteps; j++)
			steps += k->steps[j].number;
		buf_addf(b, "rank %d events %zu busy %lld steps %zu sum %lld mem %zu\n", k->rank,
			 k->nev, busy, k->nsteps, steps, k->nmem);
	}
}

static void dump_samples(struct buf *b, const struct run *r)
{
	double util = 0;
	long long mem = 0, step = 0;
	double time = 0;

	for (size_t i = 0; i < r->ngpu; i++) {
		util += r->gpu[i].util_gpu;
		mem += r->gpu[i].memory_used;
	}
	for (size_t i = 0; i < r->nlog; i++) {
		step += r->log[i].step;
		time += r->log[i].step_time_s;
	}
	buf_addf(b, "samples %zu util %.17g mem %lld\nlog steps %zu sum %lld time %.17g\n",
		 r->ngpu, util, mem, r->nlog, step, time);
	for (size_t i = 0; i < r->nnccl_tests; i++)
		buf_addf(b, "nccl-tests row %s %lld @%lld\n", r->nccl_tests[i].op,
			 (long long)r->nccl_tests[i].bytes, (long long)r->nccl_tests[i].line);
}

static void dump_facts(struct buf *b, const struct run *r)
{
	dump_fact(b, "nccl", r->nccl_version.v, &r->nccl_version.src);
	dump_fact(b, "transport", r->transport.v, &r->transport.src);
	dump_fact(b, "link", r->link.v, &r->link.src);
	dump_fact(b, "torch", r->env.torch.v, &r->env.torch.src);
	dump_fact(b, "driver", r->env.driver.v, &r->env.driver.src);
	dump_fact(b, "precision", r->logged.precision.v, &r->logged.precision.src);
	dump_i64(b, "gpus", &r->logged.gpus);
	dump_i64(b, "global-batch", &r->logged.global_batch);
	dump_i64(b, "micro-batch", &r->logged.micro_batch);
	dump_i64(b, "steps", &r->logged.steps);
	buf_addf(b, "status %d @%lld oom @%lld env gpus %zu libs %zu arch %zu\n", r->status,
		 (long long)r->status_src.line, (long long)r->oom.src.line, r->env.ngpus,
		 r->env.nlibs, r->env.narch_warnings);
	for (size_t i = 0; i < r->nnccl_env; i++)
		buf_addf(b, "nccl-env %s=%s @%lld\n", r->nccl_env[i].name, r->nccl_env[i].value,
			 (long long)r->nccl_env[i].src.line);
}

static char *dump_model(const struct trial *t, const struct run *r)
{
	struct buf b;

	buf_init(&b, 0);
	dump_ranks(&b, r);
	dump_samples(&b, r);
	dump_facts(&b, r);
	for (size_t i = 0; i < r->nsources; i++)
		buf_addf(&b, "source %lld %lld\n", (long long)r->sources[i].events,
			 (long long)r->sources[i].errors);
	for (size_t i = 0; i < t->diags.count; i++) {
		buf_addf(&b, "%s: ", t->diags.items[i].code);
		diag_format(&t->diags.items[i], &b);
		buf_addch(&b, '\n');
	}
	buf_addf(&b, "diags %zu errors %zu warnings %zu\n", t->diags.suppressed, t->diags.errors,
		 t->diags.warnings);
	return buf_detach(&b);
}

static void stream_digest(const char *name, const char *data, size_t n, size_t chunk,
			  struct digest *d)
{
	struct loaded x;

	load_chunks(&x, name, data, n, chunk);
	d->info = info_json(x.f.info, false);
	d->readers = info_json(x.f.info, true);
	d->model = dump_model(x.t, x.r);
	unload(&x);
}

/*
 * This test's own line splitter, written plainly from the contract of
 * ingest/reader.h: lines end at "\n", a line is cut to READER_MAX_LINE, then
 * a "\r" at its end is dropped; numbers from 1; a last line without "\n" counts.
 */
static void reference_lines(const char *raw, size_t nraw, ingest_line_fn *fn, void *arg)
{
	char *data = malloc(nraw + 1);	/* the text without its NUL bytes, which lines leave out */
	size_t start = 0, n = 0;
	int64_t lineno = 0;

	for (size_t i = 0; i < nraw; i++)
		if (raw[i])
			data[n++] = raw[i];

	for (size_t end = 0; end < n || start < n; end++) {
		size_t len;
		char *line;

		if (end < n && data[end] != '\n')
			continue;
		len = end - start > READER_MAX_LINE ? READER_MAX_LINE : end - start;
		line = malloc(len + 1);		/* not strndup: binary data holds NULs */
		memcpy(line, data + start, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			len--;
		fn(arg, line, len, ++lineno);
		free(line);
		start = end + 1;
	}
	free(data);
}

struct readers {
	struct ingest_ctx ctx;
	const struct reader *r[16];
	void *st[16];
	bool stopped[16];
	size_t n;
};

static void to_readers(void *arg, const char *line, size_t len, int64_t lineno)
{
	struct readers *rs = arg;

	for (size_t i = 0; i < rs->n; i++)
		if (!rs->stopped[i] && rs->r[i]->line(rs->st[i], line, len, lineno) < 0)
			rs->stopped[i] = true;
}

/* The line readers given the lines of data by reference_lines(). */
static void reference_digest(const char *name, const char *data, size_t n, struct digest *d)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "t", ".");
	struct arena a = ARENA_INIT;
	struct readers rs = { .ctx = { .trial = t, .run = r, .path = intern_str(&t->strings, name),
				       .diags = &t->diags, .arena = &a } };

	rs.ctx.info = info_root(&a);
	for (size_t i = 0; line_readers[i]; i++)
		if ((rs.st[rs.n] = line_readers[i]->open(&rs.ctx)))
			rs.r[rs.n++] = line_readers[i];
	rs.ctx.src = run_add_source(r, rs.ctx.path, "reference");
	reference_lines(data, n, to_readers, &rs);
	for (size_t i = 0; i < rs.n; i++) {
		rs.r[i]->finish(rs.st[i]);
		rs.r[i]->free(rs.st[i]);
	}
	d->info = NULL;
	d->readers = info_json(rs.ctx.info, true);
	d->model = dump_model(t, r);
	arena_release(&a);
	trial_free(t);
}

static void same(const char *what, const char *name, size_t chunk, const char *got,
		 const char *want)
{
	if (strcmp(got, want))
		fail_msg("%s: %s in pieces of %zu differs:\n%s\nwanted:\n%s", name, what, chunk,
			 got, want);
}

/* data fed at every chunk size 1..64 and LARGE_CHUNK gives what one piece gives. */
static void check_every_chunk(const char *name, const char *data, size_t n,
			      const struct digest *whole)
{
	for (size_t c = 1; c <= 65; c++) {
		size_t chunk = c <= 64 ? c : LARGE_CHUNK;
		struct digest part;

		stream_digest(name, data, n, chunk, &part);
		same("info", name, chunk, part.info, whole->info);
		same("model", name, chunk, part.model, whole->model);
		digest_free(&part);
	}
}

/* One piece gives what the readers give on this test's own lines. */
static void check_reference(const char *name, const char *text, size_t n,
			    const struct digest *whole)
{
	struct digest ref;

	reference_digest(name, text, n, &ref);
	same("model (against the test's splitter)", name, 0, whole->model, ref.model);
	same("readers' info (against the test's splitter)", name, 0, whole->readers, ref.readers);
	digest_free(&ref);
}

/* Is this a file for the line readers: text that no whole-file reader takes? */
static bool line_input(const char *data, size_t n)
{
	struct sniff sn;

	sniff_bytes((const unsigned char *)data, n < SNIFF_HEAD ? n : SNIFF_HEAD, n <= SNIFF_HEAD,
		    &sn);
	return n && sn.text && !reader_for(sn.format);
}

/* Checks every line input of dir; returns how many there were. */
static size_t check_dir(const char *dir)
{
	glob_t g;
	size_t checked = 0;
	char pattern[4096];

	snprintf(pattern, sizeof(pattern), "%s/*", dir);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);	/* sorted */
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		struct digest whole;
		size_t n;
		char *data = read_file(path, &n);

		if (line_input(data, n)) {
			stream_digest(path, data, n, 0, &whole);
			check_reference(path, data, n, &whole);
			check_every_chunk(path, data, n, &whole);
			digest_free(&whole);
			checked++;
		}
		free(data);
	}
	globfree(&g);
	return checked;
}

static void test_data_files(void **state)
{
	static const char *const dirs[] = { "collect_env", "gpumon", "nsys", "trainlog", "nccl",
					    "cli/unknown", "nccl_tests" };
	const char *top = getenv("TOP");
	char dir[4096];
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/tests/data/%s", top ? top : ".", dirs[i]);
		checked += check_dir(dir);
	}
	assert_true(checked >= 25);
}

static void test_real_files(void **state)
{
	static const char *const dirs[] = { "collect_env", "nccl_debug", "nccl_tests", "nsys",
					    "nvidia_smi", "training_logs" };
	const char *shared = getenv("SHARED");
	char dir[4096];
	size_t checked = 0;

	(void)state;
	if (!shared || !*shared)
		skip_without_shared();
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/realdata/%s", shared, dirs[i]);
		checked += check_dir(dir);
	}
	assert_true(checked >= 40);
}

/* An nccl-tests run with an NCCL line inside: rows on lines 11-13, the version on line 3. */
static const char nccl_tests_text[] =
	"# nThread 1 nGpus 2 minBytes 8 maxBytes 128 step: 4(factor) warmup iters: 5 iters: 20 "
	"agg iters: 1 validation: 1 graph: 0\n"
	"#\n"
	"node7:501:501 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
	"# Using devices\n"
	"#  Rank  0 Group  0 Pid    501 on      node7 device  0 [0x17] NVIDIA H200\n"
	"#  Rank  1 Group  0 Pid    501 on      node7 device  1 [0x2a] NVIDIA H200\n"
	"\n"
	"#                                                              out-of-place"
	"                       in-place\n"
	"#       size         count      type   redop    root     time   algbw   busbw #wrong"
	"     time   algbw   busbw #wrong\n"
	"#        (B)    (elements)                               (us)  (GB/s)  (GB/s)"
	"            (us)  (GB/s)  (GB/s)\n"
	"           8             2     float     sum      -1    10.50    0.00    0.00      0"
	"    10.25    0.00    0.00      0\n"
	"          32             8     float     sum      -1    10.75    0.00    0.00      0"
	"    10.40    0.00    0.00      0\n"
	"         128            32     float     sum      -1    11.00    0.01    0.01      0"
	"    10.90    0.01    0.01      0\n"
	"# Out of bounds values : 0 OK\n"
	"# Avg bus bandwidth    : 0.00333\n";

/* ---- the splitter alone: every line exactly ---- */

/* Writes each line as "number:length:bytes"; checks the byte after it. */
static void echo_line(void *arg, const char *line, size_t len, int64_t lineno)
{
	struct buf *b = arg;

	assert_true(line[len] == '\r' || line[len] == '\n' || line[len] == '\0');
	buf_addf(b, "%lld:%zu:", (long long)lineno, len);
	buf_add(b, line, len);
	buf_addch(b, '\n');
}

static char *split_stream(const char *data, size_t n, size_t chunk, struct diags *d)
{
	struct ingest_lines l;
	struct buf b;

	buf_init(&b, 0);
	ingest_lines_init(&l, "t", d, echo_line, &b);
	for (size_t off = 0, k; off < n; off += k) {
		k = chunk && n - off > chunk ? chunk : n - off;
		ingest_lines_feed(&l, data + off, k);
	}
	ingest_lines_end(&l);
	return buf_detach(&b);
}

/* Lines ended by CR alone (cr set), CR LF among them, NULs left out: the same at every piece size. */
static void test_cr_lines_every_split(void **state)
{
	static const char data[] = "a\rbb\r\ncc\0\0c\r\r\nd";
	static const char want[] = "1:1:a\n2:2:bb\n3:3:ccc\n4:0:\n5:1:d\n";

	(void)state;
	for (size_t chunk = 1; chunk <= sizeof(data); chunk++) {
		struct diags d = DIAGS_INIT;
		struct ingest_lines l;
		struct buf b;
		char *got;

		buf_init(&b, 0);
		ingest_lines_init(&l, "t", &d, echo_line, &b);
		l.cr = true;
		for (size_t off = 0, k; off < sizeof(data) - 1; off += k) {
			k = sizeof(data) - 1 - off < chunk ? sizeof(data) - 1 - off : chunk;
			ingest_lines_feed(&l, data + off, k);
		}
		ingest_lines_end(&l);
		got = buf_detach(&b);
		same("cr lines", "data", chunk, got, want);
		assert_int_equal(d.count, 1);
		assert_string_equal(d.items[0].code, "nul-bytes");
		assert_int_equal(d.items[0].pos.line, 3);
		diags_release(&d);
		free(got);
	}
}

static char *split_reference(const char *data, size_t n)
{
	struct buf b;

	buf_init(&b, 0);
	reference_lines(data, n, echo_line, &b);
	return buf_detach(&b);
}

/* data split at every chunk size 1..64, LARGE_CHUNK and whole gives the reference's lines. */
static void check_split(const char *name, const char *data, size_t n)
{
	char *want = split_reference(data, n);

	for (size_t c = 0; c <= 65; c++) {
		size_t chunk = c <= 64 ? c : LARGE_CHUNK;
		struct diags d = DIAGS_INIT;
		char *got = split_stream(data, n, chunk, &d);

		same("lines", name, chunk, got, want);
		assert_int_equal(d.count, memchr(data, 0, n) ? 1 : 0);	/* the one nul-bytes warning */
		diags_release(&d);
		free(got);
	}
	free(want);
}

/* Line ends in every arrangement: empty lines, lone and doubled "\r", no last "\n". */
static void test_split_edges(void **state)
{
	static const char *const inputs[] = {
		"", "\n", "\n\n", "\r\n", "\r", "a", "a\r", "a\n", "a\r\n", "\r\r\n",
		"a\rb\n", "a\n\r", "a\r\n\r\nb", "\n\r\n\n", "ab\r\ncd\nef\r\n\r\ngh",
		"x\r\r\r\n\r", "one\ntwo\r\nthree",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		check_split(inputs[i], inputs[i], strlen(inputs[i]));
	check_split("nccl-tests", nccl_tests_text, strlen(nccl_tests_text));
}

/* Every file of tests/data (and realdata when present), line by line. */
static void test_split_files(void **state)
{
	static const char *const dirs[] = { "collect_env", "gpumon", "nsys", "trainlog", "kineto",
					    "nccl", "cli/unknown" };
	const char *top = getenv("TOP");
	const char *shared = getenv("SHARED");
	char pattern[4096];
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) + 1; i++) {
		glob_t g;

		if (i < sizeof(dirs) / sizeof(dirs[0]))
			snprintf(pattern, sizeof(pattern), "%s/tests/data/%s/*", top ? top : ".", dirs[i]);
		else if (shared && *shared)
			snprintf(pattern, sizeof(pattern), "%s/realdata/*/*.txt", shared);
		else
			break;
		assert_int_equal(glob(pattern, GLOB_MARK, NULL, &g), 0);
		for (size_t f = 0; f < g.gl_pathc; f++) {
			size_t n, len = strlen(g.gl_pathv[f]);
			char *data;

			if (len && g.gl_pathv[f][len - 1] == '/')
				continue;	/* a folder of fixtures that make a trial */
			data = read_file(g.gl_pathv[f], &n);

			check_split(g.gl_pathv[f], data, n);
			free(data);
			checked++;
		}
		globfree(&g);
	}
	assert_true(checked >= 40);
}

/*
 * Lines of READER_MAX_LINE - 1, READER_MAX_LINE and one more byte, ended by
 * "\n" and by "\r\n": the first cut line is warned about, on its own line.
 */
static void test_split_long(void **state)
{
	static const size_t chunks[] = { 0, 1, 3, 64, LARGE_CHUNK };
	static const char *const ends[] = { "\n", "\r\n" };
	struct buf b;
	char *want;

	(void)state;
	buf_init(&b, 0);
	for (size_t e = 0; e < 2; e++)
		for (size_t len = READER_MAX_LINE - 1; len <= READER_MAX_LINE + 1; len++) {
			size_t start = b.len;

			buf_addf(&b, "%zu:", len);
			while (b.len - start < len - 3)
				buf_addch(&b, 'a' + (int)(b.len % 26));
			buf_addstr(&b, "END");		/* the line's last bytes, before its end */
			buf_addstr(&b, ends[e]);
		}
	want = split_reference(b.data, b.len);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		struct diags d = DIAGS_INIT;
		char *got = split_stream(b.data, b.len, chunks[c], &d);
		struct buf line;

		same("long lines", "long", chunks[c], got, want);
		assert_int_equal(d.count, 1);
		buf_init(&line, 0);
		diag_format(&d.items[0], &line);
		assert_string_equal(line.data, "t:3: warning: line longer than 1 MiB: "
				    "only its first 1 MiB was read");
		buf_release(&line);
		diags_release(&d);
		free(got);
	}
	free(want);
	buf_release(&b);
}

/* ---- inputs written here, with known answers ---- */

static void assert_known_rows(const struct loaded *x)
{
	static const int64_t bytes[] = { 8, 32, 128 };

	assert_int_equal(x->r->nnccl_tests, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(x->r->nccl_tests[i].bytes, bytes[i]);
		assert_int_equal(x->r->nccl_tests[i].line, 11 + (int64_t)i);
	}
	assert_string_equal(x->r->nccl_version.v, "2.21.5");
	assert_int_equal(x->r->nccl_version.src.line, 3);
}

/* The text with "\r\n" for every "\n"; malloc'd, its length in *n. */
static char *crlf(const char *text, size_t *n)
{
	struct buf b;

	buf_init(&b, 0);
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			buf_addch(&b, '\r');
		buf_addch(&b, *p);
	}
	*n = b.len;
	return buf_detach(&b);
}

/* The same input in two pieces, cut at `at`. */
static void load_two(struct loaded *x, const char *name, const char *data, size_t n, size_t at)
{
	struct ingest_stream *s;

	x->t = trial_new();
	x->r = trial_add_run(x->t, "t", ".");
	x->a = (struct arena)ARENA_INIT;
	s = ingest_stream_open(x->t, x->r, name, (int64_t)n, &x->a);
	assert_int_equal(ingest_stream_feed(s, data, at), 0);
	assert_int_equal(ingest_stream_feed(s, data + at, n - at), 0);
	assert_int_equal(ingest_stream_finish(s, &x->f), 0);
}

/* CRLF cut at every byte (between "\r" and "\n" too) reads as the LF text does. */
static void test_crlf_every_split(void **state)
{
	size_t n, lf = strlen(nccl_tests_text);
	char *text = crlf(nccl_tests_text, &n);
	struct digest want;
	struct loaded x;

	(void)state;
	load_chunks(&x, "t.log", nccl_tests_text, lf, 0);
	assert_known_rows(&x);
	unload(&x);
	stream_digest("t.log", nccl_tests_text, lf, 0, &want);
	check_reference("t.log", nccl_tests_text, lf, &want);
	for (size_t at = 0; at <= n; at++) {
		char *readers, *model;

		load_two(&x, "t.log", text, n, at);
		assert_known_rows(&x);
		readers = info_json(x.f.info, true);
		model = dump_model(x.t, x.r);
		same("readers' info (CRLF)", "t.log", at, readers, want.readers);
		same("model (CRLF)", "t.log", at, model, want.model);
		free(readers);
		free(model);
		unload(&x);
	}
	digest_free(&want);
	free(text);
}

/* ---- gzip ---- */

/* data as `members` gzip members one after another; malloc'd, its length in *out_n. */
static char *gzip_members(const char *data, size_t n, int members, size_t *out_n)
{
	size_t cap = n + 64 * (size_t)members + 1024, len = 0;
	char *out = malloc(cap);

	for (int m = 0; m < members; m++) {
		size_t from = n * (size_t)m / (size_t)members, to = n * (size_t)(m + 1) / (size_t)members;
		z_stream z = { 0 };

		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (unsigned char *)(uintptr_t)(data + from);
		z.avail_in = (uInt)(to - from);
		z.next_out = (unsigned char *)out + len;
		z.avail_out = (uInt)(cap - len);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		len = cap - z.avail_out;
		deflateEnd(&z);
	}
	*out_n = len;
	return out;
}

/* A gzip log (two members; NCCL lines, then an nccl-tests table) reads as the plain text does. */
static void test_gzip_every_chunk(void **state)
{
	const char *top = getenv("TOP");
	char path[4096];
	size_t n, zn;
	char *text, *gz;
	struct digest plain, whole;
	struct loaded x;
	struct buf both;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/trainlog/nccl-only.log", top ? top : ".");
	text = read_file(path, &n);
	buf_init(&both, 0);
	buf_add(&both, text, n);
	buf_addstr(&both, nccl_tests_text);
	free(text);
	n = both.len;
	text = buf_detach(&both);
	assert_true(line_input(text, n));
	gz = gzip_members(text, n, 2, &zn);
	stream_digest("t.log.gz", text, n, 0, &plain);
	stream_digest("t.log.gz", gz, zn, 0, &whole);
	same("model (gzip)", "t.log.gz", 0, whole.model, plain.model);
	same("readers' info (gzip)", "t.log.gz", 0, whole.readers, plain.readers);
	check_reference("t.log.gz", text, n, &whole);
	check_every_chunk("t.log.gz", gz, zn, &whole);
	load_chunks(&x, "t.log.gz", gz, zn, 3);
	assert_true(x.f.gzip);
	assert_int_equal(x.f.bytes, n);
	assert_string_equal(format_name(x.f.sniff.format), "nccl-tests");
	unload(&x);
	digest_free(&plain);
	digest_free(&whole);
	free(gz);
	free(text);
}

/* How many bytes zlib alone inflates from a cut gzip. */
static size_t inflatable(const char *gz, size_t n, size_t max)
{
	z_stream z = { 0 };
	char *out = malloc(max);
	size_t got;

	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)gz;
	z.avail_in = (uInt)n;
	z.next_out = (unsigned char *)out;
	z.avail_out = (uInt)max;
	assert_int_equal(inflate(&z, Z_SYNC_FLUSH), Z_OK);
	got = z.total_out;
	inflateEnd(&z);
	free(out);
	return got;
}

/* A gzip cut short: the lines before the cut are read, the cut named at the same byte. */
static void test_gzip_cut(void **state)
{
	size_t zn, lf = strlen(nccl_tests_text);
	char *gz = gzip_members(nccl_tests_text, lf, 1, &zn);
	size_t cut = zn - 12, good = inflatable(gz, cut, lf);
	char want[128];

	struct digest ref;

	(void)state;
	assert_true(good > 0 && good < lf);
	reference_digest("t.gz", nccl_tests_text, good, &ref);
	snprintf(want, sizeof(want), "t.gz: byte %zu: compressed data ends early: the file is cut short",
		 good);
	for (size_t c = 0; c <= 65; c++) {
		struct loaded x;
		struct buf line;
		char *readers;

		load_chunks(&x, "t.gz", gz, cut, c <= 64 ? c : LARGE_CHUNK);
		assert_int_equal(x.t->diags.count, 1);
		buf_init(&line, 0);
		diag_format(&x.t->diags.items[0], &line);
		assert_string_equal(line.data, want);
		buf_release(&line);
		assert_int_equal(x.f.bytes, good);
		readers = info_json(x.f.info, true);
		same("readers' info (cut gzip)", "t.gz", c, readers, ref.readers);
		free(readers);
		unload(&x);
	}
	digest_free(&ref);
	free(gz);
}

/* ---- long lines ---- */

/* A row of the table above padded with spaces to `width` bytes before its end. */
static void add_row(struct buf *b, const char *bytes, size_t width, const char *end)
{
	size_t start = b->len;

	buf_addf(b, "%12s             2     float     sum      -1    10.50    0.00    0.00      0"
		 "    10.25    0.00    0.00      0", bytes);
	while (b->len - start < width)
		buf_addch(b, ' ');
	buf_addstr(b, end);
}

/*
 * Rows of exactly READER_MAX_LINE bytes (with "\n", and with "\r\n" where the
 * "\r" is the last byte kept) are whole; one byte more is cut, with one
 * warning on its line; what lies past the cut is not read; numbering goes on.
 */
static void test_long_lines(void **state)
{
	static const size_t chunks[] = { 0, 1, 3, 64, LARGE_CHUNK };
	struct buf b;

	(void)state;
	buf_init(&b, 0);
	buf_addstr(&b, "#       size         count      type   redop    root     time   algbw   busbw"
		   " #wrong     time   algbw   busbw #wrong\n");
	add_row(&b, "8", READER_MAX_LINE, "\n");		/* line 2: whole */
	add_row(&b, "16", READER_MAX_LINE - 1, "\r\n");	/* line 3: whole */
	add_row(&b, "32", READER_MAX_LINE + 1, "\n");	/* line 4: cut, warned */
	for (size_t i = 0; i < READER_MAX_LINE; i++)	/* line 5: cut before the NCCL line */
		buf_addch(&b, 'x');
	buf_addstr(&b, " node7:501:501 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n");
	add_row(&b, "64", 0, "");				/* line 6, no newline */
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		struct loaded x;
		struct buf line;

		load_chunks(&x, "long.txt", b.data, b.len, chunks[c]);
		assert_int_equal(x.t->diags.count, 1);
		buf_init(&line, 0);
		diag_format(&x.t->diags.items[0], &line);
		assert_string_equal(line.data, "long.txt:4: warning: line longer than 1 MiB: "
				    "only its first 1 MiB was read");
		buf_release(&line);
		assert_int_equal(x.r->nnccl_tests, 4);
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(x.r->nccl_tests[i].bytes, 8 << i);
			assert_int_equal(x.r->nccl_tests[i].line, i < 3 ? 2 + (int64_t)i : 6);
		}
		assert_null(x.r->nccl_version.v);
		unload(&x);
	}
	buf_release(&b);
}

/* ---- progress ---- */

static struct {
	int64_t last, total;
	int calls, ends;
} seen;

static void on_progress(const char *path, int64_t done, int64_t total)
{
	assert_string_equal(path, "big.log");
	assert_true(done > seen.last && done <= total);
	seen.last = done;
	seen.total = total;
	seen.calls++;
	seen.ends += done == total;
}

/* A large input is reported every few MiB as stored, and ended once, in any pieces. */
static void test_progress(void **state)
{
	static const size_t chunks[] = { 1000, LARGE_CHUNK, 65536 };
	const size_t n = 9 * 1024 * 1024;
	char *data = malloc(n);
	struct loaded x;
	size_t zn;
	char *gz;

	(void)state;
	for (size_t i = 0; i < n; i++)
		data[i] = i % 64 == 63 ? '\n' : (char)('a' + i % 26);
	gz = gzip_members(data, n, 1, &zn);
	ingest_set_progress(on_progress);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		memset(&seen, 0, sizeof(seen));
		load_chunks(&x, "big.log", data, n, chunks[c]);
		unload(&x);
		assert_int_equal(seen.total, n);
		assert_int_equal(seen.ends, 1);
		assert_int_equal(seen.last, n);
		assert_true(seen.calls >= 4);	/* about every 2 MiB, then the end */
	}
	/* compressed it is small as stored: no report at all */
	memset(&seen, 0, sizeof(seen));
	load_chunks(&x, "big.log", gz, zn, 4096);
	assert_true(x.f.gzip && x.f.bytes == (int64_t)n);
	unload(&x);
	assert_int_equal(seen.calls, 0);
	ingest_set_progress(NULL);
	free(gz);
	free(data);
}

/* ---- a file format through the stream ---- */

static const char export_sql[] =
	"CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, busLocation TEXT, totalMemory INTEGER,"
	" smCount INTEGER, computeMajor INTEGER, computeMinor INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
	" deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
	" globalPid INTEGER, demangledName INTEGER, shortName INTEGER, gridX INTEGER);"
	"INSERT INTO StringIds VALUES (1, 'ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn'),"
	" (2, 'gemm');"
	"INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H200', '0000:18:00.0', 150754820096, 132, 9, 0);"
	"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 10, 1, 1, 2, 8),"
	" (3000, 3500, 0, 1, 7, 11, 1, 1, 2, 8), (4000, 4700, 0, 1, 7, 12, 1, 1, 2, 8);";

/* A directory of its own for the stream's temporary copies, so that leftovers show. */
static void private_tmpdir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/test_chunks_XXXXXX");
	assert_non_null(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
}

static void assert_empty_dir(const char *dir)
{
	glob_t g;
	char pattern[4096];

	snprintf(pattern, sizeof(pattern), "%s/*", dir);
	assert_int_equal(glob(pattern, 0, NULL, &g), GLOB_NOMATCH);
	globfree(&g);
}

/*
 * The export gzip-compressed reads as the plain file does, fed in pieces and
 * from a file (whose bytes as stored are no database: it is read from a copy).
 */
static void check_sqlite_gzip(const char *path, const char *data, size_t n,
			      const struct digest *file)
{
	static const size_t chunks[] = { 0, 1, 64 };
	char gzpath[256];
	struct loaded x;
	size_t zn;
	char *gz = gzip_members(data, n, 1, &zn);
	FILE *f;

	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		struct digest part;

		stream_digest(path, gz, zn, chunks[c], &part);
		same("readers' info (sqlite.gz)", path, chunks[c], part.readers, file->readers);
		same("model (sqlite.gz)", path, chunks[c], part.model, file->model);
		digest_free(&part);
	}
	snprintf(gzpath, sizeof(gzpath), "%s.gz", path);
	f = fopen(gzpath, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(gz, 1, zn, f), zn);
	assert_int_equal(fclose(f), 0);
	load_path(&x, gzpath);
	assert_true(x.f.gzip);
	assert_int_equal(x.t->diags.count, 0);
	assert_int_equal(x.r->nranks, 1);
	assert_int_equal(x.r->ranks[0].nev, 3);
	unload(&x);
	assert_int_equal(unlink(gzpath), 0);
	free(gz);
}

/* An export fed in pieces reads as the file does; its copy is gone after. */
static void test_sqlite_stream(void **state)
{
	static const size_t chunks[] = { 0, 1, 7, 64, LARGE_CHUNK };
	char tmp[64], path[128];
	struct digest file;
	struct loaded x;
	sqlite3 *db;
	size_t n;
	char *data;

	(void)state;
	private_tmpdir(tmp, sizeof(tmp));
	snprintf(path, sizeof(path), "%s/report.sqlite", tmp);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, export_sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	data = read_file(path, &n);
	load_path(&x, path);
	assert_string_equal(format_name(x.f.sniff.format), "nsys-sqlite");
	file.info = info_json(x.f.info, false);
	file.model = dump_model(x.t, x.r);
	file.readers = info_json(x.f.info, true);
	assert_int_equal(x.r->nranks, 1);
	assert_int_equal(x.r->ranks[0].nev, 3);
	unload(&x);
	assert_int_equal(unlink(path), 0);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		struct digest part;

		stream_digest(path, data, n, chunks[c], &part);
		same("info (sqlite)", path, chunks[c], part.info, file.info);
		same("model (sqlite)", path, chunks[c], part.model, file.model);
		digest_free(&part);
		assert_empty_dir(tmp);
	}
	check_sqlite_gzip(path, data, n, &file);
	assert_empty_dir(tmp);
	digest_free(&file);
	free(data);
	assert_int_equal(rmdir(tmp), 0);
	unsetenv("TMPDIR");
}

/* What the reader of a copy says names the input, not the copy. */
static void test_sqlite_stream_names_input(void **state)
{
	char tmp[64];
	struct buf bytes, line;
	struct loaded x;

	(void)state;
	private_tmpdir(tmp, sizeof(tmp));
	buf_init(&bytes, 0);
	buf_add(&bytes, "SQLite format 3\0", 16);
	for (int i = 0; i < 200; i++)
		buf_addstr(&bytes, "\x01\x02 CUPTI_ACTIVITY_KIND_KERNEL garbage \xff\xfe");
	load_chunks(&x, "member/report.sqlite", bytes.data, bytes.len, 5);
	assert_string_equal(format_name(x.f.sniff.format), "nsys-sqlite");
	assert_int_equal(x.t->diags.count, 1);
	buf_init(&line, 0);
	diag_format(&x.t->diags.items[0], &line);
	assert_string_equal(line.data,
			    "member/report.sqlite: cannot query the export: file is not a database");
	buf_release(&line);
	unload(&x);
	buf_release(&bytes);
	assert_empty_dir(tmp);
	assert_int_equal(rmdir(tmp), 0);
	unsetenv("TMPDIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_edges),
		cmocka_unit_test(test_split_files),
		cmocka_unit_test(test_split_long),
		cmocka_unit_test(test_data_files),
		cmocka_unit_test(test_real_files),
		cmocka_unit_test(test_crlf_every_split),
		cmocka_unit_test(test_cr_lines_every_split),
		cmocka_unit_test(test_gzip_every_chunk),
		cmocka_unit_test(test_gzip_cut),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_sqlite_stream),
		cmocka_unit_test(test_sqlite_stream_names_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
