/* clock.h - CLOCK_MONOTONIC in ns: the clock of the hardware backends and
 * of the machine's fold (fold.h) when the backend has none of its own. */
#ifndef PMON_CLOCK_H
#define PMON_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t pmon_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
