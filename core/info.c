#include "core/info.h"

#include <math.h>
#include <string.h>

struct info *info_root(struct arena *a)
{
	struct info *n = arena_alloc(a, sizeof(*n));

	n->type = INFO_OBJ;
	return n;
}

struct info *info_get(const struct info *obj, const char *key)
{
	if (!obj || obj->type != INFO_OBJ)
		return NULL;
	for (struct info *c = obj->child; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

/* The node for key in parent: the existing member, emptied, or a new one. */
static struct info *slot(struct arena *a, struct info *parent, const char *key,
			 enum info_type type)
{
	struct info *n = key ? info_get(parent, key) : NULL;

	if (n) {
		n->child = n->last = NULL;
	} else {
		n = arena_alloc(a, sizeof(*n));
		n->key = key ? arena_strdup(a, key) : NULL;
		if (parent->last)
			parent->last->next = n;
		else
			parent->child = n;
		parent->last = n;
	}
	n->type = type;
	return n;
}

struct info *info_obj(struct arena *a, struct info *parent, const char *key)
{
	return slot(a, parent, key, INFO_OBJ);
}

struct info *info_arr(struct arena *a, struct info *parent, const char *key)
{
	return slot(a, parent, key, INFO_ARR);
}

void info_null(struct arena *a, struct info *parent, const char *key)
{
	slot(a, parent, key, INFO_NULL);
}

void info_bool(struct arena *a, struct info *parent, const char *key, bool v)
{
	slot(a, parent, key, INFO_BOOL)->v.b = v;
}

void info_int(struct arena *a, struct info *parent, const char *key, int64_t v)
{
	slot(a, parent, key, INFO_INT)->v.i = v;
}

void info_num(struct arena *a, struct info *parent, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		slot(a, parent, key, INFO_NULL);
	else
		slot(a, parent, key, INFO_NUM)->v.d = v;
}

void info_str(struct arena *a, struct info *parent, const char *key, const char *s)
{
	if (!s)
		slot(a, parent, key, INFO_NULL);
	else
		slot(a, parent, key, INFO_STR)->v.s = arena_strdup(a, s);
}
