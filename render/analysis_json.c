#include "render/analysis_json.h"

#include <math.h>
#include <string.h>

#include "render/json.h"

static void key_str(yajl_gen g, const char *k, const char *v)
{
	json_key(g, k);
	json_str(g, v);
}

static void key_num(yajl_gen g, const char *k, double v)
{
	json_key(g, k);
	json_num(g, v);
}

/* A count or byte size: -1 means unknown. */
static void key_int(yajl_gen g, const char *k, int64_t v)
{
	json_key(g, k);
	if (v < 0)
		yajl_gen_null(g);
	else
		json_int(g, v);
}

static void parts(yajl_gen g, const char *k, const struct step_parts *p, bool all)
{
	json_key(g, k);
	yajl_gen_map_open(g);
	key_num(g, "compute", p->compute);
	key_num(g, "exposed_comm", p->exposed_comm);
	key_num(g, "memory", p->memory);
	key_num(g, "idle", p->idle);
	if (all) {
		key_num(g, "comm_total", p->comm_total);
		key_num(g, "overlapped_comm", p->overlapped_comm);
	}
	yajl_gen_map_close(g);
}

static void precision(yajl_gen g, const struct run_result *r)
{
	json_key(g, "precision");
	yajl_gen_map_open(g);
	key_str(g, "declared", r->precision_declared);
	key_str(g, "observed", r->precision_observed != DT_UNKNOWN ?
			       dtype_name(r->precision_observed) : NULL);
	json_key(g, "matmul_share");
	yajl_gen_map_open(g);
	for (int d = 0; d < DT_COUNT; d++)
		if (!isnan(r->matmul_share[d]))
			key_num(g, dtype_name((enum dtype)d), r->matmul_share[d]);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
}

static void per_gpu(yajl_gen g, const struct run_result *r)
{
	json_key(g, "per_gpu");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < r->ngpu; i++) {
		const struct gpu_result *x = &r->gpu[i];

		yajl_gen_map_open(g);
		key_int(g, "rank", x->rank);
		key_int(g, "device", x->device);
		key_str(g, "name", x->name);
		key_int(g, "memory_total_bytes", x->memory_total);
		key_int(g, "peak_memory_bytes", x->peak_memory);
		key_str(g, "peak_memory_source", x->peak_source);
		json_key(g, "peak_memory_by_source");
		yajl_gen_map_open(g);
		for (int s = 0; s < MEM_NSOURCES; s++)
			key_int(g, mem_source_name((enum mem_source)s), x->peak_by_source[s]);
		yajl_gen_map_close(g);
		key_num(g, "mean_step_s", x->mean_step_s);
		parts(g, "step_s", &x->step_s, true);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void comm(yajl_gen g, const struct run_result *r)
{
	json_key(g, "comm");
	yajl_gen_map_open(g);
	key_str(g, "transport", r->transport ? r->transport : "unknown");
	key_str(g, "link", r->link ? r->link : "unknown");
	key_str(g, "nccl_version", r->nccl_version);
	key_num(g, "link_busbw_gbps", r->link_busbw_gbps);
	key_str(g, "link_busbw_source", r->link_busbw_source);
	json_key(g, "collectives");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < r->ncoll; i++) {
		const struct coll_result *c = &r->coll[i];

		yajl_gen_map_open(g);
		key_str(g, "op", coll_name(c->op));
		key_str(g, "dtype", c->dtype != DT_UNKNOWN ? dtype_name(c->dtype) : NULL);
		key_num(g, "bytes_per_step", c->bytes_per_step > 0 ? c->bytes_per_step : NAN);
		key_num(g, "time_per_step_s", c->time_per_step_s);
		key_num(g, "calls_per_step", c->calls_per_step);
		key_num(g, "algbw_gbps", c->algbw_gbps);
		key_num(g, "busbw_gbps", c->busbw_gbps);
		key_num(g, "link_fraction", c->link_fraction);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

static void imbalance(yajl_gen g, const struct imbalance *im)
{
	json_key(g, "imbalance");
	yajl_gen_map_open(g);
	key_num(g, "memory_ratio", im->memory_ratio);
	key_num(g, "busy_ratio", im->busy_ratio);
	json_key(g, "flagged");
	yajl_gen_bool(g, im->flagged);
	key_str(g, "reason", im->reason);
	key_int(g, "saturated_rank", im->saturated_rank);
	key_int(g, "waiting_rank", im->waiting_rank);
	yajl_gen_map_close(g);
}

static void sources(yajl_gen g, const struct run *r)
{
	json_key(g, "sources");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < r->nsources; i++) {
		yajl_gen_map_open(g);
		key_str(g, "path", r->sources[i].path);
		key_str(g, "format", r->sources[i].format);
		key_int(g, "events", r->sources[i].events);
		key_int(g, "errors", r->sources[i].errors);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void run(yajl_gen g, const struct run_result *r)
{
	yajl_gen_map_open(g);
	key_str(g, "name", r->name);
	key_int(g, "gpus", r->gpus);
	key_str(g, "status", run_status_name(r->status));
	key_str(g, "strategy", r->strategy);
	key_int(g, "global_batch", r->global_batch);
	key_int(g, "micro_batch", r->micro_batch);
	key_int(g, "grad_accum", r->grad_accum);
	key_int(g, "seq_len", r->seq_len);
	precision(g, r);
	json_key(g, "steps");
	yajl_gen_map_open(g);
	key_int(g, "total", r->steps_total);
	key_int(g, "warmup", r->steps_warmup);
	key_int(g, "measured", r->steps_measured);
	yajl_gen_map_close(g);
	json_key(g, "step_time_s");
	yajl_gen_map_open(g);
	key_num(g, "median", r->step_median_s);
	key_num(g, "p10", r->step_p10_s);
	key_num(g, "p90", r->step_p90_s);
	key_num(g, "cv", r->step_cv);
	yajl_gen_map_close(g);
	json_key(g, "throughput");
	yajl_gen_map_open(g);
	key_num(g, "samples_per_s", r->samples_per_s);
	key_num(g, "tokens_per_s", r->tokens_per_s);
	yajl_gen_map_close(g);
	key_int(g, "examples_processed", r->examples_processed);
	per_gpu(g, r);
	comm(g, r);
	imbalance(g, &r->imbalance);
	sources(g, r->run);
	yajl_gen_map_close(g);
}

static void comparison(yajl_gen g, const struct analysis *a)
{
	const struct comparison *c = &a->cmp;

	json_key(g, "comparison");
	yajl_gen_map_open(g);
	key_str(g, "baseline", c->valid ? a->runs[c->baseline].name : NULL);
	key_str(g, "candidate", c->valid ? a->runs[c->candidate].name : NULL);
	key_num(g, "speedup", c->speedup);
	key_num(g, "throughput_ratio", c->throughput_ratio);
	key_num(g, "scaling_efficiency", c->scaling_efficiency);
	json_key(g, "confounds");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < c->nconfounds; i++) {
		yajl_gen_map_open(g);
		key_str(g, "what", confound_name(c->confounds[i].what));
		key_str(g, "baseline", c->confounds[i].baseline);
		key_str(g, "candidate", c->confounds[i].candidate);
		key_str(g, "severity", c->confounds[i].blocking ? "blocking" : "warning");
		key_str(g, "why", c->confounds[i].why);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	parts(g, "attribution_s", &c->attribution_s, false);
	key_num(g, "ideal_s", c->ideal_s);
	key_num(g, "actual_s", c->actual_s);
	key_str(g, "verdict", verdict_name(c->verdict));
	key_str(g, "reason", c->reason);
	yajl_gen_map_close(g);
}

static void lists(yajl_gen g, const struct analysis *a)
{
	json_key(g, "recommendations");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < a->nrecs; i++) {
		yajl_gen_map_open(g);
		key_str(g, "id", a->recs[i].id);
		key_str(g, "text", a->recs[i].text);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	json_key(g, "findings");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < a->nfindings; i++) {
		yajl_gen_map_open(g);
		key_str(g, "severity", diag_severity_name(a->findings[i].severity));
		key_str(g, "code", a->findings[i].code);
		key_str(g, "message", a->findings[i].message);
		key_str(g, "source", a->findings[i].source);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

int analysis_write_json(const struct analysis *a, FILE *f)
{
	yajl_gen g = json_new();
	const struct comparison *c = &a->cmp;
	int rc;

	yajl_gen_map_open(g);
	json_key(g, "tool");
	yajl_gen_map_open(g);
	key_str(g, "name", "scaleaudit");
	key_str(g, "version", SCALEAUDIT_VERSION);
	yajl_gen_map_close(g);
	json_key(g, "trial");
	yajl_gen_map_open(g);
	key_str(g, "title", a->title);
	key_str(g, "hypothesis", hypothesis_name(a->hypothesis));
	key_str(g, "baseline", c->valid ? a->runs[c->baseline].name : NULL);
	key_str(g, "candidate", c->valid ? a->runs[c->candidate].name : NULL);
	key_str(g, "question", question_name(a->question));
	yajl_gen_map_close(g);
	json_key(g, "runs");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < a->nruns; i++)
		run(g, &a->runs[i]);
	yajl_gen_array_close(g);
	comparison(g, a);
	lists(g, a);
	yajl_gen_map_close(g);
	rc = json_flush(g, f, true);
	yajl_gen_free(g);
	return rc;
}
