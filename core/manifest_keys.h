/*
 * manifest_keys: the one table of the keys trial.ini and run.ini take: where each value goes,
 * what it means, the values it allows and what applies without it. The manifest reader parses
 * with it; plan's --init skeleton and the documentation are written from it, so none can drift.
 */
#ifndef CORE_MANIFEST_KEYS_H
#define CORE_MANIFEST_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* How a key's value is read. */
enum mkey_kind {
	MKEY_STR,		/* free text */
	MKEY_NAME,		/* [run] name: the run's name, not a fact */
	MKEY_INT,		/* a whole number >= 0 */
	MKEY_NUM,		/* a finite number >= 0 */
	MKEY_RATIO,		/* a finite number > 0 */
	MKEY_STRATEGY,		/* one of manifest_strategies[] */
	MKEY_PRECISION,		/* a dtype name or an alias (core/model.h precision_parse) */
	MKEY_HYP,		/* step-time|global-batch|feasibility */
	MKEY_QUESTION,		/* single-config|hparam-sweep */
	MKEY_CURRENCY,		/* 1 to 8 printable characters, no space: "USD", "$" */
};

struct manifest_key {
	const char *section;	/* "trial" (trial.ini) or "run" (run.ini) */
	const char *name;
	enum mkey_kind kind;
	size_t offset;		/* of its fact in struct trial ("trial") or struct run_facts ("run");
				   unused for MKEY_NAME, MKEY_HYP, MKEY_QUESTION */
	const char *help;	/* what it means, for a user; one line, no trailing period */
	const char *allowed;	/* the values it takes, for a user */
	const char *dflt;	/* what applies when it is absent, for a user */
};

/* The strategies run.ini's `strategy` takes, NULL-terminated. */
extern const char *const manifest_strategies[];
/* True when v is one of them or several joined by '+' ("tensor+ddp"). */
bool manifest_strategy_valid(const char *v);

/* True when v names a currency as trial.ini's `currency` takes it: 1 to 8 characters, none a
 * space or a control character (UTF-8 letters such as the euro sign count as one). */
bool manifest_currency_valid(const char *v);

/* The table, in the order a manifest lists them (trial keys, then run keys); *n its length. */
const struct manifest_key *manifest_keys(size_t *n);

/* The key `name` of `section`; NULL when there is none. */
const struct manifest_key *manifest_key_find(const char *section, const char *name);

#endif
