#include "ingest/memtimeline.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "ingest/jsonfeed.h"

#define RAW_FIELDS 4		/* time, action, bytes, category */
#define ROW_FIELDS (MEMCAT_COUNT + 1)	/* a leading 0, then one per category */
#define MAX_NUMS ROW_FIELDS

/*
 * Forms, decided by the outer list's second element: a number in it makes
 * the file raw, a list in it makes it coalesced. The first element is held
 * until then (a raw record, or the coalesced form's times).
 */
enum form { FORM_UNDECIDED, FORM_RAW, FORM_COALESCED };

struct mt {
	struct ingest_ctx *ctx;
	struct jsonfeed jf;
	int depth;		/* open containers */
	int64_t elem;		/* index of the outer list's element being read */
	enum form form;
	int64_t nums[MAX_NUMS];	/* the record or row being read */
	int nnums;		/* numbers in it, counted past MAX_NUMS */
	bool bad;		/* it holds something other than integers */
	int64_t start;		/* its first byte */
	int64_t held[RAW_FIELDS];	/* the first element, while the form is undecided */
	int nheld;		/* -1: none held */
	bool held_bad;
	int64_t held_start;
	int64_t cur[MEMCAT_COUNT];	/* bytes of each category now */
	int64_t t_prev;		/* the instant being added up (raw) */
	bool open;		/* an instant is being added up (raw) */
	int64_t records, errors;
	struct mem_timeline m;	/* the result, given to the run at finish */
};
/*
 * Bounded by construction: a file of any size keeps one struct mt (the
 * running totals and peaks per category), never a record per line, so it
 * counts nothing against --max-events or --max-memory.
 */

/* ---- the device a file name gives ---- */

static const char *const device_words[] = { "cuda", "gpu", "rank", "device" };

/* The number after `word` at p ("cuda:1", "rank_1", "gpu1"), or -1. */
static int32_t number_after(const char *p, const char *word)
{
	size_t n = strlen(word);
	long v;

	if (strncasecmp(p, word, n))
		return -1;
	p += n;
	if (*p && strchr(":_-.", *p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	v = strtol(p, NULL, 10);
	return v >= 0 && v < 65536 ? (int32_t)v : -1;
}

int32_t memtimeline_device(const char *path)
{
	const char *base = strrchr(path, '/');
	int32_t dev = 0;

	for (const char *p = base ? base + 1 : path; *p; p++) {
		for (size_t w = 0; w < sizeof(device_words) / sizeof(device_words[0]); w++) {
			int32_t v = number_after(p, device_words[w]);

			if (v >= 0)
				dev = v;	/* the last one named wins */
		}
	}
	return dev;
}

/* ---- instants ---- */

/* Measures the memory now: the peak of all together, and of each category. */
static void measure(struct mt *k)
{
	struct mem_timeline *m = &k->m;
	int64_t total = 0;

	m->samples++;
	for (int c = 0; c < MEMCAT_COUNT; c++) {
		total += k->cur[c];
		if (k->cur[c] > m->cat_peak[c])
			m->cat_peak[c] = k->cur[c];
	}
	if (total > m->peak) {
		m->peak = total;
		memcpy(m->at_peak, k->cur, sizeof(m->at_peak));
	}
}

static void bad_record(struct mt *k, int64_t at, const char *what)
{
	struct srcpos pos = SRCPOS_BYTE(k->ctx->path, at);

	k->errors++;
	diag_warn(k->ctx->diags, "bad-memory-record", &pos, "%s %lld is not %s: skipped",
		  k->form == FORM_COALESCED ? "row" : "record", (long long)k->records + k->errors,
		  what);
}

/* A raw record: added to the instant it belongs to; a new instant measures the last. */
static void raw_record(struct mt *k, const int64_t *v, int n, bool bad, int64_t at)
{
	if (bad || n != RAW_FIELDS || v[1] < 1 || v[1] > 4 || v[3] < 0 || v[3] >= MEMCAT_COUNT) {
		bad_record(k, at, "[time, action 1-4, bytes, category 0-7]");
		return;
	}
	k->records++;
	if (k->open && v[0] != k->t_prev)
		measure(k);
	k->open = true;
	k->t_prev = v[0];
	k->cur[v[3]] += v[2];
}

/* A coalesced row: the bytes of every category after one instant. */
static void coalesced_row(struct mt *k)
{
	if (k->bad || k->nnums != ROW_FIELDS) {
		bad_record(k, k->start, "a list of 9 byte counts");
		return;
	}
	k->records++;
	memcpy(k->cur, k->nums + 1, sizeof(k->cur));
	measure(k);
}

static void decide(struct mt *k, enum form f)
{
	k->form = f;
	if (f == FORM_RAW && k->nheld >= 0)
		raw_record(k, k->held, k->nheld, k->held_bad, k->held_start);
	k->nheld = -1;
}

/* ---- yajl callbacks ---- */

static int64_t here(const struct mt *k)
{
	return jsonfeed_here(&k->jf);
}

static void mark(struct mt *k)
{
	jsonfeed_mark(&k->jf);
}

/* A value that is no integer inside a record or row spoils it; elsewhere it is ignored. */
static void spoil(struct mt *k)
{
	if (k->depth >= 2)
		k->bad = true;
}

static int cb_number(void *ctx, const char *s, size_t n)
{
	struct mt *k = ctx;
	char text[32], *end;
	long long v;

	mark(k);
	if (k->form == FORM_UNDECIDED && k->elem == 1 && k->depth == 2)
		decide(k, FORM_RAW);
	if (k->depth < 2 || (k->form == FORM_COALESCED && k->depth == 2))
		return 1;	/* the coalesced form's times are not needed */
	if (k->nnums < MAX_NUMS && n < sizeof(text)) {
		memcpy(text, s, n);
		text[n] = '\0';
		errno = 0;
		v = strtoll(text, &end, 10);
		k->bad |= *end || errno;
		k->nums[k->nnums] = v;
	}
	k->nnums++;
	return 1;
}

static int cb_other(void *ctx)
{
	mark(ctx);
	spoil(ctx);
	return 1;
}

static int cb_bool(void *ctx, int b)
{
	(void)b;
	return cb_other(ctx);
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	(void)s;
	(void)n;
	return cb_other(ctx);
}

static int cb_key(void *ctx, const unsigned char *s, size_t n)
{
	(void)s;
	(void)n;
	mark(ctx);
	return 1;
}

static void begin_record(struct mt *k)
{
	k->nnums = 0;
	k->bad = false;
	k->start = here(k) - 1;
}

static int cb_start_array(void *ctx)
{
	struct mt *k = ctx;

	mark(k);
	k->depth++;
	if (k->depth == 3 && k->form == FORM_UNDECIDED && k->elem == 1)
		decide(k, FORM_COALESCED);
	if (k->depth == 2 || (k->depth == 3 && k->form == FORM_COALESCED))
		begin_record(k);
	else if (k->depth >= 3)
		k->bad = true;	/* a list inside a record or row */
	return 1;
}

static int cb_start_map(void *ctx)
{
	struct mt *k = ctx;

	mark(k);
	spoil(k);
	k->depth++;
	if (k->depth == 2)
		begin_record(k);
	k->bad |= k->depth == 2;
	return 1;
}

/* The outer list's element ends: a record, or the first element held for later. */
static void element_done(struct mt *k)
{
	if (k->form == FORM_RAW) {
		raw_record(k, k->nums, k->nnums, k->bad, k->start);
	} else if (k->form == FORM_UNDECIDED && k->elem == 0) {
		memcpy(k->held, k->nums, sizeof(k->held));
		k->nheld = k->nnums;
		k->held_bad = k->bad;
		k->held_start = k->start;
	} else if (k->form == FORM_UNDECIDED && !k->nnums && !k->bad) {
		decide(k, FORM_COALESCED);	/* [[], []]: no instant at all */
	} else if (k->form == FORM_UNDECIDED) {
		decide(k, FORM_RAW);	/* a spoilt second element */
		raw_record(k, k->nums, k->nnums, k->bad, k->start);
	}
	k->elem++;
}

static int cb_end(void *ctx)
{
	struct mt *k = ctx;

	mark(k);
	if (k->depth == 3 && k->form == FORM_COALESCED)
		coalesced_row(k);
	else if (k->depth == 2)
		element_done(k);
	k->depth--;
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_other,
	.yajl_boolean = cb_bool,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_key,
	.yajl_end_map = cb_end,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end,
};

/* ---- the reader ---- */

static void *mt_open(struct ingest_ctx *ctx)
{
	struct mt *k = xcalloc(1, sizeof(*k));

	k->ctx = ctx;
	if (jsonfeed_init(&k->jf, &callbacks, k) < 0) {
		free(k);
		return NULL;
	}
	k->nheld = -1;
	k->m.peak = -1;
	for (int c = 0; c < MEMCAT_COUNT; c++)
		k->m.at_peak[c] = k->m.cat_peak[c] = -1;
	return k;
}

/* The JSON broke: an error at its byte; what was read before is kept. */
static int json_error(struct mt *k)
{
	char *msg = jsonfeed_message(&k->jf);
	struct srcpos pos = SRCPOS_BYTE(k->ctx->path, k->jf.error_byte);

	k->ctx->src->errors++;
	if (k->jf.at_end)
		diag_error(k->ctx->diags, "truncated", &pos,
			   "the memory timeline ends inside its JSON (%s): the %lld records "
			   "before are kept", msg, (long long)k->records);
	else
		diag_error(k->ctx->diags, "invalid-json", &pos, "invalid JSON: %s", msg);
	free(msg);
	return -1;
}

static int mt_feed(void *st, const char *buf, size_t len)
{
	struct mt *k = st;

	if (k->jf.failed)
		return -1;
	return jsonfeed_feed(&k->jf, buf, len) < 0 ? json_error(k) : 0;
}

static void describe_categories(struct ingest_ctx *c, const char *key, const int64_t *v)
{
	struct info *o = info_obj(c->arena, c->info, key);

	for (int i = 0; i < MEMCAT_COUNT; i++)
		if (v[i] >= 0)
			info_int(c->arena, o, mem_category_name((enum mem_category)i), v[i]);
		else
			info_null(c->arena, o, mem_category_name((enum mem_category)i));
}

static void describe(struct mt *k)
{
	static const char *const forms[] = { "empty", "raw", "coalesced" };
	struct ingest_ctx *c = k->ctx;

	info_str(c->arena, c->info, "form", forms[k->form]);
	info_int(c->arena, c->info, "device", k->m.device);
	info_int(c->arena, c->info, "records", k->records);
	info_int(c->arena, c->info, "instants", k->m.samples);
	if (k->m.peak >= 0)
		info_int(c->arena, c->info, "peak_bytes", k->m.peak);
	else
		info_null(c->arena, c->info, "peak_bytes");
	describe_categories(c, "at_peak_bytes", k->m.at_peak);
	describe_categories(c, "category_peak_bytes", k->m.cat_peak);
}

static int mt_finish(void *st)
{
	struct mt *k = st;
	int ret = 0;

	if (!k->jf.failed && jsonfeed_end(&k->jf) < 0)
		ret = json_error(k);
	if (k->form == FORM_UNDECIDED && k->nheld >= 0 && !k->jf.failed)
		decide(k, FORM_RAW);	/* a list of one record */
	if (k->open)
		measure(k);
	k->m.path = k->ctx->path;
	k->m.device = memtimeline_device(k->ctx->path);
	*run_add_mem_timeline(k->ctx->run) = k->m;
	k->ctx->src->events += k->records;
	k->ctx->src->errors += k->errors;
	describe(k);
	return ret;
}

static bool mt_found(void *st)
{
	(void)st;
	return true;
}

static void mt_free(void *st)
{
	struct mt *k = st;

	jsonfeed_release(&k->jf);
	free(k);
}

const struct reader memtimeline_reader = {
	.name = "memory-timeline",
	.input = READ_BYTES,
	.open = mt_open,
	.feed = mt_feed,
	.finish = mt_finish,
	.found = mt_found,
	.free = mt_free,
};
