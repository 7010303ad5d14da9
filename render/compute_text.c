#include "render/compute_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/numfmt.h"

void mfu_words(struct buf *out, const struct mfu *m)
{
	char b1[NUMFMT_LEN], b2[NUMFMT_LEN], b3[NUMFMT_LEN];

	if (!isnan(m->value))
		buf_addf(out, "MFU %s (%s TFLOP/s of %s %s dense)", qty_percent(b1, m->value),
			 qty_num(b2, m->step_tflops), qty_num(b3, m->peak_tflops), dtype_name(m->dtype));
	else
		buf_addf(out, "MFU unknown: %s", m->why ? m->why : "not measured");
	if (!isnan(m->tflops))
		buf_addf(out, "; %s TFLOP/s over the kernel time of ops with shapes", qty_num(b1, m->tflops));
	if (!isnan(m->covered_share))
		buf_addf(out, ", %s of matmul time covered by shapes", qty_percent(b1, m->covered_share));
}

void idle_words(struct buf *out, const struct step_parts *p)
{
	char b[3][NUMFMT_LEN];

	buf_addf(out, "host %s, sync %s, other %s", qty_num(b[0], p->idle_host * 1e3),
		 qty_num(b[1], p->idle_sync * 1e3), qty_num(b[2], p->idle_other * 1e3));
}

/* A launch delay: in microseconds below a millisecond ("12.3 us"), else as qty_duration(). */
static const char *us(char out[NUMFMT_LEN], double seconds)
{
	char b[NUMFMT_LEN];

	if (fabs(seconds) >= 1e-3)
		return qty_duration(out, seconds);
	snprintf(out, NUMFMT_LEN, "%s us", qty_num(b, seconds * 1e6));
	return out;
}

void launch_words(struct buf *out, const struct launch_stats *l)
{
	char b[4][NUMFMT_LEN];
	const char *per = l->per && !strcmp(l->per, "span") ? "over the span" : "per step";

	if (l->why) {
		buf_addf(out, "launch statistics unknown: %s", l->why);
		return;
	}
	buf_addf(out, "launch delay p50 %s, p90 %s, max %s", us(b[0], l->delay_p50_s),
		 us(b[1], l->delay_p90_s), us(b[2], l->delay_max_s));
	if (l->bound)
		buf_addf(out, "; CPU ops %s against their kernels' %s %s: %s",
			 qty_duration(b[0], l->op_cpu_s), qty_duration(b[1], l->op_kernel_s), per, l->bound);
	buf_addf(out, "; launch calls %s %s; %s of %lld kernels shorter than their launch call",
		 qty_duration(b[2], l->launch_cpu_s), per, qty_percent(b[3], l->short_share),
		 (long long)l->kernels);
}
