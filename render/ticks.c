#include "render/ticks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The mantissas a step may have, smallest first. */
static const double nice_steps[] = { 1, 2, 5, 10 };

static double nice_step(double rough)
{
	double mag = pow(10, floor(log10(rough)));
	size_t i;

	for (i = 0; i < sizeof(nice_steps) / sizeof(nice_steps[0]); i++)
		if (nice_steps[i] * mag >= rough * (1 - 1e-9))
			return nice_steps[i] * mag;
	return 10 * mag;
}

void ticks_format(double v, double step, char *out, int size)
{
	int decimals = step > 0 && step < 1 ? (int)ceil(-log10(step) - 1e-9) : 0;

	if (fabs(v) < step * 1e-9)
		v = 0;		/* no "-0" */
	snprintf(out, (size_t)size, "%.*f", decimals, v);
}

void ticks_nice(double lo, double hi, int target, double min_step, struct ticks *t)
{
	double step;
	int i;

	if (!isfinite(lo) || !isfinite(hi) || !isfinite(hi - lo)) {
		lo = 0;
		hi = 1;
	}
	if (hi < lo) {
		double x = lo;

		lo = hi;
		hi = x;
	}
	if (hi - lo <= fabs(hi) * 1e-12) {
		double pad = hi != 0 ? fabs(hi) * 0.5 : 1;

		lo = lo >= 0 && lo - pad < 0 ? 0 : lo - pad;
		hi += pad;
	}
	if (target < 1)
		target = 1;
	step = nice_step((hi - lo) / target);
	if (step < min_step)
		step = min_step;
	if (!(step > 0) || !isfinite(step) || !isfinite(lo / step) || !isfinite(hi / step)) {
		ticks_nice(0, 1, target, 0, t);		/* a range too small or too large for doubles */
		return;
	}
	while ((hi - lo) / step > TICKS_MAX - 1)
		step = nice_step(step * 1.5);
	t->step = step;
	t->lo = floor(lo / step + 1e-9) * step;
	t->hi = ceil(hi / step - 1e-9) * step;
	t->n = (int)lround((t->hi - t->lo) / step) + 1;
	if (t->n > TICKS_MAX || t->n < 1)
		t->n = t->n < 1 ? 1 : TICKS_MAX;
	for (i = 0; i < t->n; i++) {
		t->v[i] = t->lo + i * step;
		ticks_format(t->v[i], step, t->label[i], TICK_LABEL_MAX);
	}
}

void ticks_clip(struct ticks *t, double lo, double hi)
{
	double eps = (hi - lo) * 1e-9;
	int i, n = 0;

	for (i = 0; i < t->n; i++) {
		if (t->v[i] < lo - eps || t->v[i] > hi + eps)
			continue;
		t->v[n] = t->v[i];
		memmove(t->label[n], t->label[i], TICK_LABEL_MAX);
		n++;
	}
	t->n = n;
	t->lo = lo;
	t->hi = hi;
}

static const char *const binary_units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

void ticks_label_log2_bytes(struct ticks *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		long e = lround(t->v[i]);
		int unit = e <= 0 ? 0 : (int)(e / 10);

		if (unit > 5)
			unit = 5;
		if (e < 0 || e >= 60)
			snprintf(t->label[i], TICK_LABEL_MAX, "2^%ld B", e);
		else
			snprintf(t->label[i], TICK_LABEL_MAX, "%ld %s",
				 1L << (e - unit * 10), binary_units[unit]);
	}
}

void ticks_label_log10(struct ticks *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		long e = lround(t->v[i]);

		if (e < -6 || e > 15)
			snprintf(t->label[i], TICK_LABEL_MAX, "1e%ld", e);
		else
			snprintf(t->label[i], TICK_LABEL_MAX, "%.*f", e < 0 ? (int)-e : 0, pow(10, (double)e));
	}
}
