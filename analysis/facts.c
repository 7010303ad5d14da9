#include "analysis/facts.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/strategy.h"

/* Each fact: its name, whether it is a name rather than a count, where it is in struct run_facts. */
static const struct {
	const char *name;
	bool text;
	size_t off;
} keys[FACT_COUNT] = {
	[FACT_GPUS] = { "gpus", false, offsetof(struct run_facts, gpus) },
	[FACT_PRECISION] = { "precision", true, offsetof(struct run_facts, precision) },
	[FACT_GLOBAL_BATCH] = { "global_batch", false, offsetof(struct run_facts, global_batch) },
	[FACT_MICRO_BATCH] = { "micro_batch", false, offsetof(struct run_facts, micro_batch) },
	[FACT_GRAD_ACCUM] = { "grad_accum", false, offsetof(struct run_facts, grad_accum) },
	[FACT_SEQ_LEN] = { "seq_len", false, offsetof(struct run_facts, seq_len) },
	[FACT_STEPS] = { "steps", false, offsetof(struct run_facts, steps) },
	[FACT_MODEL] = { "model", true, offsetof(struct run_facts, model) },
	[FACT_DATASET] = { "dataset", true, offsetof(struct run_facts, dataset) },
};

const char *fact_key_name(enum fact_key k)
{
	return (unsigned)k < FACT_COUNT ? keys[k].name : NULL;
}

bool fact_key_is_text(enum fact_key k)
{
	return (unsigned)k < FACT_COUNT && keys[k].text;
}

const char *fact_from_name(enum fact_from f)
{
	static const char *const names[] = {
		[FACT_FROM_NONE] = NULL, [FACT_FROM_TRACE] = "trace", [FACT_FROM_LOG] = "log",
		[FACT_FROM_MANIFEST] = "manifest", [FACT_FROM_DERIVED] = "derived",
	};

	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : NULL;
}

static const struct fact_i64 *count_of(const struct run_facts *f, enum fact_key k)
{
	return (const struct fact_i64 *)((const char *)f + keys[k].off);
}

static const struct fact_str *name_of(const struct run_facts *f, enum fact_key k)
{
	return (const struct fact_str *)((const char *)f + keys[k].off);
}

int64_t fact_used(const struct fact_i64 *logged, const struct fact_i64 *declared)
{
	return logged->set ? logged->v : declared->set ? declared->v : -1;
}

/* ---- data-parallel GPUs ------------------------------------------------ */

/* How each strategy splits the global batch: over all its GPUs, or not at all. */
static const struct {
	const char *strategy;
	bool over_all;
} splits[] = {
	{ "single", true }, { "ddp", true }, { "fsdp", true }, { "zero", true }, { "alltoall", true },
	{ "pipeline", false }, { "tensor", false }, { "device_map", false },
};

/* A part of a strategy that splits the batch over all GPUs (ctx NULL), or over none (non-NULL). */
static bool part_splits(const char *part, size_t len, const void *over_none)
{
	for (size_t i = 0; i < sizeof(splits) / sizeof(splits[0]); i++)
		if (strlen(splits[i].strategy) == len && !strncmp(part, splits[i].strategy, len))
			return splits[i].over_all != (over_none != NULL);
	return false;
}

static bool part_other(const char *part, size_t len, const void *over_none)
{
	return !part_splits(part, len, over_none);
}

/*
 * 1: every part of the strategy splits the batch over all GPUs; 0: none
 * does; -1: a mix of the two (tensor+ddp: the data-parallel size is the
 * GPUs over the model-parallel ones, which the collectives do not say) or
 * a part not known.
 */
static int over_all(const char *strategy)
{
	static const char none = 0;

	if (!strategy_any(strategy, part_other, NULL))
		return 1;
	if (!strategy_any(strategy, part_other, &none))
		return 0;
	return -1;
}

static const char *where(struct analysis *a, const struct srcpos *p, const char *dir);

/* fact_dp_gpus, and in *why (when a is given) how it was decided. */
static int64_t dp_of(struct analysis *a, const struct run *r, int64_t gpus, const char *strategy,
		     const char **why)
{
	const struct run_facts *l = &r->logged;
	int64_t split = (l->tp_size.set ? l->tp_size.v : 1) * (l->pp_size.set ? l->pp_size.v : 1);
	int all = strategy && *strategy ? over_all(strategy) : -1;	/* -1: unknown, or a mix */

	if (l->dp_size.set) {
		if (a)
			*why = analysis_printf(a, "data-parallel size at %s", where(a, &l->dp_size.src, r->dir));
		return l->dp_size.v;
	}
	if (gpus > 0 && (l->tp_size.set || l->pp_size.set) && gpus % split == 0) {
		if (a)
			*why = analysis_printf(a, "%lld GPUs over tensor x pipeline parallel = %lld",
					       (long long)gpus, (long long)split);
		return gpus / split;
	}
	if (gpus > 0 && all >= 0) {
		if (a)
			*why = analysis_printf(a, "%s%lld GPU%s, %s", all ? "" : "1 of ",
					       (long long)gpus, gpus == 1 ? "" : "s", strategy);
		return all ? gpus : 1;
	}
	if (gpus == 1 && a)
		*why = analysis_printf(a, "1 GPU");
	return gpus == 1 ? 1 : -1;
}

int64_t fact_dp_gpus(const struct run *r, int64_t gpus, const char *strategy)
{
	return dp_of(NULL, r, gpus, strategy, NULL);
}

/* ---- names ------------------------------------------------------------- */

/* The letters and digits of s after its last '/' (before a trailing one), lowercased. */
static size_t name_core(const char *s, char *out, size_t max)
{
	size_t end = strlen(s), begin, n = 0;

	while (end && s[end - 1] == '/')
		end--;
	begin = end;
	while (begin && s[begin - 1] != '/')
		begin--;
	for (size_t i = begin; i < end && n + 1 < max; i++)
		if (isalnum((unsigned char)s[i]))
			out[n++] = (char)tolower((unsigned char)s[i]);
	out[n] = '\0';
	return n;
}

bool fact_names_agree(const char *a, const char *b)
{
	char x[256], y[256];

	if (!a || !b || !name_core(a, x, sizeof(x)) || !name_core(b, y, sizeof(y)))
		return true;
	return strstr(x, y) || strstr(y, x);
}

/* ---- where a fact was read --------------------------------------------- */

/* path from dir: what follows dir and its '/'; path itself when it is not under dir. */
static const char *below(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (!n || strncmp(path, dir, n) || path[n] != '/')
		return path;
	path += n;
	while (*path == '/')
		path++;
	return path;
}

/* "1gpu/train.log:5" from the trial's directory, or "train.log:5" from the run's; NULL. */
static const char *where(struct analysis *a, const struct srcpos *p, const char *dir)
{
	if (!p->file)
		return NULL;
	if (p->line > 0)
		return analysis_printf(a, "%s:%lld", below(p->file, dir), (long long)p->line);
	return analysis_printf(a, "%s", below(p->file, dir));
}

/* The first rank trace of the run (the one whose world size counts, when one does). */
static const char *first_trace(const struct run *r)
{
	int32_t world = run_world_size(r);

	for (size_t i = 0; i < r->nranks; i++)
		if (r->ranks[i].trace && (world <= 0 || r->ranks[i].world_size == world))
			return r->ranks[i].trace;
	return NULL;
}

static const char *trace_at(struct analysis *a, const struct trial *t, const struct run *r)
{
	struct srcpos p = SRCPOS_FILE(first_trace(r));

	return where(a, &p, t->dir);
}

/* ---- the value used of each fact --------------------------------------- */

static void set_from(struct analysis *a, const struct trial *t, struct run_fact *f,
		     enum fact_from from, const struct srcpos *p)
{
	f->from = from;
	f->at = p ? where(a, p, t->dir) : NULL;
}

/* run.ini's side of fact k. */
static void declared_side(struct analysis *a, const struct trial *t, const struct run *r,
			  enum fact_key k, struct run_fact *f)
{
	*f = (struct run_fact){ .value = -1, .declared = -1 };
	if (keys[k].text) {
		const struct fact_str *d = name_of(&r->declared, k);

		f->declared_text = d->v ? arena_strdup(&a->arena, d->v) : NULL;
		f->declared_at = d->v ? where(a, &d->src, t->dir) : NULL;
		return;
	}
	f->declared = count_of(&r->declared, k)->set ? count_of(&r->declared, k)->v : -1;
	f->declared_at = f->declared >= 0 ? where(a, &count_of(&r->declared, k)->src, t->dir) : NULL;
}

/* A counted fact whose value used is `used`: from the log that gave it, else run.ini, else derived. */
static void counted(struct analysis *a, const struct trial *t, const struct run *r,
		    enum fact_key k, int64_t used, struct run_fact *f)
{
	const struct fact_i64 *l = count_of(&r->logged, k), *d = count_of(&r->declared, k);

	f->value = used;
	if (used < 0)
		f->value = -1;
	else if (l->set && l->v == used)
		set_from(a, t, f, FACT_FROM_LOG, &l->src);
	else if (d->set && d->v == used)
		set_from(a, t, f, FACT_FROM_MANIFEST, &d->src);
	else
		set_from(a, t, f, FACT_FROM_DERIVED, NULL);
}

/* GPUs: the traces' world size, else the log's, else run.ini's, else the ranks traced or GPUs seen. */
static void gpus_fact(struct analysis *a, const struct trial *t, const struct run *r,
		      const struct run_result *rr, struct run_fact *f)
{
	int32_t world = run_world_size(r);

	counted(a, t, r, FACT_GPUS, rr->gpus > 0 ? rr->gpus : -1, f);
	if (rr->gpus > 0 && (world == rr->gpus ||
			     (f->from == FACT_FROM_DERIVED && r->nranks == (size_t)rr->gpus))) {
		f->from = FACT_FROM_TRACE;	/* the world size, else the ranks traced */
		f->at = trace_at(a, t, r);
	}
}

/* A declared precision's dtype name; NULL when unset or naming none. */
static const char *precision_of(const struct fact_str *p)
{
	enum dtype d = p->v ? precision_parse(p->v, strlen(p->v)) : DT_UNKNOWN;

	return d != DT_UNKNOWN ? dtype_name(d) : NULL;
}

/* Precision: the kernels' dominant dtype, else the declaration the run uses (log over run.ini). */
static void precision_fact(struct analysis *a, const struct trial *t, const struct run *r,
			   const struct run_result *rr, struct run_fact *f)
{
	const char *logged = precision_of(&r->logged.precision);

	if (rr->precision_observed != DT_UNKNOWN) {
		f->text = dtype_name(rr->precision_observed);
		f->from = FACT_FROM_TRACE;
		f->at = trace_at(a, t, r);
	} else if (rr->precision_declared && logged && !strcmp(logged, rr->precision_declared)) {
		f->text = rr->precision_declared;
		set_from(a, t, f, FACT_FROM_LOG, &r->logged.precision.src);
	} else if (rr->precision_declared) {
		f->text = rr->precision_declared;
		set_from(a, t, f, FACT_FROM_MANIFEST, &r->declared.precision.src);
	}
	if (f->text)
		f->text = arena_strdup(&a->arena, f->text);
}

/* Model, dataset: the log's name, in run.ini's spelling where the two agree; else run.ini's. */
static void name_fact(struct analysis *a, const struct trial *t, const struct run *r,
		      enum fact_key k, struct run_fact *f)
{
	const struct fact_str *l = name_of(&r->logged, k), *d = name_of(&r->declared, k);

	if (l->v) {
		f->text = arena_strdup(&a->arena, d->v && fact_names_agree(l->v, d->v) ? d->v : l->v);
		set_from(a, t, f, FACT_FROM_LOG, &l->src);
	} else if (d->v) {
		f->text = arena_strdup(&a->arena, d->v);
		set_from(a, t, f, FACT_FROM_MANIFEST, &d->src);
	}
}

static void fill(struct analysis *a, const struct trial *t, const struct run *r,
		 struct run_result *rr)
{
	rr->manifest = analysis_printf(a, "%s/run.ini", below(r->dir, t->dir));
	for (int k = 0; k < FACT_COUNT; k++)
		declared_side(a, t, r, (enum fact_key)k, &rr->facts[k]);
	gpus_fact(a, t, r, rr, &rr->facts[FACT_GPUS]);
	precision_fact(a, t, r, rr, &rr->facts[FACT_PRECISION]);
	counted(a, t, r, FACT_GLOBAL_BATCH, rr->global_batch, &rr->facts[FACT_GLOBAL_BATCH]);
	counted(a, t, r, FACT_MICRO_BATCH, rr->micro_batch, &rr->facts[FACT_MICRO_BATCH]);
	counted(a, t, r, FACT_GRAD_ACCUM, rr->grad_accum, &rr->facts[FACT_GRAD_ACCUM]);
	counted(a, t, r, FACT_SEQ_LEN, rr->seq_len, &rr->facts[FACT_SEQ_LEN]);
	counted(a, t, r, FACT_STEPS, fact_used(&r->logged.steps, &r->declared.steps),
		&rr->facts[FACT_STEPS]);
	name_fact(a, t, r, FACT_MODEL, &rr->facts[FACT_MODEL]);
	name_fact(a, t, r, FACT_DATASET, &rr->facts[FACT_DATASET]);
}

/* ---- run.ini against the logs ------------------------------------------ */

/* The value used, for a message: "8", "bf16", and where it is not the log's, whose. */
static const char *used_text(struct analysis *a, const struct run_fact *f)
{
	const char *v = f->text ? f->text : analysis_printf(a, "%lld", (long long)f->value);

	return f->from == FACT_FROM_TRACE ? analysis_printf(a, "%s (the traces')", v) : v;
}

/* One disagreement: run.ini's value at dpos against a log's at lpos, printed under lkey. */
static void conflict(struct analysis *a, const struct run *r, const struct run_result *rr,
		     enum fact_key k, const char *said, const struct srcpos *dpos,
		     const char *logged, const struct srcpos *lpos, const char *lkey)
{
	analysis_finding(a, DIAG_ERROR, "manifest-conflict", dpos,
			 "run '%s': %s says %s = %s, but %s says %s%s%s%s: %s is used", rr->name,
			 where(a, dpos, r->dir), keys[k].name, said, where(a, lpos, r->dir), logged,
			 lkey ? " (" : "", lkey ? lkey : "", lkey ? ")" : "",
			 used_text(a, &rr->facts[k]));
}

static void check_counts(struct analysis *a, const struct run *r, const struct run_result *rr)
{
	static const enum fact_key counts[] = {
		FACT_GPUS, FACT_GLOBAL_BATCH, FACT_MICRO_BATCH, FACT_GRAD_ACCUM, FACT_SEQ_LEN,
		FACT_STEPS,
	};

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		const struct fact_i64 *d = count_of(&r->declared, counts[i]);
		const struct fact_i64 *l = count_of(&r->logged, counts[i]);

		if (d->set && l->set && d->v != l->v)
			conflict(a, r, rr, counts[i], analysis_printf(a, "%lld", (long long)d->v),
				 &d->src, analysis_printf(a, "%lld", (long long)l->v), &l->src, l->key);
	}
}

static void check_names(struct analysis *a, const struct run *r, const struct run_result *rr)
{
	const char *dp = precision_of(&r->declared.precision), *lp = precision_of(&r->logged.precision);

	if (dp && lp && strcmp(dp, lp))
		conflict(a, r, rr, FACT_PRECISION, r->declared.precision.v, &r->declared.precision.src,
			 lp, &r->logged.precision.src, r->logged.precision.key);
	for (int k = FACT_MODEL; k <= FACT_DATASET; k++) {
		const struct fact_str *d = name_of(&r->declared, (enum fact_key)k);
		const struct fact_str *l = name_of(&r->logged, (enum fact_key)k);

		if (d->v && l->v && !fact_names_agree(d->v, l->v))
			conflict(a, r, rr, (enum fact_key)k, d->v, &d->src, l->v, &l->src, l->key);
	}
}

/* ---- global batch = micro batch x data-parallel GPUs x grad_accum -------- */

/* The terms of the product, each with where it came from (a run's directory). */
struct product {
	int64_t global, micro, accum, dp;
	const char *global_at, *micro_at, *accum_at, *dp_why;
};

static bool product_holds(const struct product *p)
{
	return p->micro * p->dp * p->accum == p->global;
}

/* "8 x 1 x 1 = 8 (micro_batch at run.ini:7, grad_accum at run.ini:8, 1 GPU)" */
static const char *product_text(struct analysis *a, const struct product *p)
{
	return analysis_printf(a, "micro_batch x data-parallel GPUs x grad_accum = %lld x %lld x %lld "
			       "= %lld (micro_batch at %s, grad_accum at %s, %s)",
			       (long long)p->micro, (long long)p->dp, (long long)p->accum,
			       (long long)(p->micro * p->dp * p->accum), p->micro_at, p->accum_at,
			       p->dp_why);
}

/* run.ini's own global_batch against its micro_batch and grad_accum. */
static void check_manifest_product(struct analysis *a, const struct run *r,
				   const struct run_result *rr)
{
	const struct run_facts *d = &r->declared;
	const struct run_fact *used = &rr->facts[FACT_GLOBAL_BATCH];
	int64_t gpus = d->gpus.set ? d->gpus.v : rr->gpus;
	const char *strategy = d->strategy.v ? d->strategy.v : rr->strategy;
	struct product p = { 0 };

	if (!d->global_batch.set || !d->micro_batch.set || !d->grad_accum.set)
		return;
	p.global = d->global_batch.v;
	p.micro = d->micro_batch.v;
	p.accum = d->grad_accum.v;
	p.dp = dp_of(a, r, gpus, strategy, &p.dp_why);
	if (p.dp <= 0 || product_holds(&p))
		return;
	p.micro_at = where(a, &d->micro_batch.src, r->dir);
	p.accum_at = where(a, &d->grad_accum.src, r->dir);
	analysis_finding(a, DIAG_ERROR, "manifest-conflict", &d->global_batch.src,
			 "run '%s': %s says global_batch = %lld, but its %s: the global batch used is "
			 "%lld%s%s%s", rr->name, where(a, &d->global_batch.src, r->dir),
			 (long long)p.global, product_text(a, &p), (long long)used->value,
			 used->from == FACT_FROM_LOG ? " (" : "",
			 used->from == FACT_FROM_LOG ? where(a, &r->logged.global_batch.src, r->dir) : "",
			 used->from == FACT_FROM_LOG ? ")" : "");
}

/* Where the value used of a counted fact was read, from the run's directory. */
static const char *used_at(struct analysis *a, const struct run *r, const struct run_fact *f,
			   enum fact_key k)
{
	const struct fact_i64 *src = f->from == FACT_FROM_LOG ? count_of(&r->logged, k) :
				     count_of(&r->declared, k);

	return where(a, &src->src, r->dir);
}

/*
 * The values used against the same product, where one of them is measured
 * (all from run.ini is the check above): a run.ini value among them makes it
 * a manifest-conflict, else the measured values disagree among themselves.
 */
static void check_used_product(struct analysis *a, const struct run *r,
			       const struct run_result *rr)
{
	const struct run_fact *g = &rr->facts[FACT_GLOBAL_BATCH], *m = &rr->facts[FACT_MICRO_BATCH];
	const struct run_fact *c = &rr->facts[FACT_GRAD_ACCUM];
	struct product p = { g->value, m->value, c->value, 0, NULL, NULL, NULL, NULL };
	bool manifest = g->from == FACT_FROM_MANIFEST || m->from == FACT_FROM_MANIFEST ||
			c->from == FACT_FROM_MANIFEST;
	const struct fact_i64 *gsrc;
	const char *msg;

	if (g->from != FACT_FROM_LOG && g->from != FACT_FROM_MANIFEST)
		return;		/* unknown, or derived from the product itself */
	if (m->from == FACT_FROM_NONE || c->from == FACT_FROM_NONE ||
	    (g->from == FACT_FROM_MANIFEST && m->from == FACT_FROM_MANIFEST &&
	     c->from == FACT_FROM_MANIFEST))
		return;
	p.dp = dp_of(a, r, rr->gpus, rr->strategy, &p.dp_why);
	if (p.dp <= 0 || product_holds(&p))
		return;
	p.global_at = used_at(a, r, g, FACT_GLOBAL_BATCH);
	p.micro_at = used_at(a, r, m, FACT_MICRO_BATCH);
	p.accum_at = used_at(a, r, c, FACT_GRAD_ACCUM);
	gsrc = g->from == FACT_FROM_LOG ? &r->logged.global_batch : &r->declared.global_batch;
	msg = analysis_printf(a, "run '%s': the global batch used, %lld (%s), is not its %s",
			      rr->name, (long long)p.global, p.global_at, product_text(a, &p));
	if (manifest)
		analysis_finding(a, DIAG_ERROR, "manifest-conflict", &gsrc->src, "%s", msg);
	else
		analysis_finding(a, DIAG_WARNING, "batch-inconsistent", &gsrc->src, "%s", msg);
}

void analysis_declared(struct analysis *a, const struct trial *t, const struct run *r,
		       struct run_result *rr)
{
	fill(a, t, r, rr);
	check_counts(a, r, rr);
	check_names(a, r, rr);
	check_manifest_product(a, r, rr);
	check_used_product(a, r, rr);
}
