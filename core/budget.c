#include "core/budget.h"

#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Atomic int64_t used;	/* bytes kept by arenas and growable arrays */
static _Atomic int64_t cap;	/* the budget; 0 until set or first asked: the default */

/* Files that hold a container's memory limit (cgroup v2, then v1): "max" or a huge number when none. */
static const char *const cgroup_limits[] = {
	"/sys/fs/cgroup/memory.max",
	"/sys/fs/cgroup/memory/memory.limit_in_bytes",
};

/* The memory this process may use: physical memory, or a smaller container limit. */
static int64_t usable_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);
	int64_t mem = pages > 0 && page > 0 ? (int64_t)pages * page : -1;

	for (size_t i = 0; i < sizeof(cgroup_limits) / sizeof(cgroup_limits[0]); i++) {
		FILE *f = fopen(cgroup_limits[i], "r");
		long long v;

		if (!f)
			continue;
		if (fscanf(f, "%lld", &v) == 1 && v > 0 && (mem < 0 || v < mem))
			mem = v;
		fclose(f);
	}
	return mem;
}

int64_t budget_default(void)
{
	int64_t mem = usable_memory();

	return mem > 0 && mem / 2 < BUDGET_DEFAULT_CAP ? mem / 2 : BUDGET_DEFAULT_CAP;
}

void budget_set_max(int64_t n)
{
	atomic_store(&cap, n > 0 ? n : budget_default());
}

int64_t budget_max(void)
{
	int64_t c = atomic_load(&cap);

	if (c > 0)
		return c;
	c = budget_default();
	atomic_store(&cap, c);
	return c;
}

void budget_add(int64_t delta)
{
	atomic_fetch_add_explicit(&used, delta, memory_order_relaxed);
}

int64_t budget_used(void)
{
	return atomic_load_explicit(&used, memory_order_relaxed);
}

bool budget_over(void)
{
	return budget_used() > budget_max();
}

/* Powers of 1024 by suffix letter. */
static const struct { char letter; int shift; } units[] = {
	{ 'k', 10 }, { 'm', 20 }, { 'g', 30 }, { 't', 40 },
};

static int unit_shift(const char *s)
{
	int shift = -1;

	if (!*s)
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (tolower((unsigned char)*s) == units[i].letter)
			shift = units[i].shift;
	if (shift < 0)
		return strcmp(s, "B") && strcmp(s, "b") ? -1 : 0;
	s++;
	if (!strcmp(s, "") || !strcmp(s, "B") || !strcmp(s, "b") || !strcmp(s, "iB") ||
	    !strcmp(s, "ib"))
		return shift;
	return -1;
}

int budget_parse_size(const char *s, int64_t *out)
{
	char *end;
	long long v;
	int shift;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	shift = unit_shift(end);
	if (errno || v <= 0 || shift < 0 || v > (INT64_MAX >> 1 >> shift))
		return -1;
	*out = (int64_t)v << shift;
	return 0;
}
