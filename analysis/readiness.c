/*
 * readiness: a run's software against its GPU (docs/analysis.md, "Blackwell
 * readiness").
 */
#include "analysis/readiness.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/thresholds.h"
#include "core/gpu.h"
#include "core/imap.h"
#include "core/kname.h"
#include "core/qty.h"
#include "core/readiness.h"
#include "core/xalloc.h"

/* The foreign kernels a finding names; the result lists up to READY_FOREIGN_MAX. */
#define FINDING_FOREIGN_MAX 3

/* One distinct kernel name of a run, with the SM its name says and its time. */
struct kind {
	const char *name;
	int sm;
	int64_t ns;
};

struct kinds {
	struct kind *v;
	size_t n, cap;
	struct imap by_name;	/* interned name pointer -> index */
	int64_t total_ns;	/* every kernel's time */
};

/* The GPU table's row of the run's GPU: the first GPU a source names. */
static const struct gpu_model *run_model(const struct run *r, const struct run_result *rr,
					 const char **name)
{
	*name = NULL;
	for (size_t g = 0; g < rr->ngpu && !*name; g++)
		if (rr->gpu[g].name) {
			*name = rr->gpu[g].name;
			return gpu_lookup(rr->gpu[g].name, rr->gpu[g].memory_total);
		}
	if (r->env.ngpus && r->env.gpus[0]) {
		*name = r->env.gpus[0];
		return gpu_lookup(*name, -1);
	}
	return NULL;
}

static void count_kernel(struct kinds *k, const struct gpu_event *e)
{
	uint32_t i;

	k->total_ns += e->end - e->start;
	if (!imap_get(&k->by_name, (int64_t)(intptr_t)e->name, &i)) {
		xgrow(&k->v, &k->cap, k->n + 1, sizeof(*k->v));
		i = (uint32_t)k->n++;
		k->v[i] = (struct kind){ e->name, kname_sm_of(e->name), 0 };
		imap_put(&k->by_name, (int64_t)(intptr_t)e->name, i);
	}
	k->v[i].ns += e->end - e->start;
}

static int by_time(const void *pa, const void *pb)
{
	const struct kind *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * Kernels whose name names another generation than the Blackwell GPU m, by
 * time, into rd->foreign; rd->foreign_share their share of all kernel time.
 */
static void foreign_kernels(struct analysis *a, const struct run *r, const struct gpu_model *m,
			    struct readiness *rd)
{
	struct kinds k = { .by_name = IMAP_INIT };
	int64_t foreign = 0;
	size_t n = 0;

	for (size_t i = 0; i < r->nranks; i++)
		for (size_t j = 0; j < r->ranks[i].nev; j++)
			if (r->ranks[i].ev[j].kind == EV_KERNEL && r->ranks[i].ev[j].name)
				count_kernel(&k, &r->ranks[i].ev[j]);
	for (size_t i = 0; i < k.n; i++)
		if (k.v[i].sm > 0 && k.v[i].sm / 10 != m->cc_major) {
			k.v[n++] = k.v[i];
			foreign += k.v[i].ns;
		}
	rd->foreign_share = k.total_ns > 0 ? (double)foreign / (double)k.total_ns : NAN;
	if (n)	/* k.v is NULL when the runs hold no kernel */
		qsort(k.v, n, sizeof(*k.v), by_time);
	rd->nforeign = n < READY_FOREIGN_MAX ? n : READY_FOREIGN_MAX;
	rd->foreign = arena_alloc(&a->arena, (rd->nforeign ? rd->nforeign : 1) * sizeof(*rd->foreign));
	for (size_t i = 0; i < rd->nforeign; i++)
		rd->foreign[i] = (struct foreign_kernel){
			.name = k.v[i].name, .arch = analysis_printf(a, "sm_%d", k.v[i].sm),
			.time_share = (double)k.v[i].ns / (double)k.total_ns,
		};
	free(k.v);
	imap_release(&k.by_name);
}

/* "10.0" for "sm_100", "9.0" for "sm_90": the TORCH_CUDA_ARCH_LIST spelling. */
static const char *arch_number(struct analysis *a, const char *isa)
{
	int sm = isa && strncmp(isa, "sm_", 3) == 0 ? atoi(isa + 3) : 0;

	return sm > 0 ? analysis_printf(a, "%d.%d", sm / 10, sm % 10) : "the GPU's compute capability";
}

/* How to rebuild an extension for the GPU: TORCH_CUDA_ARCH_LIST="10.0", or PYTORCH_ROCM_ARCH="gfx942". */
static const char *rebuild_hint(struct analysis *a, const char *isa)
{
	if (isa && !strncmp(isa, "gfx", 3))
		return analysis_printf(a, "PYTORCH_ROCM_ARCH=\"%s\"", isa);
	return analysis_printf(a, "TORCH_CUDA_ARCH_LIST=\"%s\"", arch_number(a, isa));
}

static const char *srcline(struct analysis *a, const struct srcpos *p)
{
	return p->file ? analysis_printf(a, "%s:%lld", p->file, (long long)p->line) : "a log";
}

/* What PyTorch said of the GPU: the warning, else the error; NULL when neither. */
static void arch_warning(struct analysis *a, const struct run *r, struct readiness *rd)
{
	const struct env_info *e = &r->env;

	if (e->narch_warnings) {
		const struct env_arch_warning *w = &e->arch_warnings[0];

		rd->arch_warning = analysis_printf(
			a, "%s: %s with CUDA capability %s is not compatible with the current PyTorch "
			"installation%s%s", srcline(a, &w->src), w->gpu ? w->gpu : "the GPU",
			w->capability, w->supported ? ", which supports " : "",
			w->supported ? w->supported : "");
		if (!rd->isa && w->capability)	/* the trial is freed before the analysis is written */
			rd->isa = analysis_printf(a, "%s", w->capability);
	} else if (e->no_kernel_image) {
		rd->arch_warning = analysis_printf(a, "%s: no kernel image is available for execution "
						   "on the device", srcline(a, &e->no_kernel_image_src));
	}
}

/* The most minimum-version checks kept per run. */
#define READY_CHECKS_MAX 16

/* The environment's versions against the minimums core/readiness.h gives for the GPU. */
static void check_versions(struct analysis *a, const struct run *r, struct readiness *rd)
{
	struct readiness_check c[READY_CHECKS_MAX];
	struct readiness_env e;
	struct target_list tl = { .n = 1 };
	size_t n;

	readiness_env_from_run(r, &e);
	rd->nccl_version = e.nccl;	/* the NCCL log's, else a pip line's */
	if (!rd->isa || target_parse(rd->isa, &tl.t[0]) < 0)
		return;
	n = readiness_check_env(&e, &tl, c, READY_CHECKS_MAX);
	rd->nchecks = n < READY_CHECKS_MAX ? n : READY_CHECKS_MAX;
	rd->checks = arena_alloc(&a->arena, (rd->nchecks ? rd->nchecks : 1) * sizeof(*rd->checks));
	for (size_t i = 0; i < rd->nchecks; i++)
		rd->checks[i] = (struct readiness_item){
			.component = stack_component_name(c[i].row->comp), .have = c[i].have,
			.minimum = c[i].row->comp == COMP_ARCHS ? rd->isa : c[i].row->version,
			.ok = c[i].ok, .fix = c[i].ok ? NULL : c[i].row->fix,
		};
}

/* One kind of o's archs, space-separated, in the analysis' arena ("" none). */
static const char *archs(struct analysis *a, const struct code_object *o, enum code_kind kind)
{
	struct buf b = BUF_INIT;
	const char *s;

	buf_init(&b, 0);
	code_object_archs(o, (int)kind, &b);
	s = analysis_printf(a, "%s", b.len ? b.data : "");
	buf_release(&b);
	return s;
}

static int by_path(const void *pa, const void *pb)
{
	return strcmp(((const struct readiness_code *)pa)->path, ((const struct readiness_code *)pb)->path);
}

/*
 * The run's binaries with GPU code, each judged for the run's GPU (when its
 * architecture is known); the strings are the analysis' own, not the trial's.
 */
static void judge_code(struct analysis *a, const struct run *r, struct readiness *rd)
{
	struct target t;
	bool known = rd->isa && target_parse(rd->isa, &t) == 0;

	rd->ncode = r->ncode;
	rd->code = arena_alloc(&a->arena, (rd->ncode ? rd->ncode : 1) * sizeof(*rd->code));
	for (size_t i = 0; i < rd->ncode; i++) {
		const struct code_object *o = &r->code[i];
		struct readiness_code *c = &rd->code[i];
		struct judgement j;

		size_t nzstd;
		const char *zstd = readiness_zstd_driver(o, &nzstd);

		*c = (struct readiness_code){
			.path = analysis_printf(a, "%s", o->path), .kind = o->kind, .sass = archs(a, o, CODE_SASS),
			.ptx = archs(a, o, CODE_PTX), .amdgpu = archs(a, o, CODE_AMDGPU),
			.zstd_entries = (int64_t)nzstd, .zstd_driver = zstd,
		};
		if (!known)
			continue;
		readiness_judge(o, &t, &j);
		c->verdict = code_verdict_name(j.verdict);
		c->jit_ptx = j.verdict == CODE_JIT ? analysis_printf(a, "%s", j.by->arch) : NULL;
		c->jit_driver = j.verdict == CODE_JIT ? j.min_driver : NULL;
	}
	qsort(rd->code, rd->ncode, sizeof(*rd->code), by_path);
}

/* "sm_90 sm_90a, PTX compute_90" for a file's archs; "no code" when it has none. */
static const char *carries(struct analysis *a, const struct readiness_code *c)
{
	const char *parts[] = { c->sass, c->ptx, c->amdgpu };
	const char *s = "";

	for (size_t i = 0; i < 3; i++)
		if (*parts[i])
			s = analysis_printf(a, "%s%s%s%s", s, *s ? ", " : "", i == 1 ? "PTX " : "", parts[i]);
	return *s ? s : "no code";
}

static bool code_missing(const struct readiness_code *c)
{
	return c->verdict && !strcmp(c->verdict, code_verdict_name(CODE_MISSING));
}

/* How many of the run's binaries its GPU cannot load; *first gets the first. */
static size_t count_missing(const struct readiness *rd, const struct readiness_code **first)
{
	size_t n = 0;

	*first = NULL;
	for (size_t i = 0; i < rd->ncode; i++)
		if (code_missing(&rd->code[i]) && !n++)
			*first = &rd->code[i];
	return n;
}

/* The first missing binary, as the verdict's reason names it; NULL when none. */
static const char *missing_code(struct analysis *a, const struct readiness *rd)
{
	const struct readiness_code *c;
	size_t n = count_missing(rd, &c);

	if (!n)
		return NULL;
	return analysis_printf(a, "%s holds no code for %s (it carries %s)%s", c->path, rd->isa,
			       carries(a, c), n > 1 ? analysis_printf(a, ", and %zu more binar%s", n - 1,
								      n > 2 ? "ies" : "y") : "");
}

/* True when c has ZSTD-compressed entries that the run's driver, known and older, cannot load. */
static bool zstd_blocked(const struct readiness *rd, const struct readiness_code *c)
{
	return c->zstd_driver && rd->driver && version_cmp(rd->driver, c->zstd_driver) < 0;
}

/* The first binary the run's driver cannot unpack, as the verdict's reason names it; NULL when none. */
static const char *zstd_code(struct analysis *a, const struct readiness *rd)
{
	for (size_t i = 0; i < rd->ncode; i++)
		if (zstd_blocked(rd, &rd->code[i]))
			return analysis_printf(a, "%s holds ZSTD-compressed code that only driver %s or "
					       "newer loads (the run's driver is %s)", rd->code[i].path,
					       rd->code[i].zstd_driver, rd->driver);
	return NULL;
}

/* The checks that failed, "PyTorch 2.6.0 (2.7 needed): fix; ..."; NULL when none did. */
static const char *failed_checks(struct analysis *a, const struct readiness *rd)
{
	const char *s = NULL;

	for (size_t i = 0; i < rd->nchecks; i++)
		if (!rd->checks[i].ok)
			s = analysis_printf(a, "%s%s%s %s (%s needed): %s", s ? s : "", s ? "; " : "",
					    rd->checks[i].component, rd->checks[i].have,
					    rd->checks[i].minimum, rd->checks[i].fix);
	return s;
}

/* True when a check of what decides the GPU's code (PyTorch's CUDA build or arch list) passed. */
static bool build_checked(const struct readiness *rd)
{
	for (size_t i = 0; i < rd->nchecks; i++)
		if (rd->checks[i].ok && (!strcmp(rd->checks[i].component, stack_component_name(COMP_CUDA)) ||
					 !strcmp(rd->checks[i].component, stack_component_name(COMP_ARCHS))))
			return true;
	return false;
}

static void verdict(struct analysis *a, const struct run_result *rr, struct readiness *rd)
{
	const char *failed = failed_checks(a, rd), *missing = missing_code(a, rd), *zstd = zstd_code(a, rd);

	if (rd->arch_warning) {
		rd->verdict = "not-ready";
		rd->reason = analysis_printf(a, "the PyTorch build does not target the GPU (%s)",
					     rd->arch_warning);
	} else if (missing) {
		rd->verdict = "not-ready";
		rd->reason = analysis_printf(a, "a compiled extension does not target the GPU: %s", missing);
	} else if (zstd) {
		rd->verdict = "not-ready";
		rd->reason = analysis_printf(a, "a compiled extension needs a newer driver: %s", zstd);
	} else if (failed) {
		rd->verdict = "not-ready";
		rd->reason = analysis_printf(a, "below the minimum for %s: %s", rd->isa, failed);
	} else if (build_checked(rd)) {
		rd->verdict = "ready";
		rd->reason = analysis_printf(a, "every version the logs show meets the minimum for %s",
					     rd->isa);
	} else {
		rd->verdict = "unknown";
		rd->reason = !rd->isa ? "the GPU's architecture is unknown" :
			     analysis_printf(a, "no log of run '%s' gives PyTorch's CUDA build or "
					     "architecture list", rr->name);
	}
	if (failed && !rd->arch_warning)
		analysis_finding(a, DIAG_WARNING, "stack-below-minimum", NULL,
				 "run '%s' on %s (%s): %s", rr->name, rd->gpu, rd->isa, failed);
}

static void finding_foreign(struct analysis *a, const struct run_result *rr, const struct readiness *rd)
{
	char list[1024] = "", share[QTY_LEN], one[QTY_LEN];
	size_t len = 0;

	for (size_t i = 0; i < rd->nforeign && i < FINDING_FOREIGN_MAX; i++) {
		int n = snprintf(list + len, sizeof(list) - len, "%s%s (%s, %s)", i ? "; " : "",
				 rd->foreign[i].name, rd->foreign[i].arch,
				 qty_share(one, rd->foreign[i].time_share));

		if (n < 0 || (size_t)n >= sizeof(list) - len)
			break;
		len += (size_t)n;
	}
	analysis_finding(a, rd->foreign_share > FOREIGN_KERNEL_SHARE ? DIAG_WARNING : DIAG_INFO,
			 "foreign-kernels", NULL,
			 "run '%s' on %s (%s): %s of its GPU kernel time ran in %zu kernel%s built for "
			 "another GPU generation, not tuned for this GPU: %s", rr->name, rd->gpu, rd->isa,
			 qty_share(share, rd->foreign_share), rd->nforeign, rd->nforeign == 1 ? "" : "s", list);
}

static void finding_unsupported(struct analysis *a, const struct run *r, const struct run_result *rr,
				const struct readiness *rd)
{
	const struct srcpos *src = r->env.narch_warnings ? &r->env.arch_warnings[0].src :
				   &r->env.no_kernel_image_src;

	analysis_finding(a, DIAG_ERROR, "arch-unsupported", src,
			 "run '%s': PyTorch's build does not target its GPU (%s): the run's kernels do "
			 "not run natively on it, so no verdict can stand on this run; install a PyTorch "
			 "wheel built for it (for Blackwell a cu128 wheel or newer) or rebuild PyTorch and "
			 "the extensions with TORCH_CUDA_ARCH_LIST=\"%s\"", rr->name,
			 rd->arch_warning, arch_number(a, rd->isa));
}

/*
 * A binary with ZSTD-compressed entries: a warning when the run's driver is
 * older than the one that unpacks them, a note when no log gives the driver.
 */
static void finding_zstd(struct analysis *a, const struct run_result *rr, const struct readiness *rd,
			 const struct readiness_code *c, const struct srcpos *pos)
{
	const char *entries = analysis_printf(a, "%" PRId64 " ZSTD-compressed entr%s, which only driver %s or "
					      "newer (R550) can load", c->zstd_entries,
					      c->zstd_entries == 1 ? "y" : "ies", c->zstd_driver);

	if (zstd_blocked(rd, c))
		analysis_finding(a, DIAG_WARNING, "extension-zstd-driver", pos,
				 "run '%s': this binary holds %s, and the run's driver is %s: it cannot "
				 "load there; install driver %s or newer, or rebuild it with nvcc "
				 "--compress-mode=speed (LZ4, which every driver loads)", rr->name, entries,
				 rd->driver, c->zstd_driver);
	else if (!rd->driver)
		analysis_finding(a, DIAG_INFO, "extension-zstd-unverified", pos,
				 "run '%s': this binary holds %s; no log of the run gives its driver, so "
				 "whether it loads is unverified: add the output of PyTorch's collect_env "
				 "(python -m torch.utils.collect_env) to the run", rr->name, entries);
}

/* A finding per binary the run's GPU cannot load (blocking) or loads only through PTX. */
static void finding_code(struct analysis *a, const struct run_result *rr, const struct readiness *rd)
{
	for (size_t i = 0; i < rd->ncode; i++) {
		const struct readiness_code *c = &rd->code[i];
		struct srcpos pos = SRCPOS_FILE(c->path);

		if (code_missing(c))
			analysis_finding(a, DIAG_ERROR, "extension-missing-arch", &pos,
					 "run '%s' on %s (%s): this binary holds no code for its GPU (it carries "
					 "%s): its kernels cannot load there (\"no kernel image is available\"), so "
					 "no verdict can stand on this run; rebuild it with %s", rr->name,
					 rd->gpu, rd->isa, carries(a, c), rebuild_hint(a, rd->isa));
		else if (c->verdict && !strcmp(c->verdict, "jit"))
			analysis_finding(a, DIAG_WARNING, "extension-jit", &pos,
					 "run '%s' on %s (%s): this binary has no machine code for its GPU, only "
					 "PTX %s that the driver compiled at start-up%s%s%s: the run paid that "
					 "compilation and lacked the GPU's own features; rebuild it with %s",
					 rr->name, rd->gpu, rd->isa, c->jit_ptx, c->jit_driver ? " (driver " : "",
					 c->jit_driver ? c->jit_driver : "", c->jit_driver ? " or newer)" : "",
					 rebuild_hint(a, rd->isa));
		if (c->zstd_driver)
			finding_zstd(a, rr, rd, c, &pos);
	}
}

void analysis_readiness(struct analysis *a, const struct run *r, struct run_result *rr)
{
	struct readiness *rd = &rr->readiness;
	const struct env_info *e = &r->env;
	const struct gpu_model *m = run_model(r, rr, &rd->gpu);
	bool env = e->torch.v || e->driver.v || e->cuda_runtime.v || e->arch_list.v || e->cuda_archs.v;

	rd->foreign_share = NAN;
	if (m) {
		rd->gpu = m->name;
		rd->isa = m->isa;
	}
	if (m && m->arch && strcmp(m->arch, "Blackwell") == 0)
		foreign_kernels(a, r, m, rd);
	arch_warning(a, r, rd);
	rd->present = env || rd->arch_warning || rd->nforeign || r->ncode;
	if (!rd->present)
		return;
	judge_code(a, r, rd);
	rd->torch = e->torch_full.v ? e->torch_full.v : e->torch.v;
	rd->torch_cuda = e->torch_cuda.v;
	rd->arch_list = e->arch_list.v ? e->arch_list.v : e->cuda_archs.v;
	rd->driver = e->driver.v;
	check_versions(a, r, rd);
	verdict(a, rr, rd);
	if (rd->nforeign)
		finding_foreign(a, rr, rd);
	if (rd->arch_warning)
		finding_unsupported(a, r, rr, rd);
	finding_code(a, rr, rd);
}

bool readiness_blocks(const struct readiness *rd)
{
	const struct readiness_code *c;

	return rd->present && (rd->arch_warning || count_missing(rd, &c));
}
