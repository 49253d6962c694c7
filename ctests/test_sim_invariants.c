/*
 * test_sim_invariants.c - the hierarchy's invariants under random traffic
 * (loads, stores, streaming stores from every CPU of two sockets, lines of
 * both homes, caches small enough to evict all the time), checked by
 * walking the emulator's arrays every few hundred accesses:
 *  - every valid LLC line is in the slice its hash names and in the set its
 *    index names; the socket's valid-line count is exact;
 *  - inclusion: an L1 line is in its L2, an L2 line is in its socket's LLC
 *    with the core's valid bit set;
 *  - single writer: a line a core holds E or M is in no other core's caches
 *    and no other socket's LLC; a line an LLC holds E or M is in no other
 *    socket's LLC;
 *  - each set's lanes: the empty ones last, padding lanes empty, no line
 *    twice.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_fixture.h"
#include "sim/sim_hier.h"
#include "sim/sim_traffic.h"
#include "xorshift.h"

static char why[256];

static int fail(const char *msg, uint64_t line)
{
	snprintf(why, sizeof why, "%s (line 0x%llx)", msg, (unsigned long long)line);
	return -1;
}

static int lanes_ok(const struct sim_cache *c)
{
	for (uint32_t i = 0; i < c->sets; i++) {
		struct sim_set s = cache_set_at(c, i);
		for (uint32_t w = 0; w < round_up(c->ways, 8); w++) {
			if (w >= c->ways && s.e[w])
				return fail("a padding lane is not empty", 0);
			if (w >= c->ways || !s.e[w])
				continue;
			if (w > 0 && !s.e[w - 1])
				return fail("a valid lane after an empty one", e_line(s.e[w]));
			for (uint32_t o = 0; o < w; o++)
				if (e_line(s.e[o]) == e_line(s.e[w]))
					return fail("a line twice in one set", e_line(s.e[w]));
		}
	}
	return 0;
}

/* The way of line in a cache, -1 none. */
static int where(const struct sim_cache *c, uint64_t line, struct sim_set *out)
{
	*out = cache_set(c, line);
	return set_find(out, line);
}

static int core_state(struct pmon_sim *m, int gcore, uint64_t line)
{
	struct sim_set s;
	int w2 = where(&m->pcore[gcore].l2, line, &s), st;
	if (w2 < 0)
		return SIM_I;
	st = e_st(s.e[w2]);
	int w1 = where(&m->pcore[gcore].l1, line, &s);
	return (w1 >= 0 && e_st(s.e[w1]) == SIM_M) ? SIM_M : st;
}

static int check(struct pmon_sim *m)
{
	const struct pmon_sim_shape *sh = &m->shape;

	for (int s = 0; s < sh->sockets; s++) {
		uint64_t valid = 0;
		for (int k = 0; k < sh->cores; k++) {
			const struct sim_cache *c = &m->sock[s].llc[k];
			if (lanes_ok(c))
				return -1;
			for (uint32_t i = 0; i < c->sets; i++) {
				struct sim_set set = cache_set_at(c, i);
				for (uint32_t w = 0; w < c->ways; w++) {
					if (!set.e[w])
						continue;
					uint64_t line = e_line(set.e[w]);
					valid++;
					if ((int)sim_line_slice(line, sh->cores) != k)
						return fail("LLC line in the wrong slice", line);
					if (line % c->sets != i)
						return fail("LLC line in the wrong set", line);
					if (e_st(set.e[w]) == SIM_I)
						return fail("a valid LLC line in state I", line);
					if (e_st(set.e[w]) == SIM_E || e_st(set.e[w]) == SIM_M)
						for (int o = 0; o < sh->sockets; o++) {
							struct sim_set x;
							if (o != s && where(&m->sock[o].llc[k], line, &x) >= 0)
								return fail("E/M in one LLC, present in another", line);
						}
				}
			}
		}
		if (valid != m->sock[s].llc_valid)
			return fail("LLC valid-line count", valid);
	}
	for (int g = 0; g < sh->sockets * sh->cores; g++) {
		const struct sim_pcore *pc = &m->pcore[g];
		int s = g / sh->cores, lc = g % sh->cores;
		if (lanes_ok(&pc->l1) || lanes_ok(&pc->l2))
			return -1;
		for (uint32_t i = 0; i < pc->l1.sets; i++) {
			struct sim_set set = cache_set_at(&pc->l1, i), x;
			for (uint32_t w = 0; w < pc->l1.ways; w++)
				if (set.e[w] && where(&pc->l2, e_line(set.e[w]), &x) < 0)
					return fail("L1 line not in the L2", e_line(set.e[w]));
		}
		for (uint32_t i = 0; i < pc->l2.sets; i++) {
			struct sim_set set = cache_set_at(&pc->l2, i), x;
			for (uint32_t w = 0; w < pc->l2.ways; w++) {
				if (!set.e[w])
					continue;
				uint64_t line = e_line(set.e[w]);
				int lw = where(&m->sock[s].llc[sim_line_slice(line, sh->cores)], line, &x);
				if (lw < 0)
					return fail("L2 line not in its LLC", line);
				if (!(e_cv(x.e[lw]) & (1u << lc)))
					return fail("L2 line without its core-valid bit", line);
				int st = core_state(m, g, line);
				if (st != SIM_E && st != SIM_M)
					continue;
				for (int o = 0; o < sh->sockets * sh->cores; o++)
					if (o != g && core_state(m, o, line) != SIM_I)
						return fail("a core owns a line another core holds", line);
				for (int o = 0; o < sh->sockets; o++)
					if (o != s && where(&m->sock[o].llc[sim_line_slice(line, sh->cores)],
							    line, &x) >= 0)
						return fail("a core owns a line another socket holds", line);
			}
		}
	}
	return 0;
}

static void random_traffic(const char *spec, int nthreads_cpus, uint64_t nlines, int prefetch)
{
	char shape[256];
	uint64_t r = 0x9E3779B97F4A7C15ull, mem;
	int bad = 0;

	snprintf(shape, sizeof shape, "%s%s", spec, prefetch ? ",prefetch=on" : ",prefetch=off");
	machine(shape);
	mem = pmon_sim_shape(sim)->mem_bytes;
	/* the walk every 500 accesses, or every quarter of the LLC's lines on
	 * a larger LLC: a broken state lasts until its line is evicted, about
	 * an LLC's worth of accesses there, so at least four walks see it;
	 * the walk's cost grows with the LLC (the 512 and 640 KiB shapes took
	 * 40% of the program's time at 500) */
	uint64_t llc_lines = pmon_sim_shape(sim)->llc_bytes / 64;
	int every = llc_lines / 4 > 500 ? (int)(llc_lines / 4) : 500;
	for (int i = 0; i < 200000 && !bad; i++) {
		xorshift64(&r);
		int cpu = (int)(r % (uint64_t)nthreads_cpus);
		uint64_t l = (r >> 8) % nlines, home = (r >> 40) & 1;
		unsigned k = (unsigned)(r >> 50) % 10;
		enum pmon_sim_kind kind = k < 5 ? PMON_SIM_LOAD : k < 9 ? PMON_SIM_STORE
						     : PMON_SIM_NT_STORE;
		pmon_sim_traffic(sim, cpu, home * mem + l * 64, kind, 1 + (r >> 60) % 3);
		if (i % every == every - 1 && check(sim)) {
			bad = 1;
			CHECK(0, "%s: after %d accesses: %s", shape, i + 1, why);
		}
	}
	if (!bad) {
		pmon_sim_flush_caches(sim);
		CHECK_EQ_INT(check(sim), 0, "after the flush");
		for (int s = 0; s < 2; s++)
			CHECK_EQ_U64(sim->sock[s].llc_valid, 0, "the flush empties the LLC");
	}
	CHECK(!bad, "%s: invariants held over 200000 random accesses", shape);
}

int main(void)
{
	/* 2 sockets x 2 cores x 2 threads; LLC 64K (2 slices of 512 lines, 4
	 * ways), L2 4K, L1 1K: a working set of 4096 lines per home evicts at
	 * every level */
	const char *small = "sockets=2,cores=2,threads=2,llc=64K,llcways=4,l1=1K,l1ways=2,"
			    "l2=4K,l2ways=4";

	/* each copy of the access path this host can run: the base copy on
	 * any shape, the AVX-512 copy on those it serves (two sockets, 8-way
	 * L1 and L2) */
	const char *small8 = "sockets=2,cores=2,threads=2,llc=64K,llcways=4,l1=1K,l1ways=8,"
			     "l2=4K,l2ways=8";
	static const char *const isas[] = { "base", "avx512" };
	for (size_t isa = 0; isa < sizeof isas / sizeof isas[0]; isa++) {
		int base = isa == 0;
		setenv("PMON_SIM_ISA", isas[isa], 1);
		random_traffic(base ? small : small8, 8, 4096, 0);
		if (strcmp(sim->lines_isa, isas[isa]))
			continue;             /* the host cannot: it ran another copy */
		printf("  (access path: %s)\n", sim->lines_isa);
		random_traffic(base ? small : small8, 8, 4096, 1);
		/* a working set that fits: more sharing, fewer evictions */
		random_traffic(base ? small : small8, 8, 256, 0);
		/* odd geometry: 3 cores, 5-way LLC with a set count not a power
		 * of two */
		random_traffic(base ? "sockets=2,cores=3,threads=1,llc=96K,llcways=5,l1=2K,l1ways=2,"
				      "l2=8K,l2ways=8"
				    : "sockets=2,cores=3,threads=1,llc=96K,llcways=5,l1=2K,l1ways=8,"
				      "l2=8K,l2ways=8", 6, 3000, 1);
		/* the default ways (8/8/20) and the Nehalem LLC's 16 (the set
		 * kernels of their own) on small sets */
		random_traffic("sockets=2,cores=2,threads=2,llc=640K,l1=4K,l2=8K", 8, 8192, 0);
		random_traffic("sockets=2,cores=2,threads=2,llc=512K,llcways=16,l1=4K,l2=8K", 8, 8192,
			       0);
	}
	sim_teardown();
	return check_done("test_sim_invariants");
}
