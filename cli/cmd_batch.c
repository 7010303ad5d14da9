/*
 * batch: every trial under the PATH operands analysed and reported as
 * `report` does, by worker processes, into DIR/<id>/; then DIR/results.sqlite
 * and the summaries made from it. --list, --one and --merge split the same
 * work among the jobs of a scheduler (docs/batch.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>

#include "cli/batch.h"
#include "cli/batch_dir.h"
#include "cli/cli.h"
#include "core/arena.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "analysis/analysis.h"
#include "ingest/arcstage.h"
#include "render/analysis_json.h"
#include "render/batch_index.h"
#include "render/results_db.h"

static const char *out_dir;	/* -o DIR */
static int jobs = INT_MIN;	/* -j N; INT_MIN: one per core */
static int force;		/* --force */
static int retry_failed;	/* --retry-failed */
static int list_only;		/* --list */
static const char *one_id;	/* --one ID */
static int merge;		/* --merge */
static int timeout_s = 600;	/* --timeout S */
static int memory_mib = 16384;	/* --memory-limit MIB */

const struct option batch_options[] = {
	OPTION_STRING('o', NULL, &out_dir, "DIR", "where to write: DIR/<id>/ per trial, results.sqlite, "
		      "summary.csv, summary.json, index.html and index.md"),
	OPTION_INTEGER_RANGE('j', "jobs", &jobs, "N", "trials analysed at once, 1 to " OPTION_STR(BATCH_JOBS_MAX)
			     " (default: one per core)", 1, BATCH_JOBS_MAX, "1 to " OPTION_STR(BATCH_JOBS_MAX) " trials at once"),
	OPTION_FLAG(0, "force", &force, 1, "analyse again the trials whose inputs did not change"),
	OPTION_FLAG(0, "retry-failed", &retry_failed, 1,
		    "analyse again every failed trial, also one that failed on its own inputs (not the others)"),
	OPTION_INTEGER_RANGE(0, "timeout", &timeout_s, "S",
			     "seconds a trial may take before it is stopped and recorded as failed, "
			     "up to " OPTION_STR(BATCH_TIMEOUT_MAX) " (default 600; 0: no limit)", 0, BATCH_TIMEOUT_MAX,
			     "0 (no limit) to " OPTION_STR(BATCH_TIMEOUT_MAX) " seconds"),
	OPTION_INTEGER_RANGE(0, "memory-limit", &memory_mib, "MIB",
			     "address space a trial may take, in MiB, up to " OPTION_STR(BATCH_MEMORY_MAX)
			     " (default 16384; 0: no limit)", 0, BATCH_MEMORY_MAX,
			     "0 (no limit) to " OPTION_STR(BATCH_MEMORY_MAX) " MiB"),
	OPTION_FLAG(0, "list", &list_only, 1, "only print the trials found: id, a tab, the location"),
	OPTION_STRING(0, "one", &one_id, "ID", "analyse only the trial ID (as --list names it) into DIR/ID/"),
	OPTION_FLAG(0, "merge", &merge, 1,
		    "the operands are output directories of batch or batch --one: build results.sqlite "
		    "and the summaries from their trials (into -o DIR, else the first)"),
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

struct merge_ctx {
	struct results_db *db;
	size_t errors;
	size_t unplaced;	/* trials whose output could not be put in DIR/<id> */
	/* --merge: the trial merged under each id so far, to tell a different one with the same id */
	struct merged {
		char *id, *source, *trial, *dir;
	} *merged;
	size_t nmerged;
};

/* ---------------------------------------------------------------- the database */

/* Puts the trial whose output is dir into the database, from batch.json and analysis.json. */
static int add_dir(struct results_db *db, const char *dir, bool *failed)
{
	struct arena ar = { 0 };
	struct diags d = DIAGS_INIT;
	struct batch_record r;
	struct analysis *a = NULL;
	char *rec = xasprintf("%s/batch.json", dir), *aj = xasprintf("%s/analysis.json", dir);
	int rc = batch_record_read(rec, &ar, &r, &d);

	if (rc == 0)
		*failed = strcmp(r.status, "ok") != 0;
	if (rc == 0 && !results_db_current(db, &r)) {
		if (!*failed && !(a = analysis_read_json(aj, &d)))
			rc = -1;
		else
			rc = results_db_put(db, &r, a, &d);
	}
	print_diags(&d);
	diags_release(&d);
	analysis_free(a);
	arena_release(&ar);
	free(rec);
	free(aj);
	return rc;
}

static void trial_done(void *ctx, const struct batch_trial *t, const char *dir)
{
	struct merge_ctx *m = ctx;
	bool failed = false;

	if (!dir)
		m->unplaced++;
	else if (m->db && add_dir(m->db, dir, &failed) < 0)
		m->errors++;
}

/* ---------------------------------------------------------------- summaries */

/* Writes the summaries of every trial in db into out; counts the failed ones in *failed. */
static int write_summaries(struct results_db *db, const char *out, size_t *failed)
{
	struct arena ar = { 0 };
	struct diags d = DIAGS_INIT;
	struct trial_row *rows = NULL;
	long n = results_db_trials(db, &ar, &rows, &d);
	int rc = n < 0 ? -1 : batch_index_write(rows, (size_t)n, out, &d);

	for (long i = 0; i < n; i++)
		*failed += rows[i].status && strcmp(rows[i].status, "ok") != 0;
	print_diags(&d);
	diags_release(&d);
	arena_release(&ar);
	return rc;
}

/* ---------------------------------------------------------------- modes */

static int find(char **argv, int argc, struct batch_trials *t)
{
	int rc = batch_find(argv, argc, t);

	if (!t->n) {
		error("no trial found under %s%s", argv[0], argc > 1 ? " and the other paths" : "");
		return EXIT_NO_INPUT;
	}
	return rc < 0 ? EXIT_PARTIAL : EXIT_DONE;
}

static int cmd_list(int argc, char **argv)
{
	struct batch_trials t = { 0 };
	int ret = find(argv, argc, &t);

	/* one trial a line, its two fields split by a tab: a name's own tab or newline is escaped */
	for (size_t i = 0; i < t.n; i++) {
		utf8_write(stdout, t.v[i].id, strlen(t.v[i].id), UTF8_CONTROLS | UTF8_ONE_LINE);
		putchar('\t');
		utf8_write(stdout, t.v[i].location, strlen(t.v[i].location), UTF8_CONTROLS | UTF8_ONE_LINE);
		putchar('\n');
	}
	batch_trials_release(&t);
	return ret;
}

/* DIR, marked as batch's so that a DIR inside the trials is never read as part of one. */
static int make_out(const char *out)
{
	if (mkdir(out, 0777) < 0 && errno != EEXIST)
		return error("%s: cannot create: %s", out, strerror(errno));
	if (output_mark(out, BATCH_MARK) < 0)
		return error("%s: cannot write %s in it: %s", out, BATCH_MARK, strerror(errno));
	return 0;
}

/* The line a batch stopped by a signal ends with; its exit status, 128 + the signal. */
static int interrupted(int signo, size_t done, size_t total)
{
	error("interrupted by signal %d (%s): %zu of %zu trial%s done; the same command finishes the rest",
	      signo, strsignal(signo), done, total, total == 1 ? "" : "s");
	return 128 + signo;
}

static struct batch_opts run_opts(struct merge_ctx *m)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (cores > BATCH_JOBS_MAX)
		cores = BATCH_JOBS_MAX;
	return (struct batch_opts){
		.out = out_dir, .jobs = jobs > 0 ? jobs : cores > 0 ? (int)cores : 1,
		.timeout_s = timeout_s, .memory_mib = memory_mib,
		.progress = verbosity >= 0 && isatty(2), .done = trial_done, .ctx = m,
	};
}

static int cmd_one(int argc, char **argv)
{
	struct batch_trials t = { 0 };
	struct merge_ctx m = { 0 };
	struct batch_opts o = run_opts(&m);
	struct batch_result res;
	int ret = find(argv, argc, &t);
	size_t i;

	for (i = 0; i < t.n && strcmp(t.v[i].id, one_id); i++)
		;
	if (ret != EXIT_NO_INPUT && i == t.n)
		ret = error("no trial %s under the paths given (see 'scaleaudit batch --list')", one_id);
	if (i < t.n) {
		struct batch_trial *one = &t.v[i];

		o.jobs = 1;
		o.progress = false;
		if (make_out(out_dir) < 0)
			ret = EXIT_NO_INPUT;
		else if ((res = batch_run(&o, &one, 1)).signo)
			ret = interrupted(res.signo, res.done, 1);
		else if (res.failed)
			ret = EXIT_PARTIAL;
	}
	batch_trials_release(&t);
	return ret < 0 ? EXIT_NO_INPUT : ret;
}

/*
 * A failed trial whose record says it may fail differently now: its failure
 * was a circumstance of the run (a limit, a signal, an I/O error), or it ran
 * under other limits than those given now.
 */
static bool worth_retrying(const struct batch_record *r)
{
	return retry_failed || !batch_failure_own(r->failure) || r->timeout_s != timeout_s ||
	       r->memory_limit_mib != memory_mib;
}

/* True when DIR/<id>/batch.json says t was done from these same inputs, and not to retry. */
static bool up_to_date(const struct batch_trial *t)
{
	struct arena ar = { 0 };
	struct diags d = DIAGS_INIT;
	struct batch_record r;
	char *rec = xasprintf("%s/%s/batch.json", out_dir, t->id);
	bool yes = batch_record_read(rec, &ar, &r, &d) == 0 && r.fingerprint &&
		   !strcmp(r.fingerprint, t->fingerprint) &&
		   (!strcmp(r.status, "ok") || !worth_retrying(&r));

	diags_release(&d);
	arena_release(&ar);
	free(rec);
	return yes;
}

/*
 * Removes what a batch killed before finishing left: DIR/<id>.tmp-PID and
 * .old-PID of dead PIDs, and only those batch wrote (they hold its mark).
 */
static void remove_stale(const char *out)
{
	size_t n = 0;
	char **names = batch_list_dir(out, &n);

	for (size_t i = 0; names && i < n; i++) {
		long pid = batch_staging_pid(names[i]);
		char *p;

		if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM)
			continue;	/* not staging, or its batch still runs */
		p = xasprintf("%s/%s", out, names[i]);
		if (batch_owned(p))
			outfile_remove_tree(p);
		free(p);
	}
	if (names)
		batch_free_list(names, n);
}

/*
 * The trials to run that share an archive are copied out of it in one pass
 * (ingest/arcstage.h) into DIR/.archives.tmp-PID, batch's staging, which the
 * workers read instead of reading the whole archive each: the folder, or
 * NULL when none was made.
 */
static char *stage_archives(struct batch_trials *t, struct batch_trial *const *todo, size_t n)
{
	bool *want = xcalloc(t->dv.n + 1, sizeof(*want));
	size_t in_archives = 0;
	char *dir = NULL;

	for (size_t i = 0; i < n; i++) {
		want[todo[i]->found - t->dv.trials] = true;
		in_archives += todo[i]->found->archive != 0;
	}
	if (in_archives >= 2) {
		dir = xasprintf("%s/.archives.tmp-%ld", out_dir, (long)getpid());
		if (batch_make_staging(dir) < 0) {
			free(dir);
			dir = NULL;	/* each trial is read from its archive */
		} else {
			arc_stage(&t->dv, want, dir);
		}
	}
	free(want);
	return dir;
}

/* Runs the trials not up to date; the others are put in the database as they are. */
static struct batch_result run_all(struct batch_trials *t, struct merge_ctx *m, size_t *skipped)
{
	struct batch_trial **todo = xcalloc(t->n, sizeof(*todo));
	struct batch_opts o = run_opts(m);
	struct batch_result res;
	char *stage;
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		char *dir = xasprintf("%s/%s", out_dir, t->v[i].id);

		if (!force && up_to_date(&t->v[i]))
			trial_done(m, &t->v[i], dir);
		else
			todo[n++] = &t->v[i];
		free(dir);
	}
	*skipped = t->n - n;
	stage = stage_archives(t, todo, n);
	res = batch_run(&o, todo, n);
	if (stage)
		outfile_remove_tree(stage);
	free(stage);
	free(todo);
	return res;
}


static int cmd_run(int argc, char **argv)
{
	struct batch_trials t = { 0 };
	struct merge_ctx m = { 0 };
	struct diags d = DIAGS_INIT;
	struct batch_result res;
	size_t skipped = 0, failed = 0;
	char *dbpath = xasprintf("%s/results.sqlite", out_dir);
	int ret = find(argv, argc, &t);

	if (ret != EXIT_NO_INPUT && make_out(out_dir) < 0)
		ret = EXIT_NO_INPUT;
	if (ret != EXIT_NO_INPUT && !(m.db = results_db_open(dbpath, &d)))
		ret = EXIT_NO_INPUT;
	if (ret != EXIT_NO_INPUT && (res = (remove_stale(out_dir), run_all(&t, &m, &skipped))).signo) {
		ret = interrupted(res.signo, skipped + res.done, t.n);
	} else if (ret != EXIT_NO_INPUT) {
		failed = m.unplaced;
		if (write_summaries(m.db, out_dir, &failed) < 0 || m.errors)
			ret = EXIT_NO_INPUT;
		else if (failed)
			ret = EXIT_PARTIAL;
		if (verbosity >= 0)
			printf("%zu trial%s: %zu analysed, %zu skipped (unchanged), %zu failed\n%s/index.html\n",
			       t.n, t.n == 1 ? "" : "s", t.n - skipped, skipped, failed, out_dir);
	}
	print_diags(&d);
	diags_release(&d);
	results_db_close(m.db);
	batch_trials_release(&t);
	free(dbpath);
	return ret;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * False, after an error naming both, when the trial in dir has the id of one
 * merged before from another source or place: it would replace that one's rows.
 */
static bool merge_unique(struct merge_ctx *m, const char *dir)
{
	struct arena ar = { 0 };
	struct diags d = DIAGS_INIT;
	struct batch_record r;
	char *rec = xasprintf("%s/batch.json", dir);
	bool ok = true;
	size_t i;

	if (batch_record_read(rec, &ar, &r, &d) == 0) {	/* else add_dir says why */
		for (i = 0; i < m->nmerged && strcmp(m->merged[i].id, r.id); i++)
			;
		if (i < m->nmerged && (!same(m->merged[i].source, r.source) || !same(m->merged[i].trial, r.trial))) {
			error("%s: trial %s, found under %s, has the id of %s, trial %s found under %s: not merged "
			      "(give the paths distinct names, or merge them apart)",
			      dir, r.trial ? r.trial : "?", r.source ? r.source : "?", m->merged[i].dir,
			      m->merged[i].trial ? m->merged[i].trial : "?",
			      m->merged[i].source ? m->merged[i].source : "?");
			ok = false;
		} else if (i == m->nmerged) {
			m->merged = xrealloc(m->merged, (m->nmerged + 1) * sizeof(*m->merged));
			m->merged[m->nmerged++] = (struct merged){
				.id = xstrdup(r.id), .source = r.source ? xstrdup(r.source) : NULL,
				.trial = r.trial ? xstrdup(r.trial) : NULL, .dir = xstrdup(dir),
			};
		}
	}
	diags_release(&d);
	arena_release(&ar);
	free(rec);
	return ok;
}

static void merged_release(struct merge_ctx *m)
{
	for (size_t i = 0; i < m->nmerged; i++) {
		free(m->merged[i].id);
		free(m->merged[i].source);
		free(m->merged[i].trial);
		free(m->merged[i].dir);
	}
	free(m->merged);
}

/* Every DIR/<id>/ with a batch.json (not a .tmp- or .old- left by a killed batch) into the database. */
static int merge_dir(struct merge_ctx *m, const char *dir, size_t *found)
{
	size_t n = 0;
	char **names = batch_list_dir(dir, &n);
	bool failed;

	if (!names)
		return error("%s: %s", dir, strerror(errno));
	for (size_t i = 0; i < n; i++) {
		char *sub = xasprintf("%s/%s", dir, names[i]), *rec = xasprintf("%s/batch.json", sub);

		if (names[i][0] != '.' && !batch_staging_pid(names[i]) &&
		    access(rec, F_OK) == 0) {
			(*found)++;
			if (!merge_unique(m, sub) || add_dir(m->db, sub, &failed) < 0)
				m->errors++;
		}
		free(rec);
		free(sub);
	}
	batch_free_list(names, n);
	return 0;
}

static int cmd_merge(int argc, char **argv)
{
	struct merge_ctx m = { 0 };
	struct diags d = DIAGS_INIT;
	const char *out = out_dir ? out_dir : argv[0];
	char *dbpath = xasprintf("%s/results.sqlite", out);
	size_t found = 0, failed = 0;
	int ret = EXIT_DONE;

	if (make_out(out) < 0 || !(m.db = results_db_open(dbpath, &d)))
		ret = EXIT_NO_INPUT;
	for (int i = 0; ret == EXIT_DONE && i < argc; i++)
		if (merge_dir(&m, argv[i], &found) < 0)
			m.errors++;
	if (ret == EXIT_DONE && !found)
		ret = error("no trial output (a folder with batch.json) under %s", argv[0]) < 0 ? EXIT_NO_INPUT : 0;
	else if (ret == EXIT_DONE && write_summaries(m.db, out, &failed) < 0)
		ret = EXIT_NO_INPUT;
	else if (ret == EXIT_DONE && (failed || m.errors))
		ret = EXIT_PARTIAL;
	print_diags(&d);
	diags_release(&d);
	results_db_close(m.db);
	merged_release(&m);
	free(dbpath);
	return ret;
}

/* Whether a and b name one directory (device and inode: a link or another spelling counts). */
static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && S_ISDIR(sa.st_mode) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int cmd_batch(int argc, char **argv)
{
	if (argc < 1)
		return usage_error("batch", merge ? "no DIR given" : "no PATH given");
	if (list_only + !!one_id + merge > 1)
		return usage_error("batch", "--list, --one and --merge go one at a time");
	if (list_only)
		return cmd_list(argc, argv);
	if (merge)
		return cmd_merge(argc, argv);
	if (!out_dir)
		return usage_error("batch", "no output directory: give -o DIR");
	for (int i = 0; i < argc; i++)
		if (same_dir(argv[i], out_dir))
			return usage_error("batch", "-o %s is also a PATH to analyse: its summaries would change "
					   "the trial's files on every run; give -o a directory of its own (one inside "
					   "the PATH is fine)", out_dir);
	return one_id ? cmd_one(argc, argv) : cmd_run(argc, argv);
}
