/*
 * kname: what the name of a GPU kernel or of the op that launched it says.
 * Communication kernels (NCCL/RCCL of every naming era, SendRecv, PyTorch
 * symmetric-memory collectives) with their collective and, where the name
 * spells it, their dtype; the matmul class (GEMM, convolution, attention)
 * by kernel name or by launching op; the dtype a kernel name spells or its
 * op's input types imply; the library a kernel comes from; its family
 * (what it computes, for comparing two runs' workloads). Every answer
 * comes from a const table of tokens; nothing here allocates.
 *
 * kname_comm() and kname_classify() are cheap enough for every event a
 * reader sees; the others are meant to run once per distinct kernel (the
 * analysis keeps a memo) and use PCRE2 tables that are not thread-safe.
 */
#ifndef CORE_KNAME_H
#define CORE_KNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/launchop.h"
#include "core/model.h"

/* The matmul class of a kernel; KNAME_OTHER for everything else. */
enum kname_class { KNAME_OTHER, KNAME_GEMM, KNAME_CONV, KNAME_ATTENTION, KNAME_CLASS_COUNT };

const char *kname_class_name(enum kname_class c);	/* "gemm", "conv", "attention", "other" */

/* Where a kernel comes from, as far as its name tells. */
enum kname_lib {
	LIB_UNKNOWN,
	LIB_CUBLAS,	/* cuBLAS / cuBLASLt hand-written and xmma kernels */
	LIB_NVJET,	/* cuBLASLt's generated nvjet kernels */
	LIB_CUTLASS,
	LIB_CUDNN,
	LIB_FLASH_ATTN,	/* FlashAttention, also as PyTorch builds it */
	LIB_NCCL,
	LIB_RCCL,
	LIB_SYMM_MEM,	/* PyTorch symmetric-memory collectives */
	LIB_TRITON,
	LIB_ATEN,	/* PyTorch's native kernels */
	LIB_FBGEMM,
	LIB_HIPBLASLT,	/* Tensile kernels of hipBLASLt and rocBLAS */
	LIB_CK,		/* AMD Composable Kernel */
	LIB_MIOPEN,
	LIB_COUNT
};

const char *kname_lib_name(enum kname_lib l);	/* "cuBLAS", "CUTLASS", ...; "unknown" */

/* What a communication kernel's name says. */
struct kname_comm {
	enum coll_op coll;	/* COLL_NONE when the name does not say */
	enum dtype dtype;	/* DT_UNKNOWN when the name does not say */
};

/*
 * True when name is a communication kernel's; then *c (when not NULL) gets
 * its collective and dtype as far as the name spells them. A byte-moving
 * kernel's dtype ("int8_t" of an NCCL <= 2.18 Broadcast) is what the name
 * says, not the tensor's.
 */
bool kname_comm(const char *name, struct kname_comm *c);

/*
 * A reader's call for each kernel: when g->name is a communication kernel's,
 * sets g->cls to EVC_COMM, g->coll to its collective and, when g->dtype is
 * still DT_UNKNOWN, g->dtype to the dtype the name spells. Leaves every
 * other event as it is.
 */
void kname_classify(struct gpu_event *g);
/*
 * kname_classify() with kname_comm()'s answer for g->name given (comm, *c):
 * for a reader that asks once per distinct name.
 */
void kname_classify_as(struct gpu_event *g, bool comm, const struct kname_comm *c);

/*
 * The collective a text names, by its start, ignoring case and '_'
 * ("allreduce", "_allgather_base", "AllReduce_Sum"); COLL_NONE.
 */
enum coll_op kname_coll_of_text(const char *s, size_t n);

/*
 * What a CPU op's name says of where the ops under it ran (enum
 * launch_where bits): the backward pass, a module's forward, a
 * tensor-parallel layer, FSDP, a pipeline schedule, an all-to-all
 * exchange, the optimizer. 0 for a name that says none; NULL gives 0.
 */
unsigned kname_op_where(const char *op_name);

/* The matmul class of a kernel by its name; KNAME_OTHER for communication kernels. */
enum kname_class kname_class_of(const char *name);

/*
 * The matmul class of the kernels a PyTorch op launches, whatever their
 * names (aten::mm, aten::linear, aten::convolution, SDPA, ...); KNAME_OTHER.
 */
enum kname_class kname_op_class(const char *op);

/* The dtype a kernel name spells (cuBLAS, nvjet, CUTLASS, cuDNN, FlashAttention, NCCL ...); DT_UNKNOWN. */
enum dtype kname_dtype_of_name(const char *name);

/*
 * The dtype of an op's input types ("c10::BFloat16, float, , Scalar"): of
 * the floating types among them, the narrowest (fp4, fp8, bf16, fp16, fp32,
 * fp64 in that order), since that is the one a mixed-precision matmul ran in.
 */
enum dtype kname_dtype_of_types(const char *s, size_t n);

/* The dtype of a kernel: from its name when the name says it, else from its op's input types. */
enum dtype kname_dtype(const char *name, const char *input_types);

/* The library a kernel comes from, by the first token of its name that says; LIB_UNKNOWN. */
enum kname_lib kname_library(const char *name);

/*
 * The SM number a kernel's name says it was built for: 90 for
 * "sm90_xmma_gemm_...", "nvjet_sm90_..." or "cutlass3x_sm90_...", 80 for
 * "cutlass_80_tensorop_...", "fmha_cutlassF_bf16_..._sm80" or "ampere_sgemm_...",
 * 100 for "..._sm100f"; -1 when the name names no architecture.
 */
int kname_sm_of(const char *name);

/* Room for any family kname_family() writes; longer ones are cut to fit. */
#define KNAME_FAMILY_MAX 128

/*
 * The family of a kernel: what it computes, whatever dtype, GPU or tile it
 * was built for, so that two runs of one job share their families while a
 * precision change or another GPU keeps them (docs/analysis.md, "Workload
 * identity"). Rules, first that applies:
 *  - a communication kernel (kname_comm()), a memcpy or a memset has none;
 *  - a matmul-class kernel is its class, kname_class_name(): "gemm",
 *    "conv", "attention" (the library picks the kernel by GPU, dtype and
 *    shape: nvjet on a B200 and xmma on an H100 run the same GEMM);
 *  - an ATen launcher is its kind and the first operation its template
 *    arguments name: "elementwise CUDAFunctor_add", "reduce sum_functor",
 *    "multi_tensor_apply FusedAdamMathFunctor";
 *  - any other kernel is its identifier (no return type, namespaces,
 *    template arguments or parameters) without the '_'-separated words that
 *    spell a dtype, an architecture, a layout, a tile or launch shape, a
 *    Triton signature or a number: "triton_poi_fused_add_5" is
 *    "triton_poi_fused_add", "vectorized_layer_norm_kernel<c10::BFloat16,
 *    float>(...)" is "vectorized_layer_norm_kernel".
 * Writes it into buf (cut to size - 1 bytes, NUL-terminated) and returns its
 * length; 0 with buf "" when the kernel has no family.
 */
size_t kname_family(const char *name, char *buf, size_t size);

/*
 * A kernel's name as a table shows it: its own identifier, without "void ",
 * namespaces, template arguments and parameters
 * ("flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel"); a launcher's with the
 * operation it runs ("multi_tensor_apply_kernel FusedAdamMathFunctor"); an
 * identifier too short to say anything (under 8 characters, "Kernel2") with
 * its template's first word ("Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>");
 * a memory operation or any name without an identifier as it is. Writes it
 * into buf as kname_family() does and returns its length.
 */
size_t kname_short(const char *name, char *buf, size_t size);

#endif
