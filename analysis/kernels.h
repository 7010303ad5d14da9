/*
 * kernels: what a kernel name says to a person. Classifies matmul-class
 * kernels (GEMM, convolution, attention), infers the data type a kernel
 * worked in from its name (the token table of blackwell.md §7) or from its
 * launching op's input types, and shortens names to what a person
 * recognises ("GEMM bf16 (cuBLAS)", "AllReduce bf16 (NCCL)", "flash-attn bwd").
 */
#ifndef ANALYSIS_KERNELS_H
#define ANALYSIS_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

/* True for GEMM, convolution and attention kernels (never communication). */
bool kernel_is_matmul(const char *name);

/* True for the PyTorch ops (aten::mm, aten::linear, SDPA, ...) whose kernels are matmul-class. */
bool op_is_matmul(const char *op);

/*
 * The data type of a kernel: from its name when the name says it, else from
 * the first floating-point type among its op's input types; DT_UNKNOWN.
 */
enum dtype kernel_dtype(const char *name, const char *input_types);

/* The data type named by a PyTorch/C++ type ("c10::BFloat16", "float", "BFloat16"). */
enum dtype dtype_from_torch(const char *s, size_t n);

/* Writes a short label for e into buf (at least 96 bytes). */
void kernel_label(const struct gpu_event *e, char *buf, size_t size);

/*
 * What the functions above say of one kind of kernel, worked out once per
 * distinct (name, op, input types, class, collective, dtype): a trace runs
 * the same few hundred kernels hundreds of thousands of times. The names
 * are interned, so the memo keys on their pointers.
 */
struct kernel_facts {
	const char *label;	/* kernel_label(), interned in the memo */
	size_t label_index;	/* 0, 1, ... for each distinct label, in first-seen order */
	bool matmul;		/* a compute kernel of matmul class, by its name or its op */
	enum dtype dtype;	/* kernel_dtype() */
};

struct kernel_memo;

struct kernel_memo *kernel_memo_new(void);
const struct kernel_facts *kernel_memo_get(struct kernel_memo *m, const struct gpu_event *e);
size_t kernel_memo_labels(const struct kernel_memo *m);	/* distinct labels so far */
void kernel_memo_free(struct kernel_memo *m);

#endif
