/*
 * summary: the decision summary of an analysis as a list of typed lines,
 * written once and rendered on report.pdf's first pages, as summary.md (and
 * report.html). It opens with the decision, lines [0, decision_end): the
 * title, what to rent next (its checkpoint interval and stop criteria for a
 * 30-day window), the answer to an hparam-sweep question, the verdict in one sentence,
 * what weakens it, its criterion, one line of why, a table of the runs, confounds and
 * unverified facts, recommendations. The rentals that lost, and why, follow the key numbers. Key numbers, findings and the charts
 * left out follow. A value that is not known reads "n/a".
 */
#ifndef RENDER_SUMMARY_H
#define RENDER_SUMMARY_H

#include <stddef.h>

#include "analysis/result.h"
#include "core/arena.h"
#include "core/buf.h"
#include "render/style.h"

enum sline_kind {
	SL_TITLE, SL_META, SL_VERDICT, SL_REASON, SL_HEADING, SL_ITEM, SL_TEXT, SL_ANSWER,
	/* page 1's decision: the lead under the verdict, the run table, what weakens it */
	SL_LEAD,	/* one emphasised line under the verdict: "Why: ..." */
	SL_TABLE_HEAD,	/* a table's header row: cells */
	SL_TABLE_ROW,	/* a row of the table the last SL_TABLE_HEAD opened: as many cells */
	SL_WEAK,	/* right under the verdict: what weakens it ("Weak evidence: ...") */
	SL_DECISION,	/* the first line under the title: what to rent next ("Rent 1 lot of ...") */
};

/*
 * One line. SL_VERDICT's text is the verdict and its sentence ("CONFIRMED —
 * a step takes ..."); SL_ANSWER's the answer and its sentence. Table lines
 * carry cells; their text is the cells joined by "; " for a renderer that
 * has no tables. Everything is owned by the summary's arena.
 */
struct sline {
	enum sline_kind kind;
	const char *text;
	const char *const *cells;	/* SL_TABLE_HEAD, SL_TABLE_ROW; else NULL */
	size_t ncells;
};

struct summary {
	struct sline *lines;
	size_t n, cap;
	enum verdict verdict;
	struct arena arena;	/* the lines' text */
	size_t decision_end;	/* lines before it are the decision: page 1, the head of summary.md */
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

/* A confound's subject as people read it: "global batch", "GPU model". */
const char *summary_confound_text(enum confound_what w);

/* Appends s as Markdown; the charts that were drawn follow, as links to charts/ID.png. */
void summary_markdown(const struct summary *s, const char *const *ids, const char *const *titles,
		      const char *const *captions, size_t ncharts, struct buf *out);

/* The colour of the verdict line, as a category: confirmed green, refuted vermilion, inconclusive orange. */
enum category summary_verdict_category(enum verdict v);

#endif
