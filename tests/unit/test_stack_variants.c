/*
 * Multi-backend packages (analysis/stack_variants): which file names are
 * variants, how they group, and which variant each environment loads, on
 * the layout of the bitsandbytes 0.50 wheel (7 CUDA, 6 ROCm libraries).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/stack_variants.h"
#include "core/xalloc.h"

static const struct {
	const char *name;
	const char *stem, *backend;
	int major, minor;
	bool suffixed;
} names[] = {
	{ "libbitsandbytes_cuda126.so", "bitsandbytes", "cuda", 12, 6, false },
	{ "libbitsandbytes_cuda118.so", "bitsandbytes", "cuda", 11, 8, false },
	{ "libbitsandbytes_cuda130.so", "bitsandbytes", "cuda", 13, 0, false },
	{ "libbitsandbytes_rocm62.so", "bitsandbytes", "rocm", 6, 2, false },
	{ "libbitsandbytes_rocm713.so", "bitsandbytes", "rocm", 7, 13, false },
	{ "libbitsandbytes_cuda118_nocublaslt.so", "bitsandbytes", "cuda", 11, 8, true },
	{ "libmy_ext_cuda128.so.1", "my_ext", "cuda", 12, 8, false },
	{ "libbitsandbytes_cpu.so", NULL, NULL, 0, 0, false },
	{ "libtorch_cuda.so", NULL, NULL, 0, 0, false },
	{ "libc10_cuda.so", NULL, NULL, 0, 0, false },
	{ "libx_cuda12.so", NULL, NULL, 0, 0, false },	/* no minor digit */
	{ "libx_cuda126.dll", NULL, NULL, 0, 0, false },
	{ "libx_cuda126.sox", NULL, NULL, 0, 0, false },
	{ "bitsandbytes_cuda126.so", NULL, NULL, 0, 0, false },	/* no "lib" */
	{ "lib_cuda126.so", NULL, NULL, 0, 0, false },	/* no stem */
};

static void parse_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct variant_name v;
		bool is = variant_name_parse(names[i].name, &v);

		if (is != (names[i].stem != NULL))
			fail_msg("%s: parsed %d", names[i].name, is);
		if (!is)
			continue;
		assert_int_equal(v.stem_len, strlen(names[i].stem));
		assert_memory_equal(v.stem, names[i].stem, v.stem_len);
		assert_string_equal(v.backend, names[i].backend);
		assert_int_equal(v.major, names[i].major);
		assert_int_equal(v.minor, names[i].minor);
		assert_int_equal(v.suffixed, names[i].suffixed);
	}
}

/* The bitsandbytes 0.50 wheel's libraries, and a file of another package beside them. */
static const char *const wheel[] = {
	"pkg.whl/bitsandbytes/libbitsandbytes_cuda118.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_cuda120.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_cuda124.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_cuda126.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_cuda128.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_cuda129.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_cuda130.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_rocm61.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_rocm62.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_rocm63.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_rocm64.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_rocm70.so",
	"pkg.whl/bitsandbytes/libbitsandbytes_rocm71.so",
	"pkg.whl/other/libflash_cuda126.so",	/* alone in its directory: no group */
	"pkg.whl/bitsandbytes/libmulti.so",
};
#define NWHEEL (sizeof(wheel) / sizeof(wheel[0]))

static void build(struct stack_result *r, const char *cuda, const char *rocm)
{
	*r = (struct stack_result){ 0 };
	for (size_t i = 0; i < NWHEEL; i++) {
		xgrow(&r->item, &r->cap, r->nitem + 1, sizeof(*r->item));
		r->item[r->nitem] = (struct stack_item){ 0 };
		code_object_init(&r->item[r->nitem++].o, wheel[i], "shared-object");
	}
	r->env.torch_cuda = cuda;
	r->env.rocm = rocm;
	stack_group_variants(r);
}

/* The one item not alternative among the 13 variants, by name; NULL when every one is. */
static const char *loaded(const struct stack_result *r)
{
	const char *got = NULL;

	for (size_t i = 0; i < 13; i++) {
		assert_non_null(r->item[i].group);
		assert_string_equal(r->item[i].group, "pkg.whl/bitsandbytes/libbitsandbytes_*");
		assert_false(r->item[i].loaded_unknown);
		if (!r->item[i].alternative) {
			assert_null(got);
			got = strrchr(r->item[i].o.path, '/') + 1;
		}
	}
	assert_null(r->item[13].group);
	assert_null(r->item[14].group);
	assert_false(r->item[13].alternative);
	return got;
}

static void release(struct stack_result *r)
{
	stack_result_release(r);
}

static const struct {
	const char *cuda, *rocm;
	const char *want;	/* NULL: none loads */
} envs[] = {
	{ "12.6", NULL, "libbitsandbytes_cuda126.so" },		/* torch cu126 */
	{ "12.8", NULL, "libbitsandbytes_cuda128.so" },
	{ "13.0", NULL, "libbitsandbytes_cuda130.so" },
	{ "12.7", NULL, "libbitsandbytes_cuda126.so" },		/* the newest older one */
	{ "12.1", NULL, "libbitsandbytes_cuda120.so" },
	{ "11.7", NULL, "libbitsandbytes_cuda118.so" },		/* none older: the oldest newer */
	{ "13.2", NULL, "libbitsandbytes_cuda130.so" },
	{ "10.2", NULL, NULL },					/* no variant of CUDA 10 */
	{ NULL, "6.2.41133-dd7f95766", "libbitsandbytes_rocm62.so" },
	{ NULL, "7.1", "libbitsandbytes_rocm71.so" },
	{ NULL, "6.0", "libbitsandbytes_rocm61.so" },
	{ NULL, "5.7", NULL },
	{ "12.8", "6.4", "libbitsandbytes_rocm64.so" },		/* a ROCm build of PyTorch decides */
	{ "N/A", "6.3", "libbitsandbytes_rocm63.so" },
};

static void loaded_variant(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		struct stack_result r;
		const char *got;

		build(&r, envs[i].cuda, envs[i].rocm);
		got = loaded(&r);
		if (envs[i].want ? !got || strcmp(got, envs[i].want) : got != NULL)
			fail_msg("cuda %s rocm %s: loads %s, expected %s", envs[i].cuda ? envs[i].cuda : "-",
				 envs[i].rocm ? envs[i].rocm : "-", got ? got : "none",
				 envs[i].want ? envs[i].want : "none");
		release(&r);
	}
}

static void unknown_version(void **state)
{
	static const char *const unknown[] = { NULL, "N/A", "None", "" };

	(void)state;
	for (size_t k = 0; k < sizeof(unknown) / sizeof(unknown[0]); k++) {
		struct stack_result r;

		build(&r, unknown[k], unknown[k]);
		for (size_t i = 0; i < 13; i++) {
			assert_string_equal(r.item[i].group, "pkg.whl/bitsandbytes/libbitsandbytes_*");
			assert_false(r.item[i].alternative);
			assert_true(r.item[i].loaded_unknown);
		}
		assert_false(r.item[13].loaded_unknown);
		release(&r);
	}
}

/* A plain name before a suffixed one of the same version; other directories apart. */
static void suffixed_and_directories(void **state)
{
	static const char *const files[] = {
		"a/libbitsandbytes_cuda118_nocublaslt.so",
		"a/libbitsandbytes_cuda118.so",
		"b/libbitsandbytes_cuda118_nocublaslt.so",
		"b/libbitsandbytes_cuda121_nocublaslt.so",
	};
	struct stack_result r = { 0 };

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		xgrow(&r.item, &r.cap, r.nitem + 1, sizeof(*r.item));
		r.item[r.nitem] = (struct stack_item){ 0 };
		code_object_init(&r.item[r.nitem++].o, files[i], "shared-object");
	}
	r.env.torch_cuda = "11.8";
	stack_group_variants(&r);
	assert_true(r.item[0].alternative);
	assert_false(r.item[1].alternative);
	assert_false(r.item[2].alternative);	/* b: only a suffixed one of 11.8 */
	assert_true(r.item[3].alternative);
	/* one package name, two groups: each named by its directory */
	assert_string_equal(r.item[0].group, "a/libbitsandbytes_*");
	assert_string_equal(r.item[2].group, "b/libbitsandbytes_*");
	release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_names),
		cmocka_unit_test(loaded_variant),
		cmocka_unit_test(unknown_version),
		cmocka_unit_test(suffixed_and_directories),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
