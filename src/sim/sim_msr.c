/*
 * sim_msr.c - MSR space: which register an (cpu, msr) pair reaches.
 * Uncore MSRs are per socket (any CPU of the socket reaches them); core PMU
 * MSRs are per logical CPU.  Anything else is a #GP: PMON_EIO.
 */
#include "sim_log.h"
#include "sim_space.h"
#include "nhm_sim.h"

static int msr_access(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val)
{
	struct sim_socket *s;
	int rc = 0;

	if (cpu < 0 || cpu >= sim->ncpus)
		return sim_fail(sim, PMON_ENODEV, "no CPU %d (the machine has %d)", cpu,
				sim->ncpus);
	s = &sim->sock[sim->cpu[cpu].sock];
	if (sim->nhm) {               /* Nehalem-EP: its uncore, the cores' PMUs */
		if (sim_nhm_msr(sim, cpu, msr, wr, val, &rc) || sim_core_msr(sim, cpu, msr, wr, val, &rc))
			return rc;
		return sim_fail(sim, PMON_EIO, "CPU %d: MSR 0x%x does not exist (#GP)", cpu, msr);
	}
	/* the families' ranges are disjoint; the CBos, the most numerous, first */
	if (sim_cbo_msr(sim, s, msr, wr, val, &rc) ||
	    sim_core_msr(sim, cpu, msr, wr, val, &rc) ||
	    sim_ubox_msr(sim, s, msr, wr, val, &rc) ||
	    sim_pcu_msr(sim, s, msr, wr, val, &rc))
		return rc;
	return sim_fail(sim, PMON_EIO, "CPU %d: MSR 0x%x does not exist (#GP)", cpu, msr);
}

int sim_msr_read(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t *val)
{
	*val = 0;
	return msr_access(sim, cpu, msr, 0, val);
}

int sim_msr_write(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t val)
{
	return msr_access(sim, cpu, msr, 1, &val);
}

const struct sim_ctr *sim_msr_counter(const struct pmon_sim *sim, int cpu, uint32_t msr)
{
	const struct sim_ctr *c;

	if (cpu < 0 || cpu >= sim->ncpus)
		return NULL;
	if (sim->nhm)
		return (c = sim_nhm_counter(sim, cpu, msr)) ? c : sim_core_counter(sim, cpu, msr);
	if ((c = sim_cbo_counter(sim, cpu, msr)) || (c = sim_core_counter(sim, cpu, msr)) ||
	    (c = sim_ubox_counter(sim, cpu, msr)) || (c = sim_pcu_counter(sim, cpu, msr)))
		return c;
	return NULL;
}
