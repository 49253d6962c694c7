/*
 * sim_qpi.c - the QPI link-layer ports (PCI D8:F2, D9:F2): four 48-bit
 * counters with the extra event-select bit; the packet match/mask registers
 * live in D8:F6 / D9:F6 at 0x228-0x23C (extended configuration space).
 */
#include "sim_internal.h"

static void qpi_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (ev == 0x14 && umask == 0 && !(ctl & SIM_CTL_EXT))
		c->clock = SIM_QCLK;          /* CLOCKTICKS */
}

const struct sim_kind sim_kind_qpi = {
	.name = "qpi", .label = "QPI", .multi = 1,
	.nctr = 4, .width = 48,
	/* thresh, invert, en, ev_sel_ext, edge, rst, umask, ev_sel */
	.ctl_valid = 0xFFE6FFFFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ | SIM_BOX_RST_CTRS | SIM_BOX_RST_CTRL,
	.decode = qpi_decode,
};

static const struct {
	uint32_t off, valid;
	const char *name;
} qpi_mm[] = {
	{ 0x228, 0x8003FFF8u, "PKT_MATCH0" },   /* RNID_4 31, DNID..VNW 17:3 */
	{ 0x22C, 0x000F000Fu, "PKT_MATCH1" },   /* RDS 19:16, RNID_3_0 3:0 */
	{ 0x238, 0x8003FFF8u, "PKT_MASK0" },
	{ 0x23C, 0x000F000Fu, "PKT_MASK1" },
};

int sim_qpi_mm_read(struct sim_box *b, uint32_t off, uint32_t *val)
{
	for (int i = 0; i < 4; i++)
		if (off == qpi_mm[i].off) {
			*val = b->reg[i];
			return 1;
		}
	return 0;
}

int sim_qpi_mm_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val)
{
	for (int i = 0; i < 4; i++)
		if (off == qpi_mm[i].off) {
			sim_box_write_reg(sim, b, i, val, qpi_mm[i].valid, qpi_mm[i].name);
			return 1;
		}
	return 0;
}
