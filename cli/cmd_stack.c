/*
 * stack: whether the software stack and the compiled extensions named on the
 * command line target the GPUs to be rented. Walks the paths, scans every
 * binary for GPU code (ingest/codescan), reads the Python environment
 * (ingest/pyenv), environment reports and NCCL logs (ingest), judges each
 * item and the versions against each target (core/readiness, analysis/stack),
 * and prints the result as a table or JSON (render/stack_text, stack_json).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/stack.h"
#include "analysis/stack_variants.h"
#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/model.h"
#include "core/readiness.h"
#include "core/xalloc.h"
#include "ingest/codearc.h"
#include "ingest/codescan.h"
#include "ingest/ingest.h"
#include "ingest/pyenv.h"
#include "ingest/sniff.h"
#include "ingest/walk.h"
#include "render/stack_json.h"
#include "render/stack_text.h"

#define STACK_MAX_DEPTH 15		/* directories entered below a named one: files 16 down are read */
#define STACK_MAX_ENTRIES 500000	/* directory entries visited in all */
#define STACK_SNIFF 65536		/* bytes of a text file sniffed for a report or log */

struct stack {
	struct stack_result res;	/* what is printed */
	struct walk_stats walked;	/* entries met, against STACK_MAX_ENTRIES in all */
	size_t unreadable;		/* files or paths that could not be read, or only in part */
	struct py_env py;
	size_t py_inputs;		/* pip lists, arch lists, dist-info walks that gave something */
	struct trial *trial;		/* environment reports and logs go into its one run */
	struct run *run;
	struct arena arena;
	size_t env_files;		/* environment reports and logs read */
	size_t env_reports;		/* of them, environment reports (collect_env) */
	struct buf archs;		/* the arch list, joined */
	struct diags diags;
};

/* --- reading --- */

/* path ends in one of the extensions ext[0..n) */
static bool has_ext(const char *path, const char *const *ext, size_t n)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

/* Source files and data: never an environment report, a package list or a log. */
static bool skip_text(const char *path)
{
	static const char *const ext[] = { ".py", ".pyc", ".pyi", ".h", ".hpp", ".cuh", ".c",
					   ".cpp", ".cu", ".gz", ".pt", ".safetensors",
					   ".whl", ".md", ".html", ".js", ".css", ".typed" };

	return has_ext(path, ext, sizeof(ext) / sizeof(ext[0]));
}

/* JSON: a package list (pip list --format=json, conda list --json) at most, never a log. */
static bool json_only(const char *path)
{
	static const char *const ext[] = { ".json" };

	return has_ext(path, ext, 1);
}

/* Does the head of path look like an environment report or a log that tells the stack? */
static bool env_text(const char *path)
{
	static unsigned char head[STACK_SNIFF];
	const uint32_t want = 1u << FMT_COLLECT_ENV | 1u << FMT_NCCL_LOG | 1u << FMT_TRAIN_LOG;
	struct sniff sn;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n <= 0)
		return false;
	sniff_bytes(head, (size_t)n, n < (ssize_t)sizeof(head), &sn);
	return sn.text && ((sn.contains & want) || (1u << sn.format & want));
}

static void read_text(struct stack *s, const char *path)
{
	struct ingest_file f;
	int kind;

	if (skip_text(path))
		return;
	kind = pyenv_read_file(&s->py, path, &s->diags);
	if (kind > 0) {
		s->py_inputs++;
		return;
	}
	if (kind < 0) {
		s->unreadable++;
		return;
	}
	if (json_only(path) || !env_text(path))
		return;
	ingest_file(s->trial, s->run, path, &s->arena, &f);
	if (f.read)
		s->env_files++;
	if (f.read && f.sniff.format == FMT_COLLECT_ENV)
		s->env_reports++;
	if (f.unreadable)
		s->unreadable++;
}

static void add_member(void *user, struct code_object *o)
{
	stack_add_item(&((struct stack *)user)->res, o);
}

/* An archive (a wheel, a conda package, a zip or tar): 1 when path is not one. */
static int read_archive(struct stack *s, const char *path)
{
	struct codearc_stats st = { 0 };
	int rc = codearc_scan(path, add_member, s, &st, &s->diags);

	if (rc == 1)
		return 1;
	s->res.plain += st.plain;
	if (rc < 0 || st.unread)
		s->unreadable++;
	return 0;
}

static void read_file(struct stack *s, const char *path)
{
	struct code_object o;
	int rc;

	if (ingest_left_out(path, &s->diags))
		return;	/* a FIFO must not block, nor be read as text */
	rc = codescan_file(path, &o, &s->diags);
	if (rc < 0)
		s->unreadable++;
	if (rc != 1 && o.nentry) {
		stack_add_item(&s->res, &o);
		return;
	}
	if (rc == 0)
		s->res.plain++;
	code_object_release(&o);
	if (rc == 1 && read_archive(s, path) == 1)
		read_text(s, path);
}

/* Directories a walk never enters: caches, and package metadata that the scan reads. */
static bool skip_dir(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "__pycache__") || (n > 10 && !strcmp(name + n - 10, ".dist-info")) ||
	       (n > 9 && !strcmp(name + n - 9, ".egg-info"));
}

/* What a walk met that is said or read once the environment scan is over. */
struct met {
	char *path;		/* owned */
	enum walk_type type;	/* WALK_FILE: read it; WALK_LINK, WALK_UNLISTED, WALK_NOSTAT: say err */
	int err;
};

/*
 * One walk of a named directory: the environment scan rides on it, and what
 * it met waits in a list, in the walk's order, so that the packages of the
 * dist-info entries come before those of package lists (the first of a name
 * is kept), as when the scan walked alone and first.
 */
struct stack_walk {
	struct stack *s;
	const char *operand;		/* as named, for the scan's message */
	struct pyenv_scan scan;
	struct met *met;
	size_t nmet, cap;
};

static void meet(struct stack_walk *w, const struct walk_entry *e, enum walk_type type)
{
	xgrow(&w->met, &w->cap, w->nmet + 1, sizeof(*w->met));
	w->met[w->nmet++] = (struct met){ .path = xstrdup(e->path), .type = type, .err = e->err };
}

/* Why a link that stat() could not follow (its errno) is left out. */
static const char *broken_link(int err)
{
	return err == ELOOP ? "a symbolic link that loops" : "a dangling symbolic link";
}

/* A dangling or looping link, said with its target like the trial loader's left-out. */
static void left_out_link(struct stack *s, const char *path, int err)
{
	struct srcpos pos = SRCPOS_FILE(path);
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	target[n > 0 ? n : 0] = '\0';
	diag_warn(&s->diags, "left-out", &pos, "%s (to '%s'): not read", broken_link(err), target);
}

static void unreadable(struct stack *s, const char *path, int err)
{
	struct srcpos pos = SRCPOS_FILE(path);

	diag_error(&s->diags, "unreadable", &pos, "cannot read: %s", strerror(err));
	s->unreadable++;
}

/*
 * One entry of a walk. Directories named like skip_dir() are not entered,
 * nor those past STACK_MAX_DEPTH. A symbolic link is read when it names a
 * file (a FIFO or socket is left out with a warning by read_file()), never
 * followed into a directory. A named directory that cannot be listed is said
 * by the scan at once, as when it walked first.
 */
static bool stack_visit(void *user, const struct walk_entry *e)
{
	struct stack_walk *w = user;
	struct srcpos named = SRCPOS_FILE(w->operand);

	if (e->type == WALK_DIR)
		return !skip_dir(e->name);
	if (e->type == WALK_UNLISTED && e->depth == 0)
		diag_error(&w->s->diags, "unreadable", &named, "cannot list directory: %s", strerror(e->err));
	if (e->type == WALK_FILE || (e->type == WALK_LINK && !e->err && !S_ISDIR(e->target)))
		meet(w, e, WALK_FILE);
	else if (e->type != WALK_TOO_DEEP && !(e->type == WALK_LINK && !e->err))
		meet(w, e, e->type);
	return false;
}

static bool stack_listed(void *user, const struct walk_entry *dir, const struct walk_entry *e, size_t n)
{
	pyenv_scan_listed(&((struct stack_walk *)user)->scan, dir, e, n);
	return true;	/* the scan's limits are its own: the files below still count */
}

static void read_met(struct stack *s, const struct met *m)
{
	if (m->type == WALK_FILE)
		read_file(s, m->path);
	else if (m->type == WALK_LINK)
		left_out_link(s, m->path, m->err);
	else
		unreadable(s, m->path, m->err);
}

/*
 * Walks the directory path once, in its own order as the stack always
 * walked, for the scan and the files; then reads the files.
 */
static void walk_operand(struct stack *s, const char *path)
{
	static const struct walk_policy policy = { .flags = WALK_DIR_ORDER, .max_depth = STACK_MAX_DEPTH,
						   .max_entries = STACK_MAX_ENTRIES };
	struct stack_walk w = { .s = s, .operand = path };
	const struct walk_visitor v = { .visit = stack_visit, .listed = stack_listed, .user = &w };
	char *dir = xstrdup(path);
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';	/* "dir/file" however the directory was named */
	pyenv_scan_init(&w.scan, &s->py);
	walk_dir(dir, &policy, &v, &s->walked);
	if (pyenv_scan_finish(&w.scan) > 0)
		s->py_inputs++;
	for (size_t i = 0; i < w.nmet; i++) {
		read_met(s, &w.met[i]);
		free(w.met[i].path);
	}
	free(w.met);
	free(dir);
}

/* A path from the command line. */
static void read_operand(struct stack *s, const char *path)
{
	struct stat st;
	struct srcpos pos = SRCPOS_FILE(path);

	if (stat(path, &st) < 0) {
		diag_error(&s->diags, "unreadable", &pos, "%s", strerror(errno));
		s->unreadable++;
		return;
	}
	if (S_ISDIR(st.st_mode))
		walk_operand(s, path);
	else
		read_file(s, path);
}

/* --- judging the environment --- */

static const char *or_py(const char *have, const char *py)
{
	return have ? have : *py ? py : NULL;
}

static void gather_env(struct stack *s)
{
	struct readiness_env *e = &s->res.env;

	readiness_env_from_run(s->run, e);
	e->torch = or_py(e->torch, s->py.torch_version);
	e->torch_cuda = or_py(e->torch_cuda, s->py.torch_cuda);
	e->nccl = or_py(e->nccl, s->py.nccl_version);
	e->cudnn = or_py(e->cudnn, s->py.cudnn_version);
	e->rocm = or_py(e->rocm, s->py.torch_rocm);
	e->torch_rocm = or_py(e->torch_rocm, s->py.torch_rocm);
	e->torch_cpu |= !strcmp(s->py.torch_local, "cpu");
	if (!e->arch_list && s->py.narch) {
		for (size_t i = 0; i < s->py.narch; i++)
			buf_addf(&s->archs, "%s%s", i ? " " : "", s->py.arch_list[i]);
		e->arch_list = s->archs.data;
	}
	s->res.ncheck = readiness_check_env(e, &s->res.tl, s->res.check, STACK_MAX_CHECKS);
	if (s->res.ncheck > STACK_MAX_CHECKS)
		s->res.ncheck = STACK_MAX_CHECKS;
	s->res.packages = s->py.npkg;
	s->res.env_report = s->env_reports > 0;
}

static bool env_known(const struct readiness_env *e)
{
	return e->torch || e->torch_cuda || e->driver || e->nccl || e->cudnn || e->rocm ||
	       e->arch_list;
}

/* --- the command --- */

static const char *target_arg;	/* --target */
static int json;		/* --json */
static int accept_jit;		/* --accept-jit */

const struct option stack_options[] = {
	OPTION_STRING(0, "target", &target_arg, "LIST",
		      "the GPUs to check against, comma-separated: sm_100 (B200, GB200), sm_103 "
		      "(B300), sm_120 (RTX 50xx, RTX PRO 6000), sm_90 (H100, H200), gfx942 "
		      "(MI300X) ...; default sm_100,sm_120"),
	OPTION_FLAG(0, "accept-jit", &accept_jit, 1,
		    "count a target that runs only through PTX JIT as ready: exit status 0 "
		    "and \"(accepted)\" in the summary; its verdict stays jit"),
	OPTION_FLAG(0, "json", &json, 1, "print {\"targets\", \"items\", \"environment\", "
		    "\"ready\"} as JSON instead of the table"),
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

static void stack_release(struct stack *s)
{
	stack_result_release(&s->res);
	py_env_release(&s->py);
	trial_free(s->trial);
	arena_release(&s->arena);
	buf_release(&s->archs);
	diags_release(&s->diags);
}

/* The exit status of the worst target's verdict. */
static const int ready_exit[] = {
	[STACK_YES] = EXIT_DONE, [STACK_JIT] = EXIT_STACK_JIT,
	[STACK_UNKNOWN] = EXIT_STACK_UNKNOWN, [STACK_NO] = EXIT_STACK_NO,
};

/*
 * Prints the result, every target unknown when nothing usable was found
 * (then the status is EXIT_NO_INPUT). Unreadable inputs come before the
 * verdicts: EXIT_PARTIAL says the verdicts are of the rest.
 */
static int finish(struct stack *s)
{
	bool usable = s->res.nitem || env_known(&s->res.env) || s->res.packages;

	print_diags(&s->diags);
	print_errors(&s->trial->diags);
	if (s->walked.stopped)
		error("stopped after %d directory entries; name fewer or deeper paths",
		      STACK_MAX_ENTRIES);
	if (!usable)
		error("no GPU code and no environment report, package list or arch list found");
	if (json ? stack_json(&s->res, stdout) < 0 : (stack_text(&s->res, stdout), fflush(stdout) != 0))
		return EXIT_NO_INPUT;	/* the write error is said once, by main */
	if (!usable)
		return EXIT_NO_INPUT;
	if (s->unreadable || s->walked.stopped)
		return EXIT_PARTIAL;
	return ready_exit[stack_worst(&s->res)];
}

int cmd_stack(int argc, char **argv)
{
	struct stack s = { .diags = DIAGS_INIT };
	char err[160];
	int ret;

	if (argc < 1)
		return usage_error("stack", "no PATH given");
	if (target_arg && target_list_parse(target_arg, &s.res.tl, err, sizeof(err)) < 0)
		return usage_error("stack", "--target: %s", err);
	if (!target_arg)
		target_list_default(&s.res.tl);
	s.res.accept_jit = accept_jit;
	py_env_init(&s.py);
	buf_init(&s.archs, 0);
	s.trial = trial_new();
	s.run = trial_add_run(s.trial, "stack", ".");
	for (int i = 0; i < argc; i++)
		read_operand(&s, argv[i]);
	gather_env(&s);
	stack_group_variants(&s.res);
	stack_decide(&s.res);
	ret = finish(&s);
	stack_release(&s);
	return ret;
}
