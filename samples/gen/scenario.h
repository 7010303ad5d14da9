/*
 * scenario: the trials the generator can write, as const data. A scenario
 * names a question (trial.ini) and two runs (run.ini plus the knobs of the
 * timing model); gpu_specs[] holds the capacities of the real devices.
 */
#ifndef GEN_SCENARIO_H
#define GEN_SCENARIO_H

#include <stdint.h>

#include "core/model.h"

#define MAX_RANKS 4	/* GPUs of one run */

enum gpu_model { GPU_B200, GPU_H200, GPU_H100, GPU_H100_PCIE, GPU_MI300X, GPU_COUNT };

struct gpu_spec {
	const char *name;	/* CUDA device name, as deviceProperties and nvidia-smi print it */
	int64_t mem;		/* totalGlobalMem, bytes */
	int cc_major, cc_minor;
	int sms;		/* numSms (CUs on AMD) */
	int warp;		/* warpSize */
	int smem_optin;		/* sharedMemPerBlockOptin */
	int arch;		/* 100: sm_100 kernel names, 90: sm_90 names */
	int speed;		/* kernel time in permille of a B200's */
	int ctx_mib;		/* what nvidia-smi shows beyond the allocator (CUDA context) */
	int power_w;		/* power.limit */
};

extern const struct gpu_spec gpu_specs[GPU_COUNT];

enum comm_kind { COMM_NONE, COMM_DDP, COMM_FSDP, COMM_PIPE };
enum model_kind { MODEL_LLM, MODEL_CONVNET };	/* a Llama-like transformer; a ResNet-style conv net */
enum transport { TR_NONE, TR_P2P, TR_SOCKET };

/* One run of a trial: its manifest and the knobs of the timing model. */
struct run_spec {
	const char *dir;	/* "1gpu", "2gpu", "4gpu" */
	int gpus;
	enum model_kind model;
	const char *strategy;	/* run.ini strategy */
	enum dtype prec;	/* what the kernels run in: bf16 or tf32 */
	const char *declared;	/* run.ini precision when it differs from prec; NULL */
	int undeclared;		/* run.ini names no precision */
	int opaque;		/* torch.compile'd: kernel names carry no dtype, record_shapes off */
	int recompute;		/* activation checkpointing: each block's forward runs again in the backward */
	int global_batch, micro_batch, grad_accum, seq_len;	/* what ran; seq_len 0: none (images) */
	int ini_global_batch, ini_micro_batch;	/* run.ini's when it contradicts the log; 0: what ran */
	int no_dataset;		/* run.ini names no dataset */
	int logs_only;		/* no trace: a Megatron-LM log whose iteration lines carry the step time */
	enum gpu_model gpu;
	enum comm_kind comm;
	enum transport tr;
	int64_t link_gbps;	/* bus bandwidth the link sustains, GB/s */
	int params_m;		/* model parameters, millions */
	int layers;		/* simulated blocks or conv stages (each stands for several real ones) */
	int stage0_layers;	/* pipeline: blocks on rank 0 */
	int steps;		/* profiled steps */
	int first_step;		/* N of the first ProfilerStep#N */
	int warm_steps;		/* slow leading steps the model makes (1 or 2) */
	int64_t stall_us;	/* data-loader stall at each step start, µs */
	int64_t side_copy_us;	/* a copy the loader's thread issues this far into the stall, with no launch record; 0 none */
	int64_t hold_us;	/* the loss kernel, queued early, waits this long after its stream is free; 0 none */
	int sync_lag;		/* the CPU waits for the loss of step N - sync_lag */
	int slow_permille[MAX_RANKS];	/* per-rank kernel time factor */
	int64_t clock_offset_us[MAX_RANKS];	/* added to each rank's trace clock */
	int64_t base_shift_s[MAX_RANKS];	/* moves a rank's baseTimeNanoseconds */
	int static_mib[MAX_RANKS];	/* params + grads + optimizer state per rank, MiB */
	int act_mib[MAX_RANKS];	/* activations per block per rank, MiB */
	int oom;		/* the run dies of CUDA OOM before its first step */
};

struct scenario {
	const char *name;	/* kebab-case, the trial directory */
	const char *desc;	/* one line for --list */
	const char *title;	/* trial.ini title */
	const char *hypothesis;	/* step-time|global-batch|feasibility */
	const char *question;	/* single-config|hparam-sweep */
	int reserve_gb;		/* trial.ini memory_reserve_gb; 0 none */
	int expected_centi;	/* trial.ini expected_speedup x 100; 0: not written (1.1) */
	int64_t target_samples;	/* trial.ini target_samples; 0 none */
	int price_centi;	/* trial.ini gpu_hour_price x 100 (USD); 0 none */
	uint64_t seed;
	int64_t epoch_s;	/* when the baseline job started, Unix s */
	struct run_spec runs[2];	/* baseline, candidate */
};

extern const struct scenario scenarios[];
extern const int nscenarios;

const struct scenario *scenario_find(const char *name);	/* NULL if none */

#endif
