/*
 * diff_text: which ops and kernels the candidate spends more GPU time in
 * than the baseline, as two tables (docs/analysis.md, "Per-op diff").
 */
#include "render/diff_text.h"

#include <math.h>
#include <string.h>

#include "core/kname.h"
#include "core/money.h"
#include "core/qty.h"

/* Columns of a name; a longer name is cut and ends in "...". */
#define NAME_W 40

static const char *const kind_title[DIFF_KIND_COUNT] = {
	[DIFF_OP] = "Ops (the CPU op that launched the GPU work)",
	[DIFF_KERNEL] = "Kernels (by family, so one kernel in two precisions is one row)",
};
static const char *const kind_word[DIFF_KIND_COUNT] = { [DIFF_OP] = "op", [DIFF_KERNEL] = "kernel" };

/* Back from at to the start of a UTF-8 sequence. */
static size_t char_start(const char *s, size_t at)
{
	while (at > 0 && ((unsigned char)s[at] & 0xc0) == 0x80)
		at--;
	return at;
}

const char *diff_name(char *buf, size_t size, const char *name, size_t width)
{
	size_t n, head, tail;

	if (!name)
		name = "(op not recorded)";
	n = strcspn(name, "(");
	n = n ? n : strlen(name);
	while (n > 1 && name[n - 1] == ' ')	/* "Memset (Device)": the space before the list too */
		n--;
	if (n <= width) {
		snprintf(buf, size, "%.*s", (int)n, name);
		return buf;
	}
	head = char_start(name, (width - 3) / 2);
	tail = char_start(name, n - (width - 3 - (width - 3) / 2));
	snprintf(buf, size, "%.*s...%.*s", (int)head, name, (int)(n - tail), name + tail);
	return buf;
}

const char *kernel_cell(char *buf, size_t size, const char *name, size_t width)
{
	char s[512];

	if (!name)
		return diff_name(buf, size, name, width);
	kname_short(name, s, sizeof(s));
	return diff_name(buf, size, s, width);
}

const char *diff_row_name(char *buf, size_t size, const struct diff_row *r, size_t width)
{
	return r->kind == DIFF_KERNEL ? kernel_cell(buf, size, r->name, width) : diff_name(buf, size, r->name, width);
}

const char *diff_calls(char out[QTY_LEN], double v)
{
	if (!(v > 0))
		return strcpy(out, "-");
	return v == floor(v) ? count_text(out, v) : qty_num(out, v);
}

/* calls, time, mean and share of one side; dashes where the row never ran there. */
static void side_cells(FILE *f, const struct diff_side *s)
{
	char b[4][QTY_LEN];

	if (!(s->calls > 0)) {
		fprintf(f, " %7s %10s %10s %6s", "-", "-", "-", "-");
		return;
	}
	fprintf(f, " %7s %10s %10s %6s", diff_calls(b[0], s->calls), qty_duration(b[1], s->time_s),
		qty_duration(b[2], s->mean_s), qty_share(b[3], s->share));
}

static void row_line(FILE *f, const struct diff_row *r)
{
	char nb[NAME_W * 4 + 8], b[QTY_LEN];

	fprintf(f, "  %-*s", NAME_W, diff_row_name(nb, sizeof(nb), r, NAME_W));
	side_cells(f, &r->baseline);
	fputs(" ", f);
	side_cells(f, &r->candidate);
	fprintf(f, " %10s\n", qty_duration_signed(b, r->added_s));
}

static void table(const struct analysis *a, FILE *f, enum diff_kind k)
{
	const struct diff *d = &a->cmp.diff;
	const char *names[2] = { a->runs[a->cmp.baseline].name, a->runs[a->cmp.candidate].name };
	int64_t left = k == DIFF_OP ? d->left_out.op : d->left_out.kernel;

	fprintf(f, "%s:\n", kind_title[k]);
	fprintf(f, "  %-*s %36s  %36s\n", NAME_W, "", names[0], names[1]);
	fprintf(f, "  %-*s %7s %10s %10s %6s  %7s %10s %10s %6s %10s\n", NAME_W, kind_word[k], "calls",
		"time", "mean", "share", "calls", "time", "mean", "share", "added");
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].kind == k)
			row_line(f, &d->rows[i]);
	if (left > 0)
		fprintf(f, "  (%lld more %s%s, each adding less, left out)\n", (long long)left,
			kind_word[k], left == 1 ? "" : "s");
	fputc('\n', f);
}

void diff_text(const struct analysis *a, FILE *f)
{
	const struct diff *d = &a->cmp.diff;
	const struct run_result *b, *c;
	char t[3][QTY_LEN];

	fputc('\n', f);
	if (!d->present) {
		fprintf(f, "Per-op diff: none: no two runs were compared.\n");
		return;
	}
	if (!d->per) {
		fprintf(f, "Per-op diff: none: %s.\n", d->why ? d->why : "no GPU work to compare");
		return;
	}
	b = &a->runs[a->cmp.baseline];
	c = &a->runs[a->cmp.candidate];
	fprintf(f, "Per-op diff, %s against %s: GPU time %s, counted per %d GPU%s of %s as the loss is, "
		"ranked by the time added:\n\n", b->name, c->name,
		strcmp(d->per, "span") ? "per steady step" : "over the whole profiled span (no steady steps)",
		b->gpus, b->gpus == 1 ? "" : "s", b->name);
	table(a, f, DIFF_OP);
	table(a, f, DIFF_KERNEL);
	fprintf(f, "All GPU work: %s against %s, %s; it is summed per kernel, so overlap counts twice "
		"and idle time is in no row.\n", qty_duration(t[0], d->total_s.baseline),
		qty_duration(t[1], d->total_s.candidate),
		qty_duration_signed(t[2], d->total_s.candidate - d->total_s.baseline));
}
