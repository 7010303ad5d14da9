/*
 * The binary scanner (ingest/codescan.c, ingest/elf.c, ingest/fatbin.c) on
 * the CUDA fixtures of tests/data/stack, built by make-fixtures.sh with nvcc
 * 13.0 and committed. The expected entries follow from the -gencode lists of
 * that script and nvcc's documented compression modes; the byte offsets were
 * read with xxd / readelf -SW (the 50 ED 55 BA magic and each entry header's
 * "0N 00 01 01" start). Damaged inputs are made here from copies of them.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/buf.h"
#include "core/codeobj.h"
#include "core/diag.h"
#include "core/model.h"
#include "ingest/codescan.h"
#include "ingest/elf.h"
#include "tests/unit/ingest_fixture.h"

#define GB10 (10LL * 1024 * 1024 * 1024)

struct want_entry {
	enum code_kind kind;
	const char *arch;
	int sm;
	char suffix;
	int ptx_isa, cubin_abi;
	bool compressed, verified, relocatable;
	int64_t offset;
};

struct want_file {
	const char *name;
	const char *kind;
	size_t ncontainers, nentry;
	struct want_entry e[12];
};

/* Columns: kind, arch, sm, suffix, ptx_isa, cubin_abi, compressed, verified, relocatable, offset. */
static const struct want_file fixtures[] = {
	{ "all-default.fatbin", "fatbin", 1, 7, {
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, false, true, false, 16 },
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, false, true, false, 3320 },
		{ CODE_SASS, "sm_90a", 90, 'a', -1, 8, false, true, false, 7216 },
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, false, true, false, 11112 },
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, false, true, false, 16888 },
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, true, false, false, 22664 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, false, true, false, 23112 },
	} },
	{ "all-lz4.fatbin", "fatbin", 1, 7, {
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, true, true, false, 16 },
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, true, true, false, 1320 },
		{ CODE_SASS, "sm_90a", 90, 'a', -1, 8, true, true, false, 2808 },
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, true, true, false, 4296 },
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, true, true, false, 6352 },
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, true, false, false, 8416 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, true, true, false, 8968 },
	} },
	{ "all-zstd.fatbin", "fatbin", 1, 7, {
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, true, true, false, 16 },
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, true, true, false, 1000 },
		{ CODE_SASS, "sm_90a", 90, 'a', -1, 8, true, true, false, 2104 },
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, true, true, false, 3208 },
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, true, true, false, 4728 },
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, true, false, false, 6248 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, true, true, false, 6696 },
	} },
	/*
	 * nvcc 13.5 --concat: the cubins in entries of kind 0x100, one sub-entry
	 * header each (offsets: entry + 72, then + each header's length); PTX
	 * stays an entry of its own, ISA 9.5
	 */
	{ "concat.fatbin", "fatbin", 1, 3, {
		{ CODE_PTX, "compute_120", 120, 0, 95, -1, true, false, false, 16 },
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, true, true, false, 536 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, true, true, false, 656 },
	} },
	{ "concat-mix.fatbin", "fatbin", 1, 7, {	/* two concatenated entries, at 464 and 2200 */
		{ CODE_PTX, "compute_120", 120, 0, 95, -1, true, false, false, 16 },
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, true, true, false, 536 },
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, true, true, false, 600 },
		{ CODE_SASS, "sm_90a", 90, 'a', -1, 8, true, true, false, 664 },
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, true, true, false, 2272 },
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, true, true, false, 2392 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, true, true, false, 2512 },
	} },
	{ "concat-lz4.fatbin", "fatbin", 1, 2, {
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, true, true, false, 88 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, true, true, false, 208 },
	} },
	{ "family.fatbin", "fatbin", 1, 2, {
		{ CODE_SASS, "sm_100f", 100, 'f', -1, 8, false, true, false, 16 },
		{ CODE_SASS, "sm_120f", 120, 'f', -1, 8, false, true, false, 5792 },
	} },
	{ "none.fatbin", "fatbin", 1, 2, {
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, false, true, false, 16 },
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, false, false, false, 3912 },
	} },
	{ "ptx120.fatbin", "fatbin", 1, 1, {
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, true, false, false, 16 },
	} },
	{ "ptx90.fatbin", "fatbin", 1, 1, {
		{ CODE_PTX, "compute_90", 90, 0, 90, -1, true, false, false, 16 },
	} },
	{ "multi.so", "shared-object", 3, 8, {
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, false, true, false, 8240 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, false, true, false, 9848 },
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, false, true, false, 11600 },
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, true, false, false, 15496 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, false, true, false, 15944 },
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, false, true, false, 21736 },
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, true, false, false, 25632 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, false, true, false, 26080 },
	} },
	{ "sm90.so", "shared-object", 2, 2, {	/* the link stub's sm_90, then the unit's */
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, false, true, false, 8224 },
		{ CODE_SASS, "sm_90", 90, 0, -1, 8, false, true, false, 9832 },
	} },
	{ "ptx-only.so", "shared-object", 2, 1, {
		{ CODE_PTX, "compute_120", 120, 0, 90, -1, false, false, false, 8240 },
	} },
	{ "rdc.so", "shared-object", 3, 6, {
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, false, true, false, 8368 },
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, false, true, false, 18896 },
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, true, true, true, 29440 },
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, true, true, true, 31168 },
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, true, true, true, 32912 },
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, true, true, true, 34544 },
	} },
	/* -rdc with sm_80 SASS and compute_90 PTX: the PTX is only in __nv_relfatbin */
	{ "relptx.so", "shared-object", 2, 3, {
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, false, true, false, 8288 },
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, true, true, true, 12120 },
		{ CODE_PTX, "compute_90", 90, 0, 90, -1, true, false, true, 13232 },
	} },
	{ "lto100.o", "relocatable", 1, 1, {
		{ CODE_LTOIR, "lto_100", 100, 0, -1, -1, true, false, true, 1024 },
	} },
	{ "sm100a.o", "relocatable", 1, 1, {
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, false, true, false, 1040 },
	} },
	{ "libk.a", "archive", 2, 3, {
		{ CODE_SASS, "sm_100a", 100, 'a', -1, 8, false, true, false, 1362 },
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, false, true, false, 13918 },
		{ CODE_SASS, "sm_120", 120, 0, -1, 8, false, true, false, 17222 },
	} },
	{ "sm100a.cubin", "cubin", 0, 1, {
		{ CODE_SASS, "sm_100", 100, 0, -1, 8, false, true, false, 0 },
	} },
	{ "sm80.cubin", "cubin", 0, 1, {
		{ CODE_SASS, "sm_80", 80, 0, -1, 8, false, true, false, 0 },
	} },
};

static char tmpdir[256];

static const char *data(const char *name)
{
	static char path[1024];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/data/stack/%s", top && *top ? top : ".", name);
	return path;
}

/* The text of diagnostic i, as the CLI would print it. */
static char *diag_text(const struct diags *d, size_t i)
{
	static char line[1024];
	struct buf b;

	buf_init(&b, 0);
	diag_format(&d->items[i], &b);
	snprintf(line, sizeof(line), "%s", b.data);
	buf_release(&b);
	return line;
}

static void check_entry(const char *file, size_t i, const struct code_entry *got,
			const struct want_entry *w)
{
	print_message("# %s entry %zu: %s\n", file, i, w->arch);
	assert_int_equal(got->kind, w->kind);
	assert_string_equal(got->arch, w->arch);
	assert_int_equal(got->sm, w->sm);
	assert_int_equal(got->suffix, w->suffix);
	assert_int_equal(got->ptx_isa, w->ptx_isa);
	assert_int_equal(got->cubin_abi, w->cubin_abi);
	assert_int_equal(got->compressed, w->compressed);
	assert_int_equal(got->verified, w->verified);
	assert_int_equal(got->relocatable, w->relocatable);
	assert_int_equal(got->offset, w->offset);
	/* nvcc 13 compresses with ZSTD unless --compress-mode=speed (the lz4 fixture) */
	assert_int_equal(got->compression, !w->compressed ? CODE_RAW :
			 strstr(file, "lz4") ? CODE_LZ4 : CODE_ZSTD);
}

/* Every fixture gives exactly the entries make-fixtures.sh asked nvcc for. */
static void test_fixtures(void **state)
{
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		const struct want_file *w = &fixtures[f];
		struct code_object o;
		struct diags d = DIAGS_INIT;

		assert_int_equal(codescan_file(data(w->name), &o, &d), 0);
		assert_int_equal(d.count, 0);
		assert_string_equal(o.kind, w->kind);
		assert_int_equal(o.ncontainers, w->ncontainers);
		assert_int_equal(o.nentry, w->nentry);
		for (size_t i = 0; i < o.nentry; i++)
			check_entry(w->name, i, &o.entry[i], &w->e[i]);
		code_object_release(&o);
		diags_release(&d);
	}
}

/* A file of n bytes from buf (or a copy of fixture from, patched later), in tmpdir. */
static const char *spit(const char *name, const void *buf, size_t n)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	fclose(f);
	return path;
}

/* A copy of fixture from as name, cut to keep bytes (-1: all). */
static const char *copy(const char *from, const char *name, long keep)
{
	static unsigned char buf[65536];
	FILE *f = fopen(data(from), "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n < sizeof(buf));
	return spit(name, buf, keep >= 0 && (size_t)keep < n ? (size_t)keep : n);
}

/* Writes n bytes at off of path. */
static void patch(const char *path, long off, const void *bytes, size_t n)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, bytes, n, off), (ssize_t)n);
	close(fd);
}

/* Scans path expecting rc and one diagnostic reading "path: " msg; returns the entry count. */
static size_t scan_bad(const char *path, int rc, const char *msg, struct code_object *o)
{
	struct diags d = DIAGS_INIT;
	char want[1024];

	snprintf(want, sizeof(want), "%s: %s", path, msg);
	assert_int_equal(codescan_file(path, o, &d), rc);
	assert_int_equal(d.count, 1);
	assert_string_equal(diag_text(&d, 0), want);
	diags_release(&d);
	return o->nentry;
}

static void test_truncated_elf(void **state)
{
	struct code_object o;
	const char *p = copy("multi.so", "head.so", 40);

	assert_int_equal(scan_bad(p, -1, "byte 0: truncated elf header: 40 of 64 bytes", &o), 0);
	code_object_release(&o);
	p = copy("multi.so", "half.so", 20000);
	/* readelf -hW multi.so: section headers start at byte 37392 */
	assert_int_equal(scan_bad(p, -1, "byte 40: elf section header table at byte 37392 lies "
				  "past the end of the file (20000 bytes)", &o), 0);
	code_object_release(&o);
}

/* readelf -SW multi.so: [15] .nv_fatbin at 0x2020, 0x5c50 bytes; headers at 37392, 64 each. */
static void test_section_past_end(void **state)
{
	struct code_object o;
	const char *p = copy("multi.so", "section.so", -1);
	const unsigned char size[8] = { 0x00, 0x00, 0x01, 0x00 };	/* 65536 bytes */

	patch(p, 37392 + 15 * 64 + 32, size, sizeof(size));
	assert_int_equal(scan_bad(p, -1, "byte 38352: section .nv_fatbin (65536 bytes at byte 8224) "
				  "runs past the end of the file (39312 bytes)", &o), 0);
	code_object_release(&o);
}

/* e_shnum 0 sends the count to section 0's sh_size (the extended form): 2^21 is refused. */
static void test_too_many_sections(void **state)
{
	struct code_object o;
	const char *p = copy("multi.so", "many.so", -1);
	const unsigned char count[8] = { 0x00, 0x00, 0x20 };

	patch(p, 60, "\0\0", 2);
	patch(p, 37392 + 32, count, sizeof(count));
	assert_int_equal(scan_bad(p, -1, "byte 37392: elf file claims 2097152 sections, more than "
				  "1048576", &o), 0);
	code_object_release(&o);
}

static void test_fatbin_past_end(void **state)
{
	struct code_object o;
	const char *p = copy("none.fatbin", "payload.fatbin", -1);
	const unsigned char big[8] = { 0x00, 0x20 };	/* 8192 > 4720 - 16 */

	patch(p, 8, big, sizeof(big));
	assert_int_equal(scan_bad(p, -1, "byte 0: fatbin payload (8192 bytes) runs past the end "
				  "of its container (byte 4720)", &o), 0);
	code_object_release(&o);
	/* the sm_90 entry at 16 claims 0x1000 bytes more than its fatbin holds */
	p = copy("none.fatbin", "entry.fatbin", -1);
	patch(p, 16 + 9, (const unsigned char[]){ 0x1f }, 1);
	assert_int_equal(scan_bad(p, -1, "byte 16: fatbin entry payload (8184 bytes at byte 80) "
				  "runs past the end of its fatbin (byte 4720)", &o), 0);
	code_object_release(&o);
}

/* The sm_80 cubin of all-zstd.fatbin (entry at 16, header 0x40) loses its frame magic. */
static void test_zstd_damaged(void **state)
{
	struct code_object o;
	const char *p = copy("all-zstd.fatbin", "zstd.fatbin", -1);

	patch(p, 80, "\xd7\x4a\xd0\x02", 4);
	assert_int_equal(scan_bad(p, -1, "byte 16: zstd-compressed cubin sm_80 does not decompress: "
				  "Unknown frame descriptor", &o), 7);
	assert_false(o.entry[0].verified);
	assert_true(o.entry[1].verified);	/* the walk went on */
	assert_true(o.entry[6].verified);
	code_object_release(&o);
}

/* The sm_80 cubin of all-lz4.fatbin starts with a match that points before the output. */
static void test_lz4_damaged(void **state)
{
	struct code_object o;
	const char *p = copy("all-lz4.fatbin", "lz4.fatbin", -1);

	patch(p, 80, "\x00\xff\xff", 3);
	assert_int_equal(scan_bad(p, -1, "byte 16: lz4-compressed cubin sm_80 does not decompress: "
				  "malformed lz4 block", &o), 7);
	assert_false(o.entry[0].verified);
	assert_true(o.entry[1].verified);
	code_object_release(&o);
}

/*
 * An entry kind the reader does not know is a warning naming the byte where
 * the entry starts; the entries around it are still read. none.fatbin: the
 * sm_90 cubin at 16, the PTX at 3912; concat.fatbin: the concatenated entry
 * at 464, its sub-entries at 536 and 656.
 */
static void test_unknown_kind(void **state)
{
	struct code_object o;
	const char *p = copy("none.fatbin", "kind.fatbin", -1);

	patch(p, 16, "\x40\x00", 2);
	assert_int_equal(scan_bad(p, 0, "byte 16: warning: fatbin entry of kind 0x40, which "
				  "scaleaudit does not know: its GPU code is not counted", &o), 1);
	assert_string_equal(o.entry[0].arch, "compute_120");
	code_object_release(&o);
	p = copy("concat.fatbin", "subkind.fatbin", -1);
	patch(p, 656, "\x10\x00", 2);
	assert_int_equal(scan_bad(p, 0, "byte 656: warning: fatbin sub-entry of kind 0x10, which "
				  "scaleaudit does not know: its GPU code is not counted", &o), 2);
	assert_string_equal(o.entry[1].arch, "sm_100");
	assert_true(o.entry[1].verified);
	code_object_release(&o);
	/* a format other than 0.1 */
	p = copy("concat.fatbin", "format.fatbin", -1);
	patch(p, 464 + 0x18, "\x02", 1);
	assert_int_equal(scan_bad(p, 0, "byte 464: warning: concatenated fatbin entry of format 0.2, "
				  "which scaleaudit does not know: its GPU code is not counted", &o), 1);
	code_object_release(&o);
}

/* A sub-entry table that does not add up is a warning, never a guess. */
static void test_concat_table(void **state)
{
	struct code_object o;
	const char *p = copy("concat.fatbin", "count.fatbin", -1);

	patch(p, 464 + 64, "\x03", 1);	/* three sub-entries listed, two there */
	assert_int_equal(scan_bad(p, 0, "byte 464: warning: concatenated fatbin entry whose "
				  "sub-entry table does not add up (a sub-entry header runs past the "
				  "table), which scaleaudit does not know: its GPU code is not counted",
				  &o), 1);
	code_object_release(&o);
	p = copy("concat.fatbin", "tile.fatbin", -1);
	patch(p, 656 + 4, "\x00\x16", 2);	/* the second cubin at 0x1600, not 0x1580 */
	assert_int_equal(scan_bad(p, 0, "byte 464: warning: concatenated fatbin entry whose "
				  "sub-entry table does not add up (the cubins it lists do not tile the "
				  "payload), which scaleaudit does not know: its GPU code is not counted",
				  &o), 1);
	code_object_release(&o);
}

/* The archs found only in __nv_relfatbin: relptx.so's PTX; rdc.so's cubins are linked too. */
static void test_relocatable_only(void **state)
{
	static const struct { const char *file, *want; } cases[] = {
		{ "relptx.so", "compute_90" }, { "rdc.so", "" }, { "lto100.o", "lto_100" },
		{ "multi.so", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct code_object o;
		struct diags d = DIAGS_INIT;
		struct buf b;

		assert_int_equal(codescan_file(data(cases[i].file), &o, &d), 0);
		buf_init(&b, 0);
		code_object_relocatable_only(&o, &b);
		assert_string_equal(b.data, cases[i].want);
		buf_release(&b);
		code_object_release(&o);
		diags_release(&d);
	}
}

/* The zstd frame of the concatenated cubins (at 464 + 0x138) loses its magic. */
static void test_concat_damaged(void **state)
{
	struct code_object o;
	const char *p = copy("concat.fatbin", "concat-bad.fatbin", -1);

	patch(p, 464 + 0x138, "\xd7\x4a\xd0\x02", 4);
	assert_int_equal(scan_bad(p, -1, "byte 464: zstd-compressed concatenated cubins do not "
				  "decompress: Unknown frame descriptor", &o), 3);
	assert_string_equal(o.entry[2].arch, "sm_120");	/* kept, unverified */
	assert_false(o.entry[2].verified);
	code_object_release(&o);
}

/* A bare fatbin whose one uncompressed sm_100 cubin claims 10 GB of holes. */
static void test_sparse_10gb(void **state)
{
	unsigned char h[16 + 64] = { 0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0 };
	struct code_object o;
	struct diags d = DIAGS_INIT;
	int64_t payload = GB10 - 16, entry = payload - 64;
	clock_t t0 = clock();

	for (int i = 0; i < 8; i++) {
		h[8 + i] = (unsigned char)(payload >> (8 * i));
		h[16 + 8 + i] = (unsigned char)(entry >> (8 * i));
	}
	memcpy(h + 16, "\x02\x00\x01\x01\x40", 5);
	h[16 + 0x1c] = 100;
	const char *p = spit("sparse.fatbin", h, sizeof(h));
	assert_int_equal(truncate(p, GB10), 0);
	assert_int_equal(codescan_file(p, &o, &d), 0);
	assert_int_equal(d.count, 0);
	assert_int_equal(o.nentry, 1);
	assert_string_equal(o.entry[0].arch, "sm_100");
	assert_false(o.entry[0].verified);	/* zeros, not an ELF header */
	code_object_release(&o);
	/* the same, ZSTD-compressed: the frame is 10 GB of zeros */
	h[16 + 0x29] = 0x80;
	p = spit("sparse-zstd.fatbin", h, sizeof(h));
	assert_int_equal(truncate(p, GB10), 0);
	assert_int_equal(scan_bad(p, -1, "byte 16: zstd-compressed cubin sm_100 does not decompress: "
				  "Unknown frame descriptor", &o), 1);
	code_object_release(&o);
	/* a 10 GB ELF whose tables are where multi.so has them: read, not loaded */
	p = copy("multi.so", "sparse.so", -1);
	assert_int_equal(truncate(p, GB10), 0);
	assert_int_equal(codescan_file(p, &o, &d), 0);
	assert_int_equal(o.nentry, 8);
	code_object_release(&o);
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 2.0);
	diags_release(&d);
}

/* Files that are no binary kind: rc 1, nothing read, no diagnostic. */
static void test_not_binary(void **state)
{
	struct code_object o;
	struct diags d = DIAGS_INIT;

	assert_int_equal(codescan_file(data("k.cu"), &o, &d), 1);
	assert_null(o.kind);
	assert_int_equal(o.nentry, 0);
	code_object_release(&o);
	assert_int_equal(codescan_file(spit("empty", "", 0), &o, &d), 1);
	code_object_release(&o);
	assert_int_equal(d.count, 0);
}

/* ar t libk.a: k.o, k2.o; the second member header is at byte 262 (xxd). */
static void test_archive_truncated(void **state)
{
	struct code_object o;
	const char *p = copy("libk.a", "cut.a", 4000);

	assert_int_equal(scan_bad(p, -1, "byte 262: archive member (12528 bytes at byte 322) runs "
				  "past the end of the file (4000 bytes)", &o), 0);
	code_object_release(&o);
}

/* The whole of fixture name, into buf (cap bytes); returns its size. */
static size_t slurp(const char *name, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(data(name), "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	assert_true(n < cap);
	return n;
}

/* Appends a 60-byte ar member header: name (16 bytes, space-padded) and size. */
static size_t ar_hdr(unsigned char *at, const char *name, size_t size)
{
	char h[61];

	snprintf(h, sizeof(h), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", size);
	memcpy(at, h, 60);
	return 60;
}

/* The members of names.a (below) as elf.h's archive walk names them. */
static void check_member_names(const char *path, size_t size)
{
	static const char *const want[] = { "a-very-long-member-name.cubin", "bsd-long-name.cubin",
					     "notes.txt" };
	struct ar_iter it;
	struct ar_member m;
	struct diags d = DIAGS_INIT;
	int fd = open(path, O_RDONLY);
	size_t i = 0;

	assert_true(fd >= 0);
	ar_begin(&it, fd, path, (int64_t)size);
	while (ar_next(&it, &m, &d) == 0) {
		assert_true(i < 3);
		assert_string_equal(m.name, want[i++]);
	}
	close(fd);
	assert_int_equal(i, 3);
	assert_int_equal(d.count, 0);
}

/*
 * An archive made here: a GNU symbol table "/", a long-name table "//", a
 * member named through it ("/0"), a BSD member "#1/20" whose 20-byte name
 * precedes its data, and a text member; the two cubins are sm80.cubin.
 */
static void test_archive_names(void **state)
{
	static unsigned char a[16384], cubin[4096];
	size_t n = 0, c = slurp("sm80.cubin", cubin, sizeof(cubin));
	const char *names = "a-very-long-member-name.cubin/\n\n";	/* even: no padding */
	struct code_object o;
	struct diags d = DIAGS_INIT;

	assert_true(c % 2 == 0);
	memcpy(a, "!<arch>\n", 8), n = 8;
	n += ar_hdr(a + n, "/", 4), memset(a + n, 0, 4), n += 4;
	n += ar_hdr(a + n, "//", strlen(names)), memcpy(a + n, names, strlen(names)), n += strlen(names);
	n += ar_hdr(a + n, "/0", c), memcpy(a + n, cubin, c), n += c;
	n += ar_hdr(a + n, "#1/20", 20 + c), memcpy(a + n, "bsd-long-name.cubin\0", 20), n += 20;
	memcpy(a + n, cubin, c), n += c;
	n += ar_hdr(a + n, "notes.txt/", 5), memcpy(a + n, "text\n\n", 6), n += 6;
	const char *p = spit("names.a", a, n);
	assert_int_equal(codescan_file(p, &o, &d), 0);
	assert_int_equal(d.count, 0);
	assert_string_equal(o.kind, "archive");
	assert_int_equal(o.nentry, 2);
	assert_string_equal(o.entry[0].arch, "sm_80");
	assert_int_equal(o.entry[0].offset, 8 + 64 + 60 + (int64_t)strlen(names) + 60);
	assert_int_equal(o.entry[1].offset, o.entry[0].offset + (int64_t)c + 60 + 20);
	code_object_release(&o);
	check_member_names(p, n);
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, unsigned v)
{
	put16(p, v & 0xffff), put16(p + 2, v >> 16);
}

/* One ELF32 section header: name, type 1 (PROGBITS), offset, size. */
static void shdr32(unsigned char *h, unsigned name, unsigned off, unsigned size)
{
	put32(h, name), put32(h + 4, 1), put32(h + 16, off), put32(h + 20, size);
}

/*
 * An ELF32 shared object made here, the layout of the ELF specification: a
 * 52-byte header, the names, .nv_fatbin holding ptx120.fatbin, then three
 * 40-byte section headers (null, .shstrtab, .nv_fatbin).
 */
static void test_elf32(void **state)
{
	static unsigned char e[4096];
	static const char names[] = "\0.shstrtab\0.nv_fatbin";	/* 1 and 11 */
	size_t fb = 52 + 24, f = slurp("ptx120.fatbin", e + fb, sizeof(e) - fb - 200);
	size_t sh = fb + f;
	struct code_object o;
	struct diags d = DIAGS_INIT;

	memcpy(e, "\177ELF\1\1\1", 7);
	put16(e + 16, 3), put16(e + 18, 3);	/* ET_DYN, EM_386 */
	put32(e + 32, (unsigned)sh), put16(e + 46, 40), put16(e + 48, 3), put16(e + 50, 1);
	memcpy(e + 52, names, sizeof(names));
	shdr32(e + sh + 40, 1, 52, sizeof(names));
	shdr32(e + sh + 80, 11, (unsigned)fb, (unsigned)f);
	assert_int_equal(codescan_file(spit("elf32.so", e, sh + 120), &o, &d), 0);
	assert_int_equal(d.count, 0);
	assert_string_equal(o.kind, "shared-object");
	assert_int_equal(o.ncontainers, 1);
	assert_int_equal(o.nentry, 1);
	assert_string_equal(o.entry[0].arch, "compute_120");
	assert_int_equal(o.entry[0].ptx_isa, 90);
	assert_int_equal(o.entry[0].offset, (int64_t)fb + 16);
	code_object_release(&o);
}

/*
 * AMD files come through the same door: a HIP host library's .hip_fatbin
 * section (its offset from readelf: 12335), a bare code object, a bundle.
 */
static void test_rocm_through_codescan(void **state)
{
	struct diags d = DIAGS_INIT;
	struct code_object o;

	(void)state;
	assert_int_equal(codescan_file(data("rocm/real_hip_host.so"), &o, &d), 0);
	assert_string_equal(o.kind, "shared-object");
	assert_int_equal(o.ncontainers, 1);
	assert_int_equal(o.nentry, 2);
	assert_int_equal(o.entry[0].kind, CODE_AMDGPU);
	assert_string_equal(o.entry[0].arch, "gfx90a:xnack+");
	assert_int_equal(o.entry[0].offset, 12335 + 218);
	assert_string_equal(o.entry[1].arch, "gfx908:sramecc+:xnack-");
	code_object_release(&o);
	assert_int_equal(codescan_file(data("rocm/gfx942.hsaco"), &o, &d), 0);
	assert_int_equal(o.nentry, 1);
	assert_int_equal(o.entry[0].kind, CODE_AMDGPU);
	assert_int_equal(o.entry[0].sm, 942);
	code_object_release(&o);
	assert_int_equal(codescan_file(data("rocm/real_gfx90a_gfx908.hipfb"), &o, &d), 0);
	assert_int_equal(o.nentry, 2);
	code_object_release(&o);
	assert_int_equal(d.count, 0);
	diags_release(&d);
}

/*
 * A fatbin in a data section (in-rodata.o: all-zstd.fatbin as .rodata at
 * file offset 0x40) is found by searching: the same entries as the bare
 * fatbin, each 0x40 bytes further into the file.
 */
static void test_fatbin_in_data_section(void **state)
{
	struct diags d = DIAGS_INIT;
	struct code_object bare, in;

	(void)state;
	assert_int_equal(codescan_file(data("all-zstd.fatbin"), &bare, &d), 0);
	assert_int_equal(codescan_file(data("in-rodata.o"), &in, &d), 0);
	assert_string_equal(in.kind, "relocatable");
	assert_int_equal(bare.nentry, 7);
	assert_int_equal(in.nentry, bare.nentry);
	assert_int_equal(in.ncontainers, 1);
	for (size_t i = 0; i < in.nentry; i++) {
		assert_string_equal(in.entry[i].arch, bare.entry[i].arch);
		assert_int_equal(in.entry[i].compressed, true);
		assert_int_equal(in.entry[i].verified, bare.entry[i].verified);
		assert_int_equal(in.entry[i].offset, bare.entry[i].offset + 0x40);
	}
	code_object_release(&bare);
	code_object_release(&in);
	assert_int_equal(d.count, 0);
	diags_release(&d);
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sa_codescan.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	return remove_tree(tmpdir);
}

/*
 * For the trial loader: a run keeps each binary's distinct entries (multi.so's
 * 8 entries are 3 kinds of code), a text file adds nothing, and past
 * CODESCAN_RUN_MAX binaries one warning is given and nothing more is kept.
 */
static void test_run_file(void **state)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "2gpu", "2gpu");

	(void)state;
	assert_int_equal(codescan_run_file(t, r, data("multi.so")), 1);
	assert_int_equal(codescan_run_file(t, r, data("README.md")), 0);
	assert_int_equal(r->ncode, 1);
	assert_string_equal(r->code[0].path, data("multi.so"));
	assert_string_equal(r->code[0].kind, "shared-object");
	assert_int_equal(r->code[0].nentry, 3);
	assert_string_equal(r->code[0].entry[0].arch, "sm_90");
	assert_string_equal(r->code[0].entry[1].arch, "sm_120");
	assert_string_equal(r->code[0].entry[2].arch, "compute_120");
	for (int i = 1; i < CODESCAN_RUN_MAX + 3; i++)
		codescan_run_file(t, r, data("ptx90.fatbin"));
	assert_int_equal(r->ncode, CODESCAN_RUN_MAX);
	assert_int_equal(r->ncode_dropped, 3);
	assert_string_equal(r->code[CODESCAN_RUN_MAX - 1].entry[0].arch, "compute_90");
	assert_int_equal(t->diags.count, 1);
	assert_string_equal(t->diags.items[0].code, "too-many-binaries");
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_truncated_elf),
		cmocka_unit_test(test_section_past_end),
		cmocka_unit_test(test_too_many_sections),
		cmocka_unit_test(test_fatbin_past_end),
		cmocka_unit_test(test_zstd_damaged),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_concat_table),
		cmocka_unit_test(test_concat_damaged),
		cmocka_unit_test(test_relocatable_only),
		cmocka_unit_test(test_lz4_damaged),
		cmocka_unit_test(test_sparse_10gb),
		cmocka_unit_test(test_not_binary),
		cmocka_unit_test(test_archive_truncated),
		cmocka_unit_test(test_archive_names),
		cmocka_unit_test(test_elf32),
		cmocka_unit_test(test_rocm_through_codescan),
		cmocka_unit_test(test_fatbin_in_data_section),
		cmocka_unit_test(test_run_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
