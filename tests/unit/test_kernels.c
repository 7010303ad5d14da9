/* Kernel names to data types and labels (the dtype tokens cuBLAS, nvjet, CUTLASS and FlashAttention put in names). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/kernels.h"
#include "core/intern.h"
#include "core/kname.h"

static const struct {
	const char *name;
	const char *input_types;
	enum dtype want;
	bool matmul;
} cases[] = {
	{ "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", NULL, DT_BF16, true },
	{ "nvjet_sss_tf32_128x128_32x6_1x2_h_bz_NNT", NULL, DT_TF32, true },
	{ "nvjet_sss_128x128_32x6_1x2_h_bz_NNT", NULL, DT_FP32, true },
	{ "nvjet_sm120_qqtst_mma_128x128_64x4", NULL, DT_FP8_E4M3, true },
	{ "nvjet_hsh_64x8_64x16_4x1_v_bz_TNN", NULL, DT_FP16, true },
	{ "sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x64", NULL, DT_FP8_E4M3, true },
	{ "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32", NULL, DT_TF32, true },
	{ "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize96x128x32", NULL, DT_BF16, true },
	{ "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn", NULL, DT_BF16, true },
	{ "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_32x3_nn", NULL, DT_FP16, true },
	{ "volta_sgemm_128x64_nn", NULL, DT_FP32, true },
	{ "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_16x4_tn_align4>(Params)",
	  NULL, DT_TF32, true },
	{ "void flash::flash_bwd_dq_dk_dv_loop_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, "
	  "2, false, false, cutlass::bfloat16_t>, true>(flash::Flash_bwd_params)", NULL, DT_BF16, true },
	{ "fmha_cutlassF_f16_aligned_64x64_rf_sm80", NULL, DT_FP16, true },
	{ "triton_tem_fused_mm_0", "c10::BFloat16, c10::BFloat16", DT_BF16, true },
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>()",
	  NULL, DT_FP32, false },
	{ "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", NULL,
	  DT_BF16, false },
	{ "triton_poi_fused_add_0", NULL, DT_UNKNOWN, false },
	{ "triton_per_fused__to_copy_addmm_mean_pow_view_8", "c10::BFloat16", DT_BF16, false },
	{ "void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_hfp8_to_float_gpu("
	  "at::Tensor const&, long, long)::{lambda(unsigned char)#1}>(int)", NULL, DT_UNKNOWN, false },
};

static void dtypes_from_names(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum dtype got = kname_dtype(cases[i].name, cases[i].input_types);

		if (got != cases[i].want)
			fail_msg("%s: got %s, want %s", cases[i].name, dtype_name(got),
				 dtype_name(cases[i].want));
		if ((kname_class_of(cases[i].name) != KNAME_OTHER) != cases[i].matmul)
			fail_msg("%s: matmul should be %d", cases[i].name, cases[i].matmul);
	}
}

static void labels(void **state)
{
	struct gpu_event e = { .name = "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", .cls = EVC_COMPUTE };
	char buf[128];

	kernel_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "GEMM bf16 (cuBLAS nvjet)");
	e = (struct gpu_event){ .name = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", .cls = EVC_COMM,
				.coll = COLL_ALLREDUCE, .dtype = DT_BF16 };
	kernel_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "AllReduce bf16 (NCCL)");
	e = (struct gpu_event){ .name = "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, "
				"64, 4, false, false, cutlass::bfloat16_t>>(flash::Flash_fwd_params)",
				.cls = EVC_COMPUTE };
	kernel_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "flash-attn fwd bf16");
	e = (struct gpu_event){ .name = "void at::native::(anonymous namespace)::layer_norm_kernel<float>(int)",
				.cls = EVC_COMPUTE, .op = &(struct launch_op){ .name = "aten::native_layer_norm" } };
	kernel_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "aten::native_layer_norm");
	e.op = NULL;
	e.name = "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<F>>(int, F)";
	kernel_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "elementwise_kernel");
	e.op = &(struct launch_op){ .name = "autograd::engine::evaluate_function: torch::autograd::CppNode<"
				    "SplitLookupFunction_rowwise_adagrad_Op>" };
	kernel_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "CppNode<SplitLookupFunction_rowwise_a...");
	assert_int_equal(strlen(buf), 40);
	e.op = &(struct launch_op){ .name = "aten::mm" };
	kernel_label(&e, buf, sizeof(buf));
	assert_string_equal(buf, "aten::mm");

	/* the library a label names is the one the kernel comes from */
	static const struct {
		const char *name, *label;
	} libs[] = {
		{ "void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688fprop_optimized_tf32_128x128_16x4"
		  "_nhwc_align4>(Params)", "conv tf32 (cuDNN)" },
		{ "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>(Params)",
		  "GEMM tf32 (CUTLASS)" },
		{ "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0", "GEMM fp32 (hipBLASLt)" },
		{ "ampere_sgemm_32x128_tn", "GEMM fp32 (cuBLAS)" },
		{ "triton_tem_fused_mm_0", "GEMM (Triton)" },
		{ "cudnn_infer_volta_scudnn_128x64_3dconv_fprop_medium_nn_v1", "conv fp32 (cuDNN)" },
		{ "void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*)",
		  "permute_2D_lengths_kernel" },	/* not a GEMM */
	};
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		e = (struct gpu_event){ .name = libs[i].name, .cls = EVC_COMPUTE };
		kernel_label(&e, buf, sizeof(buf));
		assert_string_equal(buf, libs[i].label);
	}
}

static void memo_classifies_each_kind_once(void **state)
{
	struct kernel_memo *m = kernel_memo_new();
	struct intern names = INTERN_INIT;
	struct launch_ops ops = LAUNCH_OPS_INIT;
	struct gpu_event gemm = { .name = intern_str(&names, "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT"),
				  .cls = EVC_COMPUTE };
	struct gpu_event norm = { .name = intern_str(&names, "layer_norm_kernel"), .cls = EVC_COMPUTE,
				  .op = launch_op_get(&ops, intern_str(&names, "aten::native_layer_norm"),
						      NULL, NULL) };
	const struct kernel_facts *a = kernel_memo_get(m, &gemm), *b = kernel_memo_get(m, &norm);
	char name[32];

	assert_ptr_equal(kernel_memo_get(m, &gemm), a);	/* the same kind: the same facts */
	assert_true(a->matmul);
	assert_int_equal(a->dtype, DT_BF16);
	assert_string_equal(a->label, "GEMM bf16 (cuBLAS nvjet)");
	assert_false(b->matmul);
	assert_string_equal(b->label, "aten::native_layer_norm");
	assert_int_equal(a->label_index, 0);
	assert_int_equal(b->label_index, 1);
	for (int i = 0; i < 1000; i++) {	/* past the first table's size: rehashed */
		struct gpu_event e = { .cls = EVC_COMPUTE };

		snprintf(name, sizeof(name), "k%d", i % 500);
		e.name = intern_str(&names, name);
		assert_int_equal(kernel_memo_get(m, &e)->label_index, 2 + (size_t)(i % 500));
	}
	assert_int_equal(kernel_memo_labels(m), 502);
	assert_string_equal(kernel_memo_get(m, &gemm)->label, "GEMM bf16 (cuBLAS nvjet)");
	kernel_memo_free(m);
	launch_ops_release(&ops);
	intern_release(&names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dtypes_from_names),
		cmocka_unit_test(labels),
		cmocka_unit_test(memo_classifies_each_kind_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
