#include "core/pattern.h"

bool pattern_compile(struct pattern_table *t)
{
	int err;
	PCRE2_SIZE off;
	uint32_t groups = 0, g;

	if (t->state)
		return t->state > 0;
	t->state = -1;
	for (size_t i = 0; i < t->n; i++) {
		const char *src = *(const char *const *)((const char *)t->base + i * t->stride);

		t->code[i] = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, t->options,
					   &err, &off, NULL);
		if (!t->code[i])
			return false;
		pcre2_jit_compile(t->code[i], PCRE2_JIT_COMPLETE);
		if (pcre2_pattern_info(t->code[i], PCRE2_INFO_CAPTURECOUNT, &g) == 0 && g > groups)
			groups = g;
	}
	t->md = pcre2_match_data_create(groups + 1, NULL);
	if (!t->md)
		return false;
	t->state = 1;
	return true;
}

bool pattern_match(const struct pattern_table *t, size_t i, const char *s, size_t n,
		   pcre2_match_data *md)
{
	return t->state > 0 && pcre2_match(t->code[i], (PCRE2_SPTR)s, n, 0, 0, md, NULL) > 0;
}

bool pattern_group(pcre2_match_data *md, int g, const char *s, const char **start, size_t *len)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

	if ((uint32_t)g >= pcre2_get_ovector_count(md) || ov[2 * g] == PCRE2_UNSET)
		return false;
	*start = s + ov[2 * g];
	*len = ov[2 * g + 1] - ov[2 * g];
	return true;
}

bool pattern_find(struct pattern_table *t, size_t i, const char *s, size_t n)
{
	return pattern_match(t, i, s, n, t->md);
}

bool pattern_get(const struct pattern_table *t, int g, const char *s, const char **start, size_t *len)
{
	return t->md && pattern_group(t->md, g, s, start, len);
}

void pattern_release(struct pattern_table *t)
{
	for (size_t i = 0; t->state && i < t->n; i++) {
		pcre2_code_free(t->code[i]);
		t->code[i] = NULL;
	}
	pcre2_match_data_free(t->md);
	t->md = NULL;
	t->state = 0;
}
