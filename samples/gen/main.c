/*
 * scaleaudit-gen: writes example trials whose right answers are known.
 *   scaleaudit-gen --list
 *   scaleaudit-gen SCENARIO -o DIR [--seed N]
 *   scaleaudit-gen --all -o DIR [--seed N]
 * Exit: 0 done, 1 an output file could not be written, 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/xalloc.h"
#include "samples/gen/kineto.h"
#include "samples/gen/logs.h"
#include "samples/gen/out.h"
#include "samples/gen/scenario.h"
#include "samples/gen/timing.h"
#include "samples/gen/truth.h"

struct opts {
	const char *scenario;	/* NULL with --all or --list */
	const char *out;	/* -o DIR */
	int all, list, help;
	int has_seed;
	uint64_t seed;
};

static const char usage_text[] =
	"usage: scaleaudit-gen --list\n"
	"       scaleaudit-gen SCENARIO -o DIR [--seed N]\n"
	"       scaleaudit-gen --all -o DIR [--seed N]\n"
	"Writes a scaling trial (traces, logs, nvidia-smi CSV, manifests) and its truth.json.\n";

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "scaleaudit-gen: %s%s%s (try --help)\n", msg, arg ? ": " : "", arg ? arg : "");
	return 2;
}

static int parse_seed(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--list"))
			o->list = 1;
		else if (!strcmp(a, "--all"))
			o->all = 1;
		else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			o->help = 1;
		else if (!strcmp(a, "-o") || !strcmp(a, "--seed")) {
			if (i + 1 >= argc)
				return usage_error("option needs a value", a);
			if (a[1] == 'o')
				o->out = argv[++i];
			else if (parse_seed(argv[++i], &o->seed))
				return usage_error("bad seed", argv[i]);
			else
				o->has_seed = 1;
		} else if (a[0] == '-')
			return usage_error("unknown option", a);
		else if (o->scenario)
			return usage_error("more than one scenario", a);
		else
			o->scenario = a;
	}
	if (o->help || o->list)
		return 0;
	if (!o->all && !o->scenario)
		return usage_error("no scenario given", NULL);
	if (o->all && o->scenario)
		return usage_error("--all takes no scenario", o->scenario);
	if (!o->out)
		return usage_error("no output directory (-o DIR)", NULL);
	if (o->scenario && !scenario_find(o->scenario))
		return usage_error("unknown scenario", o->scenario);
	return 0;
}

static int write_buf(const char *dir, const char *name, struct buf *b, int gz)
{
	char *path = out_path(dir, name);
	int rc = b->overflow ? -1 : gz ? out_write_gz(path, b) : out_write(path, b);

	if (b->overflow)
		fprintf(stderr, "scaleaudit-gen: %s: output too large\n", path);
	free(path);
	buf_reset(b);
	return rc;
}

static int write_run(const char *trial_dir, const struct sim_run *run)
{
	char *dir = out_path(trial_dir, run->spec->dir);
	struct buf b;
	char name[64];
	int rc = out_mkdirs(dir);

	buf_init(&b, 0);
	logs_run_ini(&b, run);
	rc = rc ? rc : write_buf(dir, "run.ini", &b, 0);
	logs_train(&b, run);
	rc = rc ? rc : write_buf(dir, "train.log", &b, 0);
	logs_nvidia_smi(&b, run);
	rc = rc ? rc : write_buf(dir, "nvidia-smi.csv", &b, 0);
	for (int r = 0; r < run->nranks && !rc && !run->spec->oom && !run->spec->logs_only; r++) {
		snprintf(name, sizeof(name), "rank%d.pt.trace.json.gz", r);
		kineto_trace(&b, run, r);
		rc = write_buf(dir, name, &b, 1);
	}
	buf_release(&b);
	free(dir);
	return rc;
}

static int write_trial(const struct scenario *sc, const char *dir, const struct opts *o)
{
	struct sim_run runs[2];
	uint64_t seed = o->has_seed ? o->seed : sc->seed;
	struct buf b;
	int rc = out_mkdirs(dir);

	for (int i = 0; i < 2; i++)
		sim_run(&runs[i], sc, i, seed);
	buf_init(&b, 0);
	logs_trial_ini(&b, sc);
	rc = rc ? rc : write_buf(dir, "trial.ini", &b, 0);
	rc = rc ? rc : write_run(dir, &runs[0]);
	rc = rc ? rc : write_run(dir, &runs[1]);
	truth_json(&b, sc, runs);
	rc = rc ? rc : write_buf(dir, "truth.json", &b, 0);
	buf_release(&b);
	sim_release(&runs[0]);
	sim_release(&runs[1]);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc;
	if (o.help) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (o.list) {
		for (int i = 0; i < nscenarios; i++)
			printf("%-26s %s\n", scenarios[i].name, scenarios[i].desc);
		return 0;
	}
	if (o.scenario)
		return write_trial(scenario_find(o.scenario), o.out, &o) ? 1 : 0;
	for (int i = 0; i < nscenarios && !rc; i++) {
		char *dir = out_path(o.out, scenarios[i].name);

		rc = write_trial(&scenarios[i], dir, &o);
		free(dir);
	}
	return rc ? 1 : 0;
}
