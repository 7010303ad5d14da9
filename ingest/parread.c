/*
 * Reading trace files in worker threads, so that a trial's traces (one per
 * rank, often hundreds of MB each) are read side by side, not one after another.
 *
 * What a worker touches, and why it is safe:
 * - the model: each file is read into a trial of its own (strings, arena,
 *   diagnostics, process groups, one run), so no model structure is shared;
 *   parread_take() moves the result into the real trial on the main thread,
 *   in file order: the worker's strings join the trial's (intern_merge,
 *   then intern_canon on each event's names), so do its launching ops
 *   (launch_ops_merge, then launch_op_canon), its process groups are
 *   numbered again in the trial, so the trial ends as reading the files in
 *   turn leaves it.
 * - diagnostics: kept per file, merged by diags_merge(), which applies the
 *   per-code cap as if each had been recorded in the trial's list.
 * - pattern tables (sniffing, kernel names): compiled once under a lock and
 *   read-only after; a worker matches with match data of its own
 *   (pattern_thread_begin/end in core/pattern.c).
 * - the progress hook (ingest_set_progress) is called under a lock in
 *   ingest.c; verbosity, ingest_max_events() and the jobs count are set
 *   before a load starts and only read while it runs.
 * - errno messages: ingest.c says them with strerror_r, not strerror; the
 *   readers a worker runs call no other libc function that keeps state
 *   (strtok, localtime, ...); getenv("TMPDIR") only reads, and nothing sets
 *   the environment while a trial loads.
 * - locale: never changed by the tool (numbers are parsed in the C locale).
 * - malloc: the mmap threshold is fixed (mallopt) before a trial is read,
 *   so that large arrays are always mapped (parread_big_arrays_mapped()).
 * - only Kineto traces are read by workers: the line readers (training
 *   logs with their lazily compiled patterns, nccl logs, monitors) and the
 *   archive readers stay on the main thread, which reads the other files of
 *   the trial while the workers parse.
 * - what it buys (perf record, CPU samples per thread, bench trials of
 *   s16-bench): 2 x 100 MB at -j 2, the main thread 3.8% and the workers
 *   50.3% and 46.0%; 8 x 25 MB at -j 8, the main thread 3.3% and each worker
 *   11.5-14.2%. With idle cores the wall time is about the busiest thread's
 *   share plus the main thread's: ~0.54 and ~0.18 of reading in turn. The
 *   CPU time is the same at -j 1 and -j N (task-clock 623-644 ms, 8 x 25 MB).
 * - gzip: a worker inflates and parses its file in turn. An inflate thread
 *   per file was measured not to pay: with zlib, inflate was ~9% of a rank's
 *   CPU time (bench trial 2 x 100 MB: 0.06 s of 0.33 s), and with the ranks
 *   already read in parallel no core is left idle for it on a 2-core
 *   machine; ISA-L (ingest/gunzip.c) has since cut inflating to a third.
 */
#include "ingest/parread.h"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pattern.h"
#include "core/xalloc.h"
#include "ingest/gunzip.h"
#include "ingest/sniff.h"

/* One file read by a worker. */
struct job {
	size_t i;		/* its index in the source */
	struct trial *t;	/* the trial it was read into */
	struct arena arena;	/* its info tree */
	struct ingest_file out;
	bool done;
};

struct parread {
	const struct trial_source *src;
	struct job *jobs;	/* in file order */
	size_t njobs, next;	/* next: the first job no worker has taken */
	size_t *of;		/* per file of src: its job + 1; 0 none */
	pthread_t *threads;
	size_t nthreads;
	pthread_mutex_t lock;
	pthread_cond_t done;
};

/* ---- which files ---- */

/* Up to SNIFF_HEAD bytes of content from fd's first bytes, inflated when gzip. */
static size_t head_of(int fd, unsigned char *head, bool *complete)
{
	unsigned char *raw = xmalloc(SNIFF_HEAD);
	ssize_t got = read(fd, raw, SNIFF_HEAD);
	size_t n = got > 0 ? (size_t)got : 0;

	*complete = n < SNIFF_HEAD;
	if (n >= 2 && raw[0] == 0x1f && raw[1] == 0x8b)
		n = gunzip_head(raw, n, head, SNIFF_HEAD, complete);
	else
		memcpy(head, raw, n);
	free(raw);
	return n;
}

bool parread_is_trace(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* a FIFO must not block */
	struct stat st;
	unsigned char *head;
	struct sniff sn;
	bool complete;
	size_t n;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	head = xmalloc(SNIFF_HEAD);
	n = head_of(fd, head, &complete);
	close(fd);
	sniff_bytes(head, n, complete, &sn);
	free(head);
	return sn.format == FMT_KINETO;
}

/* ---- the workers ---- */

static void read_job(const struct trial_source *src, struct job *j)
{
	struct run *r;

	j->t = trial_new();
	r = trial_add_run(j->t, "(worker)", src->dir);
	src->ingest(src->arg, j->t, r, j->i, &j->arena, &j->out);
}

static void *worker(void *arg)
{
	struct parread *p = arg;

	pattern_thread_begin();
	for (;;) {
		struct job *j = NULL;

		pthread_mutex_lock(&p->lock);
		if (p->next < p->njobs)
			j = &p->jobs[p->next++];
		pthread_mutex_unlock(&p->lock);
		if (!j)
			break;
		read_job(p->src, j);
		pthread_mutex_lock(&p->lock);
		j->done = true;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
	pattern_thread_end();
	return NULL;
}

/*
 * Fixes glibc's mmap threshold at its default (128 KiB) before a trial is
 * read, by workers or not. glibc raises it, up to 32 MiB, each time a mapped block is freed
 * (the end of a rank's link frees several): a worker's next rank then
 * grows its arrays of a few MB inside its arena, where each doubling
 * copies and the freed block stays resident. Mapped, an array grows by
 * mremap and is given back whole when freed. Measured on the 2 x 1 GB bench
 * trial: analyze -j 2 peaks at 191-195 MB against 197-204 MB, -j 1 at 151
 * MB against 160 MB.
 */
void parread_big_arrays_mapped(void)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

struct parread *parread_start(const struct trial_source *src, const bool *want, int jobs)
{
	struct parread *p;
	size_t n = 0;

	for (size_t i = 0; i < src->n; i++)
		n += want[i];
	if (!n || jobs < 2)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->src = src;
	p->jobs = xcalloc(n, sizeof(*p->jobs));
	p->of = xcalloc(src->n, sizeof(*p->of));
	for (size_t i = 0; i < src->n; i++)
		if (want[i]) {
			p->jobs[p->njobs] = (struct job){ .i = i, .arena = ARENA_INIT };
			p->of[i] = ++p->njobs;
		}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->done, NULL);
	p->threads = xcalloc(n < (size_t)jobs ? n : (size_t)jobs, sizeof(*p->threads));
	for (size_t k = 0; k < n && k < (size_t)jobs; k++)
		if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) == 0)
			p->nthreads++;
	if (!p->nthreads)	/* no thread could start: the main thread reads them all */
		p->next = p->njobs;
	return p;
}

bool parread_has(const struct parread *p, size_t i)
{
	return p && p->of[i];
}

/* ---- moving a result into the trial ---- */

/*
 * The real trial's ids of the worker's process groups (index: the worker's
 * id): its groups in the order they were first named, named again in t,
 * give t the groups, in the order, that reading the file there gives.
 */
static uint16_t *group_ids(struct trial *t, const struct trial *w)
{
	uint16_t *id = xmalloc((w->ngroups + 1) * sizeof(*id));

	id[0] = 0;
	for (size_t g = 0; g < w->ngroups; g++) {
		const struct process_group *pg = &w->groups[g];

		id[g + 1] = pg->size < 0 && !pg->ranks ? trial_group(t, pg->name, strlen(pg->name))
						       : trial_group_add(t, pg);
	}
	return id;
}

/*
 * Moves rank k of a worker's run into r. The worker's strings are t's now
 * (intern_merge), and its launching ops (launch_ops_merge): the events'
 * interned names become t's copies by intern_canon(), their ops by
 * launch_op_canon(); the device name, which the model does not promise to be
 * interned, is interned anew.
 */
static void move_rank(struct trial *t, const uint16_t *gid, size_t ngroups, struct run *r,
		      struct rank *k, const char *path)
{
	struct rank *d = run_rank(r, k->rank);

	*d = *k;
	d->trace = k->trace ? path : NULL;	/* the file's own path is the only trace it names */
	d->dev.name = k->dev.name ? intern_str(&t->strings, k->dev.name) : NULL;
	for (size_t e = 0; e < d->nev; e++) {
		struct gpu_event *ev = &d->ev[e];

		ev->name = intern_canon(ev->name);
		ev->op = launch_op_canon(ev->op);
		ev->group = ev->group <= ngroups ? gid[ev->group] : 0;
	}
	k->ev = NULL;
	k->steps = NULL;
	k->mem = NULL;
	k->lsteps = NULL;
	k->delays = NULL;
	k->nev = k->nsteps = k->nmem = k->nlsteps = k->ndelays = 0;
}

/* True when rank number n (>= 0) is in r already: the reader would warn and keep it apart. */
static bool has_rank(const struct run *r, int32_t n)
{
	for (size_t i = 0; n >= 0 && i < r->nranks; i++)
		if (r->ranks[i].rank == n)
			return true;
	return false;
}

/*
 * True when what the worker read can be moved exactly: a Kineto trace,
 * which fills nothing of its run but ranks, its source and the NCCL version
 * (ingest/kineto.c), and whose ranks are new to r.
 */
static bool movable(const struct job *j, const struct run *r)
{
	const struct run *w = &j->t->runs[0];

	if (j->out.sniff.format != FMT_KINETO || j->t->nruns != 1 || w->nsources > 1 ||
	    w->ngpu || w->nlog || w->nnccl_tests || w->nmemtl || w->ncode || w->nnccl_env ||
	    w->status != RUN_UNKNOWN || w->transport.v || w->link.v)
		return false;
	for (size_t i = 0; i < w->nranks; i++)
		if (has_rank(r, w->ranks[i].rank))
			return false;
	return true;
}

static void move_job(struct job *j, struct trial *t, struct run *r, struct ingest_file *out)
{
	struct run *w = &j->t->runs[0];
	uint16_t *gid;
	struct srcpos pos;

	*out = j->out;
	intern_merge(&t->strings, &j->t->strings);	/* the worker's strings live on in t */
	launch_ops_merge(&t->launch_ops, &j->t->launch_ops);	/* and its ops, made of them */
	out->path = intern_str(&t->strings, j->out.path);
	diags_merge(&t->diags, &j->t->diags);
	gid = group_ids(t, j->t);
	for (size_t i = 0; i < w->nsources; i++) {
		struct source *s = run_add_source(r, out->path, w->sources[i].format);

		s->events = w->sources[i].events;
		s->errors = w->sources[i].errors;
	}
	for (size_t i = 0; i < w->nranks; i++)
		move_rank(t, gid, j->t->ngroups, r, &w->ranks[i], out->path);
	pos = SRCPOS_FILE(out->path);
	if (w->nccl_version.v)
		fact_set_str(t, &r->nccl_version, w->nccl_version.v, &pos);
	free(gid);
}

int parread_take(struct parread *p, size_t i, struct trial *t, struct run *r,
		 struct ingest_file *out)
{
	struct job *j = &p->jobs[p->of[i] - 1];
	int ret = -1;

	pthread_mutex_lock(&p->lock);
	while (!j->done && p->nthreads)
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
	if (j->done && r && movable(j, r)) {
		move_job(j, t, r, out);
		ret = 0;
	}
	if (j->t) {
		trial_free(j->t);
		j->t = NULL;
	}
	return ret;
}

void parread_end(struct parread *p)
{
	if (!p)
		return;
	for (size_t k = 0; k < p->nthreads; k++)
		pthread_join(p->threads[k], NULL);
	for (size_t k = 0; k < p->njobs; k++) {
		if (p->jobs[k].t)
			trial_free(p->jobs[k].t);
		arena_release(&p->jobs[k].arena);
	}
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p->threads);
	free(p->jobs);
	free(p->of);
	free(p);
}
