/*
 * readiness: whether a run's software targets the GPU it ran on (code built
 * only for older GPUs does not load on a new one such as Blackwell):
 * the environment report's versions, PyTorch's "not compatible" warning and
 * "no kernel image" error, the binaries with GPU code in the run's
 * directory (copied extensions), and the kernels of another GPU generation in the
 * run's traces with their share of GPU kernel time.
 */
#ifndef ANALYSIS_READINESS_H
#define ANALYSIS_READINESS_H

#include "analysis/result.h"
#include "core/model.h"

/* The most foreign kernels listed in a run's readiness (the rest count in its share). */
#define READY_FOREIGN_MAX 10

/*
 * Fills rr->readiness from r (after analysis_run_one, so rr->gpu and
 * rr->nccl_version are known) and adds the findings "foreign-kernels"
 * (kernels of an older generation on a Blackwell GPU), "arch-unsupported"
 * (the build does not target the GPU), "extension-missing-arch" and
 * "extension-jit" (a binary of the run's directory judged missing or jit for
 * its GPU) and "stack-below-minimum" (a version
 * below core/readiness.h's minimum for the GPU). Strings still point into the trial:
 * detach_run copies them.
 */
void analysis_readiness(struct analysis *a, const struct run *r, struct run_result *rr);

/*
 * True when PyTorch said the run's build does not target its GPU (the arch
 * warning or "no kernel image"), or a binary in the run's directory holds no
 * code its GPU can load: no verdict can stand on the run. Versions below the
 * minimum alone do not block, nor does code the driver compiles from PTX:
 * the run ran.
 */
bool readiness_blocks(const struct readiness *rd);

#endif
