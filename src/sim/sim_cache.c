/*
 * sim_cache.c - the cache arrays of the hierarchy (the cores' L1D and L2,
 * the LLC slices): their allocation, emptying and release, and the entry of
 * every batch of line accesses, which runs the copy of the access path
 * (sim_path.h) for this machine's shape and this host's instruction set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_hier.h"
#include "sim_traffic.h"

static void cache_layout(struct sim_cache *c, uint8_t *mem, size_t stride, uint64_t sets,
			 uint32_t ways)
{
	c->mem = mem;
	c->stride = stride;
	c->sets = (uint32_t)sets;
	c->ways = ways;
	c->setmask = (sets & (sets - 1)) ? 0 : (uint32_t)(sets - 1);
}

/* Every set empty (padding lanes too). */
static void cache_fill(struct sim_cache *c)
{
	for (uint32_t i = 0; i < c->sets; i++)
		memset(cache_set_at(c, i).e, 0, cache_set_bytes(c->ways));
}

void sim_cache_setup(struct sim_cache *c, uint8_t *mem, size_t stride, uint64_t sets,
		     uint32_t ways)
{
	cache_layout(c, mem, stride, sets, ways);
	cache_fill(c);
}

static int cache_init(struct sim_cache *c, uint64_t sets, uint32_t ways)
{
	size_t bytes = cache_set_bytes(ways);

	memset(c, 0, sizeof *c);
	if (!(c->alloc = aligned_alloc(64, bytes * sets)))
		return -1;
	cache_layout(c, c->alloc, bytes, sets, ways);
	return 0;
}

static void cache_free(struct sim_cache *c)
{
	free(c->alloc);
	memset(c, 0, sizeof *c);
}

/* The copy of the access path a machine runs: the AVX-512 one where it
 * serves (two sockets, 8-way L1 and L2 caches: sim_hier.h) and the
 * host has AVX-512F, BMI, BMI2 and POPCNT; else the base copy, which
 * serves any shape on any x86-64.  $PMON_SIM_ISA=base picks the base copy
 * always (tests and benchmarks compare the two: they count exactly the
 * same). */
static void path_pick(struct pmon_sim *sim)
{
	const struct pmon_sim_shape *sh = &sim->shape;
	const char *want = getenv("PMON_SIM_ISA");
	int fast = sh->l1_ways == SIM_L1W && sh->l2_ways == SIM_L2W && sh->sockets == SIM_SOCKETS;

	if (want && *want && strcmp(want, "avx512") && strcmp(want, "base"))
		fprintf(stderr, "pmon: PMON_SIM_ISA=%s is not avx512 or base (the access path's two "
			"copies): the emulator runs the AVX-512 copy where it can\n", want);
	if (want && !strcmp(want, "base"))
		fast = 0;
#if defined(__x86_64__) || defined(__i386__)
	fast = fast && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("bmi") &&
	       __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#else
	fast = 0;
#endif
	sim->lines = fast ? sim_lines_avx512 : sim_lines_base;
	sim->lines_isa = fast ? "avx512" : "base";
}

int sim_hier_init(struct pmon_sim *sim)
{
	const struct pmon_sim_shape *sh = &sim->shape;
	int ncores = sh->sockets * sh->cores;
	uint64_t slice_sets = sh->llc_bytes / (uint64_t)sh->cores / 64 / (uint64_t)sh->llc_ways;
	size_t setb = cache_set_bytes((uint32_t)sh->llc_ways);

	sim->lines_per_socket = sh->mem_bytes / 64;
	sim->lps_shift = -1;
	if (!(sim->lines_per_socket & (sim->lines_per_socket - 1)))
		sim->lps_shift = __builtin_ctzll(sim->lines_per_socket);
	for (int i = 0; i < PMON_SIM_NSUPPLIERS; i++)
		sim->occ_uclk[i] = (uint64_t)(((unsigned __int128)sh->lat_ns[i] * sh->uclk_hz +
					       500000000u) / 1000000000u);
	for (int c = 0; c < sim->ncpus; c++) {
		struct sim_thread *t = &sim->cpu[c];
		t->sock = c / (sh->cores * sh->threads);
		t->gcore = c / sh->threads;
		t->lcore = t->gcore % sh->cores;
		t->pq.cpu = c;
	}
	sim->pcore = calloc((size_t)ncores, sizeof *sim->pcore);
	if (!sim->pcore)
		return -1;
	for (int i = 0; i < ncores; i++) {
		struct sim_pcore *pc = &sim->pcore[i];
		pc->pf_dis = (unsigned)sh->prefetch;     /* MSR 0x1A4 at reset */
		if (cache_init(&pc->l1, sh->l1_bytes / 64 / (uint64_t)sh->l1_ways,
			       (uint32_t)sh->l1_ways) ||
		    cache_init(&pc->l2, sh->l2_bytes / 64 / (uint64_t)sh->l2_ways,
			       (uint32_t)sh->l2_ways))
			return -1;
	}
	for (int s = 0; s < sh->sockets; s++) {
		struct sim_socket *k = &sim->sock[s];
		if (!(k->llc_mem = aligned_alloc(64, setb * slice_sets * (size_t)sh->cores)))
			return -1;
		for (int i = 0; i < sh->cores; i++)
			cache_layout(&k->llc[i], k->llc_mem + setb * (size_t)i,
				     setb * (size_t)sh->cores, slice_sets, (uint32_t)sh->llc_ways);
	}
	sim->hier_ready = 0;
	path_pick(sim);
	return 0;
}

/* The cache arrays are allocated with the machine but filled only when the
 * first line arrives: a machine that sees no traffic (a PAPI program
 * reading counters, say) never makes their megabytes resident. */
void sim_hier_prepare(struct pmon_sim *sim)
{
	for (int i = 0; i < sim->shape.sockets * sim->shape.cores; i++) {
		cache_fill(&sim->pcore[i].l1);
		cache_fill(&sim->pcore[i].l2);
	}
	for (int s = 0; s < sim->shape.sockets; s++)
		for (int i = 0; i < sim->shape.cores; i++)
			cache_fill(&sim->sock[s].llc[i]);
	sim->hier_ready = 1;
}

void sim_hier_free(struct pmon_sim *sim)
{
	if (sim->pcore)
		for (int i = 0; i < sim->shape.sockets * sim->shape.cores; i++) {
			cache_free(&sim->pcore[i].l1);
			cache_free(&sim->pcore[i].l2);
		}
	free(sim->pcore);
	sim->pcore = NULL;
	for (int s = 0; s < SIM_MAX_SOCKETS; s++) {
		free(sim->sock[s].llc_mem);
		sim->sock[s].llc_mem = NULL;
	}
}

void sim_lines_access(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n)
{
	if (__builtin_expect(!sim->hier_ready, 0))
		sim_hier_prepare(sim);
	sim->pend_direct = n == 1;        /* queueing pays only over many accesses */
	sim->lines(sim, cpu, ref, n);
}

/* Forget every core's cached lines (after the LLC let go of them), and
 * what its prefetchers learnt of the streams (their settings stay). */
void sim_cores_clear(struct pmon_sim *sim)
{
	for (int c = 0; c < sim->ncpus; c++) {
		memset(&sim->cpu[c].ip, 0, sizeof sim->cpu[c].ip);
	}
	if (!sim->hier_ready)
		return;                       /* nothing cached yet */
	for (int i = 0; i < sim->shape.sockets * sim->shape.cores; i++) {
		struct sim_pcore *pc = &sim->pcore[i];
		memset(&pc->pf, 0, sizeof pc->pf);
		sim_cache_setup(&pc->l1, pc->l1.mem, pc->l1.stride, pc->l1.sets, pc->l1.ways);
		sim_cache_setup(&pc->l2, pc->l2.mem, pc->l2.stride, pc->l2.sets, pc->l2.ways);
	}
}
