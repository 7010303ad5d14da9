/*
 * ptx: the kernels as one PTX module, written by hand. Every kernel walks
 * its units with a grid-stride loop (i = ctaid * ntid + tid; i += nctaid *
 * ntid), so any grid covers any size; the host sizes grids from the SM count.
 */
#include "replay/ptx.h"

#include <string.h>

/* Grid-stride prologue: %rd3 = first index, %rd5 = stride, %rd2 = count. */
#define PTX_STRIDE(count_param, done) \
	"	ld.param.u64 %rd2, [" count_param "];\n" \
	"	mov.u32 %r4, %ctaid.x;\n" \
	"	mov.u32 %r5, %ntid.x;\n" \
	"	mov.u32 %r6, %tid.x;\n" \
	"	mov.u32 %r7, %nctaid.x;\n" \
	"	mul.wide.u32 %rd3, %r4, %r5;\n" \
	"	cvt.u64.u32 %rd4, %r6;\n" \
	"	add.u64 %rd3, %rd3, %rd4;\n" \
	"	mul.wide.u32 %rd5, %r7, %r5;\n" \
	"	setp.ge.u64 %p1, %rd3, %rd2;\n" \
	"	@%p1 bra " done ";\n"

/* Grid-stride epilogue: next index, loop while below the count. */
#define PTX_NEXT(loop) \
	"	add.u64 %rd3, %rd3, %rd5;\n" \
	"	setp.lt.u64 %p1, %rd3, %rd2;\n" \
	"	@%p1 bra " loop ";\n"

#define PTX_REGS \
	"	.reg .pred %p<3>;\n" \
	"	.reg .b32 %r<16>;\n" \
	"	.reg .b64 %rd<12>;\n"

const char ptx_text[] =
	"//\n"
	"// scaleaudit replay kernels: hand-written PTX for sm_80 and newer.\n"
	"//\n"
	".version 7.0\n"
	".target sm_80\n"
	".address_size 64\n"
	"\n"
	"// sa_fill_random: word i = (fmix32(lo(i) * 0x9e3779b1 ^ hi(i) * 0x85ebca77 ^ seed) & mask) | set\n"
	".visible .entry sa_fill_random(\n"
	"	.param .u64 p,\n"
	"	.param .u64 nwords,\n"
	"	.param .u32 seed,\n"
	"	.param .u32 mask,\n"
	"	.param .u32 set)\n"
	"{\n"
	PTX_REGS
	"	ld.param.u64 %rd1, [p];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	ld.param.u32 %r1, [seed];\n"
	"	ld.param.u32 %r2, [mask];\n"
	"	ld.param.u32 %r3, [set];\n"
	PTX_STRIDE("nwords", "FILL_DONE")
	"FILL_LOOP:\n"
	"	cvt.u32.u64 %r8, %rd3;\n"
	"	shr.u64 %rd6, %rd3, 32;\n"
	"	cvt.u32.u64 %r9, %rd6;\n"
	"	mul.lo.u32 %r10, %r8, -1640531535;\n"
	"	mul.lo.u32 %r11, %r9, -2048144777;\n"
	"	xor.b32 %r10, %r10, %r11;\n"
	"	xor.b32 %r10, %r10, %r1;\n"
	"	shr.u32 %r11, %r10, 16;\n"
	"	xor.b32 %r10, %r10, %r11;\n"
	"	mul.lo.u32 %r10, %r10, -2048144789;\n"
	"	shr.u32 %r11, %r10, 13;\n"
	"	xor.b32 %r10, %r10, %r11;\n"
	"	mul.lo.u32 %r10, %r10, -1028477387;\n"
	"	shr.u32 %r11, %r10, 16;\n"
	"	xor.b32 %r10, %r10, %r11;\n"
	"	and.b32 %r10, %r10, %r2;\n"
	"	or.b32 %r10, %r10, %r3;\n"
	"	shl.b64 %rd7, %rd3, 2;\n"
	"	add.u64 %rd8, %rd1, %rd7;\n"
	"	st.global.u32 [%rd8], %r10;\n"
	PTX_NEXT("FILL_LOOP")
	"FILL_DONE:\n"
	"	ret;\n"
	"}\n"
	"\n"
	"// sa_copy: dst[i] = src[i] for 16-byte units i < n16\n"
	".visible .entry sa_copy(\n"
	"	.param .u64 dst,\n"
	"	.param .u64 src,\n"
	"	.param .u64 n16)\n"
	"{\n"
	PTX_REGS
	"	ld.param.u64 %rd1, [dst];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	ld.param.u64 %rd6, [src];\n"
	"	cvta.to.global.u64 %rd6, %rd6;\n"
	PTX_STRIDE("n16", "COPY_DONE")
	"COPY_LOOP:\n"
	"	shl.b64 %rd7, %rd3, 4;\n"
	"	add.u64 %rd8, %rd6, %rd7;\n"
	"	ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd8];\n"
	"	add.u64 %rd9, %rd1, %rd7;\n"
	"	st.global.v4.u32 [%rd9], {%r8, %r9, %r10, %r11};\n"
	PTX_NEXT("COPY_LOOP")
	"COPY_DONE:\n"
	"	ret;\n"
	"}\n"
	"\n"
	"// sa_read: xor of every word a thread reads; written to *sink only if it equals never\n"
	".visible .entry sa_read(\n"
	"	.param .u64 src,\n"
	"	.param .u64 n16,\n"
	"	.param .u64 sink,\n"
	"	.param .u32 never)\n"
	"{\n"
	PTX_REGS
	"	ld.param.u64 %rd1, [src];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mov.u32 %r12, 0;\n"
	PTX_STRIDE("n16", "READ_DONE")
	"READ_LOOP:\n"
	"	shl.b64 %rd7, %rd3, 4;\n"
	"	add.u64 %rd8, %rd1, %rd7;\n"
	"	ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd8];\n"
	"	xor.b32 %r12, %r12, %r8;\n"
	"	xor.b32 %r12, %r12, %r9;\n"
	"	xor.b32 %r12, %r12, %r10;\n"
	"	xor.b32 %r12, %r12, %r11;\n"
	PTX_NEXT("READ_LOOP")
	"READ_DONE:\n"
	"	ld.param.u32 %r13, [never];\n"
	"	setp.ne.u32 %p2, %r12, %r13;\n"
	"	@%p2 bra READ_RET;\n"
	"	ld.param.u64 %rd10, [sink];\n"
	"	cvta.to.global.u64 %rd10, %rd10;\n"
	"	st.global.u32 [%rd10], %r12;\n"
	"READ_RET:\n"
	"	ret;\n"
	"}\n"
	"\n"
	"// sa_write: every 16-byte unit i < n16 of dst = value x 4\n"
	".visible .entry sa_write(\n"
	"	.param .u64 dst,\n"
	"	.param .u64 n16,\n"
	"	.param .u32 value)\n"
	"{\n"
	PTX_REGS
	"	ld.param.u64 %rd1, [dst];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	ld.param.u32 %r1, [value];\n"
	PTX_STRIDE("n16", "WRITE_DONE")
	"WRITE_LOOP:\n"
	"	shl.b64 %rd7, %rd3, 4;\n"
	"	add.u64 %rd9, %rd1, %rd7;\n"
	"	st.global.v4.u32 [%rd9], {%r1, %r1, %r1, %r1};\n"
	PTX_NEXT("WRITE_LOOP")
	"WRITE_DONE:\n"
	"	ret;\n"
	"}\n";

static const struct ptx_kernel kernels[] = {
	{ "sa_fill_random", "pseudo-random words shaped into finite values of a dtype (write-only)" },
	{ "sa_copy", "read+write copy of 16-byte units" },
	{ "sa_read", "read-only xor reduction of 16-byte units" },
	{ "sa_write", "write-only fill of 16-byte units with one word" },
};

const struct ptx_kernel *ptx_kernels(size_t *n)
{
	*n = sizeof kernels / sizeof kernels[0];
	return kernels;
}

/*
 * Per dtype, the bits kept from the hash and the bits set: floats get a
 * random sign and mantissa and the exponent of 1.0 (values in [1, 2), never
 * zero, never inf or NaN); fp64's high word carries the exponent (the low
 * word is all mantissa, so its bits shape nothing); fp4 e2m1 nibbles get
 * exponent 01. Integer and unknown dtypes are raw bits.
 */
static const struct ptx_fill_bits fill_bits[DT_COUNT] = {
	[DT_FP64] = { 0x800fffffu, 0x3ff00000u },
	[DT_FP32] = { 0x807fffffu, 0x3f800000u },
	[DT_TF32] = { 0x807fffffu, 0x3f800000u },
	[DT_BF16] = { 0x807f807fu, 0x3f803f80u },
	[DT_FP16] = { 0x83ff83ffu, 0x3c003c00u },
	[DT_FP8] = { 0x87878787u, 0x38383838u },
	[DT_FP8_E4M3] = { 0x87878787u, 0x38383838u },
	[DT_FP8_E5M2] = { 0x83838383u, 0x3c3c3c3cu },
	[DT_FP4] = { 0x99999999u, 0x22222222u },
};

struct ptx_fill_bits ptx_fill_bits_for(enum dtype t)
{
	struct ptx_fill_bits b = { 0xffffffffu, 0 };

	if ((unsigned)t < DT_COUNT && fill_bits[t].mask)
		b = fill_bits[t];
	return b;
}

static uint32_t fmix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	x ^= x >> 16;
	return x;
}

uint32_t ptx_fill_word(uint64_t i, uint32_t seed, enum dtype t)
{
	struct ptx_fill_bits b = ptx_fill_bits_for(t);
	uint32_t x = (uint32_t)i * 0x9e3779b1u ^ (uint32_t)(i >> 32) * 0x85ebca77u ^ seed;

	return (fmix32(x) & b.mask) | b.set;
}

int ptx_load(struct cuda *cu, struct ptx_module *m, int sms, struct cuda_err *err)
{
	memset(m, 0, sizeof *m);
	m->sms = sms > 0 ? sms : 1;
	if (cuda_module_load_ptx(cu, &m->mod, ptx_text, err) < 0)
		return -1;
	if (cuda_module_function(cu, m->mod, "sa_fill_random", &m->fill, err) < 0 ||
	    cuda_module_function(cu, m->mod, "sa_copy", &m->copy, err) < 0 ||
	    cuda_module_function(cu, m->mod, "sa_read", &m->read, err) < 0 ||
	    cuda_module_function(cu, m->mod, "sa_write", &m->write, err) < 0) {
		ptx_unload(cu, m);
		return -1;
	}
	return 0;
}

void ptx_unload(struct cuda *cu, struct ptx_module *m)
{
	struct cuda_err ignored = { .count = 0 };

	if (m->mod)
		cuda_module_unload(cu, m->mod, &ignored);
	memset(m, 0, sizeof *m);
}

enum { PTX_BLOCK = 256, PTX_BLOCKS_PER_SM = 8 };

/* Blocks for n work items: enough to cover them, at most 8 per SM (the loop strides over the rest). */
static unsigned grid_for(const struct ptx_module *m, uint64_t n)
{
	uint64_t want = (n + PTX_BLOCK - 1) / PTX_BLOCK;
	uint64_t most = (uint64_t)m->sms * PTX_BLOCKS_PER_SM;

	return (unsigned)(want < most ? want : most);
}

/* Whether the module is loaded and p is aligned; else err says why. */
static int usable(const struct ptx_module *m, CUdeviceptr p, const char *kernel, struct cuda_err *err)
{
	if (!m->mod)
		return cuda_err_set(err, "%s: the project's kernels are not loaded", kernel);
	if (p & 15)
		return cuda_err_set(err, "%s: address 0x%llx is not 16-byte aligned", kernel, p);
	return 0;
}

static int launch(struct cuda *cu, const struct ptx_module *m, CUfunction f, uint64_t n, void **params,
		  CUstream s, struct cuda_err *err)
{
	if (n == 0)
		return 0;
	return cuda_launch(cu, f, grid_for(m, n), PTX_BLOCK, 0, s, params, err);
}

int ptx_fill_random(struct cuda *cu, const struct ptx_module *m, CUdeviceptr p, size_t bytes,
		    enum dtype t, uint32_t seed, CUstream s, struct cuda_err *err)
{
	struct ptx_fill_bits b = ptx_fill_bits_for(t);
	uint64_t nwords = (bytes + 15) / 16 * 4;
	void *params[] = { &p, &nwords, &seed, &b.mask, &b.set };

	if (usable(m, p, "sa_fill_random", err) < 0)
		return -1;
	return launch(cu, m, m->fill, nwords, params, s, err);
}

int ptx_copy(struct cuda *cu, const struct ptx_module *m, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
	     CUstream s, struct cuda_err *err)
{
	uint64_t n16 = (bytes + 15) / 16;
	void *params[] = { &dst, &src, &n16 };

	if (usable(m, dst, "sa_copy", err) < 0 || usable(m, src, "sa_copy", err) < 0)
		return -1;
	return launch(cu, m, m->copy, n16, params, s, err);
}

int ptx_read(struct cuda *cu, const struct ptx_module *m, CUdeviceptr src, size_t bytes, CUdeviceptr sink,
	     uint32_t never, CUstream s, struct cuda_err *err)
{
	uint64_t n16 = (bytes + 15) / 16;
	void *params[] = { &src, &n16, &sink, &never };

	if (usable(m, src, "sa_read", err) < 0)
		return -1;
	return launch(cu, m, m->read, n16, params, s, err);
}

int ptx_write(struct cuda *cu, const struct ptx_module *m, CUdeviceptr dst, size_t bytes, uint32_t value,
	      CUstream s, struct cuda_err *err)
{
	uint64_t n16 = (bytes + 15) / 16;
	void *params[] = { &dst, &n16, &value };

	if (usable(m, dst, "sa_write", err) < 0)
		return -1;
	return launch(cu, m, m->write, n16, params, s, err);
}
