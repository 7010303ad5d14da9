/*
 * inspect: what each file is, what was read from it, what was skipped and why;
 * for a binary, which GPU code it carries (through ingest/codescan, as stack reads it).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/model.h"
#include "core/readiness.h"
#include "core/utf8.h"
#include "ingest/codescan.h"
#include "ingest/ingest.h"
#include "ingest/walk.h"

struct inspect {
	bool json;
	struct arena arena;	/* every file's info tree */
	struct info *files;	/* the array of file objects */
	size_t recognised;	/* files whose format is known */
	size_t unreadable;	/* files that could not be read */
	size_t damaged;		/* files read in part: an error stopped the reader */
	size_t total;
};

/* Files' own diagnostics go into their info; the rest is said on stderr. */
static void attach_diags(struct inspect *in, struct info *file, const struct diags *d)
{
	struct info *warn = info_arr(&in->arena, file, "warnings");
	struct buf line = BUF_INIT;

	buf_init(&line, 0);
	for (size_t i = 0; i < d->count; i++) {
		buf_reset(&line);
		diag_format(&d->items[i], &line);
		info_str(&in->arena, warn, NULL, line.data);
	}
	if (d->suppressed) {
		buf_reset(&line);
		buf_addf(&line, "%zu more messages like these were not shown", d->suppressed);
		info_str(&in->arena, warn, NULL, line.data);
	}
	buf_release(&line);
}

/* The arch names of o's entries of one kind, as an array under key (stack --json's keys). */
static void code_archs(struct arena *a, struct info *file, const char *key,
		       const struct code_object *o, int kind)
{
	struct info *arr = info_arr(a, file, key);
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	code_object_archs(o, kind, &b);
	for (char *p = b.data, *save = NULL, *w; (w = strtok_r(p, " ", &save)); p = NULL)
		info_str(a, arr, NULL, w);
	buf_release(&b);
}

/*
 * A file on disk (not standard input) no reader took: when it is a binary
 * codescan knows, what GPU code it holds goes into its info and it is no
 * longer "skipped". Returns true then.
 */
static bool inspect_code(struct inspect *in, struct trial *t, const char *path, struct info *file)
{
	struct code_object o;
	size_t ncompressed = 0, nzstd;
	const char *zstd;

	if (codescan_file(path, &o, &t->diags) == 1) {
		code_object_release(&o);
		return false;
	}
	for (size_t i = 0; i < o.nentry; i++)
		ncompressed += o.entry[i].compressed;
	zstd = readiness_zstd_driver(&o, &nzstd);
	info_str(&in->arena, file, "kind", o.kind);
	code_archs(&in->arena, file, "sass", &o, CODE_SASS);
	code_archs(&in->arena, file, "ptx", &o, CODE_PTX);
	code_archs(&in->arena, file, "ltoir", &o, CODE_LTOIR);
	code_archs(&in->arena, file, "amdgpu", &o, CODE_AMDGPU);
	info_int(&in->arena, file, "containers", (int64_t)o.ncontainers);
	info_int(&in->arena, file, "entries", (int64_t)o.nentry);
	info_int(&in->arena, file, "compressed_entries", (int64_t)ncompressed);
	info_int(&in->arena, file, "zstd_entries", (int64_t)nzstd);
	info_str(&in->arena, file, "zstd_min_driver", zstd);
	code_object_release(&o);
	return true;
}

static void inspect_one(struct inspect *in, const char *path)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "inspect", ".");
	struct ingest_file f;
	bool code;

	ingest_file(t, r, path, &in->arena, &f);
	code = !f.read && !f.unreadable && !f.left_out && strcmp(path, "-") &&
	       inspect_code(in, t, path, f.info);
	if (code)
		f.skipped = NULL;
	in->total++;
	if (f.unreadable)
		in->unreadable++;
	else if (f.sniff.format != FMT_UNKNOWN || f.read || code)
		in->recognised++;
	if (!f.unreadable && t->diags.errors)
		in->damaged++;
	info_str(&in->arena, f.info, "skipped", f.skipped);
	attach_diags(in, f.info, &t->diags);
	if (!in->files->last)
		in->files->child = f.info;
	else
		in->files->last->next = f.info;
	in->files->last = f.info;
	trial_free(t);
}

static const char *const header_keys[] = {
	"path", "format", "compressed", "size_bytes", "skipped", "warnings", NULL
};

static bool is_header_key(const char *key)
{
	for (size_t i = 0; header_keys[i]; i++)
		if (!strcmp(header_keys[i], key))
			return true;
	return false;
}

static void text_value(const struct info *n, struct buf *out);

static void text_members(const struct info *n, struct buf *out)
{
	bool first = true;

	for (const struct info *c = n->child; c; c = c->next) {
		buf_addstr(out, first ? "" : ", ");
		if (c->key)
			buf_addf(out, "%s: ", c->key);
		text_value(c, out);
		first = false;
	}
}

static void text_value(const struct info *n, struct buf *out)
{
	char num[40];

	switch (n->type) {
	case INFO_NULL:
		buf_addstr(out, "-");
		break;
	case INFO_BOOL:
		buf_addstr(out, n->v.b ? "yes" : "no");
		break;
	case INFO_INT:
		buf_addf(out, "%" PRId64, n->v.i);
		break;
	case INFO_NUM:
		json_format_double(n->v.d, num, sizeof(num));
		buf_addstr(out, num);
		break;
	case INFO_STR:
		buf_addstr(out, n->v.s);
		break;
	case INFO_ARR:
		buf_addch(out, '[');
		text_members(n, out);
		buf_addch(out, ']');
		break;
	case INFO_OBJ:
		buf_addch(out, '{');
		text_members(n, out);
		buf_addch(out, '}');
		break;
	}
}

static void print_text(const struct info *f)
{
	const struct info *fmt = info_get(f, "format");
	const struct info *skipped = info_get(f, "skipped");
	const struct info *gz = info_get(f, "compressed");
	const struct info *warn = info_get(f, "warnings");
	struct buf line = BUF_INIT;

	buf_init(&line, 0);
	buf_addf(&line, "%s: %s (%s)", info_get(f, "path")->v.s, fmt->v.s,
		 format_what(format_from_name(fmt->v.s)));
	if (gz && gz->type == INFO_BOOL && gz->v.b)
		buf_addstr(&line, ", gzip");
	utf8_line(stdout, "%s", line.data);
	if (skipped && skipped->type == INFO_STR)
		utf8_line(stdout, "  skipped: %s", skipped->v.s);
	for (const struct info *c = f->child; c; c = c->next) {
		if (is_header_key(c->key))
			continue;
		buf_reset(&line);
		text_value(c, &line);
		utf8_line(stdout, "  %s: %s", c->key, line.data);
	}
	for (const struct info *w = warn ? warn->child : NULL; w && verbosity >= 0; w = w->next)
		utf8_line(stdout, "  %s", w->v.s);
	buf_release(&line);
}

static int finish(struct inspect *in, struct walk *w)
{
	if (in->json) {
		yajl_gen g = json_new();
		struct info *root = info_root(&in->arena);

		root->child = root->last = in->files;
		in->files->key = "files";
		json_info(g, root);
		json_flush(g, stdout, true);	/* a write error is said once, by main */
		yajl_gen_free(g);
	} else {
		for (const struct info *f = in->files->child; f; f = f->next)
			print_text(f);
	}
	if (!in->recognised) {
		error("no file holds a format scaleaudit reads");
		return EXIT_NO_INPUT;
	}
	return in->unreadable || in->damaged || w->missing ? EXIT_PARTIAL : EXIT_DONE;
}

static int json;	/* --json */

const struct option inspect_options[] = {
	OPTION_FLAG(0, "json", &json, 1, "print {\"files\": [...]} instead of text"),
	OPTION_INCLUDE(common_options, "common", "options every command takes"),
	OPTION_END,
};

int cmd_inspect(int argc, char **argv)
{
	struct inspect in = { .json = json };
	struct walk w = { .n = 0 };
	struct diags d = DIAGS_INIT;
	int ret;

	if (argc < 1)
		return usage_error("inspect", "no PATH given");
	for (int i = 0; i < argc; i++)
		walk_path(&w, argv[i], &d);
	print_diags(&d);
	in.files = info_arr(&in.arena, info_root(&in.arena), "files");
	for (size_t i = 0; i < w.n; i++)
		inspect_one(&in, w.files[i]);
	ret = finish(&in, &w);
	diags_release(&d);
	walk_release(&w);
	arena_release(&in.arena);
	return ret;
}
