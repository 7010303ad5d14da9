/*
 * info: a small tree of named values that a reader fills to say what it
 * read from one file (the `inspect` output). It is data only: render/ turns
 * it into JSON or text. Nodes live in an arena; strings are copied into it.
 *
 * A NULL string, a NaN number or info_null() all render as JSON null.
 */
#ifndef CORE_INFO_H
#define CORE_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"

enum info_type { INFO_NULL, INFO_BOOL, INFO_INT, INFO_NUM, INFO_STR, INFO_ARR, INFO_OBJ };

struct info {
	enum info_type type;
	const char *key;	/* member name inside an object; NULL inside an array */
	union {
		bool b;
		int64_t i;
		double d;
		const char *s;
	} v;
	struct info *child;	/* first member or element */
	struct info *last;	/* last member or element, for appending */
	struct info *next;	/* next sibling */
};

/* A new empty object, the root of a tree. */
struct info *info_root(struct arena *a);

/*
 * Add a member to `parent` (an object: `key` names it; an array: key NULL).
 * Setting a key that the object already holds replaces the old value in place,
 * so readers can fill a value early and correct it later.
 */
struct info *info_obj(struct arena *a, struct info *parent, const char *key);
struct info *info_arr(struct arena *a, struct info *parent, const char *key);
void info_null(struct arena *a, struct info *parent, const char *key);
void info_bool(struct arena *a, struct info *parent, const char *key, bool v);
void info_int(struct arena *a, struct info *parent, const char *key, int64_t v);
void info_num(struct arena *a, struct info *parent, const char *key, double v);	/* NaN: null */
void info_str(struct arena *a, struct info *parent, const char *key, const char *s);	/* NULL: null */

/* The member named key of an object, or NULL. */
struct info *info_get(const struct info *obj, const char *key);

#endif
