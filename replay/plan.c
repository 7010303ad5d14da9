#include "replay/plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const method_names[PM_COUNT] = {
	[PM_NONE] = "none", [PM_CUBLASLT] = "cublaslt", [PM_COPY] = "ptx-copy",
	[PM_FILL] = "ptx-fill", [PM_NCCL] = "nccl",
};

const char *plan_method_name(enum plan_method m)
{
	return m < PM_COUNT ? method_names[m] : "none";
}

size_t plan_pick_run(const struct analysis *a)
{
	if (a->cmp.valid && a->cmp.candidate < a->nruns && a->runs[a->cmp.candidate].ncritical)
		return a->cmp.candidate;
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].ncritical)
			return i;
	return SIZE_MAX;
}

int plan_gemm_shape(const char *op, const char *dims, const char *types, struct plan_gemm *g,
		    char *why, size_t size)
{
	(void)dims;
	(void)types;
	*g = (struct plan_gemm){ -1, -1, -1, 1, false, false, DT_UNKNOWN, DT_UNKNOWN, DT_UNKNOWN };
	snprintf(why, size, "%s: not planned yet", op ? op : "?");
	return -1;
}

int plan_build(struct plan *p, const struct analysis *a, size_t run)
{
	memset(p, 0, sizeof(*p));
	p->step_s = NAN;
	p->gpu_memory = -1;
	p->nranks = -1;
	if (run >= a->nruns || !a->runs[run].ncritical)
		return -1;
	return -1;
}

void plan_release(struct plan *p)
{
	arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}
