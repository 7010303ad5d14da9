#include "core/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"

static void oom(size_t n)
{
	fprintf(stderr, "scaleaudit: out of memory (%zu bytes)\n", n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void xgrow(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp;
	size_t n = *cap;

	if (need <= n)
		return;
	if (n < 16)
		n = 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			oom(SIZE_MAX);
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		oom(SIZE_MAX);
	*p = xrealloc(*p, n * size);
	budget_add((int64_t)((n - *cap) * size));
	*cap = n;
}

void xgrow_free(void *pp, size_t *cap, size_t size)
{
	void **p = pp;

	if (*p)	/* an array moved elsewhere (its pointer set to NULL) is the new owner's to give back */
		budget_add(-(int64_t)(*cap * size));
	free(*p);
	*p = NULL;
	*cap = 0;
}
