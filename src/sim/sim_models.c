/*
 * sim_models.c - pmon_sim_models(): does the activity model drive the event
 * a control value selects?  It decodes the control with the very decoders
 * the registers use, so the answer and the counting cannot disagree.
 */
#include <string.h>

#include "sim_events.h"
#include "nhm_sim.h"

static const struct sim_kind *const kinds[] = {
	&sim_kind_ubox, &sim_kind_cbo, &sim_kind_pcu, &sim_kind_ha, &sim_kind_imc,
	&sim_kind_qpi, &sim_kind_r2pcie, &sim_kind_r3qpi, &sim_kind_core,
};

const struct sim_kind *sim_kind_find(const char *name)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}

#define READS (SIM_RSP_DEMAND_DATA_RD | SIM_RSP_DEMAND_RFO | SIM_RSP_PF_DATA_RD | SIM_RSP_PF_RFO)

/* Can any access the model produces match this RSP value? */
static int offcore_modeled(uint64_t rsp)
{
	static const struct {
		uint64_t req, supplier, snoop;
	} produced[] = {
		/* reads and RFOs (the L2 prefetchers' among them) hitting the LLC */
		{ READS, SIM_RSP_LLC_HITM | SIM_RSP_LLC_HITE | SIM_RSP_LLC_HITS | SIM_RSP_LLC_HITF,
		  SIM_RSP_SNOOP_NOT_NEEDED | SIM_RSP_SNOOP_MISS | SIM_RSP_SNOOP_NO_FWD |
		  SIM_RSP_SNOOP_HITM },
		/* ... missing it: served by the home's memory or another socket */
		{ READS, SIM_RSP_LOCAL_DRAM | SIM_RSP_REMOTE_DRAM,
		  SIM_RSP_SNOOP_NOT_NEEDED | SIM_RSP_SNOOP_MISS | SIM_RSP_SNOOP_NO_FWD |
		  SIM_RSP_SNOOP_FWD | SIM_RSP_SNOOP_HITM },
		/* streaming stores and the cores' write-backs: no data back */
		{ SIM_RSP_STREAMING_STORES | SIM_RSP_WB, SIM_RSP_SUPPLIER_NONE, SIM_RSP_SNOOP_NONE },
	};

	if (rsp & ~SIM_RSP_VALID)
		return 0;
	for (size_t i = 0; i < sizeof produced / sizeof produced[0]; i++)
		if (sim_offcore_match(rsp, produced[i].req, produced[i].supplier, produced[i].snoop))
			return 1;
	return 0;
}

/* The CBo filter decides too: a lookup needs a state, an opcode sub-event
 * an opcode the model produces; occupancy has no threshold (cycles with
 * entries are not modeled).  (A NID sub-event with an empty node mask
 * counts nothing, as on silicon; the encoder asks for nf= anyway.) */
static int cbo_filter_modeled(const struct sim_ctr *c, unsigned thresh, uint64_t f)
{
	unsigned umask = c->arg, opc = (unsigned)(f >> 23) & 0x1FF;

	switch (c->sig) {
	case SIM_SIG_LLC_LOOKUP:
		return ((f >> 18) & 0x1F) != 0;
	case SIM_SIG_TOR_OCC:
		if (thresh)
			return 0;
		/* fall through */
	case SIM_SIG_TOR_INS:
		if ((umask & 0x3F) == 0x01)
			return opc == SIM_OPC_DRD || opc == SIM_OPC_RFO || opc == SIM_OPC_WCILF ||
			       opc == SIM_OPC_WCIL || opc == SIM_OPC_WBMTOI;
		if ((umask & 0x3F) == 0x03)
			return opc == SIM_OPC_DRD || opc == SIM_OPC_RFO || opc == SIM_OPC_WCILF ||
			       opc == SIM_OPC_WCIL;
		return 1;
	default:
		return 1;
	}
}

int pmon_sim_models(const char *box_type, uint64_t ctl, uint64_t filt0)
{
	const struct sim_kind *k;
	struct sim_ctr c;
	unsigned thresh;
	int inv, edge;

	if (!box_type)
		return 0;
	if (!strncmp(box_type, "nhm_unc", 7))
		return sim_nhm_models(PMON_SIM_GEN_NHMEP, box_type, ctl, filt0);
	if (!strncmp(box_type, "wsm_unc", 7))
		return sim_nhm_models(PMON_SIM_GEN_WSMEP, box_type, ctl, filt0);
	if (!strcmp(box_type, "ubox-fixed") || !strcmp(box_type, "imc-fixed"))
		return 1;
	if (!strcmp(box_type, "core-fixed"))
		return ctl == 1 || ctl == 2;
	if (!(k = sim_kind_find(box_type)))
		return 0;
	if (ctl & ~(uint64_t)k->ctl_valid)
		return 0;
	sim_ctr_init(&c, k->width);
	k->decode(&c, (uint32_t)ctl);
	thresh = sim_kind_thresh(k, ctl);
	inv = (ctl & SIM_CTL_INVERT) != 0;
	edge = (ctl & SIM_CTL_EDGE) != 0;
	if (c.clock >= 0)
		return !(thresh == 0 && (inv || edge));
	if (!c.sig || thresh > 1 || inv || edge)
		return 0;
	if (c.sig & (SIM_SIG_OFFCORE0 | SIM_SIG_OFFCORE1))
		return offcore_modeled(filt0);
	if (!strcmp(box_type, "cbo"))
		return cbo_filter_modeled(&c, thresh, filt0);
	return 1;
}
