/*
 * Kernel and op names to facts (core/kname.h) and dtype spellings to dtypes
 * (dtype_parse). The names are real: from the Kineto traces of
 * realdata/kineto_trace (HTA's nccl_data = A100 DDP with NCCL 2.17, its
 * sampled DLRM ranks, its ns_resolution V100 trace, its MI250 ROCm trace,
 * its Triton example) and from public H100/B200 traces and library symbol
 * tables (NCCL 2.28, cuBLASLt 13), as collected in the project's notes;
 * and kernel families (kname_family) of names from realdata's
 * kineto_multirank traces (Megatron TP8 on A100, DLRM on V100) and from the
 * sample generator (samples/gen/kernels.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/kname.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A communication kernel and what its name says. */
static const struct {
	const char *name;
	enum coll_op coll;
	enum dtype dtype;
	enum kname_lib lib;
} comm[] = {
	/* NCCL <= 2.18 (realdata nccl_data): the type is the last word; byte movers say int8_t */
	{ "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
	  COLL_ALLREDUCE, DT_FP32, LIB_NCCL },
	{ "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
	  COLL_BROADCAST, DT_INT8, LIB_NCCL },
	{ "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
	  COLL_SENDRECV, DT_INT8, LIB_NCCL },
	{ "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", COLL_ALLREDUCE, DT_FP32, LIB_NCCL },
	{ "ncclKernel_AllGather_RING_LL_Sum___nv_bfloat16(ncclWorkElem)", COLL_ALLGATHER, DT_BF16,
	  LIB_NCCL },	/* spelled by NCCL 2.18's rule, not from a trace */
	/* NCCL >= 2.19: the type follows the reduction; AllGather and SendRecv carry none */
	{ "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", COLL_ALLGATHER,
	  DT_UNKNOWN, LIB_NCCL },
	{ "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", COLL_ALLREDUCE, DT_BF16, LIB_NCCL },
	{ "ncclDevKernel_AllReduce_Sum_f8e4m3_TREE_LL", COLL_ALLREDUCE, DT_FP8_E4M3, LIB_NCCL },
	{ "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
	  COLL_REDUCESCATTER, DT_FP32, LIB_NCCL },
	{ "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", COLL_SENDRECV, DT_UNKNOWN,
	  LIB_NCCL },
	{ "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", COLL_NONE, DT_UNKNOWN, LIB_NCCL },
	/* NCCL >= 2.27 symmetric kernels */
	{ "ncclSymkDevKernel_AllReduce_RSxLDMC_AGxSTMC_sum_bf16", COLL_ALLREDUCE, DT_BF16, LIB_NCCL },
	{ "ncclSymkDevKernel_AllGather_LLMC", COLL_ALLGATHER, DT_UNKNOWN, LIB_NCCL },
	/* PyTorch symmetric memory (B200 trace) */
	{ "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*)",
	  COLL_ALLREDUCE, DT_UNKNOWN, LIB_SYMM_MEM },
	{ "void c10d::symmetric_memory::multimem_all_reduce_kernel<float, 16>(float*, unsigned long)",
	  COLL_ALLREDUCE, DT_UNKNOWN, LIB_SYMM_MEM },
	{ "void c10d::symmetric_memory::two_shot_all_reduce_kernel<float, 16>(float*)",	/* spelled here */
	  COLL_ALLREDUCE, DT_UNKNOWN, LIB_SYMM_MEM },
	/* RCCL's own prefix (spelled here, not from a trace) */
	{ "rcclKernel_AllReduce_RING_LL_Sum_half", COLL_ALLREDUCE, DT_FP16, LIB_RCCL },
};

static void communication_kernels(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(comm); i++) {
		struct kname_comm c = { COLL_COUNT, DT_COUNT };
		struct gpu_event g = { .name = comm[i].name, .cls = EVC_COMPUTE };

		if (!kname_comm(comm[i].name, &c))
			fail_msg("%s: not communication", comm[i].name);
		if (c.coll != comm[i].coll || c.dtype != comm[i].dtype)
			fail_msg("%s: got %s %s, want %s %s", comm[i].name, coll_name(c.coll),
				 dtype_name(c.dtype), coll_name(comm[i].coll), dtype_name(comm[i].dtype));
		if (kname_library(comm[i].name) != comm[i].lib)
			fail_msg("%s: library %s", comm[i].name, kname_lib_name(kname_library(comm[i].name)));
		assert_int_equal(kname_class_of(comm[i].name), KNAME_OTHER);
		kname_classify(&g);
		assert_int_equal(g.cls, EVC_COMM);
		assert_int_equal(g.coll, comm[i].coll);
		assert_int_equal(g.dtype, comm[i].dtype);
	}
}

/* A dtype already known (the tensor's, from the trace's args) is kept. */
static void classify_keeps_known_dtype(void **state)
{
	struct gpu_event g = { .name = "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclWorkElem)",
			       .cls = EVC_COMPUTE, .dtype = DT_FP32 };
	struct gpu_event k = { .name = "ampere_sgemm_128x64_nn", .cls = EVC_COMPUTE,
			       .dtype = DT_FP32 };

	(void)state;
	kname_classify(&g);
	assert_int_equal(g.cls, EVC_COMM);
	assert_int_equal(g.coll, COLL_BROADCAST);
	assert_int_equal(g.dtype, DT_FP32);
	kname_classify(&k);		/* not communication: untouched */
	assert_int_equal(k.cls, EVC_COMPUTE);
	assert_int_equal(k.coll, COLL_NONE);
	assert_int_equal(k.dtype, DT_FP32);
	assert_false(kname_comm(NULL, NULL));
}

/* A compute kernel: matmul class, the dtype its name spells, its library. */
static const struct {
	const char *name;
	enum kname_class cls;
	enum dtype dtype;
	enum kname_lib lib;
} compute[] = {
	/* realdata nccl_data (A100, fp32 data on TF32 tensor cores) */
	{ "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>"
	  "(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)", KNAME_GEMM, DT_TF32,
	  LIB_CUTLASS },
	{ "sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16"
	  "_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_train", KNAME_CONV, DT_TF32,
	  LIB_CUDNN },
	{ "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x32_stage5"
	  "_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer", KNAME_CONV, DT_TF32, LIB_CUDNN },
	{ "void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688fprop_optimized_tf32_128x128_16x4"
	  "_nhwc_align4>(cutlass_tensorop_s1688fprop_optimized_tf32_128x128_16x4_nhwc_align4::Params)",
	  KNAME_CONV, DT_TF32, LIB_CUDNN },
	{ "cudnn_infer_ampere_scudnn_128x64_relu_xregs_large_nn_v1", KNAME_GEMM, DT_FP32, LIB_CUDNN },
	{ "ampere_sgemm_32x32_sliced1x4_tn", KNAME_GEMM, DT_FP32, LIB_CUBLAS },
	{ "void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, true, true, "
	  "false>(cublasLt::cublasSplitKParams<float>, float const*)", KNAME_GEMM, DT_FP32, LIB_CUBLAS },
	/* realdata sampled DLRM ranks */
	{ "void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>"
	  "(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)", KNAME_GEMM, DT_FP32, LIB_CUTLASS },
	{ "void gemmk1_kernel<float, 256, 5, false, false, false, false, cublasGemvTensorStridedBatched"
	  "<float const>, float, true, true>(cublasGemmk1Params<float>)", KNAME_GEMM, DT_FP32,
	  LIB_CUBLAS },
	/* realdata ns_resolution (V100) */
	{ "cudnn_infer_volta_scudnn_128x64_3dconv_fprop_medium_nn_v1", KNAME_CONV, DT_FP32, LIB_CUDNN },
	/* realdata MI250 ROCm trace: hipBLASLt Tensile GEMMs */
	{ "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_ISA90a",
	  KNAME_GEMM, DT_FP32, LIB_HIPBLASLT },
	{ "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1", KNAME_GEMM, DT_BF16,
	  LIB_HIPBLASLT },
	/* H100 / B200 traces and cuBLASLt 13 */
	{ "nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT", KNAME_GEMM, DT_BF16, LIB_NVJET },
	{ "nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NNT", KNAME_GEMM, DT_FP16, LIB_NVJET },
	{ "nvjet_sss_tf32_128x128_32x6_1x2_h_bz_NNT", KNAME_GEMM, DT_TF32, LIB_NVJET },
	{ "nvjet_sm100_qqtst_128x256_128x6_2x1_2cta_v_bz_bias_TNT", KNAME_GEMM, DT_FP8_E4M3, LIB_NVJET },
	{ "nvjet_sm100_ootst_128x128_256x7_4x1_2cta_v_bx_Avec16UE4M3_Bvec16UE4M3_TNT", KNAME_GEMM,
	  DT_FP4, LIB_NVJET },
	{ "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute"
	  "_segment_k_off_kernel__5x_cublas", KNAME_GEMM, DT_BF16, LIB_CUBLAS },
	{ "sm89_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x64_stage3_warpsize2x2x1"
	  "_tensor16x8x32_execute_kernel__5x_cublas", KNAME_GEMM, DT_FP8_E4M3, LIB_CUBLAS },
	{ "sm90_xmma_gemm_i8i32_i8i32_i32_tn_n_tilesize128x128x128", KNAME_GEMM, DT_UNKNOWN,
	  LIB_CUBLAS },
	{ "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn", KNAME_GEMM, DT_BF16,
	  LIB_CUBLAS },
	{ "ampere_h16816gemm_128x128_ldg8_nn", KNAME_GEMM, DT_FP16, LIB_CUBLAS },
	{ "cutlass3x_sm90_tensorop_s64x128x16gemm_bf16_bf16_f32_void_bf16_128x128x64_1x1x1_0_tnn"
	  "_align8_warpspecialized_pingpong_epi_tma", KNAME_GEMM, DT_BF16, LIB_CUTLASS },
	{ "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, "
	  "4, false, false, cutlass::bfloat16_t>, false, true>(pytorch_flash::Flash_fwd_params)",
	  KNAME_ATTENTION, DT_BF16, LIB_FLASH_ATTN },
	{ "fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, "
	  "cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)", KNAME_ATTENTION, DT_FP32,
	  LIB_CUTLASS },
	{ "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1",
	  KNAME_ATTENTION, DT_FP16, LIB_CUDNN },
	{ "fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16VarSeqQ128Kv128PersistentContext",
	  KNAME_ATTENTION, DT_FP8_E4M3, LIB_UNKNOWN },
	{ "bmm_E2m1_E2m1E2m1_Fp32_", KNAME_GEMM, DT_FP4, LIB_UNKNOWN },	/* TensorRT-LLM MoE */
	{ "bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_sm100f", KNAME_GEMM, DT_FP4, LIB_UNKNOWN },
	{ "triton_tem_fused_mm_0", KNAME_GEMM, DT_UNKNOWN, LIB_TRITON },
	/* names that must not be matmul-class, whatever tokens they hold */
	{ "void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor "
	  "const&, long, long, double)::{lambda(float)#1}, at::detail::Array<char*, 2> >(int)",
	  KNAME_OTHER, DT_FP32, LIB_FBGEMM },
	{ "void split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_per_row_1"
	  "<c10::Half, float, c10::Half, 2ul, 32>(fbgemm_gpu::FixedDivisor)", KNAME_OTHER, DT_FP16,
	  LIB_FBGEMM },
	{ "void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)",
	  KNAME_OTHER, DT_UNKNOWN, LIB_FBGEMM },
	{ "triton_per_fused__to_copy_addmm_mean_pow_view_8", KNAME_OTHER, DT_UNKNOWN, LIB_TRITON },
	{ "triton_poi_fused_add_cos_sin_0", KNAME_OTHER, DT_UNKNOWN, LIB_TRITON },
	{ "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 32, true, 1, true>"
	  "(cudnnTensorStruct, float const*)", KNAME_OTHER, DT_FP32, LIB_CUDNN },
	{ "void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, "
	  "(cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)",
	  KNAME_OTHER, DT_FP32, LIB_CUDNN },
	{ "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<float, float>"
	  "(float const*, float const*, float*, int)", KNAME_OTHER, DT_FP32, LIB_ATEN },
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<c10::Half>, "
	  "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<c10::Half>)", KNAME_OTHER,
	  DT_FP16, LIB_ATEN },
	{ "at::cuda::(anonymous namespace)::spin_kernel(long)", KNAME_OTHER, DT_UNKNOWN, LIB_ATEN },
	/* the shape of Composable Kernel's names (written here, not from a trace) */
	{ "void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::half_t>>()",
	  KNAME_GEMM, DT_FP16, LIB_CK },
};

static void compute_kernels(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(compute); i++) {
		const char *n = compute[i].name;
		enum kname_class cls = kname_class_of(n);
		enum dtype dt = kname_dtype_of_name(n);
		enum kname_lib lib = kname_library(n);

		if (kname_comm(n, NULL))
			fail_msg("%s: taken for communication", n);
		if (cls != compute[i].cls)
			fail_msg("%s: class %s, want %s", n, kname_class_name(cls),
				 kname_class_name(compute[i].cls));
		if (dt != compute[i].dtype)
			fail_msg("%s: dtype %s, want %s", n, dtype_name(dt), dtype_name(compute[i].dtype));
		if (lib != compute[i].lib)
			fail_msg("%s: library %s, want %s", n, kname_lib_name(lib),
				 kname_lib_name(compute[i].lib));
	}
}

static void ops_and_input_types(void **state)
{
	(void)state;
	assert_int_equal(kname_op_class("aten::mm"), KNAME_GEMM);
	assert_int_equal(kname_op_class("aten::linear"), KNAME_GEMM);
	assert_int_equal(kname_op_class("aten::_scaled_mm"), KNAME_GEMM);
	assert_int_equal(kname_op_class("aten::_scaled_dot_product_flash_attention"), KNAME_ATTENTION);
	assert_int_equal(kname_op_class("aten::convolution_backward"), KNAME_CONV);
	assert_int_equal(kname_op_class("aten::add_"), KNAME_OTHER);
	assert_int_equal(kname_op_class("aten::native_layer_norm"), KNAME_OTHER);
	assert_int_equal(kname_op_class("aten::m"), KNAME_OTHER);
	assert_int_equal(kname_op_class(NULL), KNAME_OTHER);

	/* the narrowest floating type among the inputs; empty items and scalars skipped */
	static const struct {
		const char *types;
		enum dtype want;
	} t[] = {
		{ "c10::BFloat16, c10::BFloat16, c10::BFloat16, Scalar, Scalar", DT_BF16 },
		{ "float, c10::Half", DT_FP16 },
		{ "c10::Float8_e4m3fn, c10::Float8_e4m3fn, float, float, , c10::BFloat16", DT_FP8_E4M3 },
		{ "double, c10::complex<float>", DT_FP64 },
		{ "long int, bool, int", DT_UNKNOWN },
		{ "", DT_UNKNOWN },
		{ "TensorList, GenericList", DT_UNKNOWN },
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		if (kname_dtype_of_types(t[i].types, strlen(t[i].types)) != t[i].want)
			fail_msg("\"%s\": want %s", t[i].types, dtype_name(t[i].want));
	/* the name first, then the op's inputs */
	assert_int_equal(kname_dtype("triton_tem_fused_mm_0", "c10::BFloat16, c10::BFloat16"), DT_BF16);
	assert_int_equal(kname_dtype("ampere_sgemm_128x64_nn", "c10::BFloat16"), DT_FP32);
	assert_int_equal(kname_dtype("triton_poi_fused_add_0", NULL), DT_UNKNOWN);
}

static void collective_texts(void **state)
{
	(void)state;
	assert_int_equal(kname_coll_of_text("allreduce", 9), COLL_ALLREDUCE);
	assert_int_equal(kname_coll_of_text("_allgather_base", 15), COLL_ALLGATHER);
	assert_int_equal(kname_coll_of_text("ReduceScatter_Sum", 17), COLL_REDUCESCATTER);
	assert_int_equal(kname_coll_of_text("reduce", 6), COLL_REDUCE);
	assert_int_equal(kname_coll_of_text("SendRecv", 8), COLL_SENDRECV);
	assert_int_equal(kname_coll_of_text("send", 4), COLL_SEND);
	assert_int_equal(kname_coll_of_text("all_to_allv", 11), COLL_ALLTOALL);
	assert_int_equal(kname_coll_of_text("RING", 4), COLL_NONE);
	assert_int_equal(kname_coll_of_text("", 0), COLL_NONE);
}

/* Every enum value has a name of its own. */
static void names_of_every_value(void **state)
{
	(void)state;
	for (int i = 0; i < LIB_COUNT; i++) {
		assert_non_null(kname_lib_name((enum kname_lib)i));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(kname_lib_name((enum kname_lib)i),
						kname_lib_name((enum kname_lib)j));
	}
	assert_string_equal(kname_lib_name(LIB_COUNT), "unknown");
	assert_string_equal(kname_lib_name(LIB_NVJET), "cuBLAS nvjet");
	for (int i = 0; i < KNAME_CLASS_COUNT; i++)
		assert_non_null(kname_class_name((enum kname_class)i));
	assert_string_equal(kname_class_name(KNAME_CONV), "conv");
}

/* Every spelling of a dtype the tool meets. */
static const struct {
	const char *s;
	enum dtype dt;
} spellings[] = {
	/* the names of analysis.json */
	{ "fp64", DT_FP64 }, { "fp32", DT_FP32 }, { "tf32", DT_TF32 }, { "bf16", DT_BF16 },
	{ "fp16", DT_FP16 }, { "fp8", DT_FP8 }, { "fp8-e4m3", DT_FP8_E4M3 },
	{ "fp8-e5m2", DT_FP8_E5M2 }, { "fp4", DT_FP4 }, { "int8", DT_INT8 }, { "uint8", DT_UINT8 },
	{ "int32", DT_INT32 }, { "uint32", DT_UINT32 }, { "int64", DT_INT64 },
	{ "uint64", DT_UINT64 }, { "bool", DT_BOOL },
	/* PyTorch: torch.dtype, ScalarType, C++ */
	{ "torch.bfloat16", DT_BF16 }, { "torch.float16", DT_FP16 }, { "torch.float32", DT_FP32 },
	{ "torch.float64", DT_FP64 }, { "torch.half", DT_FP16 }, { "torch.float", DT_FP32 },
	{ "torch.float8_e4m3fn", DT_FP8_E4M3 }, { "torch.float8_e5m2", DT_FP8_E5M2 },
	{ "torch.float8_e4m3fnuz", DT_FP8_E4M3 }, { "torch.float8_e5m2fnuz", DT_FP8_E5M2 },
	{ "torch.float4_e2m1fn_x2", DT_FP4 }, { "torch.int8", DT_INT8 }, { "torch.uint8", DT_UINT8 },
	{ "torch.int32", DT_INT32 }, { "torch.int64", DT_INT64 }, { "torch.bool", DT_BOOL },
	{ "bfloat16", DT_BF16 }, { "BFloat16", DT_BF16 }, { "c10::BFloat16", DT_BF16 },
	{ "Half", DT_FP16 }, { "c10::Half", DT_FP16 }, { "at::Half", DT_FP16 }, { "half", DT_FP16 },
	{ "float16", DT_FP16 }, { "Float", DT_FP32 }, { "float", DT_FP32 }, { "float32", DT_FP32 },
	{ "Double", DT_FP64 }, { "double", DT_FP64 }, { "float64", DT_FP64 },
	{ "c10::Float8_e4m3fn", DT_FP8_E4M3 }, { "Float8_e5m2", DT_FP8_E5M2 },
	{ "Long", DT_INT64 }, { "Int", DT_INT32 }, { "Char", DT_INT8 }, { "Byte", DT_UINT8 },
	{ "Bool", DT_BOOL }, { "long int", DT_INT64 }, { "long long", DT_INT64 },
	{ "unsigned char", DT_UINT8 }, { "signed char", DT_INT8 }, { "unsigned int", DT_UINT32 },
	{ "unsigned long", DT_UINT64 },
	/* CUDA and CUTLASS types */
	{ "__nv_bfloat16", DT_BF16 }, { "nv_bfloat16", DT_BF16 }, { "cutlass::bfloat16_t", DT_BF16 },
	{ "__half", DT_FP16 }, { "cutlass::half_t", DT_FP16 }, { "__nv_fp8_e4m3", DT_FP8_E4M3 },
	{ "__nv_fp8_e5m2", DT_FP8_E5M2 }, { "cutlass::float_e4m3_t", DT_FP8_E4M3 },
	{ "cutlass::float_e5m2_t", DT_FP8_E5M2 },
	/* NCCL kernel words and nccl-tests' -d names */
	{ "f32", DT_FP32 }, { "f16", DT_FP16 }, { "f64", DT_FP64 }, { "i8", DT_INT8 },
	{ "u8", DT_UINT8 }, { "i32", DT_INT32 }, { "u32", DT_UINT32 }, { "i64", DT_INT64 },
	{ "u64", DT_UINT64 }, { "int8_t", DT_INT8 }, { "uint8_t", DT_UINT8 }, { "int32_t", DT_INT32 },
	{ "uint32_t", DT_UINT32 }, { "int64_t", DT_INT64 }, { "uint64_t", DT_UINT64 },
	{ "f8e4m3", DT_FP8_E4M3 }, { "f8e5m2", DT_FP8_E5M2 }, { "fp8_e4m3", DT_FP8_E4M3 },
	{ "fp8_e5m2", DT_FP8_E5M2 }, { "fp8e4m3", DT_FP8_E4M3 }, { "fp8e5m2", DT_FP8_E5M2 },
	{ "char", DT_INT8 }, { "byte", DT_UINT8 }, { "int", DT_INT32 }, { "long", DT_INT64 },
	/* short forms */
	{ "e4m3", DT_FP8_E4M3 }, { "e5m2", DT_FP8_E5M2 }, { "e2m1", DT_FP4 },
	{ "fp4_e2m1", DT_FP4 }, { "nvfp4", DT_FP4 }, { "float8_e4m3", DT_FP8_E4M3 },
	{ "tensorfloat32", DT_TF32 },
	/* case and blanks do not matter */
	{ "BF16", DT_BF16 }, { "FP8-E4M3", DT_FP8_E4M3 }, { "TORCH.BFLOAT16", DT_BF16 },
	{ "  half ", DT_FP16 }, { "E4M3", DT_FP8_E4M3 },
	/* not dtypes */
	{ "", DT_UNKNOWN }, { " ", DT_UNKNOWN }, { "bf16-mixed", DT_UNKNOWN }, { "16-mixed", DT_UNKNOWN },
	{ "amp", DT_UNKNOWN }, { "bfloat", DT_UNKNOWN }, { "fp8-e4m3x", DT_UNKNOWN },
	{ "Scalar", DT_UNKNOWN }, { "c10::complex<float>", DT_UNKNOWN }, { "t", DT_UNKNOWN },
	{ "torch.", DT_UNKNOWN }, { "c10::", DT_UNKNOWN }, { "unknown", DT_UNKNOWN },
	{ "RING", DT_UNKNOWN }, { "LL128", DT_UNKNOWN }, { "Sum", DT_UNKNOWN },
};

static void dtype_spellings(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(spellings); i++) {
		enum dtype dt = dtype_parse(spellings[i].s, strlen(spellings[i].s));

		if (dt != spellings[i].dt)
			fail_msg("\"%s\": got %s, want %s", spellings[i].s, dtype_name(dt),
				 dtype_name(spellings[i].dt));
	}
	/* the length bounds the word: "bf16" of "bf16-mixed" */
	assert_int_equal(dtype_parse("bf16-mixed", 4), DT_BF16);
	assert_int_equal(dtype_parse("halfx", 4), DT_FP16);
	/* every name dtype_name() gives reads back */
	for (int i = 1; i < DT_COUNT; i++)
		assert_int_equal(dtype_parse(dtype_name((enum dtype)i),
					     strlen(dtype_name((enum dtype)i))), i);
}

/* The architecture a kernel's name says it was built for: real names of cuBLAS, cuDNN, CUTLASS, nvjet ... */
static void architecture_of_names(void **state)
{
	static const struct {
		const char *name;
		int sm;
	} cases[] = {
		{ "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", 90 },
		{ "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn", 80 },
		{ "sm89_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x64_stage3_warpsize2x2x1_tensor16x8x32_execute_kernel__5x_cublas", 89 },
		{ "nvjet_sm100_qqtst_128x256_128x6_2x1_2cta_v_bz_bias_TNT", 100 },
		{ "nvjet_sm90_hss_320x128", 90 },
		{ "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4>(cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4::Params)", 80 },
		{ "void cutlass::Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_nn_align1>", 75 },
		{ "cutlass3x_sm90_tensorop_s64x128x16gemm_bf16_bf16_f32_void_bf16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_pingpong_epi_tma", 90 },
		{ "fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)", 80 },
		{ "bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_swiGlu_dynBatch_sm100f", 100 },
		{ "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn", 80 },
		{ "cudnn_infer_volta_scudnn_128x64_relu_medium_nn_v1", 70 },
		/* no architecture: a word that only looks like one, or none at all */
		{ "nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT", -1 },
		{ "fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16VarSeqQ128Kv128PersistentContext", -1 },
		{ "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", -1 },
		{ "triton_poi_fused_add_cos_sin_0", -1 },
		{ "void at::native::(anonymous namespace)::softmax_warp_forward<float, float, float, 10, true, false>", -1 },
		{ "asm90_kernel", -1 },
		{ "sm9_kernel", -1 },
		{ "sm90x_kernel", -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (kname_sm_of(cases[i].name) != cases[i].sm)
			fail_msg("%s: sm %d, want %d", cases[i].name, kname_sm_of(cases[i].name), cases[i].sm);
	assert_int_equal(kname_sm_of(NULL), -1);
}

/* Real kernel names and their families: from the traces of realdata and the sample generator. */
static const struct {
	const char *name;
	const char *family;
} families[] = {
	/* matmul-class kernels are their class, whatever library, GPU or dtype */
	{ "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT", "gemm" },
	{ "nvjet_sss_tf32_128x128_32x6_2x1_v_bz_TNT", "gemm" },
	{ "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas", "gemm" },
	{ "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn", "gemm" },
	{ "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn", "gemm" },
	{ "volta_sgemm_128x32_nt", "gemm" },
	{ "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)", "gemm" },
	{ "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1", "gemm" },
	{ "triton_tem_fused_mm_2", "gemm" },
	{ "cudnn_infer_volta_scudnn_128x64_relu_medium_nn_v1", "gemm" },
	{ "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int, int, float const*, int, float const*, int, float*, kernel_grad_params, unsigned long long, int, unsigned long long, int, float, int, int, int)", "conv" },
	{ "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, false, true, false>(pytorch_flash::Flash_fwd_params)", "attention" },
	{ "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::half_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::half_t> >, false, true, false, false, false, true, false>(pytorch_flash::Flash_fwd_params)", "attention" },
	{ "fmha_cutlassB_f32_aligned_64x64_k64_sm80(PyTorchMemEffAttention::AttentionBackwardKernel<cutlass::arch::Sm80, float, true, false, false, 64, 64, 64, false>::Params)", "attention" },
	/* ATen's launchers: their kind and the operation of their template arguments */
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)", "elementwise CUDAFunctor_add" },
	{ "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::Half> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::Half> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::Half> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::Half> const&)::{lambda(int)#1})", "elementwise CUDAFunctor_add" },
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::sqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::sqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", "elementwise sqrt_kernel_cuda" },
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)", "elementwise MulFunctor" },
	{ "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MaxOps<float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MaxOps<float>, unsigned int, float, 4>)", "reduce MaxOps" },
	{ "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, double, double, double, double, bool, float const*, float const*>(at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, double, double, double, double, bool, float const*, float const*)", "multi_tensor_apply FusedAdamMathFunctor" },
	/* the rest: the identifier without dtype, shape and number words */
	{ "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)", "vectorized_layer_norm_kernel" },
	{ "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)", "vectorized_layer_norm_kernel" },
	{ "void cuApplyLayerNorm<c10::Half, float, c10::Half>(c10::Half*, float*, float*, c10::Half const*, int, int, float, c10::Half const*, c10::Half const*)", "cuApplyLayerNorm" },
	{ "void split_embedding_codegen_forward_unweighted_kernel<c10::Half, c10::Half, float, false, long, 2ul, 32ul>(at::GenericPackedTensorAccessor<c10::Half, 1ul, at::RestrictPtrTraits, long>)", "split_embedding_codegen_forward_unweighted_kernel" },
	{ "void split_embedding_backward_codegen_adagrad_unweighted_kernel_warp_per_row_1<float, float, float, 1ul, 8>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>)", "split_embedding_backward_codegen_adagrad_unweighted_kernel_warp_per_row" },
	{ "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>(float, float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*)", "bn_bw_1C11_kernel_new" },
	{ "at::cuda::(anonymous namespace)::spin_kernel(long)", "spin_kernel" },
	{ "void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)", "permute_2D_lengths_kernel" },
	{ "triton_poi_fused_add_5", "triton_poi_fused_add" },
	{ "triton_red_fused__log_softmax_11", "triton_red_fused_log_softmax" },
	{ "triton_poi_fused_add_cos_sin_0", "triton_poi_fused_add_cos_sin" },
	{ "triton__0d1d2d3d4de", "triton" },
	{ "my_kernel_bf16_sm90a_128x64_2cta_ldg8_align8_tilesize64x64_TNN_12", "my_kernel" },
	{ "sm90_bf16", "sm90_bf16" },	/* nothing left: the identifier whole */
};

static void kernel_families(void **state)
{
	char buf[KNAME_FAMILY_MAX];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		size_t n = kname_family(families[i].name, buf, sizeof(buf));

		if (strcmp(buf, families[i].family) || n != strlen(families[i].family))
			fail_msg("%s: family \"%s\" (%zu), want \"%s\"", families[i].name, buf, n,
				 families[i].family);
	}
}

/* Communication kernels and memory operations have no family: the workload leaves them out. */
static void kernels_without_family(void **state)
{
	static const char *const none[] = {
		"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
		"ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
		"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)",
		"Memcpy HtoD (Pinned -> Device)", "Memset (Device)", "[CUDA memcpy Host-to-Device]", "",
	};
	char buf[KNAME_FAMILY_MAX] = "x";

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(none); i++) {
		strcpy(buf, "x");
		if (kname_family(none[i], buf, sizeof(buf)) || buf[0])
			fail_msg("%s: family \"%s\", want none", none[i], buf);
	}
	assert_int_equal(kname_family(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

/* The buffer bounds the family: cut to size - 1 bytes, NUL-terminated; size 0 writes nothing. */
static void family_fits_the_buffer(void **state)
{
	char buf[8] = "xxxxxxx";

	(void)state;
	assert_int_equal(kname_family("triton_poi_fused_add_5", buf, sizeof(buf)), 7);
	assert_string_equal(buf, "triton_");
	assert_int_equal(kname_family("volta_sgemm_128x32_nt", buf, 3), 2);
	assert_string_equal(buf, "ge");
	assert_int_equal(kname_family("volta_sgemm_128x32_nt", buf, 1), 0);
	assert_string_equal(buf, "");
	buf[0] = 'x';
	assert_int_equal(kname_family("volta_sgemm_128x32_nt", buf, 0), 0);
	assert_int_equal(buf[0], 'x');
}

/* Where a launching op ran, by the real names of Megatron's, DLRM's and TorchRec's traces. */
/* Kernel names as a table shows them: names of the samples' and real traces' kernels. */
static void short_names(void **state)
{
	static const struct {
		const char *name, *want;
	} cases[] = {
		{ "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_flash::Flash_bwd_kernel_"
		  "traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_"
		  "traits<128, 64, 128, 8, cutlass::bfloat16_t> >, true, false, false, false, false, false>(pytorch_"
		  "flash::Flash_bwd_params)", "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel" },
		{ "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)"
		  "::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, "
		  "(at::native::ADAM_MODE)1, false>, float*, double>(at::native::(anonymous namespace)::"
		  "TensorListMetadata<4>)", "multi_tensor_apply_kernel FusedAdamMathFunctor" },
		{ "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_"
		  "nn_align1::Params)", "Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>" },
		{ "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
		  "ncclDevKernel_AllReduce_Sum_f32_RING_LL" },
		{ "nvjet_tst_128x256_64x4_1x2_2cta_h_bz_NNT", "nvjet_tst_128x256_64x4_1x2_2cta_h_bz_NNT" },
		{ "Memcpy HtoD (Pinned -> Device)", "Memcpy HtoD (Pinned -> Device)" },
		{ "multi_tensor_apply FusedAdamMathFunctor", "multi_tensor_apply FusedAdamMathFunctor" },
		{ "<unnamed>", "<unnamed>" },
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = kname_short(cases[i].name, buf, sizeof(buf));

		if (strcmp(buf, cases[i].want) || n != strlen(cases[i].want))
			fail_msg("%s: \"%s\" (%zu), want \"%s\"", cases[i].name, buf, n, cases[i].want);
	}
	assert_int_equal(kname_short(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(kname_short("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", buf, 5), 4);
	assert_string_equal(buf, "nccl");
}

static void op_where(void **state)
{
	(void)state;
	assert_int_equal(kname_op_where("_ReduceFromModelParallelRegion"), LAUNCH_IN_TENSOR);
	assert_int_equal(kname_op_where("_VocabParallelCrossEntropy"), LAUNCH_IN_TENSOR);
	assert_int_equal(kname_op_where("nccl:all_to_all"), LAUNCH_IN_ALLTOALL);
	assert_int_equal(kname_op_where("c10d::alltoall_base_"), LAUNCH_IN_ALLTOALL);
	assert_int_equal(kname_op_where("## all2all_data:kjt splits ##"), LAUNCH_IN_ALLTOALL);
	assert_int_equal(kname_op_where("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad"),
			 LAUNCH_IN_BACKWARD);
	assert_int_equal(kname_op_where("All2All_Pooled_WaitBackward"), LAUNCH_IN_BACKWARD | LAUNCH_IN_ALLTOALL);
	assert_int_equal(kname_op_where("DistributedDataParallel.forward"), LAUNCH_IN_FORWARD);
	assert_int_equal(kname_op_where("Optimizer.step#Shampoo.step"), LAUNCH_IN_OPTIMIZER);
	assert_int_equal(kname_op_where("FSDP::all_gather"), LAUNCH_IN_FSDP);
	assert_int_equal(kname_op_where("nccl:all_reduce"), 0);
	assert_int_equal(kname_op_where("ProfilerStep#3"), 0);
	assert_int_equal(kname_op_where(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(communication_kernels),
		cmocka_unit_test(classify_keeps_known_dtype),
		cmocka_unit_test(compute_kernels),
		cmocka_unit_test(ops_and_input_types),
		cmocka_unit_test(collective_texts),
		cmocka_unit_test(names_of_every_value),
		cmocka_unit_test(dtype_spellings),
		cmocka_unit_test(architecture_of_names),
		cmocka_unit_test(kernel_families),
		cmocka_unit_test(kernels_without_family),
		cmocka_unit_test(family_fits_the_buffer),
		cmocka_unit_test(short_names),
		cmocka_unit_test(op_where),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
