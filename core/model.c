#include "core/model.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/isort.h"
#include "core/xalloc.h"

static const struct {
	const char *name;
	int size;
} dtypes[DT_COUNT] = {
	[DT_UNKNOWN] = { "unknown", 0 },
	[DT_FP64] = { "fp64", 8 },	[DT_FP32] = { "fp32", 4 },
	[DT_TF32] = { "tf32", 4 },	[DT_BF16] = { "bf16", 2 },
	[DT_FP16] = { "fp16", 2 },	[DT_FP8] = { "fp8", 1 },
	[DT_FP8_E4M3] = { "fp8-e4m3", 1 }, [DT_FP8_E5M2] = { "fp8-e5m2", 1 },
	[DT_FP4] = { "fp4", 0 },	[DT_INT8] = { "int8", 1 },
	[DT_UINT8] = { "uint8", 1 },	[DT_INT32] = { "int32", 4 },
	[DT_UINT32] = { "uint32", 4 },	[DT_INT64] = { "int64", 8 },
	[DT_UINT64] = { "uint64", 8 },	[DT_BOOL] = { "bool", 1 },
};

const char *dtype_name(enum dtype t)
{
	return (unsigned)t < DT_COUNT ? dtypes[t].name : "unknown";
}

enum dtype dtype_from_name(const char *s)
{
	for (int i = 1; i < DT_COUNT; i++)
		if (!strcmp(dtypes[i].name, s))
			return (enum dtype)i;
	return DT_UNKNOWN;
}

/* Spellings of dtypes other than their dtype_name(), compared without case. */
static const struct {
	const char *alias;
	enum dtype dt;
} dtype_aliases[] = {
	{ "float64", DT_FP64 }, { "double", DT_FP64 }, { "f64", DT_FP64 },
	{ "float32", DT_FP32 }, { "float", DT_FP32 }, { "f32", DT_FP32 },
	{ "tensorfloat32", DT_TF32 },
	{ "bfloat16", DT_BF16 }, { "__nv_bfloat16", DT_BF16 }, { "nv_bfloat16", DT_BF16 },
	{ "bfloat16_t", DT_BF16 },
	{ "float16", DT_FP16 }, { "half", DT_FP16 }, { "f16", DT_FP16 }, { "__half", DT_FP16 },
	{ "half_t", DT_FP16 },
	{ "float8_e4m3fn", DT_FP8_E4M3 }, { "float8_e4m3fnuz", DT_FP8_E4M3 },
	{ "float8_e4m3", DT_FP8_E4M3 }, { "f8e4m3", DT_FP8_E4M3 }, { "fp8_e4m3", DT_FP8_E4M3 },
	{ "fp8e4m3", DT_FP8_E4M3 }, { "e4m3", DT_FP8_E4M3 }, { "__nv_fp8_e4m3", DT_FP8_E4M3 },
	{ "float_e4m3_t", DT_FP8_E4M3 },
	{ "float8_e5m2", DT_FP8_E5M2 }, { "float8_e5m2fnuz", DT_FP8_E5M2 },
	{ "f8e5m2", DT_FP8_E5M2 }, { "fp8_e5m2", DT_FP8_E5M2 }, { "fp8e5m2", DT_FP8_E5M2 },
	{ "e5m2", DT_FP8_E5M2 }, { "__nv_fp8_e5m2", DT_FP8_E5M2 }, { "float_e5m2_t", DT_FP8_E5M2 },
	{ "float4_e2m1fn_x2", DT_FP4 }, { "e2m1", DT_FP4 }, { "fp4_e2m1", DT_FP4 },
	{ "nvfp4", DT_FP4 },
	{ "i8", DT_INT8 }, { "int8_t", DT_INT8 }, { "char", DT_INT8 }, { "signed char", DT_INT8 },
	{ "u8", DT_UINT8 }, { "uint8_t", DT_UINT8 }, { "byte", DT_UINT8 },
	{ "unsigned char", DT_UINT8 },
	{ "i32", DT_INT32 }, { "int32_t", DT_INT32 }, { "int", DT_INT32 },
	{ "u32", DT_UINT32 }, { "uint32_t", DT_UINT32 }, { "unsigned int", DT_UINT32 },
	{ "i64", DT_INT64 }, { "int64_t", DT_INT64 }, { "long", DT_INT64 },
	{ "long int", DT_INT64 }, { "long long", DT_INT64 },
	{ "u64", DT_UINT64 }, { "uint64_t", DT_UINT64 }, { "unsigned long", DT_UINT64 },
};

/* Namespaces a type name may carry; one is dropped. */
static const char *const dtype_prefixes[] = { "torch.", "c10::", "at::", "cutlass::" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Without case; the first letter rejects most words before any call. */
static bool word_is(const char *s, size_t n, const char *word)
{
	if (!n || (s[0] | 0x20) != (word[0] | 0x20))
		return false;
	return strlen(word) == n && !strncasecmp(s, word, n);
}

enum dtype dtype_parse(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	for (size_t i = 0; i < NELEM(dtype_prefixes); i++) {
		size_t k = strlen(dtype_prefixes[i]);

		if (n > k && !strncasecmp(s, dtype_prefixes[i], k)) {
			s += k;
			n -= k;
			break;
		}
	}
	for (int i = 1; i < DT_COUNT; i++)
		if (word_is(s, n, dtypes[i].name))
			return (enum dtype)i;
	for (size_t i = 0; i < NELEM(dtype_aliases); i++)
		if (word_is(s, n, dtype_aliases[i].alias))
			return dtype_aliases[i].dt;
	return DT_UNKNOWN;
}

/* Declared precisions that are no dtype name: Lightning's bit counts, Accelerate's "no". */
static const struct {
	const char *word;
	enum dtype dt;
} precision_words[] = {
	{ "16", DT_FP16 }, { "16bit", DT_FP16 }, { "16-bit", DT_FP16 },
	{ "32", DT_FP32 }, { "no", DT_FP32 }, { "64", DT_FP64 },
};

/* Mixed-precision affixes around a precision word, one of which is dropped. */
static const char *const precision_prefixes[] = { "amp-", "amp_", "mixed-", "mixed_" };
static const char *const precision_suffixes[] = { "-mixed", "_mixed", "-true", "_true" };

/* s[0..n) without one affix of the table, in place. */
static void drop_affix(const char **s, size_t *n)
{
	for (size_t i = 0; i < NELEM(precision_prefixes); i++) {
		size_t k = strlen(precision_prefixes[i]);

		if (*n > k && !strncasecmp(*s, precision_prefixes[i], k)) {
			*s += k;
			*n -= k;
			return;
		}
	}
	for (size_t i = 0; i < NELEM(precision_suffixes); i++) {
		size_t k = strlen(precision_suffixes[i]);

		if (*n > k && !strncasecmp(*s + *n - k, precision_suffixes[i], k)) {
			*n -= k;
			return;
		}
	}
}

enum dtype precision_parse(const char *s, size_t n)
{
	enum dtype dt;

	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	drop_affix(&s, &n);
	for (size_t i = 0; i < NELEM(precision_words); i++)
		if (word_is(s, n, precision_words[i].word))
			return precision_words[i].dt;
	dt = dtype_parse(s, n);
	return (dt >= DT_FP64 && dt <= DT_FP4) || dt == DT_INT8 ? dt : DT_UNKNOWN;
}

int dtype_size(enum dtype t)
{
	return (unsigned)t < DT_COUNT ? dtypes[t].size : 0;
}

static const char *const colls[COLL_COUNT] = {
	[COLL_NONE] = "none",
	[COLL_ALLREDUCE] = "AllReduce", [COLL_ALLGATHER] = "AllGather",
	[COLL_REDUCESCATTER] = "ReduceScatter", [COLL_BROADCAST] = "Broadcast",
	[COLL_REDUCE] = "Reduce", [COLL_ALLTOALL] = "AllToAll",
	[COLL_SENDRECV] = "SendRecv", [COLL_SEND] = "Send", [COLL_RECV] = "Recv",
	[COLL_GATHER] = "Gather", [COLL_SCATTER] = "Scatter", [COLL_BARRIER] = "Barrier",
};

const char *coll_name(enum coll_op op)
{
	return (unsigned)op < COLL_COUNT ? colls[op] : "none";
}

/* Compares ignoring case and underscores: "all_reduce" == "AllReduce". */
static bool loose_eq(const char *a, size_t n, const char *b)
{
	size_t i = 0;

	for (;;) {
		while (i < n && a[i] == '_')
			i++;
		while (*b == '_')
			b++;
		if (i == n || !*b)
			return i == n && !*b;
		if (tolower((unsigned char)a[i]) != tolower((unsigned char)*b))
			return false;
		i++;
		b++;
	}
}

enum coll_op coll_from_name(const char *s, size_t n)
{
	for (int i = 1; i < COLL_COUNT; i++)
		if (loose_eq(s, n, colls[i]))
			return (enum coll_op)i;
	if (loose_eq(s, n, "all_to_all") || loose_eq(s, n, "alltoall_base"))
		return COLL_ALLTOALL;
	if (loose_eq(s, n, "allgather_into_tensor") || loose_eq(s, n, "_allgather_base"))
		return COLL_ALLGATHER;
	if (loose_eq(s, n, "reduce_scatter_tensor") || loose_eq(s, n, "_reduce_scatter_base"))
		return COLL_REDUCESCATTER;
	return COLL_NONE;
}

double coll_busbw_factor(enum coll_op op, int nranks)
{
	double n = nranks;

	if (nranks < 1)
		return NAN;
	switch (op) {
	case COLL_ALLREDUCE:
		return 2.0 * (n - 1) / n;
	case COLL_ALLGATHER:
	case COLL_REDUCESCATTER:
	case COLL_ALLTOALL:
		return (n - 1) / n;
	case COLL_BROADCAST:
	case COLL_REDUCE:
	case COLL_SENDRECV:
	case COLL_SEND:
	case COLL_RECV:
		return 1.0;
	default:
		return NAN;
	}
}

const char *run_status_name(enum run_status s)
{
	static const char *const names[] = {
		[RUN_UNKNOWN] = "unknown", [RUN_COMPLETED] = "completed",
		[RUN_FAILED_OOM] = "failed-oom", [RUN_FAILED] = "failed",
		[RUN_INCOMPLETE] = "incomplete",
	};

	return names[s];
}

struct trial *trial_new(void)
{
	return xcalloc(1, sizeof(struct trial));
}

void rank_free_arrays(struct rank *k)
{
	xgrow_free(&k->ev, &k->cap_ev, sizeof(*k->ev));
	xgrow_free(&k->steps, &k->cap_steps, sizeof(*k->steps));
	xgrow_free(&k->mem, &k->cap_mem, sizeof(*k->mem));
	xgrow_free(&k->lsteps, &k->cap_lsteps, sizeof(*k->lsteps));
	xgrow_free(&k->delays, &k->cap_delays, sizeof(*k->delays));
}

void run_release(struct run *r)
{
	for (size_t i = 0; i < r->nranks; i++)
		rank_free_arrays(&r->ranks[i]);
	xgrow_free(&r->ranks, &r->cap_ranks, sizeof(*r->ranks));
	xgrow_free(&r->gpu, &r->cap_gpu, sizeof(*r->gpu));
	xgrow_free(&r->log, &r->cap_log, sizeof(*r->log));
	xgrow_free(&r->sources, &r->cap_sources, sizeof(*r->sources));
	xgrow_free(&r->nccl_tests, &r->cap_nccl_tests, sizeof(*r->nccl_tests));
	xgrow_free(&r->memtl, &r->cap_memtl, sizeof(*r->memtl));
	xgrow_free(&r->ckpt, &r->cap_ckpt, sizeof(*r->ckpt));
}

void trial_free(struct trial *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nruns; i++)
		run_release(&t->runs[i]);
	xgrow_free(&t->runs, &t->cap_runs, sizeof(*t->runs));
	diags_release(&t->diags);
	xgrow_free(&t->groups, &t->cap_groups, sizeof(*t->groups));
	launch_ops_release(&t->launch_ops);
	intern_release(&t->strings);
	arena_release(&t->arena);
	free(t);
}

struct run *trial_add_run(struct trial *t, const char *name, const char *dir)
{
	struct run *r;

	xgrow(&t->runs, &t->cap_runs, t->nruns + 1, sizeof(*t->runs));
	r = &t->runs[t->nruns++];
	memset(r, 0, sizeof(*r));
	r->name = intern_str(&t->strings, name);
	r->dir = intern_str(&t->strings, dir);
	r->status = RUN_UNKNOWN;
	r->status_src = SRCPOS_NONE;
	return r;
}

struct run *trial_find_run(struct trial *t, const char *name)
{
	for (size_t i = 0; i < t->nruns; i++)
		if (!strcmp(t->runs[i].name, name))
			return &t->runs[i];
	return NULL;
}

struct rank *run_rank(struct run *r, int32_t rank)
{
	struct rank *k;

	for (size_t i = 0; rank >= 0 && i < r->nranks; i++)
		if (r->ranks[i].rank == rank)
			return &r->ranks[i];
	xgrow(&r->ranks, &r->cap_ranks, r->nranks + 1, sizeof(*r->ranks));
	k = &r->ranks[r->nranks++];
	memset(k, 0, sizeof(*k));
	k->rank = rank;
	k->world_size = -1;
	k->dev = (struct device_info){ .index = -1, .memory_total = -1,
				       .cc_major = -1, .cc_minor = -1, .num_sms = -1 };
	return k;
}

struct rank *run_trace_rank(struct run *r, const char *trace, int32_t dev, bool *created)
{
	struct rank *k;

	*created = false;
	for (size_t i = 0; i < r->nranks; i++)
		if (r->ranks[i].trace == trace && r->ranks[i].dev.index == dev)
			return &r->ranks[i];
	k = run_rank(r, -1);
	k->trace = trace;
	k->dev.index = dev;
	*created = true;
	return k;
}

struct source *run_add_source(struct run *r, const char *path, const char *format)
{
	struct source *s;

	xgrow(&r->sources, &r->cap_sources, r->nsources + 1, sizeof(*r->sources));
	s = &r->sources[r->nsources++];
	*s = (struct source){ .path = path, .format = format };
	return s;
}

static int by_start_end(const void *pa, const void *pb)
{
	const struct gpu_event *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->end > b->end) - (a->end < b->end);
}

static bool before_start_end(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return by_start_end(a, b) < 0;
}

/*
 * Stable, through 4 bytes of index per event (isort_stable()): qsort()
 * held 16 bytes an event while it sorted (glibc sorts records over 32
 * bytes through two pointers each).
 */
void gpu_events_sort(struct gpu_event *ev, size_t n)
{
	if (n > UINT32_MAX)
		qsort(ev, n, sizeof(*ev), by_start_end);
	else
		isort_stable(ev, n, sizeof(*ev), before_start_end, NULL);
}

/* The event stays at 64 bytes: a trace holds millions of them. */
_Static_assert(sizeof(struct gpu_event) <= 64, "struct gpu_event grew");

static uint16_t group_push(struct trial *t, const struct process_group *g)
{
	if (t->ngroups >= UINT16_MAX)
		return 0;
	xgrow(&t->groups, &t->cap_groups, t->ngroups + 1, sizeof(*t->groups));
	t->groups[t->ngroups++] = *g;
	return (uint16_t)t->ngroups;
}

uint16_t trial_group(struct trial *t, const char *s, size_t n)
{
	const char *name;

	if (!n)
		return 0;
	name = intern(&t->strings, s, n);
	for (size_t i = 0; i < t->ngroups; i++)
		if (t->groups[i].name == name && t->groups[i].size < 0)
			return (uint16_t)(i + 1);
	return group_push(t, &(struct process_group){ .name = name, .size = -1 });
}

static bool same_members(const struct process_group *a, const struct process_group *b)
{
	if (a->size != b->size || a->nranks != b->nranks || !a->ranks != !b->ranks)
		return false;
	return !a->nranks || !memcmp(a->ranks, b->ranks, a->nranks * sizeof(*a->ranks));
}

uint16_t trial_group_add(struct trial *t, const struct process_group *g)
{
	struct process_group c;
	int32_t *ranks = NULL;

	if (!g->name || !*g->name)
		return 0;
	if (g->size < 0 && !g->ranks)	/* nothing known but the name */
		return trial_group(t, g->name, strlen(g->name));
	c = (struct process_group){ .name = intern(&t->strings, g->name, strlen(g->name)),
				    .desc = g->desc ? intern(&t->strings, g->desc, strlen(g->desc)) : NULL,
				    .size = g->size >= 0 ? g->size : (int32_t)g->nranks,
				    .ranks = g->ranks, .nranks = g->ranks ? g->nranks : 0 };
	for (size_t i = 0; i < t->ngroups; i++)
		if (t->groups[i].name == c.name && t->groups[i].size >= 0 &&
		    same_members(&t->groups[i], &c))
			return (uint16_t)(i + 1);
	if (c.nranks) {
		ranks = arena_alloc(&t->arena, c.nranks * sizeof(*ranks));
		memcpy(ranks, c.ranks, c.nranks * sizeof(*ranks));
	}
	c.ranks = ranks;
	return group_push(t, &c);
}

int32_t trial_group_size(const struct trial *t, uint16_t id)
{
	return id && id <= t->ngroups ? t->groups[id - 1].size : -1;
}

struct gpu_event *rank_add_event(struct rank *k)
{
	struct gpu_event *e;

	xgrow(&k->ev, &k->cap_ev, k->nev + 1, sizeof(*k->ev));
	e = &k->ev[k->nev++];
	*e = (struct gpu_event){ .launched = LAUNCH_UNKNOWN, .bytes = -1, .stream = -1,
				 .device = -1, .step = -1 };
	return e;
}

struct step_mark *rank_add_step(struct rank *k)
{
	struct step_mark *s;

	xgrow(&k->steps, &k->cap_steps, k->nsteps + 1, sizeof(*k->steps));
	s = &k->steps[k->nsteps++];
	*s = (struct step_mark){ .number = -1 };
	return s;
}

struct mem_sample *rank_add_mem(struct rank *k)
{
	struct mem_sample *m;

	xgrow(&k->mem, &k->cap_mem, k->nmem + 1, sizeof(*k->mem));
	m = &k->mem[k->nmem++];
	*m = (struct mem_sample){ .allocated = -1, .reserved = -1, .device = -1 };
	return m;
}

struct gpu_sample *run_add_gpu_sample(struct run *r)
{
	struct gpu_sample *g;

	xgrow(&r->gpu, &r->cap_gpu, r->ngpu + 1, sizeof(*r->gpu));
	g = &r->gpu[r->ngpu++];
	*g = (struct gpu_sample){ .ts = -1, .gpu = -1, .memory_used = -1,
				  .memory_total = -1, .util_gpu = -1, .power_w = -1 };
	return g;
}

struct ckpt_save *run_add_ckpt_save(struct run *r)
{
	struct ckpt_save *c;

	xgrow(&r->ckpt, &r->cap_ckpt, r->nckpt + 1, sizeof(*r->ckpt));
	c = &r->ckpt[r->nckpt++];
	*c = (struct ckpt_save){ .write_s = -1, .src = SRCPOS_NONE };
	return c;
}

struct log_step *run_add_log_step(struct run *r)
{
	struct log_step *l;

	xgrow(&r->log, &r->cap_log, r->nlog + 1, sizeof(*r->log));
	l = &r->log[r->nlog++];
	*l = (struct log_step){ .step = -1, .step_time_s = -1, .loss = NAN,
				.samples_per_s = -1, .tokens_per_s = -1, .memory_bytes = -1 };
	return l;
}

struct nccl_test_row *run_add_nccl_test_row(struct run *r)
{
	struct nccl_test_row *w;

	xgrow(&r->nccl_tests, &r->cap_nccl_tests, r->nnccl_tests + 1, sizeof(*r->nccl_tests));
	w = &r->nccl_tests[r->nnccl_tests++];
	*w = (struct nccl_test_row){ .nranks = -1, .root = -1, .bytes = -1, .count = -1,
				     .time_oop_ns = -1, .algbw_oop = -1, .busbw_oop = -1,
				     .wrong_oop = -1, .time_ip_ns = -1, .algbw_ip = -1,
				     .busbw_ip = -1, .wrong_ip = -1 };
	return w;
}

struct mem_timeline *run_add_mem_timeline(struct run *r)
{
	struct mem_timeline *m;

	xgrow(&r->memtl, &r->cap_memtl, r->nmemtl + 1, sizeof(*r->memtl));
	m = &r->memtl[r->nmemtl++];
	memset(m, 0, sizeof(*m));
	m->peak = -1;
	for (int c = 0; c < MEMCAT_COUNT; c++)
		m->at_peak[c] = m->cat_peak[c] = -1;
	return m;
}

const char *mem_category_name(enum mem_category c)
{
	static const char *const names[MEMCAT_COUNT] = {
		[MEMCAT_PARAMETER] = "parameter", [MEMCAT_OPTIMIZER_STATE] = "optimizer_state",
		[MEMCAT_INPUT] = "input", [MEMCAT_TEMPORARY] = "temporary",
		[MEMCAT_ACTIVATION] = "activation", [MEMCAT_GRADIENT] = "gradient",
		[MEMCAT_AUTOGRAD_DETAIL] = "autograd_detail", [MEMCAT_UNKNOWN] = "unknown",
	};

	return (unsigned)c < MEMCAT_COUNT ? names[c] : "unknown";
}

bool fact_set_i64(struct fact_i64 *f, int64_t v, const struct srcpos *src)
{
	if (f->set)
		return false;
	f->v = v;
	f->set = true;
	f->src = src ? *src : SRCPOS_NONE;
	return true;
}

bool fact_set_f64(struct fact_f64 *f, double v, const struct srcpos *src)
{
	if (f->set)
		return false;
	f->v = v;
	f->set = true;
	f->src = src ? *src : SRCPOS_NONE;
	return true;
}

bool fact_set_str(struct trial *t, struct fact_str *f, const char *v, const struct srcpos *src)
{
	if (f->v)
		return false;
	f->v = intern_str(&t->strings, v);
	f->src = src ? *src : SRCPOS_NONE;
	if (f->src.file)
		f->src.file = intern_str(&t->strings, f->src.file);
	return true;
}

static const char *const hypotheses[] = {
	[HYP_UNSET] = NULL, [HYP_STEP_TIME] = "step-time",
	[HYP_GLOBAL_BATCH] = "global-batch", [HYP_FEASIBILITY] = "feasibility",
};

const char *hypothesis_name(enum hypothesis h)
{
	return hypotheses[h];
}

enum hypothesis hypothesis_from_name(const char *s)
{
	for (int i = HYP_STEP_TIME; i <= HYP_FEASIBILITY; i++)
		if (!strcasecmp(s, hypotheses[i]))
			return (enum hypothesis)i;
	return HYP_UNSET;
}

static const char *const questions[] = {
	[Q_UNSET] = NULL, [Q_SINGLE_CONFIG] = "single-config", [Q_HPARAM_SWEEP] = "hparam-sweep",
};

const char *question_name(enum question q)
{
	return questions[q];
}

enum question question_from_name(const char *s)
{
	for (int i = Q_SINGLE_CONFIG; i <= Q_HPARAM_SWEEP; i++)
		if (!strcasecmp(s, questions[i]))
			return (enum question)i;
	return Q_UNSET;
}

/* NCCL_* values that switch a transport off: they explain a slow one. */
static const struct {
	const char *name;
	const char *value;	/* the value that disables */
	const char *what;	/* what it turns off */
} nccl_disablings[] = {
	{ "NCCL_P2P_DISABLE", "1", "peer-to-peer access between GPUs" },
	{ "NCCL_P2P_LEVEL", "LOC", "peer-to-peer access between GPUs" },
	{ "NCCL_P2P_LEVEL", "0", "peer-to-peer access between GPUs" },	/* the old numeric LOC */
	{ "NCCL_SHM_DISABLE", "1", "the shared host memory transport" },
};

const char *nccl_setting_turns_off(const char *name, const char *value)
{
	for (size_t i = 0; i < sizeof(nccl_disablings) / sizeof(nccl_disablings[0]); i++)
		if (name && value && !strcmp(name, nccl_disablings[i].name) &&
		    !strcmp(value, nccl_disablings[i].value))
			return nccl_disablings[i].what;
	return NULL;
}
