#include "core/pattern.h"

bool pattern_compile(struct pattern_table *t)
{
	int err;
	PCRE2_SIZE off;

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
	}
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
