#include "analysis/plancheck.h"

#include <math.h>

#include "analysis/analysis.h"
#include "analysis/thresholds.h"
#include "core/buf.h"
#include "core/qty.h"

double plan_deviation(double predicted, double measured)
{
	if (!(predicted > 0) || !isfinite(measured) || measured < 0)
		return NAN;
	return measured / predicted - 1;
}

bool plan_oom_foreseen(const struct run_result *rr)
{
	const struct plan_check *p = &rr->plan;

	return rr->status == RUN_FAILED_OOM && p->present && p->predicted_peak_bytes >= 0 &&
	       p->predicted_peak_bytes >= p->measured_peak_bytes;
}

static const char *direction(double dev)
{
	return dev > 0 ? "under-estimated it" : "over-estimated it";
}

/* One quantity: a warning beyond tol, else its part of the note in held. */
typedef const char *qty_fn(char *, double);

static void compare(struct analysis *a, const struct run_result *rr, const char *code,
		    const struct srcpos *src, const char *what, qty_fn *fmt,
		    double predicted, double measured, double tol, struct buf *held)
{
	double dev = plan_deviation(predicted, measured);
	char m[QTY_LEN], p[QTY_LEN];

	if (isnan(dev))
		return;
	fmt(m, measured);
	fmt(p, predicted);
	if (fabs(dev) > tol) {
		analysis_finding(a, DIAG_WARNING, code, src,
				 "run '%s': %s %s measured, %s planned (%+.0f%%, more than the "
				 "%g%% tolerated): the plan %s", rr->name, what, m, p, dev * 100, tol * 100,
				 direction(dev));
		return;
	}
	buf_addf(held, "%s%s %s measured, %s planned (%+.0f%%)", held->len ? "; " : "", what, m, p, dev * 100);
}

void analysis_plan_check(struct analysis *a, const struct run *r, struct run_result *rr)
{
	const struct run_facts *d = &r->declared;
	struct plan_check *p = &rr->plan;
	struct buf held;
	char q[QTY_LEN];

	*p = (struct plan_check){ .predicted_peak_bytes = -1, .measured_peak_bytes = -1,
				  .predicted_step_s = NAN, .measured_step_s = NAN };
	if (!d->predicted_peak_gb.set && !d->predicted_step_s.set)
		return;
	p->present = true;
	p->measured_peak_bytes = run_largest_peak(rr);
	p->measured_step_s = rr->step_median_s;
	if (d->predicted_peak_gb.set)
		p->predicted_peak_bytes = llround(d->predicted_peak_gb.v * 1e9);
	if (d->predicted_step_s.set)
		p->predicted_step_s = d->predicted_step_s.v;
	buf_init(&held, 0);
	if (plan_oom_foreseen(rr))
		buf_addf(&held, "it ran out of GPU memory, as the %s per GPU planned foresaw",
			 qty_gb(q, (double)p->predicted_peak_bytes));
	else if (d->predicted_peak_gb.set)
		compare(a, rr, "plan-memory-off", &d->predicted_peak_gb.src, "peak memory per GPU", qty_gb,
			(double)p->predicted_peak_bytes, (double)p->measured_peak_bytes,
			PLAN_MEMORY_TOLERANCE, &held);
	if (d->predicted_step_s.set)
		compare(a, rr, "plan-step-off", &d->predicted_step_s.src, "step time", qty_duration,
			p->predicted_step_s, p->measured_step_s, PLAN_STEP_TOLERANCE, &held);
	if (held.len)
		analysis_finding(a, DIAG_INFO, "plan-within", d->predicted_peak_gb.set ?
				 &d->predicted_peak_gb.src : &d->predicted_step_s.src,
				 "run '%s': the plan held: %s", rr->name, held.data);
	buf_release(&held);
}
