/*
 * count: the one syntax of a count, shared by plan's options and PLAN.ini and
 * by the whole-number keys of trial.ini and run.ini: digits ("7000000000"),
 * a decimal or exponent form ("7e9", "1.5e6"), or a number with one suffix,
 * k (1e3), M (1e6), B or G (1e9), T (1e12), in either case ("7B", "350M").
 */
#ifndef CORE_COUNT_H
#define CORE_COUNT_H

#include <stdbool.h>
#include <stdint.h>

/* The count s spells, >= 0; NaN when s is not one (empty, negative, a stray character). */
double count_parse(const char *s);

/*
 * A whole count from min to max into *out: digits are read exactly, other
 * forms must come to a whole number ("1.5k" is 1500, "1.5" is not whole).
 * False when s is not one, or out of range.
 */
bool count_parse_whole(const char *s, int64_t min, int64_t max, int64_t *out);

#endif
