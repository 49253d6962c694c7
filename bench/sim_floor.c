/*
 * sim_floor.c - what the emulator's cache representation costs by itself
 * per DRAM-miss line on this host, to read bench/sim_mem's figures against:
 * the floor under any model built on these set operations.
 *
 * It runs the emulator's own set operations (sim_hier.h: lanes in
 * most-recently-used order; find, touch, drop, fill), in the copy built for
 * any x86-64 (SSE2; sim_floor_avx512.c builds this file for the emulator's
 * AVX-512 copy), over one core's L1D (64 sets x 8 ways),
 * L2 (512 x 8) and one socket's LLC (8 slices x 2048 sets x 20 ways, the
 * emulator's slice hash), with the LLC inclusive (its victim is dropped
 * from the L2 and L1) and the L2 inclusive of the L1, and the emulator's
 * look-ahead (the LLC set of the line 8 ahead is brought into the host's
 * caches).  Nothing else: no MESIF states or core-valid bits, no second
 * socket, no home agent, DRAM banks or QPI, no ground truth, no events.
 * Every line of a 512 MiB stream misses all three levels, as in
 * bench/sim_mem's DRAM-miss streams, so each line costs three lookups that
 * miss, three victims and fills, and the victims' lookups in the levels
 * above: the bookkeeping every line needs, whatever the model adds.
 * A second run shrinks the LLC to 128 sets a slice (192 KiB in all), so
 * that the host's cache misses drop out and the set operations' own cost
 * remains.
 */
#include <time.h>

#include "bench.h"
#include "sim/sim_hier.h"
#include "sim/sim_traffic.h"

#define LLC_SLICES 8
#define LLC_WAYS   20               /* the default shape's LLC */
#define LLC_SETS   2048             /* per slice: 2.5 MiB / 64 / 20 */
#define SMALL_SETS 128              /* per slice: all arrays fit the host's L2 */
#define PASSES     3                /* the first fills the caches, untimed */

static uint8_t *zalloc(size_t bytes)
{
	uint8_t *p = aligned_alloc(64, bytes);

	if (!p) {
		perror("sim_floor");
		exit(1);
	}
	return memset(p, 0, bytes);
}

/* sets x ways whose sets lie stride bytes apart from mem on (zeroed: every
 * set empty), as the emulator lays them out: a slice's sets interleave
 * with the other slices' (set i of every slice side by side). */
static void level_init(struct sim_cache *c, uint8_t *mem, size_t stride, uint32_t sets,
		       uint32_t ways)
{
	c->mem = mem;
	c->stride = stride;
	c->sets = sets;
	c->ways = ways;
	c->setmask = sets - 1;
}

static struct sim_cache l1, l2, llc[LLC_SLICES];

SIM_HOT struct sim_set llc_set(uint64_t line)
{
	return cache_set_w(&llc[sim_line_slice(line, LLC_SLICES)], line, LLC_WAYS);
}

/* Drop line from a private cache if it is there. */
SIM_HOT void drop_if(struct sim_cache *c, uint64_t line, uint32_t ways)
{
	struct sim_set s = pcache_set_w(c, line, ways);
	int w = set_find(&s, line);

	if (w >= 0)
		set_drop(&s, w);
}

SIM_HOT void fill(const struct sim_set *s, uint64_t line)
{
	set_fill(s, line, SIM_E, 0);
}

/* One load; 1 when it missed all three levels. */
SIM_HOT int access_line(uint64_t line)
{
	struct sim_set s1 = pcache_set_w(&l1, line, SIM_L1W), s2, s3;
	int w = set_find(&s1, line);

	if (w >= 0) {
		set_touch(&s1, w);
		return 0;
	}
	s2 = pcache_set_w(&l2, line, SIM_L2W);
	if ((w = set_find(&s2, line)) >= 0) {
		set_touch(&s2, w);
		fill(&s1, line);
		return 0;
	}
	s3 = llc_set(line);
	int miss = (w = set_find(&s3, line)) < 0;
	if (!miss) {
		set_touch(&s3, w);
	} else {
		uint64_t ve = s3.e[set_victim(&s3)];
		if (ve) {                     /* inclusive: the victim leaves the core */
			drop_if(&l2, e_line(ve), SIM_L2W);
			drop_if(&l1, e_line(ve), SIM_L1W);
		}
		fill(&s3, line);
	}
	uint64_t ve = s2.e[set_victim(&s2)];
	if (ve)
		drop_if(&l1, e_line(ve), SIM_L1W);
	fill(&s2, line);
	fill(&s1, line);
	return miss;
}

SIM_HOT void prefetch_set(uint64_t line)
{
	const uint8_t *p = (const uint8_t *)llc_set(line).e;

	for (size_t off = 0; off < cache_set_bytes(LLC_WAYS); off += 64)
		__builtin_prefetch(p + off, 0);
}

/* M lines/s of a stream 25x the default LLC through caches whose LLC has
 * sets sets a slice; 0 when some line did not miss all three levels. */
static double floor_rate(uint32_t sets)
{
	const uint64_t lines = (512ull << 20) / 64;
	size_t b1 = cache_set_bytes(SIM_L1W), b2 = cache_set_bytes(SIM_L2W);
	size_t b3 = cache_set_bytes(LLC_WAYS);
	uint8_t *m1 = zalloc(b1 * 64), *m2 = zalloc(b2 * 512);
	uint8_t *slices = zalloc(b3 * sets * LLC_SLICES);
	uint64_t misses = 0, t0 = 0;

	level_init(&l1, m1, b1, 64, SIM_L1W);
	level_init(&l2, m2, b2, 512, SIM_L2W);
	for (int i = 0; i < LLC_SLICES; i++)
		level_init(&llc[i], slices + b3 * (size_t)i, b3 * LLC_SLICES, sets, LLC_WAYS);
	for (int pass = 0; pass < PASSES; pass++) {
		if (pass == 1) {
			t0 = bench_cpu_ns();
			misses = 0;
		}
		for (uint64_t line = 0; line < lines; line++) {
			prefetch_set(line + SIM_LOOKAHEAD);
			misses += (uint64_t)access_line(line);
		}
	}
	double s = (double)(bench_cpu_ns() - t0) / 1e9, n = (double)(PASSES - 1) * (double)lines;
	free(m1);
	free(m2);
	free(slices);
	return misses == (uint64_t)n ? n / s / 1e6 : 0;
}

static int report(const char *what, double rate)
{
	if (rate == 0) {
		printf("  %-46s a line hit a cache: not a miss stream\n", what);
		return 1;
	}
	printf("  %-46s %8.1f M lines/s (%.1f ns a line)\n", what, rate, 1e3 / rate);
	return 0;
}

/* sim_floor_avx512.c builds this file for its instruction set, under
 * another name for main. */
#ifndef SIM_FLOOR_COPY
#define SIM_FLOOR_COPY "copy: base\n  (any x86-64)"
#define SIM_FLOOR_MAIN main
#endif

int SIM_FLOOR_MAIN(void)
{
	int bad;

	printf("bench sim_floor: the emulator's set operations alone (L1D, L2, LLC: lookups,\n"
	       "  LRU, inclusive victims; no states, coherence, DRAM or events) on a stream\n"
	       "  of lines that misses every level, this thread's CPU time (the target of\n"
	       "  bench/sim_mem's DRAM-miss streams, 50 M/s, is 20 ns a line); %s\n",
	       SIM_FLOOR_COPY);
	bad = report("floor, default LLC (2048 sets a slice)", floor_rate(LLC_SETS));
	bad |= report("floor, LLC of 128 sets a slice (host-cached)", floor_rate(SMALL_SETS));
	return bad;
}
