#include "ingest/fatbin.h"

#include <inttypes.h>
#include <lz4.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "core/xalloc.h"
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

/*
 * nvcc --concat (CUDA 13.x) packs several cubins into one entry of this kind:
 * one compressed payload holding the cubins back to back, and in the entry
 * header, from byte 64 on, a table: u32 count, u32 table length (from byte
 * 64), then one sub-entry header per cubin laid out like an entry header (SM
 * at +28, flags at +40), whose +4 and +8 give the cubin's offset and size in
 * the inflated payload. The compression is the outer entry's. Measured on
 * fatbins made by nvcc 13.5.37 (tests/data/stack/concat*.fatbin).
 */
#define KIND_CONCAT 0x100u
#define CONCAT_VERSION 1u	/* the minor at +0x18 of the outer header; its major is 0 */
#define CONCAT_TABLE_HEAD 8	/* count and table length */
#define CONCAT_MAX_HDR (1u << 20)	/* a table larger than this is damage, not cubins */
#define INFLATE_MAX (256u << 20)	/* an LZ4 concat payload inflated in memory, at most */

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
	uint64_t inflated;	/* the decompressed size, 0 = not compressed */
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

/*
 * The first CUBIN_EHDR bytes at each of the n ascending offsets of the
 * inflated payload (n compressed bytes at off) of a concatenated entry: one
 * pass over the payload. A window past the payload's end stays unfilled.
 */
struct window {
	uint64_t at;		/* offset in the inflated payload */
	unsigned char h[CUBIN_EHDR];
	size_t got;		/* bytes of h filled */
};

typedef int (*windows_fn)(struct fb_walk *w, int64_t off, uint64_t n, uint64_t inflated,
			  struct window *win, size_t nwin, const char **why);

/* Copies into the windows what of them lies in [start, start + len) of the stream. */
static void fill_windows(struct window *win, size_t nwin, uint64_t start, const unsigned char *p,
			 size_t len)
{
	for (size_t i = 0; i < nwin; i++) {
		uint64_t from = win[i].at + win[i].got, to = win[i].at + CUBIN_EHDR;

		if (win[i].got == CUBIN_EHDR || to <= start || from >= start + len)
			continue;
		if (from < start)
			continue;	/* not in an ascending pass, which fills each in order */
		size_t k = (size_t)((to < start + len ? to : start + len) - from);
		memcpy(win[i].h + win[i].got, p + (from - start), k);
		win[i].got += k;
	}
}

static bool windows_done(const struct window *win, size_t nwin)
{
	return nwin == 0 || win[nwin - 1].got == CUBIN_EHDR;
}

static int windows_raw(struct fb_walk *w, int64_t off, uint64_t n, uint64_t inflated,
		       struct window *win, size_t nwin, const char **why)
{
	for (size_t i = 0; i < nwin; i++) {
		if (win[i].at > n || n - win[i].at < CUBIN_EHDR)
			continue;
		if (elf_pread(w->fd, w->path, off + (int64_t)win[i].at, win[i].h, CUBIN_EHDR, "cubin",
			      w->d) < 0)
			return -1;
		win[i].got = CUBIN_EHDR;
	}
	return 0;
}

/* The payload is one LZ4 block: inflated in memory up to the last window, within INFLATE_MAX. */
static int windows_lz4(struct fb_walk *w, int64_t off, uint64_t n, uint64_t inflated,
		       struct window *win, size_t nwin, const char **why)
{
	uint64_t want = win[nwin - 1].at + CUBIN_EHDR;
	char *in, *out;
	int rc = 0;

	if (want > inflated)
		want = inflated;
	if (n > INFLATE_MAX || want > INFLATE_MAX)
		return 0;	/* left unverified */
	in = xmalloc(n ? (size_t)n : 1);
	out = xmalloc(want ? (size_t)want : 1);
	if (elf_pread(w->fd, w->path, off, in, (size_t)n, "compressed cubins", w->d) < 0)
		rc = -1;
	else if (LZ4_decompress_safe_partial(in, out, (int)n, (int)want, (int)want) != (int)want)
		rc = inflate_failed(why, "malformed lz4 block");
	else
		fill_windows(win, nwin, 0, (unsigned char *)out, (size_t)want);
	free(in);
	free(out);
	return rc;
}

/* Streams the frame CHUNK bytes at a time, keeping only the windows. */
static int windows_zstd(struct fb_walk *w, int64_t off, uint64_t n, uint64_t inflated,
			struct window *win, size_t nwin, const char **why)
{
	unsigned char in[CHUNK], out[CHUNK];
	uint64_t pos = 0;	/* inflated bytes so far */
	size_t r = 1;

	if (!w->z && !(w->z = ZSTD_createDStream()))
		return inflate_failed(why, "out of memory");
	ZSTD_DCtx_reset(w->z, ZSTD_reset_session_only);
	for (uint64_t done = 0; !windows_done(win, nwin) && done < n && r != 0;) {
		size_t len = n - done < CHUNK ? (size_t)(n - done) : CHUNK;
		if (elf_pread(w->fd, w->path, off + (int64_t)done, in, len, "compressed cubins", w->d) < 0)
			return -1;
		ZSTD_inBuffer ib = { in, len, 0 };
		while (ib.pos < ib.size && !windows_done(win, nwin) && r != 0) {
			ZSTD_outBuffer ob = { out, sizeof(out), 0 };
			if (ZSTD_isError(r = ZSTD_decompressStream(w->z, &ob, &ib)))
				return inflate_failed(why, ZSTD_getErrorName(r));
			fill_windows(win, nwin, pos, out, ob.pos);
			pos += ob.pos;
		}
		done += len;
	}
	return 0;
}

/* How a payload is stored, by its flag bits; the first whose bits are set wins. */
static const struct storage {
	uint64_t flag;		/* 0: matches every entry */
	const char *name;	/* for the message */
	head_fn head;
	windows_fn windows;	/* the cubins of a concatenated entry */
} storages[] = {
	{ FLAG_LZ4, "lz4-compressed", head_lz4, windows_lz4 },
	{ FLAG_ZSTD, "zstd-compressed", head_zstd, windows_zstd },
	{ 0, "uncompressed", head_raw, windows_raw },
};

static const struct storage *storage_of(uint64_t flags)
{
	const struct storage *s = storages;

	while (s->flag && !(flags & s->flag))
		s++;
	return s;
}

/* Reads the cubin's ELF header and compares its SM with the entry's; fills e. */
static int verify_cubin(struct fb_walk *w, const struct fb_entry *f, struct code_entry *e)
{
	unsigned char h[CUBIN_EHDR];
	const struct storage *s = storage_of(f->flags);
	uint64_t n = f->csize && f->csize < f->size ? f->csize : f->size;
	const char *why = NULL;

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
		.inflated = elf_le64(b + 0x38),
	};
}

/* The code entry for the entry f of kind k, whose payload's storage flags are storage. */
static void make_entry(const struct fb_walk *w, const struct entry_kind *k, const struct fb_entry *f,
		       uint64_t storage, struct code_entry *e)
{
	*e = (struct code_entry){
		.kind = k->kind,
		.sm = (int)f->arch,
		.suffix = f->flags & FLAG_ARCH_A ? 'a' : f->flags & FLAG_FAMILY_F ? 'f' : 0,
		.ptx_isa = k->kind == CODE_PTX ? f->major * 10 + f->minor : -1,
		.cubin_abi = -1,
		.compressed = (storage & (FLAG_LZ4 | FLAG_ZSTD)) != 0,
		.relocatable = w->rel,
		.offset = f->at,
		.compression = storage & FLAG_LZ4 ? CODE_LZ4 : storage & FLAG_ZSTD ? CODE_ZSTD : CODE_RAW,
	};
	snprintf(e->arch, sizeof(e->arch), "%s%" PRIu32 "%s", k->prefix, f->arch,
		 e->suffix == 'a' ? "a" : e->suffix == 'f' ? "f" : "");
}

/* An entry whose code is not counted: a warning naming it, never silence. */
static int not_counted(struct fb_walk *w, int64_t at, const char *what)
{
	diag_warn(w->d, "fatbin-entry-unknown", &SRCPOS_BYTE(w->path, at),
		  "%s, which scaleaudit does not know: its GPU code is not counted", what);
	return 0;
}

static int unknown_kind(struct fb_walk *w, int64_t at, const char *what, unsigned kind)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "%s of kind 0x%x", what, kind);
	return not_counted(w, at, msg);
}

/*
 * The length of the sub-entry header at b (avail bytes left in the table):
 * 64 bytes, or to the end of its options record plus 4 bytes, or of its
 * object name, rounded up to 8 - how nvcc sizes entry headers (options of
 * 0x10, 0x24, 0x28 and 0x2c bytes at 0x48 give headers of 0x60, 0x70, 0x78
 * and 0x78). 0 when that does not fit.
 */
static uint64_t sub_header_len(const unsigned char *b, uint64_t avail)
{
	uint64_t end = ENTRY_HDR, opt = elf_le32(b + 0x14), name = elf_le32(b + 0x20);

	if (opt) {
		if (opt + 8 > avail)
			return 0;
		uint64_t rec = (uint64_t)elf_le32(b + opt) + elf_le32(b + opt + 4) + 4;
		end = rec > end ? rec : end;
		end = opt + 8 > end ? opt + 8 : end;
	}
	if (name && name + elf_le32(b + 0x24) > end)
		end = name + elf_le32(b + 0x24);
	end = (end + 7) & ~(uint64_t)7;
	return end <= avail ? end : 0;
}

/* One sub-entry of a concatenated entry. */
struct concat_sub {
	struct fb_entry f;	/* f.hdr_size: the cubin's offset in the inflated payload (+4) */
	struct code_entry e;
	bool known;		/* a kind entry_kinds lists: e is filled */
};

/*
 * The sub-entries of the concatenated entry f, from its header's bytes h,
 * into sub (room for count). Returns 0, or -1 with *why when the table does
 * not add up.
 */
static int concat_table(const struct fb_entry *f, const unsigned char *h, struct concat_sub *sub,
			uint32_t count, const char **why)
{
	uint64_t end = ENTRY_HDR + (uint64_t)elf_le32(h + ENTRY_HDR + 4);
	uint64_t pos = ENTRY_HDR + CONCAT_TABLE_HEAD;
	uint64_t next = 0;	/* where the next cubin must start in the inflated payload */
	uint64_t total = f->inflated ? f->inflated : f->size;	/* 0: stored uncompressed */

	if (end > f->hdr_size || end < pos)
		return *why = "its length runs past the entry header", -1;
	for (uint32_t i = 0; i < count; i++) {
		uint64_t len = end - pos < ENTRY_HDR ? 0 : sub_header_len(h + pos, end - pos);

		if (!len)
			return *why = "a sub-entry header runs past the table", -1;
		parse_entry(h + pos, f->at + (int64_t)pos, &sub[i].f);
		/* in a sub-entry, +4 is the cubin's offset in the inflated payload, +8 its size */
		if (sub[i].f.hdr_size != next || sub[i].f.size > total - next)
			return *why = "the cubins it lists do not tile the payload", -1;
		next += sub[i].f.size;
		pos += len;
	}
	if (pos != end)
		return *why = "the sub-entries do not fill it", -1;
	return 0;
}

/* Reads each cubin's ELF header from the payload and compares its SM with the sub-entry's. */
static int verify_concat(struct fb_walk *w, const struct fb_entry *f, struct concat_sub *sub,
			 uint32_t n)
{
	const struct storage *s = storage_of(f->flags);
	struct window *win = xcalloc(n, sizeof(*win));
	uint64_t csize = f->csize && f->csize < f->size ? f->csize : f->size;
	const char *why = NULL;
	int rc;

	for (uint32_t i = 0; i < n; i++)
		win[i].at = sub[i].f.hdr_size;
	rc = s->windows(w, f->at + f->hdr_size, csize, f->inflated ? f->inflated : csize, win, n,
			&why);
	if (rc > 0) {
		w->damaged = true;
		diag_error(w->d, "corrupt", &SRCPOS_BYTE(w->path, f->at),
			   "%s concatenated cubins do not decompress: %s", s->name, why);
	}
	for (uint32_t i = 0; rc == 0 && i < n; i++)
		if (sub[i].known && sub[i].e.kind == CODE_SASS && win[i].got == CUBIN_EHDR)
			sub[i].e.verified = cubin_header_sm(win[i].h, CUBIN_EHDR,
							    &sub[i].e.cubin_abi) == sub[i].e.sm;
	free(win);
	return rc < 0 ? -1 : 0;
}

/* Adds the sub-entries read: each of a kind scaleaudit knows, else a warning. */
static int add_subs(struct fb_walk *w, const struct concat_sub *sub, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!sub[i].known) {
			unknown_kind(w, sub[i].f.at, "fatbin sub-entry", sub[i].f.kind);
			continue;
		}
		if (w->o->nentry >= MAX_ENTRIES)
			return diag_error(w->d, "corrupt", &SRCPOS_BYTE(w->path, sub[i].f.at),
					  "more than %u fatbin entries in one file", MAX_ENTRIES);
		code_object_add(w->o, &sub[i].e);
	}
	return 0;
}

/* Reads the table of the concatenated entry f (header bytes h) and adds its sub-entries. */
static int read_concat(struct fb_walk *w, const struct fb_entry *f, const unsigned char *h)
{
	uint32_t count = elf_le32(h + ENTRY_HDR);
	struct concat_sub *sub;
	const char *why = NULL;
	int rc;

	if (count > (f->hdr_size - ENTRY_HDR) / ENTRY_HDR)
		return not_counted(w, f->at, "concatenated fatbin entry listing more sub-entries "
				   "than its header holds");
	sub = xcalloc(count ? count : 1, sizeof(*sub));
	if (concat_table(f, h, sub, count, &why) < 0) {
		char msg[160];

		snprintf(msg, sizeof(msg), "concatenated fatbin entry whose sub-entry table does not "
			 "add up (%s)", why);
		free(sub);
		return not_counted(w, f->at, msg);
	}
	for (uint32_t i = 0; i < count; i++) {
		const struct entry_kind *k = sub[i].f.kind == KIND_CONCAT ? NULL : find_kind(sub[i].f.kind);

		sub[i].known = k != NULL;
		if (k)
			make_entry(w, k, &sub[i].f, f->flags, &sub[i].e);
	}
	rc = count ? verify_concat(w, f, sub, count) : 0;
	if (rc == 0)
		rc = add_subs(w, sub, count);
	free(sub);
	return rc;
}

/* The entries of nvcc --concat's entry f: one per sub-entry, stored as f is. */
static int add_concat(struct fb_walk *w, const struct fb_entry *f)
{
	unsigned char *h;
	char msg[80];
	int rc;

	if (f->major != 0 || f->minor != CONCAT_VERSION) {
		snprintf(msg, sizeof(msg), "concatenated fatbin entry of format %u.%u", f->major, f->minor);
		return not_counted(w, f->at, msg);
	}
	if (f->hdr_size > CONCAT_MAX_HDR || f->hdr_size < ENTRY_HDR + CONCAT_TABLE_HEAD) {
		snprintf(msg, sizeof(msg), "concatenated fatbin entry with a %" PRIu32 "-byte header",
			 f->hdr_size);
		return not_counted(w, f->at, msg);
	}
	h = xmalloc(f->hdr_size);
	rc = elf_pread(w->fd, w->path, f->at, h, f->hdr_size, "concatenated entry header", w->d);
	if (rc == 0)
		rc = read_concat(w, f, h);
	free(h);
	return rc < 0 ? -1 : 0;
}

/* Adds the entry f to the object. */
static int add_entry(struct fb_walk *w, const struct fb_entry *f)
{
	const struct entry_kind *k = find_kind(f->kind);
	struct code_entry e;

	if (f->kind == KIND_CONCAT)
		return add_concat(w, f);
	if (!k)
		return unknown_kind(w, f->at, "fatbin entry", f->kind);
	make_entry(w, k, f, f->flags, &e);
	if (k->kind == CODE_SASS && verify_cubin(w, f, &e) < 0)
		return -1;
	code_object_add(w->o, &e);
	return 0;
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
