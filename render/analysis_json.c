#include "render/analysis_json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/jfields.h"
#include "core/json.h"
#include "core/jtree.h"
#include "core/xalloc.h"

/*
 * The layout: one table of fields per struct (core/jfields.h), walked by the
 * writer and by the reader; what a table cannot say (a map keyed by dtype,
 * the runs named by the comparison) is a special with its own two functions.
 */

/* --- enumerated values, by the names the rest of the program gives them --- */

static const char *status_at(int v) { return run_status_name((enum run_status)v); }
static const char *hypothesis_at(int v) { return hypothesis_name((enum hypothesis)v); }
static const char *question_at(int v) { return question_name((enum question)v); }
static const char *dtype_at(int v) { return dtype_name((enum dtype)v); }
static const char *coll_at(int v) { return coll_name((enum coll_op)v); }
static const char *verdict_at(int v) { return verdict_name((enum verdict)v); }
static const char *confound_at(int v) { return confound_name((enum confound_what)v); }
static const char *severity_at(int v) { return diag_severity_name((enum diag_severity)v); }
static const char *cf_severity_at(int v) { return confound_severity_name((enum confound_severity)v); }
static const char *bw_source_at(int v) { return v ? "nccl-tests" : "trace"; }
static const char *answer_at(int v) { return answer_name((enum answer)v); }
static const char *crit_at(int v) { return crit_class_name((enum crit_class)v); }
static const char *basis_at(int v) { return workload_basis_name((enum workload_basis)v); }
static const char *fact_from_at(int v) { return fact_from_name((enum fact_from)v); }

static const char *class_at(int v)
{
	static const char *const names[] = {
		[EVC_COMPUTE] = "compute", [EVC_COMM] = "comm", [EVC_MEMORY] = "memory",
	};

	return names[v];
}

static const struct jnames status_names = { status_at, RUN_INCOMPLETE + 1, false };
static const struct jnames hypothesis_names = { hypothesis_at, HYP_FEASIBILITY + 1, false };
static const struct jnames question_names = { question_at, Q_HPARAM_SWEEP + 1, false };
static const struct jnames dtype_names = { dtype_at, DT_COUNT, true };
static const struct jnames coll_names = { coll_at, COLL_COUNT, false };
static const struct jnames verdict_names = { verdict_at, VERDICT_INCONCLUSIVE + 1, false };
static const struct jnames confound_names = { confound_at, CF_COUNT, false };
static const struct jnames severity_names = { severity_at, DIAG_INFO + 1, false };
static const struct jnames cf_severity_names = { cf_severity_at, CFS_UNVERIFIED + 1, false };
static const struct jnames bw_source_names = { bw_source_at, 2, false };
static const struct jnames class_names = { class_at, EVC_MEMORY + 1, false };
static const struct jnames answer_names = { answer_at, ANSWER_UNKNOWN + 1, true };
static const struct jnames crit_names = { crit_at, CRIT_COUNT, false };
static const struct jnames coll_or_null = { coll_at, COLL_COUNT, true };
static const struct jnames basis_names = { basis_at, WL_DECLARED + 1, false };
static const char *diff_kind_at(int v)
{
	static const char *const names[] = { [DIFF_OP] = "op", [DIFF_KERNEL] = "kernel" };

	return (unsigned)v < DIFF_KIND_COUNT ? names[v] : NULL;
}
static const struct jnames diff_kind_names = { diff_kind_at, DIFF_KIND_COUNT, false };
static const struct jnames fact_from_names = { fact_from_at, FACT_FROM_DERIVED + 1, true };

/* --- the layout of analysis.json --- */

static const struct jfield parts4[] = {
	JF_NUM(struct step_parts, compute, "compute"),
	JF_NUM(struct step_parts, exposed_comm, "exposed_comm"),
	JF_NUM(struct step_parts, memory, "memory"),
	JF_NUM(struct step_parts, idle, "idle"),
	JF_END
};

static const struct jfield parts6[] = {
	JF_MERGE(parts4),
	JF_NUM(struct step_parts, comm_total, "comm_total"),
	JF_NUM(struct step_parts, overlapped_comm, "overlapped_comm"),
	JF_NUM(struct step_parts, exposed_comm_wait, "exposed_comm_wait"),
	JF_NUM(struct step_parts, exposed_comm_transfer, "exposed_comm_transfer"),
	JF_NUM(struct step_parts, memory_total, "memory_total"),
	JF_NUM(struct step_parts, kernel_busy, "kernel_busy"),
	JF_NUM(struct step_parts, idle_host, "idle_host"),
	JF_NUM(struct step_parts, idle_sync, "idle_sync"),
	JF_NUM(struct step_parts, idle_other, "idle_other"),
	JF_END
};

/* matmul_share: {dtype: share} for the dtypes that have one. */
static void write_share(struct jwrite *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_map_open(w->g);
	for (int d = 0; d < DT_COUNT; d++) {
		if (isnan(rr->matmul_share[d]))
			continue;
		json_key(w->g, dtype_name((enum dtype)d));
		json_num(w->g, rr->matmul_share[d]);
	}
	yajl_gen_map_close(w->g);
}

static int read_share(struct jread *r, const struct jnode *n, void *base)
{
	struct run_result *rr = base;

	for (int d = 0; d < DT_COUNT; d++)
		rr->matmul_share[d] = NAN;
	if (n && n->type != J_NULL && n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next) {
		enum dtype d = strcmp(c->key, "unknown") ? dtype_from_name(c->key) : DT_UNKNOWN;
		struct jfield f = { c->key, JK_NUM, 0, sizeof(double), NULL };
		size_t old;

		if (d == DT_UNKNOWN && strcmp(c->key, "unknown"))
			continue;	/* a dtype of a later version */
		old = jread_push(r, c->key, 0);
		if (jfield_read_value(r, &f, c, &rr->matmul_share[d]) < 0)
			return -1;
		jread_pop(r, old);
	}
	return 0;
}

static const struct jspecial share = { write_share, read_share, NULL };

/* peak_memory_by_source: every source, null where it says nothing. */
static void write_by_source(struct jwrite *w, const void *base)
{
	const struct gpu_result *g = base;

	yajl_gen_map_open(w->g);
	for (int s = 0; s < MEM_NSOURCES; s++) {
		json_key(w->g, mem_source_name((enum mem_source)s));
		if (g->peak_by_source[s] < 0)
			yajl_gen_null(w->g);
		else
			json_int(w->g, g->peak_by_source[s]);
	}
	yajl_gen_map_close(w->g);
}

static int read_by_source(struct jread *r, const struct jnode *n, void *base)
{
	struct gpu_result *g = base;

	if (n && n->type != J_NULL && n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	for (int s = 0; s < MEM_NSOURCES; s++) {
		const char *key = mem_source_name((enum mem_source)s);
		struct jfield f = { key, JK_COUNT, 0, sizeof(int64_t), NULL };
		size_t old = jread_push(r, key, 0);

		if (jfield_read_value(r, &f, jtree_member(n, key), &g->peak_by_source[s]) < 0)
			return -1;
		jread_pop(r, old);
	}
	return 0;
}

static const struct jspecial by_source = { write_by_source, read_by_source, NULL };

static const struct jfield step_fields[] = {
	JF_INT(struct step_point, number, "step"),
	JF_NUM(struct step_point, window_s, "window_s"),
	JF_BOOL(struct step_point, warmup, "warmup"),
	JF_INLINE(struct step_point, parts, parts6),
	JF_COUNT(struct step_point, start_ns, "start_ns"),
	JF_BOOL(struct step_point, trailing, "trailing"),
	JF_END
};

static const struct jfield member_fields[] = {
	JF_STR(struct kernel_member, name, "name"),
	JF_NUM(struct kernel_member, time_per_step_s, "time_per_step_s"),
	JF_COUNT(struct kernel_member, calls_per_step, "calls_per_step"),
	JF_END
};
static const struct jarray kernel_members = JARRAY(struct kernel_time, members, nmembers, member_fields, false);

static const struct jfield kernel_fields[] = {
	JF_TEXT(struct kernel_time, label, "label"),
	JF_STR(struct kernel_time, name, "name"),
	JF_NUM(struct kernel_time, time_per_step_s, "time_per_step_s"),
	JF_COUNT(struct kernel_time, calls_per_step, "calls_per_step"),
	JF_ENUM(struct kernel_time, cls, "class", &class_names),
	JF_ARR(struct kernel_time, members, "members", &kernel_members),
	JF_END
};

static const struct jfield lane_fields[] = {
	JF_NUM(struct lane_span, start_s, "start_s"),
	JF_NUM(struct lane_span, end_s, "end_s"),
	JF_ENUM(struct lane_span, cls, "class", &class_names),
	JF_END
};

static const struct jarray gpu_steps = JARRAY(struct gpu_result, steps, nsteps, step_fields, true);
static const struct jarray gpu_top = JARRAY(struct gpu_result, top, ntop, kernel_fields, false);
static const struct jarray gpu_lanes = JARRAY(struct gpu_result, lanes, nlanes, lane_fields, false);

/* Bytes by memory category, in enum mem_category order: null where unknown. */
#define CAT(c, k) { k, JK_COUNT, (c) * sizeof(int64_t), sizeof(int64_t), NULL }
static const struct jfield category_fields[] = {
	CAT(MEMCAT_PARAMETER, "parameter"), CAT(MEMCAT_OPTIMIZER_STATE, "optimizer_state"),
	CAT(MEMCAT_INPUT, "input"), CAT(MEMCAT_TEMPORARY, "temporary"),
	CAT(MEMCAT_ACTIVATION, "activation"), CAT(MEMCAT_GRADIENT, "gradient"),
	CAT(MEMCAT_AUTOGRAD_DETAIL, "autograd_detail"), CAT(MEMCAT_UNKNOWN, "unknown"),
	JF_END
};

static const struct jfield gpu_fields[] = {
	JF_COUNT(struct gpu_result, rank, "rank"),
	JF_COUNT(struct gpu_result, device, "device"),
	JF_STR(struct gpu_result, name, "name"),
	JF_COUNT(struct gpu_result, memory_total, "memory_total_bytes"),
	JF_COUNT(struct gpu_result, peak_memory, "peak_memory_bytes"),
	JF_STR(struct gpu_result, peak_source, "peak_memory_source"),
	JF_SPECIAL("peak_memory_by_source", &by_source),
	JF_NUM(struct gpu_result, mean_step_s, "mean_step_s"),
	JF_OBJ(struct gpu_result, step_s, "step_s", parts6),
	JF_OBJ(struct gpu_result, span_s, "span_s", parts6),
	JF_NUM(struct gpu_result, busy_s, "busy_s"),
	JF_NUM(struct gpu_result, clock_offset_s, "clock_offset_s"),
	JF_ARR(struct gpu_result, steps, "steps", &gpu_steps),
	JF_ARR(struct gpu_result, top, "top_kernels", &gpu_top),
	JF_NUM(struct gpu_result, lanes_window_s, "lanes_window_s"),
	JF_COUNT(struct gpu_result, lanes_step, "lanes_step"),
	JF_ARR(struct gpu_result, lanes, "lanes", &gpu_lanes),
	JF_COUNT(struct gpu_result, timeline_peak, "timeline_peak_bytes"),
	JF_OBJ(struct gpu_result, timeline_at_peak, "timeline_at_peak_bytes", category_fields),
	JF_OBJ(struct gpu_result, timeline_cat_peak, "timeline_category_peak_bytes", category_fields),
	JF_NUM(struct gpu_result, tflops, "tflops"),
	JF_END
};

static const struct jfield coll_fields[] = {
	JF_ENUM(struct coll_result, op, "op", &coll_names),
	JF_ENUM(struct coll_result, dtype, "dtype", &dtype_names),
	JF_POS(struct coll_result, bytes_per_step, "bytes_per_step"),
	JF_NUM(struct coll_result, time_per_step_s, "time_per_step_s"),
	JF_NUM(struct coll_result, calls_per_step, "calls_per_step"),
	JF_NUM(struct coll_result, algbw_gbps, "algbw_gbps"),
	JF_NUM(struct coll_result, busbw_gbps, "busbw_gbps"),
	JF_NUM(struct coll_result, transfer_time_per_step_s, "transfer_time_per_step_s"),
	JF_NUM(struct coll_result, transfer_busbw_gbps, "transfer_busbw_gbps"),
	JF_NUM(struct coll_result, wait_time_per_step_s, "wait_time_per_step_s"),
	JF_NUM(struct coll_result, link_fraction, "link_fraction"),
	JF_END
};

static const struct jfield bw_fields[] = {
	JF_ENUM(struct bw_point, op, "op", &coll_names),
	JF_COUNT(struct bw_point, bytes, "bytes"),
	JF_NUM(struct bw_point, busbw_gbps, "busbw_gbps"),
	JF_ENUM(struct bw_point, from_nccl_tests, "source", &bw_source_names),
	JF_END
};

static const struct jarray run_coll = JARRAY(struct run_result, coll, ncoll, coll_fields, true);
static const struct jarray run_bw = JARRAY(struct run_result, bw, nbw, bw_fields, true);

/* nccl_env: the NCCL_* settings as one object, name -> value, in the order the log echoed them. */
static void write_nccl_env(struct jwrite *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_map_open(w->g);
	for (size_t i = 0; i < rr->nnccl_env; i++) {
		json_key(w->g, rr->nccl_env[i].name);
		json_str(w->g, rr->nccl_env[i].value);
	}
	yajl_gen_map_close(w->g);
}

static int read_nccl_env(struct jread *r, const struct jnode *n, void *base)
{
	struct run_result *rr = base;
	size_t i = 0;

	rr->nnccl_env = 0;
	if (n && n->type != J_NULL && n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	for (const struct jnode *c = n && n->type == J_OBJ ? n->child : NULL; c; c = c->next)
		i++;
	rr->nccl_env = arena_alloc(r->arena, (i ? i : 1) * sizeof(*rr->nccl_env));
	for (const struct jnode *c = n && n->type == J_OBJ ? n->child : NULL; c; c = c->next) {
		size_t old = jread_push(r, c->key, 0);

		if (c->type != J_STR)
			return jread_wrong_type(r, c, "a string");
		rr->nccl_env[rr->nnccl_env++] = (struct env_setting){
			arena_strdup(r->arena, c->key), arena_strdup(r->arena, c->s) };
		jread_pop(r, old);
	}
	return 0;
}

static const struct jspecial nccl_env = { write_nccl_env, read_nccl_env, NULL };

static const struct jfield comm_fields[] = {
	JF_STR_UNKNOWN(struct run_result, transport, "transport"),
	JF_STR_UNKNOWN(struct run_result, link, "link"),
	JF_STR(struct run_result, link_source, "link_source"),
	JF_NUM(struct run_result, link_gbps, "link_gbps"),
	JF_STR(struct run_result, nccl_version, "nccl_version"),
	JF_NUM(struct run_result, link_busbw_gbps, "link_busbw_gbps"),
	JF_STR(struct run_result, link_busbw_source, "link_busbw_source"),
	JF_STR(struct run_result, coll_per, "collectives_per"),
	JF_ARR(struct run_result, coll, "collectives", &run_coll),
	JF_ARR(struct run_result, bw, "busbw_by_size", &run_bw),
	JF_SPECIAL("nccl_env", &nccl_env),
	JF_COUNT(struct run_result, nccl_tests_gpus, "nccl_tests_gpus"),
	JF_END
};

static const struct jfield straggler_fields[] = {
	JF_COUNT(struct straggler, rank, "rank"),
	JF_STR(struct straggler, cause, "cause"),
	JF_NUM(struct straggler, wait_s, "wait_s"),
	JF_NUM(struct straggler, idle_s, "idle_s"),
	JF_NUM(struct straggler, busy_s, "busy_s"),
	JF_END
};

static const struct jarray stragglers =
	JARRAY(struct imbalance, stragglers, nstragglers, straggler_fields, false);

/* straggler_ranks: the stragglers' ranks alone; `stragglers` carries them back when read. */
static void write_straggler_ranks(struct jwrite *w, const void *base)
{
	const struct imbalance *im = base;

	yajl_gen_array_open(w->g);
	for (size_t i = 0; i < im->nstragglers; i++)
		json_int(w->g, im->stragglers[i].rank);
	yajl_gen_array_close(w->g);
}

static int read_straggler_ranks(struct jread *r, const struct jnode *n, void *base)
{
	(void)base;
	if (n && n->type != J_NULL && n->type != J_ARR)
		return jread_wrong_type(r, n, "an array");
	return 0;
}

static const struct jspecial straggler_ranks = { write_straggler_ranks, read_straggler_ranks, NULL };

static const struct jfield imbalance_fields[] = {
	JF_NUM(struct imbalance, memory_ratio, "memory_ratio"),
	JF_NUM(struct imbalance, busy_ratio, "busy_ratio"),
	JF_BOOL(struct imbalance, flagged, "flagged"),
	JF_STR(struct imbalance, reason, "reason"),
	JF_COUNT(struct imbalance, saturated_rank, "saturated_rank"),
	JF_COUNT(struct imbalance, waiting_rank, "waiting_rank"),
	JF_NUM(struct imbalance, peer_wait_s, "peer_wait_s"),
	JF_NUM(struct imbalance, peer_wait_share, "peer_wait_share"),
	JF_SPECIAL("straggler_ranks", &straggler_ranks),
	JF_ARR(struct imbalance, stragglers, "stragglers", &stragglers),
	JF_NUM(struct imbalance, straggler_cost_s, "straggler_cost_s"),
	JF_NUM(struct imbalance, straggler_cost_share, "straggler_cost_share"),
	JF_STR(struct imbalance, per, "per"),
	JF_STR(struct imbalance, straggler_reason, "straggler_reason"),
	JF_END
};

static const struct jfield source_fields[] = {
	JF_TEXT(struct source, path, "path"),
	JF_TEXT(struct source, format, "format"),
	JF_COUNT(struct source, events, "events"),
	JF_COUNT(struct source, errors, "errors"),
	JF_END
};

static const struct jfield sample_fields[] = {
	JF_COUNT(struct gpu_sample, ts, "ts_ns"),
	JF_COUNT(struct gpu_sample, gpu, "gpu"),
	JF_COUNT(struct gpu_sample, memory_used, "memory_used_bytes"),
	JF_COUNT(struct gpu_sample, memory_total, "memory_total_bytes"),
	JF_NONNEG(struct gpu_sample, util_gpu, "util_gpu_percent"),
	JF_NONNEG(struct gpu_sample, power_w, "power_w"),
	JF_END
};

static const struct jfield precision_fields[] = {
	JF_STR(struct run_result, precision_declared, "declared"),
	JF_ENUM(struct run_result, precision_observed, "observed", &dtype_names),
	JF_SPECIAL("matmul_share", &share),
	JF_END
};

static const struct jfield steps_fields[] = {
	JF_COUNT(struct run_result, steps_total, "total"),
	JF_COUNT(struct run_result, steps_warmup, "warmup"),
	JF_COUNT(struct run_result, steps_measured, "measured"),
	JF_COUNT(struct run_result, steps_trailing, "trailing"),
	JF_END
};

static const struct jfield step_time_fields[] = {
	JF_NUM(struct run_result, step_median_s, "median"),
	JF_NUM(struct run_result, step_p10_s, "p10"),
	JF_NUM(struct run_result, step_p90_s, "p90"),
	JF_NUM(struct run_result, step_cv, "cv"),
	JF_STR(struct run_result, time_source, "source"),	/* and of throughput */
	JF_END
};

static const struct jfield nsys_fields[] = {
	JF_NUM(struct run_result, nsys_compute_s, "compute_s"),
	JF_NUM(struct run_result, nsys_comm_s, "comm_s"),
	JF_NUM(struct run_result, nsys_memory_s, "memory_s"),
	JF_STR(struct run_result, nsys_step_range, "step_range"),
	JF_END
};

static const struct jfield throughput_fields[] = {
	JF_NUM(struct run_result, samples_per_s, "samples_per_s"),
	JF_NUM(struct run_result, tokens_per_s, "tokens_per_s"),
	JF_END
};

/*
 * step_windows: every step of every GPU, in rank order, so that anyone can
 * check a number; "step" and "rank" first, then these. The per-GPU steps
 * hold the same windows: the reader checks that both agree.
 */
static const struct jfield window_fields[] = {
	JF_COUNT(struct step_point, start_ns, "start_ns"),
	JF_NUM(struct step_point, window_s, "dur_s"),
	JF_BOOL(struct step_point, warmup, "warmup"),
	JF_BOOL(struct step_point, trailing, "trailing"),
	JF_INLINE(struct step_point, parts, parts4),
	JF_END
};

static void write_windows(struct jwrite *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_array_open(w->g);
	for (size_t g = 0; g < rr->ngpu; g++) {
		for (size_t i = 0; i < rr->gpu[g].nsteps; i++) {
			yajl_gen_map_open(w->g);
			json_key(w->g, "step");
			json_int(w->g, rr->gpu[g].steps[i].number);
			json_key(w->g, "rank");
			json_int(w->g, rr->gpu[g].rank);
			jfields_write(w, window_fields, &rr->gpu[g].steps[i]);
			yajl_gen_map_close(w->g);
		}
	}
	yajl_gen_array_close(w->g);
}

/* Two readings of one number: equal, or both unknown, or equal within rounding. */
static bool same_num(double x, double y)
{
	return (isnan(x) && isnan(y)) || fabs(x - y) <= 1e-12 * fmax(1, fmax(fabs(x), fabs(y)));
}

static bool same_window(const struct step_point *x, const struct step_point *y)
{
	return x->start_ns == y->start_ns && x->warmup == y->warmup && x->trailing == y->trailing &&
	       same_num(x->window_s, y->window_s) && same_num(x->parts.compute, y->parts.compute) &&
	       same_num(x->parts.exposed_comm, y->parts.exposed_comm) &&
	       same_num(x->parts.memory, y->parts.memory) && same_num(x->parts.idle, y->parts.idle);
}

/* The per-GPU step of a window's rank and step; NULL when none. */
static const struct step_point *gpu_step(const struct run_result *rr, int64_t rank, int64_t step)
{
	for (size_t g = 0; g < rr->ngpu; g++)
		for (size_t i = 0; rr->gpu[g].rank == rank && i < rr->gpu[g].nsteps; i++)
			if (rr->gpu[g].steps[i].number == step)
				return &rr->gpu[g].steps[i];
	return NULL;
}

static int read_window(struct jread *r, const struct jnode *c, const struct run_result *rr)
{
	static const struct jfield keys[] = {
		JF_INT(struct step_point, number, "step"),
		JF_END
	};
	struct jfield rank_key = { "rank", JK_INT, 0, sizeof(int64_t), NULL };
	struct step_point p;
	int64_t rank;
	const struct step_point *g;

	if (c->type != J_OBJ)
		return jread_wrong_type(r, c, "an object");
	if (jfields_read(r, c, keys, &p) < 0 || jfields_read(r, c, window_fields, &p) < 0)
		return -1;
	r->obj = c;
	if (jfield_read_value(r, &rank_key, jtree_member(c, "rank"), &rank) < 0)
		return -1;
	g = gpu_step(rr, rank, p.number);
	if (!g || !same_window(g, &p))
		return jread_fail(r, c, "'%s' (rank %lld, step %lld) is not the window of per_gpu's steps",
				  r->path, (long long)rank, (long long)p.number);
	return 0;
}

static int read_windows(struct jread *r, const struct jnode *n, void *base)
{
	const struct run_result *rr = base;
	size_t i = 0, total = 0;

	if (n && n->type != J_NULL && n->type != J_ARR)
		return jread_wrong_type(r, n, "an array");
	for (const struct jnode *c = n ? n->child : NULL; c; c = c->next, i++) {
		size_t old = jread_push(r, NULL, i);

		if (read_window(r, c, rr) < 0)
			return -1;
		jread_pop(r, old);
	}
	for (size_t g = 0; g < rr->ngpu; g++)
		total += rr->gpu[g].nsteps;
	if (n && n->type == J_ARR && i != total)
		return jread_fail(r, n, "'%s' has %zu windows, but per_gpu has %zu steps", r->path, i, total);
	return 0;
}

static const struct jfield *const window_tables[] = { window_fields, NULL };
static const struct jspecial step_windows = { write_windows, read_windows, window_tables };

static const struct jarray run_gpus = JARRAY(struct run_result, gpu, ngpu, gpu_fields, false);
static const struct jarray run_sources =
	JARRAY(struct run_result, sources, nsources, source_fields, false);
static const struct jarray run_monitor =
	JARRAY(struct run_result, monitor, nmonitor, sample_fields, false);

/* readiness: whether the trial runs on its GPU; only where the trial says something of it. */
static const struct jfield foreign_fields[] = {
	JF_TEXT(struct foreign_kernel, name, "name"),
	JF_TEXT(struct foreign_kernel, arch, "arch"),
	JF_NUM(struct foreign_kernel, time_share, "time_share"),
	JF_END
};

static const struct jarray readiness_foreign =
	JARRAY(struct readiness, foreign, nforeign, foreign_fields, false);

static const struct jfield check_fields[] = {
	JF_TEXT(struct readiness_item, component, "component"),
	JF_STR(struct readiness_item, have, "have"),
	JF_STR(struct readiness_item, minimum, "minimum"),
	JF_BOOL(struct readiness_item, ok, "ok"),
	JF_STR(struct readiness_item, fix, "fix"),
	JF_END
};

static const struct jarray readiness_checks =
	JARRAY(struct readiness, checks, nchecks, check_fields, false);

static const struct jfield code_fields[] = {
	JF_TEXT(struct readiness_code, path, "path"),
	JF_STR(struct readiness_code, kind, "kind"),
	JF_WORDS(struct readiness_code, sass, "sass"),
	JF_WORDS(struct readiness_code, ptx, "ptx"),
	JF_WORDS(struct readiness_code, amdgpu, "amdgpu"),
	JF_STR(struct readiness_code, verdict, "verdict"),
	JF_STR(struct readiness_code, jit_ptx, "jit_ptx"),
	JF_STR(struct readiness_code, jit_driver, "jit_min_driver"),
	JF_COUNT(struct readiness_code, zstd_entries, "zstd_entries"),
	JF_STR(struct readiness_code, zstd_driver, "zstd_min_driver"),
	JF_END
};

static const struct jarray readiness_code =
	JARRAY(struct readiness, code, ncode, code_fields, false);

static const struct jfield readiness_fields[] = {
	JF_STR(struct readiness, gpu, "gpu"),
	JF_STR(struct readiness, isa, "arch"),
	JF_STR(struct readiness, torch, "torch"),
	JF_STR(struct readiness, torch_cuda, "torch_cuda"),
	JF_STR(struct readiness, arch_list, "arch_list"),
	JF_STR(struct readiness, driver, "driver"),
	JF_STR(struct readiness, nccl_version, "nccl_version"),
	JF_STR(struct readiness, arch_warning, "arch_warning"),
	JF_ARR(struct readiness, checks, "checks", &readiness_checks),
	JF_NUM(struct readiness, foreign_share, "foreign_share"),
	JF_ARR(struct readiness, foreign, "foreign_kernels", &readiness_foreign),
	JF_ARR(struct readiness, code, "code", &readiness_code),
	JF_STR(struct readiness, verdict, "verdict"),
	JF_STR(struct readiness, reason, "reason"),
	JF_END
};

/* plan against measured: what run.ini predicted beside what ran; only where it predicts. */
static const struct jfield plan_fields[] = {
	JF_COUNT(struct plan_check, predicted_peak_bytes, "predicted_peak_bytes"),
	JF_COUNT(struct plan_check, measured_peak_bytes, "measured_peak_bytes"),
	JF_NUM(struct plan_check, predicted_step_s, "predicted_step_s"),
	JF_NUM(struct plan_check, measured_step_s, "measured_step_s"),
	JF_END
};

/* critical_kernels: what replay re-runs, from the slowest GPU's steady steps. */
static const struct jfield critical_fields[] = {
	JF_TEXT(struct critical_kernel, name, "name"),
	JF_ENUM(struct critical_kernel, cls, "class", &crit_names),
	JF_STR(struct critical_kernel, op, "op"),
	JF_STR(struct critical_kernel, input_dims, "input_dims"),
	JF_STR(struct critical_kernel, input_types, "input_types"),
	JF_ENUM(struct critical_kernel, dtype, "dtype", &dtype_names),
	JF_ENUM(struct critical_kernel, coll, "collective", &coll_or_null),
	JF_COUNT(struct critical_kernel, bytes, "bytes"),
	JF_NUM(struct critical_kernel, calls_per_step, "calls_per_step"),
	JF_NUM(struct critical_kernel, median_s, "median_s"),
	JF_NUM(struct critical_kernel, p10_s, "p10_s"),
	JF_NUM(struct critical_kernel, p90_s, "p90_s"),
	JF_NUM(struct critical_kernel, share, "share"),
	JF_END
};

/*
 * facts: declared against measured, one member per fact (fact_key_name()),
 * null when nothing is known of it; value and declared are counts, or names
 * for precision, model and dataset.
 */
static const struct jfield count_fact_fields[] = {
	JF_COUNT(struct run_fact, value, "value"),
	JF_ENUM(struct run_fact, from, "from", &fact_from_names),
	JF_STR(struct run_fact, at, "at"),
	JF_COUNT(struct run_fact, declared, "declared"),
	JF_STR(struct run_fact, declared_at, "declared_at"),
	JF_END
};

static const struct jfield text_fact_fields[] = {
	JF_STR(struct run_fact, text, "value"),
	JF_ENUM(struct run_fact, from, "from", &fact_from_names),
	JF_STR(struct run_fact, at, "at"),
	JF_STR(struct run_fact, declared_text, "declared"),
	JF_STR(struct run_fact, declared_at, "declared_at"),
	JF_END
};

static const struct jfield *fact_fields(enum fact_key k)
{
	return fact_key_is_text(k) ? text_fact_fields : count_fact_fields;
}

static void write_facts(struct jwrite *w, const void *base)
{
	const struct run_result *rr = base;

	yajl_gen_map_open(w->g);
	for (int k = 0; k < FACT_COUNT; k++) {
		json_key(w->g, fact_key_name((enum fact_key)k));
		if (rr->facts[k].from == FACT_FROM_NONE) {
			yajl_gen_null(w->g);
			continue;
		}
		yajl_gen_map_open(w->g);
		jfields_write(w, fact_fields((enum fact_key)k), &rr->facts[k]);
		yajl_gen_map_close(w->g);
	}
	yajl_gen_map_close(w->g);
}

/* One fact: null or missing is nothing known; an object says where its value came from. */
static int read_fact(struct jread *r, const struct jnode *n, enum fact_key k, struct run_fact *f)
{
	*f = (struct run_fact){ .value = -1, .declared = -1 };
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	if (jfields_read(r, n, fact_fields(k), f) < 0)
		return -1;
	if (f->from == FACT_FROM_NONE)
		return jread_fail(r, n, "'%s' has no 'from'", r->path);
	return 0;
}

static int read_facts(struct jread *r, const struct jnode *n, void *base)
{
	struct run_result *rr = base;

	if (n && n->type != J_NULL && n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	for (int k = 0; k < FACT_COUNT; k++) {
		const char *key = fact_key_name((enum fact_key)k);
		size_t old = jread_push(r, key, 0);

		if (read_fact(r, jtree_member(n, key), (enum fact_key)k, &rr->facts[k]) < 0)
			return -1;
		jread_pop(r, old);
	}
	return 0;
}

static const struct jfield *const fact_tables[] = { count_fact_fields, text_fact_fields, NULL };
static const struct jspecial facts = { write_facts, read_facts, fact_tables };

/*
 * checkpoint: the saves the logs show and the write time they measure, or
 * null when they show none; a save seen but not timed leaves the times null.
 */
static const struct jfield checkpoint_fields[] = {
	JF_NUM(struct run_result, checkpoint_write_s, "write_s"),
	JF_NUM(struct run_result, checkpoint_write_max_s, "write_max_s"),
	JF_COUNT(struct run_result, checkpoint_saves, "saves"),
	JF_COUNT(struct run_result, checkpoint_saves_measured, "measured"),
	JF_STR(struct run_result, checkpoint_write_source, "source"),
	JF_END
};

static void write_checkpoint(struct jwrite *w, const void *base)
{
	const struct run_result *rr = base;

	if (rr->checkpoint_saves <= 0) {
		yajl_gen_null(w->g);
		return;
	}
	yajl_gen_map_open(w->g);
	jfields_write(w, checkpoint_fields, rr);
	yajl_gen_map_close(w->g);
}

static int read_checkpoint(struct jread *r, const struct jnode *n, void *base)
{
	struct run_result *rr = base;

	if (n && n->type != J_NULL && n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	if (jfields_read(r, n && n->type == J_OBJ ? n : NULL, checkpoint_fields, rr) < 0)
		return -1;
	if (rr->checkpoint_saves < 0)
		rr->checkpoint_saves = 0;
	if (rr->checkpoint_saves_measured < 0)
		rr->checkpoint_saves_measured = 0;
	return 0;
}

static const struct jfield *const checkpoint_tables[] = { checkpoint_fields, NULL };
static const struct jspecial checkpoint = { write_checkpoint, read_checkpoint, checkpoint_tables };

static const struct jarray run_critical =
	JARRAY(struct run_result, critical, ncritical, critical_fields, false);

/* mfu: achieved TFLOP/s and MFU from op shapes, with the roofline's ops. */
static const struct jfield roof_fields[] = {
	JF_TEXT(struct roof_op, op, "op"),
	JF_STR(struct roof_op, shape, "shape"),
	JF_ENUM(struct roof_op, dtype, "dtype", &dtype_names),
	JF_NUM(struct roof_op, time_s, "time_s"),
	JF_NUM(struct roof_op, tflops, "tflops"),
	JF_NUM(struct roof_op, flops_per_byte, "flops_per_byte"),
	JF_END
};

static const struct jarray mfu_ops = JARRAY(struct mfu, ops, nops, roof_fields, false);

static const struct jfield mfu_fields[] = {
	JF_NUM(struct mfu, value, "value"),
	JF_NUM(struct mfu, tflops, "tflops"),
	JF_NUM(struct mfu, step_tflops, "step_tflops"),
	JF_NUM(struct mfu, flops_per_step, "flops_per_step"),
	JF_ENUM(struct mfu, dtype, "dtype", &dtype_names),
	JF_NUM(struct mfu, peak_tflops, "peak_tflops"),
	JF_NUM(struct mfu, covered_share, "covered_share"),
	JF_NUM(struct mfu, memory_gbps, "memory_gbps"),
	JF_STR(struct mfu, source, "source"),
	JF_STR(struct mfu, why, "reason"),
	JF_ARR(struct mfu, ops, "ops", &mfu_ops),
	JF_END
};

/* kernel_stats: the top kernel names' per-call statistics on the slowest rank. */
static const struct jfield kstat_fields[] = {
	JF_TEXT(struct kernel_stat, name, "name"),
	JF_STR(struct kernel_stat, label, "label"),
	JF_COUNT(struct kernel_stat, calls, "calls"),
	JF_NUM(struct kernel_stat, total_s, "total_s"),
	JF_NUM(struct kernel_stat, mean_s, "mean_s"),
	JF_NUM(struct kernel_stat, min_s, "min_s"),
	JF_NUM(struct kernel_stat, max_s, "max_s"),
	JF_NUM(struct kernel_stat, p50_s, "p50_s"),
	JF_NUM(struct kernel_stat, p90_s, "p90_s"),
	JF_END
};

static const struct jarray kstats_kernels =
	JARRAY(struct kernel_stats, kernels, nkernels, kstat_fields, false);

static const struct jfield kstats_fields[] = {
	JF_STR(struct kernel_stats, per, "per"),
	JF_COUNT(struct kernel_stats, rank, "rank"),
	JF_COUNT(struct kernel_stats, steps, "steps"),
	JF_ARR(struct kernel_stats, kernels, "kernels", &kstats_kernels),
	JF_END
};

/* launch: what launching kernels costs the CPU on the slowest rank. */
static const struct jfield launch_fields[] = {
	JF_STR(struct launch_stats, per, "per"),
	JF_COUNT(struct launch_stats, rank, "rank"),
	JF_COUNT(struct launch_stats, kernels, "kernels"),
	JF_NUM(struct launch_stats, delay_p50_s, "delay_p50_s"),
	JF_NUM(struct launch_stats, delay_p90_s, "delay_p90_s"),
	JF_NUM(struct launch_stats, delay_max_s, "delay_max_s"),
	JF_NUM(struct launch_stats, launch_cpu_s, "launch_cpu_s"),
	JF_NUM(struct launch_stats, op_cpu_s, "op_cpu_s"),
	JF_NUM(struct launch_stats, op_kernel_s, "op_kernel_s"),
	JF_COUNT(struct launch_stats, short_kernels, "short_kernels"),
	JF_NUM(struct launch_stats, short_share, "short_share"),
	JF_STR(struct launch_stats, bound, "bound"),
	JF_STR(struct launch_stats, why, "reason"),
	JF_END
};

static const struct jfield run_fields[] = {
	JF_TEXT(struct run_result, name, "name"),
	JF_COUNT(struct run_result, gpus, "gpus"),
	JF_ENUM(struct run_result, status, "status", &status_names),
	JF_STR(struct run_result, strategy, "strategy"),
	JF_STR(struct run_result, inferred_strategy, "strategy_inferred"),
	JF_COUNT(struct run_result, global_batch, "global_batch"),
	JF_COUNT(struct run_result, micro_batch, "micro_batch"),
	JF_COUNT(struct run_result, grad_accum, "grad_accum"),
	JF_COUNT(struct run_result, seq_len, "seq_len"),
	JF_SPECIAL("facts", &facts),
	JF_SUB("precision", precision_fields),
	JF_SUB("steps", steps_fields),
	JF_SUB("step_time_s", step_time_fields),
	JF_SUB("throughput", throughput_fields),
	JF_COUNT(struct run_result, examples_processed, "examples_processed"),
	JF_ARR(struct run_result, gpu, "per_gpu", &run_gpus),
	JF_SPECIAL("step_windows", &step_windows),
	JF_SUB("comm", comm_fields),
	JF_OBJ(struct run_result, imbalance, "imbalance", imbalance_fields),
	JF_ARR(struct run_result, sources, "sources", &run_sources),
	JF_BOOL(struct run_result, status_from_log, "status_from_log"),
	JF_INDEX(struct run_result, slowest, "slowest_gpu"),
	JF_ARR(struct run_result, monitor, "monitor", &run_monitor),
	JF_COUNT(struct run_result, failed_allocation, "failed_allocation_bytes"),
	JF_SPECIAL("checkpoint", &checkpoint),
	JF_SUB("nsys_tables", nsys_fields),
	JF_OPT(struct run_result, readiness, "readiness", readiness_fields),
	JF_OPT(struct run_result, plan, "plan", plan_fields),
	JF_ARR(struct run_result, critical, "critical_kernels", &run_critical),
	JF_OBJ(struct run_result, mfu, "mfu", mfu_fields),
	JF_OPT_NULL(struct run_result, kernel_stats, "kernel_stats", kstats_fields),
	JF_OPT_NULL(struct run_result, launch, "launch", launch_fields),
	JF_END
};

/* tool: who wrote the document and in which format; the reader checks it first. */
static void write_tool(struct jwrite *w, const void *base)
{
	(void)base;
	json_tool(w->g, NULL, ANALYSIS_JSON_FORMAT);
}

static int read_tool(struct jread *r, const struct jnode *n, void *base)
{
	const struct jnode *name = jtree_member(n, "name"), *format = jtree_member(n, "format");

	(void)base;
	if (!n || n->type != J_OBJ || !name || name->type != J_STR)
		return jread_fail(r, n, "not a scaleaudit analysis: no 'tool.name'");
	if (strcmp(name->s, "scaleaudit"))
		return jread_fail(r, name, "not a scaleaudit analysis: 'tool.name' is '%s'", name->s);
	if (!format || format->type == J_NULL)
		return jread_fail(r, n, "no 'tool.format': written by a scaleaudit older than format 1, "
				  "which left out what a report is drawn from");
	if (format->type != J_NUM || !format->is_int) {
		jread_push(r, "format", 0);
		return jread_wrong_type(r, format, "an integer");
	}
	if (format->i < 1 || format->i > ANALYSIS_JSON_FORMAT)
		return jread_fail(r, format, "'tool.format' is %lld: this scaleaudit reads format %d",
				  (long long)format->i, ANALYSIS_JSON_FORMAT);
	return 0;
}

static const struct jspecial tool = { write_tool, read_tool, NULL };

/*
 * The names of the compared runs (written twice: in trial and in comparison);
 * null without a comparison, or for an index past the runs (a damaged analysis).
 */
static void write_role(struct jwrite *w, const struct comparison *c, size_t run)
{
	const struct analysis *a = w->user;

	json_str(w->g, c->valid && run < a->nruns ? a->runs[run].name : NULL);
}

static void write_baseline(struct jwrite *w, const void *base)
{
	const struct analysis *a = w->user;

	write_role(w, &a->cmp, a->cmp.baseline);
	(void)base;
}

static void write_candidate(struct jwrite *w, const void *base)
{
	const struct analysis *a = w->user;

	write_role(w, &a->cmp, a->cmp.candidate);
	(void)base;
}

/* trial.baseline and trial.candidate repeat comparison's: read there. */
static int read_nothing(struct jread *r, const struct jnode *n, void *base)
{
	(void)r;
	(void)n;
	(void)base;
	return 0;
}

static int read_role(struct jread *r, const struct jnode *n, size_t *run)
{
	struct analysis *a = r->user;

	*run = 0;
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_STR)
		return jread_wrong_type(r, n, "a string");
	for (size_t i = 0; i < a->nruns; i++) {
		if (!strcmp(a->runs[i].name, n->s)) {
			*run = i;
			a->cmp.valid = true;
			return 0;
		}
	}
	return jread_fail(r, n, "'%s' names no run: '%s'", r->path, n->s);
}

static int read_baseline(struct jread *r, const struct jnode *n, void *base)
{
	(void)base;
	return read_role(r, n, &((struct analysis *)r->user)->cmp.baseline);
}

static int read_candidate(struct jread *r, const struct jnode *n, void *base)
{
	(void)base;
	return read_role(r, n, &((struct analysis *)r->user)->cmp.candidate);
}

static const struct jspecial trial_baseline = { write_baseline, read_nothing, NULL };
static const struct jspecial trial_candidate = { write_candidate, read_nothing, NULL };
static const struct jspecial cmp_baseline = { write_baseline, read_baseline, NULL };
static const struct jspecial cmp_candidate = { write_candidate, read_candidate, NULL };

static const struct jfield trial_fields[] = {
	JF_STR(struct analysis, title, "title"),
	JF_ENUM(struct analysis, hypothesis, "hypothesis", &hypothesis_names),
	JF_SPECIAL("baseline", &trial_baseline),
	JF_SPECIAL("candidate", &trial_candidate),
	JF_ENUM(struct analysis, question, "question", &question_names),
	JF_NUM(struct analysis, memory_reserve_bytes, "memory_reserve_bytes"),
	JF_NUM(struct analysis, expected_speedup, "expected_speedup"),
	JF_STR(struct analysis, currency, "currency"),
	JF_END
};

static const struct jfield confound_fields[] = {
	JF_ENUM(struct confound, what, "what", &confound_names),
	JF_STR(struct confound, baseline, "baseline"),
	JF_STR(struct confound, candidate, "candidate"),
	JF_ENUM(struct confound, severity, "severity", &cf_severity_names),
	JF_TEXT(struct confound, why, "why"),
	JF_STR(struct confound, message, "message"),
	JF_END
};

static const struct jarray cmp_confounds =
	JARRAY(struct comparison, confounds, nconfounds, confound_fields, true);

static const struct jfield family_share_fields[] = {
	JF_TEXT(struct family_share, family, "family"),
	JF_NUM(struct family_share, share, "share"),
	JF_END
};

static const struct jarray wl_baseline_only =
	JARRAY(struct workload, baseline_only, nbaseline_only, family_share_fields, false);
static const struct jarray wl_candidate_only =
	JARRAY(struct workload, candidate_only, ncandidate_only, family_share_fields, false);

static const struct jfield workload_fields[] = {
	JF_ENUM(struct workload, basis, "basis", &basis_names),
	JF_NUM(struct workload, baseline_overlap, "baseline_overlap"),
	JF_NUM(struct workload, candidate_overlap, "candidate_overlap"),
	JF_ARR(struct workload, baseline_only, "baseline_only", &wl_baseline_only),
	JF_ARR(struct workload, candidate_only, "candidate_only", &wl_candidate_only),
	JF_END
};

/* comparison.workload: an object, or null where no comparison was made (present false). */
static void write_workload(struct jwrite *w, const void *base)
{
	const struct workload *wl = &((const struct comparison *)base)->workload;

	if (!wl->present) {
		yajl_gen_null(w->g);
		return;
	}
	yajl_gen_map_open(w->g);
	jfields_write(w, workload_fields, wl);
	yajl_gen_map_close(w->g);
}

static int read_workload(struct jread *r, const struct jnode *n, void *base)
{
	struct workload *wl = &((struct comparison *)base)->workload;

	*wl = (struct workload){ .baseline_overlap = NAN, .candidate_overlap = NAN };
	if (!n || n->type == J_NULL)
		return 0;
	if (n->type != J_OBJ)
		return jread_wrong_type(r, n, "an object");
	if (jfields_read(r, n, workload_fields, wl) < 0)
		return -1;
	wl->present = true;
	return 0;
}

static const struct jfield *const workload_tables[] = { workload_fields, NULL };
static const struct jspecial cmp_workload = { write_workload, read_workload, workload_tables };

static const struct jfield diff_side_fields[] = {
	JF_NUM(struct diff_side, calls, "calls"),
	JF_NUM(struct diff_side, time_s, "time_s"),
	JF_NUM(struct diff_side, mean_s, "mean_s"),
	JF_NUM(struct diff_side, share, "share"),
	JF_END
};

static const struct jfield diff_row_fields[] = {
	JF_ENUM(struct diff_row, kind, "kind", &diff_kind_names),
	JF_STR(struct diff_row, name, "name"),
	JF_OBJ(struct diff_row, baseline, "baseline", diff_side_fields),
	JF_OBJ(struct diff_row, candidate, "candidate", diff_side_fields),
	JF_NUM(struct diff_row, added_s, "added_s"),
	JF_END
};

static const struct jarray diff_rows = JARRAY(struct diff, rows, nrows, diff_row_fields, false);

static const struct jfield diff_left_fields[] = {
	JF_INT(struct diff_left, op, "op"),
	JF_INT(struct diff_left, kernel, "kernel"),
	JF_END
};

static const struct jfield diff_sides_fields[] = {
	JF_NUM(struct diff_sides, baseline, "baseline"),
	JF_NUM(struct diff_sides, candidate, "candidate"),
	JF_END
};

/* comparison.diff: null where no comparison was made; per null and why set where no diff. */
static const struct jfield diff_fields[] = {
	JF_STR(struct diff, per, "per"),
	JF_ARR(struct diff, rows, "rows", &diff_rows),
	JF_OBJ(struct diff, left_out, "left_out", diff_left_fields),
	JF_OBJ(struct diff, total_s, "total_s", diff_sides_fields),
	JF_STR(struct diff, why, "why"),
	JF_END
};

static const struct jfield option_fields[] = {
	JF_COUNT(struct rental_option, gpus, "gpus"),
	JF_NUM(struct rental_option, samples_per_s, "samples_per_s"),
	JF_NUM(struct rental_option, gpu_hours_per_million_samples, "gpu_hours_per_million_samples"),
	JF_NUM(struct rental_option, days_to_target, "days_to_target"),
	JF_COUNT(struct rental_option, window_days, "window_days"),
	JF_COUNT(struct rental_option, windows, "windows"),
	JF_COUNT(struct rental_option, lots, "lots"),
	JF_NUM(struct rental_option, gpu_hours, "gpu_hours"),
	JF_NUM(struct rental_option, window_gpu_hours, "window_gpu_hours"),
	JF_NUM(struct rental_option, cost, "cost"),
	JF_NUM(struct rental_option, cost_per_million_samples, "cost_per_million_samples"),
	JF_END
};

static const struct jarray cmp_options =
	JARRAY(struct comparison, options, noptions, option_fields, false);

static const struct jfield rent_fields[] = {
	JF_STR(struct rent, gpu_model, "gpu_model"),
	JF_COUNT(struct rent, gpus, "gpus"),
	JF_COUNT(struct rent, lots, "lots"),
	JF_COUNT(struct rent, window_days, "window_days"),
	JF_COUNT(struct rent, windows, "windows"),
	JF_COUNT(struct rent, run_gpus, "run_gpus"),
	JF_COUNT(struct rent, concurrent_runs, "concurrent_runs"),
	JF_END
};

static const struct jfield alt_fields[] = {
	JF_OPT_NULL(struct decision_alt, rent, "rent", rent_fields),
	JF_STR(struct decision_alt, run, "run"),
	JF_NUM(struct decision_alt, days_needed, "days_needed"),
	JF_NUM(struct decision_alt, window_gpu_hours, "window_gpu_hours"),
	JF_NUM(struct decision_alt, window_cost, "window_cost"),
	JF_TEXT(struct decision_alt, why, "why"),
	JF_END
};

static const struct jarray decision_alts = JARRAY(struct decision, alts, nalts, alt_fields, false);

static const struct jfield stop_fields[] = {
	JF_TEXT(struct stop_criterion, id, "id"),
	JF_TEXT(struct stop_criterion, text, "text"),
	JF_END
};

static const struct jarray decision_stop = JARRAY(struct decision, stop, nstop, stop_fields, false);

static const struct jfield checkpoint_plan_fields[] = {
	JF_NUM(struct checkpoint_plan, interval_s, "interval_s"),
	JF_NUM(struct checkpoint_plan, write_s, "write_s"),
	JF_STR(struct checkpoint_plan, write_from, "write_from"),
	JF_STR(struct checkpoint_plan, write_at, "write_at"),
	JF_NUM(struct checkpoint_plan, mtbf_hours, "mtbf_hours"),
	JF_NUM(struct checkpoint_plan, rental_mtbf_hours, "rental_mtbf_hours"),
	JF_END
};

static const struct jfield decision_fields[] = {
	JF_OPT_NULL(struct decision, rent, "rent", rent_fields),
	JF_STR(struct decision, run, "run"),
	JF_NUM(struct decision, samples_per_s, "samples_per_s"),
	JF_NUM(struct decision, tokens_per_s, "tokens_per_s"),
	JF_COUNT(struct decision, target, "target"),
	JF_STR(struct decision, target_unit, "target_unit"),
	JF_COUNT(struct decision, variants, "variants"),
	JF_BOOL(struct decision, variants_assumed, "variants_assumed"),
	JF_NUM(struct decision, days_needed, "days_needed"),
	JF_NUM(struct decision, margin, "margin"),
	JF_NUM(struct decision, margin_required, "margin_required"),
	JF_NUM(struct decision, window_gpu_hours, "window_gpu_hours"),
	JF_NUM(struct decision, window_cost, "window_cost"),
	JF_NUM(struct decision, gpu_hour_price, "gpu_hour_price"),
	JF_NUM(struct decision, gpu_hours_per_million_samples, "gpu_hours_per_million_samples"),
	JF_NUM(struct decision, cost_per_million_samples, "cost_per_million_samples"),
	JF_OPT_NULL(struct decision, checkpoint, "checkpoint", checkpoint_plan_fields),
	JF_ARR(struct decision, stop, "stop_criteria", &decision_stop),
	JF_STR(struct decision, why, "why"),
	JF_ARR(struct decision, alts, "alternatives", &decision_alts),
	JF_END
};

static const struct jfield superlinear_fields[] = {
	JF_NUM(struct superlinear, efficiency, "efficiency"),
	JF_WORDS(struct superlinear, causes, "causes"),
	JF_END
};

static const char *weak_at(int v) { return weak_what_name((enum weak_what)v); }
static const struct jnames weak_names = { weak_at, WEAK_COUNT, false };

static const struct jfield weak_fields[] = {
	JF_ENUM(struct weak_evidence, what, "what", &weak_names),
	JF_TEXT(struct weak_evidence, message, "message"),
	JF_END
};

static const struct jarray cmp_weak = JARRAY(struct comparison, weak, nweak, weak_fields, false);
static const struct jfield weak_field = JF_ARR(struct comparison, weak, "weak_evidence", &cmp_weak);

/* weak_evidence: null without a comparison, else the list ([] when nothing weakens the verdict). */
static void write_weak(struct jwrite *w, const void *base)
{
	if (!((const struct comparison *)base)->valid)
		yajl_gen_null(w->g);
	else
		jfield_write_value(w, &weak_field, base);
}

static int read_weak(struct jread *r, const struct jnode *n, void *base)
{
	return jfield_read_value(r, &weak_field, n, base);
}

static const struct jfield *const weak_tables[] = { weak_fields, NULL };
static const struct jspecial cmp_weak_evidence = { write_weak, read_weak, weak_tables };

static const struct jfield comparison_fields[] = {
	JF_SPECIAL("baseline", &cmp_baseline),
	JF_SPECIAL("candidate", &cmp_candidate),
	JF_NUM(struct comparison, speedup, "speedup"),
	JF_NUM(struct comparison, throughput_ratio, "throughput_ratio"),
	JF_NUM(struct comparison, scaling_efficiency, "scaling_efficiency"),
	JF_ARR(struct comparison, confounds, "confounds", &cmp_confounds),
	JF_SPECIAL("workload", &cmp_workload),
	JF_OBJ(struct comparison, attribution_s, "attribution_s", parts4),
	JF_NUM(struct comparison, ideal_s, "ideal_s"),
	JF_NUM(struct comparison, actual_s, "actual_s"),
	JF_ENUM(struct comparison, verdict, "verdict", &verdict_names),
	JF_STR(struct comparison, reason, "reason"),
	JF_STR(struct comparison, criterion, "criterion"),
	JF_ENUM(struct comparison, answer, "answer", &answer_names),
	JF_STR(struct comparison, answer_reason, "answer_reason"),
	JF_ARR(struct comparison, options, "options", &cmp_options),
	JF_OPT_NULL(struct comparison, decision, "decision", decision_fields),
	JF_OPT_NULL(struct comparison, superlinear, "superlinear", superlinear_fields),
	JF_SPECIAL("weak_evidence", &cmp_weak_evidence),
	JF_OPT_NULL(struct comparison, diff, "diff", diff_fields),
	JF_END
};

static const struct jfield rec_fields[] = {
	JF_TEXT(struct recommendation, id, "id"),
	JF_TEXT(struct recommendation, text, "text"),
	JF_END
};

static const struct jfield finding_fields[] = {
	JF_ENUM(struct finding, severity, "severity", &severity_names),
	JF_TEXT(struct finding, code, "code"),
	JF_TEXT(struct finding, message, "message"),
	JF_STR(struct finding, source, "source"),
	JF_END
};

static const struct jarray analysis_runs = JARRAY(struct analysis, runs, nruns, run_fields, false);
static const struct jarray analysis_recs = JARRAY(struct analysis, recs, nrecs, rec_fields, true);
static const struct jarray analysis_findings =
	JARRAY(struct analysis, findings, nfindings, finding_fields, true);

static const struct jfield analysis_fields[] = {
	JF_SPECIAL("tool", &tool),
	JF_SUB("trial", trial_fields),
	JF_ARR(struct analysis, runs, "runs", &analysis_runs),
	JF_OBJ(struct analysis, cmp, "comparison", comparison_fields),
	JF_ARR(struct analysis, recs, "recommendations", &analysis_recs),
	JF_ARR(struct analysis, findings, "findings", &analysis_findings),
	JF_END
};

const struct jfield *analysis_json_fields(void)
{
	return analysis_fields;
}

int analysis_write_json(const struct analysis *a, FILE *f)
{
	struct jwrite w = { .g = json_new(), .user = a };
	int rc;

	yajl_gen_map_open(w.g);
	jfields_write(&w, analysis_fields, a);
	yajl_gen_map_close(w.g);
	rc = json_flush(w.g, f, true);
	yajl_gen_free(w.g);
	return rc;
}

/*
 * What the renderers rely on and the types alone do not say: the slowest
 * GPU is one of the run's, a verdict and a flagged imbalance have a reason.
 */
static int check(struct jread *r, const struct jnode *root)
{
	const struct analysis *a = r->user;

	for (size_t i = 0; i < a->nruns; i++) {
		const struct run_result *rr = &a->runs[i];

		if (rr->ngpu ? rr->slowest >= rr->ngpu : rr->slowest != 0)
			return jread_fail(r, root, "'runs[%zu].slowest_gpu' is %zu, but the run has %zu GPUs",
					  i, rr->slowest, rr->ngpu);
		if (rr->imbalance.flagged && !rr->imbalance.reason)
			return jread_fail(r, root, "'runs[%zu].imbalance' is flagged without a reason", i);
	}
	if (a->cmp.verdict != VERDICT_NONE && (!a->cmp.valid || !a->cmp.reason))
		return jread_fail(r, root, "'comparison.verdict' is set without a baseline, candidate and reason");
	return 0;
}

static int decode(struct jread *r, const struct jnode *root)
{
	struct analysis *a = r->user;

	if (root->type != J_OBJ)
		return jread_fail(r, root, "not a scaleaudit analysis: the document is %s, not an object",
				  jtree_type_name(root->type));
	if (jfields_read(r, root, analysis_fields, a) < 0)	/* tool first: it says what follows */
		return -1;
	a->cap_findings = a->nfindings;
	a->cap_recs = a->nrecs;
	a->cap_confounds = a->cmp.nconfounds;
	return check(r, root);
}

struct analysis *analysis_parse_json(const char *buf, size_t len, const char *name,
				     struct diags *d)
{
	struct arena tree = ARENA_INIT;
	struct analysis *a = xcalloc(1, sizeof(*a));
	struct jread r = { .arena = &a->arena, .user = a };
	const char *perr = NULL;
	const struct jnode *root = jtree_parse(&tree, buf, len, &perr, &r.err_at);
	struct srcpos pos;

	if (root) {
		decode(&r, root);
		a->cmp.decision.currency = a->currency;	/* kept once, under trial */
	} else
		snprintf(r.err, sizeof(r.err), "%s", perr ? perr : "not JSON");
	if (r.err[0]) {
		pos = SRCPOS_BYTE(name, r.err_at);
		diag_error(d, "analysis-json", &pos, "%s", r.err);
		analysis_free(a);
		a = NULL;
	}
	arena_release(&tree);
	return a;
}

#define MAX_FILE (1024 * 1024 * 1024)

struct analysis *analysis_read_json(const char *path, struct diags *d)
{
	struct srcpos pos = SRCPOS_FILE(path);
	struct buf b;
	struct analysis *a = NULL;
	int rc;

	buf_init(&b, MAX_FILE - 1);
	rc = buf_read_file(&b, path);
	if (rc < 0)
		diag_error(d, "analysis-json", &pos, "%s: %s", rc == -1 ? "cannot open" : "cannot read",
			   strerror(errno));
	else if (b.overflow)
		diag_error(d, "analysis-json", &pos, "larger than 1 GiB: not an analysis.json");
	else
		a = analysis_parse_json(b.data, b.len, path, d);
	buf_release(&b);
	return a;
}

/* The offset of the first byte at or after i that is not blank; len when none. */
static size_t skip_blanks(const char *buf, size_t len, size_t i)
{
	while (i < len && buf[i] && strchr(" \t\r\n", buf[i]))
		i++;
	return i;
}

bool analysis_json_sniff(const char *buf, size_t len)
{
	size_t i = skip_blanks(buf, len, 0);

	if (i >= len || buf[i] != '{')
		return false;
	i = skip_blanks(buf, len, i + 1);
	return len - i >= 6 && !memcmp(buf + i, "\"tool\"", 6);
}
