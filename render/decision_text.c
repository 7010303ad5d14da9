#include "render/decision_text.h"

#include <math.h>

#include "core/money.h"
#include "core/qty.h"

static const char *plural(int32_t n)
{
	return n == 1 ? "" : "s";
}

/* "1 lot of 2x B200 for 7 days", "2 lots of 2x B200 for 2 consecutive 30-day windows (60 days)" */
static void rent_words(struct buf *out, const struct rent *r)
{
	if (r->gpu_model)
		buf_addf(out, "%d lot%s of %dx %s", r->lots, plural(r->lots), r->gpus, r->gpu_model);
	else
		buf_addf(out, "%d lot%s of %d GPU%s (model not in the logs)", r->lots, plural(r->lots),
			 r->gpus, plural(r->gpus));
	if (r->window_days > 0 && r->windows > 1)
		buf_addf(out, " for %d consecutive %d-day windows (%lld days)", r->windows, r->window_days,
			 (long long)r->windows * r->window_days);
	else if (r->window_days > 0)
		buf_addf(out, " for %d days", r->window_days);
}

/* ", 4 runs of 1 GPU, 2 at a time": a sweep's runs on the lots; for one run, the GPUs it leaves idle */
static void runs_words(struct buf *out, const struct decision *d)
{
	int32_t rented = d->rent.lots * d->rent.gpus;

	/* one run that leaves GPUs of its lots idle: said, since they are paid for */
	if (d->variants <= 1 && d->run && d->rent.run_gpus > 0 && d->rent.run_gpus < rented)
		buf_addf(out, ", running '%s' with %d of the %d GPUs idle", d->run, rented - d->rent.run_gpus,
			 rented);
	if (d->variants <= 1)
		return;
	buf_addf(out, ", %d runs of %d GPU%s, %d at a time", d->variants, d->rent.run_gpus,
		 plural(d->rent.run_gpus), d->rent.concurrent_runs);
}

static void rate_words(struct buf *out, const struct decision *d)
{
	char q[QTY_LEN];

	if (d->target_unit && d->target_unit[0] == 't' && d->tokens_per_s > 0)
		buf_addstr(out, qty_rate(q, d->tokens_per_s, "tokens"));
	else
		buf_addstr(out, qty_rate(q, d->samples_per_s, "samples"));
}

/* Said once, where costs first appear, when trial.ini does not name what they are in. */
static void currency_words(struct buf *out, const struct decision *d)
{
	if (!d->currency)
		buf_addstr(out, " (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)");
}

void decision_line(struct buf *out, const struct decision *d)
{
	char m[MONEY_LEN];

	if (!d->present)
		return;
	if (!d->rent.present) {
		buf_addf(out, "Rent nothing yet: %s", d->why ? d->why : "no reason given");
		return;
	}
	buf_addstr(out, "Rent ");
	rent_words(out, &d->rent);
	if (isnan(d->days_needed)) {
		buf_addf(out, ": lowest cost per sample, %s GPU-hours per million samples",
			 gpu_hours_text(m, d->gpu_hours_per_million_samples));
		if (isfinite(d->cost_per_million_samples))
			buf_addf(out, " (%s)", money_cost(m, d->cost_per_million_samples, d->currency));
		buf_addstr(out, " at ");
		rate_words(out, d);
		runs_words(out, d);
		buf_addstr(out, "; no target in trial.ini, no window");
		if (isfinite(d->cost_per_million_samples))
			currency_words(out, d);
		return;
	}
	buf_addf(out, ": %.1f days needed at ", d->days_needed);
	rate_words(out, d);
	runs_words(out, d);
	buf_addf(out, " (margin %.0f%%), ", d->margin * 100);
	if (isfinite(d->window_cost)) {
		buf_addf(out, "%s for the window%s", money_cost(m, d->window_cost, d->currency),
			 d->rent.windows > 1 ? "s" : "");
		currency_words(out, d);
	} else {
		buf_addf(out, "%s GPU-hours for the window%s", gpu_hours_text(m, d->window_gpu_hours),
			 d->rent.windows > 1 ? "s" : "");
	}
}

/* "4.8 s" below a minute, "96 s" below 10 minutes, "12.0 min" below an hour, "1.6 h" from there */
static void duration(struct buf *out, double s)
{
	if (s >= 3600)
		buf_addf(out, "%.1f h", s / 3600);
	else if (s >= 600)
		buf_addf(out, "%.1f min", s / 60);
	else if (s >= 60)
		buf_addf(out, "%.0f s", s);
	else
		buf_addf(out, "%.1f s", s);
}

void decision_checkpoint_line(struct buf *out, const struct decision *d)
{
	const struct checkpoint_plan *cp = &d->checkpoint;

	if (!d->present || !cp->present)
		return;
	if (!isfinite(cp->interval_s)) {
		buf_addstr(out, "Checkpoint interval unknown: no log shows a checkpoint being written, and "
			   "trial.ini has no checkpoint_write_s (plan -o writes its estimate)");
		return;
	}
	buf_addstr(out, "Checkpoint every ");
	duration(out, cp->interval_s);
	buf_addstr(out, " (Young/Daly: a write of ");
	duration(out, cp->write_s);
	if (cp->write_at)
		buf_addf(out, " measured at %s", cp->write_at);
	else if (cp->write_from)
		buf_addf(out, " as planned in %s", cp->write_from);
	buf_addf(out, ", %.0f h between failures of the rental)", cp->rental_mtbf_hours);
}
