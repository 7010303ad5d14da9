/*
 * report: the main job: the analysis, charts, report.pdf, summary.md and
 * analysis.json of one trial.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "ingest/discover.h"
#include "render/replay_json.h"
#include "render/report.h"
#include "render/text.h"

/* The default output directory: TRIAL-report beside the trial. */
static char *default_out(const char *trial)
{
	size_t n = strlen(trial);

	while (n > 1 && trial[n - 1] == '/')
		n--;
	return xasprintf("%.*s-report", (int)n, trial);
}

/* Whether path is a symbolic link: the default directory, named by no one, is never followed. */
static bool linked(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISLNK(st.st_mode);
}

static const char *out_dir;	/* -o DIR */

const struct option report_options[] = {
	OPTION_STRING('o', NULL, &out_dir, "DIR",
		      "where to write the report (default: TRIAL-report beside TRIAL)"),
	OPTION_LOAD_JOBS,
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

/* The files a report lists on stdout when it is done. */
static const char *const listed[] = { "report.pdf", "summary.md", "analysis.json" };

/* Chart 09 draws a replay.json found in the trial directory, else in the output directory. */
static void attach_replay(struct analysis *a, const char *trial, const char *out)
{
	const char *dirs[] = { trial, out };
	char err[1024];

	for (size_t i = 0; i < 2; i++)
		if (dirs[i] && replay_attach(a, dirs[i], err, sizeof(err)) < 0 && verbosity >= 0)
			utf8_line(stderr, "scaleaudit: warning: %s: the replay chart is left out", err);
}

/*
 * Writes the report of a (when ret lets it) into out, with chart 09 from a
 * replay.json in trial (a directory; NULL: none) or out; frees a; returns
 * the exit status.
 */
static int write_report(struct analysis *a, int ret, const char *trial, const char *out)
{
	struct diags d = DIAGS_INIT;

	if (a && ret != EXIT_NO_INPUT)
		attach_replay(a, trial, out);
	if (a && ret != EXIT_NO_INPUT && report_write(a, out, &d) < 0) {
		print_diags(&d);
		error("%s: no report written", out);
		ret = EXIT_NO_INPUT;
	}
	diags_release(&d);
	analysis_free(a);
	text_release();
	return ret;
}

int report_trial(const char *path, const char *out)
{
	struct analysis *a;
	int ret = load_and_analyze(path, &a);

	return write_report(a, ret, path, out);
}

int report_found(const struct discovery *dv, const struct found_trial *f, const char *out)
{
	struct analysis *a;
	int ret = load_found_and_analyze(dv, f, &a);

	return write_report(a, ret, f->archive ? NULL : f->path, out);
}

int cmd_report(int argc, char **argv)
{
	const char *dir = argv[0], *out = out_dir;
	char *def = NULL;
	int ret;

	if (argc < 1)
		return usage_error("report", "no TRIAL given");
	if (argc > 1)
		return usage_error("report", "one TRIAL at a time (use 'scaleaudit batch' for more)");
	if (load_jobs_set("report") != EXIT_DONE)
		return EXIT_USAGE;
	if (!out)
		out = def = default_out(dir);
	if (def && linked(def)) {
		error("%s: is a symbolic link: not followed (give -o DIR to write there)", def);
		free(def);
		return EXIT_NO_INPUT;
	}
	ret = report_trial(dir, out);
	if ((ret == EXIT_DONE || ret == EXIT_PARTIAL) && verbosity >= 0)
		for (size_t i = 0; i < sizeof(listed) / sizeof(*listed); i++)
			utf8_line(stdout, "%s/%s", out, listed[i]);	/* a newline in out is escaped */
	free(def);
	return ret;
}
