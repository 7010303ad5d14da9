#include "core/pattern.h"

#include <pthread.h>

#include "core/xalloc.h"

/* Compiling is serialised; a table's state is then published with release order. */
static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;

static int state_of(const struct pattern_table *t)
{
	return __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
}

/* Compiles every pattern of t into its slots; the state is left to the caller. */
static bool compile_all(struct pattern_table *t)
{
	int err;
	PCRE2_SIZE off;
	uint32_t groups = 0, g;

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
	t->groups = groups;
	t->md = pcre2_match_data_create(groups + 1, NULL);
	return t->md != NULL;
}

bool pattern_compile(struct pattern_table *t)
{
	int state = state_of(t);

	if (state)
		return state > 0;
	pthread_mutex_lock(&compile_lock);
	state = t->state;	/* another thread may have compiled it meanwhile */
	if (!state) {
		state = compile_all(t) ? 1 : -1;
		__atomic_store_n(&t->state, state, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&compile_lock);
	return state > 0;
}

/* The match data of the tables a worker thread used; the main thread uses each table's own. */
struct thread_md {
	const struct pattern_table *t;
	pcre2_match_data *md;
};

static _Thread_local bool worker;
static _Thread_local struct thread_md *tmd;
static _Thread_local size_t ntmd, cap_tmd;

void pattern_thread_begin(void)
{
	worker = true;
}

void pattern_thread_end(void)
{
	for (size_t i = 0; i < ntmd; i++)
		pcre2_match_data_free(tmd[i].md);
	free(tmd);
	tmd = NULL;
	ntmd = cap_tmd = 0;
	worker = false;
}

/* The match data this thread uses with t; NULL when it has none and `make` is false. */
static pcre2_match_data *md_of(const struct pattern_table *t, bool make)
{
	pcre2_match_data *md;

	if (!worker)
		return t->md;
	for (size_t i = 0; i < ntmd; i++)
		if (tmd[i].t == t)
			return tmd[i].md;
	if (!make || state_of(t) <= 0 || !(md = pcre2_match_data_create(t->groups + 1, NULL)))
		return NULL;
	xgrow(&tmd, &cap_tmd, ntmd + 1, sizeof(*tmd));
	tmd[ntmd++] = (struct thread_md){ t, md };
	return md;
}

bool pattern_match(const struct pattern_table *t, size_t i, const char *s, size_t n,
		   pcre2_match_data *md)
{
	return md && state_of(t) > 0 &&
	       pcre2_match(t->code[i], (PCRE2_SPTR)s, n, 0, 0, md, NULL) > 0;
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
	return pattern_match(t, i, s, n, md_of(t, true));
}

bool pattern_get(const struct pattern_table *t, int g, const char *s, const char **start, size_t *len)
{
	pcre2_match_data *md = md_of(t, false);

	return md && pattern_group(md, g, s, start, len);
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
