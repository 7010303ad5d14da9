/*
 * kernels: what each kind of GPU work the timing model launches looks like in
 * a trace: the CPU op that launches it, the kernel name for the device's
 * architecture and the run's precision, its launch shape, its cost and its
 * class (compute, communication, memory) and matmul dtype. Const data.
 */
#ifndef GEN_KERNELS_H
#define GEN_KERNELS_H

#include <stdint.h>

#include "core/model.h"

/*
 * The transformers' vocabulary: the LM head's output width in its recorded
 * shapes and FLOPs. Kernel times are not derived from FLOPs, so the width is
 * kept small enough that the head's time stays possible on every GPU of the
 * samples (under 40% of the B200's dense bf16 peak), and unlike every other
 * layer's width (3H and 4H for H = 2048 and 4096), so that the head stays an
 * op shape of its own.
 */
#define GEN_VOCAB 10000

enum kkind {
	K_H2D, K_MEMSET, K_D2H,
	K_EMBED, K_LN, K_QKV, K_ATTN, K_PROJ, K_ADD, K_FC1, K_GELU, K_FC2,
	K_HEAD, K_LOSS_MM, K_XENT,
	K_XENT_BWD, K_HEAD_DG, K_HEAD_WG,
	K_FC2_DG, K_FC2_WG, K_GELU_BWD, K_FC1_DG, K_FC1_WG, K_LN_BWD,
	K_PROJ_DG, K_PROJ_WG, K_ATTN_BWD, K_QKV_DG, K_QKV_WG, K_EMBED_BWD,
	K_ADAM, K_COMM,
	/* a ResNet-style conv net (channels_last, cuDNN): some names are the transformer's */
	K_CONV_F, K_BN_F, K_RELU, K_MAXPOOL, K_RN_ADD, K_AVGPOOL, K_FC, K_RN_XENT,
	K_RN_XENT_BWD, K_FC_DG, K_FC_WG, K_AVGPOOL_BWD, K_RELU_BWD, K_BN_BWD, K_CONV_DG,
	K_CONV_WG, K_MAXPOOL_BWD,
	K_COUNT
};

enum scale_by { SC_BATCH, SC_PARAMS, SC_BYTES, SC_IMAGES };	/* what a kernel's time grows with */
enum mm_kind { MM_NONE, MM_RUN, MM_ATTN, MM_FP32 };	/* matmul class and its dtype rule */

struct kdef {
	const char *op;		/* the cpu_op that launches it */
	const char *name[4];	/* [sm_100 bf16, sm_90 bf16, sm_100 fp32/tf32, sm_90 fp32/tf32]; "$T" = c10 type */
	const char *family[4];	/* its kernel family, chosen by hand (as name[]); NULL: none (memory, NCCL) */
	int64_t base_us;	/* µs on a B200 in bf16 at micro batch 8, one 400M-parameter block (SC_IMAGES: one stage) */
	uint8_t scale;		/* enum scale_by */
	uint8_t mm;		/* enum mm_kind */
	uint8_t cls;		/* enum ev_class */
	int grid[3], block[3];
	int regs, smem;		/* registers per thread, shared memory */
};

extern const struct kdef kdefs[K_COUNT];

/* The dtype a matmul-class kernel of this kind computes in, for a run in
 * `prec`; DT_UNKNOWN when the kind is no matmul. */
enum dtype kind_matmul_dtype(enum kkind k, enum dtype prec);
/* Its kernel name (with "$T" replaced by the c10 type name) into out; arch 0
 * is a torch.compile'd model, whose compute kernels are Inductor's triton_*. */
void kind_name(enum kkind k, int arch, enum dtype prec, char *out, size_t n);
/*
 * Its kernel family (arch as for kind_name): the name without template
 * arguments, argument lists, dtype tokens, tile and launch suffixes, as
 * labelled by hand in the tables (the generator never derives it from a
 * name); NULL for memory copies and NCCL kernels, which have none.
 */
const char *kind_family(enum kkind k, int arch, enum dtype prec);
/* Whether its name (arch as for kind_name) is one of Inductor's triton_* kernels. */
int kind_is_triton(enum kkind k, int arch);
/* The matmul dtype its name (arch as for kind_name) shows; DT_UNKNOWN for
 * no matmul or a name that shows none. */
enum dtype kind_name_dtype(enum kkind k, int arch, enum dtype prec);
/*
 * The FLOPs one kernel of kind k does in a run of spec s, from the shapes
 * the trace records for its op (kineto.c put_inputs) and the model's sizes:
 * a GEMM 2mnk, attention 2bh s^2 (2d) forward and 2bh s^2 (5d) backward, a
 * convolution 2 N Cout HW Cin kh kw (each of its backward kernels the
 * same); 0 for a kind that is no matmul.
 */
struct run_spec;
double kind_flops(enum kkind k, const struct run_spec *s);
const char *c10_type(enum dtype t);	/* "c10::BFloat16", "float" */
const char *c10_scalar(enum dtype t);	/* "BFloat16", "Float": comm args dtype */

#endif
