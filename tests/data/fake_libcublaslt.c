/*
 * A fake cuBLASLt for tests on machines without a GPU, built by
 * test_replay_libs into a shared library and opened through
 * SCALEAUDIT_LIBCUBLASLT. It computes nothing: it logs what the caller
 * described (compute and scale types, attributes, layouts, workspace), one
 * line per call except the matmuls, which it counts, so a test can assert
 * exactly what cuBLASLt was asked to run. Behaviour by environment:
 *   FAKE_LT_NO_ALGO=1   the heuristic returns no algorithm
 * fake_lt_log() is the log, fake_lt_matmuls() the matmuls since the last
 * fake_lt_reset(), fake_lt_live() the handles and descriptors not destroyed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char logbuf[8192];
static int matmuls, live;

static void say(const char *fmt, long long a, long long b, long long c, long long d)
{
	size_t n = strlen(logbuf);

	snprintf(logbuf + n, sizeof(logbuf) - n, fmt, a, b, c, d);
}

const char *fake_lt_log(void) { return logbuf; }
int fake_lt_matmuls(void) { return matmuls; }
int fake_lt_live(void) { return live; }
void fake_lt_reset(void) { logbuf[0] = '\0'; matmuls = 0; }

static void *object(void)
{
	live++;
	return malloc(64);
}

static int destroy(void *p)
{
	live--;
	free(p);
	return 0;
}

int cublasLtCreate(void **h) { *h = object(); return 0; }
int cublasLtDestroy(void *h) { return destroy(h); }
size_t cublasLtGetVersion(void) { return 130100; }
const char *cublasLtGetStatusName(int st) { return st == 15 ? "CUBLAS_STATUS_NOT_SUPPORTED" : NULL; }
const char *cublasLtGetStatusString(int st) { return "fake"; }

int cublasLtMatmulDescCreate(void **d, int compute, int scale)
{
	*d = object();
	say("desc compute=%lld scale=%lld\n", compute, scale, 0, 0);
	return 0;
}

int cublasLtMatmulDescDestroy(void *d) { return destroy(d); }

/* Attributes 3, 4 (transa/b) are int32; 17, 18 (A/B scale) device pointers. */
int cublasLtMatmulDescSetAttribute(void *d, int attr, const void *v, size_t n)
{
	int32_t i;

	if (attr == 3 || attr == 4) {
		memcpy(&i, v, sizeof(i));
		say("desc attr %lld = %lld (%lld bytes)\n", attr, i, (long long)n, 0);
	} else {
		say("desc attr %lld = pointer (%lld bytes)\n", attr, (long long)n, 0, 0);
	}
	return 0;
}

int cublasLtMatrixLayoutCreate(void **l, int type, uint64_t rows, uint64_t cols, int64_t ld)
{
	*l = object();
	say("layout type=%lld rows=%lld cols=%lld ld=%lld\n", type, (long long)rows, (long long)cols, ld);
	return 0;
}

int cublasLtMatrixLayoutDestroy(void *l) { return destroy(l); }

/* 5: batch count (int32), 6: strided batch offset (int64). */
int cublasLtMatrixLayoutSetAttribute(void *l, int attr, const void *v, size_t n)
{
	int32_t i;
	int64_t j;

	if (attr == 5) {
		memcpy(&i, v, sizeof(i));
		say("layout attr 5 = %lld (%lld bytes)\n", i, (long long)n, 0, 0);
	} else {
		memcpy(&j, v, sizeof(j));
		say("layout attr %lld = %lld (%lld bytes)\n", attr, j, (long long)n, 0);
	}
	return 0;
}

int cublasLtMatmulPreferenceCreate(void **p) { *p = object(); return 0; }
int cublasLtMatmulPreferenceDestroy(void *p) { return destroy(p); }

int cublasLtMatmulPreferenceSetAttribute(void *p, int attr, const void *v, size_t n)
{
	uint64_t u;

	memcpy(&u, v, sizeof(u));
	say("pref attr %lld = %lld (%lld bytes)\n", attr, (long long)u, (long long)n, 0);
	return 0;
}

struct heur {
	uint64_t algo[8];
	size_t workspace;
	int state;
	float waves;
	int reserved[4];
};

int cublasLtMatmulAlgoGetHeuristic(void *h, void *op, void *a, void *b, void *c, void *d, void *pref,
				   int want, struct heur *res, int *got)
{
	say("heuristic want=%lld c_is_d=%lld\n", want, c == d, 0, 0);
	memset(res, 0, sizeof(*res));
	res->algo[0] = 42;
	*got = getenv("FAKE_LT_NO_ALGO") ? 0 : 1;
	return 0;
}

int cublasLtMatmul(void *h, void *op, const void *alpha, const void *a, void *ad, const void *b, void *bd,
		   const void *beta, const void *c, void *cd, void *d, void *dd, const uint64_t *algo,
		   void *ws, size_t wsn, void *stream)
{
	float al, be;

	memcpy(&al, alpha, sizeof(al));
	memcpy(&be, beta, sizeof(be));
	if (matmuls++ == 0)
		say("matmul alpha=%lld beta=%lld algo=%lld in_place=%lld\n", (long long)al, (long long)be,
		    (long long)algo[0], c == d && cd == dd);
	return a && b && d && ws ? 0 : 7;
}
