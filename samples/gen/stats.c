#include "samples/gen/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "samples/gen/logs.h"

#define MIB (1024LL * 1024)
#define WARMUP_SLACK 1.15	/* warm-up: more than 15% above the median */
#define WAIT_SHARE 0.25		/* waiting for a peer over 25% of a step is imbalance */

const char *const part_keys[NPART] = {
	[P_COMPUTE] = "compute", [P_EXPOSED] = "exposed_comm", [P_WAIT] = "exposed_comm_wait",
	[P_XFER] = "exposed_comm_transfer", [P_MEMORY] = "memory", [P_IDLE] = "idle",
	[P_COMM_TOTAL] = "comm_total", [P_OVERLAPPED] = "overlapped_comm",
	[P_MEM_TOTAL] = "memory_total", [P_BUSY] = "kernel_busy",
	[P_IDLE_HOST] = "idle_host", [P_IDLE_SYNC] = "idle_sync", [P_IDLE_OTHER] = "idle_other",
};

/* What runs at an instant: a compute kernel, a collective waiting for its
 * last peer, a collective transferring, a memcpy/memset. */
enum edge_cls { E_COMPUTE, E_WAIT, E_XFER, E_MEMORY, E_COUNT };

struct edge {
	int64_t t;
	int cls, d;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->d - y->d;
}

/* Adds [s, e) of class cls, clipped to [a, b), as two edges. */
static size_t add_edges(struct edge *ed, size_t n, int64_t s, int64_t e, int cls, int64_t a, int64_t b)
{
	if (s < a)
		s = a;
	if (e > b)
		e = b;
	if (e <= s)
		return n;
	ed[n++] = (struct edge){ s, cls, +1 };
	ed[n++] = (struct edge){ e, cls, -1 };
	return n;
}

/* Which parts an instant belongs to, given what runs in it. */
static void credit(int64_t part[NPART], const int cnt[E_COUNT], int64_t len)
{
	int comm = cnt[E_WAIT] || cnt[E_XFER];

	if (cnt[E_COMPUTE]) {
		part[P_COMPUTE] += len;
	} else if (comm) {
		part[P_EXPOSED] += len;
		part[cnt[E_XFER] ? P_XFER : P_WAIT] += len;
	} else {
		part[cnt[E_MEMORY] ? P_MEMORY : P_IDLE] += len;
	}
	if (comm)
		part[P_COMM_TOTAL] += len;
	if (cnt[E_MEMORY])
		part[P_MEM_TOTAL] += len;
	if (cnt[E_COMPUTE] || comm)
		part[P_BUSY] += len;
}

/*
 * Why the rank's GPU is idle at t (nothing runs then), from the simulation's
 * own launch times: the gap runs from the last end of any activity before t
 * to the first start after; the earliest launch among the activities starting
 * then that the trace records came after the gap began (the CPU was late:
 * host) or not (held: sync). A gap with no activity before or none after it,
 * or closed only by activities the trace holds no launch for, is other.
 */
static int gap_cause(const struct sim_rank *k, int64_t t)
{
	int64_t from = INT64_MIN, to = INT64_MAX, launch = INT64_MAX;

	for (size_t i = 0; i < k->nev; i++) {
		if (k->ev[i].end <= t && k->ev[i].end > from)
			from = k->ev[i].end;
		if (k->ev[i].start > t && k->ev[i].start < to)
			to = k->ev[i].start;
	}
	if (from == INT64_MIN || to == INT64_MAX)
		return P_IDLE_OTHER;
	for (size_t i = 0; i < k->nev; i++)
		if (k->ev[i].start == to && !k->ev[i].unlinked && k->ev[i].launch < launch)
			launch = k->ev[i].launch;
	if (launch == INT64_MAX)
		return P_IDLE_OTHER;
	return launch > from ? P_IDLE_HOST : P_IDLE_SYNC;
}

/* Partitions [a, b) by every GPU activity of the rank that overlaps it. */
static void partition(const struct sim_rank *k, int64_t a, int64_t b, int64_t part[NPART])
{
	struct edge *ed = xmalloc((4 * k->nev + 2) * sizeof(*ed));
	int cnt[E_COUNT] = { 0 };
	size_t n = 0;
	int64_t t = a;

	memset(part, 0, NPART * sizeof(*part));
	for (size_t i = 0; i < k->nev; i++) {
		const struct sim_ev *v = &k->ev[i];
		int cls = kdefs[v->kind].cls;

		if (cls == EVC_COMM) {
			int64_t x = v->xfer < v->end ? v->xfer : v->end;

			n = add_edges(ed, n, v->start, x, E_WAIT, a, b);
			n = add_edges(ed, n, x > v->start ? x : v->start, v->end, E_XFER, a, b);
		} else {
			n = add_edges(ed, n, v->start, v->end, cls == EVC_MEMORY ? E_MEMORY : E_COMPUTE, a, b);
		}
	}
	ed[n++] = (struct edge){ b, 0, 0 };
	qsort(ed, n, sizeof(*ed), edge_cmp);
	for (size_t i = 0; i < n; i++) {
		if (ed[i].t > t) {
			credit(part, cnt, ed[i].t - t);
			if (!cnt[E_COMPUTE] && !cnt[E_WAIT] && !cnt[E_XFER] && !cnt[E_MEMORY])
				part[gap_cause(k, t)] += ed[i].t - t;
			t = ed[i].t;
		}
		cnt[ed[i].cls] += ed[i].d;
	}
	part[P_OVERLAPPED] = part[P_COMM_TOTAL] - part[P_EXPOSED];
	free(ed);
}

/* Step i's window runs from its first GPU activity to step i + 1's; the
 * trailing step's (closed by nothing) to its own last activity. */
static void windows(const struct sim_rank *k, int nsteps, struct rank_stats *s)
{
	int64_t last[STATS_MAXS];

	s->span_start = INT64_MAX;
	s->span_end = INT64_MIN;
	for (int i = 0; i < nsteps; i++) {
		s->start[i] = INT64_MAX;
		last[i] = INT64_MIN;
	}
	for (size_t i = 0; i < k->nev; i++) {
		const struct sim_ev *v = &k->ev[i];

		if (v->step >= 0 && v->start < s->start[v->step])
			s->start[v->step] = v->start;
		if (v->step >= 0 && v->end > last[v->step])
			last[v->step] = v->end;
		if (v->start < s->span_start)
			s->span_start = v->start;
		if (v->end > s->span_end)
			s->span_end = v->end;
	}
	for (int i = 0; i < nsteps; i++) {
		s->end[i] = i + 1 < nsteps ? s->start[i + 1] : last[i];
		partition(k, s->start[i], s->end[i], s->part[i]);
	}
	partition(k, s->span_start, s->span_end, s->span);
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Linear interpolation between closest ranks (numpy's default). */
static double quantile(const double *sorted, int n, double q)
{
	double pos = q * (n - 1);
	int lo = (int)floor(pos);
	int hi = lo + 1 < n ? lo + 1 : lo;

	return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/* Warm-up: a step numbered 0 always; then leading steps while their time is
 * more than 15% above the median of the second half (steps m/2 .. m-1,
 * rounded down) of the m non-trailing step times t[]. */
static int warmup_of(const double *t, int m, int numbered0)
{
	double half[STATS_MAXS];
	int h = 0, w = numbered0 ? 1 : 0;

	for (int i = m / 2; i < m; i++)
		half[h++] = t[i];
	qsort(half, h, sizeof(double), dbl_cmp);
	while (w < m && t[w] > WARMUP_SLACK * quantile(half, h, 0.5))
		w++;
	return w;
}

/* The warm-up steps of a traced run: a step's time is its longest window over the ranks. */
static int count_warmup(const struct run_stats *st)
{
	double t[STATS_MAXS];
	int m = st->n - st->trailing;

	for (int i = 0; i < m; i++) {
		t[i] = 0;
		for (int r = 0; r < st->run->nranks; r++) {
			double d = (double)(st->rk[r].end[i] - st->rk[r].start[i]);

			if (d > t[i])
				t[i] = d;
		}
	}
	return warmup_of(t, m, st->run->spec->first_step == 0);
}

static int steady(const struct run_stats *st, int step)
{
	return step >= st->warmup && step < st->n - st->trailing;
}

static void rank_means(const struct run_stats *st, struct rank_stats *s)
{
	memset(s->mean, 0, sizeof(s->mean));
	s->mean_step = 0;
	for (int i = 0; i < st->n; i++) {
		if (!steady(st, i))
			continue;
		for (int p = 0; p < NPART; p++)
			s->mean[p] += (double)s->part[i][p] / 1e9 / st->measured;
		s->mean_step += (double)(s->end[i] - s->start[i]) / 1e9 / st->measured;
	}
	s->busy = s->mean[P_COMPUTE] + s->mean[P_MEMORY];
}

/* Median, p10, p90, cv and throughput from the m steady step times v[] (s). */
static void set_step_stats(struct run_stats *st, double *v, int m)
{
	double mean = 0, var = 0;

	for (int i = 0; i < m; i++)
		mean += v[i] / m;
	for (int i = 0; i < m; i++)
		var += (v[i] - mean) * (v[i] - mean) / m;
	qsort(v, m, sizeof(double), dbl_cmp);
	st->med = quantile(v, m, 0.5);
	st->p10 = quantile(v, m, 0.1);
	st->p90 = quantile(v, m, 0.9);
	st->cv = sqrt(var) / mean;
	st->sps = st->run->spec->global_batch / st->med;
	st->tps = st->sps * st->run->spec->seq_len;
}

static void step_stats(struct run_stats *st)
{
	const struct rank_stats *s = &st->rk[st->slowest];
	double v[STATS_MAXS];
	int m = 0;

	for (int i = 0; i < st->n; i++)
		if (steady(st, i))
			v[m++] = (double)(s->end[i] - s->start[i]) / 1e9;
	set_step_stats(st, v, m);
}

static struct coll_stat *coll_slot(struct coll_stat *c, int *n, int coll, int dt)
{
	for (int j = 0; j < *n; j++)
		if (c[j].coll == coll && c[j].dt == dt)
			return &c[j];
	c[*n] = (struct coll_stat){ .coll = coll, .dt = dt };
	return &c[(*n)++];
}

static void add_coll(struct coll_stat *c, int *n, const struct sim_ev *v)
{
	int64_t x = v->xfer > v->start ? v->xfer : v->start;

	c = coll_slot(c, n, v->coll, v->dt);
	c->bytes += v->bytes;
	c->time += v->end - v->start;
	c->xfer += v->end - (x < v->end ? x : v->end);
	c->calls++;
}

/* Rank r's collectives of the steady steps, into its own and the run's. */
static void comm_stats(struct run_stats *st, int r)
{
	const struct sim_rank *k = &st->run->rank[r];

	for (size_t i = 0; i < k->nev; i++) {
		const struct sim_ev *v = &k->ev[i];

		if (v->kind != K_COMM || !steady(st, v->step))
			continue;
		add_coll(st->coll[r], &st->ncoll[r], v);
		add_coll(st->coll[RUN_COLL], &st->ncoll[RUN_COLL], v);
	}
}

/* The matmul dtype a kernel's name shows, as the run wrote it. */
static enum dtype ev_dtype(const struct sim_run *run, const struct sim_ev *v)
{
	return kind_name_dtype((enum kkind)v->kind, run->spec->opaque ? 0 : run->gpu->arch, run->spec->prec);
}

static void precision_stats(struct run_stats *st)
{
	double total = 0;

	for (int r = 0; r < st->run->nranks; r++) {
		const struct sim_rank *k = &st->run->rank[r];

		for (size_t i = 0; i < k->nev; i++) {
			const struct sim_ev *v = &k->ev[i];
			double d = (double)(v->end - v->start);

			if (v->kind == K_COMM || kdefs[v->kind].mm == MM_NONE || !steady(st, v->step))
				continue;
			st->share[ev_dtype(st->run, v)] += d;
			total += d;
			st->flops[r] += kind_flops((enum kkind)v->kind, st->run->spec);
			st->mm_ns[r] += v->end - v->start;
		}
	}
	st->observed = DT_UNKNOWN;
	for (int d = 0; d < DT_COUNT; d++) {
		st->share[d] = total > 0 ? st->share[d] / total : 0;
		if (d != DT_UNKNOWN && st->share[d] > 0.5)
			st->observed = d;
	}
}

/* The run's declared precision as a dtype; DT_UNKNOWN when run.ini names none. */
static enum dtype declared(const struct run_spec *s)
{
	if (s->undeclared)
		return DT_UNKNOWN;
	return s->declared ? dtype_from_name(s->declared) : s->prec;
}

static void add_reason(struct run_stats *st, const char *text)
{
	size_t len = strlen(st->reason);

	snprintf(st->reason + len, sizeof(st->reason) - len, "%s%s", len ? "; " : "", text);
}

/* The rank with the largest (want_max) or smallest value other than `not`; lowest rank on a tie. */
static int extreme(const double *v, int n, int want_max, int not)
{
	int best = -1;

	for (int r = 0; r < n; r++) {
		if (r == not)
			continue;
		if (best < 0 || (want_max ? v[r] > v[best] : v[r] < v[best]))
			best = r;
	}
	return best;
}

/* Memory, busy time and waiting, each a reason of its own: the largest over the smallest GPU. */
static void imbalance(struct run_stats *st)
{
	double cap = (double)st->run->gpu->mem;
	double peak[MAX_RANKS], busy[MAX_RANKS];
	int n = st->run->nranks, hi, lo, bhi, blo;
	char text[160];

	for (int r = 0; r < n; r++) {
		peak[r] = (double)st->peak_smi[r];
		busy[r] = st->rk[r].busy;
	}
	hi = extreme(peak, n, 1, -1);
	lo = extreme(peak, n, 0, hi);
	bhi = extreme(busy, n, 1, -1);
	blo = extreme(busy, n, 0, bhi);
	st->mem_ratio = (double)st->peak_smi[hi] / (double)st->peak_smi[lo];
	st->busy_ratio = st->rk[bhi].busy / st->rk[blo].busy;
	if (st->mem_ratio > 2 || (st->peak_smi[lo] < 0.25 * cap && st->peak_smi[hi] > 0.85 * cap)) {
		snprintf(text, sizeof(text), "GPU %d holds %.1fx the memory of GPU %d (%.0f%% of capacity)",
			 hi, st->mem_ratio, lo, 100.0 * (double)st->peak_smi[hi] / cap);
		add_reason(st, text);
	}
	if (st->busy_ratio > 1.25) {
		snprintf(text, sizeof(text), "GPU %d is busy %.2fx as long as GPU %d (%.1f ms per step)",
			 bhi, st->busy_ratio, blo, 1e3 * st->rk[bhi].busy);
		add_reason(st, text);
	}
	for (int r = 0; r < n; r++) {
		const struct rank_stats *s = &st->rk[r];

		st->waits[r] = s->mean[P_WAIT] > WAIT_SHARE * s->mean_step;
		st->waits_for[r] = extreme(busy, n, 1, r);	/* the busiest of the others */
		if (!st->waits[r])
			continue;
		snprintf(text, sizeof(text), "GPU %d waits for GPU %d %.1f ms per step (%.0f%% of its step)",
			 r, st->waits_for[r], 1e3 * s->mean[P_WAIT], 100.0 * s->mean[P_WAIT] / s->mean_step);
		add_reason(st, text);
	}
	st->flagged = st->reason[0] != '\0';
}

/* A run without traces: its steps are the log's iterations (1-based: no step
 * 0, so the 15% rule alone finds the warm-up), none trailing; where the time
 * went is unknown. */
static void log_stats(struct run_stats *st)
{
	double t[STATS_MAXS], v[STATS_MAXS];
	int m = 0;

	st->logs = 1;
	st->n = st->run->spec->steps;
	for (int i = 0; i < st->n; i++)
		t[i] = st->log_s[i] = (double)logs_iteration_tenths_ms(st->run, i) / 1e4;
	st->warmup = warmup_of(t, st->n, 0);
	st->measured = st->n - st->warmup;
	for (int i = st->warmup; i < st->n; i++) {
		v[m++] = t[i];
		st->rk[0].mean_step += t[i] / st->measured;
	}
	set_step_stats(st, v, m);
	st->observed = DT_UNKNOWN;
}

static void add_family(struct run_stats *st, const char *fam, int64_t ns)
{
	int i;

	for (i = 0; i < st->nfam && strcmp(st->fam[i].fam, fam); i++)
		;
	if (i == st->nfam) {
		if (st->nfam == STATS_MAXFAM)
			abort();	/* the kernel tables outgrew the array */
		st->fam[st->nfam++] = (struct fam_time){ .fam = fam };
	}
	st->fam[i].ns += ns;
}

/* Kernel time by family: the non-communication kernels launched in steady
 * steps, durations summed (not a union) over the ranks. */
static void family_stats(struct run_stats *st)
{
	const struct sim_run *run = st->run;
	int arch = run->spec->opaque ? 0 : run->gpu->arch;

	for (int r = 0; r < run->nranks; r++) {
		const struct sim_rank *k = &run->rank[r];

		for (size_t i = 0; i < k->nev; i++) {
			const struct sim_ev *v = &k->ev[i];
			int64_t d = v->end - v->start;

			if (kdefs[v->kind].cls != EVC_COMPUTE || !steady(st, v->step))
				continue;
			add_family(st, kind_family((enum kkind)v->kind, arch, run->spec->prec), d);
			st->kernel_ns += d;
			if (kind_is_triton((enum kkind)v->kind, arch))
				st->triton_ns += d;
		}
	}
}

void run_stats(struct run_stats *st, const struct sim_run *run)
{
	memset(st, 0, sizeof(*st));
	st->run = run;
	st->precision = declared(run->spec);
	for (int r = 0; r < run->nranks; r++)
		st->peak_smi[r] = logs_smi_peak_mib(run, r) * MIB;
	if (run->spec->oom) {
		st->failed = 1;
		return;
	}
	if (run->spec->logs_only) {
		log_stats(st);
		return;
	}
	st->n = run->spec->steps;
	st->trailing = st->n > 1;
	for (int r = 0; r < run->nranks; r++)
		windows(&run->rank[r], st->n, &st->rk[r]);
	st->warmup = count_warmup(st);
	st->measured = st->n - st->trailing - st->warmup;
	for (int r = 0; r < run->nranks; r++) {
		rank_means(st, &st->rk[r]);
		if (st->rk[r].mean_step > st->rk[st->slowest].mean_step)
			st->slowest = r;
	}
	step_stats(st);
	for (int r = 0; r < run->nranks; r++)
		comm_stats(st, r);
	precision_stats(st);
	family_stats(st);
	if (st->observed != DT_UNKNOWN)
		st->precision = st->observed;
	if (run->nranks > 1)
		imbalance(st);
}

double stats_clock_offset_s(const struct sim_run *run, int r)
{
	return (double)(run->spec->clock_offset_us[0] - run->spec->clock_offset_us[r]) / 1e6;
}
