#include "ingest/codescan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/outfile.h"
#include "core/xalloc.h"
#include "ingest/elf.h"
#include "ingest/fatbin.h"
#include "ingest/offload.h"

#define SNIFF_BYTES 8
#define AMD_SNIFF_BYTES 64	/* an ELF header's e_machine, an offload bundle's 24-byte magic */

/* The ELF sections that hold GPU code, and the reader of each. */
static const struct container {
	const char *section;
	code_container_fn read;
} containers[] = {
	{ ".nv_fatbin", fatbin_read },		/* linked CUDA fatbins: what the GPU loads */
	{ "__nv_relfatbin", fatbin_read_rel },	/* -rdc fatbins before the device link */
	{ ".hip_fatbin", offload_read_bundle },	/* HIP: clang offload bundles of AMDGPU code objects */
};

/* What a host ELF file is, by e_type. */
static const char *const elf_kinds[] = {
	[1] = "relocatable",
	[2] = "executable",
	[3] = "shared-object",
};

static const struct container *find_container(const char *name)
{
	for (size_t i = 0; i < sizeof(containers) / sizeof(containers[0]); i++)
		if (strcmp(containers[i].section, name) == 0)
			return &containers[i];
	return NULL;
}

/* A whole file that is one cubin: its SM from its ELF header. */
static int scan_cubin(const struct elf_file *e, struct code_object *o, struct diags *d)
{
	unsigned char h[64];
	struct code_entry c = {
		.kind = CODE_SASS, .ptx_isa = -1, .cubin_abi = -1, .offset = e->base,
	};

	if (elf_pread(e->fd, e->path, e->base, h, sizeof(h), "elf header", d) < 0)
		return -1;
	c.sm = cubin_header_sm(h, sizeof(h), &c.cubin_abi);
	c.verified = c.sm >= 0;
	if (c.verified)
		snprintf(c.arch, sizeof(c.arch), "sm_%d", c.sm);
	else
		snprintf(c.arch, sizeof(c.arch), "unknown");	/* a 32-bit cubin: sm_1x era */
	code_object_add(o, &c);
	return 0;
}

/*
 * Data sections where a library may keep fatbins it loads itself: cuFFT 12
 * holds about 24,000 in .ldata and only a stub in .nv_fatbin.
 */
static const char *const data_sections[] = { ".rodata", ".lrodata", ".data.rel.ro", ".data", ".ldata" };

#define SEARCH_CHUNK (1 << 20)
#define SHT_NOBITS_TYPE 8	/* a section with no bytes in the file (.bss) */
#define FATBIN_HEAD 16

static bool in_data_sections(const char *name)
{
	for (size_t i = 0; i < sizeof(data_sections) / sizeof(data_sections[0]); i++)
		if (strcmp(name, data_sections[i]) == 0)
			return true;
	return false;
}

/* A fatbin header at b: the magic, version 1, a 16-byte header. Returns its whole size, or 0. */
static uint64_t fatbin_at(const unsigned char *b)
{
	if (elf_le32(b) != FATBIN_MAGIC || elf_le16(b + 4) != 1 || elf_le16(b + 6) != FATBIN_HEAD)
		return 0;
	return FATBIN_HEAD + elf_le64(b + 8);
}

/*
 * Searches [off, off + size) of fd at 8-byte aligned file offsets for
 * fatbin headers whose fatbin lies inside the range, and reads each. Reads
 * the range once, a chunk at a time.
 */
static int search_fatbins(int fd, const char *path, int64_t off, int64_t size, struct code_object *o,
			  struct diags *d)
{
	unsigned char *buf = xmalloc(SEARCH_CHUNK);
	int64_t end = off + size, p = (off + 7) & ~(int64_t)7;
	int rc = 0;

	while (p + FATBIN_HEAD <= end) {
		size_t n = end - p < SEARCH_CHUNK ? (size_t)(end - p) : SEARCH_CHUNK, i;
		uint64_t whole = 0;

		if (elf_pread(fd, path, p, buf, n, "data section", d) < 0) {
			rc = -1;
			break;
		}
		for (i = 0; i + FATBIN_HEAD <= n && !(whole = fatbin_at(buf + i)); i += 8)
			;
		if (!whole) {
			p += (int64_t)(i ? i : 8);	/* i: the first offset whose header did not fit */
			continue;
		}
		if (whole <= (uint64_t)(end - p - (int64_t)i) &&
		    fatbin_read(fd, path, p + (int64_t)i, (int64_t)whole, o, d) < 0)
			rc = -1;
		p += (int64_t)i + (whole <= (uint64_t)(end - p - (int64_t)i) ? (int64_t)((whole + 7) & ~7ull) : 8);
	}
	free(buf);
	return rc;
}

/* Every container section of the ELF e. */
static int scan_sections(const struct elf_file *e, struct code_object *o, struct diags *d)
{
	struct elf_section s;
	int rc = 0;

	for (uint32_t i = 1; i < e->shnum; i++) {
		if (elf_section_at(e, i, &s, d) < 0)
			return -1;
		const struct container *c = find_container(s.name);
		if (c && s.size > 0 && c->read(e->fd, e->path, s.off, s.size, o, d) < 0)
			rc = -1;
		if (!c && s.size > 0 && s.type != SHT_NOBITS_TYPE && in_data_sections(s.name) &&
		    search_fatbins(e->fd, e->path, s.off, s.size, o, d) < 0)
			rc = -1;
	}
	return rc;
}

/*
 * The ELF at [base, base + size) of fd. Sets o->kind when kind_too (a whole
 * file, not an archive member). Returns 1 when it is not an ELF.
 */
static int scan_elf(int fd, const char *path, int64_t base, int64_t size, struct code_object *o,
		    struct diags *d, int kind_too)
{
	struct elf_file e;
	int rc = elf_open(&e, fd, path, base, size, d);

	if (rc != 0)
		return rc;
	if (e.machine == EM_CUDA_MACHINE) {
		if (kind_too)
			o->kind = "cubin";
		return scan_cubin(&e, o, d);
	}
	if (kind_too)
		o->kind = e.type < 4 && elf_kinds[e.type] ? elf_kinds[e.type] : "executable";
	return scan_sections(&e, o, d);
}

static int sniff_elf(int fd, const char *path, int64_t size, struct code_object *o,
		     struct diags *d)
{
	return scan_elf(fd, path, 0, size, o, d, 1);
}

/* Every ELF member of an ar archive; other members are skipped. */
static int sniff_ar(int fd, const char *path, int64_t size, struct code_object *o,
		    struct diags *d)
{
	struct ar_iter it;
	struct ar_member m;
	int rc = 0, r;

	o->kind = "archive";
	ar_begin(&it, fd, path, size);
	while ((r = ar_next(&it, &m, d)) == 0)
		if (scan_elf(fd, path, m.off, m.size, o, d, 0) < 0)
			rc = -1;
	return r < 0 ? -1 : rc;
}

static int sniff_fatbin(int fd, const char *path, int64_t size, struct code_object *o,
			struct diags *d)
{
	o->kind = "fatbin";
	return fatbin_read(fd, path, 0, size, o, d);
}

/* What a file is by its first bytes, and who reads it. */
static const struct sniffer {
	const char *magic;
	size_t len;
	int (*scan)(int fd, const char *path, int64_t size, struct code_object *o,
		    struct diags *d);
} sniffers[] = {
	{ "\177ELF", 4, sniff_elf },
	{ "!<arch>\n", 8, sniff_ar },
	{ "\x50\xed\x55\xba", 4, sniff_fatbin },	/* FATBIN_MAGIC, little-endian */
};

static int scan_fd(int fd, const char *path, int64_t size, struct code_object *o,
		   struct diags *d)
{
	unsigned char b[SNIFF_BYTES];
	size_t n = size < SNIFF_BYTES ? (size_t)size : SNIFF_BYTES;

	if (elf_pread(fd, path, 0, b, n, "file header", d) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(sniffers) / sizeof(sniffers[0]); i++)
		if (n >= sniffers[i].len && memcmp(b, sniffers[i].magic, sniffers[i].len) == 0)
			return sniffers[i].scan(fd, path, size, o, d);
	return 1;
}

/* An AMDGPU code object or an offload bundle: ingest/offload reads those files whole. */
static bool amd_file(int fd, int64_t size)
{
	unsigned char b[AMD_SNIFF_BYTES];
	size_t n = size < AMD_SNIFF_BYTES ? (size_t)size : AMD_SNIFF_BYTES;

	if (pread(fd, b, n, 0) != (ssize_t)n)
		return false;
	return offload_is_bundle(b, n) || offload_is_amdgpu_elf(b, n);
}

/* fd: size bytes that diagnostics call path; o initialised. codescan_file's returns. */
static int scan_open(int fd, const char *path, int64_t size, struct code_object *o, struct diags *d)
{
	int rc;

	if (amd_file(fd, size)) {
		code_object_release(o);
		return offload_scan_fd(fd, path, size, o, d);
	}
	rc = scan_fd(fd, path, size, o, d);
	if (rc == 1)
		o->kind = NULL;
	return rc;
}

int codescan_fd(int fd, const char *name, int64_t size, struct code_object *o, struct diags *d)
{
	code_object_init(o, name, NULL);
	return scan_open(fd, name, size, o, d);
}

bool codescan_is_binary(const unsigned char *head, size_t n)
{
	for (size_t i = 0; i < sizeof(sniffers) / sizeof(sniffers[0]); i++)
		if (n >= sniffers[i].len && memcmp(head, sniffers[i].magic, sniffers[i].len) == 0)
			return true;
	return offload_is_bundle(head, n);
}

int codescan_file(const char *path, struct code_object *o, struct diags *d)
{
	struct stat st;
	int fd, rc = 1;

	code_object_init(o, path, NULL);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);	/* a FIFO must not block */
	if (fd < 0)
		return diag_error(d, "unreadable", &SRCPOS_FILE(path), "cannot open: %s",
				  strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		rc = scan_open(fd, path, (int64_t)st.st_size, o, d);
	close(fd);
	return rc;
}

int codescan_bytes(const char *name, const void *bytes, size_t len, struct code_object *o,
		   struct diags *d)
{
	int fd, rc;

	code_object_init(o, name, NULL);
	fd = memfd_create("codescan", MFD_CLOEXEC);
	if (fd < 0 || fd_write_all(fd, bytes, len) < 0) {
		rc = diag_error(d, "unreadable", &SRCPOS_FILE(name), "cannot hold in memory: %s",
				strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	rc = scan_open(fd, name, (int64_t)len, o, d);
	close(fd);
	return rc;
}

/* The same code for the readiness judgement: kind, arch, PTX ISA, codec, and linked or not. */
static bool same_code(const struct code_entry *a, const struct code_entry *b)
{
	return a->kind == b->kind && a->ptx_isa == b->ptx_isa &&
	       a->compression == b->compression && a->relocatable == b->relocatable &&
	       !strcmp(a->arch, b->arch);
}

/* o's distinct entries, into the trial's arena. */
static void keep_distinct(struct trial *t, const struct code_object *o, struct code_object *out)
{
	size_t n = 0;

	out->entry = arena_alloc(&t->arena, (o->nentry ? o->nentry : 1) * sizeof(*out->entry));
	for (size_t i = 0; i < o->nentry; i++) {
		size_t k = 0;

		while (k < n && !same_code(&out->entry[k], &o->entry[i]))
			k++;
		if (k == n)
			out->entry[n++] = o->entry[i];
	}
	out->nentry = n;
}

/* codescan_run_file's end: o, scanned with result rc, joins r->code when it holds GPU code. */
static int add_to_run(struct trial *t, struct run *r, const char *path, struct code_object *o, int rc)
{
	struct code_object *v;

	if (rc == 1 || !o->nentry) {
		code_object_release(o);
		return rc < 0 ? -1 : 0;
	}
	if (r->ncode >= CODESCAN_RUN_MAX) {
		struct srcpos pos = SRCPOS_FILE(path);

		if (r->ncode_dropped++ == 0)
			diag_warn(&t->diags, "too-many-binaries", &pos, "run '%s' holds more than %d "
				  "binaries with GPU code: this one and the rest are left out",
				  r->name, CODESCAN_RUN_MAX);
		code_object_release(o);
		return rc < 0 ? -1 : 0;
	}
	v = arena_alloc(&t->arena, (r->ncode + 1) * sizeof(*v));
	if (r->ncode)
		memcpy(v, r->code, r->ncode * sizeof(*v));
	v[r->ncode] = (struct code_object){
		.path = arena_strdup(&t->arena, path), .kind = o->kind,
	};
	keep_distinct(t, o, &v[r->ncode]);
	r->code = v;
	r->ncode++;
	code_object_release(o);
	return rc < 0 ? -1 : 1;
}

int codescan_run_file(struct trial *t, struct run *r, const char *path)
{
	struct code_object o;
	int rc = codescan_file(path, &o, &t->diags);

	return add_to_run(t, r, path, &o, rc);
}

int codescan_run_bytes(struct trial *t, struct run *r, const char *name, const void *bytes,
		       size_t len)
{
	struct code_object o;
	int rc = codescan_bytes(name, bytes, len, &o, &t->diags);

	return add_to_run(t, r, name, &o, rc);
}
