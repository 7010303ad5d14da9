/*
 * jfields: the writer and the reader walk the same table; every kind's
 * unknown value is written null and read back from null or a missing key.
 * Integers of 1, 4 or 8 bytes are stored by size (an enum, a bool, int32_t
 * or int64_t); jfields_check holds each kind to its sizes.
 */
#include "core/jfields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/xalloc.h"

/* --- where the reader is, and its first error --- */

int jread_fail(struct jread *r, const struct jnode *n, const char *fmt, ...)
{
	va_list ap;

	if (r->err[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	if (!r->err[0])
		snprintf(r->err, sizeof(r->err), "'%s' is wrong", r->path);
	r->err_at = n ? n->at : r->obj ? r->obj->at : 0;
	return -1;
}

int jread_wrong_type(struct jread *r, const struct jnode *n, const char *want)
{
	return jread_fail(r, n, "'%s' is %s, not %s", r->path, jtree_type_name(n->type), want);
}

size_t jread_push(struct jread *r, const char *key, size_t index)
{
	size_t old = r->plen;
	int n = key ? snprintf(r->path + old, JREAD_MAX_PATH - old, "%s%s", old ? "." : "", key)
		: snprintf(r->path + old, JREAD_MAX_PATH - old, "[%zu]", index);

	r->plen = n < 0 || old + (size_t)n >= JREAD_MAX_PATH ? JREAD_MAX_PATH - 1 : old + (size_t)n;
	return old;
}

void jread_pop(struct jread *r, size_t old)
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

static void write_enum(struct jwrite *w, const struct jfield *f, const void *p)
{
	const struct jnames *nm = f->aux;
	int64_t v = get_int(p, f->size);

	json_str(w->g, (nm->zero_null && v == 0) || v < 0 || v >= nm->count ? NULL : nm->name((int)v));
}

static void write_array(struct jwrite *w, const struct jfield *f, const void *base)
{
	const struct jarray *ar = f->aux;
	const char *elems = *(const char *const *)((const char *)base + f->off);
	size_t n = *(const size_t *)((const char *)base + ar->count_off);

	yajl_gen_array_open(w->g);
	for (size_t i = 0; i < n; i++) {
		yajl_gen_map_open(w->g);
		jfields_write(w, ar->elem, elems + i * ar->elem_size);
		yajl_gen_map_close(w->g);
	}
	yajl_gen_array_close(w->g);
}

/* "sm_90 sm_100" as ["sm_90", "sm_100"]; NULL or "" as []. */
static void write_words(struct jwrite *w, const char *s)
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

static const char *str_at(const void *p)
{
	return *(const char *const *)p;
}

static void write_count(struct jwrite *w, int64_t v)
{
	if (v < 0)
		yajl_gen_null(w->g);
	else
		json_int(w->g, v);
}

static void write_num(struct jwrite *w, enum jkind kind, double d)
{
	json_num(w->g, (kind == JK_POS && d <= 0) || (kind == JK_NONNEG && d < 0) ? NAN : d);
}

static void write_object(struct jwrite *w, const struct jfield *f, const void *p)
{
	if (f->kind == JK_OPT_NULL && !*(const bool *)p) {
		yajl_gen_null(w->g);
		return;
	}
	yajl_gen_map_open(w->g);
	jfields_write(w, f->aux, p);
	yajl_gen_map_close(w->g);
}

void jfield_write_value(struct jwrite *w, const struct jfield *f, const void *base)
{
	const void *p = (const char *)base + f->off;

	switch (f->kind) {
	case JK_STR:
	case JK_TEXT:
		json_str(w->g, str_at(p));
		break;
	case JK_STR_UNKNOWN:
		json_str(w->g, str_at(p) ? str_at(p) : "unknown");
		break;
	case JK_COUNT:
		write_count(w, get_int(p, f->size));
		break;
	case JK_INT:
		json_int(w->g, *(const int64_t *)p);
		break;
	case JK_INDEX:
		json_int(w->g, (int64_t)*(const size_t *)p);
		break;
	case JK_NUM:
	case JK_POS:
	case JK_NONNEG:
		write_num(w, f->kind, *(const double *)p);
		break;
	case JK_BOOL:
		yajl_gen_bool(w->g, *(const bool *)p);
		break;
	case JK_ENUM:
		write_enum(w, f, p);
		break;
	case JK_OBJ:
	case JK_OPT:
	case JK_OPT_NULL:
		write_object(w, f, p);
		break;
	case JK_ARR:
		write_array(w, f, base);
		break;
	case JK_SPECIAL:
		((const struct jspecial *)f->aux)->write(w, base);
		break;
	case JK_WORDS:
		write_words(w, str_at(p));
		break;
	}
}

void jfields_write(struct jwrite *w, const struct jfield *f, const void *base)
{
	for (; f->key || f->aux; f++) {
		if (!f->key) {		/* an inlined object: its fields are this object's */
			jfields_write(w, f->aux, (const char *)base + f->off);
			continue;
		}
		if (f->kind == JK_OPT && !*(const bool *)((const char *)base + f->off))
			continue;
		json_key(w->g, f->key);
		jfield_write_value(w, f, base);
	}
}

/* --- reading --- */

static int read_str(struct jread *r, const struct jfield *f, const struct jnode *n, void *p)
{
	const char **s = p;

	*s = NULL;
	if (!n || n->type == J_NULL) {
		if (f->kind == JK_TEXT)
			return jread_fail(r, n, "'%s' is %s, not a string", r->path, n ? "null" : "missing");
		return 0;
	}
	if (n->type != J_STR)
		return jread_wrong_type(r, n, "a string");
	if (f->kind == JK_STR_UNKNOWN && !strcmp(n->s, "unknown"))
		return 0;
	*s = arena_strdup(r->arena, n->s);	/* the tree may go when the parse ends */
	return 0;
}

static int read_index(struct jread *r, const struct jnode *n, size_t *p)
{
	*p = 0;
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_NUM || !n->is_int)
		return jread_wrong_type(r, n, "an integer");
	if (n->i < 0)
		return jread_fail(r, n, "'%s' is out of range", r->path);
	*p = (size_t)n->i;
	return 0;
}

/* A count is null (unknown) or from 0 up; an integer any value its width holds. */
static int read_int(struct jread *r, const struct jfield *f, const struct jnode *n, void *p)
{
	int64_t min = f->kind == JK_COUNT ? 0 : -int_max(f->size);

	set_int(p, f->size, f->kind == JK_COUNT ? -1 : 0);
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_NUM || !n->is_int)
		return jread_wrong_type(r, n, "an integer");
	if (n->i > int_max(f->size) || n->i < min)
		return jread_fail(r, n, "'%s' is out of range", r->path);
	set_int(p, f->size, n->i);
	return 0;
}

static int read_num(struct jread *r, const struct jfield *f, const struct jnode *n, double *p)
{
	*p = f->kind == JK_POS ? 0 : f->kind == JK_NONNEG ? -1 : NAN;
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_NUM)
		return jread_wrong_type(r, n, "a number");
	/* no quantity of a trial comes near 1e18 (an exabyte, 30 billion years): such a value is damage */
	if (!isfinite(n->d) || fabs(n->d) > 1e18)
		return jread_fail(r, n, "'%s' is out of range", r->path);
	*p = n->d;
	return 0;
}

static int read_bool(struct jread *r, const struct jnode *n, bool *p)
{
	*p = false;
	if (n && n->type != J_NULL && n->type != J_BOOL)
		return jread_wrong_type(r, n, "true or false");
	*p = n && n->type == J_BOOL && n->b;
	return 0;
}

static int read_enum(struct jread *r, const struct jfield *f, const struct jnode *n, void *p)
{
	const struct jnames *nm = f->aux;

	set_int(p, f->size, 0);
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_STR)
		return jread_wrong_type(r, n, "a string");
	for (int v = 0; v < nm->count; v++) {
		if (nm->name(v) && !strcmp(nm->name(v), n->s)) {
			set_int(p, f->size, v);
			return 0;
		}
	}
	return jread_fail(r, n, "'%s' is '%s', which this scaleaudit does not know", r->path, n->s);
}

static int read_object(struct jread *r, const struct jfield *f, const struct jnode *n, void *p)
{
	const struct jnode *obj = n && n->type == J_OBJ ? n : NULL;

	if (n && n->type != J_NULL && n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	if (jfields_read(r, obj, f->aux, p) < 0)
		return -1;
	if (f->kind != JK_OBJ)
		*(bool *)p = obj != NULL;
	return 0;
}

static int read_array(struct jread *r, const struct jfield *f, const struct jnode *n, void *base)
{
	const struct jarray *ar = f->aux;
	char **elems = (char **)((char *)base + f->off);
	size_t *count = (size_t *)((char *)base + ar->count_off), i = 0, total = 0;

	*elems = NULL;
	*count = 0;
	if (n && n->type != J_NULL && n->type != J_ARR)
		return jread_wrong_type(r, n, "an array");
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next)
		total++;
	*elems = ar->heap ? xcalloc(total ? total : 1, ar->elem_size)
		: arena_alloc(r->arena, (total ? total : 1) * ar->elem_size);
	*count = total;
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next, i++) {
		size_t old = jread_push(r, NULL, i);

		if (c->type != J_OBJ)
			return jread_wrong_type(r, c, "an object");
		if (budget_over())
			return jread_fail(r, c, "'%s' needs more memory than --max-memory allows (the budget of "
					  "data kept): not read", r->path);
		if (jfields_read(r, c, ar->elem, *elems + i * ar->elem_size) < 0)
			return -1;
		jread_pop(r, old);
	}
	return 0;
}

/* An array of strings without spaces, joined by spaces; missing or null is "". */
static int read_words(struct jread *r, const struct jnode *n, void *p)
{
	struct buf b = BUF_INIT;

	*(const char **)p = "";
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_ARR)
		return jread_wrong_type(r, n, "an array of strings");
	buf_init(&b, 0);
	for (const struct jnode *c = n->child; c; c = c->next) {
		if (c->type != J_STR || !*c->s || strchr(c->s, ' ')) {
			buf_release(&b);
			return jread_wrong_type(r, c, "a word (a string without spaces)");
		}
		buf_addf(&b, "%s%s", b.len ? " " : "", c->s);
	}
	*(const char **)p = arena_strdup(r->arena, b.len ? b.data : "");
	buf_release(&b);
	return 0;
}

int jfield_read_value(struct jread *r, const struct jfield *f, const struct jnode *n, void *base)
{
	void *p = (char *)base + f->off;

	switch (f->kind) {
	case JK_STR:
	case JK_TEXT:
	case JK_STR_UNKNOWN:
		return read_str(r, f, n, p);
	case JK_COUNT:
	case JK_INT:
		return read_int(r, f, n, p);
	case JK_INDEX:
		return read_index(r, n, p);
	case JK_NUM:
	case JK_POS:
	case JK_NONNEG:
		return read_num(r, f, n, p);
	case JK_BOOL:
		return read_bool(r, n, p);
	case JK_ENUM:
		return read_enum(r, f, n, p);
	case JK_OBJ:
	case JK_OPT:
	case JK_OPT_NULL:
		return read_object(r, f, n, p);
	case JK_ARR:
		return read_array(r, f, n, base);
	case JK_SPECIAL:
		return ((const struct jspecial *)f->aux)->read(r, n, base);
	case JK_WORDS:
		return read_words(r, n, p);
	}
	return 0;
}

int jfields_read(struct jread *r, const struct jnode *obj, const struct jfield *f, void *base)
{
	for (; f->key || f->aux; f++) {
		size_t old;

		if (!f->key) {
			if (jfields_read(r, obj, f->aux, (char *)base + f->off) < 0)
				return -1;
			continue;
		}
		old = jread_push(r, f->key, 0);
		r->obj = obj;
		if (jfield_read_value(r, f, jtree_member(obj, f->key), base) < 0)
			return -1;
		r->obj = obj;
		jread_pop(r, old);
	}
	return 0;
}

/* --- the tables against the kinds --- */

/* The sizes a kind may store; 0 ends. SUB and SPECIAL have none (size 0). */
static const size_t kind_sizes[][3] = {
	[JK_STR] = { sizeof(char *) }, [JK_TEXT] = { sizeof(char *) },
	[JK_STR_UNKNOWN] = { sizeof(char *) }, [JK_WORDS] = { sizeof(char *) },
	[JK_COUNT] = { 4, 8 }, [JK_INT] = { 8 }, [JK_INDEX] = { sizeof(size_t) },
	[JK_NUM] = { sizeof(double) }, [JK_POS] = { sizeof(double) }, [JK_NONNEG] = { sizeof(double) },
	[JK_BOOL] = { sizeof(bool) }, [JK_ENUM] = { 1, 4, 8 }, [JK_ARR] = { sizeof(void *) },
};

static bool size_fits(const struct jfield *f)
{
	if (f->kind == JK_OBJ || f->kind == JK_OPT || f->kind == JK_OPT_NULL)
		return f->size > 0 || f->off == 0;	/* a member, or SUB and MERGE */
	if (f->kind == JK_SPECIAL)
		return f->size == 0 && f->aux;
	for (size_t i = 0; i < 3 && kind_sizes[f->kind][i]; i++)
		if (f->size == kind_sizes[f->kind][i])
			return true;
	return false;
}

/* The fields checked in f and below, or -1 with why set. */
static int check_below(const struct jfield *f, size_t struct_size, char *why, size_t size);

static int check_one(const struct jfield *f, size_t struct_size, char *why, size_t size)
{
	const struct jarray *ar = f->aux;
	const struct jfield *const *t;
	int n = 0, below;

	if (!size_fits(f) || f->off + f->size > struct_size) {
		snprintf(why, size, "'%s': kind %d of %zu bytes at %zu in a struct of %zu",
			 f->key ? f->key : "(inlined)", (int)f->kind, f->size, f->off, struct_size);
		return -1;
	}
	switch (f->kind) {
	case JK_OBJ:
	case JK_OPT:
	case JK_OPT_NULL:
		if (!f->aux || (f->kind != JK_OBJ && f->size < sizeof(bool)))
			break;
		below = check_below(f->aux, f->size ? f->size : struct_size, why, size);
		return below < 0 ? -1 : 1 + below;
	case JK_ARR:
		if (!ar || !ar->elem || ar->count_off + sizeof(size_t) > struct_size)
			break;
		below = check_below(ar->elem, ar->elem_size, why, size);
		return below < 0 ? -1 : 1 + below;
	case JK_SPECIAL:
		for (t = ((const struct jspecial *)f->aux)->tables; t && *t; t++) {
			if ((below = check_below(*t, SIZE_MAX, why, size)) < 0)
				return -1;
			n += below;
		}
		return 1 + n;
	case JK_ENUM:
		if (f->aux)
			return 1;
		break;
	default:
		return 1;
	}
	snprintf(why, size, "'%s': kind %d lacks what it needs", f->key ? f->key : "(inlined)", (int)f->kind);
	return -1;
}

static int check_below(const struct jfield *f, size_t struct_size, char *why, size_t size)
{
	int n = 0, one;

	for (; f->key || f->aux; f++) {
		if ((one = check_one(f, struct_size, why, size)) < 0)
			return -1;
		n += one;
	}
	return n;
}

int jfields_check(const struct jfield *f, size_t struct_size, char *why, size_t size)
{
	why[0] = '\0';
	return check_below(f, struct_size, why, size);
}
