/*
 * sim_ha.c - the Home Agent (PCI D14:F1): four 48-bit counters, box control
 * without reset bits, counter controls without rst, and the address/opcode
 * match registers.
 */
#include "sim_space.h"
#include "sim_events.h"

#define HA_ADDRMATCH0 0x40     /* PA 31:6 in place */
#define HA_ADDRMATCH1 0x44     /* PA 45:32 in 13:0 */
#define HA_OPCODEMATCH 0x48    /* 5:0 */

static void ha_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	switch (ev) {
	case 0x00:                            /* CLOCKTICKS */
		if (umask == 0)
			c->clock = SIM_UCLK;
		break;
	case 0x01:                            /* REQUESTS: READS 0x03, WRITES 0x0c */
		if (umask == 0x03 || umask == 0x0C || umask == 0x0F)
			c->sig = SIM_SIG_HA_REQ;
		break;
	case 0x1A:                            /* IMC_WRITES: FULL 0x01 or PARTIAL 0x02 in
						 (the ISOCH ones, 0x04 and 0x08, never
						 happen: no isochronous traffic) */
		if ((umask & 0x03) && !(umask & ~0x0Fu))
			c->sig = SIM_SIG_HA_IMC_WR;
		break;
	case 0x06:                            /* TRACKER_INSERTS.ALL */
		if (umask == 0x03)
			c->sig = SIM_SIG_HA_TRACKER;
		break;
	case 0x10:                            /* TXR_BL: DRS_CACHE 0x01, DRS_QPI 0x04 */
		if (umask && !(umask & ~0x05u))
			c->sig = SIM_SIG_HA_TXR_BL;
		break;
	default:
		break;
	}
	c->arg = umask;
}

/* Every request also allocates a tracker entry. */
void sim_ha_request_counted(struct sim_box *b, enum sim_ha_what what, int local, uint64_t n)
{
	unsigned bit = what == SIM_HA_READ ? 0x03 : 0x0C;

	(void)local;                          /* READS/WRITES count both requesters */
	for (int i = 0; i < 4; i++) {
		struct sim_ctr *c = &b->ctr[i];
		if (!c->active)
			continue;
		if ((c->sig == SIM_SIG_HA_REQ && (c->arg & bit)) || c->sig == SIM_SIG_HA_TRACKER)
			sim_ctr_events(c, n);
	}
}

void sim_ha_imc_write_counted(struct sim_box *b, int partial, uint64_t n)
{
	unsigned bit = partial ? 0x02 : 0x01;

	for (int i = 0; i < 4; i++)
		if (b->ctr[i].active && b->ctr[i].sig == SIM_SIG_HA_IMC_WR && (b->ctr[i].arg & bit))
			sim_ctr_events(&b->ctr[i], n);
}

void sim_ha_txr_bl_counted(struct sim_box *b, int to_qpi, uint64_t n)
{
	unsigned bit = to_qpi ? 0x04 : 0x01;

	for (int i = 0; i < 4; i++)
		if (b->ctr[i].active && b->ctr[i].sig == SIM_SIG_HA_TXR_BL && (b->ctr[i].arg & bit))
			sim_ctr_events(&b->ctr[i], n);
}

const struct sim_kind sim_kind_ha = {
	.name = "ha", .label = "HA", .multi = 0,
	.nctr = 4, .width = 48,
	/* thresh, invert, en, edge, umask, ev_sel: 17:16 reserved (no rst) */
	.ctl_valid = 0xFFC4FFFFu, .ctl_wo = 0, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ,    /* 1:0 reserved */
	.decode = ha_decode,
};

static const struct {
	uint32_t off, valid;
	const char *name;
} ha_regs[] = {
	{ HA_ADDRMATCH0, 0xFFFFFFC0u, "ADDRMATCH0" },
	{ HA_ADDRMATCH1, 0x00003FFFu, "ADDRMATCH1" },
	{ HA_OPCODEMATCH, 0x0000003Fu, "OPCODEMATCH" },
};

int sim_ha_read(struct sim_box *b, uint32_t off, uint32_t *val)
{
	for (int i = 0; i < 3; i++)
		if (off == ha_regs[i].off) {
			*val = b->reg[i];
			return 1;
		}
	return sim_pcibox_read(b, off, val);
}

int sim_ha_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val)
{
	for (int i = 0; i < 3; i++)
		if (off == ha_regs[i].off) {
			sim_box_write_reg(sim, b, i, val, ha_regs[i].valid, ha_regs[i].name);
			return 1;
		}
	return sim_pcibox_write(sim, b, off, val);
}
