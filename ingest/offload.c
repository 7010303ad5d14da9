#include "ingest/offload.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/xalloc.h"

#define MAGIC_LEN 24
#define TABLE_START 32			/* magic + u64 entry count */
#define ENTRY_HEAD 24			/* u64 offset, u64 size, u64 triple length */
#define ELF_HEAD 64			/* an ELF64 file header */
#define INPUT_CHUNK (64 << 10)		/* compressed bytes read at a time */

/* The AMDGPU processors by their EF_AMDGPU_MACH value (LLVM AMDGPUUsage, "AMDGPU ELF Header"). */
static const struct mach {
	uint8_t mach;
	const char *name;
} machs[] = {
	{ 0x020, "gfx600" }, { 0x021, "gfx601" }, { 0x022, "gfx700" }, { 0x023, "gfx701" },
	{ 0x024, "gfx702" }, { 0x025, "gfx703" }, { 0x026, "gfx704" }, { 0x028, "gfx801" },
	{ 0x029, "gfx802" }, { 0x02a, "gfx803" }, { 0x02b, "gfx810" }, { 0x02c, "gfx900" },
	{ 0x02d, "gfx902" }, { 0x02e, "gfx904" }, { 0x02f, "gfx906" }, { 0x030, "gfx908" },
	{ 0x031, "gfx909" }, { 0x032, "gfx90c" }, { 0x033, "gfx1010" }, { 0x034, "gfx1011" },
	{ 0x035, "gfx1012" }, { 0x036, "gfx1030" }, { 0x037, "gfx1031" }, { 0x038, "gfx1032" },
	{ 0x039, "gfx1033" }, { 0x03a, "gfx602" }, { 0x03b, "gfx705" }, { 0x03c, "gfx805" },
	{ 0x03d, "gfx1035" }, { 0x03e, "gfx1034" }, { 0x03f, "gfx90a" }, { 0x040, "gfx940" },
	{ 0x041, "gfx1100" }, { 0x042, "gfx1013" }, { 0x043, "gfx1150" }, { 0x044, "gfx1103" },
	{ 0x045, "gfx1036" }, { 0x046, "gfx1101" }, { 0x047, "gfx1102" }, { 0x048, "gfx1200" },
	{ 0x049, "gfx1250" }, { 0x04a, "gfx1151" }, { 0x04b, "gfx941" }, { 0x04c, "gfx942" },
	{ 0x04e, "gfx1201" }, { 0x04f, "gfx950" }, { 0x051, "gfx9-generic" },
	{ 0x052, "gfx10-1-generic" }, { 0x053, "gfx10-3-generic" }, { 0x054, "gfx11-generic" },
	{ 0x055, "gfx1152" }, { 0x058, "gfx1153" }, { 0x059, "gfx12-generic" },
	{ 0x05f, "gfx9-4-generic" },
};

/* EI_ABIVERSION of an HSA code object: 0 = v2, 1 = v3, 2 = v4, 3 = v5, 4 = v6. */
enum { ABI_V3 = 1, ABI_V4 = 2 };

/* The v4+ two-bit feature fields of e_flags: value 2 is off, 3 is on. */
static const struct feature {
	const char *name;
	unsigned shift;		/* v4+: the field's low bit */
	uint32_t v3_bit;	/* v3: set = on */
} features[] = {		/* in target ID order */
	{ "sramecc", 10, 0x200 },
	{ "xnack", 8, 0x100 },
};

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

bool offload_is_bundle(const void *head, size_t n)
{
	return (n >= MAGIC_LEN && !memcmp(head, OFFLOAD_MAGIC, MAGIC_LEN)) ||
	       (n >= 4 && !memcmp(head, OFFLOAD_CMAGIC, 4));
}

bool offload_is_amdgpu_elf(const void *head, size_t n)
{
	const unsigned char *p = head;

	return n >= ELF_HEAD && !memcmp(p, "\177ELF", 4) && p[4] == 2 && p[5] == 1 &&
	       le16(p + 18) == EM_AMDGPU_MACHINE;
}

static void append_feature(char *out, size_t n, const struct feature *f, uint32_t flags, int abi)
{
	size_t len = strlen(out);
	unsigned v = (flags >> f->shift) & 3;

	if (abi == ABI_V3 && (flags & f->v3_bit))
		snprintf(out + len, n - len, ":%s+", f->name);
	else if (abi >= ABI_V4 && v >= 2)
		snprintf(out + len, n - len, ":%s%c", f->name, v == 3 ? '+' : '-');
}

bool offload_amdgpu_target(uint32_t e_flags, int abi_version, char *out, size_t n)
{
	const char *name = NULL;

	for (size_t i = 0; i < sizeof(machs) / sizeof(machs[0]); i++)
		if (machs[i].mach == (e_flags & 0xff))
			name = machs[i].name;
	*out = 0;
	if (!name)
		return false;
	snprintf(out, n, "%s", name);
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		append_feature(out, n, &features[i], e_flags, abi_version);
	return true;
}

bool offload_triple_target(const char *triple, char *out, size_t n)
{
	const char *gfx = strstr(triple, "-gfx");

	*out = 0;
	if (!gfx)
		return false;
	snprintf(out, n, "%s", gfx + 1);
	return true;
}

/* gfx942 -> 942; gfx90a (a hex digit) -> -1, as code_entry.sm says. */
static int gfx_number(const char *arch)
{
	int v = 0;
	const char *p = arch + 3;

	if (strncmp(arch, "gfx", 3) || *p < '0' || *p > '9')
		return -1;
	for (; *p && *p != ':'; p++) {
		if (*p < '0' || *p > '9' || v > 99999)	/* no GPU has so long a number */
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v;
}

/* The processor part of a target ID: its length up to the first ':'. */
static size_t processor_len(const char *arch)
{
	return strcspn(arch, ":");
}

/* ---- reading ---- */

/* Where a bundle's bytes come from: the file, or an inflated prefix in memory. */
struct src {
	int fd;				/* -1: mem */
	const char *path;
	int64_t base;			/* file offset of the bundle (of the CCOB header when mem) */
	int64_t size;			/* the bundle's size (uncompressed) */
	const unsigned char *mem;	/* the inflated prefix */
	size_t got;			/* its length */
};

static int pread_all(int fd, void *buf, size_t n, int64_t at)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, (char *)buf + done, n - done, (off_t)(at + (int64_t)done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

/* n bytes at bundle offset at (checked against s->size by the caller); false when not at hand. */
static bool src_read(const struct src *s, void *buf, size_t n, int64_t at)
{
	if (s->fd >= 0)
		return !pread_all(s->fd, buf, n, s->base + at);
	if (at < 0 || (uint64_t)at + n > s->got)
		return false;
	memcpy(buf, s->mem + at, n);
	return true;
}

/* The file offset a diagnostic names for bundle offset at. */
static int64_t src_byte(const struct src *s, int64_t at)
{
	return s->fd >= 0 ? s->base + at : s->base;
}

static int damaged(struct diags *d, const struct src *s, int64_t at, const char *code,
		   const char *what)
{
	struct srcpos pos = SRCPOS_BYTE(s->path, src_byte(s, at));

	if (s->fd >= 0)
		return diag_error(d, code, &pos, "%s", what);
	return diag_error(d, code, &pos, "%s (at byte %" PRId64 " of the inflated bundle)", what, at);
}

/* Reads the entry's own ELF header: fills e->arch when the triple named none, sets verified. */
static void check_elf(const struct src *s, int64_t at, uint64_t size, struct code_entry *e)
{
	unsigned char h[ELF_HEAD];
	char target[CODE_ARCH_LEN];

	if (size < ELF_HEAD || !src_read(s, h, sizeof(h), at) || !offload_is_amdgpu_elf(h, sizeof(h)))
		return;
	if (!offload_amdgpu_target(le32(h + 48), h[8], target, sizeof(target)))
		return;
	if (!*e->arch)
		snprintf(e->arch, sizeof(e->arch), "%s", target);
	e->verified = processor_len(target) == processor_len(e->arch) &&
		      !strncmp(target, e->arch, processor_len(target));
}

struct entry_head {
	uint64_t off, size, tlen;
	char triple[OFFLOAD_MAX_TRIPLE + 1];
};

static void add_entry(const struct src *s, const struct entry_head *h, struct code_object *o)
{
	struct code_entry e = {
		.kind = CODE_AMDGPU, .suffix = 0, .ptx_isa = -1, .cubin_abi = -1,
		.compressed = s->fd < 0,
		.offset = s->fd >= 0 ? s->base + (int64_t)h->off : s->base,
	};

	if (!strstr(h->triple, "amdgcn"))
		return;		/* the host entry, or another GPU's */
	offload_triple_target(h->triple, e.arch, sizeof(e.arch));
	check_elf(s, (int64_t)h->off, h->size, &e);
	e.sm = gfx_number(e.arch);
	code_object_add(o, &e);
}

/* Reads entry i at *pos into h and moves *pos past it; -1 after a diagnostic. */
static int read_entry(const struct src *s, size_t i, int64_t *pos, struct entry_head *h,
		      struct diags *d)
{
	unsigned char raw[ENTRY_HEAD];
	char msg[OFFLOAD_MAX_TRIPLE + 256];

	if (*pos + ENTRY_HEAD > s->size || !src_read(s, raw, sizeof(raw), *pos)) {
		snprintf(msg, sizeof(msg), "offload bundle entry %zu is cut short", i);
		return damaged(d, s, *pos, "truncated", msg);
	}
	h->off = le64(raw);
	h->size = le64(raw + 8);
	h->tlen = le64(raw + 16);
	if (h->tlen > OFFLOAD_MAX_TRIPLE || h->tlen > (uint64_t)(s->size - *pos - ENTRY_HEAD) ||
	    !src_read(s, h->triple, (size_t)h->tlen, *pos + ENTRY_HEAD)) {
		snprintf(msg, sizeof(msg), "offload bundle entry %zu: triple of %" PRIu64
			 " bytes runs past the end of the bundle", i, h->tlen);
		return damaged(d, s, *pos + 16, "truncated", msg);
	}
	h->triple[h->tlen] = 0;
	if (h->off > (uint64_t)s->size || h->size > (uint64_t)s->size - h->off) {
		snprintf(msg, sizeof(msg), "offload bundle entry %zu (%s): %" PRIu64 " bytes at offset %"
			 PRIu64 " run past the end of the %" PRId64 "-byte bundle", i, h->triple,
			 h->size, h->off, s->size);
		return damaged(d, s, *pos, "truncated", msg);
	}
	*pos += ENTRY_HEAD + (int64_t)h->tlen;
	return 0;
}

/* Reads the entry table; *end gets the bundle's extent (the table and every entry's code). */
static int read_table(const struct src *s, struct code_object *o, struct diags *d, int64_t *end)
{
	unsigned char raw[8];
	struct entry_head h;
	uint64_t count;
	int64_t pos = TABLE_START;
	char msg[160];

	if (s->size < TABLE_START || !src_read(s, raw, sizeof(raw), MAGIC_LEN))
		return damaged(d, s, MAGIC_LEN, "truncated",
			       "offload bundle ends before its entry count");
	count = le64(raw);
	if (count > OFFLOAD_MAX_ENTRIES && count <= (uint64_t)(s->size - TABLE_START) / ENTRY_HEAD) {
		snprintf(msg, sizeof(msg), "offload bundle says %" PRIu64 " entries, more than the %d "
			 "a bundle can plausibly hold", count, OFFLOAD_MAX_ENTRIES);
		return damaged(d, s, MAGIC_LEN, "truncated", msg);
	}
	if (count > (uint64_t)(s->size - TABLE_START) / ENTRY_HEAD) {
		snprintf(msg, sizeof(msg), "offload bundle says %" PRIu64 " entries, more than its %"
			 PRId64 " bytes can hold", count, s->size);
		return damaged(d, s, MAGIC_LEN, "truncated", msg);
	}
	o->ncontainers++;
	for (size_t i = 0; i < count; i++) {
		if (read_entry(s, i, &pos, &h, d))
			return -1;
		add_entry(s, &h, o);
		if ((int64_t)(h.off + h.size) > *end)
			*end = (int64_t)(h.off + h.size);
	}
	if (pos > *end)
		*end = pos;
	return 0;
}

/* ---- the compressed form ---- */

struct cheader {
	unsigned version, method;	/* method: 0 zlib, 1 zstd (llvm::compression::Format) */
	uint64_t file_size;		/* v2/v3: the whole compressed bundle; v1: the container */
	uint64_t raw_size;		/* the uncompressed bundle */
	size_t len;			/* header bytes */
};

static int read_cheader(int fd, const char *path, int64_t off, int64_t size, struct cheader *c,
			struct diags *d)
{
	unsigned char h[32];
	struct srcpos pos = SRCPOS_BYTE(path, off + 4);

	if (size < 8 || pread_all(fd, h, 8, off))
		return diag_error(d, "truncated", &pos, "compressed offload bundle ends in its header");
	c->version = le16(h + 4);
	c->method = le16(h + 6);
	c->len = c->version == 1 ? 20 : c->version == 2 ? 24 : 32;
	if (c->version < 1 || c->version > 3)
		return diag_error(d, "corrupt", &pos, "compressed offload bundle of version %u, not 1 to 3",
				  c->version);
	if (size < (int64_t)c->len || pread_all(fd, h, c->len, off))
		return diag_error(d, "truncated", &pos, "compressed offload bundle ends in its header");
	c->file_size = c->version == 1 ? (uint64_t)size : c->version == 2 ? le32(h + 8) : le64(h + 8);
	c->raw_size = c->version == 1 ? le32(h + 8) : c->version == 2 ? le32(h + 12) : le64(h + 16);
	pos.byte = off + 8;
	if (c->file_size < c->len || c->file_size > (uint64_t)size)
		return diag_error(d, "truncated", &pos, "compressed offload bundle says %" PRIu64
				  " bytes, its container holds %" PRId64, c->file_size, size);
	pos.byte = off + 6;
	if (c->method > 1)
		return diag_error(d, "corrupt", &pos, "compressed offload bundle: compression method %u "
				  "is neither zlib (0) nor zstd (1)", c->method);
	return 0;
}

/* One step of a decompressor: consumes from in, appends to out; <0 error, 1 at the end. */
struct inflater {
	z_stream z;
	ZSTD_DStream *zs;
	const char *error;
};

static int inflate_step(struct inflater *f, unsigned method, const unsigned char *in, size_t n,
			size_t *used, unsigned char *out, size_t room, size_t *made)
{
	if (method == 0) {
		int r;

		f->z.next_in = (unsigned char *)(uintptr_t)in;
		f->z.avail_in = (uInt)n;
		f->z.next_out = out;
		f->z.avail_out = (uInt)room;
		r = inflate(&f->z, Z_NO_FLUSH);
		*used = n - f->z.avail_in;
		*made = room - f->z.avail_out;
		f->error = f->z.msg ? f->z.msg : "bad data";
		return r == Z_STREAM_END ? 1 : r == Z_OK || r == Z_BUF_ERROR ? 0 : -1;
	}
	ZSTD_inBuffer ib = { in, n, 0 };
	ZSTD_outBuffer ob = { out, room, 0 };
	size_t r = ZSTD_decompressStream(f->zs, &ob, &ib);

	*used = ib.pos;
	*made = ob.pos;
	if (ZSTD_isError(r)) {
		f->error = ZSTD_getErrorName(r);
		return -1;
	}
	return r == 0 ? 1 : 0;
}

/* Inflates [in_off, in_end) of fd into out until want bytes; returns the bytes made or -1. */
static int64_t inflate_prefix(int fd, unsigned method, int64_t in_off, int64_t in_end,
			      unsigned char *out, size_t want, const char **error)
{
	struct inflater f = { .zs = NULL };
	unsigned char *in = xmalloc(INPUT_CHUNK);
	size_t made = 0;
	int r = 0;

	if (method == 0 ? inflateInit(&f.z) != Z_OK : !(f.zs = ZSTD_createDStream())) {
		f.error = "cannot start the decompressor";
		r = -1;
	}
	while (made < want && in_off < in_end && r == 0) {
		size_t n = (size_t)(in_end - in_off < INPUT_CHUNK ? in_end - in_off : INPUT_CHUNK);
		size_t used = 0, step = 0;

		if (pread_all(fd, in, n, in_off)) {
			f.error = "read error";
			r = -1;
			break;
		}
		for (size_t at = 0; r == 0 && made < want && (at < n || step); at += used) {
			r = inflate_step(&f, method, in + at, n - at, &used, out + made, want - made, &step);
			made += step;
			if (!used && !step)
				break;	/* no progress: the rest needs more input */
		}
		in_off += (int64_t)n;
	}
	*error = f.error;
	if (method == 0)
		inflateEnd(&f.z);
	else if (f.zs)
		ZSTD_freeDStream(f.zs);
	free(in);
	return r < 0 ? -1 : (int64_t)made;
}

static int read_compressed(int fd, const char *path, int64_t off, int64_t size,
			   struct code_object *o, struct diags *d, int64_t *end)
{
	struct cheader c = { .len = 0 };
	struct srcpos pos = SRCPOS_BYTE(path, off);
	const char *error = NULL;
	unsigned char *out;
	size_t want;
	int64_t made;
	int rc;

	if (read_cheader(fd, path, off, size, &c, d))
		return -1;
	want = c.raw_size < OFFLOAD_INFLATE_MAX ? (size_t)c.raw_size : OFFLOAD_INFLATE_MAX;
	out = xmalloc(want ? want : 1);
	made = inflate_prefix(fd, c.method, off + (int64_t)c.len, off + (int64_t)c.file_size, out,
			      want, &error);
	pos.byte = off + (int64_t)c.len;
	if (made < 0)
		rc = diag_error(d, "corrupt", &pos, "compressed offload bundle does not decompress (%s: %s)",
				c.method ? "zstd" : "zlib", error);
	else if (made < MAGIC_LEN || memcmp(out, OFFLOAD_MAGIC, MAGIC_LEN))
		rc = diag_error(d, "corrupt", &pos, "compressed offload bundle does not inflate to a bundle");
	else
		rc = read_table(&(struct src){ .fd = -1, .path = path, .base = off,
					       .size = (int64_t)c.raw_size, .mem = out,
					       .got = (size_t)made }, o, d, &(int64_t){ 0 });
	*end = (int64_t)c.file_size;	/* v1 has no size: the rest of the container */
	free(out);
	return rc;
}

/* One bundle at off; *end gets its length. */
static int read_one(int fd, const char *path, int64_t off, int64_t size, struct code_object *o,
		    struct diags *d, int64_t *end)
{
	unsigned char head[MAGIC_LEN];
	struct srcpos pos = SRCPOS_BYTE(path, off);
	size_t n = size < MAGIC_LEN ? (size_t)(size > 0 ? size : 0) : MAGIC_LEN;

	if (pread_all(fd, head, n, off) || !offload_is_bundle(head, n))
		return diag_error(d, "corrupt", &pos, "not a clang offload bundle");
	if (!memcmp(head, OFFLOAD_CMAGIC, 4))
		return read_compressed(fd, path, off, size, o, d, end);
	return read_table(&(struct src){ .fd = fd, .path = path, .base = off, .size = size }, o, d,
			  end);
}

/*
 * The next bundle after *pos in a section of size bytes at off: linking
 * places one bundle per translation unit one after another, with zero
 * padding between them. Moves *pos to it; false when the rest is padding,
 * something else, or more than PAD_MAX bytes of zeros.
 */
#define PAD_MAX (64 << 10)
static bool next_bundle(int fd, int64_t off, int64_t size, int64_t *pos)
{
	unsigned char buf[512];
	int64_t at = *pos, limit = *pos + PAD_MAX;

	while (at < size && at < limit) {
		size_t n = (size_t)(size - at < (int64_t)sizeof(buf) ? size - at : (int64_t)sizeof(buf));
		size_t z = 0;

		if (pread_all(fd, buf, n, off + at))
			return false;
		while (z < n && !buf[z])
			z++;
		if (z < n) {
			n = (size_t)(size - (at + (int64_t)z) < MAGIC_LEN ? size - (at + (int64_t)z) : MAGIC_LEN);
			if (pread_all(fd, buf, n, off + at + (int64_t)z) || !offload_is_bundle(buf, n))
				return false;
			*pos = at + (int64_t)z;
			return true;
		}
		at += (int64_t)n;
	}
	return false;
}

int offload_read_bundle(int fd, const char *path, int64_t off, int64_t size,
			struct code_object *o, struct diags *d)
{
	int64_t pos = 0;

	do {
		int64_t end = 0;

		if (read_one(fd, path, off + pos, size - pos, o, d, &end))
			return -1;
		pos += end > 0 ? end : size - pos;
	} while (next_bundle(fd, off, size, &pos));
	return 0;
}

int offload_read_amdgpu(int fd, const char *path, int64_t off, int64_t size,
			struct code_object *o, struct diags *d)
{
	struct src s = { .fd = fd, .path = path, .base = off, .size = size };
	struct code_entry e = { .kind = CODE_AMDGPU, .ptx_isa = -1, .cubin_abi = -1, .offset = off };
	unsigned char h[ELF_HEAD];
	struct srcpos pos = SRCPOS_BYTE(path, off);

	if (size < ELF_HEAD || pread_all(fd, h, sizeof(h), off))
		return diag_error(d, "truncated", &pos, "AMDGPU code object ends in its ELF header");
	if (!offload_is_amdgpu_elf(h, sizeof(h)))
		return diag_error(d, "corrupt", &pos, "not an AMDGPU code object");
	pos.byte = off + 48;
	if (!offload_amdgpu_target(le32(h + 48), h[8], e.arch, sizeof(e.arch)))
		return diag_error(d, "corrupt", &pos, "AMDGPU code object names processor 0x%02x, "
				  "which this reader does not know", (unsigned)(le32(h + 48) & 0xff));
	check_elf(&s, 0, (uint64_t)size, &e);
	e.sm = gfx_number(e.arch);
	o->ncontainers++;
	code_object_add(o, &e);
	return 0;
}

int offload_scan_fd(int fd, const char *path, int64_t size, struct code_object *o, struct diags *d)
{
	unsigned char head[ELF_HEAD];
	ssize_t n = pread(fd, head, sizeof(head), 0);

	code_object_init(o, path, "hsaco");
	if (n > 0 && offload_is_bundle(head, (size_t)n)) {
		o->kind = "offload-bundle";
		return offload_read_bundle(fd, path, 0, size, o, d);
	}
	if (n >= 20 && !memcmp(head, "\177ELF", 4) && le16(head + 18) == EM_AMDGPU_MACHINE)
		return offload_read_amdgpu(fd, path, 0, size, o, d);
	return 1;
}

int offload_scan_hsaco(const char *path, struct code_object *o, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(path);
	struct stat st;
	int fd = open(path, O_RDONLY), rc;

	if (fd < 0) {
		code_object_init(o, path, "hsaco");
		return diag_error(d, "unreadable", &pos, "cannot open: %s", strerror(errno));
	}
	if (fstat(fd, &st)) {
		code_object_init(o, path, "hsaco");
		rc = diag_error(d, "unreadable", &pos, "cannot read: %s", strerror(errno));
	} else
		rc = offload_scan_fd(fd, path, (int64_t)st.st_size, o, d);
	close(fd);
	return rc;
}
