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

#endif
