/*
 * Unit tests of render/text's release at exit: a thread that still holds the
 * font map (pango's fontconfig-init task can, under load) made
 * text_release() reset cairo's static data under live fonts, an abort in
 * cairo-hash.c. It now leaves cairo's and fontconfig's static data to the
 * process's exit, and text starts over after a release.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pango/pangocairo.h>

#include "render/style.h"
#include "render/text.h"

static gpointer hold_font_map(gpointer map)
{
	g_usleep(200000);
	g_object_unref(map);
	return NULL;
}

static void release_while_a_thread_holds_the_font_map(void **state)
{
	double w, h;

	text_size(FONT_BODY, "GPU", 0, &w, &h);
	g_thread_unref(g_thread_new("holder", hold_font_map,
				    g_object_ref(pango_cairo_font_map_get_default())));
	text_release();		/* aborted here before */
	text_size(FONT_BODY, "GPU", 0, &w, &h);	/* and text starts over */
	assert_true(w > 0 && h > 0);
	text_release();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(release_while_a_thread_holds_the_font_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
