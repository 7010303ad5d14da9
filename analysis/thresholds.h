/*
 * thresholds: every number the analysis compares a measurement with, named
 * once. Each says what it decides; docs/analysis.md lists them.
 * GPU facts (capacities, links, peaks) are not here: they are core/gpu's.
 */
#ifndef ANALYSIS_THRESHOLDS_H
#define ANALYSIS_THRESHOLDS_H

/*
 * Warm-up: a leading step is warm-up while its time is more than this share
 * above the median of the second half of the non-trailing steps (0.15: 15%).
 */
#define WARMUP_EXCESS 0.15

/*
 * Steady steps a plain verdict needs on each side (the baseline's are not
 * needed under feasibility) ...
 */
#define MIN_STEADY_STEPS 3
/* ... this many give the verdict with a `steps` warning; fewer block it ... */
#define WARN_STEADY_STEPS 2
/*
 * ... and the confound asks for this many active profiler steps: they leave
 * 3 steady ones after step 0, the trailing step and 2 slow leading steps.
 */
#define PROFILE_ACTIVE_STEPS 7

/* Precision: a dtype is the run's observed precision above this share of matmul-class time. */
#define DOMINANT_DTYPE_SHARE 0.5

/*
 * Imbalance: flagged when the largest GPU peak memory is more than this times
 * the smallest (also what makes an unnamed split look like device_map) ...
 */
#define IMBALANCE_MEMORY_RATIO 2.0
/* ... or when one GPU is above this share of its capacity (saturated) ... */
#define IMBALANCE_MEMORY_HIGH 0.85
/* ... while another is below this share of its own (waiting). */
#define IMBALANCE_MEMORY_LOW 0.25
/* ... or when the busiest GPU computes more than this times the least busy one. */
#define IMBALANCE_BUSY_RATIO 1.25

/*
 * step-time and global-batch verdicts: the speedup (or throughput ratio) must
 * be at least this to confirm, unless trial.ini sets expected_speedup (the
 * threshold written before the rental).
 */
#define EXPECTED_SPEEDUP_DEFAULT 1.1

/*
 * Advice: below this scaling efficiency by samples per second (throughput
 * ratio / n), n independent runs are advised instead of one n-GPU run.
 */
#define ADVICE_MIN_EFFICIENCY 0.8

/*
 * Imbalance and advice: a GPU whose exposed waiting for a slower peer is
 * above this share of its mean step is imbalance (run_imbalance), which
 * advises rebalancing the split.
 */
#define ADVICE_PEER_WAIT_SHARE 0.25

/*
 * Host-bound advice for a whole run: idle is the largest term of the loss
 * against perfect scaling and host wait (n Hc - Hb, the slowest GPUs') is
 * above this share of it, as page 1's Why line names it.
 */
#define ADVICE_HOST_IDLE_SHARE 0.5

/*
 * Pipeline-bubble advice: the micro-batches per stage it names as the next
 * step, and the bubble fraction (p-1)/(m+p-1) they would leave.
 */
#define BUBBLE_MICRO_BATCHES_PER_STAGE 4

/*
 * Stragglers (docs/analysis.md "Strategy and stragglers"): a rank is one
 * when its own waiting for peers is at most STRAGGLER_WAIT_RATIO of the
 * median waiting of the other ranks, while theirs is at least
 * ADVICE_PEER_WAIT_SHARE of their step (or span).
 */
#define STRAGGLER_WAIT_RATIO 0.5

/*
 * Advice: the single GPUs a job is checked to fit on (core/gpu short names),
 * first the smaller: fits when need + memory_reserve_gb <= its capacity by the
 * one rule (gpu_capacity_bytes): what a GPU of that model in the trial
 * reported, else the table's reported figure (H200 150.8 GB), else nominal.
 */
#define FIT_GPU_FIRST "H200"
#define FIT_GPU_SECOND "MI300X"

/*
 * The decision: the rental windows (days) a job's time to its target is
 * fitted in, smallest first; beyond the last, consecutive windows of it ...
 */
#define RENTAL_WINDOWS_DAYS { 3, 7, 30 }
/* ... with this share of the days needed as room (trial.ini `margin`) ... */
#define RENTAL_MARGIN_DEFAULT 0.15
/* ... in lots of this many GPUs (trial.ini `lot_gpus`) ... */
#define RENTAL_LOT_GPUS_DEFAULT 2
/*
 * ... and a window of the longest kind carries a checkpoint interval, from a
 * mean time between failures of the rented machine of this many hours
 * (trial.ini `mtbf_hours`; a rented node's interruptions, preemptions
 * included, not one GPU's).
 */
#define RENTAL_MTBF_HOURS_DEFAULT 24.0
/*
 * ... and stop criteria: stop and re-plan when the throughput stays under
 * this share of the planned rate for this many days, or when less than this
 * share of the target is processed by that share of the window.
 */
#define RENTAL_STOP_RATE_SHARE 0.90
#define RENTAL_STOP_SLOW_DAYS 1
#define RENTAL_STOP_HALF 0.5
/* ... or when the validation loss is no better over this many checkpoints in a row. */
#define STOP_FLAT_CHECKPOINTS 3

/*
 * Readiness: kernels built for another GPU generation are a warning above
 * this share of a run's GPU kernel time, a note below it.
 */
#define FOREIGN_KERNEL_SHARE 0.10

/*
 * Workload identity: two runs are one job only when each has at least this
 * share of its kernel time in kernel families the other run also has; under
 * it on either side the `workload` confound blocks ...
 */
#define WORKLOAD_MIN_OVERLAP 0.5
/*
 * ... unless one run's kernel time is more than this share in Triton-generated
 * kernels (torch.compile) and the other's is not: then the names are no
 * evidence either way, and the runs' model, dataset and sequence length decide.
 */
#define WORKLOAD_GENERATED_SHARE 0.5

/*
 * The plan against the trial: a run's largest measured peak memory per GPU more than this
 * share away from run.ini's predicted_peak_gb is `plan-memory-off` ...
 */
#define PLAN_MEMORY_TOLERANCE 0.15
/* ... and its median step time more than this share away from predicted_step_s `plan-step-off`. */
#define PLAN_STEP_TOLERANCE 0.25

/*
 * Evidence for a verdict: a step time (or throughput) from a trainer's
 * whole-job summary, which holds start-up, evaluation and saving, enters a
 * verdict only over at least this many steps run (then as weak evidence).
 */
#define LOG_SUMMARY_MIN_STEPS 100

/*
 * log-inconsistent: a run's step time x its samples per second may differ
 * from its global batch by at most this share.
 */
#define LOG_CONSISTENCY_TOLERANCE 0.10

/* superlinear: a scaling efficiency above this is implausible until explained ... */
#define SUPERLINEAR_EFFICIENCY 1.05
/* ... baseline-near-capacity: a baseline GPU's peak memory at least this share of its capacity ... */
#define SUPERLINEAR_NEAR_CAPACITY 0.85
/* ... host-bound-baseline: the baseline's slowest GPU idle at least this share of its mean step ... */
#define SUPERLINEAR_HOST_IDLE 0.10
/*
 * ... baseline-saved-memory: a replica candidate (ddp, single) whose per-GPU
 * peak is more than this share above the baseline's: the baseline traded
 * compute for memory (activation checkpointing).
 */
#define SUPERLINEAR_MEMORY_EXCESS 0.05

/* The per-op diff keeps this many rows of each kind (ops, kernels), largest added time first. */
#define DIFF_TOP_ROWS 10

/*
 * op-above-peak: an op whose FLOPs (from its shapes) over its kernel time
 * exceed its GPU's dense peak for its dtype by more than this factor. The
 * peak is the boost clock's: no kernel beats it, so 1 leaves no margin
 * beyond it (sparsity is not read from shapes).
 */
#define OP_ABOVE_PEAK_FACTOR 1.0

/* Per-kernel statistics: the kernel names kept per run, by total time. */
#define KSTATS_TOP 20

/*
 * Launch statistics: a run is host-bound when its top-level CPU ops that
 * launched kernels take more CPU time than this times their kernels' GPU
 * time (the CPU cannot keep the GPU fed), else GPU-bound.
 */
#define LAUNCH_HOST_BOUND_RATIO 1.0

#endif
