/*
 * stats: the statistics of step times, defined once: median (mean of the two
 * middle values for an even count), percentiles by linear interpolation
 * between closest ranks (numpy's default), and the coefficient of variation
 * (population standard deviation over the mean). All return NaN for n == 0.
 */
#ifndef ANALYSIS_STATS_H
#define ANALYSIS_STATS_H

#include <stddef.h>

double stats_mean(const double *v, size_t n);
double stats_percentile(const double *v, size_t n, double p);	/* p in [0, 100] */
double stats_median(const double *v, size_t n);
double stats_cv(const double *v, size_t n);

#endif
