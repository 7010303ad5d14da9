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
 *           "cudnn_candidates": [...], "cuda_archs", "arch_warnings": [...]}
 * where a value the file does not hold is null.
 */
#ifndef INGEST_COLLECT_ENV_H
#define INGEST_COLLECT_ENV_H

#include "ingest/reader.h"

extern const struct reader collect_env_reader;

#endif
