/*
 * The one capacity rule and its text (core/gpu gpu_capacity_bytes and
 * gpu_capacity_text, analysis/capacity). Figures worked out by hand from the
 * GPU table's rows: H200 143771 MiB = 150754820096 bytes, 150.8 GB, 143771 /
 * 1024 = 140.4 GiB; B200 191503138816 bytes, 191.5 GB, 178.35 GiB; MI300X
 * 205822885888 bytes, 205.8 GB, 191.69 GiB; a 24 GiB card 25769803776 bytes,
 * 25.8 GB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/capacity.h"
#include "core/gpu.h"

static const char *text(const char *name, int64_t reported)
{
	static char out[CAPACITY_TEXT_LEN];

	return gpu_capacity_text(out, sizeof(out), name ? gpu_lookup(name, -1) : NULL, reported);
}

static int64_t bytes(const char *name, int64_t reported)
{
	return gpu_capacity_bytes(name ? gpu_lookup(name, -1) : NULL, reported);
}

static void table_rows(void **state)
{
	(void)state;
	assert_int_equal(bytes("H200", -1), 150754820096LL);
	assert_string_equal(text("H200", -1), "141 GB nominal (150.8 GB / 140.4 GiB reported)");
	assert_int_equal(bytes("B200", -1), 191503138816LL);
	assert_string_equal(text("B200", -1), "180 GB nominal (191.5 GB / 178.4 GiB reported)");
	/* the table has rocm-smi's figure for the MI300X: that, not the nominal 192 GB */
	assert_int_equal(bytes("MI300X", -1), 205822885888LL);
	assert_string_equal(text("MI300X", -1), "192 GB nominal (205.8 GB / 191.7 GiB reported)");
	/* a row with no reported figure: nominal, and said to be */
	assert_int_equal(bytes("A100 PCIe 80GB", -1), 80000000000LL);
	assert_string_equal(text("A100 PCIe 80GB", -1), "80 GB nominal");
}

static void the_gpus_own_figure_wins(void **state)
{
	(void)state;
	/* an H100 whose driver reports 81090 MiB, not the table's 81559 */
	assert_int_equal(bytes("H100 SXM", 85029158912LL), 85029158912LL);
	assert_string_equal(text("H100 SXM", 85029158912LL), "80 GB nominal (85.0 GB / 79.2 GiB reported)");
	/* a GPU the table does not know, with what its driver reported */
	assert_null(gpu_lookup("NVIDIA GeForce RTX 3090", 25769803776LL));
	assert_int_equal(bytes(NULL, 25769803776LL), 25769803776LL);
	assert_string_equal(text(NULL, 25769803776LL), "25.8 GB / 24.0 GiB reported");
	assert_int_equal(bytes(NULL, -1), -1);
	assert_string_equal(text(NULL, -1), "unknown");
}

/* A trial's GPU: its memory_total is reported unless it is the table's nominal figure. */
static void trial_gpus(void **state)
{
	struct gpu_result h200 = { .name = "NVIDIA H200", .memory_total = 150754820096LL };
	struct gpu_result a100 = { .name = "NVIDIA A100 80GB PCIe", .memory_total = 80000000000LL };
	struct gpu_result own = { .name = "NVIDIA H200", .memory_total = 149000000000LL };
	struct gpu_result none = { .name = NULL, .memory_total = -1 };
	struct run_result runs[2] = { { .gpu = &a100, .ngpu = 1 }, { .gpu = &own, .ngpu = 1 } };
	struct analysis a = { .runs = runs, .nruns = 2 };
	const struct gpu_model *m;
	char out[CAPACITY_TEXT_LEN];

	(void)state;
	assert_int_equal(capacity_gpu_reported(&h200, &m), 150754820096LL);
	assert_string_equal(m->name, "H200");
	assert_string_equal(capacity_gpu_text(out, sizeof(out), &h200), "141 GB nominal (150.8 GB / 140.4 GiB reported)");
	assert_int_equal(capacity_gpu_reported(&a100, &m), -1);
	assert_string_equal(capacity_gpu_text(out, sizeof(out), &a100), "80 GB nominal");
	assert_int_equal(capacity_gpu_reported(&none, &m), -1);
	assert_null(m);
	assert_string_equal(capacity_gpu_text(out, sizeof(out), &none), "unknown");
	/* a model of the trial: its GPU's own figure; another model: the table's */
	m = gpu_lookup("H200", -1);
	assert_int_equal(capacity_model_bytes(&a, m), 149000000000LL);
	assert_string_equal(capacity_model_text(out, sizeof(out), &a, m), "141 GB nominal (149.0 GB / 138.8 GiB reported)");
	m = gpu_lookup("MI300X", -1);
	assert_int_equal(capacity_model_bytes(&a, m), 205822885888LL);
	assert_int_equal(capacity_model_reported(&a, m), -1);
	m = gpu_lookup("A100 PCIe 80GB", -1);
	assert_int_equal(capacity_model_bytes(&a, m), 80000000000LL);	/* its nominal figure is no report */
	assert_int_equal(capacity_model_bytes(&a, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_rows),
		cmocka_unit_test(the_gpus_own_figure_wins),
		cmocka_unit_test(trial_gpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
