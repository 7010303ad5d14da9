/*
 * analyze: the verdict and the numbers of a trial, as text or analysis.json.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "cli/color.h"
#include "render/analysis_json.h"
#include "render/analysis_text.h"

static int json;	/* --json */
static int diff;	/* --diff */
static int kernels;	/* --kernels */

const struct option analyze_options[] = {
	OPTION_FLAG(0, "json", &json, 1, "print analysis.json instead of text"),
	OPTION_FLAG(0, "diff", &diff, 1, "add the per-op and per-kernel diff of the two runs to the "
		    "text (analysis.json always has it)"),
	OPTION_FLAG(0, "kernels", &kernels, 1,
		    "print each run's top kernels (calls, total, per-call mean, min, p50, p90, max) "
		    "and launch statistics instead of the summary"),
	OPTION_LOAD_JOBS,
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

int cmd_analyze(int argc, char **argv)
{
	const char *dir = argv[0];
	struct analysis_text_options text = { .color = color_on(1), .kernels = kernels };
	struct analysis *a;
	int ret;

	if (argc < 1)
		return usage_error("analyze", "no TRIAL given");
	if (argc > 1)
		return usage_error("analyze", "one TRIAL at a time (use 'scaleaudit batch' for more)");
	text.diff = diff;
	if (load_jobs_set("analyze") != EXIT_DONE)
		return EXIT_USAGE;
	ret = load_and_analyze(dir, &a);
	if (a && ret != EXIT_NO_INPUT) {
		/* a write error on standard output is said once, by main */
		if ((json ? analysis_write_json(a, stdout) : analysis_write_text(a, stdout, &text)) < 0)
			ret = EXIT_NO_INPUT;
	}
	analysis_free(a);
	return ret;
}
