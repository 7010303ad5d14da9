#include "core/launchop.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/intern.h"
#include "core/xalloc.h"

/*
 * A triple is stored after a pointer that forwards it to its copy in the
 * table it was merged into (NULL: it is the copy), as intern.c does for
 * strings.
 */
struct launch_op_node {
	const struct launch_op *canon;
	struct launch_op op;
};

/* The strings are interned: their addresses are the triple's identity. */
static uint64_t hash(const struct launch_op *o)
{
	uint64_t h = (uint64_t)(uintptr_t)o->name * 0x9e3779b97f4a7c15ULL;

	h = (h ^ (h >> 29) ^ (uint64_t)(uintptr_t)o->input_types) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 31) ^ (uint64_t)(uintptr_t)o->input_dims) * 0x94d049bb133111ebULL;
	h = (h ^ (h >> 29) ^ o->where) * 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 31) ^ (uint64_t)(uintptr_t)o->concrete) * 0x94d049bb133111ebULL;
	return h ^ (h >> 32);
}

static bool same(const struct launch_op *a, const struct launch_op *b)
{
	return a->name == b->name && a->input_types == b->input_types &&
	       a->input_dims == b->input_dims && a->where == b->where && a->concrete == b->concrete;
}

/*
 * The node of t equal to o, or, when there is none, node n (NULL: a new
 * one from t's arena) added as o's. Two triples whose hashes meet are told
 * apart by probing the next key (the map keeps the first).
 */
static struct launch_op_node *find_or_add(struct launch_ops *t, const struct launch_op *o,
					  struct launch_op_node *n)
{
	uint32_t i;

	for (uint64_t h = hash(o);; h += 2) {
		int64_t key = (int64_t)(h >> 1);	/* the next key each time; never INT64_MIN */

		if (imap_get(&t->ix, key, &i)) {
			if (same(&t->nodes[i]->op, o))
				return t->nodes[i];
			continue;
		}
		if (!n)
			n = arena_alloc(&t->arena, sizeof(*n));	/* zeroed: no forward */
		n->op = *o;
		xgrow(&t->nodes, &t->cap, t->count + 1, sizeof(*t->nodes));
		t->nodes[t->count] = n;
		imap_put(&t->ix, key, (uint32_t)t->count++);
		return n;
	}
}

const struct launch_op *launch_op_get_at(struct launch_ops *t, const char *name, const char *types,
					 const char *dims, unsigned where)
{
	struct launch_op o = { .name = name, .input_types = types, .input_dims = dims,
			       .where = where };

	return &find_or_add(t, &o, NULL)->op;
}

const struct launch_op *launch_op_get_op(struct launch_ops *t, const struct launch_op *o)
{
	return &find_or_add(t, o, NULL)->op;
}

const struct launch_op *launch_op_get(struct launch_ops *t, const char *name, const char *types,
				      const char *dims)
{
	return launch_op_get_at(t, name, types, dims, 0);
}

void launch_ops_release(struct launch_ops *t)
{
	xgrow_free(&t->nodes, &t->cap, sizeof(*t->nodes));
	imap_release(&t->ix);
	arena_release(&t->arena);
	t->count = 0;
}

void launch_ops_merge(struct launch_ops *dst, struct launch_ops *src)
{
	for (size_t i = 0; i < src->count; i++) {
		struct launch_op_node *n = src->nodes[i], *d;
		struct launch_op o = {
			.name = intern_canon(n->op.name), .input_types = intern_canon(n->op.input_types),
			.input_dims = intern_canon(n->op.input_dims), .where = n->op.where,
			.concrete = intern_canon(n->op.concrete),
		};

		d = find_or_add(dst, &o, n);
		if (d != n)
			n->canon = &d->op;
	}
	arena_adopt(&dst->arena, &src->arena);
	xgrow_free(&src->nodes, &src->cap, sizeof(*src->nodes));
	imap_release(&src->ix);
	src->count = 0;
}

/* The node holding o: o is the op member of a node of some table. */
static struct launch_op_node *node_of(const struct launch_op *o)
{
	return (struct launch_op_node *)(uintptr_t)((const char *)o -
						    offsetof(struct launch_op_node, op));
}

const struct launch_op *launch_op_canon(const struct launch_op *o)
{
	const struct launch_op *c;

	while (o && (c = node_of(o)->canon) != NULL)	/* a table merged on again: follow */
		o = c;
	return o;
}
