#include "analysis/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "core/xalloc.h"

/* A communication kernel of one rank, keyed by kind and process group. */
struct cev {
	uint32_t key;		/* coll << 16 | group */
	int64_t start;
	int64_t end;
	size_t idx;		/* into the rank's events */
};

/* One rank's communication kernels sorted by key, then start; pos walks them. */
struct lane {
	struct cev *v;
	size_t n;
	size_t pos;
	double *diff;		/* end on the reference - end here, per matched kernel (ns) */
	size_t ndiff;
	double *waited;		/* ns waited for each rank */
};

static int by_key_start(const void *a, const void *b)
{
	const struct cev *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

static void lane_fill(struct lane *l, const struct rank *k)
{
	size_t n = 0;

	for (size_t i = 0; i < k->nev; i++)
		n += k->ev[i].cls == EVC_COMM;
	l->v = xmalloc((n ? n : 1) * sizeof(*l->v));
	for (size_t i = 0; i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];

		if (e->cls == EVC_COMM)
			l->v[l->n++] = (struct cev){ (uint32_t)e->coll << 16 | e->group, e->start,
						     e->end, i };
	}
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), by_key_start);
	l->diff = xmalloc((n ? n : 1) * sizeof(*l->diff));
}

/* The ranks that take part: those with GPU work. */
static bool takes_part(const struct run *r, size_t g)
{
	return r->ranks[g].nev > 0;
}

/* The smallest key not yet walked over the ranks that take part; UINT32_MAX none. */
static uint64_t next_key(const struct run *r, const struct lane *l)
{
	uint64_t key = UINT64_MAX;

	for (size_t g = 0; g < r->nranks; g++)
		if (takes_part(r, g) && l[g].pos < l[g].n && l[g].v[l[g].pos].key < key)
			key = l[g].v[l[g].pos].key;
	return key;
}

static size_t count_key(const struct lane *l, uint32_t key)
{
	size_t c = 0;

	while (l->pos + c < l->n && l->v[l->pos + c].key == key)
		c++;
	return c;
}

static void mismatch(struct analysis *a, const struct trial *t, const struct run *r,
		     uint32_t key, const size_t *cnt)
{
	enum coll_op op = (enum coll_op)(key >> 16);
	uint16_t group = (uint16_t)(key & 0xffff);
	char counts[160] = "";
	size_t len = 0;

	for (size_t g = 0; g < r->nranks && len < sizeof(counts) - 32; g++)
		if (takes_part(r, g))
			len += (size_t)snprintf(counts + len, sizeof(counts) - len, "%sGPU %d: %zu",
						len ? ", " : "", r->ranks[g].rank >= 0 ?
						r->ranks[g].rank : (int)g, cnt[g]);
	analysis_finding(a, DIAG_WARNING, "collective-count-mismatch", NULL,
			 "run '%s': the GPUs ran different numbers of %s kernels%s%s (%s): they are "
			 "not matched across GPUs, so their time counts as transfer and aligns no clock",
			 r->name, op != COLL_NONE ? coll_name(op) : "communication",
			 group && t && group <= t->ngroups ? " of process group " : "",
			 group && t && group <= t->ngroups ? t->groups[group - 1].name : "", counts);
}

/*
 * Pass 1 (wait == false): each rank's end differences with the reference.
 * Pass 2: the waits, with c's offsets. Both walk the keys that every rank
 * ran equally often, in the same order.
 */
static void walk(struct analysis *a, const struct trial *t, const struct run *r,
		 struct lane *l, struct clock *c, bool wait)
{
	size_t *cnt = xcalloc(r->nranks, sizeof(*cnt));
	uint64_t key;

	for (size_t g = 0; g < r->nranks; g++)
		l[g].pos = 0;
	while ((key = next_key(r, l)) != UINT64_MAX) {
		bool same = true;

		for (size_t g = 0; g < r->nranks; g++)
			cnt[g] = takes_part(r, g) ? count_key(&l[g], (uint32_t)key) : 0;
		for (size_t g = 0; g < r->nranks; g++)	/* once every count is in: the reference may come later */
			same = same && (!takes_part(r, g) || cnt[g] == cnt[c->reference]);
		if (!same && !wait)
			mismatch(a, t, r, (uint32_t)key, cnt);
		for (size_t j = 0; same && j < cnt[c->reference]; j++) {
			int64_t latest = INT64_MIN;
			size_t last = 0;

			for (size_t g = 0; g < r->nranks; g++) {
				const struct cev *e = takes_part(r, g) ? &l[g].v[l[g].pos + j] : NULL;

				if (e && !wait) {
					l[g].diff[l[g].ndiff++] = (double)(l[c->reference].v[l[c->reference].pos + j].end - e->end);
					c->rank[g].matched++;
				}
				if (e && wait && e->start + c->rank[g].offset_ns > latest) {
					latest = e->start + c->rank[g].offset_ns;
					last = g;
				}
			}
			for (size_t g = 0; wait && g < r->nranks; g++) {
				const struct cev *e = takes_part(r, g) ? &l[g].v[l[g].pos + j] : NULL;
				int64_t w = e ? latest - (e->start + c->rank[g].offset_ns) : 0;

				if (!e || w <= 0)
					continue;
				if (w > e->end - e->start)
					w = e->end - e->start;
				c->rank[g].wait_end[e->idx] = e->start + w;
				l[g].waited[last] += (double)w;
			}
		}
		for (size_t g = 0; g < r->nranks; g++)
			l[g].pos += cnt[g];
	}
	free(cnt);
}

static size_t lowest_rank(const struct run *r)
{
	size_t best = SIZE_MAX;

	for (size_t g = 0; g < r->nranks; g++)
		if (takes_part(r, g) && (best == SIZE_MAX || r->ranks[g].rank < r->ranks[best].rank))
			best = g;
	return best == SIZE_MAX ? 0 : best;
}

static void set_offsets(const struct run *r, struct lane *l, struct clock *c)
{
	for (size_t g = 0; g < r->nranks; g++) {
		struct clock_rank *cr = &c->rank[g];

		cr->aligned = g == c->reference && takes_part(r, g);
		if (l[g].ndiff && takes_part(r, g)) {
			cr->aligned = true;
			cr->offset_ns = llround(stats_median(l[g].diff, l[g].ndiff));
		}
		if (g == c->reference)
			cr->offset_ns = 0;
		if (cr->matched) {
			cr->wait_end = xmalloc(r->ranks[g].nev * sizeof(*cr->wait_end));
			for (size_t i = 0; i < r->ranks[g].nev; i++)
				cr->wait_end[i] = r->ranks[g].ev[i].start;
		}
		l[g].waited = xcalloc(r->nranks, sizeof(*l[g].waited));
	}
}

static void set_waited_for(const struct run *r, const struct lane *l, struct clock *c)
{
	for (size_t g = 0; g < r->nranks; g++) {
		c->rank[g].waited_for = -1;
		for (size_t p = 0; p < r->nranks; p++)
			if (p != g && l[g].waited[p] > 0 &&
			    (c->rank[g].waited_for < 0 || l[g].waited[p] > l[g].waited[c->rank[g].waited_for]))
				c->rank[g].waited_for = (int32_t)p;
	}
}

void clock_align(struct analysis *a, const struct trial *t, const struct run *r,
		 struct clock *c)
{
	struct lane *l = xcalloc(r->nranks ? r->nranks : 1, sizeof(*l));

	c->n = r->nranks;
	c->rank = xcalloc(r->nranks ? r->nranks : 1, sizeof(*c->rank));
	c->reference = lowest_rank(r);
	for (size_t g = 0; g < r->nranks; g++) {
		c->rank[g].waited_for = -1;
		lane_fill(&l[g], &r->ranks[g]);
	}
	if (r->nranks > 1)
		walk(a, t, r, l, c, false);
	set_offsets(r, l, c);
	if (r->nranks > 1)
		walk(a, t, r, l, c, true);
	set_waited_for(r, l, c);
	for (size_t g = 0; g < r->nranks; g++) {
		free(l[g].v);
		free(l[g].diff);
		free(l[g].waited);
	}
	free(l);
}

void clock_release(struct clock *c)
{
	for (size_t g = 0; g < c->n; g++)
		free(c->rank[g].wait_end);
	free(c->rank);
	memset(c, 0, sizeof(*c));
}

int64_t clock_wait_ns(const struct clock *c, size_t g, const struct gpu_event *ev, size_t i)
{
	if (g >= c->n || !c->rank[g].wait_end)
		return 0;
	return c->rank[g].wait_end[i] - ev[i].start;
}
