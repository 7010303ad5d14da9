#include "render/analysis_json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/jtree.h"
#include "core/xalloc.h"

/*
 * The layout: one table of fields per struct, walked by the writer and by the
 * reader. A field is a key, how its value is stored (kind), where (offset and
 * size in the struct) and what the kind needs (aux).
 */
enum kind {
	K_STR,		/* const char *; NULL is null */
	K_TEXT,		/* const char * that is never NULL: null or missing is an error */
	K_STR_UNKNOWN,	/* const char *; NULL is written "unknown", which reads back as NULL */
	K_COUNT,	/* int32_t or int64_t; negative (unknown) is null, null reads -1 */
	K_INT,		/* int64_t written as it is (a step number) */
	K_INDEX,	/* size_t index */
	K_NUM,		/* double; NaN is null */
	K_POS,		/* double; 0 or less (none) is null, null reads 0 */
	K_NONNEG,	/* double; negative (unknown) is null, null reads -1 */
	K_BOOL,
	K_ENUM,		/* an enum (or bool) of `size` bytes, by name: aux is a struct names */
	K_OBJ,		/* aux: the fields of a nested object at base + off; key NULL: inlined */
	K_OPT,		/* a K_OBJ whose struct opens with `bool present`: the key is left out
			   when it is false; reading, present is whether the key holds an object */
	K_OPT_NULL,	/* a K_OPT written null when present is false */
	K_ARR,		/* aux: a struct array */
	K_SPECIAL,	/* aux: a struct special */
	K_WORDS,	/* const char * of space-separated words, written as an array of strings
			   ("" is []); reading joins them again */
};

struct field {
	const char *key;
	enum kind kind;
	size_t off;
	size_t size;
	const void *aux;
};

struct names {
	const char *(*name)(int v);	/* the name of value v; NULL: written null */
	int count;			/* values 0 .. count - 1 */
	bool zero_null;			/* value 0 is written null */
};

struct array {
	size_t count_off;		/* the size_t count beside the pointer */
	size_t elem_size;
	const struct field *elem;
	bool heap;			/* malloc'd (analysis_free() frees it), else in the arena */
};

struct wctx {
	yajl_gen g;
	const struct analysis *a;
};

struct jnode;
struct rctx;

struct special {
	void (*write)(struct wctx *w, const void *base);
	int (*read)(struct rctx *r, const struct jnode *n, void *base);	/* n NULL: missing */
};

#define F(T, m, k, kind, aux) { k, kind, offsetof(T, m), sizeof(((T *)0)->m), aux }
#define SUB(k, fields) { k, K_OBJ, 0, 0, fields }
#define SUBAT(T, m, k, fields) { k, K_OBJ, offsetof(T, m), 0, fields }
#define SPECIAL(k, s) { k, K_SPECIAL, 0, 0, s }
#define END { NULL, K_STR, 0, 0, NULL }

/* --- enumerated values, by the names the rest of the program gives them --- */

static const char *status_at(int v) { return run_status_name((enum run_status)v); }
static const char *hypothesis_at(int v) { return hypothesis_name((enum hypothesis)v); }
static const char *question_at(int v) { return question_name((enum question)v); }
static const char *dtype_at(int v) { return dtype_name((enum dtype)v); }
static const char *coll_at(int v) { return coll_name((enum coll_op)v); }
static const char *verdict_at(int v) { return verdict_name((enum verdict)v); }
static const char *confound_at(int v) { return confound_name((enum confound_what)v); }
static const char *severity_at(int v) { return diag_severity_name((enum diag_severity)v); }
static const char *cf_severity_at(int v) { return confound_severity_name((enum confound_severity)v); }
static const char *bw_source_at(int v) { return v ? "nccl-tests" : "trace"; }
static const char *answer_at(int v) { return answer_name((enum answer)v); }
static const char *crit_at(int v) { return crit_class_name((enum crit_class)v); }
static const char *basis_at(int v) { return workload_basis_name((enum workload_basis)v); }
static const char *fact_from_at(int v) { return fact_from_name((enum fact_from)v); }

static const char *class_at(int v)
{
	static const char *const names[] = {
		[EVC_COMPUTE] = "compute", [EVC_COMM] = "comm", [EVC_MEMORY] = "memory",
	};

	return names[v];
}

static const struct names status_names = { status_at, RUN_INCOMPLETE + 1, false };
static const struct names hypothesis_names = { hypothesis_at, HYP_FEASIBILITY + 1, false };
static const struct names question_names = { question_at, Q_HPARAM_SWEEP + 1, false };
static const struct names dtype_names = { dtype_at, DT_COUNT, true };
static const struct names coll_names = { coll_at, COLL_COUNT, false };
static const struct names verdict_names = { verdict_at, VERDICT_INCONCLUSIVE + 1, false };
static const struct names confound_names = { confound_at, CF_COUNT, false };
static const struct names severity_names = { severity_at, DIAG_INFO + 1, false };
static const struct names cf_severity_names = { cf_severity_at, CFS_UNVERIFIED + 1, false };
static const struct names bw_source_names = { bw_source_at, 2, false };
static const struct names class_names = { class_at, EVC_MEMORY + 1, false };
static const struct names answer_names = { answer_at, ANSWER_UNKNOWN + 1, true };
static const struct names crit_names = { crit_at, CRIT_COUNT, false };
static const struct names coll_or_null = { coll_at, COLL_COUNT, true };
static const struct names basis_names = { basis_at, WL_DECLARED + 1, false };
static const struct names fact_from_names = { fact_from_at, FACT_FROM_DERIVED + 1, true };

/* --- where the reader is, and its first error --- */

#define MAX_PATH 256

struct rctx {
	struct analysis *a;
	char path[MAX_PATH];	/* of the value being decoded: "runs[0].gpus" */
	size_t plen;
	const struct jnode *obj;	/* the object being decoded: where a missing key is */
	const char *err;	/* the first error; NULL none */
	int64_t err_at;
};

static int rfail(struct rctx *r, const struct jnode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rfail(struct rctx *r, const struct jnode *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (r->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->err = arena_strdup(&r->a->arena, msg);
	r->err_at = n ? n->at : r->obj ? r->obj->at : 0;
	return -1;
}

static int wrong_type(struct rctx *r, const struct jnode *n, const char *want)
{
	return rfail(r, n, "'%s' is %s, not %s", r->path, jtree_type_name(n->type), want);
}

static size_t path_push(struct rctx *r, const char *key, size_t index)
{
	size_t old = r->plen;
	int n = key ? snprintf(r->path + old, MAX_PATH - old, "%s%s", old ? "." : "", key)
		: snprintf(r->path + old, MAX_PATH - old, "[%zu]", index);

	r->plen = n < 0 || old + (size_t)n >= MAX_PATH ? MAX_PATH - 1 : old + (size_t)n;
	return old;
}

static void path_pop(struct rctx *r, size_t old)
{
	r->plen = old;
	r->path[old] = '\0';
}

/* --- storing integers of any width --- */

static int64_t get_int(const void *p, size_t size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 4: return *(const int32_t *)p;
	default: return *(const int64_t *)p;
	}
}

static void set_int(void *p, size_t size, int64_t v)
{
	switch (size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 4: *(int32_t *)p = (int32_t)v; break;
	default: *(int64_t *)p = v; break;
	}
}

static int64_t int_max(size_t size)
{
	return size == 1 ? UINT8_MAX : size == 4 ? INT32_MAX : INT64_MAX;
}

/* --- writing --- */

static void write_fields(struct wctx *w, const struct field *f, const void *base);

static void write_enum(struct wctx *w, const struct field *f, const void *p)
{
	const struct names *nm = f->aux;
	int64_t v = get_int(p, f->size);

	json_str(w->g, (nm->zero_null && v == 0) || v < 0 || v >= nm->count ? NULL : nm->name((int)v));
}

static void write_array(struct wctx *w, const struct field *f, const void *base)
{
	const struct array *ar = f->aux;
	const char *elems = *(const char *const *)((const char *)base + f->off);
	size_t n = *(const size_t *)((const char *)base + ar->count_off);

	yajl_gen_array_open(w->g);
	for (size_t i = 0; i < n; i++) {
		yajl_gen_map_open(w->g);
		write_fields(w, ar->elem, elems + i * ar->elem_size);
		yajl_gen_map_close(w->g);
	}
	yajl_gen_array_close(w->g);
}

/* "sm_90 sm_100" as ["sm_90", "sm_100"]; NULL or "" as []. */
static void write_words(struct wctx *w, const char *s)
{
	yajl_gen_array_open(w->g);
	while (s && *s) {
		size_t n = strcspn(s, " ");

		if (n)
			json_strn(w->g, s, n);
		s += n + (s[n] == ' ');
	}
	yajl_gen_array_close(w->g);
}

static void write_value(struct wctx *w, const struct field *f, const void *base)
{
	const void *p = (const char *)base + f->off;
	double d;

	switch (f->kind) {
	case K_STR:
	case K_TEXT:
		json_str(w->g, *(const char *const *)p);
		break;
	case K_STR_UNKNOWN:
		json_str(w->g, *(const char *const *)p ? *(const char *const *)p : "unknown");
		break;
	case K_COUNT:
		if (get_int(p, f->size) < 0)
			yajl_gen_null(w->g);
		else
			json_int(w->g, get_int(p, f->size));
		break;
	case K_INT:
		json_int(w->g, *(const int64_t *)p);
		break;
	case K_INDEX:
		json_int(w->g, (int64_t)*(const size_t *)p);
		break;
	case K_NUM:
	case K_POS:
	case K_NONNEG:
		d = *(const double *)p;
		json_num(w->g, (f->kind == K_POS && d <= 0) || (f->kind == K_NONNEG && d < 0) ? NAN : d);
		break;
	case K_BOOL:
		yajl_gen_bool(w->g, *(const bool *)p);
		break;
	case K_ENUM:
		write_enum(w, f, p);
		break;
	case K_OPT_NULL:
		if (!*(const bool *)p) {
			yajl_gen_null(w->g);
			break;
		}
		/* fall through */
	case K_OBJ:
	case K_OPT:
		yajl_gen_map_open(w->g);
		write_fields(w, f->aux, p);
		yajl_gen_map_close(w->g);
		break;
	case K_ARR:
		write_array(w, f, base);
		break;
	case K_SPECIAL:
		((const struct special *)f->aux)->write(w, base);
		break;
	case K_WORDS:
		write_words(w, *(const char *const *)p);
		break;
	}
}

static void write_fields(struct wctx *w, const struct field *f, const void *base)
{
	for (; f->key || f->aux; f++) {
		if (!f->key) {		/* an inlined object: its fields are this object's */
			write_fields(w, f->aux, (const char *)base + f->off);
			continue;
		}
		if (f->kind == K_OPT && !*(const bool *)((const char *)base + f->off))
			continue;
		json_key(w->g, f->key);
		write_value(w, f, base);
	}
}

/* --- reading --- */

static int read_fields(struct rctx *r, const struct jnode *obj, const struct field *f, void *base);

static int read_str(struct rctx *r, const struct field *f, const struct jnode *n, void *p)
{
	const char **s = p;

	*s = NULL;
	if (!n || n->type == J_NULL) {
		if (f->kind == K_TEXT)
			return rfail(r, n, "'%s' is %s, not a string", r->path, n ? "null" : "missing");
		return 0;
	}
	if (n->type != J_STR)
		return wrong_type(r, n, "a string");
	if (f->kind == K_STR_UNKNOWN && !strcmp(n->s, "unknown"))
		return 0;
	*s = arena_strdup(&r->a->arena, n->s);	/* the tree goes when the parse ends */
	return 0;
}

static int read_int(struct rctx *r, const struct field *f, const struct jnode *n, void *p)
{
	int64_t dflt = f->kind == K_COUNT ? -1 : 0;

	if (f->kind == K_INDEX) {
		*(size_t *)p = 0;
		if (!n || n->type == J_NULL)
			return 0;
		if (n->type != J_NUM || !n->is_int)
			return wrong_type(r, n, "an integer");
		if (n->i < 0)
			return rfail(r, n, "'%s' is out of range", r->path);
		*(size_t *)p = (size_t)n->i;
		return 0;
	}
	set_int(p, f->size, dflt);
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_NUM || !n->is_int)
		return wrong_type(r, n, "an integer");
	if (n->i > int_max(f->size) || n->i < -int_max(f->size))
		return rfail(r, n, "'%s' is out of range", r->path);
	set_int(p, f->size, n->i);
	return 0;
}

static int read_num(struct rctx *r, const struct field *f, const struct jnode *n, double *p)
{
	*p = f->kind == K_POS ? 0 : f->kind == K_NONNEG ? -1 : NAN;
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_NUM)
		return wrong_type(r, n, "a number");
	if (!isfinite(n->d))
		return rfail(r, n, "'%s' is out of range", r->path);
	*p = n->d;
	return 0;
}

static int read_enum(struct rctx *r, const struct field *f, const struct jnode *n, void *p)
{
	const struct names *nm = f->aux;

	set_int(p, f->size, 0);
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_STR)
		return wrong_type(r, n, "a string");
	for (int v = 0; v < nm->count; v++) {
		if (nm->name(v) && !strcmp(nm->name(v), n->s)) {
			set_int(p, f->size, v);
			return 0;
		}
	}
	return rfail(r, n, "'%s' is '%s', which this scaleaudit does not know", r->path, n->s);
}

static int read_array(struct rctx *r, const struct field *f, const struct jnode *n, void *base)
{
	const struct array *ar = f->aux;
	char **elems = (char **)((char *)base + f->off);
	size_t *count = (size_t *)((char *)base + ar->count_off), i = 0, total = 0;

	*elems = NULL;
	*count = 0;
	if (n && n->type != J_NULL && n->type != J_ARR)
		return wrong_type(r, n, "an array");
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next)
		total++;
	*elems = ar->heap ? xcalloc(total ? total : 1, ar->elem_size)
		: arena_alloc(&r->a->arena, (total ? total : 1) * ar->elem_size);
	*count = total;
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next, i++) {
		size_t old = path_push(r, NULL, i);

		if (c->type != J_OBJ)
			return wrong_type(r, c, "an object");
		if (read_fields(r, c, ar->elem, *elems + i * ar->elem_size) < 0)
			return -1;
		path_pop(r, old);
	}
	return 0;
}

/* An array of strings without spaces, joined by spaces; missing or null is "". */
static int read_words(struct rctx *r, const struct jnode *n, void *p)
{
	struct buf b = BUF_INIT;

	*(const char **)p = "";
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_ARR)
		return wrong_type(r, n, "an array of strings");
	buf_init(&b, 0);
	for (const struct jnode *c = n->child; c; c = c->next) {
		if (c->type != J_STR || !*c->s || strchr(c->s, ' ')) {
			buf_release(&b);
			return wrong_type(r, c, "a word (a string without spaces)");
		}
		buf_addf(&b, "%s%s", b.len ? " " : "", c->s);
	}
	*(const char **)p = arena_strdup(&r->a->arena, b.len ? b.data : "");
	buf_release(&b);
	return 0;
}

static int read_value(struct rctx *r, const struct field *f, const struct jnode *n, void *base)
{
	void *p = (char *)base + f->off;

	switch (f->kind) {
	case K_STR:
	case K_TEXT:
	case K_STR_UNKNOWN:
		return read_str(r, f, n, p);
	case K_COUNT:
	case K_INT:
	case K_INDEX:
		return read_int(r, f, n, p);
	case K_NUM:
	case K_POS:
	case K_NONNEG:
		return read_num(r, f, n, p);
	case K_BOOL:
		*(bool *)p = false;
		if (n && n->type != J_NULL && n->type != J_BOOL)
			return wrong_type(r, n, "true or false");
		*(bool *)p = n && n->type == J_BOOL && n->b;
		return 0;
	case K_ENUM:
		return read_enum(r, f, n, p);
	case K_OBJ:
		if (n && n->type != J_NULL && n->type != J_OBJ)
			return wrong_type(r, n, "an object");
		return read_fields(r, n && n->type == J_OBJ ? n : NULL, f->aux, p);
	case K_OPT:
	case K_OPT_NULL:
		if (n && n->type != J_NULL && n->type != J_OBJ)
			return wrong_type(r, n, "an object");
		if (read_fields(r, n && n->type == J_OBJ ? n : NULL, f->aux, p) < 0)
			return -1;
		*(bool *)p = n && n->type == J_OBJ;
		return 0;
	case K_ARR:
		return read_array(r, f, n, base);
	case K_SPECIAL:
		return ((const struct special *)f->aux)->read(r, n, base);
	case K_WORDS:
		return read_words(r, n, p);
	}
	return 0;
}

/* Every field of the table from obj (NULL: all missing): missing keys read as null. */
static int read_fields(struct rctx *r, const struct jnode *obj, const struct field *f, void *base)
{
	for (; f->key || f->aux; f++) {
		size_t old;

		if (!f->key) {
			if (read_fields(r, obj, f->aux, (char *)base + f->off) < 0)
				return -1;
			continue;
		}
		old = path_push(r, f->key, 0);
		r->obj = obj;
		if (read_value(r, f, jtree_member(obj, f->key), base) < 0)
			return -1;
		r->obj = obj;
		path_pop(r, old);
	}
	return 0;
}

/* --- the layout of analysis.json --- */

static const struct field parts4[] = {
	F(struct step_parts, compute, "compute", K_NUM, NULL),
	F(struct step_parts, exposed_comm, "exposed_comm", K_NUM, NULL),
	F(struct step_parts, memory, "memory", K_NUM, NULL),
	F(struct step_parts, idle, "idle", K_NUM, NULL),
	END
};

static const struct field parts6[] = {
	{ NULL, K_OBJ, 0, 0, parts4 },
	F(struct step_parts, comm_total, "comm_total", K_NUM, NULL),
	F(struct step_parts, overlapped_comm, "overlapped_comm", K_NUM, NULL),
	F(struct step_parts, exposed_comm_wait, "exposed_comm_wait", K_NUM, NULL),
	F(struct step_parts, exposed_comm_transfer, "exposed_comm_transfer", K_NUM, NULL),
	F(struct step_parts, memory_total, "memory_total", K_NUM, NULL),
	F(struct step_parts, kernel_busy, "kernel_busy", K_NUM, NULL),
	END
};

/* matmul_share: {dtype: share} for the dtypes that have one. */
static void write_share(struct wctx *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_map_open(w->g);
	for (int d = 0; d < DT_COUNT; d++) {
		if (isnan(rr->matmul_share[d]))
			continue;
		json_key(w->g, dtype_name((enum dtype)d));
		json_num(w->g, rr->matmul_share[d]);
	}
	yajl_gen_map_close(w->g);
}

static int read_share(struct rctx *r, const struct jnode *n, void *base)
{
	struct run_result *rr = base;

	for (int d = 0; d < DT_COUNT; d++)
		rr->matmul_share[d] = NAN;
	if (n && n->type != J_NULL && n->type != J_OBJ)
		return wrong_type(r, n, "an object");
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next) {
		enum dtype d = strcmp(c->key, "unknown") ? dtype_from_name(c->key) : DT_UNKNOWN;
		struct field f = { c->key, K_NUM, 0, sizeof(double), NULL };
		size_t old;

		if (d == DT_UNKNOWN && strcmp(c->key, "unknown"))
			continue;	/* a dtype of a later version */
		old = path_push(r, c->key, 0);
		if (read_num(r, &f, c, &rr->matmul_share[d]) < 0)
			return -1;
		path_pop(r, old);
	}
	return 0;
}

static const struct special share = { write_share, read_share };

/* peak_memory_by_source: every source, null where it says nothing. */
static void write_by_source(struct wctx *w, const void *base)
{
	const struct gpu_result *g = base;

	yajl_gen_map_open(w->g);
	for (int s = 0; s < MEM_NSOURCES; s++) {
		json_key(w->g, mem_source_name((enum mem_source)s));
		if (g->peak_by_source[s] < 0)
			yajl_gen_null(w->g);
		else
			json_int(w->g, g->peak_by_source[s]);
	}
	yajl_gen_map_close(w->g);
}

static int read_by_source(struct rctx *r, const struct jnode *n, void *base)
{
	struct gpu_result *g = base;

	if (n && n->type != J_NULL && n->type != J_OBJ)
		return wrong_type(r, n, "an object");
	for (int s = 0; s < MEM_NSOURCES; s++) {
		struct field f = { "", K_COUNT, 0, sizeof(int64_t), NULL };
		size_t old = path_push(r, mem_source_name((enum mem_source)s), 0);

		if (read_int(r, &f, jtree_member(n, mem_source_name((enum mem_source)s)), &g->peak_by_source[s]) < 0)
			return -1;
		path_pop(r, old);
	}
	return 0;
}

static const struct special by_source = { write_by_source, read_by_source };

static const struct field step_fields[] = {
	F(struct step_point, number, "step", K_INT, NULL),
	F(struct step_point, window_s, "window_s", K_NUM, NULL),
	F(struct step_point, warmup, "warmup", K_BOOL, NULL),
	{ NULL, K_OBJ, offsetof(struct step_point, parts), 0, parts6 },
	F(struct step_point, start_ns, "start_ns", K_COUNT, NULL),
	F(struct step_point, trailing, "trailing", K_BOOL, NULL),
	END
};

static const struct field kernel_fields[] = {
	F(struct kernel_time, label, "label", K_TEXT, NULL),
	F(struct kernel_time, name, "name", K_STR, NULL),
	F(struct kernel_time, time_per_step_s, "time_per_step_s", K_NUM, NULL),
	F(struct kernel_time, calls_per_step, "calls_per_step", K_COUNT, NULL),
	F(struct kernel_time, cls, "class", K_ENUM, &class_names),
	END
};

static const struct field lane_fields[] = {
	F(struct lane_span, start_s, "start_s", K_NUM, NULL),
	F(struct lane_span, end_s, "end_s", K_NUM, NULL),
	F(struct lane_span, cls, "class", K_ENUM, &class_names),
	END
};

static const struct array gpu_steps = {
	offsetof(struct gpu_result, nsteps), sizeof(struct step_point), step_fields, true };
static const struct array gpu_top = {
	offsetof(struct gpu_result, ntop), sizeof(struct kernel_time), kernel_fields, false };
static const struct array gpu_lanes = {
	offsetof(struct gpu_result, nlanes), sizeof(struct lane_span), lane_fields, false };

/* Bytes by memory category, in enum mem_category order: null where unknown. */
#define CAT(c, k) { k, K_COUNT, (c) * sizeof(int64_t), sizeof(int64_t), NULL }
static const struct field category_fields[] = {
	CAT(MEMCAT_PARAMETER, "parameter"), CAT(MEMCAT_OPTIMIZER_STATE, "optimizer_state"),
	CAT(MEMCAT_INPUT, "input"), CAT(MEMCAT_TEMPORARY, "temporary"),
	CAT(MEMCAT_ACTIVATION, "activation"), CAT(MEMCAT_GRADIENT, "gradient"),
	CAT(MEMCAT_AUTOGRAD_DETAIL, "autograd_detail"), CAT(MEMCAT_UNKNOWN, "unknown"),
	END
};

static const struct field gpu_fields[] = {
	F(struct gpu_result, rank, "rank", K_COUNT, NULL),
	F(struct gpu_result, device, "device", K_COUNT, NULL),
	F(struct gpu_result, name, "name", K_STR, NULL),
	F(struct gpu_result, memory_total, "memory_total_bytes", K_COUNT, NULL),
	F(struct gpu_result, peak_memory, "peak_memory_bytes", K_COUNT, NULL),
	F(struct gpu_result, peak_source, "peak_memory_source", K_STR, NULL),
	SPECIAL("peak_memory_by_source", &by_source),
	F(struct gpu_result, mean_step_s, "mean_step_s", K_NUM, NULL),
	SUBAT(struct gpu_result, step_s, "step_s", parts6),
	SUBAT(struct gpu_result, span_s, "span_s", parts6),
	F(struct gpu_result, busy_s, "busy_s", K_NUM, NULL),
	F(struct gpu_result, clock_offset_s, "clock_offset_s", K_NUM, NULL),
	F(struct gpu_result, steps, "steps", K_ARR, &gpu_steps),
	F(struct gpu_result, top, "top_kernels", K_ARR, &gpu_top),
	F(struct gpu_result, lanes_window_s, "lanes_window_s", K_NUM, NULL),
	F(struct gpu_result, lanes, "lanes", K_ARR, &gpu_lanes),
	F(struct gpu_result, timeline_peak, "timeline_peak_bytes", K_COUNT, NULL),
	SUBAT(struct gpu_result, timeline_at_peak, "timeline_at_peak_bytes", category_fields),
	SUBAT(struct gpu_result, timeline_cat_peak, "timeline_category_peak_bytes", category_fields),
	END
};

static const struct field coll_fields[] = {
	F(struct coll_result, op, "op", K_ENUM, &coll_names),
	F(struct coll_result, dtype, "dtype", K_ENUM, &dtype_names),
	F(struct coll_result, bytes_per_step, "bytes_per_step", K_POS, NULL),
	F(struct coll_result, time_per_step_s, "time_per_step_s", K_NUM, NULL),
	F(struct coll_result, calls_per_step, "calls_per_step", K_NUM, NULL),
	F(struct coll_result, algbw_gbps, "algbw_gbps", K_NUM, NULL),
	F(struct coll_result, busbw_gbps, "busbw_gbps", K_NUM, NULL),
	F(struct coll_result, transfer_time_per_step_s, "transfer_time_per_step_s", K_NUM, NULL),
	F(struct coll_result, transfer_busbw_gbps, "transfer_busbw_gbps", K_NUM, NULL),
	F(struct coll_result, wait_time_per_step_s, "wait_time_per_step_s", K_NUM, NULL),
	F(struct coll_result, link_fraction, "link_fraction", K_NUM, NULL),
	END
};

static const struct field bw_fields[] = {
	F(struct bw_point, op, "op", K_ENUM, &coll_names),
	F(struct bw_point, bytes, "bytes", K_COUNT, NULL),
	F(struct bw_point, busbw_gbps, "busbw_gbps", K_NUM, NULL),
	F(struct bw_point, from_nccl_tests, "source", K_ENUM, &bw_source_names),
	END
};

static const struct array run_coll = {
	offsetof(struct run_result, ncoll), sizeof(struct coll_result), coll_fields, true };
static const struct array run_bw = {
	offsetof(struct run_result, nbw), sizeof(struct bw_point), bw_fields, true };

/* nccl_env: the NCCL_* settings as one object, name -> value, in the order the log echoed them. */
static void write_nccl_env(struct wctx *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_map_open(w->g);
	for (size_t i = 0; i < rr->nnccl_env; i++) {
		json_key(w->g, rr->nccl_env[i].name);
		json_str(w->g, rr->nccl_env[i].value);
	}
	yajl_gen_map_close(w->g);
}

static int read_nccl_env(struct rctx *r, const struct jnode *n, void *base)
{
	struct run_result *rr = base;
	size_t i = 0;

	rr->nnccl_env = 0;
	if (n && n->type != J_NULL && n->type != J_OBJ)
		return wrong_type(r, n, "an object");
	for (const struct jnode *c = n && n->type == J_OBJ ? n->child : NULL; c; c = c->next)
		i++;
	rr->nccl_env = arena_alloc(&r->a->arena, (i ? i : 1) * sizeof(*rr->nccl_env));
	for (const struct jnode *c = n && n->type == J_OBJ ? n->child : NULL; c; c = c->next) {
		size_t old = path_push(r, c->key, 0);

		if (c->type != J_STR)
			return wrong_type(r, c, "a string");
		rr->nccl_env[rr->nnccl_env++] = (struct env_setting){
			arena_strdup(&r->a->arena, c->key), arena_strdup(&r->a->arena, c->s) };
		path_pop(r, old);
	}
	return 0;
}

static const struct special nccl_env = { write_nccl_env, read_nccl_env };

static const struct field comm_fields[] = {
	F(struct run_result, transport, "transport", K_STR_UNKNOWN, NULL),
	F(struct run_result, link, "link", K_STR_UNKNOWN, NULL),
	F(struct run_result, link_source, "link_source", K_STR, NULL),
	F(struct run_result, link_gbps, "link_gbps", K_NUM, NULL),
	F(struct run_result, nccl_version, "nccl_version", K_STR, NULL),
	F(struct run_result, link_busbw_gbps, "link_busbw_gbps", K_NUM, NULL),
	F(struct run_result, link_busbw_source, "link_busbw_source", K_STR, NULL),
	F(struct run_result, coll_per, "collectives_per", K_STR, NULL),
	F(struct run_result, coll, "collectives", K_ARR, &run_coll),
	F(struct run_result, bw, "busbw_by_size", K_ARR, &run_bw),
	SPECIAL("nccl_env", &nccl_env),
	F(struct run_result, nccl_tests_gpus, "nccl_tests_gpus", K_COUNT, NULL),
	END
};

static const struct field straggler_fields[] = {
	F(struct straggler, rank, "rank", K_COUNT, NULL),
	F(struct straggler, cause, "cause", K_STR, NULL),
	F(struct straggler, wait_s, "wait_s", K_NUM, NULL),
	F(struct straggler, idle_s, "idle_s", K_NUM, NULL),
	F(struct straggler, busy_s, "busy_s", K_NUM, NULL),
	END
};

static const struct array stragglers = {
	offsetof(struct imbalance, nstragglers), sizeof(struct straggler), straggler_fields, false };

/* straggler_ranks: the stragglers' ranks alone; `stragglers` carries them back when read. */
static void write_straggler_ranks(struct wctx *w, const void *base)
{
	const struct imbalance *im = base;

	yajl_gen_array_open(w->g);
	for (size_t i = 0; i < im->nstragglers; i++)
		json_int(w->g, im->stragglers[i].rank);
	yajl_gen_array_close(w->g);
}

static int read_straggler_ranks(struct rctx *r, const struct jnode *n, void *base)
{
	(void)base;
	if (n && n->type != J_NULL && n->type != J_ARR)
		return wrong_type(r, n, "an array");
	return 0;
}

static const struct special straggler_ranks = { write_straggler_ranks, read_straggler_ranks };

static const struct field imbalance_fields[] = {
	F(struct imbalance, memory_ratio, "memory_ratio", K_NUM, NULL),
	F(struct imbalance, busy_ratio, "busy_ratio", K_NUM, NULL),
	F(struct imbalance, flagged, "flagged", K_BOOL, NULL),
	F(struct imbalance, reason, "reason", K_STR, NULL),
	F(struct imbalance, saturated_rank, "saturated_rank", K_COUNT, NULL),
	F(struct imbalance, waiting_rank, "waiting_rank", K_COUNT, NULL),
	F(struct imbalance, peer_wait_s, "peer_wait_s", K_NUM, NULL),
	F(struct imbalance, peer_wait_share, "peer_wait_share", K_NUM, NULL),
	SPECIAL("straggler_ranks", &straggler_ranks),
	F(struct imbalance, stragglers, "stragglers", K_ARR, &stragglers),
	F(struct imbalance, straggler_cost_s, "straggler_cost_s", K_NUM, NULL),
	F(struct imbalance, straggler_cost_share, "straggler_cost_share", K_NUM, NULL),
	F(struct imbalance, per, "per", K_STR, NULL),
	F(struct imbalance, straggler_reason, "straggler_reason", K_STR, NULL),
	END
};

static const struct field source_fields[] = {
	F(struct source, path, "path", K_TEXT, NULL),
	F(struct source, format, "format", K_TEXT, NULL),
	F(struct source, events, "events", K_COUNT, NULL),
	F(struct source, errors, "errors", K_COUNT, NULL),
	END
};

static const struct field sample_fields[] = {
	F(struct gpu_sample, ts, "ts_ns", K_COUNT, NULL),
	F(struct gpu_sample, gpu, "gpu", K_COUNT, NULL),
	F(struct gpu_sample, memory_used, "memory_used_bytes", K_COUNT, NULL),
	F(struct gpu_sample, memory_total, "memory_total_bytes", K_COUNT, NULL),
	F(struct gpu_sample, util_gpu, "util_gpu_percent", K_NONNEG, NULL),
	F(struct gpu_sample, power_w, "power_w", K_NONNEG, NULL),
	END
};

static const struct field precision_fields[] = {
	F(struct run_result, precision_declared, "declared", K_STR, NULL),
	F(struct run_result, precision_observed, "observed", K_ENUM, &dtype_names),
	SPECIAL("matmul_share", &share),
	END
};

static const struct field steps_fields[] = {
	F(struct run_result, steps_total, "total", K_COUNT, NULL),
	F(struct run_result, steps_warmup, "warmup", K_COUNT, NULL),
	F(struct run_result, steps_measured, "measured", K_COUNT, NULL),
	F(struct run_result, steps_trailing, "trailing", K_COUNT, NULL),
	END
};

static const struct field step_time_fields[] = {
	F(struct run_result, step_median_s, "median", K_NUM, NULL),
	F(struct run_result, step_p10_s, "p10", K_NUM, NULL),
	F(struct run_result, step_p90_s, "p90", K_NUM, NULL),
	F(struct run_result, step_cv, "cv", K_NUM, NULL),
	F(struct run_result, time_source, "source", K_STR, NULL),	/* and of throughput */
	END
};

static const struct field nsys_fields[] = {
	F(struct run_result, nsys_compute_s, "compute_s", K_NUM, NULL),
	F(struct run_result, nsys_comm_s, "comm_s", K_NUM, NULL),
	F(struct run_result, nsys_memory_s, "memory_s", K_NUM, NULL),
	F(struct run_result, nsys_step_range, "step_range", K_STR, NULL),
	END
};

static const struct field throughput_fields[] = {
	F(struct run_result, samples_per_s, "samples_per_s", K_NUM, NULL),
	F(struct run_result, tokens_per_s, "tokens_per_s", K_NUM, NULL),
	END
};

/*
 * step_windows: every step of every GPU, in rank order, so that anyone can
 * check a number; "step" and "rank" first, then these. The per-GPU steps
 * hold the same windows: the reader checks that both agree.
 */
static const struct field window_fields[] = {
	F(struct step_point, start_ns, "start_ns", K_COUNT, NULL),
	F(struct step_point, window_s, "dur_s", K_NUM, NULL),
	F(struct step_point, warmup, "warmup", K_BOOL, NULL),
	F(struct step_point, trailing, "trailing", K_BOOL, NULL),
	{ NULL, K_OBJ, offsetof(struct step_point, parts), 0, parts4 },
	END
};

static void write_windows(struct wctx *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_array_open(w->g);
	for (size_t g = 0; g < rr->ngpu; g++) {
		for (size_t i = 0; i < rr->gpu[g].nsteps; i++) {
			yajl_gen_map_open(w->g);
			json_key(w->g, "step");
			json_int(w->g, rr->gpu[g].steps[i].number);
			json_key(w->g, "rank");
			json_int(w->g, rr->gpu[g].rank);
			write_fields(w, window_fields, &rr->gpu[g].steps[i]);
			yajl_gen_map_close(w->g);
		}
	}
	yajl_gen_array_close(w->g);
}

/* Two readings of one number: equal, or both unknown, or equal within rounding. */
static bool same_num(double x, double y)
{
	return (isnan(x) && isnan(y)) || fabs(x - y) <= 1e-12 * fmax(1, fmax(fabs(x), fabs(y)));
}

static bool same_window(const struct step_point *x, const struct step_point *y)
{
	return x->start_ns == y->start_ns && x->warmup == y->warmup && x->trailing == y->trailing &&
	       same_num(x->window_s, y->window_s) && same_num(x->parts.compute, y->parts.compute) &&
	       same_num(x->parts.exposed_comm, y->parts.exposed_comm) &&
	       same_num(x->parts.memory, y->parts.memory) && same_num(x->parts.idle, y->parts.idle);
}

/* The per-GPU step of a window's rank and step; NULL when none. */
static const struct step_point *gpu_step(const struct run_result *rr, int64_t rank, int64_t step)
{
	for (size_t g = 0; g < rr->ngpu; g++)
		for (size_t i = 0; rr->gpu[g].rank == rank && i < rr->gpu[g].nsteps; i++)
			if (rr->gpu[g].steps[i].number == step)
				return &rr->gpu[g].steps[i];
	return NULL;
}

static int read_window(struct rctx *r, const struct jnode *c, const struct run_result *rr)
{
	static const struct field keys[] = {
		F(struct step_point, number, "step", K_INT, NULL),
		END
	};
	struct field rank_key = { "rank", K_INT, 0, sizeof(int64_t), NULL };
	struct step_point p;
	int64_t rank;
	const struct step_point *g;

	if (c->type != J_OBJ)
		return wrong_type(r, c, "an object");
	if (read_fields(r, c, keys, &p) < 0 || read_fields(r, c, window_fields, &p) < 0)
		return -1;
	r->obj = c;
	if (read_int(r, &rank_key, jtree_member(c, "rank"), &rank) < 0)
		return -1;
	g = gpu_step(rr, rank, p.number);
	if (!g || !same_window(g, &p))
		return rfail(r, c, "'%s' (rank %lld, step %lld) is not the window of per_gpu's steps",
			     r->path, (long long)rank, (long long)p.number);
	return 0;
}

static int read_windows(struct rctx *r, const struct jnode *n, void *base)
{
	const struct run_result *rr = base;
	size_t i = 0, total = 0;

	if (n && n->type != J_NULL && n->type != J_ARR)
		return wrong_type(r, n, "an array");
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next, i++) {
		size_t old = path_push(r, NULL, i);

		if (read_window(r, c, rr) < 0)
			return -1;
		path_pop(r, old);
	}
	for (size_t g = 0; g < rr->ngpu; g++)
		total += rr->gpu[g].nsteps;
	if (n && n->type == J_ARR && i != total)
		return rfail(r, n, "'%s' has %zu windows, but per_gpu has %zu steps", r->path, i, total);
	return 0;
}

static const struct special step_windows = { write_windows, read_windows };

static const struct array run_gpus = {
	offsetof(struct run_result, ngpu), sizeof(struct gpu_result), gpu_fields, false };
static const struct array run_sources = {
	offsetof(struct run_result, nsources), sizeof(struct source), source_fields, false };
static const struct array run_monitor = {
	offsetof(struct run_result, nmonitor), sizeof(struct gpu_sample), sample_fields, false };

/* readiness (issue 14): written only where the trial says something of it. */
static const struct field foreign_fields[] = {
	F(struct foreign_kernel, name, "name", K_TEXT, NULL),
	F(struct foreign_kernel, arch, "arch", K_TEXT, NULL),
	F(struct foreign_kernel, time_share, "time_share", K_NUM, NULL),
	END
};

static const struct array readiness_foreign = {
	offsetof(struct readiness, nforeign), sizeof(struct foreign_kernel), foreign_fields, false };

static const struct field check_fields[] = {
	F(struct readiness_item, component, "component", K_TEXT, NULL),
	F(struct readiness_item, have, "have", K_STR, NULL),
	F(struct readiness_item, minimum, "minimum", K_STR, NULL),
	F(struct readiness_item, ok, "ok", K_BOOL, NULL),
	F(struct readiness_item, fix, "fix", K_STR, NULL),
	END
};

static const struct array readiness_checks = {
	offsetof(struct readiness, nchecks), sizeof(struct readiness_item), check_fields, false };

static const struct field code_fields[] = {
	F(struct readiness_code, path, "path", K_TEXT, NULL),
	F(struct readiness_code, kind, "kind", K_STR, NULL),
	F(struct readiness_code, sass, "sass", K_WORDS, NULL),
	F(struct readiness_code, ptx, "ptx", K_WORDS, NULL),
	F(struct readiness_code, amdgpu, "amdgpu", K_WORDS, NULL),
	F(struct readiness_code, verdict, "verdict", K_STR, NULL),
	F(struct readiness_code, jit_ptx, "jit_ptx", K_STR, NULL),
	F(struct readiness_code, jit_driver, "jit_min_driver", K_STR, NULL),
	F(struct readiness_code, zstd_entries, "zstd_entries", K_COUNT, NULL),
	F(struct readiness_code, zstd_driver, "zstd_min_driver", K_STR, NULL),
	END
};

static const struct array readiness_code = {
	offsetof(struct readiness, ncode), sizeof(struct readiness_code), code_fields, false };

static const struct field readiness_fields[] = {
	F(struct readiness, gpu, "gpu", K_STR, NULL),
	F(struct readiness, isa, "arch", K_STR, NULL),
	F(struct readiness, torch, "torch", K_STR, NULL),
	F(struct readiness, torch_cuda, "torch_cuda", K_STR, NULL),
	F(struct readiness, arch_list, "arch_list", K_STR, NULL),
	F(struct readiness, driver, "driver", K_STR, NULL),
	F(struct readiness, nccl_version, "nccl_version", K_STR, NULL),
	F(struct readiness, arch_warning, "arch_warning", K_STR, NULL),
	F(struct readiness, checks, "checks", K_ARR, &readiness_checks),
	F(struct readiness, foreign_share, "foreign_share", K_NUM, NULL),
	F(struct readiness, foreign, "foreign_kernels", K_ARR, &readiness_foreign),
	F(struct readiness, code, "code", K_ARR, &readiness_code),
	F(struct readiness, verdict, "verdict", K_STR, NULL),
	F(struct readiness, reason, "reason", K_STR, NULL),
	END
};

/* plan against measured (issue 17): written only where run.ini predicts something. */
static const struct field plan_fields[] = {
	F(struct plan_check, predicted_peak_bytes, "predicted_peak_bytes", K_COUNT, NULL),
	F(struct plan_check, measured_peak_bytes, "measured_peak_bytes", K_COUNT, NULL),
	F(struct plan_check, predicted_step_s, "predicted_step_s", K_NUM, NULL),
	F(struct plan_check, measured_step_s, "measured_step_s", K_NUM, NULL),
	END
};

/* critical_kernels (issue 15): what replay re-runs, from the slowest GPU's steady steps. */
static const struct field critical_fields[] = {
	F(struct critical_kernel, name, "name", K_TEXT, NULL),
	F(struct critical_kernel, cls, "class", K_ENUM, &crit_names),
	F(struct critical_kernel, op, "op", K_STR, NULL),
	F(struct critical_kernel, input_dims, "input_dims", K_STR, NULL),
	F(struct critical_kernel, input_types, "input_types", K_STR, NULL),
	F(struct critical_kernel, dtype, "dtype", K_ENUM, &dtype_names),
	F(struct critical_kernel, coll, "collective", K_ENUM, &coll_or_null),
	F(struct critical_kernel, bytes, "bytes", K_COUNT, NULL),
	F(struct critical_kernel, calls_per_step, "calls_per_step", K_NUM, NULL),
	F(struct critical_kernel, median_s, "median_s", K_NUM, NULL),
	F(struct critical_kernel, p10_s, "p10_s", K_NUM, NULL),
	F(struct critical_kernel, p90_s, "p90_s", K_NUM, NULL),
	F(struct critical_kernel, share, "share", K_NUM, NULL),
	END
};

/*
 * facts: declared against measured, one member per fact (fact_key_name()),
 * null when nothing is known of it; value and declared are counts, or names
 * for precision, model and dataset.
 */
static const struct field count_fact_fields[] = {
	F(struct run_fact, value, "value", K_COUNT, NULL),
	F(struct run_fact, from, "from", K_ENUM, &fact_from_names),
	F(struct run_fact, at, "at", K_STR, NULL),
	F(struct run_fact, declared, "declared", K_COUNT, NULL),
	F(struct run_fact, declared_at, "declared_at", K_STR, NULL),
	END
};

static const struct field text_fact_fields[] = {
	F(struct run_fact, text, "value", K_STR, NULL),
	F(struct run_fact, from, "from", K_ENUM, &fact_from_names),
	F(struct run_fact, at, "at", K_STR, NULL),
	F(struct run_fact, declared_text, "declared", K_STR, NULL),
	F(struct run_fact, declared_at, "declared_at", K_STR, NULL),
	END
};

static const struct field *fact_fields(enum fact_key k)
{
	return fact_key_is_text(k) ? text_fact_fields : count_fact_fields;
}

static void write_facts(struct wctx *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_map_open(w->g);
	for (int k = 0; k < FACT_COUNT; k++) {
		json_key(w->g, fact_key_name((enum fact_key)k));
		if (rr->facts[k].from == FACT_FROM_NONE) {
			yajl_gen_null(w->g);
			continue;
		}
		yajl_gen_map_open(w->g);
		write_fields(w, fact_fields((enum fact_key)k), &rr->facts[k]);
		yajl_gen_map_close(w->g);
	}
	yajl_gen_map_close(w->g);
}

/* One fact: null or missing is nothing known; an object says where its value came from. */
static int read_fact(struct rctx *r, const struct jnode *n, enum fact_key k, struct run_fact *f)
{
	*f = (struct run_fact){ .value = -1, .declared = -1 };
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_OBJ)
		return wrong_type(r, n, "an object");
	if (read_fields(r, n, fact_fields(k), f) < 0)
		return -1;
	if (f->from == FACT_FROM_NONE)
		return rfail(r, n, "'%s' has no 'from'", r->path);
	return 0;
}

static int read_facts(struct rctx *r, const struct jnode *n, void *base)
{
	struct run_result *rr = base;

	if (n && n->type != J_NULL && n->type != J_OBJ)
		return wrong_type(r, n, "an object");
	for (int k = 0; k < FACT_COUNT; k++) {
		const char *key = fact_key_name((enum fact_key)k);
		size_t old = path_push(r, key, 0);

		if (read_fact(r, jtree_member(n, key), (enum fact_key)k, &rr->facts[k]) < 0)
			return -1;
		path_pop(r, old);
	}
	return 0;
}

static const struct special facts = { write_facts, read_facts };

static const struct array run_critical = {
	offsetof(struct run_result, ncritical), sizeof(struct critical_kernel), critical_fields, false };

static const struct field run_fields[] = {
	F(struct run_result, name, "name", K_TEXT, NULL),
	F(struct run_result, gpus, "gpus", K_COUNT, NULL),
	F(struct run_result, status, "status", K_ENUM, &status_names),
	F(struct run_result, strategy, "strategy", K_STR, NULL),
	F(struct run_result, inferred_strategy, "strategy_inferred", K_STR, NULL),
	F(struct run_result, global_batch, "global_batch", K_COUNT, NULL),
	F(struct run_result, micro_batch, "micro_batch", K_COUNT, NULL),
	F(struct run_result, grad_accum, "grad_accum", K_COUNT, NULL),
	F(struct run_result, seq_len, "seq_len", K_COUNT, NULL),
	SPECIAL("facts", &facts),
	SUB("precision", precision_fields),
	SUB("steps", steps_fields),
	SUB("step_time_s", step_time_fields),
	SUB("throughput", throughput_fields),
	F(struct run_result, examples_processed, "examples_processed", K_COUNT, NULL),
	F(struct run_result, gpu, "per_gpu", K_ARR, &run_gpus),
	SPECIAL("step_windows", &step_windows),
	SUB("comm", comm_fields),
	SUBAT(struct run_result, imbalance, "imbalance", imbalance_fields),
	F(struct run_result, sources, "sources", K_ARR, &run_sources),
	F(struct run_result, status_from_log, "status_from_log", K_BOOL, NULL),
	F(struct run_result, slowest, "slowest_gpu", K_INDEX, NULL),
	F(struct run_result, monitor, "monitor", K_ARR, &run_monitor),
	F(struct run_result, failed_allocation, "failed_allocation_bytes", K_COUNT, NULL),
	SUB("nsys_tables", nsys_fields),
	F(struct run_result, readiness, "readiness", K_OPT, readiness_fields),
	F(struct run_result, plan, "plan", K_OPT, plan_fields),
	F(struct run_result, critical, "critical_kernels", K_ARR, &run_critical),
	END
};

/* tool: who wrote the document and in which format; the reader checks it first. */
static void write_tool(struct wctx *w, const void *base)
{
	(void)base;
	yajl_gen_map_open(w->g);
	json_key(w->g, "name");
	json_str(w->g, "scaleaudit");
	json_key(w->g, "version");
	json_str(w->g, SCALEAUDIT_VERSION);
	json_key(w->g, "format");
	json_int(w->g, ANALYSIS_JSON_FORMAT);
	yajl_gen_map_close(w->g);
}

static int read_tool(struct rctx *r, const struct jnode *n, void *base)
{
	const struct jnode *name = jtree_member(n, "name"), *format = jtree_member(n, "format");

	(void)base;
	if (!n || n->type != J_OBJ || !name || name->type != J_STR)
		return rfail(r, n, "not a scaleaudit analysis: no 'tool.name'");
	if (strcmp(name->s, "scaleaudit"))
		return rfail(r, name, "not a scaleaudit analysis: 'tool.name' is '%s'", name->s);
	if (!format || format->type == J_NULL)
		return rfail(r, n, "no 'tool.format': written by a scaleaudit older than format 1, "
			     "which left out what a report is drawn from");
	if (format->type != J_NUM || !format->is_int) {
		path_push(r, "format", 0);
		return wrong_type(r, format, "an integer");
	}
	if (format->i < 1 || format->i > ANALYSIS_JSON_FORMAT)
		return rfail(r, format, "'tool.format' is %lld: this scaleaudit reads format %d",
			     (long long)format->i, ANALYSIS_JSON_FORMAT);
	return 0;
}

static const struct special tool = { write_tool, read_tool };

/*
 * The names of the compared runs (written twice: in trial and in comparison);
 * null without a comparison, or for an index past the runs (a damaged analysis).
 */
static void write_role(struct wctx *w, const struct comparison *c, size_t run)
{
	json_str(w->g, c->valid && run < w->a->nruns ? w->a->runs[run].name : NULL);
}

static void write_baseline(struct wctx *w, const void *base)
{
	write_role(w, &w->a->cmp, w->a->cmp.baseline);
	(void)base;
}

static void write_candidate(struct wctx *w, const void *base)
{
	write_role(w, &w->a->cmp, w->a->cmp.candidate);
	(void)base;
}

/* trial.baseline and trial.candidate repeat comparison's: read there. */
static int read_nothing(struct rctx *r, const struct jnode *n, void *base)
{
	(void)r;
	(void)n;
	(void)base;
	return 0;
}

static int read_role(struct rctx *r, const struct jnode *n, size_t *run)
{
	struct analysis *a = r->a;

	*run = 0;
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_STR)
		return wrong_type(r, n, "a string");
	for (size_t i = 0; i < a->nruns; i++) {
		if (!strcmp(a->runs[i].name, n->s)) {
			*run = i;
			a->cmp.valid = true;
			return 0;
		}
	}
	return rfail(r, n, "'%s' names no run: '%s'", r->path, n->s);
}

static int read_baseline(struct rctx *r, const struct jnode *n, void *base)
{
	(void)base;
	return read_role(r, n, &r->a->cmp.baseline);
}

static int read_candidate(struct rctx *r, const struct jnode *n, void *base)
{
	(void)base;
	return read_role(r, n, &r->a->cmp.candidate);
}

static const struct special trial_baseline = { write_baseline, read_nothing };
static const struct special trial_candidate = { write_candidate, read_nothing };
static const struct special cmp_baseline = { write_baseline, read_baseline };
static const struct special cmp_candidate = { write_candidate, read_candidate };

static const struct field trial_fields[] = {
	F(struct analysis, title, "title", K_STR, NULL),
	F(struct analysis, hypothesis, "hypothesis", K_ENUM, &hypothesis_names),
	SPECIAL("baseline", &trial_baseline),
	SPECIAL("candidate", &trial_candidate),
	F(struct analysis, question, "question", K_ENUM, &question_names),
	F(struct analysis, memory_reserve_bytes, "memory_reserve_bytes", K_NUM, NULL),
	F(struct analysis, expected_speedup, "expected_speedup", K_NUM, NULL),
	END
};

static const struct field confound_fields[] = {
	F(struct confound, what, "what", K_ENUM, &confound_names),
	F(struct confound, baseline, "baseline", K_STR, NULL),
	F(struct confound, candidate, "candidate", K_STR, NULL),
	F(struct confound, severity, "severity", K_ENUM, &cf_severity_names),
	F(struct confound, why, "why", K_TEXT, NULL),
	F(struct confound, message, "message", K_STR, NULL),
	END
};

static const struct array cmp_confounds = {
	offsetof(struct comparison, nconfounds), sizeof(struct confound), confound_fields, true };

static const struct field family_share_fields[] = {
	F(struct family_share, family, "family", K_TEXT, NULL),
	F(struct family_share, share, "share", K_NUM, NULL),
	END
};

static const struct array wl_baseline_only = {
	offsetof(struct workload, nbaseline_only), sizeof(struct family_share), family_share_fields, false };
static const struct array wl_candidate_only = {
	offsetof(struct workload, ncandidate_only), sizeof(struct family_share), family_share_fields, false };

static const struct field workload_fields[] = {
	F(struct workload, basis, "basis", K_ENUM, &basis_names),
	F(struct workload, baseline_overlap, "baseline_overlap", K_NUM, NULL),
	F(struct workload, candidate_overlap, "candidate_overlap", K_NUM, NULL),
	F(struct workload, baseline_only, "baseline_only", K_ARR, &wl_baseline_only),
	F(struct workload, candidate_only, "candidate_only", K_ARR, &wl_candidate_only),
	END
};

/* comparison.workload: an object, or null where no comparison was made (present false). */
static void write_workload(struct wctx *w, const void *base)
{
	const struct workload *wl = &((const struct comparison *)base)->workload;

	if (!wl->present) {
		yajl_gen_null(w->g);
		return;
	}
	yajl_gen_map_open(w->g);
	write_fields(w, workload_fields, wl);
	yajl_gen_map_close(w->g);
}

static int read_workload(struct rctx *r, const struct jnode *n, void *base)
{
	struct workload *wl = &((struct comparison *)base)->workload;

	*wl = (struct workload){ .baseline_overlap = NAN, .candidate_overlap = NAN };
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_OBJ)
		return wrong_type(r, n, "an object");
	if (read_fields(r, n, workload_fields, wl) < 0)
		return -1;
	wl->present = true;
	return 0;
}

static const struct special cmp_workload = { write_workload, read_workload };

static const struct field option_fields[] = {
	F(struct rental_option, gpus, "gpus", K_COUNT, NULL),
	F(struct rental_option, samples_per_s, "samples_per_s", K_NUM, NULL),
	F(struct rental_option, gpu_hours_per_million_samples, "gpu_hours_per_million_samples", K_NUM, NULL),
	F(struct rental_option, days_to_target, "days_to_target", K_NUM, NULL),
	F(struct rental_option, window_days, "window_days", K_COUNT, NULL),
	F(struct rental_option, gpu_hours, "gpu_hours", K_NUM, NULL),
	F(struct rental_option, cost, "cost", K_NUM, NULL),
	F(struct rental_option, cost_per_million_samples, "cost_per_million_samples", K_NUM, NULL),
	END
};

static const struct array cmp_options = {
	offsetof(struct comparison, noptions), sizeof(struct rental_option), option_fields, false };

static const struct field superlinear_fields[] = {
	F(struct superlinear, efficiency, "efficiency", K_NUM, NULL),
	F(struct superlinear, causes, "causes", K_WORDS, NULL),
	END
};

static const char *weak_at(int v) { return weak_what_name((enum weak_what)v); }
static const struct names weak_names = { weak_at, WEAK_COUNT, false };

static const struct field weak_fields[] = {
	F(struct weak_evidence, what, "what", K_ENUM, &weak_names),
	F(struct weak_evidence, message, "message", K_TEXT, NULL),
	END
};

static const struct array cmp_weak = {
	offsetof(struct comparison, nweak), sizeof(struct weak_evidence), weak_fields, false };
static const struct field weak_field = F(struct comparison, weak, "weak_evidence", K_ARR, &cmp_weak);

/* weak_evidence: null without a comparison, else the list ([] when nothing weakens the verdict). */
static void write_weak(struct wctx *w, const void *base)
{
	if (!((const struct comparison *)base)->valid)
		yajl_gen_null(w->g);
	else
		write_array(w, &weak_field, base);
}

static int read_weak(struct rctx *r, const struct jnode *n, void *base)
{
	return read_array(r, &weak_field, n, base);
}

static const struct special cmp_weak_evidence = { write_weak, read_weak };

static const struct field comparison_fields[] = {
	SPECIAL("baseline", &cmp_baseline),
	SPECIAL("candidate", &cmp_candidate),
	F(struct comparison, speedup, "speedup", K_NUM, NULL),
	F(struct comparison, throughput_ratio, "throughput_ratio", K_NUM, NULL),
	F(struct comparison, scaling_efficiency, "scaling_efficiency", K_NUM, NULL),
	F(struct comparison, confounds, "confounds", K_ARR, &cmp_confounds),
	SPECIAL("workload", &cmp_workload),
	SUBAT(struct comparison, attribution_s, "attribution_s", parts4),
	F(struct comparison, ideal_s, "ideal_s", K_NUM, NULL),
	F(struct comparison, actual_s, "actual_s", K_NUM, NULL),
	F(struct comparison, verdict, "verdict", K_ENUM, &verdict_names),
	F(struct comparison, reason, "reason", K_STR, NULL),
	F(struct comparison, criterion, "criterion", K_STR, NULL),
	F(struct comparison, answer, "answer", K_ENUM, &answer_names),
	F(struct comparison, answer_reason, "answer_reason", K_STR, NULL),
	F(struct comparison, options, "options", K_ARR, &cmp_options),
	F(struct comparison, superlinear, "superlinear", K_OPT_NULL, superlinear_fields),
	SPECIAL("weak_evidence", &cmp_weak_evidence),
	END
};

static const struct field rec_fields[] = {
	F(struct recommendation, id, "id", K_TEXT, NULL),
	F(struct recommendation, text, "text", K_TEXT, NULL),
	END
};

static const struct field finding_fields[] = {
	F(struct finding, severity, "severity", K_ENUM, &severity_names),
	F(struct finding, code, "code", K_TEXT, NULL),
	F(struct finding, message, "message", K_TEXT, NULL),
	F(struct finding, source, "source", K_STR, NULL),
	END
};

static const struct array analysis_runs = {
	offsetof(struct analysis, nruns), sizeof(struct run_result), run_fields, false };
static const struct array analysis_recs = {
	offsetof(struct analysis, nrecs), sizeof(struct recommendation), rec_fields, true };
static const struct array analysis_findings = {
	offsetof(struct analysis, nfindings), sizeof(struct finding), finding_fields, true };

static const struct field analysis_fields[] = {
	SPECIAL("tool", &tool),
	SUB("trial", trial_fields),
	F(struct analysis, runs, "runs", K_ARR, &analysis_runs),
	SUBAT(struct analysis, cmp, "comparison", comparison_fields),
	F(struct analysis, recs, "recommendations", K_ARR, &analysis_recs),
	F(struct analysis, findings, "findings", K_ARR, &analysis_findings),
	END
};

int analysis_write_json(const struct analysis *a, FILE *f)
{
	struct wctx w = { .g = json_new(), .a = a };
	int rc;

	yajl_gen_map_open(w.g);
	write_fields(&w, analysis_fields, a);
	yajl_gen_map_close(w.g);
	rc = json_flush(w.g, f, true);
	yajl_gen_free(w.g);
	return rc;
}

/*
 * What the renderers rely on and the types alone do not say: the slowest
 * GPU is one of the run's, a verdict and a flagged imbalance have a reason.
 */
static int check(struct rctx *r, const struct jnode *root)
{
	const struct analysis *a = r->a;

	for (size_t i = 0; i < a->nruns; i++) {
		const struct run_result *rr = &a->runs[i];

		if (rr->ngpu ? rr->slowest >= rr->ngpu : rr->slowest != 0)
			return rfail(r, root, "'runs[%zu].slowest_gpu' is %zu, but the run has %zu GPUs",
				     i, rr->slowest, rr->ngpu);
		if (rr->imbalance.flagged && !rr->imbalance.reason)
			return rfail(r, root, "'runs[%zu].imbalance' is flagged without a reason", i);
	}
	if (a->cmp.verdict != VERDICT_NONE && (!a->cmp.valid || !a->cmp.reason))
		return rfail(r, root, "'comparison.verdict' is set without a baseline, candidate and reason");
	return 0;
}

static int decode(struct rctx *r, const struct jnode *root)
{
	struct analysis *a = r->a;

	if (root->type != J_OBJ)
		return rfail(r, root, "not a scaleaudit analysis: the document is %s, not an object",
			     jtree_type_name(root->type));
	if (read_fields(r, root, analysis_fields, a) < 0)	/* tool first: it says what follows */
		return -1;
	a->cap_findings = a->nfindings;
	a->cap_recs = a->nrecs;
	a->cap_confounds = a->cmp.nconfounds;
	return check(r, root);
}

struct analysis *analysis_parse_json(const char *buf, size_t len, const char *name,
				     struct diags *d)
{
	struct arena tree = ARENA_INIT;
	struct rctx r = { .a = xcalloc(1, sizeof(*r.a)) };
	const struct jnode *root = jtree_parse(&tree, buf, len, &r.err, &r.err_at);
	struct srcpos pos;

	if (root)
		decode(&r, root);
	if (r.err) {
		pos = SRCPOS_BYTE(name, r.err_at);
		diag_error(d, "analysis-json", &pos, "%s", r.err);
		analysis_free(r.a);
		r.a = NULL;
	}
	arena_release(&tree);
	return r.a;
}

#define MAX_FILE (1024 * 1024 * 1024)

struct analysis *analysis_read_json(const char *path, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(path);
	struct buf b;
	struct analysis *a = NULL;
	int rc;

	buf_init(&b, MAX_FILE - 1);
	rc = buf_read_file(&b, path);
	if (rc < 0)
		diag_error(d, "analysis-json", &pos, "%s: %s", rc == -1 ? "cannot open" : "cannot read",
			   strerror(errno));
	else if (b.overflow)
		diag_error(d, "analysis-json", &pos, "larger than 1 GiB: not an analysis.json");
	else
		a = analysis_parse_json(b.data, b.len, path, d);
	buf_release(&b);
	return a;
}

/* The offset of the first byte at or after i that is not blank; len when none. */
static size_t skip_blanks(const char *buf, size_t len, size_t i)
{
	while (i < len && buf[i] && strchr(" \t\r\n", buf[i]))
		i++;
	return i;
}

bool analysis_json_sniff(const char *buf, size_t len)
{
	size_t i = skip_blanks(buf, len, 0);

	if (i >= len || buf[i] != '{')
		return false;
	i = skip_blanks(buf, len, i + 1);
	return len - i >= 6 && !memcmp(buf + i, "\"tool\"", 6);
}
