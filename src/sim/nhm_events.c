/*
 * nhm_events.c - the Nehalem-EP / Westmere-EP uncore events the model
 * drives, from the hierarchy's own events (sim_llc_path.h raises them into
 * the SNB-EP boxes' queues; on these machines they are replayed here).
 * The event codes and umasks are the guide's (../shared/seeds/000_*,
 * Tables 20-38) as libpmon's catalogue has them (src/nhm/unc_events.c);
 * this file decodes the select register itself.
 *
 *   event                        from                       umask bits
 *   0x08 LLC_HITS / 0x09 MISS    an LLC lookup (its state)  READ 1 (reads, RFOs,
 *                                                           prefetches) WRITE 2 (L2
 *                                                           write-backs, streaming
 *                                                           stores) PROBE 4 (snoops)
 *   0x0A LLC_LINES_IN            an LLC fill, by state      M 1 E 2 S 4 F 8
 *   0x0B LLC_LINES_OUT           an LLC victim, by state    M 1 E 2 S 4 F 0x10 (I 8
 *                                                           never: refused alone)
 *   0x03 GQ_ALLOC                read tracker: core reads   RT 1, RT_LLC_MISS 2,
 *                                and RFOs; write tracker:   WT 0x20, PPT 0x40
 *                                write-backs and streaming
 *                                stores; peer probes: snoops
 *   0x02 GQ_TRACKER_OCCUP (NHM)  each entry's lifetime      RT 1, WT 0x20
 *        GC_OCCUPANCY (WSM)      (the model's latency)      READ_TRACKER 1
 *   0x20 QHL_REQUESTS            home requests (at the      REMOTE_READS 4,
 *                                line's home socket)        REMOTE_WRITES 8,
 *                                                           LOCAL_READS 0x10,
 *                                                           LOCAL_WRITES 0x20
 *   0x23 QHL_OCCUPANCY           each home request's        REMOTE 2 (lat_rdram),
 *                                lifetime                   LOCAL 4 (lat_dram)
 *   0x06 / 0x07 SNP_RESP_TO_   a snoop of this LLC, to    I_STATE 1, S_STATE 2,
 *        LOCAL / REMOTE_HOME the line's home (local:     FWD_S_STATE 4 (E/F, read),
 *                            this socket)                FWD_I_STATE 8 (M, RFO), WB
 *                                                        0x20 (M, read); CONFLICT
 *                                                        0x10 never
 *   0x0C GQ_SNOOP            a snoop finding the line    GOTO_S 1, GOTO_I 2; 4 / 8
 *                                                        with MSR 0x301's transition
 *   0x2C IMC_NORMAL_READS        DRAM reads per channel     CH0-2 1/2/4
 *   0x2F IMC_WRITES              DRAM writes per channel    FULL 1/2/4, PARTIAL 8/0x10/0x20
 *   0x60 DRAM_OPEN               activates per channel      CH0-2
 *   0x62 DRAM_PAGE_MISS          precharges of another row  CH0-2
 *   0x63 / 0x64 DRAM_READ/WRITE_CAS  CAS per channel        CH0 1, CH1 4, CH2 0x10
 *                                                           (AUTOPRE never: open page)
 * A umask of several bits counts the sum of its bits' events.  Everything
 * else is refused (sim_nhm_models): the model carries no I/O hub traffic,
 * no cycle-by-cycle queue state (FULL, NOT_EMPTY, BUSY, cmask > 1 on an
 * occupancy), no QPI link state, no idle page closing, no refresh.
 */
#include <string.h>

#include "nhm_sim.h"
#include "sim_events.h"

/* The umask bits the model drives, per event code (0: the event is not
 * modeled); occupancy events are marked. */
struct nhm_ev {
	uint8_t code, bits, occ;
};

static const struct nhm_ev evs_nhm[] = {
	{ 0x02, 0x21, 1 }, { 0x03, 0x63, 0 }, { 0x08, 0x07, 0 }, { 0x09, 0x07, 0 },
	{ 0x0a, 0x0f, 0 }, { 0x0b, 0x17, 0 }, { 0x20, 0x3c, 0 }, { 0x23, 0x06, 1 },
	{ 0x2c, 0x07, 0 }, { 0x2f, 0x3f, 0 }, { 0x60, 0x07, 0 }, { 0x62, 0x07, 0 },
	{ 0x63, 0x15, 0 }, { 0x64, 0x15, 0 }, { 0x06, 0x2f, 0 }, { 0x07, 0x2f, 0 },
	{ 0x0c, 0x0f, 0 },
};

static const struct nhm_ev *ev_find(unsigned code)
{
	for (size_t i = 0; i < sizeof evs_nhm / sizeof evs_nhm[0]; i++)
		if (evs_nhm[i].code == code)
			return &evs_nhm[i];
	return NULL;
}

/* The umask the model drives for this select, 0 when not modeled.  Bits of
 * the umask outside the modeled ones: not modeled, except the CAS events'
 * auto-precharge bits and the LLC victims' I bit (the model has neither:
 * with a modeled bit beside them, their share is 0 as on silicon with no
 * such command). */
static unsigned ev_umask(const struct nhm_ev *e, unsigned umask, int wsm)
{
	unsigned extra = e->code == 0x63 || e->code == 0x64 ? 0x2a : e->code == 0x0b ? 0x08
		       : e->code == 0x06 || e->code == 0x07 ? 0x10 : 0;

	if (!(umask & e->bits) || (umask & ~(e->bits | extra)))
		return 0;
	if (e->code == 0x02 && wsm && umask != 0x01)
		return 0;                 /* Westmere's 0x02: GC_OCCUPANCY, read tracker only */
	return umask;
}

void sim_nhm_decode(struct sim_ctr *c, uint32_t ctl, int wsm)
{
	const struct nhm_ev *e = ev_find(ctl & 0xff);
	unsigned um = e ? ev_umask(e, (ctl >> 8) & 0xff, wsm) : 0;

	if (!um)
		return;
	c->sig = NHM_SIG(e->code);
	c->arg = um;
}

/* ---- the hierarchy's events ---- */

/* How many of the n events (the bits of `which` they set: one event may
 * answer several umask bits) a counter selecting umask um counts. */
static inline uint64_t sel(unsigned um, unsigned which, uint64_t n)
{
	return n * (uint64_t)__builtin_popcount(um & which);
}

static const unsigned st_in[] = { [SIM_M] = 0x01, [SIM_E] = 0x02, [SIM_S] = 0x04, [SIM_F] = 0x08 };
static const unsigned st_out[] = { [SIM_M] = 0x01, [SIM_E] = 0x02, [SIM_S] = 0x04, [SIM_F] = 0x10 };

/* What the event (key k of box b) is to a counter of code `code`, umask um:
 * the events it counts (*occ for occupancy events: the cycles to add). */
static uint64_t count_of(const struct pmon_sim *sim, const struct sim_box *b, uint64_t k,
			 unsigned code, unsigned um, uint64_t n, uint64_t occ, int *is_occ,
			 uint64_t mesf)
{
	unsigned a = (unsigned)(k >> 16) & 0xff, st = (unsigned)(k >> 8) & 0xff;

	*is_occ = 0;
	switch ((int)(k >> 56)) {
	case SIM_PK_LOOKUP: {     /* a = request type, st = LLC state found */
		unsigned t = a == SIM_LOOKUP_READ ? 1 : a == SIM_LOOKUP_WRITE ? 2 : 4;
		if (code == 0x08 && st != SIM_I)
			return sel(um, t, n);
		if (code == 0x09 && st == SIM_I)
			return sel(um, t, n);
		if (code == 0x03 && t == 4)
			return sel(um, 0x40, n);
		return 0;
	}
	case SIM_PK_SNP: {        /* st = the socket's state, bit 4 invalidating, bit 0 home here */
		static const unsigned mesf_bit[] = { [SIM_M] = 0x01, [SIM_E] = 0x02, [SIM_S] = 0x04,
						     [SIM_F] = 0x08 };
		unsigned inval = (unsigned)(k >> 4) & 1, here = (unsigned)k & 1, rsp;
		if (code == 0x06 || code == 0x07) {
			if ((code == 0x06) != here)
				return 0;
			rsp = st == SIM_I ? 0x01 : st == SIM_S ? 0x02 : st == SIM_M ? (inval ? 0x08 : 0x20)
			    : inval ? 0 : 0x04;
			return sel(um, rsp, n);
		}
		if (code != 0x0c || st == SIM_I || st > SIM_F)
			return 0;
		return sel(um, inval ? 0x02 : 0x01, n) +
		       ((um & (inval ? 0x08 : 0x04)) && (mesf & (mesf_bit[st] << (inval ? 4 : 0))) ? n : 0);
	}
	case SIM_PK_FILL:
		return code == 0x0a && st <= SIM_F ? sel(um, st_in[st], n) : 0;
	case SIM_PK_VICTIM:
		return code == 0x0b && st <= SIM_F ? sel(um, st_out[st], n) : 0;
	case SIM_PK_TOR: {
		enum sim_tor_class cls = (enum sim_tor_class)((k >> 32) & 0xff);
		unsigned opc = (unsigned)(k >> 8) & 0x1ff, miss = (unsigned)(k >> 24) & 1, w;
		int rd = cls == SIM_TOR_REQ && (opc == SIM_OPC_DRD || opc == SIM_OPC_RFO);
		int wr = cls == SIM_TOR_WB ||
			 (cls == SIM_TOR_REQ && (opc == SIM_OPC_WCIL || opc == SIM_OPC_WCILF));
		w = rd ? (0x01u | (miss ? 0x02u : 0)) : wr ? 0x20u : 0;
		if (code == 0x03)
			return sel(um, w, n);
		if (code == 0x02) {
			*is_occ = 1;
			return sel(um, w & 0x21u, occ);
		}
		return 0;
	}
	case SIM_PK_HA_REQ: {     /* st = read or write, bit 0 local, bit 1 uncached */
		int local = (int)(k & 1), wr = st == SIM_HA_WRITE, unc = (int)(k >> 1) & 1;
		/* guide L1596-L1604, Table 39: an uncached (streaming) write is an
		 * InvItoE, a read request; from the other socket also a write */
		unsigned req = unc ? (local ? 0x10u : 0x0cu)
				   : local ? (wr ? 0x20u : 0x10u) : (wr ? 0x08u : 0x04u);
		if (code == 0x20)
			return sel(um, req, n);
		if (code == 0x23) {       /* each request holds its tracker entry */
			*is_occ = 1;
			return sel(um, local ? 0x04u : 0x02u, n * (uint64_t)__builtin_popcount(req)) *
			       sim->occ_uclk[local ? PMON_SIM_SUP_DRAM : PMON_SIM_SUP_RDRAM];
		}
		return 0;
	}
	case SIM_PK_IMC: {        /* the signals of DRAM accesses on channel b->inst */
		uint32_t sigs = (uint32_t)k;
		unsigned ch = 1u << b->inst, cas = 1u << (2 * b->inst);
		switch (code) {
		case 0x2c:
			return sigs & SIM_SIG_CAS_RD_REG ? sel(um, ch, n) : 0;
		case 0x2f:
			return (sigs & SIM_SIG_IMC_WR_FULL ? sel(um, ch, n) : 0) +
			       (sigs & SIM_SIG_CAS_RD_UNDER ? sel(um, ch << 3, n) : 0);
		case 0x60:
			return sigs & SIM_SIG_ACT ? sel(um, ch, n) : 0;
		case 0x62:
			return sigs & SIM_SIG_PRE_MISS ? sel(um, ch, n) : 0;
		case 0x63:
			return sigs & (SIM_SIG_CAS_RD_REG | SIM_SIG_CAS_RD_UNDER) ? sel(um, cas, n) : 0;
		case 0x64:
			return sigs & SIM_SIG_CAS_WR_WMM ? sel(um, cas, n) : 0;
		default:
			return 0;
		}
	}
	default:
		return 0;
	}
}

void sim_nhm_replay(struct pmon_sim *sim, const struct sim_box *b, uint64_t k, uint64_t n,
		    uint64_t occ)
{
	struct sim_nhm_unc *u = &sim->nhm->unc[b->socket];

	for (int i = 0; i < NHM_NCTR; i++) {
		struct sim_ctr *c = &u->ctr[i];
		int is_occ;
		uint64_t m;

		if (!c->active)
			continue;
		m = count_of(sim, b, k, c->sig & 0xff, c->arg, n, occ, &is_occ, u->mesf);
		if (!m)
			continue;
		if (!is_occ)
			sim_ctr_events(c, m);
		else if (!c->thresh)      /* cycles with entries: not modeled */
			sim_ctr_add(c, m);
	}
}

/* The hierarchy queues a box's events only when the box's mon/rel bits ask
 * for them: while some counter of a socket's uncore counts, its LLC, home
 * and memory channels queue everything they raise. */
void sim_nhm_subscribe(struct pmon_sim *sim, int s)
{
	struct sim_socket *k = &sim->sock[s];
	struct sim_nhm_unc *u = &sim->nhm->unc[s];
	int on = 0;
	uint32_t any = 0;

	for (int i = 0; i < NHM_NCTR; i++)
		on |= u->ctr[i].active;
	u->active = on;
	for (int i = 0; i < sim->shape.cores; i++) {
		k->cbo[i].mon = on ? SIM_SIG_LLC_VICTIM | SIM_SIG_LLC_FILL | SIM_SIG_SNP_RSP : 0;
		k->cbo[i].rel = on ? ~0u : 0;
	}
	k->ha.mon = on ? SIM_SIG_HA_REQ : 0;
	for (int i = 0; i < sim->shape.channels; i++)
		k->imc[i].mon = on ? SIM_SIG_CAS_RD_REG | SIM_SIG_CAS_RD_UNDER | SIM_SIG_CAS_WR_WMM |
				     SIM_SIG_ACT | SIM_SIG_PRE_MISS | SIM_SIG_IMC_WR_FULL : 0;
	for (int t = 0; t < sim->shape.sockets; t++)
		if (sim->nhm->unc[t].active)
			any = ~0u;
	sim->rel_any = any;
}

int sim_nhm_models(int gen, const char *box_type, uint64_t ctl, uint64_t filt0)
{
	int wsm = gen == PMON_SIM_GEN_WSMEP;
	const char *pmu = wsm ? "wsm_unc" : "nhm_unc";
	size_t pl = strlen(pmu);
	struct sim_ctr c;

	if (!box_type)
		return 0;
	if (!strcmp(box_type, "core"))
		return sim_nhm_offcore_modeled(gen, ctl, filt0);
	if (!strcmp(box_type, "core-fixed"))
		return ctl == 1 || ctl == 2;
	if (strncmp(box_type, pmu, pl))
		return 0;
	if (!strcmp(box_type + pl, "-fixed"))
		return 1;                 /* UNC_CLK_UNHALTED: UCLK */
	if (box_type[pl] || (ctl & ~NHM_SEL_VALID))
		return 0;
	sim_ctr_init(&c, NHM_WIDTH);
	sim_nhm_decode(&c, (uint32_t)ctl, wsm);
	/* memory events: each alone in its cycle (cmask 0 or 1, no invert or
	 * edge); occupancies: cmask 0 (the FULL / BUSY forms need cycle-by-cycle
	 * queue depths) */
	if (!c.sig || (ctl >> 24) > 1 || (ctl & ((1u << 23) | (1u << 18))))
		return 0;
	if (ev_find(c.sig & 0xff)->occ && (ctl >> 24))
		return 0;
	return 1;
}
