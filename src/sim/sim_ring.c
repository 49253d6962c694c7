/*
 * sim_ring.c - the ring stops: R2PCIe (PCI D19:F1, four 44-bit counters)
 * and R3QPI (D19:F5 / D19:F6, three 44-bit counters per link).
 *
 * R3QPI link L of a socket joins the ring to QPI port L: every message the
 * socket sends on link L enters its ingress (ring toward QPI) once, in its
 * message class: RxR_INSERTS HOM 0x01 (requests to a home and snoop
 * responses), SNP 0x02, NDR 0x04, DRS 0x08 (data messages, one entry a
 * message).  NCB and NCS messages (non-coherent, I/O) never occur; the
 * egress (QPI toward the ring), credits, bypass and ring events are not
 * modeled.
 */
#include "sim_events.h"

static void ring_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (ev == 0x01 && umask == 0)
		c->clock = SIM_UCLK;          /* CLOCKTICKS */
}

#define R3_HOM 0x01u
#define R3_SNP 0x02u
#define R3_NDR 0x04u
#define R3_DRS 0x08u

static void r3qpi_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	ring_decode(c, ctl);
	if (ev == 0x11 && umask && !(umask & ~(R3_HOM | R3_SNP | R3_NDR | R3_DRS))) {
		c->sig = SIM_SIG_R3_RXR;      /* RxR_INSERTS */
		c->arg = umask;
	}
}

void sim_r3qpi_rxr_counted(struct sim_box *b, enum sim_qpi_class cls, uint64_t n)
{
	static const unsigned bit[] = {
		[SIM_QPI_SNP] = R3_SNP, [SIM_QPI_HOM_REQ] = R3_HOM, [SIM_QPI_HOM_NONREQ] = R3_HOM,
		[SIM_QPI_DRS] = R3_DRS, [SIM_QPI_NDR] = R3_NDR,
	};

	for (int i = 0; i < 3; i++)
		if (b->ctr[i].active && b->ctr[i].sig == SIM_SIG_R3_RXR && (b->ctr[i].arg & bit[cls]))
			sim_ctr_events(&b->ctr[i], n);
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
	.decode = r3qpi_decode,
};
