#include "ingest/manifest.h"

#include <errno.h>
#include <limits.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/count.h"
#include "core/ini_lines.h"
#include "core/manifest_keys.h"
#include "core/money.h"
#include "core/xalloc.h"

struct manifest {
	struct ingest_ctx *ctx;
	struct ini_lines src;	/* the file, and the line inih is handling */
	struct info *keys;	/* inspect: the keys as read */
	int64_t read;		/* keys used */
};

/* What a declared precision may be, in a message. */
#define PRECISIONS "one of fp32, tf32, bf16, fp16, fp8, fp8-e4m3, fp8-e5m2, fp4, int8, fp64 " \
	"(or an alias of one: bfloat16, torch.float16, bf16-mixed, amp-bf16, 16-mixed)"

/* The address a key's value goes to: the trial's field or the run's declared fact. */
static void *target(struct manifest *m, const struct manifest_key *k)
{
	if (!strcmp(k->section, "trial"))
		return (char *)m->ctx->trial + k->offset;
	return (char *)&m->ctx->run->declared + k->offset;
}

static int bad(struct manifest *m, const char *section, const char *name, const char *value,
	       const char *want)
{
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, m->src.line);

	return diag_error(m->ctx->diags, "manifest-value", &pos,
			  "[%s] %s = '%s': expected %s", section, name, value, want);
}

/*
 * The whole numbers a run's sizes take: the largest large enough for any real run,
 * small enough that the analysis's products (global_batch x gpus) cannot
 * overflow. Keys not listed (target_tokens, seed) take any int64.
 */
static const struct {
	const char *name;
	long long min, max;
} int_range[] = {
	{ "gpus", 0, MODEL_MAX_WORLD },
	{ "global_batch", 0, 1000000000000LL },
	{ "micro_batch", 0, 1000000000000LL },
	{ "grad_accum", 0, 1000000000000LL },
	{ "seq_len", 0, 1000000000000LL },
	{ "steps", 0, 1000000000000LL },
	{ "lot_gpus", 1, MODEL_MAX_WORLD },	/* a lot of no GPU rents nothing */
	{ "variants", 1, 1000000 },
};

static long long int_limit(const char *name, long long *min)
{
	*min = 0;
	for (size_t i = 0; i < sizeof(int_range) / sizeof(*int_range); i++)
		if (!strcmp(int_range[i].name, name)) {
			*min = int_range[i].min;
			return int_range[i].max;
		}
	return LLONG_MAX;
}

static int set_int(struct manifest *m, const struct manifest_key *k, const char *value,
		   struct srcpos *pos)
{
	long long min, max = int_limit(k->name, &min);
	int64_t v;
	char want[64];

	/* the count syntax plan takes: 1e9, 10M, 2k */
	if (!count_parse_whole(value, min, max, &v)) {
		if (max == LLONG_MAX)
			snprintf(want, sizeof(want), "a whole number");
		else
			snprintf(want, sizeof(want), "a whole number from %lld to %lld", min, max);
		return bad(m, k->section, k->name, value, want);
	}
	pos->file = intern_str(&m->ctx->trial->strings, pos->file);
	fact_set_i64(target(m, k), v, pos);
	return 0;
}

/*
 * The numbers' ranges: wide enough for any real trial in any currency, small
 * enough that costs, reserves and times stay finite when multiplied out (a
 * price of 1e308 printed "cost inf"). The same bounds as plan's options.
 */
static const struct {
	const char *name;
	double max;
} num_range[] = {
	{ "gpu_hour_price", 1e9 },
	{ "memory_reserve_gb", 1e6 },
	{ "expected_speedup", 1e6 },
	{ "margin", 100 },
	{ "mtbf_hours", 1e9 },
	{ "checkpoint_write_s", 1e9 },
	{ "predicted_peak_gb", 1e6 },
	{ "predicted_step_s", 1e9 },
};

static double num_limit(const char *name)
{
	for (size_t i = 0; i < sizeof(num_range) / sizeof(*num_range); i++)
		if (!strcmp(num_range[i].name, name))
			return num_range[i].max;
	return 1e15;
}

static int set_num(struct manifest *m, const struct manifest_key *k, const char *value,
		   struct srcpos *pos)
{
	char *end;
	double v = strtod(value, &end), max = num_limit(k->name);
	char want[96], most[MONEY_LEN];

	count_text(most, max);
	snprintf(want, sizeof(want), k->kind == MKEY_RATIO ? "a number above 0, at most %s" :
			 "a number from 0 to %s", most);
	if (end == value || *end || !isfinite(v) || v < 0 || v > max || (v == 0 && k->kind == MKEY_RATIO))
		return bad(m, k->section, k->name, value, want);	/* a ratio of 0 confirms anything */
	pos->file = intern_str(&m->ctx->trial->strings, pos->file);
	fact_set_f64(target(m, k), v, pos);
	return 0;
}

static int set_value(struct manifest *m, const struct manifest_key *k, const char *value)
{
	struct trial *t = m->ctx->trial;
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, m->src.line);

	switch (k->kind) {
	case MKEY_NAME:
		m->ctx->run->name = intern_str(&t->strings, value);
		return 0;
	case MKEY_STRATEGY:
		if (!manifest_strategy_valid(value))
			return bad(m, k->section, k->name, value, k->allowed);
		/* fall through */
	case MKEY_STR:
		fact_set_str(t, target(m, k), value, &pos);
		return 0;
	case MKEY_CURRENCY:
		if (!manifest_currency_valid(value))
			return bad(m, k->section, k->name, value, k->allowed);
		fact_set_str(t, target(m, k), value, &pos);
		return 0;
	case MKEY_PRECISION:
		fact_set_str(t, target(m, k), value, &pos);
		if (precision_parse(value, strlen(value)) == DT_UNKNOWN)
			return bad(m, k->section, k->name, value, PRECISIONS);	/* kept: the analysis says it is unknown */
		return 0;
	case MKEY_INT:
		return set_int(m, k, value, &pos);
	case MKEY_NUM:
	case MKEY_RATIO:
		return set_num(m, k, value, &pos);
	case MKEY_HYP:
		t->hypothesis = hypothesis_from_name(value);
		if (t->hypothesis == HYP_UNSET)
			return bad(m, k->section, k->name, value, k->allowed);
		t->hypothesis_src = pos;
		t->hypothesis_src.file = intern_str(&t->strings, pos.file);
		return 0;
	case MKEY_QUESTION:
		t->question = question_from_name(value);
		if (t->question == Q_UNSET)
			return bad(m, k->section, k->name, value, k->allowed);
		return 0;
	}
	return 0;
}

/* True when the fact's value came from an earlier line of this manifest. */
static bool ours(const struct manifest *m, const struct srcpos *src)
{
	return src->file && !strcmp(src->file, m->ctx->path) && src->line < m->src.line;
}

/*
 * A key given twice: the later line's value is used (as most INI readers do), so the value
 * read before is forgotten, in the facts and in what inspect shows. A fact is unset only when
 * this manifest set it: a value from elsewhere is not the manifest's to drop.
 */
static void forget(struct manifest *m, const struct manifest_key *k, int64_t first)
{
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, m->src.line);
	void *f = k->kind == MKEY_NAME || k->kind == MKEY_HYP || k->kind == MKEY_QUESTION ? NULL :
		  target(m, k);

	diag_warn(m->ctx->diags, "manifest-key", &pos,
		  "'%s' repeated in [%s] (first at line %lld): the value of line %lld is used",
		  k->name, k->section, (long long)first, (long long)m->src.line);
	if (!f)
		return;		/* these take the later value as they are set */
	if (k->kind == MKEY_INT && ours(m, &((struct fact_i64 *)f)->src))
		((struct fact_i64 *)f)->set = false;
	else if ((k->kind == MKEY_NUM || k->kind == MKEY_RATIO) && ours(m, &((struct fact_f64 *)f)->src))
		((struct fact_f64 *)f)->set = false;
	else if (k->kind != MKEY_INT && k->kind != MKEY_NUM && k->kind != MKEY_RATIO &&
		 ours(m, &((struct fact_str *)f)->src))
		((struct fact_str *)f)->v = NULL;
}

/* The key's value as inspect shows it: a repeated key shows the value used, once. */
static void show(struct manifest *m, const char *name, const char *value)
{
	struct info *old = info_get(m->keys, name);

	if (old && old->type == INFO_STR)
		old->v.s = arena_strdup(m->ctx->arena, value);
	else
		info_str(m->ctx->arena, m->keys, name, value);
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct manifest *m = user;
	const struct manifest_key *k = manifest_key_find(section, name);
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, m->src.line);
	int64_t first;

	if (!k) {
		diag_warn(m->ctx->diags, "manifest-key", &pos,
			  "unknown key '%s' in [%s]: ignored", name, section);
		return 1;
	}
	show(m, name, value);
	if (!strcmp(section, "run") && m->ctx->loose) {
		diag_warn(m->ctx->diags, "manifest-place", &pos,
			  "[run] keys belong in a run's directory, not at the top of the trial: ignored");
		return 1;
	}
	first = ini_lines_repeat(&m->src, section, name);
	if (first)
		forget(m, k, first);
	if (set_value(m, k, value) == 0 && !first)
		m->read++;
	return 1;	/* keep going: every bad value gets its own message */
}

/* A line longer than inih's buffer is reported; ini_lines hands it on empty. */
static void line_too_long(struct ini_lines *src, int max)
{
	struct manifest *m = src->user;

	diag_error(m->ctx->diags, "manifest-syntax", &SRCPOS_LINE(m->ctx->path, src->line),
		   "line longer than %d characters: not read", max);
}

/* A control byte would reach inih as a cut or garbled line: the line is reported, not read. */
static void line_control(struct ini_lines *src, int64_t col, unsigned byte)
{
	struct manifest *m = src->user;
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, src->line);

	pos.col = col;
	diag_error(m->ctx->diags, "manifest-syntax", &pos,
		   "control byte 0x%02x in the line: not read (the rest of the file is)", byte);
}

static void *manifest_open(struct ingest_ctx *ctx)
{
	struct manifest *m = xcalloc(1, sizeof(*m));

	m->ctx = ctx;
	return m;
}

static int manifest_path(void *st, const char *path)
{
	struct manifest *m = st;
	struct srcpos pos = SRCPOS_FILE(m->ctx->path);	/* path may be a copy: name the input */
	int rc;

	m->src = (struct ini_lines){ .f = fopen(path, "r"), .too_long = line_too_long,
				     .control = line_control, .user = m };
	if (!m->src.f)
		return diag_error(m->ctx->diags, "unreadable", &pos, "%s", strerror(errno));
	m->keys = info_obj(m->ctx->arena, m->ctx->info, "manifest");
	rc = ini_parse_stream(ini_lines_next, &m->src, handler, m);
	fclose(m->src.f);
	m->src.f = NULL;
	ini_lines_release(&m->src);
	if (rc > 0) {
		pos = SRCPOS_LINE(m->ctx->path, rc);
		return diag_error(m->ctx->diags, "manifest-syntax", &pos,
				  "not an INI line (expected [section] or key = value)");
	}
	m->ctx->src->events = m->read;
	return 0;
}

static int manifest_finish(void *st)
{
	return 0;
}

static void manifest_free(void *st)
{
	free(st);
}

const struct reader trial_ini_reader = {
	.name = "trial-ini", .input = READ_PATH, .open = manifest_open,
	.path = manifest_path, .finish = manifest_finish, .free = manifest_free,
};

const struct reader run_ini_reader = {
	.name = "run-ini", .input = READ_PATH, .open = manifest_open,
	.path = manifest_path, .finish = manifest_finish, .free = manifest_free,
};
