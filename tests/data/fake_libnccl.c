/*
 * A fake NCCL 2.28.9 for tests on machines without a GPU, built by
 * test_replay_libs into a shared library and opened through
 * SCALEAUDIT_LIBNCCL. Communicators are numbers; collectives move nothing.
 * Each distinct call is logged once (rank, count, type, op, peer), groups
 * are counted, so a test can assert exactly what NCCL was asked to run.
 * It has no ncclAlltoAll, as NCCL before 2.28 had none. By environment:
 *   FAKE_NCCL_INIT_FAIL=1   ncclCommInitAll fails with ncclUnhandledCudaError
 *   FAKE_NCCL_COLL_FAIL=1   every collective fails with ncclInvalidArgument
 * fake_nccl_log() is the log, fake_nccl_groups() the completed groups since
 * fake_nccl_reset(), fake_nccl_live() the communicators not destroyed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char logbuf[8192];
static int groups, depth, live;

/* Appends the line unless the log has it already. */
static void say(const char *fmt, long long a, long long b, long long c, long long d)
{
	char line[256];
	size_t n = strlen(logbuf);

	snprintf(line, sizeof(line), fmt, a, b, c, d);
	if (!strstr(logbuf, line))
		snprintf(logbuf + n, sizeof(logbuf) - n, "%s", line);
}

const char *fake_nccl_log(void) { return logbuf; }
int fake_nccl_groups(void) { return groups; }
int fake_nccl_live(void) { return live; }
void fake_nccl_reset(void) { logbuf[0] = '\0'; groups = 0; }

static long long rank(void *comm) { return (long long)(uintptr_t)comm - 1; }

int ncclGetVersion(int *v) { *v = 22809; return 0; }

const char *ncclGetErrorString(int res)
{
	if (res == 4)
		return "invalid argument (run with NCCL_DEBUG=WARN for details)";
	return res == 1 ? "unhandled cuda error (run with NCCL_DEBUG=INFO for details)" : "fake";
}

int ncclCommInitAll(void **comms, int ndev, const int *devs)
{
	if (getenv("FAKE_NCCL_INIT_FAIL"))
		return 1;
	for (int i = 0; i < ndev; i++)
		comms[i] = (void *)(uintptr_t)(i + 1);
	live += ndev;
	say("init ndev=%lld devlist=%lld\n", ndev, devs != NULL, 0, 0);
	return 0;
}

int ncclCommDestroy(void *comm) { live--; return comm ? 0 : 4; }
int ncclGroupStart(void) { depth++; return 0; }
int ncclGroupEnd(void) { groups += --depth == 0; return depth < 0 ? 5 : 0; }

int ncclAllReduce(const void *s, void *r, size_t count, int type, int op, void *comm, void *stream)
{
	say("allreduce rank=%lld count=%lld type=%lld op=%lld\n", rank(comm), (long long)count, type, op);
	return s && r && stream && !getenv("FAKE_NCCL_COLL_FAIL") ? 0 : 4;
}

int ncclAllGather(const void *s, void *r, size_t count, int type, void *comm, void *stream)
{
	say("allgather rank=%lld sendcount=%lld type=%lld\n", rank(comm), (long long)count, type, 0);
	return s && r && stream ? 0 : 4;
}

int ncclReduceScatter(const void *s, void *r, size_t count, int type, int op, void *comm, void *stream)
{
	say("reducescatter rank=%lld recvcount=%lld type=%lld op=%lld\n", rank(comm), (long long)count, type,
	    op);
	return s && r && stream ? 0 : 4;
}

int ncclBroadcast(const void *s, void *r, size_t count, int type, int root, void *comm, void *stream)
{
	say("broadcast rank=%lld count=%lld type=%lld root=%lld\n", rank(comm), (long long)count, type, root);
	return s && r && stream ? 0 : 4;
}

int ncclReduce(const void *s, void *r, size_t count, int type, int op, int root, void *comm, void *stream)
{
	say("reduce rank=%lld count=%lld type=%lld root=%lld\n", rank(comm), (long long)count, type, root);
	return s && r && stream ? 0 : 4;
}

int ncclSend(const void *s, size_t count, int type, int peer, void *comm, void *stream)
{
	say("send rank=%lld count=%lld type=%lld peer=%lld\n", rank(comm), (long long)count, type, peer);
	return s && stream ? 0 : 4;
}

int ncclRecv(void *r, size_t count, int type, int peer, void *comm, void *stream)
{
	say("recv rank=%lld count=%lld type=%lld peer=%lld\n", rank(comm), (long long)count, type, peer);
	return r && stream ? 0 : 4;
}
