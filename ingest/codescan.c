#include "ingest/codescan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/elf.h"
#include "ingest/fatbin.h"

#define SNIFF_BYTES 8

/* The ELF sections that hold GPU code, and the reader of each. */
static const struct container {
	const char *section;
	code_container_fn read;
} containers[] = {
	{ ".nv_fatbin", fatbin_read },		/* linked CUDA fatbins: what the GPU loads */
	{ "__nv_relfatbin", fatbin_read_rel },	/* -rdc fatbins before the device link */
	/* AMD: the "rocm" reader of clang offload bundles is added here at merge:
	 * { ".hip_fatbin", <its code_container_fn> }, */
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
	struct code_entry c = { .kind = CODE_SASS, .ptx_isa = -1, .offset = e->base };

	if (elf_pread(e->fd, e->path, e->base, h, sizeof(h), "elf header", d) < 0)
		return -1;
	c.sm = cubin_header_sm(h, sizeof(h), &c.cubin_abi);
	c.verified = c.sm >= 0;
	snprintf(c.arch, sizeof(c.arch), "sm_%d", c.sm);
	code_object_add(o, &c);
	return 0;
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

int codescan_file(const char *path, struct code_object *o, struct diags *d)
{
	struct stat st;
	int fd, rc;

	code_object_init(o, path, NULL);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return diag_error(d, "unreadable", &SRCPOS_FILE(path), "cannot open: %s",
				  strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		rc = 1;
	else
		rc = scan_fd(fd, path, (int64_t)st.st_size, o, d);
	close(fd);
	if (rc == 1)
		o->kind = NULL;
	return rc;
}
