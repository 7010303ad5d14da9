/*
 * budget: the memory a load may keep, counted for the whole process.
 * Arena blocks and growable arrays (xgrow) add what they take, released
 * arenas and arrays given back with xgrow_free() subtract it; the count is
 * atomic, since the ranks of a trial may be read by parallel threads.
 * Readers compare it with the budget (--max-memory) where they keep data, so
 * reaching it is a "limit" error naming the file, never an out-of-memory kill.
 */
#ifndef CORE_BUDGET_H
#define CORE_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The default budget: the smaller of 8 GiB and half of the memory this
 * process may use (physical memory, or a container's smaller cgroup limit).
 */
#define BUDGET_DEFAULT_CAP (8LL << 30)

/*
 * Sets the budget in bytes; n <= 0 sets the default back (budget_default()).
 */
void budget_set_max(int64_t n);
int64_t budget_max(void);
/* The smaller of BUDGET_DEFAULT_CAP and half of the memory usable (above). */
int64_t budget_default(void);

/*
 * Counts delta more bytes kept (negative: given back). Thread-safe. The count
 * is an upper bound of what is kept: a growable array freed with plain free()
 * instead of xgrow_free(), or shrunk without giving its slack back, stays
 * counted until the process ends, so the budget errs towards stopping early,
 * never towards an OOM kill. The Kineto reader gives back all it counted
 * (test_kineto checks the count returns to where it was after every trace).
 */
void budget_add(int64_t delta);
int64_t budget_used(void);
/* True once the bytes kept exceed the budget. Thread-safe. */
bool budget_over(void);

/*
 * Reads a size such as "8G", "500M", "64k" or "1048576" (bytes; K, M, G, T
 * are powers of 1024, either case, an optional "iB" or "B" after them) into
 * *out. Returns 0, or -1 when s is not a positive size below 2^62 bytes.
 */
int budget_parse_size(const char *s, int64_t *out);

#endif
