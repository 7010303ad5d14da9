/*
 * collect_env: the reader of `python -m torch.utils.collect_env` output, in
 * PyTorch's classic `Key: value` layout and vLLM's sectioned `Key : value`
 * layout, and of the two lines that tell an unsupported GPU in any log:
 * torch.cuda's "<gpu> with CUDA capability sm_120 is not compatible with the
 * current PyTorch installation" warning (with the sm list it supports) and
 * "no kernel image is available for execution on the device".
 *
 * It fills run->env (model.h) and the inspect key
 *   "env": {"torch", "torch_cuda", "cuda_runtime", "driver", "cudnn",
 *           "gpus": [names], "arch_warning": {"gpu", "capability",
 *           "supported": [...]} or null, "no_kernel_image", "libraries": {name: version},
 *           "cudnn_candidates": [...], "cuda_archs", "arch_warnings": [...],
 *           "torch_full", "arch_list", "rocm_build", "hip_runtime", "miopen",
 *           "rocm_version"}
 * where a value the file does not hold is null. "torch" is the version
 * without its local part, "torch_full" as printed ("2.6.0+cu126");
 * "torch_cuda" is "CUDA used to build PyTorch", else the "+cu126" suffix
 * (12.6). "cuda_archs" is vLLM's "CUDA Archs" or a TORCH_CUDA_ARCH_LIST
 * setting in any log ("8.0 9.0+PTX"), "arch_list" a printed
 * torch.cuda.get_arch_list() ("sm_50 sm_90"); the ROCm three are the
 * report's "ROCM used to build PyTorch", "HIP runtime version" and
 * "MIOpen runtime version"; "rocm_version" vLLM's "ROCM Version" (the
 * installed ROCm's HIP version, as hipcc prints it).
 */
#ifndef INGEST_COLLECT_ENV_H
#define INGEST_COLLECT_ENV_H

#include "ingest/reader.h"

extern const struct reader collect_env_reader;

#endif
