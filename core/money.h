/*
 * money: an amount as the decision prints it, with thousands separators:
 * 1512 -> "1,512", 1512.5 -> "1,512.50", 75.6 -> "75.60", 0.4 -> "0.40";
 * NaN or infinite -> "n/a". Whole amounts from 100 up drop the cents.
 */
#ifndef CORE_MONEY_H
#define CORE_MONEY_H

#define MONEY_LEN 48

const char *money_text(char out[MONEY_LEN], double v);

/* A count with thousands separators: 336 -> "336", 90000000 -> "90,000,000". */
const char *count_text(char out[MONEY_LEN], double v);

/*
 * A cost in the trial's currency: "1,512 USD" after a code of letters, "$1,512" after a symbol,
 * "-$5" for a negative amount; the bare amount (money_text) when currency is NULL.
 */
const char *money_cost(char out[MONEY_LEN], double v, const char *currency);

/*
 * GPU-hours, the one way every output prints them: two decimals below 100 (1.27, 17.45),
 * whole and grouped from 100 up (336, 1,344); NaN -> "n/a".
 */
const char *gpu_hours_text(char out[MONEY_LEN], double v);

/* A ratio of two like quantities (memory, busy time, GPU-hours), two decimals: 8.65 -> "8.65x". */
const char *ratio_text(char out[MONEY_LEN], double v);

#endif
