#include "core/codeobj.h"

#include <stdlib.h>
#include <string.h>

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
