/*
 * render/plan_files: a written plan and the --init skeleton read back by the manifest reader
 * and the analysis (with a sample trial's logs copied in), the plan against what the trial
 * measured, the checklist's commands, the refusal to overwrite, and links never followed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/plan.h"
#include "core/codes.h"
#include "core/manifest_keys.h"
#include "core/xalloc.h"
#include "ingest/trial.h"
#include "render/analysis_json.h"
#include "render/analysis_text.h"
#include "render/plan_files.h"
#include "render/summary.h"
#include "tests/unit/fixture_analysis.h"
#include "tests/unit/ingest_fixture.h"

#define SAMPLE "samples/trials/ddp-scales-well"

static char *temp_dir(void)
{
	char *dir = xstrdup("/tmp/test_plan_files.XXXXXX");

	assert_non_null(mkdtemp(dir));
	return dir;
}

static char *slurp(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	size_t n;
	char *text = read_file(path, &n);

	assert_non_null(text);
	free(path);
	return text;
}

/*
 * Copies the sample's traces and monitor logs into dir's run directories: not its manifests,
 * nor its train.log, whose batch sizes are another job's and would contradict the plan's run.ini.
 */
static void copy_logs(const char *dir)
{
	char *cmd = xasprintf("for r in 1gpu 2gpu; do for f in " SAMPLE "/$r/*; do "
			      "case $f in *.ini|*/train.log) ;; *) cp \"$f\" '%s'/$r/ || exit 1;; esac; "
			      "done; done", dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* Diagnostics of d whose code starts with prefix. */
static size_t codes_with(const struct diags *d, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; i < d->count; i++)
		n += !strncmp(d->items[i].code, prefix, strlen(prefix));
	return n;
}

/* Loads dir (asserting no manifest diagnostic at all) and analyses it. */
static struct analysis *analyse_clean(const char *dir)
{
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	struct trial *t = trial_load(dir, &d, &st);
	struct analysis *a;

	assert_non_null(t);
	assert_int_equal(codes_with(&d, "manifest-"), 0);
	assert_int_equal(codes_with(&t->diags, "manifest-"), 0);
	assert_int_equal(codes_with(&t->diags, "outside-run"), 0);	/* CHECKLIST.md is no log */
	diags_release(&d);
	trial_stats_release(&st);
	a = analysis_run(t);
	trial_free(t);
	return a;
}

static const struct plan_run runs[] = {
	{ .dir = "1gpu", .gpus = 1, .strategy = "single", .global_batch = 16, .micro_batch = 16,
	  .grad_accum = 1, .predicted_peak_bytes = 52e9, .predicted_step_s = 0.05 },
	{ .dir = "2gpu", .gpus = 2, .strategy = "ddp", .global_batch = 16, .micro_batch = 8,
	  .grad_accum = 1, .predicted_peak_bytes = 30e9, .predicted_step_s = 0.04 },
};

/* The sample's own trial as plan would write it, with predictions some of which are off. */
static void sample_plan(struct plan_files *pf)
{
	plan_files_init(pf);
	pf->title = "Llama-1B fine-tune: does a second B200 cut the step time at least 1.6x?";
	pf->hypothesis = "step-time";
	pf->expected_speedup = 1.6;
	pf->question = "single-config";
	pf->precision = "bf16";
	pf->seq_len = 2048;
	pf->dataset = "wikitext-103";
	pf->seed = 1234;
	pf->target_samples = 90000000;
	pf->gpu_hour_price = 5.5;
	pf->memory_reserve_gb = 8;
	pf->runs = runs;
	pf->nruns = 2;
}

static const struct finding *finding(const struct analysis *a, const char *code, const char *run)
{
	char *want = xasprintf("run '%s'", run);

	for (size_t i = 0; i < a->nfindings; i++)
		if (!strcmp(a->findings[i].code, code) && strstr(a->findings[i].message, want)) {
			free(want);
			return &a->findings[i];
		}
	free(want);
	fail_msg("no %s finding for run %s", code, run);
	return NULL;
}

/* analyze's text and summary.md show the plan against the trial, a line per run. */
static void shown_in_text_and_summary(const struct analysis *a)
{
	static const char line1[] = "1gpu: peak memory per GPU 49.7 GB measured, 52.0 GB planned (-4%, "
		"held); step time 73.4 ms measured, 50.0 ms planned (+47%, beyond the tolerance: the "
		"plan was wrong)";
	static const char line2[] = "2gpu: peak memory per GPU 40.1 GB measured, 30.0 GB planned (+34%, "
		"beyond the tolerance: the plan was wrong); step time 42.4 ms measured, 40.0 ms planned "
		"(+6%, held)";
	struct summary s;
	char *text = NULL, *want;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(analysis_write_text(a, f, NULL), 0);
	fclose(f);
	want = xasprintf("\nPlan against measured (run.ini's predictions):\n  %s\n  %s\n", line1, line2);
	assert_non_null(strstr(text, want));
	free(want);
	free(text);
	summary_build(&s, a, NULL, 0);
	for (i = 0; i < s.n && strcmp(s.lines[i].text, "Plan against measured"); i++)
		;
	assert_true(i + 2 < s.n);
	assert_int_equal(s.lines[i].kind, SL_HEADING);
	assert_string_equal(s.lines[i + 1].text, line1);
	assert_string_equal(s.lines[i + 2].text, line2);
	summary_release(&s);
}

static void written_plan_reads_back_and_is_checked(void **state)
{
	char *dir = temp_dir();
	struct diags d = DIAGS_INIT;
	struct plan_files pf;
	struct analysis *a;
	char *ini;

	(void)state;
	sample_plan(&pf);
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
	assert_int_equal(d.count, 0);
	ini = slurp(dir, "2gpu/run.ini");
	assert_non_null(strstr(ini, "\nstrategy = ddp\n"));
	assert_non_null(strstr(ini, "\nmicro_batch = 8\n"));
	assert_non_null(strstr(ini, "\npredicted_peak_gb = 30.000\n"));
	assert_non_null(strstr(ini, "\npredicted_step_s = 0.04\n"));
	assert_non_null(strstr(ini, "\nseed = 1234\n"));
	free(ini);
	ini = slurp(dir, "trial.ini");
	assert_non_null(strstr(ini, "\nbaseline = 1gpu\n"));
	assert_non_null(strstr(ini, "\nexpected_speedup = 1.6\n"));
	assert_non_null(strstr(ini, "\n# Held constant in every run (each run.ini declares them; analyze "
				"checks them against the\n# logs): precision = bf16, seq_len = 2048, dataset = "
				"wikitext-103, seed = 1234\n"));
	free(ini);
	copy_logs(dir);
	a = analyse_clean(dir);
	/* the declarations agree with the logs: no confound, no mismatch */
	assert_int_equal(a->cmp.nconfounds, 0);
	assert_int_equal(findings_with(a, "precision-mismatch"), 0);
	assert_int_equal(findings_with(a, "strategy-mismatch"), 0);
	assert_int_equal(findings_with(a, "gpu-count-conflict"), 0);
	assert_int_equal(a->cmp.verdict, VERDICT_CONFIRMED);
	/* 1gpu: 49.7 GB measured against 52.0 GB planned (-4%, held); 73.4 ms against 50 ms (+47%) */
	assert_true(a->runs[0].plan.present);
	assert_int_equal(a->runs[0].plan.predicted_peak_bytes, 52000000000LL);
	assert_int_equal(a->runs[0].plan.measured_peak_bytes, a->runs[0].gpu[0].peak_memory);
	assert_true(fabs(a->runs[0].plan.measured_peak_bytes / 1e9 - 49.7) < 0.05);
	close_to(a->runs[0].plan.predicted_step_s, 0.05);
	close_to(a->runs[0].plan.measured_step_s, a->runs[0].step_median_s);
	assert_true(fabs(a->runs[0].plan.measured_step_s - 0.0734) < 0.00005);
	/* 2gpu: 40.1 GB against 30 GB (+34%, off); 42.4 ms against 40 ms (+6%, held) */
	assert_true(a->runs[1].plan.present);
	assert_int_equal(a->runs[1].plan.predicted_peak_bytes, 30000000000LL);
	assert_true(fabs(a->runs[1].plan.measured_peak_bytes / 1e9 - 40.1) < 0.05);
	assert_int_equal(findings_with(a, "plan-memory-off"), 1);
	assert_int_equal(findings_with(a, "plan-step-off"), 1);
	assert_int_equal(findings_with(a, "plan-within"), 2);
	assert_string_equal(finding(a, "plan-memory-off", "2gpu")->message,
			    "run '2gpu': peak memory per GPU 40.1 GB measured, 30.0 GB planned (+34%, more "
			    "than the 15% tolerated): the plan under-estimated it");
	assert_string_equal(finding(a, "plan-step-off", "1gpu")->message,
			    "run '1gpu': step time 73.4 ms measured, 50.0 ms planned (+47%, more than "
			    "the 25% tolerated): the plan under-estimated it");
	assert_string_equal(finding(a, "plan-within", "2gpu")->message,
			    "run '2gpu': the plan held: step time 42.4 ms measured, 40.0 ms planned (+6%)");
	assert_non_null(strstr(finding(a, "plan-within", "2gpu")->source, "2gpu/run.ini:"));
	shown_in_text_and_summary(a);
	analysis_free(a);
	diags_release(&d);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

/* runs[].plan survives analysis.json; a run without predictions has no plan key. */
static void plan_round_trips_through_analysis_json(void **state)
{
	char *dir = temp_dir();
	struct diags d = DIAGS_INIT;
	struct plan_files pf;
	struct analysis *a, *b;
	char *buf = NULL, *cmd;
	size_t len = 0;
	FILE *f;

	(void)state;
	sample_plan(&pf);
	pf.nruns = 1;	/* 2gpu planned by hand: a run.ini without predictions */
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
	cmd = xasprintf("mkdir '%s/2gpu' && cp " SAMPLE "/2gpu/run.ini '%s/2gpu/'", dir, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	copy_logs(dir);
	a = analyse_clean(dir);
	f = open_memstream(&buf, &len);
	assert_int_equal(analysis_write_json(a, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"plan\""));
	assert_null(strstr(strstr(buf, "\"plan\"") + 1, "\"plan\""));	/* once: 2gpu has none */
	b = analysis_parse_json(buf, len, "analysis.json", &d);
	assert_non_null(b);
	assert_true(b->runs[0].plan.present);
	assert_false(b->runs[1].plan.present);
	assert_int_equal(b->runs[0].plan.predicted_peak_bytes, 52000000000LL);
	assert_int_equal(b->runs[0].plan.measured_peak_bytes, a->runs[0].plan.measured_peak_bytes);
	close_to(b->runs[0].plan.predicted_step_s, 0.05);
	close_to(b->runs[0].plan.measured_step_s, a->runs[0].plan.measured_step_s);
	analysis_free(a);
	analysis_free(b);
	free(buf);
	diags_release(&d);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

/* Lines of text that are exactly "# NAME =" with NAME a manifest key of section. */
static size_t commented_keys(const char *text, const char *section)
{
	size_t n, count = 0;
	const struct manifest_key *k = manifest_keys(&n);

	for (size_t i = 0; i < n; i++) {
		char *line = xasprintf("\n# %s =\n", k[i].name);

		if (!strcmp(k[i].section, section)) {
			assert_non_null(strstr(text, line));	/* every key of the section */
			assert_null(strstr(strstr(text, line) + 1, line));	/* once */
			count++;
		}
		free(line);
	}
	return count;
}

/* text with its comment lines joined ("\n# " becomes " "), to search across wrapping. */
static char *unwrap(const char *text)
{
	char *out = xstrdup(text), *o = out;

	for (const char *p = text; *p; )
		if (!strncmp(p, "\n# ", 3)) {
			*o++ = ' ';
			p += 3;
		} else {
			*o++ = *p++;
		}
	*o = '\0';
	return out;
}

static char *slurp_unwrapped(const char *dir, const char *name)
{
	char *text = slurp(dir, name), *u = unwrap(text);

	free(text);
	return u;
}

/* Lines of text that set a key: neither empty, nor a comment, nor a section. */
static size_t set_lines(const char *text)
{
	size_t n = 0;

	for (const char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		n += *p != '\n' && *p != '#' && *p != '[';
	return n;
}

static void skeleton_lists_every_key_commented(void **state)
{
	char *dir = temp_dir();
	struct diags d = DIAGS_INIT;
	char *trial_ini, *run1, *run2;
	size_t n, trial_keys = 0;
	const struct manifest_key *k = manifest_keys(&n);
	struct analysis *a;

	(void)state;
	for (size_t i = 0; i < n; i++)
		trial_keys += !strcmp(k[i].section, "trial");
	assert_int_equal(n, 29);	/* 15 trial keys and 14 run keys: a new key lands in the skeleton */
	assert_int_equal(plan_write_skeleton(dir, 0, &d), 0);
	trial_ini = slurp(dir, "trial.ini");
	run1 = slurp(dir, "1gpu/run.ini");
	run2 = slurp(dir, "2gpu/run.ini");
	assert_int_equal(commented_keys(trial_ini, "trial"), trial_keys);
	assert_int_equal(commented_keys(run1, "run"), n - trial_keys);
	assert_int_equal(commented_keys(run2, "run"), n - trial_keys);
	assert_int_equal(set_lines(trial_ini) + set_lines(run1) + set_lines(run2), 0);
	free(trial_ini);
	free(run1);
	/* each key's meaning, allowed values and default come from the table */
	trial_ini = slurp_unwrapped(dir, "trial.ini");
	run1 = slurp_unwrapped(dir, "1gpu/run.ini");
	for (size_t i = 0; i < n; i++) {
		char *want = xasprintf("\n %s. Allowed: %s. Without it: %s. %s =\n", k[i].help,
				       k[i].allowed, k[i].dflt, k[i].name);

		if (!strstr(strcmp(k[i].section, "trial") ? run1 : trial_ini, want))
			fail_msg("the skeleton lacks '%s'", want);
		free(want);
	}
	assert_non_null(strstr(trial_ini, "Allowed: step-time, global-batch or feasibility. Without it: none:"));
	free(trial_ini);
	free(run1);
	free(run2);
	copy_logs(dir);
	a = analyse_clean(dir);
	assert_int_equal(a->hypothesis, HYP_UNSET);
	assert_false(a->runs[0].plan.present);
	assert_false(a->runs[1].plan.present);
	assert_int_equal(findings_with(a, "plan-within"), 0);
	analysis_free(a);
	diags_release(&d);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

static void checklist_has_the_capture_commands(void **state)
{
	static const char *const want[] = {
		"`scaleaudit stack /path/to/venv`",
		"`scaleaudit replay --smoke`",
		"`nvidia-smi topo -m > topo.txt`",
		"`python -m torch.utils.collect_env > collect_env.txt`",
		"`all_reduce_perf -b 8 -e 1G -f 2 -g 2 > all_reduce_perf.txt`",
		"      nvidia-smi --query-gpu=timestamp,index,name,memory.used,memory.total,"
		"utilization.gpu,power.draw --format=csv -l 1 > nvidia-smi.csv &\n",
		"      NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,ENV torchrun",
		"schedule=schedule(wait=1, warmup=1, active=9, repeat=1)",
		"record_shapes=True, profile_memory=True, with_stack=False",
		"tensorboard_trace_handler(",
		"export_chrome_trace(",
		"- `precision` = bf16\n",
		"- `seed` = 1234\n",
		"- the global batch: the same in every run unless the hypothesis is global-batch\n",
		"| 2gpu | 2 | ddp | 8 | 16 | 30.000 | 0.04 |\n",
		/* the rental as rented: 1 lot of 2 B200 for 30 days, 2 x 30 x 24 = 1440 GPU-hours */
		"- The rental planned: 1 lot of 2 GPUs of B200 for a 30-day window: 20.4 days needed "
		"at the planned rate (modelled), with a 15% margin; 1,440 GPU-hours rented, cost 7,920 (in the price's units; currency names them).\n",
		/* 90% of a planned 10 samples/s; half of 9e7 samples by day 15 (the stop given) */
		"- Stop and re-plan when the throughput stays under 9.0 samples/s (90% of the planned 10.0 samples/s) "
		"for 1 day, or when fewer than 45,000,000 samples are processed by day 15 (half the "
		"target by half the days needed); stop at day 30, the window's end, whatever the loss.\n",
		/* sqrt(2 x 60 x 86400) - 60 = 3220.0 - 60 = 3160 s: 53 min */
		"- Checkpoint every 53 min (Young/Daly: sqrt(2 x C x M) - C with C = 60 s to write a "
		"checkpoint and M = 24.0 h between failures); resume from the last one after a failure.\n",
		/* the hypothesis, as analyze decides it */
		"What the runs test: the multi-GPU run steps over the same global batch as the 1-GPU run "
		"in a shorter step; `analyze` confirms it when the speedup",
		/* the GPU to rent with the one capacity text, and a fallback too small */
		"- To rent: B200, 180 GB nominal (191.5 GB / 178.4 GiB reported); a fit is judged",
		"- **Warning**: the fallback H100 SXM cannot hold the planned ddp run: it needs 90.0 GB "
		"per GPU, the H100 SXM has 80 GB nominal (85.5 GB / 79.6 GiB reported).\n",
	};
	char *dir = temp_dir();
	struct diags d = DIAGS_INIT;
	struct plan_files pf;
	char *md;

	(void)state;
	sample_plan(&pf);
	pf.profile_active = 9;
	pf.gpu = gpu_lookup("B200", -1);
	pf.fallback[0] = (struct plan_fallback){ .gpu = gpu_lookup("H100 SXM", -1),
						 .strategy = PLAN_DDP, .need = 90e9 };
	pf.nfallback = 1;
	pf.window_days = 30;
	pf.window_count = 1;
	pf.lots = 1;
	pf.lot_gpus = 2;
	pf.margin = 0.15;
	pf.days_needed = 20.4;
	pf.gpu_hours = 1440;
	pf.cost = 1440 * 5.5;
	pf.has_stop = true;
	pf.stop = (struct plan_stop){ .samples = true, .min_rate = 9, .half_days = 15,
				      .half_target = 45e6, .end_days = 30 };
	pf.checkpoint_write_s = 60;
	pf.mtbf_s = 86400;
	pf.checkpoint_interval_s = sqrt(2 * 60 * 86400.0) - 60;	/* 3160 s */
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
	md = slurp(dir, "CHECKLIST.md");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(md, want[i]))
			fail_msg("CHECKLIST.md lacks '%s'", want[i]);
	free(md);
	diags_release(&d);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

/* Entries of dir (hidden ones too): a temporary file left behind would show. */
static size_t entries(const char *dir)
{
	char *cmd = xasprintf("ls -A '%s'", dir);
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int c;

	assert_non_null(p);
	while ((c = fgetc(p)) != EOF)
		n += c == '\n';
	assert_int_equal(pclose(p), 0);
	free(cmd);
	return n;
}

static void an_existing_trial_is_not_replaced(void **state)
{
	char *dir = temp_dir();
	struct diags d = DIAGS_INIT;
	struct plan_files pf;
	char *before, *after, *want;

	(void)state;
	sample_plan(&pf);
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
	before = slurp(dir, "trial.ini");
	pf.title = "another title";
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.items[0].code, "plan-exists");
	assert_string_equal(d.items[0].message, "already exists: not replaced (--force replaces it)");
	want = xasprintf("%s/trial.ini", dir);
	assert_string_equal(d.items[0].pos.file, want);
	free(want);
	assert_int_equal(plan_write_skeleton(dir, 0, &d), -1);
	assert_int_equal(d.count, 2);
	assert_string_equal(d.items[1].code, "plan-exists");
	after = slurp(dir, "trial.ini");
	assert_string_equal(before, after);
	free(after);
	assert_int_equal(plan_write_dir(&pf, dir, PLAN_FORCE, &d), 0);
	after = slurp(dir, "trial.ini");
	assert_non_null(strstr(after, "\ntitle = another title\n"));
	assert_int_equal(entries(dir), 4);	/* trial.ini, CHECKLIST.md, 1gpu, 2gpu: no temporary */
	want = xasprintf("%s/1gpu", dir);
	assert_int_equal(entries(want), 1);
	free(want);
	free(before);
	free(after);
	diags_release(&d);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

static void a_link_is_never_followed(void **state)
{
	char *dir = temp_dir(), *victim = temp_dir();
	char *link = xasprintf("%s/trial.ini", dir), *target = xasprintf("%s/precious", victim);
	char *run_link = xasprintf("%s/1gpu", dir);
	struct diags d = DIAGS_INIT;
	struct plan_files pf;
	struct stat st;
	char *text;
	FILE *f;

	(void)state;
	sample_plan(&pf);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("keep me\n", f);
	fclose(f);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(plan_write_dir(&pf, dir, PLAN_FORCE, &d), -1);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.items[0].code, "plan-write");
	assert_string_equal(d.items[0].message, "is a symbolic link: not followed, nothing written");
	text = slurp(victim, "precious");
	assert_string_equal(text, "keep me\n");
	free(text);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(entries(dir), 1);	/* nothing else was written */
	/* a run directory that is a link: refused, nothing written through it */
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink(victim, run_link), 0);
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), -1);
	assert_int_equal(d.count, 2);
	assert_string_equal(d.items[1].code, "plan-write");
	assert_string_equal(d.items[1].message, "not a directory (a symbolic link, not followed): nothing written");
	assert_int_equal(entries(victim), 1);
	assert_int_equal(unlink(run_link), 0);
	diags_release(&d);
	assert_int_equal(remove_tree(dir), 0);
	assert_int_equal(remove_tree(victim), 0);
	free(link);
	free(target);
	free(run_link);
	free(dir);
	free(victim);
}

static void a_value_that_breaks_the_ini_is_refused(void **state)
{
	char *dir = temp_dir();
	struct diags d = DIAGS_INIT;
	struct plan_files pf;
	struct plan_run bad = runs[0];
	char long_title[182];
	struct analysis *a;
	char *text;

	(void)state;
	sample_plan(&pf);
	pf.title = "two\nlines";
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), -1);
	assert_string_equal(d.items[0].message, "title 'two\nlines' cannot be written on one INI line "
			    "(a control character or ' ;'): nothing written");
	memset(long_title, 'x', sizeof(long_title) - 1);
	long_title[sizeof(long_title) - 1] = '\0';
	pf.title = long_title;
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), -1);
	assert_string_equal(d.items[1].message, "title is longer than 180 characters: nothing written");
	long_title[180] = '\0';
	assert_int_equal(plan_write_dir(&pf, dir, PLAN_FORCE, &d), 0);	/* 180 reads back whole */
	copy_logs(dir);
	a = analyse_clean(dir);
	assert_string_equal(a->title, long_title);
	analysis_free(a);
	assert_int_equal(remove_tree(dir), 0);
	assert_int_equal(mkdir(dir, 0700), 0);
	pf.title = "fine";
	bad.dir = "../elsewhere";
	pf.runs = &bad;
	pf.nruns = 1;
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), -1);
	assert_string_equal(d.items[2].message, "run directory '../elsewhere' is not a plain name: nothing written");
	bad.dir = "1gpu";
	bad.strategy = "zero4";
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), -1);
	assert_string_equal(d.items[3].message, "run '1gpu': strategy 'zero4' has no run.ini name: nothing written");
	assert_int_equal(d.count, 4);
	assert_int_equal(entries(dir), 0);
	bad.strategy = "zero3";	/* the model's name: run.ini says zero */
	pf.expected_speedup = 0;	/* what the reader refuses is not written */
	pf.memory_reserve_gb = -1;
	bad.predicted_peak_bytes = -1;
	bad.global_batch = 0;
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
	text = slurp(dir, "1gpu/run.ini");
	assert_non_null(strstr(text, "\nstrategy = zero\n"));
	assert_null(strstr(text, "predicted_peak_gb ="));
	assert_null(strstr(text, "global_batch ="));
	free(text);
	text = slurp(dir, "trial.ini");
	assert_null(strstr(text, "expected_speedup ="));
	assert_null(strstr(text, "memory_reserve_gb ="));
	free(text);
	diags_release(&d);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

/* docs/trial.md has a row for every key of the table, in its section's table. */
static void every_key_is_documented(void **state)
{
	const char *top = getenv("TOP");
	char *path = xasprintf("%s/docs/trial.md", top && *top ? top : ".");
	size_t n, len;
	const struct manifest_key *k = manifest_keys(&n);
	char *doc = read_file(path, &len), *run_part;

	(void)state;
	assert_non_null(doc);
	run_part = strstr(doc, "\n## Each run: run.ini\n");
	assert_non_null(run_part);
	for (size_t i = 0; i < n; i++) {
		char *row = xasprintf("\n| `%s` | ", k[i].name);
		const char *at = strstr(doc, row);

		if (!at || (at > run_part) != !strcmp(k[i].section, "run"))
			fail_msg("docs/trial.md has no row for [%s] %s in its section", k[i].section, k[i].name);
		free(row);
	}
	free(doc);
	free(path);
	/* and the trial's man page names each key, as ".B key" or ".BR key ," */
	path = xasprintf("%s/man/scaleaudit-trial.5", top && *top ? top : ".");
	doc = read_file(path, &len);
	assert_non_null(doc);
	for (size_t i = 0; i < n; i++) {
		char *b = xasprintf("\n.B %s\n", k[i].name), *br = xasprintf("\n.BR %s ", k[i].name);

		if (!strstr(doc, b) && !strstr(doc, br))
			fail_msg("man/scaleaudit-trial.5 does not name the key %s", k[i].name);
		free(b);
		free(br);
	}
	free(doc);
	free(path);
}

/* gpt2-xl on B200 with micro batch b and grad_accum ga, computed. */
static void gpt2_plan(struct plan_inputs *in, struct plan_result *r, const char *hypothesis,
		      const char *b, const char *ga)
{
	char err[256];

	plan_inputs_init(in);
	assert_int_equal(plan_set(in, "model", "gpt2-xl", err, sizeof(err)), 0);
	assert_int_equal(plan_set(in, "gpu", "B200", err, sizeof(err)), 0);
	assert_int_equal(plan_set(in, "seq_len", "2048", err, sizeof(err)), 0);
	assert_int_equal(plan_set(in, "micro_batch", b, err, sizeof(err)), 0);
	assert_int_equal(plan_set(in, "grad_accum", ga, err, sizeof(err)), 0);
	assert_int_equal(plan_set(in, "hypothesis", hypothesis, err, sizeof(err)), 0);
	assert_int_equal(plan_check(in, err, sizeof(err)), 0);
	plan_compute(in, r);
}

/* The global batches plan wrote, checked against the hypothesis and the strategy. */
static void assert_global_batches(const struct plan_run *run, const char *hypothesis, int strategy,
				  int64_t b, int64_t ga)
{
	bool dp = strategy >= PLAN_DDP && strategy <= PLAN_FSDP;
	int64_t one = b * ga * (strcmp(hypothesis, "step-time") || !dp || b % 2 == 0 || ga % 2 == 0 ? 1 : 2);

	assert_int_equal(run[0].global_batch, one);
	assert_int_equal(run[1].global_batch, dp && strcmp(hypothesis, "step-time") ? 2 * one : one);
	assert_int_equal(run[0].global_batch, (run[0].micro_batch > 0 ? run[0].micro_batch : b) *
			 run[0].grad_accum);
	assert_int_equal(run[1].global_batch, (run[1].micro_batch > 0 ? run[1].micro_batch : b) *
			 run[1].grad_accum * (dp ? 2 : 1));
}

/*
 * Every hypothesis and strategy plan -o can write, with an even micro batch, an odd one
 * with an even grad_accum, and both odd: the sample's logs dropped into the written trial
 * raise no confound (a step-time plan once doubled the 2-GPU run's global batch).
 */
static void no_written_plan_causes_a_confound(void **state)
{
	static const char *const hyps[] = { "step-time", "global-batch", "feasibility" };
	static const char *const shapes[][2] = { { "16", "1" }, { "1", "2" }, { "3", "1" } };
	size_t nplans = 0;

	(void)state;
	for (size_t h = 0; h < 3; h++)
		for (size_t sh = 0; sh < 3; sh++)
			for (int st = PLAN_DDP; st <= PLAN_TENSOR; st++) {
				struct plan_inputs in;
				struct plan_result r;
				struct plan_files pf;
				struct plan_run run[2];
				struct diags d = DIAGS_INIT;
				struct analysis *a;
				char *dir, *ini;
				bool halved;

				if (sh && strcmp(hyps[h], "step-time"))
					continue;	/* the others keep the batch as given */
				gpt2_plan(&in, &r, hyps[h], shapes[sh][0], shapes[sh][1]);
				r.recommended = st;
				plan_files_from(&pf, run, &in, &r);
				assert_int_equal(pf.nruns, 2);
				assert_string_equal(pf.hypothesis, hyps[h]);
				assert_global_batches(run, hyps[h], st, atoll(shapes[sh][0]),
						      atoll(shapes[sh][1]));
				halved = !strcmp(hyps[h], "step-time") && st <= PLAN_FSDP && sh == 0;
				assert_int_equal(run[1].micro_batch > 0 &&
						 run[1].micro_batch != run[0].micro_batch, halved);
				dir = temp_dir();
				assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
				/* trial.ini's held constants name the micro batch only when it is held */
				ini = slurp(dir, "trial.ini");
				assert_int_equal(strstr(ini, ", micro_batch = ") != NULL, !halved);
				free(ini);
				copy_logs(dir);
				a = analyse_clean(dir);
				for (size_t i = 0; i < a->cmp.nconfounds; i++)
					fail_msg("%s with %s (micro batch %s, grad_accum %s): %s", hyps[h],
						 plan_strategy_name(st), shapes[sh][0], shapes[sh][1],
						 a->cmp.confounds[i].message);
				analysis_free(a);
				assert_int_equal(remove_tree(dir), 0);
				free(dir);
				nplans++;
			}
	assert_int_equal(nplans, 7 * 3 + 7 * 2);
}

/* --title (title in PLAN.ini) reaches trial.ini and CHECKLIST.md; a line break is refused. */
static void the_title_is_written(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	struct plan_files pf;
	struct plan_run run[2];
	struct diags d = DIAGS_INIT;
	char err[256], *dir, *text, longer[PLAN_TITLE_MAX + 1];

	(void)state;
	gpt2_plan(&in, &r, "step-time", "16", "1");
	assert_int_equal(plan_set(&in, "title", "GPT-2 XL: does a second B200 halve the step?",
				  err, sizeof(err)), 0);
	assert_int_equal(plan_set(&in, "title", "two\nlines", err, sizeof(err)), -1);
	assert_string_equal(err, "title: one line of text, without a line break");
	memset(longer, 'x', PLAN_TITLE_MAX);
	longer[PLAN_TITLE_MAX] = '\0';
	assert_int_equal(plan_set(&in, "title", longer, err, sizeof(err)), -1);
	assert_string_equal(err, "title: longer than 180 characters");
	longer[PLAN_TITLE_MAX - 1] = '\0';
	assert_int_equal(plan_set(&in, "title", longer, err, sizeof(err)), 0);
	assert_int_equal(plan_set(&in, "title", "GPT-2 XL: does a second B200 halve the step?",
				  err, sizeof(err)), 0);
	plan_files_from(&pf, run, &in, &r);
	dir = temp_dir();
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
	text = slurp(dir, "trial.ini");
	assert_non_null(strstr(text, "\ntitle = GPT-2 XL: does a second B200 halve the step?\n"));
	free(text);
	text = slurp(dir, "CHECKLIST.md");
	assert_true(!strncmp(text, "# Trial checklist: GPT-2 XL: does a second B200 halve the step?\n", 64));
	free(text);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

/*
 * The rental of a planned trial as rented. 7e9 parameters on H200, micro batch 1 of 1024
 * tokens: 2 GPUs at 2 x 0.4 x 989.5e12 / 42e9 = 18847.6 tokens/s need 1e7 x 1024 tokens /
 * 18847.6 / 86400 = 6.29 days, x 1.15 = 7.23: a 30-day window of 1 lot of 2 GPUs, 1440
 * GPU-hours, 4320 at 3. C = 7e9 x 14 B / 2 GB/s = 49 s; sqrt(2 x 49 x 86400) - 49 = 2861 s.
 * trial.ini carries lot_gpus, margin, mtbf_hours and checkpoint_write_s where the manifest's
 * table knows them (and never a key it would warn about).
 */
static void the_rental_is_written_as_rented(void **state)
{
	static const char *const keys[][2] = {
		{ "lot_gpus", "lot_gpus = 2\n" }, { "margin", "margin = 0.15\n" },
		{ "mtbf_hours", "mtbf_hours = 24\n" }, { "checkpoint_write_s", "checkpoint_write_s = 49\n" },
	};
	static const char *const inputs[][2] = {
		{ "params", "7e9" }, { "gpu", "H200" }, { "micro_batch", "1" }, { "seq_len", "1024" },
		{ "hidden", "4096" }, { "layers", "32" }, { "heads", "32" }, { "target_samples", "1e7" },
		{ "price", "3" },
	};
	struct plan_inputs in;
	struct plan_result r;
	struct plan_files pf;
	struct plan_run run[2];
	struct diags d = DIAGS_INIT;
	char err[256], *dir, *text;

	(void)state;
	plan_inputs_init(&in);
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		assert_int_equal(plan_set(&in, inputs[i][0], inputs[i][1], err, sizeof(err)), 0);
	plan_compute(&in, &r);
	assert_int_equal(r.recommended, PLAN_DDP);
	plan_files_from(&pf, run, &in, &r);
	assert_int_equal(pf.window_days, 30);
	assert_int_equal(pf.window_count, 1);
	assert_int_equal(pf.lots, 1);
	assert_true(pf.gpu_hours == 1440 && pf.cost == 4320);
	assert_true(fabs(pf.days_needed - 1.024e10 / (2 * 0.4 * 989.5e12 / 42e9) / 86400) < 1e-9);
	assert_true(pf.checkpoint_write_s == 49);
	assert_true(fabs(pf.checkpoint_interval_s - (sqrt(2 * 49 * 86400.0) - 49)) < 1e-9);
	assert_true(pf.has_stop && pf.stop.samples && pf.stop.half_target == 5e6);
	dir = temp_dir();
	assert_int_equal(plan_write_dir(&pf, dir, 0, &d), 0);
	text = slurp(dir, "trial.ini");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_int_equal(strstr(text, keys[i][1]) != NULL,
				 manifest_key_find("trial", keys[i][0]) != NULL);
	free(text);
	text = slurp(dir, "CHECKLIST.md");
	assert_non_null(strstr(text, "- The rental planned: 1 lot of 2 GPUs of H200 for a 30-day window: "
				     "6.3 days needed at the planned rate (modelled), with a 15% margin; "
				     "1,440 GPU-hours rented, cost 4,320 (in the price's units; currency names them).\n"));
	/* by day 4: half the 6.3 days needed, rounded up */
	assert_non_null(strstr(text, "fewer than 5,000,000 samples are processed by day 4 "));
	free(text);
	copy_logs(dir);
	analysis_free(analyse_clean(dir));	/* no manifest finding */
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(written_plan_reads_back_and_is_checked),
		cmocka_unit_test(plan_round_trips_through_analysis_json),
		cmocka_unit_test(skeleton_lists_every_key_commented),
		cmocka_unit_test(checklist_has_the_capture_commands),
		cmocka_unit_test(an_existing_trial_is_not_replaced),
		cmocka_unit_test(a_link_is_never_followed),
		cmocka_unit_test(a_value_that_breaks_the_ini_is_refused),
		cmocka_unit_test(every_key_is_documented),
		cmocka_unit_test(no_written_plan_causes_a_confound),
		cmocka_unit_test(the_title_is_written),
		cmocka_unit_test(the_rental_is_written_as_rented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
