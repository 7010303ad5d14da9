/*
 * analyze: the verdict and the numbers of a trial, as text or analysis.json.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "render/analysis_json.h"
#include "render/analysis_text.h"

int cmd_analyze(int argc, char **argv)
{
	const char *dir = NULL;
	bool json = false;
	struct analysis *a;
	int ret;

	for (int i = 1; i < argc; i++) {
		int c = common_option("analyze", argc, argv, &i);

		if (c < 0)
			return -c;
		if (c)
			continue;
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("analyze", "unknown option '%s'", argv[i]);
		else if (dir)
			return usage_error("analyze", "one TRIAL at a time (use 'scaleaudit batch' for more)");
		else
			dir = argv[i];
	}
	if (!dir)
		return usage_error("analyze", "no TRIAL given");
	ret = load_and_analyze(dir, &a);
	if (a && ret != EXIT_NO_INPUT) {
		if ((json ? analysis_write_json(a, stdout) : analysis_write_text(a, stdout)) < 0) {
			error("cannot write the output");
			ret = EXIT_NO_INPUT;
		}
	}
	analysis_free(a);
	return ret;
}
