/*
 * fatbin: the CUDA fat binary reader. A container (an ELF section such as
 * .nv_fatbin or __nv_relfatbin, or a whole .fatbin file) holds fatbins back
 * to back at 8-byte alignment; each holds entries (PTX, cubin, LTO-IR) whose
 * headers give the kind, the SM number, the a/f variant and the PTX ISA. A
 * cubin's own ELF header is read (inflated with liblz4 or libzstd only as far
 * as its first 64 bytes) to check the SM the fatbin claims. nvcc --concat
 * entries (kind 0x100: several cubins in one compressed payload, a table of
 * sub-entries in the header) give one entry per cubin. An entry of a kind not
 * known here is a warning (fatbin-entry-unknown) with its byte offset.
 */
#ifndef INGEST_FATBIN_H
#define INGEST_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/codeobj.h"
#include "core/diag.h"

#define FATBIN_MAGIC 0xBA55ED50u

/*
 * code_container_fn for .nv_fatbin and bare .fatbin files: adds every entry of
 * every fatbin in [off, off + size) of fd to o and counts the fatbins in
 * o->ncontainers. Empty fatbins are accepted. Returns 0, or -1 after a
 * diagnostic with the byte offset: a structural fault (bad magic, a size past
 * the end) stops the walk; a cubin that does not decompress is kept
 * (verified false) and the walk goes on.
 */
int fatbin_read(int fd, const char *path, int64_t off, int64_t size, struct code_object *o,
		struct diags *d);

/* The same for __nv_relfatbin: every entry is marked relocatable. */
int fatbin_read_rel(int fd, const char *path, int64_t off, int64_t size, struct code_object *o,
		    struct diags *d);

/*
 * The SM number of a cubin from the first n bytes of its ELF header (n >= 64):
 * bits 8-15 of e_flags when EI_ABIVERSION >= 8, else bits 0-7. Stores
 * EI_ABIVERSION in *abi. Returns -1 when h is not an ELF64 EM_CUDA header.
 */
int cubin_header_sm(const unsigned char *h, size_t n, int *abi);

#endif
