/*
 * nhm_offcore.c - the offcore-response events of the Nehalem-EP and
 * Westmere-EP cores (OFFCORE_RESPONSE_0: event 0xB7 umask 0x01 with
 * MSR_OFFCORE_RSP_0 0x1A6; Westmere also OFFCORE_RESPONSE_1: 0xBB with
 * 0x1A7), one RSP value per physical core.  The guide's matrix (Table 9,
 * ../shared/seeds/000_* L720-L740): request bits 7:0, response bits 15:8;
 * an access counts when one of its request bits and one of its response
 * bits are set.
 *
 * The hierarchy describes each access in the SNB-EP terms of
 * sim_core_path.h (request, supplier, snoop); here they become:
 *   request  DEMAND_DATA_RD 0x01, DEMAND_RFO 0x02, WB 0x08, PF_DATA_RD
 *            0x10, PF_RFO 0x20, streaming stores OTHER 0x80 (no code reads:
 *            IFETCH 0x04 / 0x40 never occur);
 *   response an LLC hit: UNCORE_HIT 0x100 (no other core held it, or none
 *            of those snooped had it), OTHER_CORE_HIT_SNP 0x200 (a clean
 *            copy), OTHER_CORE_HITM 0x400 (a modified one); an LLC miss:
 *            REMOTE_CACHE_HITM 0x800 / REMOTE_CACHE_FWD 0x1000 when the
 *            other socket's cache supplies it, else REMOTE_DRAM 0x2000 or
 *            LOCAL_DRAM 0x4000 by the line's home; a write-back: UNCORE_HIT
 *            (the inclusive LLC takes it); a streaming store: LOCAL_DRAM or
 *            REMOTE_DRAM by the line's home, except (the guide's erratum,
 *            L768-L795, shape key nt_erratum, on by default) a locally homed
 *            one: OTHER_CORE_HIT_SNP.  NON_DRAM 0x8000 never occurs.
 * Westmere-EP (CPU model 44, libpfm4's wsm_dp) gives bits 12 and 14 other
 * meanings: 0x1000 LOCAL_DRAM_AND_REMOTE_CACHE_HIT (a local DRAM read or a
 * clean forward), 0x2000 REMOTE_DRAM, 0x4000 OTHER_LLC_MISS, whose meaning
 * the sources do not pin down: an RSP value with it is refused.
 */
#include "nhm_sim.h"
#include "sim_events.h"

#define EVTSEL_ANY (1ull << 21)
#define RSP_OTHER_CORE_HIT_SNP 0x200u

static const uint64_t llc_hit = SIM_RSP_LLC_HITM | SIM_RSP_LLC_HITE | SIM_RSP_LLC_HITS |
				SIM_RSP_LLC_HITF;

/* The access as the guide's matrix sees it: request bit | response bit. */
static unsigned nhm_bits(const struct sim_nhm *n, uint64_t req, uint64_t sup, uint64_t snoop)
{
	unsigned r = 0, local = (sup & SIM_RSP_LOCAL_DRAM) != 0;

	if (req & SIM_RSP_DEMAND_DATA_RD) r = 0x01;
	else if (req & SIM_RSP_DEMAND_RFO) r = 0x02;
	else if (req & SIM_RSP_WB) r = 0x08;
	else if (req & SIM_RSP_PF_DATA_RD) r = 0x10;
	else if (req & SIM_RSP_PF_RFO) r = 0x20;
	else if (req & SIM_RSP_STREAMING_STORES) r = 0x80;
	if (r == 0x08)
		return r | 0x100;
	if (r == 0x80) {
		if (local && n->erratum)
			return r | RSP_OTHER_CORE_HIT_SNP;
		return r | (n->wsm ? (local ? 0x1000u : 0x2000u) : (local ? 0x4000u : 0x2000u));
	}
	if (sup & llc_hit)
		return r | (snoop & SIM_RSP_SNOOP_HITM ? 0x400u : snoop & SIM_RSP_SNOOP_NO_FWD ? 0x200u
										      : 0x100u);
	if (snoop & SIM_RSP_SNOOP_HITM)
		return r | 0x800;
	if (snoop & SIM_RSP_SNOOP_FWD)
		return r | 0x1000;
	if (n->wsm)
		return r | (local ? 0x1000u : 0x2000u);
	return r | (local ? 0x4000u : 0x2000u);
}

void sim_nhm_offcore_counted(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
			     uint64_t snoop, uint64_t n)
{
	const struct sim_nhm *nh = sim->nhm;
	int gcore = sim->cpu[cpu].gcore, first = gcore * sim->shape.threads;
	unsigned bits = nhm_bits(nh, req, supplier, snoop);

	for (int c = first; c < first + sim->shape.threads; c++) {
		struct sim_thread *t = &sim->cpu[c];
		for (int i = 0; i < 4; i++) {
			struct sim_ctr *p = &t->pmc[i];
			int k;
			if (!p->active || !p->sig)
				continue;
			if (c != cpu && !(p->ctl & EVTSEL_ANY))
				continue;
			k = (p->sig & SIM_SIG_OFFCORE0) ? 0 : 1;
			if (k && !nh->wsm)
				continue;         /* Nehalem has no OFFCORE_RESPONSE_1 */
			uint64_t rsp = nh->rsp[gcore][k];
			if ((rsp & bits & 0xff) && (rsp & bits & 0xff00))
				sim_ctr_events(p, n);
		}
	}
}

int sim_nhm_offcore_modeled(int gen, uint64_t ctl, uint64_t rsp)
{
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff;
	int wsm = gen == PMON_SIM_GEN_WSMEP;

	if (ev == 0x3c && um == 0)
		return !((ctl >> 24) == 0 && (ctl & ((1u << 23) | (1u << 18))));
	if (um != 0x01 || !(ev == 0xb7 || (ev == 0xbb && wsm)))
		return 0;
	if ((ctl >> 24) > 1 || (ctl & ((1u << 23) | (1u << 18))) || (rsp & ~0xffffull))
		return 0;
	if (wsm && (rsp & 0x4000))
		return 0;
	/* the requests and the responses the model produces */
	return (rsp & 0xbb) && (rsp & (wsm ? 0x3f00u : 0x7f00u));
}
