#include "core/manifest_keys.h"

#include <string.h>

#include "core/model.h"

#define T(f) offsetof(struct trial, f)
#define R(f) offsetof(struct run_facts, f)

#define WHOLE "a whole number"
#define FROM_LOGS "what the logs show"

const char *const manifest_strategies[] = {
	"single", "ddp", "fsdp", "zero", "tensor", "pipeline", "alltoall", "device_map", NULL
};

bool manifest_strategy_valid(const char *v)
{
	for (const char *p = v; p;) {
		size_t len = strcspn(p, "+"), i;

		for (i = 0; manifest_strategies[i]; i++)
			if (strlen(manifest_strategies[i]) == len && !strncmp(p, manifest_strategies[i], len))
				break;
		if (!manifest_strategies[i])
			return false;
		p = p[len] == '+' ? p + len + 1 : NULL;
	}
	return v != NULL;
}

bool manifest_currency_valid(const char *v)
{
	size_t chars = 0;

	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p <= ' ' || *p == 0x7f)
			return false;
		chars += (*p & 0xc0) != 0x80;	/* a UTF-8 continuation byte is no new character */
	}
	return chars >= 1 && chars <= 8;
}

static const struct manifest_key keys[] = {
	{ "trial", "title", MKEY_STR, T(title),
	  "the trial's question in one line, shown at the top of the report", "any text", "none" },
	{ "trial", "hypothesis", MKEY_HYP, 0,
	  "what the second GPU should buy: a shorter step at the same global batch (step-time), "
	  "a larger global batch per step (global-batch), or a run one GPU cannot hold (feasibility)",
	  "step-time, global-batch or feasibility", "none: the report gives no verdict" },
	{ "trial", "baseline", MKEY_STR, T(baseline),
	  "the run the others are compared with", "the name of a run's directory",
	  "the run with the fewest GPUs (the first in name order among runs with as many)" },
	{ "trial", "question", MKEY_QUESTION, 0,
	  "what the GPUs are for: one training configuration, or many independent runs "
	  "(a hyperparameter sweep), where n independent runs of the baseline's size may beat "
	  "one run on n times the GPUs",
	  "single-config or hparam-sweep", "single-config" },
	{ "trial", "target_samples", MKEY_INT, T(target_samples),
	  "samples the whole training must process; sets the rental window of each option", WHOLE,
	  "none: GPU-hours per million samples instead" },
	{ "trial", "target_tokens", MKEY_INT, T(target_tokens),
	  "tokens the whole training must process (with seq_len); sets the rental window", WHOLE,
	  "none" },
	{ "trial", "gpu_hour_price", MKEY_NUM, T(gpu_hour_price),
	  "the price of one GPU for one hour, for the cost of each option", "a number from 0 to 1,000,000,000", "none: no cost" },
	{ "trial", "currency", MKEY_CURRENCY, T(currency),
	  "what gpu_hour_price is in, shown with every cost", "a code or a symbol of 1 to 8 characters "
	  "without spaces (USD, EUR, $)", "none: costs in gpu_hour_price's units, unnamed" },
	{ "trial", "memory_reserve_gb", MKEY_NUM, T(memory_reserve_gb),
	  "memory per GPU kept free for the CUDA context, NCCL buffers and fragmentation, in GB "
	  "(1e9 bytes), added to the need before a fit is decided", "a number from 0 to 1,000,000", "0" },
	{ "trial", "expected_speedup", MKEY_RATIO, T(expected_speedup),
	  "the speedup (or throughput ratio) that confirms the hypothesis, written before the rental",
	  "a number above 0, at most 1,000,000", "1.1" },
	{ "trial", "lot_gpus", MKEY_INT, T(lot_gpus),
	  "GPUs in one rented lot (a machine or a reservation as the provider sells it); the decision "
	  "rents whole lots", "a whole number from 1", "2" },
	{ "trial", "margin", MKEY_NUM, T(margin),
	  "room a rental window keeps over the days needed, as a share (0.15: 15% more days than the "
	  "measured throughput needs)", "a number from 0 to 100", "0.15" },
	{ "trial", "variants", MKEY_INT, T(variants),
	  "independent runs the rental must hold (a sweep's configurations), each to the target; "
	  "the decision places them on the lots' GPUs", "a whole number from 1", "1" },
	{ "trial", "mtbf_hours", MKEY_RATIO, T(mtbf_hours),
	  "mean time between failures of the rented machine in hours, interruptions included; sets "
	  "the checkpoint interval of a 30-day window", "a number above 0, at most 1,000,000,000", "24" },
	{ "trial", "checkpoint_write_s", MKEY_RATIO, T(checkpoint_write_s),
	  "seconds one checkpoint takes to write, as planned (plan -o writes its estimate); a write "
	  "time the logs show is used instead", "a number above 0, at most 1,000,000,000", "what the logs show, else none" },
	{ "run", "name", MKEY_NAME, 0,
	  "the run's name in the report", "any text", "the run's directory name" },
	{ "run", "gpus", MKEY_INT, R(gpus),
	  "GPUs the run used; checked against the traces' and the logs' world size", WHOLE, FROM_LOGS },
	{ "run", "strategy", MKEY_STRATEGY, R(strategy),
	  "how the GPUs share the model, one strategy or several joined by + (tensor+ddp); checked "
	  "against the run's collectives",
	  "single, ddp, fsdp, zero, tensor, pipeline, alltoall or device_map", "inferred from the collectives" },
	{ "run", "precision", MKEY_PRECISION, R(precision),
	  "the precision the job trains in; checked against the logs' bf16/fp16 flags and the dtypes of its matmul kernels",
	  "fp32, tf32, bf16, fp16, fp8, fp8-e4m3, fp8-e5m2, fp4, int8 or fp64 (aliases: bfloat16, "
	  "torch.float16, bf16-mixed, amp-bf16, 16-mixed)", "the dtype the kernels show" },
	{ "run", "global_batch", MKEY_INT, R(global_batch),
	  "samples per optimizer step over all GPUs; checked against the logs and against micro_batch x data-parallel GPUs x grad_accum",
	  WHOLE, FROM_LOGS },
	{ "run", "micro_batch", MKEY_INT, R(micro_batch),
	  "samples per GPU per forward pass; checked against the logs", WHOLE, FROM_LOGS },
	{ "run", "grad_accum", MKEY_INT, R(grad_accum),
	  "micro batches accumulated per optimizer step; checked against the logs", WHOLE, FROM_LOGS },
	{ "run", "seq_len", MKEY_INT, R(seq_len),
	  "tokens per sample; checked against the logs", WHOLE, FROM_LOGS },
	{ "run", "dataset", MKEY_STR, R(dataset),
	  "the data the run trains on; checked against the logs; runs that differ are not comparable", "any text",
	  FROM_LOGS ", else unknown: not checked" },
	{ "run", "model", MKEY_STR, R(model),
	  "the model the run trains; checked against the logs; runs that differ are not comparable", "any text",
	  FROM_LOGS ", else unknown: not checked" },
	{ "run", "steps", MKEY_INT, R(steps),
	  "optimizer steps the job is planned to run; checked against the steps the log plans", WHOLE, FROM_LOGS },
	{ "run", "seed", MKEY_INT, R(seed),
	  "the random seed, held the same in every run", WHOLE, "none" },
	{ "run", "predicted_peak_gb", MKEY_NUM, R(predicted_peak_gb),
	  "the peak memory per GPU the plan predicted, in GB (1e9 bytes); compared with the measured "
	  "peak", "a number from 0 to 1,000,000", "none: no comparison" },
	{ "run", "predicted_step_s", MKEY_NUM, R(predicted_step_s),
	  "the step time the plan predicted, in seconds; compared with the measured median",
	  "a number from 0 to 1,000,000,000", "none: no comparison" },
};

const struct manifest_key *manifest_keys(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

const struct manifest_key *manifest_key_find(const char *section, const char *name)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}
