/*
 * ptx: the project's own GPU kernels, hand-written PTX (ISA 7.0, target
 * sm_80, so any CUDA 11+ driver JITs them for sm_80 and every newer GPU), kept
 * here as text, and the host side that loads them and launches them:
 * a pseudo-random fill, a read+write copy, a read-only reduction and a
 * write-only fill, each moving whole 16-byte units.
 */
#ifndef REPLAY_PTX_H
#define REPLAY_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "replay/cuda.h"

/* The whole module's PTX text, NUL-terminated. */
extern const char ptx_text[];

/* A kernel of the module. */
struct ptx_kernel {
	const char *name;	/* its .entry name */
	const char *what;	/* one line: what it does */
};
/* Every kernel of ptx_text, in order. */
const struct ptx_kernel *ptx_kernels(size_t *n);

/*
 * The random fill writes, for each 32-bit word w at index i of the buffer,
 * (hash(i, seed) & mask) | set: a counter-based hash (ptx_fill_word is its
 * host twin) whose bits are shaped so each element of the dtype is a finite
 * number with magnitude in [1, 2) and a random sign (floats), or random
 * bits (integers, unknown). Never zero for floats.
 */
struct ptx_fill_bits {
	uint32_t mask, set;
};
struct ptx_fill_bits ptx_fill_bits_for(enum dtype t);
/* The word the fill kernel writes at word index i (host twin, for checks). */
uint32_t ptx_fill_word(uint64_t i, uint32_t seed, enum dtype t);

/* The module loaded into one device's context, with its functions. */
struct ptx_module {
	CUmodule mod;
	CUfunction fill, copy, read, write;
	int sms;		/* multiprocessors, to size grids */
};

/* JIT-loads ptx_text into the current context; sms sizes the grids. */
int ptx_load(struct cuda *cu, struct ptx_module *m, int sms, struct cuda_err *err);
void ptx_unload(struct cuda *cu, struct ptx_module *m);	/* zeroes m; a zeroed m is fine */

/*
 * Launches on stream s (NULL: the default stream). Addresses must be
 * 16-byte aligned (cuda_alloc's are); byte counts are rounded UP to whole
 * 16-byte units, which cuda_alloc's rounding allows.
 */
int ptx_fill_random(struct cuda *cu, const struct ptx_module *m, CUdeviceptr p, size_t bytes,
		    enum dtype t, uint32_t seed, CUstream s, struct cuda_err *err);
/* Reads `bytes` from src and writes them to dst (2 x bytes moved). */
int ptx_copy(struct cuda *cu, const struct ptx_module *m, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
	     CUstream s, struct cuda_err *err);
/*
 * Reads `bytes` and xor-reduces them per thread; a thread writes its result
 * to *sink (a 4-byte device word) only when it equals `never` (so the reads
 * cannot be optimised away and nothing is written in practice).
 */
int ptx_read(struct cuda *cu, const struct ptx_module *m, CUdeviceptr src, size_t bytes, CUdeviceptr sink,
	     uint32_t never, CUstream s, struct cuda_err *err);
/* Writes the 32-bit value over `bytes` (write-only traffic). */
int ptx_write(struct cuda *cu, const struct ptx_module *m, CUdeviceptr dst, size_t bytes, uint32_t value,
	      CUstream s, struct cuda_err *err);

#endif
