#include "analysis/partition.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* A point where an interval of class cls opens (+1) or closes (-1). */
struct edge {
	int64_t t;
	int64_t launched;	/* the interval's launch; LAUNCH_UNKNOWN */
	int8_t delta;
	uint8_t cls;
};

/* Why the GPU is idle in a gap: what account() adds the idle to. */
enum idle_cause { IDLE_OTHER, IDLE_HOST, IDLE_SYNC };

static int by_time(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

/* Adds a segment of length len with the open counts to window w. */
static void account(struct parts_ns *w, const int64_t open[IV_NCLASSES], int64_t len,
		    enum idle_cause cause)
{
	bool comm = open[EVC_COMM] > 0 || open[IV_COMM_WAIT] > 0;
	bool waiting = comm && open[EVC_COMM] <= 0;

	if (open[EVC_COMPUTE] > 0)
		w->compute += len;
	else if (comm)
		w->exposed_comm += len;
	else if (open[EVC_MEMORY] > 0)
		w->memory += len;
	else
		w->idle += len;
	if (!comm && open[EVC_COMPUTE] <= 0 && open[EVC_MEMORY] <= 0) {
		w->idle_host += cause == IDLE_HOST ? len : 0;
		w->idle_sync += cause == IDLE_SYNC ? len : 0;
	}
	if (waiting && open[EVC_COMPUTE] <= 0)
		w->exposed_comm_wait += len;
	if (comm)
		w->comm_total += len;
	if (waiting)
		w->comm_wait += len;
	if (open[EVC_MEMORY] > 0)
		w->memory_total += len;
	if (comm || open[EVC_COMPUTE] > 0 || open[EVC_MEMORY] > 0)
		w->kernel_busy += len;
}

/* Accounts [from, to) across the windows it crosses; *w is the current window. */
static void sweep_segment(const int64_t *bounds, size_t nwin, size_t *w, int64_t from,
			  int64_t to, const int64_t open[IV_NCLASSES], enum idle_cause cause,
			  struct parts_ns *out)
{
	while (from < to && *w < nwin) {
		int64_t wend = bounds[*w + 1];

		if (from < bounds[*w])
			from = bounds[*w];	/* before the first window */
		if (from >= to)
			return;
		if (from >= wend) {
			(*w)++;
			continue;
		}
		account(&out[*w], open, (to < wend ? to : wend) - from, cause);
		from = to < wend ? to : wend;
	}
}

/*
 * The cause of the gap [gap_from, e[i].t): the earliest known launch of the
 * intervals that open at e[i].t, after gap_from (host) or not (sync); other
 * when none is known or no work came before the gap (INT64_MIN).
 */
static enum idle_cause gap_cause(const struct edge *e, size_t ne, size_t i, int64_t gap_from)
{
	int64_t first = LAUNCH_UNKNOWN;

	for (size_t j = i; j < ne && e[j].t == e[i].t; j++)
		if (e[j].delta > 0 && e[j].launched != LAUNCH_UNKNOWN &&
		    (first == LAUNCH_UNKNOWN || e[j].launched < first))
			first = e[j].launched;
	if (first == LAUNCH_UNKNOWN || gap_from == INT64_MIN)
		return IDLE_OTHER;
	return first > gap_from ? IDLE_HOST : IDLE_SYNC;
}

void partition_windows(const struct interval *iv, size_t niv, const int64_t *bounds,
		       size_t nwin, struct parts_ns *out)
{
	struct edge *e = xmalloc(2 * (niv ? niv : 1) * sizeof(*e));
	size_t ne = 0, w = 0;
	int64_t open[IV_NCLASSES] = { 0 };
	int64_t t, nopen = 0, gap_from = INT64_MIN;	/* the last instant work stopped */

	memset(out, 0, nwin * sizeof(*out));
	if (!nwin)
		goto done;
	for (size_t i = 0; i < niv; i++) {
		if (iv[i].end <= iv[i].start || iv[i].cls >= IV_NCLASSES)
			continue;
		e[ne++] = (struct edge){ iv[i].start, iv[i].launched, +1, iv[i].cls };
		e[ne++] = (struct edge){ iv[i].end, iv[i].launched, -1, iv[i].cls };
	}
	qsort(e, ne, sizeof(*e), by_time);
	t = bounds[0];
	for (size_t i = 0; i < ne; i++) {
		if (e[i].t > t) {
			enum idle_cause c = nopen ? IDLE_OTHER : gap_cause(e, ne, i, gap_from);

			sweep_segment(bounds, nwin, &w, t, e[i].t, open, c, out);
			t = e[i].t;
		}
		open[e[i].cls] += e[i].delta;
		nopen += e[i].delta;
		if (!nopen)
			gap_from = e[i].t;
	}
	sweep_segment(bounds, nwin, &w, t, bounds[nwin], open, IDLE_OTHER, out);
done:
	free(e);
}
