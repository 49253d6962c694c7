/*
 * bench.h - helpers shared by the benchmark programs under bench/: a
 * monotonic nanosecond clock, the median of a sample, and the process's
 * resident memory.  Each bench program prints its own table; `make bench`
 * builds and runs every one.
 */
#ifndef PMON_BENCH_H
#define PMON_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline uint64_t bench_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of this thread: on a shared machine, wall time would count
 * the other processes' share. */
static inline uint64_t bench_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1] (reorders v). */
static inline double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A "VmRSS:" or "VmHWM:" line of /proc/self/status, in KiB; -1 unknown. */
static inline long bench_status_kib(const char *key)
{
	char line[256];
	long kib = -1;
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen)) {
			kib = strtol(line + klen, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

#endif
