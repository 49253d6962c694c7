/*
 * test_start_span.c - the window pmon_session_read_ns gives (its value
 * after the start to its value after the stop) is the interval the UBox's
 * clock counted.  The UBox has no freeze: its fixed counter runs from its
 * enable, before the other boxes are unfrozen and before the start's
 * read-backs and fold setup.  On the emulated machine (manual time) every
 * register write of the session is made to take 1 ms (the process
 * preempted before it): the UBox's UCLK ticks over the window's nanoseconds
 * are then exactly the UCLK frequency, however many writes the start makes
 * after the enable (a start stamped after those writes sees the UBox count
 * several ms more than the window: the frequency comes out high).
 */
#include <stdint.h>

#include "check.h"
#include "sim_span.h"
#include "sim_machine.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "machine.h"
#include "access.h"

#define STEP_NS 1000000u

static pmon_machine_t *m;
static pmon_sim_t *sim;
static char err[512];

static struct {
	struct pmon_access a, *inner;
	struct pmon_access_ops ops;
	int writes;
} slow;

static int slow_msr_write(struct pmon_access *a, int cpu, uint32_t msr, uint64_t val, char *why,
			  size_t whylen)
{
	(void)a;
	pmon_sim_advance_ns(sim, STEP_NS);
	slow.writes++;
	return slow.inner->ops->msr_write(slow.inner, cpu, msr, val, why, whylen);
}

static int slow_pci_write(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t val,
			  char *why, size_t whylen)
{
	(void)a;
	pmon_sim_advance_ns(sim, STEP_NS);
	slow.writes++;
	return slow.inner->ops->pci_write(slow.inner, d, off, val, why, whylen);
}

int main(void)
{
	pmon_session_t *s;
	uint64_t v[3];
	if (!(sim = sim_machine_open(&m, NULL, 1024, err, sizeof(err))))
		return check_done("test_start_span");
	slow.inner = m->acc;
	slow.ops = *m->acc->ops;
	slow.ops.msr_write = slow_msr_write;
	slow.ops.pci_write = slow_pci_write;
	slow.a.ops = &slow.ops;
	slow.a.priv = m->acc->priv;
	m->acc = &slow.a;

	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	span_add(m, s, "snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=0");
	span_add(m, s, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	span_add(m, s, "snbep_unc_cbo1::UNC_C_CLOCKTICKS:socket=0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	int start_writes = slow.writes;
	uint64_t t0 = pmon_session_read_ns(s), now = pmon_sim_now_ns(sim);
	CHECK(start_writes >= 3, "the start made %d writes, each 1 ms", start_writes);
	/* the window begins at the read of the running counters, after every
	 * write of the start (each 1 ms) */
	CHECK(now >= t0, "the window began %llu ns before the start returned",
	      (unsigned long long)(now - t0));
	pmon_sim_advance_ns(sim, 10 * STEP_NS);
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	uint64_t t1 = pmon_session_read_ns(s);
	CHECK(t1 >= t0 + 10 * STEP_NS, "a window of at least 10 ms: %llu ns",
	      (unsigned long long)(t1 - t0));
	CHECK_EQ_U64(v[0], span_uclk(sim, t1) - span_uclk(sim, t0), "UBox UCLK ticks: exactly the window's");
	CHECK(v[1] > 0 && v[1] <= span_uclk(sim, t1) - span_uclk(sim, t0),
	      "CBo 0 counted within the window (%llu)", (unsigned long long)v[1]);
	pmon_session_destroy(s);
	m->acc = slow.inner;
	pmon_machine_close(m);
	return check_done("test_start_span");
}
