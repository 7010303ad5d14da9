/*
 * kernels: what a kernel name says to a person. Shortens names to what a
 * person recognises ("GEMM bf16 (cuBLAS)", "AllReduce bf16 (NCCL)",
 * "flash-attn bwd") from the facts core/kname.h reads in them (matmul
 * class, dtype, library), and keeps those facts once per kind of kernel.
 */
#ifndef ANALYSIS_KERNELS_H
#define ANALYSIS_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

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
	enum dtype dtype;	/* kname_dtype() of its name and op input types */
};

struct kernel_memo;

struct kernel_memo *kernel_memo_new(void);
const struct kernel_facts *kernel_memo_get(struct kernel_memo *m, const struct gpu_event *e);
size_t kernel_memo_labels(const struct kernel_memo *m);	/* distinct labels so far */
void kernel_memo_free(struct kernel_memo *m);

#endif
