#include "ingest/manifest.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct manifest {
	struct ingest_ctx *ctx;
	FILE *f;
	int64_t line;		/* the line inih is handling */
	struct info *keys;	/* inspect: the keys as read */
	int64_t read;		/* keys used */
};

enum kind { K_STR, K_INT, K_NUM, K_HYP, K_QUESTION };

/* Where a key's value goes: a trial field or a run's declared fact. */
struct key {
	const char *section;
	const char *name;
	enum kind kind;
	size_t offset;		/* into struct trial or struct run_facts */
};

#define T(f) offsetof(struct trial, f)
#define R(f) offsetof(struct run_facts, f)

static const struct key keys[] = {
	{ "trial", "title", K_STR, T(title) },
	{ "trial", "hypothesis", K_HYP, 0 },
	{ "trial", "baseline", K_STR, T(baseline) },
	{ "trial", "question", K_QUESTION, 0 },
	{ "trial", "target_samples", K_INT, T(target_samples) },
	{ "trial", "target_tokens", K_INT, T(target_tokens) },
	{ "trial", "gpu_hour_price", K_NUM, T(gpu_hour_price) },
	{ "trial", "memory_reserve_gb", K_NUM, T(memory_reserve_gb) },
	{ "trial", "expected_speedup", K_NUM, T(expected_speedup) },
	{ "run", "name", K_STR, (size_t)-1 },
	{ "run", "gpus", K_INT, R(gpus) },
	{ "run", "strategy", K_STR, R(strategy) },
	{ "run", "precision", K_STR, R(precision) },
	{ "run", "global_batch", K_INT, R(global_batch) },
	{ "run", "micro_batch", K_INT, R(micro_batch) },
	{ "run", "grad_accum", K_INT, R(grad_accum) },
	{ "run", "seq_len", K_INT, R(seq_len) },
	{ "run", "dataset", K_STR, R(dataset) },
	{ "run", "model", K_STR, R(model) },
	{ "run", "steps", K_INT, R(steps) },
};

/* What a declared precision may be (core/model.h precision_parse()). */
#define PRECISIONS "one of fp32, tf32, bf16, fp16, fp8, fp8-e4m3, fp8-e5m2, fp4, int8, fp64 " \
	"(or an alias of one: bfloat16, torch.float16, bf16-mixed, amp-bf16, 16-mixed)"

static const char *const strategies[] = {
	"single", "ddp", "fsdp", "zero", "tensor", "pipeline", "device_map", NULL
};

static const struct key *find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static bool one_of(const char *v, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], v))
			return true;
	return false;
}

/* The address a key's value goes to: the trial's field or the run's declared fact. */
static void *target(struct manifest *m, const struct key *k)
{
	if (!strcmp(k->section, "trial"))
		return (char *)m->ctx->trial + k->offset;
	return (char *)&m->ctx->run->declared + k->offset;
}

static int bad(struct manifest *m, const char *section, const char *name, const char *value,
	       const char *want)
{
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, m->line);

	return diag_error(m->ctx->diags, "manifest-value", &pos,
			  "[%s] %s = '%s': expected %s", section, name, value, want);
}

static int set_value(struct manifest *m, const struct key *k, const char *value)
{
	struct trial *t = m->ctx->trial;
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, m->line);
	char *end;

	switch (k->kind) {
	case K_STR:
		if (k->offset == (size_t)-1) {
			m->ctx->run->name = intern_str(&t->strings, value);
			return 0;
		}
		if (!strcmp(k->name, "strategy") && !one_of(value, strategies))
			return bad(m, k->section, k->name, value,
				   "single, ddp, fsdp, zero, tensor, pipeline or device_map");
		fact_set_str(t, target(m, k), value, &pos);
		if (!strcmp(k->name, "precision") && precision_parse(value, strlen(value)) == DT_UNKNOWN)
			return bad(m, k->section, k->name, value, PRECISIONS);	/* kept: the analysis says it is unknown */
		return 0;
	case K_INT: {
		long long v;

		errno = 0;
		v = strtoll(value, &end, 10);
		if (errno || end == value || *end || v < 0)
			return bad(m, k->section, k->name, value, "a whole number");
		pos.file = intern_str(&t->strings, pos.file);
		fact_set_i64(target(m, k), v, &pos);
		return 0;
	}
	case K_NUM: {
		double v = strtod(value, &end);

		if (end == value || *end || !isfinite(v) || v < 0)
			return bad(m, k->section, k->name, value, "a number");
		if (v == 0 && !strcmp(k->name, "expected_speedup"))	/* a ratio: 0 confirms anything */
			return bad(m, k->section, k->name, value, "a number above 0");
		pos.file = intern_str(&t->strings, pos.file);
		fact_set_f64(target(m, k), v, &pos);
		return 0;
	}
	case K_HYP:
		t->hypothesis = hypothesis_from_name(value);
		if (t->hypothesis == HYP_UNSET)
			return bad(m, k->section, k->name, value,
				   "step-time, global-batch or feasibility");
		t->hypothesis_src = pos;
		t->hypothesis_src.file = intern_str(&t->strings, pos.file);
		return 0;
	case K_QUESTION:
		t->question = question_from_name(value);
		if (t->question == Q_UNSET)
			return bad(m, k->section, k->name, value, "single-config or hparam-sweep");
		return 0;
	}
	return 0;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct manifest *m = user;
	const struct key *k = find_key(section, name);
	struct srcpos pos = SRCPOS_LINE(m->ctx->path, m->line);

	if (!k) {
		diag_warn(m->ctx->diags, "manifest-key", &pos,
			  "unknown key '%s' in [%s]: ignored", name, section);
		return 1;
	}
	info_str(m->ctx->arena, m->keys, name, value);
	if (!strcmp(section, "run") && m->ctx->loose) {
		diag_warn(m->ctx->diags, "manifest-place", &pos,
			  "[run] keys belong in a run's directory, not at the top of the trial: ignored");
		return 1;
	}
	if (set_value(m, k, value) == 0)
		m->read++;
	return 1;	/* keep going: every bad value gets its own message */
}

/* inih's line source: counts lines so that messages can name them. */
static char *next_line(char *str, int num, void *stream)
{
	struct manifest *m = stream;
	char *s = fgets(str, num, m->f);

	if (s)
		m->line++;
	return s;
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

	m->f = fopen(path, "r");
	if (!m->f)
		return diag_error(m->ctx->diags, "unreadable", &pos, "%s", strerror(errno));
	m->keys = info_obj(m->ctx->arena, m->ctx->info, "manifest");
	rc = ini_parse_stream(next_line, m, handler, m);
	fclose(m->f);
	m->f = NULL;
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
