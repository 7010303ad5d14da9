/*
 * kineto_internal: what the two halves of the Kineto trace reader share and
 * nothing else sees. ingest/kineto.c parses the trace into struct kt (the
 * events as read, with the CPU ops and launches kept until the end) and
 * makes the rank of it; ingest/kineto_link.c links each GPU event to its
 * launch, step and CPU op at the end, then frees what only linking needs.
 */
#ifndef INGEST_KINETO_INTERNAL_H
#define INGEST_KINETO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/buf.h"
#include "core/imap.h"
#include "core/model.h"
#include "ingest/jsonfeed.h"
#include "ingest/reader.h"

#define MAX_DEPTH 64		/* deeper containers are skipped whole */
#define MAX_DEVICES 64		/* device ordinals counted when picking the rank's own */
#define UNSET INT64_MIN		/* a timestamp not given */

/*
 * What the parser is inside of. The stack holds one kind per open JSON
 * container; a value is read according to the innermost kind and the key
 * that named it. Anything else is CT_SKIP, and so is all inside it.
 */
enum ctn {
	CT_TOP,		/* before the first value */
	CT_SKIP,	/* not read */
	CT_ROOT,	/* { "traceEvents": ..., "deviceProperties": ... } */
	CT_EVENTS,	/* [ event, ... ] */
	CT_EVENT,	/* { "ph", "cat", "name", "ts", "dur", "args" } */
	CT_ARGS,	/* the event's "args" */
	CT_INTYPES,	/* args "Input type": [ "float", ... ] */
	CT_INDIMS,	/* args "Input Dims": [[4096, 1024], [], ...], kept as compact text */
	CT_CONCRETE,	/* args "Concrete Inputs": [ "", "[2, 2]", "False", ... ] */
	CT_DEVICES,	/* "deviceProperties": [ device, ... ] */
	CT_DEVICE,
	CT_DIST,	/* "distributedInfo" */
	CT_PGCONFIG,	/* its "pg_config": [ group, ... ] */
	CT_PG,		/* { "pg_name", "pg_desc", "pg_size", "ranks" } */
	CT_PGRANKS,	/* the group's "ranks": [ 0, 1, ... ] */
	CT_COUNT
};

enum key {
	K_NONE,
	K_TRACE_EVENTS, K_DEVPROPS, K_DISTINFO, K_BASETIME,
	K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ARGS,
	K_EXTID, K_CORR, K_DEVICE, K_STREAM, K_BYTES, K_INTYPE, K_INDIMS, K_COLLNAME,
	K_INNELEMS, K_OUTNELEMS, K_DTYPE, K_GROUP, K_PGNAME, K_PGID, K_ALLOC, K_RESERVED, K_DEVID, K_DEVTYPE,
	K_ID, K_DNAME, K_MEM, K_CCMAJ, K_CCMIN, K_SMS,
	K_RANK, K_WORLD, K_NCCLVER, K_BACKEND, K_PGCOUNT, K_PGCONFIG,
	K_PGNAME_CFG, K_PGDESC, K_PGSIZE, K_PGRANKS, K_SIZE, K_CONCRETE,
	K_COUNT
};

/* Event categories, both the current names and the 2021 ones. */
enum cat {
	C_OTHER, C_KERNEL, C_MEMCPY, C_MEMSET, C_CPU_OP, C_RUNTIME, C_DRIVER,
	C_USER_ANN, C_GPU_ANN, C_COUNT
};

/* The event being read; numbers are -1 (times UNSET) until given. */
struct pev {
	int64_t ts, dur;	/* ns as written: relative when the trace has a base */
	int64_t pid, tid;	/* a string's trailing number ("stream 7"), else -1 */
	int64_t ext, corr, device, stream, bytes;
	int64_t in_nelems, out_nelems, group;
	int64_t pg_id;		/* "Process Group ID" (April 2024 traces); -1 */
	int64_t alloc, reserved, dev_id, dev_type;
	int64_t size;		/* a ROCm runtime call's "size" (hipMemcpy bytes); -1 */
	char ph;
	uint8_t cat;		/* enum cat */
	bool cat_seen;		/* its "cat" was read (C_OTHER is also "not yet") */
	int64_t byte;		/* offset of the event in the file */
	struct buf name, intype, indims, coll, dtype;
	struct buf pg;		/* "Process Group Name" */
	struct buf concrete;	/* "Concrete Inputs", each value after a ';': ";;[2, 2];False" */
};

struct pdev {
	int64_t id, mem, ccmaj, ccmin, sms;
	struct buf name;
};

/*
 * What a launch takes from its CPU op: the op's name, input types and
 * dims, kept once per distinct triple (a training loop repeats them every
 * step), so that an op holds a 4-byte index instead of three pointers.
 */
struct op_site {
	const char *name;	/* interned */
	const char *input_types;/* interned; NULL */
	const char *input_dims;	/* interned "[[4096,1024],[1024]]"; NULL */
	const char *concrete;	/* interned ";;[2, 2];..." of a convolution or attention op; NULL */
};

/*
 * The lengths of a site's name, input types and dims as read, which are
 * those of its interned strings (no NUL inside, dims not cut); NO_TEXT:
 * not known, the site is not found by its text.
 */
struct site_text {
	uint32_t name, types, dims, concrete;
};

#define NO_TEXT UINT32_MAX

/*
 * A CPU op kept until finish, to be found by external id or time (32
 * bytes; its parent is found while linking, kept beside it then).
 */
struct cpu_op {
	int64_t start, end, ext;
	uint32_t tid;		/* its thread: kt.tids index, in the order of the thread ids */
	uint32_t site;		/* its name, input types and dims: kt.sites index */
};

_Static_assert(sizeof(struct cpu_op) == 32, "struct cpu_op grew");

/* The collective args of a record_param_comms op: kept apart, few ops have them. */
struct op_comm {
	int64_t nelems;		/* message elements; -1 */
	uint32_t op;		/* its op's kt.ops index: in file order, sorted order once linked */
	uint8_t coll, dtype;	/* collective, COLL_NONE; dtype, DT_UNKNOWN */
	uint16_t group;		/* its process group: the trace's own id; 0 */
};

/* A runtime or driver call: where a correlation id was launched from (24 bytes). */
struct launch {
	int64_t ts, ext;
	int64_t dur;		/* ns the call took; 0 unknown */
	uint32_t corr;		/* its correlation id; BIG_CORR: past 32 bits, in kt.big_corr */
	uint32_t tid;		/* as cpu_op's */
};

/* CUPTI's correlation ids are 32-bit: a larger one is kept apart. */
#define BIG_CORR UINT32_MAX

/*
 * A number of a launch that few launches have, kept apart by launch index:
 * the bytes a ROCm hipMemcpy/hipMemset call names ("size"), a correlation
 * id past 32 bits.
 */
struct launch_num {
	size_t launch;		/* its index in kt.launches */
	int64_t v;
};

/* A process group of distributedInfo.pg_config, as read. */
struct pg_read {
	const char *name, *desc;	/* interned; NULL not given */
	int64_t size;		/* "pg_size"; -1 */
	int32_t *ranks;		/* "ranks"; NULL none */
	size_t nranks, cap_ranks;
	bool bad_rank;		/* a rank that is no int32: the list is dropped */
};

struct keyindex;	/* kineto.c: a key table indexed by bucket */
struct keydef;		/* kineto.c: a key of one kind of container */

struct kt {
	struct ingest_ctx *ctx;
	struct keyindex *keys;	/* the key tables of each container kind, indexed; [CT_COUNT]: cats */
	struct imap comm_memo;	/* interned kernel name -> what kname_comm() says of it */
	struct jsonfeed jf;	/* the parser, and where its error lies */
	uint8_t stack[MAX_DEPTH];
	int depth;		/* open containers; past MAX_DEPTH only counted */
	uint8_t cur;		/* the innermost container's kind (top()), kept as they open and close */
	uint8_t nest[CT_COUNT][2][K_COUNT];	/* nesting[] by parent, map, key: the child; 0 none */
	uint8_t key;		/* enum key of the innermost object's current member */
	const struct keydef *kdef;	/* its entry; NULL for K_NONE */
	struct pev ev;
	struct pdev dev;
	int64_t base;		/* baseTimeNanoseconds; UNSET */
	bool bad_base;		/* it was given, but out of range */
	int64_t rank, world, pg_count;	/* distributedInfo; -1 not given */
	const char *nccl_version, *backend;	/* interned; NULL */
	struct pg_read *pgs;	/* pg_config, in file order */
	size_t npgs, cap_pgs;
	bool has_pgs;		/* the trace gives pg_config (perhaps empty) */
	const char **gnames;	/* the events' group names (interned); gpu_event.group - 1 */
	size_t ngnames, cap_gnames;
	struct gpu_event *gev;
	size_t ngev, cap_gev;
	struct cpu_op *ops;
	size_t nops, cap_ops;
	struct op_site *sites;	/* the ops' distinct (name, types, dims) */
	size_t nsites, cap_sites;
	struct imap site_ix;	/* a hash of a site's three pointers -> its index */
	struct site_text *site_text;	/* by site: the lengths of its text as read */
	size_t nsite_text, cap_site_text;
	struct imap site_memo;	/* a hash of a site's text as read -> its index */
	int64_t *tids;		/* the thread ids of ops and launches, first seen first */
	size_t ntids, cap_tids;
	struct imap tid_ix;	/* thread id -> its index in tids */
	uint32_t last_tid;	/* the index tid_of() gave last: ops come in runs of one thread */
	struct op_comm *op_comm;
	size_t ncomm, cap_comm;
	struct launch *launches;
	size_t nlaunch, cap_launch;
	struct launch_num *sizes;	/* by launch index */
	size_t nsizes, cap_sizes;
	struct launch_num *big_corr;	/* correlation ids of BIG_CORR launches, by launch index */
	size_t nbig, cap_big;
	struct step_mark *steps;
	size_t nsteps, cap_steps;
	struct mem_sample *mem;
	size_t nmem, cap_mem;
	struct launch_step *lsteps;	/* rank.lsteps, made by kt_link_events() */
	size_t nlsteps, cap_lsteps;
	struct launch_delay *delays;	/* rank.delays, likewise */
	size_t ndelays, cap_delays;
	struct device_info *devs;
	size_t ndevs, cap_devs;
	bool has_devs;		/* the trace lists its devices (perhaps none) */
	int64_t count[C_COUNT];	/* 'X' events per category */
	int64_t events, errors;
	bool capped;		/* past a limit (ingest_keep()): nothing more is kept */
	int64_t first, last;	/* span of the 'X' events read; UNSET */
	int64_t dev_seen[MAX_DEVICES];	/* GPU events per device ordinal */
};

/* qsort, which must not be given a NULL array even when it is empty. */
static inline void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* -1, 0 or 1 as a is below, equal to or above b. */
static inline int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* kineto.c: ProfilerStep marks by start, then source (a qsort() comparison). */
int kt_cmp_step(const void *pa, const void *pb);

/*
 * kineto.c: a communication kernel's bytes from the elements of its message
 * and its dtype, when the kernel does not say them itself (g->bytes < 0).
 */
void kt_msg_bytes(struct gpu_event *g, int64_t nelems);

/*
 * kineto_link.c: gives every GPU event the step, op and input types of its
 * launch (a communication kernel also the collective and group its op asked
 * for), then frees the ops, launches and their side tables
 * (kt_release_link_arrays()). Called once, after the times are shifted and
 * before the groups are resolved and the events handed to the rank.
 */
void kt_link_events(struct kt *k);

/*
 * kineto_link.c: frees the ops, launches, sites and their side tables and
 * gives their bytes back to the memory budget; safe to call again (the
 * reader's free calls it whether or not linking ran).
 */
void kt_release_link_arrays(struct kt *k);

#endif
