/*
 * sim_tally_path.h - a batch's tallied counts: the counts of the commonest
 * events, the same for many accesses of one batch (an LLC eviction, a clean
 * read), are tallied by cell while the batch runs and added n at a time when
 * it ends (tally_flush).  Part of the access path (sim_path.h), included by
 * sim_llc_path.h.
 */
#ifndef PMON_SIM_TALLY_PATH_H
#define PMON_SIM_TALLY_PATH_H

#include "sim_home_path.h"

#pragma GCC visibility push(hidden)

/* Tallies of a batch (struct sim_tally): a cell's count goes up by one. */
SIM_HOT void tally_add(struct sim_tally *t, unsigned cell)
{
	if (!t->n[cell]++)
		t->used[cell / 64] |= 1ull << (cell % 64);
}

/* The next cell with a count, its count in *n (the cell emptied), or -1. */
static inline int tally_next(struct sim_tally *t, uint64_t *n)
{
	for (unsigned w = 0; w < SIM_TALLY_CELLS / 64; w++)
		if (t->used[w]) {
			unsigned cell = w * 64 + (unsigned)__builtin_ctzll(t->used[w]);
			t->used[w] &= t->used[w] - 1;
			*n = t->n[cell];
			t->n[cell] = 0;
			return (int)cell;
		}
	return -1;
}

/* An LLC eviction's counts: the victim by state (0 M, 1 E, 2 S, 3 F), its
 * TOR entry; the same for every victim of one slice, state and home socket
 * of a batch (the requester's socket), so tallied by those and added n at
 * a time when the batch ends (tally_flush). */
#define SIM_EVICT_CELL(slice, vi, home) \
	((((unsigned)(slice) * 4 + (unsigned)(vi)) * SIM_MAX_SOCKETS) + (unsigned)(home))

_Static_assert(SIM_MAX_CORES * 4 * SIM_MAX_SOCKETS <= SIM_TALLY_CELLS &&
	       SIM_MAX_SOCKETS * SIM_MAX_CORES * 4 <= SIM_TALLY_CELLS,
	       "a tally's cells hold every eviction and clean-read cell");

static void evict_count(struct pmon_sim *sim, int socket, unsigned slice, int vi, int home,
			uint64_t n)
{
	static const int state[] = { SIM_M, SIM_E, SIM_S, SIM_F };
	struct sim_socket *s = &sim->sock[socket];
	int nid = nid_of(sim, home);

	s->slice_truth[slice].victims[vi] += n;
	s->slice_truth[slice].tor_inserts += n;
	sim_cbo_victim(sim, &s->cbo[slice], state[vi], nid, n);
	sim_cbo_tor(sim, &s->cbo[slice], SIM_TOR_EVICT, 0, 0, nid, sim->occ_uclk[PMON_SIM_SUP_LLC], n);
}

/* The common LLC miss, a clean read: every other socket's snoop misses
 * (its LLC is empty or lacks the line), the home reads the line from DRAM.
 * Its counts other than the DRAM bank's and the core's are the same for
 * every such read of one requester, home, slice, QPI link and kind, so a
 * batch tallies them (sim->clean, by cell) and adds them once per cell, n
 * at a time, when the batch ends (tally_flush): counting is additive and
 * nothing reads a count before the traffic call returns. */
#define SIM_CLEAN_CELL(home, slice, link, rfo) \
	((((unsigned)(home) * SIM_MAX_CORES + (slice)) * 2 + (unsigned)(link)) * 2 + (unsigned)(rfo))

/* The counts of n clean reads by socket req (home, slice, link, rfo: the
 * tally's cell): the slice's lookup and TOR entry, the home agent's read
 * and DRAM read, the home snoop of every other socket (its lookup and the
 * QPI messages), the data over QPI when the home is remote.  The same
 * messages and events, in the same classes, as ha_read's path for such a
 * read. */
static void clean_count(struct pmon_sim *sim, int req, int home, unsigned slice, int link,
			int rfo, uint64_t n)
{
	struct sim_socket *s = &sim->sock[req], *h = &sim->sock[home];
	struct pmon_sim_slice_truth *st = &s->slice_truth[slice];
	int nid = nid_of(sim, home), local = home == req;

	st->lookups += n;
	st->tor_inserts += n;
	st->misses += n;
	st->tor_misses += n;
	sim_cbo_lookup(sim, &s->cbo[slice], SIM_LOOKUP_READ, SIM_I, nid, n);
	sim_cbo_fill(sim, &s->cbo[slice], SIM_E, n);
	if (local)
		h->ha_truth.reads_local += n;
	else
		h->ha_truth.reads_remote += n;
	sim_ha_request(sim, &h->ha, SIM_HA_READ, local, n);
	if (!local)
		qpi_msgs(sim, req, home, link, SIM_QPI_HOM_REQ, n);
	for (int o = 0; o < sim->shape.sockets; o++) {
		if (o == req)
			continue;
		if (o != home)
			qpi_msgs(sim, home, o, link, SIM_QPI_SNP, n);
		sim->sock[o].slice_truth[slice].snoops += n;
		sim_cbo_lookup(sim, &sim->sock[o].cbo[slice], SIM_LOOKUP_SNOOP, SIM_I, nid, n);
		sim_cbo_snoop_rsp(sim, &sim->sock[o].cbo[slice], SIM_I, rfo, o == home, n);
		if (o != home)
			qpi_msgs(sim, o, home, link, SIM_QPI_HOM_NONREQ, n);
	}
	h->ha_truth.imc_reads += n;
	sim_ha_txr_bl(sim, &h->ha, !local, n);
	if (!local)
		qpi_msgs(sim, home, req, link, SIM_QPI_DRS, n);
	sim_cbo_tor(sim, &s->cbo[slice], SIM_TOR_REQ, rfo ? SIM_OPC_RFO : SIM_OPC_DRD, 1, nid,
		    sim->occ_uclk[local ? PMON_SIM_SUP_DRAM : PMON_SIM_SUP_RDRAM], n);
}

/* A clean read's offcore-response supplier and snoop bits (local: the
 * line's home is the requester's socket): the home snoops every other
 * socket, which misses; with one socket there is none to snoop. */
static inline uint64_t clean_rsp_sup(int local)
{
	return local ? SIM_RSP_LOCAL_DRAM : SIM_RSP_REMOTE_DRAM;
}

static inline uint64_t clean_rsp_snoop(int nsock)
{
	return nsock > 1 ? SIM_RSP_SNOOP_MISS : SIM_RSP_SNOOP_NOT_NEEDED;
}

/* Add the batch's tallies (clean reads, LLC evictions) of socket req. */
static void tally_flush(struct pmon_sim *sim, int req)
{
	uint64_t n;
	int c;

	while ((c = tally_next(&sim->clean, &n)) >= 0)
		clean_count(sim, req, c / (SIM_MAX_CORES * 4), (unsigned)c / 4 % SIM_MAX_CORES,
			    c / 2 % 2, c % 2, n);
	while ((c = tally_next(&sim->evicts, &n)) >= 0)
		evict_count(sim, req, (unsigned)c / (4 * SIM_MAX_SOCKETS), c / SIM_MAX_SOCKETS % 4,
			    c % SIM_MAX_SOCKETS, n);
	dram_flush(sim);
}

#pragma GCC visibility pop

#endif
