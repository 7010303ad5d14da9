#include "ingest/collect_env.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "core/xalloc.h"

#define MAX_GPUS 256		/* GPU names kept from one report */
#define MAX_LIBS 512		/* library versions kept */
#define MAX_CUDNN 16		/* distinct cuDNN versions among the listed libraries */
#define MAX_WARNINGS 64		/* arch warnings kept from one file */
/*
 * Bounded by construction: a report of any size keeps at most the counts
 * above, each fact once, and interns a name only when it is kept, so it
 * counts nothing against --max-events or --max-memory.
 */

enum pat {
	P_KEY, P_GPU_ITEM, P_CUDNN_PATH, P_CUDNN_VERSION, P_LIB, P_ARCHS, P_ARCH_WARN,
	P_SUPPORTS, P_NO_KERNEL, P_VERSION, P_ARCH_LIST, P_ARCH_ENV, P_COUNT
};

static const char *const pattern_src[P_COUNT] = {
	[P_KEY] = "^\\s*(PyTorch version|CUDA used to build PyTorch|CUDA runtime version|"
		  "GPU models and configuration|Nvidia driver version|cuDNN version|"
		  "vLLM Version|ROCM used to build PyTorch|HIP runtime version|"
		  "MIOpen runtime version|ROCM Version)\\s*:[ \\t]*(.*?)\\s*$",
	[P_GPU_ITEM] = "^\\s*GPU (\\d+): (.+?)\\s*$",
	[P_CUDNN_PATH] = "^\\s*\\S*cudnn\\S*\\s*$",
	[P_CUDNN_VERSION] = "libcudnn(?:_\\w+)?\\.so\\.(\\d+(?:\\.\\d+)*)\\s*$",
	[P_LIB] = "^\\s*\\[(?:pip3?|conda)\\]\\s+([A-Za-z0-9_.-]+)(?:==|\\s+)(\\d\\S*)",
	[P_ARCHS] = "^\\s*CUDA Archs:\\s*([^;]*?)\\s*(?:;|$)",
	[P_ARCH_WARN] = "([^:]*?)\\s+with CUDA capability (sm_\\d+[a-z]?) is not compatible "
			"with the current PyTorch installation",
	[P_SUPPORTS] = "The current PyTorch install supports CUDA capabilities"
		       "((?:\\s+(?:sm|compute)_\\d+[a-z]?)+)",
	[P_NO_KERNEL] = "no kernel image is available for execution on the device",
	[P_VERSION] = "^\\d+(?:\\.\\d+)+$",
	/* a printed torch.cuda.get_arch_list(), alone or after a label */
	[P_ARCH_LIST] = "\\[\\s*('(?:sm|compute)_\\d+[a-z]?'(?:\\s*,\\s*'(?:sm|compute)_\\d+[a-z]?')*)"
			"\\s*\\]\\s*$",
	[P_ARCH_ENV] = "\\bTORCH_CUDA_ARCH_LIST\\s*[=:]\\s*[\"']?"
		       "(\\d+\\.\\d+[a-z]?(?:\\+PTX)?(?:[; ]+\\d+\\.\\d+[a-z]?(?:\\+PTX)?)*)",
};

static pcre2_code *compiled[P_COUNT];
static struct pattern_table patterns = PATTERN_TABLE(pattern_src, compiled, 0);

static bool compile_patterns(void)
{
	return pattern_compile(&patterns);	/* false: a bad built-in pattern, caught by the tests */
}

static bool matches(enum pat p, const char *s, size_t n)
{
	return pattern_find(&patterns, p, s, n);
}

/* Group g of the last match, leading blanks dropped; false when it did not take part. */
static bool group(int g, const char *s, const char **start, size_t *len)
{
	if (!pattern_get(&patterns, g, s, start, len))
		return false;
	while (*len && (**start == ' ' || **start == '\t'))
		(*start)++, (*len)--;
	return true;
}

/* What the line after a key holds: the list that key opened. */
enum list { L_NONE, L_GPUS, L_CUDNN };

struct cenv {
	struct ingest_ctx *ctx;
	struct env_info env;	/* this file's values; arrays malloc'd until finish */
	size_t cap_gpus, cap_libs, cap_warn;
	bool gpus_reported;	/* the report had a GPU line, even "No CUDA" */
	const char *cudnn[MAX_CUDNN];	/* versions of the listed cuDNN libraries */
	size_t ncudnn;
	struct fact_str suffix_cuda;	/* "12.6" from a version's "+cu126" */
	struct fact_str pip_torch;	/* torch's version as pip or conda lists it */
	struct fact_str pip_torch_full;	/* the same with its local part */
	int64_t cudnn_line;	/* where "cuDNN version" was */
	enum list list;
	bool found;
	int64_t events;		/* values read */
};

static const char *str(struct cenv *c, const char *p, size_t n)
{
	return intern(&c->ctx->trial->strings, p, n);
}

static bool said_nothing(const char *p, size_t n)
{
	static const char *const none[] = { "Could not collect", "N/A", "None", "No CUDA", "" };

	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (n == strlen(none[i]) && !memcmp(p, none[i], n))
			return true;
	return false;
}

static void set(struct cenv *c, struct fact_str *f, const char *p, size_t n, int64_t lineno)
{
	struct srcpos pos = SRCPOS_LINE(c->ctx->path, lineno);

	if (f->v || said_nothing(p, n))
		return;
	f->v = str(c, p, n);
	f->src = pos;
	c->found = true;
	c->events++;
}

static void add_gpu(struct cenv *c, const char *p, size_t n)
{
	c->gpus_reported = true;
	c->found = true;
	if (c->env.ngpus == MAX_GPUS)
		return;
	xgrow(&c->env.gpus, &c->cap_gpus, c->env.ngpus + 1, sizeof(*c->env.gpus));
	c->env.gpus[c->env.ngpus++] = str(c, p, n);
	c->events++;
}

static void add_lib(struct cenv *c, const char *name, size_t nn, const char *ver, size_t vn)
{
	const char *k;

	if (c->env.nlibs == MAX_LIBS)
		return;
	k = str(c, name, nn);
	for (size_t i = 0; i < c->env.nlibs; i++)
		if (c->env.libs[i].name == k)
			return;		/* pip's line comes before conda's: it stays */
	xgrow(&c->env.libs, &c->cap_libs, c->env.nlibs + 1, sizeof(*c->env.libs));
	c->env.libs[c->env.nlibs++] = (struct env_library){ k, str(c, ver, vn) };
	c->found = true;
	c->events++;
}

/*
 * "2.8.0.dev20250327+cu126": the version without its local part into *f, and
 * "12.6" from "+cu126" into c->suffix_cuda (the line "CUDA used to build
 * PyTorch" says it better, when there is one).
 */
static void torch_version(struct cenv *c, struct fact_str *f, const char *p, size_t n,
			  int64_t lineno)
{
	const char *plus = memchr(p, '+', n);
	size_t vn = plus ? (size_t)(plus - p) : n;
	char cuda[16];

	set(c, f, p, vn, lineno);
	if (!plus || n - vn < 5 || n - vn > 7 || memcmp(plus, "+cu", 3))
		return;
	for (size_t i = vn + 3; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return;
	/* the last digit is the minor version: cu126 is 12.6, cu92 is 9.2 */
	snprintf(cuda, sizeof(cuda), "%.*s.%c", (int)(n - vn - 4), plus + 3, p[n - 1]);
	set(c, &c->suffix_cuda, cuda, strlen(cuda), lineno);
}

static void gpu_models(struct cenv *c, const char *v, size_t n)
{
	const char *name;
	size_t nn;

	c->gpus_reported = true;
	c->found = true;
	if (!n) {
		c->list = L_GPUS;
	} else if (matches(P_GPU_ITEM, v, n) && group(2, v, &name, &nn)) {
		add_gpu(c, name, nn);
	} else if (!said_nothing(v, n)) {
		add_gpu(c, v, n);	/* older reports: the bare name */
	}
}

static void cudnn_version(struct cenv *c, const char *v, size_t n, int64_t lineno)
{
	c->cudnn_line = lineno;
	if (n >= 8 && !memcmp(v, "Probably", 8))
		c->list = L_CUDNN;
	else if (matches(P_VERSION, v, n))
		set(c, &c->env.cudnn, v, n, lineno);
	c->found = true;
}

/* Keys whose value is the fact as printed. */
static const struct plain_key {
	const char *prefix;
	size_t field;		/* offsetof(struct env_info, the fact) */
} plain_keys[] = {
	{ "CUDA used", offsetof(struct env_info, torch_cuda) },
	{ "CUDA runtime", offsetof(struct env_info, cuda_runtime) },
	{ "Nvidia driver", offsetof(struct env_info, driver) },
	{ "ROCM used", offsetof(struct env_info, rocm_build) },
	{ "HIP runtime", offsetof(struct env_info, hip_runtime) },
	{ "MIOpen runtime", offsetof(struct env_info, miopen) },
	{ "ROCM Version", offsetof(struct env_info, rocm_version) },	/* vLLM's */
};

static bool plain_key(struct cenv *c, const char *k, const char *v, size_t vn, int64_t lineno)
{
	for (size_t i = 0; i < sizeof(plain_keys) / sizeof(plain_keys[0]); i++) {
		const struct plain_key *pk = &plain_keys[i];

		if (!memcmp(k, pk->prefix, strlen(pk->prefix))) {
			set(c, (struct fact_str *)((char *)&c->env + pk->field), v, vn, lineno);
			return true;
		}
	}
	return false;
}

static void key_line(struct cenv *c, const char *line, int64_t lineno)
{
	const char *k, *v;
	size_t kn, vn;

	group(1, line, &k, &kn);
	if (!group(2, line, &v, &vn))
		vn = 0, v = line;
	if (plain_key(c, k, v, vn, lineno)) {
		return;
	} else if (!memcmp(k, "PyTorch", 7)) {
		set(c, &c->env.torch_full, v, vn, lineno);
		torch_version(c, &c->env.torch, v, vn, lineno);
	} else if (!memcmp(k, "GPU models", 10)) {
		gpu_models(c, v, vn);
	} else if (!memcmp(k, "cuDNN", 5)) {
		cudnn_version(c, v, vn, lineno);
	} else if (!memcmp(k, "vLLM", 4) && vn && v[0] >= '0' && v[0] <= '9') {
		add_lib(c, "vllm", 4, v, vn);
	}
}

/* A line inside a list opened by the key above it; false when the list has ended. */
static bool list_line(struct cenv *c, const char *line, size_t len)
{
	const char *p;
	size_t n;

	if (c->list == L_GPUS && matches(P_GPU_ITEM, line, len) && group(2, line, &p, &n)) {
		add_gpu(c, p, n);
		return true;
	}
	if (c->list != L_CUDNN || !matches(P_CUDNN_PATH, line, len))
		return false;
	if (c->ncudnn < MAX_CUDNN && matches(P_CUDNN_VERSION, line, len) && group(1, line, &p, &n)) {
		const char *v = str(c, p, n);
		size_t i;

		for (i = 0; i < c->ncudnn && c->cudnn[i] != v; i++)
			;
		if (i == c->ncudnn)
			c->cudnn[c->ncudnn++] = v;
	}
	return true;
}

/*
 * An arch list as blank-separated words: "sm_50 sm_90" from get_arch_list()'s
 * "'sm_50', 'sm_90'", "8.0 9.0+PTX" from TORCH_CUDA_ARCH_LIST's "8.0;9.0+PTX".
 */
static void arch_words(struct cenv *c, struct fact_str *f, const char *p, size_t n,
		       int64_t lineno)
{
	char out[512];
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < sizeof(out); i++) {
		bool sep = strchr("' ,;\t", p[i]) != NULL;

		if (!sep)
			out[k++] = p[i];
		else if (k && out[k - 1] != ' ')
			out[k++] = ' ';
	}
	while (k && out[k - 1] == ' ')
		k--;
	set(c, f, out, k, lineno);
}

static void arch_warning(struct cenv *c, const char *line, int64_t lineno)
{
	struct env_arch_warning *w;
	const char *p;
	size_t n;

	c->found = true;
	if (c->env.narch_warnings == MAX_WARNINGS)
		return;
	xgrow(&c->env.arch_warnings, &c->cap_warn, c->env.narch_warnings + 1,
	      sizeof(*c->env.arch_warnings));
	w = &c->env.arch_warnings[c->env.narch_warnings++];
	*w = (struct env_arch_warning){ .src = SRCPOS_LINE(c->ctx->path, lineno) };
	if (group(1, line, &p, &n) && n)
		w->gpu = str(c, p, n);
	if (group(2, line, &p, &n))
		w->capability = str(c, p, n);
	c->events++;
}

/* The supported list belongs to the warning printed just before it. */
static void supports(struct cenv *c, const char *line)
{
	struct env_arch_warning *w;
	const char *p;
	size_t n;

	if (!c->env.narch_warnings)
		return;
	w = &c->env.arch_warnings[c->env.narch_warnings - 1];
	if (!w->supported && group(1, line, &p, &n))
		w->supported = str(c, p, n);
}

static void *cenv_open(struct ingest_ctx *ctx)
{
	struct cenv *c;

	if (!compile_patterns())
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->ctx = ctx;
	return c;
}

static void no_kernel_image(struct cenv *c, int64_t lineno)
{
	c->found = true;
	if (c->env.no_kernel_image)
		return;
	c->env.no_kernel_image = true;
	c->env.no_kernel_image_src = SRCPOS_LINE(c->ctx->path, lineno);
	c->events++;
}

static void lib_line(struct cenv *c, const char *line, int64_t lineno)
{
	const char *p, *v;
	size_t n, vn;

	group(1, line, &p, &n);
	group(2, line, &v, &vn);
	add_lib(c, p, n, v, vn);
	if (n == 5 && !memcmp(p, "torch", 5)) {
		set(c, &c->pip_torch_full, v, vn, lineno);
		torch_version(c, &c->pip_torch, v, vn, lineno);
	}
}

static int cenv_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct cenv *c = st;
	const char *p;
	size_t n;

	if (c->list != L_NONE && list_line(c, line, len))
		return 0;
	c->list = L_NONE;
	if (matches(P_KEY, line, len))
		key_line(c, line, lineno);
	else if (matches(P_LIB, line, len))
		lib_line(c, line, lineno);
	else if (matches(P_ARCHS, line, len) && group(1, line, &p, &n))
		set(c, &c->env.cuda_archs, p, n, lineno);
	if (memmem(line, len, "_ARCH_LIST", 10) && matches(P_ARCH_ENV, line, len) &&
	    group(1, line, &p, &n))
		arch_words(c, &c->env.cuda_archs, p, n, lineno);
	if (memmem(line, len, "'sm_", 4) && matches(P_ARCH_LIST, line, len) &&
	    group(1, line, &p, &n))
		arch_words(c, &c->env.arch_list, p, n, lineno);
	/* these two appear in any log: cheap tests first */
	if (memmem(line, len, "no kernel image", 15) && matches(P_NO_KERNEL, line, len))
		no_kernel_image(c, lineno);
	if (memmem(line, len, "CUDA capabilit", 14)) {
		if (matches(P_ARCH_WARN, line, len))
			arch_warning(c, line, lineno);
		if (matches(P_SUPPORTS, line, len))
			supports(c, line);
	}
	return 0;
}

static void *copy_to_arena(struct arena *a, const void *p, size_t n, size_t size)
{
	void *q;

	if (!n)
		return NULL;
	q = arena_alloc(a, n * size);
	memcpy(q, p, n * size);
	return q;
}

/* A list of "sm_50 sm_60" words as strings. */
static void info_words(struct arena *a, struct info *parent, const char *key, const char *s)
{
	struct info *arr;

	if (!s) {
		info_null(a, parent, key);
		return;
	}
	arr = info_arr(a, parent, key);
	while (*s) {
		size_t n;

		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		if (n) {
			char *w = arena_strndup(a, s, n);

			info_str(a, arr, NULL, w);
		}
		s += n;
	}
}

static void info_warning(struct arena *a, struct info *o, const char *key,
			 const struct env_arch_warning *w)
{
	struct info *x;

	if (!w) {
		info_null(a, o, key);
		return;
	}
	x = info_obj(a, o, key);
	info_str(a, x, "gpu", w->gpu);
	info_str(a, x, "capability", w->capability);
	info_words(a, x, "supported", w->supported);
}

static void publish(struct cenv *c)
{
	struct arena *a = c->ctx->arena;
	struct info *o = info_obj(a, c->ctx->info, "env");
	const struct env_info *e = &c->env;
	struct info *arr;

	info_str(a, o, "torch", e->torch.v);
	info_str(a, o, "torch_cuda", e->torch_cuda.v);
	info_str(a, o, "cuda_runtime", e->cuda_runtime.v);
	info_str(a, o, "driver", e->driver.v);
	info_str(a, o, "cudnn", e->cudnn.v);
	if (c->gpus_reported) {
		arr = info_arr(a, o, "gpus");
		for (size_t i = 0; i < e->ngpus; i++)
			info_str(a, arr, NULL, e->gpus[i]);
	} else {
		info_null(a, o, "gpus");
	}
	info_warning(a, o, "arch_warning", e->narch_warnings ? &e->arch_warnings[0] : NULL);
	info_bool(a, o, "no_kernel_image", e->no_kernel_image);
	if (e->nlibs) {
		arr = info_obj(a, o, "libraries");
		for (size_t i = 0; i < e->nlibs; i++)
			info_str(a, arr, e->libs[i].name, e->libs[i].version);
	} else {
		info_null(a, o, "libraries");
	}
	if (c->ncudnn) {
		arr = info_arr(a, o, "cudnn_candidates");
		for (size_t i = 0; i < c->ncudnn; i++)
			info_str(a, arr, NULL, c->cudnn[i]);
	} else {
		info_null(a, o, "cudnn_candidates");
	}
	info_str(a, o, "cuda_archs", e->cuda_archs.v);
	info_str(a, o, "torch_full", e->torch_full.v);
	info_str(a, o, "arch_list", e->arch_list.v);
	info_str(a, o, "rocm_build", e->rocm_build.v);
	info_str(a, o, "hip_runtime", e->hip_runtime.v);
	info_str(a, o, "miopen", e->miopen.v);
	info_str(a, o, "rocm_version", e->rocm_version.v);
	arr = info_arr(a, o, "arch_warnings");
	for (size_t i = 0; i < e->narch_warnings; i++)
		info_warning(a, arr, NULL, &e->arch_warnings[i]);
}

static void commit_fact(struct trial *t, struct fact_str *dst, const struct fact_str *src)
{
	if (src->v)
		fact_set_str(t, dst, src->v, &src->src);
}

/* This file's values into run->env: facts the first file set stay, warnings add up. */
static void commit(struct cenv *c)
{
	struct trial *t = c->ctx->trial;
	struct env_info *r = &c->ctx->run->env;
	const struct env_info *e = &c->env;
	struct env_arch_warning *w;

	commit_fact(t, &r->torch, &e->torch);
	commit_fact(t, &r->torch_cuda, &e->torch_cuda);
	commit_fact(t, &r->cuda_runtime, &e->cuda_runtime);
	commit_fact(t, &r->driver, &e->driver);
	commit_fact(t, &r->cudnn, &e->cudnn);
	commit_fact(t, &r->cuda_archs, &e->cuda_archs);
	commit_fact(t, &r->torch_full, &e->torch_full);
	commit_fact(t, &r->arch_list, &e->arch_list);
	commit_fact(t, &r->rocm_build, &e->rocm_build);
	commit_fact(t, &r->hip_runtime, &e->hip_runtime);
	commit_fact(t, &r->miopen, &e->miopen);
	commit_fact(t, &r->rocm_version, &e->rocm_version);
	if (!r->ngpus && e->ngpus) {
		r->gpus = copy_to_arena(&t->arena, e->gpus, e->ngpus, sizeof(*e->gpus));
		r->ngpus = e->ngpus;
	}
	if (!r->nlibs && e->nlibs) {
		r->libs = copy_to_arena(&t->arena, e->libs, e->nlibs, sizeof(*e->libs));
		r->nlibs = e->nlibs;
	}
	if (e->narch_warnings) {
		w = arena_alloc(&t->arena, (r->narch_warnings + e->narch_warnings) * sizeof(*w));
		if (r->narch_warnings)
			memcpy(w, r->arch_warnings, r->narch_warnings * sizeof(*w));
		memcpy(w + r->narch_warnings, e->arch_warnings, e->narch_warnings * sizeof(*w));
		for (size_t i = r->narch_warnings; i < r->narch_warnings + e->narch_warnings; i++)
			w[i].src.file = intern_str(&t->strings, w[i].src.file);
		r->arch_warnings = w;
		r->narch_warnings += e->narch_warnings;
	}
	if (e->no_kernel_image && !r->no_kernel_image) {
		r->no_kernel_image = true;
		r->no_kernel_image_src = e->no_kernel_image_src;
	}
}

static int cenv_finish(void *st)
{
	struct cenv *c = st;

	if (!c->found)
		return 0;
	/* the wheel's CUDA from "+cu126" and torch from pip's list, when nothing said better */
	if (!c->env.torch.v) {
		c->env.torch = c->pip_torch;
		c->env.torch_full = c->pip_torch_full;
	}
	if (!c->env.torch_cuda.v)
		c->env.torch_cuda = c->suffix_cuda;
	if (!c->env.cudnn.v && c->ncudnn == 1) {
		c->env.cudnn.v = c->cudnn[0];
		c->env.cudnn.src = SRCPOS_LINE(c->ctx->path, c->cudnn_line);
	}
	publish(c);
	commit(c);
	c->ctx->src->events += c->events;
	return 0;
}

static bool cenv_found(void *st)
{
	return ((struct cenv *)st)->found;
}

static void cenv_free(void *st)
{
	struct cenv *c = st;

	xgrow_free(&c->env.gpus, &c->cap_gpus, sizeof(*c->env.gpus));
	xgrow_free(&c->env.libs, &c->cap_libs, sizeof(*c->env.libs));
	xgrow_free(&c->env.arch_warnings, &c->cap_warn, sizeof(*c->env.arch_warnings));
	free(c);
}

const struct reader collect_env_reader = {
	.name = "collect-env",
	.input = READ_LINES,
	.open = cenv_open,
	.line = cenv_line,
	.finish = cenv_finish,
	.found = cenv_found,
	.free = cenv_free,
};
