#include "samples/gen/scenario.h"

#include <string.h>

/* Capacities as real traces report them (deviceProperties' totalGlobalMem, as the driver reports it). */
const struct gpu_spec gpu_specs[GPU_COUNT] = {
	[GPU_B200] = { "NVIDIA B200", 191503138816LL, 10, 0, 148, 32, 232448, 100, 1000, 578, 1000 },
	[GPU_H200] = { "NVIDIA H200", 150754820096LL, 9, 0, 132, 32, 232448, 90, 2100, 524, 700 },
	[GPU_H100] = { "NVIDIA H100 80GB HBM3", 85029158912LL, 9, 0, 132, 32, 232448, 90, 2200, 524, 700 },
	[GPU_H100_PCIE] = { "NVIDIA H100 PCIe", 85029158912LL, 9, 0, 114, 32, 232448, 90, 2800, 524, 350 },
	[GPU_MI300X] = { "AMD Instinct MI300X", 205822885888LL, 9, 4, 304, 64, 65536, 90, 1900, 0, 750 },
};

#define SINGLE(gpu_, prec_, mb_, params_, stat_, act_)				\
	{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = (prec_),	\
	  .global_batch = (mb_), .micro_batch = (mb_), .grad_accum = 1,		\
	  .seq_len = 2048, .gpu = (gpu_), .comm = COMM_NONE, .tr = TR_NONE,	\
	  .params_m = (params_), .layers = 3, .steps = 10, .warm_steps = 2,	\
	  .stall_us = 1500, .slow_permille = { 1000, 1000 },			\
	  .static_mib = { (stat_), 0 }, .act_mib = { (act_), 0 } }

#define DDP_B200(slow1_, steps_)							\
	{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,		\
	  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,	\
	  .gpu = GPU_B200, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 650,	\
	  .params_m = 1200, .layers = 3, .steps = (steps_), .warm_steps = 1,	\
	  .stall_us = 1500, .slow_permille = { 1000, (slow1_) },			\
	  .static_mib = { 23000, 23000 }, .act_mib = { 4500, 4500 } }

const struct scenario scenarios[] = {
	{
		.name = "ddp-scales-well",
		.desc = "B200 bf16 DDP, global batch kept: buckets overlap the backward, step-time confirmed",
		.title = "Llama-1B fine-tune: does a second B200 cut the step time at least 1.6x?",
		.hypothesis = "step-time", .question = "single-config", .expected_centi = 160,
		.seed = 0x5ca1ea0d01, .epoch_s = 1764424800,
		.runs = {
			SINGLE(GPU_B200, DT_BF16, 16, 1200, 18400, 9000),
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 650,
			  .params_m = 1200, .layers = 3, .steps = 10, .warm_steps = 2,
			  .stall_us = 1500, .slow_permille = { 1000, 1012 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 4500, 4500 } },
		},
	},
	{
		.name = "ddp-precision-changed",
		.desc = "as ddp-scales-well, but the 2-GPU run lost autocast: declared bf16, ran tf32; blocking confound",
		.title = "Llama-1B fine-tune: second B200 (precision slipped to tf32)",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d02, .epoch_s = 1764428400,
		.runs = {
			SINGLE(GPU_B200, DT_BF16, 16, 1200, 18400, 9000),
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_TF32, .declared = "bf16",
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 650,
			  .params_m = 1200, .layers = 3, .steps = 10, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1008 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 8200, 8200 } },
		},
	},
	{
		.name = "ddp-global-batch-changed",
		.desc = "B200 bf16 DDP that kept the micro batch, so the global batch doubled under step-time",
		.title = "Llama-1B fine-tune: second B200, same per-GPU batch",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d03, .epoch_s = 1764432000,
		.runs = {
			SINGLE(GPU_B200, DT_BF16, 8, 1200, 18400, 4500),
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 650,
			  .params_m = 1200, .layers = 3, .steps = 10, .warm_steps = 2,
			  .stall_us = 1500, .slow_permille = { 1010, 1000 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 4500, 4500 } },
		},
	},
	{
		.name = "pipeline-oom-feasibility",
		.desc = "H100: 1 GPU dies of CUDA OOM; a 2-stage pipeline fits, GPU 0 near full, GPU 1 nearly empty",
		.title = "Mistral-7B LoRA-free fine-tune: does it fit on two H100s?",
		.hypothesis = "feasibility", .question = "single-config", .reserve_gb = 8,
		.seed = 0x5ca1ea0d04, .epoch_s = 1764435600,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 8, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 3600, .layers = 4, .steps = 10, .warm_steps = 1,
			  .slow_permille = { 1000, 1000 },
			  .static_mib = { 58000, 0 }, .act_mib = { 5600, 0 }, .oom = 1 },
			{ .dir = "2gpu", .gpus = 2, .strategy = "pipeline", .prec = DT_BF16,
			  .global_batch = 8, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100, .comm = COMM_PIPE, .tr = TR_P2P, .link_gbps = 150,
			  .params_m = 3600, .layers = 4, .stage0_layers = 3, .steps = 10,
			  .warm_steps = 2, .stall_us = 800, .slow_permille = { 1000, 1000 },
			  .static_mib = { 52000, 6000 }, .act_mib = { 5600, 1500 } },
		},
	},
	{
		.name = "nccl-over-sockets",
		.desc = "B200 DDP, P2P and SHM disabled: gradients go over NET/Socket; 150 GB job fits one MI300X",
		.title = "Llama-1B fine-tune: second B200 in a locked-down container",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d05, .epoch_s = 1764439200,
		.runs = {
			SINGLE(GPU_B200, DT_BF16, 16, 1200, 18400, 42000),
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_DDP, .tr = TR_SOCKET, .link_gbps = 9,
			  .params_m = 1200, .layers = 3, .steps = 10, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1005 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 21000, 21000 } },
		},
	},
	{
		.name = "fsdp-allgather",
		.desc = "H200 bf16 FSDP: per-block AllGather and ReduceScatter prefetched around the compute",
		.title = "Llama-3B fine-tune: FSDP across two H200s",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d06, .epoch_s = 1764442800,
		.runs = {
			SINGLE(GPU_H200, DT_BF16, 16, 3000, 46000, 14000),
			{ .dir = "2gpu", .gpus = 2, .strategy = "fsdp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H200, .comm = COMM_FSDP, .tr = TR_P2P, .link_gbps = 380,
			  .params_m = 3000, .layers = 3, .steps = 10, .warm_steps = 2,
			  .stall_us = 1500, .slow_permille = { 1000, 1010 },
			  .static_mib = { 24000, 24000 }, .act_mib = { 7000, 7000 } },
		},
	},
	{
		.name = "hparam-sweep-independent",
		.desc = "H100 PCIe DDP for a sweep, 6 ms data-loader stalls: efficiency under 0.8, run two 1-GPU jobs",
		.title = "Sweep of learning rates: one 2-GPU run or two 1-GPU runs?",
		.hypothesis = "step-time", .question = "hparam-sweep",
		.seed = 0x5ca1ea0d07, .epoch_s = 1764446400,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100_PCIE, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 10, .warm_steps = 2,
			  .stall_us = 6000, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 9000, 0 } },
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100_PCIE, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 60,
			  .params_m = 1200, .layers = 3, .steps = 10, .warm_steps = 1,
			  .stall_us = 6000, .slow_permille = { 1000, 1015 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 4500, 4500 } },
		},
	},
	{
		.name = "clock-offset",
		.desc = "H200 DDP whose rank 1 clock runs 37 ms ahead and has another baseTimeNanoseconds",
		.title = "Llama-1B fine-tune on two H200s (unsynchronised clocks)",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d08, .epoch_s = 1764450000,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H200, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 10, .first_step = 20,
			  .warm_steps = 1, .stall_us = 1500, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 9000, 0 } },
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H200, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 380,
			  .params_m = 1200, .layers = 3, .steps = 10, .first_step = 20,
			  .warm_steps = 1, .stall_us = 1500, .slow_permille = { 1000, 1006 },
			  .clock_offset_us = { 0, 37000 }, .base_shift_s = { 0, -7889238 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 4500, 4500 } },
		},
	},
	{
		.name = "gpu-bound-lag",
		.desc = "B200 DDP with no per-step sync: step N's kernels run after ProfilerStep#N's CPU range",
		.title = "Llama-1B fine-tune: second B200, CPU runs two steps ahead",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d09, .epoch_s = 1764453600,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 10, .first_step = 3,
			  .warm_steps = 1, .stall_us = 300, .sync_lag = 2,
			  .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 9000, 0 } },
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 650,
			  .params_m = 1200, .layers = 3, .steps = 10, .first_step = 3,
			  .warm_steps = 1, .stall_us = 300, .sync_lag = 2,
			  .slow_permille = { 1000, 1010 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 4500, 4500 } },
		},
	},
	{
		.name = "gpu-model-mismatch",
		.desc = "1-GPU baseline on an H100 against two B200s: the GPU models differ, a blocking confound",
		.title = "Llama-1B fine-tune: two B200s against the H100 we have",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d0a, .epoch_s = 1764457200,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 6, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 9000, 0 } },
			DDP_B200(1007, 6),
		},
	},
	{
		.name = "unknown-precision",
		.desc = "torch.compile'd 2-GPU run: Inductor kernel names, no shapes, no declared precision: precision unverified",
		.title = "Llama-1B fine-tune: second B200, model torch.compile'd",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d0b, .epoch_s = 1764460800,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16, .undeclared = 1,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 6, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 9000, 0 } },
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16, .undeclared = 1, .opaque = 1,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 650,
			  .params_m = 1200, .layers = 3, .steps = 6, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1004 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 4500, 4500 } },
		},
	},
	{
		.name = "short-capture",
		.desc = "schedule(active=4) on both runs: step 0 warm-up, step 3 trailing, 2 steady steps: steps warning",
		.title = "Llama-1B fine-tune: second B200, a short profile",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d0c, .epoch_s = 1764464400,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 4, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 9000, 0 } },
			DDP_B200(1009, 4),
		},
	},
	{
		.name = "expected-speedup-missed",
		.desc = "B200 DDP at 1.7x where trial.ini expects 1.9x: refuted; a target and a price give each option's window and cost",
		.title = "Llama-1B fine-tune: does a second B200 halve the step time (1.9x or better)?",
		.hypothesis = "step-time", .question = "single-config", .expected_centi = 190,
		.target_samples = 90000000, .price_centi = 550,
		.seed = 0x5ca1ea0d0d, .epoch_s = 1764468000,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_B200, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 6, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 9000, 0 } },
			DDP_B200(1011, 6),
		},
	},
	{
		.name = "hparam-sweep-distributed",
		.desc = "H100 sweep: one GPU needs activation checkpointing to fit, two do not: superlinear, answer distributed",
		.title = "Sweep of learning rates on H100s: one 2-GPU run or two 1-GPU runs?",
		.hypothesis = "step-time", .question = "hparam-sweep",
		.seed = 0x5ca1ea0d0e, .epoch_s = 1764471600,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 16, .grad_accum = 1, .recompute = 1, .seq_len = 2048,
			  .gpu = GPU_H100, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 3, .steps = 6, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 21000, 0 } },
			{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .prec = DT_BF16,
			  .global_batch = 16, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100, .comm = COMM_DDP, .tr = TR_P2P, .link_gbps = 360,
			  .params_m = 1200, .layers = 3, .steps = 7, .warm_steps = 1,
			  .stall_us = 1500, .slow_permille = { 1000, 1006 },
			  .static_mib = { 23000, 23000 }, .act_mib = { 10500, 10500 } },
		},
	},
	{
		.name = "pipeline-bubble",
		.desc = "H100 2-stage pipeline without micro-batches: each stage waits in SendRecv for the other (wait, not transfer)",
		.title = "Llama-1B fine-tune: split across two H100s as a pipeline",
		.hypothesis = "step-time", .question = "single-config",
		.seed = 0x5ca1ea0d0f, .epoch_s = 1764475200,
		.runs = {
			{ .dir = "1gpu", .gpus = 1, .strategy = "single", .prec = DT_BF16,
			  .global_batch = 8, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100, .comm = COMM_NONE, .tr = TR_NONE,
			  .params_m = 1200, .layers = 4, .steps = 7, .warm_steps = 1,
			  .stall_us = 800, .slow_permille = { 1000, 1000 },
			  .static_mib = { 18400, 0 }, .act_mib = { 4500, 0 } },
			{ .dir = "2gpu", .gpus = 2, .strategy = "pipeline", .prec = DT_BF16,
			  .global_batch = 8, .micro_batch = 8, .grad_accum = 1, .seq_len = 2048,
			  .gpu = GPU_H100, .comm = COMM_PIPE, .tr = TR_P2P, .link_gbps = 150,
			  .params_m = 1200, .layers = 4, .stage0_layers = 2, .steps = 7,
			  .warm_steps = 2, .stall_us = 800, .slow_permille = { 1000, 1000 },
			  .static_mib = { 10000, 8400 }, .act_mib = { 4500, 4500 } },
		},
	},
};

const int nscenarios = (int)(sizeof(scenarios) / sizeof(scenarios[0]));

const struct scenario *scenario_find(const char *name)
{
	for (int i = 0; i < nscenarios; i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	return NULL;
}
