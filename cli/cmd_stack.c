/*
 * stack: whether the software stack and the compiled extensions named on the
 * command line target the GPUs to be rented. Walks the paths, scans every
 * binary for GPU code (ingest/codescan), reads the Python environment
 * (ingest/pyenv), environment reports and NCCL logs (ingest), judges each
 * item and the versions against each target (core/readiness), and prints a
 * table or JSON.
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

#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/model.h"
#include "core/readiness.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "ingest/codescan.h"
#include "ingest/ingest.h"
#include "ingest/pyenv.h"
#include "ingest/sniff.h"
#include "core/json.h"

#define STACK_MAX_DEPTH 16		/* directory levels below a named directory */
#define STACK_MAX_ENTRIES 500000	/* directory entries visited in all */
#define STACK_SNIFF 65536		/* bytes of a text file sniffed for a report or log */
#define STACK_MAX_CHECKS 128

/* One file with GPU code, judged for every target. */
struct stack_item {
	struct code_object o;
	struct judgement j[READINESS_MAX_TARGETS];
	char *fix;			/* owned; NULL when every target is native */
};

struct stack {
	struct target_list tl;
	struct stack_item *item;
	size_t nitem, cap;
	size_t plain;			/* binaries without GPU code (not listed) */
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
	struct readiness_env env;
	struct readiness_check check[STACK_MAX_CHECKS];
	size_t ncheck;
	bool ready[READINESS_MAX_TARGETS];
	struct diags diags;
};

/* --- reading --- */

static void add_item(struct stack *s, struct code_object *o)
{
	struct stack_item *it;
	enum code_verdict v[READINESS_MAX_TARGETS];
	struct buf fix = BUF_INIT;

	xgrow(&s->item, &s->cap, s->nitem + 1, sizeof(*s->item));
	it = &s->item[s->nitem++];
	*it = (struct stack_item){ .o = *o };
	for (size_t i = 0; i < s->tl.n; i++) {
		readiness_judge(&it->o, &s->tl.t[i], &it->j[i]);
		v[i] = it->j[i].verdict;
	}
	buf_init(&fix, 0);
	readiness_fix(&it->o, &s->tl, v, &fix);
	it->fix = fix.len ? buf_detach(&fix) : NULL;
	buf_release(&fix);
}

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
		add_item(s, &o);
		return;
	}
	if (rc == 0)
		s->plain++;
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

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct stack_item *)a)->o.path, ((const struct stack_item *)b)->o.path);
}

/* --- judging the environment --- */

static const char *or_py(const char *have, const char *py)
{
	return have ? have : *py ? py : NULL;
}

static void gather_env(struct stack *s)
{
	struct readiness_env *e = &s->env;

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
	s->ncheck = readiness_check_env(e, &s->tl, s->check, STACK_MAX_CHECKS);
	if (s->ncheck > STACK_MAX_CHECKS)
		s->ncheck = STACK_MAX_CHECKS;
}

static bool env_known(const struct readiness_env *e)
{
	return e->torch || e->torch_cuda || e->driver || e->nccl || e->cudnn || e->rocm ||
	       e->arch_list;
}

/*
 * The driver an item's ZSTD entries need when the environment's driver is
 * known and older (the file does not load at all); NULL otherwise.
 */
static const char *zstd_blocked(const struct stack *s, const struct stack_item *it, size_t *n)
{
	const char *need = readiness_zstd_driver(&it->o, n);

	return need && s->env.driver && version_cmp(s->env.driver, need) < 0 ? need : NULL;
}

/*
 * A target is ready when no item misses it, the environment meets its
 * minimums and the driver can load every compressed CUDA entry.
 */
static void decide(struct stack *s)
{
	size_t n;

	for (size_t t = 0; t < s->tl.n; t++) {
		s->ready[t] = true;
		for (size_t i = 0; i < s->nitem; i++)
			if (s->item[i].j[t].verdict == CODE_MISSING ||
			    (s->tl.t[t].vendor == TARGET_CUDA && zstd_blocked(s, &s->item[i], &n)))
				s->ready[t] = false;
	}
	for (size_t c = 0; c < s->ncheck; c++)
		if (!s->check[c].ok)
			s->ready[s->check[c].target - s->tl.t] = false;
}

/* --- output --- */

static int width(const char *s, int w)
{
	int n = (int)strlen(s);

	return n > w ? n : w;
}

static void print_row(const struct stack *s, const int *w, const char *const *cell)
{
	struct buf line = BUF_INIT;

	buf_init(&line, 0);
	buf_addf(&line, "%-*s  %-*s  %-*s", w[0], cell[0], w[1], cell[1], w[2], cell[2]);
	for (size_t t = 0; t < s->tl.n; t++)
		buf_addf(&line, "  %-*s", w[3 + t], cell[3 + t]);
	buf_addf(&line, "  %s", cell[3 + s->tl.n]);
	while (line.len && line.data[line.len - 1] == ' ')
		line.data[--line.len] = 0;
	utf8_line(stdout, "%s", line.data);
	buf_release(&line);
}

static void print_table(const struct stack *s)
{
	const char *cell[4 + READINESS_MAX_TARGETS] = { "item", "kind", "archs" };
	int w[3 + READINESS_MAX_TARGETS] = { 4, 4, 5 };
	struct buf *archs = xcalloc(s->nitem + 1, sizeof(*archs));

	for (size_t t = 0; t < s->tl.n; t++)
		w[3 + t] = width(s->tl.t[t].name, 7);
	for (size_t i = 0; i < s->nitem; i++) {
		buf_init(&archs[i], 0);
		code_object_archs(&s->item[i].o, -1, &archs[i]);
		w[0] = width(s->item[i].o.path, w[0]);
		w[1] = width(s->item[i].o.kind, w[1]);
		w[2] = width(archs[i].data, w[2]);
	}
	for (size_t t = 0; t < s->tl.n; t++)
		cell[3 + t] = s->tl.t[t].name;
	cell[3 + s->tl.n] = "fix";
	print_row(s, w, cell);
	for (size_t i = 0; i < s->nitem; i++) {
		cell[0] = s->item[i].o.path;
		cell[1] = s->item[i].o.kind;
		cell[2] = archs[i].data;
		for (size_t t = 0; t < s->tl.n; t++)
			cell[3 + t] = code_verdict_name(s->item[i].j[t].verdict);
		cell[3 + s->tl.n] = s->item[i].fix ? s->item[i].fix : "-";
		print_row(s, w, cell);
		buf_release(&archs[i]);
	}
	free(archs);
}

/* "7.8" for 78 */
static void isa_text(int isa, char *out, size_t n)
{
	if (isa < 0)
		snprintf(out, n, "unknown");
	else
		snprintf(out, n, "%d.%d", isa / 10, isa % 10);
}

/* One jit note: the PTX, the driver it needs, what is lost. */
static void print_jit_note(const struct stack_item *it, const struct target *t,
			   const struct judgement *j)
{
	char isa[16];
	struct buf line;

	isa_text(j->by->ptx_isa, isa, sizeof(isa));
	buf_init(&line, 0);
	buf_addf(&line, "jit: %s on %s: only PTX %s (ISA %s) that the driver compiles at start-up",
		 it->o.path, t->name, j->by->arch, isa);
	if (j->min_driver)
		buf_addf(&line, ", which needs driver %s or newer (CUDA %s)", j->min_driver, j->min_cuda);
	utf8_line(stdout, "%s; %sa/%sf features are absent", line.data, t->name, t->name);
	buf_release(&line);
}

static void print_jit(const struct stack *s)
{
	bool first = true;

	for (size_t i = 0; i < s->nitem; i++) {
		for (size_t t = 0; t < s->tl.n; t++) {
			if (s->item[i].j[t].verdict != CODE_JIT)
				continue;
			if (first)
				printf("\n");
			first = false;
			print_jit_note(&s->item[i], &s->tl.t[t], &s->item[i].j[t]);
		}
	}
}

/* The files whose ZSTD entries the environment's driver cannot load. */
static void print_zstd(const struct stack *s)
{
	bool first = true;
	size_t n;

	for (size_t i = 0; i < s->nitem; i++) {
		const char *need = zstd_blocked(s, &s->item[i], &n);

		if (!need)
			continue;
		if (first)
			printf("\n");
		first = false;
		utf8_line(stdout, "zstd: %s: %zu ZSTD-compressed entr%s, which only driver %s or newer (R550) "
			  "can load; the environment's driver is %s", s->item[i].o.path, n,
			  n == 1 ? "y" : "ies", need, s->env.driver);
	}
}

static void print_check(const struct readiness_check *c)
{
	const struct min_version *m = c->row;
	struct buf line;

	buf_init(&line, 0);	/* c->have is read from the files: the line goes through core/utf8 */
	buf_addf(&line, "  %s %s %s: ", c->target->name, stack_component_name(m->comp), c->have);
	if (c->ok && m->version)
		buf_addf(&line, "ok (%s or newer)", m->version);
	else if (c->ok)
		buf_addf(&line, "covers %s", c->target->name);
	else if (m->version)
		buf_addf(&line, "needs %s or newer: %s", m->version, m->fix);
	else
		buf_addf(&line, "no code for %s: %s", c->target->name, m->fix);
	utf8_line(stdout, "%s", line.data);
	buf_release(&line);
}

static void print_text(const struct stack *s)
{
	printf("targets:");
	for (size_t t = 0; t < s->tl.n; t++)
		printf(" %s", s->tl.t[t].name);
	printf("\n\n");
	if (s->nitem) {
		print_table(s);
		print_jit(s);
		print_zstd(s);
	} else {
		printf("no file with GPU code\n");
	}
	if (s->plain)
		printf("\n%zu binar%s without GPU code not listed\n", s->plain,
		       s->plain == 1 ? "y" : "ies");
	if (s->ncheck)
		printf("\nenvironment:\n");
	for (size_t c = 0; c < s->ncheck; c++)
		print_check(&s->check[c]);
	printf("\nready:");
	for (size_t t = 0; t < s->tl.n; t++)
		printf(" %s %s%s", s->tl.t[t].name, s->ready[t] ? "yes" : "no",
		       t + 1 < s->tl.n ? "," : "");
	printf("\n");
}

static void json_archs(yajl_gen g, const char *key, const struct code_object *o, int kind)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	code_object_archs(o, kind, &b);
	json_key(g, key);
	yajl_gen_array_open(g);
	for (char *p = b.data, *save = NULL, *w; (w = strtok_r(p, " ", &save)); p = NULL)
		json_str(g, w);
	yajl_gen_array_close(g);
	buf_release(&b);
}

static void json_jit(yajl_gen g, const struct stack *s, const struct stack_item *it)
{
	json_key(g, "jit");
	yajl_gen_map_open(g);
	for (size_t t = 0; t < s->tl.n; t++) {
		const struct judgement *j = &it->j[t];
		char isa[16];

		if (j->verdict != CODE_JIT)
			continue;
		isa_text(j->by->ptx_isa, isa, sizeof(isa));
		json_key(g, s->tl.t[t].name);
		yajl_gen_map_open(g);
		json_key(g, "ptx");
		json_str(g, j->by->arch);
		json_key(g, "ptx_isa");
		json_str(g, j->by->ptx_isa < 0 ? NULL : isa);
		json_key(g, "min_cuda");
		json_str(g, j->min_cuda);
		json_key(g, "min_driver");
		json_str(g, j->min_driver);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}

static void json_item(yajl_gen g, const struct stack *s, const struct stack_item *it)
{
	size_t nzstd;
	const char *zstd = readiness_zstd_driver(&it->o, &nzstd);

	yajl_gen_map_open(g);
	json_key(g, "path");
	json_str(g, it->o.path);
	json_key(g, "kind");
	json_str(g, it->o.kind);
	json_archs(g, "sass", &it->o, CODE_SASS);
	json_archs(g, "ptx", &it->o, CODE_PTX);
	json_archs(g, "ltoir", &it->o, CODE_LTOIR);
	json_archs(g, "amdgpu", &it->o, CODE_AMDGPU);
	json_key(g, "verdict");
	yajl_gen_map_open(g);
	for (size_t t = 0; t < s->tl.n; t++) {
		json_key(g, s->tl.t[t].name);
		json_str(g, code_verdict_name(it->j[t].verdict));
	}
	yajl_gen_map_close(g);
	json_jit(g, s, it);
	json_key(g, "zstd_entries");
	json_int(g, (int64_t)nzstd);
	json_key(g, "zstd_min_driver");
	json_str(g, zstd);
	json_key(g, "zstd_loads");
	if (zstd && s->env.driver)
		yajl_gen_bool(g, version_cmp(s->env.driver, zstd) >= 0);
	else
		yajl_gen_null(g);
	json_key(g, "fix");
	json_str(g, it->fix);
	yajl_gen_map_close(g);
}

static void json_checks(yajl_gen g, const struct stack *s)
{
	json_key(g, "checks");
	yajl_gen_array_open(g);
	for (size_t c = 0; c < s->ncheck; c++) {
		const struct readiness_check *k = &s->check[c];

		yajl_gen_map_open(g);
		json_key(g, "target");
		json_str(g, k->target->name);
		json_key(g, "component");
		json_str(g, stack_component_name(k->row->comp));
		json_key(g, "have");
		json_str(g, k->have);
		json_key(g, "need");
		json_str(g, k->row->version);
		json_key(g, "ok");
		yajl_gen_bool(g, k->ok);
		json_key(g, "fix");
		json_str(g, k->ok ? NULL : k->row->fix);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_env(yajl_gen g, const struct stack *s)
{
	const struct readiness_env *e = &s->env;
	const char *const kv[][2] = {
		{ "torch", e->torch }, { "torch_cuda", e->torch_cuda }, { "driver", e->driver },
		{ "nccl", e->nccl }, { "cudnn", e->cudnn }, { "rocm", e->rocm },
		{ "arch_list", e->arch_list },
	};

	json_key(g, "environment");
	yajl_gen_map_open(g);
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++) {
		json_key(g, kv[i][0]);
		json_str(g, kv[i][1]);
	}
	json_key(g, "packages");
	json_int(g, (int64_t)s->py.npkg);
	json_checks(g, s);
	yajl_gen_map_close(g);
}

static int print_json(const struct stack *s)
{
	yajl_gen g = json_new();
	int rc;

	yajl_gen_map_open(g);
	json_key(g, "targets");
	yajl_gen_array_open(g);
	for (size_t t = 0; t < s->tl.n; t++)
		json_str(g, s->tl.t[t].name);
	yajl_gen_array_close(g);
	json_key(g, "items");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < s->nitem; i++)
		json_item(g, s, &s->item[i]);
	yajl_gen_array_close(g);
	json_env(g, s);
	json_key(g, "binaries_without_gpu_code");
	json_int(g, (int64_t)s->plain);
	json_key(g, "ready");
	yajl_gen_map_open(g);
	for (size_t t = 0; t < s->tl.n; t++) {
		json_key(g, s->tl.t[t].name);
		yajl_gen_bool(g, s->ready[t]);
	}
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	rc = json_flush(g, stdout, true);
	yajl_gen_free(g);
	return rc;
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
	for (size_t i = 0; i < s->nitem; i++) {
		code_object_release(&s->item[i].o);
		free(s->item[i].fix);
	}
	free(s->item);
	py_env_release(&s->py);
	trial_free(s->trial);
	arena_release(&s->arena);
	buf_release(&s->archs);
	diags_release(&s->diags);
}

static int finish(struct stack *s)
{
	bool usable = s->nitem || env_known(&s->env);

	print_diags(&s->diags);
	print_errors(&s->trial->diags);
	if (s->stopped)
		error("stopped after %d directory entries; name fewer or deeper paths",
		      STACK_MAX_ENTRIES);
	if (!usable) {
		error("no GPU code and no environment report, package list or arch list found");
		return EXIT_NO_INPUT;
	}
	if (json ? print_json(s) < 0 : (print_text(s), fflush(stdout) != 0))
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
	if (target_arg && target_list_parse(target_arg, &s.tl, err, sizeof(err)) < 0)
		return usage_error("stack", "--target: %s", err);
	if (!target_arg)
		target_list_default(&s.tl);
	py_env_init(&s.py);
	buf_init(&s.archs, 0);
	s.trial = trial_new();
	s.run = trial_add_run(s.trial, "stack", ".");
	for (int i = 0; i < argc; i++)
		read_operand(&s, argv[i]);
	if (s.nitem > 1)
		qsort(s.item, s.nitem, sizeof(*s.item), by_path);	/* walks come in any order */
	gather_env(&s);
	decide(&s);
	ret = finish(&s);
	stack_release(&s);
	return ret;
}
