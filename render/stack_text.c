#include "render/stack_text.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/utf8.h"
#include "core/xalloc.h"

static int width(const char *s, int w)
{
	int n = (int)strlen(s);

	return n > w ? n : w;
}

static void print_row(FILE *f, const struct stack_result *s, const int *w, const char *const *cell)
{
	struct buf line = BUF_INIT;

	buf_init(&line, 0);
	buf_addf(&line, "%-*s  %-*s  %-*s", w[0], cell[0], w[1], cell[1], w[2], cell[2]);
	for (size_t t = 0; t < s->tl.n; t++)
		buf_addf(&line, "  %-*s", w[3 + t], cell[3 + t]);
	buf_addf(&line, "  %s", cell[3 + s->tl.n]);
	while (line.len && line.data[line.len - 1] == ' ')
		line.data[--line.len] = 0;
	utf8_line(f, "%s", line.data);
	buf_release(&line);
}

static void print_table(FILE *f, const struct stack_result *s)
{
	const char *cell[4 + READINESS_MAX_TARGETS] = { "item", "kind", "archs" };
	int w[3 + READINESS_MAX_TARGETS] = { 4, 4, 5 };
	struct buf *archs = xcalloc(s->nitem + 1, sizeof(*archs));

	for (size_t t = 0; t < s->tl.n; t++)
		w[3 + t] = width(s->tl.t[t].name, 7);
	for (size_t i = 0; i < s->nitem; i++) {
		buf_init(&archs[i], 0);
		if (s->item[i].alternative)
			continue;
		code_object_archs(&s->item[i].o, -1, &archs[i]);
		w[0] = width(s->item[i].o.path, w[0]);
		w[1] = width(s->item[i].o.kind, w[1]);
		w[2] = width(archs[i].data, w[2]);
	}
	for (size_t t = 0; t < s->tl.n; t++)
		cell[3 + t] = s->tl.t[t].name;
	cell[3 + s->tl.n] = "fix";
	print_row(f, s, w, cell);
	for (size_t i = 0; i < s->nitem; i++) {
		if (s->item[i].alternative) {
			buf_release(&archs[i]);
			continue;
		}
		cell[0] = s->item[i].o.path;
		cell[1] = s->item[i].o.kind;
		cell[2] = archs[i].data;
		for (size_t t = 0; t < s->tl.n; t++)
			cell[3 + t] = code_verdict_name(s->item[i].j[t].verdict);
		cell[3 + s->tl.n] = s->item[i].fix ? s->item[i].fix : "-";
		print_row(f, s, w, cell);
		buf_release(&archs[i]);
	}
	free(archs);
}

/* "7.8" for 78 */
void stack_isa_text(int isa, char *out, size_t n)
{
	if (isa < 0)
		snprintf(out, n, "unknown");
	else
		snprintf(out, n, "%d.%d", isa / 10, isa % 10);
}

/* One jit note: the PTX, the driver it needs, what is lost. */
static void print_jit_note(FILE *f, const struct stack_item *it, const struct target *t,
			   const struct judgement *j)
{
	char isa[16];
	struct buf line;

	stack_isa_text(j->by->ptx_isa, isa, sizeof(isa));
	buf_init(&line, 0);
	buf_addf(&line, "jit: %s on %s: only PTX %s (ISA %s) that the driver compiles at start-up",
		 it->o.path, t->name, j->by->arch, isa);
	if (j->min_driver)
		buf_addf(&line, ", which needs driver %s or newer (CUDA %s)", j->min_driver, j->min_cuda);
	utf8_line(f, "%s; %sa/%sf features are absent", line.data, t->name, t->name);
	buf_release(&line);
}

static void print_jit(FILE *f, const struct stack_result *s)
{
	bool first = true;

	for (size_t i = 0; i < s->nitem; i++) {
		for (size_t t = 0; t < s->tl.n; t++) {
			if (s->item[i].alternative || s->item[i].j[t].verdict != CODE_JIT)
				continue;
			if (first)
				fprintf(f, "\n");
			first = false;
			print_jit_note(f, &s->item[i], &s->tl.t[t], &s->item[i].j[t]);
		}
	}
}

/* The files whose ZSTD entries the environment's driver cannot load. */
static void print_zstd(FILE *f, const struct stack_result *s)
{
	bool first = true;
	size_t n;

	for (size_t i = 0; i < s->nitem; i++) {
		const char *need = stack_zstd_blocked(s, &s->item[i], &n);

		if (!need || s->item[i].alternative)
			continue;
		if (first)
			fprintf(f, "\n");
		first = false;
		utf8_line(f, "zstd: %s: %zu ZSTD-compressed entr%s, which only driver %s or newer (R550) "
			  "can load; the environment's driver is %s", s->item[i].o.path, n,
			  n == 1 ? "y" : "ies", need, s->env.driver);
	}
}

/* The archs a file carries only as relocatable device code (__nv_relfatbin). */
static void print_relocatable(FILE *f, const struct stack_result *s)
{
	bool first = true;

	for (size_t i = 0; i < s->nitem; i++) {
		struct buf rel;

		buf_init(&rel, 0);
		code_object_relocatable_only(&s->item[i].o, &rel);
		if (rel.len) {
			if (first)
				fprintf(f, "\n");
			first = false;
			utf8_line(f, "relocatable: %s: %s only as relocatable device code (__nv_relfatbin), "
				  "which the CUDA runtime does not load from this file", s->item[i].o.path,
				  rel.data);
		}
		buf_release(&rel);
	}
}

static void print_check(FILE *f, const struct readiness_check *c)
{
	const struct min_version *m = c->row;
	struct buf line;

	buf_init(&line, 0);	/* c->have is read from the files: the line goes through core/utf8 */
	buf_addf(&line, "  %s %s %s: ", c->target->name, stack_component_name(m->comp), c->have);
	if (c->ok && m->version)
		buf_addf(&line, "ok (%s or newer)", m->version);
	else if (c->ok)
		buf_addf(&line, "covers %s", c->target->name);
	else if (m->version)
		buf_addf(&line, "needs %s or newer: %s", m->version, m->fix);
	else
		buf_addf(&line, "no code for %s: %s", c->target->name, m->fix);
	utf8_line(f, "%s", line.data);
	buf_release(&line);
}

/*
 * "DIR/libbitsandbytes_*: loads libbitsandbytes_cuda126.so (native sm_100, jit sm_120);
 * 12 other variants not loaded", or, the loaded one unknown, every variant with its verdicts.
 */
static void print_group(FILE *f, const struct stack_result *s, const char *g)
{
	struct buf line;
	size_t loads = 0, other = 0;
	bool unknown = false;

	buf_init(&line, 0);
	for (size_t i = 0; i < s->nitem; i++) {
		const struct stack_item *it = &s->item[i];

		if (!it->group || strcmp(it->group, g))
			continue;
		if (it->alternative) {
			other++;
			continue;
		}
		unknown |= it->loaded_unknown;
		buf_addf(&line, "%s %s (", loads++ ? "," : "", code_object_file(&it->o));
		for (size_t t = 0; t < s->tl.n; t++)
			buf_addf(&line, "%s%s %s", t ? ", " : "", code_verdict_name(it->j[t].verdict),
				 s->tl.t[t].name);
		buf_addch(&line, ')');
	}
	if (unknown)
		utf8_line(f, "%s: %zu variants, which one loads is unknown (no CUDA or ROCm version of "
			  "PyTorch known):%s", g, loads, line.data);
	else if (!loads)
		utf8_line(f, "%s: loads none of its %zu variants (none matches the environment's PyTorch "
			  "build)", g, other);
	else
		utf8_line(f, "%s: loads%s; %zu other variant%s not loaded", g, line.data, other,
			  other == 1 ? "" : "s");
	buf_release(&line);
}

/* Each multi-backend package: the variant loaded, and how many others are listed only. */
static void print_groups(FILE *f, const struct stack_result *s)
{
	bool first = true;

	for (size_t i = 0; i < s->nitem; i++) {
		if (!stack_group_first(s, i))
			continue;
		if (first)
			fprintf(f, "\nvariants:\n");
		first = false;
		fprintf(f, "  ");
		print_group(f, s, s->item[i].group);
	}
}

/* "ready: sm_100 no, sm_120 jit (accepted)" and the reason of each target. */
static void print_ready(FILE *f, const struct stack_result *s)
{
	fprintf(f, "\nready:");
	for (size_t t = 0; t < s->tl.n; t++)
		fprintf(f, " %s %s%s%s", s->tl.t[t].name, stack_ready_name(s->ready[t]),
			s->accept_jit && s->ready[t] == STACK_JIT ? " (accepted)" : "",
			t + 1 < s->tl.n ? "," : "");
	fprintf(f, "\n");
	for (size_t t = 0; t < s->tl.n; t++)
		utf8_line(f, "  %s %s: %s", s->tl.t[t].name, stack_ready_name(s->ready[t]), s->why[t]);
}

void stack_text(const struct stack_result *s, FILE *f)
{
	fprintf(f, "targets:");
	for (size_t t = 0; t < s->tl.n; t++)
		fprintf(f, " %s", s->tl.t[t].name);
	fprintf(f, "\n\n");
	if (s->nitem) {
		print_table(f, s);
		print_groups(f, s);
		print_jit(f, s);
		print_zstd(f, s);
		print_relocatable(f, s);
	} else {
		fprintf(f, "no file with GPU code\n");
	}
	if (s->plain)
		fprintf(f, "\n%zu binar%s without GPU code not listed\n", s->plain,
			s->plain == 1 ? "y" : "ies");
	if (s->ncheck)
		fprintf(f, "\nenvironment:\n");
	for (size_t c = 0; c < s->ncheck; c++)
		print_check(f, &s->check[c]);
	print_ready(f, s);
}
