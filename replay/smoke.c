/*
 * smoke: the driver is opened and every device's primary context retained
 * before the items run; each item walks the devices (or device pairs) that
 * are ready and adds one result per device. Bandwidths are medians of
 * cuda_time() runs: bytes moved / median seconds, in GB/s (1e9 B/s).
 */
#include "replay/smoke.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gpu.h"
#include "core/xalloc.h"

#define NVRM_VERSION_FILE "/proc/driver/nvidia/version"

enum {
	COPY_BYTES = 256 << 20,		/* default bytes per transfer run */
	CHECK_WORDS = 4096,		/* words read back to check the kernels */
	ALLOC_STEP = 2 << 20,		/* the large allocation is a multiple of this */
};
static const uint32_t SEED = 0x5ca1ab1eu;
static const uint32_t NEVER = 0x9e3779b9u;	/* sa_read's impossible result */

const char *smoke_status_name(enum smoke_status s)
{
	static const char *const names[] = { "pass", "fail", "skip" };

	return names[s];
}

static struct smoke_result *add_result(struct smoke_report *rep)
{
	if (rep->n == rep->cap) {
		rep->cap = rep->cap ? 2 * rep->cap : 16;
		rep->results = xrealloc(rep->results, rep->cap * sizeof *rep->results);
	}
	memset(&rep->results[rep->n], 0, sizeof rep->results[0]);
	return &rep->results[rep->n++];
}

static void add(struct smoke_ctx *sc, const char *what, enum smoke_status st, double value, const char *unit,
		const char *fmt, va_list ap)
{
	struct smoke_result *r = add_result(sc->rep);

	if (what)
		snprintf(r->item, sizeof r->item, "%s %s", sc->item->name, what);
	else
		snprintf(r->item, sizeof r->item, "%s", sc->item->name);
	r->essential = sc->item->essential;
	r->status = st;
	r->value = value;
	snprintf(r->unit, sizeof r->unit, "%s", unit ? unit : "");
	vsnprintf(r->detail, sizeof r->detail, fmt, ap);
	if (st == SMOKE_FAIL && r->essential)
		sc->rep->exit_status = 1;
}

/*
 * A rate (per second) is a measurement only when finite and above 0: a timer
 * that reads 0 ms (a broken driver or event) gives "inf GB/s", which must
 * not pass for a working link.
 */
static bool bad_rate(double value, const char *unit)
{
	return unit && strstr(unit, "/s") && !(isfinite(value) && value > 0);
}

void smoke_pass(struct smoke_ctx *sc, const char *what, double value, const char *unit, const char *fmt, ...)
{
	va_list ap;
	char detail[sizeof(((struct smoke_result *)0)->detail)];

	va_start(ap, fmt);
	if (!bad_rate(value, unit)) {
		add(sc, what, SMOKE_PASS, value, unit, fmt, ap);
		va_end(ap);
		return;
	}
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	smoke_fail(sc, what, "no valid measurement: the timing gave %g %s (a run timed at 0 ms?); %s", value,
		   unit, detail);
}

void smoke_fail(struct smoke_ctx *sc, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(sc, what, SMOKE_FAIL, NAN, "", fmt, ap);
	va_end(ap);
}

void smoke_skip(struct smoke_ctx *sc, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(sc, what, SMOKE_SKIP, NAN, "", fmt, ap);
	va_end(ap);
}

int smoke_parse_nvrm(const char *line, char *out, size_t size)
{
	const char *p = strstr(line, "Module");

	for (p = p ? p : line; *p; p++) {
		size_t n = 0;

		if (!isdigit((unsigned char)*p) || (p > line && !isspace((unsigned char)p[-1])))
			continue;
		while (isdigit((unsigned char)p[n]) || p[n] == '.')
			n++;
		if (!memchr(p, '.', n) || n >= size)
			continue;
		memcpy(out, p, n);
		out[n] = '\0';
		return 0;
	}
	return -1;
}

static void read_kernel_module(struct smoke_report *rep)
{
	char line[512];
	FILE *f = fopen(NVRM_VERSION_FILE, "r");

	if (!f)
		return;
	if (fgets(line, sizeof line, f))
		smoke_parse_nvrm(line, rep->kernel_module, sizeof rep->kernel_module);
	fclose(f);
}

/* "gpu3" */
static const char *gpu_label(int d, char buf[16])
{
	snprintf(buf, 16, "gpu%d", d);
	return buf;
}

/* The architecture the GPU table gives NVIDIA parts of this cc major; NULL unknown. */
static const char *arch_of(int cc_major)
{
	size_t n;
	const struct gpu_model *m = gpu_models(&n);

	for (size_t i = 0; i < n; i++)
		if (m[i].cc_major == cc_major && m[i].vendor && strcmp(m[i].vendor, "NVIDIA") == 0)
			return m[i].arch;
	return NULL;
}

/* ---- devices ---- */

static void describe_device(struct smoke_ctx *sc, int d)
{
	struct smoke_device *dv = &sc->rep->dev[d];
	const struct cuda_device_info *in = &dv->info;
	const struct gpu_model *m = gpu_lookup(in->name, in->total_bytes);
	char label[16];

	dv->arch = arch_of(in->cc_major);
	dv->blackwell = dv->arch && strncmp(dv->arch, "Blackwell", 9) == 0;
	dv->model = m ? m->name : NULL;
	smoke_pass(sc, gpu_label(d, label), in->total_bytes / 1e9, "GB",
		   "%s: cc %d.%d (%s%s), %d SMs, %.1f GB total, %.1f GB free, SM clock %d MHz, "
		   "memory %.0f GB/s (%d-bit bus)%s%s",
		   in->name, in->cc_major, in->cc_minor, dv->arch ? dv->arch : "architecture unknown",
		   dv->blackwell ? "" : ", not Blackwell", in->sms, in->total_bytes / 1e9,
		   in->free_bytes / 1e9, in->clock_khz / 1000, in->mem_gbps, in->bus_width_bits,
		   m ? "; GPU table: " : "; not in the GPU table", m ? m->name : "");
}

static void run_devices(struct smoke_ctx *sc)
{
	char label[16];

	for (int d = 0; d < sc->rep->ndev; d++) {
		struct cuda_err err = { .count = 0 };

		if (cuda_ctx_open(sc->cu, d, NULL, &err) < 0 || cuda_stream_create(sc->cu, &sc->stream[d], &err) < 0 ||
		    cuda_device_info(sc->cu, d, &sc->rep->dev[d].info, &err) < 0) {
			smoke_fail(sc, gpu_label(d, label), "%s", err.msg);
			continue;
		}
		sc->ready[d] = true;
		describe_device(sc, d);
	}
}

/* Whether device d can be used by an item; adds a skip when not. */
static bool ready(struct smoke_ctx *sc, int d, bool need_ptx)
{
	char label[16];
	struct cuda_err err = { .count = 0 };

	if (!sc->ready[d]) {
		smoke_skip(sc, gpu_label(d, label), "the device could not be opened (see devices)");
		return false;
	}
	if (need_ptx && !sc->ptx[d].mod) {
		smoke_skip(sc, gpu_label(d, label), "the project's kernels did not load (see jit)");
		return false;
	}
	if (cuda_ctx_use(sc->cu, d, &err) < 0) {
		smoke_fail(sc, gpu_label(d, label), "%s", err.msg);
		return false;
	}
	return true;
}

/* ---- jit ---- */

/* The first word of got[] that differs from want(i), or -1. */
static long first_mismatch(const uint32_t *got, long n, uint32_t (*want)(long i, const void *arg), const void *arg)
{
	for (long i = 0; i < n; i++)
		if (got[i] != want(i, arg))
			return i;
	return -1;
}

static uint32_t want_fill(long i, const void *arg)
{
	return ptx_fill_word((uint64_t)i, SEED, DT_FP32);
}

static uint32_t want_word(long i, const void *arg)
{
	return *(const uint32_t *)arg;
}

/* Fills a, copies it to b, reads it, writes a constant over a; reads back and compares. */
static int check_kernels(struct smoke_ctx *sc, int d, CUdeviceptr a, CUdeviceptr b, uint32_t *host,
			 char *why, size_t size, struct cuda_err *err)
{
	const struct ptx_module *m = &sc->ptx[d];
	const size_t bytes = CHECK_WORDS * 4;
	const uint32_t value = 0x3f800000u;
	long bad;

	if (ptx_fill_random(sc->cu, m, a, bytes, DT_FP32, SEED, NULL, err) < 0 ||
	    ptx_copy(sc->cu, m, b, a, bytes, NULL, err) < 0 ||
	    ptx_read(sc->cu, m, b, bytes, a, NEVER, NULL, err) < 0 ||
	    cuda_d2h(sc->cu, host, b, bytes, NULL, err) < 0)
		return -1;
	if ((bad = first_mismatch(host, CHECK_WORDS, want_fill, NULL)) >= 0) {
		snprintf(why, size, "sa_fill_random/sa_copy: word %ld is 0x%08x, want 0x%08x", bad, host[bad],
			 want_fill(bad, NULL));
		return -1;
	}
	if (ptx_write(sc->cu, m, a, bytes, value, NULL, err) < 0 || cuda_d2h(sc->cu, host, a, bytes, NULL, err) < 0)
		return -1;
	if ((bad = first_mismatch(host, CHECK_WORDS, want_word, &value)) >= 0) {
		snprintf(why, size, "sa_write: word %ld is 0x%08x, want 0x%08x", bad, host[bad], value);
		return -1;
	}
	return 0;
}

static void jit_device(struct smoke_ctx *sc, int d)
{
	struct cuda_err err = { .count = 0 };
	CUdeviceptr a = 0, b = 0;
	uint32_t *host = xcalloc(CHECK_WORDS, sizeof *host);
	char why[256] = "", label[16];
	size_t nk;

	ptx_kernels(&nk);
	gpu_label(d, label);
	if (ptx_load(sc->cu, &sc->ptx[d], sc->rep->dev[d].info.sms, &err) < 0) {
		smoke_fail(sc, label, "%s", err.msg);
		goto out;
	}
	if (cuda_alloc(sc->cu, &a, CHECK_WORDS * 4, &err) < 0 || cuda_alloc(sc->cu, &b, CHECK_WORDS * 4, &err) < 0 ||
	    check_kernels(sc, d, a, b, host, why, sizeof why, &err) < 0)
		smoke_fail(sc, label, "%s", why[0] ? why : err.msg);
	else
		smoke_pass(sc, label, (double)nk, "kernels",
			   "%zu PTX kernels JIT-compiled; fill, copy and write checked word for word", nk);
out:
	cuda_free(sc->cu, b, &err);
	cuda_free(sc->cu, a, &err);
	free(host);
}

static void run_jit(struct smoke_ctx *sc)
{
	for (int d = 0; d < sc->rep->ndev; d++)
		if (ready(sc, d, false))
			jit_device(sc, d);
}

/* ---- alloc ---- */

static void alloc_device(struct smoke_ctx *sc, int d)
{
	struct cuda_err err = { .count = 0 };
	int64_t free_b, total_b;
	CUdeviceptr p = 0;
	size_t bytes;
	char label[16];

	gpu_label(d, label);
	if (cuda_mem_info(sc->cu, &free_b, &total_b, &err) < 0) {
		smoke_fail(sc, label, "%s", err.msg);
		return;
	}
	bytes = (size_t)(free_b * sc->alloc_fraction) / ALLOC_STEP * ALLOC_STEP;
	if (cuda_alloc(sc->cu, &p, bytes, &err) < 0 ||
	    ptx_fill_random(sc->cu, &sc->ptx[d], p, bytes, DT_BF16, SEED, sc->stream[d], &err) < 0 ||
	    cuda_stream_sync(sc->cu, sc->stream[d], &err) < 0)
		smoke_fail(sc, label, "%.1f GB (%.0f%% of %.1f GB free): %s", bytes / 1e9, sc->alloc_fraction * 100,
			   free_b / 1e9, err.msg);
	else
		smoke_pass(sc, label, bytes / 1e9, "GB",
			   "%.1f GB allocated (%.0f%% of %.1f GB free) and written by the fill kernel", bytes / 1e9,
			   sc->alloc_fraction * 100, free_b / 1e9);
	cuda_free(sc->cu, p, &err);
}

static void run_alloc(struct smoke_ctx *sc)
{
	for (int d = 0; d < sc->rep->ndev; d++)
		if (ready(sc, d, true))
			alloc_device(sc, d);
}

/* ---- bandwidth ---- */

enum xfer { XFER_H2D, XFER_D2H, XFER_D2D, XFER_KERNEL, XFER_PEER };

struct xfer_arg {
	struct cuda *cu;
	enum xfer kind;
	const struct ptx_module *ptx;
	void *host;
	CUdeviceptr a, b;
	int dev_a, dev_b;
	size_t bytes;
};

static int xfer_op(void *arg, CUstream s, struct cuda_err *err)
{
	struct xfer_arg *x = arg;

	switch (x->kind) {
	case XFER_H2D: return cuda_h2d(x->cu, x->a, x->host, x->bytes, s, err);
	case XFER_D2H: return cuda_d2h(x->cu, x->host, x->a, x->bytes, s, err);
	case XFER_D2D: return cuda_d2d(x->cu, x->b, x->a, x->bytes, s, err);
	case XFER_KERNEL: return ptx_copy(x->cu, x->ptx, x->b, x->a, x->bytes, s, err);
	case XFER_PEER: return cuda_peer_copy(x->cu, x->dev_b, x->b, x->dev_a, x->a, x->bytes, s, err);
	}
	return cuda_err_set(err, "unknown transfer");
}

/* One bandwidth result: `moved` bytes per run over the median run time. */
static void time_xfer(struct smoke_ctx *sc, const char *label, struct xfer_arg *x, CUstream s, double moved,
		      const char *what)
{
	struct cuda_err err = { .count = 0 };
	struct cuda_timing t;
	double peak = sc->rep->dev[x->dev_a].info.mem_gbps, gbps;
	char of_peak[96] = "";

	if (cuda_time(sc->cu, s, xfer_op, x, &cuda_timing_default, &t, &err) < 0) {
		smoke_fail(sc, label, "%s", err.msg);
		return;
	}
	gbps = moved / t.median_s / 1e9;
	if ((x->kind == XFER_D2D || x->kind == XFER_KERNEL) && peak > 0)
		snprintf(of_peak, sizeof of_peak, "; %.0f%% of the memory's %.0f GB/s", 100 * gbps / peak, peak);
	smoke_pass(sc, label, gbps, "GB/s",
		   "%s, %.0f MiB per run; median of %d runs %.3f ms, p10-p90 spread %.1f%%%s%s", what,
		   x->bytes / 1048576.0, t.reps, t.median_s * 1e3, t.spread * 100, t.stable ? "" : " (not stable)",
		   of_peak);
}

static const struct {
	const char *item;
	enum xfer kind;
	double factor;		/* bytes moved per byte copied */
	const char *what;
} xfers[] = {
	{ "h2d", XFER_H2D, 1, "pinned host to device, cuMemcpyHtoDAsync" },
	{ "d2h", XFER_D2H, 1, "device to pinned host, cuMemcpyDtoHAsync" },
	{ "d2d", XFER_D2D, 2, "device to device, cuMemcpyDtoDAsync (read + write counted)" },
	{ "copy", XFER_KERNEL, 2, "sa_copy kernel (read + write counted)" },
};

/* The transfers of the running item (its name selects the row) on device d. */
static void xfer_device(struct smoke_ctx *sc, int d, size_t row)
{
	struct cuda_err err = { .count = 0 };
	struct xfer_arg x = { .cu = sc->cu, .kind = xfers[row].kind, .ptx = &sc->ptx[d], .dev_a = d,
			   .bytes = sc->copy_bytes };
	char label[16];

	gpu_label(d, label);
	if (cuda_alloc(sc->cu, &x.a, x.bytes, &err) < 0 || cuda_alloc(sc->cu, &x.b, x.bytes, &err) < 0 ||
	    cuda_host_alloc(sc->cu, &x.host, x.bytes, &err) < 0 ||
	    ptx_fill_random(sc->cu, x.ptx, x.a, x.bytes, DT_FP32, SEED, NULL, &err) < 0 ||
	    cuda_ctx_sync(sc->cu, &err) < 0)
		smoke_fail(sc, label, "%s", err.msg);
	else
		time_xfer(sc, label, &x, sc->stream[d], x.bytes * xfers[row].factor, xfers[row].what);
	cuda_host_free(sc->cu, x.host, &err);
	cuda_free(sc->cu, x.b, &err);
	cuda_free(sc->cu, x.a, &err);
}

static void run_xfer(struct smoke_ctx *sc)
{
	size_t row = 0;

	while (row < sizeof xfers / sizeof xfers[0] - 1 && strcmp(xfers[row].item, sc->item->name) != 0)
		row++;
	for (int d = 0; d < sc->rep->ndev; d++)
		if (ready(sc, d, true))
			xfer_device(sc, d, row);
}

/* ---- peer ---- */

static void peer_pair(struct smoke_ctx *sc, int src, int dst)
{
	struct cuda_err err = { .count = 0 };
	struct xfer_arg x = { .cu = sc->cu, .kind = XFER_PEER, .dev_a = src, .dev_b = dst,
			   .bytes = sc->copy_bytes };
	char label[32];
	int can = 0;

	snprintf(label, sizeof label, "%d->%d", src, dst);
	if (cuda_peer_can(sc->cu, dst, src, &can, &err) < 0 || (can && cuda_peer_enable(sc->cu, dst, src, &err) < 0) ||
	    cuda_ctx_use(sc->cu, src, &err) < 0 || cuda_alloc(sc->cu, &x.a, x.bytes, &err) < 0 ||
	    ptx_fill_random(sc->cu, &sc->ptx[src], x.a, x.bytes, DT_FP32, SEED, NULL, &err) < 0 ||
	    cuda_ctx_sync(sc->cu, &err) < 0 || cuda_ctx_use(sc->cu, dst, &err) < 0 ||
	    cuda_alloc(sc->cu, &x.b, x.bytes, &err) < 0)
		smoke_fail(sc, label, "%s", err.msg);
	else
		time_xfer(sc, label, &x, sc->stream[dst], x.bytes,
			  can ? "peer access enabled, cuMemcpyPeerAsync" :
				"no peer access (cuDeviceCanAccessPeer: 0): cuMemcpyPeerAsync staged through the host");
	cuda_free(sc->cu, x.b, &err);
	cuda_ctx_use(sc->cu, src, &err);
	cuda_free(sc->cu, x.a, &err);
}

static void run_peer(struct smoke_ctx *sc)
{
	if (sc->rep->ndev < 2) {
		smoke_skip(sc, NULL, "one GPU: no pair to test");
		return;
	}
	for (int a = 0; a < sc->rep->ndev; a++)
		for (int b = 0; b < sc->rep->ndev; b++)
			if (a != b && ready(sc, a, true) && ready(sc, b, true))
				peer_pair(sc, a, b);
}

static const struct smoke_item items[] = {
	{ "devices", true, run_devices },
	{ "jit", true, run_jit },
	{ "alloc", true, run_alloc },
	{ "h2d", true, run_xfer },
	{ "d2h", true, run_xfer },
	{ "d2d", true, run_xfer },
	{ "copy", true, run_xfer },
	{ "peer", false, run_peer },
};

const struct smoke_item *smoke_items(size_t *n)
{
	*n = sizeof items / sizeof items[0];
	return items;
}

/* ---- the run ---- */

static const struct smoke_item driver_item = { "driver", true, NULL };

/* Opens the driver and counts the devices; on failure the one line and result. */
static int start(struct smoke_ctx *sc, struct smoke_report *rep)
{
	struct cuda_err err = { .count = 0 };

	sc->item = &driver_item;
	if (cuda_open(&sc->cu, &err) == 0 && cuda_driver_version(sc->cu, &rep->driver_version, &err) == 0 &&
	    cuda_device_count(sc->cu, &rep->ndev, &err) == 0 && rep->ndev == 0)
		cuda_err_set(&err, "no CUDA device: the driver reports 0 devices");
	if (err.count) {
		snprintf(rep->error, sizeof rep->error, "%s", err.msg);
		smoke_fail(sc, NULL, "%s", err.msg);
		return -1;
	}
	snprintf(rep->library, sizeof rep->library, "%s", cuda_library(sc->cu));
	read_kernel_module(rep);
	if (rep->ndev > SMOKE_MAX_DEVICES)
		rep->ndev = SMOKE_MAX_DEVICES;
	smoke_pass(sc, NULL, rep->driver_version / 1000 + (rep->driver_version % 1000) / 10 / 10.0, "CUDA",
		   "%s: driver API %d, %d device%s%s%s", rep->library, rep->driver_version, rep->ndev,
		   rep->ndev == 1 ? "" : "s", rep->kernel_module[0] ? ", kernel module " : "", rep->kernel_module);
	return 0;
}

static void run_table(struct smoke_ctx *sc, const struct smoke_item *t, size_t n)
{
	struct cuda_err ignored = { .count = 0 };

	for (size_t i = 0; i < n; i++) {
		sc->item = &t[i];
		if (sc->ready[0])
			cuda_ctx_use(sc->cu, 0, &ignored);
		t[i].run(sc);
	}
}

static void finish(struct smoke_ctx *sc)
{
	struct cuda_err ignored = { .count = 0 };

	for (int d = 0; d < sc->rep->ndev; d++) {
		if (!sc->ready[d] || cuda_ctx_use(sc->cu, d, &ignored) < 0)
			continue;
		ptx_unload(sc->cu, &sc->ptx[d]);
		cuda_stream_destroy(sc->cu, sc->stream[d], &ignored);
	}
	cuda_close(sc->cu);
}

int smoke_run(const struct smoke_options *opt, struct smoke_report *rep)
{
	static const struct smoke_options defaults = { .alloc_fraction = 0 };
	struct smoke_ctx sc = { .rep = rep };
	size_t n;
	const struct smoke_item *own = smoke_items(&n);

	opt = opt ? opt : &defaults;
	memset(rep, 0, sizeof *rep);
	rep->driver_version = -1;
	sc.alloc_fraction = opt->alloc_fraction > 0 && opt->alloc_fraction < 1 ? opt->alloc_fraction : 0.9;
	sc.copy_bytes = opt->copy_bytes ? (opt->copy_bytes + 15) / 16 * 16 : COPY_BYTES;
	if (start(&sc, rep) < 0)
		return rep->exit_status;
	run_table(&sc, own, n);
	for (int i = 0; i < SMOKE_MAX_EXTRA; i++)
		if (opt->extra[i])
			run_table(&sc, opt->extra[i], opt->n_extra[i]);
	finish(&sc);
	return rep->exit_status;
}

void smoke_report_release(struct smoke_report *rep)
{
	free(rep->results);
	rep->results = NULL;
	rep->n = rep->cap = 0;
}
