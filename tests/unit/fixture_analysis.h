/*
 * fixture_analysis: hand-built struct analysis values for the renderer's
 * tests, consistent with docs/analysis.md (parts add up to each window, the
 * attribution adds up to n x mean_n - mean_1), and the asserts the analysis
 * tests share. Linked into every unit test binary; no main here.
 *
 *   ddp:    a 1-GPU B200 baseline and a 2-GPU DDP candidate, verdict confirmed
 *   single: the baseline alone, no comparison, no nvidia-smi samples
 *
 * Release with fixture_analysis_release(). Also what the render tests share: a
 * chart's layout dump, a line of it, and a trial directory's analysis.
 */
#ifndef TESTS_FIXTURE_ANALYSIS_H
#define TESTS_FIXTURE_ANALYSIS_H

#include "analysis/result.h"

void fixture_analysis_ddp(struct analysis *a);
/* got equals want within 1e-9 (relative above 1), else the test fails. */
void close_to(double got, double want);
/* How many findings of a carry the code. */
size_t findings_with(const struct analysis *a, const char *code);
void fixture_analysis_single(struct analysis *a);
void fixture_analysis_release(struct analysis *a);
/* The confound of kind w of a's comparison; NULL when it has none. */
const struct confound *find_confound(const struct analysis *a, enum confound_what w);
/* The same, and the test fails without one. */
const struct confound *confound_of(const struct analysis *a, enum confound_what w);
/*
 * A GPU activity on rank k of step `step` from start to end (ns): a kernel,
 * or a memcpy for EVC_MEMORY; a communication kernel is a 100 MB bf16
 * all-reduce.
 */
void fixture_kernel(struct rank *k, int64_t step, int64_t start, int64_t end, uint8_t cls,
		    const char *name);
/* The analysis of the trial in dir (loaded, analysed, the trial freed first); asserted to load. */
struct analysis *analyse_dir(const char *dir);

/* The layout dump of chart id for a, or NULL with *why when it is left out; the caller frees. */
char *dump_chart(const struct analysis *a, const char *id, const char **why);
/* Asserts that dump has exactly this line. */
void has_line(const char *dump, const char *line);

/* Numbers the tests assert, as the fixture sets them. */
#define FX_BASE_MEDIAN_S 0.412
#define FX_CAND_MEDIAN_S 0.231
#define FX_BASE_PEAK 151300000000LL
#define FX_CAND_PEAK0 96200000000LL
#define FX_CAND_PEAK1 88400000000LL
#define FX_B200_TOTAL 191503138816LL	/* B200 deviceProperties totalGlobalMem */

#endif
