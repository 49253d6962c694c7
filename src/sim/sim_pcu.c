/*
 * sim_pcu.c - the PCU: four 48-bit counters, box control, the band filter,
 * and the read-only core C3/C6 residency counters (always 0 here).
 *
 * The power model: every core of the socket is in C0 all the time (the
 * emulated cores never sleep) and the clocks never change frequency (no
 * turbo, no P-states).  So, each PCLK cycle:
 *   CLOCKTICKS (0x00)                     1
 *   FREQ_BANDn_CYCLES (0x0B-0x0E)         1 when the uncore clock (uclk) is
 *                                         at or above band n of the filter
 *                                         (bits 8n+7:8n, 100 MHz units), else 0
 *   POWER_STATE_OCCUPANCY (0x80) occ_sel  CORES_C0 (1): the cores; CORES_C3
 *                                         (2), CORES_C6 (3): 0
 * the occupancy's own occ_invert/occ_edge are not modeled.
 */
#include "sim_log.h"
#include "sim_space.h"

#define P_BOX_CTL 0xC24
#define P_CTL0    0xC30
#define P_FILTER  0xC34
#define P_CTR0    0xC36
#define P_C3_RES  0x3FC
#define P_C6_RES  0x3FD

#define P_OCC_SEL_SHIFT 14
#define P_OCC_INV_EDGE  (3u << 30)

/* arg of a band or occupancy counter: what sets its per-cycle increment */
#define P_BAND(n) (0x100u | (n))
#define P_OCC(sel) (0x200u | (sel))

static void pcu_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, occ_sel = (ctl >> P_OCC_SEL_SHIFT) & 3;

	if (ctl & SIM_CTL_EXT)
		return;
	if (ev == 0x00 && occ_sel == 0 && !(ctl & P_OCC_INV_EDGE)) {
		c->clock = SIM_PCLK;          /* CLOCKTICKS */
	} else if (ev >= 0x0B && ev <= 0x0E && occ_sel == 0 && !(ctl & P_OCC_INV_EDGE)) {
		c->clock = SIM_PCLK;          /* FREQ_BANDn_CYCLES */
		c->arg = P_BAND(ev - 0x0B);
	} else if (ev == 0x80 && occ_sel && !(ctl & P_OCC_INV_EDGE)) {
		c->clock = SIM_PCLK;          /* POWER_STATE_OCCUPANCY */
		c->arg = P_OCC(occ_sel);
	}
}

/* Each counter's increment per PCLK cycle from the power model (after any
 * write of a control or of the filter). */
static void pcu_rates(struct pmon_sim *sim, struct sim_box *b)
{
	for (int i = 0; i < 4; i++) {
		struct sim_ctr *c = &b->ctr[i];
		if (c->clock < 0)
			continue;
		if ((c->arg & 0x300) == 0x100) {
			uint64_t band = (b->reg[0] >> (8 * (c->arg & 3))) & 0xFF;
			c->per_cycle = sim->shape.uclk_hz >= band * 100000000ull;
		} else if ((c->arg & 0x300) == 0x200) {
			c->per_cycle = (c->arg & 3) == 1 ? (uint32_t)sim->shape.cores : 0;
		}
	}
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
	if (wr)
		pcu_rates(sim, b);
	return 1;
}
