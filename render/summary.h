/*
 * summary: the decision summary of an analysis as a list of typed lines
 * (title, the answer to an hparam-sweep question, verdict and criterion, key
 * numbers, confounds, recommendations, charts left out), written once and rendered twice: on page 1 of report.pdf and as
 * summary.md. A value that is not known reads "n/a".
 */
#ifndef RENDER_SUMMARY_H
#define RENDER_SUMMARY_H

#include <stddef.h>

#include "analysis/result.h"
#include "core/arena.h"
#include "core/buf.h"
#include "render/style.h"

enum sline_kind { SL_TITLE, SL_META, SL_VERDICT, SL_REASON, SL_HEADING, SL_ITEM, SL_TEXT, SL_ANSWER };

struct sline {
	enum sline_kind kind;
	const char *text;
};

struct summary {
	struct sline *lines;
	size_t n, cap;
	enum verdict verdict;
	struct arena arena;	/* the lines' text */
};

/* A chart that is left out, for the summary's list. */
struct left_out {
	const char *id;
	const char *why;
};

void summary_build(struct summary *s, const struct analysis *a, const struct left_out *out, size_t nout);
void summary_release(struct summary *s);

/* The verdict in words for the big line: "CONFIRMED", ..., "NO VERDICT". */
const char *summary_verdict_text(enum verdict v);

/* Appends s as Markdown; the charts that were drawn follow, as links to charts/ID.png. */
void summary_markdown(const struct summary *s, const char *const *ids, const char *const *titles,
		      const char *const *captions, size_t ncharts, struct buf *out);

/* The colour of the verdict line, as a category: confirmed green, refuted vermilion, inconclusive orange. */
enum category summary_verdict_category(enum verdict v);

#endif
