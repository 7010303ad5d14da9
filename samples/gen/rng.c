#include "samples/gen/rng.h"

void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int64_t rng_range(struct rng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)(hi - lo) + 1;

	return lo + (int64_t)(rng_next(r) % span);
}

int64_t rng_jitter(struct rng *r, int64_t v, int spread_permille)
{
	int64_t p = 1000 + rng_range(r, -spread_permille, spread_permille);

	return v * p / 1000;
}
