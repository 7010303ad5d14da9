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

#endif
