#include "render/replay_json.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/jfields.h"
#include "core/json.h"
#include "core/jtree.h"

#define MAX_FILE (64 << 20)

/* The names of the enumerated values, as the rest of the program gives them. */
static const char *class_at(int v) { return crit_class_name((enum crit_class)v); }
static const char *dtype_at(int v) { return dtype_name((enum dtype)v); }
static const char *verdict_at(int v) { return replay_verdict_name((enum replay_verdict)v); }

static const struct jnames class_names = { class_at, CRIT_COUNT, false };
static const struct jnames dtype_names = { dtype_at, DT_COUNT, true };
static const struct jnames verdict_names = { verdict_at, RV_COUNT, false };

static const struct jfield top_fields[] = {
	JF_STR(struct replay, source, "source"),
	JF_STR(struct replay, run, "run"),
	JF_STR(struct replay, logged_gpu, "logged_gpu"),
	JF_COUNT(struct replay, logged_gpu_memory, "logged_gpu_memory_bytes"),
	JF_STR(struct replay, device, "device"),
	JF_COUNT(struct replay, device_index, "device_index"),
	JF_COUNT(struct replay, device_memory, "device_memory_bytes"),
	JF_STR(struct replay, driver_version, "driver_version"),
	JF_STR(struct replay, cuda_version, "cuda_version"),
	JF_BOOL(struct replay, same_model, "same_model"),
	JF_NUM(struct replay, logged_step_s, "logged_step_s"),
	JF_NUM(struct replay, projected_step_s, "projected_step_s"),
	JF_END
};

static const struct jfield kernel_fields[] = {
	JF_STR(struct replay_kernel, name, "name"),
	JF_ENUM(struct replay_kernel, cls, "class", &class_names),
	JF_STR(struct replay_kernel, shape, "shape"),
	JF_ENUM(struct replay_kernel, dtype, "dtype", &dtype_names),
	JF_COUNT(struct replay_kernel, bytes, "bytes"),
	JF_NUM(struct replay_kernel, calls_per_step, "calls_per_step"),
	JF_NUM(struct replay_kernel, share, "share"),
	JF_STR(struct replay_kernel, method, "method"),
	JF_BOOL(struct replay_kernel, guessed, "guessed"),
	JF_NUM(struct replay_kernel, logged_median_s, "logged_median_s"),
	JF_NUM(struct replay_kernel, replayed_median_s, "replayed_median_s"),
	JF_NUM(struct replay_kernel, replayed_p10_s, "replayed_p10_s"),
	JF_NUM(struct replay_kernel, replayed_p90_s, "replayed_p90_s"),
	JF_COUNT(struct replay_kernel, reps, "reps"),
	JF_NUM(struct replay_kernel, ratio, "ratio"),
	JF_ENUM(struct replay_kernel, verdict, "verdict", &verdict_names),
	JF_STR(struct replay_kernel, cause, "cause"),
	JF_END
};

/* tool: who wrote the document, that it is a replay, and in which format; read first. */
static void write_tool(struct jwrite *w, const void *base)
{
	(void)base;
	json_tool(w->g, "replay", REPLAY_JSON_FORMAT);
}

static int read_tool(struct jread *r, const struct jnode *n, void *base)
{
	const struct jnode *name = jtree_member(n, "name"), *doc = jtree_member(n, "document");
	const struct jnode *format = jtree_member(n, "format");

	(void)base;
	if (!name || name->type != J_STR || strcmp(name->s, "scaleaudit") || !doc ||
	    doc->type != J_STR || strcmp(doc->s, "replay"))
		return jread_fail(r, n, "'tool' does not say scaleaudit replay");
	if (!format || format->type != J_NUM || !format->is_int || format->i < 1 ||
	    format->i > REPLAY_JSON_FORMAT)
		return jread_fail(r, format ? format : n, "'tool.format' is not a format this scaleaudit reads");
	return 0;
}

/* tolerance and projection say how the verdicts and the projection were made: written only. */
static void write_tolerance(struct jwrite *w, const void *base)
{
	(void)base;
	json_num(w->g, REPLAY_TOLERANCE);
}

static void write_projection(struct jwrite *w, const void *base)
{
	const struct replay *r = base;

	json_str(w->g, isnan(r->projected_step_s) ? NULL :
		 "projection: the logged step with each replayed compute and memory kernel scaled by "
		 "its ratio on this GPU; collectives and the rest as logged");
}

static int read_nothing(struct jread *r, const struct jnode *n, void *base)
{
	(void)r;
	(void)n;
	(void)base;
	return 0;
}

static const struct jspecial tool = { write_tool, read_tool, NULL };
static const struct jspecial tolerance = { write_tolerance, read_nothing, NULL };
static const struct jspecial projection = { write_projection, read_nothing, NULL };
static const struct jarray kernels = JARRAY(struct replay, k, n, kernel_fields, false);

static const struct jfield replay_fields[] = {
	JF_SPECIAL("tool", &tool),
	JF_MERGE(top_fields),
	JF_SPECIAL("tolerance", &tolerance),
	JF_SPECIAL("projection", &projection),
	JF_ARR(struct replay, k, "kernels", &kernels),
	JF_END
};

const struct jfield *replay_json_fields(void)
{
	return replay_fields;
}

int replay_write_json(const struct replay *r, FILE *f)
{
	struct jwrite w = { .g = json_new(), .user = r };
	int ret;

	yajl_gen_map_open(w.g);
	jfields_write(&w, replay_fields, r);
	yajl_gen_map_close(w.g);
	ret = json_flush(w.g, f, true);
	yajl_gen_free(w.g);
	return ret;
}

static void write_gemm(yajl_gen g, const struct plan_gemm *m)
{
	static const char *const keys[] = { "m", "n", "k", "batch" };
	const int64_t v[] = { m->m, m->n, m->k, m->batch };

	yajl_gen_map_open(g);
	for (size_t i = 0; i < 4; i++) {
		json_key(g, keys[i]);
		json_int(g, v[i]);
	}
	json_key(g, "transa");
	yajl_gen_bool(g, m->transa);
	json_key(g, "transb");
	yajl_gen_bool(g, m->transb);
	json_key(g, "a_type");
	json_str(g, dtype_name(m->a_type));
	json_key(g, "b_type");
	json_str(g, dtype_name(m->b_type));
	json_key(g, "c_type");
	json_str(g, dtype_name(m->c_type));
	yajl_gen_map_close(g);
}

static void write_coll(yajl_gen g, const struct plan_coll *c)
{
	yajl_gen_map_open(g);
	json_key(g, "op");
	json_str(g, coll_name(c->op));
	json_key(g, "count");
	json_int(g, c->count);
	json_key(g, "dtype");
	json_str(g, c->dtype == DT_UNKNOWN ? NULL : dtype_name(c->dtype));
	json_key(g, "ranks");
	json_int(g, c->nranks);
	yajl_gen_map_close(g);
}

static void write_planned(yajl_gen g, const struct plan_kernel *k)
{
	yajl_gen_map_open(g);
	json_key(g, "name");
	json_str(g, k->name);
	json_key(g, "class");
	json_str(g, crit_class_name(k->cls));
	json_key(g, "shape");
	json_str(g, k->shape);
	json_key(g, "dtype");
	json_str(g, k->dtype == DT_UNKNOWN ? NULL : dtype_name(k->dtype));
	json_key(g, "bytes");
	if (k->bytes < 0)
		json_str(g, NULL);
	else
		json_int(g, k->bytes);
	json_key(g, "logged_median_s");
	json_num(g, k->logged_median_s);
	json_key(g, "share");
	json_num(g, k->share);
	json_key(g, "method");
	json_str(g, k->method == PM_NONE ? k->why_not : plan_method_name(k->method));
	json_key(g, "op");
	json_str(g, k->op);
	json_key(g, "calls_per_step");
	json_num(g, k->calls_per_step);
	json_key(g, "guessed");
	yajl_gen_bool(g, k->guessed);
	json_key(g, "gemm");
	if (k->method == PM_CUBLASLT)
		write_gemm(g, &k->gemm);
	else
		json_str(g, NULL);
	json_key(g, "collective");
	if (k->cls == CRIT_COLLECTIVE)
		write_coll(g, &k->coll);
	else
		json_str(g, NULL);
	yajl_gen_map_close(g);
}

int replay_plan_write_json(const struct plan *p, FILE *f)
{
	yajl_gen g = json_new();
	int ret;

	yajl_gen_map_open(g);
	json_key(g, "device");
	json_str(g, NULL);
	json_key(g, "run");
	json_str(g, p->run);
	json_key(g, "gpu");
	json_str(g, p->gpu);
	json_key(g, "ranks");
	if (p->nranks < 0)
		json_str(g, NULL);
	else
		json_int(g, p->nranks);
	json_key(g, "logged_step_s");
	json_num(g, p->step_s);
	json_key(g, "kernels");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < p->n; i++)
		write_planned(g, &p->k[i]);
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	ret = json_flush(g, f, true);
	yajl_gen_free(g);
	return ret;
}

/* --- reading --- */

int replay_parse_json(const char *buf, size_t len, const char *name, struct replay *r,
		      char *err, size_t errsz)
{
	struct jread x = { .arena = &r->arena, .user = r };
	const struct jnode *root;
	const char *perr = NULL;
	int64_t at = 0;

	memset(r, 0, sizeof(*r));
	root = jtree_parse(&r->arena, buf, len, &perr, &at);
	if (!root) {
		snprintf(err, errsz, "%s: byte %lld: %s", name, (long long)at, perr ? perr : "not JSON");
		return -1;
	}
	if (root->type != J_OBJ) {
		snprintf(err, errsz, "%s: byte %lld: not a scaleaudit replay: not an object", name,
			 (long long)root->at);
		return -1;
	}
	if (jfields_read(&x, root, replay_fields, r) == 0)
		return 0;
	snprintf(err, errsz, "%s: byte %lld: %s", name, (long long)x.err_at, x.err);
	return -1;
}

int replay_read_json(const char *path, struct replay *r, char *err, size_t errsz)
{
	struct buf b;
	int ret = -1, rc;

	memset(r, 0, sizeof(*r));
	buf_init(&b, MAX_FILE - 1);
	rc = buf_read_file(&b, path);
	if (rc == -1)
		snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
	else if (rc == -2)
		snprintf(err, errsz, "%s: cannot read", path);
	else if (b.overflow)
		snprintf(err, errsz, "%s: larger than 64 MiB: not a replay.json", path);
	else
		ret = replay_parse_json(b.data, b.len, path, r, err, errsz);
	buf_release(&b);
	return ret;
}

/* --- chart 09's view --- */

/* A kernel as chart 09 labels it: its class and shape, or its name and bytes. */
static const char *bar_label(struct analysis *a, const struct replay_kernel *k)
{
	size_t n = strcspn(k->name ? k->name : "?", "(<");

	while (n > 1 && k->name[n - 1] == ' ')
		n--;
	if (k->cls == CRIT_GEMM && k->shape)
		return analysis_printf(a, "GEMM %s%s%s", k->dtype ? dtype_name(k->dtype) : "",
				       k->dtype ? " " : "", k->shape);
	if (k->cls == CRIT_COLLECTIVE && k->shape)
		return analysis_printf(a, "%s", k->shape);
	if (k->shape)
		return analysis_printf(a, "%.*s %s", (int)(n > 24 ? 24 : n), k->name, k->shape);
	return analysis_printf(a, "%.*s", (int)(n > 40 ? 40 : n), k->name ? k->name : "?");
}

int replay_attach(struct analysis *a, const char *dir, char *err, size_t errsz)
{
	char path[4096];
	struct replay r;
	struct replay_view *v = &a->replay;
	FILE *f;

	snprintf(path, sizeof(path), "%s/replay.json", dir);
	if (v->present || !(f = fopen(path, "rb")))
		return 0;
	fclose(f);
	if (replay_read_json(path, &r, err, errsz) < 0) {
		replay_release(&r);
		return -1;
	}
	*v = (struct replay_view){
		.present = true, .device = r.device ? arena_strdup(&a->arena, r.device) : NULL,
		.logged_gpu = r.logged_gpu ? arena_strdup(&a->arena, r.logged_gpu) : NULL,
		.logged_step_s = r.logged_step_s, .projected_step_s = r.projected_step_s,
	};
	v->bars = arena_alloc(&a->arena, (r.n ? r.n : 1) * sizeof(*v->bars));
	for (size_t i = 0; i < r.n; i++) {
		const struct replay_kernel *k = &r.k[i];

		if (!(k->replayed_median_s > 0) || !(k->logged_median_s > 0))
			continue;
		v->bars[v->nbars++] = (struct replay_bar){
			bar_label(a, k), k->logged_median_s, k->replayed_median_s,
			arena_strdup(&a->arena, replay_verdict_name(k->verdict)) };
	}
	replay_release(&r);
	return 1;
}
