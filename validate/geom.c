/*
 * geom.c - the machine's geometry (geom.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pmon/pmon.h>
#include <pmon/sim.h>

#include "geom.h"

void vgeom_from_sim(const struct pmon_sim *sim, struct vgeom *g)
{
	const struct pmon_sim_shape *s = pmon_sim_shape(sim);

	memset(g, 0, sizeof(*g));
	g->sockets = s->sockets;
	g->cores = s->cores;
	g->threads = s->threads;
	g->channels = s->channels;
	g->llc_bytes = s->llc_bytes;
	g->dclk_hz = (double)s->dclk_hz;
	g->uclk_hz = (double)s->uclk_hz;
	g->qclk_hz = (double)s->qclk_hz;
	g->pclk_hz = (double)s->pclk_hz;
	g->tsc_hz = (double)s->tsc_hz;
	g->l1_bytes = s->l1_bytes;
	g->l2_bytes = s->l2_bytes;
	g->l1_ways = s->l1_ways;
	g->l2_ways = s->l2_ways;
	g->llc_ways = s->llc_ways;
	g->pf_dis = (unsigned)s->prefetch & 0xfu;
	g->prefetch = g->pf_dis != 0xfu;
	g->mem_bytes = s->mem_bytes;
	for (int i = 0; i < VSUP_N && i < PMON_SIM_NSUPPLIERS; i++)
		g->lat_ns[i] = s->lat_ns[i];
	/* The shape's generation (gen=nhm-ep, wsm-ep).  Silicon's LLC is one
	 * array; the emulated machine's is the hierarchy's per-core slices
	 * (doc/sim-nhm.md, "what differs from silicon"): its documented
	 * indexing is what decides which lines share a set here. */
	if (s->gen == PMON_SIM_GEN_NHMEP || s->gen == PMON_SIM_GEN_WSMEP) {
		g->gen = s->gen == PMON_SIM_GEN_NHMEP ? VG_NHMEP : VG_WSMEP;
		g->slices = s->cores;
		g->nt_erratum = s->nt_erratum;
		g->pclk_hz = 0;                  /* no PCU */
	}
}

static uint64_t sc(int name, uint64_t dflt)
{
	long v = sysconf(name);
	return v > 0 ? (uint64_t)v : dflt;
}

/* Has the machine a box of this type (the catalogue's box_type) on socket 0? */
static int has_box_type(const struct pmon_machine *m, const char *type)
{
	for (int p = 0; p < pmon_pmu_count(); p++) {
		pmon_pmu_info_t pi;
		if (pmon_pmu_get(p, &pi) == PMON_OK && !strcmp(pi.box_type, type) &&
		    pmon_machine_pmu_present(m, p, 0) > 0)
			return 1;
	}
	return 0;
}

void vgeom_from_hw(const struct pmon_machine *m, struct vgeom *g)
{
	memset(g, 0, sizeof(*g));
	g->sockets = pmon_machine_nsockets(m);
	/* Cores: the CBos present (one per core); channels: the iMC channels
	 * present; both as the machine's box discovery found them. */
	char name[32];
	g->cores = g->channels = 0;
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "snbep_unc_cbo%d", i);
		int pmu = pmon_pmu_find(name);
		if (pmu >= 0 && pmon_machine_pmu_present(m, pmu, 0) > 0)
			g->cores++;
	}
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "snbep_unc_imc%d", i);
		int pmu = pmon_pmu_find(name);
		if (pmu >= 0 && pmon_machine_pmu_present(m, pmu, 0) > 0)
			g->channels++;
	}
	if (g->cores < 1)
		g->cores = 1;
	if (g->channels < 1)
		g->channels = 1;
	int ncpus = pmon_machine_ncpus(m);
	g->threads = g->sockets > 0 && ncpus / g->sockets > g->cores ? 2 : 1;
	/* Nehalem-EP / Westmere-EP: one uncore PMU a socket, no CBos; cores
	 * from the CPUs (two threads a core when their number is even). */
	for (int gen = VG_NHMEP; gen <= VG_WSMEP; gen++) {
		int pmu = pmon_pmu_find(gen == VG_NHMEP ? "nhm_unc" : "wsm_unc");
		if (pmu < 0 || pmon_machine_pmu_present(m, pmu, 0) <= 0)
			continue;
		int per = g->sockets > 0 ? ncpus / g->sockets : ncpus;
		g->gen = gen;
		g->slices = 1;
		g->channels = 3;
		g->nt_erratum = 1;
		g->threads = per > 1 && per % 2 == 0 ? 2 : 1;
		g->cores = per / g->threads > 0 ? per / g->threads : 1;
	}
	g->llc_bytes = sc(_SC_LEVEL3_CACHE_SIZE, 20u << 20);
	g->l1_bytes = sc(_SC_LEVEL1_DCACHE_SIZE, 32u << 10);
	g->l2_bytes = sc(_SC_LEVEL2_CACHE_SIZE, 256u << 10);
	g->l1_ways = (int)sc(_SC_LEVEL1_DCACHE_ASSOC, 8);
	g->l2_ways = (int)sc(_SC_LEVEL2_CACHE_ASSOC, 8);
	g->llc_ways = (int)sc(_SC_LEVEL3_CACHE_ASSOC, 20);
	g->pf_dis = 0;                   /* silicon prefetches unless disabled */
	g->prefetch = 1;
	/* The PCU clock is a constant 800 MHz where the machine has a PCU box
	 * (SNB-EP); without one (Nehalem-EP, Westmere-EP) it is unknown. */
	g->pclk_hz = has_box_type(m, "pcu") ? 800e6 : 0;
}

int vgeom_slices(const struct vgeom *g)
{
	return g->slices > 0 ? g->slices : g->cores;
}

void vgeom_nhm(struct vgeom *g, int gen)
{
	int wsm = gen == VG_WSMEP;
	g->gen = gen;
	g->sockets = 2;
	g->cores = wsm ? 6 : 4;
	g->threads = 2;
	g->channels = 3;
	g->slices = 1;
	g->llc_bytes = (wsm ? 12ull : 8ull) << 20;
	g->llc_ways = 16;
	g->l1_bytes = 32u << 10;
	g->l2_bytes = 256u << 10;
	g->l1_ways = g->l2_ways = 8;
	g->uclk_hz = 2.66e9;
	g->qclk_hz = 0.8e9;
	g->dclk_hz = 0.667e9;
	g->tsc_hz = 2.93e9;
	g->pclk_hz = 0;
	g->nt_erratum = 1;
}

int vgeom_llc_slice(const struct vgeom *g, uint64_t paddr)
{
	uint64_t line = paddr / 64;
	uint64_t h = (line * 0x9E3779B97F4A7C15ull) >> 32;    /* wraps mod 2^64 */
	return (int)((h * (uint64_t)vgeom_slices(g)) >> 32);
}

int vgeom_dram_locate(const struct vgeom *g, uint64_t addr, struct vdram_loc *out)
{
	if (g->mem_bytes == 0 || g->channels < 1 || addr / g->mem_bytes >= (uint64_t)g->sockets)
		return -1;
	uint64_t line = addr % g->mem_bytes / 64;
	uint64_t cl = line / (uint64_t)g->channels;
	out->socket = (int)(addr / g->mem_bytes);
	out->channel = (int)(line % (uint64_t)g->channels);
	out->column = cl % 128;
	out->bank = (int)(cl / 128 % 8);
	out->rank = (int)(cl / 1024 % 2);
	out->row = cl / 2048;
	return 0;
}
