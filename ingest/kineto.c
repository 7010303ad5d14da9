#include "ingest/kineto.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yajl/yajl_parse.h>

#include "core/imap.h"
#include "core/isort.h"
#include "core/kname.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/jsonfeed.h"
#include "ingest/kineto_internal.h"

#define MAX_NAME (64 * 1024)	/* longer names and strings are cut */
/* Bounds that keep base + ts + dur inside int64 (4e18 ns is the year 2096). */
#define MAX_TIME 4000000000000000000LL
#define MAX_DUR 1000000000000000000LL

/* ---- numbers ---- */

static int pow10_mul(uint64_t *v, long times)
{
	for (; times > 0 && *v; times--) {
		if (*v > UINT64_MAX / 10)
			return -1;
		*v *= 10;
	}
	return 0;
}

/* Reads "[-]digits[.digits][e[+-]digits]": significant digits into dig. */
static int split_number(const char *s, size_t n, char *dig, size_t *nd, bool *neg, long *pow)
{
	size_t i = 0, max = *nd;
	long frac = 0, exp = 0;
	bool point = false, any = false, eneg = false;

	*nd = 0;
	*neg = i < n && s[i] == '-';
	i += *neg;
	for (; i < n; i++) {
		if (s[i] == '.' && !point) {
			point = true;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			break;
		any = true;
		frac += point;
		if (*nd == 0 && s[i] == '0')
			continue;	/* leading zero */
		if (*nd == max)
			return -1;
		dig[(*nd)++] = s[i];
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		eneg = i < n && s[i] == '-';
		i += i < n && (s[i] == '-' || s[i] == '+');
		for (; i < n && s[i] >= '0' && s[i] <= '9' && exp < 100000; i++)
			exp = exp * 10 + (s[i] - '0');
	}
	if (!any || i != n)
		return -1;
	*pow = (eneg ? -exp : exp) - frac;
	return 0;
}

/*
 * The number s[0..n) times 10^shift, rounded half away from zero, computed
 * on its digits: exact where a double is not (an epoch in µs with ns digits).
 */
static int dec_scaled(const char *s, size_t n, int shift, int64_t *out)
{
	char dig[40];
	size_t nd = sizeof(dig);
	bool neg;
	long pow;
	long keep;
	uint64_t v = 0;

	if (split_number(s, n, dig, &nd, &neg, &pow) < 0)
		return -1;
	pow += shift;
	keep = pow >= 0 ? (long)nd : (long)nd + pow;
	for (long i = 0; i < keep; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(dig[i] - '0');
	}
	if (pow >= 0 && pow10_mul(&v, pow) < 0)
		return -1;
	if (pow < 0 && keep >= 0 && (size_t)keep < nd && dig[keep] >= '5')
		v++;
	if (v > INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/*
 * The value of the eight ASCII digits at p, or -1 when one is no digit:
 * pairs, then fours, then the eight combined inside one 64-bit word.
 */
static int64_t eight_digits(const char *p)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t v;

	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return -1;	/* the first digit must be the low byte: digit by digit then */
	memcpy(&v, p, 8);
	if ((v & 0xf0 * ones) != 0x30 * ones || ((v + 0x06 * ones) & 0xf0 * ones) != 0x30 * ones)
		return -1;
	v -= 0x30 * ones;				/* first digit in the low byte */
	v = (v * 10 + (v >> 8)) & 0x00ff00ff00ff00ffULL;	/* two-digit values */
	v = (v * 100 + (v >> 16)) & 0x0000ffff0000ffffULL;	/* four-digit values */
	return (int64_t)((v * 10000 + (v >> 32)) & 0xffffffffULL);
}

/*
 * dec_scaled() for the numbers traces are made of, "[-]digits[.digits]"
 * with at most 19 digits kept (epoch microseconds with ns digits), read in
 * one pass; anything else (an exponent, more digits) goes to dec_scaled().
 * The digits past 10^-shift are dropped after rounding on the first of
 * them, as dec_scaled() does, so both give the same value.
 */
static int num_scaled(const char *s, size_t n, int shift, int64_t *out)
{
	size_t i = s[0] == '-', kept = 0;
	uint64_t v = 0;
	int frac = 0;
	bool up = false;

	for (int64_t d; n - i >= 8 && kept + 8 <= 19 && (d = eight_digits(s + i)) >= 0;
	     i += 8, kept += 8)
		v = v * 100000000 + (uint64_t)d;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, kept++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	if (kept == 0 || kept + (size_t)shift > 19)
		return dec_scaled(s, n, shift, out);
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, frac++) {
			if (frac < shift)
				v = v * 10 + (uint64_t)(s[i] - '0');
			else if (frac == shift)
				up = s[i] >= '5';
		}
	if (i != n)
		return dec_scaled(s, n, shift, out);
	for (; frac < shift; frac++)
		v *= 10;
	v += up;
	if (v > INT64_MAX)
		return -1;
	*out = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

int kineto_us_to_ns(const char *s, size_t n, int64_t *ns)
{
	return n ? num_scaled(s, n, 3, ns) : -1;
}

/* The trailing number of a string such as "stream 7"; -1 when none. */
static int64_t trailing_number(const char *s, size_t n)
{
	size_t i = n;
	int64_t v;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == n || n - i > 18 || dec_scaled(s + i, n - i, 0, &v) < 0)
		return -1;
	return v;
}

/* ---- what is read: keys, categories, names ---- */

/*
 * A member of an object: its key and, for numbers, where the value goes
 * (an int64 at `off` in the struct of that container) and its scale: shift 3
 * turns microseconds into nanoseconds. off < 0: not a number we keep.
 */
struct keydef {
	const char *name;
	uint8_t len;		/* strlen(name): a key of another length is passed at once */
	uint8_t key;
	int8_t shift;
	int16_t off;
};

#define NUM(s, k, field, sh) { s, sizeof(s) - 1, k, sh, (int16_t)offsetof(struct pev, field) }
#define DNUM(s, k, field) { s, sizeof(s) - 1, k, 0, (int16_t)offsetof(struct pdev, field) }
#define KEY(s, k) { s, sizeof(s) - 1, k, 0, -1 }

static const struct keydef root_keys[] = {
	KEY("traceEvents", K_TRACE_EVENTS), KEY("deviceProperties", K_DEVPROPS),
	KEY("distributedInfo", K_DISTINFO), KEY("baseTimeNanoseconds", K_BASETIME),
	{ NULL, 0, 0, 0, 0 }
};

static const struct keydef event_keys[] = {
	KEY("ph", K_PH), KEY("cat", K_CAT), KEY("name", K_NAME), KEY("args", K_ARGS),
	NUM("pid", K_PID, pid, 0), NUM("tid", K_TID, tid, 0),
	NUM("ts", K_TS, ts, 3), NUM("dur", K_DUR, dur, 3),
	{ NULL, 0, 0, 0, 0 }
};

/* Compared without case: the 2021 layout writes "external id". */
static const struct keydef arg_keys[] = {
	NUM("External id", K_EXTID, ext, 0), NUM("correlation", K_CORR, corr, 0),
	NUM("device", K_DEVICE, device, 0), NUM("stream", K_STREAM, stream, 0),
	NUM("bytes", K_BYTES, bytes, 0), NUM("size", K_SIZE, size, 0),
	KEY("Input type", K_INTYPE), KEY("Input Dims", K_INDIMS), KEY("Concrete Inputs", K_CONCRETE),
	KEY("Collective name", K_COLLNAME), KEY("dtype", K_DTYPE),
	NUM("In msg nelems", K_INNELEMS, in_nelems, 0),
	NUM("Out msg nelems", K_OUTNELEMS, out_nelems, 0),
	NUM("Group size", K_GROUP, group, 0),
	KEY("Process Group Name", K_PGNAME), NUM("Process Group ID", K_PGID, pg_id, 0),
	NUM("Total Allocated", K_ALLOC, alloc, 0), NUM("Total Reserved", K_RESERVED, reserved, 0),
	NUM("Device Id", K_DEVID, dev_id, 0), NUM("Device Type", K_DEVTYPE, dev_type, 0),
	{ NULL, 0, 0, 0, 0 }
};

static const struct keydef device_keys[] = {
	DNUM("id", K_ID, id), KEY("name", K_DNAME), DNUM("totalGlobalMem", K_MEM, mem),
	DNUM("computeMajor", K_CCMAJ, ccmaj), DNUM("computeMinor", K_CCMIN, ccmin),
	DNUM("numSms", K_SMS, sms),
	{ NULL, 0, 0, 0, 0 }
};

static const struct keydef dist_keys[] = {
	KEY("rank", K_RANK), KEY("world_size", K_WORLD),
	KEY("nccl_version", K_NCCLVER), KEY("backend", K_BACKEND), KEY("pg_count", K_PGCOUNT),
	KEY("pg_config", K_PGCONFIG),
	{ NULL, 0, 0, 0, 0 }
};

/* A pg_config entry; the April 2024 layout has "uid" instead of "pg_desc" (not read). */
static const struct keydef pg_keys[] = {
	KEY("pg_name", K_PGNAME_CFG), KEY("pg_desc", K_PGDESC), KEY("pg_size", K_PGSIZE),
	KEY("ranks", K_PGRANKS),
	{ NULL, 0, 0, 0, 0 }
};

static const struct keydef *const keys_of[CT_COUNT] = {
	[CT_ROOT] = root_keys, [CT_EVENT] = event_keys, [CT_ARGS] = arg_keys,
	[CT_DEVICE] = device_keys, [CT_DIST] = dist_keys, [CT_PG] = pg_keys,
};

/* The keys compared without case: only args, where the 2021 layout differs. */
static const bool keys_fold[CT_COUNT] = { [CT_ARGS] = true };

/* Which container opens where: anything not listed is skipped. */
static const struct {
	uint8_t parent, key;
	bool map;
	uint8_t child;
} nesting[] = {
	{ CT_TOP, K_NONE, true, CT_ROOT },
	{ CT_TOP, K_NONE, false, CT_EVENTS },	/* a bare array of events */
	{ CT_ROOT, K_TRACE_EVENTS, false, CT_EVENTS },
	{ CT_ROOT, K_DEVPROPS, false, CT_DEVICES },
	{ CT_ROOT, K_DISTINFO, true, CT_DIST },
	{ CT_EVENTS, K_NONE, true, CT_EVENT },
	{ CT_EVENT, K_ARGS, true, CT_ARGS },
	{ CT_ARGS, K_INTYPE, false, CT_INTYPES },
	{ CT_ARGS, K_INDIMS, false, CT_INDIMS },
	{ CT_INDIMS, K_NONE, false, CT_INDIMS },	/* one shape per input */
	{ CT_ARGS, K_CONCRETE, false, CT_CONCRETE },
	{ CT_DEVICES, K_NONE, true, CT_DEVICE },
	{ CT_DIST, K_PGCONFIG, false, CT_PGCONFIG },
	{ CT_PGCONFIG, K_NONE, true, CT_PG },
	{ CT_PG, K_PGRANKS, false, CT_PGRANKS },
};

/* Compared without case: the 2021 layout writes "Kernel", "Operator", "Runtime". */
#define CAT(s, c) { s, sizeof(s) - 1, c, 0, -1 }
static const struct keydef cats[] = {
	CAT("kernel", C_KERNEL), CAT("gpu_memcpy", C_MEMCPY), CAT("memcpy", C_MEMCPY),
	CAT("gpu_memset", C_MEMSET), CAT("memset", C_MEMSET),
	CAT("cpu_op", C_CPU_OP), CAT("operator", C_CPU_OP),
	CAT("cuda_runtime", C_RUNTIME), CAT("runtime", C_RUNTIME),
	CAT("cuda_driver", C_DRIVER), CAT("driver", C_DRIVER),
	CAT("user_annotation", C_USER_ANN), CAT("gpu_user_annotation", C_GPU_ANN),
	{ NULL, 0, 0, 0, 0 }
};

/* The `events` counts of inspect, by category. */
static const char *const count_keys[C_COUNT] = {
	[C_KERNEL] = "kernel", [C_MEMCPY] = "gpu_memcpy", [C_MEMSET] = "gpu_memset",
	[C_CPU_OP] = "cpu_op", [C_RUNTIME] = "cuda_runtime", [C_DRIVER] = "cuda_driver",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define KEY_BUCKETS 256		/* a power of two */
#define KEY_SCAN 255		/* a bucket two keys fall in */

/*
 * A key table with the bucket of each entry, built per reader: the entry's
 * index + 1 (0: none; KEY_SCAN) and its length, so that most keys of
 * another name are passed on one load and one compare.
 */
struct keyindex {
	const struct keydef *t;
	bool fold;		/* compared without case */
	struct { uint8_t entry, len; } bucket[KEY_BUCKETS];
};

/* Without case; the first letter rejects most keys before any call. */
static bool word_eq(const char *s, size_t n, const char *word)
{
	if (!n || (s[0] | 0x20) != (word[0] | 0x20))
		return !n && !*word;
	return strlen(word) == n && !strncasecmp(s, word, n);
}

/*
 * The bucket of a key: its length and its first and last bytes, without
 * case. The weights put every key of the event, args, root and category
 * tables in a bucket of its own (searched for), so none of them is looked
 * up by a scan; the rare tables (device, pg_config) may share buckets.
 */
static unsigned key_bucket(const char *s, size_t n)
{
	return (unsigned)(n + (unsigned)(s[0] | 0x20) * 6 + (unsigned)(s[n - 1] | 0x20) * 9) &
	       (KEY_BUCKETS - 1);
}

/*
 * Indexes a table: each bucket names the one entry that falls in it, or
 * KEY_SCAN when two do (then the table is searched).
 */
static void keyindex_build(struct keyindex *x, const struct keydef *t, bool fold)
{
	*x = (struct keyindex){ .t = t, .fold = fold };
	for (size_t i = 0; t && t[i].name; i++) {
		unsigned b = key_bucket(t[i].name, t[i].len);

		x->bucket[b].entry = x->bucket[b].entry ? KEY_SCAN : (uint8_t)(i + 1);
		x->bucket[b].len = t[i].len;	/* a shared bucket is searched whatever the length */
	}
}

/*
 * a[0..n) == b[0..n) for short n, by loads of 8, 4 or 1 bytes that overlap
 * instead of a call: keys are compared ~14 times per event.
 */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	uint32_t p, q, r, t;

	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return false;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		memcpy(&p, a, 4);
		memcpy(&q, b, 4);
		memcpy(&r, a + n - 4, 4);
		memcpy(&t, b + n - 4, 4);
		return p == q && r == t;
	}
	return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/* s[0..n) is d's name; without case where fold, tried after the exact bytes (the usual case). */
static inline bool key_is(const struct keydef *d, const char *s, size_t n, bool fold)
{
	if (d->len != n)
		return false;
	return same_bytes(s, d->name, n) || (fold && !strncasecmp(s, d->name, n));
}

/* The entry named s[0..n) in a bucket that two keys share: the table searched. */
static const struct keydef *keyindex_scan(const struct keyindex *x, const char *s, size_t n)
{
	for (const struct keydef *d = x->t; d->name; d++)
		if (key_is(d, s, n, x->fold))
			return d;
	return NULL;
}

/*
 * The entry named s[0..n): one bucket and one compare, no search of the
 * table (inline: it runs for every key of the input). A kind with no table
 * has every bucket empty.
 */
static inline const struct keydef *keyindex_find(const struct keyindex *x, const char *s,
						 size_t n)
{
	const struct keydef *d;
	unsigned b;

	if (!n)
		return NULL;
	b = key_bucket(s, n);
	if (x->bucket[b].len != n || x->bucket[b].entry == 0)
		return x->bucket[b].entry == KEY_SCAN ? keyindex_scan(x, s, n) : NULL;
	if (x->bucket[b].entry == KEY_SCAN)
		return keyindex_scan(x, s, n);
	d = &x->t[x->bucket[b].entry - 1];
	return same_bytes(s, d->name, n) || (x->fold && !strncasecmp(s, d->name, n)) ? d : NULL;
}

/* ---- the events ---- */

/*
 * buf_reset() and buf_add() for the event's buffers, whose common case
 * (room left, under the ceiling) is inline: they run for most tokens.
 */
static inline void ev_reset(struct buf *b)
{
	b->len = 0;
	b->overflow = false;
	if (b->cap)
		b->data[0] = '\0';
}

static inline void ev_add(struct buf *b, const char *s, size_t n)
{
	if (!b->overflow && n < b->cap - b->len && (!b->max || b->len + n <= b->max)) {
		memcpy(b->data + b->len, s, n);
		b->len += n;
		b->data[b->len] = '\0';
		return;
	}
	buf_add(b, s, n);
}

static void pev_reset(struct pev *e, int64_t byte)
{
	e->ts = e->dur = UNSET;
	e->pid = e->tid = e->ext = e->corr = e->device = e->stream = e->bytes = -1;
	e->in_nelems = e->out_nelems = e->group = e->pg_id = -1;
	e->alloc = e->reserved = e->dev_id = e->dev_type = e->size = -1;
	e->ph = 0;
	e->cat = C_OTHER;
	e->cat_seen = false;
	e->byte = byte;
	ev_reset(&e->name);
	ev_reset(&e->intype);
	ev_reset(&e->indims);
	ev_reset(&e->coll);
	ev_reset(&e->dtype);
	ev_reset(&e->pg);
	ev_reset(&e->concrete);
}

static const char *intern_buf(struct kt *k, const struct buf *b)
{
	return b->len ? intern(&k->ctx->trial->strings, b->data, b->len) : NULL;
}

/* xgrow() for one element more than n, its common case (room left) inline. */
static inline void grow1(void *pp, size_t *cap, size_t n, size_t size)
{
	if (n >= *cap)
		xgrow(pp, cap, n + 1, size);
}

static int32_t clamp32(int64_t v)
{
	return v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
}

static int16_t clamp16(int64_t v)
{
	return v < 0 || v > INT16_MAX ? -1 : (int16_t)v;
}

/* The trace's own id (1, 2, ...) of the group named s[0..n); 0 past 65535. */
static uint16_t local_group(struct kt *k, const char *s, size_t n)
{
	const char *name = intern(&k->ctx->trial->strings, s, n);

	for (size_t i = 0; i < k->ngnames; i++)
		if (k->gnames[i] == name)
			return (uint16_t)(i + 1);
	if (k->ngnames >= UINT16_MAX)
		return 0;
	xgrow(&k->gnames, &k->cap_gnames, k->ngnames + 1, sizeof(*k->gnames));
	k->gnames[k->ngnames++] = name;
	return (uint16_t)k->ngnames;
}

/*
 * The event's process group: its "Process Group Name", else its numeric
 * "Process Group ID" written the same way ("0"), so both layouts agree.
 * The id is the trace's own until finish() makes it the trial's.
 */
static uint16_t group_of(struct kt *k, const struct pev *e)
{
	char num[24];
	int n;

	if (e->pg.len)
		return local_group(k, e->pg.data, e->pg.len);
	if (e->pg_id < 0)
		return 0;
	n = snprintf(num, sizeof(num), "%lld", (long long)e->pg_id);
	return local_group(k, num, (size_t)n);
}

/*
 * kname_comm() of an interned kernel name, asked once per distinct name
 * (its strstr() of each token was 7% of a trace's reading when asked per
 * event): the answer is kept as comm << 16 | coll << 8 | dtype.
 */
static bool comm_of(struct kt *k, const char *name, struct kname_comm *c)
{
	int64_t key = (int64_t)(intptr_t)name;
	uint32_t v;

	if (!name)
		return kname_comm(name, c);
	if (!imap_get(&k->comm_memo, key, &v)) {
		bool comm = kname_comm(name, c);

		v = comm ? 1u << 16 | (uint32_t)c->coll << 8 | (uint32_t)c->dtype : 0;
		imap_put(&k->comm_memo, key, v);
	}
	c->coll = (enum coll_op)(v >> 8 & 0xff);
	c->dtype = (enum dtype)(v & 0xff);
	return v >> 16;
}

/* Communication kernels: collective and dtype from the name, then the args. */
static void classify_kernel(struct kt *k, struct gpu_event *g, const struct pev *e)
{
	struct kname_comm c;
	bool comm = comm_of(k, g->name, &c);

	kname_classify_as(g, comm, &c);
	if (e->coll.len) {
		enum coll_op said = kname_coll_of_text(e->coll.data, e->coll.len);

		g->cls = EVC_COMM;
		if (g->coll == COLL_NONE || (said == COLL_ALLTOALL && g->coll == COLL_SENDRECV))
			g->coll = said;	/* all-to-all runs as SendRecv kernels */
	}
	if (g->cls == EVC_COMM && e->dtype.len)	/* the tensor's: broadcasts run as int8 */
		g->dtype = dtype_parse(e->dtype.data, e->dtype.len);
}

static int64_t msg_elems(const struct pev *e)
{
	return e->in_nelems > e->out_nelems ? e->in_nelems : e->out_nelems;
}

void kt_msg_bytes(struct gpu_event *g, int64_t nelems)
{
	int size = dtype_size((enum dtype)g->dtype);

	if (g->bytes < 0 && nelems >= 0 && size > 0 && nelems <= INT64_MAX / size)
		g->bytes = nelems * size;
}

/* "ProfilerStep#12" gives 12; -1 for any other name. */
static int64_t step_number(const struct buf *name)
{
	static const char prefix[] = "ProfilerStep#";
	size_t n = sizeof(prefix) - 1;
	int64_t v;

	if (name->len <= n || memcmp(name->data, prefix, n))
		return -1;
	for (size_t i = n; i < name->len; i++)
		if (name->data[i] < '0' || name->data[i] > '9')
			return -1;
	if (name->len - n > 18 || dec_scaled(name->data + n, name->len - n, 0, &v) < 0)
		return -1;
	return v;
}

static void add_step(struct kt *k, struct pev *e, enum step_source src)
{
	int64_t n = step_number(&e->name);

	if (n < 0)
		return;
	xgrow(&k->steps, &k->cap_steps, k->nsteps + 1, sizeof(*k->steps));
	k->steps[k->nsteps++] = (struct step_mark){
		.number = n, .start = e->ts, .end = e->ts + (e->dur > 0 ? e->dur : 0),
		.source = (uint8_t)src,
	};
}

static void on_gpu_work(struct kt *k, struct pev *e)
{
	static const uint8_t kind_of[C_COUNT] = {
		[C_KERNEL] = EV_KERNEL, [C_MEMCPY] = EV_MEMCPY, [C_MEMSET] = EV_MEMSET,
	};
	struct gpu_event *g;
	int64_t device = e->device >= 0 ? e->device : e->pid;

	grow1(&k->gev, &k->cap_gev, k->ngev, sizeof(*k->gev));
	g = &k->gev[k->ngev++];
	*g = (struct gpu_event){
		.start = e->ts, .end = e->ts + (e->dur > 0 ? e->dur : 0),
		.name = intern_buf(k, &e->name), .correlation = e->corr, .bytes = -1,
		.stream = clamp32(e->stream >= 0 ? e->stream : e->tid),
		.device = clamp16(device), .step = -1, .kind = kind_of[e->cat],
		.cls = EVC_MEMORY, .dtype = DT_UNKNOWN, .coll = COLL_NONE,
	};
	if (device >= 0 && device < MAX_DEVICES)
		k->dev_seen[device]++;
	if (e->cat != C_KERNEL) {
		g->bytes = e->bytes;
		return;
	}
	g->cls = EVC_COMPUTE;
	classify_kernel(k, g, e);
	if (g->cls == EVC_COMM) {
		kt_msg_bytes(g, msg_elems(e));
		g->group = group_of(k, e);
	}
}

/* The 64-bit hash of a site's pointers (interned: equal strings, equal pointers). */
static uint64_t site_hash(const struct op_site *s)
{
	uint64_t h = (uint64_t)(uintptr_t)s->name * 0x9e3779b97f4a7c15ULL;

	h = (h ^ (h >> 29) ^ (uint64_t)(uintptr_t)s->input_types) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 31) ^ (uint64_t)(uintptr_t)s->input_dims) * 0x94d049bb133111ebULL;
	h = (h ^ (h >> 29) ^ (uint64_t)(uintptr_t)s->concrete) * 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

/*
 * The index of site s in kt.sites, added when new. Two sites whose hashes
 * meet are told apart by probing the next key (the map keeps the first).
 */
static uint32_t site_of(struct kt *k, const struct op_site *s)
{
	uint32_t i;

	for (uint64_t h = site_hash(s);; h += 2) {
		int64_t key = (int64_t)(h >> 1);	/* the next key each time; never INT64_MIN */
		const struct op_site *o;

		if (!imap_get(&k->site_ix, key, &i)) {
			xgrow(&k->sites, &k->cap_sites, k->nsites + 1, sizeof(*k->sites));
			k->sites[k->nsites] = *s;
			imap_put(&k->site_ix, key, (uint32_t)k->nsites);
			return (uint32_t)k->nsites++;
		}
		o = &k->sites[i];
		if (o->name == s->name && o->input_types == s->input_types &&
		    o->input_dims == s->input_dims && o->concrete == s->concrete)
			return i;
	}
}

/* The key of an op's site text as read in site_memo: its three hashes, mixed; never INT64_MIN. */
static int64_t site_text_key(const struct pev *e)
{
	uint64_t h = intern_hash(e->name.data, e->name.len);

	h = h * 0x9e3779b97f4a7c15ULL ^ intern_hash(e->intype.data, e->intype.len);
	h = h * 0x9e3779b97f4a7c15ULL ^ intern_hash(e->indims.data, e->indims.len);
	h = h * 0x9e3779b97f4a7c15ULL ^ intern_hash(e->concrete.data, e->concrete.len);
	return (int64_t)((h ^ (h >> 31)) >> 1);
}

/* An interned string (NULL: empty) of known length is the text b. */
static bool same_text(const char *interned, uint32_t len, const struct buf *b)
{
	return len == b->len && (!len || !memcmp(interned, b->data, len));
}

/* Records the lengths of site i's text as read, where its strings are that text. */
static void note_site_text(struct kt *k, uint32_t i, const struct pev *e)
{
	const struct buf *b[] = { &e->name, &e->intype, &e->indims, &e->concrete };

	xgrow(&k->site_text, &k->cap_site_text, k->nsites, sizeof(*k->site_text));
	for (; k->nsite_text < k->nsites; k->nsite_text++)
		k->site_text[k->nsite_text] = (struct site_text){ NO_TEXT, NO_TEXT, NO_TEXT, NO_TEXT };
	for (size_t j = 0; j < ARRAY_SIZE(b); j++)
		if (b[j]->len >= NO_TEXT || memchr(b[j]->data, '\0', b[j]->len))
			return;	/* interned cut at the NUL: not the text */
	k->site_text[i] = (struct site_text){ (uint32_t)e->name.len, (uint32_t)e->intype.len,
					      (uint32_t)e->indims.len, (uint32_t)e->concrete.len };
}

/*
 * The site of an op: found by the text of its name, input types and dims
 * as read (a training loop repeats a few dozen, so an op costs one hash of
 * its text and a compare instead of three interns and a lookup), else
 * interned and added by site_of(). A site whose text is not known, or two
 * texts whose keys meet, go the long way: the same index either way.
 */
static uint32_t site_of_op(struct kt *k, const struct pev *e)
{
	int64_t key = site_text_key(e);
	const struct site_text *t;
	struct op_site site;
	uint32_t i;

	if (!e->indims.overflow && imap_get(&k->site_memo, key, &i)) {
		t = &k->site_text[i];
		if (same_text(k->sites[i].name, t->name, &e->name) &&
		    same_text(k->sites[i].input_types, t->types, &e->intype) &&
		    same_text(k->sites[i].input_dims, t->dims, &e->indims) &&
		    same_text(k->sites[i].concrete, t->concrete, &e->concrete))
			return i;
	}
	site = (struct op_site){
		.name = intern_buf(k, &e->name), .input_types = intern_buf(k, &e->intype),
		.input_dims = e->indims.overflow ? NULL : intern_buf(k, &e->indims),
		.concrete = intern_buf(k, &e->concrete),
	};
	i = site_of(k, &site);
	if (e->indims.overflow)
		return i;
	note_site_text(k, i, e);
	if (k->site_text[i].name != NO_TEXT)
		imap_put(&k->site_memo, key, i);
	return i;
}

/*
 * The index of thread id tid in kt.tids, added when new: 4 bytes in each op
 * and launch instead of 8. tids_in_order() makes the order of the indices
 * that of the ids before the ops are sorted by them.
 */
static uint32_t tid_of(struct kt *k, int64_t tid)
{
	uint32_t i;

	if (k->ntids && k->tids[k->last_tid] == tid)
		return k->last_tid;
	if (imap_get(&k->tid_ix, tid, &i))
		return k->last_tid = i;
	xgrow(&k->tids, &k->cap_tids, k->ntids + 1, sizeof(*k->tids));
	k->tids[k->ntids] = tid;
	imap_put(&k->tid_ix, tid, (uint32_t)k->ntids);
	k->last_tid = (uint32_t)k->ntids;
	return (uint32_t)k->ntids++;
}

static void on_cpu_op(struct kt *k, struct pev *e)
{
	struct cpu_op *o;

	if (step_number(&e->name) >= 0) {	/* the 2021 layout's "Operator" steps */
		add_step(k, e, STEP_CPU_ANNOTATION);
		return;
	}
	if (k->nsites >= UINT32_MAX || k->ntids >= UINT32_MAX)
		return;
	grow1(&k->ops, &k->cap_ops, k->nops, sizeof(*k->ops));
	o = &k->ops[k->nops++];
	*o = (struct cpu_op){
		.start = e->ts, .end = e->ts + (e->dur > 0 ? e->dur : 0), .tid = tid_of(k, e->tid),
		.ext = e->ext, .site = site_of_op(k, e),
	};
	if (!e->coll.len || k->ncomm >= INT32_MAX)
		return;
	xgrow(&k->op_comm, &k->cap_comm, k->ncomm + 1, sizeof(*k->op_comm));
	k->op_comm[k->ncomm] = (struct op_comm){
		.nelems = msg_elems(e), .coll = kname_coll_of_text(e->coll.data, e->coll.len),
		.dtype = dtype_parse(e->dtype.data, e->dtype.len), .group = group_of(k, e),
	};
	k->op_comm[k->ncomm++].op = (uint32_t)(k->nops - 1);
}

static void on_launch(struct kt *k, struct pev *e)
{
	if (e->corr < 0 || k->ntids >= UINT32_MAX)
		return;
	grow1(&k->launches, &k->cap_launch, k->nlaunch, sizeof(*k->launches));
	if (e->size >= 0) {
		xgrow(&k->sizes, &k->cap_sizes, k->nsizes + 1, sizeof(*k->sizes));
		k->sizes[k->nsizes++] = (struct launch_num){ .launch = k->nlaunch, .v = e->size };
	}
	if (e->corr >= BIG_CORR) {
		xgrow(&k->big_corr, &k->cap_big, k->nbig + 1, sizeof(*k->big_corr));
		k->big_corr[k->nbig++] = (struct launch_num){ .launch = k->nlaunch, .v = e->corr };
	}
	k->launches[k->nlaunch++] = (struct launch){
		.ts = e->ts, .tid = tid_of(k, e->tid), .ext = e->ext, .dur = e->dur > 0 ? e->dur : 0,
		.corr = e->corr >= BIG_CORR ? BIG_CORR : (uint32_t)e->corr,
	};
}

static void on_user_ann(struct kt *k, struct pev *e)
{
	add_step(k, e, STEP_CPU_ANNOTATION);
}

static void on_gpu_ann(struct kt *k, struct pev *e)
{
	add_step(k, e, STEP_GPU_ANNOTATION);
}

/* [memory] instants: the caching allocator's totals on a GPU (type 0 is the CPU). */
static void on_memory(struct kt *k, struct pev *e)
{
	if (e->dev_type == 0 || e->dev_id < 0 || e->ts < -MAX_TIME || e->ts > MAX_TIME)
		return;
	if (e->alloc < 0 && e->reserved < 0)
		return;
	xgrow(&k->mem, &k->cap_mem, k->nmem + 1, sizeof(*k->mem));
	k->mem[k->nmem++] = (struct mem_sample){
		.ts = e->ts, .allocated = e->alloc, .reserved = e->reserved,
		.device = clamp32(e->dev_id),
	};
}

static void (*const on_cat[C_COUNT])(struct kt *, struct pev *) = {
	[C_KERNEL] = on_gpu_work, [C_MEMCPY] = on_gpu_work, [C_MEMSET] = on_gpu_work,
	[C_CPU_OP] = on_cpu_op, [C_RUNTIME] = on_launch, [C_DRIVER] = on_launch,
	[C_USER_ANN] = on_user_ann, [C_GPU_ANN] = on_gpu_ann,
};

static void event_done(struct kt *k)
{
	struct pev *e = &k->ev;
	struct srcpos pos;

	pos = SRCPOS_BYTE(k->ctx->path, e->byte);
	if (!ingest_keep(k->ctx, &k->events, &k->capped, &pos))
		return;
	if ((e->ph == 'i' || e->ph == 'I') && word_eq(e->name.data, e->name.len, "[memory]")) {
		on_memory(k, e);
		return;
	}
	if (e->ph != 'X' || e->cat == C_OTHER)
		return;
	if (e->dur == UNSET)
		e->dur = 0;
	if (e->ts < -MAX_TIME || e->ts > MAX_TIME || e->dur < 0 || e->dur > MAX_DUR) {
		k->errors++;
		pos = SRCPOS_BYTE(k->ctx->path, e->byte);
		diag_warn(k->ctx->diags, "bad-event", &pos, "event \"%s\" has no usable \"%s\": "
			  "skipped", e->name.data, e->dur < 0 || e->dur > MAX_DUR ? "dur" : "ts");
		return;
	}
	k->count[e->cat]++;
	if (k->first == UNSET || e->ts < k->first)
		k->first = e->ts;
	if (k->last == UNSET || e->ts + e->dur > k->last)
		k->last = e->ts + e->dur;
	on_cat[e->cat](k, e);
}

static void device_done(struct kt *k)
{
	struct pdev *d = &k->dev;
	struct device_info *i;

	xgrow(&k->devs, &k->cap_devs, k->ndevs + 1, sizeof(*k->devs));
	i = &k->devs[k->ndevs++];
	*i = (struct device_info){
		.index = clamp32(d->id), .name = intern_buf(k, &d->name),
		.memory_total = d->mem, .cc_major = clamp32(d->ccmaj),
		.cc_minor = clamp32(d->ccmin), .num_sms = clamp32(d->sms),
	};
}

/* ---- yajl callbacks ---- */

/* The kind of the innermost open container, from the stack: kept in kt.cur. */
static uint8_t stack_top(const struct kt *k)
{
	if (k->depth == 0)
		return CT_TOP;
	return k->depth > MAX_DEPTH ? CT_SKIP : k->stack[k->depth - 1];
}

/* The kind of the innermost open container (asked at every token). */
static uint8_t top(const struct kt *k)
{
	return k->cur;
}

static int64_t here(const struct kt *k)
{
	return jsonfeed_here(&k->jf);
}

/* Notes where the last good token ended, so that an error can name the next. */
static void mark(struct kt *k)
{
	jsonfeed_mark(&k->jf);
}

static void *target_of(struct kt *k, uint8_t kind)
{
	if (kind == CT_EVENT || kind == CT_ARGS)
		return &k->ev;
	return kind == CT_DEVICE ? (void *)&k->dev : NULL;
}

static void dist_number(struct kt *k, const char *s, size_t n)
{
	int64_t v;

	if (dec_scaled(s, n, 0, &v) < 0)
		return;
	if (k->key == K_RANK)
		k->rank = v;
	else if (k->key == K_WORLD)
		k->world = v;
	else if (k->key == K_PGCOUNT)
		k->pg_count = v;
}

/* A rank or world size past MODEL_MAX_WORLD (or negative) is taken as unknown, with a warning. */
static void check_world(struct kt *k, const struct srcpos *pos)
{
	if (k->world < -1 || k->world > MODEL_MAX_WORLD) {
		diag_warn(k->ctx->diags, "implausible-world", pos,
			  "\"world_size\" %lld is out of range (at most %d ranks): "
			  "taken as unknown", (long long)k->world, MODEL_MAX_WORLD);
		k->world = -1;
	}
	if (k->rank < -1 || k->rank >= MODEL_MAX_WORLD) {
		diag_warn(k->ctx->diags, "implausible-world", pos,
			  "\"rank\" %lld is out of range (at most %d ranks): "
			  "taken as unknown", (long long)k->rank, MODEL_MAX_WORLD);
		k->rank = -1;
	}
}

/* The pg_config entry being read: the last one opened. */
static struct pg_read *cur_pg(struct kt *k)
{
	assert(k->npgs > 0);
	return &k->pgs[k->npgs - 1];
}

/* A number inside a pg_config entry: its size, a rank, or a numeric name. */
static void pg_number(struct kt *k, const char *s, size_t n)
{
	struct pg_read *g = cur_pg(k);
	int64_t v;

	if (top(k) == CT_PG && k->key == K_PGNAME_CFG) {
		g->name = intern(&k->ctx->trial->strings, s, n);
		return;
	}
	if (dec_scaled(s, n, 0, &v) < 0)
		v = -1;
	if (top(k) == CT_PG && k->key == K_PGSIZE) {
		g->size = v >= 0 && v <= INT32_MAX ? v : -1;
		return;
	}
	if (top(k) != CT_PGRANKS)
		return;
	if (v < 0 || v > INT32_MAX) {
		g->bad_rank = true;
		return;
	}
	xgrow(&g->ranks, &g->cap_ranks, g->nranks + 1, sizeof(*g->ranks));
	g->ranks[g->nranks++] = (int32_t)v;
}

static void base_number(struct kt *k, const char *s, size_t n)
{
	int64_t v;

	if (dec_scaled(s, n, 0, &v) == 0 && v >= 0 && v <= MAX_TIME) {
		k->base = v;
		return;
	}
	k->base = UNSET;
	k->bad_base = true;
}

/* Appends one element of "Input Dims" (a number, or '[' opening a shape), comma-separated. */
static void add_dims(struct kt *k, const char *s, size_t n)
{
	struct buf *b = &k->ev.indims;

	if (b->len && b->data[b->len - 1] != '[')
		ev_add(b, ",", 1);
	ev_add(b, s, n);
}

static bool args_unused(const struct pev *e);
static bool number_used(const struct pev *e, uint8_t key);

static int cb_number(void *ctx, const char *s, size_t n)
{
	struct kt *k = ctx;
	const struct keydef *d = k->kdef;
	uint8_t kind = top(k);
	void *t = target_of(k, kind);
	int64_t v;

	mark(k);
	if (t) {	/* an event's or a device's member: the common case */
		if (d && d->off >= 0 && (t != &k->ev || number_used(&k->ev, d->key)) &&
		    num_scaled(s, n, d->shift, &v) == 0)
			*(int64_t *)(void *)((char *)t + d->off) = v;
		return 1;
	}
	if (kind == CT_INDIMS)
		add_dims(k, s, n);
	else if (kind == CT_ROOT && k->key == K_BASETIME)
		base_number(k, s, n);
	else if (kind == CT_DIST)
		dist_number(k, s, n);
	else if (kind == CT_PG || kind == CT_PGRANKS)
		pg_number(k, s, n);
	return 1;
}

static void set_buf(struct buf *b, const char *s, size_t n)
{
	ev_reset(b);
	ev_add(b, s, n > MAX_NAME ? MAX_NAME : n);
}

static void event_string(struct kt *k, const char *s, size_t n)
{
	struct pev *e = &k->ev;
	const struct keydef *c;

	switch (k->key) {
	case K_PH:
		e->ph = n ? s[0] : 0;
		break;
	case K_CAT:
		c = keyindex_find(&k->keys[CT_COUNT], s, n);
		if (c)
			e->cat = c->key;
		e->cat_seen = true;
		break;
	case K_NAME:
		if (!args_unused(e))
			set_buf(&e->name, s, n);
		break;
	case K_PID:
		if (number_used(e, K_PID))
			e->pid = trailing_number(s, n);
		break;
	case K_TID:
		if (number_used(e, K_TID))
			e->tid = trailing_number(s, n);
		break;
	}
}

static void add_input_type(struct kt *k, const char *s, size_t n)
{
	struct buf *b = &k->ev.intype;

	if (!n || b->len + n + 2 > MAX_NAME)
		return;
	if (b->len)
		ev_add(b, ", ", 2);
	ev_add(b, s, n);
}

/*
 * Appends one value of "Concrete Inputs" after a ';'. Kept for the ops
 * whose FLOPs depend on them (a convolution's stride, padding, dilation and
 * groups; attention's is_causal): any other op keeps one site per shape.
 */
static void add_concrete(struct kt *k, const char *s, size_t n)
{
	struct buf *b = &k->ev.concrete;
	const struct buf *name = &k->ev.name;

	if (!memmem(name->data, name->len, "conv", 4) && !memmem(name->data, name->len, "attention", 9))
		return;
	if (b->len + n + 1 > MAX_NAME || memchr(s, ';', n))
		return;
	ev_add(b, ";", 1);
	ev_add(b, s, n);
}

static void args_string(struct kt *k, const char *s, size_t n)
{
	int64_t v;

	if ((k->key == K_SIZE || k->key == K_BYTES) && dec_scaled(s, n, 0, &v) == 0)
		*(k->key == K_SIZE ? &k->ev.size : &k->ev.bytes) = v;	/* ROCm: "size": "2560" */
	else if (k->key == K_COLLNAME)
		set_buf(&k->ev.coll, s, n);
	else if (k->key == K_DTYPE)
		set_buf(&k->ev.dtype, s, n);
	else if (k->key == K_PGNAME)
		set_buf(&k->ev.pg, s, n);
	else if (k->key == K_INTYPE)
		add_input_type(k, s, n);
}

static void dist_string(struct kt *k, const char *s, size_t n)
{
	struct intern *strings = &k->ctx->trial->strings;

	if (k->key == K_NCCLVER)
		k->nccl_version = intern(strings, s, n);
	else if (k->key == K_BACKEND)
		k->backend = intern(strings, s, n);
}

static int cb_string(void *ctx, const unsigned char *us, size_t n)
{
	struct kt *k = ctx;
	const char *s = (const char *)us;

	mark(k);
	switch (top(k)) {
	case CT_EVENT:
		event_string(k, s, n);
		break;
	case CT_ARGS:
		args_string(k, s, n);
		break;
	case CT_INTYPES:
		add_input_type(k, s, n);
		break;
	case CT_CONCRETE:
		add_concrete(k, s, n);
		break;
	case CT_DEVICE:
		if (k->key == K_DNAME)
			set_buf(&k->dev.name, s, n);
		break;
	case CT_DIST:
		dist_string(k, s, n);
		break;
	case CT_PG:
		if (k->key == K_PGNAME_CFG || k->key == K_PGDESC)
			*(k->key == K_PGNAME_CFG ? &cur_pg(k)->name : &cur_pg(k)->desc) =
				intern(&k->ctx->trial->strings, s, n);
		break;
	}
	return 1;
}

static int cb_other(void *ctx)
{
	mark(ctx);
	return 1;
}

static int cb_bool(void *ctx, int b)
{
	(void)b;
	return cb_other(ctx);
}

static int cb_key(void *ctx, const unsigned char *s, size_t n)
{
	struct kt *k = ctx;
	uint8_t kind = top(k);

	mark(k);
	k->kdef = keyindex_find(&k->keys[kind], (const char *)s, n);
	k->key = k->kdef ? k->kdef->key : K_NONE;
	return 1;
}

/*
 * Whether the args of the event read so far can matter: event_done() uses
 * them only for complete events ('X') of a category read and for instants
 * ([memory]). Kineto writes "ph" and "cat" before "args", so flows,
 * metadata and python_function events have theirs skipped unread; when
 * args come first, nothing is known yet and they are read.
 */
static bool args_unused(const struct pev *e)
{
	if (e->ph == 'X')
		return e->cat_seen && e->cat == C_OTHER;
	return e->ph && e->ph != 'i' && e->ph != 'I';
}

#define KB(k) (1ULL << (k))
#define GPU_WORK_NUMBERS (KB(K_TS) | KB(K_DUR) | KB(K_PID) | KB(K_TID) | KB(K_CORR) | \
			  KB(K_DEVICE) | KB(K_STREAM) | KB(K_BYTES) | KB(K_INNELEMS) | \
			  KB(K_OUTNELEMS) | KB(K_PGID))
#define LAUNCH_NUMBERS (KB(K_TS) | KB(K_DUR) | KB(K_TID) | KB(K_EXTID) | KB(K_CORR) | KB(K_SIZE))
_Static_assert(K_COUNT <= 64, "a key is a bit of a 64-bit mask");

/*
 * The numbers each category's handler (on_cat[], and event_done() before
 * it) reads, as bits of enum key: a complete event's other numbers are not
 * parsed once its category is known.
 */
static const uint64_t used_numbers[C_COUNT] = {
	[C_KERNEL] = GPU_WORK_NUMBERS, [C_MEMCPY] = GPU_WORK_NUMBERS,
	[C_MEMSET] = GPU_WORK_NUMBERS,
	[C_CPU_OP] = KB(K_TS) | KB(K_DUR) | KB(K_TID) | KB(K_EXTID) | KB(K_INNELEMS) |
		     KB(K_OUTNELEMS) | KB(K_PGID),
	[C_RUNTIME] = LAUNCH_NUMBERS, [C_DRIVER] = LAUNCH_NUMBERS,
	[C_USER_ANN] = KB(K_TS) | KB(K_DUR), [C_GPU_ANN] = KB(K_TS) | KB(K_DUR),
};

/*
 * Whether the event's number under key can matter, from what was read of
 * it so far ("ph" and "cat" come first in Kineto's events): as for its
 * args, nothing of an event whose "ph" or "cat" says it is not read, and
 * of a complete event only what its category's handler reads. Unknown
 * yet: it is read.
 */
static inline bool number_used(const struct pev *e, uint8_t key)
{
	if (e->ph == 'X' && e->cat_seen)
		return used_numbers[e->cat] >> key & 1;
	return !args_unused(e);
}

/*
 * Indexes nesting[] by parent, map and key, so that a container's kind is
 * one load: the first entry that matches wins, as in a search of the table
 * (K_NONE there matches any key).
 */
static void nest_build(uint8_t nest[CT_COUNT][2][K_COUNT])
{
	for (size_t i = ARRAY_SIZE(nesting); i-- > 0;)
		for (int key = 0; key < K_COUNT; key++)
			if (nesting[i].key == K_NONE || nesting[i].key == key)
				nest[nesting[i].parent][nesting[i].map][key] = nesting[i].child;
}

/* The kind of a container opening in parent under the current key. */
static uint8_t child_of(const struct kt *k, uint8_t parent, bool map)
{
	uint8_t child = k->nest[parent][map][k->key];

	if (child == CT_ARGS && args_unused(&k->ev))
		return CT_SKIP;
	return child ? child : CT_SKIP;
}

static void push(struct kt *k, bool map)
{
	/* past MAX_DEPTH a container is skipped whole: its kind has no slot to close by */
	uint8_t child = k->depth >= MAX_DEPTH ? CT_SKIP : child_of(k, top(k), map);
	k->has_devs |= child == CT_DEVICES;
	k->has_pgs |= child == CT_PGCONFIG;
	if (child == CT_PG) {
		xgrow(&k->pgs, &k->cap_pgs, k->npgs + 1, sizeof(*k->pgs));
		k->pgs[k->npgs++] = (struct pg_read){ .size = -1 };
	}
	if (child == CT_INDIMS)
		add_dims(k, "[", 1);
	if (k->depth < MAX_DEPTH)
		k->stack[k->depth] = child;
	k->depth++;
	k->cur = stack_top(k);
	k->key = K_NONE;
	k->kdef = NULL;
	if (child == CT_EVENT)
		pev_reset(&k->ev, here(k) - 1);
	else if (child == CT_DEVICE)
		k->dev = (struct pdev){ .id = -1, .mem = -1, .ccmaj = -1, .ccmin = -1,
					.sms = -1, .name = k->dev.name };
	if (child == CT_DEVICE)
		buf_reset(&k->dev.name);
}

static void pop(struct kt *k)
{
	uint8_t kind = top(k);

	k->depth--;
	k->cur = stack_top(k);
	k->key = K_NONE;
	k->kdef = NULL;
	if (kind == CT_INDIMS)
		ev_add(&k->ev.indims, "]", 1);
	if (kind == CT_EVENT)
		event_done(k);
	else if (kind == CT_DEVICE)
		device_done(k);
}

static int cb_start_map(void *ctx)
{
	mark(ctx);
	push(ctx, true);
	return 1;
}

static int cb_start_array(void *ctx)
{
	mark(ctx);
	push(ctx, false);
	return 1;
}

static int cb_end(void *ctx)
{
	mark(ctx);
	pop(ctx);
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_other,
	.yajl_boolean = cb_bool,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_key,
	.yajl_end_map = cb_end,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end,
};

/* ---- the reader ---- */

static void *kt_open(struct ingest_ctx *ctx)
{
	struct kt *k = xcalloc(1, sizeof(*k));

	k->ctx = ctx;
	if (jsonfeed_init(&k->jf, &callbacks, k) < 0) {
		free(k);
		return NULL;
	}
	k->keys = xmalloc((CT_COUNT + 1) * sizeof(*k->keys));
	for (int i = 0; i < CT_COUNT; i++)
		keyindex_build(&k->keys[i], keys_of[i], keys_fold[i]);
	keyindex_build(&k->keys[CT_COUNT], cats, true);
	nest_build(k->nest);
	k->base = k->first = k->last = UNSET;
	k->rank = k->world = k->pg_count = -1;
	buf_init(&k->ev.name, MAX_NAME);
	buf_init(&k->ev.intype, MAX_NAME);
	buf_init(&k->ev.indims, MAX_NAME);
	buf_init(&k->ev.concrete, MAX_NAME);
	buf_init(&k->ev.coll, MAX_NAME);
	buf_init(&k->ev.pg, MAX_NAME);
	buf_init(&k->ev.dtype, MAX_NAME);
	buf_init(&k->dev.name, MAX_NAME);
	return k;
}

/* The JSON broke at jf.error_byte (at_end: the trace was cut short): one diagnostic, -1. */
static int json_error(struct kt *k)
{
	char *msg = jsonfeed_message(&k->jf);
	struct srcpos pos = SRCPOS_BYTE(k->ctx->path, k->jf.error_byte);

	k->ctx->src->errors++;
	if (k->jf.at_end)
		diag_error(k->ctx->diags, "truncated", &pos,
			   "the trace ends inside its JSON (%s): the %lld events before are kept",
			   msg, (long long)k->events);
	else
		diag_error(k->ctx->diags, "invalid-json", &pos, "invalid JSON: %s", msg);
	free(msg);
	return -1;
}

/* An error is placed where jsonfeed puts it: the same byte wherever the chunks were cut. */
static int kt_feed(void *st, const char *buf, size_t len)
{
	struct kt *k = st;

	if (k->jf.failed)
		return -1;
	return jsonfeed_feed(&k->jf, buf, len) < 0 ? json_error(k) : 0;
}

/* ---- finish: times, the model, the summary (links: kineto_link.c) ---- */

static void shift_times(struct kt *k, int64_t base)
{
	for (size_t i = 0; i < k->ngev; i++) {
		k->gev[i].start += base;
		k->gev[i].end += base;
	}
	for (size_t i = 0; i < k->nops; i++) {
		k->ops[i].start += base;
		k->ops[i].end += base;
	}
	for (size_t i = 0; i < k->nlaunch; i++)
		k->launches[i].ts += base;
	for (size_t i = 0; i < k->nsteps; i++) {
		k->steps[i].start += base;
		k->steps[i].end += base;
	}
	for (size_t i = 0; i < k->nmem; i++)
		k->mem[i].ts += base;
	if (k->first != UNSET) {
		k->first += base;
		k->last += base;
	}
}

int kt_cmp_step(const void *pa, const void *pb)
{
	const struct step_mark *a = pa, *b = pb;
	int c = cmp_i64(a->start, b->start);

	return c ? c : cmp_i64(a->source, b->source);
}

static int cmp_mem(const void *pa, const void *pb)
{
	const struct mem_sample *a = pa, *b = pb;

	return cmp_i64(a->ts, b->ts);
}

/* For isort_stable(): qsort() copied these 32-byte records whole to sort them. */
static bool step_before(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return kt_cmp_step(a, b) < 0;
}

static bool mem_before(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return cmp_mem(a, b) < 0;
}

/* The first pg_config entry named name (interned); NULL when none is. */
static const struct pg_read *pg_named(const struct kt *k, const char *name)
{
	for (size_t i = 0; i < k->npgs; i++)
		if (k->pgs[i].name == name)
			return &k->pgs[i];
	return NULL;
}

/*
 * Makes the events' group ids, the trace's own so far, the trial's: a group
 * that pg_config lists is known with its size and ranks, any other by its
 * name alone.
 */
static void resolve_groups(struct kt *k)
{
	struct trial *t = k->ctx->trial;
	uint16_t *id = xmalloc((k->ngnames + 1) * sizeof(*id));

	id[0] = 0;
	for (size_t i = 0; i < k->ngnames; i++) {
		const struct pg_read *p = pg_named(k, k->gnames[i]);
		bool ranks = p && p->nranks && !p->bad_rank;

		id[i + 1] = p ? trial_group_add(t, &(struct process_group){
				.name = p->name, .desc = p->desc, .size = (int32_t)p->size,
				.ranks = ranks ? p->ranks : NULL, .nranks = ranks ? p->nranks : 0 }) :
			trial_group(t, k->gnames[i], strlen(k->gnames[i]));
	}
	for (size_t i = 0; i < k->ngev; i++)
		k->gev[i].group = k->gev[i].group <= k->ngnames ? id[k->gev[i].group] : 0;
	free(id);
}

/* Moves src's elements to the end of dst, handing the array over when dst is empty. */
static void move_array(void *dstp, size_t *dn, size_t *dcap, void *srcp, size_t *sn,
		       size_t *scap, size_t size)
{
	char **dst = dstp, **src = srcp;

	if (!*sn)
		return;
	if (!*dst) {
		*dst = *src;
		*dn = *sn;
		*dcap = *scap;
		*src = NULL;
		*sn = *scap = 0;
		return;
	}
	xgrow(dst, dcap, *dn + *sn, size);
	memcpy(*dst + *dn * size, *src, *sn * size);
	*dn += *sn;
}

/* The device this rank ran on: the one most of its GPU events name. */
static int32_t own_device(const struct kt *k)
{
	int32_t best = -1;

	for (int32_t d = 0; d < MAX_DEVICES; d++)
		if (k->dev_seen[d] && (best < 0 || k->dev_seen[d] > k->dev_seen[best]))
			best = d;
	return best;
}

/*
 * Why the device the GPU work ran on was read as a deviceProperties entry
 * of another id. ROCm's profiler numbers GPU agents after the CPU agents,
 * so a kernel's "device" need not be the HIP ordinal deviceProperties uses.
 */
enum remap {
	REMAP_NONE,	/* the id is listed, or nothing says which entry it is */
	REMAP_ONLY,	/* the trace lists exactly one device */
	REMAP_ORDER,	/* the k-th id the GPU work used is the k-th listed id */
	REMAP_ALIKE,	/* every listed device has the same name and memory: the first */
	REMAP_COUNT
};

static const char *const remap_why[REMAP_COUNT] = {
	[REMAP_ONLY] = "the only device the trace lists",
	[REMAP_ORDER] = "by order: the trace lists as many devices as its GPU work used",
	[REMAP_ALIKE] = "every device the trace lists has the same name and memory",
};

/* The deviceProperties entry of id, or NULL. */
static const struct device_info *listed_device(const struct kt *k, int32_t id)
{
	for (size_t i = 0; i < k->ndevs; i++)
		if (k->devs[i].index == id)
			return &k->devs[i];
	return NULL;
}

/* How many listed ids are below id; -1 when id is listed more than once. */
static int listed_below(const struct kt *k, int32_t id)
{
	int below = 0, same = 0;

	for (size_t i = 0; i < k->ndevs; i++) {
		below += k->devs[i].index < id;
		same += k->devs[i].index == id;
	}
	return same == 1 ? below : -1;
}

/* The k-th used id to the k-th listed id, when there are as many of each. */
static bool map_by_order(const struct kt *k, int32_t map[MAX_DEVICES])
{
	int32_t to[MAX_DEVICES];
	size_t used = 0;

	for (int32_t d = 0; d < MAX_DEVICES; d++)
		used += k->dev_seen[d] > 0;
	if (used != k->ndevs)
		return false;
	for (size_t i = 0; i < k->ndevs; i++) {
		int below = listed_below(k, k->devs[i].index);

		if (below < 0)
			return false;
		to[below] = k->devs[i].index;
	}
	for (int32_t d = 0, n = 0; d < MAX_DEVICES; d++)
		if (k->dev_seen[d] > 0)
			map[d] = to[n++];
	return true;
}

static bool devices_alike(const struct kt *k)
{
	for (size_t i = 1; i < k->ndevs; i++)
		if (k->devs[i].name != k->devs[0].name ||
		    k->devs[i].memory_total != k->devs[0].memory_total)
			return false;
	return k->devs[0].name != NULL;
}

/*
 * map[d]: the device id the GPU work's id d is read as (d itself unless
 * own, the rank's device, is not listed and the entry it is can be told).
 */
static enum remap device_map(const struct kt *k, int32_t own, int32_t map[MAX_DEVICES])
{
	for (int32_t d = 0; d < MAX_DEVICES; d++)
		map[d] = d;
	if (own < 0 || !k->ndevs || listed_device(k, own))
		return REMAP_NONE;
	if (k->ndevs > 1 && map_by_order(k, map))
		return REMAP_ORDER;
	if (k->ndevs > 1 && !devices_alike(k))
		return REMAP_NONE;
	map[own] = k->devs[0].index;
	return k->ndevs == 1 ? REMAP_ONLY : REMAP_ALIKE;
}

/* Reads the GPU work and the memory samples on the device ids as mapped. */
static void apply_device_map(struct kt *k, const int32_t map[MAX_DEVICES])
{
	for (size_t i = 0; i < k->ngev; i++)
		if (k->gev[i].device >= 0 && k->gev[i].device < MAX_DEVICES)
			k->gev[i].device = clamp16(map[k->gev[i].device]);
	for (size_t i = 0; i < k->nmem; i++)
		if (k->mem[i].device >= 0 && k->mem[i].device < MAX_DEVICES)
			k->mem[i].device = map[k->mem[i].device];
}

/* The rank's own device, mapped to a listed one where its id is not listed; says so. */
static int32_t own_listed_device(struct kt *k)
{
	int32_t own = own_device(k), map[MAX_DEVICES];
	enum remap why = device_map(k, own, map);
	const struct device_info *d;
	struct srcpos pos = SRCPOS_FILE(k->ctx->path);

	if (why == REMAP_NONE)
		return own;
	apply_device_map(k, map);
	d = listed_device(k, map[own]);
	diag_add(k->ctx->diags, DIAG_INFO, "device-remapped", &pos,
		 "the GPU work ran on device %d, which deviceProperties does not list: read as "
		 "device %d%s%s%s, %s", (int)own, (int)map[own], d && d->name ? " \"" : "",
		 d && d->name ? d->name : "", d && d->name ? "\"" : "", remap_why[why]);
	return map[own];
}

/* The rank of the trace; a second trace of a rank already read is kept apart. */
static struct rank *claim_rank(struct kt *k)
{
	struct run *r = k->ctx->run;
	int32_t n = clamp32(k->rank);
	struct rank *rk = run_rank(r, n);
	struct srcpos pos = SRCPOS_FILE(k->ctx->path);

	if (rk->trace) {
		diag_warn(k->ctx->diags, "duplicate-rank", &pos,
			  "rank %d was already read from \"%s\": the two traces are kept apart",
			  (int)n, rk->trace);
		rk = run_rank(r, -1);
		rk->rank = n;
	}
	rk->trace = k->ctx->path;
	return rk;
}

/* Hands what was read to the rank; *steps_from: the rank's first step of this file. */
static struct rank *commit(struct kt *k, size_t *steps_from)
{
	struct rank *rk = claim_rank(k);
	int32_t dev = own_listed_device(k);
	struct srcpos pos = SRCPOS_FILE(k->ctx->path);

	rk->world_size = clamp32(k->world);
	for (size_t i = 0; dev >= 0 && i < k->ndevs; i++)
		if (k->devs[i].index == dev)
			rk->dev = k->devs[i];
	if (dev >= 0)
		rk->dev.index = dev;
	gpu_events_sort(k->gev, k->ngev);
	isort_stable(k->steps, k->nsteps, sizeof(*k->steps), step_before, NULL);
	isort_stable(k->mem, k->nmem, sizeof(*k->mem), mem_before, NULL);
	move_array(&rk->ev, &rk->nev, &rk->cap_ev, &k->gev, &k->ngev, &k->cap_gev,
		   sizeof(*k->gev));
	*steps_from = rk->nsteps;
	move_array(&rk->steps, &rk->nsteps, &rk->cap_steps, &k->steps, &k->nsteps,
		   &k->cap_steps, sizeof(*k->steps));
	move_array(&rk->mem, &rk->nmem, &rk->cap_mem, &k->mem, &k->nmem, &k->cap_mem,
		   sizeof(*k->mem));
	move_array(&rk->lsteps, &rk->nlsteps, &rk->cap_lsteps, &k->lsteps, &k->nlsteps,
		   &k->cap_lsteps, sizeof(*k->lsteps));
	move_array(&rk->delays, &rk->ndelays, &rk->cap_delays, &k->delays, &k->ndelays,
		   &k->cap_delays, sizeof(*k->delays));
	if (k->nccl_version)
		fact_set_str(k->ctx->trial, &k->ctx->run->nccl_version, k->nccl_version, &pos);
	return rk;
}

static void info_i64_or_null(struct ingest_ctx *c, struct info *o, const char *key, int64_t v)
{
	if (v >= 0)
		info_int(c->arena, o, key, v);
	else
		info_null(c->arena, o, key);
}

static void describe_devices(struct kt *k)
{
	struct ingest_ctx *c = k->ctx;
	struct info *arr;

	if (!k->has_devs) {
		info_null(c->arena, c->info, "devices");
		return;
	}
	arr = info_arr(c->arena, c->info, "devices");
	for (size_t i = 0; i < k->ndevs; i++) {
		const struct device_info *d = &k->devs[i];
		struct info *o = info_obj(c->arena, arr, NULL);
		char cc[32];

		info_str(c->arena, o, "name", d->name);
		info_i64_or_null(c, o, "memory_total_bytes", d->memory_total);
		snprintf(cc, sizeof(cc), "%d.%d", (int)d->cc_major, (int)d->cc_minor);
		info_str(c->arena, o, "compute_capability",
			 d->cc_major >= 0 && d->cc_minor >= 0 ? cc : NULL);
	}
}

/* Ranks as ranges: "0-3, 8, 10-11". */
static void ranks_text(struct buf *b, const int32_t *r, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && r[j] == r[j - 1] + 1; j++)
			;
		buf_addf(b, "%s%d", i ? ", " : "", (int)r[i]);
		if (j - i > 1)
			buf_addf(b, "-%d", (int)r[j - 1]);
	}
}

/* pg_config: each group's name, description, size and ranks; null without it. */
static void describe_groups(struct kt *k)
{
	struct ingest_ctx *c = k->ctx;
	struct info *arr;
	struct buf b;

	if (!k->has_pgs) {
		info_null(c->arena, c->info, "groups");
		return;
	}
	arr = info_arr(c->arena, c->info, "groups");
	buf_init(&b, 0);
	for (size_t i = 0; i < k->npgs; i++) {
		const struct pg_read *p = &k->pgs[i];
		struct info *o = info_obj(c->arena, arr, NULL);

		buf_reset(&b);
		ranks_text(&b, p->ranks, p->nranks);
		info_str(c->arena, o, "name", p->name);
		info_str(c->arena, o, "description", p->desc);
		info_i64_or_null(c, o, "size", p->size);
		info_str(c->arena, o, "ranks", p->nranks && !p->bad_rank ? b.data : NULL);
	}
	buf_release(&b);
}

static int cmp_int64p(const void *pa, const void *pb)
{
	return cmp_i64(*(const int64_t *)pa, *(const int64_t *)pb);
}

/* Distinct ProfilerStep numbers, CPU and GPU annotations together. */
static int64_t distinct_steps(const struct rank *rk, size_t from)
{
	size_t n = rk->nsteps - from;
	int64_t *num = xmalloc((n + 1) * sizeof(*num));
	int64_t distinct = 0;

	for (size_t i = 0; i < n; i++)
		num[i] = rk->steps[from + i].number;
	sort_n(num, n, sizeof(*num), cmp_int64p);
	for (size_t i = 0; i < n; i++)
		distinct += i == 0 || num[i] != num[i - 1];
	free(num);
	return distinct;
}

static void describe(struct kt *k, const struct rank *rk, size_t steps_from,
		     int64_t comm, size_t mem)
{
	struct ingest_ctx *c = k->ctx;
	struct info *ev;

	info_i64_or_null(c, c->info, "rank", k->rank);
	info_i64_or_null(c, c->info, "world_size", k->world);
	describe_devices(k);
	ev = info_obj(c->arena, c->info, "events");
	for (int i = 0; i < C_COUNT; i++)
		if (count_keys[i])
			info_int(c->arena, ev, count_keys[i], k->count[i]);
	info_int(c->arena, c->info, "comm_kernels", comm);
	info_int(c->arena, c->info, "steps", distinct_steps(rk, steps_from));
	info_int(c->arena, c->info, "memory_events", (int64_t)mem);
	info_num(c->arena, c->info, "span_s", k->first == UNSET ? NAN :
		 (double)(k->last - k->first) / NS_PER_S);
	info_str(c->arena, c->info, "nccl_version", k->nccl_version);
	info_str(c->arena, c->info, "backend", k->backend);
	info_i64_or_null(c, c->info, "process_groups", k->pg_count);
	describe_groups(k);
}

static int64_t count_comm(const struct kt *k)
{
	int64_t n = 0;

	for (size_t i = 0; i < k->ngev; i++)
		n += k->gev[i].cls == EVC_COMM;
	return n;
}

static int kt_finish(void *st)
{
	struct kt *k = st;
	struct srcpos pos = SRCPOS_FILE(k->ctx->path);
	struct rank *rk;
	size_t steps_from, mem = k->nmem;
	int64_t comm;
	int ret = 0;

	if (!k->jf.failed && jsonfeed_end(&k->jf) < 0)
		ret = json_error(k);
	if (k->base != UNSET)
		shift_times(k, k->base);
	if (k->bad_base)
		diag_warn(k->ctx->diags, "bad-base", &pos,
			  "\"baseTimeNanoseconds\" is out of range: times are kept relative");
	check_world(k, &pos);
	kt_link_events(k);
	resolve_groups(k);
	comm = count_comm(k);
	if (!k->ngev && k->events && ret == 0 && !k->jf.failed)
		diag_warn(k->ctx->diags, "cpu-only", &pos,
			  "no GPU activity in the trace (CPU-only profile)");
	else if (!k->ngev && k->events)
		diag_warn(k->ctx->diags, "no-gpu-read", &pos,
			  "no GPU activity in the part of the trace that could be read");
	k->ctx->src->events += k->events;
	k->ctx->src->errors += k->errors;
	rk = commit(k, &steps_from);
	describe(k, rk, steps_from, comm, mem);
	return ret;
}

static bool kt_found(void *st)
{
	(void)st;
	return true;
}

static void kt_free(void *st)
{
	struct kt *k = st;

	jsonfeed_release(&k->jf);
	free(k->keys);
	imap_release(&k->comm_memo);
	buf_release(&k->ev.name);
	buf_release(&k->ev.intype);
	buf_release(&k->ev.indims);
	buf_release(&k->ev.concrete);
	buf_release(&k->ev.coll);
	buf_release(&k->ev.pg);
	buf_release(&k->ev.dtype);
	buf_release(&k->dev.name);
	/* every array grown by xgrow() gives its bytes back to the memory budget */
	xgrow_free(&k->gev, &k->cap_gev, sizeof(*k->gev));
	kt_release_link_arrays(k);
	xgrow_free(&k->tids, &k->cap_tids, sizeof(*k->tids));
	imap_release(&k->tid_ix);
	xgrow_free(&k->site_text, &k->cap_site_text, sizeof(*k->site_text));
	imap_release(&k->site_memo);
	xgrow_free(&k->steps, &k->cap_steps, sizeof(*k->steps));
	xgrow_free(&k->mem, &k->cap_mem, sizeof(*k->mem));
	xgrow_free(&k->lsteps, &k->cap_lsteps, sizeof(*k->lsteps));
	xgrow_free(&k->delays, &k->cap_delays, sizeof(*k->delays));
	xgrow_free(&k->devs, &k->cap_devs, sizeof(*k->devs));
	for (size_t i = 0; i < k->npgs; i++)
		xgrow_free(&k->pgs[i].ranks, &k->pgs[i].cap_ranks, sizeof(*k->pgs[i].ranks));
	xgrow_free(&k->pgs, &k->cap_pgs, sizeof(*k->pgs));
	xgrow_free(&k->gnames, &k->cap_gnames, sizeof(*k->gnames));
	free(k);
}

const struct reader kineto_reader = {
	.name = "kineto-trace",
	.input = READ_BYTES,
	.open = kt_open,
	.feed = kt_feed,
	.finish = kt_finish,
	.found = kt_found,
	.free = kt_free,
};
