/*
 * Unit tests of charts 04-memory, 05-communication and 08-monitor built from
 * the sample trials (and one trial with a real nccl-tests log from
 * ../shared): what each draws, read through chart_layout_dump() and checked
 * against numbers worked out here from the analysis' own tables (bytes and
 * time per step, the GPU table, the OOM message's bytes), and where the
 * labels land on the canvas.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/gpu.h"
#include "core/xalloc.h"
#include "ingest/trial.h"
#include "render/charts.h"
#include "render/layout.h"
#include "render/text.h"
#include "tests/unit/fixture_analysis.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

#define NCCL_TESTS_LOG "nccl_tests/autodl_2x_RTX2080Ti_PCIe_nccl-tests_allreduce_allgather_bcast_reduce_alltoall.txt"

static size_t chart_index(const char *id)
{
	size_t i;

	for (i = 0; i < chart_ndefs && strcmp(chart_defs[i].id, id); i++)
		;
	assert_true(i < chart_ndefs);
	return i;
}

/* How many of dump's mark and legend lines (not the placer's box lines) contain both strings. */
static size_t count_lines(const char *dump, const char *a, const char *b)
{
	size_t n = 0;
	const char *p = dump;

	while (p && *p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *line = xstrndup(p, len);

		n += strncmp(line, "box.", 4) && strstr(line, a) && strstr(line, b);	/* not the placer's boxes */
		free(line);
		p = end ? end + 1 : NULL;
	}
	return n;
}

static const char *sample(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "samples/trials/%s", name);
	return path;
}

/* The run of a by name. */
static const struct run_result *run_named(const struct analysis *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nruns; i++)
		if (a->runs[i].name && !strcmp(a->runs[i].name, name))
			return &a->runs[i];
	fail_msg("no run %s", name);
	return NULL;
}

static void oom_run_is_drawn_failed(void **state)
{
	struct analysis *a = analyse_dir(sample("pipeline-oom-feasibility"));
	const struct run_result *r = run_named(a, "1gpu");
	const char *why;
	char *d = dump_chart(a, "04-memory", &why), want[256];
	double peak = 83932217344 / 1e9, asked = 3758096384 / 1e9;	/* nvidia-smi; "Tried to allocate 3.50 GiB" */

	(void)state;
	assert_non_null(d);
	assert_int_equal(r->status, RUN_FAILED_OOM);
	assert_int_equal(r->failed_allocation, 3758096384);
	assert_int_equal(r->gpu[0].peak_memory, 83932217344);
	snprintf(want, sizeof(want), "panel.0.mark.0 = rect baseline x=-0.3..0.3 y=0..%g", peak);
	assert_int_equal(count_lines(d, want, ""), 1);
	/* the request after every capacity line (none crosses it), an ink rule at its top: 87.7 GB over 85.0 */
	snprintf(want, sizeof(want), "panel.0.mark.19 = rect baseline hatched x=-0.36..0.36 y=%g..%g", peak, peak + asked);
	assert_int_equal(count_lines(d, want, ""), 1);
	snprintf(want, sizeof(want), "panel.0.mark.20 = line ink n=2 -0.42,%g 0.42,%g \"needed\"", peak + asked, peak + asked);
	assert_int_equal(count_lines(d, want, ""), 1);
	assert_true(peak + asked > 85.029);
	assert_int_equal(count_lines(d, " label ink ", "\"failed: out of memory, +3.8 GB requested\\n"
				     "87.7 GB needed, over its 85.0 GB\""), 1);
	assert_int_equal(count_lines(d, " rect ", " hatched "), 1);	/* the completed runs' bars are plain */
	assert_int_equal(count_lines(d, "panel.0.x.cats = 1gpu\\nGPU 0\\n83.9 GB | 2gpu\\nGPU 0\\n74.9 GB | 2gpu\\nGPU 1\\n8.7 GB |  | ", ""), 1);
	/*
	 * every capacity in GB by the one rule: the H100's reported 85029027840 bytes, and the GPU
	 * table's reported figures: H200 143771 MiB, B200 191503138816 and MI300X 205822885888 bytes
	 */
	assert_int_equal(count_lines(d, "panel.0.mark.4 = line ink n=2 -0.5,85.029 2.5,85.029 \"capacity\"", ""), 1);
	assert_int_equal(count_lines(d, " label ink ", "\"H100 SXM 85.0 GB / 79.2 GiB (80 GB nominal)\""), 1);
	assert_int_equal(count_lines(d, "line reference dashed n=2 -0.5,150.755 2.5,150.755 ", ""), 1);
	assert_int_equal(count_lines(d, "\"H200 150.8 GB / 140.4 GiB (141 GB nominal)\"", ""), 1);
	assert_int_equal(count_lines(d, "-0.5,191.503 2.5,191.503 ", ""), 1);
	assert_int_equal(count_lines(d, "\"B200 191.5 GB / 178.4 GiB (180 GB nominal)\"", ""), 1);
	assert_int_equal(count_lines(d, "-0.5,205.823 2.5,205.823 ", ""), 1);
	assert_int_equal(count_lines(d, "\"MI300X 205.8 GB / 191.7 GiB (192 GB nominal)\"", ""), 1);
	assert_int_equal(count_lines(d, "-0.5,142.755 2.5,142.755 ", ""), 1);	/* trial.ini memory_reserve_gb = 8 */
	assert_int_equal(count_lines(d, "\"H200 150.8 GB less the 8.0 GB reserve\"", ""), 1);
	assert_int_equal(count_lines(d, "\"capacity\"", ""), 5);
	free(d);
	analysis_free(a);
}

/* Canvas box of a finished label mark (draw.c's anchors: MS_ABOVE centred above, MS_RIGHT right of it). */
static struct rect label_box(const struct panel *p, const struct mark *m)
{
	double w, h, x = panel_px(p, m->x0), y = panel_py(p, m->y0);

	text_size(FONT_NOTE, m->text, 0, &w, &h);
	if (m->style & MS_RIGHT)
		return (struct rect){ x + 3, y - h / 2, w, h };
	if (m->style & MS_ABOVE)
		return (struct rect){ x - w / 2, y - 2 - h, w, h };
	return (struct rect){ x - w / 2, y - h / 2, w, h };
}

static bool boxes_meet(struct rect a, struct rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* No label of the memory chart crosses a capacity line or another label, on any sample. */
static void memory_labels_stay_clear(void **state)
{
	static const char *const names[] = {
		"clock-offset", "ddp-global-batch-changed", "ddp-precision-changed", "ddp-scales-well",
		"expected-speedup-missed", "fsdp-allgather", "gpu-bound-lag", "gpu-model-mismatch",
		"hparam-sweep-distributed", "hparam-sweep-independent", "nccl-over-sockets",
		"pipeline-bubble", "pipeline-oom-feasibility", "short-capture", "unknown-precision",
	};
	size_t i, k, j, labels = 0;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct analysis *a = analyse_dir(sample(names[i]));
		struct chart_layout c;
		const struct panel *p;
		const char *why;

		assert_int_equal(chart_build(chart_index("04-memory"), a, &c, &why), 0);
		p = &c.panel[0];
		for (k = 0; k < p->nmarks; k++) {
			const struct mark *m = &p->marks[k];
			struct rect b;

			if (m->kind != MARK_LABEL)
				continue;
			b = label_box(p, m);
			labels++;
			assert_true(b.y >= p->plot.y - 1 && b.y + b.h <= p->plot.y + p->plot.h);
			assert_true(b.x + b.w <= c.width);
			for (j = 0; j < p->nmarks; j++) {
				const struct mark *o = &p->marks[j];
				const struct point *q = &p->pts[o->first];

				if (j != k && o->kind == MARK_LABEL && boxes_meet(b, label_box(p, o)))
					fail_msg("%s: labels \"%s\" and \"%s\" overlap", names[i], m->text, o->text);
				if (o->kind != MARK_LINE || strcmp(o->text, "capacity"))
					continue;
				if (boxes_meet(b, (struct rect){ panel_px(p, q[0].x), panel_py(p, q[0].y) - 0.7,
								 panel_px(p, q[1].x) - panel_px(p, q[0].x), 1.4 }))
					fail_msg("%s: label \"%s\" lies on the line at %g GB", names[i], m->text, q[0].y);
			}
		}
		chart_layout_release(&c);
		analysis_free(a);
	}
	/* at least the H200, B200 and MI300X lines each (a B200's own total is the table's B200 line) */
	assert_true(labels >= 15 * 3);
}

/*
 * The B200's own 191.5 GB total stands for the GPU table's B200 line (one
 * solid line, one label); the H100's own total and the H200 and MI300X lines
 * each keep a label of their own.
 */
static void close_capacities_keep_their_labels(void **state)
{
	struct analysis *a = analyse_dir(sample("gpu-model-mismatch"));
	const char *why;
	char *d = dump_chart(a, "04-memory", &why);

	(void)state;
	assert_non_null(d);
	assert_int_equal(count_lines(d, "-0.5,191.503 2.5,191.503 \"capacity\"", "line ink n=2"), 1);
	assert_int_equal(count_lines(d, "-0.5,191.503 2.5,191.503 \"capacity\"", ""), 1);
	assert_int_equal(count_lines(d, "\"B200 191.5 GB / 178.4 GiB (180 GB nominal)\"", " label "), 1);
	assert_int_equal(count_lines(d, "\"MI300X 205.8 GB / 191.7 GiB (192 GB nominal)\"", " label "), 1);
	assert_int_equal(count_lines(d, "\"H200 150.8 GB / 140.4 GiB (141 GB nominal)\"", " label "), 1);
	assert_int_equal(count_lines(d, "\"H100 SXM 85.0 GB / 79.2 GiB (80 GB nominal)\"", " label "), 1);
	free(d);
	analysis_free(a);
}

/* "line candidate n=1 27,2.1301 \"...\"": the y of the series' point at log2(bytes). */
static double point_y(const char *dump, const char *name, double x)
{
	char key[160];
	const char *p;

	snprintf(key, sizeof(key), " %g,", x);
	for (p = dump; (p = strstr(p, key)); p++) {
		const char *eol = strchr(p, '\n');
		const char *n = strstr(p, name);

		if (n && (!eol || n < eol))
			return strtod(p + strlen(key), NULL);
	}
	fail_msg("no point at %g of %s", x, name);
	return NAN;
}

/* The bandwidth drawn is total bytes over total time, worked out here from the per-step table. */
static void bandwidth_is_bytes_over_time(void **state)
{
	struct analysis *a = analyse_dir(sample("pipeline-oom-feasibility"));
	const struct run_result *r = run_named(a, "2gpu");
	const char *why;
	char *d = dump_chart(a, "05-communication", &why), want[64];
	double bw;

	(void)state;
	assert_non_null(d);
	assert_int_equal(r->ncoll, 1);		/* SendRecv, one size: 2 calls of 128 MiB per step */
	assert_int_equal(r->coll[0].op, COLL_SENDRECV);
	bw = r->coll[0].bytes_per_step / r->coll[0].time_per_step_s / 1e9;	/* SendRecv's factor is 1 */
	assert_true(bw > 2.1 && bw < 2.2);	/* the table's 2.13, not a mean of per-call rates */
	assert_true(fabs(point_y(d, "\"2gpu SendRecv, trace, 2 GPUs\"", 27) - bw) < 1e-5 * bw);
	/* the ceiling is the H100 SXM's NVLink in the GPU table */
	snprintf(want, sizeof(want), "y=%g ", gpu_lookup("NVIDIA H100 80GB HBM3", -1)->link_gbps);
	assert_int_equal(count_lines(d, "hline reference dashed ", want), 1);
	assert_int_equal(count_lines(d, "\"H100 SXM NVLink nominal 450.0 GB/s\"", "hline"), 1);
	assert_non_null(strstr(d, "2gpu: NCCL transport: P2P; link: NVLink (inferred from the GPU), 450.0 GB/s each way"));
	free(d);
	analysis_free(a);
}

/*
 * Over sockets the run's link has no ceiling of its own: the B200s' own
 * NVLink (the GPU table's 900 GB/s for 2 GPUs) is drawn as the reference,
 * labelled unused, and 9 GB/s under 900 (100x) puts the axis on a log scale
 * (whole decades 1..1000) so the points do not sit on zero.
 */
static void sockets_draw_the_unused_link(void **state)
{
	struct analysis *a = analyse_dir(sample("nccl-over-sockets"));
	const char *why;
	char *d = dump_chart(a, "05-communication", &why);
	char want[160];

	(void)state;
	assert_non_null(d);
	assert_true(fabs(gpu_link_gbps_for(gpu_lookup("B200", -1), 2) - 900) < 1e-9);
	snprintf(want, sizeof(want), "hline reference dashed y=%g \"B200 NVLink nominal 900.0 GB/s, not used "
		 "(NCCL: sockets (NET/Socket))\"", log10(900.0));
	assert_non_null(strstr(d, want));
	assert_non_null(strstr(d, "panel.0.y.scale = log10\n"));
	assert_non_null(strstr(d, "panel.0.y.ticks = 1 10 100 1000\n"));
	assert_non_null(strstr(d, "panel.0.y.label = bus bandwidth (GB/s, log scale)\n"));
	assert_non_null(strstr(d, "2gpu: NCCL transport: sockets (NET/Socket); link: network, no nominal ceiling"));
	/* 480000000 bytes at 8.961930316892403 GB/s (analysis.json's busbw_by_size), as log10 */
	assert_true(fabs(point_y(d, "\"2gpu AllReduce, trace, 2 GPUs\"", log2(480000000.0)) -
			 log10(8.961930316892403)) < 1e-4);
	free(d);
	analysis_free(a);
}

/*
 * pipeline-bubble's SendRecv: 134217728 bytes in 2 calls per step, 3.3 GB/s
 * over its whole time but 145.7 GB/s over its 0.92 ms of transfer
 * (analysis.json: transfer_busbw_gbps 145.73545613543138; 40.06 of its
 * 40.98 ms waiting, 98%). The transfer point is drawn beside the busbw one
 * and says how much of the time was waiting; with a point at 145.7 GB/s
 * under the 450 GB/s ceiling the axis stays linear.
 */
static void transfer_bandwidth_beside_busbw(void **state)
{
	struct analysis *a = analyse_dir(sample("pipeline-bubble"));
	const char *why;
	char *d = dump_chart(a, "05-communication", &why);
	const char *name = "\"2gpu SendRecv, during transfer (98% of its time waiting)\"";

	(void)state;
	assert_non_null(d);
	assert_true(fabs(point_y(d, name, log2(134217728.0 / 2)) - 145.73545613543138) < 1e-3);
	assert_true(fabs(point_y(d, "\"2gpu SendRecv, trace, 2 GPUs\"", log2(67108864.0)) - 3.275053960870965) <
		    1e-4);
	assert_int_equal(count_lines(d, "legend.", name), 1);
	assert_non_null(strstr(d, "panel.0.y.scale = linear\n"));
	assert_non_null(strstr(d, "\"H100 SXM NVLink nominal 450.0 GB/s\""));
	free(d);
	analysis_free(a);
}

/*
 * A new temporary directory for a trial made of ../shared's files, with
 * *shared set to ../shared; skips the test, before allocating anything (a
 * skip leaves the test here), where ../shared is absent.
 */
static char *shared_trial_dir(const char **shared)
{
	char *dir;

	*shared = getenv("SHARED");
	if (!*shared || !**shared)
		skip_without_shared();
	dir = xstrdup("/tmp/test_charts_mem_comm.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return dir;
}

/* Runs a shell command that builds a trial; it must succeed. Frees cmd. */
static void build_trial(char *cmd)
{
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* Temporary copy of a sample trial with a real nccl-tests log of five operations added to its 2-GPU run. */
static char *trial_with_nccl_tests(void)
{
	const char *shared;
	char *dir = shared_trial_dir(&shared);

	build_trial(xasprintf("cp -R samples/trials/ddp-scales-well/. '%s' && cp '%s/realdata/%s' '%s/2gpu/nccl-tests.txt'",
			     dir, shared, NCCL_TESTS_LOG, dir));
	return dir;
}

static void nccl_tests_draw_one_series_per_operation(void **state)
{
	char *dir = trial_with_nccl_tests();
	struct analysis *a = analyse_dir(dir);
	const char *why;
	char *d = dump_chart(a, "05-communication", &why);

	(void)state;
	assert_non_null(d);
	/* all_reduce, all_gather, broadcast, reduce, alltoall: five series, five legend entries */
	assert_int_equal(count_lines(d, "panel.0.mark.", ", nccl-tests, 2 GPUs\""), 5);
	assert_int_equal(count_lines(d, "legend.", ", nccl-tests, 2 GPUs\""), 5);
	assert_int_equal(count_lines(d, "\"2gpu AllReduce, nccl-tests, 2 GPUs\"", "line candidate n=28 "), 1);
	assert_int_equal(count_lines(d, "\"2gpu AllToAll, nccl-tests, 2 GPUs\"", "line candidate"), 1);
	/* 1 GiB all_reduce: 4.00 GB/s out of place in the log */
	assert_true(fabs(point_y(d, "\"2gpu AllReduce, nccl-tests, 2 GPUs\"", 30) - 4.0) < 1e-9);
	assert_int_equal(count_lines(d, "\"2gpu AllReduce, trace, 2 GPUs\"", "line candidate"), 1);
	free(d);
	analysis_free(a);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

/* A trial whose 1-GPU run has a real PyTorch memory timeline (and no other peak). */
static char *trial_with_memory_timeline(void)
{
	const char *shared;
	char *dir = shared_trial_dir(&shared);

	build_trial(xasprintf("cd '%s' && mkdir 1gpu 2gpu && printf '[trial]\\nhypothesis = step-time\\nbaseline = 1gpu\\n' "
			"> trial.ini && cp '%s/realdata/kineto_trace/hta__memory_analysis__memory_timeline.raw.gz' "
			"1gpu/memory_timeline.raw.gz && cp '%s/realdata/kineto_trace/"
			"hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz' 1gpu/rank0.pt.trace.json.gz "
			"&& cp '%s/realdata/kineto_trace/hta__nccl_parser_config__nccl_data.json.gz' "
			"2gpu/rank0.pt.trace.json.gz", dir, shared, shared, shared));
	return dir;
}

/* The timeline's categories at its peak, stacked: parameters, gradients, optimizer state, activations, the rest. */
static void memory_timeline_is_stacked_by_category(void **state)
{
	char *dir = trial_with_memory_timeline();
	struct analysis *a = analyse_dir(dir);
	const struct gpu_result *g = &run_named(a, "1gpu")->gpu[0];
	const char *why;
	char *d = dump_chart(a, "04-memory", &why), want[128];
	/* the file's bytes at its peak, by category */
	double param = 102440608, grad = 67858432, opt = 102228128, act = 2592465920;
	double other = 19395584 + 64225280 + 134218152.0;	/* input, autograd detail, unknown */

	(void)state;
	assert_non_null(d);
	assert_int_equal(g->timeline_peak, 3082832104);
	assert_true(g->peak_memory < 0);	/* the bar is the timeline's alone */
	snprintf(want, sizeof(want), "rect mem_parameter x=-0.3..0.3 y=0..%g", param / 1e9);
	assert_int_equal(count_lines(d, want, ""), 1);
	snprintf(want, sizeof(want), "rect mem_gradient x=-0.3..0.3 y=%g..%g", param / 1e9, (param + grad) / 1e9);
	assert_int_equal(count_lines(d, want, ""), 1);
	snprintf(want, sizeof(want), "rect mem_optimizer x=-0.3..0.3 y=%g..%g", (param + grad) / 1e9,
		 (param + grad + opt) / 1e9);
	assert_int_equal(count_lines(d, want, ""), 1);
	snprintf(want, sizeof(want), "rect mem_activation x=-0.3..0.3 y=%g..%g", (param + grad + opt) / 1e9,
		 (param + grad + opt + act) / 1e9);
	assert_int_equal(count_lines(d, want, ""), 1);
	snprintf(want, sizeof(want), "rect mem_other x=-0.3..0.3 y=%g..%g", (param + grad + opt + act) / 1e9,
		 (param + grad + opt + act + other) / 1e9);
	assert_int_equal(count_lines(d, want, ""), 1);
	assert_int_equal(count_lines(d, "legend.", "\"activations\""), 1);
	assert_non_null(strstr(d, "panel.0.x.cats = 1gpu\\nGPU 0\\n3.1 GB (tensors)"));
	free(d);
	analysis_free(a);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

static void monitor_is_cropped_to_the_job(void **state)
{
	struct analysis *a = analyse_dir(sample("ddp-scales-well"));
	const struct run_result *r = run_named(a, "2gpu");
	const char *why;
	char *d = dump_chart(a, "08-monitor", &why), want[128];
	int64_t first = INT64_MAX, last = INT64_MIN;
	size_t gi, k;

	(void)state;
	assert_non_null(d);
	for (gi = 0; gi < r->ngpu; gi++)
		for (k = 0; k < r->gpu[gi].nsteps; k++) {
			const struct step_point *s = &r->gpu[gi].steps[k];
			int64_t end = s->start_ns + (int64_t)(s->window_s * 1e9);

			first = s->start_ns < first ? s->start_ns : first;
			last = end > last ? end : last;
		}
	/* the profiled window shaded in both panels, from the first step */
	snprintf(want, sizeof(want), "vspan warmup x=0..%g", (double)(last - first) / 1e9);
	assert_int_equal(count_lines(d, want, ""), 2);
	/* the samples kept lie within 5 s of the profiled steps: the 34 s table is cropped */
	assert_true(strtod(strstr(d, "panel.0.x.range = ") + 18, NULL) >= -5.2);
	assert_int_equal(count_lines(d, "panel.0.mark.5 = hline ink y=191.503 \"B200 191.5 GB / 178.4 GiB (180 GB nominal)\"", ""), 1);
	assert_int_equal(count_lines(d, "panel.0.x.label = time from the first profiled step (s)", ""), 1);
	free(d);
	analysis_free(a);
}

/* Two samples a GPU draw no line: the chart is left out and says why. */
static void monitor_needs_three_samples(void **state)
{
	struct analysis a;
	const char *why = NULL;
	size_t i;

	(void)state;
	fixture_analysis_ddp(&a);
	for (i = 0; i < a.nruns; i++)
		a.runs[i].nmonitor = 2 * a.runs[i].ngpu;	/* the first two seconds, each GPU */
	assert_null(dump_chart(&a, "08-monitor", &why));
	assert_string_equal(why, "no memory and utilisation over time: fewer than 3 nvidia-smi samples per GPU in "
			    "any run's window");
	for (i = 0; i < a.nruns; i++)
		a.runs[i].nmonitor = 3 * a.runs[i].ngpu;
	free(dump_chart(&a, "08-monitor", &why));
	fixture_analysis_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(oom_run_is_drawn_failed),
		cmocka_unit_test(memory_labels_stay_clear),
		cmocka_unit_test(close_capacities_keep_their_labels),
		cmocka_unit_test(bandwidth_is_bytes_over_time),
		cmocka_unit_test(sockets_draw_the_unused_link),
		cmocka_unit_test(transfer_bandwidth_beside_busbw),
		cmocka_unit_test(nccl_tests_draw_one_series_per_operation),
		cmocka_unit_test(memory_timeline_is_stacked_by_category),
		cmocka_unit_test(monitor_is_cropped_to_the_job),
		cmocka_unit_test(monitor_needs_three_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
