#include "render/plan_json.h"

#include <string.h>

#include "analysis/thresholds.h"
#include "core/buf.h"
#include "core/gpu.h"
#include "core/json.h"
#include "core/model.h"
#include "render/plan_text.h"

static void json_count(yajl_gen g, const char *key, int64_t v)
{
	json_key(g, key);
	if (v < 0)
		yajl_gen_null(g);
	else
		json_int(g, v);
}

static void json_field(yajl_gen g, const char *key, double v)
{
	json_key(g, key);
	json_num(g, v);
}

static void json_text(yajl_gen g, const char *key, const char *s)
{
	json_key(g, key);
	json_str(g, s);
}

/* --from: what a finished trial measured; null without it. */
static void json_measured(yajl_gen g, const struct plan_measured *m)
{
	json_key(g, "measured");
	if (!m->source) {
		yajl_gen_null(g);
		return;
	}
	yajl_gen_map_open(g);
	json_text(g, "source", m->source);
	json_key(g, "runs");
	yajl_gen_array_open(g);
	for (int i = 0; i < 2; i++) {
		yajl_gen_map_open(g);
		json_count(g, "gpus", m->gpus[i]);
		json_text(g, "strategy", m->strategy[i] < 0 ? NULL : plan_strategy_name(m->strategy[i]));
		json_field(g, "samples_per_s", m->samples_per_s[i]);
		json_field(g, "tokens_per_s", m->tokens_per_s[i]);
		json_field(g, "peak_bytes", m->peak_bytes[i]);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	json_field(g, "scaling_efficiency", m->efficiency);
	yajl_gen_map_close(g);
}

static void json_inputs(yajl_gen g, const struct plan_inputs *in)
{
	json_key(g, "inputs");
	yajl_gen_map_open(g);
	json_text(g, "model", in->model);
	json_field(g, "params", in->params);
	json_count(g, "hidden", in->hidden);
	json_count(g, "layers", in->layers);
	json_count(g, "heads", in->heads);
	json_count(g, "vocab", in->vocab);
	json_count(g, "micro_batch", in->micro_batch);
	json_count(g, "seq_len", in->seq_len);
	json_count(g, "grad_accum", in->grad_accum);
	json_count(g, "gpus", in->gpus);
	json_text(g, "precision", dtype_name(in->precision));
	json_text(g, "optimizer", in->optimizer_name);
	json_key(g, "bucket_view");
	yajl_gen_bool(g, in->bucket_view);
	json_text(g, "checkpointing", plan_checkpointing_name(in->checkpointing));
	json_text(g, "attention", plan_attention_name(in->attention));
	json_key(g, "gpu_models");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < in->ngpu; i++)
		json_str(g, in->gpu[i]->name);
	yajl_gen_array_close(g);
	json_text(g, "hypothesis", in->hypothesis);
	json_field(g, "expected_speedup", in->expected_speedup);
	json_text(g, "question", in->question);
	json_text(g, "title", in->title[0] ? in->title : NULL);
	json_count(g, "target_samples", in->target_samples);
	json_count(g, "target_tokens", in->target_tokens);
	json_field(g, "price", in->price);
	json_text(g, "currency", in->currency[0] ? in->currency : NULL);
	json_field(g, "memory_reserve_bytes", in->reserve_bytes);
	json_field(g, "context_bytes", in->context_bytes);
	json_field(g, "nccl_bytes", in->nccl_bytes);
	json_field(g, "fragmentation", in->fragmentation);
	json_field(g, "mfu", in->mfu);
	json_field(g, "ckpt_write_gbps", in->ckpt_write_gbps);
	json_field(g, "mtbf_hours", in->mtbf_hours);
	json_field(g, "margin", in->margin);
	json_count(g, "lot_gpus", in->lot_gpus);
	json_measured(g, &in->measured);
	yajl_gen_map_close(g);
}

static void json_gpus(yajl_gen g, const struct plan_inputs *in, const struct plan_result *r)
{
	json_key(g, "gpu_models");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < in->ngpu; i++) {
		const struct plan_fit *f = &r->s[PLAN_SINGLE].fit[i];

		yajl_gen_map_open(g);
		json_text(g, "name", f->gpu->name);
		json_field(g, "capacity_bytes", f->capacity);
		json_count(g, "capacity_nominal_bytes", f->gpu->memory_nominal);
		json_count(g, "capacity_reported_bytes", f->gpu->memory_reported);
		json_text(g, "capacity_source", f->capacity_reported ? "reported" : "nominal");
		json_text(g, "link", gpu_link_name(f->gpu->link));
		json_field(g, "link_gbps", gpu_link_gbps_for(f->gpu, in->gpus));
		json_field(g, "link_platform_gbps", f->gpu->link_gbps);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_memory(yajl_gen g, const struct plan_memory *m)
{
	json_key(g, "memory_per_gpu_bytes");
	yajl_gen_map_open(g);
	json_field(g, "weights", m->weights);
	json_field(g, "gradients", m->gradients);
	json_field(g, "buckets", m->buckets);
	json_field(g, "optimizer", m->optimizer);
	json_field(g, "activations", m->activations);
	json_field(g, "reserve", m->reserve);
	json_field(g, "total", m->total);
	yajl_gen_map_close(g);
}

static void json_strategy(yajl_gen g, const struct plan_inputs *in, const struct plan_strategy_result *s)
{
	yajl_gen_map_open(g);
	json_text(g, "name", plan_strategy_name(s->strategy));
	json_count(g, "gpus", s->gpus);
	json_memory(g, &s->mem);
	json_text(g, "memory_total_source", s->mem_measured ? "measured" : "modelled");
	json_key(g, "fits");
	yajl_gen_map_open(g);
	for (size_t i = 0; i < in->ngpu; i++) {
		json_key(g, in->gpu[i]->name);
		if (s->fit[i].fits < 0)
			yajl_gen_null(g);
		else
			yajl_gen_bool(g, s->fit[i].fits);
	}
	yajl_gen_map_close(g);
	json_field(g, "comm_bytes_per_step", s->comm_bytes);
	json_field(g, "comm_payload_bytes_per_step", s->comm_payload_bytes);
	json_key(g, "comm_s_per_step");
	yajl_gen_map_open(g);
	for (size_t i = 0; i < in->ngpu; i++)
		json_field(g, in->gpu[i]->name, s->fit[i].comm_s);
	yajl_gen_map_close(g);
	json_text(g, "tests", s->tests);
	yajl_gen_map_close(g);
}

/* A 30-day window's stop criteria; null for a shorter window. */
static void json_stop(yajl_gen g, const struct plan_option *o)
{
	json_key(g, "stop");
	if (o->window.days < 30) {
		yajl_gen_null(g);
		return;
	}
	yajl_gen_map_open(g);
	json_text(g, "unit", o->stop.samples ? "samples" : "tokens");
	json_field(g, "min_rate_per_s", o->stop.min_rate);
	json_count(g, "slow_days", RENTAL_STOP_SLOW_DAYS);
	json_field(g, "half_days", o->stop.half_days);
	json_field(g, "half_target", o->stop.half_target);
	json_field(g, "end_days", o->stop.end_days);
	yajl_gen_map_close(g);
}

static void json_option(yajl_gen g, const struct plan_inputs *in, const struct plan_option *o)
{
	yajl_gen_map_open(g);
	json_text(g, "strategy", plan_strategy_name(o->strategy));
	json_count(g, "gpus", o->gpus);
	json_text(g, "gpu_model", in->gpu[0]->name);
	json_field(g, "tokens_per_s", o->tokens_per_s);
	json_field(g, "samples_per_s", o->samples_per_s);
	json_text(g, "throughput_source", o->scaled ? "measured-scaled" : o->measured ? "measured" : "modelled");
	json_field(g, "days_to_target", o->days_to_target);
	json_count(g, "lots", o->lots);
	json_count(g, "lot_gpus", in->lot_gpus);
	json_count(g, "window_days", o->window_days);
	json_count(g, "window_count", o->window.days > 0 ? o->window.count : -1);
	json_field(g, "gpu_hours_used", o->gpu_hours_used);
	json_field(g, "gpu_hours", o->gpu_hours);
	json_field(g, "cost", o->cost);
	json_field(g, "checkpoint_write_s", o->ckpt_write_s);
	json_field(g, "checkpoint_interval_s", o->ckpt_interval_s);
	json_stop(g, o);
	yajl_gen_map_close(g);
}

/* The explanation, one string per line. */
static void json_explain(yajl_gen g, const struct plan_inputs *in, const struct plan_result *r)
{
	struct buf text = BUF_INIT;

	buf_init(&text, 0);
	plan_explain(in, r, &text);
	json_key(g, "explain");
	yajl_gen_array_open(g);
	for (char *line = text.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		json_str(g, line);
	}
	yajl_gen_array_close(g);
	buf_release(&text);
}

int plan_json(const struct plan_inputs *in, const struct plan_result *r, bool explain, FILE *f)
{
	yajl_gen g = json_new();
	int rc;

	yajl_gen_map_open(g);
	json_inputs(g, in);
	json_gpus(g, in, r);
	json_key(g, "strategies");
	yajl_gen_array_open(g);
	for (int i = 0; i < PLAN_NSTRATEGY; i++)
		if (plan_shown(in, i))
			json_strategy(g, in, &r->s[i]);
	yajl_gen_array_close(g);
	json_text(g, "recommended", r->recommended < 0 ? NULL : plan_strategy_name(r->recommended));
	json_text(g, "reason", r->reason);
	json_text(g, "hypothesis_note", r->hypothesis_note);
	json_key(g, "options");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < r->noption; i++)
		json_option(g, in, &r->option[i]);
	yajl_gen_array_close(g);
	if (explain)
		json_explain(g, in, r);
	yajl_gen_map_close(g);
	rc = json_flush(g, f, true);
	yajl_gen_free(g);
	return rc;
}
