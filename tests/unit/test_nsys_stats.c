/*
 * The Nsight Systems console table reader: the real console outputs of
 * ../shared/realdata/nsys, tables of both report-name eras and title forms
 * inside a training log, every chunk size, and tables cut short; then what
 * analysis/nsys_summary.c makes of them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/nsys_summary.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/ingest.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

#define ELLIPSIS "\xe2\x80\xa6"

static void assert_num(double got, double want)
{
	assert_true(fabs(got - want) <= 1e-9 * fabs(want) + 1e-12);
}

static const struct nsys_row *row_named(const struct nsys_row *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].name, name))
			return &r[i];
	static const struct nsys_row none;

	fail_msg("no row '%s'", name);
	return &none;
}

static void assert_diag(const struct loaded *x, size_t i, const char *want)
{
	struct buf line;

	assert_true(x->t->diags.count > i);
	buf_init(&line, 0);
	diag_format(&x->t->diags.items[i], &line);
	assert_string_equal(line.data, want);
	buf_release(&line);
}

/*
 * Expected values below were computed once, independently of this reader,
 * by a short Python script that takes each dashed rule, splits the line above
 * it on runs of two spaces, and sums the rows up to the next blank line by the
 * report named in the preceding "Executing '...' stats report" line.
 */

/* Four profiles of one A100 program in one notes file: 30 tables, 200 rows. */
static void real_a100_notes(void **state)
{
	struct loaded x;
	const struct nsys_row *k, *m, *v;
	const struct info *gt;

	(void)state;
	if (!load_real(&x, "nsys/ayush-os_nsight-systems-deep-dive_README_nsys-profile-stats-console-tables_A100.md"))
		skip_without_shared();
	assert_string_equal(format_name(x.f.sniff.format), "nsys-stats");
	assert_int_equal(x.r->nsys_tables, 30);
	assert_int_equal(x.r->sources[0].events, 200);
	assert_int_equal(x.t->diags.count, 0);
	assert_int_equal(x.r->nnsys_kernels, 1);
	k = &x.r->nsys_kernels[0];
	assert_string_equal(k->name, "vectorAdd(const float *, const float *, float *, int)");
	assert_int_equal(k->instances, 3550);
	assert_num(k->total_ns, 440366064.0);
	assert_int_equal(k->cls, EVC_COMPUTE);
	assert_true(isnan(k->med_ns));	/* summed over five tables */
	assert_int_equal(x.r->nnsys_memops, 2);
	m = row_named(x.r->nsys_memops, x.r->nnsys_memops, "[CUDA memcpy HtoD]");
	assert_int_equal(m->instances, 1008);
	assert_num(m->total_ns, 4497796693.0);
	assert_num(m->bytes, 80800000000.0);
	assert_int_equal(m->cls, EVC_MEMORY);
	m = row_named(x.r->nsys_memops, x.r->nnsys_memops, "[CUDA memcpy DtoH]");
	assert_int_equal(m->instances, 503);
	assert_num(m->bytes, 40200000000.0);
	assert_int_equal(x.r->nnsys_nvtx, 6);
	v = row_named(x.r->nsys_nvtx, x.r->nnsys_nvtx, "iteration");
	assert_int_equal(v->instances, 100);
	assert_num(v->total_ns, 4029987269.0);
	assert_num(v->med_ns, 38056582.5);
	v = row_named(x.r->nsys_nvtx, x.r->nnsys_nvtx, "Create streams");
	assert_int_equal(v->instances, 1);
	v = row_named(x.r->nsys_nvtx, x.r->nnsys_nvtx, "Warmup");
	assert_int_equal(v->instances, 5);
	assert_num(v->total_ns, 12607683.0);
	gt = info_object(&x, "gpu_time_s");
	assert_num(get_num(gt, "compute"), 0.440366064);
	assert_num(get_num(gt, "communication"), 0);
	assert_num(get_num(gt, "memory"), 7.406598221);
	assert_int_equal(get_int(x.f.info, "kernel_instances"), 3550);
	unload(&x);
}

/* One profile, the NVTX report SKIPPED, a kernel name cut with U+2026. */
static void real_rtx2080ti_console(void **state)
{
	struct loaded x;
	const struct nsys_row *m;
	const struct info *t;

	(void)state;
	if (!load_real(&x, "nsys/dclahan-flashattn-proj_results_nsys-results_RTX2080Ti_stats-console_SKIPPED-nvtx.md"))
		skip_without_shared();
	assert_int_equal(x.r->nsys_tables, 5);
	assert_int_equal(x.r->sources[0].events, 37);
	assert_int_equal(x.t->diags.count, 0);
	assert_int_equal(x.r->nnsys_kernels, 1);
	assert_string_equal(x.r->nsys_kernels[0].name, "flash_attn_forward_kernel(const float *, const float *, "
			    "const float *, int, int, int, int, int, int" ELLIPSIS);
	assert_num(x.r->nsys_kernels[0].total_ns, 12454378.0);
	assert_num(x.r->nsys_kernels[0].med_ns, 12454378.0);
	assert_int_equal(x.r->nsys_kernels[0].instances, 1);
	m = row_named(x.r->nsys_memops, x.r->nnsys_memops, "[CUDA memcpy Host-to-Device]");
	assert_int_equal(m->instances, 4);
	assert_num(m->total_ns, 2726042.0);
	assert_num(m->bytes, 25297000.0);
	m = row_named(x.r->nsys_memops, x.r->nnsys_memops, "[CUDA memset]");
	assert_num(m->bytes, 8651000.0);
	assert_int_equal(x.r->nnsys_nvtx, 0);
	assert_int_equal(get_int(x.f.info, "cut_names"), 1);
	t = info_get(x.f.info, "tables")->child;
	assert_string_equal(get_str(t, "report"), "osrt_sum");
	assert_int_equal(get_int(t, "line"), 25);
	assert_int_equal(get_int(t, "rows"), 25);
	unload(&x);
}

/*
 * A training log holding tables of both eras: the old `Running [...gpukernsum.py`
 * title with old headers, the `** ... (name):` title, a table without title,
 * microsecond units, NVTX step ranges, names with spaces. Rows from the real
 * files above, names and values changed where a case needs it.
 */
static const char train_log[] =
	"epoch 0 step 10 loss 2.31 time 0.51s\n"
	"Running [/opt/nvidia/nsight-systems/2021.5.2/target-linux-x64/reports/gpukernsum.py report1.sqlite]... \n"
	"\n"
	" Time(%)  Total Time (ns)  Instances   Average   Minimum   Maximum                        Name                      \n"
	" -------  ---------------  ---------  ---------  -------  ---------  ------------------------------------------------\n"
	"    60.0          600,000         10   60,000.0   50,000     70,000  ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn\n"
	"    40.0          400,000          4  100,000.0   90,000    110,000  ncclKernel_AllReduce_RING_LL_Sum_bf16(ncclWorkElem)\n"
	"\n"
	"epoch 0 step 11 loss 2.29 time 0.50s\n"
	" ** CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum):\n"
	"\n"
	" Time (%)  Total Time (us)  Count  Avg (us)  Med (us)  Min (us)  Max (us)  StdDev (us)      Operation     \n"
	" --------  ---------------  -----  --------  --------  --------  --------  -----------  ------------------\n"
	"    100.0            1,500      3     500.0     400.0     300.0     800.0        264.6  [CUDA memcpy HtoD]\n"
	"\n"
	" Time (%)  Total Time (ns)  Instances   Avg (ns)     Med (ns)    Min (ns)   Max (ns)   StdDev (ns)   Style      Range    \n"
	" --------  ---------------  ---------  -----------  -----------  ---------  ---------  -----------  -------  ------------\n"
	"     90.0      900,000,000          3  300,000,000.0  250,000,000.0  200,000,000  450,000,000  132,287,565.6  PushPop  :train step\n"
	"     10.0      100,000,000          1  100,000,000.0  100,000,000.0  100,000,000  100,000,000          0.0  PushPop  :setup\n"
	"\n"
	"[6/8] Executing 'cuda_gpu_kern_sum' stats report\n"
	"\n"
	" Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)  Name\n"
	" --------  ---------------  ---------  --------  --------  --------  --------  -----------  ----\n"
	"    100.0          200,000          5  40,000.0  40,000.0    40,000    40,000          0.0  ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn\n"
	"\n"
	"epoch 0 step 12 loss 2.27 time 0.50s\n";

static void assert_train_log(const struct loaded *x)
{
	const struct nsys_row *k, *v;

	assert_int_equal(x->r->nsys_tables, 4);
	assert_int_equal(x->t->diags.count, 0);
	assert_int_equal(x->r->nnsys_kernels, 2);
	k = row_named(x->r->nsys_kernels, x->r->nnsys_kernels, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn");
	assert_int_equal(k->instances, 15);
	assert_num(k->total_ns, 800000.0);
	assert_num(k->avg_ns, 800000.0 / 15);
	assert_int_equal(k->cls, EVC_COMPUTE);
	k = row_named(x->r->nsys_kernels, x->r->nnsys_kernels, "ncclKernel_AllReduce_RING_LL_Sum_bf16(ncclWorkElem)");
	assert_int_equal(k->cls, EVC_COMM);
	assert_num(k->avg_ns, 100000.0);
	assert_true(isnan(k->med_ns));	/* the old header has no median */
	assert_int_equal(x->r->nnsys_memops, 1);
	assert_num(x->r->nsys_memops[0].total_ns, 1500e3);
	assert_num(x->r->nsys_memops[0].med_ns, 400e3);
	assert_int_equal(x->r->nsys_memops[0].instances, 3);
	assert_true(isnan(x->r->nsys_memops[0].bytes));
	v = row_named(x->r->nsys_nvtx, x->r->nnsys_nvtx, ":train step");
	assert_int_equal(v->instances, 3);
	assert_num(v->med_ns, 250e6);
	assert_num(get_num(info_object(x, "gpu_time_s"), "communication"), 400e-6);
	assert_num(get_num(info_object(x, "gpu_time_s"), "compute"), 800e-6);
	assert_num(get_num(info_object(x, "gpu_time_s"), "memory"), 1500e-6);
}

static void tables_in_a_training_log(void **state)
{
	struct loaded x;
	const struct info *t;
	static const char *const reports[] = {
		"gpukernsum", "cuda_gpu_mem_time_sum", "nvtx_sum", "cuda_gpu_kern_sum"
	};
	static const int64_t lines[] = { 4, 12, 16, 23 };
	size_t i = 0;

	(void)state;
	load_str(&x, train_log);
	assert_train_log(&x);
	for (t = info_get(x.f.info, "tables")->child; t; t = t->next, i++) {
		assert_string_equal(get_str(t, "report"), reports[i]);
		assert_int_equal(get_int(t, "line"), lines[i]);
	}
	assert_int_equal(i, 4);
	unload(&x);
}

static void every_chunk_size(void **state)
{
	(void)state;
	for (size_t chunk = 1; chunk <= 64; chunk++) {
		struct loaded x;

		load_chunks(&x, "train.log", train_log, sizeof(train_log) - 1, chunk);
		assert_train_log(&x);
		unload(&x);
	}
}

/*
 * The tables of train_log as `nsys stats --format csv` writes them, both
 * eras, between the same log lines: the run gets the same rows (values in
 * ns, the CSV reports' unit); a line that is no row ends a table.
 */
static const char train_csv[] =
	"epoch 0 step 10 loss 2.31 time 0.51s\n"
	"Processing [report1.sqlite] with [/opt/nvidia/nsight-systems/2021.5.2/target-linux-x64/reports/gpukernsum.py]... \n"
	"\"Time(%)\",\"Total Time (ns)\",\"Instances\",\"Average\",\"Minimum\",\"Maximum\",\"Name\"\n"
	"\"60.0\",\"600000\",\"10\",\"60000.0\",\"50000\",\"70000\",\"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn\"\n"
	"\"40.0\",\"400000\",\"4\",\"100000.0\",\"90000\",\"110000\",\"ncclKernel_AllReduce_RING_LL_Sum_bf16(ncclWorkElem)\"\n"
	"epoch 0 step 11 loss 2.29 time 0.50s\n"
	"Processing [report2.sqlite] with [/opt/nvidia/nsight-systems/2024.5.1/host-linux-x64/reports/cuda_gpu_mem_time_sum.py]... \n"
	"\n"
	"Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation\r\n"
	"100.0,1500000,3,500000.0,400000.0,300000,800000,264575.1,[CUDA memcpy HtoD]\r\n"
	"\n"
	"Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range\n"
	"90.0,900000000,3,300000000.0,250000000.0,200000000,450000000,132287565.6,PushPop,:train step\n"
	"10.0,100000000,1,100000000.0,100000000.0,100000000,100000000,0.0,PushPop,:setup\n"
	"\n"
	"Processing [report2.sqlite] with [/opt/nvidia/nsight-systems/2024.5.1/host-linux-x64/reports/cuda_gpu_kern_sum.py]... \n"
	"Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
	"100.0,200000,5,40000.0,40000.0,40000,40000,0.0,ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn\n"
	"epoch 0 step 12 loss 2.27 time 0.50s\n";

/* A CSV table without a count column is no report, even beside real ones. */
static void csv_stray_table(void **state)
{
	static const char text[] = "Total,Name\n5,foo\n";
	struct loaded x;
	struct buf b;

	(void)state;
	buf_init(&b, 0);
	buf_add(&b, train_csv, sizeof(train_csv) - 1);
	buf_add(&b, text, sizeof(text) - 1);
	load_chunks(&x, "train.log", b.data, b.len, 0);
	assert_train_log(&x);	/* 4 tables, the same rows */
	unload(&x);
	buf_release(&b);
}

static void csv_reports_every_chunk_size(void **state)
{
	(void)state;
	for (size_t chunk = 0; chunk <= 64; chunk++) {
		struct loaded x;

		load_chunks(&x, "train.log", train_csv, sizeof(train_csv) - 1, chunk);
		assert_string_equal(format_name(x.f.sniff.format), "nsys-csv");
		assert_train_log(&x);
		unload(&x);
	}
}

/* Two files of one run add up by name; the median of a name in both is unknown. */
static void two_files_of_one_run(void **state)
{
	struct loaded x;
	struct ingest_stream *s;
	struct ingest_file f2;
	const struct nsys_row *k;

	(void)state;
	load_chunks(&x, "one.log", train_log, sizeof(train_log) - 1, 0);
	s = ingest_stream_open(x.t, x.r, "two.log", (int64_t)sizeof(train_log) - 1, &x.a);
	ingest_stream_feed(s, train_log, sizeof(train_log) - 1);
	assert_int_equal(ingest_stream_finish(s, &f2), 0);
	assert_int_equal(x.r->nsys_tables, 8);
	assert_int_equal(x.r->nnsys_kernels, 2);
	k = row_named(x.r->nsys_kernels, x.r->nnsys_kernels, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn");
	assert_int_equal(k->instances, 30);
	assert_num(k->total_ns, 1600000.0);
	assert_num(k->avg_ns, 1600000.0 / 30);
	assert_int_equal(x.r->nnsys_nvtx, 2);
	k = row_named(x.r->nsys_nvtx, x.r->nnsys_nvtx, ":train step");
	assert_int_equal(k->instances, 6);
	assert_true(isnan(k->med_ns));
	assert_int_equal(x.r->nnsys_memops, 1);
	assert_num(x.r->nsys_memops[0].total_ns, 3000e3);
	unload(&x);
}

static const char cut_row[] =
	"[6/8] Executing 'cuda_gpu_kern_sum' stats report\n"
	"\n"
	" Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)  Name\n"
	" --------  ---------------  ---------  --------  --------  --------  --------  -----------  ----\n"
	"    80.0          200,000          5  40,000.0  40,000.0    40,000    40,000          0.0  gemm_a\n"
	"    20.0           50,000          5  10,000.0  10,0";

static const char cut_header[] =
	"[7/8] Executing 'cuda_gpu_mem_time_sum' stats report\n"
	"\n"
	" Time (%)  Total Time (ns)  Count  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)  Operation\n"
	" --------  ---------------  -----  --------  --------  --------  --------  -----------  ---------\n";

static void truncated_tables(void **state)
{
	struct loaded x;

	(void)state;
	load_chunks(&x, "cut.log", cut_row, sizeof(cut_row) - 1, 7);
	assert_int_equal(x.r->nsys_tables, 1);
	assert_int_equal(x.r->nnsys_kernels, 1);
	assert_num(x.r->nsys_kernels[0].total_ns, 200000.0);
	assert_int_equal(x.t->diags.count, 1);
	assert_diag(&x, 0, "cut.log:6: warning: table 'cuda_gpu_kern_sum' has a line that does not fit "
		    "its columns (cut short?); the table ends here");
	unload(&x);
	load_chunks(&x, "cut.log", cut_header, sizeof(cut_header) - 1, 3);
	assert_int_equal(x.r->nsys_tables, 1);
	assert_int_equal(x.r->nnsys_memops, 0);
	assert_int_equal(x.t->diags.count, 1);
	assert_diag(&x, 0, "cut.log:4: warning: table 'cuda_gpu_mem_time_sum' ends before its first row");
	unload(&x);
}

/* Rules and numbers that belong to no summary table are left alone. */
static void not_tables(void **state)
{
	struct loaded x;
	static const char text[] =
		" Start (ns)  Duration (ns)  CorrId  Name\n"
		" ----------  -------------  ------  ----\n"
		"      1,000          2,000       1  gemm\n"
		"\n"
		"name   value\n"
		"-----  -----\n"
		"a      1\n"
		"--------------------\n";

	(void)state;
	load_str(&x, text);
	assert_int_equal(x.r->nsys_tables, 0);
	assert_int_equal(x.t->diags.count, 0);
	assert_null(info_get(x.f.info, "tables"));
	unload(&x);
}

/* The A100 notes: 100 NVTX "iteration" ranges give the step; "Warmup" is no step. */
static void summary_of_real_notes(void **state)
{
	struct loaded x;
	struct nsys_summary s;

	(void)state;
	if (!load_real(&x, "nsys/ayush-os_nsight-systems-deep-dive_README_nsys-profile-stats-console-tables_A100.md"))
		skip_without_shared();
	nsys_summary_of_run(x.r, &s);
	assert_true(s.present);
	assert_num(s.gpu_ns[EVC_COMPUTE], 440366064.0);
	assert_num(s.gpu_ns[EVC_COMM], 0);
	assert_num(s.gpu_ns[EVC_MEMORY], 7406598221.0);
	assert_num(s.gpu_total_ns, 440366064.0 + 7406598221.0);
	assert_string_equal(s.step_range, "iteration");
	assert_int_equal(s.steps, 100);
	assert_num(s.step_ns, 38056582.5);
	unload(&x);
}

/* ProfilerStep#N ranges count as one family; too few instances give no step. */
static void summary_step_families(void **state)
{
	struct nsys_row nvtx[] = {
		{ .name = "ProfilerStep#1", .instances = 1, .avg_ns = 900, .med_ns = 900 },
		{ .name = ":forward", .instances = 40, .avg_ns = 10, .med_ns = 10 },
		{ .name = "ProfilerStep#2", .instances = 1, .avg_ns = 300, .med_ns = 300 },
		{ .name = "ProfilerStep#3", .instances = 1, .avg_ns = 100, .med_ns = NAN },
		{ .name = "ProfilerStep#4", .instances = 1, .avg_ns = 200, .med_ns = 200 },
		{ .name = "ProfilerStep#5", .instances = 1, .avg_ns = 400, .med_ns = 400 },
		{ .name = ":Train_Step 7", .instances = 4, .avg_ns = 50, .med_ns = 50 },
	};
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "r", ".");
	struct nsys_summary s;

	(void)state;
	r->nsys_nvtx = nvtx;
	r->nnsys_nvtx = 7;
	nsys_summary_of_run(r, &s);
	assert_false(s.present);
	assert_string_equal(s.step_range, "ProfilerStep#1");
	assert_int_equal(s.steps, 5);
	assert_num(s.step_ns, 300);	/* median of 900, 300, 100, 200, 400 */
	nvtx[6].instances = 6;
	nsys_summary_of_run(r, &s);
	assert_string_equal(s.step_range, ":Train_Step 7");
	assert_int_equal(s.steps, 6);
	assert_num(s.step_ns, 50);
	r->nnsys_nvtx = 2;
	nsys_summary_of_run(r, &s);
	assert_null(s.step_range);
	assert_int_equal(s.steps, 0);
	assert_true(isnan(s.step_ns));
	r->nsys_nvtx = NULL;
	r->nnsys_nvtx = 0;
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_a100_notes),
		cmocka_unit_test(real_rtx2080ti_console),
		cmocka_unit_test(tables_in_a_training_log),
		cmocka_unit_test(every_chunk_size),
		cmocka_unit_test(csv_reports_every_chunk_size),
		cmocka_unit_test(csv_stray_table),
		cmocka_unit_test(two_files_of_one_run),
		cmocka_unit_test(truncated_tables),
		cmocka_unit_test(not_tables),
		cmocka_unit_test(summary_of_real_notes),
		cmocka_unit_test(summary_step_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
