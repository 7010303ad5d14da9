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
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/stack.h"
#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/model.h"
#include "core/readiness.h"
#include "ingest/codescan.h"
#include "ingest/ingest.h"
#include "ingest/pyenv.h"
#include "ingest/sniff.h"
#include "render/stack_json.h"
#include "render/stack_text.h"

#define STACK_MAX_DEPTH 16		/* directory levels below a named directory */
#define STACK_MAX_ENTRIES 500000	/* directory entries visited in all */
#define STACK_SNIFF 65536		/* bytes of a text file sniffed for a report or log */

struct stack {
	struct stack_result res;	/* what is printed */
	size_t entries;			/* directory entries visited */
	size_t unreadable;		/* files or paths that could not be read, or only in part */
	bool stopped;			/* STACK_MAX_ENTRIES was reached */
	struct py_env py;
	size_t py_inputs;		/* pip lists, arch lists, dist-info walks that gave something */
	struct trial *trial;		/* environment reports and logs go into its one run */
	struct run *run;
	struct arena arena;
	size_t env_files;		/* environment reports and logs read */
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
	if (f.unreadable)
		s->unreadable++;
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
	if (rc == 1)
		read_text(s, path);
}

/* Directories a walk never enters: caches, and package metadata that pyenv_walk reads. */
static bool skip_dir(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "__pycache__") || (n > 10 && !strcmp(name + n - 10, ".dist-info")) ||
	       (n > 9 && !strcmp(name + n - 9, ".egg-info"));
}

static struct stack *walking;	/* the state nftw's callback works on */

/* Why a link that stat() could not follow (its errno) is left out. */
static const char *broken_link(int err)
{
	return err == ELOOP ? "a symbolic link that loops" : "a dangling symbolic link";
}

/*
 * A symbolic link met in a walk: read when it names a file (a FIFO or socket
 * is left out with a warning by read_file()); one that dangles or loops is
 * said with its target, like the trial loader's left-out; a link to a
 * directory is not followed (FTW_PHYS).
 */
static void visit_link(struct stack *s, const char *path)
{
	struct srcpos pos = SRCPOS_FILE(path);
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;
	int err;

	if (stat(path, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			read_file(s, path);
		return;
	}
	err = errno;
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	diag_warn(&s->diags, "left-out", &pos, "%s (to '%s'): not read", broken_link(err), target);
}

/*
 * One entry of a walk. Links are not followed into directories (FTW_PHYS: no
 * loops); names beginning with '.' and directories below STACK_MAX_DEPTH are
 * left out; the walk stops after STACK_MAX_ENTRIES entries.
 */
static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct stack *s = walking;
	const char *name = path + ftw->base;
	struct srcpos pos = SRCPOS_FILE(path);

	(void)st;
	if (++s->entries > STACK_MAX_ENTRIES) {
		s->stopped = true;
		return FTW_STOP;
	}
	if (ftw->level > 0 && (name[0] == '.' || (type == FTW_D && skip_dir(name))))
		return type == FTW_D ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	if (type == FTW_D)
		return ftw->level >= STACK_MAX_DEPTH ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	if (type == FTW_F)
		read_file(s, path);
	else if (type == FTW_SL)
		visit_link(s, path);
	else if (type == FTW_DNR || type == FTW_NS) {
		diag_error(&s->diags, "unreadable", &pos, "cannot read: %s", strerror(errno));
		s->unreadable++;
	}
	return FTW_CONTINUE;
}

static void walk_dir(struct stack *s, const char *dir)
{
	walking = s;
	if (nftw(dir, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL) < 0 && !s->stopped) {
		struct srcpos pos = SRCPOS_FILE(dir);

		diag_error(&s->diags, "unreadable", &pos, "cannot walk: %s", strerror(errno));
		s->unreadable++;
	}
	walking = NULL;
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
	if (!S_ISDIR(st.st_mode)) {
		read_file(s, path);
		return;
	}
	if (pyenv_walk(&s->py, path, &s->diags) > 0)
		s->py_inputs++;
	walk_dir(s, path);
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
	if (!e->arch_list && s->py.narch) {
		for (size_t i = 0; i < s->py.narch; i++)
			buf_addf(&s->archs, "%s%s", i ? " " : "", s->py.arch_list[i]);
		e->arch_list = s->archs.data;
	}
	s->res.ncheck = readiness_check_env(e, &s->res.tl, s->res.check, STACK_MAX_CHECKS);
	if (s->res.ncheck > STACK_MAX_CHECKS)
		s->res.ncheck = STACK_MAX_CHECKS;
	s->res.packages = s->py.npkg;
}

static bool env_known(const struct readiness_env *e)
{
	return e->torch || e->torch_cuda || e->driver || e->nccl || e->cudnn || e->rocm ||
	       e->arch_list;
}

/* --- the command --- */

static const char *target_arg;	/* --target */
static int json;		/* --json */

const struct option stack_options[] = {
	OPTION_STRING(0, "target", &target_arg, "LIST",
		      "the GPUs to check against, comma-separated: sm_100 (B200, GB200), sm_103 "
		      "(B300), sm_120 (RTX 50xx, RTX PRO 6000), sm_90 (H100, H200), gfx942 "
		      "(MI300X) ...; default sm_100,sm_120"),
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

static int finish(struct stack *s)
{
	bool usable = s->res.nitem || env_known(&s->res.env);

	print_diags(&s->diags);
	print_errors(&s->trial->diags);
	if (s->stopped)
		error("stopped after %d directory entries; name fewer or deeper paths",
		      STACK_MAX_ENTRIES);
	if (!usable) {
		error("no GPU code and no environment report, package list or arch list found");
		return EXIT_NO_INPUT;
	}
	if (json ? stack_json(&s->res, stdout) < 0 : (stack_text(&s->res, stdout), fflush(stdout) != 0))
		return EXIT_NO_INPUT;	/* the write error is said once, by main */
	return s->unreadable || s->stopped ? EXIT_PARTIAL : EXIT_DONE;
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
	py_env_init(&s.py);
	buf_init(&s.archs, 0);
	s.trial = trial_new();
	s.run = trial_add_run(s.trial, "stack", ".");
	for (int i = 0; i < argc; i++)
		read_operand(&s, argv[i]);
	gather_env(&s);
	stack_decide(&s.res);
	ret = finish(&s);
	stack_release(&s);
	return ret;
}
