#include "analysis/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_percentile(const double *v, size_t n, double p)
{
	double *s, pos, frac, r;
	size_t lo;

	if (!n)
		return NAN;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_value);
	pos = p / 100.0 * (double)(n - 1);
	lo = (size_t)floor(pos);
	frac = pos - (double)lo;
	r = lo + 1 < n ? s[lo] + (s[lo + 1] - s[lo]) * frac : s[lo];
	free(s);
	return r;
}

double stats_median(const double *v, size_t n)
{
	return stats_percentile(v, n, 50.0);
}

double stats_cv(const double *v, size_t n)
{
	double mean = stats_mean(v, n), ss = 0;

	if (!n || mean == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)n) / mean;
}
