/*
 * ticks: the one nice-number tick generator of every chart axis. It both
 * sizes the axis (the range grows to whole steps) and gives the labels that
 * are drawn, so what is measured is what is drawn. Steps are 1, 2 or 5
 * times a power of ten.
 */
#ifndef RENDER_TICKS_H
#define RENDER_TICKS_H

#define TICKS_MAX 24
#define TICK_LABEL_MAX 24

struct ticks {
	double lo;		/* the axis range: lo and hi are whole multiples of step */
	double hi;
	double step;
	int n;			/* ticks from lo to hi inclusive */
	double v[TICKS_MAX];
	char label[TICKS_MAX][TICK_LABEL_MAX];
};

/*
 * Fills t for data from lo to hi with about `target` intervals and a step of
 * at least min_step (0: any). A zero-width or reversed range is widened; a
 * range that is not finite gives 0..1.
 */
void ticks_nice(double lo, double hi, int target, double min_step, struct ticks *t);

/* Drops the ticks outside lo..hi and sets t's range to lo..hi (an axis fitted to its data). */
void ticks_clip(struct ticks *t, double lo, double hi);

/* Relabels t, whose values are log2 of byte counts, as "1 KiB", "32 MiB", ... */
void ticks_label_log2_bytes(struct ticks *t);

/* Relabels t, whose values are log10 of a quantity, as "0.1", "1", "10", "1000". */
void ticks_label_log10(struct ticks *t);

/* Formats v with the decimals that a step of `step` needs ("0.25", "1500"). */
void ticks_format(double v, double step, char *out, int size);

#endif
