#include "core/qty.h"

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

static const char *with(char out[QTY_LEN], double v, const char *sign, const char *unit)
{
	if (!isfinite(v))
		snprintf(out, QTY_LEN, "n/a");
	else if (fabs(v) < TINY)
		snprintf(out, QTY_LEN, "0%s", unit);
	else
		snprintf(out, QTY_LEN, "%s%.*f%s", v > 0 ? sign : "", decimals(v), v, unit);
	return out;
}

const char *qty_num(char out[QTY_LEN], double v)
{
	return with(out, v, "", "");
}

const char *qty_signed(char out[QTY_LEN], double v)
{
	return with(out, v, "+", "");
}

static const char *duration(char out[QTY_LEN], double s, const char *sign)
{
	if (fabs(s) >= 10)
		return with(out, s, sign, " s");
	return with(out, s * 1e3, sign, " ms");
}

const char *qty_duration(char out[QTY_LEN], double seconds)
{
	return duration(out, seconds, "");
}

const char *qty_duration_signed(char out[QTY_LEN], double seconds)
{
	return duration(out, seconds, "+");
}

const char *qty_percent(char out[QTY_LEN], double fraction)
{
	if (!isfinite(fraction))
		snprintf(out, QTY_LEN, "n/a");
	else if (fabs(100 * fraction) < 0.5)
		snprintf(out, QTY_LEN, "0%%");	/* never "-0%" */
	else
		snprintf(out, QTY_LEN, "%.0f%%", 100 * fraction);
	return out;
}

const char *qty_share(char out[QTY_LEN], double fraction)
{
	double pct = 100 * fraction;

	if (!isfinite(pct))
		snprintf(out, QTY_LEN, "n/a");
	else if (pct == 0)
		snprintf(out, QTY_LEN, "0%%");
	else if (pct > 0 && pct < 0.05)
		snprintf(out, QTY_LEN, "under 0.1%%");	/* not zero, so never "0.0%" */
	else
		snprintf(out, QTY_LEN, "%.1f%%", pct);
	return out;
}

const char *qty_gbps(char out[QTY_LEN], double gbps)
{
	return with(out, gbps, "", " GB/s");
}

const char *qty_gb(char out[QTY_LEN], double bytes)
{
	return with(out, bytes < 0 ? NAN : bytes / 1e9, "", " GB");
}

const char *qty_gib(char out[QTY_LEN], double bytes)
{
	return with(out, bytes < 0 ? NAN : bytes / 1073741824.0, "", " GiB");
}

const char *qty_rate(char out[QTY_LEN], double per_s, const char *what)
{
	char unit[QTY_LEN];

	snprintf(unit, sizeof(unit), " %s/s", what);
	return with(out, per_s, "", unit);
}
