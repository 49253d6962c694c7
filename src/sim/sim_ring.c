/*
 * sim_ring.c - the ring stops: R2PCIe (PCI D19:F1, four 44-bit counters)
 * and R3QPI (D19:F5 / D19:F6, three 44-bit counters per link).
 */
#include "sim_internal.h"

static void ring_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (ev == 0x01 && umask == 0)
		c->clock = SIM_UCLK;          /* CLOCKTICKS */
}

const struct sim_kind sim_kind_r2pcie = {
	.name = "r2pcie", .label = "R2PCIe", .multi = 0,
	.nctr = 4, .width = 44,
	.ctl_valid = 0xFFC6FFFFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ | SIM_BOX_RST_CTRS | SIM_BOX_RST_CTRL,
	.decode = ring_decode,
};

const struct sim_kind sim_kind_r3qpi = {
	.name = "r3qpi", .label = "R3QPI", .multi = 1,
	.nctr = 3, .width = 44,
	.ctl_valid = 0xFFC6FFFFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ | SIM_BOX_RST_CTRS | SIM_BOX_RST_CTRL,
	.decode = ring_decode,
};
