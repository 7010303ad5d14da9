/*
 * FLOPs of one op call from its recorded shapes and, where Kineto records
 * them, its Concrete Inputs (analysis/flops): a convolution's output size
 * from stride, padding and dilation, its groups, transposed convolutions,
 * the argument order of cudnn_convolution, and causal attention. Each want
 * is written out by hand from the op's definition.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "analysis/flops.h"

/* concrete: the values joined by ';' (the reader keeps each after a ';': one more in front) */
static const struct {
	const char *op, *dims, *concrete;
	double want;	/* 0: no cost */
} cases[] = {
	/* without Concrete Inputs: stride 1, "same" padding */
	{ "aten::conv2d", "[[8,64,56,56],[128,64,3,3],[128],[],[],[],[]]", NULL,
	  2.0 * 8 * 128 * 56 * 56 * 64 * 9 },
	/* stride 2, padding 1: 56 -> 28 */
	{ "aten::conv2d", "[[8,64,56,56],[128,64,3,3],[128],[],[],[],[]]", ";;;[2, 2];[1, 1];[1, 1];1",
	  2.0 * 8 * 128 * 28 * 28 * 64 * 9 },
	/* a stride written once stands for every dimension; no padding, dilation 2: 56 - 4 = 52 */
	{ "aten::conv2d", "[[8,64,56,56],[128,64,3,3],[],[],[],[],[]]", ";;;1;0;[2];1",
	  2.0 * 8 * 128 * 52 * 52 * 64 * 9 },
	/* depthwise: 64 groups of one channel */
	{ "aten::conv2d", "[[8,64,56,56],[64,1,3,3],[],[],[],[],[]]", ";;;[1, 1];[1, 1];[1, 1];64",
	  2.0 * 8 * 64 * 56 * 56 * 1 * 9 },
	/* groups that do not divide the input's channels as the weight says: no cost */
	{ "aten::conv2d", "[[8,64,56,56],[64,64,3,3],[],[],[],[],[]]", ";;;[1, 1];[1, 1];[1, 1];2", 0 },
	/* cudnn_convolution: padding before stride; 224 -> 112 */
	{ "aten::cudnn_convolution", "[[2,3,224,224],[64,3,7,7],[],[],[],[],[],[],[]]",
	  ";;[3, 3];[2, 2];[1, 1];1;False;False;True", 2.0 * 2 * 64 * 112 * 112 * 3 * 49 },
	/* transposed, stride 2: each of the 16 x 8 x 8 inputs feeds 8 x 4 x 4 outputs */
	{ "aten::convolution", "[[1,16,8,8],[16,8,4,4],[],[],[],[],[],[],[]]",
	  ";;;[2, 2];[1, 1];[1, 1];True;[0, 0];1", 2.0 * 1 * 16 * 64 * 8 * 16 },
	/* a 1-d convolution, stride 4 without padding: (1000 - 10) / 4 + 1 = 248 */
	{ "aten::conv1d", "[[4,1,1000],[32,1,10],[32],[],[],[],[]]", ";;;[4];[0];[1];1",
	  2.0 * 4 * 32 * 248 * 1 * 10 },
	/* backward: data and weight gradient, each the forward's */
	{ "aten::convolution_backward", "[[8,128,28,28],[8,64,56,56],[128,64,3,3],[],[],[],[],[],[],[],[]]",
	  ";;;;[2, 2];[1, 1];[1, 1];False;[0, 0];1;", 2 * 2.0 * 8 * 128 * 28 * 28 * 64 * 9 },
	/* the transposed layer's backward: grad_output is the larger */
	{ "aten::convolution_backward", "[[1,8,16,16],[1,16,8,8],[16,8,4,4],[],[],[],[],[],[],[],[]]",
	  ";;;;[2, 2];[1, 1];[1, 1];True;[0, 0];1;", 2 * 2.0 * 1 * 16 * 64 * 8 * 16 },
	/* attention: 2 b h s s (d + d_v), half of it under a causal mask */
	{ "aten::scaled_dot_product_attention", "[[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[]]",
	  ";;;;0.;False;", 2.0 * 2 * 8 * 1024 * 1024 * 128 },
	{ "aten::scaled_dot_product_attention", "[[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[]]",
	  ";;;;0.;True;", 2.0 * 2 * 8 * 1024 * 1024 * 128 / 2 },
	{ "aten::scaled_dot_product_attention", "[[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[]]",
	  NULL, 2.0 * 2 * 8 * 1024 * 1024 * 128 },
	{ "aten::_scaled_dot_product_flash_attention", "[[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[]]",
	  ";;;0.;True;False;", 2.0 * 2 * 8 * 1024 * 1024 * 128 / 2 },
	/* memory-efficient kernels: [b, s, h, d], causal by custom_mask_type */
	{ "aten::_efficient_attention_forward",
	  "[[2,1024,8,64],[2,1024,8,64],[2,1024,8,64],[],[],[],[],[],[],[],[],[]]",
	  ";;;;;;;;0.;1;True;", 2.0 * 2 * 8 * 1024 * 1024 * 128 / 2 },
	{ "aten::_efficient_attention_forward",
	  "[[2,1024,8,64],[2,1024,8,64],[2,1024,8,64],[],[],[],[],[],[],[],[],[]]",
	  ";;;;;;;;0.;0;True;", 2.0 * 2 * 8 * 1024 * 1024 * 128 },
	/* backward: 2 b h s s (3 d + 2 d_v), halved when causal */
	{ "aten::_scaled_dot_product_flash_attention_backward",
	  "[[2,8,512,64],[2,8,512,64],[2,8,512,64],[2,8,512,64],[2,8,512,64],[2,8,512],[],[],[],[],[],[],[],[],[]]",
	  ";;;;;;;;;;0.;True;;;", 2.0 * 2 * 8 * 512 * 512 * 320 / 2 },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct op_cost c;
		char kept[256];
		bool ok;

		snprintf(kept, sizeof(kept), ";%s", cases[i].concrete ? cases[i].concrete : "");
		ok = op_cost_args(cases[i].op, cases[i].dims, "c10::BFloat16", cases[i].concrete ? kept : NULL, &c);

		if (cases[i].want == 0) {
			assert_false(ok);
			continue;
		}
		assert_true(ok);
		if (fabs(c.flops - cases[i].want) > 1e-12 * cases[i].want)
			fail_msg("case %zu (%s): %.17g FLOPs, want %.17g", i, cases[i].op, c.flops, cases[i].want);
	}
}

/* Concrete Inputs that do not give the geometry (a "same" padding string, a short list) fall back to the assumption. */
static void test_fallback(void **state)
{
	static const char *const bad[] = {
		";;;;[2, 2];same;[1, 1];1", ";;;;[2, 2, 2];[1, 1];[1, 1];1", ";;;;[2, 2];[1, 1];[1, 1];", "",
	};
	struct op_cost c;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(op_cost_args("aten::conv2d", "[[8,64,56,56],[128,64,3,3],[],[],[],[],[]]",
					 "float", bad[i], &c));
		assert_true(c.flops == 2.0 * 8 * 128 * 56 * 56 * 64 * 9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_fallback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
