/*
 * numfmt: the report's number formatters. Each quantity is printed by one
 * function, so that the same value reads the same everywhere (73.4 ms in the
 * verdict, the table and the chart): the quantities of core/qty.h (qty_num,
 * qty_duration, qty_gb, qty_gbps, qty_percent...) and core/money.h
 * (ratio_text, money_cost...), which the analysis' own sentences use too,
 * and here the integers the report shows and the analysis may not know.
 *
 * Each function writes into out (NUMFMT_LEN bytes) and returns out, so a
 * call can sit in a printf argument list.
 */
#ifndef RENDER_NUMFMT_H
#define RENDER_NUMFMT_H

#include <stdint.h>

#include "core/money.h"
#include "core/qty.h"

#define NUMFMT_LEN 48

/* A count, grouped: 16 -> "16", 1234567 -> "1,234,567"; negative (unknown) -> "n/a". */
const char *numfmt_count(char out[NUMFMT_LEN], int64_t n);

/* An integer the analysis may not know (a GPU count, a rank): 2 -> "2"; negative (unknown) -> "?". */
const char *numfmt_int(char out[NUMFMT_LEN], int64_t n);

/* A GPU count with its unit: 1 -> "1 GPU", 2 -> "2 GPUs"; 0 or negative (unknown) -> "? GPUs". */
const char *numfmt_gpus(char out[NUMFMT_LEN], int64_t n);

#endif
