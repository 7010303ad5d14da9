/*
 * Unit tests of render/numfmt: the exact strings of every quantity the
 * report prints, at the edges of the digit rule (1, rounding across a
 * boundary, zero, tiny, negative, unknown).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/manifest_keys.h"
#include "core/money.h"
#include "core/qty.h"
#include "render/numfmt.h"

static void one_decimal_from_one_three_digits_below(void **state)
{
	char b[NUMFMT_LEN];

	assert_string_equal(qty_num(b, 73.4), "73.4");
	assert_string_equal(qty_num(b, 73.25), "73.2");	/* 73.25 is 73.2499.. in binary */
	assert_string_equal(qty_num(b, 555.8), "555.8");
	assert_string_equal(qty_num(b, 1234.56), "1234.6");
	assert_string_equal(qty_num(b, 10), "10.0");
	assert_string_equal(qty_num(b, 8.476), "8.5");
	assert_string_equal(qty_num(b, 1), "1.0");
	assert_string_equal(qty_num(b, 0.999), "0.999");
	assert_string_equal(qty_num(b, 0.4234), "0.423");
	assert_string_equal(qty_num(b, 0.04171), "0.0417");
	assert_string_equal(qty_num(b, -39.24), "-39.2");
	assert_string_equal(qty_num(b, -0.5), "-0.500");
}

static void digits_are_chosen_after_rounding(void **state)
{
	char b[NUMFMT_LEN];

	assert_string_equal(qty_num(b, 9.96), "10.0");
	assert_string_equal(qty_num(b, 0.9996), "1.0");
	assert_string_equal(qty_num(b, 0.09996), "0.100");
	assert_string_equal(qty_num(b, 0.9994), "0.999");
}

static void zero_tiny_and_unknown(void **state)
{
	char b[NUMFMT_LEN];

	assert_string_equal(qty_num(b, 0), "0");
	assert_string_equal(qty_num(b, -0.0), "0");
	assert_string_equal(qty_num(b, 4e-7), "0");
	assert_string_equal(qty_num(b, 1.234e-6), "0.000001");
	assert_string_equal(qty_num(b, NAN), "n/a");
	assert_string_equal(qty_num(b, INFINITY), "n/a");
	assert_string_equal(qty_signed(b, 0), "0");
	assert_string_equal(qty_signed(b, 6.6), "+6.6");
	assert_string_equal(qty_signed(b, 0.0558), "+0.0558");
	assert_string_equal(qty_signed(b, -39.24), "-39.2");
}

static void durations_choose_their_unit(void **state)
{
	char b[NUMFMT_LEN];

	assert_string_equal(qty_duration(b, 0.0734), "73.4 ms");
	assert_string_equal(qty_duration(b, 0.5558), "555.8 ms");
	assert_string_equal(qty_duration(b, 0.00848), "8.5 ms");
	assert_string_equal(qty_duration(b, 0.000423), "0.423 ms");
	assert_string_equal(qty_duration(b, 1.2345), "1234.5 ms");
	assert_string_equal(qty_duration(b, 12.34), "12.3 s");
	assert_string_equal(qty_duration(b, 0), "0 ms");
	assert_string_equal(qty_duration(b, NAN), "n/a");
	assert_string_equal(qty_duration_signed(b, 0.0066), "+6.6 ms");
	assert_string_equal(qty_duration_signed(b, -0.0392), "-39.2 ms");
	assert_string_equal(qty_duration_signed(b, 0.0116), "+11.6 ms");
}

static void percents_ratios_and_rates(void **state)
{
	char b[NUMFMT_LEN];

	assert_string_equal(qty_percent(b, 0.864), "86%");
	assert_string_equal(qty_percent(b, 1.0), "100%");
	assert_string_equal(qty_percent(b, 0.004), "0%");
	assert_string_equal(qty_percent(b, -0.004), "0%");
	assert_string_equal(qty_percent(b, NAN), "n/a");
	assert_string_equal(ratio_text(b, 1.734), "1.73x");
	assert_string_equal(ratio_text(b, 0.132), "0.13x");
	assert_string_equal(ratio_text(b, 12.4), "12.40x");
	assert_string_equal(ratio_text(b, NAN), "n/a");
	assert_string_equal(qty_gbps(b, 566.2), "566.2 GB/s");
	assert_string_equal(qty_gbps(b, 2.134), "2.1 GB/s");
	assert_string_equal(qty_gbps(b, 0.5), "0.500 GB/s");
}

static void bytes_and_counts(void **state)
{
	char b[NUMFMT_LEN];

	assert_string_equal(qty_gb(b, 49.7e9), "49.7 GB");
	assert_string_equal(qty_gb(b, 8.66e9), "8.7 GB");
	assert_string_equal(qty_gb(b, 191503138816.0), "191.5 GB");
	assert_string_equal(qty_gb(b, -1), "n/a");
	assert_string_equal(qty_gib(b, 3758096384.0), "3.5 GiB");
	assert_string_equal(qty_gib(b, 150.0 * 1073741824), "150.0 GiB");
	assert_string_equal(numfmt_count(b, 16), "16");
	assert_string_equal(numfmt_count(b, 1234567), "1,234,567");
	assert_string_equal(numfmt_count(b, -1), "n/a");
}

/* A cost with the trial's currency: a code after the amount, a symbol before it; none bare. */
static void costs_gpu_hours_and_currency(void **state)
{
	char b[MONEY_LEN];

	(void)state;
	assert_string_equal(money_cost(b, 1848, "USD"), "1,848 USD");
	assert_string_equal(money_cost(b, 630.4, "EUR"), "630.40 EUR");
	assert_string_equal(money_cost(b, 1512, "$"), "$1,512");
	assert_string_equal(money_cost(b, -5, "$"), "-$5.00");
	assert_string_equal(money_cost(b, 1848, NULL), "1,848");
	assert_string_equal(money_cost(b, NAN, "USD"), "n/a");
	assert_string_equal(gpu_hours_text(b, 1.2679), "1.27");
	assert_string_equal(gpu_hours_text(b, 17.451), "17.45");
	assert_string_equal(gpu_hours_text(b, 1344), "1,344");
	assert_string_equal(ratio_text(b, 74.9 / 8.66), "8.65x");
	assert_true(manifest_currency_valid("USD"));
	assert_true(manifest_currency_valid("$"));
	assert_true(manifest_currency_valid("\xe2\x82\xac"));	/* the euro sign: one character */
	assert_true(manifest_currency_valid("ABCDEFGH"));
	assert_false(manifest_currency_valid("ABCDEFGHI"));
	assert_false(manifest_currency_valid("US D"));
	assert_false(manifest_currency_valid(""));
	assert_false(manifest_currency_valid("U\tS"));
}

/* Rates and GiB as the logs and the analysis' sentences give them. */
static void analysis_and_report_share_each_formatter(void **state)
{
	char q[QTY_LEN];

	(void)state;
	assert_string_equal(qty_gib(q, 3758096384), "3.5 GiB");	/* the log's "3.50 GiB" */
	assert_string_equal(qty_gib(q, 85018591232), "79.2 GiB");
	assert_string_equal(qty_rate(q, 376.94, "samples"), "376.9 samples/s");
	assert_string_equal(qty_rate(q, 0.4234, "tokens"), "0.423 tokens/s");
	assert_string_equal(qty_rate(q, NAN, "samples"), "n/a");
	assert_string_equal(qty_duration(q, 0.0424), "42.4 ms");
}

/* A small share that is not zero never reads "0.0%": the reader would take it for none. */
static void small_shares_are_not_zero(void **state)
{
	char q[QTY_LEN];

	(void)state;
	assert_string_equal(qty_share(q, 0.0023928), "0.2%");
	assert_string_equal(qty_share(q, 0.00016519), "under 0.1%");
	assert_string_equal(qty_share(q, 0.0005), "0.1%");
	assert_string_equal(qty_share(q, 1e-12), "under 0.1%");
	assert_string_equal(qty_share(q, 0), "0%");
	assert_string_equal(qty_share(q, 0.5), "50.0%");
	assert_string_equal(qty_share(q, NAN), "n/a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_decimal_from_one_three_digits_below),
		cmocka_unit_test(digits_are_chosen_after_rounding),
		cmocka_unit_test(zero_tiny_and_unknown),
		cmocka_unit_test(durations_choose_their_unit),
		cmocka_unit_test(percents_ratios_and_rates),
		cmocka_unit_test(bytes_and_counts),
		cmocka_unit_test(costs_gpu_hours_and_currency),
		cmocka_unit_test(analysis_and_report_share_each_formatter),
		cmocka_unit_test(small_shares_are_not_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
