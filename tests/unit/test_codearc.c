/*
 * GPU code in archives (ingest/codearc) on the built package of
 * tests/data/stack/variants (make-variants.sh): every member with GPU code
 * handed over under its ARCHIVE/PATH name with the entries the loose file
 * has, the CPU library counted, links skipped, a member too large named, a
 * damaged archive said once; then the variants of the wheel grouped and
 * marked for each PyTorch build (analysis/stack_variants).
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
#include "core/buf.h"
#include "ingest/codearc.h"
#include "ingest/codescan.h"

#define WHEEL "bitsandbytes-0.0.1-py3-none-manylinux_2_24_x86_64.whl"
#define CONDA_PKG "bitsandbytes-0.0.1-cuda_0.conda/pkg-bitsandbytes-0.0.1-cuda_0.tar.zst"
#define SITE "lib/python3.11/site-packages/bitsandbytes/"

static const char *fixture(const char *name)
{
	static char path[4096];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/data/stack/variants/%s", top && *top ? top : ".", name);
	return path;
}

static void add(void *user, struct code_object *o)
{
	stack_add_item(user, o);
}

/* The five libraries with GPU code and what the loose copies hold. */
static const struct {
	const char *file;
	const char *archs;
} libs[] = {
	{ "libbitsandbytes_cuda126.so", "sm_80 sm_90" },
	{ "libbitsandbytes_cuda128.so", "sm_80 sm_100 sm_120" },
	{ "libbitsandbytes_cuda130.so", "sm_100 sm_120" },
	{ "libbitsandbytes_rocm62.so", "gfx90a:xnack+ gfx942:sramecc+:xnack-" },
	{ "libbitsandbytes_rocm64.so", "gfx90a:xnack+ gfx908:sramecc+:xnack-" },
};

/* Reads archive (a fixture) into r; returns codearc_scan's value. */
static int scan(const char *archive, struct stack_result *r, struct codearc_stats *st, struct diags *d)
{
	*r = (struct stack_result){ 0 };
	target_list_default(&r->tl);
	*st = (struct codearc_stats){ 0 };
	return codearc_scan(fixture(archive), add, r, st, d);
}

/* r holds exactly the five libraries, as prefix + file, in order, with the loose files' archs. */
static void holds_libs(const struct stack_result *r, const char *prefix)
{
	struct buf b = BUF_INIT;

	assert_int_equal(r->nitem, 5);
	for (size_t i = 0; i < 5; i++) {
		char want[4096];

		snprintf(want, sizeof(want), "%s%s", fixture(prefix), libs[i].file);
		assert_string_equal(r->item[i].o.path, want);
		assert_string_equal(r->item[i].o.kind, "shared-object");
		buf_init(&b, 0);
		code_object_archs(&r->item[i].o, -1, &b);
		assert_string_equal(b.data ? b.data : "", libs[i].archs);
		buf_release(&b);
	}
}

static void packages(void **state)
{
	static const char *const prefix[][2] = {
		{ WHEEL, WHEEL "/bitsandbytes/" },
		{ "bitsandbytes-0.0.1-cuda_0.tar.bz2", "bitsandbytes-0.0.1-cuda_0.tar.bz2/" SITE },
		{ "bitsandbytes-0.0.1-cuda_0.conda", CONDA_PKG "/" SITE },
	};

	(void)state;
	for (size_t k = 0; k < 3; k++) {
		struct stack_result r;
		struct codearc_stats st;
		struct diags d = DIAGS_INIT;

		assert_int_equal(scan(prefix[k][0], &r, &st, &d), 0);
		holds_libs(&r, prefix[k][1]);
		assert_int_equal(st.binaries, 6);	/* and the CPU one; the link is skipped */
		assert_int_equal(st.plain, 1);
		assert_int_equal(st.unread, 0);
		assert_int_equal(d.count, 0);
		stack_result_release(&r);
		diags_release(&d);
	}
}

static void loose_files_agree(void **state)
{
	(void)state;
	for (size_t i = 0; i < 5; i++) {
		char path[256];
		struct code_object o;
		struct diags d = DIAGS_INIT;
		struct buf b = BUF_INIT;

		snprintf(path, sizeof(path), "site-packages/bitsandbytes/%s", libs[i].file);
		assert_int_equal(codescan_file(fixture(path), &o, &d), 0);
		buf_init(&b, 0);
		code_object_archs(&o, -1, &b);
		assert_string_equal(b.data, libs[i].archs);
		buf_release(&b);
		code_object_release(&o);
		diags_release(&d);
	}
}

static void too_large(void **state)
{
	struct stack_result r;
	struct codearc_stats st;
	struct diags d = DIAGS_INIT;
	char want[4096];

	(void)state;
	assert_int_equal(scan("big-member.tar.zst", &r, &st, &d), 0);
	assert_int_equal(r.nitem, 1);
	assert_int_equal(st.unread, 1);
	assert_int_equal(st.binaries, 1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.items[0].code, "member-too-large");
	snprintf(want, sizeof(want), "%s", fixture("big-member.tar.zst/bitsandbytes/libhuge.so"));
	assert_string_equal(d.items[0].file, want);
	assert_string_equal(d.items[0].message, "a binary of 314572800 bytes inside an archive is not "
			    "scanned for GPU code: at most 268435456 bytes (256 MiB) are held in memory; "
			    "extract the archive to judge it");
	stack_result_release(&r);
	diags_release(&d);
}

static void damaged(void **state)
{
	static const struct {
		const char *file;
		size_t items;		/* members read before the damage */
		const char *message;
	} cut[] = {
		{ "cut.whl", 1, "bitsandbytes/libbitsandbytes_cuda128.so: byte 4096: ZIP decompression failed (-5)" },
		{ "cut.tar.bz2", 0, "truncated bzip2 input" },
	};

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct stack_result r;
		struct codearc_stats st;
		struct diags d = DIAGS_INIT;

		assert_int_equal(scan(cut[k].file, &r, &st, &d), -1);
		assert_int_equal(r.nitem, cut[k].items);
		assert_int_equal(d.count, 1);
		assert_string_equal(d.items[0].code, "archive");
		assert_string_equal(d.items[0].file, fixture(cut[k].file));
		assert_string_equal(d.items[0].message, cut[k].message);
		stack_result_release(&r);
		diags_release(&d);
	}
}

static void not_an_archive(void **state)
{
	struct codearc_stats st = { 0 };
	struct diags d = DIAGS_INIT;

	(void)state;
	assert_int_equal(codearc_scan(fixture("README.md"), add, NULL, &st, &d), 1);
	assert_int_equal(codearc_scan(fixture("site-packages/bitsandbytes/libbitsandbytes_cpu.so"), add,
				      NULL, &st, &d), 1);
	assert_int_equal(d.count, 0);
	assert_int_equal(st.binaries + st.plain + st.unread, 0);
}

/* The wheel's variants for each PyTorch build: the one not alternative. */
static void wheel_variants(void **state)
{
	static const struct {
		const char *cuda, *rocm;
		const char *loads;	/* NULL: none loads */
	} envs[] = {
		{ "12.6", NULL, "libbitsandbytes_cuda126.so" },	/* torch 2.7.0+cu126 */
		{ "12.8", NULL, "libbitsandbytes_cuda128.so" },
		{ "12.9", NULL, "libbitsandbytes_cuda128.so" },
		{ "13.0", NULL, "libbitsandbytes_cuda130.so" },
		{ "11.8", NULL, NULL },
		{ NULL, "6.2.41133-dd7f95766", "libbitsandbytes_rocm62.so" },
		{ NULL, "6.4", "libbitsandbytes_rocm64.so" },
		{ NULL, "6.3", "libbitsandbytes_rocm62.so" },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(envs) / sizeof(envs[0]); k++) {
		struct stack_result r;
		struct codearc_stats st;
		struct diags d = DIAGS_INIT;
		const char *got = NULL;

		assert_int_equal(scan(WHEEL, &r, &st, &d), 0);
		r.env.torch_cuda = envs[k].cuda;
		r.env.rocm = envs[k].rocm;
		stack_group_variants(&r);
		for (size_t i = 0; i < r.nitem; i++) {
			assert_non_null(strstr(r.item[i].group, ".whl/bitsandbytes/libbitsandbytes_*"));
			assert_false(r.item[i].loaded_unknown);
			if (r.item[i].alternative)
				continue;
			assert_null(got);	/* one at most */
			got = strrchr(r.item[i].o.path, '/') + 1;
		}
		if (envs[k].loads ? !got || strcmp(got, envs[k].loads) : got != NULL)
			fail_msg("env %zu: loads %s", k, got ? got : "none");
		stack_result_release(&r);
		diags_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(packages),
		cmocka_unit_test(loose_files_agree),
		cmocka_unit_test(too_large),
		cmocka_unit_test(damaged),
		cmocka_unit_test(not_an_archive),
		cmocka_unit_test(wheel_variants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
