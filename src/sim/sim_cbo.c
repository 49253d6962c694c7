/*
 * sim_cbo.c - the CBos: one per core present (MSRs 0xD04 + 0x20n ...),
 * four 44-bit counters, box control and the box filter.
 */
#include "sim_internal.h"

#define C_BASE    0xD00
#define C_STRIDE  0x20
#define C_BOX_CTL 0x04
#define C_CTL0    0x10
#define C_FILTER  0x14
#define C_CTR0    0x16

/* tid 4:0, nid 17:10, state 22:18, opc 31:23 */
#define C_FILTER_VALID 0xFFFFFC1Fu

static void cbo_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (ev == 0x00 && umask == 0 && !(ctl & SIM_CTL_TID_EN))
		c->clock = SIM_UCLK;          /* CLOCKTICKS */
}

const struct sim_kind sim_kind_cbo = {
	.name = "cbo", .label = "CBo", .multi = 1,
	.nctr = 4, .width = 44,
	/* thresh 31:24, invert, en, tid_en, edge, rst, umask, ev_sel */
	.ctl_valid = 0xFFCEFFFFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ | SIM_BOX_RST_CTRS | SIM_BOX_RST_CTRL,
	.decode = cbo_decode,
};

int sim_cbo_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc)
{
	uint32_t n, r;
	struct sim_box *b;

	if (msr < C_BASE || msr >= C_BASE + C_STRIDE * SIM_MAX_CORES)
		return 0;
	n = (msr - C_BASE) / C_STRIDE;
	r = (msr - C_BASE) % C_STRIDE;
	if ((int)n >= sim->shape.cores)
		return 0;                     /* no such CBo: #GP */
	b = &s->cbo[n];
	*rc = 0;
	if (r == C_BOX_CTL) {
		if (wr)
			sim_box_write_boxctl(sim, b, *val);
		else
			*val = 0;             /* write-only */
	} else if (r >= C_CTL0 && r < C_CTL0 + 4) {
		if (wr)
			sim_box_write_ctl(sim, b, (int)(r - C_CTL0), *val);
		else
			*val = b->ctr[r - C_CTL0].ctl;
	} else if (r == C_FILTER) {
		if (wr)
			sim_box_write_reg(sim, b, 0, *val, C_FILTER_VALID, "FILTER");
		else
			*val = b->reg[0];
	} else if (r >= C_CTR0 && r < C_CTR0 + 4) {
		if (wr)
			sim_box_write_ctr(sim, b, (int)(r - C_CTR0), *val);
		else
			*val = b->ctr[r - C_CTR0].val;
	} else {
		return 0;
	}
	return 1;
}
