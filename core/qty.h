/*
 * qty: one formatter per quantity, for the analysis' sentences and the
 * report alike (the charts and texts call these), so that a memory peak, a step
 * time, a bandwidth or a throughput reads the same digits in analyze's text,
 * summary.md, report.html, page 1 and the charts.
 *
 * The rule (qty_num): one decimal from 1 up (73.4, 555.8, 8.5, 1234.5), and
 * three significant digits below 1 (0.423, 0.0417), so that a small part
 * keeps its size; "0" for zero and for magnitudes under 1e-6. The digits are
 * chosen after rounding, so 0.9996 reads 1.0, not 1.000. Values that are not
 * finite read "n/a".
 *
 * Each function writes into out (QTY_LEN bytes) and returns out, so a call
 * can sit in a printf argument list.
 */
#ifndef CORE_QTY_H
#define CORE_QTY_H

#define QTY_LEN 48

/* The rule above, no unit: 73.4, 8.5, 0.423, 0, -39.2, n/a. */
const char *qty_num(char out[QTY_LEN], double v);

/* Like qty_num with a sign always: +6.6, -39.2, +0.0558, 0 (zero has none). */
const char *qty_signed(char out[QTY_LEN], double v);

/* A duration in seconds, in ms below 10 s and in s from there: 0.0734 -> "73.4 ms", 12.3 -> "12.3 s". */
const char *qty_duration(char out[QTY_LEN], double seconds);

/* The same with a sign: 0.0066 -> "+6.6 ms", -0.0392 -> "-39.2 ms". */
const char *qty_duration_signed(char out[QTY_LEN], double seconds);

/* A fraction as a whole percentage: 0.864 -> "86%", 0.004 -> "0%" (never "-0%"). */
const char *qty_percent(char out[QTY_LEN], double fraction);

/*
 * A small share as a percentage with one decimal: 0.0024 -> "0.2%", 0 -> "0%";
 * a share above zero that would round to 0.0 reads "under 0.1%", never "0.0%".
 */
const char *qty_share(char out[QTY_LEN], double fraction);

/* A bandwidth in GB/s (1e9 bytes): 566.2 -> "566.2 GB/s", 0.5 -> "0.500 GB/s". */
const char *qty_gbps(char out[QTY_LEN], double gbps);

/* Bytes in GB of 1e9: 49700000000 -> "49.7 GB"; a negative count (unknown) -> "n/a". */
const char *qty_gb(char out[QTY_LEN], double bytes);

/* Bytes in GiB of 2^30, where a message (an out-of-memory error) says GiB: 3758096384 -> "3.5 GiB". */
const char *qty_gib(char out[QTY_LEN], double bytes);

/* A throughput with its unit: (376.94, "samples") -> "376.9 samples/s". */
const char *qty_rate(char out[QTY_LEN], double per_s, const char *what);

#endif
