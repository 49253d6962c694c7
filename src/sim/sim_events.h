/*
 * sim_events.h - the events the memory hierarchy raises in the boxes and
 * core PMUs, queued per box (sim_pend.c) and matched against counters when
 * a traffic call ends.
 */
#ifndef PMON_SIM_EVENTS_H
#define PMON_SIM_EVENTS_H

#include <stdint.h>

#include "sim_machine.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

/* Events the hierarchy raises in the boxes: each is queued (sim_pend_add)
 * only when some active counter of the box counts that signal, and matched
 * by the box's *_counted function, n events at once, when the traffic call
 * ends (sim_pend_flush). */
#define SIM_LOOKUP_READ   0x02u        /* LLC_LOOKUP request types */
#define SIM_LOOKUP_WRITE  0x04u
#define SIM_LOOKUP_SNOOP  0x08u
enum sim_tor_class { SIM_TOR_REQ, SIM_TOR_WB, SIM_TOR_EVICT };
#define SIM_OPC_RFO     0x180u
#define SIM_OPC_DRD     0x182u
#define SIM_OPC_WCILF   0x18cu
#define SIM_OPC_WCIL    0x18du
#define SIM_OPC_WBMTOI  0x1c4u
/* n events at once; occ: their summed TOR occupancy in UCLK cycles. */
void sim_cbo_lookup_counted(struct sim_box *b, unsigned type, int state, int nid, uint64_t n);
void sim_cbo_victim_counted(struct sim_box *b, int state, int nid, uint64_t n);
void sim_cbo_tor_counted(struct sim_box *b, enum sim_tor_class cls, unsigned opc, int miss,
			 int nid, uint64_t n, uint64_t occ);
enum sim_ha_what { SIM_HA_READ, SIM_HA_WRITE };
void sim_ha_request_counted(struct sim_box *b, enum sim_ha_what what, int local, uint64_t n);
void sim_ha_imc_write_counted(struct sim_box *b, int partial, uint64_t n);
void sim_ha_txr_bl_counted(struct sim_box *b, int to_qpi, uint64_t n);
enum sim_qpi_class { SIM_QPI_SNP, SIM_QPI_HOM_REQ, SIM_QPI_HOM_NONREQ, SIM_QPI_DRS, SIM_QPI_NDR };
/* A message's data flits: a DRS message carries a line, the others none. */
#define SIM_QPI_DATA_FLITS(cls) ((cls) == SIM_QPI_DRS ? 8u : 0u)
void sim_qpi_count_counted(struct sim_box *b, int rx, enum sim_qpi_class cls, unsigned data_flits,
			   uint64_t n);
void sim_r3qpi_rxr_counted(struct sim_box *b, enum sim_qpi_class cls, uint64_t n);
void sim_core_offcore_counted(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
			      uint64_t snoop, uint64_t n);

/* ---- queued events (sim_pend.c) ---- */
void sim_pend_new(struct pmon_sim *sim, struct sim_pendq *q, uint64_t k, uint64_t occ,
		  uint64_t n);
/* Match every queued event; every traffic entry point calls it before it
 * lets the lock go. */
void sim_pend_match_all(struct pmon_sim *sim);
static inline void sim_pend_flush(struct pmon_sim *sim)
{
	if (sim->pend)
		sim_pend_match_all(sim);
}
static inline unsigned sim_pend_slot(uint64_t k)
{
	return (unsigned)((k * 0x9E3779B97F4A7C15ull) >> 60);    /* 0..SIM_NPEND-1 */
}
static inline __attribute__((always_inline)) void sim_pend_add(struct pmon_sim *sim,
							       struct sim_pendq *q, uint64_t k,
							       uint64_t occ, uint64_t n)
{
	struct sim_pend *e = &q->e[sim_pend_slot(k)];

	if (e->k != k)
		e = &q->e[sim_pend_slot(k) ^ 1];
	if (e->k == k) {
		e->n += n;
		e->occ += occ * n;
		return;
	}
	sim_pend_new(sim, q, k, occ, n);
}
/* Keys: bits 63:56 the event, the rest its arguments. */
#define SIM_PK(ev) ((uint64_t)(ev) << 56)
enum { SIM_PK_LOOKUP = 1, SIM_PK_VICTIM, SIM_PK_TOR, SIM_PK_HA_REQ, SIM_PK_HA_IMC_WR,
       SIM_PK_HA_TXR_BL, SIM_PK_QPI, SIM_PK_IMC, SIM_PK_R3, SIM_PK_FILL,
       SIM_PK_SNP };

/* Finer than mon, for the events most accesses raise: a CBo's lookups by
 * request type and its TOR entries by class and miss, a QPI port's messages
 * by direction and class.  An event none of the box's active counters may
 * count (whatever the filters hold) is not queued: matched, it would count
 * nothing.  sim->rel_any, the bits of all those boxes together, answers
 * first for the machine (most events concern no counter anywhere). */
#define SIM_REL_LOOKUP(type)   ((uint32_t)(type))                     /* bits 1-3 */
#define SIM_REL_TOR(cls, miss) (1u << (8 + 2 * (unsigned)(cls) + (unsigned)(miss)))
#define SIM_REL_QPI(rx, cls)   (1u << (16 + 5 * (unsigned)(rx) + (unsigned)(cls)))

static inline void sim_cbo_lookup(struct pmon_sim *sim, struct sim_box *b, unsigned type,
				  int state, int nid, uint64_t n)
{
	if ((sim->rel_any & SIM_REL_LOOKUP(type)) && (b->rel & SIM_REL_LOOKUP(type)))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_LOOKUP) | type << 16 | (unsigned)state << 8 |
			     (unsigned)nid, 0, n);
}
static inline void sim_cbo_victim(struct pmon_sim *sim, struct sim_box *b, int state, int nid,
				  uint64_t n)
{
	if (b->mon & SIM_SIG_LLC_VICTIM)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_VICTIM) | (unsigned)state << 8 |
			     (unsigned)nid, 0, n);
}
/* n lines filled into the LLC in a state (only the Nehalem uncore counts them). */
static inline void sim_cbo_fill(struct pmon_sim *sim, struct sim_box *b, int state, uint64_t n)
{
	if (b->mon & SIM_SIG_LLC_FILL)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_FILL) | (unsigned)state << 8, 0, n);
}
/* n snoops of b's socket found the line in a state (M when dirty anywhere
 * in the socket); inval: the snoop invalidates (an RFO's, a streaming
 * store's), else it leaves the line Shared; here: the line's home is this
 * socket (only the Nehalem uncore counts them). */
static inline void sim_cbo_snoop_rsp(struct pmon_sim *sim, struct sim_box *b, int state, int inval,
				     int here, uint64_t n)
{
	if (b->mon & SIM_SIG_SNP_RSP)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_SNP) | (unsigned)state << 8 |
			     (unsigned)inval << 4 | (unsigned)here, 0, n);
}
static inline void sim_cbo_tor(struct pmon_sim *sim, struct sim_box *b, enum sim_tor_class cls,
			       unsigned opc, int miss, int nid, uint64_t occ_cycles, uint64_t n)
{
	if ((sim->rel_any & SIM_REL_TOR(cls, miss)) && (b->rel & SIM_REL_TOR(cls, miss)))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_TOR) | (uint64_t)cls << 32 |
			     (unsigned)miss << 24 | opc << 8 | (unsigned)nid, occ_cycles, n);
}
static inline void sim_ha_request(struct pmon_sim *sim, struct sim_box *b, enum sim_ha_what what,
				  int local, uint64_t n)
{
	if (b->mon & (SIM_SIG_HA_REQ | SIM_SIG_HA_TRACKER))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_HA_REQ) | (unsigned)what << 8 |
			     (unsigned)local, 0, n);
}
static inline void sim_ha_imc_write(struct pmon_sim *sim, struct sim_box *b, int partial)
{
	if (b->mon & SIM_SIG_HA_IMC_WR)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_HA_IMC_WR) | (unsigned)partial, 0, 1);
}
static inline void sim_ha_txr_bl(struct pmon_sim *sim, struct sim_box *b, int to_qpi, uint64_t n)
{
	if (b->mon & SIM_SIG_HA_TXR_BL)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_HA_TXR_BL) | (unsigned)to_qpi, 0, n);
}
static inline void sim_qpi_count(struct pmon_sim *sim, struct sim_box *b, int rx,
				 enum sim_qpi_class cls, unsigned data_flits, uint64_t n)
{
	if ((sim->rel_any & SIM_REL_QPI(rx, cls)) && (b->rel & SIM_REL_QPI(rx, cls)))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_QPI) | data_flits << 16 | (unsigned)rx << 8 |
			     (unsigned)cls, 0, n);
}
/* n messages of a class leave the ring for QPI through an R3QPI link's
 * ingress (the link they are sent on). */
static inline void sim_r3qpi_ingress(struct pmon_sim *sim, struct sim_box *b, enum sim_qpi_class cls,
				     uint64_t n)
{
	if (b->mon & SIM_SIG_R3_RXR)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_R3) | (unsigned)cls, 0, n);
}
/* iMC signals of one DRAM access (sim_box_signal, queued); any box's plain
 * signals take the same way (the UBox's lock sequences). */
static inline void sim_imc_signal(struct pmon_sim *sim, struct sim_box *b, uint32_t sigs,
				  uint64_t n)
{
	if (b->mon & sigs)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_IMC) | sigs, 0, n);
}
/* An offcore response of cpu's access (counted when some counter of the
 * CPU, or of a sibling with AnyThread, counts offcore responses).  A run
 * of equal responses is queued once, n at a time, when a different one
 * comes or the batch ends (sim_core_offcore_end). */
static inline void sim_core_offcore(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
				    uint64_t snoop)
{
	struct sim_thread *t = &sim->cpu[cpu];
	uint64_t k = req | supplier | snoop;

	if (!t->offcore_on)
		return;
	if (k == t->rsp_key) {
		t->rsp_n++;
		return;
	}
	if (t->rsp_n)
		sim_pend_add(sim, &t->pq, t->rsp_key, 0, t->rsp_n);
	t->rsp_key = k;
	t->rsp_n = 1;
}
static inline void sim_core_offcore_end(struct pmon_sim *sim, int cpu)
{
	struct sim_thread *t = &sim->cpu[cpu];

	if (t->rsp_n)
		sim_pend_add(sim, &t->pq, t->rsp_key, 0, t->rsp_n);
	t->rsp_n = 0;
}

#pragma GCC visibility pop

#endif
