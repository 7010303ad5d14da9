/*
 * main: the command table and what every command shares (like git.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "ingest/ingest.h"
#include "ingest/trainlog.h"

int verbosity;

static const struct command commands[] = {
	{ "report", cmd_report, "analyse a trial and write charts, report.pdf, summary.md and analysis.json",
	  "usage: scaleaudit report TRIAL [-o DIR]\n"
	  "\n"
	  "Reads every log of the trial directory TRIAL (its runs are its subdirectories),\n"
	  "decides what the second GPU bought and why, and writes into DIR (default\n"
	  "TRIAL-report): report.pdf, summary.md, analysis.json and the charts as PNG and SVG.\n"
	  "TRIAL may also be an analysis.json that report wrote: the report is drawn again\n"
	  "from it alone, without the logs.\n"
	  "\n"
	  "  -o DIR    where to write the report\n"
	  "  -q, -v    say less, say more\n" },
	{ "analyze", cmd_analyze, "print the verdict and the numbers of a trial",
	  "usage: scaleaudit analyze TRIAL [--json]\n"
	  "\n"
	  "Prints the hypothesis and verdict, speedup and scaling efficiency, where the\n"
	  "time went per GPU, memory per GPU, confounds and recommendations. TRIAL may\n"
	  "also be an analysis.json that report or analyze --json wrote.\n"
	  "\n"
	  "  --json    print analysis.json instead of text\n"
	  "  --patterns FILE  your own training-log line formats: PCRE2 patterns, one\n"
	  "            per line, with named groups step, step_time, loss, samples_per_s,\n"
	  "            tokens_per_s, memory_gib, global_batch, micro_batch, grad_accum,\n"
	  "            precision\n"
	  "  -q, -v    say less, say more\n" },
	{ "inspect", cmd_inspect, "say what each file is and what was read from it",
	  "usage: scaleaudit inspect [--json] PATH...\n"
	  "\n"
	  "For each file (directories are walked) says which format it holds, decided\n"
	  "by its content, and what was read from it; files that are not read are\n"
	  "listed with the reason. PATH may be - for standard input.\n"
	  "\n"
	  "  --json    print {\"files\": [...]} instead of text\n"
	  "  --patterns FILE  your own training-log line formats (see 'help analyze')\n"
	  "  -q, -v    say less (no warnings), say more\n"
	  "\n"
	  "Exit status: 0 every file was read or recognised; 1 nothing usable was found;\n"
	  "3 some paths could not be read, the rest was.\n" },
	{ "stack", NULL, "check that an environment and compiled extensions target Blackwell",
	  "usage: scaleaudit stack PATH...\n"
	  "\n"
	  "Reads environment reports (python -m torch.utils.collect_env), compiled\n"
	  "extensions (.so, .cubin, .fatbin) and NCCL logs, and says whether the stack\n"
	  "really targets Blackwell (sm_100, sm_120).\n" },
	{ "replay", NULL, "re-run a trial's critical kernels on this machine's GPU",
	  "usage: scaleaudit replay TRIAL|analysis.json [--smoke]\n"
	  "\n"
	  "Re-runs the kernels the analysis relied on through the CUDA driver and\n"
	  "compares their times with the logged ones.\n"
	  "\n"
	  "  --smoke   only check that the essential operations run\n" },
	{ "batch", NULL, "analyse every trial under directories or tar/zip archives",
	  "usage: scaleaudit batch ARCHIVE... -o DIR\n"
	  "\n"
	  "Finds every trial under the given directories and archives, writes a report\n"
	  "for each into DIR and one summary.csv.\n" },
	{ "plan", NULL, "before the rental: memory per strategy, fit per GPU, trial.ini",
	  "usage: scaleaudit plan [OPTIONS]\n"
	  "\n"
	  "Estimates memory per GPU for each parallel strategy, which GPUs it fits, and\n"
	  "writes a trial.ini and the capture checklist.\n" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char *const main_usage =
	"usage: scaleaudit COMMAND [ARGS]\n"
	"\n"
	"scaleaudit reads the logs of a GPU scaling trial (the same job on one GPU\n"
	"and on two) and says what the second GPU bought and why.\n"
	"\n"
	"commands:\n";

const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int error(const char *fmt, ...)
{
	va_list ap;

	fputs("scaleaudit: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "scaleaudit%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'scaleaudit help%s%s'.\n", cmd ? " " : "", cmd ? cmd : "");
	return EXIT_USAGE;
}

void print_diags(const struct diags *d)
{
	struct buf line = BUF_INIT;

	buf_init(&line, 0);
	for (size_t i = 0; i < d->count; i++) {
		if (d->items[i].severity != DIAG_ERROR && verbosity < 0)
			continue;
		if (d->items[i].severity == DIAG_INFO && verbosity < 1)
			continue;
		buf_reset(&line);
		diag_format(&d->items[i], &line);
		fprintf(stderr, "%s\n", line.data);
	}
	if (d->suppressed && verbosity >= 0)
		fprintf(stderr, "scaleaudit: %zu more messages like these were not shown\n",
			d->suppressed);
	buf_release(&line);
}

int common_option(const char *cmd, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	struct diags d = DIAGS_INIT;
	int rc;

	if (!strcmp(a, "-q")) {
		verbosity = -1;
	} else if (!strcmp(a, "-v")) {
		verbosity = 1;
	} else if (!strcmp(a, "--color") || !strncmp(a, "--color=", 8)) {
		return 1;	/* no output of ours is coloured yet */
	} else if (!strcmp(a, "--patterns")) {
		if (*i + 1 >= argc)
			return -usage_error(cmd, "--patterns needs a FILE");
		rc = trainlog_load_patterns(argv[++*i], &d);
		print_diags(&d);
		diags_release(&d);
		if (rc < 0)
			return -EXIT_USAGE;
	} else {
		return 0;
	}
	return 1;
}

void print_errors(const struct diags *d)
{
	struct buf line = BUF_INIT;

	if (verbosity > 0) {
		print_diags(d);
		return;
	}
	buf_init(&line, 0);
	for (size_t i = 0; i < d->count; i++) {
		if (d->items[i].severity != DIAG_ERROR)
			continue;
		buf_reset(&line);
		diag_format(&d->items[i], &line);
		fprintf(stderr, "%s\n", line.data);
	}
	buf_release(&line);
}

bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

static void list_commands(FILE *f)
{
	fputs(main_usage, f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s%s\n", commands[i].name, commands[i].summary,
			commands[i].run ? "" : " (not built yet)");
	fputs("  help      show a command's usage: scaleaudit help COMMAND\n"
	      "\n"
	      "Exit status: 0 done, 1 no usable input, 2 usage error,\n"
	      "3 some inputs were unreadable but the rest was processed.\n", f);
}

int show_help(const char *cmd)
{
	const struct command *c;

	if (!cmd) {
		list_commands(stdout);
		return EXIT_DONE;
	}
	c = command_find(cmd);
	if (!c)
		return usage_error(NULL, "'%s' is not a command", cmd);
	fputs(c->usage, stdout);
	if (!c->run)
		printf("\n'scaleaudit %s' is not built yet.\n", c->name);
	return EXIT_DONE;
}

/* "reading rank0.pt.trace.json.gz: 45%" on one line of the terminal, cleared at the end. */
static void show_progress(const char *path, int64_t done, int64_t total)
{
	const char *base = strrchr(path, '/');

	if (verbosity < 0)
		return;
	if (done >= total) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\rreading %s: %3d%%\033[K", base ? base + 1 : path,
		(int)(100 * done / (total ? total : 1)));
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (isatty(2))
		ingest_set_progress(show_progress);

	if (argc < 2) {
		list_commands(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("scaleaudit %s\n", SCALEAUDIT_VERSION);
		return EXIT_DONE;
	}
	if (!strcmp(argv[1], "help") || is_help(argv[1])) {
		if (argc > 3)
			return usage_error(NULL, "help takes one command");
		return show_help(argc > 2 ? argv[2] : NULL);
	}
	c = command_find(argv[1]);
	if (!c)
		return usage_error(NULL, "'%s' is not a command", argv[1]);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (is_help(argv[i]))
			return show_help(c->name);
	}
	if (!c->run) {
		fprintf(stderr, "scaleaudit %s: not built yet\n", c->name);
		return EXIT_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
