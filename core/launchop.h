/*
 * launchop: one copy of each (CPU op name, input types, input dims) triple
 * that GPU events were launched from, so that an event holds one pointer
 * for the three (gpu_event.op). Two triples of one table are equal iff
 * their pointers are. The strings are the trial's interned ones; the
 * triples live in the table's arena until launch_ops_release(). A table
 * belongs to one thread, as an intern table does: ranks read in parallel
 * each fill their own, merged into the trial's afterwards
 * (launch_ops_merge(), then launch_op_canon() on every pointer kept).
 */
#ifndef CORE_LAUNCHOP_H
#define CORE_LAUNCHOP_H

#include <stddef.h>

#include "core/arena.h"
#include "core/imap.h"

/*
 * Where in the program the op that launched a communication kernel ran, as
 * its name and the names of the ops around it say (kname_op_where()): bits.
 */
enum launch_where {
	LAUNCH_IN_BACKWARD = 1 << 0,	/* autograd's backward pass */
	LAUNCH_IN_FORWARD = 1 << 1,	/* a module's forward pass */
	LAUNCH_IN_TENSOR = 1 << 2,	/* a tensor-parallel layer: Megatron's model-parallel mappings */
	LAUNCH_IN_FSDP = 1 << 3,	/* FSDP's gathering of parameters and sharding of gradients */
	LAUNCH_IN_PIPELINE = 1 << 4,	/* a pipeline schedule's sends and receives */
	LAUNCH_IN_ALLTOALL = 1 << 5,	/* an all-to-all exchange: nccl:all_to_all, alltoall_base */
	LAUNCH_IN_OPTIMIZER = 1 << 6,	/* the optimizer's step */
};

/* The CPU op a GPU event was launched from. */
struct launch_op {
	const char *name;	/* interned name of the op: "aten::mm"; NULL: unnamed in the trace */
	const char *input_types;/* interned "c10::BFloat16, float" of that op; NULL */
	const char *input_dims;	/* interned "[[4096,1024],[1024]]" of that op; NULL */
	unsigned where;		/* enum launch_where bits of the op and the ops around it; 0 */
	const char *concrete;	/* interned "Concrete Inputs" of a convolution or attention op,
				   each value after a ';' (";;[2, 2];[1, 1];..."); NULL */
};

struct launch_op_node;

struct launch_ops {
	struct arena arena;	/* owns the triples */
	struct launch_op_node **nodes;	/* the triples, first added first */
	size_t count, cap;	/* distinct triples; room in nodes */
	struct imap ix;		/* a triple's hash (probed on) -> its index in nodes */
};

#define LAUNCH_OPS_INIT { .arena = ARENA_INIT, .ix = IMAP_INIT }

/* The one copy of the triple (name, types, dims); any of the three may be NULL. */
const struct launch_op *launch_op_get(struct launch_ops *t, const char *name, const char *types,
				      const char *dims);
/* The same with where bits: an op that ran in two places is two entries. */
const struct launch_op *launch_op_get_at(struct launch_ops *t, const char *name, const char *types,
					 const char *dims, unsigned where);
/* The one copy of o (its strings interned in the table's trial): every field counts. */
const struct launch_op *launch_op_get_op(struct launch_ops *t, const struct launch_op *o);
void launch_ops_release(struct launch_ops *t);
/*
 * Moves every triple of src into dst and leaves src empty, once src's
 * strings were merged into dst's string table (intern_merge()): each
 * triple's strings become their canonical copies, and a triple dst already
 * held is forwarded to dst's copy (launch_op_canon()). Pointers into src
 * stay valid: its memory now belongs to dst.
 */
void launch_ops_merge(struct launch_ops *dst, struct launch_ops *src);
/* The copy to use for o after launch_ops_merge(): o itself unless forwarded; NULL gives NULL. */
const struct launch_op *launch_op_canon(const struct launch_op *o);

#endif
