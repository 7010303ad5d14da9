/*
 * replay/cuda, replay/ptx, replay/smoke without a GPU: the driver absent and
 * the toolkit's stub driver (which answers every call with an error) give
 * exact messages and exit 1; the error table, the timing statistics and
 * stopping rule; the fill kernel's host twin; the PTX assembled with ptxas
 * for sm_90, sm_100 and sm_120; the text and JSON of a smoke report; and the
 * whole smoke check against a fake driver (tests/data/fake_libcuda.c, built
 * here) whose kernels, copies and 1 ms events give known answers.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/xalloc.h"
#include "replay/cuda.h"
#include "replay/ptx.h"
#include "render/smoke_text.h"
#include "replay/smoke.h"
#include "tests/unit/skip.h"

#define ABSENT "/nonexistent/libcuda.so.1"
#define ABSENT_MSG "no CUDA driver: " ABSENT " not found (dlopen: " ABSENT \
	": cannot open shared object file: No such file or directory)"
#define STUB_RE "^cuInit: CUDA_ERROR_STUB_LIBRARY: the CUDA driver library is the toolkit's stub, " \
	"not an installed driver \\(replay/cuda\\.c:[0-9]+\\)$"

static void assert_matches(const char *s, const char *re)
{
	regex_t r;
	int rc;

	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	rc = regexec(&r, s, 0, NULL, 0);
	regfree(&r);
	if (rc != 0)
		fail_msg("\"%s\" does not match /%s/", s, re);
}

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.17g, want %.17g", got, want);
}

/* Whole output of a shell command (its exit status into *rc). */
static char *run(const char *cmd, int *rc)
{
	FILE *p = popen(cmd, "r");
	char *out = xcalloc(1, 65536);
	size_t n;

	assert_non_null(p);
	n = fread(out, 1, 65535, p);
	out[n] = '\0';
	*rc = pclose(p);
	return out;
}

/* The toolkit's stub libcuda beside the ptxas on PATH (the case skips without ptxas). */
static char *stub_path(void)
{
	int rc;
	char *ptxas, *top, *path;

	skip_unless_tool("ptxas");
	ptxas = run("readlink -f \"$(command -v ptxas)\"", &rc);
	assert_int_equal(rc, 0);
	ptxas[strcspn(ptxas, "\n")] = '\0';
	top = dirname(dirname(ptxas));		/* .../bin/ptxas -> ... */
	path = xasprintf("%s/lib64/stubs/libcuda.so", top);
	free(ptxas);
	if (access(path, R_OK) != 0)
		fail_msg("the CUDA toolkit has no stub driver at %s", path);
	return path;
}

/*
 * The names used when the driver cannot name an error are CUresult values of
 * cuda.h (CUDA 13.0): 36 is CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, and 35 is
 * no CUresult (cudaErrorInsufficientDriver is the runtime's 35).
 */
static void error_names(void **state)
{
	char buf[256];

	cuda_format_error(NULL, (CUresult)36, "cuInit", "x.c", 7, buf, sizeof buf);
	assert_string_equal(buf, "cuInit: CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER: the API call requires "
			    "a newer CUDA driver than the one installed (x.c:7)");
	cuda_format_error(NULL, (CUresult)35, "cuInit", "x.c", 7, buf, sizeof buf);
	assert_string_equal(buf, "cuInit: CUresult 35 (x.c:7)");
	cuda_format_error(NULL, CUDA_ERROR_STUB_LIBRARY, "cuInit", "x.c", 7, buf, sizeof buf);
	assert_non_null(strstr(buf, "CUDA_ERROR_STUB_LIBRARY"));
}

static void open_absent(void **state)
{
	struct cuda_err err = { .count = 0 };
	struct cuda *cu = (struct cuda *)&err;

	setenv(CUDA_LIBRARY_ENV, ABSENT, 1);
	assert_int_equal(cuda_open(&cu, &err), -1);
	assert_null(cu);
	assert_string_equal(err.msg, ABSENT_MSG);
	assert_int_equal(err.code, -1);
	assert_int_equal(err.count, 1);
	unsetenv(CUDA_LIBRARY_ENV);
}

static void open_stub(void **state)
{
	char *stub = stub_path();
	struct cuda_err err = { .count = 0 };
	struct cuda *cu = NULL;

	setenv(CUDA_LIBRARY_ENV, stub, 1);
	assert_int_equal(cuda_open(&cu, &err), -1);
	assert_null(cu);
	assert_matches(err.msg, STUB_RE);
	assert_int_equal(err.code, CUDA_ERROR_STUB_LIBRARY);
	unsetenv(CUDA_LIBRARY_ENV);
	free(stub);
}

/* The smoke check of a machine whose driver fails with msg (a regex when re). */
static void smoke_fails(const char *lib, const char *msg, bool re)
{
	struct smoke_report rep;
	char *buf = NULL, *want;
	size_t len = 0;
	FILE *f;

	setenv(CUDA_LIBRARY_ENV, lib, 1);
	assert_int_equal(smoke_run(NULL, &rep), 1);
	unsetenv(CUDA_LIBRARY_ENV);
	assert_int_equal(rep.n, 1);
	assert_string_equal(rep.results[0].item, "driver");
	assert_int_equal(rep.results[0].status, SMOKE_FAIL);
	assert_true(rep.results[0].essential);
	assert_string_equal(rep.results[0].detail, rep.error);
	assert_int_equal(rep.ndev, 0);
	if (re)
		assert_matches(rep.error, msg);
	else
		assert_string_equal(rep.error, msg);

	f = open_memstream(&buf, &len);
	assert_int_equal(smoke_write_text(&rep, f), 0);
	fclose(f);
	want = xasprintf("driver: none, CUDA unknown\n"
			 "item             status     value  unit     detail\n"
			 "driver           fail           -  -        %s\n"
			 "smoke check failed: an essential item failed\n", rep.error);
	assert_string_equal(buf, want);
	free(want);
	free(buf);
	smoke_report_release(&rep);
}

static void smoke_absent(void **state)
{
	smoke_fails(ABSENT, ABSENT_MSG, false);
}

static void smoke_stub(void **state)
{
	char *stub = stub_path();

	smoke_fails(stub, STUB_RE, true);
	free(stub);
}

static void error_text(void **state)
{
	char buf[256];
	struct cuda_err err = { .count = 0 };

	cuda_format_error(NULL, CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "cuModuleLoadDataEx", "replay/x.c", 7, buf,
			  sizeof buf);
	assert_string_equal(buf, "cuModuleLoadDataEx: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was "
				 "compiled with an unsupported toolchain (replay/x.c:7)");
	cuda_format_error(NULL, 12345, "cuFoo", "f.c", 1, buf, sizeof buf);
	assert_string_equal(buf, "cuFoo: CUresult 12345 (f.c:1)");
	/* the first error is kept, later ones counted */
	assert_int_equal(cuda_err_set(&err, "first %d", 1), -1);
	assert_int_equal(cuda_err_set(&err, "second"), -1);
	assert_string_equal(err.msg, "first 1");
	assert_int_equal(err.count, 2);
	cuda_err_clear(&err);
	assert_string_equal(err.msg, "");
	assert_int_equal(err.count, 0);
}

static void timing_stats(void **state)
{
	double s[] = { 5, 1, 4, 2, 3 };
	struct cuda_timing t;

	cuda_timing_stats(s, 5, &t);
	assert_int_equal(t.reps, 5);
	near(t.median_s, 3.0, 1e-12);
	near(t.p10_s, 1.4, 1e-12);	/* 1 + 0.4 x (2 - 1) */
	near(t.p90_s, 4.6, 1e-12);	/* 4 + 0.6 x (5 - 4) */
	near(t.spread, 3.2 / 3, 1e-12);
	cuda_timing_stats(s, 0, &t);
	assert_true(isnan(t.median_s) && isnan(t.spread));
	assert_int_equal(t.reps, 0);
}

static void timing_rule(void **state)
{
	const struct cuda_timing_rule rule = { .warmup = 1, .min_reps = 3, .max_reps = 6, .max_seconds = 1.0,
					       .max_spread = 0.05 };
	const double flat[] = { 1e-3, 1e-3, 1e-3 };
	const double noisy[] = { 1e-3, 2e-3, 1e-3, 2e-3, 1e-3, 2e-3 };

	assert_false(cuda_timing_done(&rule, flat, 0, 0));
	assert_false(cuda_timing_done(&rule, flat, 2, 2e-3));	/* fewer than min_reps */
	assert_true(cuda_timing_done(&rule, flat, 3, 3e-3));	/* spread 0 */
	assert_false(cuda_timing_done(&rule, noisy, 5, 7e-3));	/* spread 1 */
	assert_true(cuda_timing_done(&rule, noisy, 6, 9e-3));	/* max_reps */
	assert_true(cuda_timing_done(&rule, noisy, 2, 1.5));	/* out of time */
	assert_int_equal(cuda_timing_default.min_reps, 10);
	assert_true(cuda_timing_default.max_reps <= CUDA_TIMING_MAX_REPS);
}

/* Each element of word w as its dtype: finite, |x| in [1, 2), so never zero. */
static void assert_shaped(uint32_t w, enum dtype t)
{
	float f;

	switch (t) {
	case DT_FP32:
		memcpy(&f, &w, 4);
		assert_true(fabsf(f) >= 1.0f && fabsf(f) < 2.0f);
		break;
	case DT_BF16:
		for (int k = 0; k < 2; k++)
			assert_int_equal((w >> (16 * k + 7)) & 0xff, 127);
		break;
	case DT_FP16:
		for (int k = 0; k < 2; k++)
			assert_int_equal((w >> (16 * k + 10)) & 0x1f, 15);
		break;
	case DT_FP8_E4M3:
		for (int k = 0; k < 4; k++)
			assert_int_equal((w >> (8 * k + 3)) & 0xf, 7);
		break;
	case DT_FP8_E5M2:
		for (int k = 0; k < 4; k++)
			assert_int_equal((w >> (8 * k + 2)) & 0x1f, 15);
		break;
	case DT_FP4:
		for (int k = 0; k < 8; k++)
			assert_int_equal((w >> (4 * k + 1)) & 3, 1);
		break;
	default:
		fail_msg("no check for dtype %d", t);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static void fill_values(void **state)
{
	static const enum dtype floats[] = { DT_FP32, DT_BF16, DT_FP16, DT_FP8_E4M3, DT_FP8_E5M2, DT_FP4 };
	uint32_t *w = xcalloc(1000, sizeof *w);
	int distinct = 1;
	double d;
	uint32_t hi;

	/* murmur3's fmix32 of lo x 0x9e3779b1 ^ hi x 0x85ebca77 ^ seed, computed by hand */
	assert_int_equal(ptx_fill_word(0, 0, DT_UINT32), 0);
	assert_int_equal(ptx_fill_word(1, 0, DT_UINT32), 0x11fd02ebu);
	assert_int_equal(ptx_fill_word(5, 0x12345678u, DT_INT32), 0x74bdb901u);
	assert_int_equal(ptx_fill_word(7 + (1ull << 32), 0, DT_UNKNOWN), 0x7e24cc04u);
	assert_int_equal(ptx_fill_word(1, 0, DT_FP32), (0x11fd02ebu & 0x807fffffu) | 0x3f800000u);
	for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++)
		for (uint64_t i = 0; i < 20000; i++)
			assert_shaped(ptx_fill_word(i * 7919 + (i << 33), 0x5ca1ab1eu, floats[k]), floats[k]);
	/* fp64: the high word of each pair holds the exponent of 1.0 */
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t bits = ptx_fill_word(2 * i, 3, DT_FP64) | (uint64_t)ptx_fill_word(2 * i + 1, 3, DT_FP64) << 32;

		memcpy(&d, &bits, 8);
		assert_true(fabs(d) >= 1.0 && fabs(d) < 2.0);
	}
	hi = ptx_fill_word(1, 3, DT_FP64);
	assert_int_equal(hi & 0x7ff00000u, 0x3ff00000u);
	/* random: 1000 consecutive words of fp32 are (almost) all different */
	for (int i = 0; i < 1000; i++)
		w[i] = ptx_fill_word((uint64_t)i, 1, DT_FP32);
	qsort(w, 1000, sizeof *w, cmp_u32);
	for (int i = 1; i < 1000; i++)
		distinct += w[i] != w[i - 1];
	assert_true(distinct >= 990);
	free(w);
}

static void ptx_source(void **state)
{
	size_t n, entries = 0;
	const struct ptx_kernel *k = ptx_kernels(&n);
	char *want;

	assert_int_equal(n, 4);
	for (const char *p = ptx_text; (p = strstr(p, ".entry ")); p++)
		entries++;
	assert_int_equal(entries, n);
	for (size_t i = 0; i < n; i++) {
		want = xasprintf(".visible .entry %s(\n", k[i].name);
		assert_non_null(strstr(ptx_text, want));
		free(want);
	}
	/* ISA 8.7 or lower, sm_80 or lower, so R570 drivers JIT it for any newer GPU */
	assert_non_null(strstr(ptx_text, "\n.version 7.0\n"));
	assert_non_null(strstr(ptx_text, "\n.target sm_80\n"));
}

static void ptx_assembles(void **state)
{
	static const char *const arches[] = { "sm_90", "sm_100", "sm_120" };
	char dir[] = "/tmp/test_replay_ptx.XXXXXX";
	char *file, *cmd, *out, *want;
	size_t n;
	const struct ptx_kernel *k = ptx_kernels(&n);
	FILE *f;
	int rc;

	skip_unless_tool("ptxas");
	assert_non_null(mkdtemp(dir));
	file = xasprintf("%s/kernels.ptx", dir);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs(ptx_text, f);
	fclose(f);
	for (size_t a = 0; a < sizeof arches / sizeof arches[0]; a++) {
		cmd = xasprintf("ptxas -v --gpu-name %s %s -o %s/k.cubin 2>&1", arches[a], file, dir);
		out = run(cmd, &rc);
		if (rc != 0)
			fail_msg("%s failed:\n%s", cmd, out);
		for (size_t i = 0; i < n; i++) {
			want = xasprintf("Compiling entry function '%s' for '%s'", k[i].name, arches[a]);
			if (!strstr(out, want))
				fail_msg("%s: no \"%s\" in:\n%s", cmd, want, out);
			free(want);
		}
		free(out);
		free(cmd);
	}
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(file);
}

static void nvrm_version(void **state)
{
	char v[32];

	assert_int_equal(smoke_parse_nvrm("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  "
					  "Fri Jan 24 23:15:25 UTC 2025\n", v, sizeof v), 0);
	assert_string_equal(v, "570.86.15");
	assert_int_equal(smoke_parse_nvrm("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  "
					  "Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Jul 29 2025\n", v,
					  sizeof v), 0);
	assert_string_equal(v, "580.65.06");
	assert_int_equal(smoke_parse_nvrm("NVRM version: unknown\n", v, sizeof v), -1);
}

/* A report as a 1-GPU machine would give it, built through the result API. */
static void made_report(struct smoke_report *rep)
{
	static const struct smoke_item it[] = { { "h2d", true, NULL }, { "peer", false, NULL } };
	struct smoke_ctx sc = { .rep = rep, .item = &it[0] };
	struct smoke_device *d = &rep->dev[0];

	memset(rep, 0, sizeof *rep);
	snprintf(rep->library, sizeof rep->library, "libcuda.so.1");
	rep->driver_version = 12080;
	snprintf(rep->kernel_module, sizeof rep->kernel_module, "570.86.15");
	rep->ndev = 1;
	d->info = (struct cuda_device_info){ .ordinal = 0, .name = "NVIDIA B200", .cc_major = 10, .sms = 148,
					     .total_bytes = 191503138816, .free_bytes = -1, .clock_khz = 1965000,
					     .mem_clock_khz = -1, .bus_width_bits = 7680, .mem_gbps = NAN };
	d->arch = "Blackwell";
	d->blackwell = true;
	d->model = "B200";
	smoke_pass(&sc, "gpu0", 55.25, "GB/s", "pinned");
	smoke_fail(&sc, "gpu1", "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory (replay/cuda.c:1)");
	sc.item = &it[1];
	smoke_skip(&sc, NULL, "one GPU: no pair to test");
	smoke_fail(&sc, "0->1", "staged");
}

static void report_text(void **state)
{
	struct smoke_report rep;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	made_report(&rep);
	assert_int_equal(rep.exit_status, 1);	/* h2d gpu1 is essential; peer 0->1 is not */
	assert_int_equal(smoke_write_text(&rep, f), 0);
	fclose(f);
	assert_string_equal(buf,
			    "driver: libcuda.so.1, CUDA 12.8, kernel module 570.86.15\n"
			    "item             status     value  unit     detail\n"
			    "h2d gpu0         pass        55.2  GB/s     pinned\n"
			    "h2d gpu1         fail           -  -        cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: "
			    "out of memory (replay/cuda.c:1)\n"
			    "peer             skip           -  -        one GPU: no pair to test\n"
			    "peer 0->1        fail           -  -        staged (not essential)\n"
			    "smoke check failed: an essential item failed\n");
	free(buf);
	smoke_report_release(&rep);
}

static void report_json(void **state)
{
	struct smoke_report rep;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	made_report(&rep);
	assert_int_equal(smoke_write_json(&rep, f, false), 0);
	fclose(f);
	assert_string_equal(buf,
			    "{\"driver\":{\"library\":\"libcuda.so.1\",\"cuda_version\":\"12.8\","
			    "\"driver_api_version\":12080,\"kernel_module\":\"570.86.15\"},"
			    "\"devices\":[{\"ordinal\":0,\"name\":\"NVIDIA B200\",\"model\":\"B200\",\"cc\":\"10.0\","
			    "\"arch\":\"Blackwell\",\"blackwell\":true,\"sms\":148,\"total_bytes\":191503138816,"
			    "\"free_bytes\":null,\"sm_clock_mhz\":1965,\"memory_bus_bits\":7680,"
			    "\"memory_gbps\":null}],"
			    "\"items\":[{\"item\":\"h2d gpu0\",\"essential\":true,\"status\":\"pass\",\"value\":55.25,"
			    "\"unit\":\"GB/s\",\"detail\":\"pinned\"},"
			    "{\"item\":\"h2d gpu1\",\"essential\":true,\"status\":\"fail\",\"value\":null,"
			    "\"unit\":null,\"detail\":\"cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory "
			    "(replay/cuda.c:1)\"},"
			    "{\"item\":\"peer\",\"essential\":false,\"status\":\"skip\",\"value\":null,\"unit\":null,"
			    "\"detail\":\"one GPU: no pair to test\"},"
			    "{\"item\":\"peer 0->1\",\"essential\":false,\"status\":\"fail\",\"value\":null,"
			    "\"unit\":null,\"detail\":\"staged\"}],"
			    "\"exit_status\":1,\"error\":null}\n");
	free(buf);
	smoke_report_release(&rep);
}

/* ---- the smoke check against the fake driver ---- */

struct fake {
	char dir[64];
	char *lib;
	void *handle;		/* kept open so its counters outlive each smoke_run */
	int (*live)(void);
};

static int fake_setup(void **state)
{
	struct fake *f = xcalloc(1, sizeof *f);
	const char *top = getenv("TOP");
	char *cmd;

	snprintf(f->dir, sizeof f->dir, "/tmp/test_replay_fake.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->lib = xasprintf("%s/libcuda.so.1", f->dir);
	cmd = xasprintf("${CC:-cc} -shared -fPIC -o %s %s/tests/data/fake_libcuda.c", f->lib, top ? top : ".");
	assert_int_equal(system(cmd), 0);
	free(cmd);
	f->handle = dlopen(f->lib, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(f->handle);
	f->live = (int (*)(void))dlsym(f->handle, "fake_cuda_live");
	assert_non_null(f->live);
	*state = f;
	return 0;
}

static int fake_teardown(void **state)
{
	struct fake *f = *state;
	char *cmd = xasprintf("rm -rf %s", f->dir);

	dlclose(f->handle);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(f->lib);
	free(f);
	return 0;
}

/* Runs the smoke check on the fake with 1 MiB transfers; env: "NAME=VALUE" or NULL. */
static int fake_smoke(struct fake *f, const char *env, struct smoke_report *rep)
{
	const struct smoke_options opt = { .copy_bytes = 1 << 20 };
	char *var = env ? xstrdup(env) : NULL;
	int rc;

	setenv(CUDA_LIBRARY_ENV, f->lib, 1);
	if (var)
		putenv(var);
	rc = smoke_run(&opt, rep);
	unsetenv(CUDA_LIBRARY_ENV);
	if (var) {
		unsetenv(strtok(var, "="));
		free(var);
	}
	assert_int_equal(f->live(), 0);		/* every allocation, stream, event and context given back */
	return rc;
}

struct want {
	const char *item;
	enum smoke_status status;
	double value;		/* NaN: none */
	const char *detail;	/* a regex */
};

static void assert_results(const struct smoke_report *rep, const struct want *w, size_t n)
{
	assert_int_equal(rep->n, n);
	for (size_t i = 0; i < n; i++) {
		const struct smoke_result *r = &rep->results[i];

		assert_string_equal(r->item, w[i].item);
		if (r->status != w[i].status)
			fail_msg("%s: %s, want %s: %s", r->item, smoke_status_name(r->status),
				 smoke_status_name(w[i].status), r->detail);
		if (isnan(w[i].value))
			assert_true(isnan(r->value));
		else
			near(r->value, w[i].value, 1e-9);
		assert_matches(r->detail, w[i].detail);
	}
}

#define H200_DETAIL "^NVIDIA H200: cc 9\\.0 \\(Hopper, not Blackwell\\), 132 SMs, 150\\.8 GB total, " \
	"0\\.1 GB free, SM clock 1980 MHz, memory 4023 GB/s \\(6144-bit bus\\); GPU table: H200$"
#define JIT_DETAIL "^4 PTX kernels JIT-compiled; fill, copy and write checked word for word$"
#define ALLOC_DETAIL "^0\\.1 GB allocated \\(90% of 0\\.1 GB free\\) and written by the fill kernel$"
#define RUNS_NOEND "1 MiB per run; median of 10 runs 1\\.000 ms, p10-p90 spread 0\\.0%"
#define RUNS RUNS_NOEND "$"

static void fake_one_gpu(void **state)
{
	/* 1 MiB per 1 ms run: 1.048576 GB/s one way, twice that when read and write count */
	static const struct want w[] = {
		{ "driver", SMOKE_PASS, 12.8, "^/tmp/.*/libcuda\\.so\\.1: driver API 12080, 1 device$" },
		{ "devices gpu0", SMOKE_PASS, 150.754820096, H200_DETAIL },
		{ "jit gpu0", SMOKE_PASS, 4, JIT_DETAIL },
		{ "alloc gpu0", SMOKE_PASS, 0.058720256, ALLOC_DETAIL },	/* 90% of 64 MiB, down to 2 MiB */
		{ "h2d gpu0", SMOKE_PASS, 1.048576, "^pinned host to device, cuMemcpyHtoDAsync, " RUNS },
		{ "d2h gpu0", SMOKE_PASS, 1.048576, "^device to pinned host, cuMemcpyDtoHAsync, " RUNS },
		{ "d2d gpu0", SMOKE_PASS, 2.097152, "^device to device, cuMemcpyDtoDAsync \\(read \\+ write counted\\), "
		  RUNS_NOEND "; 0% of the memory's 4023 GB/s$" },	/* 2 x 2619 MHz x 6144 bit / 8 */
		{ "copy gpu0", SMOKE_PASS, 2.097152, "^sa_copy kernel \\(read \\+ write counted\\), "
		  RUNS_NOEND "; 0% of the memory's 4023 GB/s$" },
		{ "peer", SMOKE_SKIP, NAN, "^one GPU: no pair to test$" },
	};
	struct smoke_report rep;

	assert_int_equal(fake_smoke(*state, NULL, &rep), 0);
	assert_results(&rep, w, sizeof w / sizeof w[0]);
	assert_int_equal(rep.ndev, 1);
	assert_string_equal(rep.dev[0].model, "H200");
	assert_false(rep.dev[0].blackwell);
	assert_int_equal(rep.dev[0].info.free_bytes, 64 << 20);
	assert_string_equal(rep.error, "");
	smoke_report_release(&rep);
}

static void fake_two_gpus(void **state)
{
	struct smoke_report rep;
	const struct smoke_result *r;

	assert_int_equal(fake_smoke(*state, "FAKE_CUDA_DEVICES=2", &rep), 0);
	assert_int_equal(rep.n, 1 + 2 * 7 + 2);	/* driver, 7 items per GPU, 2 ordered pairs */
	r = &rep.results[rep.n - 2];
	assert_string_equal(r->item, "peer 0->1");
	near(r->value, 1.048576, 1e-9);
	assert_matches(r->detail, "^peer access enabled, cuMemcpyPeerAsync, " RUNS);
	assert_string_equal(rep.results[rep.n - 1].item, "peer 1->0");
	assert_int_equal(rep.results[rep.n - 1].status, SMOKE_PASS);
	smoke_report_release(&rep);
	/* again: peer access is already enabled (CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED), still a pass */
	assert_int_equal(fake_smoke(*state, "FAKE_CUDA_DEVICES=2", &rep), 0);
	assert_int_equal(rep.results[rep.n - 1].status, SMOKE_PASS);
	smoke_report_release(&rep);
}

static void fake_blackwell_no_peer(void **state)
{
	struct smoke_report rep;

	setenv("FAKE_CUDA_B200", "1", 1);
	assert_int_equal(fake_smoke(*state, "FAKE_CUDA_NO_PEER=1", &rep), 0);
	unsetenv("FAKE_CUDA_B200");
	assert_matches(rep.results[1].detail, "^NVIDIA B200: cc 10\\.0 \\(Blackwell\\), 148 SMs, 191\\.5 GB total");
	assert_true(rep.dev[0].blackwell);
	assert_string_equal(rep.dev[0].arch, "Blackwell");
	assert_string_equal(rep.dev[0].model, "B200");
	smoke_report_release(&rep);
	setenv("FAKE_CUDA_DEVICES", "2", 1);
	assert_int_equal(fake_smoke(*state, "FAKE_CUDA_NO_PEER=1", &rep), 0);
	unsetenv("FAKE_CUDA_DEVICES");
	assert_matches(rep.results[rep.n - 1].detail,
		       "^no peer access \\(cuDeviceCanAccessPeer: 0\\): cuMemcpyPeerAsync staged through the host, " RUNS);
	smoke_report_release(&rep);
}

/* Events that time every run at 0 ms: the rates are no measurement, and the check fails. */
static void fake_zero_time_fails(void **state)
{
	struct smoke_report rep;
	const struct smoke_result *r;
	size_t i;

	assert_int_equal(fake_smoke(*state, "FAKE_CUDA_ZERO_TIME=1", &rep), 1);
	for (i = 0; i < rep.n && strcmp(rep.results[i].item, "h2d gpu0"); i++)
		;
	assert_true(i < rep.n);
	r = &rep.results[i];
	assert_int_equal(r->status, SMOKE_FAIL);
	assert_true(isnan(r->value));
	assert_matches(r->detail, "^no valid measurement: the timing gave inf GB/s \\(a run timed at 0 ms\\?\\); "
		       "pinned host to device, cuMemcpyHtoDAsync, 1 MiB per run; median of 200 runs 0\\.000 ms");
	smoke_report_release(&rep);
}

static void fake_jit_fails(void **state)
{
	static const char skipped[] = "^the project's kernels did not load \\(see jit\\)$";
	static const struct want w[] = {
		{ "driver", SMOKE_PASS, 12.8, "" },
		{ "devices gpu0", SMOKE_PASS, 150.754820096, H200_DETAIL },
		{ "jit gpu0", SMOKE_FAIL, NAN, "^cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation "
					     "failed \\(replay/cuda\\.c:[0-9]+\\); jit: ptxas fatal   : fake failure "
					     "second line$" },
		{ "alloc gpu0", SMOKE_SKIP, NAN, skipped },
		{ "h2d gpu0", SMOKE_SKIP, NAN, skipped },
		{ "d2h gpu0", SMOKE_SKIP, NAN, skipped },
		{ "d2d gpu0", SMOKE_SKIP, NAN, skipped },
		{ "copy gpu0", SMOKE_SKIP, NAN, skipped },
		{ "peer", SMOKE_SKIP, NAN, "" },
	};
	struct smoke_report rep;

	assert_int_equal(fake_smoke(*state, "FAKE_CUDA_JIT_FAIL=1", &rep), 1);
	assert_results(&rep, w, sizeof w / sizeof w[0]);
	smoke_report_release(&rep);
}

static void fake_out_of_memory(void **state)
{
	struct smoke_report rep;

	assert_int_equal(fake_smoke(*state, "FAKE_CUDA_OOM=1", &rep), 1);
	assert_string_equal(rep.results[3].item, "alloc gpu0");
	assert_int_equal(rep.results[3].status, SMOKE_FAIL);
	assert_matches(rep.results[3].detail, "^0\\.1 GB \\(90% of 0\\.1 GB free\\): cuMemAlloc: "
			"CUDA_ERROR_OUT_OF_MEMORY: out of memory \\(replay/cuda\\.c:[0-9]+\\)$");
	assert_int_equal(rep.results[4].status, SMOKE_PASS);	/* 1 MiB transfers still fit */
	smoke_report_release(&rep);
}

/* A second table of items, as the GEMM and NCCL items come: run after ours, with our context. */
static void extra_run(struct smoke_ctx *sc)
{
	assert_non_null(sc->ptx[0].mod);
	assert_true(sc->ready[0]);
	smoke_pass(sc, "gpu0", 1.5, "TFLOP/s", "from %s", sc->rep->dev[0].model);
	smoke_fail(sc, "gpu0 fp8", "not essential");
}

static void fake_extra_items(void **state)
{
	static const struct smoke_item extra[] = { { "gemm", false, extra_run } };
	struct smoke_options opt = { .copy_bytes = 1 << 20, .extra = { extra }, .n_extra = { 1 } };
	struct fake *f = *state;
	struct smoke_report rep;

	setenv(CUDA_LIBRARY_ENV, f->lib, 1);
	assert_int_equal(smoke_run(&opt, &rep), 0);	/* a non-essential failure */
	unsetenv(CUDA_LIBRARY_ENV);
	assert_int_equal(f->live(), 0);
	assert_int_equal(rep.n, 11);
	assert_string_equal(rep.results[9].item, "gemm gpu0");
	assert_string_equal(rep.results[9].detail, "from H200");
	assert_string_equal(rep.results[10].item, "gemm gpu0 fp8");
	assert_false(rep.results[10].essential);
	smoke_report_release(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(error_names),
		cmocka_unit_test(open_absent),
		cmocka_unit_test(open_stub),
		cmocka_unit_test(smoke_absent),
		cmocka_unit_test(smoke_stub),
		cmocka_unit_test(error_text),
		cmocka_unit_test(timing_stats),
		cmocka_unit_test(timing_rule),
		cmocka_unit_test(fill_values),
		cmocka_unit_test(ptx_source),
		cmocka_unit_test(ptx_assembles),
		cmocka_unit_test(nvrm_version),
		cmocka_unit_test(report_text),
		cmocka_unit_test(report_json),
	};

	const struct CMUnitTest with_fake[] = {
		cmocka_unit_test(fake_one_gpu),
		cmocka_unit_test(fake_two_gpus),
		cmocka_unit_test(fake_blackwell_no_peer),
		cmocka_unit_test(fake_zero_time_fails),
		cmocka_unit_test(fake_jit_fails),
		cmocka_unit_test(fake_out_of_memory),
		cmocka_unit_test(fake_extra_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) |
	       cmocka_run_group_tests_name("fake driver", with_fake, fake_setup, fake_teardown);
}
