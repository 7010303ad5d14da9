/*
 * report: the main job: the analysis, charts, report.pdf, summary.md and
 * analysis.json of one trial.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "core/xalloc.h"
#include "render/analysis_json.h"
#include "render/report.h"
#include "render/text.h"

/* analysis.json under a temporary name, renamed when complete. */
static int write_json(const struct analysis *a, const char *dir)
{
	char *path = xasprintf("%s/analysis.json", dir);
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int rc = -1;

	if (!f) {
		error("%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (analysis_write_json(a, f) < 0 || fclose(f) == EOF) {
		error("%s: cannot write: %s", tmp, strerror(errno));
		remove(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		error("%s: %s", path, strerror(errno));
		remove(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	free(path);
	return rc;
}

/* The default output directory: TRIAL-report beside the trial. */
static char *default_out(const char *trial)
{
	size_t n = strlen(trial);

	while (n > 1 && trial[n - 1] == '/')
		n--;
	return xasprintf("%.*s-report", (int)n, trial);
}

int cmd_report(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL;
	char *def = NULL;
	struct analysis *a;
	struct diags d = DIAGS_INIT;
	int ret;

	for (int i = 1; i < argc; i++) {
		int c = common_option("report", argc, argv, &i);

		if (c < 0)
			return -c;
		if (c)
			continue;
		if (!strcmp(argv[i], "-o")) {
			if (++i >= argc)
				return usage_error("report", "-o needs a DIR");
			out = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("report", "unknown option '%s'", argv[i]);
		} else if (dir) {
			return usage_error("report", "one TRIAL at a time (use 'scaleaudit batch' for more)");
		} else {
			dir = argv[i];
		}
	}
	if (!dir)
		return usage_error("report", "no TRIAL given");
	if (!out)
		out = def = default_out(dir);
	ret = load_and_analyze(dir, &a);
	if (a && ret != EXIT_NO_INPUT) {
		if (report_write(a, out, &d) < 0 || write_json(a, out) < 0) {
			print_diags(&d);
			error("%s: the report is incomplete", out);
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
