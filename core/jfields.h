/*
 * jfields: a struct written as a JSON object, and read back, from one const
 * table of fields (key, kind, offset, size, what the kind needs). The writer
 * is core/json.h's, the reader walks a core/jtree.h tree. The field macros
 * check at compile time that the member has the C type its kind stores.
 *
 * One null rule: a value the struct holds as unknown is written null, and
 * null or a missing key reads back as that unknown value (per kind below).
 * One error wording: the first error is kept, as "'runs[0].gpus' is a
 * string, not an integer" with the byte of the value (or of the object that
 * lacks the key); the caller frames it with the file's name.
 */
#ifndef CORE_JFIELDS_H
#define CORE_JFIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_gen.h>

#include "core/arena.h"
#include "core/jtree.h"

enum jkind {
	JK_STR,		/* const char *; NULL is null */
	JK_TEXT,	/* const char * that is never NULL: null or missing is an error */
	JK_STR_UNKNOWN,	/* const char *; NULL is written "unknown", which reads back as NULL */
	JK_COUNT,	/* int32_t or int64_t; negative (unknown) is null, null reads -1 */
	JK_INT,		/* int64_t written as it is (a step number) */
	JK_INDEX,	/* size_t index; null reads 0 */
	JK_NUM,		/* double; NaN is null */
	JK_POS,		/* double; 0 or less (none) is null, null reads 0 */
	JK_NONNEG,	/* double; negative (unknown) is null, null reads -1 */
	JK_BOOL,	/* bool; null reads false */
	JK_ENUM,	/* an enum (or bool) by name: aux is a struct jnames; null reads 0 */
	JK_OBJ,		/* aux: the fields of a nested object at base + off; key NULL: inlined */
	JK_OPT,		/* a JK_OBJ whose struct opens with `bool present`: the key is left out
			   when it is false; reading, present is whether the key holds an object */
	JK_OPT_NULL,	/* a JK_OPT written null when present is false */
	JK_ARR,		/* aux: a struct jarray; null reads as no elements */
	JK_SPECIAL,	/* aux: a struct jspecial */
	JK_WORDS,	/* const char * of space-separated words, written as an array of strings
			   ("" is []); reading joins them again, null reads "" */
};

struct jfield {
	const char *key;	/* NULL (with aux) inlines a JK_OBJ; NULL and NULL ends a table */
	enum jkind kind;
	size_t off;		/* of the member in the struct */
	size_t size;		/* of the member; 0 for SUB and SPECIAL (the struct itself) */
	const void *aux;
};

struct jnames {
	const char *(*name)(int v);	/* the name of value v; NULL: written null */
	int count;			/* values 0 .. count - 1 */
	bool zero_null;			/* value 0 is written null */
};

struct jarray {
	size_t count_off;		/* the size_t count beside the pointer */
	size_t elem_size;
	const struct jfield *elem;
	bool heap;			/* calloc'd (the owner frees it), else in the reader's arena */
};

struct jwrite {
	yajl_gen g;
	const void *user;		/* what the specials need: the whole document */
};

#define JREAD_MAX_PATH 256

struct jread {
	struct arena *arena;		/* strings and arrays read */
	void *user;			/* what the specials need */
	char path[JREAD_MAX_PATH];	/* of the value being decoded: "runs[0].gpus" */
	size_t plen;
	const struct jnode *obj;	/* the object being decoded: where a missing key is */
	char err[512];			/* the first error; "" none */
	int64_t err_at;			/* its byte */
};

struct jspecial {
	void (*write)(struct jwrite *w, const void *base);
	int (*read)(struct jread *r, const struct jnode *n, void *base);	/* n NULL: missing */
	const struct jfield *const *tables;	/* the tables it writes with, NULL-ended; NULL none */
};

/* The object's fields (not its braces) from the table. */
void jfields_write(struct jwrite *w, const struct jfield *f, const void *base);
/* One field's value (not its key). */
void jfield_write_value(struct jwrite *w, const struct jfield *f, const void *base);

/* Every field of the table from obj (NULL: all missing); 0, or -1 with r->err set. */
int jfields_read(struct jread *r, const struct jnode *obj, const struct jfield *f, void *base);
/* One field's value from n (NULL: missing), at r's path as it stands. */
int jfield_read_value(struct jread *r, const struct jfield *f, const struct jnode *n, void *base);

/* Records the first error at n (NULL: the object being read); returns -1. */
int jread_fail(struct jread *r, const struct jnode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "'path' is a number, not WANT"; returns -1. */
int jread_wrong_type(struct jread *r, const struct jnode *n, const char *want);
/* Appends .key (key NULL: [index]) to the path; returns what jread_pop restores. */
size_t jread_push(struct jread *r, const char *key, size_t index);
void jread_pop(struct jread *r, size_t old);

/*
 * Walks the table and every table below it (objects, arrays, a special's
 * tables) and checks each field's size against its kind and that it lies
 * inside a struct of struct_size bytes (a special's tables: inside any).
 * Returns the number of fields checked, or -1 with the first mismatch in
 * why ("'rank': kind 3 of 2 bytes at 8 in a struct of 64").
 */
int jfields_check(const struct jfield *f, size_t struct_size, char *why, size_t size);

/*
 * The table macros. Each checks the member's C type with a _Generic that
 * has no default (a member of another type does not compile), or an
 * operator only that type takes. T is the struct, m the member, k the key.
 */
#define JF_IS(T, m, ctype) (0 * _Generic(((T *)0)->m, ctype: 1))
#define JF_TYPED(T, m, k, kind, ctype, aux) \
	{ k, kind, offsetof(T, m) + JF_IS(T, m, ctype), sizeof(((T *)0)->m), aux }

#define JF_STR(T, m, k) JF_TYPED(T, m, k, JK_STR, const char *, NULL)
#define JF_TEXT(T, m, k) JF_TYPED(T, m, k, JK_TEXT, const char *, NULL)
#define JF_STR_UNKNOWN(T, m, k) JF_TYPED(T, m, k, JK_STR_UNKNOWN, const char *, NULL)
#define JF_WORDS(T, m, k) JF_TYPED(T, m, k, JK_WORDS, const char *, NULL)
#define JF_INT(T, m, k) JF_TYPED(T, m, k, JK_INT, int64_t, NULL)
#define JF_INDEX(T, m, k) JF_TYPED(T, m, k, JK_INDEX, size_t, NULL)
#define JF_NUM(T, m, k) JF_TYPED(T, m, k, JK_NUM, double, NULL)
#define JF_POS(T, m, k) JF_TYPED(T, m, k, JK_POS, double, NULL)
#define JF_NONNEG(T, m, k) JF_TYPED(T, m, k, JK_NONNEG, double, NULL)
#define JF_BOOL(T, m, k) JF_TYPED(T, m, k, JK_BOOL, bool, NULL)
#define JF_COUNT(T, m, k) \
	{ k, JK_COUNT, offsetof(T, m) + 0 * _Generic(((T *)0)->m, int32_t: 1, int64_t: 1), \
	  sizeof(((T *)0)->m), NULL }
/* An enum or bool: `| 0` compiles for integer types only. */
#define JF_ENUM(T, m, k, names) \
	{ k, JK_ENUM, offsetof(T, m) + 0 * sizeof(((T *)0)->m | 0), sizeof(((T *)0)->m), names }
/* A nested struct member; JF_OPT's opens with bool present. */
#define JF_OBJ(T, m, k, fields) { k, JK_OBJ, offsetof(T, m), sizeof(((T *)0)->m), fields }
#define JF_OPT(T, m, k, fields) { k, JK_OPT, offsetof(T, m), sizeof(((T *)0)->m), fields }
#define JF_OPT_NULL(T, m, k, fields) { k, JK_OPT_NULL, offsetof(T, m), sizeof(((T *)0)->m), fields }
/* A nested object whose fields are members of this same struct. */
#define JF_SUB(k, fields) { k, JK_OBJ, 0, 0, fields }
/* Another table of this same struct, inlined into this object. */
#define JF_MERGE(fields) { NULL, JK_OBJ, 0, 0, fields }
/* A struct member's fields inlined into this object. */
#define JF_INLINE(T, m, fields) { NULL, JK_OBJ, offsetof(T, m), sizeof(((T *)0)->m), fields }
/* A pointer member m to n elements (a size_t member count), described by arr. */
#define JF_ARR(T, m, k, arr) \
	{ k, JK_ARR, offsetof(T, m) + 0 * sizeof(*((T *)0)->m), sizeof(((T *)0)->m), arr }
#define JF_SPECIAL(k, s) { k, JK_SPECIAL, 0, 0, s }
#define JF_END { NULL, JK_STR, 0, 0, NULL }

/* The struct jarray of T's member m (a pointer) counted by its size_t member count. */
#define JARRAY(T, m, count, fields, heap) \
	{ offsetof(T, count) + JF_IS(T, count, size_t), sizeof(*((T *)0)->m), fields, heap }

#endif
