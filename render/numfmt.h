/*
 * numfmt: the one number formatter of the report. Every quantity the text,
 * the summary and the charts print goes through here, so the same value
 * reads the same everywhere: 73.4 ms in the verdict, the table and the chart.
 *
 * The rule (numfmt_num): one decimal from 1 up (73.4, 555.8, 8.5, 1234.5),
 * the tenth the analysis' own sentences use, and three significant digits
 * below 1 (0.423, 0.0417), so that a small part keeps its size; "0" for zero
 * and for magnitudes under 1e-6. The digits are chosen after rounding, so
 * 0.9996 reads 1.0, not 1.000. Values that are not finite read "n/a".
 *
 * Each function writes into out (NUMFMT_LEN bytes) and returns out, so a
 * call can sit in a printf argument list.
 */
#ifndef RENDER_NUMFMT_H
#define RENDER_NUMFMT_H

#include <stdint.h>

#define NUMFMT_LEN 48

/* The rule above, no unit: 73.4, 8.5, 0.423, 0, -39.2, n/a. */
const char *numfmt_num(char out[NUMFMT_LEN], double v);

/* Like numfmt_num with a sign always: +6.6, -39.2, +0.0558, 0 (zero has none). */
const char *numfmt_signed(char out[NUMFMT_LEN], double v);

/*
 * A duration given in seconds, in ms below 10 s and in s from there:
 * 0.0734 -> "73.4 ms", 0.5558 -> "555.8 ms", 0.00848 -> "8.5 ms", 0.000423 -> "0.423 ms",
 * 1.2345 -> "1234.5 ms", 12.3 -> "12.3 s", NaN -> "n/a".
 */
const char *numfmt_duration(char out[NUMFMT_LEN], double seconds);

/* The same with a sign: 0.0066 -> "+6.6 ms", -0.0392 -> "-39.2 ms". */
const char *numfmt_duration_signed(char out[NUMFMT_LEN], double seconds);

/* A fraction as a whole percentage: 0.864 -> "86%", 1.0 -> "100%", 0.004 -> "0%". */
const char *numfmt_percent(char out[NUMFMT_LEN], double fraction);

/* A ratio or speedup, two decimals: 1.734 -> "1.73x", 0.132 -> "0.13x", 12.4 -> "12.40x". */
const char *numfmt_ratio(char out[NUMFMT_LEN], double ratio);

/* A bandwidth in GB/s (1e9 bytes): 566.2 -> "566.2 GB/s", 2.134 -> "2.1 GB/s", 0.5 -> "0.500 GB/s". */
const char *numfmt_gbps(char out[NUMFMT_LEN], double gbps);

/*
 * Bytes in GB of 1e9: 49700000000 -> "49.7 GB", 8660000000 -> "8.7 GB",
 * 191503138816 -> "191.5 GB"; a negative count (unknown) -> "n/a".
 */
const char *numfmt_gb(char out[NUMFMT_LEN], double bytes);

/* Bytes in GiB of 2^30, where a message (an out-of-memory error) says GiB: 3758096384 -> "3.5 GiB". */
const char *numfmt_gib(char out[NUMFMT_LEN], double bytes);

/* A count, grouped: 16 -> "16", 1234567 -> "1,234,567"; negative (unknown) -> "n/a". */
const char *numfmt_count(char out[NUMFMT_LEN], int64_t n);

/* An integer the analysis may not know (a GPU count, a rank): 2 -> "2"; negative (unknown) -> "?". */
const char *numfmt_int(char out[NUMFMT_LEN], int64_t n);

/* A GPU count with its unit: 1 -> "1 GPU", 2 -> "2 GPUs"; 0 or negative (unknown) -> "? GPUs". */
const char *numfmt_gpus(char out[NUMFMT_LEN], int64_t n);

#endif
