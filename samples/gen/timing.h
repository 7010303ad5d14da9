/*
 * timing: the model that turns a run_spec into what its profiler would have
 * recorded: per rank, every GPU activity with its launch on the CPU, the CPU
 * ranges around them (ProfilerStep#N, data loading, optimizer, NCCL calls),
 * and the caching allocator's totals. Times are int64 ns on the true clock
 * (sim time 0 = the first profiled step); a rank's trace clock adds its
 * offset only when written.
 *
 * Ranks run in lockstep over one program per step: a kernel waits for its
 * launch, its stream and the collectives it depends on; a collective starts on
 * each rank when launched, its stream is free and its input is ready, and
 * ends on every rank at the last rank's start plus the transfer time, so the
 * rank that arrives first waits inside its NCCL kernel.
 */
#ifndef GEN_TIMING_H
#define GEN_TIMING_H

#include <stdint.h>

#include "samples/gen/kernels.h"
#include "samples/gen/scenario.h"

#define STREAM_COMPUTE 7
#define STREAM_NCCL 28
#define STREAM_SIDE 13	/* the data loader's pin-memory thread */

/* One GPU activity and the CPU op that launched it. */
struct sim_ev {
	int64_t cpu_start, cpu_end;	/* the launching cpu_op, ns */
	int64_t launch, launch_end;	/* the runtime call inside it */
	int64_t start, end;		/* on the GPU */
	int64_t xfer;			/* collective: when it started transferring (the latest rank's start) */
	int64_t ext;			/* External id */
	int64_t corr;			/* correlation id */
	int64_t bytes;			/* memcpy/memset bytes; collective bytes (max of in/out) */
	int64_t nel_in, nel_out;	/* collective elements */
	int step;			/* index of the step that launched it */
	int kind;			/* enum kkind */
	int dt;				/* dtype of its data (enum dtype) */
	int coll;			/* enum coll_op for K_COMM */
	int send;			/* SendRecv: 1 send, 0 recv */
	int stream;
	int unlinked;			/* issued where the trace records no launch: no cpu_op, runtime call or flow */
};

/* A CPU range: ProfilerStep#N, the data loader, the optimizer, a sync. */
struct sim_span {
	int64_t start, end;
	const char *name;
	const char *cat;	/* "user_annotation", "cuda_runtime" */
	int step;
	int64_t ext;
};

/* One [memory] event: the allocator's totals after it. */
struct sim_mem {
	int64_t ts, bytes, alloc, reserved;
};

struct sim_rank {
	struct sim_ev *ev;
	size_t nev, cap_ev;
	struct sim_span *span;
	size_t nspan, cap_span;
	struct sim_mem *mem;
	size_t nmem, cap_mem;
	int64_t alloc, reserved;	/* allocator totals now */
	int64_t peak_alloc, peak_reserved;
};

struct sim_run {
	const struct scenario *sc;
	const struct run_spec *spec;
	const struct gpu_spec *gpu;
	int nranks;
	struct sim_rank rank[MAX_RANKS];
	int64_t t_end;		/* ns: when the last activity of the run ended */
	int64_t epoch_ns;	/* Unix ns at sim time 0 */
	int64_t job_start_ns;	/* Unix ns the job started (logs) */
};

/* Simulates run `idx` of the scenario; an OOM run gets no events. */
void sim_run(struct sim_run *out, const struct scenario *sc, int idx, uint64_t seed);
void sim_release(struct sim_run *r);

/* Bytes of memory nvidia-smi shows for a rank at sim time t (its sampler). */
int64_t sim_smi_used_mib(const struct sim_run *r, int rank, int64_t t);

#endif
