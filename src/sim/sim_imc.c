/*
 * sim_imc.c - the iMC channels (PCI D16:F0/F1/F4/F5): four 48-bit counters
 * and the DCLK fixed counter each; box control without reset bits; the
 * memory events the DRAM model drives.
 */
#include "sim_box.h"

static void imc_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	switch (ev) {
	case 0x04:                            /* CAS_COUNT */
		if (umask && !(umask & ~0x0Fu)) {
			if (umask & 0x01) c->sig |= SIM_SIG_CAS_RD_REG;
			if (umask & 0x02) c->sig |= SIM_SIG_CAS_RD_UNDER;
			if (umask & 0x04) c->sig |= SIM_SIG_CAS_WR_WMM;
			if (umask & 0x08) c->sig |= SIM_SIG_CAS_WR_RMM;
		}
		break;
	case 0x01:                            /* ACT_COUNT */
		if (!umask)
			c->sig = SIM_SIG_ACT;
		break;
	case 0x02:                            /* PRE_COUNT */
		if (umask && !(umask & ~0x03u)) {
			if (umask & 0x01) c->sig |= SIM_SIG_PRE_MISS;
			if (umask & 0x02) c->sig |= SIM_SIG_PRE_CLOSE;
		}
		break;
	case 0x10:                            /* RPQ_INSERTS */
		if (!umask)
			c->sig = SIM_SIG_RPQ;
		break;
	case 0x20:                            /* WPQ_INSERTS */
		if (!umask)
			c->sig = SIM_SIG_WPQ;
		break;
	default:
		break;
	}
}

const struct sim_kind sim_kind_imc = {
	.name = "imc", .label = "iMC", .multi = 1,
	.nctr = 4, .width = 48,
	.ctl_valid = 0xFFC4FFFFu, .ctl_wo = 0, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ,    /* 1:0 reserved */
	.has_fixed = 1, .fixed_width = 48, .fixed_clock = SIM_DCLK,
	.fixed_valid = SIM_CTL_EN | (1u << 19), .fixed_wo = 1u << 19,
	.decode = imc_decode,
};
