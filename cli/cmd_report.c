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
#include "core/xalloc.h"
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
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

int cmd_report(int argc, char **argv)
{
	const char *dir = argv[0], *out = out_dir;
	char *def = NULL;
	struct analysis *a;
	struct diags d = DIAGS_INIT;
	int ret;

	if (argc < 1)
		return usage_error("report", "no TRIAL given");
	if (argc > 1)
		return usage_error("report", "one TRIAL at a time (use 'scaleaudit batch' for more)");
	if (!out)
		out = def = default_out(dir);
	ret = load_and_analyze(dir, &a);
	if (a && ret != EXIT_NO_INPUT) {
		if (def && linked(def)) {
			error("%s: is a symbolic link: not followed (give -o DIR to write there)", def);
			ret = EXIT_NO_INPUT;
		} else if (report_write(a, out, &d) < 0) {
			print_diags(&d);
			error("%s: no report written", out);
			ret = EXIT_NO_INPUT;
		} else if (verbosity >= 0) {
			printf("%s/report.pdf\n%s/summary.md\n%s/analysis.json\n", out, out, out);
		}
	}
	diags_release(&d);
	analysis_free(a);
	free(def);
	text_release();
	return ret;
}
