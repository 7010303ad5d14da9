/*
 * replay: re-runs a trial's critical kernels on this machine's GPU and says
 * whether the logged times hold (replay.json); --dry-run prints the plan
 * without a GPU; --smoke checks that the essential GPU operations work.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "render/replay_json.h"
#include "replay/cuda.h"
#include "replay/exec.h"
#include "replay/plan.h"
#include "replay/smoke.h"
#include "replay/smoke_libs.h"
#include "replay/verdict.h"

static int device;		/* --device N */
static const char *out_path;	/* -o FILE */
static int smoke;		/* --smoke */
static int dry_run;		/* --dry-run */

const struct option replay_options[] = {
	OPTION_INTEGER(0, "device", &device, "N", "the GPU to run on (CUDA ordinal; default 0)"),
	OPTION_STRING('o', NULL, &out_path, "FILE",
		      "write replay.json (or, with --smoke, its JSON) to FILE instead of standard output"),
	OPTION_FLAG(0, "smoke", &smoke, 1,
		    "only check that the essential GPU operations work here (no TRIAL)"),
	OPTION_FLAG(0, "dry-run", &dry_run, 1, "print the plan as JSON without touching a GPU"),
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

/* Opens -o FILE, or returns stdout. NULL after saying why. */
static FILE *open_out(void)
{
	FILE *f = out_path ? fopen(out_path, "w") : stdout;

	if (!f)
		error("%s: cannot write: %s", out_path, strerror(errno));
	return f;
}

static int close_out(FILE *f, int wrote)
{
	int bad = wrote < 0 || (f != stdout && fclose(f) != 0);

	if (f == stdout && fflush(f) != 0)
		bad = 1;
	if (!bad)
		return EXIT_DONE;
	error("%s: cannot write the output", out_path ? out_path : "standard output");
	return EXIT_NO_INPUT;
}

static int run_smoke(void)
{
	struct smoke_options opt = { .extra = { NULL } };
	struct smoke_report rep;
	FILE *f;
	int ret;

	opt.extra[0] = smoke_libs_items(&opt.n_extra[0]);	/* GEMM and NCCL */
	ret = smoke_run(&opt, &rep);

	if (rep.error[0]) {
		error("%s", rep.error);
		smoke_report_release(&rep);
		return EXIT_NO_INPUT;
	}
	if (out_path) {
		if (!(f = open_out()) || close_out(f, smoke_write_json(&rep, f, true)) != EXIT_DONE)
			ret = EXIT_NO_INPUT;
	}
	if (smoke_write_text(&rep, stdout) < 0)
		ret = EXIT_NO_INPUT;
	smoke_report_release(&rep);
	return ret;
}

/* The NVIDIA driver's version where Linux shows it; NULL elsewhere. */
static const char *driver_version(struct replay *r)
{
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	char line[512], v[64];
	const char *got = NULL;

	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f))
		got = replay_driver_version(line, v, sizeof(v));
	fclose(f);
	return got ? replay_strdup(r, got) : NULL;
}

/* This machine's device: its name, memory and the driver's versions. -1 after saying why. */
static int describe_device(struct replay *r)
{
	struct cuda_err err = { 0 };
	struct cuda_device_info info;
	struct cuda *cu = NULL;
	int count = 0, version = 0;
	char buf[32];

	if (cuda_open(&cu, &err) < 0 || cuda_device_count(cu, &count, &err) < 0 ||
	    cuda_driver_version(cu, &version, &err) < 0)
		goto fail;
	if (device < 0 || device >= count) {
		cuda_close(cu);
		return error("device %d not present: this machine has %d GPU%s", device, count,
			     count == 1 ? "" : "s");
	}
	if (cuda_device_info(cu, device, &info, &err) < 0)
		goto fail;
	r->device = replay_strdup(r, info.name);
	r->device_index = device;
	r->device_memory = info.total_bytes;
	snprintf(buf, sizeof(buf), "%d.%d", version / 1000, version % 1000 / 10);
	r->cuda_version = replay_strdup(r, buf);
	r->driver_version = driver_version(r);
	cuda_close(cu);
	return 0;
fail:
	cuda_close(cu);
	return error("%s", err.msg);
}

/* Runs every planned kernel that has a method; the others keep the plan's reason. */
static int measure(struct replay *r, const struct plan *p)
{
	char err[EXEC_REASON_MAX];
	struct exec *x = NULL;

	if (exec_open(&x, device, err, sizeof(err)) < 0) {
		exec_close(x);
		return error("%s", err);
	}
	for (size_t i = 0; i < p->n; i++) {
		struct replay_kernel *k = &r->k[i];
		struct exec_result res;

		if (p->k[i].method == PM_NONE)
			continue;
		exec_kernel(x, &p->k[i], &res);
		if (res.status != EXEC_DONE) {
			k->cause = replay_strdup(r, res.reason);
			continue;
		}
		k->method = res.method[0] ? replay_strdup(r, res.method) : k->method;
		k->replayed_median_s = res.timing.median_s;
		k->replayed_p10_s = res.timing.p10_s;
		k->replayed_p90_s = res.timing.p90_s;
		k->reps = res.timing.reps;
	}
	exec_close(x);
	replay_finish(r);
	return 0;
}

static int replay_plan(const char *path, const struct plan *p)
{
	struct replay r;
	FILE *f;
	int ret = EXIT_NO_INPUT;

	replay_init(&r, p, path);
	if (describe_device(&r) == 0 && measure(&r, p) == 0 && (f = open_out()))
		ret = close_out(f, replay_write_json(&r, f));
	replay_release(&r);
	return ret;
}

int cmd_replay(int argc, char **argv)
{
	struct analysis *a = NULL;
	struct plan p;
	size_t run;
	int ret, loaded;

	if (smoke)
		return argc ? usage_error("replay", "--smoke takes no TRIAL") : run_smoke();
	if (argc < 1)
		return usage_error("replay", "no TRIAL given");
	if (argc > 1)
		return usage_error("replay", "one TRIAL at a time");
	loaded = load_and_analyze(argv[0], &a);
	if (!a || loaded == EXIT_NO_INPUT) {
		analysis_free(a);
		return EXIT_NO_INPUT;
	}
	run = plan_pick_run(a);
	if (plan_build(&p, a, run) < 0) {
		analysis_free(a);
		plan_release(&p);
		error("%s: no run has critical kernels to replay (replay needs a profiler trace)", argv[0]);
		return EXIT_NO_INPUT;
	}
	analysis_free(a);
	if (dry_run) {
		FILE *f = open_out();

		ret = f ? close_out(f, replay_plan_write_json(&p, f)) : EXIT_NO_INPUT;
	} else {
		ret = replay_plan(argv[0], &p);
	}
	plan_release(&p);
	return ret == EXIT_DONE && loaded == EXIT_PARTIAL ? EXIT_PARTIAL : ret;
}
