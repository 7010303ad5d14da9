#include "render/replay_json.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/jtree.h"

#define MAX_FILE (64 << 20)

/* One key of an object and where its value lives in the struct. */
enum rkind { R_STR, R_NUM, R_I64, R_I32, R_BOOL, R_DTYPE, R_CLASS, R_VERDICT };

struct rfield {
	const char *key;
	enum rkind kind;
	size_t off;
};

#define RF(T, m, k, kind) { k, kind, offsetof(T, m) }

static const struct rfield top_fields[] = {
	RF(struct replay, source, "source", R_STR),
	RF(struct replay, run, "run", R_STR),
	RF(struct replay, logged_gpu, "logged_gpu", R_STR),
	RF(struct replay, logged_gpu_memory, "logged_gpu_memory_bytes", R_I64),
	RF(struct replay, device, "device", R_STR),
	RF(struct replay, device_index, "device_index", R_I32),
	RF(struct replay, device_memory, "device_memory_bytes", R_I64),
	RF(struct replay, driver_version, "driver_version", R_STR),
	RF(struct replay, cuda_version, "cuda_version", R_STR),
	RF(struct replay, same_model, "same_model", R_BOOL),
	RF(struct replay, logged_step_s, "logged_step_s", R_NUM),
	RF(struct replay, projected_step_s, "projected_step_s", R_NUM),
};

static const struct rfield kernel_fields[] = {
	RF(struct replay_kernel, name, "name", R_STR),
	RF(struct replay_kernel, cls, "class", R_CLASS),
	RF(struct replay_kernel, shape, "shape", R_STR),
	RF(struct replay_kernel, dtype, "dtype", R_DTYPE),
	RF(struct replay_kernel, bytes, "bytes", R_I64),
	RF(struct replay_kernel, calls_per_step, "calls_per_step", R_NUM),
	RF(struct replay_kernel, share, "share", R_NUM),
	RF(struct replay_kernel, method, "method", R_STR),
	RF(struct replay_kernel, guessed, "guessed", R_BOOL),
	RF(struct replay_kernel, logged_median_s, "logged_median_s", R_NUM),
	RF(struct replay_kernel, replayed_median_s, "replayed_median_s", R_NUM),
	RF(struct replay_kernel, replayed_p10_s, "replayed_p10_s", R_NUM),
	RF(struct replay_kernel, replayed_p90_s, "replayed_p90_s", R_NUM),
	RF(struct replay_kernel, reps, "reps", R_I64),
	RF(struct replay_kernel, ratio, "ratio", R_NUM),
	RF(struct replay_kernel, verdict, "verdict", R_VERDICT),
	RF(struct replay_kernel, cause, "cause", R_STR),
};

#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

/* --- writing --- */

static void write_field(yajl_gen g, const struct rfield *f, const void *base)
{
	const char *p = (const char *)base + f->off;

	json_key(g, f->key);
	switch (f->kind) {
	case R_STR:
		json_str(g, *(const char *const *)p);
		break;
	case R_NUM:
		json_num(g, *(const double *)p);
		break;
	case R_I64:
		if (*(const int64_t *)p < 0)
			json_str(g, NULL);
		else
			json_int(g, *(const int64_t *)p);
		break;
	case R_I32:
		if (*(const int32_t *)p < 0)
			json_str(g, NULL);
		else
			json_int(g, *(const int32_t *)p);
		break;
	case R_BOOL:
		yajl_gen_bool(g, *(const bool *)p);
		break;
	case R_DTYPE:
		json_str(g, *(const enum dtype *)p == DT_UNKNOWN ? NULL : dtype_name(*(const enum dtype *)p));
		break;
	case R_CLASS:
		json_str(g, crit_class_name(*(const enum crit_class *)p));
		break;
	case R_VERDICT:
		json_str(g, replay_verdict_name(*(const enum replay_verdict *)p));
		break;
	}
}

static void write_fields(yajl_gen g, const struct rfield *f, size_t n, const void *base)
{
	for (size_t i = 0; i < n; i++)
		write_field(g, &f[i], base);
}

static void write_tool(yajl_gen g, const char *what)
{
	json_key(g, "tool");
	yajl_gen_map_open(g);
	json_key(g, "name");
	json_str(g, "scaleaudit");
	json_key(g, "version");
	json_str(g, SCALEAUDIT_VERSION);
	json_key(g, "document");
	json_str(g, what);
	json_key(g, "format");
	json_int(g, REPLAY_JSON_FORMAT);
	yajl_gen_map_close(g);
}

int replay_write_json(const struct replay *r, FILE *f)
{
	yajl_gen g = json_new();
	int ret;

	yajl_gen_map_open(g);
	write_tool(g, "replay");
	write_fields(g, top_fields, NFIELDS(top_fields), r);
	json_key(g, "tolerance");
	json_num(g, REPLAY_TOLERANCE);
	json_key(g, "projection");
	json_str(g, isnan(r->projected_step_s) ? NULL :
		 "projection: the logged step with each replayed compute and memory kernel scaled by "
		 "its ratio on this GPU; collectives and the rest as logged");
	json_key(g, "kernels");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < r->n; i++) {
		yajl_gen_map_open(g);
		write_fields(g, kernel_fields, NFIELDS(kernel_fields), &r->k[i]);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	ret = json_flush(g, f, true);
	yajl_gen_free(g);
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

struct rd {
	struct replay *r;
	const char *name;
	char *err;
	size_t errsz;
};

static int rd_fail(struct rd *x, const struct jnode *n, const char *key, const char *what)
{
	snprintf(x->err, x->errsz, "%s: byte %lld: '%s' %s", x->name, (long long)(n ? n->at : 0),
		 key, what);
	return -1;
}

static int read_enum_str(struct rd *x, const struct rfield *f, const struct jnode *n, void *p)
{
	if (f->kind == R_DTYPE) {
		*(enum dtype *)p = n ? dtype_from_name(n->s) : DT_UNKNOWN;
		return n && *(enum dtype *)p == DT_UNKNOWN ? rd_fail(x, n, f->key, "is not a dtype") : 0;
	}
	if (f->kind == R_CLASS) {
		*(enum crit_class *)p = n ? crit_class_from_name(n->s) : CRIT_OTHER;
		return 0;
	}
	if (f->kind == R_VERDICT) {
		*(enum replay_verdict *)p = n ? replay_verdict_from_name(n->s) : RV_NOT_RUN;
		return 0;
	}
	*(const char **)p = n ? replay_strdup(x->r, n->s) : NULL;
	return 0;
}

static int read_field(struct rd *x, const struct rfield *f, const struct jnode *obj, void *base)
{
	const struct jnode *n = jtree_member(obj, f->key);
	void *p = (char *)base + f->off;
	bool null = !n || n->type == J_NULL;
	bool text = f->kind == R_STR || f->kind == R_DTYPE || f->kind == R_CLASS || f->kind == R_VERDICT;

	if (text) {
		if (!null && n->type != J_STR)
			return rd_fail(x, n, f->key, "is not a string");
		return read_enum_str(x, f, null ? NULL : n, p);
	}
	if (f->kind == R_BOOL) {
		if (!null && n->type != J_BOOL)
			return rd_fail(x, n, f->key, "is not true or false");
		*(bool *)p = !null && n->b;
		return 0;
	}
	if (!null && n->type != J_NUM)
		return rd_fail(x, n, f->key, "is not a number");
	if (f->kind == R_NUM) {
		*(double *)p = null ? NAN : n->d;
		return 0;
	}
	if (!null && (!n->is_int || n->i < 0 || (f->kind == R_I32 && n->i > INT32_MAX)))
		return rd_fail(x, n, f->key, "is not a count");
	if (f->kind == R_I32)
		*(int32_t *)p = null ? -1 : (int32_t)n->i;
	else
		*(int64_t *)p = null ? -1 : n->i;
	return 0;
}

static int read_fields(struct rd *x, const struct rfield *f, size_t nf, const struct jnode *obj,
		       void *base)
{
	for (size_t i = 0; i < nf; i++)
		if (read_field(x, &f[i], obj, base) < 0)
			return -1;
	return 0;
}

static int read_kernels(struct rd *x, const struct jnode *arr)
{
	size_t n = 0;

	if (arr && arr->type != J_NULL && arr->type != J_ARR)
		return rd_fail(x, arr, "kernels", "is not an array");
	for (const struct jnode *c = arr ? arr->child : NULL; c; c = c->next)
		n++;
	x->r->k = arena_alloc(&x->r->arena, (n ? n : 1) * sizeof(*x->r->k));
	for (const struct jnode *c = arr ? arr->child : NULL; c; c = c->next) {
		if (c->type != J_OBJ)
			return rd_fail(x, c, "kernels[]", "is not an object");
		if (read_fields(x, kernel_fields, NFIELDS(kernel_fields), c, &x->r->k[x->r->n]) < 0)
			return -1;
		x->r->n++;
	}
	return 0;
}

static int check_tool(struct rd *x, const struct jnode *root)
{
	const struct jnode *tool = jtree_member(root, "tool");
	const struct jnode *name = jtree_member(tool, "name"), *doc = jtree_member(tool, "document");
	const struct jnode *format = jtree_member(tool, "format");

	if (!name || name->type != J_STR || strcmp(name->s, "scaleaudit") || !doc ||
	    doc->type != J_STR || strcmp(doc->s, "replay"))
		return rd_fail(x, tool ? tool : root, "tool", "does not say scaleaudit replay");
	if (!format || format->type != J_NUM || !format->is_int || format->i < 1 ||
	    format->i > REPLAY_JSON_FORMAT)
		return rd_fail(x, format ? format : tool, "tool.format", "is not a format this scaleaudit reads");
	return 0;
}

int replay_parse_json(const char *buf, size_t len, const char *name, struct replay *r,
		      char *err, size_t errsz)
{
	struct rd x = { r, name, err, errsz };
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
	if (check_tool(&x, root) < 0 || read_fields(&x, top_fields, NFIELDS(top_fields), root, r) < 0)
		return -1;
	return read_kernels(&x, jtree_member(root, "kernels"));
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
