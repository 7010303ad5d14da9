#include "ingest/fatbin.h"

#include <inttypes.h>
#include <lz4.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "ingest/elf.h"

#define FATBIN_HDR 16
#define ENTRY_HDR 64		/* the fixed part of an entry header */
#define CUBIN_EHDR 64		/* the ELF64 header read from each cubin */
#define CHUNK 4096		/* compressed bytes read at a time */
#define MAX_ENTRIES (1u << 20)	/* per file: 10x a whole PyTorch install; bounds memory */

#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_ARCH_A 0x100000u
#define FLAG_FAMILY_F 0x200000u

/* What each entry kind becomes; other kinds are skipped. */
static const struct entry_kind {
	uint16_t id;
	enum code_kind kind;
	const char *prefix;	/* of the arch name */
} entry_kinds[] = {
	{ 1, CODE_PTX, "compute_" },
	{ 2, CODE_SASS, "sm_" },
	{ 8, CODE_LTOIR, "lto_" },
};

/* One walk over a container. */
struct fb_walk {
	int fd;
	const char *path;
	struct code_object *o;
	struct diags *d;
	bool rel;		/* __nv_relfatbin */
	bool damaged;		/* an entry did not decompress */
	ZSTD_DStream *z;	/* made at the first ZSTD cubin */
};

/* The fields of an entry header that are read. */
struct fb_entry {
	int64_t at;		/* the entry's offset in the file */
	uint16_t kind;
	uint32_t hdr_size;
	uint64_t size;		/* payload bytes in the file */
	uint32_t csize;		/* exact compressed size, 0 = not compressed */
	uint16_t minor, major;
	uint32_t arch;
	uint64_t flags;
};

int cubin_header_sm(const unsigned char *h, size_t n, int *abi)
{
	if (n < CUBIN_EHDR || memcmp(h, "\177ELF", 4) != 0 || h[4] != 2 ||
	    elf_le16(h + 18) != EM_CUDA_MACHINE)
		return -1;
	uint32_t flags = elf_le32(h + 48);
	*abi = h[8];
	return (int)(h[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff);
}

static const struct entry_kind *find_kind(uint16_t id)
{
	for (size_t i = 0; i < sizeof(entry_kinds) / sizeof(entry_kinds[0]); i++)
		if (entry_kinds[i].id == id)
			return &entry_kinds[i];
	return NULL;
}

/*
 * The first CUBIN_EHDR bytes of a payload of n bytes at off, into out.
 * Returns 0, -1 after an I/O diagnostic, or 1 with *why when the payload is
 * damaged.
 */
typedef int (*head_fn)(struct fb_walk *w, int64_t off, uint64_t n, unsigned char *out,
		       const char **why);

static int inflate_failed(const char **why, const char *reason)
{
	*why = reason;
	return 1;
}

static int head_raw(struct fb_walk *w, int64_t off, uint64_t n, unsigned char *out,
		    const char **why)
{
	if (n < CUBIN_EHDR)
		return inflate_failed(why, "shorter than an elf header");
	return elf_pread(w->fd, w->path, off, out, CUBIN_EHDR, "cubin", w->d);
}

/* LZ4 blocks cannot be streamed: the first CHUNK bytes are enough for 64 out. */
static int head_lz4(struct fb_walk *w, int64_t off, uint64_t n, unsigned char *out,
		    const char **why)
{
	char in[CHUNK];
	int len = n < CHUNK ? (int)n : CHUNK;

	if (elf_pread(w->fd, w->path, off, in, (size_t)len, "compressed cubin", w->d) < 0)
		return -1;
	if (LZ4_decompress_safe_partial(in, (char *)out, len, CUBIN_EHDR, CUBIN_EHDR) == CUBIN_EHDR)
		return 0;
	return inflate_failed(why, "malformed lz4 block");
}

/* Feeds the frame CHUNK bytes at a time until 64 bytes come out. */
static int head_zstd(struct fb_walk *w, int64_t off, uint64_t n, unsigned char *out,
		     const char **why)
{
	unsigned char in[CHUNK];
	ZSTD_outBuffer ob = { out, CUBIN_EHDR, 0 };
	size_t r = 1;

	if (!w->z && !(w->z = ZSTD_createDStream()))
		return inflate_failed(why, "out of memory");
	ZSTD_DCtx_reset(w->z, ZSTD_reset_session_only);
	for (uint64_t done = 0; ob.pos < CUBIN_EHDR && done < n && r != 0;) {
		size_t len = n - done < CHUNK ? (size_t)(n - done) : CHUNK;
		if (elf_pread(w->fd, w->path, off + (int64_t)done, in, len, "compressed cubin", w->d) < 0)
			return -1;
		ZSTD_inBuffer ib = { in, len, 0 };
		while (ib.pos < ib.size && ob.pos < CUBIN_EHDR && r != 0)
			if (ZSTD_isError(r = ZSTD_decompressStream(w->z, &ob, &ib)))
				return inflate_failed(why, ZSTD_getErrorName(r));
		done += len;
	}
	if (ob.pos < CUBIN_EHDR)
		return inflate_failed(why, "the frame ends before the elf header");
	return 0;
}

/* How a payload is stored, by its flag bits; the first whose bits are set wins. */
static const struct storage {
	uint64_t flag;		/* 0: matches every entry */
	const char *name;	/* for the message */
	head_fn head;
} storages[] = {
	{ FLAG_LZ4, "lz4-compressed", head_lz4 },
	{ FLAG_ZSTD, "zstd-compressed", head_zstd },
	{ 0, "uncompressed", head_raw },
};

/* Reads the cubin's ELF header and compares its SM with the entry's; fills e. */
static int verify_cubin(struct fb_walk *w, const struct fb_entry *f, struct code_entry *e)
{
	unsigned char h[CUBIN_EHDR];
	const struct storage *s = storages;
	uint64_t n = f->csize && f->csize < f->size ? f->csize : f->size;
	const char *why = NULL;

	while (s->flag && !(f->flags & s->flag))
		s++;
	int rc = s->head(w, f->at + f->hdr_size, n, h, &why);
	if (rc < 0)
		return -1;
	if (rc > 0 && s->flag == 0)
		return 0;	/* too short to hold a header: left unverified */
	if (rc > 0) {
		w->damaged = true;
		diag_error(w->d, "corrupt", &SRCPOS_BYTE(w->path, f->at),
			   "%s cubin %s does not decompress: %s", s->name, e->arch, why);
		return 0;
	}
	e->verified = cubin_header_sm(h, sizeof(h), &e->cubin_abi) == e->sm;
	return 0;
}

/* Adds the entry f to the object. */
static int add_entry(struct fb_walk *w, const struct fb_entry *f)
{
	const struct entry_kind *k = find_kind(f->kind);

	if (!k)
		return 0;
	struct code_entry e = {
		.kind = k->kind,
		.sm = (int)f->arch,
		.suffix = f->flags & FLAG_ARCH_A ? 'a' : f->flags & FLAG_FAMILY_F ? 'f' : 0,
		.ptx_isa = k->kind == CODE_PTX ? f->major * 10 + f->minor : -1,
		.cubin_abi = -1,
		.compressed = (f->flags & (FLAG_LZ4 | FLAG_ZSTD)) != 0,
		.relocatable = w->rel,
		.offset = f->at,
		.compression = f->flags & FLAG_LZ4 ? CODE_LZ4 : f->flags & FLAG_ZSTD ? CODE_ZSTD : CODE_RAW,
	};
	snprintf(e.arch, sizeof(e.arch), "%s%" PRIu32 "%s", k->prefix, f->arch,
		 e.suffix == 'a' ? "a" : e.suffix == 'f' ? "f" : "");
	if (k->kind == CODE_SASS && verify_cubin(w, f, &e) < 0)
		return -1;
	code_object_add(w->o, &e);
	return 0;
}

static void parse_entry(const unsigned char *b, int64_t at, struct fb_entry *f)
{
	*f = (struct fb_entry){
		.at = at,
		.kind = elf_le16(b),
		.hdr_size = elf_le32(b + 4),
		.size = elf_le64(b + 8),
		.csize = elf_le32(b + 0x10),
		.minor = elf_le16(b + 0x18),
		.major = elf_le16(b + 0x1a),
		.arch = elf_le32(b + 0x1c),
		.flags = elf_le64(b + 0x28),
	};
}

/* Walks the entries in [p, end) of the fatbin at fb. */
static int read_entries(struct fb_walk *w, int64_t fb, int64_t p, int64_t end)
{
	unsigned char b[ENTRY_HDR];
	struct fb_entry f;

	while (p < end) {
		if (end - p < ENTRY_HDR)
			return diag_error(w->d, "truncated", &SRCPOS_BYTE(w->path, p),
					  "fatbin entry header cut short: %" PRId64
					  " of %d bytes left in the fatbin at byte %" PRId64,
					  end - p, ENTRY_HDR, fb);
		if (elf_pread(w->fd, w->path, p, b, ENTRY_HDR, "fatbin entry header", w->d) < 0)
			return -1;
		parse_entry(b, p, &f);
		if (w->o->nentry >= MAX_ENTRIES)
			return diag_error(w->d, "corrupt", &SRCPOS_BYTE(w->path, p),
					  "more than %u fatbin entries in one file", MAX_ENTRIES);
		if (f.hdr_size < ENTRY_HDR)
			return diag_error(w->d, "corrupt", &SRCPOS_BYTE(w->path, p),
					  "fatbin entry header size %" PRIu32 " is below %d",
					  f.hdr_size, ENTRY_HDR);
		if (f.hdr_size > end - p || f.size > (uint64_t)(end - p - f.hdr_size))
			return diag_error(w->d, "truncated", &SRCPOS_BYTE(w->path, p),
					  "fatbin entry payload (%" PRIu64 " bytes at byte %" PRId64
					  ") runs past the end of its fatbin (byte %" PRId64 ")",
					  f.size, p + f.hdr_size, end);
		if (add_entry(w, &f) < 0)
			return -1;
		p += f.hdr_size + (int64_t)f.size;
	}
	return 0;
}

/* Walks the fatbin at pos; *next gets the offset of the one after it. */
static int read_one(struct fb_walk *w, int64_t pos, int64_t end, int64_t *next)
{
	unsigned char b[FATBIN_HDR];

	if (end - pos < FATBIN_HDR)
		return diag_error(w->d, "truncated", &SRCPOS_BYTE(w->path, pos),
				  "fatbin header cut short: %" PRId64 " of %d bytes", end - pos,
				  FATBIN_HDR);
	if (elf_pread(w->fd, w->path, pos, b, FATBIN_HDR, "fatbin header", w->d) < 0)
		return -1;
	if (elf_le32(b) != FATBIN_MAGIC)
		return diag_error(w->d, "corrupt", &SRCPOS_BYTE(w->path, pos),
				  "no fatbin magic (found 0x%08" PRIx32 ")", elf_le32(b));
	uint16_t hs = elf_le16(b + 6);
	uint64_t payload = elf_le64(b + 8);
	if (hs < FATBIN_HDR || hs > end - pos)
		return diag_error(w->d, "corrupt", &SRCPOS_BYTE(w->path, pos),
				  "fatbin header size %u is invalid", hs);
	if (payload > (uint64_t)(end - pos - hs))
		return diag_error(w->d, "truncated", &SRCPOS_BYTE(w->path, pos),
				  "fatbin payload (%" PRIu64 " bytes) runs past the end of its container"
				  " (byte %" PRId64 ")", payload, end);
	w->o->ncontainers++;
	*next = (pos + hs + (int64_t)payload + 7) & ~(int64_t)7;
	return read_entries(w, pos, pos + hs, pos + hs + (int64_t)payload);
}

static int read_all(struct fb_walk *w, int64_t off, int64_t size)
{
	int64_t end = off + size, pos = off, next = end;
	int rc = 0;

	while (pos < end && rc == 0) {
		rc = read_one(w, pos, end, &next);
		pos = next;
	}
	ZSTD_freeDStream(w->z);
	return rc < 0 || w->damaged ? -1 : 0;
}

int fatbin_read(int fd, const char *path, int64_t off, int64_t size, struct code_object *o,
		struct diags *d)
{
	struct fb_walk w = { .fd = fd, .path = path, .o = o, .d = d };

	return read_all(&w, off, size);
}

int fatbin_read_rel(int fd, const char *path, int64_t off, int64_t size, struct code_object *o,
		    struct diags *d)
{
	struct fb_walk w = { .fd = fd, .path = path, .o = o, .d = d, .rel = true };

	return read_all(&w, off, size);
}
