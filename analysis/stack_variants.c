#include "analysis/stack_variants.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/xalloc.h"

/* The backends a variant's name may give, and how its version digits split. */
static const struct backend {
	const char *name;
	size_t major_digits;	/* bitsandbytes' rule: CUDA 126 = 12.6, ROCm 62 = 6.2 */
} backends[] = {
	{ "cuda", 2 },
	{ "rocm", 1 },
};

/* The digits at p, at most 9 of them, as a number into *n; their count (0: none). */
static size_t digits(const char *p, size_t max, int *n)
{
	size_t k = 0;

	*n = 0;
	while (k < max && k < 9 && isdigit((unsigned char)p[k]))
		*n = *n * 10 + (p[k++] - '0');
	return k;
}

/* "_" BACKEND DIGITS at p, then "_word" or nothing, then ".so": fills v's backend part. */
static bool backend_at(const char *p, struct variant_name *v)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		const struct backend *b = &backends[i];
		size_t len = strlen(b->name), nmaj, nmin;
		const char *q = p + 1 + len;

		if (p[0] != '_' || strncmp(p + 1, b->name, len))
			continue;
		nmaj = digits(q, b->major_digits, &v->major);
		if (nmaj != b->major_digits)
			continue;
		nmin = digits(q + nmaj, 9, &v->minor);
		q += nmaj + nmin;
		if (!nmin || isdigit((unsigned char)*q))
			continue;
		v->suffixed = *q == '_';
		if (v->suffixed)
			q += strcspn(q, ".");
		if (strncmp(q, ".so", 3) || (q[3] && q[3] != '.'))
			continue;
		v->backend = b->name;
		return true;
	}
	return false;
}

bool variant_name_parse(const char *base, struct variant_name *v)
{
	*v = (struct variant_name){ 0 };
	if (strncmp(base, "lib", 3) || !base[3])
		return false;
	for (const char *p = base + 4; *p && *p != '.'; p++)	/* a stem of one character at least */
		if (*p == '_' && backend_at(p, v)) {
			v->stem = base + 3;
			v->stem_len = (size_t)(p - v->stem);
			return true;
		}
	return false;
}

/* One item that is a variant, and where it sits. */
struct variant {
	size_t item;			/* in r->item */
	const char *path;
	size_t dir_len;			/* path[0..dir_len): its directory, with the '/' */
	struct variant_name n;
};

static int by_package(const void *a, const void *b)
{
	const struct variant *x = a, *y = b;
	size_t lx = x->dir_len + x->n.stem_len, ly = y->dir_len + y->n.stem_len;
	int c;

	if (x->dir_len != y->dir_len)
		return x->dir_len < y->dir_len ? -1 : 1;
	c = strncmp(x->path, y->path, x->dir_len);
	if (c)
		return c;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	c = strncmp(x->n.stem, y->n.stem, x->n.stem_len);
	return c ? c : x->item < y->item ? -1 : x->item > y->item;
}

static bool same_package(const struct variant *x, const struct variant *y)
{
	return x->dir_len == y->dir_len && x->n.stem_len == y->n.stem_len &&
	       !strncmp(x->path, y->path, x->dir_len) && !strncmp(x->n.stem, y->n.stem, x->n.stem_len);
}

/* r's items whose names are variants, sorted by directory and stem; *n of them. */
static struct variant *find_variants(const struct stack_result *r, size_t *n)
{
	struct variant *v = xcalloc(r->nitem ? r->nitem : 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < r->nitem; i++) {
		const char *path = r->item[i].o.path, *slash = strrchr(path, '/');
		const char *base = slash ? slash + 1 : path;

		v[*n] = (struct variant){ .item = i, .path = path, .dir_len = (size_t)(base - path) };
		if (variant_name_parse(base, &v[*n].n))
			(*n)++;
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), by_package);
	return v;
}

/* The environment's backend version, "12.8" or "6.2.41133-dd7f95766": false when not one. */
static bool env_version(const char *s, int *major, int *minor)
{
	char *end;
	long a, b;

	if (!s || !isdigit((unsigned char)s[0]))
		return false;
	a = strtol(s, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	b = strtol(end + 1, &end, 10);
	if (a > 99 || b > 99)
		return false;
	*major = (int)a;
	*minor = (int)b;
	return true;
}

/* What the environment loads: the backend and its version; false when unknown. */
struct wanted {
	const char *backend;
	int major, minor;
};

static bool env_wants(const struct readiness_env *e, struct wanted *w)
{
	if (env_version(e->rocm, &w->major, &w->minor)) {
		w->backend = "rocm";	/* bitsandbytes asks torch.version.hip first */
		return true;
	}
	if (env_version(e->torch_cuda, &w->major, &w->minor)) {
		w->backend = "cuda";
		return true;
	}
	return false;
}

/* How w ranks v of its major: 2 its own minor, 1 an older one, 0 a newer one. */
static int rank(const struct variant_name *v, const struct wanted *w)
{
	return v->minor == w->minor ? 2 : v->minor < w->minor ? 1 : 0;
}

/* Whether a, rather than b, is the one w loads (both of w's backend and major). */
static bool better(const struct variant_name *a, const struct variant_name *b, const struct wanted *w)
{
	int ra = rank(a, w), rb = rank(b, w);

	if (ra != rb)
		return ra > rb;	/* exact, then older, then newer */
	if (a->minor != b->minor)
		return ra == 1 ? a->minor > b->minor : a->minor < b->minor;	/* the nearest */
	return b->suffixed && !a->suffixed;
}

/*
 * Of g[0..n), the variant w loads, or n for none: the exact version, else the
 * newest older one of the same major, else the oldest newer one; a plain name
 * before a suffixed one of the same version.
 */
static size_t pick(const struct variant *g, size_t n, const struct wanted *w)
{
	size_t best = n;

	for (size_t i = 0; i < n; i++) {
		const struct variant_name *v = &g[i].n;

		if (strcmp(v->backend, w->backend) || v->major != w->major)
			continue;
		if (best == n || better(v, &g[best].n, w))
			best = i;
	}
	return best;
}

/* Marks the group g[0..n) of r. */
static void mark(struct stack_result *r, const struct variant *g, size_t n, bool known,
		 const struct wanted *w)
{
	/* "DIR/libSTEM_*": one package's variants in one directory, never two directories' */
	const char *path = r->item[g[0].item].o.path, *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	struct buf b;
	const char *name;
	size_t loaded = known ? pick(g, n, w) : n;

	buf_init(&b, 0);
	buf_addf(&b, "%.*slib%.*s_*", (int)dir, path, (int)g[0].n.stem_len, g[0].n.stem);
	name = intern(&r->strings, b.data, b.len);
	buf_release(&b);

	for (size_t i = 0; i < n; i++) {
		struct stack_item *it = &r->item[g[i].item];

		it->group = name;
		it->alternative = known && i != loaded;
		it->loaded_unknown = !known;
	}
}

void stack_group_variants(struct stack_result *r)
{
	size_t n, end;
	struct variant *v = find_variants(r, &n);
	struct wanted w = { 0 };
	bool known = env_wants(&r->env, &w);

	for (size_t i = 0; i < n; i = end) {
		for (end = i + 1; end < n && same_package(&v[i], &v[end]); end++)
			;
		if (end - i > 1)	/* one file alone named like a variant is judged as it is */
			mark(r, &v[i], end - i, known, &w);
	}
	free(v);
}
