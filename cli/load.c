/*
 * load: what report and analyze start from: a trial directory, or an
 * archive that holds one trial, analysed here, or an analysis.json that an
 * earlier run wrote, read back without the logs. The two are told apart by what the path holds, not by its name.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "core/utf8.h"
#include "ingest/discover.h"
#include "ingest/trial.h"
#include "render/analysis_json.h"

int load_jobs;

int load_jobs_set(const char *cmd)
{
	if (load_jobs < 0)
		return usage_error(cmd, "--jobs: '%d' is not a positive count", load_jobs);
	trial_set_jobs(load_jobs);
	return EXIT_DONE;
}

/*
 * SCALEAUDIT_TIMING=1 (for the benchmark, docs/bench.md): one stderr line per
 * trial with the seconds spent reading it and analysing what was read.
 */
static double timing_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void timing_print(const char *dir, double read_started, double analysis_started)
{
	const char *on = getenv("SCALEAUDIT_TIMING");

	if (on && *on && strcmp(on, "0"))
		fprintf(stderr, "scaleaudit: timing: %s: read %.3f s, analysis %.3f s\n", dir,
			analysis_started - read_started, timing_now() - analysis_started);
}

/* True when a GPU of run rr has a PyTorch memory timeline: its memory by category. */
static bool has_timeline(const struct run_result *rr)
{
	for (size_t g = 0; g < rr->ngpu; g++)
		if (rr->gpu[g].timeline_peak >= 0)
			return true;
	return false;
}

/*
 * True when a GPU of run rr has the partition of its whole profiled span: a
 * capture without steps, whose GPU work is still analysed.
 */
static bool has_span(const struct run_result *rr)
{
	for (size_t g = 0; g < rr->ngpu; g++)
		if (!isnan(rr->gpu[g].span_s.compute))
			return true;
	return false;
}

/*
 * True when some run gave something to analyse: steps, a status from its
 * log, a memory timeline, or GPU work over a profiled span.
 */
static bool usable(const struct analysis *a)
{
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].steps_total > 0 || a->runs[i].status_from_log ||
		    has_timeline(&a->runs[i]) || has_span(&a->runs[i]))
			return true;
	return false;
}

/* A file (not a directory) that opens like an analysis.json. */
static bool is_analysis_json(const char *path)
{
	struct stat st;
	char head[4096];
	size_t n;
	FILE *f;

	if (stat(path, &st) < 0 || S_ISDIR(st.st_mode) || !(f = fopen(path, "rb")))
		return false;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return analysis_json_sniff(head, n);
}

static int from_json(const char *path, struct analysis **ap)
{
	struct diags d = DIAGS_INIT;

	*ap = analysis_read_json(path, &d);
	print_diags(&d);
	diags_release(&d);
	return *ap ? EXIT_DONE : EXIT_NO_INPUT;
}

/* Nothing to analyse: says so, with every file that gave nothing and why. */
static int nothing_usable(const char *dir, const struct trial_stats *st)
{
	error("%s: no run has steps or a status to analyse (see 'scaleaudit inspect %s')", dir, dir);
	for (size_t i = 0; i < st->nnotes; i++)
		utf8_line(stderr, "  %s: %s", st->notes[i].path, st->notes[i].why);
	if (st->files && !st->nnotes)
		fprintf(stderr, "  every one of its %zu files was read: none holds steps or a status\n",
			st->files);
	return EXIT_NO_INPUT;
}

/* The names of the trials found, for the message that refuses several. */
static void several(const char *path, const struct discovery *dv, struct diags *d)
{
	struct buf names = BUF_INIT;
	struct srcpos pos = SRCPOS_FILE(path);
	size_t root = strlen(path);

	buf_init(&names, 0);
	for (size_t i = 0; i < dv->n && i < 20; i++)
		buf_addf(&names, "%s%s", i ? ", " : "", dv->trials[i].where + root +
			 (dv->trials[i].where[root] == '/'));
	diag_error(d, "several-trials", &pos,
		   "holds %zu trials, not the runs of one: %s%s: analyse one of them, "
		   "or every one with 'scaleaudit batch %s'", dv->n, names.data,
		   dv->n > 20 ? ", ..." : "", path);
	buf_release(&names);
}

/* The one trial in an archive, read in place (nothing is extracted). */
static struct trial *load_archive(const char *path, struct diags *d, struct trial_stats *st)
{
	struct discovery dv;
	struct srcpos pos = SRCPOS_FILE(path);
	struct trial *t = NULL;

	discovery_init(&dv);
	discover(&dv, &path, 1, d);
	memset(st, 0, sizeof(*st));
	if (dv.n == 1 && dv.trials[0].prefix)
		t = found_trial_load(&dv, &dv.trials[0], d, st);
	else if (dv.n > 1)
		several(path, &dv, d), st->trials = dv.n;
	else if (!d->errors)
		diag_error(d, "not-a-trial", &pos, "the archive holds no trial");
	discovery_release(&dv);
	return t;
}

/* The analysis of t, loaded from dir (NULL: why is in d), as report and analyze take it;
 * read_started: when reading began, for SCALEAUDIT_TIMING. */
static int from_loaded(const char *dir, struct trial *t, struct trial_stats *st, struct diags *d,
		       double read_started, struct analysis **ap)
{
	int ret;

	print_diags(d);
	diags_release(d);
	if (!t) {
		ret = st->trials ? EXIT_USAGE : EXIT_NO_INPUT;
		trial_stats_release(st);
		return ret;
	}
	ret = st->unreadable ? EXIT_PARTIAL : EXIT_DONE;
	print_errors(&t->diags);	/* the rest are findings in the output */
	double analysis_started = timing_now();
	if (t->nruns) {
		*ap = analysis_run(t);
		timing_print(dir, read_started, analysis_started);
	} else
		ret = error("%s: no run found: a trial holds one directory per run", dir);
	if (*ap && !usable(*ap)) {
		analysis_free(*ap);
		*ap = NULL;
		ret = nothing_usable(dir, st);
	}
	trial_free(t);	/* the analysis holds copies of what it needs */
	trial_stats_release(st);
	return ret < 0 ? EXIT_NO_INPUT : ret;
}

static int from_trial(const char *dir, struct analysis **ap)
{
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	double read_started = timing_now();
	struct trial *t = discover_is_archive(dir) ? load_archive(dir, &d, &st)
						   : trial_load(dir, &d, &st);

	return from_loaded(dir, t, &st, &d, read_started, ap);
}

int load_found_and_analyze(const struct discovery *dv, const struct found_trial *f, struct analysis **ap)
{
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	struct trial *t;

	*ap = NULL;
	double read_started = timing_now();

	t = found_trial_load(dv, f, &d, &st);
	return from_loaded(f->archive ? f->where : f->path, t, &st, &d, read_started, ap);
}

int load_and_analyze(const char *path, struct analysis **ap)
{
	bool json = is_analysis_json(path);
	int ret;

	*ap = NULL;
	ret = json ? from_json(path, ap) : from_trial(path, ap);
	if (json && *ap && !usable(*ap)) {
		error("%s: no run in it has steps or a status to analyse", path);
		return EXIT_NO_INPUT;
	}
	return ret;
}
