#include "cli/help.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/manifest_keys.h"
#include "ingest/sniff.h"

#define TOPIC_COL 22	/* where the text of a key or format starts in `help trial|formats` */

/* What the format table of ingest/sniff does not say: who reads a format and how it is made. */
struct format_help {
	const char *name;	/* format_name() */
	const char *read_by;	/* the commands that read it */
	const char *made_by;	/* how to produce it */
};

#define TRIAL_READERS "analyze, report, batch, replay, inspect"

static const struct format_help formats_help[] = {
	{ "kineto-trace", TRIAL_READERS,
	  "the PyTorch profiler around the training loop, one trace per rank: "
	  "torch.profiler.profile(record_shapes=True, profile_memory=True, "
	  "on_trace_ready=tensorboard_trace_handler(\"DIR\")), or "
	  "prof.export_chrome_trace(\"rank0.pt.trace.json\")" },
	{ "memory-timeline", TRIAL_READERS,
	  "prof.export_memory_timeline(\"mem_rank0.raw.json.gz\", device=\"cuda:0\") "
	  "after a profile with profile_memory=True and record_shapes=True" },
	{ "nsys-sqlite", TRIAL_READERS, "nsys export --type sqlite report.nsys-rep" },
	{ "sqlite", "inspect (recognised, not read)", "any SQLite database without Nsight Systems tables" },
	{ "nsys-csv", TRIAL_READERS,
	  "nsys stats --format csv --report cuda_gpu_trace,cuda_gpu_kern_sum report.nsys-rep" },
	{ "nsys-stats", TRIAL_READERS, "nsys profile --stats=true, or nsys stats report.nsys-rep" },
	{ "nvidia-smi-csv", TRIAL_READERS,
	  "nvidia-smi --query-gpu=timestamp,index,name,memory.used,memory.total,utilization.gpu,"
	  "power.draw --format=csv -l 1 > nvidia-smi.csv" },
	{ "rocm-smi-csv", TRIAL_READERS, "rocm-smi --showuse --showmemuse --csv" },
	{ "nccl-tests", TRIAL_READERS, "all_reduce_perf -b 8 -e 1G -f 2 -g 2 (or any other nccl-tests binary)" },
	{ "dcgmi-dmon", TRIAL_READERS, "dcgmi dmon -e 1001,1002,1004,1005" },
	{ "nvidia-smi-dmon", TRIAL_READERS, "nvidia-smi dmon -s pucm" },
	{ "nvidia-smi-table", TRIAL_READERS, "nvidia-smi" },
	{ "nvidia-smi-topo", TRIAL_READERS, "nvidia-smi topo -m > topo.txt" },
	{ "trial-ini", TRIAL_READERS, "written by you, or by scaleaudit plan -o DIR (see scaleaudit help trial)" },
	{ "run-ini", TRIAL_READERS, "written by you, or by scaleaudit plan -o DIR (see scaleaudit help trial)" },
	{ "collect-env", TRIAL_READERS ", stack", "python -m torch.utils.collect_env > collect_env.txt" },
	{ "train-log", TRIAL_READERS, "the job's own output, kept: python train.py 2>&1 | tee train.log" },
	{ "nccl-log", TRIAL_READERS ", stack",
	  "NCCL_DEBUG=INFO in the job's environment (NCCL_DEBUG_SUBSYS=INIT,COLL adds a line per call); "
	  "the lines may be inside the training log" },
	{ "cubin", "stack, inspect", "nvcc -cubin, or found inside a library" },
	{ "fatbin", "stack, inspect", "nvcc -fatbin, or found inside a library" },
	{ "elf", "stack, inspect", "your build: Python extensions (.so), libraries, objects, executables" },
};

static const struct format_help *format_help_find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats_help) / sizeof(formats_help[0]); i++)
		if (!strcmp(formats_help[i].name, name))
			return &formats_help[i];
	return NULL;
}

/* ---------------------------------------------------------------- plain text */

static const char *const trial_intro =
	"A trial is a directory with one sub-directory per run: the same training job on one "
	"GPU and on two (or more). Each run's directory holds the files that run left: profiler "
	"traces (one per rank), the training log, the GPU monitor's samples, the environment "
	"report (scaleaudit help formats lists them all). Files are recognised by their "
	"content, never by their names, and may be gzip-compressed. A directory holding a "
	"single run may be the trial itself.\n\n"
	"Two optional manifests add what no log says and declare what the logs should show, "
	"which analyze then checks: trial.ini in the trial's directory, section [trial], and "
	"run.ini in a run's directory, section [run]. Lines are key = value; # and ; start "
	"comments. scaleaudit plan --init DIR writes both with every key commented out.\n";

/* "  name                text, wrapped" */
static void topic_line(struct buf *out, const char *name, const char *text)
{
	size_t start = out->len;

	buf_addf(out, "  %s", name);
	if (out->len - start + 2 > TOPIC_COL) {
		buf_addch(out, '\n');
		start = out->len;
	}
	while (out->len - start < TOPIC_COL)
		buf_addch(out, ' ');
	text_wrap(out, text, TOPIC_COL, TOPIC_COL);
	buf_addch(out, '\n');
}

static void topic_trial(struct buf *out)
{
	struct buf text = BUF_INIT;
	size_t n;
	const struct manifest_key *k = manifest_keys(&n);
	const char *section = NULL;

	buf_init(&text, 0);
	text_wrap(out, trial_intro, 0, 0);
	for (size_t i = 0; i < n; i++) {
		if (!section || strcmp(section, k[i].section)) {
			section = k[i].section;
			buf_addf(out, "\n%s.ini, section [%s]:\n", section, section);
		}
		buf_reset(&text);
		buf_addf(&text, "%s\nvalues: %s; without it: %s", k[i].help, k[i].allowed, k[i].dflt);
		topic_line(out, k[i].name, text.data);
	}
	buf_addstr(out, "\nThe manual page scaleaudit-trial(5) says the same at length.\n");
	buf_release(&text);
}

static void topic_formats(struct buf *out)
{
	struct buf text = BUF_INIT;

	buf_init(&text, 0);
	text_wrap(out, "The input formats, recognised by content (the names are those inspect "
		  "shows), who reads each, and how to produce it:\n", 0, 0);
	buf_addch(out, '\n');
	for (int f = FMT_UNKNOWN + 1; f < FMT_COUNT; f++) {
		const struct format_help *h = format_help_find(format_name(f));

		buf_reset(&text);
		buf_addf(&text, "%s\nread by: %s\nmade by: %s", format_what(f),
			 h ? h->read_by : "?", h ? h->made_by : "?");
		topic_line(out, format_name(f), text.data);
	}
	buf_release(&text);
}

static const struct {
	const char *name;
	void (*write)(struct buf *out);
} topics[] = {
	{ "trial", topic_trial },
	{ "formats", topic_formats },
};

int help_topic(const char *name, struct buf *out)
{
	for (size_t i = 0; i < sizeof(topics) / sizeof(topics[0]); i++) {
		if (!strcmp(topics[i].name, name)) {
			topics[i].write(out);
			return 0;
		}
	}
	return -1;
}

const char *help_topic_name(size_t i)
{
	return i < sizeof(topics) / sizeof(topics[0]) ? topics[i].name : NULL;
}

/* ---------------------------------------------------------------- roff */

/*
 * text as roff running text: backslashes and hyphens escaped, a control
 * character at the start of the line defused; `how` may ask for the first
 * letter in upper case (CAPITAL) and a period at the end (PERIOD).
 */
enum { AS_IS = 0, CAPITAL = 1, PERIOD = 2, SENTENCE = CAPITAL | PERIOD };

static void roff_text(struct buf *out, const char *text, int how)
{
	size_t n = strlen(text);

	if (*text == '.' || *text == '\'')
		buf_addstr(out, "\\&");
	for (size_t i = 0; i < n; i++) {
		char c = text[i];

		if (c == '\\')
			buf_addstr(out, "\\e");
		else if (c == '-')
			buf_addstr(out, "\\-");
		else if (c == '\n')
			buf_addstr(out, "\n.br\n");
		else
			buf_addch(out, (char)((how & CAPITAL) && i == 0 ? toupper((unsigned char)c) : c));
	}
	if ((how & PERIOD) && n && text[n - 1] != '.')
		buf_addch(out, '.');
}

/* "\fB\-o\fR \fIDIR\fR", "\fB\-q\fR, \fB\-\-quiet\fR", "\fB\-\-color\fR[=\fIWHEN\fR]" */
static void roff_spell(const struct option *o, struct buf *out)
{
	if (o->short_name)
		buf_addf(out, "\\fB\\-%c\\fR%s", o->short_name, o->long_name ? ", " : "");
	if (o->long_name) {
		buf_addstr(out, "\\fB\\-\\-");
		roff_text(out, o->long_name, AS_IS);
		buf_addstr(out, "\\fR");
	}
	if (o->kind == OPT_FLAG)
		return;
	buf_addf(out, o->flags & OPT_OPTIONAL_VALUE ? "[=\\fI%s\\fR]" : " \\fI%s\\fR", o->value_name);
}

static void roff_option(const struct option *o, struct buf *out)
{
	struct buf text = BUF_INIT;

	buf_init(&text, 0);
	buf_addstr(&text, o->help);
	if (o->kind == OPT_ENUM) {
		buf_addf(&text, "; %s is ", o->value_name);
		for (size_t i = 0; o->choices[i]; i++)
			buf_addf(&text, "%s%s", i ? (o->choices[i + 1] ? ", " : " or ") : "", o->choices[i]);
	}
	if (o->flags & OPT_OPTIONAL_VALUE)
		buf_addf(&text, " (alone: %s)", o->deflt);
	if (o->flags & OPT_REPEAT)
		buf_addstr(&text, " (may be repeated)");
	buf_addstr(out, ".TP\n");
	roff_spell(o, out);
	buf_addch(out, '\n');
	roff_text(out, text.data, SENTENCE);
	buf_addch(out, '\n');
	buf_release(&text);
}

/* The options of opts, then each included table under its heading. */
static void roff_options(const struct option *opts, struct buf *out)
{
	for (const struct option *o = opts; o->kind != OPT_END; o++)
		if (o->kind != OPT_INCLUDE)
			roff_option(o, out);
	for (const struct option *o = opts; o->kind != OPT_END; o++) {
		if (o->kind != OPT_INCLUDE)
			continue;
		buf_addstr(out, ".SS \"");
		roff_text(out, o->help, CAPITAL);
		buf_addstr(out, "\"\n");
		roff_options(o->include, out);
	}
}

/* The description of a command: its paragraphs (split by "\n\n") under .PP. */
static void roff_description(const char *text, struct buf *out)
{
	struct buf para = BUF_INIT;

	buf_init(&para, 0);
	for (const char *p = text; *p;) {
		const char *end = strstr(p, "\n\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);

		buf_reset(&para);
		buf_add(&para, p, n);
		if (p != text)
			buf_addstr(out, ".PP\n");
		roff_text(out, para.data, AS_IS);
		buf_addch(out, '\n');
		p += n;
		while (*p == '\n')
			p++;
	}
	buf_release(&para);
}

static void roff_exits(const struct exit_status *e, struct buf *out)
{
	for (; e->meaning; e++) {
		buf_addf(out, ".TP\n.B %d\n", e->status);
		roff_text(out, e->meaning, SENTENCE);
		buf_addch(out, '\n');
	}
}

static int roff_keys(const char *section, struct buf *out)
{
	size_t n, shown = 0;
	const struct manifest_key *k = manifest_keys(&n);

	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].section, section))
			continue;
		buf_addstr(out, ".TP\n.B ");
		roff_text(out, k[i].name, AS_IS);
		buf_addch(out, '\n');
		roff_text(out, k[i].help, SENTENCE);
		buf_addstr(out, "\n.br\nValues: ");
		roff_text(out, k[i].allowed, AS_IS);
		buf_addstr(out, ".\n.br\nWithout it: ");
		roff_text(out, k[i].dflt, AS_IS);
		buf_addstr(out, ".\n");
		shown++;
	}
	return shown ? 0 : -1;
}

static int roff_formats(struct buf *out, char *err, size_t errsize)
{
	for (int f = FMT_UNKNOWN + 1; f < FMT_COUNT; f++) {
		const struct format_help *h = format_help_find(format_name(f));

		if (!h) {
			snprintf(err, errsize, "format '%s' has no entry in cli/help.c", format_name(f));
			return -1;
		}
		buf_addstr(out, ".TP\n.B ");
		roff_text(out, h->name, AS_IS);
		buf_addch(out, '\n');
		roff_text(out, format_what(f), PERIOD);
		buf_addstr(out, "\n.br\nRead by: ");
		roff_text(out, h->read_by, PERIOD);
		buf_addstr(out, "\n.br\nMade by: ");
		roff_text(out, h->made_by, PERIOD);
		buf_addch(out, '\n');
	}
	return 0;
}

int help_roff(int argc, char **argv, struct buf *out, char *err, size_t errsize)
{
	const struct command *c;

	if (argc == 2 && (!strcmp(argv[0], "options") || !strcmp(argv[0], "description") ||
			  !strcmp(argv[0], "exits"))) {
		c = command_find(argv[1]);
		if (!c || !c->options || !c->exits) {
			snprintf(err, errsize, "'%s' is not a command", argv[1]);
			return -1;
		}
		if (argv[0][0] == 'o')
			roff_options(c->options, out);
		else if (argv[0][0] == 'd')
			roff_description(c->description, out);
		else
			roff_exits(c->exits, out);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[0], "keys")) {
		if (roff_keys(argv[1], out) < 0) {
			snprintf(err, errsize, "'%s' is not a manifest section", argv[1]);
			return -1;
		}
		return 0;
	}
	if (argc == 1 && !strcmp(argv[0], "formats"))
		return roff_formats(out, err, errsize);
	snprintf(err, errsize, "help --roff takes description|options|exits COMMAND, keys SECTION or formats");
	return -1;
}
