/*
 * platform.c - the platform MSRs pmon reads, and the prefetchers' control,
 * written only on a caller's explicit request (include/pmon/platform.h).
 */
#include "pmon/platform.h"

#include <stdio.h>

#include "journal.h"
#include "machine.h"
#include "why.h"

static int readable(uint32_t msr)
{
	return msr == PMON_MSR_PLATFORM_INFO || msr == PMON_MSR_PKG_CST_CONFIG ||
	       msr == PMON_MSR_MISC_ENABLE || msr == PMON_MSR_MISC_FEATURE_CTL ||
	       msr == PMON_MSR_TURBO_RATIO_LIMIT;
}

static int cpu_ok(const pmon_machine_t *m, int cpu, char *why, size_t whylen)
{
	if (cpu < 0 || cpu >= m->topo.ncpus)
		return pmon_why(why, whylen, PMON_ERANGE, "CPU %d: the machine has CPUs 0..%d", cpu,
				m->topo.ncpus - 1);
	return PMON_OK;
}

int pmon_machine_platform_read(pmon_machine_t *m, int cpu, uint32_t msr, uint64_t *val,
			       char *why, size_t whylen)
{
	if (!m || !val)
		return pmon_why(why, whylen, PMON_EINVAL, "no machine or no place for the value");
	if (!readable(msr))
		return pmon_why(why, whylen, PMON_EINVAL,
				"MSR 0x%x is not a platform register pmon reads (0xCE, 0xE2, 0x1A0, "
				"0x1A4, 0x1AD)", msr);
	int rc = cpu_ok(m, cpu, why, whylen);
	if (rc)
		return rc;
	return m->acc->ops->msr_read(m->acc, cpu, msr, val, why, whylen);
}

int pmon_machine_prefetch_write(pmon_machine_t *m, int cpu, unsigned bits, char *why,
				size_t whylen)
{
	uint64_t v;

	if (!m)
		return pmon_why(why, whylen, PMON_EINVAL, "no machine");
	if (bits & ~PMON_PF_ALL)
		return pmon_why(why, whylen, PMON_EINVAL,
				"prefetcher bits 0x%x: MSR 0x1A4's prefetcher bits are 0-3 (0x0..0xf)",
				bits);
	int rc = cpu_ok(m, cpu, why, whylen);
	if (rc)
		return rc;
	rc = m->acc->ops->msr_read(m->acc, cpu, PMON_MSR_MISC_FEATURE_CTL, &v, why, whylen);
	if (rc)
		return rc;
	uint64_t nv = (v & ~(uint64_t)PMON_PF_ALL) | bits;
	if (nv == v)
		return PMON_OK;
	/* On the hardware the change is journaled first, like the PMON
	 * registers' (journal.h), so that `pmon reset` puts the prefetchers
	 * back after a kill -9; not from a signal handler (why NULL): the
	 * line left then says what was written back, and reset drops it. */
	int sock = m->topo.cpu_socket[cpu];
	uint64_t orig = v & PMON_PF_ALL;
	int journal = !m->emulated && m->run_dir[0] && why;
	if (journal && sock < 0)
		return pmon_why(why, whylen, PMON_ENODEV, "MSR 0x1A4 of CPU %d left as it is: the CPU's "
				"socket is unknown, so its journal is too", cpu);
	if (journal) {
		struct pmon_journal_entry e = { .cpu = cpu, .kind = REG_CTL, .idx = 0,
						.value = v & PMON_PF_ALL, .mask = PMON_PF_ALL,
						.wrote = bits, .has_wrote = 1 };
		char w[PMON_WHY_LEN];
		snprintf(e.box, sizeof(e.box), "%s", PMON_JOURNAL_PREFETCH);
		if ((rc = pmon_journal_intent(m->run_dir, sock, &e, &orig, w, sizeof(w))))
			return pmon_why(why, whylen, rc, "MSR 0x1A4 of CPU %d left as it is: cannot journal "
					"it first: %s", cpu, w);
	}
	/* The one register outside the PMON set pmon writes, on request. */
	rc = m->acc->ops->msr_write(m->acc, cpu, PMON_MSR_MISC_FEATURE_CTL, nv, why, whylen);
	if (!rc && journal && bits == orig) {
		char w[PMON_WHY_LEN];
		/* back to the original: nothing for `pmon reset` to do (a line
		 * that stays is harmless: reset finds the original there) */
		if (pmon_journal_drop(m->run_dir, sock, PMON_JOURNAL_PREFETCH, cpu, w, sizeof(w)))
			fprintf(stderr, "pmon: warning: MSR 0x1A4 of CPU %d is back to 0x%llx, but its "
				"journal line stays: %s\n", cpu, (unsigned long long)orig, w);
	}
	return rc;
}
