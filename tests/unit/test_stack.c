/*
 * The stack's answer per target (analysis/stack: stack_decide): yes, jit,
 * unknown or no with its reason, on hand-built code objects and
 * environments, and the variants of a multi-backend package (group,
 * alternative) set by hand as the package grouping sets them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/stack.h"
#include "render/stack_json.h"
#include "render/stack_text.h"

/* Adds an item from "sm_80 compute_80@90 gfx942": sm_ SASS, compute_ PTX (@ISA), gfx AMDGPU. */
static struct stack_item *add(struct stack_result *r, const char *path, const char *spec)
{
	char words[256], *save = NULL;
	struct code_object o;

	code_object_init(&o, path, "shared-object");
	snprintf(words, sizeof(words), "%s", spec);
	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		struct code_entry e = { .ptx_isa = -1, .cubin_abi = -1 };
		char *at = strchr(w, '@'), *end;

		if (at) {
			*at = 0;
			e.ptx_isa = atoi(at + 1);
		}
		snprintf(e.arch, sizeof(e.arch), "%s", w);
		if (!strncmp(w, "gfx", 3)) {
			e.kind = CODE_AMDGPU;
			e.sm = -1;
		} else {
			e.kind = !strncmp(w, "sm_", 3) ? CODE_SASS : CODE_PTX;
			e.sm = (int)strtol(strchr(w, '_') + 1, &end, 10);
			e.suffix = *end;
		}
		code_object_add(&o, &e);
	}
	stack_add_item(r, &o);
	return &r->item[r->nitem - 1];
}

static void init(struct stack_result *r, const char *targets)
{
	char err[128];

	*r = (struct stack_result){ 0 };
	assert_int_equal(target_list_parse(targets, &r->tl, err, sizeof(err)), 0);
}

/* Checks r->env against the table, then decides. */
static void decide(struct stack_result *r)
{
	r->ncheck = readiness_check_env(&r->env, &r->tl, r->check, STACK_MAX_CHECKS);
	stack_decide(r);
}

static void expect(const struct stack_result *r, size_t t, enum stack_ready v, const char *why)
{
	assert_string_equal(stack_ready_name(r->ready[t]), stack_ready_name(v));
	assert_string_equal(r->why[t], why);
}

/*
 * JIT against the driver: ISA 9.0 PTX needs 580.65.06 (CUDA 13.0's), so 570 cannot compile it;
 * ISA 9.5's minimum is not known, but it is newer than CUDA 13.3's 610.43.02: an older driver is
 * no, a newer one unknown.
 */
static void jit_against_the_driver(void **state)
{
	static const struct {
		const char *spec, *driver;
		enum stack_ready want;
		const char *why;
	} cases[] = {
		{ "compute_100@90", "570.124.06", STACK_NO, "k.so: its PTX (ISA 9.0) needs driver 580.65.06 or newer to "
		  "compile, the driver is 570.124.06" },
		{ "compute_100@95", "600.10", STACK_NO, "k.so: its PTX (ISA 9.5) needs a driver newer than 610.43.02, the "
		  "driver is 600.10" },
		{ "compute_100@95", "615.10", STACK_UNKNOWN, "k.so: whether driver 615.10 compiles its PTX (ISA 9.5, CUDA "
		  "13.5) is unknown: that release's minimum driver is not in the tool's table" },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct stack_result r;

		init(&r, "sm_100");
		add(&r, "k.so", cases[k].spec);
		r.env.driver = cases[k].driver;
		decide(&r);
		assert_string_equal(stack_ready_name(r.ready[0]), stack_ready_name(cases[k].want));
		assert_non_null(strstr(r.why[0], cases[k].why));
		stack_result_release(&r);
	}
}

/* sm_80 SASS and compute_80 PTX: a B200 runs it only through JIT of old PTX, never "yes". */
static void jit_of_older_ptx(void **state)
{
	struct stack_result r;

	(void)state;
	init(&r, "sm_100,sm_80,sm_120");
	add(&r, "ext.so", "sm_80 compute_80@90");
	add(&r, "ptx120.so", "compute_120@90 sm_100");
	decide(&r);
	expect(&r, 0, STACK_JIT, "ext.so: compute_80 PTX only: JIT, without sm_100's instructions");
	expect(&r, 1, STACK_NO, "no code for sm_80 in ptx120.so");
	expect(&r, 2, STACK_JIT, "ext.so: compute_80 PTX only: JIT, without sm_120's instructions; "
	       "ptx120.so: compute_120 PTX only: JIT, without the sm_120a/sm_120f features");
	assert_int_equal(stack_worst(&r), STACK_NO);
	stack_result_release(&r);

	init(&r, "sm_103");
	add(&r, "fam.so", "compute_100f@88");
	decide(&r);
	expect(&r, 0, STACK_JIT, "fam.so: compute_100f PTX only: JIT, without the sm_103a features");
	assert_int_equal(stack_worst(&r), STACK_JIT);
	r.accept_jit = true;
	assert_int_equal(stack_worst(&r), STACK_YES);
	assert_int_equal(r.ready[0], STACK_JIT);	/* the answer stays jit */
	stack_result_release(&r);
}

/* Binaries alone: judged on their code; a yes says the driver was not checked. */
static void binaries_alone(void **state)
{
	struct stack_result r;

	(void)state;
	init(&r, "sm_100,gfx942");
	add(&r, "a.so", "sm_100 gfx942");
	add(&r, "b.so", "sm_100a gfx942:sramecc+:xnack-");
	decide(&r);
	expect(&r, 0, STACK_YES, "native code in 2 files; the driver is not checked: no input gives it");
	expect(&r, 1, STACK_YES, "native code in 2 files");
	assert_int_equal(stack_worst(&r), STACK_YES);
	stack_result_release(&r);
}

/* An environment report must show the driver and PyTorch's build; the other vendor's build is no. */
static void environment_report(void **state)
{
	struct stack_result r;

	(void)state;
	init(&r, "sm_100,gfx942");
	r.env_report = true;
	r.env = (struct readiness_env){ .torch = "2.8.0", .torch_cuda = "12.8" };
	decide(&r);
	expect(&r, 0, STACK_UNKNOWN, "the driver is not shown (the environment report has no "
	       "\"Nvidia driver version\" line)");
	expect(&r, 1, STACK_NO, "PyTorch is a CUDA build (CUDA 12.8): it has no code for AMD GPUs");
	stack_result_release(&r);

	init(&r, "sm_100");
	r.env_report = true;
	r.env = (struct readiness_env){ .torch = "2.8.0", .torch_cuda = "12.8", .driver = "570.124.06" };
	decide(&r);
	expect(&r, 0, STACK_YES, "CUDA 12.8, driver 570.124.06, PyTorch 2.8.0: each meets its minimum");
	stack_result_release(&r);

	init(&r, "sm_100,gfx942");	/* a ROCm build, and ROCm too old for gfx942 */
	r.env_report = true;
	r.env = (struct readiness_env){ .torch = "2.5.1", .torch_rocm = "6.2", .rocm = "5.7.1" };
	decide(&r);
	expect(&r, 0, STACK_NO, "PyTorch is a ROCm build (ROCm 6.2): it has no code for NVIDIA GPUs; "
	       "PyTorch 2.5.1 is older than 2.7");
	expect(&r, 1, STACK_NO, "ROCm 5.7.1 is older than 6.0");
	stack_result_release(&r);

	init(&r, "gfx942");
	r.env = (struct readiness_env){ .torch = "2.7.0", .torch_cpu = true };
	r.packages = 1;
	decide(&r);
	expect(&r, 0, STACK_NO, "PyTorch is a CPU build: it runs nothing on a GPU");
	stack_result_release(&r);
}

/* A package list: PyTorch's build needed, the driver not (no list holds it); no beats unknown. */
static void package_list(void **state)
{
	struct stack_result r;

	(void)state;
	init(&r, "sm_120");
	r.packages = 12;
	r.env = (struct readiness_env){ .torch = "2.7.0" };
	decide(&r);
	expect(&r, 0, STACK_UNKNOWN, "PyTorch's GPU build is not shown (no \"CUDA used to build "
	       "PyTorch\" line, no +cuXYZ or +rocmX.Y torch package)");
	stack_result_release(&r);

	init(&r, "sm_120");
	r.packages = 12;
	r.env = (struct readiness_env){ .torch = "2.7.0", .torch_cuda = "12.4" };
	add(&r, "ext.so", "sm_90");
	decide(&r);
	expect(&r, 0, STACK_NO, "no code for sm_120 in ext.so; CUDA 12.4 is older than 12.8");
	stack_result_release(&r);
}

/* Nothing at all, or versions alone: unknown, said so. */
static void nothing(void **state)
{
	struct stack_result r;

	(void)state;
	init(&r, "sm_100");
	decide(&r);
	expect(&r, 0, STACK_UNKNOWN, "nothing found: no GPU code, environment report, package list "
	       "or arch list");
	assert_int_equal(stack_worst(&r), STACK_UNKNOWN);
	stack_result_release(&r);

	init(&r, "sm_100");	/* an NCCL log's version alone shows no code */
	r.env = (struct readiness_env){ .nccl = "2.26.2" };
	decide(&r);
	expect(&r, 0, STACK_UNKNOWN, "no GPU code, PyTorch build or arch list was found: versions "
	       "alone do not show code for sm_100");
	stack_result_release(&r);
}

/*
 * bitsandbytes' layout: one CUDA variant loads, the other CUDA and ROCm
 * variants are alternatives and never count; unmarked, each would miss a target.
 */
static void variants(void **state)
{
	static const char *const files[][2] = {
		{ "bnb/libbitsandbytes_cuda126.so", "sm_100 sm_120 compute_120@85" },
		{ "bnb/libbitsandbytes_cuda118.so", "sm_80 sm_90 compute_90@78" },
		{ "bnb/libbitsandbytes_rocm62.so", "gfx90a gfx942" },
	};
	struct stack_result r;

	(void)state;
	for (int marked = 0; marked < 2; marked++) {
		init(&r, "sm_100,sm_120");
		for (size_t i = 0; i < 3; i++) {
			struct stack_item *it = add(&r, files[i][0], files[i][1]);

			it->group = marked ? "bitsandbytes" : NULL;
			it->alternative = marked && i > 0;
		}
		decide(&r);
		if (marked) {
			expect(&r, 0, STACK_YES, "native code in 1 file; the driver is not checked: no input gives it");
			expect(&r, 1, STACK_YES, "native code in 1 file; the driver is not checked: no input gives it");
		} else {
			/* the sm_80/sm_90 variant reaches sm_100 through its compute_90 PTX */
			expect(&r, 0, STACK_NO, "no code for sm_100 in bnb/libbitsandbytes_rocm62.so");
		}
		stack_result_release(&r);
	}
}

/* What render writes for r, as one string (the caller frees it). */
static char *rendered(const struct stack_result *r, bool json)
{
	FILE *f = tmpfile();
	char *out;
	long n;

	assert_non_null(f);
	if (json)
		assert_int_equal(stack_json(r, f), 0);
	else
		stack_text(r, f);
	n = ftell(f);
	out = calloc(1, (size_t)n + 1);
	rewind(f);
	assert_int_equal(fread(out, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return out;
}

/* The loaded variant is a row and its group's line; the others only counted there (text) or flagged (JSON). */
static void variants_rendered(void **state)
{
	struct stack_result r;
	char *text, *json;

	(void)state;
	init(&r, "sm_100,gfx942");
	add(&r, "bnb/libbitsandbytes_cuda126.so", "sm_100")->group = "bitsandbytes";
	for (int i = 0; i < 2; i++) {
		struct stack_item *it = add(&r, i ? "bnb/libbitsandbytes_rocm62.so" : "bnb/libbitsandbytes_cuda118.so",
					    i ? "gfx942" : "sm_80");

		it->group = "bitsandbytes";
		it->alternative = true;
	}
	add(&r, "other.so", "sm_100 gfx942");
	decide(&r);
	text = rendered(&r, false);
	assert_non_null(strstr(text, "\nvariants:\n  bitsandbytes: loads libbitsandbytes_cuda126.so "
				     "(native sm_100, missing gfx942); 2 other variants not loaded\n"));
	assert_non_null(strstr(text, "\nbnb/libbitsandbytes_cuda126.so  "));
	assert_null(strstr(text, "\nbnb/libbitsandbytes_cuda118.so"));
	assert_null(strstr(text, "\nbnb/libbitsandbytes_rocm62.so"));
	assert_non_null(strstr(text, "\nready: sm_100 yes, gfx942 no\n"
				     "  sm_100 yes: native code in 2 files; the driver is not checked: no input gives it\n"
				     "  gfx942 no: no code for gfx942 in bnb/libbitsandbytes_cuda126.so\n"));
	json = rendered(&r, true);
	assert_non_null(strstr(json, "\"fix\": null,\n      \"group\": \"bitsandbytes\",\n      \"alternative\": true"));
	assert_non_null(strstr(json, "\"group\": null,\n      \"alternative\": false"));
	free(text);
	free(json);
	stack_result_release(&r);
}

/* More than three files missing a target, or jit: three named, the rest counted. */
static void many_missing(void **state)
{
	struct stack_result r;
	char path[32];

	(void)state;
	init(&r, "sm_100");
	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "x%d.so", i);
		add(&r, path, "sm_90");
	}
	decide(&r);
	expect(&r, 0, STACK_NO, "no code for sm_100 in x0.so, x1.so, x2.so and 2 more");
	stack_result_release(&r);

	init(&r, "sm_100");
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "p%d.so", i);
		add(&r, path, "compute_90@78");
	}
	decide(&r);
	expect(&r, 0, STACK_JIT, "p0.so: compute_90 PTX only: JIT, without sm_100's instructions; "
	       "p1.so: compute_90 PTX only: JIT, without sm_100's instructions; "
	       "p2.so: compute_90 PTX only: JIT, without sm_100's instructions; "
	       "and 1 more file only through PTX");
	stack_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jit_of_older_ptx),
		cmocka_unit_test(jit_against_the_driver),
		cmocka_unit_test(binaries_alone),
		cmocka_unit_test(environment_report),
		cmocka_unit_test(package_list),
		cmocka_unit_test(nothing),
		cmocka_unit_test(variants),
		cmocka_unit_test(variants_rendered),
		cmocka_unit_test(many_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
