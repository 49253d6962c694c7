/*
 * test_implausible.c - a count no box could have made is never returned
 * (issue 18, defect 7).  Another agent rewrites a counter (CBo 0's, an
 * MSR; iMC channel 0's, PCI) or resets a box's counters through its box
 * control (the PCU's, CBo 0's) while pmon counts, on the emulated machine
 * (manual time) and on fake device files: the read fails with PMON_EBUSY
 * naming the counter, gives no number, and so do later reads and the stop,
 * which still puts the controls back.  Counts a box can make are still
 * returned: 10 s of clockticks at once, and memory traffic the emulated
 * machine counts without time passing.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "sim_machine.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

static pmon_machine_t *m;
static pmon_sim_t *sim;
static struct pmon_access *raw;
static char err[512];

#define CBO0_BOX_CTL 0xd04u
#define CBO0_CTL0 0xd10u
#define CBO0_CTR0 0xd16u
#define PCU_BOX_CTL 0xc24u
#define PCU_CTL0 0xc30u
#define IMC_CTR0 0xa0u
#define BOX_RST_CTRS 0x2u
#define BOX_FRZ_EN 0x10000u

static pmon_session_t *session_of(const char *ev)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	pmon_session_create(m, &s);
	CHECK_EQ_INT(pmon_machine_encode(m, ev, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	return s;
}

/* The read, a second read and the stop all refuse, naming reg. */
static void refused(pmon_session_t *s, const char *reg, const char *what)
{
	uint64_t v[1] = { 777 };
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, what);
	CHECK_EQ_U64(v[0], 777, "no count");
	CHECK(strstr(pmon_session_errmsg(s), reg) &&
	      strstr(pmon_session_errmsg(s), "more than the box can count"),
	      "%s: names the counter: %s", what, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "the next read too");
	CHECK_EQ_U64(v[0], 777, "no count");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_EBUSY, "the stop too");
	CHECK_EQ_U64(v[0], 777, "no count");
	pmon_session_destroy(s);
}

static void cbo_rewritten(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	uint64_t v[1], uclk = pmon_sim_shape(sim)->uclk_hz, c;
	pmon_session_t *s = session_of("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	CHECK_EQ_INT(pmon_session_counter(s, 0), 0, "on counter 0");
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], uclk / 1000, "1 ms of UCLK");
	/* 10 s at once: as many as the box counts, returned */
	pmon_sim_advance_ns(sim, 10000000000ull);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], uclk / 1000 + 10 * uclk, "10 s more of UCLK");
	/* another agent rewrites the counter: 2^42 counts ahead */
	raw->ops->msr_read(raw, cpu, CBO0_CTR0, &c, NULL, 0);
	CHECK_EQ_INT(raw->ops->msr_write(raw, cpu, CBO0_CTR0, c + (1ull << 42), NULL, 0), 0,
		     "their write");
	pmon_sim_advance_ns(sim, 1000);
	refused(s, "snbep_unc_cbo0 socket 0 CTR0 (MSR 0xd16)", "a counter rewritten ahead");
	raw->ops->msr_read(raw, cpu, CBO0_CTL0, &c, NULL, 0);
	CHECK_EQ_U64(c, 0, "CTL0 put back by the stop");

	/* rewritten back to 0 (a wrap of almost the whole range) */
	s = session_of("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	raw->ops->msr_write(raw, cpu, CBO0_CTR0, 0, NULL, 0);
	refused(s, "snbep_unc_cbo0 socket 0 CTR0", "a counter rewritten to 0");

	/* the box's counters reset through its box control (freeze bits kept) */
	raw->ops->msr_write(raw, cpu, CBO0_CTR0, 1ull << 30, NULL, 0);
	s = session_of("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	raw->ops->msr_write(raw, cpu, CBO0_BOX_CTL, BOX_FRZ_EN | BOX_RST_CTRS, NULL, 0);
	pmon_sim_advance_ns(sim, 1000);
	refused(s, "snbep_unc_cbo0 socket 0 CTR0", "CBo 0 reset through its box control");
}

static void pcu_reset(void)
{
	int cpu = pmon_machine_socket_cpu(m, 0);
	uint64_t v[1], c;
	pmon_session_t *s = session_of("snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0");
	pmon_sim_advance_ns(sim, 2000000);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], 2 * pmon_sim_shape(sim)->pclk_hz / 1000, "2 ms of PCLK");
	raw->ops->msr_write(raw, cpu, PCU_BOX_CTL, BOX_FRZ_EN | BOX_RST_CTRS, NULL, 0);
	pmon_sim_advance_ns(sim, 1000);
	char reg[64];
	snprintf(reg, sizeof(reg), "snbep_unc_pcu socket 0 CTR%d", pmon_session_counter(s, 0));
	refused(s, reg, "the PCU reset through its box control");
	raw->ops->msr_read(raw, cpu, PCU_CTL0 + 0, &c, NULL, 0);
	CHECK_EQ_U64(c, 0, "PCU CTL0 put back");
}

/* iMC channel 0's CAS reads: a million lines of traffic in no emulated time
 * are counted; the counter's low dword rewritten is not. */
static void imc(void)
{
	pmon_pci_addr_t ch0[2];
	uint64_t v[1];
	CHECK_EQ_INT(raw->ops->pci_find(raw, 0x8086, 0x3cb0, ch0, 2, NULL, 0), 2, "one iMC ch0 per socket");
	pmon_session_t *s = session_of("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0");
	struct pmon_sim_truth t0, t1;
	pmon_sim_channel_truth(sim, 0, 0, &t0);
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 1u << 20), 0, "traffic");
	pmon_sim_channel_truth(sim, 0, 0, &t1);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], t1.cas_rd - t0.cas_rd, "CAS reads of the traffic, counted in no time");
	CHECK(v[0] > 100000, "the traffic reached channel 0: %llu", (unsigned long long)v[0]);
	raw->ops->pci_write(raw, ch0[0], IMC_CTR0 + 4 * pmon_session_counter(s, 0) * 2, 0, NULL, 0);
	pmon_sim_advance_ns(sim, 1000);
	refused(s, "snbep_unc_imc0 socket 0 CTR", "an iMC counter rewritten");
}

/* Fake device files: iMC channel 0 of socket 0 (PCI config space: bus
 * 0x3f, device 16, function 0); its counter does not move by itself, the
 * test moves it, then another agent writes it back. */
static void fake_hw(void)
{
	char base[128];
	struct fake_world w;
	uint64_t v[1];
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return;
	}
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return;
	pmon_session_t *s = session_of("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0");
	uint32_t lo = IMC_CTR0 + 8u * (uint32_t)pmon_session_counter(s, 0);
	fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, lo, 0x12345678u);
	fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, lo + 4, 0x9u);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_EBUSY, "a counter rewritten before the first read");
	pmon_session_destroy(s);

	s = session_of("snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0");
	fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, lo, 0x12345678u + 1000);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], 1000, "a thousand counts");
	fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, lo, 5);
	refused(s, "snbep_unc_imc0 socket 0 CTR", "fake hardware: a counter rewritten");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x3f, 16, 0, 0xd8 + 4 * (uint32_t)0), 0, "CTL0 put back");
	pmon_machine_close(m);
	fake_rmtree(base);
}

int main(void)
{
	setenv("PMON_QUIET", "1", 1);
	if (!(sim = sim_machine_open(&m, NULL, 0, err, sizeof(err))))
		return check_done("test_implausible");
	CHECK_EQ_INT(pmon_sim_access_open(&raw, err, sizeof(err)), PMON_OK, err);
	cbo_rewritten();
	pcu_reset();
	imc();
	raw->ops->close(raw);
	pmon_machine_close(m);
	fake_hw();
	return check_done("test_implausible");
}
