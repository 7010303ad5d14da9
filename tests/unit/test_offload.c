/*
 * The ROCm reader (ingest/offload.c) on the fixtures of tests/data/stack/rocm,
 * written by make_fixtures.py there from the documented layouts. Expected
 * values come from the script: the bundle's table is 218 bytes, its code
 * starts at 256 (gfx90a) and 384 (gfx942), entry headers sit at bytes 32, 85
 * and 147, and the compressed forms have 32- (v3) and 24-byte (v2) headers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/buf.h"
#include "core/codeobj.h"
#include "core/diag.h"
#include "ingest/offload.h"

static const char *data(const char *name)
{
	static char path[1024];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/data/stack/rocm/%s", top && *top ? top : ".", name);
	return path;
}

/* The one diagnostic of d as printed, with the path cut to its file name. */
static void expect_diag(const struct diags *d, const char *code, const char *line)
{
	struct buf b;
	const char *text;

	assert_int_equal(d->count, 1);
	assert_string_equal(d->items[0].code, code);
	buf_init(&b, 1 << 16);
	diag_format(&d->items[0], &b);
	text = strrchr(b.data, '/') ? strrchr(b.data, '/') + 1 : b.data;
	assert_string_equal(text, line);
	buf_release(&b);
}

static void expect_entry(const struct code_entry *e, const char *arch, int sm, int64_t offset,
			 bool compressed, bool verified)
{
	assert_int_equal(e->kind, CODE_AMDGPU);
	assert_string_equal(e->arch, arch);
	assert_int_equal(e->sm, sm);
	assert_int_equal(e->offset, offset);
	assert_int_equal(e->compressed, compressed);
	assert_int_equal(e->verified, verified);
	assert_int_equal(e->ptx_isa, -1);
	assert_int_equal(e->suffix, 0);
}

static void test_hsaco(void **state)
{
	struct code_object o;
	struct diags d = DIAGS_INIT;

	(void)state;
	assert_int_equal(offload_scan_hsaco(data("gfx942.hsaco"), &o, &d), 0);
	assert_string_equal(o.kind, "hsaco");
	assert_int_equal(o.nentry, 1);
	assert_int_equal(o.ncontainers, 1);
	expect_entry(&o.entry[0], "gfx942:sramecc+:xnack-", 942, 0, false, true);
	code_object_release(&o);

	assert_int_equal(offload_scan_hsaco(data("gfx90a.hsaco"), &o, &d), 0);
	expect_entry(&o.entry[0], "gfx90a:xnack+", -1, 0, false, true);
	code_object_release(&o);

	assert_int_equal(offload_scan_hsaco(data("make_fixtures.py"), &o, &d), 1);
	assert_int_equal(o.nentry, 0);
	code_object_release(&o);
	assert_int_equal(d.count, 0);
	diags_release(&d);
}

static void expect_bundle(const char *file, bool compressed, int64_t off90a, int64_t off942)
{
	struct code_object o;
	struct diags d = DIAGS_INIT;

	assert_int_equal(offload_scan_hsaco(data(file), &o, &d), 0);
	assert_int_equal(d.count, 0);
	assert_string_equal(o.kind, "offload-bundle");
	assert_int_equal(o.ncontainers, 1);
	assert_int_equal(o.nentry, 2);		/* the host entry adds none */
	expect_entry(&o.entry[0], "gfx90a:xnack+", -1, off90a, compressed, true);
	expect_entry(&o.entry[1], "gfx942:sramecc+:xnack-", 942, off942, compressed, true);
	code_object_release(&o);
	diags_release(&d);
}

static void test_bundles(void **state)
{
	(void)state;
	expect_bundle("bundle_gfx90a_gfx942.hipfb", false, 256, 384);
	expect_bundle("bundle_zlib.hipfb", true, 0, 0);
	expect_bundle("bundle_zstd.hipfb", true, 0, 0);
}

/* Two bundles one after another, the second compressed, as a linked .hip_fatbin holds them. */
static void test_two_bundles(void **state)
{
	struct code_object o;
	struct diags d = DIAGS_INIT;

	(void)state;
	assert_int_equal(offload_scan_hsaco(data("bundles_two.hipfb"), &o, &d), 0);
	assert_int_equal(d.count, 0);
	assert_int_equal(o.ncontainers, 2);
	assert_int_equal(o.nentry, 4);
	expect_entry(&o.entry[0], "gfx90a:xnack+", -1, 256, false, true);
	expect_entry(&o.entry[1], "gfx942:sramecc+:xnack-", 942, 384, false, true);
	expect_entry(&o.entry[2], "gfx90a:xnack+", -1, 4096, true, true);
	expect_entry(&o.entry[3], "gfx942:sramecc+:xnack-", 942, 4096, true, true);
	code_object_release(&o);
	diags_release(&d);
}

/*
 * Files made by real tools (make_real.sh: clang 14, ld.lld, clang-offload-
 * bundler, objcopy); offsets read with xxd and grep -boa: the bundle's code
 * starts at 218 and 3874, and the host library holds it at byte 12335.
 */
static void test_real(void **state)
{
	struct code_object o;
	struct diags d = DIAGS_INIT;
	int fd;

	(void)state;
	assert_int_equal(offload_scan_hsaco(data("real_gfx1030.hsaco"), &o, &d), 0);
	assert_int_equal(o.nentry, 1);
	expect_entry(&o.entry[0], "gfx1030", 1030, 0, false, true);
	code_object_release(&o);

	assert_int_equal(offload_scan_hsaco(data("real_gfx90a_gfx908.hipfb"), &o, &d), 0);
	assert_int_equal(o.nentry, 2);
	expect_entry(&o.entry[0], "gfx90a:xnack+", -1, 218, false, true);
	expect_entry(&o.entry[1], "gfx908:sramecc+:xnack-", 908, 3874, false, true);
	code_object_release(&o);

	fd = open(data("real_hip_host.so"), O_RDONLY);
	assert_true(fd >= 0);
	code_object_init(&o, "real_hip_host.so", "shared-object");
	assert_int_equal(offload_read_bundle(fd, "real_hip_host.so", 12335, 6450, &o, &d), 0);
	close(fd);
	assert_int_equal(o.ncontainers, 1);
	assert_int_equal(o.nentry, 2);
	expect_entry(&o.entry[0], "gfx90a:xnack+", -1, 12335 + 218, false, true);
	expect_entry(&o.entry[1], "gfx908:sramecc+:xnack-", 908, 12335 + 3874, false, true);
	code_object_release(&o);
	assert_int_equal(d.count, 0);
	diags_release(&d);
}

struct bad_case {
	const char *file;
	const char *code;
	const char *line;
	size_t nentry;		/* entries read before the damage */
};

static const struct bad_case bad_cases[] = {
	{ "bad_truncated.hipfb", "truncated",
	  "bad_truncated.hipfb: byte 24: offload bundle says 3 entries, more than its 50 bytes can hold", 0 },
	{ "bad_count.hipfb", "truncated",
	  "bad_count.hipfb: byte 24: offload bundle says 1152921504606846976 entries, more than its "
	  "512 bytes can hold", 0 },
	{ "bad_past_end.hipfb", "truncated",
	  "bad_past_end.hipfb: byte 85: offload bundle entry 1 (hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+): "
	  "512 bytes at offset 256 run past the end of the 512-byte bundle", 0 },
	{ "bad_triple.hipfb", "truncated",
	  "bad_triple.hipfb: byte 163: offload bundle entry 2: triple of 5000 bytes runs past the end "
	  "of the bundle", 1 },
	{ "bad_short.hsaco", "truncated",
	  "bad_short.hsaco: byte 0: AMDGPU code object ends in its ELF header", 0 },
};

static void test_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct code_object o;
		struct diags d = DIAGS_INIT;

		assert_int_equal(offload_scan_hsaco(data(bad_cases[i].file), &o, &d), -1);
		expect_diag(&d, bad_cases[i].code, bad_cases[i].line);
		assert_int_equal(o.nentry, bad_cases[i].nentry);
		code_object_release(&o);
		diags_release(&d);
	}
}

/* A zstd stream that does not decompress: one diagnostic at the data's first byte. */
static void test_bad_zstd(void **state)
{
	static const char head[] = "bad_zstd.hipfb: byte 24: compressed offload bundle does not "
				   "decompress (zstd: ";
	struct code_object o;
	struct diags d = DIAGS_INIT;
	const char *msg;

	(void)state;
	assert_int_equal(offload_scan_hsaco(data("bad_zstd.hipfb"), &o, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.items[0].code, "corrupt");
	assert_int_equal(d.items[0].pos.byte, 24);
	msg = d.items[0].message;
	assert_memory_equal(msg, head + strlen("bad_zstd.hipfb: byte 24: "),
			    strlen(head) - strlen("bad_zstd.hipfb: byte 24: "));
	assert_int_equal(msg[strlen(msg) - 1], ')');
	assert_int_equal(o.nentry, 0);
	code_object_release(&o);
	diags_release(&d);
}

static void test_targets(void **state)
{
	static const struct {
		uint32_t flags;
		int abi;
		const char *want;
	} cases[] = {
		{ 0x04c | 0xc00 | 0x200, 3, "gfx942:sramecc+:xnack-" },
		{ 0x04c | 0x400 | 0x100, 3, "gfx942" },		/* any, any */
		{ 0x04c, 4, "gfx942" },				/* unsupported */
		{ 0x03f | 0x300, 2, "gfx90a:xnack+" },
		{ 0x03f | 0x100 | 0x200, 1, "gfx90a:sramecc+:xnack+" },	/* v3: bits */
		{ 0x04f, 3, "gfx950" }, { 0x040, 3, "gfx940" }, { 0x04b, 3, "gfx941" },
		{ 0x02c, 3, "gfx900" }, { 0x030, 3, "gfx908" }, { 0x041, 3, "gfx1100" },
		{ 0x048, 3, "gfx1200" }, { 0x04e, 3, "gfx1201" }, { 0x036, 3, "gfx1030" },
		{ 0x04d, 3, "" }, { 0x000, 3, "" },
	};
	char out[CODE_ARCH_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(offload_amdgpu_target(cases[i].flags, cases[i].abi, out, sizeof(out)),
				 *cases[i].want != 0);
		assert_string_equal(out, cases[i].want);
	}
	assert_true(offload_triple_target("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", out,
					  sizeof(out)));
	assert_string_equal(out, "gfx942:sramecc+:xnack-");
	assert_false(offload_triple_target("host-x86_64-unknown-linux-gnu", out, sizeof(out)));
	assert_string_equal(out, "");
}

/* A bundle at the start of a 10 GB sparse file: read in bounded time, nothing past the table. */
static void test_sparse(void **state)
{
	static const struct {
		uint64_t count;
		const char *msg;
		size_t nentry;
	} cases[] = {
		{ 3, NULL, 2 },
		{ 400000000, "offload bundle says 400000000 entries, more than the 4096 a bundle can "
			     "plausibly hold", 0 },
	};
	char path[] = "/tmp/test_offload_XXXXXX";
	unsigned char buf[512];
	FILE *f = fopen(data("bundle_gfx90a_gfx942.hipfb"), "rb");

	(void)state;
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct code_object o;
		struct diags d = DIAGS_INIT;
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		for (int b = 0; b < 8; b++)
			buf[24 + b] = (unsigned char)(cases[i].count >> (8 * b));
		assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
		assert_int_equal(ftruncate(fd, (off_t)10 << 30), 0);
		close(fd);
		assert_int_equal(offload_scan_hsaco(path, &o, &d), cases[i].msg ? -1 : 0);
		assert_int_equal(o.nentry, cases[i].nentry);
		assert_int_equal(d.count, cases[i].msg ? 1 : 0);
		if (cases[i].msg) {
			assert_string_equal(d.items[0].message, cases[i].msg);
			assert_int_equal(d.items[0].pos.byte, 24);
		}
		code_object_release(&o);
		diags_release(&d);
		unlink(path);
		strcpy(path, "/tmp/test_offload_XXXXXX");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hsaco),
		cmocka_unit_test(test_bundles),
		cmocka_unit_test(test_two_bundles),
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_bad_zstd),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_sparse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
