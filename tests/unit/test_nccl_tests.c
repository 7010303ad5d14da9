/*
 * nccl-tests reader: every file of realdata/nccl_tests (and the nccl-tests
 * device lines inside two nccl_debug files) through ingest_file(), with
 * values read from the files, and tables of every era written here: the
 * 2018 header, header-less rows, '#' lost in a paste, mpirun prefixes,
 * CRLF, touching columns, a 10 MB line, binary noise, a cut last row.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/arena.h"
#include "core/info.h"
#include "core/model.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

static const struct info *nt(const struct loaded *x)
{
	return info_object(x, "nccl_tests");
}

static void assert_num(double got, double want)
{
	if (isnan(want)) {
		assert_true(isnan(got));
		return;
	}
	assert_false(isnan(got));
	assert_true(fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want)));
}

static void assert_str_or_null(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else
		assert_non_null(got), assert_string_equal(got, want);
}

/* The strings (or member `key` of the objects) of an array joined with ','. */
static void get_list(const struct info *o, const char *arr, const char *key, char *out, size_t size)
{
	const struct info *v = info_get(o, arr);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_ARR);
	out[0] = '\0';
	for (const struct info *e = v->child; e; e = e->next) {
		const char *s = key ? get_str(e, key) : e->v.s;

		if (out[0])
			strncat(out, ",", size - strlen(out) - 1);
		strncat(out, s ? s : "null", size - strlen(out) - 1);
	}
}

static size_t arr_len(const struct info *o, const char *key)
{
	size_t n = 0;

	for (const struct info *e = info_get(o, key)->child; e; e = e->next)
		n++;
	return n;
}

/*
 * The real files. Rows and max busbw were computed independently with
 *   awk '/^ +[0-9]+ +[0-9]+ +[a-z]/{n++; if ($8>m) m=$8; if ($12>m) m=$12} END{print n, m}'
 * (per test for the autodl file, split at its *_perf command lines); device
 * names and footers were read from the files.
 */
static const struct expect {
	const char *file;	/* under realdata/ */
	const char *ops;	/* joined with ',' */
	int64_t rows;
	double avg;		/* NaN: null */
	double max;
	int64_t gpus;
	const char *names;	/* device names joined with ',' */
	const char *version;
	size_t results;
} expects[] = {
	{ "nccl_tests/autodl_2x_RTX2080Ti_PCIe_nccl-tests_allreduce_allgather_bcast_reduce_alltoall.txt",
	  "all_reduce,all_gather,broadcast,reduce,alltoall", 168, NAN, 5706839.35, 2,
	  "NVIDIA GeForce RTX 2080 Ti,NVIDIA GeForce RTX 2080 Ti", NULL, 6 },
	{ "nccl_tests/issue-dgx-spark-playbooks-pr103_2nodes_GB10_v2.20.0_new-header.txt",
	  "all_reduce", 4, NAN, 1.01, 2, "NVIDIA GB10,NVIDIA GB10", "2.31.2", 1 },
	{ "nccl_tests/issue-nccl-1435_2xGPU_all_gather_bfloat16.txt",
	  "all_gather", 7, NAN, 144.59, 0, "", NULL, 1 },
	{ "nccl_tests/issue-nccl-583_8xA100_OLD-format_Rank-without-Group_error-col_header-only.txt",
	  "all_reduce", 0, NAN, NAN, 8,
	  "NVIDIA A100-SXM4-40GB,NVIDIA A100-SXM4-40GB,NVIDIA A100-SXM4-40GB,NVIDIA A100-SXM4-40GB,"
	  "NVIDIA A100-SXM4-40GB,NVIDIA A100-SXM4-40GB,NVIDIA A100-SXM4-40GB,NVIDIA A100-SXM4-40GB",
	  NULL, 1 },
	{ "nccl_tests/issue-nccl-tests-131_2GPU-PHB_GTX1050Ti+GTX950_Pid-no-Group_NCCL-INFO-interleaved.txt",
	  "", 0, NAN, NAN, 2, "NVIDIA GeForce GTX 1050 Ti,NVIDIA GeForce GTX 950", NULL, 1 },
	{ "nccl_tests/issue-nccl-tests-249_A10G_leading-hash-stripped_blocking.txt",
	  "", 0, NAN, NAN, 1, "NVIDIA A10G", NULL, 1 },
	{ "nccl_tests/issue-nccl-tests-287_1xRTX5090_driver570.86.16_bus-0x21-format.txt",
	  "all_reduce", 4, NAN, 0.0, 1, "NVIDIA GeForce RTX 5090", NULL, 1 },
	{ "nccl_tests/issue-nccl-tests-44_2x2080Ti-NVLink_redop-and-root0_error-col.txt",
	  "", 11, NAN, 5.66, 0, "", NULL, 1 },
	{ "nccl_tests/issue-nccl-tests-5_2018_NCCL1.0_8xP100_oldest-header_bytes-N-op-res.txt",
	  "all_reduce", 0, NAN, NAN, 8,
	  "Tesla P100-PCIE-16GB,Tesla P100-PCIE-16GB,Tesla P100-PCIE-16GB,Tesla P100-PCIE-16GB,"
	  "Tesla P100-PCIE-16GB,Tesla P100-PCIE-16GB,Tesla P100-PCIE-16GB,Tesla P100-PCIE-16GB",
	  "1.0", 1 },
	/* nccl-tests device lines inside NCCL logs: the version comes from its INFO line */
	{ "nccl_debug/02_tinygrad-ogkm-issue-35_2x_RTX5090D_v2.26.2_nccl-tests.txt",
	  "", 0, NAN, NAN, 1, "NVIDIA GeForce RTX 5090 D", "2.26.2", 1 },
	{ "nccl_debug/03_nccl-tests-issue-284_2nodes_1xRTX4090_each_Socket_v2.25.1.txt",
	  "", 0, NAN, NAN, 1, "NVIDIA GeForce RTX 4090", "2.25.1", 1 },
};

static void check_expect(const struct expect *e)
{
	struct loaded x;
	const struct info *o;
	char list[1024];

	if (!load_real(&x, e->file))
		skip_without_shared();
	o = nt(&x);
	get_list(o, "ops", NULL, list, sizeof(list));
	assert_string_equal(list, e->ops);
	assert_int_equal(get_int(o, "rows"), e->rows);
	assert_int_equal((int64_t)x.r->nnccl_tests, e->rows);
	assert_num(get_num(o, "avg_busbw_gbps"), e->avg);
	assert_num(get_num(o, "max_busbw_gbps"), e->max);
	assert_int_equal(get_int(o, "gpus"), e->gpus);
	get_list(o, "devices", "name", list, sizeof(list));
	assert_string_equal(list, e->names);
	assert_str_or_null(get_str(o, "nccl_version"), e->version);
	assert_int_equal(arr_len(o, "results"), e->results);
	unload(&x);
}

static void every_real_file(void **state)
{
	const char *shared = getenv("SHARED");

	if (!shared || !*shared)
		skip_without_shared();
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
		check_expect(&expects[i]);
}

/* The autodl file: six tests, each footer exactly as printed. */
static void several_tests_in_one_file(void **state)
{
	static const struct {
		const char *op;
		int64_t gpus;
		double avg, max;
	} want[] = {
		{ "all_reduce", 2, 2.05774, 4.00 }, { "all_gather", 2, 1.6651, 3.84 },
		{ "broadcast", 2, 5.07658, 11.09 }, { "reduce", 2, 5.23248, 11.14 },
		{ "reduce", 1, 202818, 5706839.35 }, { "alltoall", 2, 2.06935, 4.73 },
	};
	struct loaded x;
	size_t i = 0;

	if (!load_real(&x, "nccl_tests/autodl_2x_RTX2080Ti_PCIe_nccl-tests_allreduce_allgather_bcast_reduce_alltoall.txt"))
		skip_without_shared();
	for (const struct info *e = info_get(nt(&x), "results")->child; e; e = e->next, i++) {
		assert_true(i < 6);
		assert_string_equal(get_str(e, "op"), want[i].op);
		assert_int_equal(get_int(e, "gpus"), want[i].gpus);
		assert_int_equal(get_int(e, "rows"), 28);
		assert_string_equal(get_str(e, "dtype"), "fp32");
		assert_num(get_num(e, "avg_busbw_gbps"), want[i].avg);
		assert_num(get_num(e, "max_busbw_gbps"), want[i].max);
		assert_int_equal(get_int(e, "max_bytes"), 1073741824);
	}
	assert_int_equal(i, 6);
	unload(&x);
}

/* Rows as stored on the run: first all_reduce row, its last, 0-byte all_gather, N/A #wrong. */
static void rows_on_the_run(void **state)
{
	struct loaded x;
	const struct nccl_test_row *w;

	if (!load_real(&x, "nccl_tests/autodl_2x_RTX2080Ti_PCIe_nccl-tests_allreduce_allgather_bcast_reduce_alltoall.txt"))
		skip_without_shared();
	assert_int_equal(x.r->nnccl_tests, 168);
	w = &x.r->nccl_tests[0];	/* 8 2 float sum -1 12.25 0.00 0.00 0 12.00 0.00 0.00 0 */
	assert_string_equal(w->op, "all_reduce");
	assert_int_equal(w->nranks, 2);
	assert_int_equal(w->bytes, 8);
	assert_int_equal(w->count, 2);
	assert_int_equal(w->dtype, DT_FP32);
	assert_string_equal(w->redop, "sum");
	assert_int_equal(w->root, -1);
	assert_int_equal(w->time_oop_ns, 12250);
	assert_int_equal(w->time_ip_ns, 12000);
	assert_int_equal(w->wrong_oop, 0);
	assert_int_equal(w->line, 11);
	w = &x.r->nccl_tests[27];	/* 1073741824 268435456 float sum -1 268588 4.00 4.00 0 268461 ... */
	assert_int_equal(w->bytes, 1073741824);
	assert_int_equal(w->time_oop_ns, 268588000);
	assert_num(w->algbw_oop, 4.0);
	assert_num(w->busbw_ip, 4.0);
	assert_int_equal(w->time_ip_ns, 268461000);
	w = &x.r->nccl_tests[28];	/* all_gather: 0 0 float none -1 0.33 ... */
	assert_string_equal(w->op, "all_gather");
	assert_int_equal(w->bytes, 0);
	assert_string_equal(w->redop, "none");
	assert_int_equal(w->time_oop_ns, 330);
	w = &x.r->nccl_tests[84];	/* reduce: root 0 */
	assert_string_equal(w->op, "reduce");
	assert_int_equal(w->root, 0);
	w = &x.r->nccl_tests[167];	/* alltoall: #wrong 0 then N/A */
	assert_string_equal(w->op, "alltoall");
	assert_int_equal(w->wrong_oop, 0);
	assert_int_equal(w->wrong_ip, -1);
	assert_num(w->busbw_ip, 4.73);
	unload(&x);
}

/* nccl-tests#44: no header, redop and root 0, float error column. */
static void error_column_rows(void **state)
{
	struct loaded x;
	const struct nccl_test_row *w;

	if (!load_real(&x, "nccl_tests/issue-nccl-tests-44_2x2080Ti-NVLink_redop-and-root0_error-col.txt"))
		skip_without_shared();
	assert_int_equal(x.r->nnccl_tests, 11);
	w = &x.r->nccl_tests[10];	/* 131072 32768 float sum 0 23.17 5.66 5.66 0e+00 23.27 5.63 5.63 0e+00 */
	assert_int_equal(w->bytes, 131072);
	assert_int_equal(w->root, 0);
	assert_int_equal(w->time_oop_ns, 23170);
	assert_num(w->busbw_oop, 5.66);
	assert_num(w->busbw_ip, 5.63);
	assert_int_equal(w->wrong_oop, -1);
	assert_null(w->op);
	assert_int_equal(w->nranks, -1);
	unload(&x);
}

/* The 2018 header names its columns "bytes N type op time algbw busbw res". */
static void oldest_header_with_rows(void **state)
{
	static const char log[] =
		"nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
		"# NCCL Tests compiled with NCCL 1.0\n"
		"# Using devices\n"
		"#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB\n"
		"#   Rank  1 on     node03 device  1 [0x00] Tesla P100-PCIE-16GB\n"
		"\n"
		"#                                                 out-of-place                    in-place\n"
		"#      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n"
		"            8             2   float     sum    0.031   0.00   0.00    0e+00    0.030   0.00   0.00    0e+00\n"
		"           16             4   float     sum    0.032   0.00   0.00    0e+00    0.031   0.00   0.00    0e+00\n"
		" Out of bounds values : 0 OK\n"
		" Avg bus bandwidth    : 0.00125 \n";
	struct loaded x;
	const struct nccl_test_row *w;

	load_str(&x, log);
	assert_int_equal(get_int(nt(&x), "rows"), 2);
	assert_int_equal(get_int(nt(&x), "gpus"), 2);
	assert_num(get_num(nt(&x), "avg_busbw_gbps"), 0.00125);
	assert_string_equal(get_str(nt(&x), "nccl_version"), "1.0");
	w = &x.r->nccl_tests[1];
	assert_int_equal(w->bytes, 16);
	assert_int_equal(w->count, 4);
	assert_string_equal(w->redop, "sum");
	assert_int_equal(w->root, -1);
	assert_int_equal(w->time_oop_ns, 32);
	assert_int_equal(w->time_ip_ns, 31);
	assert_int_equal(w->nranks, 2);
	unload(&x);
}

/* ~2020 rows of 11 fields (no redop, no root) and a header of that era. */
static void rows_without_redop(void **state)
{
	static const char log[] =
		"       size         count    type     time   algbw   busbw  error     time   algbw   busbw  error\n"
		"      65536          8192   float    16.57    1.98    1.98  0e+00    16.22    2.02    2.02  0e+00\n";
	struct loaded x;
	const struct nccl_test_row *w;

	load_str(&x, log);
	assert_int_equal(x.r->nnccl_tests, 1);
	w = &x.r->nccl_tests[0];
	assert_null(w->redop);
	assert_int_equal(w->time_oop_ns, 16570);
	assert_num(w->busbw_ip, 2.02);
	unload(&x);
}

/* mpirun --tag-output prefixes, '#' lost in a paste, CRLF, and two numbers that touch. */
static void prefixes_crlf_touching(void **state)
{
	static const char log[] =
		"[1,0]<stdout>:# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor)\r\n"
		"[1,0]<stdout>:#  Rank  0 Group  0 Pid  100 on h device  0 [0x1b] NVIDIA H100 80GB HBM3\r\n"
		"[1,0]<stdout>:#  Rank  1 Group  0 Pid  101 on h device  1 [0x2c] NVIDIA H100 80GB HBM3\r\n"
		"[1,0]<stdout>:       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\r\n"
		"[1,0]<stdout>:   536870912     134217728     float     sum      -1   2685881.00 0.20    0.20      0  2684611.004.00    4.00      0\r\n"
		"[1,0]<stdout>:  1073741824     268435456     float     sum      -1   5371762    0.20    0.20      0   5369222    0.20    0.20    N/A\r\n"
		"[1,0]<stdout>: Avg bus bandwidth    : 1.15 \r\n";
	struct loaded x;
	const struct nccl_test_row *w;
	char list[128];

	load_str(&x, log);
	assert_int_equal(get_int(nt(&x), "rows"), 2);
	assert_int_equal(get_int(nt(&x), "gpus"), 2);
	assert_num(get_num(nt(&x), "avg_busbw_gbps"), 1.15);
	assert_num(get_num(nt(&x), "max_busbw_gbps"), 4.0);
	get_list(nt(&x), "devices", "name", list, sizeof(list));
	assert_string_equal(list, "NVIDIA H100 80GB HBM3,NVIDIA H100 80GB HBM3");
	w = &x.r->nccl_tests[0];
	assert_int_equal(w->time_ip_ns, 2684611000);
	assert_num(w->algbw_ip, 4.0);
	assert_int_equal(w->wrong_ip, 0);
	w = &x.r->nccl_tests[1];
	assert_int_equal(w->time_oop_ns, 5371762000);
	assert_int_equal(w->wrong_ip, -1);
	unload(&x);
}

/* Two tests without command lines: split at the parameter line, op unknown. */
static void tests_split_without_op(void **state)
{
	static const char log[] =
		"# nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor)\n"
		"           8             2     float     sum      -1    12.25    0.00    0.00      0    12.00    0.00    0.00      0\n"
		"# Avg bus bandwidth    : 0.5\n"
		"# nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor)\n"
		"           8             2      half    none      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0\n"
		"          16             8      half    none      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0\n"
		"# Avg bus bandwidth    : 0.25\n";
	struct loaded x;
	const struct info *r;

	load_str(&x, log);
	assert_int_equal(get_int(nt(&x), "rows"), 3);
	assert_true(isnan(get_num(nt(&x), "avg_busbw_gbps")));	/* two tests: see results */
	r = info_get(nt(&x), "results")->child;
	assert_null(get_str(r, "op"));
	assert_num(get_num(r, "avg_busbw_gbps"), 0.5);
	assert_int_equal(get_int(r, "rows"), 1);
	r = r->next;
	assert_string_equal(get_str(r, "dtype"), "fp16");
	assert_num(get_num(r, "avg_busbw_gbps"), 0.25);
	assert_int_equal(get_int(r, "rows"), 2);
	assert_null(r->next);
	unload(&x);
}

/* Numbers in an ordinary log are not rows; a cut last row is not one either. */
static void not_rows(void **state)
{
	static const char train[] =
		"12 34 steps done in 5.0 s 1 2 3 4 5\n"
		"  100   200   loss   0.5   0.4   0.3   0.2   0.1   1   2   3   4\n"
		"2025 11 30 float 1.0 2.0 3.0 4 5.0 6.0 7.0 8\n";
	static const char cut[] =
		"# Avg bus bandwidth    : 2.0\n"
		"#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
		"        1024           256     float     sum      -1    12.10    0.08    0.08      0    11.64    0.09    0.09      0\n"
		"        2048           512     float     sum      -1    11.83    0.1";
	struct loaded x;

	load_str(&x, train);
	assert_null(info_get(x.f.info, "nccl_tests"));
	assert_int_equal(x.r->nnccl_tests, 0);
	unload(&x);
	load_str(&x, cut);
	assert_int_equal(get_int(nt(&x), "rows"), 1);
	assert_int_equal(x.r->nnccl_tests, 1);
	unload(&x);
}

/* A 10 MB line and binary noise between the header and the rows do not lose the rows. */
static void long_line_and_noise(void **state)
{
	static const char head[] =
		"# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor)\n"
		"#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
	static const char rows[] =
		"\n           8             2     float     sum      -1     5.63    0.00    0.00      0     0.20    0.04    0.00      0\n"
		"# Avg bus bandwidth    : 0.00123\n";
	size_t big = 10u * 1024 * 1024, noise = 4096;
	size_t n = sizeof(head) - 1 + big + noise + sizeof(rows) - 1;
	char *buf = xmalloc(n);
	char *p = buf;
	uint32_t seed = 7;
	struct loaded x;

	memcpy(p, head, sizeof(head) - 1);
	p += sizeof(head) - 1;
	memset(p, '9', big);	/* one digit line of 10 MB: looks like a row start */
	p += big;
	for (size_t i = 0; i < noise; i++) {
		seed = seed * 1103515245u + 12345u;
		*p++ = (char)(seed >> 16);
	}
	memcpy(p, rows, sizeof(rows) - 1);
	load_bytes(&x, buf, n);
	free(buf);
	assert_int_equal(get_int(nt(&x), "rows"), 1);
	assert_num(get_num(nt(&x), "avg_busbw_gbps"), 0.00123);
	assert_int_equal(x.r->nccl_tests[0].time_oop_ns, 5630);
	unload(&x);
}

/* The 2025 version line: nccl-tests' version and commit, the NCCL compiled against and loaded. */
static void version_line(void **state)
{
	struct loaded x;
	const struct info *o, *r;

	if (!load_real(&x, "nccl_tests/issue-dgx-spark-playbooks-pr103_2nodes_GB10_v2.20.0_new-header.txt"))
		skip_without_shared();
	o = nt(&x);
	assert_string_equal(get_str(o, "nccl_tests_version"), "2.20.0");
	assert_string_equal(get_str(o, "nccl_tests_commit"), "b4d5bee");
	assert_string_equal(get_str(o, "nccl_headers"), "2.31.2");	/* 23102 */
	assert_string_equal(get_str(o, "nccl_version"), "2.31.2");
	assert_string_equal(x.r->nccl_tests_version.v, "2.20.0");
	assert_int_equal(x.r->nccl_tests_version.src.line, 1);
	/* two processes of nGpus 1 on two hosts: the device lines count the ranks */
	r = info_get(o, "results")->child;
	assert_int_equal(get_int(r, "gpus"), 2);
	assert_int_equal(get_int(r, "nthread"), 1);
	assert_int_equal(get_int(r, "ngpus"), 1);
	assert_int_equal(x.r->nccl_tests[3].nranks, 2);
	unload(&x);
}

/*
 * The older line without a commit, behind srun's "0: " label, headers and
 * library apart; no device lines, so nThread x nGpus gives the ranks.
 */
static void version_line_older_form(void **state)
{
	static const char log[] =
		"0: # nccl-tests version 2.13.8 nccl-headers=21903 nccl-library=22005\n"
		"0: # nThread 2 nGpus 4 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
		"0: #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
		"0:            8             2     float     sum      -1    12.25    0.00    0.00      0    12.00    0.00    0.00      0\n";
	struct loaded x;
	const struct info *o, *r;

	(void)state;
	load_str(&x, log);
	o = nt(&x);
	assert_string_equal(get_str(o, "nccl_tests_version"), "2.13.8");
	assert_null(get_str(o, "nccl_tests_commit"));
	assert_string_equal(get_str(o, "nccl_headers"), "2.19.3");
	assert_string_equal(get_str(o, "nccl_version"), "2.20.5");
	assert_string_equal(x.r->nccl_tests_version.v, "2.13.8");
	r = info_get(o, "results")->child;
	assert_int_equal(get_int(r, "gpus"), 8);
	assert_int_equal(get_int(r, "nthread"), 2);
	assert_int_equal(get_int(r, "ngpus"), 4);
	assert_int_equal(x.r->nnccl_tests, 1);
	assert_int_equal(x.r->nccl_tests[0].nranks, 8);
	unload(&x);
}

/* The autodl file's 1-GPU reduce_perf between 2-GPU tests: its rows say 1 rank. */
static void gpu_count_per_table(void **state)
{
	static const int64_t ngpus[] = { 2, 2, 2, 2, 1, 2 };
	struct loaded x;
	size_t i = 0;

	if (!load_real(&x, "nccl_tests/autodl_2x_RTX2080Ti_PCIe_nccl-tests_allreduce_allgather_bcast_reduce_alltoall.txt"))
		skip_without_shared();
	for (const struct info *e = info_get(nt(&x), "results")->child; e; e = e->next, i++) {
		assert_int_equal(get_int(e, "ngpus"), ngpus[i]);
		assert_int_equal(get_int(e, "nthread"), 1);
	}
	assert_null(get_str(nt(&x), "nccl_tests_version"));
	assert_null(x.r->nccl_tests_version.v);
	assert_int_equal(x.r->nccl_tests[111].nranks, 2);	/* the 2-GPU reduce's last row */
	assert_int_equal(x.r->nccl_tests[112].nranks, 1);	/* line 179: the 1-GPU reduce's first */
	assert_int_equal(x.r->nccl_tests[112].line, 179);
	assert_int_equal(x.r->nccl_tests[140].nranks, 2);	/* alltoall */
	unload(&x);
}

/* tests/data: a 2-GPU table with device lines, then an nGpus 8 one without. */
static void two_gpu_counts(void **state)
{
	static const int32_t ranks[] = { 2, 2, 8, 8 };
	const char *top = getenv("TOP");
	char path[4096];
	struct loaded x;
	const struct info *o, *r;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/nccl_tests/two-gpu-counts.log",
		 top && *top ? top : ".");
	load_path(&x, path);
	o = nt(&x);
	assert_string_equal(get_str(o, "nccl_tests_version"), "2.13.8");
	assert_string_equal(get_str(o, "nccl_headers"), "2.20.5");
	assert_string_equal(get_str(o, "nccl_version"), "2.20.5");
	assert_int_equal(arr_len(o, "results"), 2);
	r = info_get(o, "results")->child;
	assert_int_equal(get_int(r, "gpus"), 2);
	assert_num(get_num(r, "avg_busbw_gbps"), 65.005);
	r = r->next;
	assert_int_equal(get_int(r, "gpus"), 8);
	assert_int_equal(get_int(r, "ngpus"), 8);
	assert_num(get_num(r, "max_busbw_gbps"), 175.02);
	assert_int_equal(x.r->nnccl_tests, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(x.r->nccl_tests[i].nranks, ranks[i]);
	unload(&x);
}

/* Rows with no device lines and no parameter line: the count is unknown, not 0. */
static void gpu_count_unknown(void **state)
{
	struct loaded x;
	const struct info *r;

	if (!load_real(&x, "nccl_tests/issue-nccl-1435_2xGPU_all_gather_bfloat16.txt"))
		skip_without_shared();
	r = info_get(nt(&x), "results")->child;
	assert_int_equal(get_int(r, "gpus"), -1);	/* JSON null */
	assert_int_equal(get_int(r, "ngpus"), -1);
	assert_int_equal(x.r->nccl_tests[0].nranks, -1);
	unload(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_real_file),
		cmocka_unit_test(several_tests_in_one_file),
		cmocka_unit_test(rows_on_the_run),
		cmocka_unit_test(error_column_rows),
		cmocka_unit_test(oldest_header_with_rows),
		cmocka_unit_test(rows_without_redop),
		cmocka_unit_test(prefixes_crlf_touching),
		cmocka_unit_test(tests_split_without_op),
		cmocka_unit_test(not_rows),
		cmocka_unit_test(long_line_and_noise),
		cmocka_unit_test(version_line),
		cmocka_unit_test(version_line_older_form),
		cmocka_unit_test(gpu_count_per_table),
		cmocka_unit_test(gpu_count_unknown),
		cmocka_unit_test(two_gpu_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
