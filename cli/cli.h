/*
 * cli: what the subcommands share. Only cli/ prints to the user and decides
 * exit statuses; the layers below return errors and record diagnostics.
 *
 * Exit statuses (README.md, man/scaleaudit.1): 0 done (findings are output, not failure);
 * 1 the analysis could not be done (no usable input); 2 usage error;
 * 3 some inputs were unreadable but the rest was processed; stack alone adds
 * 4, 5 and 6 for its worst target (jit, unknown, no).
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdbool.h>

#include "cli/options.h"
#include "core/diag.h"

enum {
	EXIT_DONE = 0,
	EXIT_NO_INPUT = 1,
	EXIT_USAGE = 2,
	EXIT_PARTIAL = 3,
	EXIT_STACK_JIT = 4,	/* stack: a target runs only through PTX JIT */
	EXIT_STACK_UNKNOWN = 5,	/* stack: a fact a target needs is absent */
	EXIT_STACK_NO = 6,	/* stack: a target is not ready */
};

/* One exit status of a command and what it means there. */
struct exit_status {
	int status;		/* EXIT_* */
	const char *meaning;	/* NULL ends a list */
};

/*
 * A command: main.c parses its options against `options` (with the common
 * ones included), shows its help made from this entry, then calls run with
 * the operands only.
 */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv: the operands; NULL: not built yet */
	const char *summary;			/* one line for `help` */
	const char *synopsis;			/* the operands: "TRIAL", "PATH..." */
	const char *description;		/* paragraphs split by "\n\n", wrapped when shown */
	const struct option *options;		/* its table; NULL when not built yet */
	const struct exit_status *exits;	/* NULL when not built yet */
};

extern int verbosity;	/* -q: -1, default 0, -v: 1 */

/* The options every command takes (-q, -v, --color, --patterns, -h). */
extern const struct option common_options[];
/* Each built command's own options, defined beside it; each includes common_options. */
extern const struct option analyze_options[];
extern const struct option inspect_options[];
extern const struct option report_options[];
extern const struct option stack_options[];
extern const struct option plan_options[];
extern const struct option replay_options[];
extern const struct option batch_options[];

const struct command *command_find(const char *name);

/* Prints "scaleaudit: message" on stderr; returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "scaleaudit CMD: message" and a hint to `scaleaudit help CMD`; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Prints every diagnostic of d on stderr (warnings unless -q), then the
 * suppressed count; severities are coloured when --color says so.
 */
void print_diags(const struct diags *d);
/* Prints only the errors of d (and, with -v, the rest): for commands whose output lists them all. */
void print_errors(const struct diags *d);

/*
 * -j/--jobs of analyze and report: trace files read at once (0, the default:
 * one per online CPU; 1: one after the other). load_jobs_set() checks it
 * (a usage error for cmd when negative) and hands it to the loader.
 */
extern int load_jobs;
#define OPTION_LOAD_JOBS \
	OPTION_INTEGER('j', "jobs", &load_jobs, "N", \
		       "trace files read at once, by threads (default: one per CPU; 1: one " \
		       "after the other); the output is the same for any N")
int load_jobs_set(const char *cmd);

struct analysis;
/*
 * The analysis of PATH: a trial directory (loaded, analysed and freed), or an
 * analysis.json (read back), told apart by content. Prints diagnostics and
 * returns an exit status; *ap is set (free it with analysis_free()) unless
 * the status is EXIT_NO_INPUT without anything to report.
 */
int load_and_analyze(const char *path, struct analysis **ap);

struct discovery;
struct found_trial;
/*
 * The analysis of trial f of dv (ingest/discover.h), loaded in place from
 * its directory or archive; otherwise as load_and_analyze().
 */
int load_found_and_analyze(const struct discovery *dv, const struct found_trial *f, struct analysis **ap);

/*
 * What `report` does for one trial: analyses PATH (as load_and_analyze())
 * and writes its report and analysis.json into OUT. Prints diagnostics;
 * returns an exit status (EXIT_NO_INPUT also when the report could not be written).
 */
int report_trial(const char *path, const char *out);
/* The same for trial f of dv (batch). */
int report_found(const struct discovery *dv, const struct found_trial *f, const char *out);

int cmd_inspect(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stack(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_batch(int argc, char **argv);

#endif
