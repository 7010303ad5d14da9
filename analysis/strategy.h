/*
 * strategy: how a run shares its model, from its collectives and the CPU
 * ops that launched them, and the ranks its other ranks wait for
 * (docs/analysis.md, "Strategy and stragglers").
 */
#ifndef ANALYSIS_STRATEGY_H
#define ANALYSIS_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/result.h"
#include "core/model.h"

struct analysis;

/*
 * rr->inferred_strategy from the collectives of r's measured steps (or
 * span): "single" for one GPU, the parts found joined by '+' in the order
 * tensor, pipeline, fsdp, ddp, alltoall, "device_map" for unequal memory
 * without collectives, else NULL. Needs rr's imbalance.
 */
void strategy_infer(struct analysis *a, struct run_result *rr, const struct run *r);
/*
 * The parts of a strategy ("tensor+ddp": "tensor" then "ddp", not
 * NUL-terminated): true at the first part fn is true for; NULL has none.
 */
bool strategy_any(const char *strategy, bool (*fn)(const char *part, size_t len, const void *ctx),
		  const void *ctx);
/* True when part is one of strategy's parts ("zero" and "fsdp" are one). */
bool strategy_has(const char *strategy, const char *part);
/* True when the two have the same parts, in any order. */
bool strategy_same(const char *a, const char *b);
/*
 * rr->imbalance's stragglers, cost and reason (flagged when there is one),
 * from each GPU's waiting over its mean steady step or, without one, its
 * profiled span. Call on a freshly reset imbalance, before other reasons.
 */
void stragglers_find(struct analysis *a, struct run_result *rr);
/* The straggler of rank `rank`; NULL when that GPU is none. */
const struct straggler *straggler_at(const struct imbalance *im, int32_t rank);
/* "GPUs 0 and 6": the stragglers of the cause ("host-bound", "computing"; NULL: all). */
const char *stragglers_named(struct analysis *a, const struct imbalance *im, const char *cause);
/*
 * What a GPU's waiting and idle time are taken over: its steady-step means
 * (*len its mean step), else its profiled span's partition (*len the span).
 */
const struct step_parts *gpu_wait_basis(const struct gpu_result *g, double *len);

#endif
