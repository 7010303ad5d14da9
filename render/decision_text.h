/*
 * decision_text: the decision (what to rent next) in the words page 1,
 * summary.md, report.html and analyze's text all open with, built from
 * what analysis.json holds so that a report read back says the same.
 */
#ifndef RENDER_DECISION_TEXT_H
#define RENDER_DECISION_TEXT_H

#include "analysis/result.h"
#include "core/buf.h"

/*
 * "Rent 1 lot of 2x B200 for 7 days: 2.8 days needed at 376.2 samples/s
 * (margin 153%), 1,848 for the window"; "Rent nothing yet: ..." when the
 * trial decides nothing. Appended to out; nothing when d is not present.
 */
void decision_line(struct buf *out, const struct decision *d);

/*
 * A window of the longest kind: "checkpoint every 5.2 h (Young/Daly: a
 * write of 96 s measured at 2gpu/train.log:812, 12 h between failures of
 * the rental)". Nothing without a checkpoint plan.
 */
void decision_checkpoint_line(struct buf *out, const struct decision *d);

#endif
