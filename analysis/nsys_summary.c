#include "analysis/nsys_summary.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "core/xalloc.h"

#define KEY_MAX 64

/* Names of a step range, as normalised by step_key(). */
static const char *const step_words[] = {
	"step", "train_step", "train step", "training_step", "training step", "trainstep",
	"iteration", "iter", "train_iter", "train iteration", "profilerstep",
};

/*
 * The family of an NVTX range name: without a leading ':' domain, a trailing
 * "#N" or number, lower case. False when it is too long to be a step word.
 */
static bool step_key(const char *name, char key[KEY_MAX])
{
	size_t n;

	while (*name == ':')
		name++;
	n = strlen(name);
	while (n && isdigit((unsigned char)name[n - 1]))
		n--;
	while (n && (name[n - 1] == '#' || name[n - 1] == ' ' || name[n - 1] == '_'))
		n--;
	if (!n || n >= KEY_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		key[i] = (char)tolower((unsigned char)name[i]);
	key[n] = '\0';
	return true;
}

static bool is_step_word(const char *key)
{
	for (size_t i = 0; i < sizeof(step_words) / sizeof(step_words[0]); i++)
		if (!strcmp(step_words[i], key))
			return true;
	return false;
}

static double duration(const struct nsys_row *v)
{
	return isnan(v->med_ns) ? v->avg_ns : v->med_ns;
}

/* The instances and step time of the family of ranges r[first..] named like `key`. */
static int64_t family(const struct run *r, size_t first, const char *key, double *step_ns)
{
	double *d = xmalloc((r->nnsys_nvtx - first) * sizeof(*d));
	size_t nd = 0;
	int64_t inst = 0;
	char k[KEY_MAX];

	for (size_t j = first; j < r->nnsys_nvtx; j++) {
		const struct nsys_row *v = &r->nsys_nvtx[j];

		if (!step_key(v->name, k) || strcmp(k, key) || v->instances <= 0)
			continue;
		inst += v->instances;
		if (!isnan(duration(v)))
			d[nd++] = duration(v);
	}
	*step_ns = nd ? stats_median(d, nd) : NAN;
	free(d);
	return inst;
}

static void find_steps(const struct run *r, struct nsys_summary *out)
{
	char key[KEY_MAX];

	for (size_t i = 0; i < r->nnsys_nvtx; i++) {
		int64_t inst;
		double ns;

		if (!step_key(r->nsys_nvtx[i].name, key) || !is_step_word(key))
			continue;
		inst = family(r, i, key, &ns);
		if (inst < NVTX_STEP_MIN_INSTANCES || inst <= out->steps || isnan(ns))
			continue;
		out->step_range = r->nsys_nvtx[i].name;
		out->steps = inst;
		out->step_ns = ns;
	}
}

static double add(double a, double b)
{
	return isnan(b) ? a : a + b;
}

void nsys_summary_of_run(const struct run *r, struct nsys_summary *out)
{
	*out = (struct nsys_summary){ .step_ns = NAN };
	out->present = r->nnsys_kernels > 0 || r->nnsys_memops > 0;
	for (size_t i = 0; i < r->nnsys_kernels; i++)
		out->gpu_ns[r->nsys_kernels[i].cls] = add(out->gpu_ns[r->nsys_kernels[i].cls],
							  r->nsys_kernels[i].total_ns);
	for (size_t i = 0; i < r->nnsys_memops; i++)
		out->gpu_ns[EVC_MEMORY] = add(out->gpu_ns[EVC_MEMORY], r->nsys_memops[i].total_ns);
	for (int c = 0; c < 3; c++)
		out->gpu_total_ns += out->gpu_ns[c];
	find_steps(r, out);
}
