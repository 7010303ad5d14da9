#include "core/money.h"

#include <ctype.h>
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

/* A currency of letters only is a code written after the amount; anything else a symbol before it. */
static int is_code(const char *c)
{
	for (; *c; c++)
		if (!isalpha((unsigned char)*c))
			return 0;
	return 1;
}

const char *money_cost(char out[MONEY_LEN], double v, const char *currency)
{
	char d[MONEY_LEN], whole[2 * MONEY_LEN];
	size_t n;

	money_text(d, fabs(v));
	if (!currency || !*currency || !strcmp(d, "n/a"))
		return money_text(out, v);
	/* a currency is at most 8 characters (32 bytes) and an amount under 1e30 about 40: a longer
	   result is cut, never overrun */
	if (is_code(currency))
		snprintf(whole, sizeof(whole), "%s%s %s", v < 0 ? "-" : "", d, currency);
	else
		snprintf(whole, sizeof(whole), "%s%s%s", v < 0 ? "-" : "", currency, d);
	n = strlen(whole) < MONEY_LEN ? strlen(whole) : MONEY_LEN - 1;
	memcpy(out, whole, n);
	out[n] = '\0';
	return out;
}

const char *gpu_hours_text(char out[MONEY_LEN], double v)
{
	char d[MONEY_LEN];

	if (!isfinite(v) || fabs(v) >= 1e30)
		return strcpy(out, "n/a");
	snprintf(d, sizeof(d), fabs(v) >= 100 ? "%.0f" : "%.2f", v);
	return group(out, d);
}

const char *ratio_text(char out[MONEY_LEN], double v)
{
	if (!isfinite(v))
		return strcpy(out, "n/a");
	snprintf(out, MONEY_LEN, "%.2fx", v);
	return out;
}
