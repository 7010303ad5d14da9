/*
 * nccl-log reader: every file of realdata/nccl_debug through ingest_file()
 * (sniffing and the line layer included), with values read from the files
 * by hand, and the hostile inputs: CRLF, a 10 MB line, binary noise, a log
 * cut mid-line, every launcher prefix.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/arena.h"
#include "core/info.h"
#include "core/model.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/sniff.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

static const struct info *nccl(const struct loaded *x)
{
	return info_object(x, "nccl");
}

/* Loads realdata/nccl_debug/name; false (the caller skips) when absent. */
static bool load_debug(struct loaded *x, const char *name)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "nccl_debug/%s", name);
	return load_real(x, rel);
}

/* The strings of an array member joined with ','. */
static void get_list(const struct info *o, const char *key, char *out, size_t size)
{
	const struct info *v = info_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, INFO_ARR);
	out[0] = '\0';
	for (const struct info *e = v->child; e; e = e->next) {
		assert_int_equal(e->type, INFO_STR);
		if (out[0])
			strncat(out, ",", size - strlen(out) - 1);
		strncat(out, e->v.s, size - strlen(out) - 1);
	}
}

static void assert_str_or_null(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else
		assert_non_null(got), assert_string_equal(got, want);
}

/* Diagnostics of one code, and the line of the first of them. */
static size_t count_diags(const struct loaded *x, const char *code, int64_t *first_line)
{
	size_t n = 0;

	for (size_t i = 0; i < x->t->diags.count; i++) {
		const struct diag *d = &x->t->diags.items[i];

		if (strcmp(d->code, code))
			continue;
		if (!n++ && first_line)
			*first_line = d->pos.line;
	}
	return n;
}

/*
 * What each real file holds, read by hand; the counts were checked with
 *   grep -c 'NCCL WARN' FILE, grep -cE 'NCCL INFO [A-Za-z]+: opCount' FILE,
 *   grep -c 'Watchdog caught' FILE, grep -cE 'NCCL error in:|nccl[A-Z]\w+Error' FILE.
 */
static const struct expect {
	const char *file;
	const char *version;	/* NULL: null */
	const char *driver;
	int64_t nranks;		/* -1: null */
	const char *transports;	/* joined with ',' */
	const char *link;
	int64_t coll_lines;
	int64_t warnings;
	int64_t errors;		/* errors + timeouts */
	int64_t timeouts;
	int64_t version_line;	/* line of the run's nccl_version fact; 0 unset */
} expects[] = {
	{ "01_nccl-issue-1267_gcp_1rank_v2.19.3_bare-version-line.txt",
	  "2.19.3", "12.0", 1, "", NULL, 0, 0, 0, 0, 5 },
	{ "02_tinygrad-ogkm-issue-35_2x_RTX5090D_v2.26.2_nccl-tests.txt",
	  "2.26.2", "12.8", 2, "", NULL, 0, 0, 0, 0, 4 },
	/* two hosts: worker's cudaDriverVersion 12020 comes first (line 4), master's 12040 later */
	{ "03_nccl-tests-issue-284_2nodes_1xRTX4090_each_Socket_v2.25.1.txt",
	  "2.25.1", "12.2", 2, "", NULL, 0, 0, 0, 0, 7 },
	{ "04_torchtitan-issue-1369_2xH100_hopper01_COLL_nranks2.txt",
	  NULL, NULL, 2, "", NULL, 7, 0, 0, 0, 0 },
	{ "05_nccl-issue-584_SendRecv_COLL_nranks2.txt",
	  NULL, NULL, 2, "", NULL, 7, 0, 0, 0, 0 },
	{ "06_nccl-issue-385_2nodes_old-Ring-format_busId_NET-IB-GDRDMA.txt",
	  NULL, NULL, -1, "p2p,net-ib", NULL, 0, 0, 0, 0, 0 },
	{ "09_nccl-issue-1235_WARN-lines_oom_socket.txt",
	  NULL, NULL, -1, "", NULL, 0, 4, 0, 0, 0 },
	/* the version comes from the DistBackendError line (", NCCL version 2.18.3") */
	{ "10_nccl-issue-1029_WARN_with-host-prefix_torch-DistBackendError.txt",
	  "2.18.3", NULL, -1, "", NULL, 0, 1, 2, 0, 3 },
	{ "11_torch-watchdog-timeouts_BasicSR-737_and_OFA-271.txt",
	  NULL, NULL, -1, "", NULL, 0, 0, 5, 5, 0 },
	{ "13_nccl-tests-issue-228_SHM-direct-direct_busId-brackets.txt",
	  NULL, NULL, -1, "shm", NULL, 0, 0, 0, 0, 0 },
	{ "14_nccl-issue-1283_ray-and-timestamp-prefixed_2gpu.txt",
	  NULL, NULL, -1, "", NULL, 0, 1, 0, 0, 0 },
	/* two nodes, every channel over aws-ofi-nccl: the link is the network */
	{ "15_daekeun-ml_2nodes_1xA10G_full-init-to-abort_NCCL2.23.4_aws-ofi.txt",
	  "2.23.4", "12.8", 2, "net-ofi", "network", 0, 0, 0, 0, 54 },
};

static void check_expect(const struct expect *e)
{
	struct loaded x;
	const struct info *o;
	char list[256];

	if (!load_debug(&x, e->file))
		skip_without_shared();
	o = nccl(&x);
	assert_str_or_null(get_str(o, "version"), e->version);
	assert_str_or_null(get_str(o, "cuda_driver"), e->driver);
	assert_int_equal(get_int(o, "nranks"), e->nranks);
	get_list(o, "transports", list, sizeof(list));
	assert_string_equal(list, e->transports);
	assert_str_or_null(get_str(o, "link"), e->link);
	assert_int_equal(get_int(o, "coll_lines"), e->coll_lines);
	assert_int_equal(get_int(o, "warnings"), e->warnings);
	assert_int_equal(get_int(o, "errors"), e->errors);
	assert_int_equal(get_int(o, "timeouts"), e->timeouts);
	assert_int_equal(count_diags(&x, "nccl-warn", NULL), e->warnings);
	assert_int_equal(count_diags(&x, "nccl-timeout", NULL), e->timeouts);
	assert_str_or_null(x.r->nccl_version.v, e->version);
	assert_int_equal(x.r->nccl_version.src.line, e->version_line);
	assert_true(x.f.read);
	unload(&x);
}

static void every_real_file(void **state)
{
	size_t n = sizeof(expects) / sizeof(expects[0]);
	const char *shared = getenv("SHARED");

	if (!shared || !*shared)
		skip_without_shared();
	for (size_t i = 0; i < n; i++)
		check_expect(&expects[i]);
}

static void coll_lines_aggregate(void **state)
{
	struct loaded x;
	const struct info *arr, *e;
	/* torchtitan#1369: opCount d,f,f AllGather; e,e ReduceScatter; 10,11 AllReduce of 1 float */
	static const struct {
		const char *op;
		int64_t count, bytes, calls;
	} want[] = {
		{ "AllGather", 2097152, 8388608, 3 },
		{ "ReduceScatter", 2097152, 8388608, 2 },
		{ "AllReduce", 1, 4, 2 },
	};
	size_t i = 0;

	if (!load_debug(&x, "04_torchtitan-issue-1369_2xH100_hopper01_COLL_nranks2.txt"))
		skip_without_shared();
	arr = info_get(nccl(&x), "collectives");
	assert_non_null(arr);
	for (e = arr->child; e; e = e->next, i++) {
		assert_true(i < 3);
		assert_string_equal(get_str(e, "op"), want[i].op);
		assert_string_equal(get_str(e, "dtype"), "fp32");
		assert_int_equal(get_int(e, "count"), want[i].count);
		assert_int_equal(get_int(e, "bytes"), want[i].bytes);
		assert_int_equal(get_int(e, "calls"), want[i].calls);
	}
	assert_int_equal(i, 3);
	unload(&x);
}

static void send_recv_lines(void **state)
{
	struct loaded x;
	const struct info *e;

	if (!load_debug(&x, "05_nccl-issue-584_SendRecv_COLL_nranks2.txt"))
		skip_without_shared();
	e = info_get(nccl(&x), "collectives")->child;
	assert_non_null(e);
	assert_string_equal(get_str(e, "op"), "Send");
	assert_int_equal(get_int(e, "count"), 2420736);
	assert_int_equal(get_int(e, "calls"), 6);
	e = e->next;
	assert_non_null(e);
	assert_string_equal(get_str(e, "op"), "Recv");
	assert_int_equal(get_int(e, "calls"), 1);
	assert_null(e->next);
	unload(&x);
}

static void warn_positions(void **state)
{
	struct loaded x;
	int64_t line = 0;

	if (!load_debug(&x, "09_nccl-issue-1235_WARN-lines_oom_socket.txt"))
		skip_without_shared();
	assert_int_equal(count_diags(&x, "nccl-warn", &line), 4);
	assert_int_equal(line, 1);
	unload(&x);
	if (!load_debug(&x, "11_torch-watchdog-timeouts_BasicSR-737_and_OFA-271.txt"))
		skip_without_shared();
	assert_int_equal(count_diags(&x, "nccl-timeout", &line), 5);
	assert_int_equal(line, 2);
	unload(&x);
}

/* Init and teardown lines per communicator rank (2.23.4: START, COMPLETE, then Abort). */
static void comm_ranks(void **state)
{
	struct loaded x;
	const struct info *c;

	if (!load_debug(&x, "15_daekeun-ml_2nodes_1xA10G_full-init-to-abort_NCCL2.23.4_aws-ofi.txt"))
		skip_without_shared();
	assert_int_equal(get_int(nccl(&x), "nnodes"), 2);
	c = info_get(nccl(&x), "comms")->child;
	for (int rank = 0; rank < 2; rank++, c = c->next) {
		assert_non_null(c);
		assert_int_equal(get_int(c, "rank"), rank);
		assert_int_equal(get_int(c, "nranks"), 2);
		assert_int_equal(get_int(c, "cuda_dev"), 0);
		assert_int_equal(get_int(c, "nvml_dev"), 0);
		assert_string_equal(get_str(c, "bus_id"), "1e0");
		assert_string_equal(get_str(c, "comm_id"), "0x1ce724326e09a7e5");
		assert_string_equal(get_str(c, "state"), "aborted");
	}
	assert_null(c);
	unload(&x);
	if (!load_debug(&x, "02_tinygrad-ogkm-issue-35_2x_RTX5090D_v2.26.2_nccl-tests.txt"))
		skip_without_shared();
	assert_int_equal(get_int(nccl(&x), "nnodes"), -1);
	c = info_get(nccl(&x), "comms")->child;
	assert_non_null(c);
	assert_non_null(c->next);
	assert_null(c->next->next);
	assert_string_equal(get_str(c, "bus_id"), "c3000");
	assert_string_equal(get_str(c->next, "bus_id"), "ca000");
	assert_int_equal(get_int(c->next, "cuda_dev"), 1);
	assert_int_equal(get_int(c->next, "nvml_dev"), 1);
	assert_string_equal(get_str(c->next, "state"), "started");
	unload(&x);
}

static void facts_carry_their_source(void **state)
{
	struct loaded x;

	if (!load_debug(&x, "15_daekeun-ml_2nodes_1xA10G_full-init-to-abort_NCCL2.23.4_aws-ofi.txt"))
		skip_without_shared();
	assert_string_equal(x.r->transport.v, "net-ofi");
	assert_int_equal(x.r->transport.src.line, 134);	/* first "via NET/AWS Libfabric" */
	assert_string_equal(x.r->link.v, "network");
	assert_int_equal(x.r->link.src.line, 134);
	assert_ptr_equal(x.r->transport.src.file, x.f.path);	/* interned */
	assert_int_equal(x.r->logged.gpus.v, 2);
	unload(&x);
	if (!load_debug(&x, "13_nccl-tests-issue-228_SHM-direct-direct_busId-brackets.txt"))
		skip_without_shared();
	assert_string_equal(x.r->transport.v, "shm");
	assert_int_equal(x.r->transport.src.line, 2);
	assert_null(x.r->link.v);	/* SHM says nothing of the link */
	unload(&x);
}

/* Every launcher prefix a log line may carry (torchrun, SLURM, MPI, Ray, ...), one transport each, in a fixed order. */
static void launcher_prefixes(void **state)
{
	static const char log[] =
		"[rank0]:host:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n"
		"[1,0]<stdout>:host:1:1 [0] NCCL INFO Channel 00 : 0[1e0] -> 1[1f0] via SHM/direct/direct\n"
		"node-2: host:1:1 [0] NCCL INFO Channel 00/0 : 1[1] -> 3[1] [receive] via NET/IB/2/GDRDMA\n"
		"0: host:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0\n"
		"(RayTrainWorker pid=1234) host:1:1 [0] NCCL INFO Channel 01/0 : 1[0] -> 0[0] [receive] via NET/AWS Libfabric/0\n"
		"Oct 04 13:19:39 host unit[394]: host:1:1 [0] NCCL INFO Connected NVLS tree\n"
		"[2025-01-01 10:00:00] host:1:1 [0] NCCL INFO Channel 02/0 : 0[0] -> 1[1] via COLLNET/direct\n"
		"[rank1]: NCCL version 2.21.5+cuda12.4\n"
		"[1,1]<stdout>:host:1:1 [1] NCCL INFO ncclCommInitRank comm 0x1 rank 1 nranks 2 cudaDev 1 "
		"nvmlDev 1 busId 1f0 commId 0x2 - Init COMPLETE\n";
	struct loaded x;
	char list[256];

	load_str(&x, log);
	get_list(nccl(&x), "transports", list, sizeof(list));
	assert_string_equal(list, "p2p,shm,net-ib,net-socket,net-ofi,nvls,collnet");
	assert_string_equal(get_str(nccl(&x), "link"), "nvlink");
	assert_string_equal(get_str(nccl(&x), "version"), "2.21.5");
	assert_string_equal(get_str(nccl(&x), "cuda_build"), "12.4");
	assert_int_equal(get_int(nccl(&x), "nranks"), 2);
	assert_string_equal(x.r->transport.v, "p2p");
	assert_string_equal(x.r->link.v, "nvlink");
	assert_int_equal(x.r->link.src.line, 6);
	unload(&x);
}

/* Init lines of each era: <=2.16 no commId, 2.17 commId, 2.18+ nvmlDev, 2.21+ function name. */
static void init_line_eras(void **state)
{
	static const char *const lines[] = {
		"h:1:1 [0] NCCL INFO comm 0x5 rank 0 nranks 4 cudaDev 0 busId 1e0 - Init COMPLETE\n",
		"h:1:1 [0] NCCL INFO comm 0x5 rank 1 nranks 5 cudaDev 1 busId 1e0 commId 0x9 - Init COMPLETE\n",
		"h:1:1 [0] NCCL INFO comm 0x5 rank 2 nranks 6 cudaDev 2 nvmlDev 2 busId 1e0 commId 0x9 - Init START\n",
		"h:1:1 [0] NCCL INFO ncclCommSplit comm 0x5 rank 3 nranks 7 cudaDev 3 nvmlDev 3 busId 1e0 commId 0x9 - Init START\n",
		"h:1:1 [0] NCCL INFO comm 0x5 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0 MNNVL 0\n",
		"h:1:1 [0] NCCL INFO Init timings - ncclCommInitRankConfig: rank 0 nranks 9 total 0.21 (kernels 0.14)\n",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct loaded x;
		const struct info *c;

		load_str(&x, lines[i]);
		assert_int_equal(get_int(nccl(&x), "nranks"), (int64_t)i + 4);
		c = info_get(nccl(&x), "comms")->child;
		if (i >= 4) {
			assert_null(c);		/* not init lines */
		} else {
			assert_non_null(c);
			assert_int_equal(get_int(c, "rank"), (int64_t)i);
			assert_int_equal(get_int(c, "cuda_dev"), (int64_t)i);
			assert_int_equal(get_int(c, "nvml_dev"), i >= 2 ? (int64_t)i : -1);
			assert_str_or_null(get_str(c, "comm_id"), i >= 1 ? "0x9" : NULL);
			assert_string_equal(get_str(c, "state"), i >= 2 ? "started" : "complete");
		}
		unload(&x);
	}
}

/* ncclDataType_t: 6 fp16, 9 bf16, 10/11 fp8 (2.24+); 12 is no type NCCL has. */
static void coll_datatypes(void **state)
{
	static const char log[] =
		"h:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 8 datatype 9 op 0 root 0 comm 0x2 [nranks=2] stream 0x3\n"
		"h:1:1 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x1 count 8 datatype 6 op 0 root 0 comm 0x2 [nranks=2] stream 0x3\n"
		"h:1:1 [0] NCCL INFO Broadcast: opCount 2 sendbuff 0x1 recvbuff 0x1 count 8 datatype 10 op 0 root 0 comm 0x2 [nranks=2] stream 0x3\n"
		"h:1:1 [0] NCCL INFO Broadcast: opCount 3 sendbuff 0x1 recvbuff 0x1 count 8 datatype 11 op 0 root 0 comm 0x2 [nranks=2] stream 0x3\n"
		"h:1:1 [0] NCCL INFO Broadcast: opCount 4 sendbuff 0x1 recvbuff 0x1 count 8 datatype 12 op 0 root 0 comm 0x2 [nranks=2] stream 0x3\n"
		"h:1:1 [0] NCCL INFO AllReduce: opCount 5 sendbuff 0x1 recvbuff 0x1 count 8 datatype 9 op 0 root 0 comm 0x2 stream 0x3\n";
	static const struct {
		const char *dtype;
		int64_t bytes, calls;
	} want[] = { { "bf16", 16, 2 }, { "fp16", 16, 1 }, { "fp8-e4m3", 8, 1 },
		     { "fp8-e5m2", 8, 1 }, { NULL, -1, 1 } };
	struct loaded x;
	const struct info *e;
	size_t i = 0;

	load_str(&x, log);
	for (e = info_get(nccl(&x), "collectives")->child; e; e = e->next, i++) {
		assert_true(i < 5);
		assert_str_or_null(get_str(e, "dtype"), want[i].dtype);
		assert_int_equal(get_int(e, "bytes"), want[i].bytes);
		assert_int_equal(get_int(e, "calls"), want[i].calls);
	}
	assert_int_equal(i, 5);
	assert_int_equal(get_int(nccl(&x), "coll_lines"), 6);
	unload(&x);
}

static void crlf_line_ends(void **state)
{
	static const char log[] =
		"h:1:1 [0] NCCL INFO cudaDriverVersion 12040\r\n"
		"NCCL version 2.20.5+cuda12.4\r\n"
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\r\n"
		"\r\n"
		"h:1:1 [0] misc/socket.cc:49 NCCL WARN socket closed\r\n";
	struct loaded x;
	char list[64];

	load_str(&x, log);
	assert_string_equal(get_str(nccl(&x), "version"), "2.20.5");
	assert_string_equal(get_str(nccl(&x), "cuda_build"), "12.4");
	assert_string_equal(get_str(nccl(&x), "cuda_driver"), "12.4");
	get_list(nccl(&x), "transports", list, sizeof(list));
	assert_string_equal(list, "p2p");
	assert_int_equal(get_int(nccl(&x), "warnings"), 1);
	for (size_t i = 0; i < x.t->diags.count; i++)
		assert_null(strchr(x.t->diags.items[i].message, '\r'));
	unload(&x);
}

/* A 10 MB line (cut to 1 MiB by the layer) between NCCL lines: both sides are read. */
static void ten_megabyte_line(void **state)
{
	static const char head[] = "NCCL version 2.19.3+cuda12.3\nh:1:1 [0] NCCL INFO ";
	static const char tail[] = "\nh:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct\n";
	size_t big = 10u * 1024 * 1024;
	size_t n = sizeof(head) - 1 + big + sizeof(tail) - 1;
	char *buf = xmalloc(n);
	struct loaded x;
	char list[64];

	memcpy(buf, head, sizeof(head) - 1);
	memset(buf + sizeof(head) - 1, 'x', big);
	memcpy(buf + sizeof(head) - 1 + big, tail, sizeof(tail) - 1);
	load_bytes(&x, buf, n);
	free(buf);
	assert_string_equal(get_str(nccl(&x), "version"), "2.19.3");
	get_list(nccl(&x), "transports", list, sizeof(list));
	assert_string_equal(list, "shm");
	assert_int_equal(x.r->transport.src.line, 3);
	assert_int_equal(count_diags(&x, "long-line", NULL), 1);
	unload(&x);
}

/*
 * Binary noise (NULs included) inside a log, past the part that sniffing
 * looks at: the lines after it are still read; neither a channel line cut
 * by the noise nor a "NCCL WARN" without its "[dev] " prefix counts.
 */
static void binary_noise(void **state)
{
	static const char nccl_tail[] =
		"\nh:1:1 [0] NCCL INFO NCCL version 2.23.4+cuda12.4\n"
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n";
	size_t text = 300 * 1024, noise = 64 * 1024;
	size_t n = text + noise + sizeof(nccl_tail) - 1;
	char *buf = xmalloc(n);
	struct loaded x;
	uint32_t seed = 12345;
	char list[64];

	for (size_t i = 0; i < text; i++)
		buf[i] = i % 80 == 79 ? '\n' : 'a' + (char)(i % 26);
	for (size_t i = 0; i < noise; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[text + i] = (char)(seed >> 16);
	}
	/* NCCL words inside the noise: a cut channel line, a WARN marker */
	memcpy(buf + text + 100, "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via", 41);
	memcpy(buf + text + 1000, "NCCL WARN", 9);
	memcpy(buf + text + noise, nccl_tail, sizeof(nccl_tail) - 1);
	load_bytes(&x, buf, n);
	free(buf);
	assert_string_equal(get_str(nccl(&x), "version"), "2.23.4");
	get_list(nccl(&x), "transports", list, sizeof(list));
	assert_string_equal(list, "p2p");
	assert_int_equal(get_int(nccl(&x), "warnings"), 0);	/* a bare "NCCL WARN" in noise is none */
	unload(&x);
}

/* A log cut mid-line: the last, partial line is read for what it holds, no more. */
static void stops_mid_line(void **state)
{
	static const char cut_in_via[] =
		"h:1:1 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n"
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SH";
	static const char cut_in_coll[] =
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
		"h:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 8 datat";
	static const char cut_in_version[] = "h:1:1 [0] NCCL INFO NCCL vers";
	struct loaded x;
	char list[64];

	load_str(&x, cut_in_via);
	assert_string_equal(get_str(nccl(&x), "version"), "2.18.1");
	get_list(nccl(&x), "transports", list, sizeof(list));
	assert_string_equal(list, "");	/* "SH" is not yet "SHM" */
	unload(&x);
	load_str(&x, cut_in_coll);
	assert_int_equal(get_int(nccl(&x), "coll_lines"), 0);
	get_list(nccl(&x), "transports", list, sizeof(list));
	assert_string_equal(list, "p2p");
	unload(&x);
	load_str(&x, cut_in_version);
	assert_null(get_str(nccl(&x), "version"));
	assert_null(x.r->nccl_version.v);
	unload(&x);
}

/*
 * A log with no NCCL output in it (prose quoting NCCL lines included) adds
 * no "nccl" key, and two NCCL versions are flagged.
 */
static void absent_and_mixed(void **state)
{
	struct loaded x;

	load_str(&x, "step 1 loss 2.0\nstep 2 loss 1.5\nnccl is mentioned here but says nothing\n"
		 "| notes | WARN lines (`misc/socket.cc:49 NCCL WARN socketProgress`), "
		 "`ncclUnhandledCudaError`, quoted `NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM` |\n");
	assert_null(info_get(x.f.info, "nccl"));
	assert_null(x.r->nccl_version.v);
	unload(&x);
	load_str(&x, "NCCL version 2.19.3+cuda12.3\nNCCL version 2.21.5+cuda12.4\n");
	assert_string_equal(get_str(nccl(&x), "version"), "2.19.3");
	assert_int_equal(count_diags(&x, "nccl-mixed-versions", NULL), 1);
	unload(&x);
}

/* Loads tests/data/nccl/name (under $TOP when set). */
static void load_data(struct loaded *x, const char *name)
{
	const char *top = getenv("TOP");
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/data/nccl/%s", top ? top : ".", name);
	load_path(x, path);
}

/*
 * The real excerpts of tests/data/nccl (tests/data/nccl/PROVENANCE.md),
 * read by hand: transports, link and the line that says it, NCCL_*
 * settings ("NAME=value" joined with ','), NVLink figure and links.
 */
static const struct excerpt {
	const char *file;
	const char *transports;
	const char *link;	/* NULL: null */
	int64_t link_line;
	const char *settings;
	double nvlink_bw;	/* 0: null */
	int64_t nvlinks;	/* -1: null */
	const char *nvlink_gen;
} excerpts[] = {
	/* P2P/CUMEM lines first, then "NVLS comm ... headRank" on line 10 */
	{ "nccl-1410_8xH100_P2P-CUMEM_NVLS-comm.txt", "p2p,nvls", "nvlink", 10, "", 0, -1, NULL },
	/* NCCL_ALGO echoed by three ranks; "0 nvls channels" says nothing */
	{ "nccl-892_8xH800_NCCL_ALGO-env_0-nvls-channels.txt", "p2p", NULL, 0,
	  "NCCL_ALGO=Tree,Ring,,CollnetDirect,CollnetChain,NVLS", 0, -1, NULL },
	{ "nccl-1538_16xGPU_NVLS-multicast_NVLS-Head.txt", "nvls", "nvlink", 2, "", 0, -1, NULL },
	/* MNNVL lines with state 3 are not read as NVLink; the trailing '.' is NCCL's, not the value's */
	{ "nccl-1769_GB200_MNNVL_NCCL_NVLS_ENABLE-env.txt", "", NULL, 0, "NCCL_NVLS_ENABLE=1", 0, -1, NULL },
	{ "nccl-tests-228_8xGPU_NCCL_IB-env.txt", "", NULL, 0,
	  "NCCL_IB_DISABLE=0,NCCL_IB_HCA=mlx5_2:1,mlx5_0:1", 0, -1, NULL },
	/* graph "type NVL/PIX" on line 2; NVL[370.8] = 18 x 20.6 (NVLink 4, Hopper) */
	{ "nccl-1189_2nodes_2xH20_GRAPH-topology_NVL-NVS.txt", "", "nvlink", 2, "NCCL_PXN_DISABLE=1",
	  370.8, 18, "4" },
	/* graph "type SYS/PIX" on line 8: PCIe through the CPUs */
	{ "nccl-1358_2GPU_GRAPH-topology_SYS-PIX.txt", "", "pcie", 8, "", 0, -1, NULL },
};

/* The settings object as "NAME=value" joined with ','. */
static void get_settings(const struct info *o, char *out, size_t size)
{
	const struct info *v = info_get(o, "settings");

	assert_non_null(v);
	assert_int_equal(v->type, INFO_OBJ);
	out[0] = '\0';
	for (const struct info *e = v->child; e; e = e->next) {
		assert_int_equal(e->type, INFO_STR);
		snprintf(out + strlen(out), size - strlen(out), "%s%s=%s", out[0] ? "," : "", e->key, e->v.s);
	}
}

static void check_excerpt(const struct excerpt *e)
{
	struct loaded x;
	const struct info *o;
	char list[512];

	load_data(&x, e->file);
	assert_string_equal(format_name(x.f.sniff.format), "nccl-log");
	o = nccl(&x);
	get_list(o, "transports", list, sizeof(list));
	assert_string_equal(list, e->transports);
	assert_str_or_null(get_str(o, "link"), e->link);
	assert_str_or_null(x.r->link.v, e->link);
	assert_int_equal(x.r->link.src.line, e->link_line);
	get_settings(o, list, sizeof(list));
	assert_string_equal(list, e->settings);
	if (e->nvlink_bw > 0)
		assert_true(get_num(o, "nvlink_bw_gbs") == e->nvlink_bw);
	else
		assert_true(isnan(get_num(o, "nvlink_bw_gbs")));
	assert_int_equal(get_int(o, "nvlinks"), e->nvlinks);
	assert_str_or_null(get_str(o, "nvlink_gen"), e->nvlink_gen);
	unload(&x);
}

static void real_excerpts(void **state)
{
	for (size_t i = 0; i < sizeof(excerpts) / sizeof(excerpts[0]); i++)
		check_excerpt(&excerpts[i]);
}

/*
 * Each NVLS, CollNet and P2P line form with its facts: an NCCL 2.25 log
 * whose only NVLS word is "32 nvls channels" has the nvls transport, and
 * P2P/CUMEM, P2P/CUMEM/read, P2P/IPC are all p2p.
 */
static void nvls_collnet_p2p_forms(void **state)
{
	static const struct {
		const char *line;
		const char *transports;
		const char *link;
	} forms[] = {
		{ "h:1:1 [0] NCCL INFO 32 coll channels, 32 collnet channels, 32 nvls channels, 32 p2p channels, 32 p2p channels per peer\n",
		  "nvls", "nvlink" },
		{ "h:1:1 [0] NCCL INFO 24 coll channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer\n",
		  "", NULL },
		{ "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NVLS\n", "nvls", "nvlink" },
		{ "h:1:1 [0] NCCL INFO Connected NVLS tree\n", "nvls", "nvlink" },
		{ "h:1:1 [0] NCCL INFO NVLS multicast support is available on dev 0\n", "", "nvlink" },
		{ "h:1:1 [0] NCCL INFO NVLS multicast support is not available on dev 0\n", "", NULL },
		{ "h:1:1 [0] NCCL INFO rank 0 Connected CollNet\n", "collnet", NULL },
		{ "h:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via COLLNET/direct\n", "collnet", NULL },
		{ "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n", "p2p", NULL },
		{ "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n", "p2p", NULL },
		{ "h:1:1 [0] NCCL INFO Channel 00 : 0[1e0] -> 1[1f0] via P2P/IPC\n", "p2p", NULL },
		{ "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/MNNVL\n", "p2p", "nvlink" },
		{ "h:1:1 [0] NCCL INFO + NVL[40.0] - GPU/1C000\n", "", "nvlink" },
		{ "h:1:1 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, bw 12.000000/12.000000, type PHB/PIX, sameChannels 1\n",
		  "", "pcie" },
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct loaded x;
		char list[64];

		load_str(&x, forms[i].line);
		get_list(nccl(&x), "transports", list, sizeof(list));
		if (strcmp(list, forms[i].transports))
			fail_msg("form %zu: transports \"%s\", want \"%s\"", i, list, forms[i].transports);
		assert_str_or_null(x.r->link.v, forms[i].link);
		unload(&x);
	}
}

/* The NVLink figure explained: one generation divides it into 1..18 links, or nothing is said. */
static void nvlink_links(void **state)
{
	static const struct {
		const char *bw;
		int64_t links;
		const char *gen;
	} want[] = {
		{ "240.0", 12, "2 or 3" },	/* A100 SXM: 12 x 20.0 (20 x 12.0 is more links than a GPU has) */
		{ "721.8", 18, "5" },		/* 18 x 40.1 */
		{ "40.0", 2, "2 or 3" },
		{ "36.0", -1, NULL },		/* 2 x 18.0 and 3 x 12.0 */
		{ "33.3", -1, NULL },		/* no generation */
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char line[128];
		struct loaded x;

		snprintf(line, sizeof(line), "h:1:1 [0] NCCL INFO                + NVL[%s] - NVS/0\n", want[i].bw);
		load_str(&x, line);
		assert_int_equal(get_int(nccl(&x), "nvlinks"), want[i].links);
		assert_str_or_null(get_str(nccl(&x), "nvlink_gen"), want[i].gen);
		unload(&x);
	}
}

/*
 * NCCL_* settings: the first value of each name is the run's fact, and
 * one that turns a transport off is a warning at its line, once.
 */
static void settings_and_disabling(void **state)
{
	static const char log[] =
		"h:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1\n"
		"h:1:2 [1] NCCL INFO NCCL_P2P_DISABLE set by environment to 1\n"
		"h:1:1 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1.\n"
		"h:1:1 [0] NCCL INFO NCCL_PROTO set by environment to LL128\n"
		"h:1:1 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PHB\n"
		"h:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to LOC\n"
		"h:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct\n";
	struct loaded x;
	char list[512];
	int64_t line = 0;

	load_str(&x, log);
	get_settings(nccl(&x), list, sizeof(list));
	assert_string_equal(list, "NCCL_P2P_DISABLE=1,NCCL_SHM_DISABLE=1,NCCL_PROTO=LL128,"
			    "NCCL_NET_GDR_LEVEL=PHB,NCCL_P2P_LEVEL=LOC,NCCL_IB_DISABLE=1");
	assert_int_equal(x.r->nnccl_env, 6);
	assert_string_equal(x.r->nccl_env[0].name, "NCCL_P2P_DISABLE");
	assert_string_equal(x.r->nccl_env[0].value, "1");
	assert_int_equal(x.r->nccl_env[0].src.line, 1);
	assert_string_equal(x.r->nccl_env[3].name, "NCCL_NET_GDR_LEVEL");
	assert_int_equal(x.r->nccl_env[3].src.line, 5);
	assert_int_equal(count_diags(&x, "nccl-env-disabled", &line), 3);
	assert_int_equal(line, 1);
	assert_string_equal(x.t->diags.items[0].message,
			    "\"NCCL_P2P_DISABLE=1\" set by the environment turns off peer-to-peer access between GPUs");
	unload(&x);
	load_str(&x, "h:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 0\n"
		 "h:1:1 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 0\n"
		 "h:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to NVL\n");
	assert_int_equal(count_diags(&x, "nccl-env-disabled", NULL), 0);
	unload(&x);
	load_str(&x, "h:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to 0\n");
	assert_int_equal(count_diags(&x, "nccl-env-disabled", NULL), 1);
	unload(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_real_file),
		cmocka_unit_test(coll_lines_aggregate),
		cmocka_unit_test(send_recv_lines),
		cmocka_unit_test(warn_positions),
		cmocka_unit_test(comm_ranks),
		cmocka_unit_test(facts_carry_their_source),
		cmocka_unit_test(launcher_prefixes),
		cmocka_unit_test(init_line_eras),
		cmocka_unit_test(coll_datatypes),
		cmocka_unit_test(crlf_line_ends),
		cmocka_unit_test(ten_megabyte_line),
		cmocka_unit_test(binary_noise),
		cmocka_unit_test(stops_mid_line),
		cmocka_unit_test(absent_and_mixed),
		cmocka_unit_test(real_excerpts),
		cmocka_unit_test(nvls_collnet_p2p_forms),
		cmocka_unit_test(nvlink_links),
		cmocka_unit_test(settings_and_disabling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
