/*
 * sim_ubox.c - the UBox: two 44-bit general counters and the 48-bit UCLK
 * fixed counter (MSRs), and its PCI function's node-ID registers.
 * No box control: the UBox cannot be frozen or reset as a unit.
 */
#include "sim_machine.h"
#include "sim_space.h"

#define U_FIXED_CTL 0xC08
#define U_FIXED_CTR 0xC09
#define U_CTL0      0xC10
#define U_CTR0      0xC16

#define U_CPUNODEID 0x40
#define U_GIDNIDMAP 0x54

/* LOCK_CYCLES (0x44, no umask): the bus-lock sequences of split locks
 * started by the socket's CPUs (sim_special.c; one each, whatever the lock
 * holds).  EVENT_MSG (0x42: interrupts, VLW) and U2C_EVENTS (0x43) exist;
 * the model drives neither (no interrupts, no uncore-to-core signals). */
static void ubox_decode(struct sim_ctr *c, uint32_t ctl)
{
	if ((ctl & 0xFF) == 0x44 && ((ctl >> 8) & 0xFF) == 0)
		c->sig = SIM_SIG_UBOX_LOCK;
}

const struct sim_kind sim_kind_ubox = {
	.name = "ubox", .label = "UBox", .multi = 0,
	.nctr = 2, .width = 44,
	/* thresh 28:24, invert, en, edge, rst, umask, ev_sel */
	.ctl_valid = 0x1FC6FFFFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 5,
	.box_valid = 0,
	.has_fixed = 1, .fixed_width = 48, .fixed_clock = SIM_UCLK,
	.fixed_valid = SIM_CTL_EN, .fixed_wo = 0,
	.decode = ubox_decode,
};

const struct sim_ctr *sim_ubox_counter(const struct pmon_sim *sim, int cpu, uint32_t msr)
{
	const struct sim_box *b = &sim->sock[sim->cpu[cpu].sock].ubox;

	if (msr == U_FIXED_CTR)
		return &b->fixed;
	return msr >= U_CTR0 && msr < U_CTR0 + 2 ? &b->ctr[msr - U_CTR0] : NULL;
}

int sim_ubox_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		 uint64_t *val, int *rc)
{
	struct sim_box *b = &s->ubox;

	*rc = 0;
	if (msr == U_FIXED_CTL) {
		if (wr)
			sim_box_write_fixed_ctl(sim, b, *val);
		else
			*val = b->fixed.ctl;
	} else if (msr == U_FIXED_CTR) {
		if (wr)
			sim_box_write_ctr(sim, b, -1, *val);
		else
			*val = b->fixed.val;
	} else if (msr >= U_CTL0 && msr < U_CTL0 + 2) {
		if (wr)
			sim_box_write_ctl(sim, b, (int)(msr - U_CTL0), *val);
		else
			*val = b->ctr[msr - U_CTL0].ctl;
	} else if (msr >= U_CTR0 && msr < U_CTR0 + 2) {
		if (wr)
			sim_box_write_ctr(sim, b, (int)(msr - U_CTR0), *val);
		else
			*val = b->ctr[msr - U_CTR0].val;
	} else {
		return 0;
	}
	return 1;
}

/* The UBox PCI function (D11:F0) is read-only for PMON software. */
int sim_ubox_pci_read(struct pmon_sim *sim, struct sim_socket *s, uint32_t off, uint32_t *val)
{
	if (off == U_CPUNODEID) {
		*val = (uint32_t)s->nodeid & 7u;
		return 1;
	}
	if (off == U_GIDNIDMAP) {
		uint32_t map = 0;
		for (int i = 0; i < sim->shape.sockets; i++)
			map |= ((uint32_t)sim->shape.nodeids[i] & 7u) << (3 * i);
		*val = map;
		return 1;
	}
	return 0;
}
