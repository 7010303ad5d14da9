/*
 * smoke: `replay --smoke`, the check that the essential GPU operations work
 * on this machine at all. The items are rows of a table (name, essential,
 * run function); each run adds one or more results (pass, fail or skip, a
 * value with its unit, the reason). Other modules add their items (GEMM,
 * NCCL) as a second table through smoke_options.extra. One results struct,
 * rendered as text or JSON by render/smoke_text.h. Nothing here prints.
 */
#ifndef REPLAY_SMOKE_H
#define REPLAY_SMOKE_H

#include <stdbool.h>
#include <stddef.h>

#include "replay/cuda.h"
#include "replay/ptx.h"

#define SMOKE_MAX_DEVICES 16
#define SMOKE_MAX_EXTRA 4

enum smoke_status { SMOKE_PASS, SMOKE_FAIL, SMOKE_SKIP };

struct smoke_result {
	char item[64];			/* item name, and what it measured: "h2d", "peer 0->1" */
	bool essential;			/* a failure makes the smoke check fail */
	enum smoke_status status;
	double value;			/* NaN when none */
	char unit[16];			/* "GB/s", "GB", "TFLOP/s"; "" when none */
	char detail[1024];		/* what was done, or why it failed / was skipped */
};

/* One device as the smoke check saw it. */
struct smoke_device {
	struct cuda_device_info info;
	const char *arch;		/* "Hopper", "Blackwell"... from the GPU table by cc major; NULL unknown */
	bool blackwell;			/* cc 10.x, 11.x or 12.x per the GPU table's architecture */
	const char *model;		/* the GPU table's row name (gpu_lookup), NULL unknown */
};

struct smoke_report {
	char library[512];		/* the driver library opened; "" when none */
	int driver_version;		/* cuDriverGetVersion (12080 = 12.8); -1 unknown */
	int ndev;
	struct smoke_device dev[SMOKE_MAX_DEVICES];
	struct smoke_result *results;	/* owned; smoke_report_release frees it */
	size_t n, cap;
	int exit_status;		/* 0, or 1 when an essential result failed */
	char error[1024];		/* when the check could not start (no driver, no GPU): one line; else "" */
	char kernel_module[32];		/* the NVIDIA kernel module's version ("570.86.15"); "" unknown */
};

/*
 * What an item's run function works with: the driver, every device's
 * context (current on entry: device 0's), a stream and the project's PTX
 * module per device (loaded by the "jit" item; mod NULL when it failed).
 */
struct smoke_ctx {
	struct cuda *cu;
	struct smoke_report *rep;
	const struct smoke_item *item;	/* the running item */
	CUstream stream[SMOKE_MAX_DEVICES];
	struct ptx_module ptx[SMOKE_MAX_DEVICES];
	double alloc_fraction;		/* of free memory for the large allocation */
	bool ready[SMOKE_MAX_DEVICES];	/* the device's context and stream are open */
	size_t copy_bytes;		/* bytes per transfer run */
};

struct smoke_item {
	const char *name;		/* "devices", "jit", "alloc", "h2d"... */
	bool essential;
	void (*run)(struct smoke_ctx *sc);	/* adds its results with smoke_pass/fail/skip */
};

/* Results for the running item: `what` is appended to its name (NULL: the name alone). */
void smoke_pass(struct smoke_ctx *sc, const char *what, double value, const char *unit,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void smoke_fail(struct smoke_ctx *sc, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void smoke_skip(struct smoke_ctx *sc, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* This module's items, in the order they run. */
const struct smoke_item *smoke_items(size_t *n);

struct smoke_options {
	const struct smoke_item *extra[SMOKE_MAX_EXTRA];	/* further tables, run after ours */
	size_t n_extra[SMOKE_MAX_EXTRA];
	double alloc_fraction;		/* 0: 0.9 of the free memory */
	size_t copy_bytes;		/* per transfer run; 0: 256 MiB */
};

/*
 * Runs every item (opt NULL: the defaults) into rep (zeroed here). Without
 * a driver or a device, rep->error holds the one line and a failed
 * essential "driver" result is the only one. Returns rep->exit_status.
 */
int smoke_run(const struct smoke_options *opt, struct smoke_report *rep);
void smoke_report_release(struct smoke_report *rep);

const char *smoke_status_name(enum smoke_status s);	/* "pass", "fail", "skip" */

/*
 * The version in the first line of /proc/driver/nvidia/version ("NVRM
 * version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  ..."; the open
 * module says "Open Kernel Module for x86_64"): the first dotted number
 * after "Module", copied into out. Returns 0, or -1 when there is none.
 */
int smoke_parse_nvrm(const char *line, char *out, size_t size);

#endif
