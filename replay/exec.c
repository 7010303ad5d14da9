/* The replay executor: one planned kernel on one device, through cuBLASLt, PTX or NCCL. */
#include "replay/exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct exec {
	int device;			/* the device kernels run on */
	struct cublaslt *lt;		/* opened on the first GEMM; NULL before */
};

static const char *const status_names[] = {
	[EXEC_DONE] = "done", [EXEC_SKIPPED] = "skipped", [EXEC_FAILED] = "failed",
};

const char *exec_status_name(enum exec_status s)
{
	return (unsigned)s < sizeof(status_names) / sizeof(status_names[0]) ? status_names[s] : "?";
}

const char *exec_coll_skip_reason(enum coll_op op, int nranks, int ngpus, char *buf, size_t n)
{
	if (nranks >= 1 && nranks <= ngpus)
		return NULL;
	if (nranks < 1)
		snprintf(buf, n, "the trial's rank count for %s is not known", coll_name(op));
	else
		snprintf(buf, n, "the trial ran %s over %d GPUs; this machine has %d", coll_name(op),
			 nranks, ngpus);
	return buf;
}

int exec_open(struct exec **out, int device, char *err, size_t errsz)
{
	*out = NULL;
	snprintf(err, errsz, "no CUDA driver layer in this build");
	(void)device;
	return -1;
}

void exec_close(struct exec *x)
{
	free(x);
}

void exec_run(struct exec *x, const struct exec_req *req, struct exec_result *r)
{
	(void)x;
	(void)req;
	*r = (struct exec_result){ .status = EXEC_SKIPPED };
	r->timing = (struct op_timing){ NAN, NAN, NAN, 0, NAN, NAN };
	snprintf(r->reason, sizeof(r->reason), "not replayed: no CUDA driver layer in this build");
}
