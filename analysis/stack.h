/*
 * stack: the result of the stack command, computed once and rendered as text
 * (render/stack_text) or JSON (render/stack_json): each file with GPU code
 * judged against every target with its fix, the environment's versions and
 * their checks, and whether each target is ready. The judging is
 * core/readiness's; this module keeps the verdicts together.
 */
#ifndef ANALYSIS_STACK_H
#define ANALYSIS_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/codeobj.h"
#include "core/intern.h"
#include "core/readiness.h"

#define STACK_MAX_CHECKS 128

/* One file with GPU code, judged for every target. */
struct stack_item {
	struct code_object o;
	struct judgement j[READINESS_MAX_TARGETS];
	char *fix;			/* owned; NULL when every target is native */
	const char *group;		/* the package this file is one backend variant of
					   ("bitsandbytes"), in r->strings; NULL when none */
	bool alternative;		/* a variant the environment would not load: listed,
					   never counted against a target */
	bool loaded_unknown;		/* a variant of a group whose loaded one is unknown
					   (no CUDA or ROCm version known): none is alternative */
};

/*
 * What a target is, all the evidence together; a worse one is greater:
 * yes (every GPU binary native, every version given meets its minimum),
 * jit (runs only through PTX JIT), unknown (a fact needed is absent), no
 * (something is missing or below a minimum).
 */
enum stack_ready {
	STACK_YES,
	STACK_JIT,
	STACK_UNKNOWN,
	STACK_NO,
};

/* "yes", "jit", "unknown", "no" */
const char *stack_ready_name(enum stack_ready v);

struct stack_result {
	struct target_list tl;		/* the targets, as given or the default */
	struct stack_item *item;	/* owned; sorted by path by stack_decide() */
	size_t nitem, cap;
	size_t plain;			/* binaries without GPU code (not listed) */
	struct readiness_env env;	/* the versions known; strings borrowed */
	struct readiness_check check[STACK_MAX_CHECKS];
	size_t ncheck;
	size_t packages;		/* Python packages found */
	bool env_report;		/* an environment report (collect_env) was read: it
					   should give the driver and PyTorch's GPU build */
	bool accept_jit;		/* --accept-jit: the summary counts jit as ready */
	enum stack_ready ready[READINESS_MAX_TARGETS];
	char *why[READINESS_MAX_TARGETS];	/* owned: the reason for ready[t], one line */
	struct intern strings;		/* the items' group names */
};

/* Takes o (its contents now belong to r) and judges it for every target of r->tl. */
void stack_add_item(struct stack_result *r, const struct code_object *o);

/*
 * The driver an item's ZSTD entries need when the environment's driver is
 * known and older (the file does not load at all); NULL otherwise. *n gets
 * the number of ZSTD entries.
 */
const char *stack_zstd_blocked(const struct stack_result *r, const struct stack_item *it, size_t *n);

/*
 * Sorts the items by path and decides r->ready and r->why for each target,
 * alternatives (item.alternative) aside. no: an item misses it, a version
 * is below its minimum (r->check), the driver cannot load an item's ZSTD
 * entries, or PyTorch is a build for the other vendor (or the CPU). unknown:
 * nothing was found at all, or a fact an input should give is absent (an
 * environment report's driver, for CUDA targets; PyTorch's GPU build, once
 * an environment report or a package list was given). jit: an item or
 * PyTorch's arch list reaches it only through PTX. yes otherwise. Call after
 * r->env, r->check, r->env_report and r->packages are set.
 */
void stack_decide(struct stack_result *r);

/* The worst verdict of r's targets, a jit counted as yes when r->accept_jit. */
enum stack_ready stack_worst(const struct stack_result *r);

/* Whether item i is the first of its multi-backend group (false for an item of none). */
bool stack_group_first(const struct stack_result *r, size_t i);

void stack_result_release(struct stack_result *r);

#endif
