#include "render/stack_json.h"

#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "render/stack_text.h"

static void json_archs(yajl_gen g, const char *key, const struct code_object *o, int kind)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	code_object_archs(o, kind, &b);
	json_key(g, key);
	yajl_gen_array_open(g);
	for (char *p = b.data, *save = NULL, *w; (w = strtok_r(p, " ", &save)); p = NULL)
		json_str(g, w);
	yajl_gen_array_close(g);
	buf_release(&b);
}

/* "relocatable_only": the archs found only in __nv_relfatbin. */
static void json_relocatable(yajl_gen g, const struct code_object *o)
{
	struct buf b = BUF_INIT;

	buf_init(&b, 0);
	code_object_relocatable_only(o, &b);
	json_key(g, "relocatable_only");
	yajl_gen_array_open(g);
	for (char *p = b.data, *save = NULL, *w; (w = strtok_r(p, " ", &save)); p = NULL)
		json_str(g, w);
	yajl_gen_array_close(g);
	buf_release(&b);
}

static void json_jit(yajl_gen g, const struct stack_result *s, const struct stack_item *it)
{
	json_key(g, "jit");
	yajl_gen_map_open(g);
	for (size_t t = 0; t < s->tl.n; t++) {
		const struct judgement *j = &it->j[t];
		char isa[16];

		if (j->verdict != CODE_JIT)
			continue;
		stack_isa_text(j->by->ptx_isa, isa, sizeof(isa));
		json_key(g, s->tl.t[t].name);
		yajl_gen_map_open(g);
		json_key(g, "ptx");
		json_str(g, j->by->arch);
		json_key(g, "ptx_isa");
		json_str(g, j->by->ptx_isa < 0 ? NULL : isa);
		json_key(g, "min_cuda");
		json_str(g, j->min_cuda);
		json_key(g, "min_driver");
		json_str(g, j->min_driver);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}

static void json_item(yajl_gen g, const struct stack_result *s, const struct stack_item *it)
{
	size_t nzstd;
	const char *zstd = readiness_zstd_driver(&it->o, &nzstd);

	yajl_gen_map_open(g);
	json_key(g, "path");
	json_str(g, it->o.path);
	json_key(g, "kind");
	json_str(g, it->o.kind);
	json_archs(g, "sass", &it->o, CODE_SASS);
	json_archs(g, "ptx", &it->o, CODE_PTX);
	json_archs(g, "ltoir", &it->o, CODE_LTOIR);
	json_archs(g, "amdgpu", &it->o, CODE_AMDGPU);
	json_relocatable(g, &it->o);
	json_key(g, "verdict");
	yajl_gen_map_open(g);
	for (size_t t = 0; t < s->tl.n; t++) {
		json_key(g, s->tl.t[t].name);
		json_str(g, code_verdict_name(it->j[t].verdict));
	}
	yajl_gen_map_close(g);
	json_jit(g, s, it);
	json_key(g, "zstd_entries");
	json_int(g, (int64_t)nzstd);
	json_key(g, "zstd_min_driver");
	json_str(g, zstd);
	json_key(g, "zstd_loads");
	if (zstd && s->env.driver)
		yajl_gen_bool(g, version_cmp(s->env.driver, zstd) >= 0);
	else
		yajl_gen_null(g);
	json_key(g, "fix");
	json_str(g, it->alternative ? NULL : it->fix);	/* another variant needs no fix */
	json_key(g, "group");
	json_str(g, it->group);
	json_key(g, "alternative");
	yajl_gen_bool(g, it->alternative);
	json_key(g, "loaded_unknown");
	yajl_gen_bool(g, it->loaded_unknown);
	yajl_gen_map_close(g);
}

static void json_checks(yajl_gen g, const struct stack_result *s)
{
	json_key(g, "checks");
	yajl_gen_array_open(g);
	for (size_t c = 0; c < s->ncheck; c++) {
		const struct readiness_check *k = &s->check[c];

		yajl_gen_map_open(g);
		json_key(g, "target");
		json_str(g, k->target->name);
		json_key(g, "component");
		json_str(g, stack_component_name(k->row->comp));
		json_key(g, "have");
		json_str(g, k->have);
		json_key(g, "need");
		json_str(g, k->row->version);
		json_key(g, "ok");
		yajl_gen_bool(g, k->ok);
		json_key(g, "fix");
		json_str(g, k->ok ? NULL : k->row->fix);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void json_env(yajl_gen g, const struct stack_result *s)
{
	const struct readiness_env *e = &s->env;
	const char *const kv[][2] = {
		{ "torch", e->torch }, { "torch_cuda", e->torch_cuda }, { "driver", e->driver },
		{ "nccl", e->nccl }, { "cudnn", e->cudnn }, { "rocm", e->rocm },
		{ "arch_list", e->arch_list },
	};

	json_key(g, "environment");
	yajl_gen_map_open(g);
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++) {
		json_key(g, kv[i][0]);
		json_str(g, kv[i][1]);
	}
	json_key(g, "packages");
	json_int(g, (int64_t)s->packages);
	json_checks(g, s);
	yajl_gen_map_close(g);
}

/* Per target: "ready" its verdict, "why" its reason. */
static void json_ready(yajl_gen g, const struct stack_result *s)
{
	json_key(g, "ready");
	yajl_gen_map_open(g);
	for (size_t t = 0; t < s->tl.n; t++) {
		json_key(g, s->tl.t[t].name);
		json_str(g, stack_ready_name(s->ready[t]));
	}
	yajl_gen_map_close(g);
	json_key(g, "why");
	yajl_gen_map_open(g);
	for (size_t t = 0; t < s->tl.n; t++) {
		json_key(g, s->tl.t[t].name);
		json_str(g, s->why[t]);
	}
	yajl_gen_map_close(g);
}

int stack_json(const struct stack_result *s, FILE *f)
{
	yajl_gen g = json_new();
	int rc;

	yajl_gen_map_open(g);
	json_key(g, "tool");
	json_tool(g, "stack", STACK_JSON_FORMAT);
	json_key(g, "targets");
	yajl_gen_array_open(g);
	for (size_t t = 0; t < s->tl.n; t++)
		json_str(g, s->tl.t[t].name);
	yajl_gen_array_close(g);
	json_key(g, "items");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < s->nitem; i++)
		json_item(g, s, &s->item[i]);
	yajl_gen_array_close(g);
	json_env(g, s);
	json_key(g, "binaries_without_gpu_code");
	json_int(g, (int64_t)s->plain);
	json_ready(g, s);
	yajl_gen_map_close(g);
	rc = json_flush(g, f, true);
	yajl_gen_free(g);
	return rc;
}
