/*
 * elf: the parts of an ELF file (64- or 32-bit, little-endian) that the
 * binary scanner needs, read through pread at offsets: the header, the
 * section headers and their names; and the members of ar archives. Every
 * offset and size is checked against the bytes that hold the file before use.
 */
#ifndef INGEST_ELF_H
#define INGEST_ELF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"

#define EM_CUDA_MACHINE 190	/* e_machine of a CUDA cubin */
#define EM_AMDGPU_MACHINE 224	/* e_machine of an AMDGPU code object */

/* One ELF file: the bytes [base, base + size) of fd (an archive member or a whole file). */
struct elf_file {
	int fd;
	const char *path;	/* for diagnostics; not owned */
	int64_t base, size;	/* where the ELF lies in fd */
	bool is64;		/* ELFCLASS64 */
	uint16_t type;		/* e_type: 1 relocatable, 2 executable, 3 shared object */
	uint16_t machine;	/* e_machine */
	uint8_t osabi, abiversion;	/* EI_OSABI, EI_ABIVERSION */
	uint32_t flags;		/* e_flags */
	int64_t shoff;		/* section header table, relative to base */
	uint32_t shnum, shentsize;
	int64_t stroff, strsize;	/* the section-name string table, relative to base */
};

/* One section: its name and its bytes in fd (absolute offset). */
struct elf_section {
	char name[64];		/* truncated to 63 bytes */
	uint32_t type;		/* sh_type; 8 (SHT_NOBITS) has no bytes in the file */
	int64_t off, size;	/* absolute offset in fd and size */
	int64_t hdr_off;	/* absolute offset of its section header */
};

/*
 * Reads the ELF header at base of fd and the section-name table. Returns 0,
 * 1 when the bytes do not start with the ELF magic (no diagnostic), or -1
 * after one diagnostic with the byte offset (truncated, big-endian, a table
 * past the end).
 */
int elf_open(struct elf_file *e, int fd, const char *path, int64_t base, int64_t size,
	     struct diags *d);

/* Reads section i (0 <= i < e->shnum) into s. Returns 0 or -1 after one diagnostic. */
int elf_section_at(const struct elf_file *e, uint32_t i, struct elf_section *s, struct diags *d);

/* Finds the first section named name. Returns 0, 1 when there is none, -1 after a diagnostic. */
int elf_find_section(const struct elf_file *e, const char *name, struct elf_section *s,
		     struct diags *d);

/*
 * Reads exactly n bytes at off of fd into buf. Returns 0, or -1 after a
 * diagnostic ("truncated" at off when the file ends first, "unreadable" on an
 * I/O error). what names the structure read, for the message.
 */
int elf_pread(int fd, const char *path, int64_t off, void *buf, size_t n, const char *what,
	      struct diags *d);

/* Little-endian field readers. */
uint16_t elf_le16(const unsigned char *p);
uint32_t elf_le32(const unsigned char *p);
uint64_t elf_le64(const unsigned char *p);

/* An ar archive ("!<arch>\n") being walked member by member. */
struct ar_iter {
	int fd;
	const char *path;	/* not owned */
	int64_t pos, fsize;	/* the next member header; the file size */
	int64_t names_off, names_size;	/* the GNU long-name table ("//"), 0 size when none */
};

struct ar_member {
	char name[256];		/* GNU "/N" and BSD "#1/N" long names resolved */
	int64_t off, size;	/* the member's data in fd (BSD: after its name) */
	int64_t hdr_off;	/* its 60-byte header */
};

/* Returns true when the 8 bytes at p are the ar magic. */
bool ar_magic(const unsigned char *p);

/* Starts walking fd (fsize bytes), which begins with the ar magic. */
void ar_begin(struct ar_iter *it, int fd, const char *path, int64_t fsize);

/*
 * Gives the next member that is not a symbol or name table. Returns 0, 1 at
 * the end, or -1 after one diagnostic with the byte offset.
 */
int ar_next(struct ar_iter *it, struct ar_member *m, struct diags *d);

#endif
