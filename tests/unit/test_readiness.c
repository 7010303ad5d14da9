/* The readiness judgement (core/readiness): every compatibility rule on hand-built code objects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/readiness.h"

/*
 * Builds an object from "sm_90 sm_100a compute_120@87 lto_100 gfx942:xnack-":
 * sm_ = SASS, compute_ = PTX (@ISA), lto_ = LTO-IR, gfx = AMDGPU.
 */
static void build(struct code_object *o, const char *path, const char *spec)
{
	char words[256], *save = NULL;

	code_object_init(o, path, "shared-object");
	snprintf(words, sizeof(words), "%s", spec);
	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		struct code_entry e = { .ptx_isa = -1, .cubin_abi = -1, .offset = 0 };
		char *at = strchr(w, '@');
		const char *d;
		char *end;

		if (at) {
			*at = 0;
			e.ptx_isa = atoi(at + 1);
		}
		snprintf(e.arch, sizeof(e.arch), "%s", w);
		if (!strncmp(w, "gfx", 3)) {
			e.kind = CODE_AMDGPU;
			e.sm = -1;
			code_object_add(o, &e);
			continue;
		}
		e.kind = !strncmp(w, "sm_", 3) ? CODE_SASS : !strncmp(w, "lto_", 4) ? CODE_LTOIR
											: CODE_PTX;
		d = strchr(w, '_') + 1;
		e.sm = (int)strtol(d, &end, 10);
		e.suffix = *end;
		code_object_add(o, &e);
	}
}

static const struct {
	const char *spec;	/* the object's entries */
	const char *target;
	enum code_verdict want;
	const char *by;		/* the deciding entry's arch */
} rules[] = {
	/* SASS: same major, minor <= the device's */
	{ "sm_100", "sm_100", CODE_NATIVE, "sm_100" },
	{ "sm_100", "sm_103", CODE_NATIVE, "sm_100" },	/* B300 runs sm_100 cubins */
	{ "sm_103", "sm_100", CODE_MISSING, NULL },	/* never backwards */
	{ "sm_120", "sm_121", CODE_NATIVE, "sm_120" },	/* GB10 runs sm_120 cubins */
	{ "sm_90", "sm_100", CODE_MISSING, NULL },	/* never across a major */
	{ "sm_100", "sm_120", CODE_MISSING, NULL },
	{ "sm_100", "sm_110", CODE_MISSING, NULL },
	{ "sm_80 sm_86", "sm_89", CODE_NATIVE, "sm_80" },	/* the first that runs decides */
	/* `a`: exactly that GPU */
	{ "sm_100a", "sm_100", CODE_NATIVE, "sm_100a" },
	{ "sm_100a", "sm_103", CODE_MISSING, NULL },
	{ "sm_90a", "sm_100", CODE_MISSING, NULL },
	{ "sm_120a", "sm_120", CODE_NATIVE, "sm_120a" },
	/* `f`: the family */
	{ "sm_100f", "sm_103", CODE_NATIVE, "sm_100f" },
	{ "sm_120f", "sm_121", CODE_NATIVE, "sm_120f" },
	{ "sm_103f", "sm_100", CODE_MISSING, NULL },
	{ "sm_100f", "sm_120", CODE_MISSING, NULL },
	/* PTX: any virtual arch <= the device, a newer ISA and arch preferred */
	{ "compute_90@78", "sm_100", CODE_JIT, "compute_90" },
	{ "compute_90@78", "sm_120", CODE_JIT, "compute_90" },
	{ "compute_120@87", "sm_100", CODE_MISSING, NULL },
	{ "compute_80@70 compute_90@80", "sm_100", CODE_JIT, "compute_90" },
	{ "compute_100a@87", "sm_100", CODE_JIT, "compute_100a" },
	{ "compute_100a@87", "sm_103", CODE_MISSING, NULL },
	{ "compute_100f@88", "sm_103", CODE_JIT, "compute_100f" },
	{ "compute_100f@88", "sm_120", CODE_MISSING, NULL },
	/* SASS beats PTX; LTO-IR never loads */
	{ "compute_90@78 sm_100", "sm_100", CODE_NATIVE, "sm_100" },
	{ "sm_90 compute_90@78", "sm_100", CODE_JIT, "compute_90" },
	{ "lto_100", "sm_100", CODE_MISSING, NULL },
	/* ROCm: exactly the processor; features do not matter */
	{ "gfx942:sramecc+:xnack-", "gfx942", CODE_NATIVE, "gfx942:sramecc+:xnack-" },
	{ "gfx90a", "gfx942", CODE_MISSING, NULL },
	{ "gfx90a gfx942", "gfx90a", CODE_NATIVE, "gfx90a" },
	{ "gfx9420", "gfx942", CODE_MISSING, NULL },
	/* the other vendor never counts */
	{ "gfx942", "sm_100", CODE_MISSING, NULL },
	{ "sm_100 compute_90@78", "gfx942", CODE_MISSING, NULL },
	{ "", "sm_100", CODE_MISSING, NULL },
};

static void every_rule(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct code_object o;
		struct target t;
		struct judgement j;

		build(&o, "x.so", rules[i].spec);
		assert_int_equal(target_parse(rules[i].target, &t), 0);
		readiness_judge(&o, &t, &j);
		if (j.verdict != rules[i].want)
			fail_msg("%s on %s: %s, want %s", rules[i].spec, rules[i].target,
				 code_verdict_name(j.verdict), code_verdict_name(rules[i].want));
		if (rules[i].by)
			assert_string_equal(j.by->arch, rules[i].by);
		else
			assert_null(j.by);
		code_object_release(&o);
	}
}

static void jit_driver(void **state)
{
	struct code_object o;
	struct target t;
	struct judgement j;
	const char *cuda, *driver;

	(void)state;
	build(&o, "x.so", "compute_90@87");
	target_parse("sm_120", &t);
	readiness_judge(&o, &t, &j);
	assert_int_equal(j.verdict, CODE_JIT);
	assert_string_equal(j.min_cuda, "12.8");
	assert_string_equal(j.min_driver, "570.26");
	code_object_release(&o);

	assert_true(readiness_ptx_driver(90, &cuda, &driver));
	assert_string_equal(cuda, "13.0");
	assert_string_equal(driver, "580.65.06");
	assert_true(readiness_ptx_driver(78, &cuda, &driver));
	assert_string_equal(cuda, "11.8");
	/* NVIDIA's release notes: CUDA 13.1 GA >= 590.44.01, 13.2 GA >= 595.45.04 */
	assert_true(readiness_ptx_driver(91, &cuda, &driver));
	assert_string_equal(driver, "590.44.01");
	assert_true(readiness_ptx_driver(92, &cuda, &driver));
	assert_string_equal(cuda, "13.2");
	assert_string_equal(driver, "595.45.04");
	/* cuda_13.3.0_610.43.02_linux.run; 13.4 and 13.5: the release, no known minimum driver */
	assert_true(readiness_ptx_driver(93, &cuda, &driver));
	assert_string_equal(cuda, "13.3");
	assert_string_equal(driver, "610.43.02");
	assert_true(readiness_ptx_driver(95, &cuda, &driver));
	assert_string_equal(cuda, "13.5");
	assert_null(driver);
	assert_false(readiness_ptx_driver(96, &cuda, &driver));
	assert_false(readiness_ptx_driver(86, &cuda, &driver));	/* never public */
	assert_null(cuda);
	assert_null(driver);
	assert_false(readiness_ptx_driver(-1, &cuda, &driver));
}

static void targets(void **state)
{
	struct target_list tl;
	struct target t;
	char err[128];

	(void)state;
	target_list_default(&tl);
	assert_int_equal(tl.n, 2);
	assert_string_equal(tl.t[0].name, "sm_100");
	assert_string_equal(tl.t[1].name, "sm_120");
	assert_int_equal(tl.t[1].major, 12);
	assert_int_equal(tl.t[1].minor, 0);

	assert_int_equal(target_list_parse(" sm_100, gfx942,sm_100,sm_86 ", &tl, err, sizeof(err)), 0);
	assert_int_equal(tl.n, 3);
	assert_int_equal(tl.t[1].vendor, TARGET_ROCM);
	assert_int_equal(tl.t[1].sm, 942);
	assert_int_equal(tl.t[2].major, 8);
	assert_int_equal(tl.t[2].minor, 6);

	assert_int_equal(target_list_parse("sm_100,sm_10x", &tl, err, sizeof(err)), -1);
	assert_string_equal(err, "'sm_10x' is not a GPU target (sm_100, sm_120, gfx942 ...)");
	assert_int_equal(target_list_parse(" , ", &tl, err, sizeof(err)), -1);
	assert_string_equal(err, "the target list is empty");
	assert_int_equal(target_list_parse("sm_100a", &tl, err, sizeof(err)), -1);
	assert_int_equal(target_list_parse("compute_100", &tl, err, sizeof(err)), -1);

	assert_int_equal(target_parse("gfx90a", &t), 0);
	assert_int_equal(t.sm, -1);
	assert_int_equal(target_parse("sm_9", &t), -1);
	assert_int_equal(target_parse("sm_1000", &t), -1);
	assert_int_equal(target_parse("gfx", &t), -1);
	assert_int_equal(target_parse("GFX942", &t), -1);
}

/* The fix for an object whose verdicts for the default targets are v[0], v[1]. */
static void fix_of(const char *path, const char *spec, const char *targets_list, const char *want)
{
	struct target_list tl;
	struct code_object o;
	enum code_verdict v[READINESS_MAX_TARGETS];
	struct buf out = BUF_INIT;
	char err[128];

	assert_int_equal(target_list_parse(targets_list, &tl, err, sizeof(err)), 0);
	build(&o, path, spec);
	for (size_t i = 0; i < tl.n; i++) {
		struct judgement j;

		readiness_judge(&o, &tl.t[i], &j);
		v[i] = j.verdict;
	}
	buf_init(&out, 0);
	readiness_fix(&o, &tl, v, &out);
	assert_string_equal(out.len ? out.data : "", want);
	buf_release(&out);
	code_object_release(&o);
}

static void fixes(void **state)
{
	(void)state;
	fix_of("site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so", "sm_80 sm_90",
	       "sm_100,sm_120", "rebuild flash_attn_2_cuda with TORCH_CUDA_ARCH_LIST=\"10.0;12.0\"");
	fix_of("ext.so", "sm_100", "sm_100,sm_120", "rebuild ext with TORCH_CUDA_ARCH_LIST=\"12.0\"");
	fix_of("ext.so", "sm_100 sm_120", "sm_100,sm_120", "");
	fix_of("ext.so", "sm_80 compute_80@78", "sm_100,sm_120",
	       "rebuild ext with TORCH_CUDA_ARCH_LIST=\"10.0;12.0\" to avoid the PTX compilation at "
	       "start-up");
	/* only jit: the rebuild is for start-up; with a missing target, for the missing ones */
	fix_of("ext.so", "sm_100a compute_90@78", "sm_100,sm_103,sm_120",
	       "rebuild ext with TORCH_CUDA_ARCH_LIST=\"10.3;12.0\" to avoid the PTX compilation at "
	       "start-up");
	fix_of("ext.so", "sm_100a", "sm_100,sm_103,sm_120",
	       "rebuild ext with TORCH_CUDA_ARCH_LIST=\"10.3;12.0\"");
	fix_of("a/libtorch_cuda.so", "sm_80 sm_90", "sm_100,sm_120",
	       "install a PyTorch 2.7 or newer wheel built with CUDA 12.8 (cu128): pip install torch "
	       "--index-url https://download.pytorch.org/whl/cu128");
	fix_of("lib/libnccl.so.2", "sm_90", "sm_100",
	       "install NCCL 2.25.1 or newer (the nvidia-nccl-cu12 wheel)");
	fix_of("ops.so", "gfx90a", "gfx942", "ops: rebuild with PYTORCH_ROCM_ARCH=\"gfx942\"");
	fix_of("ops.so", "sm_90", "sm_100,gfx942,gfx90a",
	       "rebuild ops with TORCH_CUDA_ARCH_LIST=\"10.0\"; ops is a CUDA build: install or "
	       "build its ROCm version for gfx942;gfx90a");
	fix_of("ops.so", "gfx90a", "sm_100,gfx90a",
	       "ops is a ROCm build: install or build its CUDA version");
	/* a CUDA library on an AMD target: not its CUDA fix */
	fix_of("libcublas.so.13", "sm_100 sm_120", "sm_100,gfx942",
	       "libcublas is a CUDA build: install or build its ROCm version for gfx942");
}

static void arch_lists(void **state)
{
	struct code_object o;
	struct target t;
	struct judgement j;

	(void)state;
	assert_int_equal(readiness_arch_list("['sm_75', 'sm_80', 'sm_90a', 'compute_120']", "torch",
					     &o), 4);
	assert_string_equal(o.kind, "arch-list");
	assert_int_equal(o.entry[2].kind, CODE_SASS);
	assert_int_equal(o.entry[2].sm, 90);
	assert_int_equal(o.entry[2].suffix, 'a');
	assert_int_equal(o.entry[3].kind, CODE_PTX);
	assert_string_equal(o.entry[3].arch, "compute_120");
	target_parse("sm_120", &t);
	readiness_judge(&o, &t, &j);
	assert_int_equal(j.verdict, CODE_JIT);
	assert_null(j.min_driver);	/* the ISA is not known from a list */
	code_object_release(&o);

	assert_int_equal(readiness_arch_list("7.5 8.0;9.0a 12.0+PTX bogus 1.2.3 gfx942", "l", &o), 6);
	assert_string_equal(o.entry[0].arch, "sm_75");
	assert_string_equal(o.entry[2].arch, "sm_90a");
	assert_string_equal(o.entry[3].arch, "sm_120");
	assert_string_equal(o.entry[4].arch, "compute_120");
	assert_int_equal(o.entry[5].kind, CODE_AMDGPU);
	code_object_release(&o);
}

static void versions(void **state)
{
	(void)state;
	assert_true(version_cmp("12.10", "12.9") > 0);
	assert_true(version_cmp("2.7.0+cu128", "2.7") == 0);
	assert_true(version_cmp("2.6.0", "2.7") < 0);
	assert_true(version_cmp("570.124.06", "570.26") > 0);
	assert_true(version_cmp("565.57.01", "570.26") < 0);
	assert_true(version_cmp("9.7", "9.7.0") == 0);
	assert_true(version_cmp("2.25.1", "2.25.1") == 0);
	assert_true(version_cmp("2.21.5+cuda12.4", "2.25.1") < 0);
	assert_true(version_cmp("6.2.41133-dd7f95766", "6.0") > 0);
}

static const char *check_line(const struct readiness_check *c, char *s, size_t n)
{
	snprintf(s, n, "%s %s %s %s", c->row->target ? c->row->target : "*",
		 stack_component_name(c->row->comp), c->have, c->ok ? "ok" : "fail");
	return s;
}

static void environment(void **state)
{
	struct readiness_env e = {
		.torch = "2.6.0", .torch_cuda = "12.6", .driver = "570.124.06", .nccl = "2.21.5",
		.cudnn = "9.7.1", .arch_list = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90",
	};
	static const char *const want[] = {
		"sm_100 CUDA 12.6 fail", "sm_100 driver 570.124.06 ok", "sm_100 PyTorch 2.6.0 fail",
		"sm_100 NCCL 2.21.5 fail", "sm_100 cuDNN 9.7.1 ok",
		"sm_100 arch list sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 fail",
		"* arch list sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 ok",
	};
	struct readiness_check c[16];
	struct target_list tl;
	char err[64], line[160];
	size_t n;

	(void)state;
	assert_int_equal(target_list_parse("sm_100,sm_86", &tl, err, sizeof(err)), 0);
	n = readiness_check_env(&e, &tl, c, 16);
	assert_int_equal(n, 7);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(check_line(&c[i], line, sizeof(line)), want[i]);
	assert_string_equal(c[0].row->fix, "install a PyTorch wheel built with CUDA 12.8 or newer (cu128)");
	assert_ptr_equal(c[6].target, &tl.t[1]);	/* the shared row, for sm_86 */
	assert_int_equal(readiness_check_env(&e, &tl, c, 2), 7);	/* counts past max */

	/* a 2.7 cu128 stack on a driver too old; gfx942 against ROCm 5.7 */
	e = (struct readiness_env){ .torch = "2.7.0+cu128", .torch_cuda = "12.8", .driver = "560.35.03",
				    .arch_list = "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 compute_120",
				    .rocm = "5.7.31921" };
	assert_int_equal(target_list_parse("sm_120,gfx942", &tl, err, sizeof(err)), 0);
	n = readiness_check_env(&e, &tl, c, 16);
	assert_int_equal(n, 6);
	assert_string_equal(check_line(&c[0], line, sizeof(line)), "sm_120 CUDA 12.8 ok");
	assert_string_equal(check_line(&c[1], line, sizeof(line)), "sm_120 driver 560.35.03 fail");
	assert_string_equal(check_line(&c[2], line, sizeof(line)), "sm_120 PyTorch 2.7.0+cu128 ok");
	assert_true(c[3].ok);
	assert_string_equal(check_line(&c[4], line, sizeof(line)), "gfx942 ROCm 5.7.31921 fail");
	assert_false(c[5].ok);	/* no gfx942 in the list */
	assert_string_equal(c[5].row->target, "gfx942");
	assert_ptr_equal(c[5].target, &tl.t[1]);

	/* nothing known: nothing checked */
	e = (struct readiness_env){ 0 };
	assert_int_equal(readiness_check_env(&e, &tl, c, 16), 0);
}

static void table(void **state)
{
	size_t n;
	const struct min_version *m = readiness_min_versions(&n);
	int seen = 0;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		struct target t;

		assert_non_null(m[i].fix);
		assert_true(!m[i].target || target_parse(m[i].target, &t) == 0);
		assert_true(m[i].version || m[i].comp == COMP_ARCHS);
		if (m[i].target && !strcmp(m[i].target, "sm_100")) {
			seen++;
			if (m[i].comp == COMP_DRIVER)
				assert_string_equal(m[i].version, "570.26");
			if (m[i].comp == COMP_NCCL)
				assert_string_equal(m[i].version, "2.25.1");
			if (m[i].comp == COMP_CUDNN)
				assert_string_equal(m[i].version, "9.7");
		}
	}
	assert_int_equal(seen, 6);
	assert_null(m[n - 1].target);
	assert_string_equal(code_verdict_name(CODE_JIT), "jit");
	assert_string_equal(stack_component_name(COMP_ARCHS), "arch list");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_rule),
		cmocka_unit_test(jit_driver),
		cmocka_unit_test(targets),
		cmocka_unit_test(fixes),
		cmocka_unit_test(arch_lists),
		cmocka_unit_test(versions),
		cmocka_unit_test(environment),
		cmocka_unit_test(table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
