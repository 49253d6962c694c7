/*
 * sim_ha.c - the Home Agent (PCI D14:F1): four 48-bit counters, box control
 * without reset bits, counter controls without rst, and the address/opcode
 * match registers.
 */
#include "sim_internal.h"

#define HA_ADDRMATCH0 0x40     /* PA 31:6 in place */
#define HA_ADDRMATCH1 0x44     /* PA 45:32 in 13:0 */
#define HA_OPCODEMATCH 0x48    /* 5:0 */

static void ha_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (ev == 0x00 && umask == 0)
		c->clock = SIM_UCLK;          /* CLOCKTICKS */
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
