/*
 * decision: what to rent next (docs/analysis.md "The decision"), from the
 * measured throughput of each option the trial ran: the baseline's GPUs and
 * the candidate's. A rental is lots of lot_gpus GPUs of one model for a
 * window (analysis/rental.h); what it costs is what is rented. The cheapest
 * window wins, then the fewest days, then the fewest lots; every other
 * option is kept with why it lost. Nothing is decided past a blocking
 * confound other than global batch: the runs are then not one job.
 */
#include "analysis/analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/readiness.h"
#include "analysis/rental.h"
#include "analysis/thresholds.h"
#include "core/gpu.h"
#include "core/money.h"
#include "core/xalloc.h"

#define DAY_S 86400.0
#define MILLION 1e6
/* lots tried past the fewest that hold one run: a sweep gains nothing past all its runs at once */
#define MAX_LOT_STEPS 4096
/* alternatives kept, cheapest first */
#define MAX_ALTS 8

/* The trial's terms of renting. */
struct terms {
	int32_t lot;		/* GPUs per lot */
	int32_t variants;
	double margin;
	double price;		/* NaN unset */
	int64_t target;		/* -1 none */
	bool tokens;		/* the target counts tokens */
	double mtbf_hours;
	bool variants_assumed;	/* a sweep of unknown size, taken as one lot's worth of runs */
};

/* One way to rent: a run's GPUs, on so many lots, so many runs at once. */
struct choice {
	const struct run_result *r;
	const char *excluded;	/* why it cannot be rented; NULL when it can */
	struct rent rent;
	double run_days;	/* one run to the target; NaN without one */
	double days;		/* every round of runs */
	double gpu_hours;	/* rented */
	double cost;		/* rented, at the price; NaN */
	double per_million;	/* rented GPU-hours per million samples */
};

static struct terms terms_of(const struct analysis *a, const struct trial *t)
{
	struct terms k = {
		.lot = t->lot_gpus.set && t->lot_gpus.v > 0 ? (int32_t)t->lot_gpus.v : RENTAL_LOT_GPUS_DEFAULT,
		.variants = t->variants.set && t->variants.v > 0 ? (int32_t)t->variants.v : 1,
		.margin = t->margin.set ? t->margin.v : RENTAL_MARGIN_DEFAULT,
		.price = t->gpu_hour_price.set ? t->gpu_hour_price.v : NAN,
		.target = t->target_samples.set ? t->target_samples.v :
			  t->target_tokens.set ? t->target_tokens.v : -1,
		.tokens = !t->target_samples.set && t->target_tokens.set,
		.mtbf_hours = t->mtbf_hours.set ? t->mtbf_hours.v : RENTAL_MTBF_HOURS_DEFAULT,
	};

	if (!t->variants.set && a->question == Q_HPARAM_SWEEP && a->cmp.valid) {
		/* a sweep holds several runs: without its size, as many as the smaller option fits on a lot */
		int32_t g = a->runs[a->cmp.baseline].gpus;

		if (g > a->runs[a->cmp.candidate].gpus)
			g = a->runs[a->cmp.candidate].gpus;
		if (g > 0 && k.lot / g > 1) {
			k.variants = k.lot / g;
			k.variants_assumed = true;
		}
	}
	return k;
}

/* The fewest lots of k->lot GPUs that hold gpus. */
static int32_t lots_for(const struct terms *k, int32_t gpus)
{
	return (gpus + k->lot - 1) / k->lot;
}

/* Days one run of r needs to the target, at its samples/s (tokens/s for a token target); NaN. */
static double days_to_target(const struct terms *k, const struct run_result *r)
{
	double rate = k->tokens ? r->tokens_per_s : r->samples_per_s;

	return k->target >= 0 && rate > 0 ? (double)k->target / rate / DAY_S : NAN;
}

/* "B200": the GPU table's row, else the name the run's first GPU reports; NULL unknown. */
static const char *model_of(const struct run_result *r)
{
	const struct gpu_model *m;

	if (!r->ngpu || !r->gpu[0].name)
		return NULL;
	m = gpu_lookup(r->gpu[0].name, r->gpu[0].memory_total);
	return m ? m->name : r->gpu[0].name;	/* the caller copies it */
}

/* s in the analysis's arena: what a run holds may be the trial's, which is freed before the result */
static const char *copy(struct analysis *a, const char *s)
{
	return s ? analysis_printf(a, "%s", s) : NULL;
}

/* "2x B200", "2 GPUs" when the model is unknown, "? GPUs" when the count is */
static const char *gpus_text(struct analysis *a, int32_t n, const char *model)
{
	if (n <= 0)
		return model ? analysis_printf(a, "?x %s", model) : "? GPUs";
	if (model)
		return analysis_printf(a, "%dx %s", n, model);
	return analysis_printf(a, "%d GPU%s", n, n == 1 ? "" : "s");
}

/* Why run r is no option; NULL when it is one. */
static const char *excluded(struct analysis *a, const struct terms *k, const struct run_result *r)
{
	if (run_failed(r))
		return analysis_printf(a, "it did not complete (%s)", run_status_name(r->status));
	if (r->gpus <= 0)	/* lots, GPU-hours and cost all need it */
		return analysis_printf(a, "its GPU count is unknown: no trace or log says it; set gpus = N in %s",
				       r->manifest ? r->manifest : "its run.ini");
	if (!(r->samples_per_s > 0))
		return "it has no measured throughput";
	if (k->target >= 0 && k->tokens && !(r->tokens_per_s > 0))
		return "it has no measured tokens/s for target_tokens (seq_len unknown)";
	if (r->readiness.present && r->readiness.verdict && !strcmp(r->readiness.verdict, "not-ready"))
		return analysis_printf(a, "its software does not target its GPU: %s", r->readiness.reason);
	return NULL;
}

/* Sizes choice c for `lots` lots; false when the lots hold no run. */
static bool size_choice(const struct terms *k, struct choice *c, int32_t lots)
{
	int32_t g = c->r->gpus, conc = (int32_t)((int64_t)lots * k->lot / g), rounds;
	struct rental_window w;

	if (conc < 1)
		return false;
	if (conc > k->variants)
		conc = k->variants;
	rounds = (k->variants + conc - 1) / conc;
	c->rent.lots = lots;
	c->rent.concurrent_runs = conc;
	c->days = c->run_days * rounds;
	w = rental_window_for(c->days, k->margin);
	c->rent.window_days = w.days;
	c->rent.windows = w.count;
	c->gpu_hours = rental_window_gpu_hours(w, lots * k->lot);
	c->cost = c->gpu_hours * k->price;
	c->per_million = (double)lots * k->lot * MILLION / (conc * c->r->samples_per_s) / 3600;
	return true;
}

/* What a choice is judged by: its cost as rented (GPU-hours without a price), else per sample. */
static double rank_of(const struct terms *k, const struct choice *c)
{
	if (k->target < 0)
		return c->per_million;
	return isnan(k->price) ? c->gpu_hours : c->cost;
}

/* True when x beats y: cheaper, then fewer days, then fewer lots, then fewer GPUs a run. */
static bool beats(const struct terms *k, const struct choice *x, const struct choice *y)
{
	double rx = rank_of(k, x), ry = rank_of(k, y);

	if (fabs(rx - ry) > 1e-9 * fmax(fabs(rx), fabs(ry)))
		return rx < ry;
	if (k->target >= 0 && x->days != y->days)
		return x->days < y->days;
	if (x->rent.lots != y->rent.lots)
		return x->rent.lots < y->rent.lots;
	return x->rent.run_gpus < y->rent.run_gpus;
}

/* Every way to rent run r: one per count of lots that changes how many runs go at once. */
static size_t choices_of(struct analysis *a, const struct terms *k, const struct run_result *r,
			 struct choice *out, size_t cap)
{
	struct choice c = { .r = r, .run_days = NAN };
	int32_t first, last, conc = 0;
	size_t n = 0;

	c.rent = (struct rent){ .present = true, .gpu_model = copy(a, model_of(r)), .gpus = k->lot,
				.run_gpus = r->gpus, .windows = -1, .window_days = -1 };
	if ((c.excluded = excluded(a, k, r))) {
		out[0] = c;
		out[0].rent.present = false;
		return 1;
	}
	c.run_days = days_to_target(k, r);
	first = lots_for(k, r->gpus);
	/* without a target more lots only run the same samples sooner: the fewest are the rental */
	last = k->target < 0 ? first : (int32_t)fmin((double)first + MAX_LOT_STEPS,
						      ceil((double)k->variants * r->gpus / k->lot));
	for (int32_t lots = first; lots <= last && n < cap; lots++) {
		if (!size_choice(k, &c, lots) || c.rent.concurrent_runs == conc)
			continue;
		conc = c.rent.concurrent_runs;
		out[n++] = c;
	}
	return n;
}

/* "1 lot of 2x B200 for 7 days", "2 lots of 2x B200 for 2 consecutive 30-day windows" */
static const char *rent_text(struct analysis *a, const struct rent *r)
{
	const char *win = r->window_days <= 0 ? "" :
			  r->windows > 1 ? analysis_printf(a, " for %d consecutive %d-day windows", r->windows,
							   r->window_days) :
			  analysis_printf(a, " for %d days", r->window_days);

	return analysis_printf(a, "%d lot%s of %s%s", r->lots, r->lots == 1 ? "" : "s",
			       gpus_text(a, r->gpus, r->gpu_model), win);
}

/* ", 1 GPU of the lot idle", ", 4 runs 2 at a time": how the runs sit on the lots; "" for one run filling them */
static const char *placing(struct analysis *a, const struct terms *k, const struct rent *r)
{
	int32_t idle = r->lots * r->gpus - r->concurrent_runs * r->run_gpus;
	const char *runs = k->variants > 1 ?
			   analysis_printf(a, ", %d runs of %d GPU%s, %d at a time", k->variants, r->run_gpus,
					   r->run_gpus == 1 ? "" : "s", r->concurrent_runs) : "";

	if (idle <= 0)
		return runs;
	return analysis_printf(a, "%s, %d GPU%s of the lots idle", runs, idle, idle == 1 ? "" : "s");
}

/* "1,512" or "336 GPU-hours": what a choice costs as rented */
static const char *cost_text(struct analysis *a, const struct terms *k, double cost, double gpu_hours)
{
	char m[MONEY_LEN];

	if (isnan(k->price))
		return analysis_printf(a, "%s GPU-hours", gpu_hours_text(m, gpu_hours));
	return analysis_printf(a, "%s", money_cost(m, cost, a->currency));
}

static const char *rate_text(struct analysis *a, const struct terms *k, const struct run_result *r)
{
	if (k->tokens)
		return analysis_rate(a, r->tokens_per_s, "tokens");
	return analysis_rate(a, r->samples_per_s, "samples");
}

/* Why the winner won. */
static const char *why_won(struct analysis *a, const struct terms *k, const struct choice *w)
{
	char m[MONEY_LEN], m2[MONEY_LEN];
	const char *place = placing(a, k, &w->rent);

	if (k->variants_assumed)
		place = analysis_printf(a, "%s (question = hparam-sweep without variants in trial.ini: %d runs "
					"assumed, one lot's worth)", place, k->variants);

	if (k->target < 0)
		return analysis_printf(a, "the lowest cost per sample: %s GPU-hours rented per million samples%s "
				       "at %s%s; set target_samples or target_tokens in trial.ini for the days "
				       "and the window", gpu_hours_text(m, w->per_million),
				       isnan(k->price) ? "" : analysis_printf(a, " (%s)", money_cost(m2, w->per_million * k->price, a->currency)),
				       rate_text(a, k, w->r), place);
	return analysis_printf(a, "the cheapest window that holds the target: %.1f days needed at %s "
			       "(%.1f with the %.0f%% margin)%s, %s for the window%s", w->days,
			       rate_text(a, k, w->r), w->days * (1 + k->margin), k->margin * 100, place,
			       cost_text(a, k, w->cost, w->gpu_hours), w->rent.windows > 1 ? "s" : "");
}

/* Why c lost to w. */
static const char *why_lost(struct analysis *a, const struct terms *k, const struct choice *c,
			    const struct choice *w)
{
	const char *who = analysis_printf(a, "%s (%s)", gpus_text(a, c->r->gpus, c->rent.gpu_model), c->r->name);
	double rc = rank_of(k, c), rw = rank_of(k, w);
	char m1[MONEY_LEN], m2[MONEY_LEN];

	if (c->excluded)
		return analysis_printf(a, "%s: %s", who, c->excluded);
	if (k->target < 0)
		return analysis_printf(a, "%s on %s: %s GPU-hours rented per million samples against %s%s",
				       who, rent_text(a, &c->rent), gpu_hours_text(m1, c->per_million),
				       gpu_hours_text(m2, w->per_million), placing(a, k, &c->rent));
	if (rc > rw * (1 + 1e-9))
		return analysis_printf(a, "%s on %s: %.1f days needed, %s for the window, %s more%s", who,
				       rent_text(a, &c->rent), c->days, cost_text(a, k, c->cost, c->gpu_hours),
				       cost_text(a, k, c->cost - w->cost, c->gpu_hours - w->gpu_hours),
				       placing(a, k, &c->rent));
	return analysis_printf(a, "%s on %s: the same %s for the window, but %.1f days needed against %.1f%s",
			       who, rent_text(a, &c->rent), cost_text(a, k, c->cost, c->gpu_hours), c->days,
			       w->days, placing(a, k, &c->rent));
}

/* C for Young/Daly: what the logs measured, else what trial.ini says was planned; NaN */
static double write_time(struct analysis *a, const struct trial *t, const struct run_result *r,
			 struct checkpoint_plan *cp)
{
	if (r->checkpoint_write_source && r->checkpoint_write_s > 0) {
		cp->write_from = "logs";
		cp->write_at = copy(a, r->checkpoint_write_source);
		return r->checkpoint_write_s;
	}
	if (t->checkpoint_write_s.set) {
		cp->write_from = "trial.ini";
		cp->write_at = NULL;
		return t->checkpoint_write_s.v;
	}
	return NAN;
}

/* A window of the longest kind: the checkpoint interval and the criteria for stopping early. */
static void campaign(struct analysis *a, const struct trial *t, const struct terms *k,
		     const struct choice *w, struct decision *d)
{
	static const int32_t windows[] = RENTAL_WINDOWS_DAYS;
	const int32_t longest = windows[sizeof(windows) / sizeof(windows[0]) - 1];
	struct checkpoint_plan *cp = &d->checkpoint;
	struct rental_stop st;
	const char *unit = k->tokens ? "tokens" : "samples";
	char n1[MONEY_LEN], n2[MONEY_LEN];

	if (w->rent.window_days != longest)
		return;
	cp->present = true;
	cp->mtbf_hours = k->mtbf_hours;
	cp->rental_mtbf_hours = k->mtbf_hours / w->rent.lots;
	cp->write_s = write_time(a, t, w->r, cp);
	cp->interval_s = rental_checkpoint_interval_s(cp->write_s, cp->rental_mtbf_hours * 3600);
	st = rental_stop_for(k->tokens ? w->r->tokens_per_s : w->r->samples_per_s,
			     (double)k->target * k->variants, w->days,
			     (struct rental_window){ w->rent.window_days, w->rent.windows });
	d->stop = arena_alloc(&a->arena, 4 * sizeof(*d->stop));
	d->stop[d->nstop++] = (struct stop_criterion){ "throughput-floor", analysis_printf(a,
		"%s under %.0f%% of the measured throughput (%s a run): stop and find the cause "
		"before the window is spent", RENTAL_STOP_SLOW_DAYS == 1 ? "a whole day" :
		analysis_printf(a, "%d whole days", RENTAL_STOP_SLOW_DAYS), RENTAL_STOP_RATE_SHARE * 100,
		analysis_rate(a, st.min_rate, unit)) };
	d->stop[d->nstop++] = (struct stop_criterion){ "halfway", analysis_printf(a,
		"at day %.0f, fewer than %s %s processed (%.0f%% of %s): the window will not hold the target; "
		"re-plan", st.half_day, count_text(n1, st.half_target), unit, RENTAL_STOP_HALF * 100,
		count_text(n2, (double)k->target * k->variants)) };
	d->stop[d->nstop++] = (struct stop_criterion){ "no-improvement", analysis_printf(a,
		"the validation loss no better over %d consecutive checkpoints: stop; more steps buy nothing",
		STOP_FLAT_CHECKPOINTS) };
	d->stop[d->nstop++] = (struct stop_criterion){ "window-end", analysis_printf(a,
		"at the end of day %.0f, whatever the loss: a longer campaign is a new decision from the "
		"throughput measured so far", st.end_day) };
}

/* Fills the decision from the winner and keeps the others as alternatives. */
static void decide(struct analysis *a, const struct trial *t, const struct terms *k,
		   struct choice *all, size_t n, size_t win)
{
	struct decision *d = &a->cmp.decision;
	const struct choice *w = &all[win];

	d->rent = w->rent;
	d->run = copy(a, w->r->name);
	d->samples_per_s = w->r->samples_per_s;
	d->tokens_per_s = w->r->tokens_per_s > 0 ? w->r->tokens_per_s : NAN;
	d->days_needed = w->days;
	d->margin = w->days > 0 ? rental_window_total_days((struct rental_window){ w->rent.window_days,
						w->rent.windows }) / w->days - 1 : NAN;
	d->window_gpu_hours = w->gpu_hours;
	d->window_cost = w->cost;
	d->gpu_hours_per_million_samples = w->per_million;
	d->cost_per_million_samples = w->per_million * k->price;
	d->why = why_won(a, k, w);
	campaign(a, t, k, w, d);
	d->alts = arena_alloc(&a->arena, MAX_ALTS * sizeof(*d->alts));
	for (size_t kept = 0; kept < n && d->nalts < MAX_ALTS; kept++) {
		size_t best = n;

		for (size_t i = 0; i < n; i++) {	/* the next cheapest not yet listed */
			if (i == win || all[i].rent.present == false || all[i].r == NULL)
				continue;
			if (best == n || beats(k, &all[i], &all[best]))
				best = i;
		}
		if (best == n)
			break;
		d->alts[d->nalts++] = (struct decision_alt){ all[best].rent, copy(a, all[best].r->name), all[best].days,
			all[best].gpu_hours, all[best].cost, why_lost(a, k, &all[best], w) };
		all[best].r = NULL;
	}
	for (size_t i = 0; i < n && d->nalts < MAX_ALTS; i++)
		if (all[i].excluded)
			d->alts[d->nalts++] = (struct decision_alt){ all[i].rent, copy(a, all[i].r->name),
				NAN, NAN, NAN, why_lost(a, k, &all[i], w) };
}

/* No decision: the sentence says why. */
static void none(struct analysis *a, const char *why)
{
	a->cmp.decision.rent.present = false;
	a->cmp.decision.why = why;
}

/*
 * The options the rental-window advice words: each run with a throughput, one
 * run on the fewest lots that hold it, sized with the margin and priced as
 * rented.
 */
static void options(struct analysis *a, const struct terms *k, const struct run_result *const runs[2])
{
	struct comparison *cmp = &a->cmp;

	cmp->options = arena_alloc(&a->arena, 2 * sizeof(*cmp->options));
	for (size_t i = 0; i < 2; i++) {
		const struct run_result *r = runs[i];
		struct rental_option *o = &cmp->options[cmp->noptions];
		struct rental_window w;

		if (!(r->samples_per_s > 0 && r->gpus > 0))
			continue;
		cmp->noptions++;
		*o = (struct rental_option){ .gpus = r->gpus, .samples_per_s = r->samples_per_s,
			.window_days = -1, .windows = -1, .gpu_hours = NAN, .window_gpu_hours = NAN,
			.cost = NAN, .lots = lots_for(k, r->gpus) };
		o->gpu_hours_per_million_samples = MILLION / r->samples_per_s / 3600 * r->gpus;
		o->cost_per_million_samples = o->gpu_hours_per_million_samples * k->price;
		o->days_to_target = days_to_target(k, r);
		if (isnan(o->days_to_target))
			continue;
		w = rental_window_for(o->days_to_target, k->margin);
		o->window_days = w.days;
		o->windows = w.count;
		o->gpu_hours = o->days_to_target * 24 * r->gpus;
		o->window_gpu_hours = rental_window_gpu_hours(w, o->lots * k->lot);
		o->cost = o->window_gpu_hours * k->price;
	}
}

void analysis_decide(struct analysis *a, const struct trial *t)
{
	struct decision *d = &a->cmp.decision;
	struct terms k = terms_of(a, t);
	const struct confound *block;
	const struct run_result *runs[2];
	struct choice *all;
	size_t n = 0, win = SIZE_MAX, per = (size_t)(k.variants < MAX_LOT_STEPS ? k.variants : MAX_LOT_STEPS) + 1;
	const char *why = NULL;

	*d = (struct decision){ .rent = { .gpus = k.lot }, .target = k.target, .variants = k.variants,
				.variants_assumed = k.variants_assumed, .margin_required = k.margin,
				.gpu_hour_price = k.price, .currency = a->currency, .days_needed = NAN, .margin = NAN,
				.window_gpu_hours = NAN, .window_cost = NAN, .samples_per_s = NAN,
				.tokens_per_s = NAN, .gpu_hours_per_million_samples = NAN,
				.cost_per_million_samples = NAN };
	a->cmp.options = NULL;
	a->cmp.noptions = 0;
	if (!a->cmp.valid)
		return;
	d->present = true;
	d->target_unit = k.target < 0 ? NULL : k.tokens ? "tokens" : "samples";
	if ((block = comparison_blocked(&a->cmp))) {
		/* the confound's own sentence stands under Confounds: here only what blocks */
		none(a, analysis_printf(a, "the runs differ in %s, which makes their throughputs incomparable; "
					"repeat the trial without that difference", confound_label(block->what)));
		return;
	}
	runs[0] = &a->runs[a->cmp.baseline];
	runs[1] = &a->runs[a->cmp.candidate];
	options(a, &k, runs);
	all = xcalloc(2 * per, sizeof(*all));
	for (size_t i = 0; i < 2; i++)
		n += choices_of(a, &k, runs[i], all + n, per);
	for (size_t i = 0; i < n; i++) {
		if (all[i].excluded) {
			why = analysis_printf(a, "%s%s%s (%s): %s", why ? why : "", why ? "; " : "",
					      gpus_text(a, all[i].r->gpus, all[i].rent.gpu_model), all[i].r->name,
					      all[i].excluded);
			continue;
		}
		if (win == SIZE_MAX || beats(&k, &all[i], &all[win]))
			win = i;
	}
	if (win == SIZE_MAX)
		none(a, why ? why : "no run has a measured throughput");
	else
		decide(a, t, &k, all, n, win);
	free(all);
}

/*
 * Under a blocking confound the decision names the smallest trial to rent
 * next: the run the advice's next-trial names, not a whole repeat of the
 * trial. The advice calls this, since it comes after the decision.
 */
void analysis_decide_next(struct analysis *a, const char *run)
{
	struct decision *d = &a->cmp.decision;
	const struct confound *block = a->cmp.valid ? comparison_blocked(&a->cmp) : NULL;

	if (d->present && !d->rent.present && block)
		d->why = analysis_printf(a, "the runs differ in %s, which makes their throughputs incomparable; "
					 "rent next for the one trial that answers: %s", confound_label(block->what), run);
}
