/*
 * pattern: tables of PCRE2 patterns compiled once per process (with JIT
 * where the machine has it), and the group lookup every text reader needs.
 * A table is any array whose elements start with the pattern's source
 * (`const char *`); the element size is passed, so a table of rules can
 * carry its own fields after the source.
 *
 * Threads: compiling is done once under a lock, and a compiled table is
 * read-only. The table's own match data (pattern_find, pattern_get) belongs
 * to the main thread; a thread between pattern_thread_begin() and
 * pattern_thread_end() gets match data of its own for every table it uses.
 */
#ifndef CORE_PATTERN_H
#define CORE_PATTERN_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pattern_table {
	const void *base;	/* the first element; its first field is the source */
	size_t n;		/* elements */
	size_t stride;		/* sizeof an element */
	uint32_t options;	/* PCRE2 compile options, e.g. PCRE2_MULTILINE */
	pcre2_code **code;	/* n slots, filled by pattern_compile */
	pcre2_match_data *md;	/* the table's own, for readers that keep no state of their own */
	int state;		/* 0 not compiled, 1 compiled, -1 a pattern is bad (atomic) */
	uint32_t groups;	/* the most capture groups of a pattern, once compiled */
};

/* A table over a static array `arr` with compiled slots `slots` (same length). */
#define PATTERN_TABLE(arr, slots, opts) \
	{ .base = (arr), .n = sizeof(arr) / sizeof((arr)[0]), .stride = sizeof((arr)[0]), \
	  .options = (opts), .code = (slots) }

/*
 * Compiles every pattern of t the first time; later calls return at once.
 * False when a built-in pattern does not compile (the tests catch that).
 */
bool pattern_compile(struct pattern_table *t);

/* Frees what pattern_compile made (static tables live for the process and need not). */
void pattern_release(struct pattern_table *t);

/* True when pattern i of t matches s[0..n); groups are then in md. */
bool pattern_match(const struct pattern_table *t, size_t i, const char *s, size_t n,
		   pcre2_match_data *md);

/*
 * pattern_match and pattern_group on the table's own match data (the main
 * thread), or on the calling thread's own (a worker: see below).
 */
bool pattern_find(struct pattern_table *t, size_t i, const char *s, size_t n);
bool pattern_get(const struct pattern_table *t, int g, const char *s, const char **start, size_t *len);

/* Group g of the last match in md: its start and length; false when it did not take part. */
bool pattern_group(pcre2_match_data *md, int g, const char *s, const char **start, size_t *len);

/*
 * Brackets the work of a thread other than the main one: pattern_find and
 * pattern_get then use match data of that thread's own, made on first use
 * and freed by pattern_thread_end().
 */
void pattern_thread_begin(void);
void pattern_thread_end(void);

#endif
