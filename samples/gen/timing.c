#include "samples/gen/timing.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "samples/gen/rng.h"

#define US 1000LL
#define MS 1000000LL
#define MIB (1024LL * 1024)
#define MAX_ITEMS 320
#define MAX_STEPS 64
#define WAIT_NONE (-1)
#define WAIT_ALL (-2)

enum item_type { IT_WORK, IT_STALL, IT_SYNC, IT_OPT_BEGIN, IT_OPT_END };

/* One entry of a step's program, shared by the ranks in `ranks`. */
struct item {
	int type;		/* enum item_type */
	int kind;		/* enum kkind (IT_WORK) */
	unsigned ranks;		/* bitmask of the ranks that run it */
	int wait;		/* index of a collective it waits for; WAIT_NONE; WAIT_ALL */
	int coll;		/* K_COMM: enum coll_op */
	int sender;		/* K_COMM SendRecv: the sending rank */
	int dt;			/* K_COMM: dtype of the message */
	int64_t nel_in, nel_out;
	int64_t bytes;		/* memcpy/memset bytes */
	int mem;		/* activation memory: +1 alloc a block's, -1 free it */
	int64_t end[MAX_RANKS];	/* K_COMM: when it ended on each rank */
};

struct prog {
	struct item it[MAX_ITEMS];
	int n;
};

/* What one rank's CPU and streams are doing. */
struct rstate {
	int64_t cpu;		/* the main thread's clock */
	int64_t cfree;		/* compute stream free from */
	int64_t nfree;		/* NCCL stream free from */
	int64_t ready;		/* end of the last compute-stream activity */
	int64_t comm_all;	/* end of the step's last collective */
	int64_t step_cpu;	/* ProfilerStep start */
	int64_t opt_cpu;	/* optimizer range start */
	int64_t d2h_end[MAX_STEPS];
	int64_t ext, corr;
	int64_t side_corr;	/* correlation ids of the copies without a launch record */
	int64_t act;		/* bytes of activations per block */
	int64_t static_bytes;
	int64_t params_m;	/* parameters this rank updates, millions */
	struct rng rng;
};

struct sim {
	struct sim_run *run;
	const struct run_spec *s;
	struct rstate rs[MAX_RANKS];
	struct rng shared;	/* collective transfer jitter */
	int step;
};

static unsigned all_ranks(const struct sim *m)
{
	return (1u << m->run->nranks) - 1;
}

static int add_item(struct prog *p, int type, int kind, unsigned ranks, int wait)
{
	struct item *it = &p->it[p->n];

	memset(it, 0, sizeof(*it));
	it->type = type;
	it->kind = kind;
	it->ranks = ranks;
	it->wait = wait;
	return p->n++;
}

static int add_comm(struct prog *p, unsigned ranks, int coll, int dt,
		    int64_t nin, int64_t nout, int sender)
{
	int i = add_item(p, IT_WORK, K_COMM, ranks, WAIT_NONE);

	p->it[i].coll = coll;
	p->it[i].dt = dt;
	p->it[i].nel_in = nin;
	p->it[i].nel_out = nout;
	p->it[i].sender = sender;
	return i;
}

static int64_t block_params(const struct run_spec *s)
{
	return (int64_t)s->params_m * 1000000 * 9 / 10 / s->layers;
}

static int64_t embed_params(const struct run_spec *s)
{
	return (int64_t)s->params_m * 1000000 / 10;
}

static int64_t hidden(const struct run_spec *s)
{
	return s->params_m <= 1500 ? 2048 : 4096;
}

static const int fwd_block[] = { K_LN, K_QKV, K_ATTN, K_PROJ, K_ADD, K_LN, K_FC1, K_GELU, K_FC2, K_ADD };
static const int bwd_block[] = { K_FC2_DG, K_FC2_WG, K_GELU_BWD, K_FC1_DG, K_FC1_WG, K_LN_BWD,
				 K_PROJ_DG, K_PROJ_WG, K_ATTN_BWD, K_QKV_DG, K_QKV_WG, K_LN_BWD };
#define NFWD ((int)(sizeof(fwd_block) / sizeof(fwd_block[0])))
#define NBWD ((int)(sizeof(bwd_block) / sizeof(bwd_block[0])))

/* The ranks that hold block l (pipeline stages), or all. */
static unsigned block_ranks(const struct sim *m, int l)
{
	if (m->s->comm != COMM_PIPE)
		return all_ranks(m);
	return l < m->s->stage0_layers ? 1u : 2u;
}

static unsigned head_ranks(const struct sim *m)
{
	return m->s->comm == COMM_PIPE ? 2u : all_ranks(m);
}

static unsigned embed_ranks(const struct sim *m)
{
	return m->s->comm == COMM_PIPE ? 1u : all_ranks(m);
}

/* AllGather of a block's parameters (bf16), as FSDP unshards it. */
static int fsdp_gather(struct prog *p, const struct sim *m, int64_t params)
{
	return add_comm(p, all_ranks(m), COLL_ALLGATHER, DT_BF16, params / 2, params, -1);
}

static void build_forward(struct prog *p, const struct sim *m, int64_t act_elems)
{
	const struct run_spec *s = m->s;
	int ag_next = -1, wait;

	if (s->comm == COMM_FSDP) {
		wait = fsdp_gather(p, m, embed_params(s));
		add_item(p, IT_WORK, K_EMBED, embed_ranks(m), wait);
		ag_next = fsdp_gather(p, m, block_params(s));
	} else {
		add_item(p, IT_WORK, K_EMBED, embed_ranks(m), WAIT_NONE);
	}
	for (int l = 0; l < s->layers; l++) {
		wait = ag_next;
		if (s->comm == COMM_PIPE && l == s->stage0_layers)
			wait = add_comm(p, 3u, COLL_SENDRECV, s->prec, act_elems, act_elems, 0);
		if (s->comm == COMM_FSDP && l + 1 < s->layers)
			ag_next = fsdp_gather(p, m, block_params(s));
		for (int k = 0; k < NFWD; k++) {
			int i = add_item(p, IT_WORK, fwd_block[k], block_ranks(m, l), k ? WAIT_NONE : wait);

			p->it[i].mem = k || s->recompute ? 0 : 1;
		}
	}
}

static void build_backward(struct prog *p, const struct sim *m, int64_t act_elems)
{
	const struct run_spec *s = m->s;
	int64_t mlp = block_params(s) * 2 / 3;
	int ag = -1;

	if (s->comm == COMM_FSDP)
		ag = fsdp_gather(p, m, block_params(s));
	add_item(p, IT_WORK, K_XENT_BWD, head_ranks(m), WAIT_NONE);
	add_item(p, IT_WORK, K_HEAD_DG, head_ranks(m), WAIT_NONE);
	add_item(p, IT_WORK, K_HEAD_WG, head_ranks(m), WAIT_NONE);
	for (int l = s->layers - 1; l >= 0; l--) {
		int wait = ag, i;

		if (s->comm == COMM_PIPE && l == s->stage0_layers - 1)
			wait = add_comm(p, 3u, COLL_SENDRECV, s->prec, act_elems, act_elems, 1);
		if (s->comm == COMM_FSDP && l > 0)
			ag = fsdp_gather(p, m, block_params(s));
		for (int k = 0; k < NFWD && s->recompute; k++) {	/* activation checkpointing */
			i = add_item(p, IT_WORK, fwd_block[k], block_ranks(m, l), k ? WAIT_NONE : wait);
			p->it[i].mem = k ? 0 : 1;
			wait = WAIT_NONE;
		}
		for (int k = 0; k < NBWD; k++) {
			i = add_item(p, IT_WORK, bwd_block[k], block_ranks(m, l), k ? WAIT_NONE : wait);
			p->it[i].mem = k == NBWD - 1 ? -1 : 0;
			/* DDP's first bucket of a block fills with the MLP's gradients */
			if (s->comm == COMM_DDP && k == NBWD / 2 - 1)
				add_comm(p, all_ranks(m), COLL_ALLREDUCE, DT_FP32, mlp, mlp, -1);
		}
		if (s->comm == COMM_DDP)
			add_comm(p, all_ranks(m), COLL_ALLREDUCE, DT_FP32, block_params(s) - mlp, block_params(s) - mlp, -1);
		if (s->comm == COMM_FSDP)
			add_comm(p, all_ranks(m), COLL_REDUCESCATTER, DT_BF16, block_params(s), block_params(s) / 2, -1);
	}
	add_item(p, IT_WORK, K_EMBED_BWD, embed_ranks(m), WAIT_NONE);
	if (s->comm == COMM_DDP)
		add_comm(p, all_ranks(m), COLL_ALLREDUCE, DT_FP32, embed_params(s), embed_params(s), -1);
	if (s->comm == COMM_FSDP)
		add_comm(p, all_ranks(m), COLL_REDUCESCATTER, DT_BF16, embed_params(s), embed_params(s) / 2, -1);
}

/* A step's input: token ids and labels (int64), or bf16 images of 3 x 512 x 512. */
static int64_t input_bytes(const struct run_spec *s)
{
	if (s->model == MODEL_CONVNET)
		return (int64_t)s->micro_batch * 3 * 512 * 512 * 2;
	return (int64_t)s->micro_batch * s->seq_len * 8 * 2;
}

/* The conv net's stages: a bottleneck of three conv/bn/relu, the residual add and its relu. */
static void build_conv_forward(struct prog *p, const struct sim *m)
{
	static const int stem[] = { K_CONV_F, K_BN_F, K_RELU, K_MAXPOOL };
	static const int unit[] = { K_CONV_F, K_BN_F, K_RELU };
	unsigned all = all_ranks(m);

	for (size_t k = 0; k < sizeof(stem) / sizeof(stem[0]); k++)
		add_item(p, IT_WORK, stem[k], all, WAIT_NONE);
	for (int l = 0; l < m->s->layers; l++) {
		for (int u = 0; u < 3; u++)
			for (int k = 0; k < 3; k++) {
				int i = add_item(p, IT_WORK, unit[k], all, WAIT_NONE);

				p->it[i].mem = u == 0 && k == 0 ? 1 : 0;
			}
		add_item(p, IT_WORK, K_RN_ADD, all, WAIT_NONE);
		add_item(p, IT_WORK, K_RELU, all, WAIT_NONE);
	}
	add_item(p, IT_WORK, K_AVGPOOL, all, WAIT_NONE);
	add_item(p, IT_WORK, K_FC, all, WAIT_NONE);
	add_item(p, IT_WORK, K_RN_XENT, all, WAIT_NONE);
}

/* Its backward, stage by stage; DDP all-reduces each stage's gradients as one bucket. */
static void build_conv_backward(struct prog *p, const struct sim *m)
{
	static const int unit[] = { K_RELU_BWD, K_BN_BWD, K_CONV_WG, K_CONV_DG };
	static const int stem[] = { K_MAXPOOL_BWD, K_RELU_BWD, K_BN_BWD, K_CONV_WG };
	const struct run_spec *s = m->s;
	int64_t stage = block_params(s), rest = embed_params(s);
	unsigned all = all_ranks(m);

	add_item(p, IT_WORK, K_RN_XENT_BWD, all, WAIT_NONE);
	add_item(p, IT_WORK, K_FC_DG, all, WAIT_NONE);
	add_item(p, IT_WORK, K_FC_WG, all, WAIT_NONE);
	add_item(p, IT_WORK, K_AVGPOOL_BWD, all, WAIT_NONE);
	for (int l = s->layers - 1; l >= 0; l--) {
		for (int u = 0; u < 3; u++)
			for (int k = 0; k < 4; k++) {
				int i = add_item(p, IT_WORK, unit[k], all, WAIT_NONE);

				p->it[i].mem = u == 2 && k == 3 ? -1 : 0;
			}
		if (s->comm == COMM_DDP)
			add_comm(p, all, COLL_ALLREDUCE, DT_FP32, stage, stage, -1);
	}
	for (size_t k = 0; k < sizeof(stem) / sizeof(stem[0]); k++)
		add_item(p, IT_WORK, stem[k], all, WAIT_NONE);
	if (s->comm == COMM_DDP)
		add_comm(p, all, COLL_ALLREDUCE, DT_FP32, rest, rest, -1);
}

/* The transformer's forward with its head and loss, and its backward. */
static void llm_forward(struct prog *p, const struct sim *m)
{
	const struct run_spec *s = m->s;

	build_forward(p, m, (int64_t)s->micro_batch * s->seq_len * hidden(s));
	add_item(p, IT_WORK, K_HEAD, head_ranks(m), WAIT_NONE);
	add_item(p, IT_WORK, K_LOSS_MM, head_ranks(m), WAIT_NONE);
	add_item(p, IT_WORK, K_XENT, head_ranks(m), WAIT_NONE);
}

static void llm_backward(struct prog *p, const struct sim *m)
{
	const struct run_spec *s = m->s;

	build_backward(p, m, (int64_t)s->micro_batch * s->seq_len * hidden(s));
}

/* Each model's forward (loss included) and backward, and the gradients it zeroes. */
static const struct {
	void (*forward)(struct prog *p, const struct sim *m);
	void (*backward)(struct prog *p, const struct sim *m);
	int64_t grad_mib;
} models[] = {
	[MODEL_LLM] = { llm_forward, llm_backward, 96 },
	[MODEL_CONVNET] = { build_conv_forward, build_conv_backward, 48 },
};

/* The program every step runs: load, forward, loss, backward, optimizer, sync. */
static void build_step(struct prog *p, const struct sim *m)
{
	const struct run_spec *s = m->s;
	int i;

	p->n = 0;
	add_item(p, IT_STALL, 0, all_ranks(m), WAIT_NONE);
	i = add_item(p, IT_WORK, K_H2D, all_ranks(m), WAIT_NONE);
	p->it[i].bytes = input_bytes(s);
	models[s->model].forward(p, m);
	i = add_item(p, IT_WORK, K_MEMSET, all_ranks(m), WAIT_NONE);
	p->it[i].bytes = models[s->model].grad_mib * MIB;
	models[s->model].backward(p, m);
	add_item(p, IT_OPT_BEGIN, 0, all_ranks(m), WAIT_NONE);
	for (int k = 0; k < 3; k++)
		add_item(p, IT_WORK, K_ADAM, all_ranks(m), k ? WAIT_NONE : WAIT_ALL);
	add_item(p, IT_OPT_END, 0, all_ranks(m), WAIT_NONE);
	i = add_item(p, IT_WORK, K_D2H, all_ranks(m), WAIT_NONE);
	p->it[i].bytes = 4;
	add_item(p, IT_SYNC, 0, all_ranks(m), WAIT_NONE);
}

static int warm_permille(const struct sim *m)
{
	if (m->step == 0)
		return 1500;
	if (m->step < m->s->warm_steps)
		return 1250;
	return 1000;
}

/* How long a kernel of `kind` runs on rank r this step, ns. */
static int64_t kernel_ns(struct sim *m, int r, const struct item *it)
{
	const struct run_spec *s = m->s;
	const struct kdef *k = &kdefs[it->kind];
	int64_t d;

	switch (k->scale) {
	case SC_BYTES:
		if (it->kind == K_MEMSET)
			return 1500 + it->bytes / 2000;
		return 2000 + it->bytes / 25;
	case SC_PARAMS:
		d = k->base_us * US * m->rs[r].params_m / 1200;
		break;
	case SC_IMAGES:
		d = k->base_us * US * s->micro_batch / 8;
		break;
	default:
		d = k->base_us * US * s->params_m / s->layers / 400;
		d = d * (100 + 900 * s->micro_batch / 8) / 1000;
		if (s->prec != DT_BF16)
			d = d * (k->mm ? 2000 : 1700) / 1000;
		break;
	}
	d = d * m->run->gpu->speed / 1000;
	d = d * warm_permille(m) / 1000 * s->slow_permille[r] / 1000;
	return rng_jitter(&m->rs[r].rng, d, 20);
}

static struct sim_ev *new_ev(struct sim_rank *k)
{
	struct sim_ev *e;

	xgrow(&k->ev, &k->cap_ev, k->nev + 1, sizeof(*k->ev));
	e = &k->ev[k->nev++];
	memset(e, 0, sizeof(*e));
	return e;
}

static struct sim_span *new_span(struct sim_rank *k, const char *name, const char *cat,
				 int step, int64_t start, int64_t end)
{
	struct sim_span *sp;

	xgrow(&k->span, &k->cap_span, k->nspan + 1, sizeof(*k->span));
	sp = &k->span[k->nspan++];
	*sp = (struct sim_span){ .start = start, .end = end, .name = name, .cat = cat, .step = step };
	return sp;
}

static int64_t round_2mib(int64_t b)
{
	return (b + 2 * MIB - 1) / (2 * MIB) * (2 * MIB);
}

/* The allocator changes by `delta` at t: one [memory] event. */
static void mem_event(struct sim_rank *k, int64_t t, int64_t delta)
{
	struct sim_mem *e;
	int64_t want;

	k->alloc += delta;
	want = round_2mib(k->alloc + k->alloc / 32);
	if (want > k->reserved)
		k->reserved = want;
	if (k->alloc > k->peak_alloc)
		k->peak_alloc = k->alloc;
	if (k->reserved > k->peak_reserved)
		k->peak_reserved = k->reserved;
	xgrow(&k->mem, &k->cap_mem, k->nmem + 1, sizeof(*k->mem));
	e = &k->mem[k->nmem++];
	*e = (struct sim_mem){ .ts = t, .bytes = delta, .alloc = k->alloc, .reserved = k->reserved };
}

/* The CPU side of one launch: cpu_op, runtime call, return. */
static void cpu_launch(struct sim *m, int r, struct sim_ev *e, int comm)
{
	struct rstate *st = &m->rs[r];

	e->cpu_start = st->cpu;
	e->launch = st->cpu + rng_jitter(&st->rng, (comm ? 14 : 6) * US, 300);
	e->launch_end = e->launch + rng_jitter(&st->rng, 7 * US, 300);
	e->cpu_end = e->launch_end + rng_jitter(&st->rng, 4 * US, 300);
	st->cpu = e->cpu_end + rng_jitter(&st->rng, 3 * US, 300);
	e->ext = st->ext++;
	e->corr = st->corr++;
	e->step = m->step;
}

/*
 * The loss kernel of a host-bound run waits, queued, for a flag the host sets
 * once the CPU has built the loss mask: it starts hold_us after its stream is
 * free, though it was launched long before.
 */
static int64_t held(struct sim *m, int r, int64_t start)
{
	struct rstate *st = &m->rs[r];
	int64_t h = st->cfree + rng_jitter(&st->rng, m->s->hold_us * US, 150);

	return h > start ? h : start;
}

static void run_kernel(struct sim *m, int r, struct item *it, const struct prog *p)
{
	struct rstate *st = &m->rs[r];
	struct sim_rank *k = &m->run->rank[r];
	struct sim_ev *e = new_ev(k);
	int64_t start;

	cpu_launch(m, r, e, 0);
	e->kind = it->kind;
	e->dt = m->s->prec;
	e->bytes = it->bytes ? it->bytes : -1;
	e->stream = STREAM_COMPUTE;
	start = e->launch + 3 * US;
	if (st->cfree > start)
		start = st->cfree;
	if (it->wait >= 0 && p->it[it->wait].end[r] > start)
		start = p->it[it->wait].end[r];
	if (it->wait == WAIT_ALL && st->comm_all > start)
		start = st->comm_all;
	if (it->kind == K_XENT && m->s->hold_us)
		start = held(m, r, start);
	e->start = start;
	e->end = start + kernel_ns(m, r, it);
	st->cfree = st->ready = e->end;
	if (it->kind == K_D2H)
		st->d2h_end[m->step] = e->end;
	if (it->mem)
		mem_event(k, e->cpu_start + 2 * US, it->mem * st->act);
	if (it->kind == K_H2D)
		mem_event(k, e->cpu_start + 1 * US, it->bytes);
	if (m->step == 0 && (it->kind == K_XENT_BWD || it->kind == K_RN_XENT_BWD))
		mem_event(k, e->cpu_start + 2 * US, st->static_bytes / 4);
	if (m->step == 0 && it->kind == K_EMBED_BWD && m->s->comm == COMM_PIPE && r == 0)
		mem_event(k, e->cpu_start + 2 * US, st->static_bytes / 4);
}

/* Transfer time of a collective over the run's link, ns. */
static int64_t xfer_ns(struct sim *m, const struct item *it)
{
	const struct run_spec *s = m->s;
	int64_t bytes = (it->nel_in > it->nel_out ? it->nel_in : it->nel_out) * dtype_size(it->dt);
	int64_t num = it->coll == COLL_ALLREDUCE ? 2 * (m->run->nranks - 1) : it->coll == COLL_SENDRECV ? 1 : m->run->nranks - 1;
	int64_t den = it->coll == COLL_SENDRECV ? 1 : m->run->nranks;
	int64_t lat = s->tr == TR_SOCKET ? 250 * US : 15 * US;

	return rng_jitter(&m->shared, lat + bytes * num / den / s->link_gbps, 30);
}

static void run_comm(struct sim *m, struct item *it)
{
	struct sim_ev *e[MAX_RANKS] = { NULL };
	int64_t last = 0, end;

	for (int r = 0; r < m->run->nranks; r++) {
		struct rstate *st = &m->rs[r];
		int64_t start;

		e[r] = new_ev(&m->run->rank[r]);
		cpu_launch(m, r, e[r], 1);
		e[r]->kind = K_COMM;
		e[r]->coll = it->coll;
		e[r]->dt = it->dt;
		e[r]->nel_in = it->nel_in;
		e[r]->nel_out = it->nel_out;
		e[r]->bytes = (it->nel_in > it->nel_out ? it->nel_in : it->nel_out) * dtype_size(it->dt);
		e[r]->send = it->sender == r;
		e[r]->stream = STREAM_NCCL;
		start = e[r]->launch + 3 * US;
		if (st->nfree > start)
			start = st->nfree;
		if (st->ready > start)
			start = st->ready;
		e[r]->start = start;
		if (start > last)
			last = start;
	}
	end = last + xfer_ns(m, it);
	for (int r = 0; r < m->run->nranks; r++) {
		e[r]->end = end;
		e[r]->xfer = last;
		m->rs[r].nfree = end;
		if (end > m->rs[r].comm_all)
			m->rs[r].comm_all = end;
		it->end[r] = end;
	}
}

/*
 * The data loader's pin-memory thread copies the batch's attention mask to
 * the GPU at t on its own stream; the trace holds no runtime call for it, so
 * the copy has a correlation id but no launch and no step.
 */
static void side_copy(struct sim *m, int r, int64_t t)
{
	struct rstate *st = &m->rs[r];
	struct sim_ev *e = new_ev(&m->run->rank[r]);

	e->kind = K_H2D;
	e->unlinked = 1;
	e->step = -1;
	e->dt = m->s->prec;
	e->bytes = (int64_t)m->s->micro_batch * m->s->seq_len * 64;
	e->stream = STREAM_SIDE;
	e->corr = 600000 + st->side_corr++;
	e->launch = e->launch_end = e->cpu_start = e->cpu_end = t;
	e->start = t + rng_jitter(&st->rng, m->s->side_copy_us * US, 150);
	e->end = e->start + 2000 + e->bytes / 25;
}

static void run_cpu_item(struct sim *m, int r, const struct item *it)
{
	struct rstate *st = &m->rs[r];
	struct sim_rank *k = &m->run->rank[r];
	int64_t t0 = st->cpu, target;
	int lag = m->s->sync_lag;

	switch (it->type) {
	case IT_STALL:
		st->cpu += rng_jitter(&st->rng, m->s->stall_us * US, 150) + 40 * US;
		new_span(k, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
			 "user_annotation", m->step, t0, st->cpu);
		if (m->s->side_copy_us)
			side_copy(m, r, t0);
		break;
	case IT_OPT_BEGIN:
		st->opt_cpu = st->cpu;
		st->cpu += m->step == 0 ? 25 * MS : rng_jitter(&st->rng, 60 * US, 200);
		if (m->step == 0)
			mem_event(k, st->cpu - 10 * US, st->static_bytes * 45 / 100);
		break;
	case IT_OPT_END:
		st->cpu += 10 * US;
		new_span(k, "Optimizer.step#AdamW.step", "user_annotation", m->step, st->opt_cpu, st->cpu);
		break;
	case IT_SYNC:
		target = m->step - lag >= 0 ? st->d2h_end[m->step - lag] : 0;
		st->cpu = (target > st->cpu ? target : st->cpu) + rng_jitter(&st->rng, 9 * US, 300);
		new_span(k, "cudaStreamSynchronize", "cuda_runtime", m->step, t0, st->cpu);
		break;
	}
}

static void run_step(struct sim *m, struct prog *p)
{
	for (int r = 0; r < m->run->nranks; r++) {
		m->rs[r].step_cpu = m->rs[r].cpu;
		m->rs[r].comm_all = 0;
	}
	for (int i = 0; i < p->n; i++) {
		struct item *it = &p->it[i];

		if (it->type == IT_WORK && it->kind == K_COMM) {
			run_comm(m, it);
			continue;
		}
		for (int r = 0; r < m->run->nranks; r++) {
			if (!(it->ranks & (1u << r)))
				continue;
			if (it->type == IT_WORK)
				run_kernel(m, r, it, p);
			else
				run_cpu_item(m, r, it);
		}
	}
	for (int r = 0; r < m->run->nranks; r++) {
		struct rstate *st = &m->rs[r];
		struct sim_span *sp;

		mem_event(&m->run->rank[r], st->cpu - 2 * US, -input_bytes(m->s));
		sp = new_span(&m->run->rank[r], NULL, "user_annotation", m->step, st->step_cpu, st->cpu);
		sp->name = "ProfilerStep";	/* numbered when written */
		st->cpu += rng_jitter(&st->rng, 30 * US, 300);
	}
}

/* Blocks of the model on rank r, and the parameters it updates (millions). */
static void rank_shares(const struct run_spec *s, int r, int *blocks, int64_t *params_m)
{
	*blocks = s->layers;
	*params_m = s->params_m;
	if (s->comm == COMM_FSDP)
		*params_m = s->params_m / 2;
	if (s->comm != COMM_PIPE)
		return;
	*blocks = r == 0 ? s->stage0_layers : s->layers - s->stage0_layers;
	*params_m = (int64_t)s->params_m * 9 / 10 * *blocks / s->layers + (r == 0 ? s->params_m / 10 : 0);
}

static void init_rank(struct sim *m, int r, uint64_t seed)
{
	struct rstate *st = &m->rs[r];
	struct sim_rank *k = &m->run->rank[r];
	int blocks;

	memset(st, 0, sizeof(*st));
	rng_seed(&st->rng, seed ^ (0x1234567ULL * (uint64_t)(r + 1)));
	rank_shares(m->s, r, &blocks, &st->params_m);
	st->static_bytes = (int64_t)m->s->static_mib[r] * MIB;
	st->act = (int64_t)m->s->act_mib[r] * MIB;
	st->ext = 1 + 40 * r;
	st->corr = 100 + 17 * r;
	st->cpu = rng_range(&st->rng, 0, 200) * US;
	/* parameters are resident before the window; grads and optimizer state come in step 0 */
	k->alloc = st->static_bytes * 30 / 100;
	k->reserved = round_2mib(k->alloc);
	k->peak_alloc = k->alloc;
	k->peak_reserved = k->reserved;
}

void sim_run(struct sim_run *out, const struct scenario *sc, int idx, uint64_t seed)
{
	struct sim m = { .run = out, .s = &sc->runs[idx] };
	struct prog *p = xcalloc(1, sizeof(*p));

	memset(out, 0, sizeof(*out));
	out->sc = sc;
	out->spec = m.s;
	out->gpu = &gpu_specs[m.s->gpu];
	out->nranks = m.s->gpus;
	out->job_start_ns = ((int64_t)sc->epoch_s + idx * 1800) * NS_PER_S;
	out->epoch_ns = out->job_start_ns + 41 * NS_PER_S + 123456789;
	rng_seed(&m.shared, seed ^ 0xc0ffeeULL ^ (uint64_t)idx);
	for (int r = 0; r < out->nranks; r++)
		init_rank(&m, r, seed ^ ((uint64_t)idx << 32));
	if (m.s->oom) {
		out->t_end = 3 * NS_PER_S;
		free(p);
		return;
	}
	for (m.step = 0; m.step < m.s->steps && m.step < MAX_STEPS; m.step++) {
		build_step(p, &m);
		run_step(&m, p);
	}
	for (int r = 0; r < out->nranks; r++) {
		const struct sim_rank *k = &out->rank[r];

		for (size_t i = 0; i < k->nev; i++)
			if (k->ev[i].end > out->t_end)
				out->t_end = k->ev[i].end;
	}
	free(p);
}

void sim_release(struct sim_run *r)
{
	for (int i = 0; i < MAX_RANKS; i++) {
		free(r->rank[i].ev);
		free(r->rank[i].span);
		free(r->rank[i].mem);
	}
	memset(r, 0, sizeof(*r));
}

/* The allocator's reserved bytes on a rank at t: the last event's. */
static int64_t reserved_at(const struct sim_rank *k, int64_t t, int64_t initial)
{
	int64_t v = initial;

	for (size_t i = 0; i < k->nmem && k->mem[i].ts <= t; i++)
		v = k->mem[i].reserved;
	return v;
}

int64_t sim_smi_used_mib(const struct sim_run *r, int rank, int64_t t)
{
	const struct run_spec *s = r->spec;
	int64_t cap = r->gpu->mem / MIB, stat = s->static_mib[rank];
	int64_t load = -20 * NS_PER_S;

	if (t < -28 * NS_PER_S || t > r->t_end + NS_PER_S)
		return 0;
	if (t < load)
		return r->gpu->ctx_mib;
	if (s->oom) {
		if (t < 0)
			return r->gpu->ctx_mib + stat * 30 / 100;
		if (t < NS_PER_S + 500 * MS)
			return r->gpu->ctx_mib + stat;
		return t < r->t_end ? cap - 1046 : 0;
	}
	return r->gpu->ctx_mib + (reserved_at(&r->rank[rank], t, round_2mib(stat * MIB * 30 / 100)) + MIB - 1) / MIB;
}
