/*
 * sim_qpi.c - the QPI link-layer ports (PCI D8:F2, D9:F2): four 48-bit
 * counters with the extra event-select bit; the packet match/mask registers
 * live in D8:F6 / D9:F6 at 0x228-0x23C (extended configuration space).
 */
#include "sim_space.h"
#include "sim_events.h"

static void flits(struct sim_ctr *c, unsigned rx, unsigned grp, unsigned umask, unsigned valid)
{
	if (umask && !(umask & ~valid)) {
		c->sig = SIM_SIG_QPI_FLITS;
		c->arg = rx << 16 | grp << 8 | umask;
	}
}

static void qpi_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (!(ctl & SIM_CTL_EXT)) {
		if (ev == 0x14 && umask == 0)
			c->clock = SIM_QCLK;  /* CLOCKTICKS */
		else if (ev == 0x00 || ev == 0x01)   /* Tx/RxL_FLITS_G0: DATA, NON_DATA */
			flits(c, ev, 0, umask, 0x06);
		return;
	}
	switch (ev) {
	case 0x00: flits(c, 0, 1, umask, 0x1F); break;   /* TxL_FLITS_G1 */
	case 0x02: flits(c, 1, 1, umask, 0x1F); break;   /* RxL_FLITS_G1 */
	case 0x01: flits(c, 0, 2, umask, 0x02); break;   /* TxL_FLITS_G2: NDR_AK */
	case 0x03: flits(c, 1, 2, umask, 0x02); break;   /* RxL_FLITS_G2: NDR_AK */
	default: break;
	}
}

/* The flits a flit counter counts of one message through its port (rx:
 * received) with data_flits of payload. */
static uint64_t flits_of(const struct sim_ctr *c, int rx, enum sim_qpi_class cls, unsigned data)
{
	unsigned um = c->arg & 0xFF, grp = (c->arg >> 8) & 0xFF;
	uint64_t n = 0;

	if (!c->active || c->sig != SIM_SIG_QPI_FLITS || (int)(c->arg >> 16) != rx)
		return 0;
	if (grp == 0) {
		n = ((um & 0x02) ? data : 0) + ((um & 0x04) ? 1 : 0);
	} else if (grp == 1) {
		if (((um & 0x01) && cls == SIM_QPI_SNP) ||
		    ((um & 0x02) && cls == SIM_QPI_HOM_REQ) ||
		    ((um & 0x04) && cls == SIM_QPI_HOM_NONREQ) ||
		    ((um & 0x10) && cls == SIM_QPI_DRS))
			n = 1;
		if ((um & 0x08) && cls == SIM_QPI_DRS)
			n += data;
	} else if (cls == SIM_QPI_NDR) {
		n = 1;
	}
	return n;
}

/* n messages through a port: each a header flit, and data flits for DRS. */
void sim_qpi_count_counted(struct sim_box *b, int rx, enum sim_qpi_class cls, unsigned data,
			   uint64_t msgs)
{
	for (int i = 0; i < 4; i++)
		sim_ctr_events(&b->ctr[i], flits_of(&b->ctr[i], rx, cls, data) * msgs);
}

/* The messages (by direction and class) some active counter counts flits
 * of. */
static uint32_t qpi_relevant(const struct sim_box *b)
{
	uint32_t rel = 0;

	for (int i = 0; i < 4; i++)
		for (int rx = 0; rx < 2; rx++)
			for (int cls = SIM_QPI_SNP; cls <= SIM_QPI_NDR; cls++)
				if (flits_of(&b->ctr[i], rx, (enum sim_qpi_class)cls,
					     SIM_QPI_DATA_FLITS(cls)))
					rel |= SIM_REL_QPI(rx, cls);
	return rel;
}

const struct sim_kind sim_kind_qpi = {
	.name = "qpi", .label = "QPI", .multi = 1,
	.nctr = 4, .width = 48,
	/* thresh, invert, en, ev_sel_ext, edge, rst, umask, ev_sel */
	.ctl_valid = 0xFFE6FFFFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ | SIM_BOX_RST_CTRS | SIM_BOX_RST_CTRL,
	.decode = qpi_decode, .relevant = qpi_relevant,
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
