/*
 * The environment report reader (ingest/collect_env.c), driven through
 * ingest_file() on every file of ../shared/realdata/collect_env and on
 * hand-made ones under tests/data/collect_env. Expected values were read off
 * the files; line numbers and counts come from grep -n / grep -c.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/ingest.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

struct env_loaded {
	struct trial *t;
	struct run *r;
	struct arena a;
	struct ingest_file f;
	struct info *env;	/* the file's "env" object; NULL when none */
};

static char tmpdir[256];

static void env_load(struct env_loaded *l, const char *path)
{
	l->t = trial_new();
	l->r = trial_add_run(l->t, "t", ".");
	l->a = (struct arena)ARENA_INIT;
	assert_int_equal(ingest_file(l->t, l->r, path, &l->a, &l->f), 0);
	l->env = info_get(l->f.info, "env");
}

static void env_unload(struct env_loaded *l)
{
	arena_release(&l->a);
	trial_free(l->t);
}

static const char *real(const char *name)
{
	static char path[1024];
	const char *shared = getenv("SHARED");

	if (!shared || !*shared)
		return NULL;
	snprintf(path, sizeof(path), "%s/realdata/collect_env/%s", shared, name);
	return access(path, R_OK) == 0 ? path : NULL;
}

static const char *data(const char *name)
{
	static char path[1024];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/data/collect_env/%s", top && *top ? top : ".",
		 name);
	return path;
}

/* A string member, or NULL for a null one; fails on anything else. */
static const char *sval(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	if (v->type == INFO_NULL)
		return NULL;
	assert_int_equal(v->type, INFO_STR);
	return v->v.s;
}

static void str_is(const struct info *o, const char *key, const char *want)
{
	const char *got = sval(o, key);

	if (!want && got)
		fail_msg("%s: got \"%s\", want null", key, got);
	if (want && !got)
		fail_msg("%s: got null, want \"%s\"", key, want);
	if (want)
		assert_string_equal(got, want);
}

static void is_null(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_NULL);
}

static size_t count(const struct info *arr)
{
	size_t n = 0;

	assert_non_null(arr);
	for (const struct info *e = arr->child; e; e = e->next)
		n++;
	return n;
}

/* The words of an array of strings, joined by blanks. */
static const char *joined(const struct info *arr, char *out, size_t cap)
{
	size_t k = 0;

	out[0] = '\0';
	for (const struct info *e = arr->child; e; e = e->next) {
		assert_int_equal(e->type, INFO_STR);
		k += (size_t)snprintf(out + k, cap - k, "%s%s", k ? " " : "", e->v.s);
		assert_true(k < cap);
	}
	return out;
}

/* The torch, torch_cuda, cuda_runtime, driver, cudnn of a report, in the file and in the model. */
static void versions_are(struct env_loaded *l, const char *torch, const char *cuda,
			 const char *runtime, const char *driver, const char *cudnn)
{
	assert_non_null(l->env);
	str_is(l->env, "torch", torch);
	str_is(l->env, "torch_cuda", cuda);
	str_is(l->env, "cuda_runtime", runtime);
	str_is(l->env, "driver", driver);
	str_is(l->env, "cudnn", cudnn);
	assert_true(torch ? l->r->env.torch.v && !strcmp(l->r->env.torch.v, torch) :
			    !l->r->env.torch.v);
	assert_true(cuda ? l->r->env.torch_cuda.v && !strcmp(l->r->env.torch_cuda.v, cuda) :
			   !l->r->env.torch_cuda.v);
	assert_true(driver ? l->r->env.driver.v && !strcmp(l->r->env.driver.v, driver) :
			     !l->r->env.driver.v);
}

/* n GPUs, all named `name`. */
static void gpus_are(struct env_loaded *l, size_t n, const char *name)
{
	const struct info *arr = info_get(l->env, "gpus");

	assert_int_equal(arr->type, INFO_ARR);
	assert_int_equal(count(arr), n);
	for (const struct info *e = arr->child; e; e = e->next)
		assert_string_equal(e->v.s, name);
	assert_int_equal(l->r->env.ngpus, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(l->r->env.gpus[i], name);
}

static void test_real_h100_dev(void **state)
{
	const char *p = real("pytorch-150852_8xH100_torch2.8.0.dev_cu126_driver535.txt");
	struct env_loaded l;
	char buf[256];

	(void)state;
	if (!p)
		skip_without_shared();
	env_load(&l, p);
	assert_string_equal(format_name(l.f.sniff.format), "collect-env");
	/* libcudnn.so.8.8.0 and libcudnn.so.9.6.0 both listed: no single version */
	versions_are(&l, "2.8.0.dev20250327", "12.6", "12.6.85", "535.154.05", NULL);
	assert_string_equal(joined(info_get(l.env, "cudnn_candidates"), buf, sizeof(buf)),
			    "8.8.0 9.6.0");
	gpus_are(&l, 8, "NVIDIA H100");
	is_null(l.env, "arch_warning");
	is_null(l.env, "libraries");
	assert_false(info_get(l.env, "no_kernel_image")->v.b);
	assert_int_equal(l.r->env.torch.src.line, 3);
	/* the full version keeps the wheel's CUDA build */
	str_is(l.env, "torch_full", "2.8.0.dev20250327+cu126");
	assert_string_equal(l.r->env.torch_full.v, "2.8.0.dev20250327+cu126");
	assert_int_equal(l.r->env.torch_full.src.line, 3);
	/* "ROCM used to build PyTorch: N/A", "HIP runtime version: N/A" are no values */
	is_null(l.env, "rocm_build");
	is_null(l.env, "hip_runtime");
	is_null(l.env, "miopen");
	is_null(l.env, "arch_list");
	env_unload(&l);
}

static void test_real_h200(void **state)
{
	const char *p = real("vllm-14537_8xH200_torch2.5.1_cu124_driver550.txt");
	struct env_loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	env_load(&l, p);
	/* seven cuDNN libraries, all 9.2.1 */
	versions_are(&l, "2.5.1", "12.4", "12.5.82", "550.90.07", "9.2.1");
	gpus_are(&l, 8, "NVIDIA H200");
	assert_int_equal(l.r->env.cudnn.src.line, 29);
	env_unload(&l);
}

static void test_real_sectioned_a100(void **state)
{
	const char *p = real("vllm-27430_sectioned-format_A100_torch2.8.0_cu128.txt");
	struct env_loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	env_load(&l, p);
	/* the excerpt stops after the GPU list: no driver, no cuDNN */
	versions_are(&l, "2.8.0", "12.8", "12.1.105", NULL, NULL);
	gpus_are(&l, 1, "NVIDIA A100-SXM4-80GB");
	is_null(l.env, "libraries");
	env_unload(&l);
}

static void test_real_sectioned_b300(void **state)
{
	const char *p = real("vllm-28707_B300_versions-and-gpu-topology_sectioned.txt");
	struct env_loaded l;
	const struct info *libs;

	(void)state;
	if (!p)
		skip_without_shared();
	env_load(&l, p);
	/* torch only from pip's list, with its local part dropped; no "+cuXYZ" */
	versions_are(&l, "2.9.0a0", NULL, NULL, NULL, NULL);
	is_null(l.env, "gpus");
	libs = info_get(l.env, "libraries");
	/* grep -c '^\[pip3\]' = 25, plus vLLM Version */
	assert_int_equal(count(libs), 26);
	assert_int_equal(l.r->env.nlibs, 26);
	str_is(libs, "torch", "2.9.0a0+145a3a7bda.nv25.10");
	str_is(libs, "triton", "3.5.1");
	str_is(libs, "nvidia-cudnn-frontend", "1.14.1");
	str_is(libs, "vllm", "0.11.0");
	str_is(l.env, "cuda_archs", "7.5 8.0 8.6 9.0 10.0 12.0+PTX");
	assert_string_equal(l.r->env.cuda_archs.v, "7.5 8.0 8.6 9.0 10.0 12.0+PTX");
	env_unload(&l);
}

static void test_real_libraries_block(void **state)
{
	const char *p = real("vllm-pr4211_versions-of-relevant-libraries_block.txt");
	struct env_loaded l;
	const struct info *libs;

	(void)state;
	if (!p)
		skip_without_shared();
	env_load(&l, p);
	versions_are(&l, "2.2.1", NULL, NULL, NULL, NULL);
	libs = info_get(l.env, "libraries");
	assert_int_equal(count(libs), 9);	/* grep -c '^\[pip3\]' */
	str_is(libs, "torch", "2.2.1");
	str_is(libs, "nvidia-nccl-cu12", "2.19.3");
	str_is(libs, "vllm-nccl-cu12", "2.18.1.0.3.0");
	str_is(libs, "mypy", "0.991");
	is_null(l.env, "gpus");
	env_unload(&l);
}

static void test_real_same_line_gpu(void **state)
{
	const char *p = real("vllm-pr9293_single-GPU-on-same-line_RTX4070_torch2.4.0.txt");
	struct env_loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	env_load(&l, p);
	versions_are(&l, "2.4.0", "12.1", "12.4.131", "551.88", NULL);	/* cuDNN: Could not collect */
	gpus_are(&l, 1, "NVIDIA GeForce RTX 4070 Laptop GPU");
	is_null(l.env, "cudnn_candidates");
	env_unload(&l);
}

static void warning_is(const struct info *w, const struct env_arch_warning *m, int64_t line,
		       const char *supported)
{
	char buf[256];

	str_is(w, "gpu", "NVIDIA GeForce RTX 5090");
	str_is(w, "capability", "sm_120");
	assert_string_equal(joined(info_get(w, "supported"), buf, sizeof(buf)), supported);
	assert_string_equal(m->gpu, "NVIDIA GeForce RTX 5090");
	assert_string_equal(m->capability, "sm_120");
	assert_string_equal(m->supported, supported);
	assert_int_equal(m->src.line, line);
}

/* Four sources: plain, plain again, indented (cu118's sm_37), journald-prefixed; then no kernel image. */
static void test_real_sm120(void **state)
{
	const char *p = real("sm120-not-compatible-warnings_4-issues.txt");
	struct env_loaded l;
	const struct info *w;

	(void)state;
	if (!p)
		skip_without_shared();
	env_load(&l, p);
	assert_non_null(l.env);
	versions_are(&l, NULL, NULL, NULL, NULL, NULL);
	w = info_get(l.env, "arch_warnings");
	assert_int_equal(count(w), 4);
	assert_int_equal(l.r->env.narch_warnings, 4);
	w = w->child;
	warning_is(w, &l.r->env.arch_warnings[0], 3, "sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90");
	w = w->next;
	warning_is(w, &l.r->env.arch_warnings[1], 10, "sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90");
	w = w->next;
	warning_is(w, &l.r->env.arch_warnings[2], 15, "sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90");
	w = w->next;
	warning_is(w, &l.r->env.arch_warnings[3], 20, "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90");
	/* "arch_warning" is the first of them */
	warning_is(info_get(l.env, "arch_warning"), &l.r->env.arch_warnings[0], 3,
		   "sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90");
	assert_true(info_get(l.env, "no_kernel_image")->v.b);
	assert_true(l.r->env.no_kernel_image);
	assert_int_equal(l.r->env.no_kernel_image_src.line, 23);
	env_unload(&l);
}

/* The classic collect_env layout: lscpu's block between, pip before conda, cuDNN as one version. */
static void test_classic(void **state)
{
	struct env_loaded l;
	const struct info *libs;

	(void)state;
	env_load(&l, data("classic-b200.txt"));
	versions_are(&l, "2.8.0.dev20250408", "12.8", "12.8.93", "570.124.06", "9.8.0");
	gpus_are(&l, 2, "NVIDIA B200");	/* the "GPU 0:" after CPU: is no GPU */
	libs = info_get(l.env, "libraries");
	assert_int_equal(count(libs), 5);
	str_is(libs, "torch", "2.8.0.dev20250408+cu128");	/* pip's, not conda's 2.7.0 */
	str_is(libs, "pytorch-cuda", "12.8");
	str_is(libs, "mkl", "2023.1.0");
	str_is(l.env, "torch_full", "2.8.0.dev20250408+cu128");
	env_unload(&l);
}

/* vLLM's sectioned report on ROCm (vllm-project/vllm#19579): its "ROCM Version" line. */
static void test_vllm_rocm_version(void **state)
{
	struct env_loaded l;

	(void)state;
	env_load(&l, data("vllm-19579-rocm-version.txt"));
	str_is(l.env, "rocm_version", "6.3.42133-1b9c17779");
	assert_string_equal(l.r->env.rocm_version.v, "6.3.42133-1b9c17779");
	assert_int_equal(l.r->env.rocm_version.src.line, 1);
	is_null(l.env, "rocm_build");	/* not the PyTorch build's ROCm */
	is_null(l.env, "hip_runtime");
	env_unload(&l);
}

/* A ROCm build (pytorch/pytorch#44106): the ROCm, HIP and MIOpen versions, no CUDA. */
static void test_rocm(void **state)
{
	struct env_loaded l;

	(void)state;
	env_load(&l, data("rocm-pytorch-44106.txt"));
	versions_are(&l, "1.7.0a0", NULL, NULL, NULL, NULL);
	str_is(l.env, "torch_full", "1.7.0a0+9ddd3df");
	str_is(l.env, "rocm_build", "3.7.20315-077bcfa0");
	str_is(l.env, "hip_runtime", "3.18.2");
	str_is(l.env, "miopen", "2.6.0");
	assert_string_equal(l.r->env.rocm_build.v, "3.7.20315-077bcfa0");
	assert_int_equal(l.r->env.rocm_build.src.line, 5);
	assert_string_equal(l.r->env.hip_runtime.v, "3.18.2");
	assert_int_equal(l.r->env.hip_runtime.src.line, 17);
	assert_string_equal(l.r->env.miopen.v, "2.6.0");
	assert_int_equal(l.r->env.miopen.src.line, 18);
	gpus_are(&l, 1, "Device 66a1");
	env_unload(&l);
}

/*
 * A shell trace then a report: TORCH_CUDA_ARCH_LIST's "8.0;9.0+PTX" as words,
 * the printed get_arch_list(), and 2.6.0+cu126 whole beside "2.6.0".
 */
static void test_arch_list(void **state)
{
	struct env_loaded l;

	(void)state;
	env_load(&l, data("cu126-arch-list.log"));
	versions_are(&l, "2.6.0", "12.6", "12.6.85", "570.86.16", NULL);
	str_is(l.env, "torch_full", "2.6.0+cu126");
	assert_string_equal(l.r->env.torch_full.v, "2.6.0+cu126");
	assert_int_equal(l.r->env.torch_full.src.line, 6);
	str_is(l.env, "cuda_archs", "8.0 9.0+PTX");
	assert_int_equal(l.r->env.cuda_archs.src.line, 1);
	str_is(l.env, "arch_list", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90");
	assert_string_equal(l.r->env.arch_list.v, "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90");
	assert_int_equal(l.r->env.arch_list.src.line, 4);
	is_null(l.env, "rocm_build");
	gpus_are(&l, 1, "NVIDIA GeForce RTX 5090");
	env_unload(&l);
}

/* A CPU build: "None", "No CUDA" are not values; the GPU list is reported empty. */
static void test_no_cuda(void **state)
{
	struct env_loaded l;

	(void)state;
	env_load(&l, data("no-cuda.txt"));
	versions_are(&l, "2.3.0", NULL, NULL, NULL, NULL);
	assert_int_equal(count(info_get(l.env, "gpus")), 0);
	assert_int_equal(count(info_get(l.env, "libraries")), 1);	/* [conda] Could not collect */
	env_unload(&l);
}

/* Pre-2.0 wording on one line, after a UserWarning prefix; torch.AcceleratorError's no kernel image. */
static void test_old_warning(void **state)
{
	struct env_loaded l;
	const struct info *w;
	char buf[128];

	(void)state;
	env_load(&l, data("old-warning.log"));
	w = info_get(l.env, "arch_warning");
	str_is(w, "gpu", "GeForce RTX 3090");
	str_is(w, "capability", "sm_86");
	assert_string_equal(joined(info_get(w, "supported"), buf, sizeof(buf)),
			    "sm_37 sm_50 sm_60 sm_70");
	assert_true(info_get(l.env, "no_kernel_image")->v.b);
	is_null(l.env, "torch");
	is_null(l.env, "gpus");
	env_unload(&l);
}

/* Lines that resemble a report's but are not: nothing read. */
static void test_lookalike(void **state)
{
	struct env_loaded l;

	(void)state;
	env_load(&l, data("lookalike.log"));
	assert_null(l.env);
	assert_null(l.r->env.torch.v);
	assert_int_equal(l.r->env.ngpus, 0);
	env_unload(&l);
}

/* ---- the same file in other clothes ---- */

static void digest_info(const struct info *n, struct buf *out)
{
	if (n->key)
		buf_addf(out, "%s=", n->key);
	switch (n->type) {
	case INFO_NULL:
		buf_addstr(out, "null");
		break;
	case INFO_BOOL:
		buf_addstr(out, n->v.b ? "true" : "false");
		break;
	case INFO_INT:
		buf_addf(out, "%lld", (long long)n->v.i);
		break;
	case INFO_NUM:
		buf_addf(out, "%.17g", n->v.d);
		break;
	case INFO_STR:
		buf_addf(out, "\"%s\"", n->v.s);
		break;
	default:
		buf_addch(out, '{');
		for (const struct info *c = n->child; c; c = c->next) {
			digest_info(c, out);
			buf_addch(out, ',');
		}
		buf_addch(out, '}');
	}
}

static char *digest(const char *path)
{
	struct env_loaded l;
	struct buf b;

	buf_init(&b, 0);
	env_load(&l, path);
	assert_non_null(l.env);
	digest_info(l.env, &b);
	buf_addf(&b, "|warnings=%zu", l.r->env.narch_warnings);
	env_unload(&l);
	return buf_detach(&b);
}

static const char *spit(const char *name, const char *p, size_t n)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
	return path;
}

static const char *gzip_to(const char *name, const char *p, size_t n)
{
	static char path[512];
	gzFile gz;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, p, (unsigned)n), (int)n);
	gzclose(gz);
	return path;
}

/* p with `ins` and a newline put before its line `at` (1-based); line ends CRLF when crlf. */
static char *rewrite(const char *p, size_t n, int at, const char *ins, size_t insn, bool crlf,
		     size_t *out)
{
	char *q = malloc(2 * n + insn + 4);
	size_t k = 0;
	int line = 1;

	assert_non_null(q);
	for (size_t i = 0; i <= n; i++) {
		if (line == at && ins) {
			memcpy(q + k, ins, insn);
			k += insn;
			if (crlf)
				q[k++] = '\r';
			q[k++] = '\n';
			ins = NULL;
		}
		if (i == n)
			break;
		if (p[i] == '\n') {
			if (crlf)
				q[k++] = '\r';
			line++;
		}
		q[k++] = p[i];
	}
	*out = k;
	return q;
}

static const char *const reals[] = {
	"pytorch-150852_8xH100_torch2.8.0.dev_cu126_driver535.txt",
	"sm120-not-compatible-warnings_4-issues.txt",
	"vllm-14537_8xH200_torch2.5.1_cu124_driver550.txt",
	"vllm-27430_sectioned-format_A100_torch2.8.0_cu128.txt",
	"vllm-28707_B300_versions-and-gpu-topology_sectioned.txt",
	"vllm-pr4211_versions-of-relevant-libraries_block.txt",
	"vllm-pr9293_single-GPU-on-same-line_RTX4070_torch2.4.0.txt",
};

static void same(const char *name, const char *what, const char *want, const char *path)
{
	char *got = digest(path);

	if (strcmp(got, want))
		fail_msg("%s as %s:\n  got  %s\n  want %s", name, what, got, want);
	free(got);
}

/*
 * Every real file as CRLF, gzip, with binary noise put before its first line
 * and with a 10 MB line there: the same values come out. (Line 1 is the
 * place that splits no list of the report.)
 */
static void test_variants(void **state)
{
	static const char noise[] = "\x81\xfe\xc3\x28\x01\x02 \xff GPU 9: \x7f\x1b[0m [pip3] \xa0";
	const size_t big = 10 * 1000 * 1000;
	char *line = malloc(big);
	int seen = 0;

	(void)state;
	assert_non_null(line);
	for (size_t i = 0; i < big; i++)
		line[i] = (char)('a' + i % 26);
	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++) {
		const char *p = real(reals[i]);
		char *want, *src, *q;
		size_t n, m;

		if (!p)
			continue;
		seen++;
		want = digest(p);
		src = read_file(p, &n);
		q = rewrite(src, n, 0, NULL, 0, true, &m);
		same(reals[i], "crlf", want, spit("crlf", q, m));
		free(q);
		same(reals[i], "gzip", want, gzip_to("gz.gz", src, n));
		q = rewrite(src, n, 1, noise, sizeof(noise) - 1, false, &m);
		same(reals[i], "noise", want, spit("noise", q, m));
		free(q);
		q = rewrite(src, n, 1, line, big, false, &m);
		same(reals[i], "a 10 MB line", want, spit("long", q, m));
		free(q);
		free(src);
		free(want);
	}
	free(line);
	if (!seen)
		skip_without_shared();
}

/* A log cut inside the supported list, and one cut inside a GPU list: what is whole is kept. */
static void test_cut(void **state)
{
	const char *p = real("sm120-not-compatible-warnings_4-issues.txt");
	struct env_loaded l;
	size_t n;
	char *src;
	const char *cut;

	(void)state;
	if (!p || !real("vllm-14537_8xH200_torch2.5.1_cu124_driver550.txt"))
		skip_without_shared();
	src = read_file(real("sm120-not-compatible-warnings_4-issues.txt"), &n);
	cut = strstr(src, "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_61 sm_70");
	assert_non_null(cut);
	env_load(&l, spit("cut", src, (size_t)(cut - src) + 40));	/* "... supports CUDA capa" */
	assert_int_equal(l.r->env.narch_warnings, 1);
	assert_null(l.r->env.arch_warnings[0].supported);
	is_null(info_get(l.env, "arch_warning"), "supported");
	env_unload(&l);
	free(src);

	src = read_file(real("vllm-14537_8xH200_torch2.5.1_cu124_driver550.txt"), &n);
	cut = strstr(src, "GPU 3: NVIDIA H200");
	assert_non_null(cut);
	env_load(&l, spit("cut", src, (size_t)(cut - src) + 5));	/* "GPU 3" */
	gpus_are(&l, 3, "NVIDIA H200");
	str_is(l.env, "driver", NULL);
	env_unload(&l);
	free(src);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_collect_env.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_h100_dev),
		cmocka_unit_test(test_real_h200),
		cmocka_unit_test(test_real_sectioned_a100),
		cmocka_unit_test(test_real_sectioned_b300),
		cmocka_unit_test(test_real_libraries_block),
		cmocka_unit_test(test_real_same_line_gpu),
		cmocka_unit_test(test_real_sm120),
		cmocka_unit_test(test_classic),
		cmocka_unit_test(test_rocm),
		cmocka_unit_test(test_vllm_rocm_version),
		cmocka_unit_test(test_arch_list),
		cmocka_unit_test(test_no_cuda),
		cmocka_unit_test(test_old_warning),
		cmocka_unit_test(test_lookalike),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
