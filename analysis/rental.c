/*
 * rental: windows sized with a margin and priced as rented (rental.h).
 */
#include "analysis/rental.h"

#include <math.h>
#include <stddef.h>

#include "analysis/thresholds.h"

struct rental_window rental_window_for(double days_needed, double margin)
{
	static const int32_t windows[] = RENTAL_WINDOWS_DAYS;
	const size_t n = sizeof(windows) / sizeof(windows[0]);
	double need;

	if (!(days_needed >= 0) || !isfinite(days_needed))
		return (struct rental_window){ .days = -1, .count = -1 };
	need = days_needed * (1 + (margin > 0 ? margin : 0));
	for (size_t i = 0; i < n; i++)
		if (need <= windows[i])
			return (struct rental_window){ .days = windows[i], .count = 1 };
	/* a count past INT32_MAX windows is no rental anyone plans: capped */
	need = ceil(need / windows[n - 1]);
	return (struct rental_window){ .days = windows[n - 1],
				       .count = need > INT32_MAX ? INT32_MAX : (int32_t)need };
}

double rental_window_total_days(struct rental_window w)
{
	return w.days > 0 ? (double)w.days * w.count : NAN;
}

double rental_window_gpu_hours(struct rental_window w, int32_t gpus)
{
	return gpus > 0 ? rental_window_total_days(w) * 24 * gpus : NAN;
}

double rental_checkpoint_interval_s(double write_s, double mtbf_s)
{
	double t;

	if (!(write_s > 0) || !(mtbf_s > 0))
		return NAN;
	t = sqrt(2 * write_s * mtbf_s) - write_s;
	return t > write_s ? t : write_s;
}

struct rental_stop rental_stop_for(double rate, double target, double days_needed, struct rental_window w)
{
	return (struct rental_stop){
		.min_rate = RENTAL_STOP_RATE_SHARE * rate,
		.half_day = ceil(RENTAL_STOP_HALF * days_needed),
		.half_target = RENTAL_STOP_HALF * target,
		.end_day = rental_window_total_days(w),
	};
}
