#include "core/money.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* digits (an optional '-', then digits, then an optional ".dd") with a ',' every three digits */
static const char *group(char out[MONEY_LEN], const char *digits)
{
	const char *dot = strchr(digits, '.');
	size_t lead = digits[0] == '-', n = (dot ? (size_t)(dot - digits) : strlen(digits)) - lead;
	size_t o = 0;

	if (lead)
		out[o++] = '-';
	for (size_t i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[lead + i];
	}
	snprintf(out + o, MONEY_LEN - o, "%s", dot ? dot : "");
	return out;
}

const char *money_text(char out[MONEY_LEN], double v)
{
	char d[MONEY_LEN];

	if (!isfinite(v) || fabs(v) >= 1e30)
		return strcpy(out, "n/a");
	if (fabs(v) >= 100 && fabs(v - round(v)) < 0.005)
		snprintf(d, sizeof(d), "%.0f", v);
	else
		snprintf(d, sizeof(d), "%.2f", v);
	return group(out, d);
}

const char *count_text(char out[MONEY_LEN], double v)
{
	char d[MONEY_LEN];

	if (!isfinite(v) || fabs(v) >= 1e30)
		return strcpy(out, "n/a");
	snprintf(d, sizeof(d), "%.0f", v);
	return group(out, d);
}
