#include "samples/gen/kineto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "samples/gen/kernels.h"

#define KINETO_PERIOD_S 7889238LL	/* Kineto floors its base time to a multiple of this period (about 91 days) */

struct writer {
	struct buf *b;
	const struct sim_run *run;
	const struct sim_rank *k;
	int r, pid, dev;
	int64_t base;		/* true-clock ns that prints as ts 0 */
	int64_t ev_idx;		/* "Ev Idx" counter */
	int first;		/* no comma before the next event */
};

int64_t kineto_base_ns(const struct sim_run *run, int r)
{
	int64_t s = (run->epoch_ns / NS_PER_S) / KINETO_PERIOD_S * KINETO_PERIOD_S;

	return (s + run->spec->base_shift_s[r]) * NS_PER_S;
}

int kineto_pid(const struct sim_run *run, int r)
{
	return 41000 + (int)(run->sc->seed % 9000) + 7 * r + (run->spec->gpus - 1) * 311;
}

/* A time on the rank's trace clock, as Kineto prints it: µs with 3 decimals. */
static void put_ts(struct buf *b, int64_t ns)
{
	if (ns < 0) {
		buf_addch(b, '-');
		ns = -ns;
	}
	buf_addf(b, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

static void put_time(struct writer *w, const char *key, int64_t t)
{
	int64_t clock = w->run->epoch_ns + t + w->run->spec->clock_offset_us[w->r] * 1000;

	buf_addf(w->b, "\"%s\": ", key);
	put_ts(w->b, clock - w->base);
}

static void put_dur(struct writer *w, int64_t d)
{
	buf_addstr(w->b, "\"dur\": ");
	put_ts(w->b, d);
}

static void open_ev(struct writer *w)
{
	buf_addstr(w->b, w->first ? "\n  {\n" : ",\n  {\n");
	w->first = 0;
}

static void json_str(struct buf *b, const char *s)
{
	buf_addch(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_addch(b, '\\');
		buf_addch(b, *s);
	}
	buf_addch(b, '"');
}

/* The default process group's ranks as PyTorch prints them: "[0, 1]". */
static const char *group_ranks(const struct sim_run *run)
{
	static const char *const ranks[MAX_RANKS + 1] = { "[]", "[0]", "[0, 1]", "[0, 1, 2]", "[0, 1, 2, 3]" };

	return ranks[run->spec->gpus];
}

static void put_header(struct writer *w)
{
	const struct gpu_spec *g = w->run->gpu;
	struct buf *b = w->b;

	buf_addstr(b, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
	for (int i = 0; i < w->run->spec->gpus; i++) {
		buf_addf(b, "%s\n    {\n      \"id\": %d, \"name\": \"%s\", \"totalGlobalMem\": %lld,\n"
			 "      \"computeMajor\": %d, \"computeMinor\": %d,\n"
			 "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
			 "      \"regsPerBlock\": 65536, \"warpSize\": %d,\n"
			 "      \"sharedMemPerBlock\": 49152, \"numSms\": %d\n"
			 "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": %d, \"sharedMemPerMultiprocessor\": %d\n    }",
			 i ? "," : "", i, g->name, (long long)g->mem, g->cc_major, g->cc_minor,
			 g->warp, g->sms, g->smem_optin, g->smem_optin + 1024);
	}
	buf_addstr(b, "\n  ],\n");
	if (w->run->spec->gpus > 1)
		buf_addf(b, "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d, "
			 "\"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
			 "\"backend_config\": \"cuda:nccl\", \"pg_size\": %d, \"ranks\": %s}], "
			 "\"nccl_version\": \"2.26.2\"},\n", w->r, w->run->spec->gpus, w->run->spec->gpus,
			 group_ranks(w->run));
	buf_addf(b, "  \"record_shapes\": %d,\n  \"profile_memory\": 1,\n"
		 "  \"cupti_version\": 26,\n  \"cuda_runtime_version\": 12080,\n  \"cuda_driver_version\": 12080,\n"
		 "  \"baseTimeNanoseconds\": %lld,\n  \"displayTimeUnit\": \"ms\",\n  \"traceEvents\": [",
		 w->run->spec->opaque ? 0 : 1, (long long)w->base);
}

static void put_meta(struct writer *w, int pid, int tid, const char *name, const char *key, const char *val)
{
	open_ev(w);
	buf_addf(w->b, "    \"name\": \"%s\", \"ph\": \"M\", \"ts\": ", name);
	put_ts(w->b, w->run->epoch_ns - w->base + w->run->spec->clock_offset_us[w->r] * 1000);
	buf_addf(w->b, ", \"pid\": %d, \"tid\": %d,\n    \"args\": {\n      \"%s\": %s\n    }\n  }", pid, tid, key, val);
}

static void put_metas(struct writer *w)
{
	char v[64];

	put_meta(w, w->pid, 0, "process_name", "name", "\"python3.11\"");
	put_meta(w, w->pid, 0, "process_labels", "labels", "\"CPU\"");
	snprintf(v, sizeof(v), "%d", w->pid);
	put_meta(w, w->pid, 0, "process_sort_index", "sort_index", v);
	snprintf(v, sizeof(v), "\"thread %d (python3.11)\"", w->pid);
	put_meta(w, w->pid, w->pid, "thread_name", "name", v);
	put_meta(w, w->dev, 0, "process_name", "name", "\"python3.11\"");
	snprintf(v, sizeof(v), "\"GPU %d\"", w->dev);
	put_meta(w, w->dev, 0, "process_labels", "labels", v);
	snprintf(v, sizeof(v), "%d", 5000000 + w->dev);
	put_meta(w, w->dev, 0, "process_sort_index", "sort_index", v);
	put_meta(w, w->dev, STREAM_COMPUTE, "thread_name", "name", "\"stream 7 \"");
	if (w->run->spec->comm != COMM_NONE)
		put_meta(w, w->dev, STREAM_NCCL, "thread_name", "name", "\"stream 28 \"");
	if (w->run->spec->side_copy_us)
		put_meta(w, w->dev, STREAM_SIDE, "thread_name", "name", "\"stream 13 \"");
}

/* The conv net's ops: a 256-channel 128 x 128 feature map stands for every stage's. */
static void put_conv_inputs(struct writer *w, int kind)
{
	long long B = w->run->spec->micro_batch;
	const char *t = c10_type(w->run->spec->prec);
	struct buf *b = w->b;

	switch (kind) {
	case K_H2D:
		buf_addf(b, "\"Input Dims\": [[%lld, 3, 512, 512], [%lld, 3, 512, 512], []], \"Input type\": [\"%s\", \"%s\", \"Scalar\"]",
			 B, B, t, t);
		return;
	case K_CONV_DG: case K_CONV_WG:	/* convolution_backward(grad_output, input, weight, ...) */
		buf_addf(b, "\"Input Dims\": [[%lld, 256, 128, 128], [%lld, 256, 128, 128], [256, 256, 3, 3], [], [], [], [], [], [], [], []], "
			 "\"Input type\": [\"%s\", \"%s\", \"%s\", \"\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\", \"\"]",
			 B, B, t, t, t);
		return;
	case K_FC_DG:	/* grad_input = grad_output [B, 1000] . W [1000, 2048] */
		buf_addf(b, "\"Input Dims\": [[%lld, 1000], [1000, 2048]], \"Input type\": [\"%s\", \"%s\"]", B, t, t);
		return;
	case K_FC_WG:	/* grad_weight = grad_output^T [1000, B] . x [B, 2048] */
		buf_addf(b, "\"Input Dims\": [[1000, %lld], [%lld, 2048]], \"Input type\": [\"%s\", \"%s\"]", B, B, t, t);
		return;
	case K_CONV_F:
		buf_addf(b, "\"Input Dims\": [[%lld, 256, 128, 128], [256, 256, 3, 3], [], [], [], [], [], [], []], "
			 "\"Input type\": [\"%s\", \"%s\", \"\", \"ScalarList\", \"ScalarList\", \"ScalarList\", \"Scalar\", \"Scalar\", \"Scalar\"]",
			 B, t, t);
		return;
	case K_BN_F: case K_BN_BWD:
		buf_addf(b, "\"Input Dims\": [[%lld, 256, 128, 128], [256], [256], [256], [256]], "
			 "\"Input type\": [\"%s\", \"float\", \"float\", \"float\", \"float\"]", B, t);
		return;
	case K_FC:
		buf_addf(b, "\"Input Dims\": [[%lld, 2048], [1000, 2048], [1000]], \"Input type\": [\"%s\", \"%s\", \"%s\"]",
			 B, t, t, t);
		return;
	case K_RN_XENT: case K_RN_XENT_BWD:
		buf_addf(b, "\"Input Dims\": [[%lld, 1000], [], []], \"Input type\": [\"float\", \"Scalar\", \"Scalar\"]", B);
		return;
	default:
		buf_addf(b, "\"Input Dims\": [[%lld, 256, 128, 128], [%lld, 256, 128, 128]], \"Input type\": [\"%s\", \"%s\"]",
			 B, B, t, t);
	}
}

/* "Input Dims" and "Input type" of the op that launches a kernel of kind k. */
static void put_inputs(struct writer *w, int kind)
{
	const struct run_spec *s = w->run->spec;
	long long B = s->micro_batch, S = s->seq_len, H = s->params_m <= 1500 ? 2048 : 4096;
	const char *t = c10_type(s->prec);
	struct buf *b = w->b;

	if (s->model == MODEL_CONVNET && kind != K_D2H && kind != K_MEMSET && kind != K_ADAM) {
		put_conv_inputs(w, kind);
		return;
	}
	switch (kind) {
	case K_QKV: case K_PROJ: case K_FC1: case K_FC2: case K_HEAD: {
		long long out = kind == K_QKV ? 3 * H : kind == K_FC1 ? 4 * H : kind == K_HEAD ? GEN_VOCAB : H;
		long long in = kind == K_FC2 ? 4 * H : H;

		buf_addf(b, "\"Input Dims\": [[%lld, %lld, %lld], [%lld, %lld], [%lld]], \"Input type\": [\"%s\", \"%s\", \"%s\"]",
			 B, S, in, out, in, out, t, t, t);
		return;
	}
	case K_ATTN_BWD:	/* (grad_out, query, key, value, out, logsumexp, ...) */
		buf_addf(b, "\"Input Dims\": [[%lld, 16, %lld, %lld], [%lld, 16, %lld, %lld], [%lld, 16, %lld, %lld], [%lld, 16, %lld, %lld], "
			 "[%lld, 16, %lld, %lld], [%lld, 16, %lld]], \"Input type\": [\"%s\", \"%s\", \"%s\", \"%s\", \"%s\", \"float\"]",
			 B, S, H / 16, B, S, H / 16, B, S, H / 16, B, S, H / 16, B, S, H / 16, B, S, t, t, t, t, t);
		return;
	case K_ATTN:
		buf_addf(b, "\"Input Dims\": [[%lld, 16, %lld, %lld], [%lld, 16, %lld, %lld], [%lld, 16, %lld, %lld]], "
			 "\"Input type\": [\"%s\", \"%s\", \"%s\"]", B, S, H / 16, B, S, H / 16, B, S, H / 16, t, t, t);
		return;
	case K_LOSS_MM:
		buf_addf(b, "\"Input Dims\": [[%lld, 256], [256, 64]], \"Input type\": [\"float\", \"float\"]", B * S / 64);
		return;
	case K_XENT: case K_XENT_BWD:
		buf_addf(b, "\"Input Dims\": [[%lld, %d], [], []], \"Input type\": [\"float\", \"Scalar\", \"Scalar\"]", B * S,
			 GEN_VOCAB);
		return;
	case K_H2D:
		buf_addf(b, "\"Input Dims\": [[%lld, %lld], [%lld, %lld], []], \"Input type\": [\"long int\", \"long int\", \"Scalar\"]", B, S, B, S);
		return;
	case K_D2H:
		buf_addstr(b, "\"Input Dims\": [[]], \"Input type\": [\"float\"]");
		return;
	case K_MEMSET:
		buf_addf(b, "\"Input Dims\": [[%lld]], \"Input type\": [\"float\"]", 96LL * 1024 * 1024 / 4);
		return;
	case K_ADAM:
		buf_addstr(b, "\"Input Dims\": [[], [], [], [], []], \"Input type\": [\"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\"]");
		return;
	default:
		if (kdefs[kind].mm != MM_NONE)	/* backward GEMMs */
			buf_addf(b, "\"Input Dims\": [[%lld, %lld], [%lld, %lld]], \"Input type\": [\"%s\", \"%s\"]",
				 B * S, H, H, H, t, t);
		else
			buf_addf(b, "\"Input Dims\": [[%lld, %lld, %lld], [%lld, %lld, %lld]], \"Input type\": [\"%s\", \"%s\"]",
				 B, S, H, B, S, H, t, t);
	}
}

static const char *coll_arg(const struct sim_ev *e)
{
	switch (e->coll) {
	case COLL_ALLREDUCE: return "allreduce";
	case COLL_ALLGATHER: return "_allgather_base";
	case COLL_REDUCESCATTER: return "_reduce_scatter_base";
	default: return e->send ? "send" : "recv";
	}
}

static const char *coll_annotation(const struct sim_ev *e)
{
	switch (e->coll) {
	case COLL_ALLREDUCE: return "nccl:all_reduce";
	case COLL_ALLGATHER: return "nccl:_all_gather_base";
	case COLL_REDUCESCATTER: return "nccl:_reduce_scatter_base";
	default: return e->send ? "nccl:send" : "nccl:recv";
	}
}

static const char *coll_kernel(const struct sim_ev *e)
{
	switch (e->coll) {
	case COLL_ALLREDUCE: return "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
	case COLL_ALLGATHER: return "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
	case COLL_REDUCESCATTER: return "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
	default: return "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";
	}
}

static void put_coll_args(struct writer *w, const struct sim_ev *e)
{
	buf_addf(w->b, "\"Collective name\": \"%s\", \"In msg nelems\": %lld, \"Out msg nelems\": %lld, "
		 "\"Group size\": %d, \"dtype\": \"%s\", \"In split size\": \"[]\", \"Out split size\": \"[]\", "
		 "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
		 "\"Process Group Ranks\": \"%s\"",
		 coll_arg(e), (long long)e->nel_in, (long long)e->nel_out, w->run->spec->gpus, c10_scalar((enum dtype)e->dt),
		 group_ranks(w->run));
}

static void put_cpu_op(struct writer *w, const struct sim_ev *e)
{
	const char *name = kdefs[e->kind].op;

	open_ev(w);
	buf_addf(w->b, "    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d,\n    ", name, w->pid, w->pid);
	put_time(w, "ts", e->cpu_start);
	buf_addstr(w->b, ", ");
	put_dur(w, e->cpu_end - e->cpu_start);
	buf_addf(w->b, ",\n    \"args\": {\n      \"External id\": %lld", (long long)e->ext);
	if (e->kind == K_COMM || !w->run->spec->opaque)
		buf_addstr(w->b, ", ");
	if (e->kind == K_COMM)
		put_coll_args(w, e);
	else if (!w->run->spec->opaque)	/* record_shapes=False: no Input Dims/type */
		put_inputs(w, e->kind);
	buf_addf(w->b, ", \"Ev Idx\": %lld\n    }\n  }", (long long)w->ev_idx++);
}

static void put_annotation(struct writer *w, const char *name, int64_t start, int64_t end, int64_t ext)
{
	open_ev(w);
	buf_addstr(w->b, "    \"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": ");
	json_str(w->b, name);
	buf_addf(w->b, ", \"pid\": %d, \"tid\": %d,\n    ", w->pid, w->pid);
	put_time(w, "ts", start);
	buf_addstr(w->b, ", ");
	put_dur(w, end - start);
	buf_addf(w->b, ",\n    \"args\": {\n      \"External id\": %lld, \"Ev Idx\": %lld\n    }\n  }",
		 (long long)ext, (long long)w->ev_idx++);
}

static void put_runtime(struct writer *w, const struct sim_ev *e)
{
	const char *name = e->kind == K_H2D || e->kind == K_D2H ? "cudaMemcpyAsync" :
			   e->kind == K_MEMSET ? "cudaMemsetAsync" : "cudaLaunchKernel";
	int cbid = e->kind == K_H2D || e->kind == K_D2H ? 41 : e->kind == K_MEMSET ? 51 : 211;

	open_ev(w);
	buf_addf(w->b, "    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d,\n    ", name, w->pid, w->pid);
	put_time(w, "ts", e->launch);
	buf_addstr(w->b, ", ");
	put_dur(w, e->launch_end - e->launch);
	buf_addf(w->b, ",\n    \"args\": {\n      \"External id\": %lld, \"cbid\": %d, \"correlation\": %lld\n    }\n  }",
		 (long long)e->ext, cbid, (long long)e->corr);
	open_ev(w);
	buf_addf(w->b, "    \"ph\": \"s\", \"id\": %lld, \"pid\": %d, \"tid\": %d, ", (long long)e->corr, w->pid, w->pid);
	put_time(w, "ts", e->launch);
	buf_addstr(w->b, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  }");
}

static void put_launch(struct writer *w, const struct sim_ev *e)
{
	put_cpu_op(w, e);
	if (e->kind == K_COMM)
		put_annotation(w, coll_annotation(e), e->cpu_start + 1000, e->cpu_end - 1000, e->ext);
	put_runtime(w, e);
}

static void put_flow_end(struct writer *w, const struct sim_ev *e)
{
	open_ev(w);
	buf_addf(w->b, "    \"ph\": \"f\", \"id\": %lld, \"pid\": %d, \"tid\": %d, ", (long long)e->corr, w->dev, e->stream);
	put_time(w, "ts", e->start);
	buf_addstr(w->b, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  }");
}

static void put_gpu(struct writer *w, const struct sim_ev *e)
{
	const struct kdef *d = &kdefs[e->kind];
	const char *cat = e->kind == K_H2D || e->kind == K_D2H ? "gpu_memcpy" : e->kind == K_MEMSET ? "gpu_memset" : "kernel";
	char name[512];
	int64_t dur = e->end - e->start;

	if (e->kind == K_COMM)
		snprintf(name, sizeof(name), "%s", coll_kernel(e));
	else
		kind_name((enum kkind)e->kind, w->run->spec->opaque ? 0 : w->run->gpu->arch, w->run->spec->prec, name, sizeof(name));
	if (!e->unlinked)
		put_flow_end(w, e);
	open_ev(w);
	buf_addf(w->b, "    \"ph\": \"X\", \"cat\": \"%s\", \"name\": ", cat);
	json_str(w->b, name);
	buf_addf(w->b, ", \"pid\": %d, \"tid\": %d,\n    ", w->dev, e->stream);
	put_time(w, "ts", e->start);
	buf_addstr(w->b, ", ");
	put_dur(w, dur);
	buf_addf(w->b, ",\n    \"args\": {\n      \"External id\": %lld, \"queued\": 0, \"device\": %d, \"context\": 1, "
		 "\"stream\": %d, \"correlation\": %lld", (long long)e->ext, w->dev, e->stream, (long long)e->corr);
	if (strcmp(cat, "kernel")) {
		buf_addf(w->b, ", \"bytes\": %lld, \"memory bandwidth (GB/s)\": %.3f\n    }\n  }",
			 (long long)e->bytes, dur > 0 ? (double)e->bytes / (double)dur : 0.0);
		return;
	}
	buf_addf(w->b, ", \"registers per thread\": %d, \"shared memory\": %d, \"blocks per SM\": %.6f, "
		 "\"grid\": [%d, %d, %d], \"block\": [%d, %d, %d], \"est. achieved occupancy %%\": 0",
		 d->regs, d->smem, (double)(d->grid[0] * d->grid[1] * d->grid[2]) / w->run->gpu->sms,
		 d->grid[0], d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2]);
	if (e->kind == K_COMM) {
		buf_addstr(w->b, ", ");
		put_coll_args(w, e);
	}
	buf_addstr(w->b, "\n    }\n  }");
}

static void put_mem(struct writer *w, const struct sim_mem *m, int64_t i)
{
	open_ev(w);
	buf_addf(w->b, "    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": %d, \"tid\": %d,\n    ",
		 w->pid, w->pid);
	put_time(w, "ts", m->ts);
	buf_addf(w->b, ",\n    \"args\": {\n      \"Ev Idx\": %lld, \"Device Type\": 1, \"Device Id\": %d, \"Addr\": %lld, "
		 "\"Bytes\": %lld, \"Total Allocated\": %lld, \"Total Reserved\": %lld\n    }\n  }",
		 (long long)w->ev_idx++, w->dev, 139900000000000LL + 2097152LL * (i % 4096),
		 (long long)m->bytes, (long long)m->alloc, (long long)m->reserved);
}

/* CPU-side records in time order: spans, launches and [memory] events. */
enum rec_type { REC_SPAN, REC_LAUNCH, REC_MEM };
struct rec {
	int64_t ts;
	int64_t end;	/* a parent range sorts before the child that starts with it */
	int type;
	size_t i;
};

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void put_span(struct writer *w, const struct sim_span *sp, int64_t sync_id)
{
	char name[64];

	if (strcmp(sp->cat, "cuda_runtime")) {
		if (!strcmp(sp->name, "ProfilerStep")) {
			snprintf(name, sizeof(name), "ProfilerStep#%d", w->run->spec->first_step + sp->step);
			put_annotation(w, name, sp->start, sp->end, sync_id);
		} else {
			put_annotation(w, sp->name, sp->start, sp->end, sync_id);
		}
		return;
	}
	open_ev(w);
	buf_addf(w->b, "    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d,\n    ", sp->name, w->pid, w->pid);
	put_time(w, "ts", sp->start);
	buf_addstr(w->b, ", ");
	put_dur(w, sp->end - sp->start);
	buf_addf(w->b, ",\n    \"args\": {\n      \"External id\": %lld, \"cbid\": 131, \"correlation\": %lld\n    }\n  }",
		 (long long)sync_id, (long long)sync_id);
}

static void put_cpu_side(struct writer *w)
{
	const struct sim_rank *k = w->k;
	size_t n = k->nspan + k->nev + k->nmem, j = 0;
	struct rec *rec = xmalloc((n ? n : 1) * sizeof(*rec));
	int64_t sync_id = 900000;

	for (size_t i = 0; i < k->nspan; i++)
		rec[j++] = (struct rec){ k->span[i].start, k->span[i].end, REC_SPAN, i };
	for (size_t i = 0; i < k->nev; i++)
		if (!k->ev[i].unlinked)
			rec[j++] = (struct rec){ k->ev[i].cpu_start, k->ev[i].cpu_end, REC_LAUNCH, i };
	n = j + k->nmem;
	for (size_t i = 0; i < k->nmem; i++)
		rec[j++] = (struct rec){ k->mem[i].ts, k->mem[i].ts, REC_MEM, i };
	qsort(rec, n, sizeof(*rec), rec_cmp);
	for (size_t i = 0; i < n; i++) {
		if (rec[i].type == REC_SPAN)
			put_span(w, &k->span[rec[i].i], sync_id++);
		else if (rec[i].type == REC_LAUNCH)
			put_launch(w, &k->ev[rec[i].i]);
		else
			put_mem(w, &k->mem[rec[i].i], (int64_t)rec[i].i);
	}
	free(rec);
}

static int gpu_cmp(const void *a, const void *b)
{
	const struct sim_ev *x = *(const struct sim_ev *const *)a, *y = *(const struct sim_ev *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->corr < y->corr ? -1 : x->corr > y->corr;
}

static void put_gpu_side(struct writer *w)
{
	const struct sim_rank *k = w->k;
	const struct sim_ev **v = xmalloc((k->nev ? k->nev : 1) * sizeof(*v));

	for (size_t i = 0; i < k->nev; i++)
		v[i] = &k->ev[i];
	qsort(v, k->nev, sizeof(*v), gpu_cmp);
	for (size_t i = 0; i < k->nev; i++)
		put_gpu(w, v[i]);
	free(v);
}

static void put_trailer(struct writer *w)
{
	const struct sim_rank *k = w->k;
	int64_t first = k->nspan ? k->span[0].start : 0;

	open_ev(w);
	buf_addstr(w->b, "    \"ph\": \"X\", \"cat\": \"Trace\", ");
	put_time(w, "ts", first - 200000);
	buf_addstr(w->b, ", ");
	put_dur(w, w->run->t_end - first + 400000);
	buf_addstr(w->b, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
		   "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0\n    }\n  }");
	open_ev(w);
	buf_addstr(w->b, "    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n    \"pid\": \"\", \"tid\": \"\", ");
	put_time(w, "ts", w->run->t_end + 200000);
	buf_addstr(w->b, "\n  }\n  ],\n");
	buf_addf(w->b, "  \"traceName\": \"/workspace/runs/%s/%s/rank%d.pt.trace.json\"\n}\n",
		 w->run->sc->name, w->run->spec->dir, w->r);
}

void kineto_trace(struct buf *b, const struct sim_run *run, int r)
{
	struct writer w = { .b = b, .run = run, .k = &run->rank[r], .r = r,
			    .pid = kineto_pid(run, r), .dev = r, .first = 1 };

	w.base = kineto_base_ns(run, r);
	put_header(&w);
	put_metas(&w);
	put_cpu_side(&w);
	put_gpu_side(&w);
	put_trailer(&w);
}
