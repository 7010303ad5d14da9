#include "core/codeobj.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/xalloc.h"

void code_object_init(struct code_object *o, const char *path, const char *kind)
{
	*o = (struct code_object){ .path = xstrdup(path), .kind = kind };
}

void code_object_add(struct code_object *o, const struct code_entry *e)
{
	xgrow(&o->entry, &o->cap, o->nentry + 1, sizeof(*o->entry));
	o->entry[o->nentry++] = *e;
}

void code_object_release(struct code_object *o)
{
	free(o->path);
	free(o->entry);
	*o = (struct code_object){ 0 };
}

/* Kinds in the order the archs are listed, then SM number, then name. */
static int entry_order(const struct code_entry *a, const struct code_entry *b)
{
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->sm != b->sm)
		return a->sm - b->sm;
	return strcmp(a->arch, b->arch);
}

static int by_entry(const void *a, const void *b)
{
	return entry_order(*(const struct code_entry *const *)a, *(const struct code_entry *const *)b);
}

/* The distinct arch names of o's entries of kind (-1 every kind); rel_only: only those
   whose every entry is relocatable. */
static void archs_where(const struct code_object *o, int kind, bool rel_only, struct buf *out)
{
	const struct code_entry **e = xcalloc(o->nentry + 1, sizeof(*e));
	size_t n = 0, shown = 0;

	for (size_t i = 0; i < o->nentry; i++)
		if (kind < 0 || (int)o->entry[i].kind == kind)
			e[n++] = &o->entry[i];
	qsort(e, n, sizeof(*e), by_entry);
	for (size_t i = 0, j; i < n; i = j) {
		bool rel = true;

		for (j = i; j < n && !strcmp(e[j]->arch, e[i]->arch); j++)
			rel &= e[j]->relocatable;
		if (!rel_only || rel)
			buf_addf(out, "%s%s", shown++ ? " " : "", e[i]->arch);
	}
	free(e);
}

void code_object_archs(const struct code_object *o, int kind, struct buf *out)
{
	archs_where(o, kind, false, out);
}

void code_object_relocatable_only(const struct code_object *o, struct buf *out)
{
	archs_where(o, -1, true, out);
}

const char *code_object_file(const struct code_object *o)
{
	const char *slash = strrchr(o->path, '/');

	return slash ? slash + 1 : o->path;
}
