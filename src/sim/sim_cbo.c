/*
 * sim_cbo.c - the CBos: one per core present (MSRs 0xD04 + 0x20n ...),
 * four 44-bit counters, box control and the box filter.
 */
#include "sim_space.h"
#include "sim_events.h"

#define C_BASE    0xD00
#define C_STRIDE  0x20
#define C_BOX_CTL 0x04
#define C_CTL0    0x10
#define C_FILTER  0x14
#define C_CTR0    0x16

/* tid 4:0, nid 17:10, state 22:18, opc 31:23 */
#define C_FILTER_VALID 0xFFFFFC1Fu

/* Filter fields: state 22:18 (I S E M F = bits 18..22), nid 17:10, opc 31:23. */
#define F_STATE(f) (((f) >> 18) & 0x1Fu)
#define F_NID(f)   (((f) >> 10) & 0xFFu)
#define F_OPC(f)   (((f) >> 23) & 0x1FFu)

/* The TOR sub-events the model produces (umask without the NID bit 0x40):
 * OPCODE 0x01, MISS_OPCODE 0x03, EVICTION 0x04, ALL 0x08 (Intel lists it
 * for occupancy and, with NID, for inserts), MISS_ALL 0x0a, WB 0x10
 * (inserts). */
static int tor_umask_ok(unsigned umask, int occupancy)
{
	switch (umask & ~0x40u) {
	case 0x01: case 0x03: case 0x04: case 0x08: case 0x0a:
		return 1;
	case 0x10:
		return !occupancy;
	default:
		return 0;
	}
}

static void cbo_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (ctl & SIM_CTL_TID_EN)
		return;                       /* the thread filter is not modeled */
	switch (ev) {
	case 0x00:                            /* CLOCKTICKS */
		if (umask == 0)
			c->clock = SIM_UCLK;
		break;
	case 0x34:                            /* LLC_LOOKUP: bit 0 and a request type */
		if ((umask & 0x01) && (umask & 0x1E) && !(umask & ~0x5Fu))
			c->sig = SIM_SIG_LLC_LOOKUP;
		break;
	case 0x37:                            /* LLC_VICTIMS: M 0x01 E 0x02 S 0x04, NID 0x40 */
		if (umask && !(umask & ~0x47u))
			c->sig = SIM_SIG_LLC_VICTIM;
		break;
	case 0x35:                            /* TOR_INSERTS */
		if (tor_umask_ok(umask, 0) && !(umask & ~0x5Fu))
			c->sig = SIM_SIG_TOR_INS;
		break;
	case 0x36:                            /* TOR_OCCUPANCY */
		if (tor_umask_ok(umask, 1) && !(umask & ~0x5Fu))
			c->sig = SIM_SIG_TOR_OCC;
		break;
	default:
		break;
	}
	c->arg = umask;
}

static inline int nid_ok(unsigned umask, uint32_t filt, int nid)
{
	return !(umask & 0x40) || ((F_NID(filt) >> nid) & 1);
}

void sim_cbo_lookup_counted(struct sim_box *b, unsigned type, int state, int nid, uint64_t n)
{
	static const unsigned state_bit[] = {
		[SIM_I] = 0x01, [SIM_S] = 0x02, [SIM_E] = 0x04, [SIM_M] = 0x08, [SIM_F] = 0x10,
	};

	for (int i = 0; i < 4; i++) {
		struct sim_ctr *c = &b->ctr[i];
		if (c->active && c->sig == SIM_SIG_LLC_LOOKUP && (c->arg & type) &&
		    (F_STATE(b->reg[0]) & state_bit[state]) && nid_ok(c->arg, b->reg[0], nid))
			sim_ctr_events(c, n);
	}
}

void sim_cbo_victim_counted(struct sim_box *b, int state, int nid, uint64_t n)
{
	/* F victims count as S (the umasks have no F) */
	unsigned bit = state == SIM_M ? 0x01 : state == SIM_E ? 0x02 : 0x04;

	for (int i = 0; i < 4; i++) {
		struct sim_ctr *c = &b->ctr[i];
		unsigned states = c->arg & 0x07;
		if (c->active && c->sig == SIM_SIG_LLC_VICTIM && (!states || (states & bit)) &&
		    nid_ok(c->arg, b->reg[0], nid))
			sim_ctr_events(c, n);
	}
}

/* Does a TOR counter's umask take an entry of this class (and miss), its
 * opcode aside?  OPCODE and MISS_OPCODE also need the filter's opcode. */
static int tor_class_ok(unsigned umask, enum sim_tor_class cls, int miss)
{
	switch (umask & ~0x40u) {
	case 0x01: return cls != SIM_TOR_EVICT;
	case 0x03: return miss && cls != SIM_TOR_EVICT;
	case 0x04: return cls == SIM_TOR_EVICT;
	case 0x08: return 1;
	case 0x0a: return miss;
	case 0x10: return cls == SIM_TOR_WB;
	default: return 0;
	}
}

static int tor_opc_ok(unsigned umask, uint32_t filt, unsigned opc)
{
	umask &= ~0x40u;
	return (umask != 0x01 && umask != 0x03) || opc == F_OPC(filt);
}

/* n entries whose lifetimes sum to occ cycles. */
void sim_cbo_tor_counted(struct sim_box *b, enum sim_tor_class cls, unsigned opc, int miss, int nid,
			 uint64_t n, uint64_t occ)
{
	for (int i = 0; i < 4; i++) {
		struct sim_ctr *c = &b->ctr[i];
		if (!c->active || (c->sig != SIM_SIG_TOR_INS && c->sig != SIM_SIG_TOR_OCC))
			continue;
		if (!tor_class_ok(c->arg, cls, miss) || !tor_opc_ok(c->arg, b->reg[0], opc) ||
		    !nid_ok(c->arg, b->reg[0], nid))
			continue;
		if (c->sig == SIM_SIG_TOR_INS)
			sim_ctr_events(c, n);
		else if (!c->thresh && !c->invert && !c->edge)
			sim_ctr_add(c, occ);          /* entries summed over cycles */
	}
}

/* The lookups (by request type) and TOR entries (by class and miss) some
 * active counter may count, whatever the filter holds. */
static uint32_t cbo_relevant(const struct sim_box *b)
{
	uint32_t rel = 0;

	for (int i = 0; i < 4; i++) {
		const struct sim_ctr *c = &b->ctr[i];
		if (!c->active)
			continue;
		if (c->sig == SIM_SIG_LLC_LOOKUP)
			rel |= SIM_REL_LOOKUP(c->arg & (SIM_LOOKUP_READ | SIM_LOOKUP_WRITE |
							SIM_LOOKUP_SNOOP));
		if (c->sig == SIM_SIG_TOR_INS || c->sig == SIM_SIG_TOR_OCC)
			for (int cls = SIM_TOR_REQ; cls <= SIM_TOR_EVICT; cls++)
				for (int miss = 0; miss < 2; miss++)
					if (tor_class_ok(c->arg, (enum sim_tor_class)cls, miss))
						rel |= SIM_REL_TOR(cls, miss);
	}
	return rel;
}

const struct sim_kind sim_kind_cbo = {
	.name = "cbo", .label = "CBo", .multi = 1,
	.nctr = 4, .width = 44,
	/* thresh 31:24, invert, en, tid_en, edge, rst, umask, ev_sel */
	.ctl_valid = 0xFFCEFFFFu, .ctl_wo = SIM_CTL_RST, .thresh_bits = 8,
	.box_valid = SIM_BOX_FRZ_EN | SIM_BOX_FRZ | SIM_BOX_RST_CTRS | SIM_BOX_RST_CTRL,
	.decode = cbo_decode, .relevant = cbo_relevant,
};

const struct sim_ctr *sim_cbo_counter(const struct pmon_sim *sim, int cpu, uint32_t msr)
{
	uint32_t n = (msr - C_BASE) / C_STRIDE, r = (msr - C_BASE) % C_STRIDE;

	if (msr < C_BASE || (int)n >= sim->shape.cores || r < C_CTR0 || r >= C_CTR0 + 4 ||
	    cpu < 0 || cpu >= sim->ncpus)
		return NULL;
	return &sim->sock[sim->cpu[cpu].sock].cbo[n].ctr[r - C_CTR0];
}

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
