#include "render/numfmt.h"

#include "core/money.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TINY 1e-6		/* smaller magnitudes read 0 */
#define MAX_DECIMALS 6

/* Decimals for a magnitude m > 0: one from 1 up, else three significant digits. */
static int decimals_for(double m)
{
	int d;

	if (m >= 1)
		return 1;
	d = 2 - (int)floor(log10(m));
	return d > MAX_DECIMALS ? MAX_DECIMALS : d;
}

/* The decimals for v as it will read after rounding (0.9996 reads 1.0). */
static int decimals(double v)
{
	double m = fabs(v), p;
	int d = decimals_for(m);

	p = pow(10, d);
	m = round(m * p) / p;
	return decimals_for(m) < d ? decimals_for(m) : d;
}

static const char *with(char out[NUMFMT_LEN], double v, const char *sign, const char *unit)
{
	if (!isfinite(v))
		snprintf(out, NUMFMT_LEN, "n/a");
	else if (fabs(v) < TINY)
		snprintf(out, NUMFMT_LEN, "0%s", unit);
	else
		snprintf(out, NUMFMT_LEN, "%s%.*f%s", v > 0 ? sign : "", decimals(v), v, unit);
	return out;
}

const char *numfmt_num(char out[NUMFMT_LEN], double v)
{
	return with(out, v, "", "");
}

const char *numfmt_signed(char out[NUMFMT_LEN], double v)
{
	return with(out, v, "+", "");
}

static const char *duration(char out[NUMFMT_LEN], double s, const char *sign)
{
	if (fabs(s) >= 10)
		return with(out, s, sign, " s");
	return with(out, s * 1e3, sign, " ms");
}

const char *numfmt_duration(char out[NUMFMT_LEN], double seconds)
{
	return duration(out, seconds, "");
}

const char *numfmt_duration_signed(char out[NUMFMT_LEN], double seconds)
{
	return duration(out, seconds, "+");
}

const char *numfmt_percent(char out[NUMFMT_LEN], double fraction)
{
	if (!isfinite(fraction))
		snprintf(out, NUMFMT_LEN, "n/a");
	else if (fabs(100 * fraction) < 0.5)
		snprintf(out, NUMFMT_LEN, "0%%");	/* never "-0%" */
	else
		snprintf(out, NUMFMT_LEN, "%.0f%%", 100 * fraction);
	return out;
}

const char *numfmt_ratio(char out[NUMFMT_LEN], double ratio)
{
	return ratio_text(out, ratio);	/* the analysis' sentences print ratios with the same function */
}

const char *numfmt_gbps(char out[NUMFMT_LEN], double gbps)
{
	return with(out, gbps, "", " GB/s");
}

const char *numfmt_gb(char out[NUMFMT_LEN], double bytes)
{
	return with(out, bytes < 0 ? NAN : bytes / 1e9, "", " GB");
}

const char *numfmt_gib(char out[NUMFMT_LEN], double bytes)
{
	return with(out, bytes < 0 ? NAN : bytes / 1073741824.0, "", " GiB");
}

const char *numfmt_count(char out[NUMFMT_LEN], int64_t n)
{
	if (n < 0)
		return strcpy(out, "n/a");
	return count_text(out, (double)n);	/* grouped, as the analysis' own sentences group them */
}

const char *numfmt_int(char out[NUMFMT_LEN], int64_t n)
{
	if (n < 0)
		snprintf(out, NUMFMT_LEN, "?");
	else
		snprintf(out, NUMFMT_LEN, "%lld", (long long)n);
	return out;
}

const char *numfmt_gpus(char out[NUMFMT_LEN], int64_t n)
{
	if (n <= 0)
		snprintf(out, NUMFMT_LEN, "? GPUs");
	else
		snprintf(out, NUMFMT_LEN, "%lld GPU%s", (long long)n, n == 1 ? "" : "s");
	return out;
}
