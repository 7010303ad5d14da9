#include "render/style.h"

#include <assert.h>

/* A text colour from 0xRRGGBB. */
#define TEXT(x) { ((x) >> 16 & 0xFF) / 255.0, ((x) >> 8 & 0xFF) / 255.0, ((x) & 0xFF) / 255.0 }

/*
 * Okabe & Ito (2008), with greys for what is not data. Each category's text
 * colour is its fill darkened until it reads at 4.5:1 on white (WCAG 2),
 * the least for text; tests/unit/test_style.c checks every one.
 */
static const struct category_style categories[CAT_COUNT] = {
	[CAT_COMPUTE] = { "compute", "compute", { 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0 }, TEXT(0x0072B2) },
	[CAT_EXPOSED_COMM] = { "exposed_comm", "exposed comm", { 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0 }, TEXT(0xC25600) },
	[CAT_MEMORY] = { "memory", "memory (copy/set)", { 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0 }, TEXT(0x008662) },
	[CAT_IDLE] = { "idle", "idle", { 0xBB / 255.0, 0xBB / 255.0, 0xBB / 255.0 }, TEXT(0x767676) },
	[CAT_OVERLAPPED_COMM] = { "overlapped_comm", "overlapped comm", { 0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0 }, TEXT(0x9C6C00) },
	[CAT_BASELINE] = { "baseline", "baseline", { 0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0 }, TEXT(0x3B7CA1) },
	[CAT_CANDIDATE] = { "candidate", "candidate", { 0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0 }, TEXT(0xA36186) },
	[CAT_OTHER_RUN] = { "other_run", "other run", { 0x99 / 255.0, 0x99 / 255.0, 0x33 / 255.0 }, TEXT(0x797928) },	/* olive: yellow is unreadable on white */
	[CAT_OTHER_RUN2] = { "other_run2", "other run", { 0x33 / 255.0, 0x33 / 255.0, 0x33 / 255.0 }, TEXT(0x333333) },
	[CAT_REFERENCE] = { "reference", "reference", { 0.35, 0.35, 0.35 }, TEXT(0x595959) },
	[CAT_WARMUP] = { "warmup", "warm-up", { 0.90, 0.90, 0.90 }, TEXT(0x757575) },
	[CAT_INK] = { "ink", "ink", { 0.13, 0.13, 0.13 }, TEXT(0x212121) },
	[CAT_GRID] = { "grid", "grid", { 0.88, 0.88, 0.88 }, TEXT(0x757575) },
	[CAT_WARNING] = { "warning", "not comparable", { 0x8B / 255.0, 0x2E / 255.0, 0x00 / 255.0 }, TEXT(0x8B2E00) },
	/* memory categories: Okabe-Ito hues no run colour uses */
	[CAT_MEM_PARAMETER] = { "mem_parameter", "parameters", { 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0 }, TEXT(0x0072B2) },
	[CAT_MEM_GRADIENT] = { "mem_gradient", "gradients", { 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0 }, TEXT(0xC25600) },
	[CAT_MEM_OPTIMIZER] = { "mem_optimizer", "optimizer state", { 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0 }, TEXT(0x008662) },
	[CAT_MEM_ACTIVATION] = { "mem_activation", "activations", { 0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0 }, TEXT(0x9C6C00) },
	[CAT_MEM_OTHER] = { "mem_other", "other tensors", { 0xBB / 255.0, 0xBB / 255.0, 0xBB / 255.0 }, TEXT(0x767676) },
};

const struct category_style *category_style(enum category c)
{
	assert((unsigned)c < CAT_COUNT);
	return &categories[c];
}

#define FAMILY "DejaVu Sans, Liberation Sans, Arial, sans-serif"

static const struct font_style fonts[FONT_ROLES] = {
	[FONT_TITLE] = { "title", FAMILY, 17, 1 },
	[FONT_SUBTITLE] = { "subtitle", FAMILY, 13, 0 },
	[FONT_AXIS] = { "axis", FAMILY, 13.5, 0 },
	[FONT_TICK] = { "tick", FAMILY, 12.5, 0 },
	[FONT_LEGEND] = { "legend", FAMILY, 12.5, 0 },
	[FONT_NOTE] = { "note", FAMILY, 11.5, 0 },
	[FONT_PAGE_TITLE] = { "page_title", FAMILY, 20, 1 },
	[FONT_VERDICT] = { "verdict", FAMILY, 30, 1 },
	[FONT_HEADING] = { "heading", FAMILY, 14, 1 },
	[FONT_BODY] = { "body", FAMILY, 11.5, 0 },
	[FONT_CAPTION] = { "caption", FAMILY, 12, 0 },
};

const struct font_style *font_style(enum font_role r)
{
	assert((unsigned)r < FONT_ROLES);
	return &fonts[r];
}
