/*
 * offload: ROCm/HIP GPU code. Reads clang offload bundles (the
 * "__CLANG_OFFLOAD_BUNDLE__" layout that HIP places in a `.hip_fatbin`
 * section or a `.hipfb` file, and its compressed "CCOB" form) and AMDGPU code
 * objects (ELF, e_machine EM_AMDGPU), adding one CODE_AMDGPU entry per GPU
 * target ("gfx942:sramecc+:xnack-") to a code_object. Headers only, through
 * pread with every size checked against the container: a compressed bundle is
 * inflated only as far as its entry table (at most OFFLOAD_INFLATE_MAX bytes).
 */
#ifndef INGEST_OFFLOAD_H
#define INGEST_OFFLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/codeobj.h"
#include "core/diag.h"

#define OFFLOAD_MAGIC "__CLANG_OFFLOAD_BUNDLE__"	/* 24 bytes, no NUL in the file */
#define OFFLOAD_CMAGIC "CCOB"				/* a compressed bundle */
#define OFFLOAD_MAX_TRIPLE 1024		/* a longer bundle triple is damage */
#define OFFLOAD_MAX_ENTRIES 4096	/* a bundle with more entries is damage (bounded work) */
#define OFFLOAD_INFLATE_MAX (1 << 20)	/* bytes of a compressed bundle inflated */
#define EM_AMDGPU_MACHINE 224

/* True when the bytes start an offload bundle (either form). */
bool offload_is_bundle(const void *head, size_t n);

/* True when the bytes start a 64-bit little-endian ELF for EM_AMDGPU. */
bool offload_is_amdgpu_elf(const void *head, size_t n);

/*
 * The target ID of an AMDGPU code object from its ELF header's e_flags and
 * EI_ABIVERSION: "gfx942:sramecc+:xnack-" (features named only where the
 * code object fixes them: code object v3 sets them on, v4 and later say on
 * or off, "any" and unsupported are left out). Writes out (size n); false
 * when the processor number is not one this table knows ("" written).
 */
bool offload_amdgpu_target(uint32_t e_flags, int abi_version, char *out, size_t n);

/* The target ID in a bundle triple ("hipv4-amdgcn-amd-amdhsa--gfx90a" -> "gfx90a"); false if none. */
bool offload_triple_target(const char *triple, char *out, size_t n);

/*
 * code_container_fn for the offload bundles in [off, off + size) of fd (a
 * linked `.hip_fatbin` holds one per translation unit, one after another
 * with zero padding, so bundles are read until the rest is not one): one
 * CODE_AMDGPU entry per amdgcn triple (the host entry adds none), offset =
 * the entry's code in the file (for a compressed bundle: the bundle's
 * offset), verified when the entry's own ELF header was read and names the
 * same processor, compressed for a CCOB bundle. Returns 0, or -1 after one
 * diagnostic naming the byte offset (entries before the damage stay in o).
 */
int offload_read_bundle(int fd, const char *path, int64_t off, int64_t size,
			struct code_object *o, struct diags *d);

/* code_container_fn for one AMDGPU code object (an ELF) in [off, off + size) of fd. */
int offload_read_amdgpu(int fd, const char *path, int64_t off, int64_t size,
			struct code_object *o, struct diags *d);

/*
 * Scans a bare file: an AMDGPU code object (`.hsaco`, kind "hsaco") or an
 * offload bundle (`.hipfb`, kind "offload-bundle"). Initialises o (release it
 * either way). Returns 0 when the file is one of them, 1 when it is not (o
 * empty, no diagnostic), -1 after a diagnostic when it is one but damaged or
 * cannot be read.
 */
int offload_scan_hsaco(const char *path, struct code_object *o, struct diags *d);

/* The same for fd, open on size bytes that diagnostics call path (fd stays open). */
int offload_scan_fd(int fd, const char *path, int64_t size, struct code_object *o, struct diags *d);

#endif
