/*
 * sim_mem.c - modelled memory accesses per second of the emulated
 * machine's hierarchy, on one thread: L1-hit and DRAM-miss streams, random
 * and mixed patterns, through pmon_sim_vtraffic_refs (arrays of line
 * references), pmon_sim_vtraffic runs of lines, and single accesses.
 * Counters are programmed (CBo, HA, QPI, iMC, offcore) as a measurement
 * would have them, so the events' cost is included.  Target: >= 50 M/s for
 * L1/L2-hit and DRAM-miss streams.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "pmon/sim.h"
#include "sim/sim_machine.h"
#include "access.h"
#include "xorshift.h"

#define NREF 4096

static pmon_sim_t *sim;
static uint64_t refs[NREF];

static uint64_t rng = 88172645463325252ull;

/* Program counters through the emulated registers (the access ops), as a
 * session would: CBo 0 LLC_LOOKUP + TOR, HA REQUESTS, QPI flits, iMC CAS,
 * offcore on CPU 0. */
static void program(void)
{
	struct pmon_access *a;
	char why[160];
	pmon_pci_addr_t ha = { 0, 0x3f, 14, 1 }, q = { 0, 0x3f, 8, 2 }, m = { 0, 0x3f, 16, 0 };

	pmon_sim_set_current(sim);
	if (pmon_sim_access_open(&a, why, sizeof why)) {
		fprintf(stderr, "open: %s\n", why);
		exit(1);
	}
	for (int k = 0; k < 8; k++) {
		a->ops->msr_write(a, 0, 0xD14 + 0x20 * k, 0x7ffc00, why, sizeof why);
		a->ops->msr_write(a, 0, 0xD10 + 0x20 * k, 0x400334, why, sizeof why);
		a->ops->msr_write(a, 0, 0xD11 + 0x20 * k, 0x400A35, why, sizeof why);
	}
	a->ops->pci_write(a, ha, 0xD8, 0x400301, why, sizeof why);
	a->ops->pci_write(a, q, 0xD8, 0x400200, why, sizeof why);
	a->ops->pci_write(a, m, 0xD8, 0x400304, why, sizeof why);
	a->ops->msr_write(a, 0, 0x1A6, 0x3fffff8fffull, why, sizeof why);
	a->ops->msr_write(a, 0, 0x186, 0x4101B7, why, sizeof why);
	a->ops->msr_write(a, 0, 0x38F, 1, why, sizeof why);
	a->ops->close(a);
}

static double run_refs(uint64_t total)
{
	uint64_t t0 = bench_cpu_ns();
	for (uint64_t done = 0; done < total; done += NREF)
		pmon_sim_vtraffic_refs(sim, 0, refs, NREF);
	return (double)total / ((double)(bench_cpu_ns() - t0) / 1e9);
}

/* CPU time spent in the model: the generated sections below time only
 * their traffic calls, not the making of their references (a division or
 * a random number per reference is the caller's cost, not the model's). */
static uint64_t model_ns;

static void feed(void)
{
	uint64_t t0 = bench_cpu_ns();

	pmon_sim_vtraffic_refs(sim, 0, refs, NREF);
	model_ns += bench_cpu_ns() - t0;
}

static double model_rate(uint64_t n)
{
	return (double)n / ((double)model_ns / 1e9);
}

static void report(const char *what, double per_s)
{
	printf("  %-46s %8.1f M accesses/s\n", what, per_s / 1e6);
}

int main(void)
{
	struct pmon_sim_shape sh;
	uint64_t base, big = 512ull << 20;       /* 8M lines: 25x the LLC */
	const uint64_t lines = big / 64;

	const char *spec = getenv("PMON_SIM");      /* prefetch=off, say: the shape to run */
	char err[256];

	if (pmon_sim_shape_parse(spec, &sh, err, sizeof err)) {
		fprintf(stderr, "bench sim_mem: %s\n", err);
		return 1;
	}
	sim = pmon_sim_create(&sh);
	program();
	pmon_sim_mem_alloc(sim, big, PMON_SIM_FIRST_TOUCH, 0, &base);
	pmon_sim_vtraffic(sim, 0, base, PMON_SIM_NT_STORE, lines);   /* touch every page */
	printf("bench sim_mem: shape '%s' (default: 2 sockets x 8 cores, LLC 20M; $PMON_SIM),\n"
	       "  prefetchers MSR 0x1A4 = 0x%x, counters programmed;\n"
	       "  accesses per second of this thread's CPU time (target >= 50 M/s for L1/L2-hit\n"
	       "  and DRAM-miss streams); the %s copy of the access path\n"
	       "  (PMON_SIM_ISA=avx2 or base to compare)\n", spec ? spec : "", (unsigned)sh.prefetch,
	       sim->lines_isa);

	/* L1 hits: 64 lines (4 KiB) over and over */
	for (int i = 0; i < NREF; i++)
		refs[i] = (base + (uint64_t)(i % 64) * 64) | PMON_SIM_LOAD;
	report("refs: L1-hit load stream (4 KiB)", run_refs(32ull << 20));
	/* L2 hits: 128 KiB */
	for (int i = 0; i < NREF; i++)
		refs[i] = (base + (uint64_t)(i % 2048) * 64) | PMON_SIM_LOAD;
	run_refs(1 << 20);
	report("refs: L2-hit load stream (128 KiB)", run_refs(16ull << 20));
	/* DRAM misses: a stream over 512 MiB */
	uint64_t pos = 0, t0, n = 0;
	model_ns = 0;
	for (int rep = 0; rep < 512; rep++) {
		for (int i = 0; i < NREF; i++, pos = (pos + 1) % lines)
			refs[i] = (base + pos * 64) | PMON_SIM_LOAD;
		feed();
		n += NREF;
	}
	report("refs: DRAM-miss load stream (512 MiB)", model_rate(n));
	/* stores missing: RFO + write-back of every line */
	model_ns = n = 0;
	for (int rep = 0; rep < 256; rep++) {
		for (int i = 0; i < NREF; i++, pos = (pos + 1) % lines)
			refs[i] = (base + pos * 64) | PMON_SIM_STORE;
		feed();
		n += NREF;
	}
	report("refs: DRAM-miss store stream (RFO + write-back)", model_rate(n));
	/* random lines of 512 MiB: mostly DRAM misses */
	model_ns = n = 0;
	for (int rep = 0; rep < 256; rep++) {
		for (int i = 0; i < NREF; i++)
			refs[i] = (base + (xorshift64(&rng) % lines) * 64) | PMON_SIM_LOAD;
		feed();
		n += NREF;
	}
	report("refs: random loads over 512 MiB", model_rate(n));
	/* mixed: 3 of 4 references hit a 16 KiB hot set, the rest stream */
	model_ns = n = 0;
	for (int rep = 0; rep < 512; rep++) {
		for (int i = 0; i < NREF; i++) {
			if (i % 4)
				refs[i] = (base + (xorshift64(&rng) % 256) * 64) |
					  (i % 8 == 1 ? PMON_SIM_STORE : PMON_SIM_LOAD);
			else
				refs[i] = (base + (1ull << 20) + (pos = (pos + 1) % (lines / 2)) * 64) |
					  PMON_SIM_LOAD;
		}
		feed();
		n += NREF;
	}
	report("refs: mixed (75% hot 16 KiB, 25% stream)", model_rate(n));

	/* runs of lines: pmon_sim_vtraffic */
	t0 = bench_cpu_ns();
	n = 0;
	for (int rep = 0; rep < 8; rep++) {
		pmon_sim_vtraffic(sim, 0, base + ((uint64_t)rep % 8) * (64ull << 20), PMON_SIM_LOAD,
				  (32ull << 20) / 64);
		n += (32ull << 20) / 64;
	}
	report("runs: DRAM-miss load runs (32 MiB each)", (double)n / ((double)(bench_cpu_ns() - t0) / 1e9));
	t0 = bench_cpu_ns();
	n = 0;
	for (int rep = 0; rep < 100000; rep++) {
		pmon_sim_vtraffic(sim, 0, base, PMON_SIM_LOAD, 256);
		n += 256;
	}
	report("runs: L1/L2-hit load runs (16 KiB each)", (double)n / ((double)(bench_cpu_ns() - t0) / 1e9));
	/* single accesses, one call each */
	t0 = bench_cpu_ns();
	n = 0;
	for (int rep = 0; rep < 4000000; rep++) {
		pmon_sim_vtraffic(sim, 0, base + (uint64_t)(rep % 64) * 64, PMON_SIM_LOAD, 1);
		n++;
	}
	report("single: L1-hit loads, one call each", (double)n / ((double)(bench_cpu_ns() - t0) / 1e9));
	t0 = bench_cpu_ns();
	n = 0;
	for (int rep = 0; rep < 500000; rep++, pos = (pos + 1) % lines) {
		pmon_sim_vtraffic(sim, 0, base + pos * 64, PMON_SIM_LOAD, 1);
		n++;
	}
	report("single: DRAM-miss loads, one call each", (double)n / ((double)(bench_cpu_ns() - t0) / 1e9));
	t0 = bench_cpu_ns();
	n = 0;
	for (int rep = 0; rep < 500000; rep++, pos = (pos + 1) % lines) {
		pmon_sim_traffic(sim, 0, (pos % (lines)) * 64, PMON_SIM_LOAD, 1);
		n++;
	}
	report("single: physical DRAM-miss loads (pmon_sim_traffic)",
	       (double)n / ((double)(bench_cpu_ns() - t0) / 1e9));
	pmon_sim_set_current(NULL);
	pmon_sim_destroy(sim);
	return 0;
}
