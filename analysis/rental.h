/*
 * rental: the one rule for sizing a rental window, shared by analyze's
 * decision and plan's options (docs/analysis.md, "The decision").
 *
 * A window is the shortest of RENTAL_WINDOWS_DAYS that holds the days needed
 * x (1 + margin); beyond the longest, consecutive windows of the longest. What
 * a window costs is what is rented: every GPU of the lots for every hour of
 * every window, not the GPU-hours the job uses.
 */
#ifndef ANALYSIS_RENTAL_H
#define ANALYSIS_RENTAL_H

#include <stdint.h>

struct rental_window {
	int32_t days;		/* 3, 7 or 30; -1 when the days needed are unknown */
	int32_t count;		/* consecutive windows of `days`: 1, or more beyond 30 days; -1 unknown */
};

/* The window for days_needed (NaN: unknown) with margin (a share, >= 0). */
struct rental_window rental_window_for(double days_needed, double margin);

/* Days rented in all: days x count; NaN when unknown. */
double rental_window_total_days(struct rental_window w);

/* GPU-hours rented: gpus x total days x 24; NaN when unknown. */
double rental_window_gpu_hours(struct rental_window w, int32_t gpus);

/*
 * When a long campaign stops and re-plans (thresholds.h RENTAL_STOP_*): a
 * rate under min_rate for RENTAL_STOP_SLOW_DAYS; under half_target of its
 * units done by day half_day (RENTAL_STOP_HALF of the days needed, rounded
 * up); at day end_day, the windows' end, whatever the loss.
 */
struct rental_stop {
	double min_rate;	/* units/s */
	double half_day;
	double half_target;	/* units */
	double end_day;
};

/* The criteria for a rate (units/s), a target (units, every run together), the days needed and the window. */
struct rental_stop rental_stop_for(double rate, double target, double days_needed, struct rental_window w);

/*
 * The checkpoint interval of Young (1974) with Daly's (2006) first-order
 * correction: sqrt(2 C M) - C for a checkpoint written in C seconds and a
 * mean time between failures of M seconds, C when that is not positive;
 * NaN when either is unknown or not positive.
 */
double rental_checkpoint_interval_s(double write_s, double mtbf_s);

#endif
