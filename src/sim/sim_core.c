/*
 * sim_core.c - the core PMU of each logical CPU (PERFEVTSEL/PMC 0-3, fixed
 * counters, global control/status) and the offcore-response MSRs, one pair
 * per logical CPU: on Sandy Bridge with hyperthreading each thread has its
 * own RSP_0/1 (Nehalem/Westmere share them per core; SNB-EP does not).
 *
 * Architectural MSRs raise #GP on reserved bits: such writes are refused
 * with PMON_EIO (and recorded as violations).
 */
#include "sim_clock.h"
#include "sim_log.h"
#include "sim_space.h"
#include "sim_events.h"

#define IA32_PMC0              0x0C1
#define IA32_PERFEVTSEL0       0x186
#define MSR_OFFCORE_RSP_0      0x1A6
#define MSR_OFFCORE_RSP_1      0x1A7
#define IA32_FIXED_CTR0        0x309
#define IA32_FIXED_CTR_CTRL    0x38D
#define IA32_PERF_GLOBAL_STATUS   0x38E
#define IA32_PERF_GLOBAL_CTRL     0x38F
#define IA32_PERF_GLOBAL_OVF_CTRL 0x390

#define EVTSEL_USR   (1ull << 16)
#define EVTSEL_ANY   (1ull << 21)
#define GLOBAL_VALID 0x70000000Full
#define OVF_VALID    0xC00000070000000Full
#define FIXED_CTRL_VALID 0xFFFull

static void core_decode(struct sim_ctr *c, uint32_t ctl)
{
	unsigned ev = ctl & 0xFF, umask = (ctl >> 8) & 0xFF;

	if (ev == 0x3C && umask == 0x00)
		c->clock = SIM_TSC;            /* CPU_CLK_UNHALTED.THREAD_P */
	else if (ev == 0xB7 && umask == 0x01)
		c->sig = SIM_SIG_OFFCORE0;     /* OFFCORE_RESPONSE_0 */
	else if (ev == 0xBB && umask == 0x01)
		c->sig = SIM_SIG_OFFCORE1;     /* OFFCORE_RESPONSE_1 */
}

const struct sim_kind sim_kind_core = {
	.name = "core", .label = "core", .multi = 0,
	.nctr = 4, .width = 48,
	.ctl_valid = 0xFFFFFFFFu, .ctl_wo = 0, .thresh_bits = 8,
	.box_valid = 0,
	.decode = core_decode,
};

int sim_offcore_match(uint64_t rsp, uint64_t req, uint64_t supplier, uint64_t snoop)
{
	if (!(rsp & req & SIM_RSP_REQ_MASK))
		return 0;
	if (rsp & SIM_RSP_ANY_RESPONSE)
		return 1;
	return (rsp & supplier) && (rsp & snoop);
}

void sim_core_init(struct pmon_sim *sim)
{
	for (int cpu = 0; cpu < sim->ncpus; cpu++) {
		struct sim_thread *t = &sim->cpu[cpu];
		for (int i = 0; i < 4; i++) {
			sim_ctr_init(&t->pmc[i], 48);
			t->pmc[i].ovf = &t->global_status;
			t->pmc[i].ovf_bit = 1ull << i;
		}
		for (int i = 0; i < 3; i++) {
			sim_ctr_init(&t->fixed[i], 48);
			t->fixed[i].ovf = &t->global_status;
			t->fixed[i].ovf_bit = 1ull << (32 + i);
			/* 0: instructions retired (not modeled); 1: core cycles;
			 * 2: reference cycles; both at the TSC rate */
			t->fixed[i].clock = i ? SIM_TSC : -1;
		}
	}
}

void sim_core_refresh(struct pmon_sim *sim, int cpu)
{
	struct sim_thread *t = &sim->cpu[cpu];

	for (int i = 0; i < 4; i++) {
		struct sim_ctr *c = &t->pmc[i];
		c->active = c->enabled && (c->ctl & EVTSEL_USR) &&
			    ((t->global_ctrl >> i) & 1) && (c->clock >= 0 || c->sig);
	}
	for (int i = 0; i < 3; i++) {
		struct sim_ctr *c = &t->fixed[i];
		unsigned field = (unsigned)(t->fixed_ctrl >> (4 * i)) & 0xF;
		c->enabled = (field & 3) != 0;
		c->active = (field & 2) && ((t->global_ctrl >> (32 + i)) & 1) && c->clock >= 0;
	}
	/* would any counter count an offcore response of each CPU's accesses
	 * now (its own, or a sibling's with AnyThread)?  The hierarchy skips
	 * the matching otherwise. */
	for (int k = 0; k < sim->ncpus; k++) {
		int first = sim_cpu_core_global(sim, k) * sim->shape.threads;
		sim->cpu[k].offcore_on = 0;
		for (int c = first; c < first + sim->shape.threads; c++)
			for (int i = 0; i < 4; i++) {
				const struct sim_ctr *p = &sim->cpu[c].pmc[i];
				if (p->active && p->sig && (c == k || (p->ctl & EVTSEL_ANY)))
					sim->cpu[k].offcore_on = 1;
			}
	}
	sim_clock_mark(sim);
}

static int refuse(struct pmon_sim *sim, uint64_t bad, const char *reg, int cpu)
{
	sim_violation(sim, bad, "%s", reg);
	return sim_fail(sim, PMON_EIO, "CPU %d: reserved bits 0x%llx set in %s (#GP)", cpu,
			(unsigned long long)bad, reg);
}

static int rsp_access(struct pmon_sim *sim, int cpu, int k, int wr, uint64_t *val)
{
	uint64_t *r = &sim->cpu[cpu].rsp[k];

	if (!wr) {
		*val = *r;
		return 0;
	}
	if (*val & ~SIM_RSP_VALID)
		return refuse(sim, *val & ~SIM_RSP_VALID, k ? "MSR_OFFCORE_RSP_1" :
			      "MSR_OFFCORE_RSP_0", cpu);
	*r = *val;
	return 0;
}

const struct sim_ctr *sim_core_counter(const struct pmon_sim *sim, int cpu, uint32_t msr)
{
	const struct sim_thread *t = &sim->cpu[cpu];

	if (msr >= IA32_PMC0 && msr < IA32_PMC0 + 4)
		return &t->pmc[msr - IA32_PMC0];
	return msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + 3 ? &t->fixed[msr - IA32_FIXED_CTR0]
								     : NULL;
}

int sim_core_msr(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val, int *rc)
{
	struct sim_thread *t = &sim->cpu[cpu];
	uint64_t v = wr ? *val : 0;

	*rc = 0;
	if (msr >= IA32_PERFEVTSEL0 && msr < IA32_PERFEVTSEL0 + 4) {
		struct sim_ctr *c = &t->pmc[msr - IA32_PERFEVTSEL0];
		if (!wr) {
			*val = c->ctl;
		} else if (v >> 32) {
			*rc = refuse(sim, v & ~0xFFFFFFFFull, "IA32_PERFEVTSEL", cpu);
		} else {
			sim_ctr_set_ctl(sim, c, &sim_kind_core, v);
			sim_core_refresh(sim, cpu);
		}
	} else if (msr >= IA32_PMC0 && msr < IA32_PMC0 + 4) {
		struct sim_ctr *c = &t->pmc[msr - IA32_PMC0];
		if (wr)   /* legacy PMC write: bits 31:0, sign-extended */
			c->val = (uint64_t)(int64_t)(int32_t)(uint32_t)v & c->mask;
		else
			*val = c->val;
	} else if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + 3) {
		struct sim_ctr *c = &t->fixed[msr - IA32_FIXED_CTR0];
		if (!wr)
			*val = c->val;
		else if (v & ~c->mask)
			*rc = refuse(sim, v & ~c->mask, "IA32_FIXED_CTR", cpu);
		else
			c->val = v;
	} else if (msr == IA32_FIXED_CTR_CTRL) {
		if (!wr) {
			*val = t->fixed_ctrl;
		} else if (v & ~FIXED_CTRL_VALID) {
			*rc = refuse(sim, v & ~FIXED_CTRL_VALID, "IA32_FIXED_CTR_CTRL", cpu);
		} else {
			t->fixed_ctrl = v;
			sim_core_refresh(sim, cpu);
		}
	} else if (msr == IA32_PERF_GLOBAL_STATUS) {
		if (wr)
			*rc = sim_fail(sim, PMON_EIO, "CPU %d: IA32_PERF_GLOBAL_STATUS is read-only",
				       cpu);
		else
			*val = t->global_status;
	} else if (msr == IA32_PERF_GLOBAL_CTRL) {
		if (!wr) {
			*val = t->global_ctrl;
		} else if (v & ~GLOBAL_VALID) {
			*rc = refuse(sim, v & ~GLOBAL_VALID, "IA32_PERF_GLOBAL_CTRL", cpu);
		} else {
			t->global_ctrl = v;
			sim_core_refresh(sim, cpu);
		}
	} else if (msr == IA32_PERF_GLOBAL_OVF_CTRL) {
		if (!wr)
			*val = 0;
		else if (v & ~OVF_VALID)
			*rc = refuse(sim, v & ~OVF_VALID, "IA32_PERF_GLOBAL_OVF_CTRL", cpu);
		else
			t->global_status &= ~v;
	} else if (msr == MSR_OFFCORE_RSP_0 || msr == MSR_OFFCORE_RSP_1) {
		*rc = rsp_access(sim, cpu, (int)(msr - MSR_OFFCORE_RSP_0), wr, val);
	} else if (msr == SIM_MSR_PF_CTL) {
		/* MISC_FEATURE_CONTROL: one per core, its threads share it */
		struct sim_pcore *pc = &sim->pcore[t->gcore];
		if (!wr)
			*val = pc->pf_dis;
		else if (v & ~(uint64_t)SIM_PF_OFF)
			*rc = refuse(sim, v & ~(uint64_t)SIM_PF_OFF, "MISC_FEATURE_CONTROL", cpu);
		else
			pc->pf_dis = (unsigned)v;
	} else {
		return 0;
	}
	return 1;
}

/* n accesses issued by cpu: count them in the offcore counters of cpu, and
 * of its sibling threads that count AnyThread.  Each counting thread
 * matches the access against its own RSP value: the RSP MSRs are per
 * thread. */
void sim_core_offcore_counted(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
			      uint64_t snoop, uint64_t n)
{
	int first = sim->cpu[cpu].gcore * sim->shape.threads;

	for (int c = first; c < first + sim->shape.threads; c++) {
		struct sim_thread *t = &sim->cpu[c];
		for (int i = 0; i < 4; i++) {
			struct sim_ctr *p = &t->pmc[i];
			if (!p->active || !p->sig)
				continue;
			if (c != cpu && !(p->ctl & EVTSEL_ANY))
				continue;
			if (sim_offcore_match(t->rsp[(p->sig & SIM_SIG_OFFCORE0) ? 0 : 1], req,
					      supplier, snoop))
				sim_ctr_events(p, n);
		}
	}
}
