/* The cuBLASLt and NCCL items of `replay --smoke`. */
#include "replay/smoke_libs.h"

#include <math.h>
#include <stdio.h>

#include "core/gpu.h"
#include "replay/cublaslt.h"
#include "replay/nccl.h"

/* The dtypes the GEMM item measures, in order. */
static const enum dtype gemm_dtypes[] = { DT_FP32, DT_TF32, DT_BF16, DT_FP16, DT_FP8_E4M3 };

/* The GPU table's row for device d; NULL unknown. */
static const struct gpu_model *row_of(const struct smoke_ctx *sc, int d)
{
	const struct cuda_device_info *info = &sc->rep->dev[d].info;

	return gpu_lookup(info->name, info->total_bytes);
}

/* " (72% of the H200's 989 TFLOP/s peak)", or why there is no comparison. */
static void against(char *buf, size_t n, double got, double peak, const char *what,
		    const struct gpu_model *m, const char *unit)
{
	if (!m)
		snprintf(buf, n, "; this GPU is not in the GPU table, so no %s to compare", what);
	else if (!(peak > 0))
		snprintf(buf, n, "; the GPU table has no %s for the %s", what, m->name);
	else
		snprintf(buf, n, ", %.0f%% of the %s's %s of %.0f %s", 100.0 * got / peak, m->name, what,
			 peak, unit);
}

static void gemm_one(struct smoke_ctx *sc, struct cublaslt *lt, enum dtype t)
{
	const struct cuda_device_info *info = &sc->rep->dev[0].info;
	struct gemm_shape s = { .m = SMOKE_GEMM_SIZE, .n = SMOKE_GEMM_SIZE, .k = SMOKE_GEMM_SIZE,
				.batch = 1, .dtype = t, .transa = true };
	const struct gpu_model *m = row_of(sc, 0);
	const char *why = gemm_unsupported(&s, info->cc_major, info->cc_minor);
	struct cuda_err ce = { .msg = "" };
	struct op_timing r;
	char cmp[256];

	if (why) {
		smoke_skip(sc, dtype_name(t), "%s", why);
		return;
	}
	if (cuda_ctx_use(sc->cu, 0, &ce) ||
	    cublaslt_gemm_time(lt, sc->cu, &sc->ptx[0], &s, sc->stream[0], NULL, &r, &ce)) {
		smoke_fail(sc, dtype_name(t), "%s", ce.msg);
		return;
	}
	against(cmp, sizeof(cmp), r.tflops, m ? gpu_peak_tflops(m, t) : NAN, "dense peak", m, "TFLOP/s");
	smoke_pass(sc, dtype_name(t), r.tflops, "TFLOP/s", "%dx%dx%d TN on device 0, median of %d: %.3f ms%s",
		   SMOKE_GEMM_SIZE, SMOKE_GEMM_SIZE, SMOKE_GEMM_SIZE, r.reps, r.median_s * 1e3, cmp);
}

static void run_gemm(struct smoke_ctx *sc)
{
	struct cublaslt *lt;
	struct cuda_err err = { .msg = "" };

	if (!sc->ptx[0].mod) {
		smoke_skip(sc, NULL, "the project's PTX kernels did not load on device 0 (see jit)");
		return;
	}
	if (cublaslt_open(&lt, &err)) {
		smoke_skip(sc, NULL, "%s", err.msg);
		return;
	}
	for (size_t i = 0; i < sizeof(gemm_dtypes) / sizeof(gemm_dtypes[0]); i++)
		gemm_one(sc, lt, gemm_dtypes[i]);
	cublaslt_close(lt);
}

static void run_nccl(struct smoke_ctx *sc)
{
	struct nccl_coll c = { .op = COLL_ALLREDUCE, .count = SMOKE_NCCL_BYTES / 2, .dtype = DT_BF16,
			       .nranks = sc->rep->ndev };
	const struct gpu_model *m = row_of(sc, 0);
	struct cuda_err ce = { .msg = "" }, ignore = { .msg = "" };
	struct nccl *nc;
	struct op_timing r;
	char cmp[256];

	if (sc->rep->ndev < 2) {
		smoke_skip(sc, NULL, "one GPU: an all-reduce needs two");
		return;
	}
	if (nccl_open(&nc, &ce)) {
		smoke_skip(sc, NULL, "%s", ce.msg);
		return;
	}
	if (nccl_run(nc, sc->cu, &c, NULL, &r, &ce)) {
		smoke_fail(sc, "allreduce", "%s", ce.msg);
	} else {
		against(cmp, sizeof(cmp), r.gbps, m ? m->link_gbps : NAN, "nominal link bandwidth", m, "GB/s");
		smoke_pass(sc, "allreduce", r.gbps, "GB/s",
			   "NCCL %d, %lld MiB bf16 over %d GPUs, median %.3f ms, bus bandwidth%s",
			   nccl_version(nc), SMOKE_NCCL_BYTES >> 20, c.nranks, r.median_s * 1e3, cmp);
	}
	nccl_close(nc);
	cuda_ctx_use(sc->cu, 0, &ignore);
}

static const struct smoke_item items[] = {
	{ .name = "gemm", .essential = false, .run = run_gemm },
	{ .name = "nccl", .essential = false, .run = run_nccl },
};

const struct smoke_item *smoke_libs_items(size_t *n)
{
	*n = sizeof(items) / sizeof(items[0]);
	return items;
}
