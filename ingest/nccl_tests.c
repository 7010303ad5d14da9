#include "ingest/nccl_tests.h"

#include <math.h>
#include "core/pattern.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "ingest/ingest.h"

#define MAX_TOKENS 48		/* a row has 13, 21 with per-iteration columns */
#define MAX_TESTS 65536		/* tests kept per file; more are ignored */
#define MAX_DEVICES 65536	/* device lines kept per file */
#define MAX_RANKS 65536	/* GPUs that one test's nThread x nGpus may name */

/* Columns of a result table; the in-place group follows the out-of-place one. */
enum col {
	C_SIZE, C_COUNT, C_TYPE, C_REDOP, C_ROOT,
	C_TIME, C_ALGBW, C_BUSBW, C_WRONG,
	C_TIME_IP, C_ALGBW_IP, C_BUSBW_IP, C_WRONG_IP,
	NCOL
};
#define IP_SHIFT (C_TIME_IP - C_TIME)

/* Column header words of every era ("bytes N type op ... res" in 2018). */
static const struct colname {
	const char *name;
	enum col col;
} colnames[] = {
	{ "size", C_SIZE }, { "bytes", C_SIZE }, { "count", C_COUNT }, { "N", C_COUNT },
	{ "type", C_TYPE }, { "redop", C_REDOP }, { "op", C_REDOP }, { "root", C_ROOT },
	{ "time", C_TIME }, { "cputime", C_TIME }, { "algbw", C_ALGBW }, { "busbw", C_BUSBW },
	{ "wrong", C_WRONG }, { "error", C_WRONG }, { "res", C_WRONG },
};

static const char *const redops[] = { "sum", "prod", "max", "min", "avg", "none", "mulsum", "premulsum" };

struct tok {
	const char *p;
	size_t n;
};

/* One device line of a test's header. */
struct device {
	int32_t rank;
	int32_t index;		/* the CUDA device number */
	const char *host;	/* interned */
	const char *name;	/* interned "NVIDIA GeForce RTX 2080 Ti" */
};

/* One test (one run of an *_perf binary) of the file. */
struct test {
	const char *op;		/* interned "all_reduce"; NULL unknown */
	enum dtype dtype;	/* of its first row */
	size_t dev0, ndev;	/* its device lines: devices[dev0 .. dev0+ndev) */
	int64_t rows;
	double avg_busbw;	/* the footer's; NaN none */
	double max_busbw;	/* NaN before the first row */
	int64_t max_bytes;	/* -1 before the first row */
	bool params;		/* its nThread line was seen */
	int64_t nthread, ngpus;	/* that line's values; -1 none */
	bool closed;		/* its footer was seen */
	int8_t col[NCOL];	/* token index of each column; -1 absent */
	int ncols;		/* tokens of its column header; 0 none */
};

struct nccl_tests {
	struct ingest_ctx *ctx;
	bool found;
	struct test *tests;
	size_t ntests, cap_tests;
	struct device *devices;
	size_t ndevices, cap_devices;
	const char *version;	/* interned */
	const char *tests_version;	/* interned "2.20.0" of the version line */
	const char *tests_commit;	/* interned "b4d5bee" of the version line */
	const char *headers;	/* interned NCCL the tests were compiled against */
	int64_t lineno;
	struct ingest_cap cap;	/* result rows kept, against the limits; tests and devices are capped */
	pcre2_match_data *md;
};

enum pat {
	P_PREFIX, P_PARAMS, P_DEVICE, P_HEADER, P_AVG, P_OP, P_TESTS_VERSION, P_COMPILED, P_VERSION,
	NPAT
};

static const char *const patterns[NPAT] = {
	/* launcher prefixes: mpirun --tag-output, torchrun, Ray, srun --label */
	[P_PREFIX] = "^(?:\\[\\d+,\\d+\\]<std\\w+>:|\\[rank\\d+\\]:|\\([\\w.-]+ pid=\\d+\\) |\\d+: )",
	[P_PARAMS] = "^\\s*#?\\s*nThread\\s+(\\d+)\\s+nGpus\\s+(\\d+)",
	[P_DEVICE] = "^\\s*#?\\s*Rank\\s+(\\d+)\\s+(?:Group\\s+\\d+\\s+)?(?:Pid\\s+\\d+\\s+)?on\\s+(\\S+)"
		     "\\s+device\\s+(\\d+)\\s+\\[[^\\]]*\\]\\s+(.*?)\\s*$",
	[P_HEADER] = "^\\s*#?\\s*(?:size|bytes)\\s+(?:count|N)\\s+type\\s",
	[P_AVG] = "^\\s*#?\\s*Avg bus bandwidth\\s*:\\s*(\\S+)",
	[P_OP] = "\\b(all_reduce|all_gather|reduce_scatter|broadcast|reduce|alltoall|sendrecv|"
		 "gather|scatter|hypercube)_perf(?:_mpi)?\\b(?!.*\\bconcluded\\b)",
	/* 2.13 to 2.17: "version 2.13.8 nccl-headers=N nccl-library=N"; 2.18+ adds "(commit)" */
	[P_TESTS_VERSION] = "^\\s*#?\\s*nccl-tests version (\\S+)(?:\\s+\\(([0-9a-f]+)\\))?"
			    "(?:.*?\\b(?:nccl-headers|NCCL_VERSION_CODE)=(\\d+))?"
			    "(?:.*?\\b(?:nccl-library|ncclGetVersion)=(\\d+))?",
	[P_COMPILED] = "^\\s*#?\\s*NCCL Tests compiled with NCCL (\\d+(?:\\.\\d+)*)",
	[P_VERSION] = "\\bNCCL version (\\d+\\.\\d+\\.\\d+)",
};

static pcre2_code *compiled[NPAT];
static struct pattern_table table = PATTERN_TABLE(patterns, compiled, 0);

static int compile_patterns(void)
{
	return pattern_compile(&table) ? 0 : -1;	/* -1: a bad built-in pattern */
}

static const PCRE2_SIZE *match(struct nccl_tests *s, enum pat i, const char *p, size_t n)
{
	if (!pattern_match(&table, i, p, n, s->md))
		return NULL;
	return pcre2_get_ovector_pointer(s->md);
}

static bool tok_is(const struct tok *t, const char *word)
{
	return t->n == strlen(word) && !memcmp(t->p, word, t->n);
}

/* Parses a whole token as a number; false when it is not one. */
static bool tok_num(const struct tok *t, double *v)
{
	char tmp[64];
	char *end;

	if (!t->n || t->n >= sizeof(tmp))
		return false;
	memcpy(tmp, t->p, t->n);
	tmp[t->n] = '\0';
	*v = strtod(tmp, &end);
	return *end == '\0' && isfinite(*v);
}

static bool tok_int(const struct tok *t, int64_t *v)
{
	int64_t x = 0;
	size_t i = t->n && t->p[0] == '-';

	if (i == t->n || t->n > 18)
		return false;
	for (; i < t->n; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			return false;
		x = x * 10 + (t->p[i] - '0');
	}
	*v = t->p[0] == '-' ? -x : x;
	return true;
}

static bool tok_alpha(const struct tok *t)
{
	return t->n && ((t->p[0] >= 'a' && t->p[0] <= 'z') || (t->p[0] >= 'A' && t->p[0] <= 'Z'));
}

/* nccl-tests' type names (-d): "float", "bfloat16", "f8e4m3" ... */
static enum dtype tok_dtype(const struct tok *t, bool *known)
{
	enum dtype dt = dtype_parse(t->p, t->n);

	*known = dt != DT_UNKNOWN;
	return dt;
}

static bool tok_redop(const struct tok *t)
{
	for (size_t i = 0; i < sizeof(redops) / sizeof(redops[0]); i++)
		if (tok_is(t, redops[i]))
			return true;
	return false;
}

/*
 * Length of the first number of a token where two "%.2f" numbers touch
 * ("0.191397737.34": a time that overflowed its width); 0 when not so.
 */
static size_t touching(const char *p, size_t n)
{
	const char *dot = memchr(p, '.', n);
	size_t k;

	if (!dot || !memchr(dot + 1, '.', n - (size_t)(dot + 1 - p)))
		return 0;
	k = (size_t)(dot - p) + 3;
	return k < n ? k : 0;
}

/* Splits p[0..n) on blanks; returns the number of tokens, or -1 past max. */
static int tokenize(const char *p, size_t n, struct tok *t, int max)
{
	int k = 0;
	size_t i = 0;

	while (i < n) {
		size_t j, cut;

		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i == n)
			break;
		for (j = i; j < n && p[j] != ' ' && p[j] != '\t'; j++)
			;
		while ((cut = touching(p + i, j - i)) != 0) {
			if (k == max)
				return -1;
			t[k++] = (struct tok){ p + i, cut };
			i += cut;
		}
		if (k == max)
			return -1;
		t[k++] = (struct tok){ p + i, j - i };
		i = j;
	}
	return k;
}

static struct test *new_test(struct nccl_tests *s)
{
	struct test *t;

	if (s->ntests == MAX_TESTS)
		return NULL;
	xgrow(&s->tests, &s->cap_tests, s->ntests + 1, sizeof(*s->tests));
	t = &s->tests[s->ntests++];
	*t = (struct test){ .dtype = DT_UNKNOWN, .dev0 = s->ndevices, .avg_busbw = NAN,
			    .max_busbw = NAN, .max_bytes = -1, .nthread = -1, .ngpus = -1 };
	memset(t->col, -1, sizeof(t->col));
	return t;
}

static struct test *cur(struct nccl_tests *s)
{
	return s->ntests ? &s->tests[s->ntests - 1] : NULL;
}

/* The test that a header part belongs to: the current one unless it is past that part. */
static struct test *test_for(struct nccl_tests *s, bool past)
{
	struct test *t = cur(s);

	return t && !past ? t : new_test(s);
}

static void on_op(struct nccl_tests *s, const char *op)
{
	struct test *t = cur(s);

	if (!t || t->rows || t->closed || t->params || t->ndev || t->ncols)
		t = new_test(s);
	if (t)
		t->op = op;
}

/* nThread x nGpus: the GPUs of the test's one process; -1 when it is not 1 to MAX_RANKS. */
static int32_t params_ranks(int64_t nthread, int64_t ngpus)
{
	if (nthread < 1 || ngpus < 1 || nthread > MAX_RANKS || ngpus > MAX_RANKS)
		return -1;	/* each at most MAX_RANKS, so the product fits in int64 */
	return nthread * ngpus > MAX_RANKS ? -1 : (int32_t)(nthread * ngpus);
}

static void on_params(struct nccl_tests *s, const char *p, const PCRE2_SIZE *ov)
{
	struct test *t = cur(s);
	struct srcpos pos = SRCPOS_LINE(s->ctx->path, s->lineno);

	t = test_for(s, !t || t->rows || t->closed || t->params || t->ndev || t->ncols);
	if (!t)
		return;
	t->params = true;
	t->nthread = strtoll(p + ov[2], NULL, 10);	/* LLONG_MAX past its range */
	t->ngpus = strtoll(p + ov[4], NULL, 10);
	if (params_ranks(t->nthread, t->ngpus) < 0)
		diag_warn(s->ctx->diags, "nccl-tests-header", &pos,
			  "\"nThread %lld nGpus %lld\" does not give a GPU count of 1 to %d: "
			  "the test's GPU count is taken as unknown",
			  (long long)t->nthread, (long long)t->ngpus, MAX_RANKS);
}

/* Its ranks: the device lines, else nThread x nGpus (one process); -1 unknown. */
static int32_t test_ranks(const struct test *t)
{
	if (t->ndev)
		return (int32_t)t->ndev;
	return params_ranks(t->nthread, t->ngpus);
}

static void on_device(struct nccl_tests *s, const char *p, const PCRE2_SIZE *ov)
{
	struct test *t = cur(s);
	struct intern *strs = &s->ctx->trial->strings;

	t = test_for(s, !t || t->rows || t->closed || t->ncols);
	if (!t || s->ndevices == MAX_DEVICES)
		return;
	if (t->dev0 + t->ndev != s->ndevices) {
		t->dev0 = s->ndevices;	/* keep its lines contiguous */
		t->ndev = 0;
	}
	xgrow(&s->devices, &s->cap_devices, s->ndevices + 1, sizeof(*s->devices));
	s->devices[s->ndevices++] = (struct device){
		.rank = (int32_t)strtol(p + ov[2], NULL, 10),
		.index = (int32_t)strtol(p + ov[6], NULL, 10),
		.host = intern(strs, p + ov[4], ov[5] - ov[4]),
		.name = intern(strs, p + ov[8], ov[9] - ov[8]),
	};
	t->ndev++;
}

static void on_header(struct nccl_tests *s, const char *p, size_t n)
{
	struct tok tk[MAX_TOKENS];
	int k = tokenize(p, n, tk, MAX_TOKENS);
	struct test *t = cur(s);

	t = test_for(s, !t || t->rows || t->closed || t->ncols);
	if (!t || k < 0)
		return;
	t->ncols = k;
	for (int i = 0; i < k; i++) {
		struct tok w = tk[i];

		while (w.n && w.p[0] == '#') {
			w.p++;
			w.n--;
		}
		for (size_t c = 0; c < sizeof(colnames) / sizeof(colnames[0]); c++) {
			enum col col = colnames[c].col;

			if (!tok_is(&w, colnames[c].name))
				continue;
			if (col >= C_TIME && t->col[col] >= 0)
				col += IP_SHIFT;
			if (col < NCOL && t->col[col] < 0)
				t->col[col] = (int8_t)i;
			break;
		}
	}
}

static void on_avg(struct nccl_tests *s, const char *p, const PCRE2_SIZE *ov)
{
	struct tok v = { p + ov[2], ov[3] - ov[2] };
	struct test *t = cur(s);
	double d;

	if (!t || t->closed)
		t = new_test(s);
	if (!t)
		return;
	t->closed = true;
	if (tok_num(&v, &d))
		t->avg_busbw = d;
}

/* Column positions for a row of k tokens when no header describes it; false if none fit. */
static bool guess_columns(const struct tok *tk, int k, int8_t *col)
{
	int i = 3;

	memset(col, -1, NCOL);
	col[C_SIZE] = 0;
	col[C_COUNT] = 1;
	col[C_TYPE] = 2;
	if (k > 3 && tok_alpha(&tk[3]))
		col[C_REDOP] = (int8_t)i++;
	if (k - i == 9)
		col[C_ROOT] = (int8_t)i++;
	if (k - i != 8 && k - i != 4)
		return false;
	for (int c = C_TIME; c < C_TIME + (k - i); c++)
		col[c] = (int8_t)(i + c - C_TIME);
	return true;
}

static double col_num(const struct tok *tk, const int8_t *col, enum col c)
{
	double v;

	return col[c] >= 0 && tok_num(&tk[col[c]], &v) ? v : -1;
}

static int64_t col_time_ns(const struct tok *tk, const int8_t *col, enum col c)
{
	double us = col_num(tk, col, c);

	return us < 0 ? -1 : llround(us * 1000.0);
}

static int64_t col_wrong(const struct tok *tk, const int8_t *col, enum col c)
{
	int64_t v;

	if (col[c] < 0 || !tok_int(&tk[col[c]], &v))
		return -1;	/* N/A, or a float error magnitude */
	return v;
}

static void fill_row(struct nccl_tests *s, struct test *t, const struct tok *tk,
		     const int8_t *col, struct nccl_test_row *w)
{
	struct intern *strs = &s->ctx->trial->strings;
	bool known;
	int64_t root;

	w->op = t->op;
	w->nranks = test_ranks(t);
	tok_int(&tk[col[C_SIZE]], &w->bytes);
	tok_int(&tk[col[C_COUNT]], &w->count);
	w->dtype = (uint8_t)tok_dtype(&tk[col[C_TYPE]], &known);
	if (col[C_REDOP] >= 0)
		w->redop = intern(strs, tk[col[C_REDOP]].p, tk[col[C_REDOP]].n);
	if (col[C_ROOT] >= 0 && tok_int(&tk[col[C_ROOT]], &root))
		w->root = (int32_t)root;
	w->time_oop_ns = col_time_ns(tk, col, C_TIME);
	w->algbw_oop = col_num(tk, col, C_ALGBW);
	w->busbw_oop = col_num(tk, col, C_BUSBW);
	w->wrong_oop = col_wrong(tk, col, C_WRONG);
	w->time_ip_ns = col_time_ns(tk, col, C_TIME_IP);
	w->algbw_ip = col_num(tk, col, C_ALGBW_IP);
	w->busbw_ip = col_num(tk, col, C_BUSBW_IP);
	w->wrong_ip = col_wrong(tk, col, C_WRONG_IP);
	w->line = s->lineno;
	w->file = s->ctx->path;
}

/* Checks what a row must hold: integer size and count, a known type, a number in time. */
static bool row_ok(const struct tok *tk, const int8_t *col, bool in_table)
{
	int64_t v;
	double d;
	bool known;

	if (col[C_SIZE] < 0 || col[C_COUNT] < 0 || col[C_TYPE] < 0 || col[C_TIME] < 0)
		return false;
	if (!tok_int(&tk[col[C_SIZE]], &v) || v < 0 || !tok_int(&tk[col[C_COUNT]], &v) || v < 0)
		return false;
	tok_dtype(&tk[col[C_TYPE]], &known);
	if (!known || !tok_num(&tk[col[C_TIME]], &d))
		return false;
	return in_table || col[C_REDOP] < 0 || tok_redop(&tk[col[C_REDOP]]);
}

static void see_busbw(struct test *t, double bw)
{
	if (bw >= 0 && (isnan(t->max_busbw) || bw > t->max_busbw))
		t->max_busbw = bw;
}

/* A data row; false when the line is not one. */
static bool on_row(struct nccl_tests *s, const char *p, size_t n)
{
	struct tok tk[MAX_TOKENS];
	int k = tokenize(p, n, tk, MAX_TOKENS);
	struct test *t = cur(s);
	int8_t guessed[NCOL];
	const int8_t *col;
	bool in_table = t && !t->closed && (t->ncols || t->params);
	struct nccl_test_row *w;

	if (k < 7)
		return false;
	if (in_table && t->ncols == k)
		col = t->col;
	else if (guess_columns(tk, k, guessed))
		col = guessed;
	else
		return false;
	if (!row_ok(tk, col, in_table))
		return false;
	if (!t || t->closed)
		t = new_test(s);
	if (!t || ingest_keep_line(s->ctx, &s->cap, s->lineno) < 0)
		return true;
	w = run_add_nccl_test_row(s->ctx->run);
	fill_row(s, t, tk, col, w);
	if (!t->rows++)
		t->dtype = (enum dtype)w->dtype;
	see_busbw(t, w->busbw_oop);
	see_busbw(t, w->busbw_ip);
	if (w->bytes > t->max_bytes)
		t->max_bytes = w->bytes;
	return true;
}

/* An NCCL_VERSION_CODE as "X.Y.Z" (2.19.3 = 21903; before 2.9, 2.8.4 = 2804). */
static const char *nccl_code(struct nccl_tests *s, const char *p)
{
	long code = strtol(p, NULL, 10);
	char text[32];

	if (code < 10000)
		snprintf(text, sizeof(text), "%ld.%ld.%ld", code / 1000, code % 1000 / 100, code % 100);
	else
		snprintf(text, sizeof(text), "%ld.%ld.%ld", code / 10000, code % 10000 / 100, code % 100);
	return intern_str(&s->ctx->trial->strings, text);
}

/* The version line: nccl-tests' own version, the NCCL compiled against and the one loaded. */
static void on_tests_version(struct nccl_tests *s, const char *p, const PCRE2_SIZE *ov)
{
	struct trial *t = s->ctx->trial;
	struct srcpos pos = SRCPOS_LINE(s->ctx->path, s->lineno);
	if (!s->tests_version) {
		s->tests_version = intern(&t->strings, p + ov[2], ov[3] - ov[2]);
		fact_set_str(t, &s->ctx->run->nccl_tests_version, s->tests_version, &pos);
	}
	if (ov[4] != PCRE2_UNSET && !s->tests_commit)
		s->tests_commit = intern(&t->strings, p + ov[4], ov[5] - ov[4]);
	if (ov[6] != PCRE2_UNSET && !s->headers)
		s->headers = nccl_code(s, p + ov[6]);
	if (ov[8] != PCRE2_UNSET)
		s->version = nccl_code(s, p + ov[8]);
}

static void on_version(struct nccl_tests *s, const char *p, const PCRE2_SIZE *ov)
{
	if (!s->version)
		s->version = intern(&s->ctx->trial->strings, p + ov[2], ov[3] - ov[2]);
}

/* Classifies one line (launcher prefix removed); true when it was part of a test. */
static bool classify(struct nccl_tests *s, const char *p, size_t n)
{
	const PCRE2_SIZE *ov;

	if ((ov = match(s, P_HEADER, p, n))) {
		on_header(s, p, n);
	} else if ((ov = match(s, P_DEVICE, p, n))) {
		on_device(s, p, ov);
	} else if ((ov = match(s, P_PARAMS, p, n))) {
		on_params(s, p, ov);
	} else if ((ov = match(s, P_AVG, p, n))) {
		on_avg(s, p, ov);
	} else if ((ov = match(s, P_TESTS_VERSION, p, n))) {
		on_tests_version(s, p, ov);
	} else if ((ov = match(s, P_COMPILED, p, n))) {
		s->version = intern(&s->ctx->trial->strings, p + ov[2], ov[3] - ov[2]);
	} else {
		if ((ov = match(s, P_VERSION, p, n)))
			on_version(s, p, ov);
		if ((ov = match(s, P_OP, p, n)))
			on_op(s, intern(&s->ctx->trial->strings, p + ov[2], ov[3] - ov[2]));
		return false;	/* neither names a test by itself */
	}
	return true;
}

static int tests_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct nccl_tests *s = st;
	const PCRE2_SIZE *ov;
	size_t i = 0;

	s->lineno = lineno;
	if ((ov = match(s, P_PREFIX, line, len))) {
		line += ov[1];
		len -= ov[1];
	}
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i == len)
		return 0;
	if (line[i] >= '0' && line[i] <= '9' ? on_row(s, line, len) : classify(s, line, len)) {
		s->found = true;
		s->ctx->src->events++;
	}
	return s->cap.capped ? -1 : 0;
}

static void *tests_open(struct ingest_ctx *ctx)
{
	struct nccl_tests *s;

	if (compile_patterns() < 0)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->ctx = ctx;
	s->md = pcre2_match_data_create(8, NULL);
	if (!s->md) {
		free(s);
		return NULL;
	}
	return s;
}

static bool test_empty(const struct test *t)
{
	return !t->rows && !t->ndev && !t->params && !t->ncols && !t->closed;
}

static void describe_devices(struct nccl_tests *s, struct info *o)
{
	struct arena *a = s->ctx->arena;
	const struct test *most = NULL;
	struct info *arr;

	for (size_t i = 0; i < s->ntests; i++)
		if (!most || s->tests[i].ndev > most->ndev)
			most = &s->tests[i];
	info_int(a, o, "gpus", most ? (int64_t)most->ndev : 0);
	arr = info_arr(a, o, "devices");
	for (size_t i = 0; most && i < most->ndev; i++) {
		const struct device *d = &s->devices[most->dev0 + i];
		struct info *e = info_obj(a, arr, NULL);

		info_int(a, e, "rank", d->rank);
		info_str(a, e, "name", d->name);
		info_str(a, e, "host", d->host);
		info_int(a, e, "device", d->index);
	}
}

static void describe_test(struct arena *a, struct info *arr, const struct test *t)
{
	struct info *o = info_obj(a, arr, NULL);

	info_str(a, o, "op", t->op);
	if (test_ranks(t) >= 0)
		info_int(a, o, "gpus", test_ranks(t));
	else
		info_null(a, o, "gpus");
	if (t->params) {
		info_int(a, o, "nthread", t->nthread);
		info_int(a, o, "ngpus", t->ngpus);
	} else {
		info_null(a, o, "nthread");
		info_null(a, o, "ngpus");
	}
	info_str(a, o, "dtype", t->rows && t->dtype != DT_UNKNOWN ? dtype_name(t->dtype) : NULL);
	info_int(a, o, "rows", t->rows);
	info_num(a, o, "avg_busbw_gbps", t->avg_busbw);
	info_num(a, o, "max_busbw_gbps", t->max_busbw);
	if (t->max_bytes >= 0)
		info_int(a, o, "max_bytes", t->max_bytes);
	else
		info_null(a, o, "max_bytes");
}

/* Distinct ops in order, the row count and the best busbw of the whole file. */
static void describe_totals(struct nccl_tests *s, struct info *o, size_t ntests)
{
	struct arena *a = s->ctx->arena;
	struct info *ops = info_arr(a, o, "ops");
	int64_t rows = 0;
	double best = NAN;
	double avg = NAN;

	for (size_t i = 0; i < s->ntests; i++) {
		const struct test *t = &s->tests[i];
		bool seen = false;

		for (size_t j = 0; j < i && t->op; j++)
			seen = seen || s->tests[j].op == t->op;
		if (t->op && !seen)
			info_str(a, ops, NULL, t->op);
		rows += t->rows;
		if (!isnan(t->max_busbw) && (isnan(best) || t->max_busbw > best))
			best = t->max_busbw;
		if (!test_empty(t))
			avg = t->avg_busbw;
	}
	info_int(a, o, "rows", rows);
	info_num(a, o, "avg_busbw_gbps", ntests == 1 ? avg : NAN);
	info_num(a, o, "max_busbw_gbps", best);
}

static int tests_finish(void *st)
{
	struct nccl_tests *s = st;
	struct arena *a = s->ctx->arena;
	struct info *o, *results;
	size_t ntests = 0;

	if (!s->found)
		return 0;
	for (size_t i = 0; i < s->ntests; i++)
		ntests += !test_empty(&s->tests[i]);
	o = info_obj(a, s->ctx->info, "nccl_tests");
	describe_totals(s, o, ntests);
	describe_devices(s, o);
	info_str(a, o, "nccl_version", s->version);
	info_str(a, o, "nccl_tests_version", s->tests_version);
	info_str(a, o, "nccl_tests_commit", s->tests_commit);
	info_str(a, o, "nccl_headers", s->headers);
	results = info_arr(a, o, "results");
	for (size_t i = 0; i < s->ntests; i++)
		if (!test_empty(&s->tests[i]))
			describe_test(a, results, &s->tests[i]);
	return 0;
}

static bool tests_found(void *st)
{
	return ((struct nccl_tests *)st)->found;
}

static void tests_free(void *st)
{
	struct nccl_tests *s = st;

	pcre2_match_data_free(s->md);
	xgrow_free(&s->tests, &s->cap_tests, sizeof(*s->tests));
	xgrow_free(&s->devices, &s->cap_devices, sizeof(*s->devices));
	free(s);
}

const struct reader nccl_tests_reader = {
	.name = "nccl-tests",
	.input = READ_LINES,
	.open = tests_open,
	.line = tests_line,
	.finish = tests_finish,
	.found = tests_found,
	.free = tests_free,
};
