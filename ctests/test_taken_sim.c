/*
 * test_taken_sim.c - a control another agent rewrites while pmon counts, on
 * the emulated machine: CTL0 of CBo 0 (an MSR, with the CBo's filter in the
 * same session) and CTL0 of iMC channel 0 (PCI, with CTL1 in the same
 * session).  The read fails with PMON_EBUSY; the stop fails with PMON_EBUSY,
 * writes nothing to that control (the emulator's access log), so the other
 * agent's value stays, puts the filter (as another agent had left it before
 * the count) and the other control back, and names the register with the
 * value found.  Two sessions of the process sharing the CBo's filter both
 * leave it to another agent that changed the field of one of them, and a
 * session starting while one of them holds it so is refused.
 * Emulated time is manual.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sim_machine.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"
#include "fold.h"

static pmon_machine_t *m;
static pmon_sim_t *sim;
static struct pmon_access *raw;
static char err[512];

#define CBO0_CTL0 0xd10u
#define CBO0_CTL1 0xd11u
#define CBO0_FILTER 0xd14u
#define CBO0_BOX_CTL 0xd04u
#define THEIRS_MSR 0x401134ull          /* another agent's LLC_LOOKUP in CBo 0 CTL0 */
#define FILTER_LEFT (0x1fu << 18)       /* every state: left by another agent before */
#define IMC_CTL0 0xd8u
#define IMC_CTL1 0xdcu
#define THEIRS_PCI 0x400104u            /* another agent's ACT_COUNT in iMC 0 CTL0 */

/* CBo 0's LLC lookups of data reads of lines in state M (filter state field). */
#define LOOKUP_M "snbep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0"

/* A session of ev1 and, unless NULL, ev2. */
static pmon_session_t *session_of(const char *ev1, const char *ev2)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	pmon_session_create(m, &s);
	CHECK_EQ_INT(pmon_machine_encode(m, ev1, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	if (!ev2)
		return s;
	CHECK_EQ_INT(pmon_machine_encode(m, ev2, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	return s;
}

static int says_left(const pmon_session_t *s, const char *reg_and_value)
{
	const char *msg = pmon_session_errmsg(s), *k = strstr(msg, "left as another agent set them");
	return strstr(msg, "no longer holds what pmon wrote") && k && strstr(k, reg_and_value) &&
	       strstr(k, "every other register pmon changed was put back");
}

/* Writes in the access log since entry from: to MSR msr of cpu (pci: to
 * offset off of function f instead), and all of them. */
static int log_writes(size_t from, int cpu, uint32_t msr, const pmon_pci_addr_t *f, uint16_t off)
{
	int n = 0;
	for (size_t i = from; i < pmon_sim_log_count(sim); i++) {
		const struct pmon_sim_log_entry *e = pmon_sim_log_get(sim, i);
		if (!f)
			n += e->op == PMON_SIM_MSR_WRITE && e->cpu == cpu && e->msr == msr;
		else
			n += e->op == PMON_SIM_PCI_WRITE && e->bus == f->bus && e->dev == f->dev &&
			     e->func == f->func && e->off == off;
	}
	return n;
}

static uint64_t msr(int cpu, uint32_t a)
{
	uint64_t v = ~0ull;
	raw->ops->msr_read(raw, cpu, a, &v, NULL, 0);
	return v;
}

static uint32_t cfg(pmon_pci_addr_t f, uint32_t off)
{
	uint32_t v = ~0u;
	raw->ops->pci_read(raw, f, off, &v, NULL, 0);
	return v;
}

static void cbo_ctl0(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	uint64_t v[2];
	raw->ops->msr_write(raw, cpu, CBO0_FILTER, FILTER_LEFT, NULL, 0);
	pmon_session_t *s = session_of("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0",
				       "snbep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK(pmon_session_counter(s, 0) == 1 && pmon_session_counter(s, 1) == 0,
	      "CLOCKTICKS on counter 1, LLC_LOOKUP on 0");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), 0x400334, "CTL0 = LLC_LOOKUP DATA_READ | en");
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0x200000, "filter: state M");
	CHECK_EQ_INT(raw->ops->msr_write(raw, cpu, CBO0_CTL0, THEIRS_MSR, NULL, 0), 0, "their write");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), THEIRS_MSR, "the emulator keeps their value");
	pmon_sim_advance_ns(sim, PMON_VERIFY_NS);
	v[0] = 777;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "the read after the change");
	CHECK_EQ_U64(v[0], 777, "no count");
	size_t log0 = pmon_sim_log_count(sim);
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_EBUSY, "the stop reports it");
	CHECK(says_left(s, "snbep_unc_cbo0 socket 0 CTL0 (MSR 0xd10) = 0x401134"), "stop says so: %s",
	      pmon_session_errmsg(s));
	CHECK_EQ_INT(log_writes(log0, cpu, CBO0_CTL0, NULL, 0), 0, "the stop never wrote CTL0");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), THEIRS_MSR, "their CTL0");
	CHECK_EQ_INT(log_writes(log0, cpu, CBO0_FILTER, NULL, 0), 1, "the filter written once");
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), FILTER_LEFT, "the filter as it was before the count");
	CHECK_EQ_INT(log_writes(log0, cpu, CBO0_CTL1, NULL, 0), 1, "CTL1 written once");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL1), 0, "CTL1 put back");
	pmon_session_destroy(s);
	raw->ops->msr_write(raw, cpu, CBO0_CTL0, 0, NULL, 0);
	raw->ops->msr_write(raw, cpu, CBO0_FILTER, 0, NULL, 0);
}

/* Two sessions of this process share CBo 0's filter, each with a field of
 * its own (A the state, B the node ID); another agent rewrites A's field
 * only.  Neither stop writes the filter: B's, after A's, does not put the
 * original back over the other agent's value either. */
static void shared_filter(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	uint64_t v[1];
	pmon_session_t *a, *b;
	pmon_encoding_t e;
	raw->ops->msr_write(raw, cpu, CBO0_FILTER, FILTER_LEFT, NULL, 0);
	pmon_session_create(m, &a);
	pmon_session_create(m, &b);
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0",
					 &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(a, &e), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_cbo0::UNC_C_TOR_INSERTS:NID_ALL:nf=1:socket=0",
					 &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(b, &e), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_INT(pmon_session_start(a), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0x200400, "filter: A's state M, B's node 0");
	raw->ops->msr_write(raw, cpu, CBO0_FILTER, 0x100400, NULL, 0);   /* state E: A's field */
	pmon_sim_advance_ns(sim, PMON_VERIFY_NS);
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_EBUSY, "A's field changed");
	CHECK_EQ_INT(pmon_session_read(b, v), PMON_OK, "B's field is intact");
	CHECK_EQ_INT(pmon_session_stop(a, v), PMON_EBUSY, "A's stop");
	CHECK(says_left(a, "(MSR 0xd14) = 0x100400"), "A's stop says so: %s", pmon_session_errmsg(a));
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0x100400, "after A's stop: theirs");
	CHECK_EQ_INT(pmon_session_stop(b, v), PMON_EBUSY, "B's stop: the filter is another agent's");
	CHECK(strstr(pmon_session_errmsg(b), "left as another agent set them") &&
	      strstr(pmon_session_errmsg(b), "(MSR 0xd14) = 0x100400"), "B's stop says so: %s",
	      pmon_session_errmsg(b));
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0x100400, "after B's stop: theirs still");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), 0, "CTL0 put back");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL1), 0, "CTL1 put back");
	pmon_session_destroy(a);
	pmon_session_destroy(b);
	raw->ops->msr_write(raw, cpu, CBO0_FILTER, 0, NULL, 0);
}

/* A session starting while another session of this process holds a
 * register it found taken over (here CBo 0's filter, A's state field
 * rewritten) is refused with nothing written: it would write the filter
 * (its fields merged with A's) and, having saved A's original in place of
 * what it found, put that back at its stop, so the other agent's value
 * would be lost. */
/* Session A counting LOOKUP_M (CTL0 0x400334, filter 0x200000), whose
 * register msr another agent then sets to theirs: A's next full check
 * finds it changed and marks it taken. */
static pmon_session_t *a_with_taken(int cpu, uint32_t msr_addr, uint64_t theirs)
{
	uint64_t v[1];
	pmon_session_t *a = session_of(LOOKUP_M, NULL);
	CHECK_EQ_INT(pmon_session_start(a), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), 0x400334, "A's CTL0 = LLC_LOOKUP DATA_READ | en");
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0x200000, "filter: A's state M");
	raw->ops->msr_write(raw, cpu, msr_addr, theirs, NULL, 0);
	pmon_sim_advance_ns(sim, PMON_VERIFY_NS);
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_EBUSY, "A's register changed");
	return a;
}

static void start_over_taken(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	uint64_t v[1];
	pmon_session_t *a = a_with_taken(cpu, CBO0_FILTER, 0x100000), *c;   /* state E */
	c = session_of("snbep_unc_cbo0::UNC_C_TOR_INSERTS:NID_ALL:nf=1:socket=0", NULL);
	size_t log0 = pmon_sim_log_count(sim);
	CHECK_EQ_INT(pmon_session_start(c), PMON_EBUSY, "a session needing the taken filter");
	CHECK(strstr(pmon_session_errmsg(c), "snbep_unc_cbo0 socket 0 Cn_MSR_PMON_BOX_FILTER (MSR 0xd14) "
		     "is another agent's: a running session of this process found it changed from "
		     "what pmon wrote (0x200000) to 0x100000") &&
	      strstr(pmon_session_errmsg(c), "nothing was written"), "names it, pmon's value and theirs: %s",
	      pmon_session_errmsg(c));
	CHECK_EQ_INT(log_writes(log0, cpu, CBO0_FILTER, NULL, 0), 0, "the refused start wrote no filter");
	CHECK_EQ_INT(log_writes(log0, cpu, CBO0_BOX_CTL, NULL, 0), 0, "nor the box control");
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0x100000, "theirs");
	CHECK_EQ_INT(pmon_session_stop(a, v), PMON_EBUSY, "A's stop");
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0x100000, "theirs after A's stop");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), 0, "CTL0 put back");
	pmon_session_destroy(a);
	pmon_session_destroy(c);
	raw->ops->msr_write(raw, cpu, CBO0_FILTER, 0, NULL, 0);
}

/* Another agent turns a running session's counter off (CTL0 = 0): a second
 * session of the process counts on another counter of the box, never on
 * CTL0, and the stops leave CTL0 to that agent. */
static void counter_taken_elsewhere(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	uint64_t v[1];
	pmon_session_t *a = a_with_taken(cpu, CBO0_CTL0, 0), *b;
	b = session_of("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL);
	size_t log0 = pmon_sim_log_count(sim);
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_INT(pmon_session_counter(b, 0), 1, "B counts on CTL1");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL1), 0x400000, "B's CTL1 = CLOCKTICKS | en");
	CHECK_EQ_INT(log_writes(log0, cpu, CBO0_CTL0, NULL, 0), 0, "B's start never wrote CTL0");
	CHECK_EQ_INT(pmon_session_stop(a, v), PMON_EBUSY, "A's stop");
	CHECK_EQ_INT(pmon_session_stop(b, v), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), 0, "their CTL0 after both stops");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL1), 0, "B's CTL1 put back");
	pmon_session_destroy(a);
	pmon_session_destroy(b);
}

/* Another agent changes a running session's control, then writes pmon's
 * value back (a tool that saves and restores): the stop still returns no
 * count (a change was seen), but puts the control back, as it does every
 * register it still holds, rather than leave pmon's event counting. */
static void taken_given_back(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	uint64_t v[1];
	pmon_session_t *a = a_with_taken(cpu, CBO0_CTL0, 0x400000);
	raw->ops->msr_write(raw, cpu, CBO0_CTL0, 0x400334, NULL, 0);      /* theirs undone */
	size_t log0 = pmon_sim_log_count(sim);
	CHECK_EQ_INT(pmon_session_stop(a, v), PMON_EBUSY, "no count: a change was seen");
	CHECK(!strstr(pmon_session_errmsg(a), "CTL0 (MSR 0xd10) ="), "CTL0 is not named as theirs: %s",
	      pmon_session_errmsg(a));
	CHECK_EQ_INT(log_writes(log0, cpu, CBO0_CTL0, NULL, 0), 1, "the stop wrote CTL0 once");
	CHECK_EQ_U64(msr(cpu, CBO0_CTL0), 0, "CTL0 put back: pmon's event no longer counts");
	CHECK_EQ_U64(msr(cpu, CBO0_FILTER), 0, "the filter put back");
	pmon_session_destroy(a);
}

static void imc_ctl0(void)
{
	pmon_pci_addr_t ch0[2];
	uint64_t v[2];
	CHECK_EQ_INT(raw->ops->pci_find(raw, 0x8086, 0x3cb0, ch0, 2, NULL, 0), 2, "one iMC ch0 per socket");
	pmon_session_t *s = session_of("snbep_unc_imc0::UNC_M_CAS_COUNT:WR:socket=0",
				       "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK(pmon_session_counter(s, 0) == 1 && pmon_session_counter(s, 1) == 0, "WR on 1, RD on 0");
	CHECK_EQ_U64(cfg(ch0[0], IMC_CTL0), 0x400304, "CTL0 = CAS RD | en");
	CHECK_EQ_U64(cfg(ch0[0], IMC_CTL1), 0x400c04, "CTL1 = CAS WR | en");
	CHECK_EQ_INT(raw->ops->pci_write(raw, ch0[0], IMC_CTL0, THEIRS_PCI, NULL, 0), 0, "their write");
	v[0] = 777;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "the very next read");
	CHECK_EQ_U64(v[0], 777, "no count");
	size_t log0 = pmon_sim_log_count(sim);
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_EBUSY, "the stop reports it");
	char reg[160];
	snprintf(reg, sizeof(reg), "snbep_unc_imc0 socket 0 CTL0 (PCI %04x:%02x:%02x.%x offset 0xd8) = 0x400104",
		 ch0[0].domain, ch0[0].bus, ch0[0].dev, ch0[0].func);
	CHECK(says_left(s, reg), "stop says so: %s", pmon_session_errmsg(s));
	CHECK_EQ_INT(log_writes(log0, 0, 0, &ch0[0], IMC_CTL0), 0, "the stop never wrote CTL0");
	CHECK_EQ_U64(cfg(ch0[0], IMC_CTL0), THEIRS_PCI, "their CTL0");
	CHECK_EQ_INT(log_writes(log0, 0, 0, &ch0[0], IMC_CTL1), 1, "CTL1 written once");
	CHECK_EQ_U64(cfg(ch0[0], IMC_CTL1), 0, "CTL1 put back");
	pmon_session_destroy(s);
	raw->ops->pci_write(raw, ch0[0], IMC_CTL0, 0, NULL, 0);
}

int main(void)
{
	char dir[] = "/tmp/pmon-taken-XXXXXX";
	if (!(sim = sim_machine_open(&m, dir, 1u << 16, err, sizeof(err))))
		return check_done("test_taken_sim");
	CHECK_EQ_INT(pmon_sim_access_open(&raw, err, sizeof(err)), PMON_OK, err);
	cbo_ctl0();
	shared_filter();
	start_over_taken();
	counter_taken_elsewhere();
	taken_given_back();
	imc_ctl0();
	raw->ops->close(raw);
	pmon_machine_close(m);
	CHECK(rmdir(dir) == 0, "nothing left in the run directory");
	return check_done("test_taken_sim");
}
