/*
 * The train-log reader, driven through ingest_file() on the real logs of
 * ../shared/realdata/training_logs (expected values read off the files by
 * hand, counts with grep as each comment says) and on the hand-made edge
 * cases of tests/data/trainlog.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/info.h"
#include "core/model.h"
#include "ingest/ingest.h"
#include "ingest/trainlog.h"
#include "tests/unit/skip.h"

#define REAL "realdata/training_logs/"

struct got {
	struct trial *t;
	struct run *r;
	struct arena a;
	struct ingest_file f;
	struct info *train;	/* the file's "train" object; NULL when absent */
	char path[4096];
};

/* A real file under $SHARED, or false when the suite runs without it. */
static bool real_path(char *out, size_t n, const char *name)
{
	const char *shared = getenv("SHARED");

	if (!shared || !*shared)
		return false;
	snprintf(out, n, "%s/" REAL "%s", shared, name);
	return access(out, R_OK) == 0;
}

static void data_path(char *out, size_t n, const char *name)
{
	const char *top = getenv("TOP");

	snprintf(out, n, "%s%stests/data/trainlog/%s", top ? top : "", top ? "/" : "", name);
}

static void load_path(struct got *g)
{
	g->t = trial_new();
	g->r = trial_add_run(g->t, "run", ".");
	g->a = (struct arena)ARENA_INIT;
	assert_int_equal(ingest_file(g->t, g->r, g->path, &g->a, &g->f), 0);
	g->train = info_get(g->f.info, "train");
}

static bool load_real(struct got *g, const char *name)
{
	if (!real_path(g->path, sizeof(g->path), name))
		return false;
	load_path(g);
	return true;
}

static void load_data(struct got *g, const char *name)
{
	data_path(g->path, sizeof(g->path), name);
	load_path(g);
}

static void unload(struct got *g)
{
	arena_release(&g->a);
	trial_free(g->t);
}

static const struct info *member(const struct info *o, const char *key)
{
	const struct info *m;

	assert_non_null(o);
	m = info_get(o, key);
	if (!m)
		fail_msg("no member \"%s\"", key);
	return m;
}

static int64_t ival(const struct info *o, const char *key)
{
	const struct info *m = member(o, key);

	if (m->type != INFO_INT)
		fail_msg("\"%s\" is not an integer", key);
	return m->v.i;
}

static double nval(const struct info *o, const char *key)
{
	const struct info *m = member(o, key);

	if (m->type == INFO_INT)
		return (double)m->v.i;
	if (m->type != INFO_NUM)
		fail_msg("\"%s\" is not a number", key);
	return m->v.d;
}

static const char *sval(const struct info *o, const char *key)
{
	const struct info *m = member(o, key);

	if (m->type != INFO_STR)
		fail_msg("\"%s\" is not a string", key);
	return m->v.s;
}

static void assert_null_member(const struct info *o, const char *key)
{
	if (member(o, key)->type != INFO_NULL)
		fail_msg("\"%s\" is not null", key);
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fmax(1, fabs(want)))
		fail_msg("%.12g != %.12g", got, want);
}

static size_t count_code(const struct diags *d, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < d->count; i++)
		n += !strcmp(d->items[i].code, code);
	return n;
}

/* Writes text to a temporary file and loads it. */
static void load_text(struct got *g, const char *text, size_t n)
{
	FILE *f;
	int fd;

	snprintf(g->path, sizeof(g->path), "/tmp/test_trainlog.XXXXXX");
	fd = mkstemp(g->path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(fwrite(text, 1, n, f), n);
	fclose(f);
	load_path(g);
	unlink(g->path);
}

/* ---- real files ------------------------------------------------------ */

static void test_real_hf_deepspeed_2nodes(void **state)
{
	struct got g;
	const struct info *o;

	(void)state;
	if (!load_real(&g, "daekeun-ml_2nodes_1xA10G_each_DeepSpeed_HF-Trainer_"
			   "NCCL2.23.4_stdout.txt"))
		skip_without_shared();
	o = g.train;
	assert_string_equal(sval(o, "framework"), "hf-trainer");
	/* the script's own banner, lines 175-178: 4 per device, 2 accumulation, 16 */
	assert_int_equal(ival(o, "micro_batch"), 4);
	assert_int_equal(ival(o, "grad_accum"), 2);
	assert_int_equal(ival(o, "global_batch"), 16);
	assert_int_equal(g.r->logged.global_batch.src.line, 178);
	assert_ptr_equal(g.r->logged.global_batch.src.file, g.f.path);
	assert_int_equal(g.r->logged.gpus.v, 2);		/* "World Size: 2" */
	/* the names the banner prints them under, quoted by a manifest-conflict */
	assert_string_equal(g.r->logged.global_batch.key, "Effective Batch Size");
	assert_string_equal(g.r->logged.micro_batch.key, "Batch Size per Device");
	assert_string_equal(g.r->logged.grad_accum.key, "Gradient Accumulation Steps");
	assert_string_equal(g.r->logged.gpus.key, "World Size");
	assert_int_equal(g.r->logged.gpus.src.line, 177);
	/* line 24: "📂 Dataset: /lustre/data/wikitext-2" (rank 1's twin at line 44 agrees) */
	assert_string_equal(g.r->logged.dataset.v, "/lustre/data/wikitext-2");
	assert_int_equal(g.r->logged.dataset.src.line, 24);
	assert_null(g.r->logged.model.v);
	/* grep -c "{'loss': " = 27 */
	assert_int_equal(ival(o, "steps"), 27);
	assert_int_equal(g.r->nlog, 27);
	assert_near(g.r->log[0].loss, 7.4095);
	assert_near(g.r->log[26].loss, 0.5291);
	assert_int_equal(g.r->log[0].step, -1);	/* HF dicts carry no step number */
	assert_true(g.r->log[0].step_time_s < 0);
	assert_null_member(o, "step_time_s_median");
	/* line 231: {'train_runtime': 2233.4294, 'train_samples_per_second': 21.283, ...} */
	assert_string_equal(sval(o, "status"), "completed");
	assert_int_equal(g.r->status, RUN_COMPLETED);
	assert_int_equal(g.r->status_src.line, 231);
	assert_near(nval(o, "train_runtime_s"), 2233.4294);
	assert_near(nval(o, "samples_per_s"), 21.283);
	assert_near(g.r->train_runtime_s.v, 2233.4294);
	assert_near(g.r->train_samples_per_s.v, 21.283);
	assert_near(g.r->train_steps_per_s.v, 1.331);
	assert_int_equal(g.r->train_steps_per_s.src.line, 231);
	assert_string_equal(sval(o, "throughput_source"), "summary");	/* no per-line rate */
	assert_null_member(o, "tokens_per_s");
	assert_null_member(o, "peak_memory_bytes");
	assert_null_member(o, "precision");
	assert_null_member(o, "oom");
	assert_int_equal(g.f.sniff.format, FMT_TRAIN_LOG);
	assert_int_equal(g.t->diags.count, 0);
	/*
	 * lines 236-237: the script's own "Saving final model to ..." and
	 * "Model saved to: ..." are no trainer's checkpoint lines (the Trainer's
	 * "Saving model checkpoint to" is not in the file: grep -c = 0)
	 */
	assert_int_equal(g.r->nckpt, 0);
	unload(&g);
}

static void test_real_hf_running_blocks(void **state)
{
	static const struct { int64_t step; double loss; } want[] = {
		{ 10, 18.6387 }, { 20, 14.222743 }, { 30, 12.079448 },	/* lines 30-32 */
		{ 10, 0.6347228 }, { 20, 0.604829 },			/* lines 43-44 */
	};
	struct got g;
	const struct info *o;

	(void)state;
	if (!load_real(&g, "hf-trainer_running-training-blocks_open-r1-483_LlamaFactory-4783_"
			   "transformers-6998-9613.txt"))
		skip_without_shared();
	o = g.train;
	assert_string_equal(sval(o, "framework"), "hf-trainer");
	/* Source A, lines 5-8: 8 per device, 224 in total, 4 accumulation, 196 steps */
	assert_int_equal(ival(o, "micro_batch"), 8);
	assert_int_equal(ival(o, "global_batch"), 224);
	assert_int_equal(ival(o, "grad_accum"), 4);
	assert_int_equal(g.r->logged.global_batch.src.line, 6);
	assert_int_equal(g.r->logged.steps.v, 196);
	assert_int_equal(g.r->logged.steps.src.line, 8);
	/* sources B, C, D disagree with A on all four: 3 x 4 conflicts */
	assert_int_equal(count_code(&g.t->diags, "train-conflict"), 12);
	assert_int_equal(ival(o, "steps"), 5);
	assert_int_equal(g.r->nlog, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(g.r->log[i].step, want[i].step);
		assert_near(g.r->log[i].loss, want[i].loss);
	}
	/* the last step printed (30) is short of the 196 planned */
	assert_string_equal(sval(o, "status"), "incomplete");
	assert_null_member(o, "train_runtime_s");
	unload(&g);
}

static void test_real_hf_rank_prefixed(void **state)
{
	struct got g;

	(void)state;
	if (!load_real(&g, "hf-trainer_rank-prefixed-dicts_transformers-9415_and_tqdm-interleave_"
			   "LlamaFactory-8261.txt"))
		skip_without_shared();
	assert_string_equal(sval(g.train, "framework"), "hf-trainer");
	/*
	 * "0: {'loss'" twice (rank 1's twins are dropped), "] {'loss'" twice, and the
	 * tqdm bars at 10, 11, 20 and 24 of 1752 (the second "20/1752" did not move on)
	 */
	assert_int_equal(ival(g.train, "steps"), 8);
	assert_int_equal(g.r->nlog, 8);
	assert_near(g.r->log[0].loss, 10.5927734375);
	assert_near(g.r->log[1].loss, 6.9972802049411325);
	assert_near(g.r->log[2].loss, 3.5534);
	assert_int_equal(g.r->log[3].step, 10);
	assert_near(g.r->log[3].step_time_s, 2.83);	/* "2.83s/it" */
	assert_int_equal(g.r->log[5].step, 20);
	assert_near(g.r->log[6].loss, 0.0);
	assert_int_equal(g.r->log[7].step, 24);	/* the bar a watchdog error is glued to */
	assert_near(g.r->log[7].step_time_s, 2.88);
	/* 2.83, 2.82, 2.86, 2.88 s/it */
	assert_near(nval(g.train, "step_time_s_median"), (2.83 + 2.86) / 2);
	assert_null_member(g.train, "status");	/* no end, no traceback, no planned total */
	assert_null_member(g.train, "global_batch");
	unload(&g);
}

static void test_real_deepspeed_config(void **state)
{
	struct got g;

	(void)state;
	if (!load_real(&g, "deepspeed_config-dump_precision-and-batch-keys_4-issues.txt"))
		skip_without_shared();
	assert_string_equal(sval(g.train, "framework"), "deepspeed");
	/* line 7: bfloat16_enabled ............. True */
	assert_string_equal(sval(g.train, "precision"), "bf16");
	assert_int_equal(g.r->logged.precision.src.line, 7);
	/* line 21: gradient_accumulation_steps .. 2 */
	assert_int_equal(ival(g.train, "grad_accum"), 2);
	assert_int_equal(g.r->logged.grad_accum.src.line, 21);
	/* the assertion of line 32 names batch sizes that were rejected: not facts */
	assert_null_member(g.train, "global_batch");
	assert_null_member(g.train, "micro_batch");
	assert_int_equal(ival(g.train, "steps"), 0);
	assert_null_member(g.train, "status");
	unload(&g);
}

static void test_real_lightning(void **state)
{
	struct got g;

	(void)state;
	if (!load_real(&g, "lightning_header_issue-19673_and_progress-bar_VideoTuna-46.txt"))
		skip_without_shared();
	assert_string_equal(sval(g.train, "framework"), "lightning");
	/* line 23: Using bfloat16 Automatic Mixed Precision (AMP) */
	assert_string_equal(sval(g.train, "precision"), "bf16");
	assert_int_equal(g.r->logged.precision.src.line, 23);
	assert_int_equal(g.r->logged.gpus.v, 8);	/* MEMBER: 1/8 */
	/* lines 26-27: two ranks at the same position 3/217: one record */
	assert_int_equal(ival(g.train, "steps"), 1);
	assert_int_equal(g.r->log[0].step, 3);
	assert_near(g.r->log[0].loss, 0.187);
	assert_true(g.r->log[0].step_time_s < 0);	/* 0.00it/s says nothing */
	assert_null_member(g.train, "step_time_s_median");
	unload(&g);
}

/* Each message of the era file, numbers worked out with python3 from the text. */
static const struct {
	int64_t line;
	int64_t tried, capacity, allocated, free, reserved;
} oom_want[] = {
	{ 2, 2426656522, 6442450944, 819556516, 3253437727, 1331439862 },
	{ 5, 13107200, 11725260718, 8986296, 9964324127, 4907336 },	/* "cached" */
	{ 8, 1814623683, 15633680957, 681542943, 1406601789, 1084479242 },
	/* sentence form: reserved = allocated + "reserved but unallocated" */
	{ 11, 1825361101, 6442450944, 3146063544, 0, 5615669739 },	/* "capacty" */
	{ 13, 33554432, 4294967296, 2770253906, 43578819, 2772246200 },
	{ 16, 23068672, 25393994138, 24588687770, 11597251, 24793023775 },
	{ 19, 24459838751, 33790655201, 9749575762, 13668733420, 19789061816 },
};

static void test_real_oom_eras(void **state)
{
	char path[4096];
	FILE *f;
	char *line = NULL;
	size_t size = 0, k = 0;
	ssize_t len;
	int64_t lineno = 0;

	(void)state;
	if (!real_path(path, sizeof(path), "cuda-oom-messages_by-pytorch-era.txt"))
		skip_without_shared();
	f = fopen(path, "r");
	assert_non_null(f);
	while ((len = getline(&line, &size, f)) >= 0) {
		struct run_oom o;

		lineno++;
		if (!trainlog_parse_oom(line, (size_t)len, &o))
			continue;
		assert_true(k < 7);
		assert_int_equal(lineno, oom_want[k].line);
		assert_int_equal(o.gpu, 0);
		assert_int_equal(o.tried_bytes, oom_want[k].tried);
		assert_int_equal(o.capacity_bytes, oom_want[k].capacity);
		assert_int_equal(o.allocated_bytes, oom_want[k].allocated);
		assert_int_equal(o.free_bytes, oom_want[k].free);
		assert_int_equal(o.reserved_bytes, oom_want[k].reserved);
		k++;
	}
	free(line);
	fclose(f);
	assert_int_equal(k, 7);	/* grep -c "Tried to allocate" */
}

static void test_real_oom_file(void **state)
{
	struct got g;
	const struct info *oom;

	(void)state;
	if (!load_real(&g, "cuda-oom-messages_by-pytorch-era.txt"))
		skip_without_shared();
	assert_string_equal(sval(g.train, "status"), "failed-oom");
	assert_null_member(g.train, "framework");
	assert_int_equal(g.r->status, RUN_FAILED_OOM);
	assert_int_equal(g.r->status_src.line, 2);
	assert_ptr_equal(g.r->status_src.file, g.f.path);
	oom = member(g.train, "oom");
	assert_int_equal(ival(oom, "line"), 2);
	assert_near(nval(oom, "tried_bytes"), 2426656522.0);
	assert_near(nval(oom, "capacity_bytes"), 6442450944.0);
	assert_near(nval(oom, "allocated_bytes"), 819556516.0);
	assert_near(nval(oom, "free_bytes"), 3253437727.0);
	assert_near(nval(oom, "reserved_bytes"), 1331439862.0);
	assert_int_equal(g.r->oom.capacity_bytes, 6442450944);
	assert_int_equal(ival(g.train, "steps"), 0);
	unload(&g);
}

static void test_oom_variants(void **state)
{
	static const char bare[] = "[rank1]: RuntimeError: CUDA error: out of memory";
	static const char code[] = "    except torch.OutOfMemoryError:";
	struct run_oom o;

	(void)state;
	assert_true(trainlog_parse_oom(bare, strlen(bare), &o));
	assert_int_equal(o.tried_bytes, -1);
	assert_int_equal(o.capacity_bytes, -1);
	assert_int_equal(o.gpu, -1);
	/* the source line of a traceback names the class: not a message */
	assert_false(trainlog_parse_oom(code, strlen(code), &o));
}

/* ---- hand-made logs -------------------------------------------------- */

static void test_megatron(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "megatron.log");
	assert_string_equal(sval(g.train, "framework"), "megatron");
	assert_string_equal(sval(g.train, "precision"), "bf16");
	assert_int_equal(ival(g.train, "global_batch"), 8);
	assert_int_equal(ival(g.train, "micro_batch"), 1);
	assert_int_equal(ival(g.train, "steps"), 3);
	assert_int_equal(g.r->log[1].step, 20);
	assert_near(g.r->log[1].step_time_s, 0.6597);
	assert_near(g.r->log[1].loss, 11.60216);
	assert_near(nval(g.train, "step_time_s_median"), 0.6613);
	assert_string_equal(sval(g.train, "status"), "completed");	/* iteration 30/30 */
	assert_int_equal(g.r->status_src.line, 12);
	/* samples/s = global batch 8 over each line's time; the first line left out */
	assert_near(g.r->log[0].samples_per_s, 8 / 0.7005);
	assert_near(nval(g.train, "samples_per_s"), (8 / 0.6597 + 8 / 0.6613) / 2);
	assert_string_equal(sval(g.train, "throughput_source"), "iterations");
	/* line 10: memory (MB) are MiB: max reserved 3000.0, max allocated 2345.6 */
	assert_int_equal(ival(g.train, "peak_memory_bytes"), 3000 * 1048576LL);
	assert_int_equal(g.r->log_reserved_peak, 3000 * 1048576LL);
	assert_int_equal(g.r->log_allocated_peak, llround(2345.6 * 1048576.0));
	unload(&g);

	load_data(&g, "neox.log");
	assert_int_equal(g.r->log[0].step, 20);
	assert_near(g.r->log[0].samples_per_s, 7.439);
	assert_near(g.r->log[0].loss, 11.18885);
	assert_string_equal(sval(g.train, "status"), "incomplete");	/* 20 of 10000 */
	unload(&g);
}

/*
 * Bare tqdm bars (hand-made in the Trainer's layout): it/s and s/it give the
 * step time; the shard loader's bar (a description before it) and the
 * evaluation bar (another total) are no steps; "0/250 ?it/s" has no rate.
 */
static void test_hf_tqdm(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "hf-tqdm.log");
	assert_string_equal(sval(g.train, "framework"), "hf-trainer");
	assert_int_equal(g.r->nlog, 7);	/* bars 1 to 6 and one log dict */
	assert_int_equal(g.r->log[0].step, 1);
	assert_near(g.r->log[0].step_time_s, 1.25);
	assert_int_equal(g.r->log[1].step, 2);
	assert_near(g.r->log[1].step_time_s, 1 / 1.36);
	assert_int_equal(g.r->log[3].step, -1);
	assert_near(g.r->log[3].loss, 2.4051);
	assert_int_equal(g.r->log[6].step, 6);
	assert_near(g.r->log[6].step_time_s, 1 / 1.82);
	/* 1.25 s and 1/1.36, 1/1.63, 1/1.75, 1/1.81, 1/1.82 s: the middle two */
	assert_near(nval(g.train, "step_time_s_median"), (1 / 1.75 + 1 / 1.63) / 2);
	assert_string_equal(sval(g.train, "status"), "completed");
	assert_null_member(g.train, "tflops");
	assert_null_member(g.train, "mfu");
	assert_false(g.r->log_tflops.set);
	unload(&g);
}

static void test_torchtitan(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "torchtitan.log");
	assert_string_equal(sval(g.train, "framework"), "torchtitan");
	assert_int_equal(ival(g.train, "steps"), 3);	/* rank 1's twin dropped */
	assert_int_equal(g.r->log[0].step, 100);
	assert_near(g.r->log[1].loss, 6.1384);
	assert_near(g.r->log[1].tokens_per_s, 5856);
	assert_int_equal(g.r->log[1].memory_bytes, (int64_t)llround(49.66 * 1073741824.0));
	assert_int_equal(g.r->log[2].step, 300);
	assert_near(g.r->log[2].tokens_per_s, 10050);
	/* tps of steps 100, 200, 300 (rank 0): the first left out */
	assert_near(nval(g.train, "tokens_per_s"), (5856 + 10050) / 2.0);
	assert_null_member(g.train, "samples_per_s");
	assert_string_equal(sval(g.train, "throughput_source"), "iterations");
	/* "memory: 66.91GiB(37.51%)" is the largest max-reserved figure */
	assert_int_equal(ival(g.train, "peak_memory_bytes"), llround(66.91 * 1073741824.0));
	assert_int_equal(g.r->log_reserved_peak, llround(66.91 * 1073741824.0));
	assert_int_equal(g.r->log_allocated_peak, 0);
	/* tps is one GPU's: a step is local batch 8 x sequence length 2048 / tps */
	assert_int_equal(g.r->logged.seq_len.v, 2048);
	assert_near(g.r->log[1].step_time_s, 8 * 2048 / 5856.0);
	assert_near(nval(g.train, "step_time_s_median"), 8 * 2048 / 5856.0);
	/* tflops and mfu of steps 200 and 300 (rank 0; the first left out), as facts of the run */
	assert_near(nval(g.train, "tflops"), (339.16 + 314.71) / 2);
	assert_near(nval(g.train, "mfu"), (34.29 + 13.99) / 2);
	assert_near(g.r->log_tflops.v, (339.16 + 314.71) / 2);
	assert_int_equal(g.r->log_tflops.src.line, 2);
	assert_near(g.r->log_mfu.v, (34.29 + 13.99) / 2);
	assert_string_equal(sval(g.train, "status"), "completed");
	/* the start line: local 8, global 64, accumulation 1, 300 steps */
	assert_int_equal(ival(g.train, "micro_batch"), 8);
	assert_int_equal(ival(g.train, "global_batch"), 64);
	assert_int_equal(ival(g.train, "grad_accum"), 1);
	assert_int_equal(g.r->logged.steps.v, 300);
	unload(&g);
}

/* DeepSpeed's config as JSON and as a Python dict: "fp16": {"enabled": true} */
static void test_deepspeed_json(void **state)
{
	static const char json[] =
		"[2024-01-01 10:00:00,000] [INFO] [config.py:1000:print]   json = "
		"{\"train_batch_size\": 32, \"train_micro_batch_size_per_gpu\": 16, "
		"\"fp16\": {\"enabled\": true, \"loss_scale\": 0}}\n";
	static const char dict[] =
		"ds_config = {'bf16': {'enabled': True}, 'fp16': {'enabled': False}}\n";
	struct got g;

	(void)state;
	load_text(&g, json, sizeof(json) - 1);
	assert_string_equal(sval(g.train, "precision"), "fp16");
	assert_int_equal(ival(g.train, "global_batch"), 32);
	assert_int_equal(ival(g.train, "micro_batch"), 16);
	unload(&g);
	load_text(&g, dict, sizeof(dict) - 1);
	assert_string_equal(sval(g.train, "precision"), "bf16");
	unload(&g);
}

static void assert_count(const struct fact_i64 *f, int64_t v, int64_t line, const char *key)
{
	assert_true(f->set);
	assert_int_equal(f->v, v);
	assert_int_equal(f->src.line, line);
	if (key)
		assert_string_equal(f->key, key);
	else
		assert_null(f->key);
}

static void assert_name(const struct fact_str *f, const char *v, int64_t line, const char *key)
{
	assert_string_equal(f->v, v);
	assert_int_equal(f->src.line, line);
	if (key)
		assert_string_equal(f->key, key);
	else
		assert_null(f->key);
}

/*
 * Megatron's start-up: the "using world size" line and the argument dump
 * give the parallel sizes, batch sizes, length, iterations and data path;
 * look-alike keys (encoder_seq_length, inference_max_seq_length,
 * expert_tensor_parallel_size, virtual_pipeline_model_parallel_size, the
 * encoder sizes of the first line) give nothing, so nothing conflicts.
 */
static void test_megatron_args(void **state)
{
	struct got g;
	const struct run_facts *f;

	(void)state;
	load_data(&g, "megatron-args.log");
	f = &g.r->logged;
	assert_string_equal(sval(g.train, "framework"), "megatron");
	assert_string_equal(sval(g.train, "precision"), "bf16");
	assert_count(&f->gpus, 8, 1, "world size");
	assert_count(&f->dp_size, 2, 1, "data-parallel size");
	assert_count(&f->pp_size, 2, 1, "pipeline-model-parallel size");
	assert_count(&f->tp_size, 2, 18, "tensor_model_parallel_size");	/* "Nonetensor-..." is no key */
	assert_count(&f->global_batch, 16, 12, "global_batch_size");
	assert_count(&f->micro_batch, 2, 15, "micro_batch_size");
	assert_count(&f->seq_len, 4096, 17, "seq_length");
	assert_count(&f->steps, 20, 19, "train_iters");
	assert_count(&f->grad_accum, 4, 23, "number of micro-batches");
	assert_name(&f->dataset, "data/fineweb-10BT-BPE_text_document", 6, "data_path");
	assert_null(f->model.v);
	assert_int_equal(g.t->diags.count, 0);
	unload(&g);
}

/* torchtitan's start-up lines: data set, model (twice, alike), batch sizes, length, steps. */
static void test_torchtitan_start(void **state)
{
	struct got g;
	const struct run_facts *f;

	(void)state;
	load_data(&g, "torchtitan-start.log");
	f = &g.r->logged;
	assert_string_equal(sval(g.train, "framework"), "torchtitan");
	assert_name(&f->dataset, "c4", 1, NULL);
	assert_name(&f->model, "llama3 8B", 2, NULL);	/* line 3, in colour, says the same */
	assert_count(&f->micro_batch, 2, 4, "local batch size");
	assert_count(&f->global_batch, 16, 4, "global batch size");
	assert_count(&f->grad_accum, 4, 4, "gradient accumulation steps");
	assert_count(&f->seq_len, 8192, 4, "sequence length");
	assert_count(&f->steps, 1000, 4, "total steps");
	assert_false(f->gpus.set);
	/* tps is one GPU's tokens: local batch 2 x 8192 / 5800 */
	assert_near(g.r->log[0].step_time_s, 2 * 8192 / 5800.0);
	assert_int_equal(g.t->diags.count, 0);
	unload(&g);
}

/*
 * HF scripts' model and data arguments, on a launcher's command line and in
 * the argument dataclasses' repr; lines that name a data set's size, a map
 * bar, a cache variable or Megatron's data_path None give no dataset, a
 * node's local world size no GPU count; a second name is a train-conflict.
 */
static void test_model_and_dataset_names(void **state)
{
	static const char args[] =
		"+ torchrun --nproc_per_node 2 run_clm.py --model_name_or_path gpt2 "
		"--dataset_name wikitext --dataset_config_name wikitext-2-raw-v1 "
		"--per_device_train_batch_size 8\n"
		"ModelArguments(model_name_or_path='gpt2', model_type=None, config_overrides=None)\n"
		"DataTrainingArguments(dataset_name='wikitext', dataset_config_name='wikitext-2-raw-v1', "
		"train_file=None)\n";
	static const char none[] =
		"  Total optimization steps = 10\n"
		"[Rank 0] Original dataset size: 36718\n"
		"Map: 100%|##########| 36718/36718 [00:01<00:00, 30000.00 examples/s]\n"
		"HF_DATASETS_CACHE: /tmp/hf_cache_1000\n"
		"  data_path ....................................... None\n"
		"Dataset: 100%|##########| 3/3 [00:00<00:00, 9.00it/s]\n"
		"Local World Size: 8, LOCAL_WORLD_SIZE=8\n";
	static const char two[] =
		"python train.py --dataset_name wikitext\n"
		"[titan] 2025-06-16 22:10:00,000 - root - INFO - Preparing c4 dataset from allenai/c4\n";
	struct got g;

	(void)state;
	load_text(&g, args, sizeof(args) - 1);
	assert_name(&g.r->logged.model, "gpt2", 1, "model_name_or_path");
	assert_name(&g.r->logged.dataset, "wikitext", 1, "dataset_name");
	assert_count(&g.r->logged.micro_batch, 8, 1, "per_device_train_batch_size");
	assert_int_equal(g.t->diags.count, 0);	/* lines 2 and 3 agree */
	unload(&g);
	load_text(&g, none, sizeof(none) - 1);
	assert_count(&g.r->logged.steps, 10, 1, "Total optimization steps");
	assert_null(g.r->logged.dataset.v);
	assert_null(g.r->logged.model.v);
	assert_false(g.r->logged.gpus.set);	/* one node's GPUs are not the job's */
	unload(&g);
	load_text(&g, two, sizeof(two) - 1);
	assert_name(&g.r->logged.dataset, "wikitext", 1, "dataset_name");
	assert_int_equal(count_code(&g.t->diags, "train-conflict"), 1);
	assert_string_equal(g.t->diags.items[0].message, "dataset c4 differs from wikitext read at line 1");
	unload(&g);
}

static void test_plain_and_traceback(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "plain.log");
	assert_string_equal(sval(g.train, "framework"), "plain");
	assert_string_equal(sval(g.train, "precision"), "fp16");	/* mixed_precision: fp16 */
	assert_int_equal(ival(g.train, "steps"), 3);	/* "step 4 done" has no metric */
	assert_near(g.r->log[0].step_time_s, 0.51);
	assert_near(g.r->log[1].step_time_s, 0.48);	/* 480ms */
	assert_near(g.r->log[1].tokens_per_s, 12000);
	assert_true(isnan(g.r->log[2].loss));
	assert_near(g.r->log[2].samples_per_s, 64.5);
	assert_near(nval(g.train, "step_time_s_median"), 0.5);
	assert_string_equal(sval(g.train, "status"), "failed");
	assert_int_equal(g.r->status_src.line, 10);	/* ValueError: bad batch */
	unload(&g);
}

static void test_deepspeed_timers(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "deepspeed.log");
	assert_string_equal(sval(g.train, "framework"), "deepspeed");
	assert_string_equal(sval(g.train, "precision"), "fp32");	/* bf16 and fp16 off */
	assert_int_equal(g.r->logged.precision.src.line, 2);
	assert_int_equal(ival(g.train, "global_batch"), 16);
	assert_int_equal(ival(g.train, "micro_batch"), 4);
	assert_int_equal(ival(g.train, "grad_accum"), 2);
	assert_int_equal(g.r->logged.gpus.v, 2);
	/* the config dump's keys, as a manifest-conflict quotes them */
	assert_string_equal(g.r->logged.global_batch.key, "train_batch_size");
	assert_string_equal(g.r->logged.micro_batch.key, "train_micro_batch_size_per_gpu");
	assert_string_equal(g.r->logged.grad_accum.key, "gradient_accumulation_steps");
	assert_string_equal(g.r->logged.gpus.key, "world_size");
	assert_int_equal(ival(g.train, "steps"), 2);
	assert_int_equal(g.r->log[1].step, 20);
	assert_near(g.r->log[1].samples_per_s, 7.99);
	assert_int_equal(g.r->log[1].memory_bytes, (int64_t)llround(63.50 * 1073741824.0));
	assert_near(nval(g.train, "samples_per_s"), (7.63 + 7.99) / 2);
	assert_string_equal(sval(g.train, "throughput_source"), "iterations");
	/* MaxMemAllocated=63.50GB, GB meaning 2^30 bytes; no reserved figure */
	assert_int_equal(ival(g.train, "peak_memory_bytes"), llround(63.50 * 1073741824.0));
	assert_int_equal(g.r->log_allocated_peak, llround(63.50 * 1073741824.0));
	assert_int_equal(g.r->log_reserved_peak, 0);
	unload(&g);
}

/*
 * The steady median leaves the first of three or more lines out; per-line
 * values win over the whole-job summary, which is used only without them.
 */
static void test_throughput_sources(void **state)
{
	static const char ds[] =
		"global_step=10, CurrSamplesPerSec=2.0, MaxMemAllocated=1.5GB\n"
		"global_step=20, CurrSamplesPerSec=8.0, MaxMemAllocated=2.5GB\n"
		"global_step=30, CurrSamplesPerSec=6.0, MaxMemAllocated=2.0GB\n"
		"global_step=40, CurrSamplesPerSec=7.0, MaxMemAllocated=2.0GB\n"
		"{'train_runtime': 50.0, 'train_samples_per_second': 3.0, "
		"'train_steps_per_second': 0.8, 'train_tokens_per_second': 4096.5}\n";
	static const char hf[] =
		"{'train_runtime': 50.0, 'train_samples_per_second': 3.0, "
		"'train_steps_per_second': 0.8, 'train_tokens_per_second': 4096.5}\n";
	struct got g;

	(void)state;
	load_text(&g, ds, sizeof(ds) - 1);
	assert_near(nval(g.train, "samples_per_s"), 7.0);	/* median of 8, 6, 7 */
	assert_null_member(g.train, "tokens_per_s");
	assert_string_equal(sval(g.train, "throughput_source"), "iterations");
	assert_int_equal(ival(g.train, "peak_memory_bytes"), llround(2.5 * 1073741824.0));
	assert_near(g.r->train_steps_per_s.v, 0.8);
	unload(&g);
	load_text(&g, hf, sizeof(hf) - 1);
	assert_near(nval(g.train, "samples_per_s"), 3.0);
	assert_near(nval(g.train, "tokens_per_s"), 4096.5);
	assert_string_equal(sval(g.train, "throughput_source"), "summary");
	assert_null_member(g.train, "peak_memory_bytes");
	unload(&g);
}

static void test_lightning_progress(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "lightning.log");
	assert_string_equal(sval(g.train, "precision"), "fp16");	/* precision='16-mixed' */
	/* 5/10 and 10/10 of epoch 0 (10/10 twice: one record), 10/10 of epoch 1 */
	assert_int_equal(ival(g.train, "steps"), 3);
	assert_int_equal(g.r->log[0].step, 5);
	assert_int_equal(g.r->log[2].step, 20);
	assert_near(g.r->log[0].step_time_s, 0.5);	/* 2.00it/s */
	assert_near(g.r->log[2].step_time_s, 2.5);	/* 2.50s/it */
	assert_near(g.r->log[2].loss, 0.7);
	assert_near(nval(g.train, "step_time_s_median"), 1 / 1.9);
	assert_string_equal(sval(g.train, "status"), "completed");
	unload(&g);
}

/* Two loaded logs gave the same step records. */
static void assert_same_steps(const struct run *a, const struct run *b)
{
	assert_int_equal(a->nlog, b->nlog);
	for (size_t i = 0; i < a->nlog; i++) {
		assert_int_equal(a->log[i].step, b->log[i].step);
		assert_true(a->log[i].loss == b->log[i].loss ||
			    (isnan(a->log[i].loss) && isnan(b->log[i].loss)));
		assert_true(a->log[i].step_time_s == b->log[i].step_time_s);
	}
}

static void test_crlf(void **state)
{
	struct got lf, crlf;

	(void)state;
	load_data(&lf, "hf.log");
	load_data(&crlf, "crlf.log");
	assert_int_equal(ival(lf.train, "steps"), 3);
	assert_int_equal(ival(lf.train, "global_batch"), 1024);	/* "1,024" */
	assert_int_equal(lf.r->logged.steps.v, 1196);
	assert_same_steps(lf.r, crlf.r);
	assert_int_equal(ival(crlf.train, "global_batch"), 1024);
	assert_int_equal(ival(crlf.train, "micro_batch"), 8);
	assert_int_equal(ival(crlf.train, "grad_accum"), 4);
	assert_string_equal(sval(crlf.train, "status"), "completed");
	assert_near(nval(crlf.train, "train_runtime_s"), 100.5);
	assert_near(nval(crlf.train, "samples_per_s"), 12.25);
	unload(&lf);
	unload(&crlf);
}

/* Progress updates split by "\r" read the same as one per line. */
static void test_cr_splits(void **state)
{
	struct got cr, nl;
	char path[4096];
	char *text;
	FILE *f;
	long n;

	(void)state;
	data_path(path, sizeof(path), "lightning.log");
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	assert_non_null(memchr(text, '\r', (size_t)n));
	load_text(&cr, text, (size_t)n);
	for (long i = 0; i < n; i++)
		if (text[i] == '\r')
			text[i] = '\n';
	load_text(&nl, text, (size_t)n);
	assert_int_equal(cr.r->nlog, 3);
	assert_same_steps(cr.r, nl.r);
	free(text);
	unload(&cr);
	unload(&nl);
}

static void test_truncated(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "truncated.log");
	/* three whole dicts, then "{'loss': 0.95, 'grad_no" without its end */
	assert_int_equal(ival(g.train, "steps"), 4);
	assert_near(g.r->log[3].loss, 0.95);
	/* the first dict stands behind the bar at step 10, short of the 1,196 planned */
	assert_int_equal(g.r->log[0].step, 10);
	assert_string_equal(sval(g.train, "status"), "incomplete");
	assert_null_member(g.train, "train_runtime_s");
	unload(&g);
}

static void test_noise(void **state)
{
	static const char head[] = "***** Running training *****\n"
				   "  Total train batch size (w. parallel, distributed & "
				   "accumulation) = 32\n";
	static const char tail[] = "{'loss': 2.5, 'epoch': 0.5}\n"
				   "{'train_runtime': 10.0, 'train_samples_per_second': 3.2}\n";
	size_t pad = 300 * 1024, n = 0;
	char *text = malloc(pad + 4096 + sizeof(head) + sizeof(tail));
	struct got g;

	(void)state;
	/* high bytes and control characters inside the sniffed head */
	load_data(&g, "noise.log");
	assert_int_equal(ival(g.train, "steps"), 4);
	assert_string_equal(sval(g.train, "status"), "completed");
	unload(&g);

	/* NUL bytes and random binary after a text head longer than sniffing reads */
	memcpy(text, head, sizeof(head) - 1);
	n = sizeof(head) - 1;
	while (n < pad) {
		memcpy(text + n, "{'loss': 1.0}\n", 14);
		n += 14;
	}
	srand(7);
	for (int i = 0; i < 4096; i++)
		text[n++] = (char)(rand() & 0xff);
	text[n++] = '\n';
	memcpy(text + n, tail, sizeof(tail) - 1);
	n += sizeof(tail) - 1;
	load_text(&g, text, n);
	assert_int_equal(ival(g.train, "global_batch"), 32);
	assert_true(ival(g.train, "steps") >= (int64_t)((pad - sizeof(head)) / 14) + 1);
	assert_near(g.r->log[g.r->nlog - 1].loss, 2.5);
	assert_string_equal(sval(g.train, "status"), "completed");
	free(text);
	unload(&g);
}

/* A 10 MB line of bait for every pattern: cut at 1 MiB, read in bounded time. */
static void test_long_line(void **state)
{
	static const char bait[] = "{'loss': 1.0, Total train batch size (w. Epoch 0: 5%| "
				   "step 1 iteration 3/ a.b.c.d global_step=1 CUDA out of memory ";
	static const char after[] = "\n{'loss': 2.0}\n{'loss': 3.0}\n";
	size_t big = 10 * 1000 * 1000, n = 0;
	char *text = malloc(big + sizeof(after));
	struct got g;
	time_t t0 = time(NULL);

	(void)state;
	while (n + sizeof(bait) - 1 <= big) {
		memcpy(text + n, bait, sizeof(bait) - 1);
		n += sizeof(bait) - 1;
	}
	memcpy(text + n, after, sizeof(after) - 1);
	n += sizeof(after) - 1;
	load_text(&g, text, n);
	assert_true(time(NULL) - t0 < 60);
	assert_int_equal(count_code(&g.t->diags, "long-line"), 1);
	/* one record from the cut line, then the two dicts after it */
	assert_int_equal(ival(g.train, "steps"), 3);
	assert_near(g.r->log[2].loss, 3.0);
	free(text);
	unload(&g);
}

static void test_not_training(void **state)
{
	struct got g;

	(void)state;
	load_data(&g, "nccl-only.log");
	assert_null(g.train);
	assert_int_equal(g.r->nlog, 0);
	assert_int_equal(g.r->status, RUN_UNKNOWN);
	unload(&g);
}

/* Numbers too large for the model are unknown, never wrapped or undefined. */
static void test_absurd_numbers(void **state)
{
	static const char text[] =
		"step 99999999999999999999999 loss 1.5 time 1e400\n"
		"step: 5  loss:  2.0  memory: 1e300GiB(1%)  tps: 1e999\n"
		"Total train batch size (w. parallel, distributed & accumulation) = "
		"123456789012345678901234567890\n"
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
		"99999999999999999999999 GiB. GPU 99999999999 has a total capacity of 1.00 GiB "
		"of which 0 bytes is free.\n";
	struct got g;

	(void)state;
	load_text(&g, text, sizeof(text) - 1);
	assert_int_equal(g.r->nlog, 2);
	assert_int_equal(g.r->log[0].step, -1);
	assert_near(g.r->log[0].loss, 1.5);
	assert_true(g.r->log[0].step_time_s < 0);
	assert_int_equal(g.r->log[1].step, 5);
	assert_int_equal(g.r->log[1].memory_bytes, -1);
	assert_true(g.r->log[1].tokens_per_s < 0);
	assert_null_member(g.train, "global_batch");
	assert_int_equal(g.r->oom.tried_bytes, -1);
	assert_int_equal(g.r->oom.gpu, -1);
	assert_int_equal(g.r->oom.capacity_bytes, 1073741824);
	assert_int_equal(g.r->oom.free_bytes, 0);
	unload(&g);
}

/* ---- users' patterns ------------------------------------------------- */

static void test_patterns(void **state)
{
	struct diags d = DIAGS_INIT;
	struct buf msg = BUF_INIT;
	char good[4096], bad[4096];
	struct got g;

	(void)state;
	data_path(good, sizeof(good), "good.pat");
	data_path(bad, sizeof(bad), "bad.pat");
	load_data(&g, "custom.log");
	assert_null(g.train);		/* nothing it knows without the patterns */
	unload(&g);

	assert_int_equal(trainlog_load_patterns(good, &d), 0);
	assert_int_equal(d.count, 0);
	load_data(&g, "custom.log");
	assert_string_equal(sval(g.train, "framework"), "plain");
	assert_int_equal(ival(g.train, "steps"), 3);
	assert_int_equal(g.r->log[1].step, 2);
	assert_near(g.r->log[1].step_time_s, 0.35);
	assert_near(g.r->log[1].loss, 3.25);
	assert_near(nval(g.train, "step_time_s_median"), 0.30);
	assert_int_equal(ival(g.train, "global_batch"), 64);
	assert_string_equal(sval(g.train, "precision"), "bf16");
	/* a memory group alone: no step record, but the file's peak */
	assert_int_equal(ival(g.train, "peak_memory_bytes"), llround(2048.5 * 1048576.0));
	unload(&g);

	/* a bad file is refused whole, each bad line named; the good patterns stay */
	assert_int_equal(trainlog_load_patterns(bad, &d), -1);
	assert_int_equal(d.count, 2);
	buf_init(&msg, 0);
	diag_format(&d.items[0], &msg);
	buf_addch(&msg, '\n');
	diag_format(&d.items[1], &msg);
	{
		char *want = NULL;
		size_t size = 0;
		FILE *w = open_memstream(&want, &size);

		fprintf(w, "%s:3: bad pattern: missing closing parenthesis at offset 19\n"
			"%s:4: bad pattern: no named group scaleaudit reads (step, step_time, "
			"loss, samples_per_s, tokens_per_s, memory_gib, global_batch, "
			"micro_batch, grad_accum, precision)", bad, bad);
		fclose(w);
		assert_string_equal(msg.data, want);
		free(want);
	}
	load_data(&g, "custom.log");
	assert_int_equal(ival(g.train, "steps"), 3);
	unload(&g);

	diags_release(&d);
	d = (struct diags)DIAGS_INIT;
	assert_int_equal(trainlog_load_patterns("/nonexistent/p.pat", &d), -1);
	assert_int_equal(d.count, 1);
	buf_reset(&msg);
	diag_format(&d.items[0], &msg);
	assert_string_equal(msg.data, "/nonexistent/p.pat: No such file or directory");

	trainlog_clear_patterns();
	load_data(&g, "custom.log");
	assert_null(g.train);
	unload(&g);
	buf_release(&msg);
	diags_release(&d);
}

/* ---- checkpoint saves ------------------------------------------------ */

/* The saves the run holds: count, timed ones, and each time against want[] (-1 untimed). */
static void assert_saves(const struct run *r, const double *want, size_t n)
{
	assert_int_equal(r->nckpt, n);
	for (size_t i = 0; i < n; i++) {
		if (want[i] < 0)
			assert_true(r->ckpt[i].write_s < 0);
		else
			assert_near(r->ckpt[i].write_s, want[i]);
	}
}

/*
 * Megatron-LM (core 0.x, the 2024-2025 layout): save_checkpoint_and_time()
 * logs the `save-checkpoint` timer after each save, the slowest rank's time
 * last, in ms; `--timing-log-option max` prints the max alone.
 */
static void test_checkpoint_megatron(void **state)
{
	static const double want[] = { 4.58791, 5.12040, 4.8 };
	struct got g;

	(void)state;
	load_data(&g, "megatron-ckpt.log");
	assert_saves(g.r, want, 3);
	/* each save at its "saving checkpoint at iteration" line */
	assert_int_equal(g.r->ckpt[0].src.line, 3);
	assert_ptr_equal(g.r->ckpt[0].src.file, g.f.path);
	assert_int_equal(g.r->ckpt[1].src.line, 8);
	assert_int_equal(g.r->ckpt[2].src.line, 13);
	assert_int_equal(g.r->nlog, 4);	/* the timer lines are no steps */
	assert_int_equal(g.t->diags.count, 0);
	unload(&g);
}

/*
 * DeepSpeed 0.14 (engine.save_checkpoint with the torch checkpoint engine,
 * default logger format): nothing prints a duration, so a save is timed from
 * "Checkpoint TAG is about to be saved!" to the last line that ends a part of
 * it ("is ready now!"): 12:00:12.750 - 12:00:00.500, and across midnight
 * 00:00:09.500 - 23:59:58.000.
 */
static void test_checkpoint_deepspeed(void **state)
{
	static const double want[] = { 12.25, 11.5 };
	struct got g;

	(void)state;
	load_data(&g, "deepspeed-ckpt.log");
	assert_saves(g.r, want, 2);
	assert_int_equal(g.r->ckpt[0].src.line, 2);
	assert_int_equal(g.r->ckpt[1].src.line, 11);
	assert_int_equal(g.r->nlog, 3);
	assert_int_equal(g.t->diags.count, 0);
	unload(&g);
}

/*
 * Hugging Face Trainer (transformers 4.4x, the example scripts' logging
 * format): "Saving model checkpoint to DIR" begins a save, and nothing says
 * when the optimizer state that follows the weights is written. Two saves,
 * neither timed: unknown, never the gap to the weights' line.
 */
static void test_checkpoint_hf_untimed(void **state)
{
	static const double want[] = { -1, -1 };
	struct got g;

	(void)state;
	load_data(&g, "hf-ckpt.log");
	assert_saves(g.r, want, 2);
	assert_int_equal(g.r->ckpt[0].src.line, 4);
	assert_int_equal(g.r->ckpt[1].src.line, 8);
	assert_string_equal(sval(g.train, "framework"), "hf-trainer");
	unload(&g);
}

/*
 * torchtitan (2025, CheckpointManager.save): the duration it prints, rank
 * 0's; rank 1's lines of the same save, printed after rank 0's end, add
 * none. Both spellings: with the
 * async note glued to "in", and the plain one of earlier releases.
 */
static void test_checkpoint_torchtitan(void **state)
{
	static const double want[] = { 5.53, 6.21 };
	struct got g;

	(void)state;
	load_data(&g, "torchtitan-ckpt.log");
	assert_saves(g.r, want, 2);
	assert_int_equal(g.r->ckpt[0].src.line, 3);
	assert_int_equal(g.r->ckpt[1].src.line, 8);
	unload(&g);
}

/*
 * Edge cases: the HF Trainer under DeepSpeed (the Trainer's line opens the
 * save, DeepSpeed's commit ends it: 12:00:30.250 - 12:00:00.000); the
 * timer line of Megatron-LM releases before 2022 and of GPT-NeoX; a timer
 * line cut short (a save, untimed, and no message: the reader warns about
 * no malformed training line); an end with no beginning (nothing); a save
 * whose lines carry no time (untimed).
 */
static void test_checkpoint_edges(void **state)
{
	static const char text[] =
		"2024-06-01 12:00:00,000 - INFO - transformers.trainer - Saving model checkpoint to out/checkpoint-10\n"
		"2024-06-01 12:00:00,100 - INFO - Model weights saved in out/checkpoint-10/model.safetensors\n"
		"[2024-06-01 12:00:01,000] [INFO] [logging.py:96:log_dist] [Rank 0] [Torch] Checkpoint global_step10 is about to be saved!\n"
		"[2024-06-01 12:00:30,250] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint global_step10 is ready now!\n"
		"step 11 loss 2.5 time 0.5\n"
		"saving checkpoint at iteration      20 to /ckpt\n"
		"time (ms) | save-checkpoint: 2500.00\n"
		"step 21 loss 2.4 time 0.5\n"
		"saving checkpoint at iteration      30 to /ckpt\n"
		"(min, max) time across ranks (ms):\n"
		"    save-checkpoint ................................: (4512.33, \n"
		"step 31 loss 2.3 time 0.5\n"
		"[2024-06-01 12:10:00,000] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint global_step31 is ready now!\n"
		"step 32 loss 2.2 time 0.5\n"
		"[Rank 0] [Torch] Checkpoint global_step40 is about to be saved!\n"
		"[Rank 0] [Torch] Checkpoint global_step40 is ready now!\n";
	static const double want[] = { 30.25, 2.5, -1, -1 };
	struct got g;

	(void)state;
	load_text(&g, text, sizeof(text) - 1);
	assert_saves(g.r, want, 4);
	assert_int_equal(g.r->ckpt[0].src.line, 1);
	assert_int_equal(g.r->ckpt[1].src.line, 6);
	assert_int_equal(g.r->ckpt[2].src.line, 9);
	assert_int_equal(g.r->ckpt[3].src.line, 15);
	assert_int_equal(g.r->nlog, 4);
	assert_int_equal(g.t->diags.count, 0);
	unload(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_hf_deepspeed_2nodes),
		cmocka_unit_test(test_real_hf_running_blocks),
		cmocka_unit_test(test_real_hf_rank_prefixed),
		cmocka_unit_test(test_real_deepspeed_config),
		cmocka_unit_test(test_real_lightning),
		cmocka_unit_test(test_real_oom_eras),
		cmocka_unit_test(test_real_oom_file),
		cmocka_unit_test(test_oom_variants),
		cmocka_unit_test(test_megatron),
		cmocka_unit_test(test_torchtitan),
		cmocka_unit_test(test_hf_tqdm),
		cmocka_unit_test(test_plain_and_traceback),
		cmocka_unit_test(test_deepspeed_timers),
		cmocka_unit_test(test_deepspeed_json),
		cmocka_unit_test(test_megatron_args),
		cmocka_unit_test(test_torchtitan_start),
		cmocka_unit_test(test_model_and_dataset_names),
		cmocka_unit_test(test_throughput_sources),
		cmocka_unit_test(test_lightning_progress),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_cr_splits),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_not_training),
		cmocka_unit_test(test_absurd_numbers),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_checkpoint_megatron),
		cmocka_unit_test(test_checkpoint_deepspeed),
		cmocka_unit_test(test_checkpoint_hf_untimed),
		cmocka_unit_test(test_checkpoint_torchtitan),
		cmocka_unit_test(test_checkpoint_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
