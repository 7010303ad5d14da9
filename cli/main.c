/*
 * main: the command table and what every command shares (like git.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/color.h"
#include "cli/complete.h"
#include "cli/help.h"
#include "core/budget.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "ingest/ingest.h"
#include "ingest/trainlog.h"

int verbosity;
static const char *patterns_file;	/* --patterns FILE, loaded once the line is parsed */
static int max_events;			/* --max-events N; 0: the default */
static const char *max_memory;		/* --max-memory SIZE; NULL: the default */
static int help_wanted;			/* -h, --help */

const struct option common_options[] = {
	OPTION_FLAG('q', "quiet", &verbosity, -1, "say less: errors only, no warnings or progress"),
	OPTION_FLAG('v', "verbose", &verbosity, 1,
		    "say more: notes as well, and every warning about the trial's files"),
	{ .kind = OPT_ENUM, .long_name = "color", .value = &color_when, .value_name = "WHEN",
	  .choices = color_choices, .flags = OPT_OPTIONAL_VALUE, .deflt = "always",
	  .help = "colour the verdict and the words error, warning and note; auto colours "
		  "only a terminal, and not when NO_COLOR is set" },
	OPTION_STRING(0, "patterns", &patterns_file, "FILE",
		      "your own training-log line formats: PCRE2 patterns, one per line, with "
		      "named groups step, step_time, loss, samples_per_s, tokens_per_s, "
		      "memory_gib, global_batch, micro_batch, grad_accum, precision"),
	OPTION_INTEGER(0, "max-events", &max_events, "N",
		       "keep at most N events from one file (default 10000000, about 1 GB) and 4 "
		       "times N from a whole trial; a file past it is read only in part, with an "
		       "error naming it"),
	OPTION_STRING(0, "max-memory", &max_memory, "SIZE",
		      "keep at most SIZE of data read from the files (8G, 500M; default half of this "
		      "machine's memory or of the container's limit when lower, at most 8G); past it "
		      "the rest is not kept, with an error naming the file"),
	OPTION_FLAG('h', "help", &help_wanted, 1, "show this help"),
	OPTION_END,
};

/* What 2 means for every command. */
#define EXIT_USAGE_LINE { EXIT_USAGE, "usage error: a bad option, value or operand" }

static const struct exit_status report_exits[] = {
	{ EXIT_DONE, "the report was written" },
	{ EXIT_NO_INPUT, "no run has steps or a status to analyse, or the report could not be written" },
	EXIT_USAGE_LINE,
	{ EXIT_PARTIAL, "some files of the trial could not be read; the report covers the rest" },
	{ 0, NULL },
};

static const struct exit_status analyze_exits[] = {
	{ EXIT_DONE, "done (findings are output, not failure)" },
	{ EXIT_NO_INPUT, "no run has steps or a status to analyse" },
	EXIT_USAGE_LINE,
	{ EXIT_PARTIAL, "some files of the trial could not be read; the rest was analysed" },
	{ 0, NULL },
};

static const struct exit_status inspect_exits[] = {
	{ EXIT_DONE, "every file was read or recognised" },
	{ EXIT_NO_INPUT, "no file holds a format scaleaudit reads" },
	EXIT_USAGE_LINE,
	{ EXIT_PARTIAL, "some paths could not be read, or a file only in part; the rest was" },
	{ 0, NULL },
};

static const struct exit_status stack_exits[] = {
	{ EXIT_DONE, "every target is ready: yes (or jit, with --accept-jit)" },
	{ EXIT_NO_INPUT, "no GPU code, environment report, package list or arch list was found: "
			 "every target is unknown" },
	EXIT_USAGE_LINE,
	{ EXIT_PARTIAL, "some paths could not be read, or a file only in part; the rest was judged "
			"(whatever the verdicts)" },
	{ EXIT_STACK_JIT, "the worst target is jit: it runs only through PTX JIT" },
	{ EXIT_STACK_UNKNOWN, "the worst target is unknown: a fact it needs is absent (and none is no)" },
	{ EXIT_STACK_NO, "some target is no: code missing, or a version below its minimum" },
	{ 0, NULL },
};

static const struct exit_status plan_exits[] = {
	{ EXIT_DONE, "the plan was computed (and written)" },
	{ EXIT_NO_INPUT, "PLAN.ini could not be read or holds a bad line, or the files could not be written" },
	EXIT_USAGE_LINE,
	{ 0, NULL },
};

static const struct exit_status replay_exits[] = {
	{ EXIT_DONE, "done: the plan printed, the kernels replayed, or every essential smoke item passed" },
	{ EXIT_NO_INPUT, "no run to replay, no CUDA driver or GPU, or an essential smoke item failed" },
	EXIT_USAGE_LINE,
	{ EXIT_PARTIAL, "some files of the trial could not be read; the rest was planned" },
	{ 0, NULL },
};

static const struct exit_status batch_exits[] = {
	{ EXIT_DONE, "every trial was analysed and reported" },
	{ EXIT_NO_INPUT, "no trial was found, or the output could not be written" },
	EXIT_USAGE_LINE,
	{ EXIT_PARTIAL, "some trials failed: each has status error and its reason in results.sqlite" },
	{ 0, NULL },
};

static const struct command commands[] = {
	{ .name = "report", .run = cmd_report, .options = report_options, .exits = report_exits,
	  .summary = "analyse a trial and write charts, report.pdf, summary.md and analysis.json",
	  .synopsis = "TRIAL",
	  .description = "Reads every log of the trial directory TRIAL (its runs are its "
		"subdirectories), decides what the second GPU bought and why, and writes into "
		"DIR: report.pdf, report.html (the same in one self-contained web page), "
		"summary.md, analysis.json and the charts as PNG and SVG. "
		"Then prints the paths of report.pdf, summary.md and analysis.json. "
		"TRIAL may also be an analysis.json that report wrote: the report is drawn "
		"again from it alone, without the logs." },
	{ .name = "analyze", .run = cmd_analyze, .options = analyze_options, .exits = analyze_exits,
	  .summary = "print the verdict and the numbers of a trial",
	  .synopsis = "TRIAL",
	  .description = "Prints the hypothesis and verdict, speedup and scaling efficiency, "
		"where the time went per GPU, memory per GPU, confounds and recommendations. "
		"TRIAL may also be an analysis.json that report or analyze --json wrote." },
	{ .name = "inspect", .run = cmd_inspect, .options = inspect_options, .exits = inspect_exits,
	  .summary = "say what each file is and what was read from it",
	  .synopsis = "PATH...",
	  .description = "For each file (directories are walked) says which format it holds, "
		"decided by its content, and what was read from it; files that are not read "
		"are listed with the reason. PATH may be - for standard input." },
	{ .name = "stack", .run = cmd_stack, .options = stack_options, .exits = stack_exits,
	  .summary = "check that an environment and compiled extensions target the GPUs to rent",
	  .synopsis = "PATH...",
	  .description = "Says whether PyTorch, its CUDA build, the driver, NCCL, cuDNN and every "
		"compiled extension really target the GPUs named by --target (by default the "
		"Blackwell sm_100 and sm_120). PATH may be files (.so, .o, .a, executables, "
		".cubin, .fatbin, .hsaco, environment reports of python -m "
		"torch.utils.collect_env, NCCL logs, pip freeze, pip list or conda list output "
		"(text or JSON), a saved "
		"torch.cuda.get_arch_list()), a trial, or directories such as a virtual "
		"environment or site-packages, which are walked. Only the headers of binaries "
		"are read.\n\n"
		"For each file with GPU code and each target the verdict is native (machine code "
		"the GPU runs), jit (only PTX, which the driver compiles at start-up, without the "
		"architecture-specific features) or missing (the first launch fails with \"no "
		"kernel image is available\"), with the fix. The versions the environment shows "
		"are checked against the minimums of each target.\n\n"
		"Each target is then yes (every file native, every version given new enough), "
		"jit (it runs only through PTX JIT), no (a file misses it, a version is too old, "
		"or PyTorch is built for the other vendor) or unknown (a fact it needs is absent: "
		"an environment report's driver, PyTorch's CUDA or ROCm build once an environment "
		"report or package list is given, or anything at all), with the reason." },
	{ .name = "replay", .run = cmd_replay, .options = replay_options, .exits = replay_exits,
	  .summary = "re-run a trial's critical kernels on this machine's GPU",
	  .synopsis = "TRIAL|analysis.json",
	  .description = "Re-runs the kernels that make up most of the slowest GPU's time (GEMMs "
		"through cuBLASLt with the recorded shapes, copies and fills moving the same bytes, "
		"collectives through NCCL) on this machine's GPU, through the CUDA driver, and writes "
		"replay.json: per kernel the logged and replayed median, their ratio and a verdict "
		"(confirmed, differs, or projected on another GPU model). TRIAL may also be an "
		"analysis.json.\n\n"
		"--dry-run prints the plan (which kernels, shapes, bytes and how each would run) "
		"without a GPU. --smoke only checks that the essential GPU operations work here." },
	{ .name = "batch", .run = cmd_batch, .options = batch_options, .exits = batch_exits,
	  .summary = "analyse every trial under directories and archives: reports, results.sqlite, index.html",
	  .synopsis = "PATH...",
	  .description = "Finds every trial under the PATHs, directories and tar or zip archives "
		"read in place (a folder with trial.ini, or whose sub-folders hold runs, at any "
		"depth, archives inside archives one level deep) and analyses and reports each as report "
		"does, into DIR/<id>/, by -j worker processes: a trial that crashes, runs past "
		"--timeout or past --memory-limit costs only itself, recorded as failed with the "
		"reason. A trial whose inputs did not change since its last complete output is "
		"skipped unless --force. Then writes DIR/results.sqlite (one row per trial, run, "
		"GPU, confound and finding), summary.csv, summary.json, index.md and index.html "
		"(a sortable table linking every report, with the summary charts).\n\n"
		"To share the work among the jobs of a scheduler: --list prints the trials and "
		"their ids, --one ID does one of them, and --merge DIR... builds the database and "
		"the summaries from the outputs. Progress goes to a terminal only." },
	{ .name = "plan", .run = cmd_plan, .options = plan_options, .exits = plan_exits,
	  .summary = "before the rental: memory per strategy, fit per GPU, trial.ini",
	  .synopsis = "[PLAN.ini]",
	  .description = "Estimates, before GPUs are rented, what each parallel strategy (single, "
		"ddp, zero1, zero2, zero3, fsdp, pipeline, tensor) needs per GPU: weights, "
		"gradients (and DDP's gradient buckets), optimizer states, activations and a "
		"run-time reserve; whether that fits each GPU model given with --gpu; the "
		"communication per step and its time at the bandwidth one GPU has to its peers for "
		"the planned GPU count; which hypothesis a 2-GPU run of it can test; the recommended "
		"strategy (or the one --strategy asks for); and the rental window, GPU-hours and cost "
		"as rented, with the checkpoint interval and stop criteria of a 30-day window. The "
		"inputs come from the options or from PLAN.ini, whose [plan] section takes the same "
		"keys (with _ for -); the options win. --from takes the throughput, efficiency and "
		"peak memory a finished trial measured instead of the model's.\n\n"
		"--explain shows every formula with its numbers and its source. -o DIR writes the "
		"trial plan (trial.ini, a run.ini per run, CHECKLIST.md); --init DIR writes a "
		"commented trial skeleton." },
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

/* A message names paths and values from the user: it reaches stderr through core/utf8. */
int error(const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;

	buf_init(&msg, 0);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	utf8_line(stderr, "scaleaudit: %s", msg.data);
	buf_release(&msg);
	return -1;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;

	buf_init(&msg, 0);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	utf8_line(stderr, "scaleaudit%s%s: %s", cmd ? " " : "", cmd ? cmd : "", msg.data);
	fprintf(stderr, "Try 'scaleaudit help%s%s'.\n", cmd ? " " : "", cmd ? cmd : "");
	buf_release(&msg);
	return EXIT_USAGE;
}

/* The diagnostic's path and message come from the inputs: color.c escapes them. */
static void print_diag(const struct diag *d, bool color, struct buf *line)
{
	buf_reset(line);
	diag_format_color(d, color, line);
	fprintf(stderr, "%s\n", line->data);
}

void print_diags(const struct diags *d)
{
	struct buf line = BUF_INIT;
	bool color = color_on(2);

	buf_init(&line, 0);
	for (size_t i = 0; i < d->count; i++) {
		if (d->items[i].severity != DIAG_ERROR && verbosity < 0)
			continue;
		if (d->items[i].severity == DIAG_INFO && verbosity < 1)
			continue;
		print_diag(&d->items[i], color, &line);
	}
	if (d->suppressed && verbosity >= 0)
		fprintf(stderr, "scaleaudit: %zu more messages like these were not shown\n",
			d->suppressed);
	buf_release(&line);
}

void print_errors(const struct diags *d)
{
	struct buf line = BUF_INIT;
	bool color = color_on(2);

	if (verbosity > 0) {
		print_diags(d);
		return;
	}
	buf_init(&line, 0);
	for (size_t i = 0; i < d->count; i++)
		if (d->items[i].severity == DIAG_ERROR)
			print_diag(&d->items[i], color, &line);
	buf_release(&line);
}

static void list_commands(FILE *f)
{
	fputs(main_usage, f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fputs("  help      show a command's usage: scaleaudit help COMMAND;\n"
	      "            the trial layout and manifest keys: scaleaudit help trial;\n"
	      "            the input formats: scaleaudit help formats\n"
	      "\n"
	      "Exit status: 0 done, 1 no usable input, 2 usage error,\n"
	      "3 some inputs were unreadable but the rest was processed.\n", f);
}

/* "exit status:" and one wrapped line per status. */
static void help_exits(const struct exit_status *e, struct buf *out)
{
	buf_addstr(out, "\nexit status:\n");
	for (; e->meaning; e++) {
		buf_addf(out, "  %d  ", e->status);
		text_wrap(out, e->meaning, 5, 5);
		buf_addch(out, '\n');
	}
}

/* The whole `help CMD` text, made from the command table. */
static void command_help(const struct command *c, struct buf *out)
{
	buf_addf(out, "usage: scaleaudit %s%s%s%s\n\n", c->name, c->options ? " [OPTIONS]" : "",
		 *c->synopsis ? " " : "", c->synopsis);
	text_wrap(out, c->description, 0, 0);
	buf_addch(out, '\n');
	if (c->options) {
		buf_addch(out, '\n');
		options_help(c->options, "options", out);
	}
	if (c->exits)
		help_exits(c->exits, out);
}

static int show_help(const char *cmd)
{
	const struct command *c;
	struct buf out = BUF_INIT;

	if (!cmd) {
		list_commands(stdout);
		return EXIT_DONE;
	}
	c = command_find(cmd);
	buf_init(&out, 0);
	if (c) {
		command_help(c, &out);
	} else if (help_topic(cmd, &out) < 0) {
		buf_release(&out);
		return usage_error(NULL, "'%s' is not a command or a help topic", cmd);
	}
	fputs(out.data, stdout);
	buf_release(&out);
	return EXIT_DONE;
}

/* help --roff WORDS: a generated part of a man page (cli/help.h), for mk/man.sh. */
static int help_roff_cmd(int argc, char **argv)
{
	struct buf out = BUF_INIT;
	char err[256];
	int rc;

	buf_init(&out, 0);
	rc = help_roff(argc, argv, &out, err, sizeof(err));
	if (rc == 0)
		fputs(out.data, stdout);
	buf_release(&out);
	return rc == 0 ? EXIT_DONE : usage_error(NULL, "%s", err);
}

/*
 * scaleaudit help [COMMAND|TOPIC], or help --options COMMAND: the option list
 * for shell completion and the documentation test, or help --roff WORDS.
 */
static int cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc > 0 && !strcmp(argv[0], "--roff"))
		return help_roff_cmd(argc - 1, argv + 1);

	if (argc > 0 && !strcmp(argv[0], "--options")) {
		if (argc != 2)
			return usage_error(NULL, "help --options takes one command");
		c = command_find(argv[1]);
		if (!c)
			return usage_error(NULL, "'%s' is not a command", argv[1]);
		if (c->options)
			options_list(c->options, c->name, stdout);
		return EXIT_DONE;
	}
	if (argc > 1)
		return usage_error(NULL, "help takes one command");
	return show_help(argc ? argv[0] : NULL);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

static int load_patterns(const char *path)
{
	struct diags d = DIAGS_INIT;
	int rc = trainlog_load_patterns(path, &d);

	print_diags(&d);
	diags_release(&d);
	return rc;
}

/* Parses the options of c in argv (the words after its name), then runs it on the operands. */
static int run_command(const struct command *c, int argc, char **argv)
{
	char err[256];
	int64_t bytes;
	int n;

	n = parse_options(c->options, argc, argv, err, sizeof(err));
	if (n < 0)
		return usage_error(c->name, "%s", err);
	if (help_wanted)
		return show_help(c->name);
	if (patterns_file && load_patterns(patterns_file) < 0)
		return EXIT_USAGE;
	if (max_events < 0)
		return usage_error(c->name, "--max-events: '%d' is not a positive count", max_events);
	ingest_set_max_events(max_events);
	if (max_memory && budget_parse_size(max_memory, &bytes) < 0)
		return usage_error(c->name, "--max-memory: '%s' is not a size (such as 8G or 500M)",
				   max_memory);
	budget_set_max(max_memory ? bytes : 0);
	return c->run(n, argv);
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
	fputs("\rreading ", stderr);	/* the name may hold anything: core/utf8 escapes it */
	base = base ? base + 1 : path;
	utf8_write(stderr, base, strlen(base), UTF8_CONTROLS | UTF8_ONE_LINE);
	fprintf(stderr, ": %3d%%\033[K", (int)(100 * done / (total ? total : 1)));
}

/* Runs the command line; main checks standard output afterwards. */
static int run(int argc, char **argv)
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
	if (!strcmp(argv[1], "--complete"))	/* for completion/: not in the help */
		return cmd_complete(commands, NCOMMANDS, argc - 2, argv + 2);
	if (!strcmp(argv[1], "help") || is_help(argv[1]))
		return cmd_help(argc - 2, argv + 2);
	c = command_find(argv[1]);
	if (!c)
		return usage_error(NULL, "'%s' is not a command", argv[1]);
	return run_command(c, argc - 2, argv + 2);
}

/*
 * Output that never reached standard output (a full disk, a closed pipe) is an
 * error, checked here once for every command. stdio drops a buffer it failed
 * to write, and errno is long gone by then: one more byte written to the
 * already broken output gives the reason.
 */
static int check_stdout(int ret)
{
	int bad;

	errno = 0;
	bad = fflush(stdout) != 0;
	if (!bad && ferror(stdout)) {
		bad = 1;
		if (write(STDOUT_FILENO, "\n", 1) == 1)
			errno = EIO;
	}
	bad |= fclose(stdout) != 0;
	if (!bad)
		return ret;
	error("cannot write to standard output: %s", strerror(errno ? errno : EIO));
	return ret == EXIT_USAGE ? ret : EXIT_NO_INPUT;
}

int main(int argc, char **argv)
{
	return check_stdout(run(argc, argv));
}
