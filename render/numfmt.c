#include "render/numfmt.h"

#include "core/money.h"
#include "core/qty.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Each quantity is formatted in core/qty.c, where the analysis' sentences format it too. */
_Static_assert(NUMFMT_LEN >= QTY_LEN, "a numfmt buffer holds a qty text");

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
