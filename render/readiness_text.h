/*
 * readiness_text: a run's readiness (analysis/result.h, struct readiness) as
 * lines for people, shared by `analyze`'s text and the report's summary:
 * the verdict with its reason, the versions the logs show, each minimum
 * checked, each binary with GPU code in the run's directory with its
 * verdict, and the kernels of another GPU generation with their share.
 */
#ifndef RENDER_READINESS_TEXT_H
#define RENDER_READINESS_TEXT_H

#include "analysis/result.h"
#include "core/buf.h"

/*
 * Appends the lines of rr's readiness to out, each starting with indent and
 * ending with '\n'; nothing when the run's readiness is not present.
 */
void readiness_lines(const struct run_result *rr, const char *indent, struct buf *out);

/* True when some run of a has a readiness to show. */
bool readiness_any(const struct analysis *a);

#endif
