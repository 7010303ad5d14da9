/*
 * GPU monitor readers (ingest/gpumon.c), driven through ingest_file() on
 * real files of ../shared/realdata/nvidia_smi and hand-made ones under
 * tests/data/gpumon. Expected numbers were read off the files by hand and
 * recomputed once with a few lines of python3 (split each row, MiB x 1048576,
 * max per GPU); each test says which.
 */
#include <glob.h>
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
#include <zlib.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/gpumon.h"
#include "ingest/ingest.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

#define MIB 1048576LL

static char tmpdir[256];

/* A real file's path, or NULL when ../shared is not there (the test then skips). */
static const char *real(const char *dir, const char *name)
{
	static char path[1024];
	const char *shared = getenv("SHARED");

	if (!shared || !*shared)
		return NULL;
	snprintf(path, sizeof(path), "%s/realdata/%s/%s", shared, dir, name);
	return access(path, R_OK) == 0 ? path : NULL;
}

static const char *data(const char *name)
{
	static char path[1024];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/data/gpumon/%s", top && *top ? top : ".", name);
	return path;
}

static const char *spit(const char *name, const char *p, size_t n)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
	return path;
}

static struct info *gpu(struct loaded *l, int64_t index)
{
	struct info *arr = info_get(l->f.info, "gpus");

	assert_non_null(arr);
	for (struct info *e = arr->child; e; e = e->next)
		if (info_get(e, "index")->v.i == index)
			return e;
	fail_msg("no gpu %lld in inspect", (long long)index);
	return NULL;
}

static size_t count(const struct info *arr)
{
	size_t n = 0;

	for (const struct info *e = arr ? arr->child : NULL; e; e = e->next)
		n++;
	return n;
}

static int64_t ival(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_INT);
	return v->v.i;
}

static double nval(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	if (v->type == INFO_INT)
		return (double)v->v.i;
	assert_int_equal(v->type, INFO_NUM);
	return v->v.d;
}

static void is_null(const struct info *o, const char *key)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_NULL);
}

static void str_is(const struct info *o, const char *key, const char *want)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_STR);
	assert_string_equal(v->v.s, want);
}

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-9)
		fail_msg("got %.9g, want %.9g", got, want);
}

/* One GPU's inspect summary: memory in MiB (-1 null), util and power (-1 null). */
static void gpu_is(struct loaded *l, int index, const char *name, int64_t total_mib,
		   int64_t used_max_mib, int64_t samples, double util, double power)
{
	struct info *g = gpu(l, index);

	if (name)
		str_is(g, "name", name);
	else
		is_null(g, "name");
	if (total_mib < 0)
		is_null(g, "memory_total_bytes");
	else
		assert_int_equal(ival(g, "memory_total_bytes"), total_mib * MIB);
	if (used_max_mib < 0)
		is_null(g, "memory_used_max_bytes");
	else
		assert_int_equal(ival(g, "memory_used_max_bytes"), used_max_mib * MIB);
	assert_int_equal(ival(g, "samples"), samples);
	if (util < 0)
		is_null(g, "util_gpu_max");
	else
		near(nval(g, "util_gpu_max"), util);
	if (power < 0)
		is_null(g, "power_w_max");
	else
		near(nval(g, "power_w_max"), power);
}

static size_t warnings_with(struct loaded *l, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < l->t->diags.count; i++)
		if (!strcmp(l->t->diags.items[i].code, code))
			n++;
	return n;
}

/* ---- real files ---- */

/* bpytop#26: header with units, no index: the two rows are GPUs 0 and 1. */
static void test_real_query_csv(void **state)
{
	const char *p = real("nvidia_smi", "issue-bpytop-26_query-gpu-csv_2GPUs_GTX1080Ti_GTX1060.txt");
	struct loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	assert_string_equal(format_name(l.f.sniff.format), "nvidia-smi-csv");
	assert_true(l.f.read);
	assert_int_equal(count(info_get(l.f.info, "gpus")), 2);
	gpu_is(&l, 0, "GeForce GTX 1080 Ti", 11175, 2856, 1, 36, 106.56);
	gpu_is(&l, 1, "GeForce GTX 1060 6GB", 6078, 4, 1, 0, 5.68);
	assert_int_equal(l.r->ngpu, 2);
	assert_int_equal(l.r->gpu[0].ts, -1);
	assert_int_equal(l.r->gpu[1].memory_used, 4 * MIB);
	assert_int_equal(l.r->sources[0].events, 2);
	assert_int_equal(l.r->sources[0].errors, 0);
	assert_int_equal(l.t->diags.count, 0);
	unload(&l);
}

/* DCGM#232: new column set (gtemp mtemp jpg ofa), 4 rows of GPU 0; pwr 86 267 280 284, sm 30 100 85 98. */
static void test_real_dmon_new(void **state)
{
	const char *p = real("nvidia_smi", "issue-DCGM-232_nvidia-smi-dmon_NEW-format_gtemp-mtemp-jpg-ofa.txt");
	struct loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	assert_string_equal(format_name(l.f.sniff.format), "nvidia-smi-dmon");
	assert_int_equal(count(info_get(l.f.info, "gpus")), 1);
	gpu_is(&l, 0, NULL, -1, -1, 4, 100, 284);
	assert_int_equal(l.r->ngpu, 4);
	near(l.r->gpu[0].power_w, 86);
	near(l.r->gpu[1].util_gpu, 100);
	assert_int_equal(l.r->gpu[3].memory_used, -1);
	assert_int_equal(l.t->diags.count, 0);
	unload(&l);
}

/* DeepSpeech#178: old set with fb (MB = MiB) for 4 GPUs, one row each. */
static void test_real_dmon_old(void **state)
{
	const char *p = real("nvidia_smi", "issue-DeepSpeech-178_dmon_OLD-format_pucvmet_4GPUs.txt");
	struct loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	assert_int_equal(count(info_get(l.f.info, "gpus")), 4);
	gpu_is(&l, 0, NULL, -1, 11651, 1, 25, 111);
	gpu_is(&l, 1, NULL, -1, 11653, 1, 18, 111);
	gpu_is(&l, 2, NULL, -1, 11653, 1, 24, 112);
	gpu_is(&l, 3, NULL, -1, 11660, 1, 18, 86);
	assert_int_equal(l.r->ngpu, 4);
	assert_int_equal(l.t->diags.count, 0);
	unload(&l);
}

/*
 * DCGM#244 and #3: 10 "GPU N" rows (GPU 0 and 1 twice, 2..7 once; grep -c '^GPU'),
 * profiling ratios only (no field the model keeps), then an older header
 * whose watches failed: one dcgmi-error warning at line 21 (grep -n Error).
 */
static void test_real_dcgmi(void **state)
{
	const char *p = real("nvidia_smi", "issues-DCGM-244-and-3_dcgmi-dmon_profiling-fields.txt");
	struct loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	assert_string_equal(format_name(l.f.sniff.format), "dcgmi-dmon");
	assert_int_equal(count(info_get(l.f.info, "gpus")), 8);
	gpu_is(&l, 0, NULL, -1, -1, 2, -1, -1);
	gpu_is(&l, 1, NULL, -1, -1, 2, -1, -1);
	for (int i = 2; i < 8; i++)
		gpu_is(&l, i, NULL, -1, -1, 1, -1, -1);
	assert_int_equal(l.r->ngpu, 10);
	assert_int_equal(warnings_with(&l, "dcgmi-error"), 1);
	assert_int_equal(l.t->diags.items[0].pos.line, 21);
	assert_non_null(strstr(l.t->diags.items[0].message, "Error setting watches"));
	assert_int_equal(l.r->sources[0].errors, 1);
	unload(&l);
}

static void check_pair(const struct info *e, int a, int b, const char *link, const char *raw)
{
	assert_int_equal(ival(e, "a"), a);
	assert_int_equal(ival(e, "b"), b);
	str_is(e, "link", link);
	str_is(e, "raw", raw);
}

/* autodl: 2x RTX 2080 Ti on one PCIe switch (PIX); the p2p matrix after it is not topo -m. */
static void test_real_topo(void **state)
{
	const char *p = real("nvidia_smi", "autodl_2x_RTX2080Ti_nvidia-smi_topo_m_PIX.txt");
	struct loaded l;
	struct info *pairs;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	assert_string_equal(format_name(l.f.sniff.format), "nvidia-smi-topo");
	pairs = info_get(info_get(l.f.info, "topology"), "pairs");
	assert_int_equal(count(pairs), 1);
	check_pair(pairs->child, 0, 1, "pcie", "PIX");
	assert_string_equal(l.r->link.v, "pcie");
	assert_null(info_get(l.f.info, "gpus"));
	unload(&l);
}

/* vllm#28707's collect-env holds a topo -m cut after GPU0's row: GPU0 to 1..7 over NV18. */
static void test_real_topo_in_collect_env(void **state)
{
	const char *p = real("collect_env", "vllm-28707_B300_versions-and-gpu-topology_sectioned.txt");
	struct loaded l;
	struct info *e;
	int b = 1;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	e = info_get(info_get(l.f.info, "topology"), "pairs");
	assert_int_equal(count(e), 7);
	for (e = e->child; e; e = e->next)
		check_pair(e, 0, b++, "nvlink", "NV18");
	assert_string_equal(l.r->link.v, "nvlink");
	assert_null(info_get(l.f.info, "gpus"));
	unload(&l);
}

/* autodl table: driver 550.90.07, CUDA 12.4, 1MiB / 11264MiB, 20W, 0%, printed Thu Jun 5 17:15:31 2025. */
static void test_real_table_550(void **state)
{
	const char *p = real("nvidia_smi", "autodl_2x_RTX2080Ti_nvidia-smi_table_driver550.txt");
	struct loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	assert_string_equal(format_name(l.f.sniff.format), "nvidia-smi-table");
	str_is(l.f.info, "driver", "550.90.07");
	str_is(l.f.info, "cuda_version", "12.4");
	assert_int_equal(count(info_get(l.f.info, "gpus")), 2);
	gpu_is(&l, 0, "NVIDIA GeForce RTX 2080 Ti", 11264, 1, 1, 0, 20);
	gpu_is(&l, 1, "NVIDIA GeForce RTX 2080 Ti", 11264, 1, 1, 0, 20);
	/* python3: calendar.timegm((2025, 6, 5, 17, 15, 31)) */
	assert_int_equal(l.r->gpu[0].ts, 1749143731LL * NS_PER_S);
	unload(&l);
}

/* vllm#55169: driver 580.105.08, "CUDA Version: 13.0", 2x H100 0MiB / 81559MiB, 99W. */
static void test_real_table_580(void **state)
{
	const char *p = real("nvidia_smi", "issue-vllm-55169_nvidia-smi-table_H100_driver580_CUDA13.txt");
	struct loaded l;

	(void)state;
	if (!p)
		skip_without_shared();
	load_path(&l, p);
	str_is(l.f.info, "driver", "580.105.08");
	str_is(l.f.info, "cuda_version", "13.0");
	gpu_is(&l, 0, "NVIDIA H100 80GB HBM3", 81559, 0, 1, 0, 99);
	gpu_is(&l, 1, "NVIDIA H100 80GB HBM3", 81559, 0, 1, 0, 99);
	/* python3: calendar.timegm((2026, 9, 2, 20, 11, 1)) */
	assert_int_equal(l.r->gpu[1].ts, 1788379861LL * NS_PER_S);
	unload(&l);
}

/* No other real text file holds a GPU monitor: nothing of ours may come out of them. */
static void test_real_others_hold_none(void **state)
{
	static const char *const dirs[] = { "training_logs", "nccl_debug", "nccl_tests", "nsys",
					    "collect_env" };
	const char *shared = getenv("SHARED");
	int seen = 0;

	(void)state;
	if (!shared || !*shared)
		skip_without_shared();
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char pattern[1024];
		glob_t g;

		snprintf(pattern, sizeof(pattern), "%s/realdata/%s/*", shared, dirs[i]);
		if (glob(pattern, 0, NULL, &g))
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++) {
			const char *path = g.gl_pathv[k];
			struct loaded l;

			load_path(&l, path);
			if (info_get(l.f.info, "gpus"))
				fail_msg("%s: gpus found", path);
			if (strcmp(dirs[i], "collect_env") && info_get(l.f.info, "topology"))
				fail_msg("%s: topology found", path);
			assert_int_equal(l.r->ngpu, 0);
			seen++;
			unload(&l);
		}
		globfree(&g);
	}
	if (!seen)
		skip_without_shared();
}

/* ---- hand-made files ---- */

/* timestamp and index columns, nounits, [N/A] and [Not Supported], a repeated header, GPUs out of order. */
static void test_query_nounits(void **state)
{
	struct loaded l;
	int64_t ts;

	(void)state;
	load_path(&l, data("query-ts-index-nounits.csv"));
	gpu_is(&l, 0, "NVIDIA A100-SXM4-80GB", 81920, 41984, 3, 99, 390.25);
	gpu_is(&l, 1, "NVIDIA A100-SXM4-80GB", 81920, 31744, 3, 97, 355);
	assert_int_equal(l.r->ngpu, 6);
	assert_true(gpumon_parse_time("2024/05/01 10:00:00.125", 23, &ts));
	/* python3: calendar.timegm((2024, 5, 1, 10, 0, 0)) = 1714557600 */
	assert_int_equal(ts, 1714557600LL * NS_PER_S + 125 * NS_PER_MS);
	assert_int_equal(l.r->gpu[0].ts, ts);
	assert_true(l.r->gpu[1].power_w < 0);		/* [N/A] */
	assert_true(l.r->gpu[3].util_gpu < 0);		/* [Not Supported] */
	assert_int_equal(l.r->gpu[4].gpu, 1);		/* after the second header */
	assert_int_equal(l.r->sources[0].errors, 0);
	assert_int_equal(l.t->diags.count, 0);
	unload(&l);
}

/* noheader: GPUs told apart by pci.bus_id, names read, unit columns left out with one warning. */
static void test_noheader(void **state)
{
	struct loaded l;

	(void)state;
	load_path(&l, data("noheader.csv"));
	assert_int_equal(count(info_get(l.f.info, "gpus")), 2);
	gpu_is(&l, 0, "NVIDIA H100 80GB HBM3", -1, -1, 2, -1, -1);
	gpu_is(&l, 1, "NVIDIA H100 80GB HBM3", -1, -1, 2, -1, -1);
	assert_int_equal(l.r->gpu[3].gpu, 0);	/* 00000000:18:00.0 again */
	assert_int_equal(warnings_with(&l, "gpumon-noheader"), 1);
	unload(&l);
}

/*
 * A timestamp but no index, uuid or bus id: rows 5 ms apart are one sample,
 * a second apart the next, even when a sample straddles a second boundary.
 */
static void test_query_no_index(void **state)
{
	struct loaded l;

	(void)state;
	load_path(&l, data("query-ts-noindex.csv"));
	gpu_is(&l, 0, "NVIDIA L40S", 46068, 300, 2, -1, -1);
	gpu_is(&l, 1, "NVIDIA L40S", 46068, 400, 2, -1, -1);
	unload(&l);
}

/* rocm-smi: bytes, cardN, a repeated header; power under either of its names. */
static void test_rocm(void **state)
{
	struct loaded l;

	(void)state;
	load_path(&l, data("rocm-smi.csv"));
	assert_string_equal(format_name(l.f.sniff.format), "rocm-smi-csv");
	assert_int_equal(ival(gpu(&l, 0), "memory_total_bytes"), 206141652992LL);
	assert_int_equal(ival(gpu(&l, 0), "memory_used_max_bytes"), 94824448000LL);
	assert_int_equal(ival(gpu(&l, 1), "memory_used_max_bytes"), 90701783040LL);
	assert_int_equal(ival(gpu(&l, 1), "samples"), 2);
	near(nval(gpu(&l, 0), "util_gpu_max"), 99);
	near(nval(gpu(&l, 1), "util_gpu_max"), 97);
	is_null(gpu(&l, 0), "power_w_max");
	unload(&l);
	load_path(&l, data("rocm-smi-power.csv"));
	near(nval(gpu(&l, 0), "power_w_max"), 712);
	assert_int_equal(ival(gpu(&l, 0), "memory_used_max_bytes"), 150323855360LL);
	unload(&l);
}

/* dmon -o DT -s pum: date and time columns give the timestamps; '-' is missing. */
static void test_dmon_date_time(void **state)
{
	struct loaded l;

	(void)state;
	load_path(&l, data("dmon-dt.txt"));
	gpu_is(&l, 0, NULL, -1, 41000, 2, 87, 320);
	gpu_is(&l, 1, NULL, -1, 39000, 2, 86, 298);
	assert_int_equal(l.r->gpu[0].ts, 1714557600LL * NS_PER_S);
	assert_int_equal(l.r->gpu[2].ts, 1714557601LL * NS_PER_S);
	assert_true(l.r->gpu[2].util_gpu < 0);
	assert_int_equal(l.r->gpu[3].memory_used, -1);
	unload(&l);
}

/* topo -m with NVLink pairs, SYS pairs and a NIC column and row. */
static void test_topo_mixed(void **state)
{
	struct loaded l;
	struct info *e;

	(void)state;
	load_path(&l, data("topo-nvlink.txt"));
	e = info_get(info_get(l.f.info, "topology"), "pairs");
	assert_int_equal(count(e), 6);
	e = e->child;
	check_pair(e, 0, 1, "nvlink", "NV12");
	check_pair(e->next->next, 0, 3, "pcie", "SYS");
	assert_null(l.r->link.v);	/* mixed: the run's link is not one thing */
	unload(&l);
}

/* A 2018 table: no CUDA version, truncated names, N/A power and util. */
static void test_table_old(void **state)
{
	struct loaded l;

	(void)state;
	load_path(&l, data("table-old.txt"));
	str_is(l.f.info, "driver", "390.30");
	is_null(l.f.info, "cuda_version");
	gpu_is(&l, 0, "Tesla V100-SXM2...", 16160, 1024, 1, 12, 41);
	gpu_is(&l, 1, "Tesla V100-SXM2...", 16160, 16000, 1, -1, -1);
	unload(&l);
}

/* Look-alike lines in a training log: none of the monitor readers claims them. */
static void test_lookalike(void **state)
{
	struct loaded l;

	(void)state;
	load_path(&l, data("lookalike.log"));
	assert_null(info_get(l.f.info, "gpus"));
	assert_null(info_get(l.f.info, "topology"));
	assert_int_equal(l.r->ngpu, 0);
	/* "step 10 loss 1.25" is a plain training-log line: only that reader may take it */
	assert_non_null(info_get(l.f.info, "train"));
	unload(&l);
}

/* A CSV cut mid-row: the complete rows are kept, the cut one is an error. */
static void test_truncated(void **state)
{
	struct loaded l;

	(void)state;
	load_path(&l, data("truncated.csv"));
	assert_int_equal(l.r->ngpu, 2);
	gpu_is(&l, 0, "NVIDIA L4", 23034, 1200, 1, 30, 40.1);
	gpu_is(&l, 1, "NVIDIA L4", 23034, 1300, 1, 35, 41.2);
	assert_int_equal(l.r->sources[0].errors, 1);
	assert_int_equal(warnings_with(&l, "gpumon-row"), 1);
	unload(&l);
}

/* ---- the same file in other clothes: CRLF, gzip, noise, a 10 MB line ---- */

/* A digest of what a file gave: samples and their values. */
static double digest(const struct run *r)
{
	double d = (double)r->ngpu;

	for (size_t i = 0; i < r->ngpu; i++) {
		const struct gpu_sample *g = &r->gpu[i];

		d += (double)(i + 1) * ((double)g->gpu + (double)g->memory_used / MIB +
					(double)g->memory_total / MIB + g->util_gpu + g->power_w +
					(double)g->ts / NS_PER_S);
	}
	return d;
}

static char *crlf(const char *p, size_t n, size_t *out)
{
	char *q = malloc(2 * n + 1);
	size_t k = 0;

	assert_non_null(q);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n')
			q[k++] = '\r';
		q[k++] = p[i];
	}
	*out = k;
	return q;
}

static const char *gzip_to(const char *name, const char *p, size_t n)
{
	static char path[512];
	gzFile gz;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, p, (unsigned)n), (int)n);
	gzclose(gz);
	return path;
}

/* Inserts `ins` before line `at` (1-based) of p. */
static char *insert_line(const char *p, size_t n, int at, const char *ins, size_t insn,
			 size_t *out)
{
	const char *q = p;
	char *r = malloc(n + insn + 2);
	size_t head;

	assert_non_null(r);
	for (int i = 1; i < at && q; i++) {
		q = memchr(q, '\n', n - (size_t)(q - p));
		q = q ? q + 1 : NULL;
	}
	head = q ? (size_t)(q - p) : n;
	memcpy(r, p, head);
	memcpy(r + head, ins, insn);
	r[head + insn] = '\n';
	memcpy(r + head + insn + 1, p + head, n - head);
	*out = n + insn + 1;
	return r;
}

static const char *const variants_of[] = {
	"query-ts-index-nounits.csv", "query-ts-noindex.csv", "noheader.csv", "rocm-smi.csv", "dmon-dt.txt",
	"table-old.txt", "truncated.csv",
};

static void same_as_plain(const char *name, const char *path, double want)
{
	struct loaded l;

	load_path(&l, path);
	if (fabs(digest(l.r) - want) > 1e-6)
		fail_msg("%s: a variant gave other samples", name);
	unload(&l);
}

static void test_variants(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(variants_of) / sizeof(variants_of[0]); i++) {
		const char *name = variants_of[i];
		struct loaded l;
		size_t n, m;
		char *p, *q;
		double want;
		/* high bytes, control characters and a stray separator: noise, not a row */
		static const char noise[] = "\x81\xfe\xc3\x28\x01\x02 \xff\xfe,\x7f\x1b[0m\xa0\xa1 9 \x80";

		load_path(&l, data(name));
		want = digest(l.r);
		assert_true(l.r->ngpu > 0);
		unload(&l);
		p = read_file(data(name), &n);

		q = crlf(p, n, &m);
		same_as_plain(name, spit("crlf", q, m), want);
		free(q);

		same_as_plain(name, gzip_to("gz.gz", p, n), want);

		q = insert_line(p, n, 3, noise, sizeof(noise) - 1, &m);
		same_as_plain(name, spit("noise", q, m), want);
		free(q);
		free(p);
	}
}

/* A 10 MB line (with commas) inside a CSV: cut at 1 MiB, warned once, the rows around it kept. */
static void test_long_line(void **state)
{
	const size_t big = 10 * 1000 * 1000;
	struct loaded l;
	size_t n, m;
	char *p = read_file(data("query-ts-index-nounits.csv"), &n);
	char *line = malloc(big);
	char *q;

	(void)state;
	assert_non_null(line);
	for (size_t i = 0; i < big; i++)
		line[i] = i % 7 == 6 ? ',' : (char)('a' + i % 26);
	q = insert_line(p, n, 3, line, big, &m);
	load_path(&l, spit("long", q, m));
	assert_int_equal(l.r->ngpu, 6);
	gpu_is(&l, 0, "NVIDIA A100-SXM4-80GB", 81920, 41984, 3, 99, 390.25);
	assert_int_equal(warnings_with(&l, "long-line"), 1);
	unload(&l);
	free(q);
	free(line);
	free(p);
}

static void test_parse_time(void **state)
{
	int64_t ns;

	(void)state;
	assert_true(gpumon_parse_time(" 1970/01/01 00:00:01 ", 21, &ns));
	assert_int_equal(ns, NS_PER_S);
	assert_true(gpumon_parse_time("2024/02/29 23:59:59.5", 21, &ns));
	/* python3: calendar.timegm((2024, 2, 29, 23, 59, 59)) = 1709251199 */
	assert_int_equal(ns, 1709251199LL * NS_PER_S + 500 * NS_PER_MS);
	assert_false(gpumon_parse_time("2024/13/01 00:00:00", 19, &ns));
	assert_false(gpumon_parse_time("2024-01-01 00:00:00", 19, &ns));
	assert_false(gpumon_parse_time("2024/01/01 00:00:00.", 20, &ns));
	assert_false(gpumon_parse_time("2024/01/01 00:00", 16, &ns));
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_gpumon.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_query_csv),
		cmocka_unit_test(test_real_dmon_new),
		cmocka_unit_test(test_real_dmon_old),
		cmocka_unit_test(test_real_dcgmi),
		cmocka_unit_test(test_real_topo),
		cmocka_unit_test(test_real_topo_in_collect_env),
		cmocka_unit_test(test_real_table_550),
		cmocka_unit_test(test_real_table_580),
		cmocka_unit_test(test_real_others_hold_none),
		cmocka_unit_test(test_query_nounits),
		cmocka_unit_test(test_query_no_index),
		cmocka_unit_test(test_noheader),
		cmocka_unit_test(test_rocm),
		cmocka_unit_test(test_dmon_date_time),
		cmocka_unit_test(test_topo_mixed),
		cmocka_unit_test(test_table_old),
		cmocka_unit_test(test_lookalike),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_parse_time),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
