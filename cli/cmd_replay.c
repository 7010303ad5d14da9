/*
 * replay: re-runs a trial's critical kernels on this machine's GPU and says
 * whether the logged times hold (replay.json); --dry-run prints the plan
 * without a GPU; --smoke checks that the essential GPU operations work.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "render/replay_json.h"
#include "render/smoke_text.h"
#include "render/report.h"
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
		      "write replay.json (or, with --smoke, its JSON) to FILE; standard output "
		      "then gets a readable summary"),
	OPTION_FLAG(0, "smoke", &smoke, 1,
		    "only check that the essential GPU operations work here (no TRIAL)"),
	OPTION_FLAG(0, "dry-run", &dry_run, 1, "print the plan as JSON without touching a GPU"),
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

/*
 * Writes the JSON through fn: into -o FILE atomically (a temporary name
 * renamed into place, so FILE is complete or untouched), else to standard
 * output. EXIT_DONE, or EXIT_NO_INPUT after saying why.
 */
static int write_out(write_fn fn, void *ctx)
{
	struct diags d = { 0 };
	int rc;

	if (out_path) {
		rc = write_atomic(out_path, fn, ctx, &d);
		print_diags(&d);
		diags_release(&d);
		return rc ? EXIT_NO_INPUT : EXIT_DONE;
	}
	if (fn(stdout, ctx) == 0 && fflush(stdout) == 0)
		return EXIT_DONE;
	return EXIT_NO_INPUT;	/* the write error is said once, by main */
}

static int write_smoke(FILE *f, void *ctx)
{
	return smoke_write_json(ctx, f, true) < 0;
}

static int write_plan(FILE *f, void *ctx)
{
	return replay_plan_write_json(ctx, f) < 0;
}

static int write_replay(FILE *f, void *ctx)
{
	return replay_write_json(ctx, f) < 0;
}

static int run_smoke(void)
{
	struct smoke_options opt = { .extra = { NULL } };
	struct smoke_report rep;
	int ret;

	opt.extra[0] = smoke_libs_items(&opt.n_extra[0]);	/* GEMM and NCCL */
	ret = smoke_run(&opt, &rep);

	if (rep.error[0]) {
		error("%s", rep.error);
		smoke_report_release(&rep);
		return EXIT_NO_INPUT;
	}
	if (out_path && write_out(write_smoke, &rep) != EXIT_DONE)
		ret = EXIT_NO_INPUT;
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

/* What became of a kernel, for the text summary: an exec_status, or not planned. */
#define NOT_PLANNED (-1)

/* Runs every planned kernel that has a method; the others keep the plan's reason. */
static int measure(struct replay *r, const struct plan *p, int *status)
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

		status[i] = NOT_PLANNED;
		if (p->k[i].method == PM_NONE)
			continue;
		exec_kernel(x, &p->k[i], &res);
		status[i] = (int)res.status;
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

/* One line per kernel: what became of it and why, its verdict; then whether the times are projections. */
static void print_summary(const struct replay *r, const int *status)
{
	int n[EXEC_FAILED + 1] = { 0 };
	struct buf line;

	/* names come from the trial's logs: each line goes through core/utf8 */
	utf8_line(stdout, "replayed run %s (logged on %s) on %s, device %d", r->run ? r->run : "?",
		  r->logged_gpu ? r->logged_gpu : "an unknown GPU", r->device, r->device_index);
	buf_init(&line, 0);
	for (size_t i = 0; i < r->n; i++) {
		const struct replay_kernel *k = &r->k[i];
		const char *st = status[i] == NOT_PLANNED ? "not planned" : exec_status_name(status[i]);

		if (status[i] != NOT_PLANNED)
			n[status[i]]++;
		buf_reset(&line);
		buf_addf(&line, "  %-11s %-9s ", st, replay_verdict_name(k->verdict));
		buf_add(&line, k->name, utf8_prefix(k->name, strlen(k->name), 0, 60));
		if (k->ratio > 0)
			buf_addf(&line, ": %s, %.3g x the logged time", k->method, k->ratio);
		utf8_line(stdout, "%s%s%s", line.data, k->cause ? ": " : "", k->cause ? k->cause : "");
	}
	buf_release(&line);
	printf("%d done, %d skipped, %d failed, %zu not replayed by the plan\n", n[EXEC_DONE],
	       n[EXEC_SKIPPED], n[EXEC_FAILED],
	       r->n - (size_t)(n[EXEC_DONE] + n[EXEC_SKIPPED] + n[EXEC_FAILED]));
	if (!r->same_model && n[EXEC_DONE])
		utf8_line(stdout, "these timings are projections, not measurements of the trial's GPU: %s is not "
			  "the %s the trial ran on", r->device, r->logged_gpu ? r->logged_gpu : "unknown GPU");
	if (r->projected_step_s > 0)
		printf("projected step %.4g s on %s against %.4g s logged (a projection)\n",
		       r->projected_step_s, r->device, r->logged_step_s);
	printf("replay.json written to %s\n", out_path);
}

static int replay_plan(const char *path, const struct plan *p)
{
	struct replay r;
	int *status = xcalloc(p->n ? p->n : 1, sizeof(*status));
	int ret = EXIT_NO_INPUT;

	replay_init(&r, p, path);
	if (describe_device(&r) == 0 && measure(&r, p, status) == 0)
		ret = write_out(write_replay, &r);
	if (ret == EXIT_DONE && out_path)
		print_summary(&r, status);
	free(status);
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
		ret = write_out(write_plan, &p);
	} else {
		ret = replay_plan(argv[0], &p);
	}
	plan_release(&p);
	return ret == EXIT_DONE && loaded == EXIT_PARTIAL ? EXIT_PARTIAL : ret;
}
