/*
 * codeobj: what one compiled file carries for which GPU architectures. The
 * binary readers (ingest/codescan and the section readers it calls) fill a
 * code_object; the readiness judgement (core/readiness, `scaleaudit stack`,
 * the analysis' readiness section) reads it. Nothing here reads a file.
 */
#ifndef CORE_CODEOBJ_H
#define CORE_CODEOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum code_kind {
	CODE_SASS,		/* a CUDA cubin: machine code for one SM */
	CODE_PTX,		/* CUDA PTX: the driver compiles it at load (JIT) */
	CODE_LTOIR,		/* CUDA LTO-IR: needs a device link, not loadable alone */
	CODE_AMDGPU,		/* an AMDGPU code object for one gfx target */
};

#define CODE_ARCH_LEN 40

/* How an entry's payload is stored in its container (fatbin flags). */
enum code_compression {
	CODE_RAW,		/* not compressed (or unknown: a bare cubin, an AMDGPU object) */
	CODE_LZ4,		/* an LZ4 block (nvcc --compress-mode=speed, CUDA 11.0 and later) */
	CODE_ZSTD,		/* a ZSTD frame (CUDA 12.4 and later): the driver must be R550 or newer */
};

struct code_entry {
	enum code_kind kind;
	char arch[CODE_ARCH_LEN];	/* "sm_100a", "compute_90", "lto_100", "gfx942:sramecc+:xnack-" */
	int sm;			/* 100 for sm_100a / compute_100; AMD: the gfx number as hex digits read
				   in decimal (gfx942 -> 942, gfx90a -> -1: see arch) */
	char suffix;		/* 'a', 'f' or 0 (CUDA) */
	int ptx_isa;		/* PTX: major * 10 + minor (87 = ISA 8.7); -1 otherwise or unknown */
	int cubin_abi;		/* cubin: the embedded ELF's EI_ABIVERSION (7 old, 8 new); -1 unknown */
	bool compressed;	/* the payload is LZ4- or ZSTD-compressed in its container */
	bool verified;		/* SASS: the embedded ELF header was read and agrees with the container */
	bool relocatable;	/* from __nv_relfatbin: relocatable device code (-rdc) before the
				   device link, which the CUDA runtime does not load from the file
				   as it is; PTX there is compiled by the driver only once a device
				   link puts it into a program's .nv_fatbin */
	int64_t offset;		/* the entry's byte offset in the file */
	enum code_compression compression;	/* which codec, when compressed */
};

struct code_object {
	char *path;		/* owned */
	const char *kind;	/* static: "shared-object", "executable", "relocatable", "archive",
				   "cubin", "fatbin", "hsaco", "offload-bundle" */
	struct code_entry *entry;	/* owned */
	size_t nentry, cap;
	size_t ncontainers;	/* fatbins / offload bundles found in the file */
};

/* Starts an empty object for path (copied) of the given kind. */
void code_object_init(struct code_object *o, const char *path, const char *kind);

/* Appends a copy of e. */
void code_object_add(struct code_object *o, const struct code_entry *e);

/* Frees what o owns; o may be initialised again. */
void code_object_release(struct code_object *o);

/*
 * Appends to out the distinct arch names of o's entries of one kind (-1:
 * every kind), space-separated, in the order kind, SM number, name:
 * "sm_90 sm_90a sm_100 compute_120". Appends nothing when there are none.
 */
struct buf;
void code_object_archs(const struct code_object *o, int kind, struct buf *out);

/*
 * The same, of every kind, for the archs whose every entry is relocatable
 * (found only in __nv_relfatbin): "compute_75 compute_90".
 */
void code_object_relocatable_only(const struct code_object *o, struct buf *out);

/* The file name of o's path, without its directories: "libbitsandbytes_cuda126.so". */
const char *code_object_file(const struct code_object *o);

#endif
