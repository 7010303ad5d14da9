#include "render/compute_text.h"

#include <math.h>

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
