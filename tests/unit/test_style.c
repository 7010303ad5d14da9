/*
 * Contrast of the report's colours (WCAG 2: relative luminance, ratio
 * (L1 + 0.05) / (L2 + 0.05)): every category's text colour, the one page 1,
 * report.html and the charts write text and verdict headings in, reads at
 * 4.5:1 or more on the white page (text); headings need 3:1, so 4.5 covers
 * both. The fills are not text and may be lighter. The CSS colours of
 * report.html are checked by tests/sh/test_contrast.sh.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "render/style.h"

static double channel(double x)
{
	return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

static double luminance(struct colour c)
{
	return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

static double contrast_on_white(struct colour c)
{
	return 1.05 / (luminance(c) + 0.05);
}

/* Known answers: black 21:1, white 1:1, #777777 4.48:1 (just under), #767676 4.54:1. */
static void contrast_known_answers(void **state)
{
	(void)state;
	assert_true(fabs(contrast_on_white((struct colour){ 0, 0, 0 }) - 21) < 1e-9);
	assert_true(fabs(contrast_on_white((struct colour){ 1, 1, 1 }) - 1) < 1e-9);
	assert_true(contrast_on_white((struct colour){ 0x77 / 255.0, 0x77 / 255.0, 0x77 / 255.0 }) < 4.5);
	assert_true(contrast_on_white((struct colour){ 0x76 / 255.0, 0x76 / 255.0, 0x76 / 255.0 }) >= 4.5);
}

static void every_text_colour_reads(void **state)
{
	int c;

	(void)state;
	for (c = 0; c < CAT_COUNT; c++) {
		const struct category_style *s = category_style((enum category)c);
		double r = contrast_on_white(s->text);

		if (r < 4.5)
			fail_msg("%s: text colour at %.2f:1 on white, under 4.5:1", s->name, r);
	}
}

/* The orange of an INCONCLUSIVE verdict was drawn as text at 2.25:1. */
static void inconclusive_heading_reads(void **state)
{
	const struct category_style *s = category_style(CAT_OVERLAPPED_COMM);

	(void)state;
	assert_true(contrast_on_white(s->c) < 3);	/* the fill stays Okabe-Ito's orange */
	assert_true(contrast_on_white(s->text) >= 4.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(contrast_known_answers),
		cmocka_unit_test(every_text_colour_reads),
		cmocka_unit_test(inconclusive_heading_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
