#include "analysis/stack.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/xalloc.h"

void stack_add_item(struct stack_result *r, const struct code_object *o)
{
	struct stack_item *it;
	enum code_verdict v[READINESS_MAX_TARGETS];
	struct buf fix = BUF_INIT;

	xgrow(&r->item, &r->cap, r->nitem + 1, sizeof(*r->item));
	it = &r->item[r->nitem++];
	*it = (struct stack_item){ .o = *o };
	for (size_t i = 0; i < r->tl.n; i++) {
		readiness_judge(&it->o, &r->tl.t[i], &it->j[i]);
		v[i] = it->j[i].verdict;
	}
	buf_init(&fix, 0);
	readiness_fix(&it->o, &r->tl, v, &fix);
	it->fix = fix.len ? buf_detach(&fix) : NULL;
	buf_release(&fix);
}

const char *stack_zstd_blocked(const struct stack_result *r, const struct stack_item *it, size_t *n)
{
	const char *need = readiness_zstd_driver(&it->o, n);

	return need && r->env.driver && version_cmp(r->env.driver, need) < 0 ? need : NULL;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct stack_item *)a)->o.path, ((const struct stack_item *)b)->o.path);
}

void stack_decide(struct stack_result *r)
{
	size_t n;

	if (r->nitem > 1)
		qsort(r->item, r->nitem, sizeof(*r->item), by_path);	/* walks come in any order */
	for (size_t t = 0; t < r->tl.n; t++) {
		r->ready[t] = true;
		for (size_t i = 0; i < r->nitem; i++)
			if (r->item[i].j[t].verdict == CODE_MISSING ||
			    (r->tl.t[t].vendor == TARGET_CUDA && stack_zstd_blocked(r, &r->item[i], &n)))
				r->ready[t] = false;
	}
	for (size_t c = 0; c < r->ncheck; c++)
		if (!r->check[c].ok)
			r->ready[r->check[c].target - r->tl.t] = false;
}

void stack_result_release(struct stack_result *r)
{
	for (size_t i = 0; i < r->nitem; i++) {
		code_object_release(&r->item[i].o);
		free(r->item[i].fix);
	}
	free(r->item);
	intern_release(&r->strings);
}
