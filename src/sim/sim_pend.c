/*
 * sim_pend.c - memory events queued for counting.  The hierarchy raises
 * several box events per access; matching each against a box's counters as
 * it happens costs more than the access's own modelling.  Instead each box
 * (and each CPU, for offcore responses) queues its distinct events with a
 * multiplicity, and sim_pend_flush matches each distinct event with its
 * count (once, or once more each time its slot is needed for another
 * event), before the traffic call returns.  Counting is additive and the
 * counters' programming cannot change while a call holds the lock, so the
 * counts are exactly those of event-by-event matching.
 */
#include <stddef.h>

#include "sim_events.h"
#include "nhm_sim.h"

/* An offcore response's key: request bits 15:0, supplier bits 30:16 (bit 16,
 * ANY_RESPONSE, is never a supplier), snoop bits 36:31. */
#define SUPPLIER_BITS 0x7FFF0000ull

static void replay_box(struct pmon_sim *sim, struct sim_box *b, const struct sim_pend *e)
{
	uint64_t k = e->k;
	unsigned a = (unsigned)(k >> 16) & 0xFF, st = (unsigned)(k >> 8) & 0xFF;
	int nid = (int)(k & 0xFF);

	if (sim->nhm) {               /* the Nehalem uncore counts them */
		sim_nhm_replay(sim, b, k, e->n, e->occ);
		return;
	}
	switch ((int)(k >> 56)) {
	case SIM_PK_LOOKUP:
		sim_cbo_lookup_counted(b, a, (int)st, nid, e->n);
		break;
	case SIM_PK_VICTIM:
		sim_cbo_victim_counted(b, (int)st, nid, e->n);
		break;
	case SIM_PK_TOR:
		sim_cbo_tor_counted(b, (enum sim_tor_class)((k >> 32) & 0xFF),
				    (unsigned)(k >> 8) & 0x1FF, (int)((k >> 24) & 1), nid, e->n,
				    e->occ);
		break;
	case SIM_PK_HA_REQ:
		sim_ha_request_counted(b, (enum sim_ha_what)st, nid, e->n);
		break;
	case SIM_PK_HA_IMC_WR:
		sim_ha_imc_write_counted(b, (int)(k & 1), e->n);
		break;
	case SIM_PK_HA_TXR_BL:
		sim_ha_txr_bl_counted(b, nid, e->n);
		break;
	case SIM_PK_QPI:
		sim_qpi_count_counted(b, (int)st, (enum sim_qpi_class)nid, a, e->n);
		break;
	case SIM_PK_IMC:
		sim_box_signal_counted(b, (uint32_t)k, e->n);
		break;
	case SIM_PK_R3:
		sim_r3qpi_rxr_counted(b, (enum sim_qpi_class)nid, e->n);
		break;
	default:
		break;
	}
}

/* A box's queue is its first member: the queue converts to its box. */
_Static_assert(offsetof(struct sim_box, pq) == 0, "a box's queue must be its first member");

/* Match the events of one slot (or one event, not queued). */
static void match(struct pmon_sim *sim, struct sim_pendq *q, const struct sim_pend *e)
{
	if (q->cpu >= 0 && sim->nhm)
		sim_nhm_offcore_counted(sim, q->cpu, e->k & SIM_RSP_REQ_MASK, e->k & SUPPLIER_BITS,
					e->k & ~(SIM_RSP_REQ_MASK | SUPPLIER_BITS), e->n);
	else if (q->cpu >= 0)
		sim_core_offcore_counted(sim, q->cpu, e->k & SIM_RSP_REQ_MASK, e->k & SUPPLIER_BITS,
					 e->k & ~(SIM_RSP_REQ_MASK | SUPPLIER_BITS), e->n);
	else
		replay_box(sim, (struct sim_box *)(void *)q, e);
}

/* Match the events of one slot and free it. */
static void replay(struct pmon_sim *sim, struct sim_pendq *q, struct sim_pend *e)
{
	match(sim, q, e);
	e->k = 0;
}

/* An event whose two slots hold other events (or nothing). */
void sim_pend_new(struct pmon_sim *sim, struct sim_pendq *q, uint64_t k, uint64_t occ,
		  uint64_t n)
{
	struct sim_pend *e = &q->e[sim_pend_slot(k)];

	if (sim->pend_direct) {       /* one access: nothing to share a match with */
		struct sim_pend one = { k, n, occ * n };
		match(sim, q, &one);
		return;
	}
	if (e->k && !q->e[sim_pend_slot(k) ^ 1].k)
		e = &q->e[sim_pend_slot(k) ^ 1];
	if (e->k)
		replay(sim, q, e);    /* both taken: match what the first holds now */
	if (!q->used) {
		q->next = sim->pend;
		sim->pend = q;
	}
	q->used |= (uint16_t)(1u << (e - q->e));
	*e = (struct sim_pend){ k, n, occ * n };
}

void sim_pend_match_all(struct pmon_sim *sim)
{
	while (sim->pend) {
		struct sim_pendq *q = sim->pend;
		sim->pend = q->next;
		for (unsigned u = q->used; u; u &= u - 1)
			replay(sim, q, &q->e[__builtin_ctz(u)]);
		q->used = 0;
	}
}
