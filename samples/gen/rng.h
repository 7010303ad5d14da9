/*
 * rng: the generator's own pseudo-random numbers (splitmix64), so that a
 * scenario and a seed give the same trial byte for byte on every machine.
 */
#ifndef GEN_RNG_H
#define GEN_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;	/* splitmix64 state */
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* A uniform integer in [lo, hi] (inclusive); lo <= hi. */
int64_t rng_range(struct rng *r, int64_t lo, int64_t hi);
/* v scaled by 1000 + a uniform permille in [-spread, spread]. */
int64_t rng_jitter(struct rng *r, int64_t v, int spread_permille);

#endif
