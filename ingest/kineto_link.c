/*
 * The Kineto reader's end: links each GPU event to the launch of its
 * correlation id, the ProfilerStep that launch fell in and the CPU op it was
 * made from (by external id, else by the enclosing op of its thread), and a
 * communication kernel to the collective its op asked for. The contract is
 * in ingest/kineto_internal.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/isort.h"
#include "core/kname.h"
#include "core/xalloc.h"
#include "ingest/kineto_internal.h"

/*
 * Op indices by their op's thread, then start, the outer of two that start
 * together first, then index (file order): no two are equal, so the order
 * is the one a stable sort gives.
 */
static bool op_before(const void *pa, const void *pb, void *ctx)
{
	const struct kt *k = ctx;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct cpu_op *a = &k->ops[ia], *b = &k->ops[ib];

	if (a->tid != b->tid)
		return a->tid < b->tid;
	if (a->start != b->start)
		return a->start < b->start;
	if (a->end != b->end)
		return a->end > b->end;
	return ia < ib;
}

static bool comm_before(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return ((const struct op_comm *)pa)->op < ((const struct op_comm *)pb)->op;
}

/* The collective args of op i (op_comm sorted by op); NULL when it has none. */
static const struct op_comm *op_comm_of(const struct kt *k, size_t i)
{
	size_t lo = 0, hi = k->ncomm;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->op_comm[mid].op < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->ncomm && k->op_comm[lo].op == i ? &k->op_comm[lo] : NULL;
}

/* Gives each op_comm entry the place its op (ix[p] before) takes, p. */
static void comm_follows(struct kt *k, const uint32_t *ix)
{
	uint32_t *at;

	if (!k->ncomm)
		return;
	at = xmalloc(k->ncomm * sizeof(*at));
	for (size_t p = 0; p < k->nops; p++) {
		const struct op_comm *c = op_comm_of(k, ix[p]);

		if (c)
			at[c - k->op_comm] = (uint32_t)p;
	}
	for (size_t c = 0; c < k->ncomm; c++)
		k->op_comm[c].op = at[c];
	free(at);
	isort(k->op_comm, k->ncomm, sizeof(*k->op_comm), comm_before, NULL);
}

/*
 * Sorts the ops in op_before() order: through an array of their indices
 * (4 bytes an op), then moved into place. Returns that array, free for
 * the caller's use (link_parents()). qsort() sorted the ops through 16
 * bytes of pointers per op, and each op held its parent and collective
 * args' index (8 bytes) from the start.
 */
static uint32_t *ops_sort(struct kt *k)
{
	uint32_t *ix = xmalloc((k->nops + 1) * sizeof(*ix));

	for (size_t i = 0; i < k->nops; i++)
		ix[i] = (uint32_t)i;
	isort(ix, k->nops, sizeof(*ix), op_before, k);
	comm_follows(k, ix);
	isort_permute(k->ops, ix, k->nops, sizeof(*k->ops));
	return ix;
}

/* Each op's parent[]: the innermost op of its thread that encloses it; -1. */
static void link_parents(const struct kt *k, int32_t *parent)
{
	int32_t *stack = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < k->nops; i++) {
		const struct cpu_op *o = &k->ops[i];

		while (n && (k->ops[stack[n - 1]].tid != o->tid ||
			     k->ops[stack[n - 1]].end < o->start))
			n--;
		parent[i] = n ? stack[n - 1] : -1;
		xgrow(&stack, &cap, n + 1, sizeof(*stack));
		stack[n++] = (int32_t)i;
	}
	xgrow_free(&stack, &cap, sizeof(*stack));	/* xgrow() counted it in the budget */
}

/* The last op of thread tid that starts at or before ts; -1 when none. */
static int64_t last_op_before(const struct kt *k, uint32_t tid, int64_t ts)
{
	size_t lo = 0, hi = k->nops;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cpu_op *o = &k->ops[mid];

		if (o->tid < tid || (o->tid == tid && o->start <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || k->ops[lo - 1].tid != tid)
		return -1;
	return (int64_t)lo - 1;
}

/*
 * What linking looks up. The id maps are index arrays sorted by id, then
 * index, and searched: 4 bytes per launch and per op with an external id,
 * where a hash map took 16 (and the map of the ids launches carry, another
 * 16 per launch, while the op map was made).
 */
struct links {
	uint32_t *by_corr;	/* every launch, by correlation id */
	uint32_t *by_ext;	/* the ops of an external id some launch carries, by it */
	size_t next;		/* entries of by_ext */
	int32_t *parent;	/* per op (sorted), its parent (link_parents()); -1 */
	struct step_mark *cpu_steps;	/* ProfilerStep ranges on the CPU, by start */
	size_t ncpu_steps;
	const struct launch_op **site_op;	/* per kt.sites entry, the trial's copy; NULL not yet */
	uint8_t *site_where;	/* per kt.sites entry, kname_op_where() of its name | WHERE_KNOWN */
};

#define WHERE_KNOWN 0x80	/* site_where: computed (the bits of enum launch_where fit below) */

/* The number a[0..n) (by launch index) holds for launch i; -1 none. */
static int64_t launch_num(const struct launch_num *a, size_t n, size_t i)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid].launch < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && a[lo].launch == i ? a[lo].v : -1;
}

static int64_t launch_corr(const struct kt *k, uint32_t i)
{
	uint32_t c = k->launches[i].corr;

	return c != BIG_CORR ? (int64_t)c : launch_num(k->big_corr, k->nbig, i);
}

static int64_t op_ext(const struct kt *k, uint32_t i)
{
	return k->ops[i].ext;
}

/* Indices by key, then by index: the first of a key is the lowest index. */
static bool corr_before(const void *pa, const void *pb, void *ctx)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t x = launch_corr(ctx, a), y = launch_corr(ctx, b);

	return x != y ? x < y : a < b;
}

static bool ext_before(const void *pa, const void *pb, void *ctx)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t x = op_ext(ctx, a), y = op_ext(ctx, b);

	return x != y ? x < y : a < b;
}

/*
 * The lowest index of ix[0..n) (sorted by key, then index) whose key is
 * want, in *found; false when none has it.
 */
static bool find_key(const struct kt *k, const uint32_t *ix, size_t n,
		     int64_t (*key)(const struct kt *, uint32_t), int64_t want, uint32_t *found)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key(k, ix[mid]) < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || key(k, ix[lo]) != want)
		return false;
	*found = ix[lo];
	return true;
}

/* The first launch of correlation id corr. */
static bool launch_of_corr(const struct kt *k, const struct links *l, int64_t corr, uint32_t *i)
{
	return find_key(k, l->by_corr, k->nlaunch, launch_corr, corr, i);
}

/* The first op (in sorted order) of external id ext. */
static bool op_of_ext(const struct kt *k, const struct links *l, int64_t ext, uint32_t *i)
{
	return find_key(k, l->by_ext, l->next, op_ext, ext, i);
}

/*
 * The CPU op a launch was made from: the op whose external id the launch
 * carries, when that op encloses the launch in time (both are stamped with
 * the innermost op's id); otherwise the innermost op of the launch's thread
 * that encloses it (older traces whose ids do not match).
 */
static const struct cpu_op *op_of_launch(const struct kt *k, const struct links *lk,
					 const struct launch *l)
{
	uint32_t i;
	int64_t j;

	if (l->ext >= 0 && op_of_ext(k, lk, l->ext, &i) && k->ops[i].start <= l->ts &&
	    l->ts <= k->ops[i].end)
		return &k->ops[i];
	for (j = last_op_before(k, l->tid, l->ts); j >= 0; j = lk->parent[j])
		if (k->ops[j].end >= l->ts)
			return &k->ops[j];
	return NULL;
}

/* The ProfilerStep (CPU range, sorted by start) that holds ts; -1 when none. */
static int64_t step_at(const struct step_mark *s, size_t n, int64_t ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].start <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && s[lo - 1].end >= ts ? s[lo - 1].number : -1;
}

/* A communication kernel missing its collective takes record_param_comms'. */
static void comm_from_op(struct gpu_event *g, const struct kt *k, const struct links *l,
			 const struct cpu_op *o)
{
	for (int up = 0; o && up < 8; up++) {
		size_t i = (size_t)(o - k->ops);
		const struct op_comm *c = op_comm_of(k, i);

		if (c && c->coll != COLL_NONE) {
			if (g->coll == COLL_NONE)
				g->coll = c->coll;
			if (!g->group)
				g->group = c->group;
			if (g->bytes < 0 && c->dtype != DT_UNKNOWN)
				g->dtype = c->dtype;	/* nelems count the tensor's dtype */
			else if (g->dtype == DT_UNKNOWN)
				g->dtype = c->dtype;
			kt_msg_bytes(g, c->nelems);
			return;
		}
		o = l->parent[i] >= 0 ? &k->ops[l->parent[i]] : NULL;
	}
}


struct tid_index {
	int64_t tid;
	uint32_t index;
};

static int cmp_tid(const void *pa, const void *pb)
{
	return cmp_i64(((const struct tid_index *)pa)->tid, ((const struct tid_index *)pb)->tid);
}

/*
 * Renumbers the threads of ops and launches in the order of their ids, so
 * that ops sorted by index are in the order sorting by id gave (the first
 * op of an external id wins the map), then frees the thread table.
 */
static void tids_in_order(struct kt *k)
{
	struct tid_index *t = xmalloc((k->ntids + 1) * sizeof(*t));
	uint32_t *order = xmalloc((k->ntids + 1) * sizeof(*order));

	for (size_t i = 0; i < k->ntids; i++)
		t[i] = (struct tid_index){ .tid = k->tids[i], .index = (uint32_t)i };
	sort_n(t, k->ntids, sizeof(*t), cmp_tid);
	for (size_t i = 0; i < k->ntids; i++)
		order[t[i].index] = (uint32_t)i;
	for (size_t i = 0; i < k->nops; i++)
		k->ops[i].tid = order[k->ops[i].tid];
	for (size_t i = 0; i < k->nlaunch; i++)
		k->launches[i].tid = order[k->launches[i].tid];
	free(order);
	free(t);
	xgrow_free(&k->tids, &k->cap_tids, sizeof(*k->tids));
	imap_release(&k->tid_ix);
	k->ntids = 0;
}

/*
 * The external ids the launches carry: bits over their range when it is
 * at most 64 per launch (8 bytes, while by_ext is made; the ids are
 * sequential in practice), else every id. Only an op of such an id can be
 * found by one, so by_ext holds no other (4 bytes per op that launched
 * something, not per op).
 */
struct ext_set {
	uint64_t *bits;		/* bit id - lo; NULL: none, or all when `all` */
	int64_t lo, hi;
	bool all;
};

static void launch_exts(const struct kt *k, struct ext_set *s)
{
	int64_t lo = INT64_MAX, hi = -1;

	*s = (struct ext_set){ .bits = NULL };
	for (size_t i = 0; i < k->nlaunch; i++)
		if (k->launches[i].ext >= 0) {
			lo = k->launches[i].ext < lo ? k->launches[i].ext : lo;
			hi = k->launches[i].ext > hi ? k->launches[i].ext : hi;
		}
	if (hi < 0)
		return;
	if ((uint64_t)(hi - lo) >= 64 * (uint64_t)k->nlaunch) {
		s->all = true;
		return;
	}
	s->lo = lo;
	s->hi = hi;
	s->bits = xcalloc((size_t)((hi - lo) / 64 + 1), sizeof(*s->bits));
	for (size_t i = 0; i < k->nlaunch; i++) {
		int64_t b = k->launches[i].ext - lo;

		if (k->launches[i].ext >= 0)
			s->bits[b / 64] |= 1ULL << (b % 64);
	}
}

static bool ext_in(const struct ext_set *s, int64_t ext)
{
	if (ext < 0 || !s->bits)
		return ext >= 0 && s->all;
	return ext >= s->lo && ext <= s->hi &&
	       (s->bits[(ext - s->lo) / 64] >> ((ext - s->lo) % 64) & 1);
}

/* The id maps of l, once the ops are sorted. */
static void index_ids(struct kt *k, struct links *l)
{
	struct ext_set want;

	launch_exts(k, &want);
	for (size_t i = 0; i < k->nops; i++)
		l->next += ext_in(&want, k->ops[i].ext);
	l->by_ext = xmalloc((l->next + 1) * sizeof(*l->by_ext));
	l->next = 0;
	for (size_t i = 0; i < k->nops; i++)
		if (ext_in(&want, k->ops[i].ext))
			l->by_ext[l->next++] = (uint32_t)i;
	free(want.bits);
	isort(l->by_ext, l->next, sizeof(*l->by_ext), ext_before, k);
	l->by_corr = xmalloc((k->nlaunch + 1) * sizeof(*l->by_corr));
	for (size_t i = 0; i < k->nlaunch; i++)
		l->by_corr[i] = (uint32_t)i;
	isort(l->by_corr, k->nlaunch, sizeof(*l->by_corr), corr_before, k);
}

static void links_build(struct kt *k, struct links *l)
{
	*l = (struct links){ .by_corr = NULL };
	tids_in_order(k);
	l->parent = (int32_t *)ops_sort(k);	/* the sort's indices, done with */
	link_parents(k, l->parent);
	index_ids(k, l);
	l->cpu_steps = xmalloc((k->nsteps + 1) * sizeof(*l->cpu_steps));
	for (size_t i = 0; i < k->nsteps; i++)
		if (k->steps[i].source == STEP_CPU_ANNOTATION)
			l->cpu_steps[l->ncpu_steps++] = k->steps[i];
	sort_n(l->cpu_steps, l->ncpu_steps, sizeof(*l->cpu_steps), kt_cmp_step);
	l->site_op = xcalloc(k->nsites + 1, sizeof(*l->site_op));
	l->site_where = xcalloc(k->nsites + 1, sizeof(*l->site_where));
}

/*
 * Frees what only linking kernels to their launches and ops needs (the ops,
 * launches and their side tables), through xgrow_free so that the memory
 * budget gets their bytes back (--max-memory counts what is kept).
 */
void kt_release_link_arrays(struct kt *k)
{
	xgrow_free(&k->ops, &k->cap_ops, sizeof(*k->ops));
	xgrow_free(&k->launches, &k->cap_launch, sizeof(*k->launches));
	xgrow_free(&k->sizes, &k->cap_sizes, sizeof(*k->sizes));
	xgrow_free(&k->big_corr, &k->cap_big, sizeof(*k->big_corr));
	xgrow_free(&k->op_comm, &k->cap_comm, sizeof(*k->op_comm));
	xgrow_free(&k->sites, &k->cap_sites, sizeof(*k->sites));
	imap_release(&k->site_ix);
	k->nsizes = k->nbig = k->ncomm = k->nops = k->nlaunch = k->nsites = 0;
}

static void links_release(struct links *l)
{
	free(l->by_corr);
	free(l->by_ext);
	free(l->parent);
	free(l->cpu_steps);
	free(l->site_op);
	free(l->site_where);
}

/*
 * Gives back what a growable array holds beyond its n elements, to the heap
 * and to the memory budget, which xgrow() counted them in: xgrow_free()
 * gives back only what *cap says.
 */
static void fit(void *pp, size_t *cap, size_t n, size_t size)
{
	void **p = pp;

	if (!n || n == *cap)
		return;
	*p = xrealloc(*p, n * size);
	budget_add(-(int64_t)((*cap - n) * size));
	*cap = n;
}

/* The trial's copy of the ops' site i, looked up once per site. */
static const struct launch_op *site_op(struct kt *k, struct links *l, uint32_t i)
{
	const struct op_site *s = &k->sites[i];

	if (!l->site_op[i])
		l->site_op[i] = launch_op_get_op(&k->ctx->trial->launch_ops, &(struct launch_op){
			.name = s->name, .input_types = s->input_types, .input_dims = s->input_dims,
			.concrete = s->concrete });
	return l->site_op[i];
}

/* What the names of op o and of the ops around it say of where it ran (enum launch_where). */
static unsigned where_of(const struct kt *k, struct links *l, const struct cpu_op *o)
{
	unsigned where = 0;

	for (int up = 0; o && up < 256; up++) {
		size_t i = (size_t)(o - k->ops);
		uint8_t *w = &l->site_where[o->site];

		if (!*w)
			*w = (uint8_t)(kname_op_where(k->sites[o->site].name) | WHERE_KNOWN);
		where |= *w & ~WHERE_KNOWN;
		o = l->parent[i] >= 0 ? &k->ops[l->parent[i]] : NULL;
	}
	return where;
}

/*
 * The collective the program asked for, by the name of the op that launched
 * a kernel or of one of the few around it: "nccl:all_to_all",
 * "c10d::allreduce_"; COLL_NONE when none says.
 */
static enum coll_op asked_coll(const struct kt *k, const struct links *l, const struct cpu_op *o)
{
	static const char *const prefixes[] = { "nccl:", "c10d::" };

	for (int up = 0; o && up < 8; up++) {
		const char *name = k->sites[o->site].name;
		size_t i = (size_t)(o - k->ops);

		for (size_t p = 0; name && p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
			size_t n = strlen(prefixes[p]);
			enum coll_op c;

			if (!strncmp(name, prefixes[p], n) &&
			    (c = coll_from_name(name + n, strlen(name + n))) != COLL_NONE)
				return c;
		}
		o = l->parent[i] >= 0 ? &k->ops[l->parent[i]] : NULL;
	}
	return COLL_NONE;
}

static bool p2p_or_none(enum coll_op c)
{
	return c == COLL_NONE || c == COLL_SENDRECV || c == COLL_SEND || c == COLL_RECV;
}

/*
 * A communication kernel's op, with where it ran. A kernel whose name says
 * only send/receive serves the collective its op asked for: NCCL runs
 * all-to-all as grouped sends and receives, so its kernels say SendRecv.
 */
static void comm_op(struct kt *k, struct links *l, struct gpu_event *g, const struct cpu_op *o)
{
	const struct op_site *s = &k->sites[o->site];
	unsigned where = where_of(k, l, o);
	enum coll_op asked;

	g->op = where ? launch_op_get_op(&k->ctx->trial->launch_ops, &(struct launch_op){
				.name = s->name, .input_types = s->input_types, .input_dims = s->input_dims,
				.where = where, .concrete = s->concrete }) : site_op(k, l, o->site);
	comm_from_op(g, k, l, o);
	if (!p2p_or_none(g->coll))
		return;
	asked = asked_coll(k, l, o);
	if (asked != COLL_NONE && !p2p_or_none(asked))
		g->coll = asked;
	else if (where & LAUNCH_IN_ALLTOALL)
		g->coll = COLL_ALLTOALL;
}

/*
 * What the launches of kernels cost the CPU, gathered while linking
 * (struct launch_step, struct launch_delay): each launch call counted once
 * (a graph launch starts many kernels), each top-level op once.
 */
struct launch_acc {
	uint64_t *launch_seen;	/* bit per launch index */
	uint64_t *root_seen;	/* bit per op index (sorted) */
	size_t last;		/* the lsteps entry last used */
};

/* The entry of step in k->lsteps, added when new. */
static struct launch_step *lstep_of(struct kt *k, struct launch_acc *a, int32_t step)
{
	if (a->last < k->nlsteps && k->lsteps[a->last].step == step)
		return &k->lsteps[a->last];
	for (size_t i = 0; i < k->nlsteps; i++)
		if (k->lsteps[i].step == step)
			return &k->lsteps[a->last = i];
	xgrow(&k->lsteps, &k->cap_lsteps, k->nlsteps + 1, sizeof(*k->lsteps));
	k->lsteps[k->nlsteps] = (struct launch_step){ .step = step };
	return &k->lsteps[a->last = k->nlsteps++];
}

static bool test_and_set(uint64_t *bits, size_t i)
{
	bool was = bits[i / 64] >> (i % 64) & 1;

	bits[i / 64] |= 1ULL << (i % 64);
	return was;
}

/* The outermost op of o's thread that encloses it (o itself when none does). */
static size_t root_op(const struct links *l, size_t i)
{
	while (l->parent[i] >= 0)
		i = (size_t)l->parent[i];
	return i;
}

/* A kernel of kdur ns launched within op i: its top-level op's CPU time once, the kernel's GPU time. */
static void op_account(struct kt *k, const struct links *l, struct launch_acc *a, size_t i,
		       int64_t kdur)
{
	size_t r = root_op(l, i);
	const struct cpu_op *root = &k->ops[r];
	struct launch_step *s = lstep_of(k, a, (int32_t)step_at(l->cpu_steps, l->ncpu_steps,
								root->start));

	s->op_kernel_ns += kdur;
	if (!test_and_set(a->root_seen, r))
		s->op_cpu_ns += root->end - root->start;
}

/* Kernel g, launched by launch li from within op o (NULL), in the launch statistics. */
static void launch_account(struct kt *k, const struct links *l, struct launch_acc *a,
			   const struct gpu_event *g, uint32_t li, const struct cpu_op *o)
{
	const struct launch *la = &k->launches[li];
	int64_t kdur = g->end - g->start;
	struct launch_step *s;

	if (g->kind != EV_KERNEL)
		return;
	xgrow(&k->delays, &k->cap_delays, k->ndelays + 1, sizeof(*k->delays));
	k->delays[k->ndelays++] = (struct launch_delay){ g->start - (la->ts + la->dur), g->step };
	s = lstep_of(k, a, g->step);
	s->kernels++;
	s->short_kernels += kdur < la->dur;
	if (!test_and_set(a->launch_seen, li))
		s->launch_ns += la->dur;
	if (o)
		op_account(k, l, a, (size_t)(o - k->ops), kdur);
}

/*
 * Every GPU event gets the time, step, op and input types of its launch. The ops
 * and launches are needed for nothing else: they are freed here, before
 * the events are sorted and handed to the rank.
 */
void kt_link_events(struct kt *k)
{
	struct links l;
	struct launch_acc acc = { .launch_seen = xcalloc(k->nlaunch / 64 + 1, sizeof(uint64_t)),
				  .root_seen = xcalloc(k->nops / 64 + 1, sizeof(uint64_t)) };

	fit(&k->ops, &k->cap_ops, k->nops, sizeof(*k->ops));	/* before the maps are made */
	fit(&k->launches, &k->cap_launch, k->nlaunch, sizeof(*k->launches));
	fit(&k->gev, &k->cap_gev, k->ngev, sizeof(*k->gev));
	links_build(k, &l);
	for (size_t i = 0; i < k->ngev; i++) {
		struct gpu_event *g = &k->gev[i];
		const struct launch *la;
		const struct cpu_op *o;
		uint32_t li;
		bool linked = launch_of_corr(k, &l, g->correlation, &li);

		g->launched = LAUNCH_UNKNOWN;	/* the correlation id is done with */
		if (!linked)
			continue;
		la = &k->launches[li];
		g->launched = la->ts;
		if (g->kind != EV_KERNEL && g->bytes < 0)
			g->bytes = launch_num(k->sizes, k->nsizes, li);	/* ROCm: the hipMemcpy's "size" */
		g->step = (int32_t)step_at(l.cpu_steps, l.ncpu_steps, la->ts);
		o = op_of_launch(k, &l, la);
		launch_account(k, &l, &acc, g, li, o);
		if (!o)
			continue;
		if (g->cls == EVC_COMM)
			comm_op(k, &l, g, o);
		else
			g->op = site_op(k, &l, o->site);
	}
	free(acc.launch_seen);
	free(acc.root_seen);
	links_release(&l);
	kt_release_link_arrays(k);
}
