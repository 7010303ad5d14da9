/* The GPU table (core/gpu): lookups by every name real logs print, and the table's invariants. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <cmocka.h>

#include "core/gpu.h"

#define MIB(n) ((int64_t)(n) * 1048576)

/*
 * Names as the realdata files print them (file relative to realdata/, the
 * memory that file gives with the name, or -1), and the row they stand for;
 * NULL where the tool has no row or the name does not decide.
 */
static const struct {
	const char *file;
	const char *name;
	int64_t memory;
	const char *want;
} seen[] = {
	{ "nvidia_smi/issue-vllm-55169_nvidia-smi-table_H100_driver580_CUDA13.txt",
	  "NVIDIA H100 80GB HBM3", MIB(81559), "H100 SXM" },
	{ "collect_env/pytorch-150852_8xH100_torch2.8.0.dev_cu126_driver535.txt",
	  "NVIDIA H100", -1, NULL },	/* SXM, PCIe or NVL: memory must decide */
	{ "collect_env/vllm-14537_8xH200_torch2.5.1_cu124_driver550.txt", "NVIDIA H200", -1, "H200" },
	{ "collect_env/vllm-27430_sectioned-format_A100_torch2.8.0_cu128.txt",
	  "NVIDIA A100-SXM4-80GB", -1, "A100 SXM4 80GB" },
	{ "collect_env/vllm-pr9293_single-GPU-on-same-line_RTX4070_torch2.4.0.txt",
	  "NVIDIA GeForce RTX 4070 Laptop GPU", -1, NULL },
	{ "collect_env/sm120-not-compatible-warnings_4-issues.txt", "NVIDIA GeForce RTX 5090", -1,
	  "RTX 5090" },
	{ "kineto_trace/hta__nccl_parser_config__nccl_data.json.gz", "NVIDIA A100-PG509-200",
	  42297524224, "A100 SXM4 40GB" },
	{ "kineto_trace/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
	  "Tesla V100-SXM2-32GB", 34079637504, "V100 SXM2 32GB" },
	{ "kineto_trace/hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	  "AMD Radeon Graphics", 68702699520, NULL },	/* ROCm's generic name for an MI250 GCD */
	{ "nccl_tests/issue-nccl-583_8xA100_OLD-format_Rank-without-Group_error-col_header-only.txt",
	  "NVIDIA A100-SXM4-40GB", -1, "A100 SXM4 40GB" },
	{ "nccl_tests/issue-nccl-tests-249_A10G_leading-hash-stripped_blocking.txt", "NVIDIA A10G", -1,
	  "A10G" },
	{ "nccl_tests/issue-nccl-tests-5_2018_NCCL1.0_8xP100_oldest-header_bytes-N-op-res.txt",
	  "Tesla P100-PCIE-16GB", -1, NULL },
	{ "nccl_tests/issue-dgx-spark-playbooks-pr103_2nodes_GB10_v2.20.0_new-header.txt",
	  "NVIDIA GB10", -1, NULL },
	{ "nccl_tests/autodl_2x_RTX2080Ti_PCIe_nccl-tests_allreduce_allgather_bcast_reduce_alltoall.txt",
	  "NVIDIA GeForce RTX 2080 Ti", -1, NULL },
	{ "nccl_debug/02_tinygrad-ogkm-issue-35_2x_RTX5090D_v2.26.2_nccl-tests.txt",
	  "NVIDIA GeForce RTX 5090 D", -1, NULL },	/* not the RTX 5090 */
	{ "nccl_debug/03_nccl-tests-issue-284_2nodes_1xRTX4090_each_Socket_v2.25.1.txt",
	  "NVIDIA GeForce RTX 4090", -1, "RTX 4090" },
	{ "nvidia_smi/issue-bpytop-26_query-gpu-csv_2GPUs_GTX1080Ti_GTX1060.txt",
	  "GeForce GTX 1080 Ti", MIB(11175), NULL },
	{ "nsys/ayush-os_nsight-systems-deep-dive_README_nsys-profile-stats-console-tables_A100.md",
	  "NVIDIA GA100", -1, NULL },	/* the chip, not a product */
};

/* Names that differ by a word, a letter or only by memory. */
static const struct {
	const char *name;
	int64_t memory;
	const char *want;
} tricky[] = {
	{ "NVIDIA H100 PCIe", -1, "H100 PCIe" },
	{ "NVIDIA H100 NVL", -1, "H100 NVL" },
	{ "NVIDIA H100", 85029158912, NULL },		/* SXM and PCIe both hold 80 GB */
	{ "NVIDIA H100", MIB(95830), "H100 NVL" },
	{ "NVIDIA A100-PCIE-40GB", -1, "A100 PCIe 40GB" },
	{ "NVIDIA A100 80GB PCIe", -1, "A100 PCIe 80GB" },
	{ "NVIDIA A100", 42297524224, NULL },		/* SXM4 or PCIe */
	{ "Tesla V100-SXM2-16GB", -1, "V100 SXM2 16GB" },
	{ "Tesla V100-PCIE-32GB", -1, "V100 PCIe 32GB" },
	{ "NVIDIA B200", -1, "B200" },
	{ "NVIDIA GB200", -1, "GB200" },
	{ "NVIDIA B300 SXM6 AC", -1, "B300" },
	{ "NVIDIA H200 NVL", -1, "H200 NVL" },
	{ "NVIDIA GH200 480GB", -1, "GH200 96GB" },
	{ "NVIDIA GH200", MIB(97871), "GH200 96GB" },
	{ "NVIDIA GH200", 154000000000, "GH200 144GB" },
	{ "NVIDIA GH200", -1, NULL },
	{ "NVIDIA GH200", 40000000000, NULL },		/* no GH200 holds that */
	{ "NVIDIA RTX PRO 6000 Blackwell Server Edition", -1, "RTX PRO 6000 Blackwell Server" },
	{ "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", -1, "RTX PRO 6000 Blackwell Workstation" },
	{ "NVIDIA RTX 6000 Ada Generation", -1, NULL },
	{ "NVIDIA RTX PRO 6000 Blackwell Se...", -1, "RTX PRO 6000 Blackwell Server" },	/* cut by nvidia-smi */
	{ "NVIDIA RTX PRO 6000 Blac...", -1, NULL },	/* server or workstation */
	{ "NVIDIA GeForce RTX 4090 D", -1, NULL },
	{ "NVIDIA GeForce RTX 4090", MIB(24564), "RTX 4090" },
	{ "AMD Instinct MI300X", MIB(196288), "MI300X" },
	{ "AMD Instinct MI300A", -1, NULL },
	{ "AMD Instinct MI325X", -1, "MI325X" },
	{ "AMD Instinct MI355X", -1, "MI355X" },
	{ "AMD Instinct MI250X", -1, "MI250X" },
	{ "AMD Instinct MI250X / MI250", 68702699520, NULL },
	{ "nvidia  h100 80gb   HBM3 ", -1, "H100 SXM" },	/* case and spaces */
	{ "H200", -1, "H200" },				/* a short name */
	{ "NVIDIA L4", -1, "L4" },
	{ "NVIDIA L40S", -1, "L40S" },
	{ "NVIDIA L40", -1, NULL },
	{ "NVIDIA", -1, NULL },
	{ "", -1, NULL },
};

static void check(const char *name, int64_t memory, const char *want)
{
	const struct gpu_model *m = gpu_lookup(name, memory);

	if (!name)
		name = "(null)";

	if (!want && m)
		fail_msg("'%s' (%lld B): got '%s', want none", name, (long long)memory, m->name);
	if (want && (!m || strcmp(m->name, want)))
		fail_msg("'%s' (%lld B): got '%s', want '%s'", name, (long long)memory,
			 m ? m->name : "none", want);
}

/* The whole of a (possibly gzip'd) file, NUL-ended; NULL when unreadable. */
static char *slurp(const char *path)
{
	gzFile f = gzopen(path, "rb");
	size_t n = 0, cap = 1 << 20;
	char *s = malloc(cap);
	int got;

	if (!f || !s) {
		free(s);
		if (f)
			gzclose(f);
		return NULL;
	}
	while ((got = gzread(f, s + n, (unsigned)(cap - n - 1))) > 0) {
		n += (size_t)got;
		if (cap - n < 2)
			s = realloc(s, cap *= 2);
		assert_non_null(s);
	}
	gzclose(f);
	s[n] = '\0';
	return s;
}

static void realdata_names(void **state)
{
	const char *shared = getenv("SHARED");

	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		check(seen[i].name, seen[i].memory, seen[i].want);
		if (shared && *shared) {	/* the name is really printed there */
			char path[1024];
			char *text;

			snprintf(path, sizeof(path), "%s/realdata/%s", shared, seen[i].file);
			text = slurp(path);
			if (!text)
				fail_msg("cannot read %s", path);
			if (!strstr(text, seen[i].name))
				fail_msg("%s does not print '%s'", path, seen[i].name);
			free(text);
		}
	}
}

static void tricky_names(void **state)
{
	check(NULL, -1, NULL);
	for (size_t i = 0; i < sizeof(tricky) / sizeof(tricky[0]); i++)
		check(tricky[i].name, tricky[i].memory, tricky[i].want);
}

/* Every name and spelling finds its own row; no two rows share one. */
static void every_spelling(void **state)
{
	size_t n;
	const struct gpu_model *t = gpu_models(&n);

	assert_true(n >= 25);
	for (size_t i = 0; i < n; i++) {
		assert_ptr_equal(gpu_lookup(t[i].name, -1), &t[i]);
		assert_non_null(t[i].spellings[0]);
		for (const char *const *s = t[i].spellings; *s; s++)
			if (gpu_lookup(*s, -1) != &t[i])
				fail_msg("'%s' does not find row '%s'", *s, t[i].name);
		if (t[i].memory_reported > 0)	/* the driver's figure resolves the family too */
			assert_ptr_equal(gpu_lookup(t[i].spellings[0], t[i].memory_reported), &t[i]);
	}
}

static void known_or_positive(const char *row, const char *what, double v)
{
	if (!isnan(v) && !(v > 0))
		fail_msg("%s: %s is %g: unknown must be NaN, never 0", row, what, v);
}

/* b >= a where both are known. */
static void not_below(const char *row, const char *hi, double b, const char *lo, double a)
{
	if (!isnan(a) && !isnan(b) && b < a)
		fail_msg("%s: %s %g below %s %g", row, hi, b, lo, a);
}

static void invariants(void **state)
{
	size_t n;
	const struct gpu_model *t = gpu_models(&n);

	for (size_t i = 0; i < n; i++) {
		const struct gpu_model *m = &t[i];
		const struct gpu_peaks *p = &m->peak;

		assert_non_null(m->vendor);
		assert_non_null(m->arch);
		assert_non_null(m->isa);
		assert_true(m->cc_major >= 7);
		assert_true(m->memory_nominal >= 16000000000LL);
		/* the driver reports the vendor's "GB" give or take GiB rounding */
		assert_true(m->memory_reported == -1 ||
			    (m->memory_reported >= m->memory_nominal &&
			     m->memory_reported <= m->memory_nominal / 100 * 108));
		assert_true(m->memory_gbps > 0);
		assert_true(m->link_gbps > 0 && m->link_gen > 0);
		known_or_positive(m->name, "fp64", p->fp64);
		known_or_positive(m->name, "fp32", p->fp32);
		known_or_positive(m->name, "tf32", p->tf32);
		known_or_positive(m->name, "bf16", p->bf16);
		known_or_positive(m->name, "fp16", p->fp16);
		known_or_positive(m->name, "fp8", p->fp8);
		known_or_positive(m->name, "fp4", p->fp4);
		known_or_positive(m->name, "int8", p->int8);
		not_below(m->name, "fp4", p->fp4, "fp8", p->fp8);
		not_below(m->name, "fp8", p->fp8, "bf16", p->bf16);
		not_below(m->name, "bf16", p->bf16, "tf32", p->tf32);
		not_below(m->name, "tf32", p->tf32, "fp32", p->fp32);
		not_below(m->name, "fp16", p->fp16, "fp32", p->fp32);
		not_below(m->name, "fp32", p->fp32, "fp64", p->fp64);
		if (!isnan(p->bf16) && !isnan(p->fp16))
			assert_true(p->bf16 == p->fp16);
	}
}

/* Every row of core/gpu.c is preceded by a comment naming its public source. */
static void sources(void **state)
{
	const char *top = getenv("TOP");
	char path[1024], line[512];
	size_t n, rows = 0;
	int cited = 0;
	FILE *f;

	gpu_models(&n);
	snprintf(path, sizeof(path), "%s/core/gpu.c", top && *top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s", path);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "/* source: "))
			cited = 1;
		if (strstr(line, "{ .name = \"")) {
			if (!cited)
				fail_msg("%s: row without a source comment: %s", path, line);
			cited = 0;
			rows++;
		}
	}
	fclose(f);
	assert_int_equal(rows, n);
}

static void peaks_and_links(void **state)
{
	const struct gpu_model *h = gpu_lookup("NVIDIA H100 80GB HBM3", -1);
	const struct gpu_model *b = gpu_lookup("NVIDIA B200", -1);
	const struct gpu_model *a = gpu_lookup("AMD Instinct MI300X", -1);

	assert_non_null(h);
	assert_true(gpu_peak_tflops(h, DT_FP8_E4M3) == 1979);
	assert_true(gpu_peak_tflops(h, DT_FP8_E5M2) == 1979);
	assert_true(gpu_peak_tflops(h, DT_BF16) == 989.5);
	assert_true(isnan(gpu_peak_tflops(h, DT_FP4)));
	assert_true(isnan(gpu_peak_tflops(h, DT_INT32)));
	assert_true(gpu_peak_tflops(b, DT_FP4) == 9000);
	assert_int_equal(h->link, GPU_LINK_NVLINK);
	assert_true(h->link_gbps == 450 && b->link_gbps == 900);
	assert_string_equal(gpu_link_name(a->link), "Infinity Fabric");
	assert_string_equal(gpu_link_name(gpu_lookup("NVIDIA L4", -1)->link), "PCIe");
	/* what the memory chart and the advice print */
	assert_int_equal(gpu_lookup("H200", -1)->memory_nominal, 141000000000LL);
	assert_int_equal(b->memory_nominal, 180000000000LL);
	assert_int_equal(b->memory_reported, 191503138816LL);
	assert_int_equal(a->memory_nominal, 192000000000LL);
	assert_string_equal(a->isa, "gfx942");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(realdata_names),
		cmocka_unit_test(tricky_names),
		cmocka_unit_test(every_spelling),
		cmocka_unit_test(invariants),
		cmocka_unit_test(sources),
		cmocka_unit_test(peaks_and_links),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
