/*
 * capacity: a trial GPU's capacity, and a GPU model's for this trial, under
 * the one rule of core/gpu.
 */
#include "analysis/capacity.h"

#include <stddef.h>

int64_t capacity_gpu_reported(const struct gpu_result *g, const struct gpu_model **m)
{
	const struct gpu_model *row = gpu_lookup(g->name, g->memory_total);

	if (m)
		*m = row;
	if (g->memory_total < 0 || (row && g->memory_total == row->memory_nominal))
		return -1;
	return g->memory_total;
}

const char *capacity_gpu_text(char *out, size_t n, const struct gpu_result *g)
{
	const struct gpu_model *m;
	int64_t reported = capacity_gpu_reported(g, &m);

	return gpu_capacity_text(out, n, m, reported);
}

int64_t capacity_model_reported(const struct analysis *a, const struct gpu_model *m)
{
	const struct gpu_model *row;
	int64_t reported;

	for (size_t i = 0; m && i < a->nruns; i++)
		for (size_t g = 0; g < a->runs[i].ngpu; g++) {
			reported = capacity_gpu_reported(&a->runs[i].gpu[g], &row);
			if (row == m && reported >= 0)
				return reported;
		}
	return -1;
}

int64_t capacity_model_bytes(const struct analysis *a, const struct gpu_model *m)
{
	return m ? gpu_capacity_bytes(m, capacity_model_reported(a, m)) : -1;
}

const char *capacity_model_text(char *out, size_t n, const struct analysis *a, const struct gpu_model *m)
{
	return gpu_capacity_text(out, n, m, capacity_model_reported(a, m));
}
