/*
 * jtree: a JSON document as a tree of values, each with the byte offset
 * where it starts, for readers that check every value's type and name the
 * byte of the one that is wrong (analysis.json). Parsed with yajl; nodes and
 * strings live in the caller's arena. Nesting is capped at JTREE_MAX_DEPTH.
 */
#ifndef CORE_JTREE_H
#define CORE_JTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

#define JTREE_MAX_DEPTH 32

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jnode {
	enum jtype type;
	bool b;
	bool is_int;		/* a number without fraction or exponent, in int64 range: i */
	int64_t at;		/* byte offset of its first character */
	const char *key;	/* member name; NULL in an array */
	const char *s;		/* a string's text (UTF-8, checked by yajl) */
	int64_t i;
	double d;		/* every number; inf where it is out of a double's range */
	struct jnode *child, *last, *next;	/* members or elements, in document order */
};

/*
 * Parses len bytes of buf. Returns the root, or NULL with *err (a message,
 * lowercase, no period: "not JSON: ...", "truncated: ...", "nested deeper
 * than 32 levels") and *err_at (the byte it is about) set.
 */
const struct jnode *jtree_parse(struct arena *a, const char *buf, size_t len,
				const char **err, int64_t *err_at);
/* The first member named key of obj (NULL obj or none: NULL). */
const struct jnode *jtree_member(const struct jnode *obj, const char *key);
/* "a string", "an object", "null" ...: the type as a message names it. */
const char *jtree_type_name(enum jtype t);

#endif
