/* docs/analysis.md's table of thresholds says what analysis/thresholds.h holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/thresholds.h"
#include "core/gpu.h"

static char *read_doc(void)
{
	const char *top = getenv("TOP");
	char path[1024];
	static char text[1 << 18];	/* the whole of docs/analysis.md */
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/docs/analysis.md", top && *top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s", path);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

static void row(const char *doc, const char *label, const char *value)
{
	char want[256];

	snprintf(want, sizeof(want), "| %s | %s |", label, value);
	if (!strstr(doc, want))
		fail_msg("docs/analysis.md lacks the row '%s'", want);
}

static void documented(void **state)
{
	const char *doc = read_doc();
	const struct gpu_model *one, *two;
	char v[128], w[128];

	snprintf(v, sizeof(v), "%g%%", WARMUP_EXCESS * 100);
	row(doc, "warm-up excess", v);
	snprintf(v, sizeof(v), "%d", MIN_STEADY_STEPS);
	row(doc, "steady steps", v);
	snprintf(v, sizeof(v), "%d", WARN_STEADY_STEPS);
	row(doc, "steady steps with a warning", v);
	snprintf(v, sizeof(v), "%d", PROFILE_ACTIVE_STEPS);
	row(doc, "active steps to profile", v);
	snprintf(v, sizeof(v), "%g%%", DOMINANT_DTYPE_SHARE * 100);
	row(doc, "dominant dtype", v);
	snprintf(v, sizeof(v), "%g", IMBALANCE_MEMORY_RATIO);
	row(doc, "memory ratio", v);
	snprintf(v, sizeof(v), "%g%% / %g%%", IMBALANCE_MEMORY_HIGH * 100, IMBALANCE_MEMORY_LOW * 100);
	row(doc, "saturated / waiting memory", v);
	snprintf(v, sizeof(v), "%g", IMBALANCE_BUSY_RATIO);
	row(doc, "busy ratio", v);
	snprintf(v, sizeof(v), "%g", EXPECTED_SPEEDUP_DEFAULT);
	row(doc, "expected speedup", v);
	snprintf(v, sizeof(v), "%g", ADVICE_MIN_EFFICIENCY);
	row(doc, "scaling efficiency", v);
	snprintf(v, sizeof(v), "%g%%", PLAN_MEMORY_TOLERANCE * 100);
	row(doc, "plan memory tolerance", v);
	snprintf(v, sizeof(v), "%g%%", PLAN_STEP_TOLERANCE * 100);
	row(doc, "plan step tolerance", v);
	snprintf(v, sizeof(v), "%g%%", FOREIGN_KERNEL_SHARE * 100);
	row(doc, "foreign kernels", v);
	snprintf(v, sizeof(v), "%s, then %s", FIT_GPU_FIRST, FIT_GPU_SECOND);
	row(doc, "fit targets", v);
	snprintf(v, sizeof(v), "%d", LOG_SUMMARY_MIN_STEPS);
	row(doc, "summary steps", v);
	snprintf(v, sizeof(v), "%g%%", LOG_CONSISTENCY_TOLERANCE * 100);
	row(doc, "log consistency", v);
	snprintf(v, sizeof(v), "%g", SUPERLINEAR_EFFICIENCY);
	row(doc, "superlinear efficiency", v);
	snprintf(v, sizeof(v), "%g%%", SUPERLINEAR_NEAR_CAPACITY * 100);
	row(doc, "superlinear near capacity", v);
	snprintf(v, sizeof(v), "%g%%", SUPERLINEAR_HOST_IDLE * 100);
	row(doc, "superlinear host idle", v);
	snprintf(v, sizeof(v), "%g%%", SUPERLINEAR_MEMORY_EXCESS * 100);
	row(doc, "superlinear memory excess", v);
	snprintf(v, sizeof(v), "%g%%", RENTAL_MARGIN_DEFAULT * 100);
	row(doc, "rental margin", v);
	snprintf(v, sizeof(v), "%d GPUs", RENTAL_LOT_GPUS_DEFAULT);
	row(doc, "lot size", v);
	snprintf(v, sizeof(v), "%g h", RENTAL_MTBF_HOURS_DEFAULT);
	row(doc, "machine MTBF", v);
	snprintf(v, sizeof(v), "%g%%", RENTAL_STOP_RATE_SHARE * 100);
	row(doc, "stop: throughput floor", v);
	snprintf(v, sizeof(v), "%d", STOP_FLAT_CHECKPOINTS);
	row(doc, "stop: flat checkpoints", v);
	/* the fit targets' capacities by the one rule, with their nominal figures, as the docs give them */
	one = gpu_lookup(FIT_GPU_FIRST, -1);
	two = gpu_lookup(FIT_GPU_SECOND, -1);
	snprintf(v, sizeof(v), "%s's capacity (%.1f GB as its driver reports it, not the nominal %.0f GB)",
		 FIT_GPU_FIRST, gpu_capacity_bytes(one, -1) / 1e9, one->memory_nominal / 1e9);
	snprintf(w, sizeof(w), "%s's (%.1f GB reported, %.0f GB nominal)", FIT_GPU_SECOND,
		 gpu_capacity_bytes(two, -1) / 1e9, two->memory_nominal / 1e9);
	assert_non_null(strstr(doc, v));
	assert_non_null(strstr(doc, w));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(documented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
