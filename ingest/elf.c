#include "ingest/elf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"

#define SHN_XINDEX_ 0xffffu
#define AR_HDR 60

uint16_t elf_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

uint32_t elf_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t elf_le64(const unsigned char *p)
{
	return (uint64_t)elf_le32(p) | (uint64_t)elf_le32(p + 4) << 32;
}

int elf_pread(int fd, const char *path, int64_t off, void *buf, size_t n, const char *what,
	      struct diags *d)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + (int64_t)got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return diag_error(d, "unreadable", &SRCPOS_BYTE(path, off),
					  "cannot read %s: %s", what, strerror(errno));
		if (r == 0)
			return diag_error(d, "truncated", &SRCPOS_BYTE(path, off),
					  "truncated %s: %zu of %zu bytes", what, got, n);
		got += (size_t)r;
	}
	return 0;
}

/* True when [off, off + len) lies inside [0, size). */
static bool inside(int64_t off, uint64_t len, int64_t size)
{
	return off >= 0 && off <= size && len <= (uint64_t)(size - off);
}

/* The fields of a section header that differ between the classes. */
struct shdr {
	uint32_t name, type, link;
	uint64_t offset, size;
};

static int read_shdr(const struct elf_file *e, uint32_t i, struct shdr *h, struct diags *d)
{
	unsigned char b[64];
	int64_t at = e->base + e->shoff + (int64_t)i * e->shentsize;

	if (elf_pread(e->fd, e->path, at, b, e->is64 ? 64 : 40, "section header", d) < 0)
		return -1;
	h->name = elf_le32(b);
	h->type = elf_le32(b + 4);
	if (e->is64) {
		h->offset = elf_le64(b + 24);
		h->size = elf_le64(b + 32);
		h->link = elf_le32(b + 40);
	} else {
		h->offset = elf_le32(b + 16);
		h->size = elf_le32(b + 20);
		h->link = elf_le32(b + 24);
	}
	return 0;
}

static int section_past_end(const struct elf_file *e, int64_t hdr_off, const char *name,
			    const struct shdr *h, struct diags *d)
{
	return diag_error(d, "truncated", &SRCPOS_BYTE(e->path, hdr_off),
			  "section %s (%" PRIu64 " bytes at byte %" PRIu64
			  ") runs past the end of the file (%" PRId64 " bytes)",
			  name, h->size, (uint64_t)e->base + h->offset, e->base + e->size);
}

/* Reads the class-dependent header fields from the first 64 bytes b. */
static void read_ehdr(struct elf_file *e, const unsigned char *b)
{
	e->type = elf_le16(b + 16);
	e->machine = elf_le16(b + 18);
	e->osabi = b[7];
	e->abiversion = b[8];
	if (e->is64) {
		e->shoff = (int64_t)(elf_le64(b + 40) & INT64_MAX);
		e->flags = elf_le32(b + 48);
		e->shentsize = elf_le16(b + 58);
		e->shnum = elf_le16(b + 60);
	} else {
		e->shoff = elf_le32(b + 32);
		e->flags = elf_le32(b + 36);
		e->shentsize = elf_le16(b + 46);
		e->shnum = elf_le16(b + 48);
	}
}

/* Checks the header's sanity; resolves the extended section count and name table. */
static int read_tables(struct elf_file *e, uint32_t shstrndx, struct diags *d)
{
	struct shdr h;

	if (e->shoff == 0)
		return 0;	/* no section table: nothing to scan */
	if (e->shentsize < (e->is64 ? 64u : 40u))
		return diag_error(d, "corrupt", &SRCPOS_BYTE(e->path, e->base + (e->is64 ? 58 : 46)),
				  "elf section header size %" PRIu32 " is too small", e->shentsize);
	if (!inside(e->shoff, e->shentsize, e->size))
		return diag_error(d, "truncated", &SRCPOS_BYTE(e->path, e->base + (e->is64 ? 40 : 32)),
				  "elf section header table at byte %" PRId64
				  " lies past the end of the file (%" PRId64 " bytes)",
				  e->base + e->shoff, e->base + e->size);
	if (read_shdr(e, 0, &h, d) < 0)
		return -1;
	if (e->shnum == 0)
		e->shnum = (uint32_t)(h.size > UINT32_MAX ? UINT32_MAX : h.size);
	if (shstrndx == SHN_XINDEX_)
		shstrndx = h.link;
	if (!inside(e->shoff, (uint64_t)e->shnum * e->shentsize, e->size))
		return diag_error(d, "truncated", &SRCPOS_BYTE(e->path, e->base + e->shoff),
				  "elf section header table (%" PRIu32 " entries at byte %" PRId64
				  ") runs past the end of the file (%" PRId64 " bytes)",
				  e->shnum, e->base + e->shoff, e->base + e->size);
	if (shstrndx == 0 || shstrndx >= e->shnum)
		return 0;	/* no names: every section is anonymous */
	if (read_shdr(e, shstrndx, &h, d) < 0)
		return -1;
	if (!inside((int64_t)(h.offset & INT64_MAX), h.size, e->size))
		return section_past_end(e, e->base + e->shoff + (int64_t)shstrndx * e->shentsize,
					"names", &h, d);
	e->stroff = (int64_t)h.offset;
	e->strsize = (int64_t)h.size;
	return 0;
}

int elf_open(struct elf_file *e, int fd, const char *path, int64_t base, int64_t size,
	     struct diags *d)
{
	unsigned char b[64];

	*e = (struct elf_file){ .fd = fd, .path = path, .base = base, .size = size };
	size_t n = size < 16 ? (size_t)size : 16;

	if (size < 4)
		return 1;
	if (elf_pread(fd, path, base, b, n, "elf header", d) < 0)
		return -1;
	if (memcmp(b, "\177ELF", 4) != 0)
		return 1;
	if (n < 16)
		return diag_error(d, "truncated", &SRCPOS_BYTE(path, base),
				  "truncated elf header: %zu of 64 bytes", n);
	if ((b[4] != 1 && b[4] != 2) || b[5] != 1)
		return diag_error(d, "corrupt", &SRCPOS_BYTE(path, base + 4),
				  "not a little-endian elf32/elf64 file (class %u, data %u)",
				  b[4], b[5]);
	e->is64 = b[4] == 2;
	if (size < (e->is64 ? 64 : 52))
		return diag_error(d, "truncated", &SRCPOS_BYTE(path, base),
				  "truncated elf header: %" PRId64 " of %d bytes", size,
				  e->is64 ? 64 : 52);
	if (elf_pread(fd, path, base, b, e->is64 ? 64 : 52, "elf header", d) < 0)
		return -1;
	read_ehdr(e, b);
	return read_tables(e, elf_le16(b + (e->is64 ? 62 : 50)), d);
}

/* Reads the name at offset name of the string table into out (cut at its size). */
static int read_name(const struct elf_file *e, uint32_t name, char *out, size_t cap,
		     struct diags *d)
{
	size_t n = cap - 1;

	out[0] = 0;
	if (e->strsize == 0 || name >= (uint64_t)e->strsize)
		return 0;
	if ((uint64_t)e->strsize - name < n)
		n = (size_t)((uint64_t)e->strsize - name);
	if (elf_pread(e->fd, e->path, e->base + e->stroff + name, out, n, "section name", d) < 0)
		return -1;
	out[n] = 0;
	return 0;
}

int elf_section_at(const struct elf_file *e, uint32_t i, struct elf_section *s, struct diags *d)
{
	struct shdr h;

	*s = (struct elf_section){ .hdr_off = e->base + e->shoff + (int64_t)i * e->shentsize };
	if (read_shdr(e, i, &h, d) < 0 || read_name(e, h.name, s->name, sizeof(s->name), d) < 0)
		return -1;
	s->type = h.type;
	if (h.type == 8)	/* SHT_NOBITS: no bytes in the file */
		return 0;
	if (!inside((int64_t)(h.offset & INT64_MAX), h.size, e->size))
		return section_past_end(e, s->hdr_off, s->name[0] ? s->name : "(unnamed)", &h, d);
	s->off = e->base + (int64_t)h.offset;
	s->size = (int64_t)h.size;
	return 0;
}

int elf_find_section(const struct elf_file *e, const char *name, struct elf_section *s,
		     struct diags *d)
{
	for (uint32_t i = 1; i < e->shnum; i++) {
		if (elf_section_at(e, i, s, d) < 0)
			return -1;
		if (strcmp(s->name, name) == 0)
			return 0;
	}
	return 1;
}

bool ar_magic(const unsigned char *p)
{
	return memcmp(p, "!<arch>\n", 8) == 0;
}

void ar_begin(struct ar_iter *it, int fd, const char *path, int64_t fsize)
{
	*it = (struct ar_iter){ .fd = fd, .path = path, .pos = 8, .fsize = fsize };
}

/* Parses the decimal field of width n at p; -1 when it holds anything else. */
static int64_t ar_decimal(const unsigned char *p, size_t n)
{
	int64_t v = 0;
	size_t i = 0;

	while (i < n && p[i] >= '0' && p[i] <= '9' && v < INT64_MAX / 20)
		v = v * 10 + (p[i++] - '0');
	if (i == 0)
		return -1;
	while (i < n && p[i] == ' ')
		i++;
	return i == n ? v : -1;
}

/* A GNU "/N" name: the entry at N of the long-name table, up to its "/\n". */
static int ar_gnu_name(const struct ar_iter *it, int64_t at, char *out, size_t cap,
		       struct diags *d)
{
	size_t n = cap - 1;

	if (at < 0 || at >= it->names_size)
		return diag_error(d, "corrupt", &SRCPOS_BYTE(it->path, it->pos),
				  "archive member name offset %" PRId64 " lies outside the name table", at);
	if ((uint64_t)(it->names_size - at) < n)
		n = (size_t)(it->names_size - at);
	if (elf_pread(it->fd, it->path, it->names_off + at, out, n, "archive name", d) < 0)
		return -1;
	out[n] = 0;
	out[strcspn(out, "\n")] = 0;
	if (n && out[0] && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = 0;
	return 0;
}

/* Fills m->name from the 16-byte name field; BSD "#1/N" moves the data start. */
static int ar_name(struct ar_iter *it, const unsigned char *h, struct ar_member *m,
		   struct diags *d)
{
	char raw[17];
	int64_t n;

	memcpy(raw, h, 16);
	raw[16] = 0;
	for (int i = 15; i >= 0 && raw[i] == ' '; i--)
		raw[i] = 0;
	if (strncmp(raw, "#1/", 3) == 0) {
		n = ar_decimal((const unsigned char *)raw + 3, strlen(raw + 3));
		if (n < 0 || n > m->size)
			return diag_error(d, "corrupt", &SRCPOS_BYTE(it->path, m->hdr_off),
					  "bad bsd archive member name length \"%s\"", raw);
		size_t k = (size_t)n < sizeof(m->name) - 1 ? (size_t)n : sizeof(m->name) - 1;
		if (elf_pread(it->fd, it->path, m->off, m->name, k, "archive name", d) < 0)
			return -1;
		m->name[k] = 0;
		m->off += n;
		m->size -= n;
		return 0;
	}
	if (raw[0] == '/' && raw[1] >= '0' && raw[1] <= '9')
		return ar_gnu_name(it, ar_decimal((const unsigned char *)raw + 1, strlen(raw + 1)),
				   m->name, sizeof(m->name), d);
	size_t len = strlen(raw);
	if (len > 1 && raw[len - 1] == '/')
		raw[len - 1] = 0;
	memcpy(m->name, raw, strlen(raw) + 1);
	return 0;
}

/* True for the members that are tables, not objects. */
static bool ar_table(const char *name)
{
	static const char *const tables[] = { "/", "/SYM64/", "__.SYMDEF", "__.SYMDEF SORTED",
					      "__.SYMDEF_64", "__.SYMDEF_64 SORTED" };
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (strcmp(name, tables[i]) == 0)
			return true;
	return false;
}

int ar_next(struct ar_iter *it, struct ar_member *m, struct diags *d)
{
	unsigned char h[AR_HDR];

	for (;;) {
		if (it->pos + 1 >= it->fsize)
			return 1;
		*m = (struct ar_member){ .hdr_off = it->pos, .off = it->pos + AR_HDR };
		if (elf_pread(it->fd, it->path, it->pos, h, AR_HDR, "archive member header", d) < 0)
			return -1;
		m->size = ar_decimal(h + 48, 10);
		if (h[58] != '`' || h[59] != '\n' || m->size < 0)
			return diag_error(d, "corrupt", &SRCPOS_BYTE(it->path, it->pos),
					  "bad archive member header");
		if (!inside(m->off, (uint64_t)m->size, it->fsize))
			return diag_error(d, "truncated", &SRCPOS_BYTE(it->path, it->pos),
					  "archive member (%" PRId64 " bytes at byte %" PRId64
					  ") runs past the end of the file (%" PRId64 " bytes)",
					  m->size, m->off, it->fsize);
		it->pos = m->off + m->size + (m->size & 1);
		if (memcmp(h, "//              ", 16) == 0) {
			it->names_off = m->off;
			it->names_size = m->size;
			continue;
		}
		if (memcmp(h, "/               ", 16) == 0 || memcmp(h, "/SYM64/         ", 16) == 0)
			continue;
		if (ar_name(it, h, m, d) < 0)
			return -1;
		if (!ar_table(m->name))
			return 0;
	}
}
