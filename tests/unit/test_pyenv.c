/*
 * The Python environment reader (ingest/pyenv.c) on the files of
 * tests/data/pyenv: pip freeze and pip list output (text and JSON), conda list
 * output (text and JSON), saved get_arch_list()
 * values and a small virtual environment tree. Expected values were read off
 * the files; every text input is also fed at every chunk size from 1 byte up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/diag.h"
#include "ingest/pyenv.h"

static const char *data(const char *name)
{
	static char path[1024];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/data/pyenv/%s", top && *top ? top : ".", name);
	return path;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	assert_non_null(f);
	*n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

static void expect_pkg(const struct py_env *e, const char *name, const char *version,
		       const char *local, const char *source)
{
	const struct py_package *p = py_env_find(e, name);

	assert_non_null(p);
	assert_string_equal(p->version, version);
	assert_string_equal(p->local, local);
	assert_string_equal(p->source, source);
}

static void check_freeze(const struct py_env *e)
{
	assert_int_equal(e->npkg, 11);
	expect_pkg(e, "torch", "2.7.0", "cu128", "pip freeze");
	expect_pkg(e, "flash-attn", "2.7.4.post1", "", "pip freeze");
	expect_pkg(e, "my-ext", "", "", "pip freeze");
	expect_pkg(e, "vllm", "0.9.0", "", "pip freeze");
	expect_pkg(e, "xformers", "0.0.30", "", "pip freeze");
	assert_string_equal(e->torch_version, "2.7.0");
	assert_string_equal(e->torch_local, "cu128");
	assert_string_equal(e->torch_cuda, "12.8");
	assert_string_equal(e->torch_rocm, "");
	assert_string_equal(e->nccl_version, "2.26.2");
	assert_string_equal(e->cudnn_version, "9.7.1.26");
	assert_string_equal(e->cuda_runtime, "12.8.90");
	assert_string_equal(e->pkg[0].name, "deepspeed");
	assert_string_equal(e->pkg[10].name, "xformers");
}

static void check_list(const struct py_env *e)
{
	assert_int_equal(e->npkg, 5);
	expect_pkg(e, "pytorch_triton_rocm", "3.1.0", "", "pip list");
	expect_pkg(e, "torchvision", "0.20.1", "rocm6.2", "pip list");
	assert_string_equal(e->torch_version, "2.5.1");
	assert_string_equal(e->torch_rocm, "6.2");
	assert_string_equal(e->torch_cuda, "");
	assert_string_equal(e->nccl_version, "");
}

static void check_arch(const struct py_env *e)
{
	static const char *const want[] = { "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120" };

	assert_int_equal(e->narch, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(e->arch_list[i], want[i]);
	assert_int_equal(e->npkg, 0);
}

static void check_pip_json(const struct py_env *e)
{
	assert_int_equal(e->npkg, 10);
	expect_pkg(e, "torch", "2.7.0", "cu128", "pip list");
	expect_pkg(e, "flash-attn", "2.7.4.post1", "", "pip list");
	expect_pkg(e, "my-ext", "0.1.0", "", "pip list");
	expect_pkg(e, "triton", "3.3.0", "", "pip list");
	expect_pkg(e, "xformers", "0.0.30", "", "pip list");
	assert_string_equal(e->torch_cuda, "12.8");
	assert_string_equal(e->nccl_version, "2.26.2");
	assert_string_equal(e->cudnn_version, "9.7.1.26");
	assert_string_equal(e->cuda_runtime, "12.8.90");
	assert_string_equal(e->pkg[0].name, "filelock");
}

/* conda's pytorch is torch, its build string's CUDA the local part; _libgcc_mutex is no name */
static void check_conda(const struct py_env *e)
{
	assert_int_equal(e->npkg, 8);
	expect_pkg(e, "torch", "2.5.1", "cu124", "conda list");
	expect_pkg(e, "pytorch-cuda", "12.4", "", "conda list");
	expect_pkg(e, "xformers", "0.0.28.post3", "", "conda list");
	assert_null(py_env_find(e, "pytorch"));
	assert_string_equal(e->torch_version, "2.5.1");
	assert_string_equal(e->torch_cuda, "12.4");
	assert_string_equal(e->nccl_version, "2.21.5.1");
	assert_string_equal(e->cudnn_version, "9.1.1.17");
	assert_string_equal(e->cuda_runtime, "12.4.127");
}

static void check_conda_json(const struct py_env *e)
{
	assert_int_equal(e->npkg, 6);
	expect_pkg(e, "torch", "2.7.0", "cu126", "conda list");
	expect_pkg(e, "triton", "3.3.0", "", "conda list");
	expect_pkg(e, "flash-attn", "2.7.4.post1", "", "conda list");
	assert_string_equal(e->torch_cuda, "12.6");
	assert_string_equal(e->nccl_version, "2.26.5.1");
	assert_string_equal(e->cudnn_version, "9.8.0.87");
	assert_string_equal(e->cuda_runtime, "12.6.77");
}

struct text_case {
	const char *file;
	enum py_input kind;
	void (*check)(const struct py_env *e);
};

static const struct text_case text_cases[] = {
	{ "freeze_cu128.txt", PY_FREEZE, check_freeze },
	{ "list_rocm.txt", PY_LIST, check_list },
	{ "arch_list_2.11_cu128.txt", PY_ARCH_LIST, check_arch },
	{ "pip_list_cu128.json", PY_PIP_JSON, check_pip_json },
	{ "conda_list_cu124.txt", PY_CONDA, check_conda },
	{ "conda_list_cf126.json", PY_CONDA_JSON, check_conda_json },
};

/* Every chunk size gives the same result as the file reader. */
static void test_text_inputs(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(text_cases) / sizeof(text_cases[0]); c++) {
		const struct text_case *tc = &text_cases[c];
		struct diags d = DIAGS_INIT;
		struct py_env e;
		size_t n;
		char *buf = slurp(data(tc->file), &n);

		assert_int_equal(pyenv_sniff(buf, n), tc->kind);
		py_env_init(&e);
		assert_int_equal(pyenv_read_file(&e, data(tc->file), &d), tc->kind);
		assert_int_equal(d.count, 0);
		tc->check(&e);
		py_env_release(&e);
		for (size_t chunk = 1; chunk <= n; chunk++) {
			struct py_parser *p;

			py_env_init(&e);
			p = py_parser_new(&e, tc->kind, tc->file);
			for (size_t off = 0; off < n; off += chunk)
				py_parser_feed(p, buf + off, n - off < chunk ? n - off : chunk);
			py_parser_finish(p);
			tc->check(&e);
			py_env_release(&e);
		}
		free(buf);
		diags_release(&d);
	}
}

static void test_arch_lists(void **state)
{
	struct py_env e;
	struct diags d = DIAGS_INIT;

	(void)state;
	py_env_init(&e);
	assert_int_equal(pyenv_read_file(&e, data("arch_list_2.11_cu126.txt"), &d), PY_ARCH_LIST);
	assert_int_equal(e.narch, 7);
	assert_string_equal(e.arch_list[0], "sm_50");
	assert_string_equal(e.arch_list[6], "sm_90");
	py_env_release(&e);

	py_env_init(&e);
	assert_int_equal(pyenv_read_file(&e, data("arch_list_rocm.txt"), &d), PY_ARCH_LIST);
	assert_int_equal(e.narch, 7);
	assert_string_equal(e.arch_list[3], "gfx90a");
	assert_string_equal(e.arch_list[4], "gfx942");
	py_env_release(&e);

	py_env_init(&e);
	assert_int_equal(pyenv_parse(&e, PY_ARCH_LIST, "sm_90 sm_100a compute_120 sm_90\n", 32, "-"), 3);
	assert_string_equal(e.arch_list[1], "sm_100a");
	assert_string_equal(e.arch_list[2], "compute_120");
	py_env_release(&e);
	assert_int_equal(d.count, 0);
	diags_release(&d);
}

static void test_walk(void **state)
{
	struct py_env e;
	struct diags d = DIAGS_INIT;

	(void)state;
	py_env_init(&e);
	assert_int_equal(pyenv_walk(&e, data("venv"), &d), 5);
	assert_int_equal(d.count, 0);
	assert_int_equal(e.npkg, 5);
	assert_string_equal(e.pkg[0].name, "flash-attn");
	expect_pkg(&e, "flash_attn", "2.7.4.post1", "", "dist-info");	/* from the dir name */
	expect_pkg(&e, "nvidia-nccl-cu12", "2.26.2", "", "dist-info");
	expect_pkg(&e, "old-pkg", "1.0", "", "egg-info");
	expect_pkg(&e, "torch", "2.7.0", "cu128", "dist-info");	/* METADATA's first Version */
	expect_pkg(&e, "xformers", "0.0.30", "", "egg-info");	/* an egg-info file */
	assert_null(py_env_find(&e, "secret"));	/* behind the symbolic link */
	assert_string_equal(e.torch_cuda, "12.8");
	assert_string_equal(e.nccl_version, "2.26.2");
	py_env_release(&e);

	py_env_init(&e);
	assert_int_equal(pyenv_walk(&e, data("no-such-dir"), &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.items[0].code, "unreadable");
	assert_string_equal(d.items[0].message, "cannot list directory: No such file or directory");
	py_env_release(&e);
	diags_release(&d);
}

/* Packages PYENV_MAX_DEPTH levels down are found, one level deeper are not. */
static void test_walk_depth(void **state)
{
	char root[] = "/tmp/test_pyenv_XXXXXX";
	char path[512];
	struct py_env e;
	struct diags d = DIAGS_INIT;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "mkdir -p %s/1/2/3/4/5/6/x-1.0.dist-info "
		 "%s/1/2/3/4/5/6/7/y-2.0.dist-info", root, root);
	assert_int_equal(system(path), 0);
	py_env_init(&e);
	assert_int_equal(pyenv_walk(&e, root, &d), 1);
	expect_pkg(&e, "x", "1.0", "", "dist-info");
	assert_null(py_env_find(&e, "y"));
	py_env_release(&e);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	assert_int_equal(system(path), 0);
	assert_int_equal(d.count, 0);
	diags_release(&d);
}

static void test_sniff(void **state)
{
	static const struct {
		const char *text;
		enum py_input kind;
	} cases[] = {
		{ "torch==2.7.0+cu128\nnumpy==2.2.5\n", PY_FREEZE },
		{ "torch==2.7.0+cu128\nnumpy==2.2", PY_FREEZE },
		{ "torch==2.7.0+cu128\nnumpy", PY_NONE },
		{ ">>> torch.__version__\n'2.7.0'\n", PY_NONE },
		{ "torch==2.7.0\nthis is a log line\n", PY_NONE },
		{ "Package Version\n------- -------\ntorch 2.7.0\n", PY_LIST },
		{ "Package Version\nno dashes\n", PY_NONE },
		{ "Metadata-Version: 2.1\nName: x\n", PY_METADATA },
		{ "['sm_90', 'compute_90']\n", PY_ARCH_LIST },
		{ "PyTorch version: 2.7.0+cu128\n['sm_90']\n", PY_NONE },
		{ "", PY_NONE },
		{ "[{\"name\": \"torch\", \"version\": \"2.7.0\"}]", PY_PIP_JSON },
		{ " [\n {\"name\": \"nccl\", \"version\": \"2.26.5.1\", \"channel\": \"conda-forge\"}]", PY_CONDA_JSON },
		{ "[{\"name\": \"x\"}]", PY_NONE },
		{ "{\"name\": \"torch\", \"version\": \"2.7.0\"}", PY_NONE },
		{ "[]", PY_NONE },
		{ "# packages in environment at /opt/conda:\n#\n", PY_CONDA },
		{ "# Name    Version   Build  Channel\npytorch 2.7.0 cpu_0 x\n", PY_CONDA },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(pyenv_sniff(cases[i].text, strlen(cases[i].text)), cases[i].kind);
}

static void test_versions(void **state)
{
	static const struct {
		const char *local, *cuda, *rocm;
	} cases[] = {
		{ "cu128", "12.8", "" }, { "cu92", "9.2", "" }, { "cu130", "13.0", "" },
		{ "rocm6.2", "", "6.2" }, { "rocm6.2.4", "", "6.2.4" }, { "cpu", "", "" },
		{ "cu", "", "" }, { "rocm", "", "" }, { "cu12x", "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char cuda[16] = "", rocm[16] = "";

		assert_int_equal(pyenv_local_cuda(cases[i].local, cuda, sizeof(cuda)), *cases[i].cuda != 0);
		assert_int_equal(pyenv_local_rocm(cases[i].local, rocm, sizeof(rocm)), *cases[i].rocm != 0);
		assert_string_equal(cuda, cases[i].cuda);
		assert_string_equal(rocm, cases[i].rocm);
	}
}

/* conda builds: the CUDA in either spelling, a cpu build, none; a pip-installed torch keeps its own */
static void test_conda_builds(void **state)
{
	static const char text[] =
		"# packages in environment at /x:\n"
		"pytorch 2.7.0 cpu_mkl_py312_h0_100 conda-forge\n";
	static const struct {
		const char *line, *version, *local, *cuda;
	} cases[] = {
		{ "pytorch 2.7.0 cuda128_mkl_py312_h0_300 conda-forge\n", "2.7.0", "cu128", "12.8" },
		{ "pytorch 2.4.0 py3.10_cuda11.8_cudnn9.1.0_0 pytorch\n", "2.4.0", "cu118", "11.8" },
		{ "pytorch 2.7.0 cpu_mkl_py312_h0_100 conda-forge\n", "2.7.0", "cpu", "" },
		{ "pytorch 2.7.0 h0_0 conda-forge\n", "2.7.0", "", "" },
		{ "torch 2.6.0+cu126 pypi_0 pypi\n", "2.6.0", "cu126", "12.6" },
	};

	(void)state;
	assert_int_equal(pyenv_sniff(text, strlen(text)), PY_CONDA);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct py_env e;

		py_env_init(&e);
		assert_int_equal(pyenv_parse(&e, PY_CONDA, cases[i].line, strlen(cases[i].line), "x"), 1);
		expect_pkg(&e, "torch", cases[i].version, cases[i].local, "conda list");
		assert_string_equal(e.torch_cuda, cases[i].cuda);
		py_env_release(&e);
	}
}

/* A JSON list that is not JSON: one invalid-json error at the byte, no package. */
static void test_bad_json(void **state)
{
	static const char bad[] = "[{\"name\": \"torch\", \"version\": \"2.7.0\"}, {\"name\": }]\n";
	char path[256];
	struct diags d = DIAGS_INIT;
	struct py_env e;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/test_pyenv-%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(bad, f);
	fclose(f);
	py_env_init(&e);
	assert_int_equal(pyenv_read_file(&e, path, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.items[0].code, "invalid-json");
	assert_int_equal(d.items[0].pos.byte, 49);	/* the } where a value belongs */
	assert_int_equal(e.npkg, 0);
	py_env_release(&e);
	diags_release(&d);
	unlink(path);
}

/* The first spelling of a name wins; a cut-off package table counts the rest. */
static void test_add(void **state)
{
	struct py_env e;
	char name[32];

	(void)state;
	py_env_init(&e);
	assert_true(py_env_add(&e, "Flash_Attn", 10, "2.8.0", 5, "pip list"));
	assert_true(py_env_add(&e, "flash-attn", 10, "1.0", 3, "pip list"));
	assert_false(py_env_add(&e, "--", 2, "1.0", 3, "pip list"));
	assert_int_equal(e.npkg, 1);
	assert_string_equal(e.pkg[0].name, "flash-attn");
	assert_string_equal(e.pkg[0].version, "2.8.0");
	for (int i = 0; i < PY_MAX_PACKAGES + 5; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		py_env_add(&e, name, strlen(name), "1", 1, "pip list");
	}
	assert_int_equal(e.npkg, PY_MAX_PACKAGES);
	assert_int_equal(e.dropped, 6);
	py_env_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_inputs),
		cmocka_unit_test(test_arch_lists),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_depth),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_conda_builds),
		cmocka_unit_test(test_bad_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
