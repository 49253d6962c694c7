/*
 * xorshift.h - the tests' and benchmarks' random numbers: Marsaglia's
 * 64-bit xorshift (shifts 13, 7, 17), deterministic for a given seed, so a
 * failing run can be replayed.  *s: the state, never 0.
 */
#ifndef PMON_XORSHIFT_H
#define PMON_XORSHIFT_H

#include <stdint.h>

static inline uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif
