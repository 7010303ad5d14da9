/*
 * analyze: the verdict and the numbers of a trial, as text or analysis.json.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "cli/color.h"
#include "ingest/trial.h"
#include "render/analysis_json.h"
#include "render/analysis_text.h"

/* True when some run gave something to analyse: steps, or a status from its log. */
static bool usable(const struct analysis *a)
{
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].steps_total > 0 || a->runs[i].run->status != RUN_UNKNOWN)
			return true;
	return false;
}

int load_and_analyze(const char *dir, struct trial **tp, struct analysis **ap)
{
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	struct trial *t = trial_load(dir, &d, &st);

	print_diags(&d);
	diags_release(&d);
	*tp = t;
	*ap = NULL;
	if (!t)
		return EXIT_NO_INPUT;
	print_errors(&t->diags);	/* the rest are findings in the output */
	if (!t->nruns) {
		error("%s: no run found: a trial holds one directory per run", dir);
		return EXIT_NO_INPUT;
	}
	*ap = analysis_run(t);
	if (!usable(*ap)) {
		error("%s: no run has steps or a status to analyse (see 'scaleaudit inspect %s')",
		      dir, dir);
		return EXIT_NO_INPUT;
	}
	return st.unreadable ? EXIT_PARTIAL : EXIT_DONE;
}

static int json;	/* --json */

const struct option analyze_options[] = {
	OPTION_FLAG(0, "json", &json, 1, "print analysis.json instead of text"),
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

int cmd_analyze(int argc, char **argv)
{
	const char *dir = argv[0];
	struct analysis_text_options text = { .color = color_on(1) };
	struct trial *t;
	struct analysis *a;
	int ret;

	if (argc < 1)
		return usage_error("analyze", "no TRIAL given");
	if (argc > 1)
		return usage_error("analyze", "one TRIAL at a time (use 'scaleaudit batch' for more)");
	ret = load_and_analyze(dir, &t, &a);
	if (a && ret != EXIT_NO_INPUT) {
		if ((json ? analysis_write_json(a, stdout) : analysis_write_text(a, stdout, &text)) < 0) {
			error("cannot write the output");
			ret = EXIT_NO_INPUT;
		}
	}
	analysis_free(a);
	trial_free(t);
	return ret;
}
