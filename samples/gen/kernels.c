#include "samples/gen/kernels.h"

#include <stdio.h>
#include <string.h>

#include "samples/gen/scenario.h"

#define SAME(s) { s, s, s, s }
#define EW(f) SAME("void at::native::vectorized_elementwise_kernel<4, " f ", std::array<char*, 3ul> >(int, " f ", std::array<char*, 3ul>)")

#define NV_FWD "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT"
#define NV_DG "nvjet_tst_128x256_64x4_1x2_2cta_h_bz_NNT"
#define NV_WG "nvjet_tst_128x128_64x6_2x1_2cta_v_bz_splitK_TNN"
#define X9_FWD "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"
#define X9_DG "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
#define X9_WG "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_on_kernel__5x_cublas"
#define NVT_FWD "nvjet_sss_tf32_128x128_32x6_2x1_v_bz_TNT"
#define NVT_DG "nvjet_sss_tf32_128x128_32x6_1x2_h_bz_NNT"
#define NVT_WG "nvjet_sss_tf32_128x64_32x8_2x1_v_bz_splitK_TNN"
#define X9T_FWD "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
#define X9T_DG "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
#define X9T_WG "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x64x32_warpgroupsize1x1x1_execute_segment_k_on_kernel__5x_cublas"
#define GEMM_FWD { NV_FWD, X9_FWD, NVT_FWD, X9T_FWD }
#define GEMM_DG { NV_DG, X9_DG, NVT_DG, X9T_DG }
#define GEMM_WG { NV_WG, X9_WG, NVT_WG, X9T_WG }

#define FLASH_F "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, false, true, false>(pytorch_flash::Flash_fwd_params)"
#define FLASH_B "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_flash::Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >, true, false, false, false, false, false>(pytorch_flash::Flash_bwd_params)"
#define MEFF_F "fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)"
#define MEFF_B "fmha_cutlassB_f32_aligned_64x64_k64_sm80(PyTorchMemEffAttention::AttentionBackwardKernel<cutlass::arch::Sm80, float, true, false, false, 64, 64, 64, false>::Params)"

#define LN_F "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<$T, float>(int, float, $T const*, $T const*, $T const*, float*, float*, $T*)"
#define LN_B "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<$T, float>($T const*, $T const*, float const*, float const*, $T const*, $T*, int)"
#define SGEMM "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)"
#define XENT "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)"
#define XENT_B "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, long)"
#define EMB_F "void at::native::(anonymous namespace)::indexSelectLargeIndex<$T, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<$T, unsigned int>, at::cuda::detail::TensorInfo<$T const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)"
#define EMB_B "void at::native::(anonymous namespace)::embedding_backward_feature_kernel<$T, float, long>(long const*, $T const*, $T*, int, long, int)"
#define ADAM "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, double, double, double, double, bool, float const*, float const*>(at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, double, double, double, double, bool, float const*, float const*)"

/* The conv net's kernels (cuDNN, channels_last, bf16); its scenarios run it on sm_90 only,
 * so every column holds the sm_90 bf16 name. */
#define X9_CONV(pass, k) "sm90_xmma_" pass "_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_" k "_kernel__5x_cudnn"
#define BN_F "void cudnn::bn_fw_tr_1C11_singleread<__nv_bfloat16, 512, true, 1, 2, 0>(cudnn::bn_fw_tr_1C11_args<__nv_bfloat16>)"
#define BN_B "void cudnn::bn_bw_1C11_singleread<__nv_bfloat16, 512, true, 1, 2, 0>(cudnn::bn_bw_1C11_args<__nv_bfloat16>)"
#define RELU_F "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() const::{lambda($T)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#14}::operator()() const::{lambda($T)#1}, std::array<char*, 2ul>)"
#define RELU_B "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<$T, $T, $T, at::native::(anonymous namespace)::threshold_kernel_impl<$T>(at::TensorIteratorBase&, $T, $T)::{lambda($T, $T)#1}>, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<$T, $T, $T, at::native::(anonymous namespace)::threshold_kernel_impl<$T>(at::TensorIteratorBase&, $T, $T)::{lambda($T, $T)#1}>, std::array<char*, 3ul>)"
#define MAXPOOL_F "void at::native::(anonymous namespace)::max_pool_forward_nhwc<$T, float>($T const*, int, long, long, long, int, int, int, int, int, int, int, int, int, int, int, $T*, long*)"
#define MAXPOOL_B "void at::native::(anonymous namespace)::max_pool_backward_nhwc<$T, float>($T const*, long const*, int, long, long, long, int, int, int, int, int, int, int, int, int, int, int, int, $T*)"
#define AVGPOOL_F "void at::native::(anonymous namespace)::adaptive_average_pool_nhwc<$T>($T const*, $T*, int, int, int, int, int, int, long, long, long)"
#define AVGPOOL_B "void at::native::(anonymous namespace)::adaptive_average_gradinput_nhwc<$T>($T*, $T const*, int, int, int, int, int, int, long, long, long)"

/* Kernel families, labelled by hand: what a kernel computes, whatever dtype,
 * GPU or tile it was built for. A matmul-class kernel is its class (the
 * library picks the kernel by GPU, dtype and shape); an ATen elementwise or
 * multi-tensor launcher is the operation it runs; any other kernel its name
 * without template arguments, argument lists, dtype, tile and launch words. */
#define NOFAM { NULL, NULL, NULL, NULL }
#define FAM_GEMM SAME("gemm")
#define FAM_CONV SAME("conv")
#define FAM_ATTN SAME("attention")
#define FAM_EW(op) SAME("elementwise " op)

#define C EVC_COMPUTE
const struct kdef kdefs[K_COUNT] = {
	[K_H2D] = { "aten::copy_", SAME("Memcpy HtoD (Pinned -> Device)"), NOFAM, 0, SC_BYTES, MM_NONE, EVC_MEMORY, {0}, {0}, 0, 0 },
	[K_MEMSET] = { "aten::zero_", SAME("Memset (Device)"), NOFAM, 0, SC_BYTES, MM_NONE, EVC_MEMORY, {0}, {0}, 0, 0 },
	[K_D2H] = { "aten::_local_scalar_dense", SAME("Memcpy DtoH (Device -> Pageable)"), NOFAM, 0, SC_BYTES, MM_NONE, EVC_MEMORY, {0}, {0}, 0, 0 },
	[K_EMBED] = { "aten::embedding", SAME(EMB_F), SAME("at::native::indexSelectLargeIndex"), 60, SC_BATCH, MM_NONE, C, {2048, 1, 1}, {128, 1, 1}, 32, 0 },
	[K_LN] = { "aten::layer_norm", SAME(LN_F), SAME("at::native::vectorized_layer_norm_kernel"), 45, SC_BATCH, MM_NONE, C, {16384, 1, 1}, {256, 1, 1}, 30, 0 },
	[K_QKV] = { "aten::linear", GEMM_FWD, FAM_GEMM, 700, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_ATTN] = { "aten::_scaled_dot_product_flash_attention", { FLASH_F, FLASH_F, MEFF_F, MEFF_F }, FAM_ATTN, 600, SC_BATCH, MM_ATTN, C, {16, 16, 8}, {128, 1, 1}, 255, 49152 },
	[K_PROJ] = { "aten::linear", GEMM_FWD, FAM_GEMM, 250, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_ADD] = { "aten::add", EW("at::native::CUDAFunctor_add<$T>"), FAM_EW("CUDAFunctor_add"), 50, SC_BATCH, MM_NONE, C, {4096, 1, 1}, {128, 1, 1}, 24, 0 },
	[K_FC1] = { "aten::linear", GEMM_FWD, FAM_GEMM, 900, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_GELU] = { "aten::gelu", EW("at::native::GeluCUDAKernelImpl<$T>"), FAM_EW("GeluCUDAKernelImpl"), 120, SC_BATCH, MM_NONE, C, {8192, 1, 1}, {128, 1, 1}, 28, 0 },
	[K_FC2] = { "aten::linear", GEMM_FWD, FAM_GEMM, 900, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_HEAD] = { "aten::linear", GEMM_FWD, FAM_GEMM, 800, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_LOSS_MM] = { "aten::mm", SAME(SGEMM), FAM_GEMM, 90, SC_BATCH, MM_FP32, C, {64, 4, 1}, {256, 1, 1}, 122, 61440 },
	[K_XENT] = { "aten::_log_softmax", SAME(XENT), SAME("at::native::cunn_SoftMaxForward"), 200, SC_BATCH, MM_NONE, C, {16384, 1, 1}, {512, 1, 1}, 40, 0 },
	[K_XENT_BWD] = { "aten::_log_softmax_backward_data", SAME(XENT_B), SAME("at::native::cunn_SoftMaxBackward"), 220, SC_BATCH, MM_NONE, C, {16384, 1, 1}, {512, 1, 1}, 40, 0 },
	[K_HEAD_DG] = { "aten::mm", GEMM_DG, FAM_GEMM, 800, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_HEAD_WG] = { "aten::mm", GEMM_WG, FAM_GEMM, 800, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_FC2_DG] = { "aten::mm", GEMM_DG, FAM_GEMM, 900, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_FC2_WG] = { "aten::mm", GEMM_WG, FAM_GEMM, 900, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_GELU_BWD] = { "aten::gelu_backward", EW("at::native::GeluBackwardCUDAKernelImpl<$T>"), FAM_EW("GeluBackwardCUDAKernelImpl"), 150, SC_BATCH, MM_NONE, C, {8192, 1, 1}, {128, 1, 1}, 30, 0 },
	[K_FC1_DG] = { "aten::mm", GEMM_DG, FAM_GEMM, 900, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_FC1_WG] = { "aten::mm", GEMM_WG, FAM_GEMM, 900, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_LN_BWD] = { "aten::native_layer_norm_backward", SAME(LN_B), SAME("at::native::layer_norm_grad_input_kernel_vectorized"), 80, SC_BATCH, MM_NONE, C, {16384, 1, 1}, {256, 1, 1}, 40, 0 },
	[K_PROJ_DG] = { "aten::mm", GEMM_DG, FAM_GEMM, 250, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_PROJ_WG] = { "aten::mm", GEMM_WG, FAM_GEMM, 250, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_ATTN_BWD] = { "aten::_scaled_dot_product_flash_attention_backward", { FLASH_B, FLASH_B, MEFF_B, MEFF_B }, FAM_ATTN, 1500, SC_BATCH, MM_ATTN, C, {16, 16, 8}, {256, 1, 1}, 255, 98304 },
	[K_QKV_DG] = { "aten::mm", GEMM_DG, FAM_GEMM, 700, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_QKV_WG] = { "aten::mm", GEMM_WG, FAM_GEMM, 700, SC_BATCH, MM_RUN, C, {148, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_EMBED_BWD] = { "aten::embedding_dense_backward", SAME(EMB_B), SAME("at::native::embedding_backward_feature_kernel"), 300, SC_BATCH, MM_NONE, C, {1024, 1, 1}, {256, 1, 1}, 40, 0 },
	[K_ADAM] = { "aten::_fused_adamw_", SAME(ADAM), SAME("multi_tensor_apply FusedAdamMathFunctor"), 1000, SC_PARAMS, MM_NONE, C, {2048, 1, 1}, {512, 1, 1}, 64, 0 },
	[K_COMM] = { "record_param_comms", SAME(""), NOFAM, 0, SC_BYTES, MM_NONE, EVC_COMM, {2, 1, 1}, {640, 1, 1}, 96, 87568 },
	/* the conv net: SC_IMAGES costs are µs per stage on a B200 at micro batch 8 */
	[K_CONV_F] = { "aten::cudnn_convolution", SAME(X9_CONV("fprop", "off")), FAM_CONV, 801, SC_IMAGES, MM_RUN, C, {196, 2, 1}, {256, 1, 1}, 168, 197632 },
	[K_BN_F] = { "aten::cudnn_batch_norm", SAME(BN_F), SAME("cudnn::bn_fw_tr_1C11_singleread"), 157, SC_IMAGES, MM_NONE, C, {256, 1, 1}, {512, 1, 1}, 40, 8192 },
	[K_RELU] = { "aten::relu_", SAME(RELU_F), FAM_EW("launch_clamp_scalar"), 64, SC_IMAGES, MM_NONE, C, {4096, 1, 1}, {128, 1, 1}, 20, 0 },
	[K_MAXPOOL] = { "aten::max_pool2d_with_indices", SAME(MAXPOOL_F), SAME("at::native::max_pool_forward_nhwc"), 200, SC_IMAGES, MM_NONE, C, {1568, 1, 1}, {256, 1, 1}, 38, 0 },
	[K_RN_ADD] = { "aten::add_", EW("at::native::CUDAFunctor_add<$T>"), FAM_EW("CUDAFunctor_add"), 79, SC_IMAGES, MM_NONE, C, {4096, 1, 1}, {128, 1, 1}, 24, 0 },
	[K_AVGPOOL] = { "aten::adaptive_avg_pool2d", SAME(AVGPOOL_F), SAME("at::native::adaptive_average_pool_nhwc"), 36, SC_IMAGES, MM_NONE, C, {64, 1, 1}, {256, 1, 1}, 32, 0 },
	[K_FC] = { "aten::linear", GEMM_FWD, FAM_GEMM, 43, SC_IMAGES, MM_RUN, C, {16, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_RN_XENT] = { "aten::_log_softmax", SAME(XENT), SAME("at::native::cunn_SoftMaxForward"), 17, SC_IMAGES, MM_NONE, C, {16, 1, 1}, {512, 1, 1}, 40, 0 },
	[K_RN_XENT_BWD] = { "aten::_log_softmax_backward_data", SAME(XENT_B), SAME("at::native::cunn_SoftMaxBackward"), 20, SC_IMAGES, MM_NONE, C, {16, 1, 1}, {512, 1, 1}, 40, 0 },
	[K_FC_DG] = { "aten::mm", GEMM_DG, FAM_GEMM, 43, SC_IMAGES, MM_RUN, C, {16, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_FC_WG] = { "aten::mm", GEMM_WG, FAM_GEMM, 46, SC_IMAGES, MM_RUN, C, {16, 1, 1}, {384, 1, 1}, 168, 213248 },
	[K_AVGPOOL_BWD] = { "aten::_adaptive_avg_pool2d_backward", SAME(AVGPOOL_B), SAME("at::native::adaptive_average_gradinput_nhwc"), 57, SC_IMAGES, MM_NONE, C, {1568, 1, 1}, {256, 1, 1}, 32, 0 },
	[K_RELU_BWD] = { "aten::threshold_backward", SAME(RELU_B), FAM_EW("threshold_kernel_impl"), 93, SC_IMAGES, MM_NONE, C, {4096, 1, 1}, {128, 1, 1}, 24, 0 },
	[K_BN_BWD] = { "aten::cudnn_batch_norm_backward", SAME(BN_B), SAME("cudnn::bn_bw_1C11_singleread"), 272, SC_IMAGES, MM_NONE, C, {256, 1, 1}, {512, 1, 1}, 48, 16384 },
	[K_CONV_DG] = { "aten::convolution_backward", SAME(X9_CONV("dgrad", "off")), FAM_CONV, 887, SC_IMAGES, MM_RUN, C, {196, 2, 1}, {256, 1, 1}, 168, 197632 },
	[K_CONV_WG] = { "aten::convolution_backward", SAME(X9_CONV("wgrad", "on")), FAM_CONV, 972, SC_IMAGES, MM_RUN, C, {64, 4, 1}, {256, 1, 1}, 168, 197632 },
	[K_MAXPOOL_BWD] = { "aten::max_pool2d_with_indices_backward", SAME(MAXPOOL_B), SAME("at::native::max_pool_backward_nhwc"), 300, SC_IMAGES, MM_NONE, C, {1568, 1, 1}, {256, 1, 1}, 38, 0 },
};
#undef C

enum dtype kind_matmul_dtype(enum kkind k, enum dtype prec)
{
	switch (kdefs[k].mm) {
	case MM_RUN:
		return prec;
	case MM_ATTN:
		return prec == DT_BF16 ? DT_BF16 : DT_FP32;
	case MM_FP32:
		return DT_FP32;
	default:
		return DT_UNKNOWN;
	}
}

const char *c10_type(enum dtype t)
{
	return t == DT_BF16 ? "c10::BFloat16" : t == DT_FP16 ? "c10::Half" : "float";
}

const char *c10_scalar(enum dtype t)
{
	return t == DT_BF16 ? "BFloat16" : t == DT_FP16 ? "Half" : "Float";
}

/* What Inductor names the kernels of a torch.compile'd model: no dtype in them. */
static const char *const triton_names[K_COUNT] = {
	[K_EMBED] = "triton_poi_fused_embedding_0",
	[K_LN] = "triton_per_fused_native_layer_norm_1",
	[K_QKV] = "triton_tem_fused_mm_2",
	[K_ATTN] = "triton_tem_fused_flex_attention_3",
	[K_PROJ] = "triton_tem_fused_mm_4",
	[K_ADD] = "triton_poi_fused_add_5",
	[K_FC1] = "triton_tem_fused_mm_6",
	[K_GELU] = "triton_poi_fused_gelu_7",
	[K_FC2] = "triton_tem_fused_mm_8",
	[K_HEAD] = "triton_tem_fused_mm_9",
	[K_LOSS_MM] = "triton_tem_fused_mm_10",
	[K_XENT] = "triton_red_fused__log_softmax_11",
	[K_XENT_BWD] = "triton_red_fused__log_softmax_backward_data_0",
	[K_HEAD_DG] = "triton_tem_fused_mm_1",
	[K_HEAD_WG] = "triton_tem_fused_mm_2",
	[K_FC2_DG] = "triton_tem_fused_mm_3",
	[K_FC2_WG] = "triton_tem_fused_mm_4",
	[K_GELU_BWD] = "triton_poi_fused_gelu_backward_5",
	[K_FC1_DG] = "triton_tem_fused_mm_6",
	[K_FC1_WG] = "triton_tem_fused_mm_7",
	[K_LN_BWD] = "triton_per_fused_native_layer_norm_backward_8",
	[K_PROJ_DG] = "triton_tem_fused_mm_9",
	[K_PROJ_WG] = "triton_tem_fused_mm_10",
	[K_ATTN_BWD] = "triton_tem_fused_flex_attention_backward_11",
	[K_QKV_DG] = "triton_tem_fused_mm_12",
	[K_QKV_WG] = "triton_tem_fused_mm_13",
	[K_EMBED_BWD] = "triton_red_fused_embedding_dense_backward_14",
};

/* Inductor's kernels by family: the name without its numeric suffix. */
static const char *const triton_families[K_COUNT] = {
	[K_EMBED] = "triton_poi_fused_embedding",
	[K_LN] = "triton_per_fused_native_layer_norm",
	[K_QKV] = "triton_tem_fused_mm", [K_PROJ] = "triton_tem_fused_mm", [K_FC1] = "triton_tem_fused_mm",
	[K_FC2] = "triton_tem_fused_mm", [K_HEAD] = "triton_tem_fused_mm", [K_LOSS_MM] = "triton_tem_fused_mm",
	[K_HEAD_DG] = "triton_tem_fused_mm", [K_HEAD_WG] = "triton_tem_fused_mm", [K_FC2_DG] = "triton_tem_fused_mm",
	[K_FC2_WG] = "triton_tem_fused_mm", [K_FC1_DG] = "triton_tem_fused_mm", [K_FC1_WG] = "triton_tem_fused_mm",
	[K_PROJ_DG] = "triton_tem_fused_mm", [K_PROJ_WG] = "triton_tem_fused_mm", [K_QKV_DG] = "triton_tem_fused_mm",
	[K_QKV_WG] = "triton_tem_fused_mm",
	[K_ATTN] = "triton_tem_fused_flex_attention",
	[K_ADD] = "triton_poi_fused_add",
	[K_GELU] = "triton_poi_fused_gelu",
	[K_XENT] = "triton_red_fused__log_softmax",
	[K_XENT_BWD] = "triton_red_fused__log_softmax_backward_data",
	[K_GELU_BWD] = "triton_poi_fused_gelu_backward",
	[K_LN_BWD] = "triton_per_fused_native_layer_norm_backward",
	[K_ATTN_BWD] = "triton_tem_fused_flex_attention_backward",
	[K_EMBED_BWD] = "triton_red_fused_embedding_dense_backward",
};

int kind_is_triton(enum kkind k, int arch)
{
	return !arch && triton_names[k];
}

static int name_index(int arch, enum dtype prec)
{
	return (arch >= 100 ? 0 : 1) + (prec == DT_BF16 ? 0 : 2);
}

const char *kind_family(enum kkind k, int arch, enum dtype prec)
{
	if (kind_is_triton(k, arch))
		return triton_families[k];
	return kdefs[k].family[name_index(arch, prec)];
}

enum dtype kind_name_dtype(enum kkind k, int arch, enum dtype prec)
{
	if (!arch && triton_names[k])
		return DT_UNKNOWN;
	return kind_matmul_dtype(k, prec);
}

void kind_name(enum kkind k, int arch, enum dtype prec, char *out, size_t n)
{
	int i = name_index(arch, prec);
	const char *s = kind_is_triton(k, arch) ? triton_names[k] : kdefs[k].name[i];
	const char *t = c10_type(prec);
	size_t tl = strlen(t), o = 0;

	for (; *s && o + 1 < n; s++) {
		if (s[0] == '$' && s[1] == 'T' && o + tl + 1 < n) {
			memcpy(out + o, t, tl);
			o += tl;
			s++;
			continue;
		}
		out[o++] = *s;
	}
	out[o] = '\0';
}

/* The conv net's one feature map (kineto.c): 256 channels of 128 x 128, a 3 x 3 kernel. */
static double conv_flops(double B)
{
	return 2 * B * 256 * 128 * 128 * 256 * 3 * 3;
}

double kind_flops(enum kkind k, const struct run_spec *s)
{
	double B = s->micro_batch, S = s->seq_len, H = s->params_m <= 1500 ? 2048 : 4096;

	switch (k) {
	case K_QKV: return 2 * B * S * H * 3 * H;
	case K_PROJ: return 2 * B * S * H * H;
	case K_FC1: case K_FC2: return 2 * B * S * H * 4 * H;
	case K_HEAD: return 2 * B * S * H * GEN_VOCAB;
	case K_ATTN: return 2 * B * 16 * S * S * (2 * H / 16);
	case K_ATTN_BWD: return 2 * B * 16 * S * S * (5 * H / 16);
	case K_LOSS_MM: return 2 * (double)((long long)B * (long long)S / 64) * 256 * 64;
	case K_HEAD_DG: case K_HEAD_WG: case K_FC2_DG: case K_FC2_WG: case K_FC1_DG: case K_FC1_WG:
	case K_PROJ_DG: case K_PROJ_WG: case K_QKV_DG: case K_QKV_WG:
		return 2 * B * S * H * H;	/* recorded as mm [[B*S, H], [H, H]] */
	case K_CONV_F: case K_CONV_DG: case K_CONV_WG: return conv_flops(B);
	case K_FC: case K_FC_DG: case K_FC_WG: return 2 * B * 2048 * 1000;
	default: return 0;
	}
}
