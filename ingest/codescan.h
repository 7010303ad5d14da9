/*
 * codescan: which GPU code a file on disk carries. Recognises ELF files
 * (shared objects, executables, relocatable objects), ar archives of them,
 * bare cubins, bare fatbins, AMDGPU code objects and clang offload bundles by
 * their bytes, and fills a code_object with every entry of every container
 * in them. Reads headers only, through pread: a 1.5 GB library is never
 * loaded into memory; a compressed cubin is inflated only as far as its ELF
 * header.
 */
#ifndef INGEST_CODESCAN_H
#define INGEST_CODESCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/codeobj.h"
#include "core/diag.h"
#include "core/model.h"

/*
 * Scans path into o (initialised here; release it either way). Returns 0 when
 * the file is a binary kind codescan knows (o->nentry may be 0: no GPU code),
 * 1 when it is not one (o is empty, no diagnostic), -1 after one diagnostic
 * naming the file and the byte offset when it is one but is damaged (what was
 * read before the damage stays in o).
 */
int codescan_file(const char *path, struct code_object *o, struct diags *d);

/*
 * The same for len bytes already in memory (an archive member) that
 * diagnostics call name: they are held in an anonymous in-memory file only
 * while scanned, and read by the same code as a file on disk.
 */
int codescan_bytes(const char *name, const void *bytes, size_t len, struct code_object *o,
		   struct diags *d);

/*
 * The same for size bytes open as fd (read with pread; the offset is not
 * used) that diagnostics call name: an archive member held in a memfd.
 */
int codescan_fd(int fd, const char *name, int64_t size, struct code_object *o, struct diags *d);

/* True when a file beginning with head[0..n) (64 bytes or more) is a binary kind codescan reads. */
bool codescan_is_binary(const unsigned char *head, size_t n);

/* The binaries with GPU code kept per run of a trial; further ones get a warning. */
#define CODESCAN_RUN_MAX 256

/*
 * For the trial loader: scans path, a file of run r of trial t, and when it
 * holds GPU code appends a copy to r->code (in t's arena: see struct run).
 * Returns 1 when it was added, 0 when the file is not a binary or holds no
 * GPU code (nothing added, no diagnostic), -1 after a diagnostic in
 * t->diags (a damaged binary: what was read before the damage is added).
 */
int codescan_run_file(struct trial *t, struct run *r, const char *path);

/* The same for an archive member's len bytes, called name (see codescan_bytes). */
int codescan_run_bytes(struct trial *t, struct run *r, const char *name, const void *bytes,
		       size_t len);

/*
 * A reader of one container inside a file: the bytes [off, off + size) of fd,
 * which is path. Adds its entries to o and returns 0, or -1 after a
 * diagnostic with the byte offset. codescan calls one per section by name
 * (".nv_fatbin", "__nv_relfatbin", ".hip_fatbin", ...).
 */
typedef int (*code_container_fn)(int fd, const char *path, int64_t off, int64_t size,
				 struct code_object *o, struct diags *d);

#endif
