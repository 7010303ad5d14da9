#include "ingest/pyenv.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/jtree.h"
#include "core/xalloc.h"

#define LINE_MAX_LEN 4096		/* longer lines are cut */
#define FILE_MAX (16 << 20)		/* bytes of one text input read */
#define META_MAX (64 << 10)		/* bytes of one METADATA read: its headers come first */
#define SNIFF_LEN 4096

/* The wheels whose version is a fact of the stack, by normalised name. */
static const struct derived {
	const char *name;
	size_t field;			/* offset of the char[PY_VER_LEN] in struct py_env */
} derived[] = {
	{ "nvidia-nccl-cu11", offsetof(struct py_env, nccl_version) },
	{ "nvidia-nccl-cu12", offsetof(struct py_env, nccl_version) },
	{ "nvidia-nccl-cu13", offsetof(struct py_env, nccl_version) },
	{ "nvidia-cudnn-cu11", offsetof(struct py_env, cudnn_version) },
	{ "nvidia-cudnn-cu12", offsetof(struct py_env, cudnn_version) },
	{ "nvidia-cudnn-cu13", offsetof(struct py_env, cudnn_version) },
	{ "nvidia-cuda-runtime-cu11", offsetof(struct py_env, cuda_runtime) },
	{ "nvidia-cuda-runtime-cu12", offsetof(struct py_env, cuda_runtime) },
	{ "nvidia-cuda-runtime-cu13", offsetof(struct py_env, cuda_runtime) },
	{ "nvidia-cuda-runtime", offsetof(struct py_env, cuda_runtime) },
	{ "nccl", offsetof(struct py_env, nccl_version) },		/* conda */
	{ "cudnn", offsetof(struct py_env, cudnn_version) },		/* conda */
	{ "cuda-cudart", offsetof(struct py_env, cuda_runtime) },	/* conda */
};

static void copy(char *dst, size_t n, const char *s, size_t len)
{
	if (len >= n)
		len = n - 1;
	memcpy(dst, s, len);
	dst[len] = 0;
}

/* PEP 503: lowercase, every run of '-', '_' and '.' becomes one '-'. */
static void normalise(char *dst, size_t n, const char *s, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 1 < n; i++) {
		bool sep = s[i] == '-' || s[i] == '_' || s[i] == '.';

		if (!sep)
			dst[k++] = (char)tolower((unsigned char)s[i]);
		else if (k && dst[k - 1] != '-')
			dst[k++] = '-';
	}
	while (k && dst[k - 1] == '-')
		k--;
	dst[k] = 0;
}

static bool name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '.';
}

void py_env_init(struct py_env *e)
{
	*e = (struct py_env){ .pkg = NULL };
}

void py_env_release(struct py_env *e)
{
	xgrow_free(&e->pkg, &e->cap, sizeof(*e->pkg));
	*e = (struct py_env){ .pkg = NULL };
}

const struct py_package *py_env_find(const struct py_env *e, const char *name)
{
	char key[PY_NAME_LEN];

	normalise(key, sizeof(key), name, strlen(name));
	for (size_t i = 0; i < e->npkg; i++)
		if (!strcmp(e->pkg[i].name, key))
			return &e->pkg[i];
	return NULL;
}

/* "12.8" from "cu128", "9.2" from "cu92": the last digit is the minor version. */
bool pyenv_local_cuda(const char *local, char *out, size_t n)
{
	size_t len = strlen(local);

	if (len < 4 || len > 5 || strncmp(local, "cu", 2))
		return false;
	for (size_t i = 2; i < len; i++)
		if (!isdigit((unsigned char)local[i]))
			return false;
	snprintf(out, n, "%.*s.%c", (int)(len - 3), local + 2, local[len - 1]);
	return true;
}

bool pyenv_local_rocm(const char *local, char *out, size_t n)
{
	const char *v = local + 4;

	if (strncmp(local, "rocm", 4) || !isdigit((unsigned char)*v))
		return false;
	for (const char *p = v; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return false;
	snprintf(out, n, "%s", v);
	return true;
}

static void derive_torch(struct py_env *e, const struct py_package *p)
{
	snprintf(e->torch_version, sizeof(e->torch_version), "%s", p->version);
	snprintf(e->torch_local, sizeof(e->torch_local), "%s", p->local);
	pyenv_local_cuda(p->local, e->torch_cuda, sizeof(e->torch_cuda));
	pyenv_local_rocm(p->local, e->torch_rocm, sizeof(e->torch_rocm));
}

static void derive(struct py_env *e, const struct py_package *p)
{
	if (!strcmp(p->name, "torch")) {
		derive_torch(e, p);
		return;
	}
	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++) {
		char *field = (char *)e + derived[i].field;

		if (!strcmp(p->name, derived[i].name) && !*field)
			snprintf(field, PY_VER_LEN, "%s", p->version);
	}
}

/*
 * Bounded by construction: a list of any length keeps at most
 * PY_MAX_PACKAGES fixed-size entries (the rest are counted in dropped), so
 * pip and conda lists count nothing against --max-events or --max-memory.
 */
bool py_env_add(struct py_env *e, const char *name, size_t nlen, const char *version,
		size_t vlen, const char *source)
{
	struct py_package p = { .source = source };
	const char *plus = memchr(version, '+', vlen);
	size_t pub = plus ? (size_t)(plus - version) : vlen;

	normalise(p.name, sizeof(p.name), name, nlen);
	if (!*p.name)
		return false;
	if (py_env_find(e, p.name))
		return true;
	if (e->npkg == PY_MAX_PACKAGES) {
		e->dropped++;
		return true;
	}
	copy(p.version, sizeof(p.version), version, pub);
	if (plus)
		copy(p.local, sizeof(p.local), plus + 1, vlen - pub - 1);
	xgrow(&e->pkg, &e->cap, e->npkg + 1, sizeof(*e->pkg));
	e->pkg[e->npkg++] = p;
	derive(e, &e->pkg[e->npkg - 1]);
	return true;
}

/* ---- lines ---- */

struct span {
	const char *p;
	size_t n;
};

static struct span trim(const char *p, size_t n)
{
	while (n && isspace((unsigned char)*p))
		p++, n--;
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	return (struct span){ p, n };
}

/* The next whitespace-separated token of *s, advancing it; n == 0 at the end. */
static struct span token(struct span *s)
{
	struct span t;

	*s = trim(s->p, s->n);
	t.p = s->p;
	t.n = 0;
	while (t.n < s->n && !isspace((unsigned char)t.p[t.n]))
		t.n++;
	s->p += t.n;
	s->n -= t.n;
	return t;
}

static bool is(struct span s, const char *word)
{
	return s.n == strlen(word) && !memcmp(s.p, word, s.n);
}

static bool valid_name(struct span s)
{
	if (!s.n || !isalnum((unsigned char)s.p[0]))
		return false;
	for (size_t i = 0; i < s.n; i++)
		if (!name_char((unsigned char)s.p[i]))
			return false;
	return true;
}

static const char *find(struct span s, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= s.n; i++)
		if (!memcmp(s.p + i, needle, k))
			return s.p + i;
	return NULL;
}

struct py_parser {
	struct py_env *e;
	enum py_input kind;
	const char *path;
	const char *source;		/* the packages' source */
	char line[LINE_MAX_LEN];
	size_t len;
	size_t count;			/* packages or archs read */
	int list_state;			/* pip list: 0 before the header, 1 after it, 2 rows */
	bool meta_done;			/* METADATA: the blank line that ends the headers was seen */
	char meta_name[PY_NAME_LEN], meta_version[PY_VER_LEN];
	struct buf json;		/* the JSON kinds: the input, parsed at finish */
	struct diags *d;		/* where a JSON error goes; NULL: nowhere */
};

static void add(struct py_parser *p, struct span name, struct span version)
{
	if (valid_name(name) && py_env_add(p->e, name.p, name.n, version.p, version.n, p->source))
		p->count++;
}

/* The version in a wheel's file name at the end of a URL: "torch-2.7.0%2Bcu128-cp312-...whl". */
static void wheel_version(struct span url, char *out, size_t n)
{
	const char *slash = url.p;
	size_t k = 0;

	for (size_t i = 0; i < url.n; i++)
		if (url.p[i] == '#' || url.p[i] == '?')
			url.n = i;	/* "#sha256=...", a query */
	for (size_t i = 0; i < url.n; i++)
		if (url.p[i] == '/')
			slash = url.p + i + 1;
	url.n -= (size_t)(slash - url.p);
	url.p = slash;
	*out = 0;
	if (url.n < 4 || memcmp(url.p + url.n - 4, ".whl", 4))
		return;
	const char *dash = memchr(url.p, '-', url.n);
	if (!dash)
		return;
	for (const char *c = dash + 1; c < url.p + url.n && *c != '-' && k + 1 < n; c++) {
		if (*c == '%' && c + 2 < url.p + url.n && !strncasecmp(c, "%2B", 3)) {
			out[k++] = '+';
			c += 2;
		} else {
			out[k++] = *c;
		}
	}
	out[k] = 0;
}

static void freeze_editable(struct py_parser *p, struct span s)
{
	const char *egg = find(s, "#egg=");
	struct span name;

	if (!egg)
		return;
	name.p = egg + 5;
	name.n = 0;
	while (name.p + name.n < s.p + s.n && name_char((unsigned char)name.p[name.n]))
		name.n++;
	add(p, name, (struct span){ "", 0 });
}

static void freeze_line(struct py_parser *p, struct span s)
{
	const char *eq = find(s, "==");
	const char *at = find(s, " @ ");

	if (!s.n || s.p[0] == '#')
		return;
	if (s.n > 3 && !memcmp(s.p, "-e ", 3)) {
		freeze_editable(p, s);
		return;
	}
	if (eq && (!at || eq < at)) {
		struct span v = { eq + 2, s.n - (size_t)(eq + 2 - s.p) };

		if (v.n && *v.p == '=')		/* "===" */
			v.p++, v.n--;
		v = token(&v);
		if (memchr(v.p, ';', v.n))	/* an environment marker */
			v.n = (size_t)((const char *)memchr(v.p, ';', v.n) - v.p);
		add(p, trim(s.p, (size_t)(eq - s.p)), v);
	} else if (at) {
		char ver[PY_VER_LEN];
		struct span url = trim(at + 3, s.n - (size_t)(at + 3 - s.p));

		wheel_version(url, ver, sizeof(ver));
		add(p, trim(s.p, (size_t)(at - s.p)), (struct span){ ver, strlen(ver) });
	}
}

static bool dashes(struct span s)
{
	if (!s.n)
		return false;
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] != '-' && s.p[i] != ' ')
			return false;
	return true;
}

static void list_line(struct py_parser *p, struct span s)
{
	struct span rest = s;
	struct span name = token(&rest);
	struct span version = token(&rest);

	if (p->list_state == 0) {
		if (is(name, "Package") && is(version, "Version"))
			p->list_state = 1;
		return;
	}
	if (p->list_state == 1) {
		p->list_state = dashes(s) ? 2 : 0;
		return;
	}
	if (version.n && isdigit((unsigned char)version.p[0]))
		add(p, name, version);
}

/* "sm_90", "compute_120", "sm_100a", "gfx942", "gfx90a:xnack-" */
static bool arch_token(struct span t)
{
	static const char *const prefix[] = { "sm_", "compute_", "gfx" };

	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
		size_t k = strlen(prefix[i]);

		if (t.n > k && !memcmp(t.p, prefix[i], k) && isdigit((unsigned char)t.p[k]))
			return true;
	}
	return false;
}

static bool arch_char(int c)
{
	return isalnum(c) || c == '_' || c == ':' || c == '+' || c == '-';
}

static void add_arch(struct py_parser *p, struct span t)
{
	struct py_env *e = p->e;

	for (size_t i = 0; i < e->narch; i++)
		if (strlen(e->arch_list[i]) == t.n && !memcmp(e->arch_list[i], t.p, t.n))
			return;
	if (e->narch == PY_MAX_ARCHS || t.n >= PY_ARCH_LEN)
		return;
	copy(e->arch_list[e->narch++], PY_ARCH_LEN, t.p, t.n);
	p->count++;
}

static void arch_line(struct py_parser *p, struct span s)
{
	size_t i = 0;

	while (i < s.n) {
		struct span t = { s.p + i, 0 };

		while (i < s.n && !arch_char((unsigned char)s.p[i]))
			t.p = s.p + ++i;
		while (i < s.n && arch_char((unsigned char)s.p[i]))
			i++, t.n++;
		if (arch_token(t))
			add_arch(p, t);
	}
}

static bool header(struct span s, const char *key, struct span *value)
{
	size_t k = strlen(key);

	if (s.n < k || strncasecmp(s.p, key, k))
		return false;
	*value = trim(s.p + k, s.n - k);
	return true;
}

static void metadata_line(struct py_parser *p, struct span raw)
{
	struct span s = trim(raw.p, raw.n), v;

	if (p->meta_done)
		return;
	if (!s.n) {
		p->meta_done = true;
		return;
	}
	if (!*p->meta_name && header(s, "Name:", &v))
		copy(p->meta_name, sizeof(p->meta_name), v.p, v.n);
	else if (!*p->meta_version && header(s, "Version:", &v))
		copy(p->meta_version, sizeof(p->meta_version), v.p, v.n);
}

/*
 * The CUDA of a conda build string as a wheel's local part: "cu124" from
 * "py3.11_cuda12.4_cudnn9.1.0_0", "cu126" from "cuda126_mkl_py312_h0_300",
 * "cpu" from a cpu build; "" otherwise.
 */
static void conda_local(struct span build, char *out, size_t n)
{
	const char *cuda = find(build, "cuda");
	size_t k = 0;

	*out = 0;
	if (!cuda) {
		if (find(build, "cpu"))
			snprintf(out, n, "cpu");
		return;
	}
	k = (size_t)snprintf(out, n, "cu");
	for (const char *c = cuda + 4; c < build.p + build.n && k + 1 < n; c++) {
		if (isdigit((unsigned char)*c))
			out[k++] = *c;
		else if (*c != '.')
			break;
	}
	out[k] = 0;
	if (k == 2)
		*out = 0;
}

/* One conda package: "pytorch" becomes torch with its build's CUDA as the local part. */
static void add_conda(struct py_parser *p, struct span name, struct span version, struct span build)
{
	char local[PY_VER_LEN], v[2 * PY_VER_LEN];

	if (!is(name, "pytorch") || memchr(version.p, '+', version.n)) {
		add(p, name, version);
		return;
	}
	conda_local(build, local, sizeof(local));
	snprintf(v, sizeof(v), "%.*s%s%s", (int)(version.n < PY_VER_LEN ? version.n : PY_VER_LEN),
		 version.p, *local ? "+" : "", local);
	add(p, (struct span){ "torch", 5 }, (struct span){ v, strlen(v) });
}

static void conda_line(struct py_parser *p, struct span s)
{
	struct span rest = s, name, version, build;

	if (!s.n || s.p[0] == '#')
		return;
	name = token(&rest);
	version = token(&rest);
	build = token(&rest);
	if (version.n && isdigit((unsigned char)version.p[0]))
		add_conda(p, name, version, build);
}

/* A string member of a JSON object as a span; empty when absent or not a string. */
static struct span member(const struct jnode *o, const char *key)
{
	const struct jnode *m = jtree_member(o, key);

	return m && m->type == J_STR ? (struct span){ m->s, strlen(m->s) } : (struct span){ "", 0 };
}

/* pip list --format=json or conda list --json, whole. */
static void parse_json(struct py_parser *p)
{
	struct arena a = ARENA_INIT;
	const char *err = NULL;
	int64_t at = 0;
	const struct jnode *root = jtree_parse(&a, p->json.data ? p->json.data : "", p->json.len, &err, &at);

	if (!root && p->d)
		diag_error(p->d, "invalid-json", &SRCPOS_BYTE(p->path, at), "%s", err);
	for (const struct jnode *c = root && root->type == J_ARR ? root->child : NULL; c; c = c->next) {
		if (c->type != J_OBJ)
			continue;
		if (p->kind == PY_CONDA_JSON)
			add_conda(p, member(c, "name"), member(c, "version"), member(c, "build_string"));
		else
			add(p, member(c, "name"), member(c, "version"));
	}
	arena_release(&a);
}

static void line(struct py_parser *p)
{
	struct span s = trim(p->line, p->len);

	switch (p->kind) {
	case PY_FREEZE:
		freeze_line(p, s);
		break;
	case PY_LIST:
		list_line(p, s);
		break;
	case PY_ARCH_LIST:
		arch_line(p, s);
		break;
	case PY_METADATA:
		metadata_line(p, (struct span){ p->line, p->len });
		break;
	case PY_CONDA:
		conda_line(p, s);
		break;
	case PY_PIP_JSON:
	case PY_CONDA_JSON:
	case PY_NONE:
		break;
	}
	p->len = 0;
}

static bool json_kind(enum py_input kind)
{
	return kind == PY_PIP_JSON || kind == PY_CONDA_JSON;
}

static const char *const source_of[] = {
	[PY_NONE] = "", [PY_FREEZE] = "pip freeze", [PY_LIST] = "pip list",
	[PY_ARCH_LIST] = "", [PY_METADATA] = "metadata", [PY_PIP_JSON] = "pip list",
	[PY_CONDA] = "conda list", [PY_CONDA_JSON] = "conda list",
};

struct py_parser *py_parser_new(struct py_env *e, enum py_input kind, const char *path)
{
	struct py_parser *p = xcalloc(1, sizeof(*p));

	p->e = e;
	p->kind = kind;
	p->path = path;
	p->source = source_of[kind];
	buf_init(&p->json, 0);
	return p;
}

void py_parser_feed(struct py_parser *p, const char *buf, size_t len)
{
	if (json_kind(p->kind)) {
		if (p->json.len < FILE_MAX)
			buf_add(&p->json, buf, len < FILE_MAX - p->json.len ? len : FILE_MAX - p->json.len);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n')
			line(p);
		else if (p->len < sizeof(p->line))
			p->line[p->len++] = buf[i];
	}
}

size_t py_parser_finish(struct py_parser *p)
{
	size_t n;

	if (p->len)
		line(p);
	if (json_kind(p->kind))
		parse_json(p);
	if (p->kind == PY_METADATA && *p->meta_name)
		add(p, (struct span){ p->meta_name, strlen(p->meta_name) },
		    (struct span){ p->meta_version, strlen(p->meta_version) });
	n = p->count;
	buf_release(&p->json);
	free(p);
	return n;
}

size_t pyenv_parse(struct py_env *e, enum py_input kind, const char *buf, size_t len,
		   const char *path)
{
	struct py_parser *p = py_parser_new(e, kind, path);

	py_parser_feed(p, buf, len);
	return py_parser_finish(p);
}

/* ---- sniffing ---- */

static bool freeze_like(struct span s)
{
	const char *eq = find(s, "==");
	const char *at = find(s, " @ ");
	const char *end = eq && (!at || eq < at) ? eq : at;

	if (s.n > 3 && !memcmp(s.p, "-e ", 3))
		return true;
	return end && valid_name(trim(s.p, (size_t)(end - s.p)));
}

static bool arch_list_like(struct span s)
{
	struct span rest = s;

	if (s.n >= 2 && s.p[0] == '[' && s.p[s.n - 1] == ']')
		return find(s, "'sm_") || find(s, "'compute_") || find(s, "'gfx");
	for (struct span t = token(&rest); t.n; t = token(&rest))
		if (!arch_token(t))
			return false;
	return true;
}

/* The non-empty lines of the window, the last one only when it ended. */
struct lines {
	struct span win;
	size_t pos;
};

static bool next_line(struct lines *l, struct span *s)
{
	while (l->pos < l->win.n) {
		const char *start = l->win.p + l->pos;
		const char *nl = memchr(start, '\n', l->win.n - l->pos);

		if (!nl)
			return false;
		l->pos = (size_t)(nl - l->win.p) + 1;
		*s = trim(start, (size_t)(nl - start));
		if (s->n)
			return true;
	}
	return false;
}

static enum py_input sniff_lines(struct lines *l)
{
	struct span s, rest, a, b;
	size_t freeze = 0, arch = 0, other = 0;

	while (next_line(l, &s)) {
		rest = s;
		a = token(&rest);
		b = token(&rest);
		if (!freeze && !arch && !other && header(s, "Metadata-Version:", &rest))
			return PY_METADATA;
		if (!freeze && !arch && !other && (find(s, "# packages in environment at ") == s.p ||
						    (is(a, "#") && is(b, "Name") && find(s, " Build"))))
			return PY_CONDA;
		if (!freeze && !arch && !other && is(a, "Package") && is(b, "Version"))
			return next_line(l, &s) && dashes(s) ? PY_LIST : PY_NONE;
		if (s.p[0] == '#')
			continue;
		if (freeze_like(s))
			freeze++;
		else if (arch_list_like(s))
			arch++;
		else if (!memcmp(s.p, ">>>", s.n < 3 ? s.n : 3) || s.p[0] == '\'')
			continue;	/* a saved session: its prompts and a quoted value */
		else
			other++;
	}
	if (other)
		return PY_NONE;
	return freeze && !arch ? PY_FREEZE : arch && !freeze ? PY_ARCH_LIST : PY_NONE;
}

/*
 * A JSON package list: '[' then '{' (white space aside), and "name" and
 * "version" keys in the window; conda's when it has "build_string" or
 * "channel" keys.
 */
static enum py_input sniff_json(struct span w)
{
	size_t i = 0;

	while (i < w.n && isspace((unsigned char)w.p[i]))
		i++;
	if (i == w.n || w.p[i++] != '[')
		return PY_NONE;
	while (i < w.n && isspace((unsigned char)w.p[i]))
		i++;
	if (i == w.n || w.p[i] != '{' || !find(w, "\"name\"") || !find(w, "\"version\""))
		return PY_NONE;
	return find(w, "\"build_string\"") || find(w, "\"channel\"") ? PY_CONDA_JSON : PY_PIP_JSON;
}

enum py_input pyenv_sniff(const char *buf, size_t len)
{
	struct lines l = { { buf, len < SNIFF_LEN ? len : SNIFF_LEN }, 0 };
	enum py_input json = sniff_json(l.win);
	char tmp[SNIFF_LEN + 1];

	if (json != PY_NONE)
		return json;
	/* a last line without its newline counts when the whole file is in the window */
	if (len <= SNIFF_LEN && len && buf[len - 1] != '\n') {
		memcpy(tmp, buf, len);
		tmp[len] = '\n';
		l.win = (struct span){ tmp, len + 1 };
	}
	return sniff_lines(&l);
}

/* ---- files ---- */

static int read_some(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (int)got;
}

/* Feeds fd from its current position, at most limit bytes after the first. */
static int feed_rest(struct py_parser *p, int fd, size_t limit)
{
	char buf[16384];
	size_t total = 0;
	int r;

	while (total < limit && (r = read_some(fd, buf, sizeof(buf))) > 0) {
		py_parser_feed(p, buf, (size_t)r);
		total += (size_t)r;
	}
	return r < 0 ? -1 : 0;
}

int pyenv_read_file(struct py_env *e, const char *path, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(path);
	char head[SNIFF_LEN];
	enum py_input kind;
	struct py_parser *p;
	int fd = open(path, O_RDONLY), n, rc;
	size_t errors;

	if (fd < 0)
		return diag_error(d, "unreadable", &pos, "cannot open: %s", strerror(errno));
	n = read_some(fd, head, sizeof(head));
	if (n < 0) {
		rc = diag_error(d, "unreadable", &pos, "cannot read: %s", strerror(errno));
		close(fd);
		return rc;
	}
	kind = pyenv_sniff(head, (size_t)n);
	if (kind == PY_NONE) {
		close(fd);
		return PY_NONE;
	}
	p = py_parser_new(e, kind, path);
	p->d = d;
	py_parser_feed(p, head, (size_t)n);
	rc = feed_rest(p, fd, FILE_MAX - SNIFF_LEN);
	errors = d->errors;
	if (rc < 0)
		rc = errno;
	py_parser_finish(p);
	close(fd);
	if (rc)
		return diag_error(d, "unreadable", &pos, "cannot read: %s", strerror(rc));
	return d->errors > errors ? -1 : (int)kind;	/* JSON that does not parse */
}

/* ---- walking ---- */

struct walker {
	struct py_env *e;
	size_t entries;		/* directory entries seen, against PYENV_MAX_ENTRIES */
	int added;
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n >= k && !strcmp(s + n - k, tail);
}

/* The name and version in "torch-2.7.0+cu128.dist-info" or "six-1.16.0-py3.12.egg-info". */
static void add_from_dirname(struct walker *w, const char *name, const char *source)
{
	const char *dot = strrchr(name, '.');
	const char *dash = memchr(name, '-', (size_t)(dot - name));
	size_t vlen;

	if (!dash) {
		if (py_env_add(w->e, name, (size_t)(dot - name), "", 0, source))
			w->added++;
		return;
	}
	vlen = (size_t)(dot - dash - 1);
	if (!strcmp(source, "egg-info") && memchr(dash + 1, '-', vlen))
		vlen = (size_t)((const char *)memchr(dash + 1, '-', vlen) - dash - 1);
	if (py_env_add(w->e, name, (size_t)(dash - name), dash + 1, vlen, source))
		w->added++;
}

/* Reads the headers of a METADATA / PKG-INFO file; false when it gave no name. */
static bool add_from_metadata(struct walker *w, int dirfd, const char *file, const char *source)
{
	char buf[META_MAX];
	struct py_parser *p;
	int fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW), n;
	size_t got;

	if (fd < 0)
		return false;
	n = read_some(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return false;
	p = py_parser_new(w->e, PY_METADATA, file);
	p->source = source;
	py_parser_feed(p, buf, (size_t)n);
	got = py_parser_finish(p);
	w->added += (int)got;
	return true;
}

static void add_dist(struct walker *w, int dirfd, const char *name, bool is_dir)
{
	bool egg = ends_with(name, ".egg-info");
	const char *source = egg ? "egg-info" : "dist-info";
	int sub;
	bool ok = false;

	if (!is_dir) {
		ok = egg && add_from_metadata(w, dirfd, name, source);
	} else if ((sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) >= 0) {
		ok = add_from_metadata(w, sub, egg ? "PKG-INFO" : "METADATA", source);
		close(sub);
	}
	if (!ok)
		add_from_dirname(w, name, source);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (owned, sorted), bounded by the walker's entry count. */
static char **list_dir(struct walker *w, DIR *dir, size_t *n)
{
	char **names = NULL;
	size_t cap = 0;
	struct dirent *de;

	*n = 0;
	while ((de = readdir(dir)) && w->entries < PYENV_MAX_ENTRIES) {
		w->entries++;
		if (de->d_name[0] == '.')
			continue;
		xgrow(&names, &cap, *n + 1, sizeof(*names));
		names[(*n)++] = xstrdup(de->d_name);
	}
	if (*n > 1)	/* an empty directory has no list: qsort must not get NULL */
		qsort(names, *n, sizeof(*names), cmp_names);
	return names;
}

static void walk_dir(struct walker *w, int dirfd, int depth);

static void visit(struct walker *w, int dirfd, char **names, size_t n, int depth)
{
	bool site = false;
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		if (fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (ends_with(names[i], ".dist-info") || ends_with(names[i], ".egg-info")) {
			add_dist(w, dirfd, names[i], S_ISDIR(st.st_mode));
			site = true;
		}
	}
	for (size_t i = 0; i < n && !site && depth < PYENV_MAX_DEPTH; i++) {
		int sub;

		if (fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		sub = openat(dirfd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (sub >= 0)
			walk_dir(w, sub, depth + 1);	/* closes sub */
	}
}

/* Walks the directory open as dirfd and closes it. */
static void walk_dir(struct walker *w, int dirfd, int depth)
{
	DIR *dir = fdopendir(dirfd);
	char **names;
	size_t n;

	if (!dir) {
		close(dirfd);
		return;
	}
	names = list_dir(w, dir, &n);
	visit(w, dirfd, names, n, depth);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dir);
}

int pyenv_walk(struct py_env *e, const char *dir, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(dir);
	struct walker w = { .e = e };
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return diag_error(d, "unreadable", &pos, "cannot list directory: %s", strerror(errno));
	walk_dir(&w, fd, 0);
	return w.added;
}
