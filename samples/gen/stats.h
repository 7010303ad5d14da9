/*
 * stats: what the timing model's own intervals say about one run, by the
 * definitions docs/generator.md writes down: step windows and their partition
 * (waiting and transfer apart), the warm-up and trailing steps, step
 * statistics, collectives, precision and imbalance. It never reads a written
 * file back and never uses analysis/.
 */
#ifndef GEN_STATS_H
#define GEN_STATS_H

#include "samples/gen/timing.h"

#define STATS_MAXS 64
#define STATS_MAXFAM 48	/* kernel families of one run */
#define RUN_COLL MAX_RANKS	/* coll[] index of the run's collectives (summed over ranks) */

/* The parts of a window, in the order of analysis.json's step_s keys. The
 * first of compute, exposed (= wait + xfer), memory and idle that holds at an
 * instant takes it; the last four are unions reported beside the partition. */
enum part {
	P_COMPUTE, P_EXPOSED, P_WAIT, P_XFER, P_MEMORY, P_IDLE,
	P_COMM_TOTAL, P_OVERLAPPED, P_MEM_TOTAL, P_BUSY,
	P_IDLE_HOST, P_IDLE_SYNC, P_IDLE_OTHER,	/* idle by the cause of its gap */
	NPART
};

extern const char *const part_keys[NPART];	/* "compute", "exposed_comm", ... */

/* One rank's windows (ns on the true clock) and their partition. */
struct rank_stats {
	int64_t start[STATS_MAXS], end[STATS_MAXS];
	int64_t part[STATS_MAXS][NPART];
	int64_t span_start, span_end;	/* first to last GPU activity */
	int64_t span[NPART];		/* the partition of that span */
	double mean[NPART];		/* over the steady steps, s */
	double mean_step;		/* s */
	double busy;			/* mean compute + memory: the GPU's own work, s */
};

struct coll_stat {
	int coll, dt;
	int64_t bytes, time, xfer, calls;	/* summed over steady steps; xfer = time transferring */
};

/* Kernel time of one family over a run's steady steps, summed over its ranks. */
struct fam_time {
	const char *fam;
	int64_t ns;
};

struct run_stats {
	const struct sim_run *run;
	int failed;
	int logs;		/* no trace: the steps are the log's iterations, the partition unknown */
	double log_s[STATS_MAXS];	/* logs: each iteration's time as the log prints it, s */
	int n;			/* profiled steps */
	int trailing;		/* 1: the last step, closed by nothing */
	int warmup, measured;	/* steady steps are warmup .. n - trailing - 1 */
	int slowest;
	struct rank_stats rk[MAX_RANKS];
	double med, p10, p90, cv;
	double sps, tps;
	int64_t peak_smi[MAX_RANKS];
	struct coll_stat coll[MAX_RANKS + 1][8];	/* per rank, and [RUN_COLL] the run's: summed over ranks */
	int ncoll[MAX_RANKS + 1];
	double share[DT_COUNT];		/* of all matmul-class time (unknown dtype included) */
	int observed;		/* enum dtype, DT_UNKNOWN when none over 50% */
	int precision;		/* the run's: observed, else declared; DT_UNKNOWN */
	double mem_ratio, busy_ratio;
	int waits[MAX_RANKS];	/* rank r's exposed waiting is over 25% of its mean step */
	int waits_for[MAX_RANKS];	/* the rank it waits for */
	int flagged;
	char reason[512];
	struct fam_time fam[STATS_MAXFAM];	/* traced runs: kernel time by family */
	int nfam;
	int64_t kernel_ns;	/* their sum */
	int64_t triton_ns;	/* of it, Inductor's triton_* kernels */
	double flops[MAX_RANKS];	/* FLOPs of each rank's matmul kernels over the steady steps */
	int64_t mm_ns[MAX_RANKS];	/* their kernel time */
};

/* Fills st from the simulated run (a failed run gets peaks only; a run
 * without traces its log's iterations). */
void run_stats(struct run_stats *st, const struct sim_run *run);

/* Rank r's clock offset, s: (end of a collective on rank 0 - its end on rank
 * r), both read on the trace clocks the generator wrote. */
double stats_clock_offset_s(const struct sim_run *run, int r);

#endif
