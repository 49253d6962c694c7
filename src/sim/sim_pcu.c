/*
 * sim_pcu.c - the PCU: four 48-bit counters, box control, the band filter,
 * and the read-only core C3/C6 residency counters (always 0 here).
 */
#include "sim_internal.h"

#define P_BOX_CTL 0xC24
#define P_CTL0    0xC30
#define P_FILTER  0xC34
#define P_CTR0    0xC36
#define P_C3_RES  0x3FC
#define P_C6_RES  0x3FD

#define P_OCC_SEL_SHIFT 14

static void pcu_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, occ_sel = (ctl >> P_OCC_SEL_SHIFT) & 3;

	if (ev == 0x00 && !(ctl & SIM_CTL_EXT) && occ_sel == 0)
		c->clock = SIM_PCLK;          /* CLOCKTICKS */
}

const struct sim_kind sim_kind_pcu = {
	.name = "pcu", .label = "PCU", .multi = 0,
	.nctr = 4, .width = 48,
	/* occ_edge 31, occ_invert 30, thresh 28:24, invert, en, ev_sel_ext,
	 * edge, rst, occ_sel 15:14, ev_sel 7:0 (no umask) */
	.ctl_valid = 0xDFE6C0FFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 5,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ | SIM_BOX_RST_CTRS | SIM_BOX_RST_CTRL,
	.decode = pcu_decode,
};

const struct sim_ctr *sim_pcu_counter(const struct pmon_sim *sim, int cpu, uint32_t msr)
{
	const struct sim_box *b = &sim->sock[sim->cpu[cpu].sock].pcu;

	return msr >= P_CTR0 && msr < P_CTR0 + 4 ? &b->ctr[msr - P_CTR0] : NULL;
}

int sim_pcu_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc)
{
	struct sim_box *b = &s->pcu;

	*rc = 0;
	if (msr == P_BOX_CTL) {
		if (wr)
			sim_box_write_boxctl(sim, b, *val);
		else
			*val = 0;
	} else if (msr >= P_CTL0 && msr < P_CTL0 + 4) {
		if (wr)
			sim_box_write_ctl(sim, b, (int)(msr - P_CTL0), *val);
		else
			*val = b->ctr[msr - P_CTL0].ctl;
	} else if (msr == P_FILTER) {
		if (wr)
			sim_box_write_reg(sim, b, 0, *val, 0xFFFFFFFFu, "FILTER");
		else
			*val = b->reg[0];
	} else if (msr >= P_CTR0 && msr < P_CTR0 + 4) {
		if (wr)
			sim_box_write_ctr(sim, b, (int)(msr - P_CTR0), *val);
		else
			*val = b->ctr[msr - P_CTR0].val;
	} else if (msr == P_C3_RES || msr == P_C6_RES) {
		if (wr)
			*rc = sim_fail(sim, PMON_EIO, "MSR 0x%x is read-only", msr);
		else
			*val = 0;
	} else {
		return 0;
	}
	return 1;
}
