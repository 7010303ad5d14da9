#include "core/jtree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "core/budget.h"

struct parser {
	yajl_handle h;
	struct arena *arena;
	const char *buf;
	size_t len;
	size_t prev_end;		/* where the last token ended */
	struct jnode *stack[JTREE_MAX_DEPTH];
	int depth;
	struct jnode *root;
	const char *key;		/* the member name waiting for its value */
	const char *err;		/* why a callback stopped the parse */
	int64_t err_at;
};

/* Where the next token starts: after the last one, past blanks, ',' and ':'. */
static int64_t next_token(const struct parser *p)
{
	size_t at = p->prev_end;

	while (at < p->len && p->buf[at] && strchr(" \t\r\n,:", p->buf[at]))
		at++;
	return (int64_t)at;
}

/* The offset of the token a callback is called for; yajl has just read past it. */
static int64_t token_start(struct parser *p)
{
	int64_t at = next_token(p);

	p->prev_end = yajl_get_bytes_consumed(p->h);
	return at;
}

static struct jnode *add_node(struct parser *p, enum jtype type)
{
	struct jnode *n = arena_alloc(p->arena, sizeof(*n)), *parent;

	n->type = type;
	n->at = token_start(p);
	if (!p->depth) {
		p->root = n;
		return n;
	}
	parent = p->stack[p->depth - 1];
	if (parent->type == J_OBJ) {
		n->key = p->key;
		p->key = NULL;
	}
	if (parent->last)
		parent->last->next = n;
	else
		parent->child = n;
	parent->last = n;
	return n;
}

static int open_container(struct parser *p, enum jtype type)
{
	struct jnode *n = add_node(p, type);

	if (budget_over()) {	/* the tree is several times the file: stop before the machine does */
		p->err = "needs more memory than --max-memory allows (the budget of data kept): not read";
		p->err_at = n->at;
		return 0;
	}
	if (p->depth == JTREE_MAX_DEPTH) {
		p->err = "nested deeper than 32 levels";
		p->err_at = n->at;
		return 0;
	}
	p->stack[p->depth++] = n;
	return 1;
}

static int on_null(void *ctx)
{
	add_node(ctx, J_NULL);
	return 1;
}

static int on_bool(void *ctx, int b)
{
	add_node(ctx, J_BOOL)->b = b;
	return 1;
}

static int on_number(void *ctx, const char *s, size_t len)
{
	struct parser *p = ctx;
	struct jnode *n = add_node(p, J_NUM);
	char *text = arena_strndup(p->arena, s, len);
	char *end;

	errno = 0;
	n->d = strtod(text, NULL);
	if (!strpbrk(text, ".eE")) {
		n->i = strtoll(text, &end, 10);
		n->is_int = errno == 0 && *end == '\0';
	}
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct parser *p = ctx;

	add_node(p, J_STR)->s = arena_strndup(p->arena, (const char *)s, len);
	return 1;
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, J_OBJ);
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
	struct parser *p = ctx;

	token_start(p);
	p->key = arena_strndup(p->arena, (const char *)s, len);
	return 1;
}

static int on_end(void *ctx)
{
	struct parser *p = ctx;

	token_start(p);
	p->depth--;
	return 1;
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, J_ARR);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = on_end, .yajl_start_array = on_start_array, .yajl_end_array = on_end,
};

/* yajl's reason for a syntax error, first line, without its trailing period. */
static const char *syntax_error(struct parser *p, const char *buf, size_t len)
{
	unsigned char *e = yajl_get_error(p->h, 0, (const unsigned char *)buf, len);
	size_t n = strcspn((const char *)e, "\n");
	char *s;

	while (n && ((const char *)e)[n - 1] == '.')
		n--;
	s = arena_alloc(p->arena, n + 11);
	memcpy(s, "not JSON: ", 10);
	memcpy(s + 10, e, n);
	yajl_free_error(p->h, e);
	return s;
}

static bool blank(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", buf[i]) || !buf[i])
			return false;
	return true;
}

/* Parses buf into p->root; on failure sets p->err and p->err_at. */
static int parse_tree(struct parser *p, const char *buf, size_t len)
{
	yajl_status st;

	p->buf = buf;
	p->len = len;
	p->h = yajl_alloc(&callbacks, NULL, p);
	st = yajl_parse(p->h, (const unsigned char *)buf, len);
	if (st != yajl_status_ok && !p->err) {
		p->err_at = next_token(p);	/* the token yajl stumbled on */
		p->err = syntax_error(p, buf, len);
	} else if (st == yajl_status_ok && yajl_complete_parse(p->h) != yajl_status_ok) {
		p->err_at = (int64_t)len;
		p->err = blank(buf, len) ? "not JSON: the file is empty" :
			 "truncated: the JSON ends before the document is complete";
	}
	yajl_free(p->h);
	return p->err ? -1 : 0;
}

const struct jnode *jtree_parse(struct arena *a, const char *buf, size_t len,
				const char **err, int64_t *err_at)
{
	struct parser p = { .arena = a };

	if (parse_tree(&p, buf, len) < 0) {
		*err = p.err;
		*err_at = p.err_at;
		return NULL;
	}
	return p.root;
}

const struct jnode *jtree_member(const struct jnode *obj, const char *key)
{
	for (const struct jnode *c = obj ? obj->child : NULL; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

const char *jtree_type_name(enum jtype t)
{
	static const char *const names[] = {
		[J_NULL] = "null", [J_BOOL] = "a boolean", [J_NUM] = "a number",
		[J_STR] = "a string", [J_ARR] = "an array", [J_OBJ] = "an object",
	};

	return names[t];
}
