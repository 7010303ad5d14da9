/*
 * ptx: first implementation (API commit): the kernels follow.
 */
#include "replay/ptx.h"

#include <string.h>

const char ptx_text[] = "";

static const struct ptx_kernel kernels[] = {
	{ "sa_fill_random", "pseudo-random finite values per 32-bit word" },
	{ "sa_copy", "read+write copy of 16-byte units" },
	{ "sa_read", "read-only xor reduction" },
	{ "sa_write", "write-only fill" },
};

const struct ptx_kernel *ptx_kernels(size_t *n)
{
	*n = sizeof kernels / sizeof kernels[0];
	return kernels;
}

struct ptx_fill_bits ptx_fill_bits_for(enum dtype t)
{
	return (struct ptx_fill_bits){ .mask = 0xffffffffu, .set = 0 };
}

uint32_t ptx_fill_word(uint64_t i, uint32_t seed, enum dtype t)
{
	return 0;
}

int ptx_load(struct cuda *cu, struct ptx_module *m, int sms, struct cuda_err *err)
{
	memset(m, 0, sizeof *m);
	return cuda_err_set(err, "ptx: not built yet");
}

void ptx_unload(struct cuda *cu, struct ptx_module *m)
{
	memset(m, 0, sizeof *m);
}

int ptx_fill_random(struct cuda *cu, const struct ptx_module *m, CUdeviceptr p, size_t bytes,
		    enum dtype t, uint32_t seed, CUstream s, struct cuda_err *err)
{
	return cuda_err_set(err, "ptx: not built yet");
}

int ptx_copy(struct cuda *cu, const struct ptx_module *m, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
	     CUstream s, struct cuda_err *err)
{
	return cuda_err_set(err, "ptx: not built yet");
}

int ptx_read(struct cuda *cu, const struct ptx_module *m, CUdeviceptr src, size_t bytes, CUdeviceptr sink,
	     uint32_t never, CUstream s, struct cuda_err *err)
{
	return cuda_err_set(err, "ptx: not built yet");
}

int ptx_write(struct cuda *cu, const struct ptx_module *m, CUdeviceptr dst, size_t bytes, uint32_t value,
	      CUstream s, struct cuda_err *err)
{
	return cuda_err_set(err, "ptx: not built yet");
}
