#include "core/gpu.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define GB(n) ((int64_t)(n) * 1000000000)	/* a vendor's "GB" */
#define MIB(n) ((int64_t)(n) * 1048576)		/* nvidia-smi's MiB */
#define NA NAN					/* not published */
#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * One row per model; every row cites the public page its numbers come from.
 * Dense = without 2:4 sparsity: where a datasheet prints only the sparse
 * figure (marked with an asterisk there), the row holds half of it.
 * GeForce bf16/fp16/fp8 are the fp32-accumulate rates. link_gbps is one
 * direction: NVLink4 900 GB/s "bidirectional" is 450 here; PCIe x16 Gen3/4/5
 * is 16/32/64. memory_reported is nvidia-smi's memory.total (MiB) or the
 * trace's totalGlobalMem where one was seen, else -1.
 */
static const struct gpu_model models[] = {
	/* source: NVIDIA Tesla V100 GPU datasheet (SXM2 column),
	 * https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf */
	{ .name = "V100 SXM2 16GB", .spellings = NAMES("Tesla V100-SXM2-16GB"), .family = "V100",
	  .vendor = "NVIDIA", .arch = "Volta", .cc_major = 7, .cc_minor = 0, .isa = "sm_70",
	  .memory_nominal = GB(16), .memory_reported = -1, .memory_gbps = 900,
	  .link = GPU_LINK_NVLINK, .link_gen = 2, .link_gbps = 150,
	  .peak = { .fp64 = 7.8, .fp32 = 15.7, .tf32 = NA, .bf16 = NA, .fp16 = 125, .fp8 = NA,
		    .fp4 = NA, .int8 = NA } },
	/* source: NVIDIA Tesla V100 GPU datasheet (SXM2 column), as above;
	 * memory_reported: totalGlobalMem of a Kineto trace (HTA ns_resolution_trace) */
	{ .name = "V100 SXM2 32GB", .spellings = NAMES("Tesla V100-SXM2-32GB"), .family = "V100",
	  .vendor = "NVIDIA", .arch = "Volta", .cc_major = 7, .cc_minor = 0, .isa = "sm_70",
	  .memory_nominal = GB(32), .memory_reported = 34079637504, .memory_gbps = 900,
	  .link = GPU_LINK_NVLINK, .link_gen = 2, .link_gbps = 150,
	  .peak = { .fp64 = 7.8, .fp32 = 15.7, .tf32 = NA, .bf16 = NA, .fp16 = 125, .fp8 = NA,
		    .fp4 = NA, .int8 = NA } },
	/* source: NVIDIA Tesla V100 GPU datasheet (PCIe column), as above */
	{ .name = "V100 PCIe 16GB", .spellings = NAMES("Tesla V100-PCIE-16GB"), .family = "V100",
	  .vendor = "NVIDIA", .arch = "Volta", .cc_major = 7, .cc_minor = 0, .isa = "sm_70",
	  .memory_nominal = GB(16), .memory_reported = -1, .memory_gbps = 900,
	  .link = GPU_LINK_PCIE, .link_gen = 3, .link_gbps = 16,
	  .peak = { .fp64 = 7, .fp32 = 14, .tf32 = NA, .bf16 = NA, .fp16 = 112, .fp8 = NA,
		    .fp4 = NA, .int8 = NA } },
	/* source: NVIDIA Tesla V100 GPU datasheet (PCIe column), as above */
	{ .name = "V100 PCIe 32GB", .spellings = NAMES("Tesla V100-PCIE-32GB"), .family = "V100",
	  .vendor = "NVIDIA", .arch = "Volta", .cc_major = 7, .cc_minor = 0, .isa = "sm_70",
	  .memory_nominal = GB(32), .memory_reported = -1, .memory_gbps = 900,
	  .link = GPU_LINK_PCIE, .link_gen = 3, .link_gbps = 16,
	  .peak = { .fp64 = 7, .fp32 = 14, .tf32 = NA, .bf16 = NA, .fp16 = 112, .fp8 = NA,
		    .fp4 = NA, .int8 = NA } },
	/* source: NVIDIA A100 Tensor Core GPU datasheet (A100 40GB SXM column),
	 * https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf;
	 * "A100-PG509-200" is this board's name in HTA's nccl_data Kineto trace, whose
	 * totalGlobalMem is memory_reported */
	{ .name = "A100 SXM4 40GB", .spellings = NAMES("NVIDIA A100-SXM4-40GB", "NVIDIA A100-PG509-200"),
	  .family = "A100", .vendor = "NVIDIA", .arch = "Ampere", .cc_major = 8, .cc_minor = 0,
	  .isa = "sm_80", .memory_nominal = GB(40), .memory_reported = 42297524224,
	  .memory_gbps = 1555, .link = GPU_LINK_NVLINK, .link_gen = 3, .link_gbps = 300,
	  .peak = { .fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .fp8 = NA,
		    .fp4 = NA, .int8 = 624 } },
	/* source: NVIDIA A100 Tensor Core GPU datasheet (A100 80GB SXM column), as above */
	{ .name = "A100 SXM4 80GB", .spellings = NAMES("NVIDIA A100-SXM4-80GB"), .family = "A100",
	  .vendor = "NVIDIA", .arch = "Ampere", .cc_major = 8, .cc_minor = 0, .isa = "sm_80",
	  .memory_nominal = GB(80), .memory_reported = -1, .memory_gbps = 2039,
	  .link = GPU_LINK_NVLINK, .link_gen = 3, .link_gbps = 300,
	  .peak = { .fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .fp8 = NA,
		    .fp4 = NA, .int8 = 624 } },
	/* source: NVIDIA A100 Tensor Core GPU datasheet (A100 40GB PCIe column), as above */
	{ .name = "A100 PCIe 40GB", .spellings = NAMES("NVIDIA A100-PCIE-40GB"), .family = "A100",
	  .vendor = "NVIDIA", .arch = "Ampere", .cc_major = 8, .cc_minor = 0, .isa = "sm_80",
	  .memory_nominal = GB(40), .memory_reported = -1, .memory_gbps = 1555,
	  .link = GPU_LINK_PCIE, .link_gen = 4, .link_gbps = 32,
	  .peak = { .fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .fp8 = NA,
		    .fp4 = NA, .int8 = 624 } },
	/* source: NVIDIA A100 Tensor Core GPU datasheet (A100 80GB PCIe column), as above */
	{ .name = "A100 PCIe 80GB", .spellings = NAMES("NVIDIA A100 80GB PCIe"), .family = "A100",
	  .vendor = "NVIDIA", .arch = "Ampere", .cc_major = 8, .cc_minor = 0, .isa = "sm_80",
	  .memory_nominal = GB(80), .memory_reported = -1, .memory_gbps = 1935,
	  .link = GPU_LINK_PCIE, .link_gen = 4, .link_gbps = 32,
	  .peak = { .fp64 = 19.5, .fp32 = 19.5, .tf32 = 156, .bf16 = 312, .fp16 = 312, .fp8 = NA,
		    .fp4 = NA, .int8 = 624 } },
	/* source: Amazon EC2 G5 instances page, https://aws.amazon.com/ec2/instance-types/g5/
	 * (24 GB per A10G); NVIDIA publishes no datasheet for this AWS-only part,
	 * so its peaks stay unknown; memory bandwidth from the same page */
	{ .name = "A10G", .spellings = NAMES("NVIDIA A10G"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Ampere", .cc_major = 8, .cc_minor = 6, .isa = "sm_86",
	  .memory_nominal = GB(24), .memory_reported = -1, .memory_gbps = 600,
	  .link = GPU_LINK_PCIE, .link_gen = 4, .link_gbps = 32,
	  .peak = { .fp64 = NA, .fp32 = NA, .tf32 = NA, .bf16 = NA, .fp16 = NA, .fp8 = NA,
		    .fp4 = NA, .int8 = NA } },
	/* source: NVIDIA L4 Tensor Core GPU datasheet,
	 * https://resources.nvidia.com/en-us-data-center-overview/l4-gpu-datasheet */
	{ .name = "L4", .spellings = NAMES("NVIDIA L4"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Ada Lovelace", .cc_major = 8, .cc_minor = 9, .isa = "sm_89",
	  .memory_nominal = GB(24), .memory_reported = -1, .memory_gbps = 300,
	  .link = GPU_LINK_PCIE, .link_gen = 4, .link_gbps = 32,
	  .peak = { .fp64 = NA, .fp32 = 30.3, .tf32 = 60, .bf16 = 121, .fp16 = 121, .fp8 = 242.5,
		    .fp4 = NA, .int8 = 242.5 } },
	/* source: NVIDIA L40S GPU datasheet,
	 * https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413 */
	{ .name = "L40S", .spellings = NAMES("NVIDIA L40S"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Ada Lovelace", .cc_major = 8, .cc_minor = 9, .isa = "sm_89",
	  .memory_nominal = GB(48), .memory_reported = -1, .memory_gbps = 864,
	  .link = GPU_LINK_PCIE, .link_gen = 4, .link_gbps = 32,
	  .peak = { .fp64 = NA, .fp32 = 91.6, .tf32 = 183, .bf16 = 362.05, .fp16 = 362.05,
		    .fp8 = 733, .fp4 = NA, .int8 = 733 } },
	/* source: NVIDIA H100 Tensor Core GPU datasheet (H100 SXM column),
	 * https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet;
	 * memory_reported: nvidia-smi 81559 MiB (a public nvidia-smi table of an H100 80GB HBM3 under driver 580) */
	{ .name = "H100 SXM", .spellings = NAMES("NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB"),
	  .family = "H100", .vendor = "NVIDIA", .arch = "Hopper", .cc_major = 9, .cc_minor = 0,
	  .isa = "sm_90", .memory_nominal = GB(80), .memory_reported = MIB(81559),
	  .memory_gbps = 3350, .link = GPU_LINK_NVLINK, .link_gen = 4, .link_gbps = 450,
	  .peak = { .fp64 = 67, .fp32 = 67, .tf32 = 494.5, .bf16 = 989.5, .fp16 = 989.5,
		    .fp8 = 1979, .fp4 = NA, .int8 = 1979 } },
	/* source: NVIDIA H100 Tensor Core GPU datasheet (H100 PCIe column), as above */
	{ .name = "H100 PCIe", .spellings = NAMES("NVIDIA H100 PCIe"), .family = "H100",
	  .vendor = "NVIDIA", .arch = "Hopper", .cc_major = 9, .cc_minor = 0, .isa = "sm_90",
	  .memory_nominal = GB(80), .memory_reported = -1, .memory_gbps = 2000,
	  .link = GPU_LINK_PCIE, .link_gen = 5, .link_gbps = 64,
	  .peak = { .fp64 = 51, .fp32 = 51, .tf32 = 378, .bf16 = 756.5, .fp16 = 756.5,
		    .fp8 = 1513, .fp4 = NA, .int8 = 1513 } },
	/* source: NVIDIA H100 Tensor Core GPU datasheet (H100 NVL column, per GPU), as
	 * above; NVLink bridge 600 GB/s bidirectional */
	{ .name = "H100 NVL", .spellings = NAMES("NVIDIA H100 NVL"), .family = "H100",
	  .vendor = "NVIDIA", .arch = "Hopper", .cc_major = 9, .cc_minor = 0, .isa = "sm_90",
	  .memory_nominal = GB(94), .memory_reported = -1, .memory_gbps = 3900,
	  .link = GPU_LINK_NVLINK_BRIDGE, .link_gen = 4, .link_gbps = 300,
	  .peak = { .fp64 = 60, .fp32 = 60, .tf32 = 417.5, .bf16 = 835.5, .fp16 = 835.5,
		    .fp8 = 1670.5, .fp4 = NA, .int8 = 1670.5 } },
	/* source: NVIDIA H200 Tensor Core GPU datasheet (H200 SXM column),
	 * https://resources.nvidia.com/en-us-data-center-overview-mc/en-us-data-center-overview/hpc-datasheet-sc23-h200;
	 * memory_reported: nvidia-smi's memory.total, 143771 MiB */
	{ .name = "H200", .spellings = NAMES("NVIDIA H200"), .family = "H200",
	  .vendor = "NVIDIA", .arch = "Hopper", .cc_major = 9, .cc_minor = 0, .isa = "sm_90",
	  .memory_nominal = GB(141), .memory_reported = MIB(143771), .memory_gbps = 4800,
	  .link = GPU_LINK_NVLINK, .link_gen = 4, .link_gbps = 450,
	  .peak = { .fp64 = 67, .fp32 = 67, .tf32 = 494.5, .bf16 = 989.5, .fp16 = 989.5,
		    .fp8 = 1979, .fp4 = NA, .int8 = 1979 } },
	/* source: NVIDIA H200 Tensor Core GPU datasheet (H200 NVL column), as above;
	 * 2- or 4-way NVLink bridge 900 GB/s bidirectional */
	{ .name = "H200 NVL", .spellings = NAMES("NVIDIA H200 NVL"), .family = "H200",
	  .vendor = "NVIDIA", .arch = "Hopper", .cc_major = 9, .cc_minor = 0, .isa = "sm_90",
	  .memory_nominal = GB(141), .memory_reported = -1, .memory_gbps = 4800,
	  .link = GPU_LINK_NVLINK_BRIDGE, .link_gen = 4, .link_gbps = 450,
	  .peak = { .fp64 = 60, .fp32 = 60, .tf32 = 417.5, .bf16 = 835.5, .fp16 = 835.5,
		    .fp8 = 1670.5, .fp4 = NA, .int8 = 1670.5 } },
	/* source: NVIDIA GH200 Grace Hopper Superchip datasheet (96GB HBM3 column),
	 * https://resources.nvidia.com/en-us-grace-cpu/grace-hopper-superchip;
	 * "480GB" in the name is the Grace CPU's LPDDR5X */
	{ .name = "GH200 96GB", .spellings = NAMES("NVIDIA GH200 480GB"), .family = "GH200",
	  .vendor = "NVIDIA", .arch = "Hopper", .cc_major = 9, .cc_minor = 0, .isa = "sm_90",
	  .memory_nominal = GB(96), .memory_reported = -1, .memory_gbps = 4000,
	  .link = GPU_LINK_NVLINK, .link_gen = 4, .link_gbps = 450,
	  .peak = { .fp64 = 67, .fp32 = 67, .tf32 = 494.5, .bf16 = 989.5, .fp16 = 989.5,
		    .fp8 = 1979, .fp4 = NA, .int8 = 1979 } },
	/* source: NVIDIA GH200 Grace Hopper Superchip datasheet (144GB HBM3e column), as above */
	{ .name = "GH200 144GB", .spellings = NAMES("NVIDIA GH200 144G HBM3e"), .family = "GH200",
	  .vendor = "NVIDIA", .arch = "Hopper", .cc_major = 9, .cc_minor = 0, .isa = "sm_90",
	  .memory_nominal = GB(144), .memory_reported = -1, .memory_gbps = 4900,
	  .link = GPU_LINK_NVLINK, .link_gen = 4, .link_gbps = 450,
	  .peak = { .fp64 = 67, .fp32 = 67, .tf32 = 494.5, .bf16 = 989.5, .fp16 = 989.5,
		    .fp8 = 1979, .fp4 = NA, .int8 = 1979 } },
	/* source: NVIDIA DGX B200 / HGX B200 datasheet, https://www.nvidia.com/en-us/data-center/hgx/
	 * (8 GPUs: 1,440 GB, FP4 144 PF*, FP8 72 PF*, BF16 36 PF*, TF32 18 PF*, INT8 72 POPS*,
	 * FP32 600 TF, FP64 296 TF; per GPU here); 180 GB is the usable figure NVIDIA
	 * quotes, the die carries 192 GB; memory_reported: totalGlobalMem of a B200
	 * Kineto trace (TraceLens tests/traces/b200) */
	{ .name = "B200", .spellings = NAMES("NVIDIA B200"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Blackwell", .cc_major = 10, .cc_minor = 0, .isa = "sm_100",
	  .memory_nominal = GB(180), .memory_reported = 191503138816, .memory_gbps = 8000,
	  .link = GPU_LINK_NVLINK, .link_gen = 5, .link_gbps = 900,
	  .peak = { .fp64 = 37, .fp32 = 75, .tf32 = 1125, .bf16 = 2250, .fp16 = 2250, .fp8 = 4500,
		    .fp4 = 9000, .int8 = 4500 } },
	/* source: NVIDIA GB200 NVL72 datasheet, https://www.nvidia.com/en-us/data-center/gb200-nvl72/
	 * (72 GPUs, 13.4 TB HBM3e: 186 GB each), per-GPU dense rates at 1,200 W as tabled in
	 * https://glennklockwood.com/garden/processors/B200 */
	{ .name = "GB200", .spellings = NAMES("NVIDIA GB200"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Blackwell", .cc_major = 10, .cc_minor = 0, .isa = "sm_100",
	  .memory_nominal = GB(186), .memory_reported = -1, .memory_gbps = 8000,
	  .link = GPU_LINK_NVLINK, .link_gen = 5, .link_gbps = 900,
	  .peak = { .fp64 = 45, .fp32 = 90, .tf32 = 1250, .bf16 = 2500, .fp16 = 2500, .fp8 = 5000,
		    .fp4 = 10000, .int8 = 5000 } },
	/* source: NVIDIA HGX B300 datasheet, https://www.nvidia.com/en-us/data-center/hgx/
	 * (8 GPUs: 2.3 TB, FP4 108 PF dense, FP8 72 PF*, BF16 36 PF*, TF32 18 PF*,
	 * FP32 600 TF, FP64 10 TF; per GPU here); INT8 is cut on Blackwell Ultra and its
	 * dense figure is not published */
	{ .name = "B300", .spellings = NAMES("NVIDIA B300 SXM6 AC", "NVIDIA B300"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Blackwell Ultra", .cc_major = 10, .cc_minor = 3,
	  .isa = "sm_103", .memory_nominal = GB(288), .memory_reported = -1, .memory_gbps = 8000,
	  .link = GPU_LINK_NVLINK, .link_gen = 5, .link_gbps = 900,
	  .peak = { .fp64 = 1.25, .fp32 = 75, .tf32 = 1125, .bf16 = 2250, .fp16 = 2250,
		    .fp8 = 4500, .fp4 = 13500, .int8 = NA } },
	/* source: NVIDIA Ada Lovelace GPU architecture whitepaper (GeForce RTX 4090 column),
	 * https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf */
	{ .name = "RTX 4090", .spellings = NAMES("NVIDIA GeForce RTX 4090"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Ada Lovelace", .cc_major = 8, .cc_minor = 9, .isa = "sm_89",
	  .memory_nominal = GB(24), .memory_reported = -1, .memory_gbps = 1008,
	  .link = GPU_LINK_PCIE, .link_gen = 4, .link_gbps = 32,
	  .peak = { .fp64 = NA, .fp32 = 82.6, .tf32 = 82.6, .bf16 = 165.2, .fp16 = 165.2,
		    .fp8 = 330.3, .fp4 = NA, .int8 = 660.6 } },
	/* source: NVIDIA RTX Blackwell GPU architecture whitepaper (GeForce RTX 5090 column),
	 * https://images.nvidia.com/aem-dam/Solutions/geforce/blackwell/nvidia-rtx-blackwell-gpu-architecture.pdf */
	{ .name = "RTX 5090", .spellings = NAMES("NVIDIA GeForce RTX 5090"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Blackwell", .cc_major = 12, .cc_minor = 0, .isa = "sm_120",
	  .memory_nominal = GB(32), .memory_reported = -1, .memory_gbps = 1792,
	  .link = GPU_LINK_PCIE, .link_gen = 5, .link_gbps = 64,
	  .peak = { .fp64 = NA, .fp32 = 104.8, .tf32 = 104.8, .bf16 = 209.5, .fp16 = 209.5,
		    .fp8 = 419, .fp4 = 1676, .int8 = 838 } },
	/* source: NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet,
	 * https://www.nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-edition/
	 * (96 GB GDDR7, 1,792 GB/s, PCIe Gen5); its per-dtype rates are not printed
	 * for the server card, so they stay unknown */
	{ .name = "RTX PRO 6000 Blackwell Server",
	  .spellings = NAMES("NVIDIA RTX PRO 6000 Blackwell Server Edition"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Blackwell", .cc_major = 12, .cc_minor = 0, .isa = "sm_120",
	  .memory_nominal = GB(96), .memory_reported = -1, .memory_gbps = 1792,
	  .link = GPU_LINK_PCIE, .link_gen = 5, .link_gbps = 64,
	  .peak = { .fp64 = NA, .fp32 = NA, .tf32 = NA, .bf16 = NA, .fp16 = NA, .fp8 = NA,
		    .fp4 = NA, .int8 = NA } },
	/* source: NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet,
	 * https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/
	 * (125 TFLOPS FP32, 4,000 AI TOPS = FP4 with sparsity); memory_reported: nvidia-smi
	 * 97887 MiB in a public hardware snapshot */
	{ .name = "RTX PRO 6000 Blackwell Workstation",
	  .spellings = NAMES("NVIDIA RTX PRO 6000 Blackwell Workstation Edition"), .family = NULL,
	  .vendor = "NVIDIA", .arch = "Blackwell", .cc_major = 12, .cc_minor = 0, .isa = "sm_120",
	  .memory_nominal = GB(96), .memory_reported = MIB(97887), .memory_gbps = 1792,
	  .link = GPU_LINK_PCIE, .link_gen = 5, .link_gbps = 64,
	  .peak = { .fp64 = NA, .fp32 = 125, .tf32 = NA, .bf16 = NA, .fp16 = NA, .fp8 = NA,
		    .fp4 = 2000, .int8 = NA } },
	/* source: AMD Instinct MI250X data sheet, https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html
	 * (per package: 128 GB HBM2e, 3.2 TB/s, FP64/FP32 matrix 95.7 TF, FP16/BF16 383 TF,
	 * INT8 383 TOPS, 8 Infinity Fabric links). A package is two GCDs, each its own
	 * device with half of every figure: this row is one GCD; link_gbps is the 4 links
	 * to the other GCD of the package, one direction */
	{ .name = "MI250X", .spellings = NAMES("AMD Instinct MI250X"), .family = NULL,
	  .vendor = "AMD", .arch = "CDNA 2", .cc_major = 9, .cc_minor = 0, .isa = "gfx90a",
	  .memory_nominal = GB(64), .memory_reported = -1, .memory_gbps = 1600,
	  .link = GPU_LINK_XGMI, .link_gen = 3, .link_gbps = 200,
	  .peak = { .fp64 = 47.85, .fp32 = 47.85, .tf32 = NA, .bf16 = 191.5, .fp16 = 191.5,
		    .fp8 = NA, .fp4 = NA, .int8 = 191.5 } },
	/* source: AMD Instinct MI300X data sheet, https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html
	 * (7 Infinity Fabric links of 128 GB/s: 896 GB/s, 448 each way; the 8 GPUs of a
	 * platform are a fully connected mesh, so one peer gets one link: 64 GB/s each way);
	 * memory_reported: rocm-smi's "VRAM Total Memory (B)", which is also the trace's
	 * totalGlobalMem */
	{ .name = "MI300X", .spellings = NAMES("AMD Instinct MI300X", "AMD Instinct MI300X OAM",
						 "AMD Instinct MI300X VF"),
	  .family = NULL, .vendor = "AMD", .arch = "CDNA 3", .cc_major = 9, .cc_minor = 4,
	  .isa = "gfx942", .memory_nominal = GB(192), .memory_reported = 205822885888,
	  .memory_gbps = 5300, .link = GPU_LINK_XGMI, .link_gen = 4, .link_gbps = 448,
	  .mesh_links = 7, .mesh_link_gbps = 64,
	  .peak = { .fp64 = 163.4, .fp32 = 163.4, .tf32 = 653.7, .bf16 = 1307.4, .fp16 = 1307.4,
		    .fp8 = 2614.9, .fp4 = NA, .int8 = 2614.9 } },
	/* source: AMD Instinct MI325X data sheet, https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html
	 * (7 Infinity Fabric links of 128 GB/s: 896 GB/s, 448 each way; a fully connected
	 * mesh of 8, one link to each peer) */
	{ .name = "MI325X", .spellings = NAMES("AMD Instinct MI325X", "AMD Instinct MI325X OAM"),
	  .family = NULL, .vendor = "AMD", .arch = "CDNA 3", .cc_major = 9, .cc_minor = 4,
	  .isa = "gfx942", .memory_nominal = GB(256), .memory_reported = -1, .memory_gbps = 6000,
	  .link = GPU_LINK_XGMI, .link_gen = 4, .link_gbps = 448, .mesh_links = 7, .mesh_link_gbps = 64,
	  .peak = { .fp64 = 163.4, .fp32 = 163.4, .tf32 = 653.7, .bf16 = 1307.4, .fp16 = 1307.4,
		    .fp8 = 2614.9, .fp4 = NA, .int8 = 2614.9 } },
	/* source: AMD Instinct MI355X data sheet, https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html
	 * (7 links of 153.6 GB/s: 1,075 GB/s, 537.6 each way; a fully connected mesh of 8,
	 * one link of 76.8 GB/s each way to each peer); CDNA 4 has no TF32 rate */
	{ .name = "MI355X", .spellings = NAMES("AMD Instinct MI355X", "AMD Instinct MI355X OAM"),
	  .family = NULL, .vendor = "AMD", .arch = "CDNA 4", .cc_major = 9, .cc_minor = 5,
	  .isa = "gfx950", .memory_nominal = GB(288), .memory_reported = -1, .memory_gbps = 8000,
	  .link = GPU_LINK_XGMI, .link_gen = 4, .link_gbps = 537.6, .mesh_links = 7,
	  .mesh_link_gbps = 76.8,
	  .peak = { .fp64 = 78.6, .fp32 = 157.3, .tf32 = NA, .bf16 = 2516.6, .fp16 = 2516.6,
		    .fp8 = 5033.2, .fp4 = 10066.3, .int8 = 5033.2 } },
};

#define NMODELS (sizeof(models) / sizeof(models[0]))

const struct gpu_model *gpu_models(size_t *n)
{
	*n = NMODELS;
	return models;
}

/* Skips leading spaces and the vendor words a tool may or may not print. */
static const char *skip_vendor(const char *s)
{
	static const char *const vendors[] = { "NVIDIA ", "Tesla ", "AMD " };
	bool again = true;

	while (again) {
		again = false;
		while (isspace((unsigned char)*s))
			s++;
		for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++) {
			size_t n = strlen(vendors[i]);

			if (!strncasecmp(s, vendors[i], n)) {
				s += n;
				again = true;
			}
		}
	}
	return s;
}

/*
 * Compares a name with a spelling, ignoring case, vendor words and how many
 * spaces separate words. With `prefix`, a spelling that starts with the
 * name counts (nvidia-smi's cut names). True when they match.
 */
static bool same_name(const char *name, const char *spelling, bool prefix)
{
	const char *a = skip_vendor(name), *b = skip_vendor(spelling);

	for (;;) {
		bool sa = isspace((unsigned char)*a), sb = isspace((unsigned char)*b);

		while (isspace((unsigned char)*a))
			a++;
		while (isspace((unsigned char)*b))
			b++;
		if (!*a)
			return !*b || prefix;
		if (!*b || sa != sb || tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		a++;
		b++;
	}
}

/* A name nvidia-smi cut short: its length without the trailing "...", or 0. */
static size_t cut_length(const char *name)
{
	size_t n = strlen(name);

	while (n && isspace((unsigned char)name[n - 1]))
		n--;
	if (n > 3 && !strncmp(name + n - 3, "...", 3))
		return n - 3;
	if (n > 3 && !strncmp(name + n - 3, "\u2026", 3))	/* one UTF-8 ellipsis */
		return n - 3;
	return 0;
}

static bool is_spelled(const struct gpu_model *m, const char *name, bool prefix)
{
	if (!prefix && same_name(name, m->name, false))
		return true;
	for (const char *const *s = m->spellings; *s; s++)
		if (same_name(name, *s, prefix))
			return true;
	return false;
}

/* The one row a name or cut name spells, or NULL (none, or more than one). */
static const struct gpu_model *by_spelling(const char *name)
{
	char cut[128];
	size_t n = cut_length(name);
	const struct gpu_model *hit = NULL;

	if (n >= sizeof(cut))
		return NULL;
	if (n) {
		memcpy(cut, name, n);
		cut[n] = '\0';
		name = cut;
	}
	for (size_t i = 0; i < NMODELS; i++) {
		if (!is_spelled(&models[i], name, n > 0))
			continue;
		if (hit)
			return NULL;
		hit = &models[i];
	}
	return hit;
}

/* Whether a name's last word is `family` ("NVIDIA H100" ends with "H100"). */
static bool ends_with_family(const char *name, const char *family)
{
	size_t n = strlen(name), f = strlen(family);

	while (n && isspace((unsigned char)name[n - 1]))
		n--;
	if (n < f || strncasecmp(name + n - f, family, f))
		return false;
	return n == f || isspace((unsigned char)name[n - f - 1]);
}

static bool memory_fits(const struct gpu_model *m, int64_t bytes)
{
	double r = (double)bytes / (double)m->memory_nominal;

	return r >= 0.95 && r <= 1.12;
}

const struct gpu_model *gpu_lookup(const char *name, int64_t memory_bytes)
{
	const struct gpu_model *hit;

	if (!name || !*name)
		return NULL;
	hit = by_spelling(name);
	if (hit)
		return hit;
	for (size_t i = 0; i < NMODELS; i++) {
		const struct gpu_model *m = &models[i];

		if (!m->family || !ends_with_family(name, m->family))
			continue;
		if (memory_bytes >= 0 && !memory_fits(m, memory_bytes))
			continue;
		if (hit)
			return NULL;
		hit = m;
	}
	return hit;
}

double gpu_peak_tflops(const struct gpu_model *m, enum dtype t)
{
	switch (t) {
	case DT_FP64: return m->peak.fp64;
	case DT_FP32: return m->peak.fp32;
	case DT_TF32: return m->peak.tf32;
	case DT_BF16: return m->peak.bf16;
	case DT_FP16: return m->peak.fp16;
	case DT_FP8: case DT_FP8_E4M3: case DT_FP8_E5M2: return m->peak.fp8;
	case DT_FP4: return m->peak.fp4;
	case DT_INT8: return m->peak.int8;
	default: return NAN;
	}
}

int64_t gpu_capacity_bytes(const struct gpu_model *m, int64_t reported)
{
	if (reported >= 0)
		return reported;
	if (!m)
		return -1;
	return m->memory_reported > 0 ? m->memory_reported : m->memory_nominal;
}

const char *gpu_capacity_text(char *out, size_t n, const struct gpu_model *m, int64_t reported)
{
	char rep[48] = "";

	if (reported < 0 && m && m->memory_reported > 0)
		reported = m->memory_reported;
	if (reported >= 0)
		snprintf(rep, sizeof(rep), "%.1f GB / %.1f GiB reported", reported / 1e9,
			 reported / 1073741824.0);
	if (m && *rep)
		snprintf(out, n, "%.0f GB nominal (%s)", m->memory_nominal / 1e9, rep);
	else if (m)
		snprintf(out, n, "%.0f GB nominal", m->memory_nominal / 1e9);
	else
		snprintf(out, n, "%s", *rep ? rep : "unknown");
	return out;
}

double gpu_link_gbps_for(const struct gpu_model *m, int gpus)
{
	int links = gpus - 1;

	if (m->mesh_links <= 0 || gpus < 2)
		return m->link_gbps;
	if (links > m->mesh_links)
		links = m->mesh_links;
	return links * m->mesh_link_gbps;
}

const char *gpu_link_name(enum gpu_link l)
{
	static const char *const names[] = {
		[GPU_LINK_PCIE] = "PCIe", [GPU_LINK_NVLINK] = "NVLink",
		[GPU_LINK_NVLINK_BRIDGE] = "NVLink bridge", [GPU_LINK_XGMI] = "Infinity Fabric",
	};

	return (unsigned)l < sizeof(names) / sizeof(names[0]) ? names[l] : "unknown";
}
