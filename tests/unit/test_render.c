/*
 * Unit tests of render/: the tick generator, each chart's layout (dumped and
 * compared with values worked out by hand from tests/unit/fixture_analysis.c),
 * charts left out with their reasons, PNG sizes, byte-identical output for
 * the same input, report.pdf's pages and text (poppler's pdftotext/pdfinfo;
 * skipped when absent) and I/O errors. Each fixture's report is written once
 * and read by every test that only reads it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/xalloc.h"
#include "render/charts.h"
#include "render/layout.h"
#include "render/report.h"
#include "render/text.h"
#include "render/ticks.h"
#include "tests/unit/fixture_analysis.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

/* The ticks' labels joined by spaces. */
static const char *tick_labels(const struct ticks *t)
{
	static char out[TICKS_MAX * TICK_LABEL_MAX];
	int i;

	out[0] = '\0';
	for (i = 0; i < t->n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, t->label[i]);
	}
	return out;
}

static void ticks_are_nice(void **state)
{
	struct ticks t;

	ticks_nice(0, 17.3, 4, 0, &t);		/* rough step 4.3 -> 5 */
	assert_string_equal(tick_labels(&t), "0 5 10 15 20");
	assert_true(t.lo == 0 && t.hi == 20 && t.step == 5);
	ticks_nice(0, 17.3, 8, 0, &t);		/* rough 2.2 -> 5 */
	assert_string_equal(tick_labels(&t), "0 5 10 15 20");
	ticks_nice(0, 17.3, 10, 0, &t);		/* rough 1.73 -> 2 */
	assert_string_equal(tick_labels(&t), "0 2 4 6 8 10 12 14 16 18");
	ticks_nice(0, 0.87, 5, 0, &t);		/* rough 0.174 -> 0.2, one decimal */
	assert_string_equal(tick_labels(&t), "0.0 0.2 0.4 0.6 0.8 1.0");
	ticks_nice(-3.2, 7.9, 5, 0, &t);	/* rough 2.22 -> 5, the range grows both ways */
	assert_string_equal(tick_labels(&t), "-5 0 5 10");
	ticks_nice(0.012, 0.0135, 3, 0, &t);	/* rough 0.0005 */
	assert_string_equal(tick_labels(&t), "0.0120 0.0125 0.0130 0.0135");
	ticks_nice(1200, 2480, 5, 0, &t);	/* rough 256 -> 500 */
	assert_string_equal(tick_labels(&t), "1000 1500 2000 2500");
	ticks_nice(0, 3, 10, 1, &t);		/* step numbers: never 0.5 */
	assert_string_equal(tick_labels(&t), "0 1 2 3");
}

static void ticks_survive_odd_ranges(void **state)
{
	struct ticks t;

	ticks_nice(0, 0, 5, 0, &t);		/* nothing: 0..1 */
	assert_string_equal(tick_labels(&t), "0.0 0.2 0.4 0.6 0.8 1.0");
	ticks_nice(NAN, 4, 5, 0, &t);
	assert_string_equal(tick_labels(&t), "0.0 0.2 0.4 0.6 0.8 1.0");
	ticks_nice(10, 2, 4, 0, &t);		/* reversed */
	assert_string_equal(tick_labels(&t), "2 4 6 8 10");
	ticks_nice(412, 412, 5, 0, &t);		/* one value: widened by half, from 0 */
	assert_true(t.lo <= 412 && t.hi >= 412 && t.n >= 2 && t.n <= TICKS_MAX);
	ticks_nice(0, 1e9, 1000, 0, &t);	/* more than fit: capped */
	assert_true(t.n <= TICKS_MAX);
	ticks_nice(-0.0001, 0.0001, 4, 0, &t);
	assert_string_equal(t.label[t.n / 2], "0.00000");	/* step 0.00005; never "-0.00000" */
}

static void ticks_survive_extreme_ranges(void **state)
{
	static const double cases[][2] = {
		{ -1e308, 1e308 },	/* hi - lo overflows */
		{ 0, 1e-320 },		/* a subnormal range: the step underflows */
		{ 1e300, 1e301 },
		{ -5e-324, 5e-324 },
		{ 1e15, 1e15 + 1 },
	};
	struct ticks t;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ticks_nice(cases[i][0], cases[i][1], 5, 0, &t);
		assert_true(t.n >= 1 && t.n <= TICKS_MAX);
		assert_true(isfinite(t.lo) && isfinite(t.hi) && t.hi > t.lo && t.step > 0);
	}
}

static void ticks_label_bytes(void **state)
{
	struct ticks t;

	ticks_nice(10, 30, 4, 1, &t);		/* log2 of 1 KiB .. 1 GiB */
	ticks_label_log2_bytes(&t);
	assert_string_equal(tick_labels(&t), "1 KiB 32 KiB 1 MiB 32 MiB 1 GiB");
	ticks_nice(0, 4, 4, 1, &t);
	ticks_label_log2_bytes(&t);
	assert_string_equal(tick_labels(&t), "1 B 2 B 4 B 8 B 16 B");
	ticks_nice(6, 8, 2, 1, &t);
	ticks_clip(&t, 6.5, 8);
	ticks_label_log2_bytes(&t);
	assert_string_equal(tick_labels(&t), "128 B 256 B");
}

static int ddp_setup(void **state)
{
	struct analysis *a = xmalloc(sizeof(*a));

	fixture_analysis_ddp(a);
	*state = a;
	return 0;
}

static int single_setup(void **state)
{
	struct analysis *a = xmalloc(sizeof(*a));

	fixture_analysis_single(a);
	*state = a;
	return 0;
}

static int teardown(void **state)
{
	fixture_analysis_release(*state);
	free(*state);
	return 0;
}

static void step_time_layout(void **state)
{
	const char *why;
	char *d = dump_chart(*state, "01-step-time", &why);

	assert_non_null(d);
	/* y: the highest point is the candidate's warm-up step 0, 2400 ms (+4% headroom) -> 0..2500 by 500 */
	has_line(d, "panel.0.y.ticks = 0 500 1000 1500 2000 2500");
	has_line(d, "panel.0.y.label = step time (ms)");
	/* x: steps 0..11 plus the warm-up span from -0.5, fitted, ticks by 2 inside */
	has_line(d, "panel.0.x.ticks = 0 2 4 6 8 10");
	has_line(d, "panel.0.mark.0 = vspan warmup x=-0.5..1.5 \"warm-up\"");
	/* each run's p10-p90 band over its steady steps 2..11, under the lines */
	has_line(d, "panel.0.mark.1 = rect baseline band x=1.7..11.3 y=410..414.1");
	has_line(d, "panel.0.mark.2 = rect candidate band x=1.7..11.3 y=229..233");
	has_line(d, "panel.0.mark.3 = line baseline n=12 0,1850 1,560 2,410 3,412 4,414 5,411 6,413 7,412 "
		 "8,415 9,409 10,412 11,412 \"baseline: b200-1gpu (1 GPU)\"");
	has_line(d, "panel.0.mark.5 = hline baseline dashed y=412 \"median 412.0 ms\"");
	has_line(d, "panel.0.mark.6 = hline candidate dashed y=231 \"median 231.0 ms\"");
	free(d);
}

static void breakdown_layout(void **state)
{
	const char *why;
	char *d = dump_chart(*state, "02-breakdown", &why);

	assert_non_null(d);
	has_line(d, "panel.0.x.cats = b200-1gpu\\nGPU 0 | b200-2gpu-ddp\\nGPU 0 | b200-2gpu-ddp\\nGPU 1");
	/* baseline 380 + 0 + 12 + 20 = 412 ms; candidate GPU 1 196 + 21 + 6 + 8 = 231 ms */
	has_line(d, "panel.0.mark.0 = rect compute x=-0.32..0.32 y=0..380");
	has_line(d, "panel.0.mark.3 = rect idle x=-0.32..0.32 y=392..412");
	has_line(d, "panel.0.mark.4 = label ink at=0,412 \"412.0 ms\"");
	has_line(d, "panel.0.mark.11 = rect exposed_comm x=1.68..2.32 y=196..217");
	has_line(d, "panel.0.mark.14 = label ink at=2,231 \"231.0 ms\"");
	has_line(d, "panel.0.y.ticks = 0 100 200 300 400 500");
	free(d);
}

static void waterfall_layout(void **state)
{
	const char *why;
	char *d = dump_chart(*state, "03-waterfall", &why);

	assert_non_null(d);
	has_line(d, "panel.0.x.cats = ideal | compute | exposed\\ncomm | memory | idle | actual\\n(2 GPUs)");
	/* 412 ideal; +12 compute (2 x 196 - 380); +42 exposed (2 x 21); 0 memory; -4 idle; 462 = 2 x 231 */
	has_line(d, "panel.0.mark.0 = rect baseline x=-0.34..0.34 y=0..412");
	has_line(d, "panel.0.mark.4 = label ink at=1,424 \"+12.0 ms\"");
	has_line(d, "panel.0.mark.6 = rect exposed_comm x=1.66..2.34 y=424..466");
	has_line(d, "panel.0.mark.12 = rect idle x=3.66..4.34 y=462..466");
	has_line(d, "panel.0.mark.13 = label ink at=4,466 \"-4.0 ms\"");
	has_line(d, "panel.0.mark.15 = rect candidate x=4.66..5.34 y=0..462");
	has_line(d, "panel.0.y.label = GPU time per step (ms)");
	free(d);
}

static void memory_layout(void **state)
{
	struct analysis *a = *state;
	const char *why;
	char *d = dump_chart(a, "04-memory", &why);

	assert_non_null(d);
	/* the lines reach the MI300X's reported 205.8 GB, its label 210.8: 0..250 by 50 */
	has_line(d, "panel.0.y.ticks = 0 50 100 150 200 250");
	has_line(d, "panel.0.y.label = peak memory (GB)");
	has_line(d, "panel.0.mark.0 = rect baseline x=-0.3..0.3 y=0..151.3");
	has_line(d, "panel.0.mark.2 = rect candidate x=1.7..2.3 y=0..88.4");
	/* the B200s' own total is the table's B200 line: one solid line and label, no dashed twin */
	has_line(d, "panel.0.mark.6 = line ink n=2 -0.5,191.503 2.5,191.503 \"capacity\"");
	has_line(d, "panel.0.mark.8 = label ink at=2.6258,191.503 \"B200 191.5 GB / 178.4 GiB (180 GB nominal)\"");
	has_line(d, "panel.0.mark.3 = line reference dashed n=2 -0.5,150.755 2.5,150.755 \"capacity\"");
	has_line(d, "panel.0.mark.5 = label ink at=2.6258,150.755 \"H200 150.8 GB / 140.4 GiB (141 GB nominal)\"");
	has_line(d, "panel.0.mark.11 = label ink at=2.6258,210.814 \"MI300X 205.8 GB / 191.7 GiB (192 GB nominal)\"");
	assert_null(strstr(d, "panel.0.mark.12 "));
	assert_null(strstr(d, "note = "));
	free(d);

	a->runs[1].imbalance.flagged = true;
	a->runs[1].imbalance.reason = "GPU 0 peaks at 96.2 GB, GPU 1 at 88.4 GB";
	d = dump_chart(a, "04-memory", &why);
	has_line(d, "note = Imbalance (b200-2gpu-ddp): GPU 0 peaks at 96.2 GB, GPU 1 at 88.4 GB");
	free(d);
}

static void communication_layout(void **state)
{
	const char *why;
	char *d = dump_chart(*state, "05-communication", &why);

	assert_non_null(d);
	/* log2 of 1 KiB .. 1 GiB, step 5 exponents */
	has_line(d, "panel.0.x.ticks = 1 KiB 32 KiB 1 MiB 32 MiB 1 GiB");
	has_line(d, "panel.0.x.scale = log2-bytes");
	has_line(d, "panel.0.y.ticks = 0 200 400 600 800 1000");
	has_line(d, "panel.0.mark.2 = hline reference dashed y=900 \"B200 NVLink nominal 900.0 GB/s\"");
	has_line(d, "panel.0.mark.1 = line candidate hollow n=3 24.6439,380 24.6439,420 20,15 "
		 "\"b200-2gpu-ddp AllReduce, trace, 2 GPUs\"");
	/* exposed 21 + overlapped 64 = 85 ms on GPU 1: 25% exposed */
	has_line(d, "panel.1.mark.4 = rect overlapped_comm x=0.7..1.3 y=21..85");
	has_line(d, "panel.1.mark.5 = label ink at=1,85 \"25% exposed\"");
	free(d);
}

static void kernels_layout(void **state)
{
	const char *why;
	char *d = dump_chart(*state, "06-top-kernels", &why);

	assert_non_null(d);
	/* largest first from the top: GEMM 250 (baseline), AllReduce 85 (candidate GPU 1), ... Adam 7 */
	has_line(d, "panel.0.y.cats = Adam (multi-tensor) | Memcpy HtoD | LayerNorm | elementwise (PyTorch) | "
		 "flash-attn bwd | flash-attn fwd | AllReduce bf16 (NCCL) | GEMM bf16 (cuBLAS)");
	/* the axis reaches past 250 far enough for GEMM's values to fit right of its bar */
	has_line(d, "panel.0.x.ticks = 0 100 200 300 400");
	has_line(d, "panel.0.mark.20 = rect baseline x=0..250 y=7.16..7.4");
	has_line(d, "panel.0.mark.19 = rect candidate light x=0..85 y=5.62667..5.86667");
	/* each row's values in the legend's order, right of its longest bar: 183.2 + 250/400 x 430.9 + 3 */
	has_line(d, "panel.0.mark.23 = label ink at=250,7 \"250.0 / 127.0 / 128.0 ms\"");
	has_line(d, "panel.0.mark.24 = label ink at=85,6 \"- / 83.0 / 85.0 ms\"");
	has_line(d, "box.5 = 455.48 110.62 141.98 13.39 panel.0.mark.23 \"250.0 / 127.0 / 128.0 ms\"");
	assert_null(strstr(d, "rect baseline x=0..83"));	/* the baseline has no AllReduce */
	free(d);
}

static void timeline_layout(void **state)
{
	const char *why;
	char *d = dump_chart(*state, "07-timeline", &why);

	assert_non_null(d);
	/* one category per lane, the GPU's name on its compute lane */
	has_line(d, "panel.0.y.cats = memory | comm | b200-2gpu-ddp GPU 1: compute | memory | comm | "
		 "b200-2gpu-ddp GPU 0: compute | memory | comm | b200-1gpu GPU 0: compute");
	/* one step number on both GPUs of the candidate (5), said in the subtitle */
	has_line(d, "subtitle = step 3 of b200-1gpu, step 5 of b200-2gpu-ddp (the same step on each GPU of a run), "
		 "on its run's common clock (traces aligned), from the first GPU to start that step; three lanes "
		 "per GPU: compute, comm, memory");
	has_line(d, "panel.0.x.ticks = 0 100 200 300 400");
	/* comm under compute is overlapped; GPU 0 waits for GPU 1 to start the second AllReduce */
	has_line(d, "panel.0.mark.3 = rect overlapped_comm x=101..152 y=0.62..1.38");
	has_line(d, "panel.0.mark.4 = rect exposed_comm x=152..186 y=0.62..1.38");
	has_line(d, "panel.0.mark.13 = rect exposed_comm hatched x=150..152 y=3.62..4.38");
	has_line(d, "panel.0.mark.14 = rect exposed_comm x=152..183 y=3.62..4.38");
	has_line(d, "panel.0.mark.24 = line ink dashed n=2 412,5.55 412,8.45 \"window end\"");
	free(d);
}

static void monitor_layout(void **state)
{
	const char *why;
	char *d = dump_chart(*state, "08-monitor", &why);

	assert_non_null(d);
	has_line(d, "panel.1.y.ticks = 0 20 40 60 80 100");	/* utilisation stops at 100% */
	has_line(d, "panel.0.y.label = memory used (GB)");
	has_line(d, "panel.0.x.ticks = 0 5 10 15");	/* the job from its first sample at work, less 1 s */
	assert_non_null(strstr(d, "panel.1.mark.2 = line candidate light dashed n=20 -1,0 0,0 1,93 2,93 "));
	assert_non_null(strstr(d, "panel.0.mark.0 = line baseline n=20 -1,0 0,30.26 1,60.52 "));
	free(d);
}

/*
 * Positions depend on the fonts' metrics, so they are checked as relations:
 * the legend and title sit above every plot, entries of a row do not
 * overlap, nothing leaves the canvas, and the waterfall's legend wraps.
 */
static void legend_and_plots_do_not_overlap(void **state)
{
	size_t i;
	int rows_waterfall = 0;

	for (i = 0; i < chart_ndefs; i++) {
		struct chart_layout c;
		const char *why;
		double bottom = 0;
		int e, k;

		if (chart_build(i, *state, &c, &why)) {	/* replay: no data in any fixture; sweep: not a sweep */
			assert_true(!strcmp(chart_defs[i].id, "09-replay") || !strcmp(chart_defs[i].id, "11-sweep") ||
				    !strcmp(chart_defs[i].id, "14-roofline") ||	/* roofline: no op shapes */
				    !strcmp(chart_defs[i].id, "15-diff"));	/* diff: no trace events */
			chart_layout_release(&c);
			continue;
		}
		for (e = 0; e < c.nlegend; e++) {
			const struct legend_entry *l = &c.legend[e], *prev = e ? &c.legend[e - 1] : NULL;

			assert_true(l->swatch.x >= 0 && l->text.x > l->swatch.x + l->swatch.w);
			assert_true(l->text.x < c.width);
			if (prev && l->swatch.y == prev->swatch.y)
				assert_true(l->swatch.x > prev->text.x);
			if (prev && l->swatch.y != prev->swatch.y && !strcmp(c.id, "03-waterfall"))
				rows_waterfall++;
			bottom = l->swatch.y + l->swatch.h > bottom ? l->swatch.y + l->swatch.h : bottom;
		}
		for (k = 0; k < c.npanels; k++) {
			const struct rect *r = &c.panel[k].plot;

			assert_true(r->y > bottom);
			assert_true(r->x > 0 && r->w > 100 && r->x + r->w <= c.width);
			assert_true(r->h > 100 && r->y + r->h < c.height);
			if (k)
				assert_true(r->x > c.panel[k - 1].plot.x + c.panel[k - 1].plot.w);
		}
		chart_layout_release(&c);
	}
	assert_int_equal(rows_waterfall, 1);	/* six entries do not fit one row */
}

static void empty_charts_are_left_out(void **state)
{
	struct analysis *a = *state;
	const char *why = NULL;

	assert_null(dump_chart(a, "03-waterfall", &why));
	assert_string_equal(why, "no scaling waterfall: needs a baseline and a candidate with step breakdowns");
	assert_null(dump_chart(a, "05-communication", &why));
	assert_string_equal(why, "no communication: single-GPU runs only");
	assert_null(dump_chart(a, "08-monitor", &why));
	assert_string_equal(why, "no memory and utilisation over time: no nvidia-smi samples with times");
	free(dump_chart(a, "01-step-time", &why));

	/* an unknown part is not a zero: the bar goes, and with no bar left the chart goes */
	a->runs[0].gpu[0].step_s.idle = NAN;
	assert_null(dump_chart(a, "02-breakdown", &why));
	assert_string_equal(why, "no step breakdown: no GPU has steady steps with a known partition");
	a->runs[0].gpu[0].peak_memory = -1;
	assert_null(dump_chart(a, "04-memory", &why));
	a->runs[0].gpu[0].nsteps = 0;
	assert_null(dump_chart(a, "01-step-time", &why));
	assert_string_equal(why, "no step times: no run has profiler steps");
}

/* Report files, written into temporary directories. */

static char *temp_dir(void)
{
	char *d = xstrdup("/tmp/test_render.XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void remove_dir(char *d)
{
	assert_int_equal(remove_tree(d), 0);
	free(d);
}

static char *slurp_at(const char *dir, const char *name, size_t *len)
{
	char *path = xasprintf("%s/%s", dir, name), *s = read_file(path, len);

	free(path);
	return s;
}

static bool exists_at(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	bool yes = access(path, F_OK) == 0;

	free(path);
	return yes;
}

static int write_report(const struct analysis *a, const char *dir)
{
	struct diags d = DIAGS_INIT;
	int rc = report_write(a, dir, &d);

	assert_int_equal(d.count, 0);
	diags_release(&d);
	return rc;
}

/*
 * Each fixture's report, written once on first use under a directory that
 * does not exist yet (so every write also makes its parents), and shared by
 * every test that only reads it. The group teardown removes them.
 */
struct written {
	void (*fixture)(struct analysis *a);
	char *top;		/* the temporary directory; NULL until written */
	char *dir;		/* top/a/b/out/: the report */
};
static struct written ddp_report = { fixture_analysis_ddp, NULL, NULL };
static struct written single_report = { fixture_analysis_single, NULL, NULL };

static const char *report_of(struct written *w)
{
	struct analysis a;
	char *top, *dir;

	if (w->dir)
		return w->dir;
	top = temp_dir();
	dir = xasprintf("%s/a/b/out/", top);
	w->fixture(&a);
	assert_int_equal(write_report(&a, dir), 0);
	fixture_analysis_release(&a);
	w->top = top;
	w->dir = dir;
	return dir;
}

static int remove_reports(void **state)
{
	struct written *all[] = { &ddp_report, &single_report };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (all[i]->top && remove_tree(all[i]->top))
			return -1;
		free(all[i]->top);
		free(all[i]->dir);
		all[i]->top = all[i]->dir = NULL;
	}
	text_release();
	return 0;
}

static const char *const ddp_files[] = {
	"report.pdf", "summary.md",
	"charts/01-step-time.png", "charts/01-step-time.svg", "charts/01-step-time.pdf",
	"charts/02-breakdown.png", "charts/03-waterfall.svg", "charts/04-memory.pdf",
	"charts/05-communication.png", "charts/06-top-kernels.svg", "charts/07-timeline.pdf",
	"charts/08-monitor.png", "charts/08-monitor.svg", "charts/08-monitor.pdf",
};

static void png_is_1600_by_1000(void **state)
{
	char *png;
	size_t len;
	const unsigned char *p;

	png = slurp_at(report_of(&ddp_report), "charts/04-memory.png", &len);
	assert_non_null(png);
	assert_true(len > 24);
	p = (const unsigned char *)png;
	assert_memory_equal(p, "\x89PNG\r\n\x1a\n", 8);
	assert_memory_equal(p + 12, "IHDR", 4);
	assert_int_equal((p[16] << 24) | (p[17] << 16) | (p[18] << 8) | p[19], 1600);
	assert_int_equal((p[20] << 24) | (p[21] << 16) | (p[22] << 8) | p[23], 1000);
	free(png);
}

static void same_input_same_bytes(void **state)
{
	const char *d1 = report_of(&ddp_report);
	char *d2 = temp_dir();
	size_t i;

	assert_int_equal(write_report(*state, d2), 0);
	for (i = 0; i < sizeof(ddp_files) / sizeof(ddp_files[0]); i++) {
		size_t n1, n2;
		char *f1 = slurp_at(d1, ddp_files[i], &n1), *f2 = slurp_at(d2, ddp_files[i], &n2);

		if (!f1 || !f2)
			fail_msg("%s: missing", ddp_files[i]);
		if (n1 != n2 || memcmp(f1, f2, n1))
			fail_msg("%s: two renders differ", ddp_files[i]);
		free(f1);
		free(f2);
	}
	remove_dir(d2);
}

static void summary_lists_what_was_left_out(void **state)
{
	const char *dir = report_of(&single_report);
	char *md;
	size_t len;

	md = slurp_at(dir, "summary.md", &len);
	assert_non_null(md);
	assert_non_null(strstr(md, "**Verdict: NO VERDICT \xe2\x80\x94 no baseline and candidate to compare**"));
	assert_non_null(strstr(md, "## Charts left out\n\n- 03-waterfall: no scaling waterfall"));
	assert_non_null(strstr(md, "- 05-communication: no communication: single-GPU runs only\n"));
	assert_non_null(strstr(md, "- 08-monitor: no memory and utilisation over time"));
	assert_non_null(strstr(md, "![Step time over the run](charts/01-step-time.png)"));
	assert_null(strstr(md, "charts/03-waterfall.png"));
	free(md);
	assert_false(exists_at(dir, "charts/03-waterfall.png"));
	assert_false(exists_at(dir, "charts/05-communication.svg"));
}

static void summary_markdown_has_the_numbers(void **state)
{
	char *md;
	size_t len;

	md = slurp_at(report_of(&ddp_report), "summary.md", &len);
	assert_non_null(md);
	assert_non_null(strstr(md, "# Does a second B200 halve the step time?\n"));
	assert_non_null(strstr(md, "**Verdict: CONFIRMED \xe2\x80\x94 speedup 1.78x"));
	/* 0.412 / 0.231 = 1.7835; 0.412 / (2 x 0.231) = 0.8918 */
	assert_non_null(strstr(md, "- Speedup 1.78x: median step 412.0 ms on the baseline, 231.0 ms on the candidate\n"));
	assert_non_null(strstr(md, "- Scaling efficiency 89%; throughput ratio 1.78x\n"));
	assert_non_null(strstr(md, "- b200-2gpu-ddp GPU 1: peak memory 88.4 GB (nvidia-smi) of 180 GB nominal "
			       "(191.5 GB / 178.4 GiB reported)\n"));
	assert_non_null(strstr(md, "- \\[warning\\] dataset: c4-en shards 0-7 (baseline) vs c4-en shards 0-15 (candidate)"));
	assert_non_null(strstr(md, "- b200-2gpu-ddp/rank1.json.gz: byte 81234: warning: trace ends inside step 12\n"));
	assert_non_null(strstr(md, "![Top kernels by time per step](charts/06-top-kernels.png)"));
	/*
	 * every chart has data but the replay, which no fixture has; the sweep's chart does not
	 * apply to a single-config question, so it is not listed
	 */
	assert_non_null(strstr(md, "## Charts left out\n\n- 09-replay: no replay: the trial has no "
				   "replay.json of its kernels re-run on a GPU (write one with scaleaudit replay "
				   "TRIAL -o TRIAL/replay.json on a machine with the GPU)\n"));
	assert_non_null(strstr(md, "\n- 14-roofline: no roofline chart: "));
	assert_null(strstr(md, "11-sweep"));
	free(md);
}

/* Runs cmd and returns its standard output. */
static char *run_output(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	struct buf b;
	char tmp[4096];
	size_t n;

	assert_non_null(p);
	buf_init(&b, 0);
	while ((n = fread(tmp, 1, sizeof(tmp), p)) > 0)
		buf_add(&b, tmp, n);
	assert_int_equal(pclose(p), 0);
	return buf_detach(&b);
}

/* What tool prints about dir/report.pdf; the case skips when tool is not installed. */
static char *pdf_tool(const char *tool, const char *dir)
{
	char *cmd;
	char *out;

	skip_unless_tool(tool);
	cmd = xasprintf("%s '%s/report.pdf' %s", tool, dir, strcmp(tool, "pdftotext") ? "" : "-");
	out = run_output(cmd);
	free(cmd);
	return out;
}

/* pdftotext puts one line of the page per line; runs of spaces vary, so compare without them. */
static void squeeze(char *s)
{
	char *start = s, *w = s;

	for (; *s; s++)
		if (!(*s == ' ' && w > start && w[-1] == ' '))
			*w++ = *s;
	*w = '\0';
}

static void report_pdf_pages_and_text(void **state)
{
	const char *dir = report_of(&ddp_report);
	char *info, *text;

	info = pdf_tool("pdfinfo", dir);
	has_line(info, "Pages:           13");		/* the decision, the rest of the summary, the 11 charts */
	has_line(info, "CreationDate:    Thu Jan  1 00:00:00 1970 UTC");
	has_line(info, "Title:           Does a second B200 halve the step time?");
	text = pdf_tool("pdftotext", dir);
	squeeze(text);
	assert_non_null(strstr(text, "CONFIRMED"));
	assert_non_null(strstr(text, "Speedup 1.78x: median step 412.0 ms on the baseline, 231.0 ms on the candidate"));
	assert_non_null(strstr(text, "Scaling efficiency 89%"));
	assert_non_null(strstr(text, "peak memory 151.3 GB (nvidia-smi) of 180 GB nominal "
			       "(191.5 GB / 178.4 GiB reported)"));
	assert_non_null(strstr(text, "[warning] dataset"));
	assert_non_null(strstr(text, "fits one MI300X"));
	assert_non_null(strstr(text, "Where the extra GPU time went"));	/* a chart page's title */
	assert_non_null(strstr(text, "the tallest one"));	/* its caption */
	free(info);
	free(text);
}

static void report_pdf_single_run(void **state)
{
	char *info = pdf_tool("pdfinfo", report_of(&single_report));

	has_line(info, "Pages:           8");		/* the summary's 2 pages, then 6 charts: 7 are left out */
	free(info);
}

static void pdf_date_from_source_date_epoch(void **state)
{
	char *dir = temp_dir(), *pdf;
	size_t len;

	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);	/* 2023-11-14 22:13:20 UTC */
	assert_int_equal(write_report(*state, dir), 0);
	unsetenv("SOURCE_DATE_EPOCH");
	pdf = slurp_at(dir, "report.pdf", &len);
	assert_non_null(pdf);
	assert_non_null(memmem(pdf, len, "/CreationDate (20231114221320", 28));
	assert_null(memmem(pdf, len, "(1970", 5));
	free(pdf);
	remove_dir(dir);
}

static void io_error_names_the_file(void **state)
{
	char *dir = temp_dir(), *file = xasprintf("%s/plain-file", dir), *out = xasprintf("%s/report", file);
	struct diags d = DIAGS_INIT;
	struct buf b;
	FILE *f = fopen(file, "w");

	assert_non_null(f);
	fclose(f);
	assert_int_equal(report_write(*state, out, &d), -1);	/* its parent is a file */
	assert_int_equal(d.errors, 1);
	buf_init(&b, 0);
	diag_format(&d.items[0], &b);
	assert_non_null(strstr(b.data, "plain-file/report: cannot create directory: Not a directory"));
	buf_release(&b);
	assert_int_equal(report_write(*state, "", &d), -1);
	assert_int_equal(d.errors, 2);
	assert_string_equal(d.items[1].message, "no output directory given");
	diags_release(&d);
	free(file);
	free(out);
	remove_dir(dir);
}

/* The shared reports are written under a/b/out/, which did not exist. */
static void report_dir_is_created_with_parents(void **state)
{
	const char *deep = report_of(&ddp_report);
	char *md;
	size_t len;

	md = slurp_at(deep, "summary.md", &len);
	assert_non_null(md);
	free(md);
	assert_false(exists_at(deep, "summary.md.tmp"));	/* renamed into place */
}

/* Everything a buggy analysis or odd logs could hand over: unknowns, junk indexes, huge counts. */
static void hostile_analysis_renders(void **state)
{
	struct analysis *a = *state;
	struct run_result *base = &a->runs[0], *cand = &a->runs[1];
	struct gpu_result *g = &cand->gpu[1];
	char *dir = temp_dir(), *title = xmalloc(3000);
	struct diags d = DIAGS_INIT;
	size_t i, k;

	memset(title, 'x', 2999);
	title[2999] = '\0';
	a->title = title;
	a->cmp.candidate = 9;				/* past the runs */
	base->slowest = 5;				/* past the GPUs */
	base->name = NULL;
	base->step_median_s = NAN;
	cand->gpu[0].steps[3].window_s = INFINITY;
	cand->gpu[0].steps[4].window_s = NAN;
	cand->gpu[0].steps[5].window_s = -1;
	cand->gpu[0].steps[6].number = INT64_MAX;
	g->lanes[0].cls = 200;
	g->lanes[1].start_s = NAN;
	g->top[0].label = NULL;
	g->step_s.compute = -INFINITY;
	cand->bw[0].bytes = 0;
	cand->bw[1].bytes = -5;
	cand->bw[2].bytes = INT64_MAX;
	cand->bw[3].busbw_gbps = NAN;
	cand->link_busbw_gbps = 1e300;
	for (k = 0; k + 1 < cand->nmonitor; k += 3) {	/* k + 1: never past the samples */
		cand->monitor[k].ts = -1;
		cand->monitor[k + 1].memory_used = -1;
		cand->monitor[k + 1].util_gpu = -1;
	}
	cand->imbalance.flagged = true;			/* without a reason */
	cand->gpu[1].peak_memory = INT64_MAX;
	for (i = 0; i < chart_ndefs; i++) {
		struct chart_layout c;
		const char *why;

		if (chart_build(i, a, &c, &why))
			assert_non_null(why);
		chart_layout_release(&c);
	}
	assert_int_equal(report_write(a, dir, &d), 0);
	assert_int_equal(d.count, 0);
	diags_release(&d);
	free(title);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ticks_are_nice),
		cmocka_unit_test(ticks_survive_odd_ranges),
		cmocka_unit_test(ticks_survive_extreme_ranges),
		cmocka_unit_test(ticks_label_bytes),
		cmocka_unit_test_setup_teardown(step_time_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(breakdown_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(waterfall_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(memory_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(communication_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(kernels_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(timeline_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(monitor_layout, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(legend_and_plots_do_not_overlap, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(empty_charts_are_left_out, single_setup, teardown),
		cmocka_unit_test(png_is_1600_by_1000),
		cmocka_unit_test_setup_teardown(same_input_same_bytes, ddp_setup, teardown),
		cmocka_unit_test(summary_lists_what_was_left_out),
		cmocka_unit_test(summary_markdown_has_the_numbers),
		cmocka_unit_test(report_pdf_pages_and_text),
		cmocka_unit_test(report_pdf_single_run),
		cmocka_unit_test_setup_teardown(pdf_date_from_source_date_epoch, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(hostile_analysis_renders, ddp_setup, teardown),
		cmocka_unit_test_setup_teardown(io_error_names_the_file, ddp_setup, teardown),
		cmocka_unit_test(report_dir_is_created_with_parents),
	};

	return cmocka_run_group_tests(tests, NULL, remove_reports);
}
