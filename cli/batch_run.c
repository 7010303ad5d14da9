/*
 * batch_run: the worker processes of `scaleaudit batch`: one fork per
 * trial, its limits, its outcome as a result record, and the rename that
 * makes a trial's output appear only when it is complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/batch.h"
#include "cli/batch_dir.h"
#include "cli/cli.h"
#include "core/xalloc.h"
#include "ingest/trial.h"
#include "render/results_db.h"

#define POLL_NS 50000000L	/* how often the parent looks at its workers */
#define STOP_POLLS 100		/* of POLL_NS: how long stopped workers get before SIGKILL */
#define EXIT_NO_START 125	/* a worker that could not set itself up (its log) */
#define REASON_MAX 400		/* characters of a reason kept from a trial's log */

struct worker {
	pid_t pid;			/* 0: free */
	const struct batch_trial *t;
	char *tmp;			/* DIR/<id>.tmp-<pid of batch> */
	struct timespec start;
	bool timed_out;
};

struct progress {
	size_t done, failed, total;
	struct timespec start;
	struct timespec shown;	/* when the line was last drawn */
	size_t shown_done;	/* done then; (size_t)-1 before the first */
};

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

long batch_staging_pid(const char *name)
{
	static const char *const marks[] = { ".tmp-", ".old-" };
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(marks) / sizeof(*marks); i++) {
		const char *m = strstr(name, marks[i]), *next;

		for (; m; m = next) {
			const char *d = m + 5;
			char *end;
			long pid;

			next = strstr(m + 1, marks[i]);
			if (!(*d >= '1' && *d <= '9'))
				continue;
			pid = strtol(d, &end, 10);
			if (end == name + len && pid > 0)
				return pid;
		}
	}
	return 0;
}

/* A batch.json that reads as a result record: outputs of versions before BATCH_MARK. */
static bool has_record(const char *dir)
{
	struct arena ar = { 0 };
	struct diags d = DIAGS_INIT;
	struct batch_record r;
	char *rec = xasprintf("%s/batch.json", dir);
	struct stat st;
	bool yes = lstat(rec, &st) == 0 && S_ISREG(st.st_mode) && batch_record_read(rec, &ar, &r, &d) == 0;

	diags_release(&d);
	arena_release(&ar);
	free(rec);
	return yes;
}

bool batch_owned(const char *path)
{
	struct stat st;
	char *mark;
	bool yes;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	mark = xasprintf("%s/" BATCH_MARK, path);
	yes = lstat(mark, &st) == 0 && S_ISREG(st.st_mode);
	free(mark);
	return yes || has_record(path);
}

int batch_make_staging(const char *dir)
{
	char *mark = xasprintf("%s/" BATCH_MARK, dir);
	int fd, rc = 0;

	if (mkdir(dir, 0777) < 0)
		rc = error("%s: cannot create: %s", dir, strerror(errno));
	else if ((fd = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666)) < 0 ||
		 write(fd, "written by scaleaudit batch\n", 28) != 28 || close(fd) < 0)
		rc = error("%s: cannot write: %s", mark, strerror(errno));
	free(mark);
	return rc;
}

/* ---------------------------------------------------------------- signals */

/* The signals that stop a batch: set by the handler, read by the pool's loop. */
static const int stop_signals[] = { SIGTERM, SIGINT };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))
static volatile sig_atomic_t stop_signo;

static void on_stop(int signo)
{
	stop_signo = signo;
}

/* Installs on_stop (saving the old actions in old), or puts old back. */
static void catch_stops(bool on, struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_stop };	/* no SA_RESTART: a nap ends early */

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], on ? &sa : &old[i], on ? &old[i] : NULL);
}

/* Blocks (or unblocks) the stop signals: a worker is forked with them held. */
static void hold_stops(bool hold)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/* ---------------------------------------------------------------- the child */

static void set_limit(int resource, rlim_t v)
{
	struct rlimit r = { .rlim_cur = v, .rlim_max = v };

	setrlimit(resource, &r);
}

/* In the worker: the trial's report into tmp, what it prints into tmp/batch.log. */
static void child(const struct batch_opts *o, const struct batch_trial *t, const char *tmp)
{
	char *log = xasprintf("%s/batch.log", tmp);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	int null = open("/dev/null", O_WRONLY);

	/* its own group, which the parent stops as one; the signals as they were, then let in */
	setpgid(0, 0);
	for (size_t i = 0; i < NSTOP; i++)
		signal(stop_signals[i], SIG_DFL);
	hold_stops(false);
	if (fd < 0 || null < 0 || dup2(fd, 2) < 0 || dup2(null, 1) < 0)
		_exit(EXIT_NO_START);
	close(fd);
	close(null);
#ifndef __SANITIZE_ADDRESS__	/* AddressSanitizer reserves terabytes of address space */
	if (o->memory_mib > 0)
		set_limit(RLIMIT_AS, (rlim_t)o->memory_mib << 20);
#endif
	if (o->timeout_s > 0)	/* a backstop: the parent kills it at timeout_s */
		set_limit(RLIMIT_CPU, (rlim_t)o->timeout_s + 10);
	fflush(NULL);
	_exit(report_found(t->dv, t->found, tmp));
}

/* ---------------------------------------------------------------- the outcome */

/* A line of a trial's log that says what went wrong, with its file and position. */
static bool is_cause(const char *line)
{
	return *line && *line != ' ' && strncmp(line, "scaleaudit: ", 12) && !strstr(line, ": warning: ") &&
	       !strstr(line, ": note: ");
}

/*
 * What the trial's process said went wrong: its first "scaleaudit: " line,
 * without that, and the first error about a file before it; with only_cause
 * (a trial read in part) or without such a line, that first error alone.
 * NULL when none.
 */
static char *first_error(const char *tmp, bool only_cause)
{
	char *log = xasprintf("%s/batch.log", tmp);
	FILE *f = fopen(log, "r");
	char line[2048], *cause = NULL, *why = NULL;

	free(log);
	while (f && !why && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!cause && is_cause(line))
			cause = xstrndup(line, REASON_MAX);
		if (!only_cause && !strncmp(line, "scaleaudit: ", 12) && !strstr(line, "more messages like these"))
			why = cause ? xasprintf("%.*s; %s", REASON_MAX, line + 12, cause)
				    : xstrndup(line + 12, REASON_MAX);
	}
	if (f)
		fclose(f);
	if (only_cause || !why)	/* no summary line: the error about a file says it */
		return cause;
	free(cause);
	return why;
}

/*
 * The kinds of failure (batch_record.failure): the trial's own, "input",
 * fails the same way until its inputs change; the others are circumstances
 * of the run, retried by the next batch.
 */
static const char *const own_failures[] = { "input" };

bool batch_failure_own(const char *failure)
{
	for (size_t i = 0; failure && i < sizeof(own_failures) / sizeof(*own_failures); i++)
		if (!strcmp(failure, own_failures[i]))
			return true;
	return false;
}

/* Signals that are limits of the run rather than a crash. */
static const struct {
	int signo;
	const char *kind;
} signal_kinds[] = {
	{ SIGXCPU, "timeout" },	/* the CPU-time backstop of --timeout */
	{ SIGXFSZ, "io" },	/* a file-size limit */
};

/* Errors of the system, as a line of the trial's log ends with them: circumstances. */
static const struct {
	int err;
	const char *kind;
} errno_kinds[] = {
	{ ENOSPC, "io" }, { EDQUOT, "io" }, { EIO, "io" }, { EROFS, "io" }, { EACCES, "io" },
	{ EMFILE, "io" }, { ENFILE, "io" }, { ENOMEM, "memory" },
};

static const char *signal_kind(int signo)
{
	for (size_t i = 0; i < sizeof(signal_kinds) / sizeof(*signal_kinds); i++)
		if (signal_kinds[i].signo == signo)
			return signal_kinds[i].kind;
	return "signal";
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n > k + 2 && !strcmp(s + n - k, tail) && !strncmp(s + n - k - 2, ": ", 2);
}

/* The circumstance one line of a failed trial's log names (tmp: its output); NULL: none. */
static const char *line_kind(const char *line, const char *tmp)
{
	static const char oom[] = "scaleaudit: out of memory";
	char *unwritten = xasprintf("scaleaudit: %s: no report written", tmp);
	bool io = !strcmp(line, unwritten);

	free(unwritten);
	if (io)
		return "io";	/* the output could not be written */
	if (!strncmp(line, oom, sizeof(oom) - 1))
		return "memory";
	for (size_t i = 0; i < sizeof(errno_kinds) / sizeof(*errno_kinds); i++)
		if (ends_with(line, strerror(errno_kinds[i].err)))
			return errno_kinds[i].kind;
	return NULL;
}

/*
 * What kind of failure a worker that exited with an error had, from its
 * log: a circumstance a line names, else the trial's own; a log with no
 * line at all could not be written.
 */
static const char *log_kind(const char *tmp)
{
	char *log = xasprintf("%s/batch.log", tmp);
	FILE *f = fopen(log, "r");
	char line[2048];
	const char *kind = NULL;
	bool any = false;

	free(log);
	while (f && !kind && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		any = true;
		kind = line_kind(line, tmp);
	}
	if (f)
		fclose(f);
	return kind ? kind : any ? "input" : "io";
}

/* Why the worker w ended as status says, and its kind; NULL when the trial succeeded. */
static char *failure(const struct batch_opts *o, const struct worker *w, int status, const char **kind)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	char *why;

	*kind = NULL;
	if (w->timed_out) {
		*kind = "timeout";
		return xasprintf("ran past the %d s limit", o->timeout_s);
	}
	if (WIFSIGNALED(status)) {
		*kind = signal_kind(WTERMSIG(status));
		return xasprintf("killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	}
	if (code == EXIT_DONE || code == EXIT_PARTIAL)
		return NULL;
	if (code == EXIT_NO_START) {
		*kind = "start";
		return xstrdup("the worker could not start (its batch.log could not be made)");
	}
	*kind = log_kind(w->tmp);
	why = first_error(w->tmp, false);
	if (why && !strncmp(why, "out of memory", 13) && o->memory_mib > 0) {
		char *t = xasprintf("%s, past the %d MiB limit", why, o->memory_mib);

		free(why);
		return t;
	}
	return why ? why : xasprintf("exited with status %d", code);
}

/* Keeps only batch.log of a failed trial's output: what is left is not a report. */
static void strip_failed(const char *tmp)
{
	size_t n = 0;
	char **names = batch_list_dir(tmp, &n);

	for (size_t i = 0; names && i < n; i++) {
		char *p = xasprintf("%s/%s", tmp, names[i]);

		if (strcmp(names[i], "batch.log") && strcmp(names[i], BATCH_MARK))
			outfile_remove_tree(p);
		free(p);
	}
	if (names)
		batch_free_list(names, n);
}

static void utc_now(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
}

/*
 * The record of t: ok or not, with why it failed or what of it could not be
 * read (NULL: nothing), the kind of failure and the limits it ran under.
 */
static int write_record(const struct batch_opts *o, const struct batch_trial *t, const char *tmp,
			const char *why, const char *kind)
{
	char when[32], *path = xasprintf("%s/batch.json", tmp);
	struct batch_record r = {
		.id = t->id, .source = t->source, .trial = t->location, .fingerprint = t->fingerprint,
		.status = kind ? "error" : "ok", .error = why, .analysed_at = when, .failure = kind,
		.timeout_s = o->timeout_s, .memory_limit_mib = o->memory_mib,
	};
	FILE *f = fopen(path, "w");
	int rc = 0;

	utc_now(when, sizeof(when));
	if (!f || batch_record_write(&r, f) < 0)
		rc = error("%s: cannot write: %s", path, strerror(errno));
	if (f && fclose(f) == EOF)
		rc = error("%s: cannot write: %s", path, strerror(errno));
	free(path);
	return rc;
}

/*
 * True, after an error message, when path exists and batch did not write
 * it: the user's, left alone. What batch wrote is removed first when stale.
 */
static bool in_the_way(const char *path, bool stale)
{
	struct stat st;

	if (lstat(path, &st) < 0 && errno == ENOENT)
		return false;
	if (!batch_owned(path)) {
		error("%s: exists and was not written by scaleaudit batch; left alone (move it, or choose "
		      "another -o)", path);
		return true;
	}
	return stale && outfile_remove_tree(path) < 0;
}

/* Puts tmp in place of DIR/<id>: the old output moves aside first and goes last. */
static int publish(const char *out, const struct batch_trial *t, const char *tmp, char **final)
{
	char *old = xasprintf("%s/%s.old-%ld", out, t->id, (long)getpid());
	int rc = 0;

	*final = xasprintf("%s/%s", out, t->id);
	if (in_the_way(*final, false) || in_the_way(old, true))
		rc = -1;
	else if (rename(*final, old) < 0 && errno != ENOENT)
		rc = error("%s: cannot move aside: %s", *final, strerror(errno));
	else if (rename(tmp, *final) < 0)
		rc = error("%s: cannot rename into place: %s", *final, strerror(errno));
	if (rc == 0 && batch_owned(old))
		outfile_remove_tree(old);
	free(old);
	return rc;
}

/* A worker ended: its record, its output in place, the caller told. False when it failed. */
static bool finish(const struct batch_opts *o, struct worker *w, int status)
{
	const char *kind;
	char *why = failure(o, w, status, &kind), *final = NULL;
	bool ok = !why;
	char *note = ok && WIFEXITED(status) && WEXITSTATUS(status) == EXIT_PARTIAL ? first_error(w->tmp, true) : NULL;

	if (why)
		strip_failed(w->tmp);
	if (write_record(o, w->t, w->tmp, why ? why : note, kind) < 0 ||
	    publish(o->out, w->t, w->tmp, &final) < 0) {
		ok = false;
		if (o->done)
			o->done(o->ctx, w->t, NULL);
	} else if (o->done) {
		o->done(o->ctx, w->t, final);
	}
	outfile_remove_tree(w->tmp);
	free(why);
	free(note);
	free(final);
	free(w->tmp);
	w->pid = 0;
	return ok;
}

/* ---------------------------------------------------------------- the pool */

static int start(const struct batch_opts *o, struct worker *w, const struct batch_trial *t)
{
	w->t = t;
	w->timed_out = false;
	w->tmp = xasprintf("%s/%s.tmp-%ld", o->out, t->id, (long)getpid());
	if (in_the_way(w->tmp, true) || batch_make_staging(w->tmp) < 0) {
		free(w->tmp);
		return -1;
	}
	fflush(NULL);
	hold_stops(true);	/* a stop that comes now reaches the worker once it is in its group */
	w->pid = fork();
	if (w->pid == 0)
		child(o, t, w->tmp);
	if (w->pid > 0)
		setpgid(w->pid, w->pid);	/* as the child does: whichever runs first */
	hold_stops(false);
	if (w->pid < 0) {
		error("cannot start a worker: %s", strerror(errno));
		w->pid = 0;
		outfile_remove_tree(w->tmp);
		free(w->tmp);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &w->start);
	return 0;
}

/* The progress line, redrawn when a trial ends and once a second (the ETA). */
static void show(struct progress *p, const struct worker *w, int n)
{
	double el = since(&p->start);
	double eta = p->done ? el / (double)p->done * (double)(p->total - p->done) : -1;
	int i;

	if (p->shown_done == p->done && since(&p->shown) < 1)
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->shown);
	p->shown_done = p->done;
	for (i = 0; i < n && !w[i].pid; i++)
		;
	fprintf(stderr, "\rbatch: %zu/%zu done, %zu failed", p->done, p->total, p->failed);
	if (i < n)
		fprintf(stderr, ", now %s", w[i].t->id);
	if (eta >= 0 && p->done < p->total)
		fprintf(stderr, ", ETA %dm%02ds", (int)eta / 60, (int)eta % 60);
	fputs("\033[K", stderr);
}

/* Sends signo to the worker's process group (to the worker alone if it has none yet). */
static void kill_group(pid_t pid, int signo)
{
	if (kill(-pid, signo) < 0)
		kill(pid, signo);
}

/* Kills the workers past the time limit. */
static void enforce(const struct batch_opts *o, struct worker *w, int n)
{
	for (int i = 0; i < n; i++)
		if (w[i].pid && o->timeout_s > 0 && !w[i].timed_out && since(&w[i].start) > o->timeout_s) {
			kill_group(w[i].pid, SIGKILL);
			w[i].timed_out = true;
		}
}

/* Reaps one ended worker; false when none has ended. */
static bool reap(const struct batch_opts *o, struct worker *w, int n, struct progress *p)
{
	int status;
	pid_t pid = waitpid(-1, &status, WNOHANG);

	if (pid <= 0)
		return false;
	for (int i = 0; i < n; i++) {
		if (w[i].pid != pid)
			continue;
		if (!finish(o, &w[i], status))
			p->failed++;
		p->done++;
		return true;
	}
	return true;
}

static int busy(const struct worker *w, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += w[i].pid != 0;
	return k;
}

/*
 * After a stop signal: the workers' groups get it too, a few seconds to end,
 * then SIGKILL; their staging (which holds batch's mark) is removed.
 */
static void stop_workers(struct worker *w, int n, int signo)
{
	struct timespec nap = { 0, POLL_NS };
	int status;

	for (int i = 0; i < n; i++)
		if (w[i].pid)
			kill_group(w[i].pid, signo);
	for (int k = 0, left = busy(w, n); k < STOP_POLLS && left; k++) {
		left = 0;
		for (int i = 0; i < n; i++) {
			if (w[i].pid > 0 && waitpid(w[i].pid, &status, WNOHANG) == w[i].pid)
				w[i].pid = -w[i].pid;	/* ended: its group may still hold others */
			left += w[i].pid > 0;
		}
		if (left)
			nanosleep(&nap, NULL);
	}
	for (int i = 0; i < n; i++) {
		if (!w[i].pid)
			continue;
		kill_group(w[i].pid > 0 ? w[i].pid : -w[i].pid, SIGKILL);
		if (w[i].pid > 0)
			waitpid(w[i].pid, &status, 0);
		if (batch_owned(w[i].tmp))
			outfile_remove_tree(w[i].tmp);
		free(w[i].tmp);
		w[i].pid = 0;
	}
}

struct batch_result batch_run(const struct batch_opts *o, struct batch_trial *const *todo, size_t n)
{
	struct worker *w = xcalloc((size_t)o->jobs, sizeof(*w));
	struct progress p = { .total = n, .shown_done = (size_t)-1 };
	struct timespec nap = { 0, POLL_NS };
	struct sigaction old[NSTOP];
	struct batch_result res;
	size_t next = 0;

	/* trials read at once each read their files in turn: the cores are taken */
	trial_set_jobs(o->jobs > 1 ? 1 : 0);
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	stop_signo = 0;
	catch_stops(true, old);
	while ((next < n || busy(w, o->jobs)) && !stop_signo) {
		for (int i = 0; i < o->jobs && next < n && !stop_signo; i++) {
			if (w[i].pid)
				continue;
			if (start(o, &w[i], todo[next++]) < 0) {
				p.failed++;
				p.done++;
			}
		}
		if (o->progress)
			show(&p, w, o->jobs);
		enforce(o, w, o->jobs);
		if (!reap(o, w, o->jobs, &p))
			nanosleep(&nap, NULL);
	}
	if (stop_signo)
		stop_workers(w, o->jobs, stop_signo);
	catch_stops(false, old);
	if (o->progress) {
		p.shown_done = (size_t)-1;
		show(&p, w, o->jobs);
		fputc('\n', stderr);
	}
	free(w);
	res = (struct batch_result){ .done = p.done, .failed = p.failed, .signo = stop_signo };
	return res;
}
