/*
 * readiness_text: the lines of a run's readiness.
 */
#include "render/readiness_text.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/qty.h"

/* The foreign kernels a line names; analysis.json lists them all. */
#define LINE_FOREIGN_MAX 3

/* "PyTorch 2.6.0+cu126 (CUDA 12.6), arch list sm_50 sm_90, driver 570.124.06, NCCL 2.26.2" */
static void versions(const struct readiness *rd, struct buf *out)
{
	const struct {
		const char *label;
		const char *value;
	} v[] = {
		{ "PyTorch", rd->torch }, { "built with CUDA", rd->torch_cuda },
		{ "arch list", rd->arch_list }, { "driver", rd->driver }, { "NCCL", rd->nccl_version },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i].value)
			buf_addf(out, "%s%s %s", n++ ? ", " : "the logs show ", v[i].label, v[i].value);
	if (!n)
		buf_addstr(out, "no log shows PyTorch, CUDA, driver or NCCL versions");
}

static void checks(const struct readiness *rd, struct buf *out)
{
	buf_addf(out, "minimums for %s: ", rd->isa ? rd->isa : "the GPU");
	for (size_t i = 0; i < rd->nchecks; i++) {
		const struct readiness_item *c = &rd->checks[i];

		bool archs = !strcmp(c->component, "arch list");	/* a set, not a version: has or lacks */

		buf_addf(out, "%s%s %s %s %s", i ? ", " : "", c->component, c->have ? c->have : "?",
			 archs ? (c->ok ? "has" : "lacks") : c->ok ? "meets" : "is below",
			 c->minimum ? c->minimum : "?");
	}
}

static void foreign(const struct readiness *rd, struct buf *out)
{
	char share[QTY_LEN];

	buf_addf(out, "not tuned for this GPU: %s of GPU kernel time ran in kernels built for "
		 "another generation", qty_share(share, rd->foreign_share));
	for (size_t i = 0; i < rd->nforeign && i < LINE_FOREIGN_MAX; i++)
		buf_addf(out, "%s%s (%s, %s)", i ? "; " : ": ", rd->foreign[i].name,
			 rd->foreign[i].arch, qty_share(share, rd->foreign[i].time_share));
	if (rd->nforeign > LINE_FOREIGN_MAX)
		buf_addf(out, "; and %zu more", rd->nforeign - LINE_FOREIGN_MAX);
}

/* "flash_attn_2_cuda.so (shared-object: sm_90): missing" */
static void code_line(const struct readiness_code *c, struct buf *out)
{
	const char *parts[] = { c->sass, c->ptx, c->amdgpu };
	size_t n = 0;

	buf_addf(out, "binary %s (%s: ", c->path, c->kind);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (*parts[i])
			buf_addf(out, "%s%s", n++ ? " " : "", parts[i]);
	buf_addf(out, "%s): %s", n ? "" : "no GPU code", c->verdict ? c->verdict : "not judged (GPU unknown)");
	if (c->jit_ptx)
		buf_addf(out, " through PTX %s%s%s%s", c->jit_ptx, c->jit_driver ? " (driver " : "",
			 c->jit_driver ? c->jit_driver : "", c->jit_driver ? " or newer)" : "");
	if (c->zstd_driver)
		buf_addf(out, "; %" PRId64 " ZSTD-compressed entr%s need driver %s or newer", c->zstd_entries,
			 c->zstd_entries == 1 ? "y" : "ies", c->zstd_driver);
}

void readiness_lines(const struct run_result *rr, const char *indent, struct buf *out)
{
	const struct readiness *rd = &rr->readiness;
	const char *name = rr->name ? rr->name : "run";

	if (!rd->present)
		return;
	buf_addf(out, "%s%s on %s (%s): %s: %s\n", indent, name, rd->gpu ? rd->gpu : "an unknown GPU",
		 rd->isa ? rd->isa : "architecture unknown", rd->verdict ? rd->verdict : "unknown",
		 rd->reason ? rd->reason : "no reason given");
	buf_addf(out, "%s%s: ", indent, name);
	versions(rd, out);
	buf_addstr(out, "\n");
	if (rd->nchecks) {
		buf_addf(out, "%s%s: ", indent, name);
		checks(rd, out);
		buf_addstr(out, "\n");
	}
	for (size_t i = 0; i < rd->ncode; i++) {
		buf_addf(out, "%s%s: ", indent, name);
		code_line(&rd->code[i], out);
		buf_addstr(out, "\n");
	}
	if (rd->nforeign && !isnan(rd->foreign_share)) {
		buf_addf(out, "%s%s: ", indent, name);
		foreign(rd, out);
		buf_addstr(out, "\n");
	}
}

bool readiness_any(const struct analysis *a)
{
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].readiness.present)
			return true;
	return false;
}
