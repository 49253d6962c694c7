/*
 * nhm_msr.c - the registers of the Nehalem-EP / Westmere-EP machine: per
 * socket the uncore PMU (global control, status and overflow control, the
 * fixed UCLK counter and its control, eight event selects and 48-bit
 * counters, the QHL matcher MSR 0x396 and the snoop MESF select MSR 0x301);
 * per physical core the offcore-response MSRs (0x1A6; Westmere also
 * 0x1A7), shared by the core's threads.
 *
 * A counter counts while its event select has enable (bit 22) and its bit
 * of the global control is set (general counter i: bit i; the fixed
 * counter: its control's bit 0 and global bit 32).  Reserved bits follow
 * the emulator's uncore policy (sim.h): the write is taken without them
 * and recorded as a violation; the status register is read-only (a write
 * fails with PMON_EIO, as a #GP).
 */
#include <stdlib.h>

#include "nhm_sim.h"
#include "sim_clock.h"
#include "sim_log.h"

static void decode_nhm(struct sim_ctr *c, uint32_t ctl)
{
	sim_nhm_decode(c, ctl, 0);
}

static void decode_wsm(struct sim_ctr *c, uint32_t ctl)
{
	sim_nhm_decode(c, ctl, 1);
}

/* What sim_ctr_set_ctl needs of an event select: its cmask width and decoder. */
static const struct sim_kind kind_nhm = {
	.name = "nhm_unc", .label = "uncore", .nctr = NHM_NCTR, .width = NHM_WIDTH,
	.ctl_valid = (uint32_t)NHM_SEL_VALID, .thresh_bits = 8, .decode = decode_nhm,
};
static const struct sim_kind kind_wsm = {
	.name = "wsm_unc", .label = "uncore", .nctr = NHM_NCTR, .width = NHM_WIDTH,
	.ctl_valid = (uint32_t)NHM_SEL_VALID, .thresh_bits = 8, .decode = decode_wsm,
};

int sim_nhm_init(struct pmon_sim *sim)
{
	struct sim_nhm *n;

	if (!SIM_GEN_NHM(sim->shape.gen))
		return 0;
	if (!(n = calloc(1, sizeof *n)))
		return -1;
	n->gen = sim->shape.gen;
	n->wsm = n->gen == PMON_SIM_GEN_WSMEP;
	n->erratum = sim->shape.nt_erratum;
	for (int s = 0; s < SIM_MAX_SOCKETS; s++) {
		struct sim_nhm_unc *u = &n->unc[s];
		for (int i = 0; i < NHM_NCTR; i++) {
			sim_ctr_init(&u->ctr[i], NHM_WIDTH);
			u->ctr[i].ovf = &u->glb_status;
			u->ctr[i].ovf_bit = 1ull << i;
		}
		sim_ctr_init(&u->fixed, NHM_WIDTH);
		u->fixed.ovf = &u->glb_status;
		u->fixed.ovf_bit = 1ull << 32;
	}
	/* no PCI boxes: no bus holds an uncore function */
	for (int b = 0; b < 256; b++)
		sim->bus_socket[b] = -1;
	sim->nhm = n;
	return 0;
}

void sim_nhm_free(struct pmon_sim *sim)
{
	free(sim->nhm);
	sim->nhm = NULL;
}

/* Which counters count now, after a control or the global control changed. */
static void refresh(struct pmon_sim *sim, int s)
{
	struct sim_nhm_unc *u = &sim->nhm->unc[s];

	for (int i = 0; i < NHM_NCTR; i++) {
		struct sim_ctr *c = &u->ctr[i];
		c->active = c->enabled && ((u->glb_ctl >> i) & 1) && c->sig;
	}
	u->fixed.active = u->fixed.enabled && ((u->glb_ctl >> 32) & 1);
	sim_nhm_subscribe(sim, s);
	sim_clock_mark(sim);
}

/* The bits of v outside valid: a violation; v without them is returned. */
static uint64_t valid_bits(struct pmon_sim *sim, uint64_t v, uint64_t valid, const char *reg, int i)
{
	if (v & ~valid) {
		if (i >= 0)
			sim_violation(sim, v & ~valid, "uncore %s%d", reg, i);
		else
			sim_violation(sim, v & ~valid, "uncore %s", reg);
	}
	return v & valid;
}

static int unc_msr(struct pmon_sim *sim, int s, uint32_t msr, int wr, uint64_t *val, int *rc)
{
	struct sim_nhm_unc *u = &sim->nhm->unc[s];
	uint64_t v = wr ? *val : 0;

	*rc = 0;
	if (msr >= NHM_SEL0 && msr < NHM_SEL0 + NHM_NCTR) {
		struct sim_ctr *c = &u->ctr[msr - NHM_SEL0];
		if (!wr) {
			*val = c->ctl;
			return 1;
		}
		v = valid_bits(sim, v, NHM_SEL_VALID, "PERFEVTSEL", (int)(msr - NHM_SEL0));
		/* occupancy reset (17) clears the queue occupancy behind the
		 * event: the model's queues are empty at every instant a
		 * register access sees, so it changes no count */
		sim_ctr_set_ctl(sim, c, sim->nhm->wsm ? &kind_wsm : &kind_nhm, v);
		refresh(sim, s);
	} else if (msr >= NHM_CTR0 && msr < NHM_CTR0 + NHM_NCTR) {
		struct sim_ctr *c = &u->ctr[msr - NHM_CTR0];
		if (wr)
			SIM_PUT(c->val, valid_bits(sim, v, c->mask, "PMC", (int)(msr - NHM_CTR0)));
		else
			*val = c->val;
	} else if (msr == NHM_FIXED_CTR) {
		if (wr)
			SIM_PUT(u->fixed.val, valid_bits(sim, v, u->fixed.mask, "FIXED_CTR0", -1));
		else
			*val = u->fixed.val;
	} else if (msr == NHM_FIXED_CTL) {
		if (!wr) {
			*val = u->fixed.ctl;
			return 1;
		}
		v = valid_bits(sim, v, NHM_FIXED_VALID, "FIXED_CTR_CTRL", -1);
		SIM_PUT(u->fixed.ctl, v);
		u->fixed.enabled = (v & 1) != 0;
		u->fixed.clock = SIM_UCLK;
		refresh(sim, s);
	} else if (msr == NHM_GLB_CTL) {
		if (!wr) {
			*val = u->glb_ctl;
			return 1;
		}
		u->glb_ctl = valid_bits(sim, v, NHM_GLB_VALID, "PERF_GLOBAL_CTRL", -1);
		refresh(sim, s);
	} else if (msr == NHM_GLB_STATUS) {
		if (wr)
			*rc = sim_fail(sim, PMON_EIO, "MSR_UNCORE_PERF_GLOBAL_STATUS (0x392) is "
				       "read-only (#GP); clear its bits in 0x393");
		else
			*val = u->glb_status;
	} else if (msr == NHM_GLB_OVF) {
		if (wr)
			u->glb_status &= ~valid_bits(sim, v, NHM_STATUS_VALID, "PERF_GLOBAL_OVF_CTRL",
						     -1);
		else
			*val = 0;
	} else if (msr == NHM_MATCH) {
		if (wr)
			u->match = valid_bits(sim, v, NHM_MATCH_VALID, "ADDR_OPCODE_MATCH", -1);
		else
			*val = u->match;
	} else if (msr == NHM_MESF) {
		if (wr)
			u->mesf = valid_bits(sim, v, NHM_MESF_VALID, "GQ_SNOOP_MESF", -1);
		else
			*val = u->mesf;
	} else {
		return 0;
	}
	return 1;
}

/* MSR_OFFCORE_RSP_0 (and on Westmere RSP_1): 16 bits, one per physical
 * core.  Reserved bits: #GP, as the core MSRs (sim_core.c). */
static int rsp_msr(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val, int *rc)
{
	struct sim_nhm *n = sim->nhm;
	int k = (int)(msr - 0x1a6);
	uint64_t *r;

	*rc = 0;
	if (msr == 0x1a7 && !n->wsm) {
		*rc = sim_fail(sim, PMON_EIO, "CPU %d: MSR 0x1a7 does not exist on Nehalem "
			       "(one offcore RSP MSR, 0x1a6; #GP)", cpu);
		return 1;
	}
	r = &n->rsp[sim->cpu[cpu].gcore][k];
	if (!wr) {
		*val = *r;
	} else if (*val & ~0xffffull) {
		sim_violation(sim, *val & ~0xffffull, "MSR_OFFCORE_RSP_%d", k);
		*rc = sim_fail(sim, PMON_EIO, "CPU %d: reserved bits 0x%llx set in "
			       "MSR_OFFCORE_RSP_%d (16 bits on this CPU; #GP)", cpu,
			       (unsigned long long)(*val & ~0xffffull), k);
	} else {
		*r = *val;
	}
	return 1;
}

int sim_nhm_msr(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val, int *rc)
{
	if (msr == 0x1a6 || msr == 0x1a7)
		return rsp_msr(sim, cpu, msr, wr, val, rc);
	return unc_msr(sim, sim->cpu[cpu].sock, msr, wr, val, rc);
}

const struct sim_ctr *sim_nhm_counter(const struct pmon_sim *sim, int cpu, uint32_t msr)
{
	const struct sim_nhm_unc *u = &sim->nhm->unc[sim->cpu[cpu].sock];

	if (msr == NHM_FIXED_CTR)
		return &u->fixed;
	return msr >= NHM_CTR0 && msr < NHM_CTR0 + NHM_NCTR ? &u->ctr[msr - NHM_CTR0] : NULL;
}

void sim_nhm_clocks(struct pmon_sim *sim, void (*fn)(struct pmon_sim *, struct sim_ctr *))
{
	for (int s = 0; s < sim->shape.sockets; s++)
		fn(sim, &sim->nhm->unc[s].fixed);
}
