/*
 * flops: what the matmul-class ops of a trace computed, from the shapes the
 * profiler recorded (record_shapes=True: an op's "Input Dims" and "Input
 * type"), and how fast: FLOPs and bytes per call of aten::mm, addmm, bmm,
 * baddbmm, matmul, linear, the convolutions and the attention ops; achieved
 * TFLOP/s over the kernels those ops launched, MFU over the step against the
 * GPU table's dense peak, and the ops of a roofline (docs/analysis.md,
 * "Achieved TFLOP/s and MFU"). Rules are a const table by op name.
 */
#ifndef ANALYSIS_FLOPS_H
#define ANALYSIS_FLOPS_H

#include <stdbool.h>

#include "analysis/kernels.h"
#include "analysis/result.h"
#include "core/model.h"

/* One call of an op, as its recorded shapes say. */
struct op_cost {
	double flops;		/* floating-point operations of the call (a multiply-add is 2) */
	double bytes;		/* bytes its inputs and outputs hold */
	int carriers;		/* matmul kernels one call launches that share the FLOPs (2 for a
				   convolution's backward: data and weight gradients) */
	enum dtype dtype;	/* of its first matmul operand; DT_UNKNOWN */
};

/*
 * The cost of one call of op with Input Dims dims and Input type types; false
 * when no rule knows the op, or the dims are not recorded or do not fit it.
 */
bool op_cost_of(const char *op, const char *dims, const char *types, struct op_cost *c);
/*
 * The same with the op's Concrete Inputs (launch_op.concrete: each value
 * after a ';'; NULL: not recorded): a convolution's stride, padding,
 * dilation, transposed and groups, attention's causal mask.
 */
bool op_cost_args(const char *op, const char *dims, const char *types, const char *concrete,
		  struct op_cost *c);

/*
 * Whether kernel name, launched by an op with a FLOPs rule, is one that does
 * the op's arithmetic (a GEMM, convolution or attention kernel by its name,
 * not a split-K reduction or a layout transform).
 */
bool flops_carrier(const char *name);

/* rr->mfu and each GPU's tflops from the run's kernels, over its steady steps (or span). */
void run_mfu(struct analysis *a, struct run_result *rr, const struct run *r, struct kernel_memo *memo);

#endif
