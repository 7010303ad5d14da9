#include "ingest/nccl_log.h"

#include "core/pattern.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "ingest/ingest.h"

#define MAX_AGG 4096	/* distinct (op, dtype, count) kept; more are only counted */
#define MAX_COMMS 256		/* communicator ranks described per file */
#define MAX_QUOTE 160		/* bytes of a WARN or error message quoted in a diagnostic */

enum transport { T_P2P, T_SHM, T_NET_IB, T_NET_SOCKET, T_NET_OFI, T_NVLS, T_COLLNET, NTRANSPORT };

static const char *const transport_names[NTRANSPORT] = {
	[T_P2P] = "p2p", [T_SHM] = "shm", [T_NET_IB] = "net-ib", [T_NET_SOCKET] = "net-socket",
	[T_NET_OFI] = "net-ofi", [T_NVLS] = "nvls", [T_COLLNET] = "collnet",
};

/* What follows "via " in a channel or ring line; first prefix that matches wins. */
static const struct via {
	const char *prefix;
	enum transport t;
	const char *link;	/* what the words alone say about the link; NULL nothing */
} vias[] = {
	{ "P2P/MNNVL", T_P2P, "nvlink" },
	{ "P2P", T_P2P, NULL },
	{ "SHM", T_SHM, NULL },
	{ "NET/IB", T_NET_IB, NULL },
	{ "NET/Socket", T_NET_SOCKET, NULL },
	{ "NET/AWS Libfabric", T_NET_OFI, NULL },
	{ "NET/Libfabric", T_NET_OFI, NULL },
	{ "NET/OFI", T_NET_OFI, NULL },
	{ "NET/AWS", T_NET_OFI, NULL },
	{ "NVLS", T_NVLS, "nvlink" },
	{ "COLLNET", T_COLLNET, NULL },
	{ "CollNet", T_COLLNET, NULL },
};

/* nccl_log graph "type X/Y" path kinds: the first one names the intra-node link. */
static const struct path_kind {
	const char *name;
	const char *link;
} path_kinds[] = {
	{ "NVL", "nvlink" }, { "NVB", "nvlink" }, { "C2C", "nvlink" },
	{ "PIX", "pcie" }, { "PXB", "pcie" }, { "PXN", "pcie" }, { "PHB", "pcie" }, { "SYS", "pcie" },
};

/*
 * NCCL's bandwidth of one NVLink by GPU generation (its topology model,
 * GB/s): an "+ NVL[bw]" line is that times the number of links.
 */
static const struct nvlink_gen {
	double per_link;
	const char *gen;	/* for inspect */
} nvlink_gens[] = {
	{ 18.0, "1" },		/* sm_60 */
	{ 20.0, "2 or 3" },	/* sm_70, sm_80 */
	{ 12.0, "3" },		/* sm_86 */
	{ 20.6, "4" },		/* sm_90 */
	{ 40.1, "5" },		/* sm_100 */
};

#define MAX_NVLINKS 18	/* links one GPU has at most */

/* ncclDataType_t in NCCL's own order (nccl.h): the number a COLL line's datatype prints. */
static const enum dtype nccl_dtypes[] = {
	DT_INT8, DT_UINT8, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64,
	DT_FP16, DT_FP32, DT_FP64, DT_BF16, DT_FP8_E4M3, DT_FP8_E5M2,
};

/* One (op, dtype, count) of the COLL lines, with how often it was called. */
struct coll_agg {
	uint8_t op;		/* enum coll_op */
	uint8_t dtype;		/* enum dtype */
	int64_t count;		/* elements */
	int64_t calls;
};

/* How far a communicator rank got, from its init and teardown lines. */
enum comm_state { CS_STARTED, CS_COMPLETE, CS_DESTROYED, CS_ABORTED, NCOMM_STATES };

static const struct {
	const char *line;	/* what the line ends with */
	const char *name;	/* for inspect */
} comm_states[NCOMM_STATES] = {
	[CS_STARTED] = { "Init START", "started" }, [CS_COMPLETE] = { "Init COMPLETE", "complete" },
	[CS_DESTROYED] = { "Destroy COMPLETE", "destroyed" },
	[CS_ABORTED] = { "Abort COMPLETE", "aborted" },
};

/* One rank of one communicator, as its init lines describe it. */
struct comm_rank {
	const char *comm;	/* interned "0x573f9cb382e0": the rank's handle */
	const char *comm_id;	/* interned "0x1ce7..." (2.17+); NULL not printed */
	const char *bus_id;	/* interned "1e0" */
	int32_t rank, nranks;
	int32_t cuda_dev;
	int32_t nvml_dev;	/* 2.18+; -1 not printed */
	uint8_t state;		/* enum comm_state */
};

struct nccl_log {
	struct ingest_ctx *ctx;
	bool found;		/* a line of NCCL output was seen */
	const char *version;	/* interned "2.23.4"; NULL none */
	const char *cuda_build;	/* interned "12.4" of "+cuda12.4" */
	const char *driver;	/* interned "12.8" */
	int64_t nranks;		/* largest communicator; -1 none */
	int64_t nranks_line;	/* where it was read */
	int64_t nnodes;		/* from "nRanks N nNodes K"; -1 none */
	struct comm_rank *comms;	/* in order first seen, at most MAX_COMMS */
	size_t ncomms, cap_comms;
	uint8_t order[NTRANSPORT];	/* transports in order seen */
	size_t ntransports;
	int64_t transport_line;	/* where the first was seen */
	const char *link;	/* explicit nvlink|pcie evidence; NULL none */
	int64_t link_line;
	struct coll_agg *agg;	/* COLL aggregates, in order first seen */
	size_t nagg, cap_agg;
	uint32_t *slots;	/* open addressing over agg: index + 1, 0 empty */
	size_t nslots;		/* power of two, at least twice nagg */
	int64_t coll_lines;
	int64_t coll_dropped;	/* COLL lines of aggregates past MAX_AGG */
	int64_t warnings, errors, timeouts;
	double nvl_bw;		/* largest "+ NVL[bw]" of the topology dump, GB/s; 0 none */
	struct nccl_setting settings[NCCL_MAX_SETTINGS];	/* NCCL_* echoed, first value of each */
	size_t nsettings;
	int64_t lineno;		/* line being read */
	struct ingest_cap cap;	/* NCCL lines read, against the limits */
	pcre2_match_data *md;
};

/*
 * Patterns. MSG patterns see the message after "NCCL INFO "; LINE patterns
 * see the whole line (launcher prefixes included) when it holds no INFO.
 */
enum scope { MSG, LINE };

enum pat {
	P_VERSION, P_DRIVER, P_INIT, P_NRANKS, P_TIMINGS, P_CONN, P_COLL, P_CHANNELS,
	P_NVLS, P_NVLS_COMM, P_NVLS_MC, P_COLLNET, P_GRAPH, P_TOPO_NVL, P_SETTING, P_WARN, P_WATCHDOG, P_NCCL_ERROR_IN, P_NCCL_RESULT, P_NCCL_FAILURE,
	P_BARE_VERSION, NPAT
};

typedef void handler(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov);

static handler on_version, on_driver, on_init, on_nranks, on_conn, on_coll, on_channels,
	       on_nvls, on_nvls_mc, on_collnet, on_graph, on_topo_nvl, on_setting, on_warn, on_watchdog,
	       on_error, on_error_in;

static const struct rule {
	const char *re;		/* first: the pattern table reads it */
	enum scope scope;
	handler *fn;
} rules[NPAT] = {
	[P_VERSION] = { .scope = MSG, .re = "^NCCL version (\\d+\\.\\d+\\.\\d+)(?:\\+cuda(\\d+\\.\\d+))?", .fn = on_version },
	[P_DRIVER] = { .scope = MSG, .re = "^cudaDriverVersion (\\d+)", .fn = on_driver },
	[P_INIT] = { .scope = MSG, .re = "^(?:\\w+ )?comm (0x[0-9a-fA-F]+|\\(nil\\)) rank (\\d+) nranks (\\d+) "
			  "cudaDev (\\d+)(?: nvmlDev (\\d+))? busId ([0-9a-fA-Fx]+)"
			  "(?: commId (0x[0-9a-fA-F]+))? - (Init START|Init COMPLETE|"
			  "Destroy COMPLETE|Abort COMPLETE)", .fn = on_init },
	[P_NRANKS] = { .scope = MSG, .re = "^comm \\S+ rank (\\d+) nRanks (\\d+) nNodes (\\d+)", .fn = on_nranks },
	[P_TIMINGS] = { .scope = MSG, .re = "^Init timings\\b[^:]*: rank (\\d+) nranks (\\d+)", .fn = on_nranks },
	[P_CONN] = { .scope = MSG, .re = "^(?:Channel|Ring) \\d+(?:/\\d+)? : \\d+\\[[0-9a-fA-Fx]+\\] -> "
			  "\\d+\\[[0-9a-fA-Fx]+\\](?: \\[(?:send|receive)\\])? via (\\S.*)$", .fn = on_conn },
	[P_COLL] = { .scope = MSG, .re = "^(\\w+): opCount ([0-9a-fA-F]+) sendbuff \\S+ recvbuff \\S+ "
			  "count (\\d+) datatype (\\d+) op (\\d+) root (-?\\d+) comm \\S+"
			  "(?: \\[nranks=(\\d+)\\])?", .fn = on_coll },
	[P_CHANNELS] = { .scope = MSG, .re = "^\\d+ coll channels, (?:\\d+ collnet channels, )?(\\d+) nvls channels",
			 .fn = on_channels },
	[P_NVLS] = { .scope = MSG, .re = "^Connected NVLS\\b", .fn = on_nvls },
	/* "NVLS comm 0x... headRank 7 nHeads 8 ..." (2.19+), "NVLS Head  4:  4 12" (2.22) */
	[P_NVLS_COMM] = { .scope = MSG, .re = "^NVLS (?:comm \\S+ headRank -?\\d+ nHeads \\d+|Head +\\d+:)",
			  .fn = on_nvls },
	[P_NVLS_MC] = { .scope = MSG, .re = "^NVLS multicast support is available\\b", .fn = on_nvls_mc },
	[P_COLLNET] = { .scope = MSG, .re = "^(?:rank \\d+ )?Connected [Cc]oll[Nn]et\\b", .fn = on_collnet },
	[P_GRAPH] = { .scope = MSG, .re = "^Pattern \\d+, crossNic \\d+, nChannels \\d+, .*?\\btype ([A-Z0-9]+)/",
		      .fn = on_graph },
	/* the topology dump (NCCL_DEBUG_SUBSYS=GRAPH): "+ NVL[480.0] - NVS/0", "+ NVL[40.0] - GPU/1C000" */
	[P_TOPO_NVL] = { .scope = MSG, .re = "^\\s*\\+ NVL\\[(\\d+(?:\\.\\d+)?)\\] - (?:GPU|NVS)/", .fn = on_topo_nvl },
	[P_SETTING] = { .scope = MSG, .re = "^(NCCL_[A-Z0-9_]+) set (?:by environment )?to (.*?)\\.?\\s*$",
			.fn = on_setting },
	[P_WARN] = { .scope = LINE, .re = "(?:^\\s*|\\] (?:[\\w./+-]+:\\d+ )?)NCCL WARN ?(.*)$", .fn = on_warn },
	[P_WATCHDOG] = { .scope = LINE, .re = "Watchdog caught collective operation timeout: WorkNCCL\\("
			       "SeqNum=(\\d+), OpType=(\\w+)(?:, NumelIn=(\\d+), NumelOut=(\\d+))?, "
			       "Timeout\\(ms\\)=(\\d+)\\)", .fn = on_watchdog },
	[P_NCCL_ERROR_IN] = { .scope = LINE, .re = "NCCL error in: (.*?)(?:, NCCL version (\\d+\\.\\d+\\.\\d+)\\S*)?\\s*$",
			      .fn = on_error_in },
	[P_NCCL_RESULT] = { .scope = LINE, .re = "\\b(nccl(?:UnhandledCudaError|SystemError|InternalError|"
				  "InvalidArgument|InvalidUsage|RemoteError):.*)$", .fn = on_error },
	[P_NCCL_FAILURE] = { .scope = LINE, .re = "\\b(NCCL failure \\S+ '[^']*'.*)$", .fn = on_error },
	[P_BARE_VERSION] = { .scope = LINE, .re = "(?:^|[\\s:\\]>)])NCCL version (\\d+\\.\\d+\\.\\d+)"
				   "(?:\\+cuda(\\d+\\.\\d+))?", .fn = on_version },
};

static pcre2_code *compiled[NPAT];
static struct pattern_table table = PATTERN_TABLE(rules, compiled, 0);

static int compile_rules(void)
{
	return pattern_compile(&table) ? 0 : -1;	/* -1: a bad built-in pattern */
}

static struct srcpos here(const struct nccl_log *s)
{
	return SRCPOS_LINE(s->ctx->path, s->lineno);
}

static bool matched(const PCRE2_SIZE *ov, int group)
{
	return ov[2 * group] != PCRE2_UNSET;
}

static int64_t group_int(const char *p, const PCRE2_SIZE *ov, int group, int base)
{
	if (!matched(ov, group))
		return -1;
	return strtoll(p + ov[2 * group], NULL, base);
}

static const char *group_str(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov, int group)
{
	if (!matched(ov, group))
		return NULL;
	return intern(&s->ctx->trial->strings, p + ov[2 * group], ov[2 * group + 1] - ov[2 * group]);
}

static int group_len(const PCRE2_SIZE *ov, int group)
{
	size_t n = ov[2 * group + 1] - ov[2 * group];

	return n > MAX_QUOTE ? MAX_QUOTE : (int)n;
}

static void set_version(struct nccl_log *s, const char *v, const char *build)
{
	struct srcpos pos = here(s);

	if (!v)
		return;
	if (!s->version) {
		s->version = v;
		s->cuda_build = build;
		fact_set_str(s->ctx->trial, &s->ctx->run->nccl_version, v, &pos);
	} else if (v != s->version) {
		diag_warn(s->ctx->diags, "nccl-mixed-versions", &pos,
			  "nccl version \"%s\" differs from \"%s\" seen earlier", v, s->version);
	}
	if (!s->cuda_build)
		s->cuda_build = build;
}

static void warn_disabling(struct nccl_log *s, const struct nccl_setting *e)
{
	const char *what = nccl_setting_turns_off(e->name, e->value);

	if (what)
		diag_add(s->ctx->diags, DIAG_INFO, "nccl-env-disabled", &e->src,
			 "\"%s=%s\" set by the environment turns off %s", e->name, e->value, what);
}

static void on_version(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	set_version(s, group_str(s, p, ov, 1), group_str(s, p, ov, 2));
}

static void on_driver(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	int64_t v = group_int(p, ov, 1, 10);
	char text[32];

	if (s->driver || v <= 0 || v > 1000000)
		return;
	snprintf(text, sizeof(text), "%d.%d", (int)(v / 1000), (int)(v % 1000 / 10));
	s->driver = intern_str(&s->ctx->trial->strings, text);
}

static void see_nranks(struct nccl_log *s, int64_t n)
{
	if (n > s->nranks) {
		s->nranks = n;
		s->nranks_line = s->lineno;
	}
}

/* The entry of (comm, rank), added when new and room is left; NULL otherwise. */
static struct comm_rank *comm_rank(struct nccl_log *s, const char *comm, int32_t rank)
{
	for (size_t i = 0; i < s->ncomms; i++)
		if (s->comms[i].comm == comm && s->comms[i].rank == rank)
			return &s->comms[i];
	if (s->ncomms == MAX_COMMS)
		return NULL;
	xgrow(&s->comms, &s->cap_comms, s->ncomms + 1, sizeof(*s->comms));
	s->comms[s->ncomms] = (struct comm_rank){ .comm = comm, .rank = rank, .nvml_dev = -1 };
	return &s->comms[s->ncomms++];
}

static void on_init(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	struct comm_rank *c = comm_rank(s, group_str(s, p, ov, 1), (int32_t)group_int(p, ov, 2, 10));
	size_t n = ov[17] - ov[16];

	see_nranks(s, group_int(p, ov, 3, 10));
	if (!c)
		return;
	c->nranks = (int32_t)group_int(p, ov, 3, 10);
	c->cuda_dev = (int32_t)group_int(p, ov, 4, 10);
	if (matched(ov, 5))
		c->nvml_dev = (int32_t)group_int(p, ov, 5, 10);
	c->bus_id = group_str(s, p, ov, 6);
	if (matched(ov, 7))
		c->comm_id = group_str(s, p, ov, 7);
	for (int i = 0; i < NCOMM_STATES; i++)
		if (strlen(comm_states[i].line) == n && !memcmp(p + ov[16], comm_states[i].line, n))
			c->state = (uint8_t)i;
}

static void on_nranks(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	see_nranks(s, group_int(p, ov, 2, 10));
	if (matched(ov, 3) && group_int(p, ov, 3, 10) > s->nnodes)
		s->nnodes = group_int(p, ov, 3, 10);
}

static void see_link(struct nccl_log *s, const char *link)
{
	if (link && !s->link) {
		s->link = link;
		s->link_line = s->lineno;
	}
}

static void see_transport(struct nccl_log *s, enum transport t)
{
	struct srcpos pos = here(s);

	for (size_t i = 0; i < s->ntransports; i++)
		if (s->order[i] == t)
			return;
	if (!s->ntransports)
		s->transport_line = s->lineno;
	s->order[s->ntransports++] = (uint8_t)t;
	fact_set_str(s->ctx->trial, &s->ctx->run->transport, transport_names[t], &pos);
}

static void on_conn(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	const char *via = p + ov[2];
	size_t n = ov[3] - ov[2];

	for (size_t i = 0; i < sizeof(vias) / sizeof(vias[0]); i++) {
		size_t k = strlen(vias[i].prefix);

		if (n >= k && !memcmp(via, vias[i].prefix, k)) {
			see_transport(s, vias[i].t);
			see_link(s, vias[i].link);
			return;
		}
	}
}

/* "32 coll channels, 32 collnet channels, 32 nvls channels, ...": NVLS channels need NVSwitch. */
static void on_channels(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	if (group_int(p, ov, 1, 10) <= 0)
		return;
	see_transport(s, T_NVLS);
	see_link(s, "nvlink");
}

static void on_nvls(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	see_transport(s, T_NVLS);
	see_link(s, "nvlink");
}

/* Multicast (NVLink SHARP) exists only on GPUs an NVSwitch joins; NVLS may still go unused. */
static void on_nvls_mc(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	see_link(s, "nvlink");
}

static void on_collnet(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	see_transport(s, T_COLLNET);
}

static void on_topo_nvl(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	double bw = strtod(p + ov[2], NULL);

	see_link(s, "nvlink");
	if (bw > s->nvl_bw)
		s->nvl_bw = bw;
}

static void on_setting(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	const char *name = group_str(s, p, ov, 1);
	struct nccl_setting *e;

	for (size_t i = 0; i < s->nsettings; i++)
		if (s->settings[i].name == name)
			return;		/* every rank echoes it: the first says it */
	if (s->nsettings == NCCL_MAX_SETTINGS)
		return;
	e = &s->settings[s->nsettings++];
	*e = (struct nccl_setting){ .name = name, .value = group_str(s, p, ov, 2), .src = here(s) };
	warn_disabling(s, e);
}

static void on_graph(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	const char *kind = p + ov[2];
	size_t n = ov[3] - ov[2];

	for (size_t i = 0; i < sizeof(path_kinds) / sizeof(path_kinds[0]); i++)
		if (strlen(path_kinds[i].name) == n && !memcmp(kind, path_kinds[i].name, n))
			see_link(s, path_kinds[i].link);
}

static uint32_t agg_hash(unsigned op, unsigned dt, int64_t count)
{
	uint64_t h = (uint64_t)count * 0x9e3779b97f4a7c15ull ^ (op << 8 | dt) * 0xff51afd7ed558ccdull;

	return (uint32_t)(h ^ h >> 32);
}

static void agg_rehash(struct nccl_log *s)
{
	size_t n = s->nslots ? s->nslots * 2 : 64;

	free(s->slots);
	s->slots = xcalloc(n, sizeof(*s->slots));
	s->nslots = n;
	for (size_t i = 0; i < s->nagg; i++) {
		const struct coll_agg *a = &s->agg[i];
		size_t j = agg_hash(a->op, a->dtype, a->count) & (n - 1);

		while (s->slots[j])
			j = (j + 1) & (n - 1);
		s->slots[j] = (uint32_t)i + 1;
	}
}

/* Counts one call of (op, dt, count), adding the aggregate when new and room is left. */
static void agg_add(struct nccl_log *s, enum coll_op op, enum dtype dt, int64_t count)
{
	size_t j;
	struct coll_agg *a;

	if (2 * (s->nagg + 1) > s->nslots)
		agg_rehash(s);
	j = agg_hash(op, dt, count) & (s->nslots - 1);
	for (; s->slots[j]; j = (j + 1) & (s->nslots - 1)) {
		a = &s->agg[s->slots[j] - 1];
		if (a->op == op && a->dtype == dt && a->count == count) {
			a->calls++;
			return;
		}
	}
	if (s->nagg == MAX_AGG) {
		s->coll_dropped++;
		return;
	}
	xgrow(&s->agg, &s->cap_agg, s->nagg + 1, sizeof(*s->agg));
	s->agg[s->nagg] = (struct coll_agg){ .op = (uint8_t)op, .dtype = (uint8_t)dt,
					     .count = count, .calls = 1 };
	s->slots[j] = (uint32_t)++s->nagg;
}

static void on_coll(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	enum coll_op op = coll_from_name(p + ov[2], ov[3] - ov[2]);
	int64_t dt = group_int(p, ov, 4, 10);
	enum dtype dtype = DT_UNKNOWN;

	if (op == COLL_NONE)
		return;		/* "Foo: opCount ..." of some other subsystem */
	if (dt >= 0 && (size_t)dt < sizeof(nccl_dtypes) / sizeof(nccl_dtypes[0]))
		dtype = nccl_dtypes[dt];
	s->coll_lines++;
	see_nranks(s, group_int(p, ov, 7, 10));
	agg_add(s, op, dtype, group_int(p, ov, 3, 10));
}

static void on_warn(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	struct srcpos pos = here(s);

	s->warnings++;
	diag_warn(s->ctx->diags, "nccl-warn", &pos, "nccl: \"%.*s\"",
		  group_len(ov, 1), p + ov[2]);
}

static void on_watchdog(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	struct srcpos pos = here(s);

	s->timeouts++;
	diag_warn(s->ctx->diags, "nccl-timeout", &pos,
		  "collective \"%.*s\" (seq %lld) timed out after %lld ms",
		  group_len(ov, 2), p + ov[4], (long long)group_int(p, ov, 1, 10),
		  (long long)group_int(p, ov, 5, 10));
}

static void on_error(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	struct srcpos pos = here(s);

	s->errors++;
	diag_warn(s->ctx->diags, "nccl-error", &pos, "nccl error: \"%.*s\"",
		  group_len(ov, 1), p + ov[2]);
}

static void on_error_in(struct nccl_log *s, const char *p, const PCRE2_SIZE *ov)
{
	on_error(s, p, ov);
	set_version(s, group_str(s, p, ov, 2), NULL);
}

/* Runs the rules of one scope on p[0..n); true when one matched. */
static bool apply(struct nccl_log *s, enum scope scope, const char *p, size_t n)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
	uint32_t pairs = pcre2_get_ovector_count(s->md);

	for (size_t i = 0; i < NPAT; i++) {
		int rc;

		if (rules[i].scope != scope)
			continue;
		rc = pcre2_match(table.code[i], (PCRE2_SPTR)p, n, 0, 0, s->md, NULL);
		if (rc <= 0)
			continue;
		/* groups past the pattern's own keep an earlier match's offsets */
		for (uint32_t k = (uint32_t)rc; k < pairs; k++)
			ov[2 * k] = ov[2 * k + 1] = PCRE2_UNSET;
		rules[i].fn(s, p, ov);
		return true;
	}
	return false;
}

static void *nccl_open(struct ingest_ctx *ctx)
{
	struct nccl_log *s;

	if (compile_rules() < 0)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->ctx = ctx;
	s->nranks = -1;
	s->nnodes = -1;
	s->md = pcre2_match_data_create(16, NULL);
	if (!s->md) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * Where "NCCL INFO " starts on a line of NCCL's own: after the "[cudaDev] "
 * of its prefix, or first on a line that lost its prefix (not in prose that
 * quotes it); NULL otherwise.
 */
static const char *info_marker(const char *line, size_t len)
{
	static const char info[] = "NCCL INFO ";
	const char *m = memmem(line, len, info, sizeof(info) - 1);
	const char *p = line;

	if (!m)
		return NULL;
	if (m - line >= 2 && m[-2] == ']' && m[-1] == ' ')
		return m;
	while (p < m && (*p == ' ' || *p == '\t'))
		p++;
	return p == m ? m : NULL;
}

static int nccl_line(void *st, const char *line, size_t len, int64_t lineno)
{
	struct nccl_log *s = st;
	const char *msg;

	if (!memmem(line, len, "NCCL", 4) && !memmem(line, len, "nccl", 4))
		return 0;	/* the cheap test that most lines of a training log fail */
	s->lineno = lineno;
	msg = info_marker(line, len);
	if (msg) {
		msg += strlen("NCCL INFO ");
		apply(s, MSG, msg, len - (size_t)(msg - line));
	} else if (!apply(s, LINE, line, len)) {
		return 0;
	}
	s->found = true;
	s->ctx->src->events++;
	/* what lines fill is capped (MAX_COMMS, MAX_AGG ...), but their names are interned */
	return ingest_keep_line(s->ctx, &s->cap, lineno);
}

static void describe_colls(struct nccl_log *s, struct info *nccl)
{
	struct arena *a = s->ctx->arena;
	struct info *arr = info_arr(a, nccl, "collectives");

	for (size_t i = 0; i < s->nagg; i++) {
		const struct coll_agg *g = &s->agg[i];
		struct info *o = info_obj(a, arr, NULL);
		int size = dtype_size(g->dtype);

		info_str(a, o, "op", coll_name(g->op));
		info_str(a, o, "dtype", g->dtype == DT_UNKNOWN ? NULL : dtype_name(g->dtype));
		info_int(a, o, "count", g->count);
		if (size > 0 && g->count <= INT64_MAX / size)	/* else too many to be true */
			info_int(a, o, "bytes", g->count * size);
		else
			info_null(a, o, "bytes");
		info_int(a, o, "calls", g->calls);
	}
	info_int(a, nccl, "coll_lines", s->coll_lines);
}

static void describe_comms(struct nccl_log *s, struct info *nccl)
{
	struct arena *a = s->ctx->arena;
	struct info *arr = info_arr(a, nccl, "comms");

	for (size_t i = 0; i < s->ncomms; i++) {
		const struct comm_rank *c = &s->comms[i];
		struct info *o = info_obj(a, arr, NULL);

		info_int(a, o, "rank", c->rank);
		info_int(a, o, "nranks", c->nranks);
		info_int(a, o, "cuda_dev", c->cuda_dev);
		if (c->nvml_dev >= 0)
			info_int(a, o, "nvml_dev", c->nvml_dev);
		else
			info_null(a, o, "nvml_dev");
		info_str(a, o, "bus_id", c->bus_id);
		info_str(a, o, "comm_id", c->comm_id);
		info_str(a, o, "state", comm_states[c->state].name);
	}
}

/*
 * The NVLink generation and link count that explain NCCL's "+ NVL[bw]"
 * figure: the one generation whose per-link bandwidth divides it into 1 to
 * 18 links; NULL (and *links -1) when none or several do.
 */
static const struct nvlink_gen *nvlink_of(double bw, int *links)
{
	const struct nvlink_gen *found = NULL;

	*links = -1;
	for (size_t i = 0; i < sizeof(nvlink_gens) / sizeof(nvlink_gens[0]); i++) {
		double n = bw / nvlink_gens[i].per_link;
		int k;

		if (!(n >= 0.5 && n < MAX_NVLINKS + 0.5))	/* NaN too: the cast must not overflow */
			continue;
		k = (int)(n + 0.5);
		if (k < 1 || k > MAX_NVLINKS || fabs(bw - k * nvlink_gens[i].per_link) > 0.05)
			continue;
		if (found) {
			*links = -1;
			return NULL;	/* ambiguous */
		}
		found = &nvlink_gens[i];
		*links = k;
	}
	return found;
}

static void describe_nvlink(const struct nccl_log *s, struct info *nccl)
{
	struct arena *a = s->ctx->arena;
	int links;
	const struct nvlink_gen *g = nvlink_of(s->nvl_bw, &links);

	if (s->nvl_bw > 0)
		info_num(a, nccl, "nvlink_bw_gbs", s->nvl_bw);
	else
		info_null(a, nccl, "nvlink_bw_gbs");
	if (g)
		info_int(a, nccl, "nvlinks", links);
	else
		info_null(a, nccl, "nvlinks");
	info_str(a, nccl, "nvlink_gen", g ? g->gen : NULL);
}

/* The NCCL_* settings: an object in inspect, the run's nccl_env facts. */
static void describe_settings(struct nccl_log *s, struct info *nccl)
{
	struct info *o = info_obj(s->ctx->arena, nccl, "settings");
	struct run *r = s->ctx->run;

	for (size_t i = 0; i < s->nsettings; i++) {
		const struct nccl_setting *e = &s->settings[i];
		size_t j;

		info_str(s->ctx->arena, o, e->name, e->value);
		for (j = 0; j < r->nnccl_env && r->nccl_env[j].name != e->name; j++)
			;
		if (j == r->nnccl_env && j < NCCL_MAX_SETTINGS)
			r->nccl_env[r->nnccl_env++] = *e;
	}
}

/* The link: explicit evidence, else "network" when every transport went over one. */
static const char *final_link(const struct nccl_log *s, int64_t *line)
{
	bool net = s->ntransports > 0;

	*line = s->link ? s->link_line : s->transport_line;
	if (s->link)
		return s->link;
	for (size_t i = 0; i < s->ntransports; i++)
		if (s->order[i] != T_NET_IB && s->order[i] != T_NET_SOCKET && s->order[i] != T_NET_OFI)
			net = false;
	return net ? "network" : NULL;
}

static int nccl_finish(void *st)
{
	struct nccl_log *s = st;
	struct arena *a = s->ctx->arena;
	struct info *nccl, *arr;
	const char *link;
	int64_t link_line;
	struct srcpos pos;

	if (!s->found)
		return 0;
	link = final_link(s, &link_line);
	if (link) {
		pos = SRCPOS_LINE(s->ctx->path, link_line);
		fact_set_str(s->ctx->trial, &s->ctx->run->link, link, &pos);
	}
	if (s->nranks > 0) {
		pos = SRCPOS_LINE(s->ctx->path, s->nranks_line);
		fact_set_i64(&s->ctx->run->logged.gpus, s->nranks, &pos);
	}
	nccl = info_obj(a, s->ctx->info, "nccl");
	info_str(a, nccl, "version", s->version);
	info_str(a, nccl, "cuda_build", s->cuda_build);
	info_str(a, nccl, "cuda_driver", s->driver);
	if (s->nranks > 0)
		info_int(a, nccl, "nranks", s->nranks);
	else
		info_null(a, nccl, "nranks");
	if (s->nnodes > 0)
		info_int(a, nccl, "nnodes", s->nnodes);
	else
		info_null(a, nccl, "nnodes");
	describe_comms(s, nccl);
	arr = info_arr(a, nccl, "transports");
	for (size_t i = 0; i < s->ntransports; i++)
		info_str(a, arr, NULL, transport_names[s->order[i]]);
	info_str(a, nccl, "link", link);
	describe_nvlink(s, nccl);
	describe_settings(s, nccl);
	describe_colls(s, nccl);
	info_int(a, nccl, "warnings", s->warnings);
	info_int(a, nccl, "errors", s->errors + s->timeouts);
	info_int(a, nccl, "timeouts", s->timeouts);
	if (s->coll_dropped) {
		pos = SRCPOS_FILE(s->ctx->path);
		diag_warn(s->ctx->diags, "nccl-coll-dropped", &pos,
			  "%lld COLL lines counted but not aggregated: more than %d distinct op, dtype and count",
			  (long long)s->coll_dropped, MAX_AGG);
	}
	return 0;
}

static bool nccl_found(void *st)
{
	return ((struct nccl_log *)st)->found;
}

static void nccl_free(void *st)
{
	struct nccl_log *s = st;

	pcre2_match_data_free(s->md);
	xgrow_free(&s->agg, &s->cap_agg, sizeof(*s->agg));
	free(s->slots);
	xgrow_free(&s->comms, &s->cap_comms, sizeof(*s->comms));
	free(s);
}

const struct reader nccl_log_reader = {
	.name = "nccl-log",
	.input = READ_LINES,
	.open = nccl_open,
	.line = nccl_line,
	.finish = nccl_finish,
	.found = nccl_found,
	.free = nccl_free,
};
