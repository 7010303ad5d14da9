#include "render/plan_text.h"

#include <math.h>
#include <string.h>

#include "analysis/plancheck.h"
#include "analysis/thresholds.h"
#include "core/gpu.h"
#include "core/model.h"
#include "core/money.h"
#include "core/qty.h"
#include "core/wrap.h"

/* One figure: "WHAT M UNIT measured, P UNIT planned (+D%[, beyond the T% tolerated])". */
static void figure(struct buf *out, const char *what, const char *(*fmt)(char *, double),
		   double predicted, double measured, double tol)
{
	double dev = plan_deviation(predicted, measured);
	char m[QTY_LEN], p[QTY_LEN];

	if (isnan(dev)) {
		buf_addf(out, "%s %s planned, not measured", what, fmt(p, predicted));
		return;
	}
	buf_addf(out, "%s %s measured, %s planned (%+.0f%%%s)", what, fmt(m, measured), fmt(p, predicted),
		 dev * 100, fabs(dev) > tol ? ", beyond the tolerance: the plan was wrong" : ", held");
}

void plan_line(const struct run_result *rr, const char *indent, struct buf *out)
{
	const struct plan_check *p = &rr->plan;
	bool peak = p->present && p->predicted_peak_bytes >= 0;
	char q[QTY_LEN];

	if (!p->present)
		return;
	buf_addf(out, "%s%s: ", indent, rr->name);
	if (peak && plan_oom_foreseen(rr))
		buf_addf(out, "peak memory per GPU %s planned: ran out of memory, as planned",
			 qty_gb(q, (double)p->predicted_peak_bytes));
	else if (peak)
		figure(out, "peak memory per GPU", qty_gb, (double)p->predicted_peak_bytes,
		       p->measured_peak_bytes >= 0 ? (double)p->measured_peak_bytes : NAN,
		       PLAN_MEMORY_TOLERANCE);
	if (isfinite(p->predicted_step_s)) {
		buf_addstr(out, peak ? "; " : "");
		figure(out, "step time", qty_duration, p->predicted_step_s, p->measured_step_s,
		       PLAN_STEP_TOLERANCE);
	}
	buf_addch(out, '\n');
}

bool plan_any(const struct analysis *a)
{
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].plan.present)
			return true;
	return false;
}

/* --- the plan command: tables and recommendation --- */

static const char *fits_word(int fits)
{
	return fits == 1 ? "yes" : fits == 0 ? "no" : "unknown";
}

/* bytes as GB in a column; "?" unknown */
static void gb(struct buf *out, double bytes, int width, int decimals)
{
	if (isnan(bytes))
		buf_addf(out, " %*s", width, "?");
	else
		buf_addf(out, " %*.*f", width, decimals, bytes / 1e9);
}

bool plan_shown(const struct plan_inputs *in, int s)
{
	return in->strategy < 0 || in->strategy == s;
}

static void memory_table(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	buf_addf(out, "%-15s %4s %7s %7s %7s %7s %7s %7s  fits:", "memory per GPU", "gpus", "weights",
		 "grads", "optim", "activ", "reserve", "total");
	for (size_t g = 0; g < in->ngpu; g++)
		buf_addf(out, "%s%s", g ? ", " : " ", in->gpu[g]->name);
	buf_addf(out, "\n%-15s %4s %7s %7s %7s %7s %7s %7s\n", "", "", "GB", "GB", "GB", "GB", "GB", "GB");
	for (int i = 0; i < PLAN_NSTRATEGY; i++) {
		const struct plan_strategy_result *s = &r->s[i];

		if (!plan_shown(in, i))
			continue;
		buf_addf(out, "%-15s %4d", plan_strategy_name(s->strategy), s->gpus);
		gb(out, s->mem.weights, 7, 1);
		gb(out, s->mem.gradients + s->mem.buckets, 7, 1);	/* the buckets: said below */
		gb(out, s->mem.optimizer, 7, 1);
		gb(out, s->mem.activations, 7, 1);
		gb(out, s->mem.reserve, 7, 1);
		gb(out, s->mem.total, 7, 1);
		buf_addstr(out, "  ");
		for (size_t g = 0; g < in->ngpu; g++)
			buf_addf(out, "%s%s", g ? ", " : "", fits_word(s->fit[g].fits));
		buf_addch(out, '\n');
	}
}

static void capacities(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	char cap[64];

	buf_addstr(out, "capacity (a fit is judged against the reported memory where known):");
	for (size_t g = 0; g < in->ngpu; g++)
		buf_addf(out, "%s %s %s", g ? "," : "", in->gpu[g]->name,
			 gpu_capacity_text(cap, sizeof(cap), in->gpu[g], -1));
	buf_addch(out, '\n');
	if (!plan_shown(in, PLAN_DDP))
		return;
	if (in->bucket_view)
		buf_addstr(out, "ddp's grads: gradient_as_bucket_view=True, so its gradient buckets are "
				"views of the gradients, no second copy\n");
	else
		buf_addf(out, "ddp's grads: %.1f GB of gradients + %.1f GB of gradient buckets, a second "
			 "copy (--bucket-view when the job sets gradient_as_bucket_view=True)\n",
			 r->s[PLAN_DDP].mem.gradients / 1e9, r->s[PLAN_DDP].mem.buckets / 1e9);
}

static void comm_table(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	buf_addstr(out, "comm per step   sent/GPU  payload");
	for (size_t g = 0; g < in->ngpu; g++)
		buf_addf(out, "  %8.8s", in->gpu[g]->name);
	buf_addf(out, "  a run tests (%s)\n                      GB       GB", in->gpu[0]->name);
	for (size_t g = 0; g < in->ngpu; g++)
		buf_addf(out, "  %8s", "s");
	buf_addch(out, '\n');
	for (int i = 0; i < PLAN_NSTRATEGY; i++) {
		const struct plan_strategy_result *s = &r->s[i];

		if (!plan_shown(in, i))
			continue;
		buf_addf(out, "%-15s", plan_strategy_name(s->strategy));
		gb(out, s->comm_bytes, 9, 2);
		gb(out, s->comm_payload_bytes, 8, 2);
		for (size_t g = 0; g < in->ngpu; g++)
			if (isnan(s->fit[g].comm_s))
				buf_addf(out, "  %8s", "?");
			else
				buf_addf(out, "  %8.3f", s->fit[g].comm_s);
		buf_addf(out, "  %s\n", s->tests ? s->tests : "-");
	}
}

/* "a 7-day window", "2 consecutive 30-day windows" */
static void window_text(struct buf *out, struct rental_window w)
{
	if (w.count > 1)
		buf_addf(out, "%d consecutive %d-day windows", w.count, w.days);
	else
		buf_addf(out, "a %d-day window", w.days);
}

/* "1 lot of 2 GPUs" */
static void lots_text(struct buf *out, int lots, int lot_gpus)
{
	buf_addf(out, "%d lot%s of %d GPU%s", lots, lots == 1 ? "" : "s", lot_gpus,
		 lot_gpus == 1 ? "" : "s");
}

/* A 30-day window's checkpoint interval and stop criteria, two indented lines. */
static void long_window(const struct plan_inputs *in, const struct plan_option *o, struct buf *out)
{
	const struct plan_stop *st = &o->stop;
	const char *unit = st->samples ? "samples" : "tokens";

	buf_addf(out, "    checkpoint every %.0f s (Young/Daly: write %.0f s, MTBF %g h)\n",
		 o->ckpt_interval_s, o->ckpt_write_s, in->mtbf_hours);
	buf_addf(out, "    stop and re-plan: under %.4g %s/s (%.0f%% of the planned rate) for %d day%s; "
		 "under %.4g %s by day %g (half the target); at day %g, the window's end, whatever "
		 "the loss\n", st->min_rate, unit, RENTAL_STOP_RATE_SHARE * 100, RENTAL_STOP_SLOW_DAYS,
		 RENTAL_STOP_SLOW_DAYS == 1 ? "" : "s", st->half_target, unit, st->half_days, st->end_days);
}

static void option_line(const struct plan_inputs *in, const struct plan_option *o, struct buf *out)
{
	char m[MONEY_LEN], q[QTY_LEN];

	buf_addf(out, "  %s on %d x %s: %.0f tokens/s", plan_strategy_name(o->strategy), o->gpus,
		 in->gpu[0]->name, o->tokens_per_s);
	if (!isnan(o->samples_per_s))
		buf_addf(out, ", %s", qty_rate(q, o->samples_per_s, "samples"));
	if (o->scaled)
		buf_addf(out, " (measured on 1 GPU, x %d x the measured efficiency)", o->gpus);
	else
		buf_addstr(out, o->measured ? " (measured)" : in->measured.source ? " (modelled)" : "");
	if (isnan(o->days_to_target)) {
		buf_addstr(out, "; no target given (--target-tokens, or --target-samples and --seq-len)\n");
		return;
	}
	buf_addf(out, ", %.1f days to the target; with a %g%% margin, ", o->days_to_target,
		 in->margin * 100);
	window_text(out, o->window);
	buf_addstr(out, " of ");
	lots_text(out, o->lots, in->lot_gpus);
	buf_addf(out, ": %s GPU-hours rented", gpu_hours_text(m, o->gpu_hours));
	buf_addf(out, " (%s used)", gpu_hours_text(m, o->gpu_hours_used));
	if (!isnan(o->cost))
		buf_addf(out, ", cost %s", money_cost(m, o->cost, in->currency[0] ? in->currency : NULL));
	buf_addch(out, '\n');
	if (o->window.days >= 30)
		long_window(in, o, out);
}

/* A line for each fallback GPU (gpu[1..]) that cannot hold a planned run. */
static void fallbacks(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	struct plan_fallback fb[PLAN_MAX_GPUS * 2];
	size_t n = plan_fallbacks(r, in, fb, sizeof(fb) / sizeof(fb[0]));
	char cap[64], q[QTY_LEN];

	for (size_t i = 0; i < n; i++)
		buf_addf(out, "warning: the fallback %s cannot hold the planned %s run: it needs %s "
			 "per GPU, the %s has %s\n", fb[i].gpu->name, plan_strategy_name(fb[i].strategy),
			 qty_gb(q, fb[i].need), fb[i].gpu->name, gpu_capacity_text(cap, sizeof(cap), fb[i].gpu, -1));
}

static void recommendation(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	int rec = r->recommended;

	const char *what = r->chosen ? "chosen" : "recommended";

	if (rec < 0)
		buf_addf(out, "%s: none on %d x %s: %s", what, in->gpus, in->gpu[0]->name, r->reason);
	else
		buf_addf(out, "%s: %s on %d x %s: %s", what, plan_strategy_name(rec),
			 r->s[rec].gpus, in->gpu[0]->name, r->reason);
	if (rec >= 0 && r->s[rec].tests)
		buf_addf(out, "; a run of it tests %s", r->s[rec].tests);
	buf_addch(out, '\n');
	if (r->hypothesis_note)
		buf_addf(out, "hypothesis %s: %s\n", in->hypothesis, r->hypothesis_note);
	fallbacks(in, r, out);
	if (!r->noption)
		return;
	buf_addf(out, "\nrental (%s: %.0f%% MFU of the %s peak, %dΨ FLOPs per token):\n",
		 in->measured.source ? "throughput measured where it says so, else estimated" :
		 "estimated throughput", in->mfu * 100, in->precision == DT_FP32 ? "tf32" : dtype_name(in->precision),
		 in->checkpointing == PLAN_CKPT_FULL ? 8 : 6);
	for (size_t i = 0; i < r->noption; i++)
		option_line(in, &r->option[i], out);
}

/* 7e9 as "7B", 1.5576e9 as "1.558B", 350e6 as "350M" */
static void count(struct buf *out, double n)
{
	if (n >= 1e9)
		buf_addf(out, "%.4gB", n / 1e9);
	else if (n >= 1e6)
		buf_addf(out, "%.4gM", n / 1e6);
	else
		buf_addf(out, "%.4g", n);
}

/* What a finished trial measured (--from), and which totals it replaces. */
static void measured(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	const struct plan_measured *m = &in->measured;
	char q1[QTY_LEN], q2[QTY_LEN];

	if (!m->source)
		return;
	buf_addf(out, "measured (%s):", m->source);
	for (int i = 0; i < 2; i++)
		buf_addf(out, "%s %d GPU%s %s, %.0f tokens/s, peak %s per GPU", i ? ";" : "",
			 m->gpus[i], m->gpus[i] == 1 ? "" : "s", qty_rate(q1, m->samples_per_s[i], "samples"),
			 m->tokens_per_s[i], qty_gb(q2, m->peak_bytes[i]));
	buf_addf(out, "; scaling efficiency %.3g. Every other figure is modelled.\n", m->efficiency);
	for (int i = 0; i < PLAN_NSTRATEGY; i++)
		if (r->s[i].mem_measured && plan_shown(in, i))
			buf_addf(out, "%s's total is the measured peak, %s (the model's: %s)\n",
				 plan_strategy_name(r->s[i].strategy), qty_gb(q1, r->s[i].mem.total),
				 qty_gb(q2, r->s[i].modelled_total));
}

static void header(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	buf_addstr(out, "plan: ");
	count(out, in->params);
	buf_addf(out, " parameters%s%s%s, %s%s, %s (K = %g), %d GPUs\n", in->model ? " (" : "",
		 in->model ? in->model : "", in->model ? ")" : "", dtype_name(in->precision),
		 in->precision == DT_FP32 ? "" : " mixed precision (fp32 master weights)",
		 in->optimizer_name, r->optimizer_k, in->gpus);
	if (isnan(r->activation_per_layer) || in->layers < 0)
		buf_addstr(out, "activations: unknown (give --micro-batch, --seq-len, --hidden, "
				"--layers, --heads or --model)\n");
	else
		buf_addf(out, "activations: micro batch %lld, seq len %lld, hidden %lld, %lld layers, "
			 "%lld heads, checkpointing %s, grad accum %lld\n", (long long)in->micro_batch,
			 (long long)in->seq_len, (long long)in->hidden, (long long)in->layers,
			 (long long)in->heads, plan_checkpointing_name(in->checkpointing),
			 (long long)in->grad_accum);
	if (in->attention == PLAN_ATTN_FLASH)
		buf_addstr(out, "attention: flash (its scores are never stored)\n");
	if (!isnan(in->reserve_bytes))
		buf_addf(out, "reserve per GPU: %.2f GB as given\n", in->reserve_bytes / 1e9);
	else
		buf_addf(out, "reserve per GPU: CUDA context %.2f GB + NCCL %.2f GB (multi-GPU) + "
			 "%g%% of the allocated bytes (fragmentation)\n", in->context_bytes / 1e9,
			 in->nccl_bytes / 1e9, in->fragmentation * 100);
}

/*
 * Appends text's lines to out, each wrapped at 80 columns with its
 * continuation indented 4 more than its own leading spaces. Consumes text.
 */
static void wrap_lines(struct buf *out, struct buf *text)
{
	char *end = text->data + text->len;

	for (char *line = text->data, *nl; line < end; line = nl + 1) {
		size_t lead = strspn(line, " ");

		nl = strchr(line, '\n');
		if (!nl)
			nl = end;
		*nl = 0;
		/* text_wrap pads a line up to its indent: told the first starts there, it does not */
		buf_addf(out, "%*s", (int)lead, "");
		text_wrap(out, line + lead, lead + 4, lead + 4);
		buf_addch(out, '\n');
	}
}

static void tables(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	struct buf text = BUF_INIT;

	buf_init(&text, 0);
	header(in, r, &text);
	measured(in, r, &text);
	wrap_lines(out, &text);
	buf_addch(out, '\n');
	memory_table(in, r, out);
	buf_reset(&text);
	capacities(in, r, &text);
	wrap_lines(out, &text);
	buf_addch(out, '\n');
	comm_table(in, r, out);
	buf_addch(out, '\n');
	buf_reset(&text);
	recommendation(in, r, &text);
	wrap_lines(out, &text);
	buf_release(&text);
}

/* --- --explain: every formula with its numbers and its source --- */

static void explain_states(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	double psi = in->params, wb = dtype_size(in->precision), k = r->optimizer_k;
	int n = in->gpus;

	buf_addf(out, "model states (Rajbhandari et al. 2020, \"ZeRO: Memory Optimizations Toward "
		      "Training Trillion Parameter Models\", section 3.1): %gΨ + %gΨ + KΨ bytes\n", wb, wb);
	static const char *const states[PLAN_NOPTIMIZER] = {
		[PLAN_ADAM] = "Adam momentum 4 + variance 4",
		[PLAN_SGD] = "SGD momentum 4",
		[PLAN_ADAFACTOR] = "Adafactor's factored second moments (about 8/hidden bytes, left out)",
		[PLAN_ADAM8BIT] = "8-bit Adam momentum 1 + variance 1 (Dettmers et al. 2022; its "
				  "block scales left out)",
	};

	buf_addf(out, "  K = %g (%s): %s%s\n", k, in->optimizer_name,
		 in->precision == DT_FP32 ? "" : "fp32 master weights 4 + ", states[in->optimizer]);
	buf_addf(out, "  Ψ = %.0f: weights %g x Ψ = %.2f GB, gradients %g x Ψ = %.2f GB, optimizer "
		 "%g x Ψ = %.2f GB; %.2f GB in all\n", psi, wb, wb * psi / 1e9, wb, wb * psi / 1e9, k,
		 k * psi / 1e9, (2 * wb + k) * psi / 1e9);
	buf_addf(out, "  ZeRO section 5 over N = %d: zero1 shards the optimizer (%.2f GB), zero2 the "
		 "gradients too (%.2f GB), zero3 and fsdp the weights too (%.2f GB); pipeline and "
		 "tensor split all three N ways\n", n, (2 * wb + k / n) * psi / 1e9,
		 (wb + (wb + k) / n) * psi / 1e9, (2 * wb + k) * psi / n / 1e9);
	buf_addf(out, "  ddp's gradient buckets (PyTorch DistributedDataParallel): a second copy of the "
		 "gradients, %gΨ = %.2f GB, unless gradient_as_bucket_view=True makes them views%s: "
		 "ddp holds %.2f GB of states and buckets\n", wb, wb * psi / 1e9,
		 in->bucket_view ? " (given: no copy)" : "",
		 (2 * wb + k) * psi / 1e9 + r->s[PLAN_DDP].mem.buckets / 1e9);
}

static void explain_activations(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	double s = (double)in->seq_len, b = (double)in->micro_batch, h = (double)in->hidden;
	double a = (double)in->heads;

	buf_addstr(out, "activations (Korthikanti et al. 2022, \"Reducing Activation Recomputation in "
			"Large Transformer Models\", section 4, table 2), bytes per layer in 16 bits:\n"
			"  none s·b·h·(34 + 5·a·s/h), or s·b·h·34 with flash attention (the 5·a·s/h "
			"scores are never stored); selective s·b·h·34; full 2·s·b·h (the layer's input); "
			"t-way tensor parallel: s·b·h·(10 + 24/t + 5·a·s/(h·t)); fp32 doubles them\n");
	if (isnan(r->activation_per_layer) || in->layers < 0) {
		buf_addstr(out, "  unknown here: the micro batch, sequence length, hidden size, layers "
				"or heads are not given\n");
		return;
	}
	buf_addf(out, "  s = %g, b = %g, h = %g, a = %g, checkpointing %s: %.4g GB per layer x %lld "
		 "layers = %.2f GB\n", s, b, h, a, plan_checkpointing_name(in->checkpointing),
		 r->activation_per_layer / 1e9, (long long)in->layers,
		 r->s[PLAN_SINGLE].mem.activations / 1e9);
	buf_addf(out, "  tensor over t = %d: %.2f GB; pipeline (1F1B): its first stage keeps "
		 "min(N, grad accum) = %lld micro-batches of L/%d layers: %.2f GB\n", in->gpus,
		 r->s[PLAN_TENSOR].mem.activations / 1e9,
		 (long long)(in->grad_accum < in->gpus ? in->grad_accum : in->gpus), in->gpus,
		 r->s[PLAN_PIPELINE].mem.activations / 1e9);
}

static void explain_fit(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	if (!isnan(in->reserve_bytes))
		buf_addf(out, "reserve (as given): %.2f GB per GPU\n", in->reserve_bytes / 1e9);
	else
		buf_addf(out, "reserve (stated default, overridable): CUDA context %.2f GB + NCCL "
			 "buffers %.2f GB on a multi-GPU strategy + %g%% of weights, gradients, "
			 "optimizer and activations for fragmentation\n", in->context_bytes / 1e9,
			 in->nccl_bytes / 1e9, in->fragmentation * 100);
	buf_addstr(out, "fit: total <= capacity, the memory the driver reports (nvidia-smi "
			"memory.total) where known, else the vendor's nominal GB\n");
	if (r->recommended >= 0) {
		const struct plan_strategy_result *s = &r->s[r->recommended];
		char cap[64];

		buf_addf(out, "  %s: %.2f + %.2f + %.2f + %.2f + %.2f + %.2f = %.2f GB <= %.2f GB, the "
			 "%s's %s\n", plan_strategy_name(s->strategy), s->mem.weights / 1e9,
			 s->mem.gradients / 1e9, s->mem.buckets / 1e9, s->mem.optimizer / 1e9,
			 s->mem.activations / 1e9, s->mem.reserve / 1e9, s->mem.total / 1e9,
			 s->fit[0].capacity / 1e9, s->fit[0].gpu->name,
			 gpu_capacity_text(cap, sizeof(cap), s->fit[0].gpu, -1));
	}
}

static void explain_comm(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	const struct gpu_model *g = in->gpu[0];
	int n = in->gpus;

	buf_addf(out, "communication per optimizer step (ZeRO section 7: 2Ψ for DDP, 3Ψ for ZeRO-3, "
		      "as N grows), what one GPU sends with ring algorithms: all-reduce 2(N-1)/N of "
		      "its payload, all-gather and reduce-scatter (N-1)/N, send/recv 1; N = %d, "
		      "grad accum %lld\n", n, (long long)in->grad_accum);
	buf_addf(out, "  ddp, zero1: all-reduce of the gradients, payload %.2f GB, sends %.2f GB\n",
		 r->s[PLAN_DDP].comm_payload_bytes / 1e9, r->s[PLAN_DDP].comm_bytes / 1e9);
	buf_addf(out, "  zero2: reduce-scatter of the gradients every micro-batch + all-gather of "
		 "the weights, payload %.2f GB, sends %.2f GB\n", r->s[PLAN_ZERO2].comm_payload_bytes / 1e9,
		 r->s[PLAN_ZERO2].comm_bytes / 1e9);
	buf_addf(out, "  zero3, fsdp: all-gather forward + all-gather backward + reduce-scatter, every "
		 "micro-batch, payload %.2f GB, sends %.2f GB\n", r->s[PLAN_ZERO3].comm_payload_bytes / 1e9,
		 r->s[PLAN_ZERO3].comm_bytes / 1e9);
	buf_addf(out, "  pipeline: the activations forward and their gradients back at each stage "
		 "boundary, s·b·h x 2 bytes per micro-batch: sends %.4g GB\n", r->s[PLAN_PIPELINE].comm_bytes / 1e9);
	buf_addf(out, "  tensor (Megatron): %d all-reduces of s·b·h x 2 bytes per layer and "
		 "micro-batch: payload %.4g GB, sends %.4g GB\n",
		 in->checkpointing == PLAN_CKPT_FULL ? 6 : 4, r->s[PLAN_TENSOR].comm_payload_bytes / 1e9,
		 r->s[PLAN_TENSOR].comm_bytes / 1e9);
	if (g->mesh_links > 0)
		buf_addf(out, "  time = sent / the link's nominal bandwidth per direction: %s %s, a fully "
			 "connected mesh of %d links of %g GB/s per GPU, one link to each peer: %d GPUs "
			 "use %d link%s, %g GB/s\n", g->name, gpu_link_name(g->link), g->mesh_links,
			 g->mesh_link_gbps, n, n - 1 < g->mesh_links ? n - 1 : g->mesh_links,
			 n == 2 ? "" : "s", gpu_link_gbps_for(g, n));
	else
		buf_addf(out, "  time = sent / the link's nominal bandwidth per direction: %s %s %g GB/s "
			 "to any peer\n", g->name, gpu_link_name(g->link), gpu_link_gbps_for(g, n));
}

static void explain_rental(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	const struct gpu_model *g = in->gpu[0];
	enum dtype t = in->precision == DT_FP32 ? DT_TF32 : in->precision;
	int f = in->checkpointing == PLAN_CKPT_FULL ? 8 : 6;

	buf_addf(out, "throughput (Kaplan et al. 2020, \"Scaling Laws for Neural Language Models\", "
		      "section 2.1: 6Ψ FLOPs per token; Narayanan et al. 2021, \"Efficient Large-Scale "
		      "Language Model Training on GPU Clusters Using Megatron-LM\", section 5.1, for "
		      "recomputation; both without the attention term): %dΨ FLOPs per token%s; tokens/s = N x MFU x peak / %dΨ = N x "
		      "%g x %g TFLOP/s (%s %s) / (%d x %.0f) = N x %.0f\n", f,
		      f == 8 ? " (full recomputation adds a forward pass)" : "", f, in->mfu,
		      gpu_peak_tflops(g, t), g->name, dtype_name(t), f, in->params,
		      in->mfu * gpu_peak_tflops(g, t) * 1e12 / (f * in->params));
	buf_addf(out, "rental window, as rented: days needed = target tokens (or samples x seq len) / "
		      "tokens/s / 86400; the window is the shortest of 3, 7 or 30 days holding days "
		      "needed x (1 + margin %g), consecutive 30-day windows beyond; the GPUs are rented "
		      "in lots of %d; GPU-hours = lots x %d x window days x 24; cost = GPU-hours x "
		      "price\n", in->margin, in->lot_gpus, in->lot_gpus);
	if (!r->noption)
		return;
	buf_addf(out, "checkpoint interval (Young 1974; Daly 2006): √(2·C·M) − C, C = (%g + %g) x Ψ "
		 "bytes / %g GB/s = %.1f s, M = %g h: √(2 x %.1f x %.0f) − %.1f = %.0f s\n",
		 (double)dtype_size(in->precision), r->optimizer_k, in->ckpt_write_gbps,
		 r->option[0].ckpt_write_s, in->mtbf_hours, r->option[0].ckpt_write_s,
		 in->mtbf_hours * 3600, r->option[0].ckpt_write_s, r->option[0].ckpt_interval_s);
	buf_addf(out, "stop criteria of a 30-day window: the throughput under %g%% of the planned "
		 "rate for %d day%s, less than %g of the target by %g of the window, or the window's "
		 "end\n", RENTAL_STOP_RATE_SHARE * 100, RENTAL_STOP_SLOW_DAYS,
		 RENTAL_STOP_SLOW_DAYS == 1 ? "" : "s", RENTAL_STOP_HALF, RENTAL_STOP_HALF);
}

void plan_explain(const struct plan_inputs *in, const struct plan_result *r, struct buf *out)
{
	explain_states(in, r, out);
	explain_activations(in, r, out);
	explain_fit(in, r, out);
	explain_comm(in, r, out);
	explain_rental(in, r, out);
}

void plan_text(const struct plan_inputs *in, const struct plan_result *r, bool explain, struct buf *out)
{
	struct buf text = BUF_INIT;

	tables(in, r, out);
	if (!explain)
		return;
	buf_init(&text, 0);
	buf_addstr(out, "\nhow these numbers are made:\n");
	plan_explain(in, r, &text);
	wrap_lines(out, &text);
	buf_release(&text);
}
