#include "render/plan_text.h"

#include <math.h>

#include "analysis/plancheck.h"
#include "analysis/thresholds.h"

/* One figure: "WHAT M UNIT measured, P UNIT planned (+D%[, beyond the T% tolerated])". */
static void figure(struct buf *out, const char *what, const char *unit, double scale,
		   double predicted, double measured, double tol)
{
	double dev = plan_deviation(predicted, measured);

	if (isnan(dev)) {
		buf_addf(out, "%s %.3g %s planned, not measured", what, predicted / scale, unit);
		return;
	}
	buf_addf(out, "%s %.3g %s measured, %.3g %s planned (%+.0f%%%s)", what, measured / scale,
		 unit, predicted / scale, unit, dev * 100,
		 fabs(dev) > tol ? ", beyond the tolerance: the plan was wrong" : ", held");
}

void plan_line(const struct run_result *rr, const char *indent, struct buf *out)
{
	const struct plan_check *p = &rr->plan;
	bool peak = p->present && p->predicted_peak_bytes >= 0;

	if (!p->present)
		return;
	buf_addf(out, "%s%s: ", indent, rr->name);
	if (peak && plan_oom_foreseen(rr))
		buf_addf(out, "peak memory per GPU %.3g GB planned: ran out of memory, as planned",
			 (double)p->predicted_peak_bytes / 1e9);
	else if (peak)
		figure(out, "peak memory per GPU", "GB", 1e9, (double)p->predicted_peak_bytes,
		       p->measured_peak_bytes >= 0 ? (double)p->measured_peak_bytes : NAN,
		       PLAN_MEMORY_TOLERANCE);
	if (isfinite(p->predicted_step_s)) {
		buf_addstr(out, peak ? "; " : "");
		figure(out, "step time", "s", 1, p->predicted_step_s, p->measured_step_s,
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
