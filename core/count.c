#include "core/count.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* Suffixes of a count; k for thousands, the rest as a model's size is written. */
static const struct { char c; double mult; } suffixes[] = {
	{ 'k', 1e3 }, { 'm', 1e6 }, { 'b', 1e9 }, { 'g', 1e9 }, { 't', 1e12 },
};

double count_parse(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return NAN;
	if (!*end)
		return v;
	if (end[1])
		return NAN;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (tolower((unsigned char)*end) == suffixes[i].c)
			return v * suffixes[i].mult;
	return NAN;
}

bool count_parse_whole(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long n;
	double v;

	errno = 0;
	n = strtoll(s, &end, 10);
	if (end != s && !*end && !errno) {
		if (n < min || n > max)
			return false;
		*out = n;
		return true;
	}
	v = count_parse(s);
	/* 2^63 is the first double beyond int64_t */
	if (isnan(v) || v != floor(v) || v >= 9223372036854775808.0 || v < (double)min ||
	    v > (double)max)
		return false;
	*out = (int64_t)v;
	return true;
}
