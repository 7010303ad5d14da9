#include "samples/gen/logs.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "samples/gen/kineto.h"
#include "samples/gen/rng.h"

#define MIB (1024LL * 1024)
#define HOST "gpu-node-07"

/* "2025-11-29 14:00:41,123" (sep '-', ',') or "2025/11/29 14:00:41.123". */
static void put_date(struct buf *b, int64_t unix_ns, int slash)
{
	time_t s = (time_t)(unix_ns / 1000000000);
	struct tm tm;

	gmtime_r(&s, &tm);
	buf_addf(b, slash ? "%04d/%02d/%02d %02d:%02d:%02d.%03d" : "%04d-%02d-%02d %02d:%02d:%02d,%03d",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (int)(unix_ns / 1000000 % 1000));
}

static void hf_line(struct buf *b, int64_t t, int line, const char *text)
{
	buf_addf(b, "[INFO|trainer.py:%d] ", line);
	put_date(b, t, 0);
	buf_addf(b, " >> %s\n", text);
}

static void nccl(struct buf *b, const struct sim_run *run, int r, int tid_off, const char *msg)
{
	int pid = kineto_pid(run, r);

	buf_addf(b, "%s:%d:%d [%d] NCCL INFO %s\n", HOST, pid, pid + tid_off, r, msg);
}

/* PCI bus of each GPU (nvidia-smi's pci.bus_id and NCCL's busId). */
static const int bus_ids[MAX_RANKS] = { 0x18, 0x2a, 0x3a, 0x5d };

/* The per-channel connection lines of the ring: P2P, or NET/Socket both ways. */
static void nccl_channels(struct buf *b, const struct sim_run *run, int r)
{
	int n = run->nranks, next = (r + 1) % n, prev = (r + n - 1) % n;
	char line[160];

	for (int ch = 0; ch < 2; ch++) {
		if (run->spec->tr == TR_SOCKET) {
			snprintf(line, sizeof(line), "Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/Socket/0", ch, r, r, next, next);
			nccl(b, run, r, 74, line);
			snprintf(line, sizeof(line), "Channel %02d/0 : %d[%d] -> %d[%d] [receive] via NET/Socket/0", ch, prev, prev, r, r);
		} else {
			snprintf(line, sizeof(line), "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read", ch, r, r, next, next);
		}
		nccl(b, run, r, 74, line);
	}
}

/* "Channel 00/02 :    0   1" (rank 0 prints the ring once per channel). */
static void nccl_rings(struct buf *b, const struct sim_run *run)
{
	char line[96];

	for (int ch = 0; ch < 2; ch++) {
		int o = snprintf(line, sizeof(line), "Channel %02d/02 :", ch);

		for (int k = 0; k < run->nranks; k++)
			o += snprintf(line + o, sizeof(line) - (size_t)o, k ? "%4d" : "%5d", k);
		nccl(b, run, 0, 71, line);
	}
}

/* NCCL's chain tree "child/-1/-1->rank->parent" for both trees. */
static void nccl_trees(struct buf *b, const struct sim_run *run, int r)
{
	char tree[48], line[128];

	snprintf(tree, sizeof(tree), "%d/-1/-1->%d->%d", r + 1 < run->nranks ? r + 1 : -1, r, r - 1);
	snprintf(line, sizeof(line), "Trees [0] %s [1] %s", tree, tree);
	nccl(b, run, r, 71, line);
}

static void nccl_rank(struct buf *b, const struct sim_run *run, int r)
{
	int sock = run->spec->tr == TR_SOCKET, n = run->nranks;
	char line[256];
	int busid = bus_ids[r] << 12;
	unsigned long long comm = 0x55d4c3a1e2b0ULL + 0x1000ULL * (unsigned)r;

	if (r == 0)
		nccl(b, run, r, 0, "NCCL version 2.26.2+cuda12.8");
	nccl(b, run, r, 0, "cudaDriverVersion 12080");
	if (sock) {
		nccl(b, run, r, 0, "NCCL_P2P_DISABLE set by environment to 1");
		nccl(b, run, r, 0, "NCCL_SHM_DISABLE set by environment to 1");
	}
	nccl(b, run, r, 0, "Bootstrap: Using eth0:10.128.0.12<0>");
	nccl(b, run, r, 71, "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.");
	nccl(b, run, r, 71, "NET/IB : No device found.");
	nccl(b, run, r, 71, "NET/Socket : Using [0]eth0:10.128.0.12<0>");
	nccl(b, run, r, 71, "Using network Socket");
	snprintf(line, sizeof(line), "ncclCommInitRankConfig comm 0x%llx rank %d nranks %d cudaDev %d nvmlDev %d busId %x commId 0x7e3f1a2b9c4d5e60 - Init START",
		 comm, r, n, r, r, busid);
	nccl(b, run, r, 71, line);
	snprintf(line, sizeof(line), "comm 0x%llx rank %d nRanks %d nNodes 1 localRanks %d localRank %d MNNVL 0", comm, r, n, n, r);
	nccl(b, run, r, 71, line);
	if (r == 0)
		nccl_rings(b, run);
	nccl_trees(b, run, r);
	nccl(b, run, r, 71, "P2P Chunksize set to 524288");
	nccl_channels(b, run, r);
	nccl(b, run, r, 71, "Connected all rings, use ring PXN 0 GDR 1");
	nccl(b, run, r, 71, "Connected all trees");
	nccl(b, run, r, 71, sock ? "2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer"
				      : "32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer");
	snprintf(line, sizeof(line), "ncclCommInitRankConfig comm 0x%llx rank %d nranks %d cudaDev %d nvmlDev %d busId %x commId 0x7e3f1a2b9c4d5e60 - Init COMPLETE",
		 comm, r, n, r, r, busid);
	nccl(b, run, r, 71, line);
	snprintf(line, sizeof(line), "Init timings - ncclCommInitRankConfig: rank %d nranks %d total 0.41 (kernels 0.19, alloc 0.01, bootstrap 0.01, allgathers 0.00, topo 0.08, graphs 0.00, connections 0.11, rest 0.01)", r, n);
	nccl(b, run, r, 71, line);
}

/* v with a comma every three digits ("1,200,417,536"), into out. */
static const char *thousands(char *out, size_t n, int64_t v)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%lld", (long long)v);
	size_t o = 0;

	for (int i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	return out;
}

/* The model's parameters as a trainer counts them. */
static int64_t params_count(const struct run_spec *s)
{
	return (int64_t)s->params_m * 1000000 + 417536;
}

static void train_header(struct buf *b, const struct sim_run *run, int64_t t)
{
	const struct run_spec *s = run->spec;
	char line[160], num[32];

	hf_line(b, t, 2414, "***** Running training *****");
	snprintf(line, sizeof(line), "  Num examples = %d,%03d", s->global_batch * 500 / 1000, s->global_batch * 500 % 1000);
	hf_line(b, t, 2415, line);
	hf_line(b, t, 2416, "  Num Epochs = 1");
	snprintf(line, sizeof(line), "  Instantaneous batch size per device = %d", s->micro_batch);
	hf_line(b, t, 2417, line);
	snprintf(line, sizeof(line), "  Total train batch size (w. parallel, distributed & accumulation) = %d", s->global_batch);
	hf_line(b, t, 2420, line);
	snprintf(line, sizeof(line), "  Gradient Accumulation steps = %d", s->grad_accum);
	hf_line(b, t, 2421, line);
	hf_line(b, t, 2422, "  Total optimization steps = 500");
	snprintf(line, sizeof(line), "  Number of trainable parameters = %s", thousands(num, sizeof(num), params_count(s)));
	hf_line(b, t, 2423, line);
}

static void train_oom(struct buf *b, const struct sim_run *run)
{
	const struct gpu_spec *g = run->gpu;
	long long cap_c = g->mem * 100 / (1024LL * MIB);	/* GiB, centi */

	buf_addstr(b, "  0%|          | 0/500 [00:00<?, ?it/s]Traceback (most recent call last):\n"
		   "  File \"/workspace/train.py\", line 142, in <module>\n    trainer.train()\n"
		   "  File \"/usr/local/lib/python3.11/site-packages/transformers/trainer.py\", line 2245, in train\n"
		   "    return inner_training_loop(\n"
		   "  File \"/usr/local/lib/python3.11/site-packages/transformers/trainer.py\", line 2560, in _inner_training_loop\n"
		   "    tr_loss_step = self.training_step(model, inputs, num_items_in_batch)\n"
		   "  File \"/usr/local/lib/python3.11/site-packages/torch/autograd/graph.py\", line 825, in _engine_run_backward\n"
		   "    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n");
	buf_addf(b, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate %d.%02d GiB. GPU 0 has a total capacity of "
		 "%lld.%02lld GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has %lld.%02lld GiB "
		 "memory in use. Of the allocated memory 74.61 GiB is allocated by PyTorch, and 2.87 GiB is reserved by "
		 "PyTorch but unallocated. If reserved but unallocated memory is large try setting "
		 "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
		 "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n",
		 LOGS_OOM_ALLOC_MIB / 1024, LOGS_OOM_ALLOC_MIB % 1024 * 100 / 1024,
		 cap_c / 100, cap_c % 100, (cap_c - 102) / 100, (cap_c - 102) % 100);
}

static void train_steps(struct buf *b, const struct sim_run *run)
{
	const struct run_spec *s = run->spec;
	struct rng rng;
	int64_t loss = 2412;	/* milli */

	rng_seed(&rng, run->sc->seed ^ 0x10ccULL);
	for (int i = 0; i < s->steps; i++) {
		int step = s->first_step + i + 1;
		int64_t digit, norm;

		/* one draw per statement: argument evaluation order is unspecified */
		loss -= rng_range(&rng, 2, 30);
		digit = rng_range(&rng, 0, 9);
		norm = rng_range(&rng, 3000, 9999);
		buf_addf(b, "{'loss': %lld.%04lld, 'grad_norm': 0.%04lld, 'learning_rate': %d.%de-05, 'epoch': 0.%02d}\n",
			 (long long)(loss / 1000), (long long)(loss % 1000 * 10 + digit),
			 (long long)norm, 1 + step / 300, 9 - step % 10, step / 5 % 100);
	}
}

/* The ProfilerStep range of step i on rank r: [*a, *b) on the true clock. */
static void step_range(const struct sim_run *run, int r, int i, int64_t *a, int64_t *b)
{
	const struct sim_rank *k = &run->rank[r];

	*a = *b = 0;
	for (size_t j = 0; j < k->nspan; j++)
		if (k->span[j].step == i && !strcmp(k->span[j].name, "ProfilerStep")) {
			*a = k->span[j].start;
			*b = k->span[j].end;
		}
}

int64_t logs_iteration_tenths_ms(const struct sim_run *run, int i)
{
	int64_t longest = 0, a, b;

	for (int r = 0; r < run->nranks; r++) {
		step_range(run, r, i, &a, &b);
		if (b - a > longest)
			longest = b - a;
	}
	return (longest + 50000) / 100000;
}

/* "[2025-11-29 14:00:41]" as Python's strftime('%Y-%m-%d %H:%M:%S') prints it. */
static void put_stamp(struct buf *b, int64_t unix_ns)
{
	time_t s = (time_t)(unix_ns / 1000000000);
	struct tm tm;

	gmtime_r(&s, &tm);
	buf_addf(b, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* One line of Megatron-LM's argument dump: name, dots to column 50, value. */
static void megatron_arg(struct buf *b, const char *name, const char *value)
{
	buf_addf(b, "  %s %.*s %s\n", name, (int)(48 - strlen(name)),
		 "................................................", value);
}

static void megatron_args(struct buf *b, const struct sim_run *run)
{
	const struct run_spec *s = run->spec;
	char v[32];

	buf_addf(b, "using world size: %d, data-parallel size: %d, context-parallel size: 1, "
		 "tensor-model-parallel size: 1, pipeline-model-parallel size: 1\n", s->gpus, s->gpus);
	buf_addstr(b, "------------------------ arguments ------------------------\n");
	megatron_arg(b, "bf16", s->prec == DT_BF16 ? "True" : "False");
	snprintf(v, sizeof(v), "%d", s->gpus);
	megatron_arg(b, "data_parallel_size", v);
	megatron_arg(b, "data_path", "['/data/wikitext-103/wikitext-103_text_document']");
	megatron_arg(b, "ffn_hidden_size", "8192");
	megatron_arg(b, "fp16", "False");
	snprintf(v, sizeof(v), "%d", s->global_batch);
	megatron_arg(b, "global_batch_size", v);
	megatron_arg(b, "hidden_size", "2048");
	megatron_arg(b, "log_interval", "1");
	snprintf(v, sizeof(v), "%d", s->micro_batch);
	megatron_arg(b, "micro_batch_size", v);
	megatron_arg(b, "num_attention_heads", "16");
	megatron_arg(b, "num_layers", "16");
	megatron_arg(b, "params_dtype", s->prec == DT_BF16 ? "torch.bfloat16" : "torch.float32");
	snprintf(v, sizeof(v), "%d", s->seq_len);
	megatron_arg(b, "seq_length", v);
	megatron_arg(b, "tensor_model_parallel_size", "1");
	snprintf(v, sizeof(v), "%d", s->steps);
	megatron_arg(b, "train_iters", v);
	snprintf(v, sizeof(v), "%d", s->gpus);
	megatron_arg(b, "world_size", v);
	buf_addstr(b, "-------------------- end of arguments ---------------------\n");
}

/* report_memory() after the first iteration: rank 0's allocator, MB = MiB. */
static void megatron_memory(struct buf *b, const struct sim_run *run)
{
	static const char *const keys[] = { "allocated", "max allocated", "reserved", "max reserved" };
	const struct sim_rank *k = &run->rank[0];
	int64_t v[4] = { k->alloc, k->peak_alloc, k->reserved, k->peak_reserved };

	buf_addstr(b, "[Rank 0] (after 1 iterations) memory (MB)");
	for (int i = 0; i < 4; i++) {
		int64_t tenths = v[i] * 10 / MIB;

		buf_addf(b, " | %s: %lld.%lld", keys[i], (long long)(tenths / 10), (long long)(tenths % 10));
	}
	buf_addch(b, '\n');
}

/* One iteration line per step (log_interval 1), as training_log() prints it. */
static void megatron_iterations(struct buf *b, const struct sim_run *run)
{
	const struct run_spec *s = run->spec;
	struct rng rng;
	int64_t loss = 1089412;	/* lm loss, 1e-5 units: stays in [10, 11) */

	rng_seed(&rng, run->sc->seed ^ 0x3e9aULL);
	for (int i = 0; i < s->steps; i++) {
		int64_t tenths = logs_iteration_tenths_ms(run, i), a, e, norm;
		int64_t lr = 1000000 + 41667 * (i + 1);

		step_range(run, 0, i, &a, &e);
		loss -= rng_range(&rng, 200, 6000);
		norm = rng_range(&rng, 3000, 9999);
		buf_addstr(b, " [");
		put_stamp(b, run->epoch_ns + e);
		buf_addf(b, "] iteration %8d/%8d | consumed samples: %12lld | elapsed time per iteration (ms): %lld.%lld | "
			 "learning rate: %lld.%06lldE-05 | global batch size: %5d | lm loss: %lld.%06lldE+01 | loss scale: 1.0 | "
			 "grad norm: %lld.%03lld | number of skipped iterations:   0 | number of nan iterations:   0 |\n",
			 i + 1, s->steps, (long long)(i + 1) * s->global_batch, (long long)(tenths / 10), (long long)(tenths % 10),
			 (long long)(lr / 1000000), (long long)(lr % 1000000), s->global_batch,
			 (long long)(loss / 1000000), (long long)(loss % 1000000), (long long)(norm / 1000), (long long)(norm % 1000));
		if (i == 0)
			megatron_memory(b, run);
	}
}

/* Megatron-LM's stdout: world size, the argument dump, start-up, one line per iteration. */
static void megatron_log(struct buf *b, const struct sim_run *run)
{
	megatron_args(b, run);
	buf_addf(b, "> building GPT model ...\n > number of parameters on (tensor, pipeline) model parallel rank (0, 0): %lld\n",
		 (long long)params_count(run->spec));
	buf_addstr(b, "[after model, optimizer, and learning rate scheduler are built] datetime: ");
	put_stamp(b, run->job_start_ns + 31 * NS_PER_S);
	buf_addstr(b, " \n> building train, validation, and test datasets ...\n[after dataloaders are built] datetime: ");
	put_stamp(b, run->job_start_ns + 39 * NS_PER_S);
	buf_addstr(b, " \ntraining ...\n[before the start of training step] datetime: ");
	put_stamp(b, run->epoch_ns);
	buf_addstr(b, " \n");
	megatron_iterations(b, run);
	buf_addstr(b, "[after training is done] datetime: ");
	put_stamp(b, run->epoch_ns + run->t_end + NS_PER_S);
	buf_addstr(b, " \n");
}

void logs_train(struct buf *b, const struct sim_run *run)
{
	const struct run_spec *s = run->spec;
	int64_t t = run->job_start_ns;
	int64_t runtime_ms = (run->epoch_ns + run->t_end - run->job_start_ns) / 1000000 + 900;

	if (s->gpus > 1) {
		buf_addf(b, "W1129 torch/distributed/run.py:793] \nW1129 torch/distributed/run.py:793] *****************************************\n"
			 "W1129 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, "
			 "to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. \n"
			 "W1129 torch/distributed/run.py:793] *****************************************\n");
		for (int r = 0; r < s->gpus; r++)
			nccl_rank(b, run, r);
	}
	if (s->logs_only) {
		megatron_log(b, run);
		return;
	}
	train_header(b, run, t + 38 * 1000000000LL + 412000000);
	if (s->oom) {
		train_oom(b, run);
		return;
	}
	train_steps(b, run);
	buf_addf(b, "{'train_runtime': %lld.%03lld, 'train_samples_per_second': %lld.%03lld, 'train_steps_per_second': %lld.%03lld, "
		 "'train_loss': 2.3317, 'epoch': 0.02}\n",
		 (long long)(runtime_ms / 1000), (long long)(runtime_ms % 1000),
		 (long long)((int64_t)s->steps * s->global_batch * 1000 / runtime_ms),
		 (long long)((int64_t)s->steps * s->global_batch * 1000000 / runtime_ms % 1000),
		 (long long)((int64_t)s->steps * 1000 / runtime_ms), (long long)((int64_t)s->steps * 1000000 / runtime_ms % 1000));
}

/* Percent of the run's window the GPU had work (for utilization.gpu). */
static int util_pct(const struct sim_run *run, int r)
{
	const struct sim_rank *k = &run->rank[r];
	int64_t busy = 0;

	if (run->t_end <= 0)
		return 0;
	for (size_t i = 0; i < k->nev; i++)
		if (k->ev[i].stream == STREAM_COMPUTE)
			busy += k->ev[i].end - k->ev[i].start;
	busy = busy * 100 / run->t_end;
	return busy > 100 ? 100 : (int)busy;
}

#define SMI_FIRST (-32 * NS_PER_S)
#define SMI_PERIOD (500 * NS_PER_MS)
#define SMI_SKEW 1700000	/* ns between the rows of two GPUs in one sample */

int64_t logs_smi_peak_mib(const struct sim_run *run, int r)
{
	int64_t peak = 0;

	for (int64_t t = SMI_FIRST; t <= run->t_end + 2 * NS_PER_S; t += SMI_PERIOD) {
		int64_t v = sim_smi_used_mib(run, r, t + r * SMI_SKEW);

		if (v > peak)
			peak = v;
	}
	return peak;
}

void logs_nvidia_smi(struct buf *b, const struct sim_run *run)
{
	const struct gpu_spec *g = run->gpu;
	int util[MAX_RANKS] = { 0 };

	for (int r = 0; r < run->nranks; r++)
		util[r] = run->spec->oom ? 97 : util_pct(run, r);
	buf_addstr(b, "timestamp, index, name, pci.bus_id, utilization.gpu [%], memory.total [MiB], memory.used [MiB], power.draw [W]\n");
	for (int64_t t = SMI_FIRST; t <= run->t_end + 2 * NS_PER_S; t += SMI_PERIOD) {
		for (int r = 0; r < run->nranks; r++) {
			int64_t ts = run->epoch_ns + t + r * SMI_SKEW;
			int live = t >= 0 && t <= run->t_end;
			int u = live ? util[r] : 0;
			int64_t cw = 9000 + (int64_t)u * (g->power_w * 100 - 9000) / 100;

			put_date(b, ts, 1);
			buf_addf(b, ", %d, %s, 00000000:%02X:00.0, %d %%, %lld MiB, %lld MiB, %lld.%02lld W\n",
				 r, g->name, bus_ids[r], u, (long long)(g->mem / MIB),
				 (long long)sim_smi_used_mib(run, r, t + r * SMI_SKEW), (long long)(cw / 100), (long long)(cw % 100));
		}
	}
}

void logs_run_ini(struct buf *b, const struct sim_run *run)
{
	const struct run_spec *s = run->spec;

	buf_addf(b, "[run]\nname = %s\ngpus = %d\nstrategy = %s\n", s->dir, s->gpus, s->strategy);
	if (!s->undeclared)
		buf_addf(b, "precision = %s\n", s->declared ? s->declared : dtype_name(s->prec));
	buf_addf(b, "global_batch = %d\nmicro_batch = %d\ngrad_accum = %d\n",
		 s->ini_global_batch ? s->ini_global_batch : s->global_batch,
		 s->ini_micro_batch ? s->ini_micro_batch : s->micro_batch, s->grad_accum);
	if (s->seq_len)
		buf_addf(b, "seq_len = %d\n", s->seq_len);
	if (!s->no_dataset)
		buf_addstr(b, "dataset = wikitext-103\n");
}

void logs_trial_ini(struct buf *b, const struct scenario *sc)
{
	buf_addf(b, "[trial]\ntitle = %s\nhypothesis = %s\nbaseline = %s\nquestion = %s\n",
		 sc->title, sc->hypothesis, sc->runs[0].dir, sc->question);
	if (sc->reserve_gb)
		buf_addf(b, "memory_reserve_gb = %d\n", sc->reserve_gb);
	if (sc->expected_centi)
		buf_addf(b, "expected_speedup = %d.%02d\n", sc->expected_centi / 100, sc->expected_centi % 100);
	if (sc->target_samples)
		buf_addf(b, "target_samples = %lld\n", (long long)sc->target_samples);
	if (sc->price_centi)
		buf_addf(b, "gpu_hour_price = %d.%02d\n", sc->price_centi / 100, sc->price_centi % 100);
}
