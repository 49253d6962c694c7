/*
 * test_sim_nhm_snoop.c - the Nehalem-EP snoop events on the emulated
 * machine (gen=nhm-ep, prefetchers off): UNC_SNP_RESP_TO_LOCAL_HOME /
 * _REMOTE_HOME and UNC_GQ_SNOOP with the MESF select MSR 0x301.  With two
 * sockets every LLC miss snoops the other socket (doc/sim-nhm.md), so the
 * expected counts follow from who reads or writes whose lines:
 *  - CPU 0 reads N lines of socket 0: socket 1 answers N snoops for lines
 *    homed elsewhere, all misses (I_STATE to the remote home);
 *  - CPU 0 reads N lines of socket 1: socket 1 is the home and answers its
 *    own N snoops (I_STATE to the local home);
 *  - socket 1 (CPU 8) stores N lines of socket 0, then CPU 0 reads them:
 *    N read snoops find them Modified in socket 1 (WB, HITM; M -> S);
 *  - socket 1 reads N lines of socket 0 (Exclusive there), then CPU 0
 *    stores them: N invalidating snoops find them E (E -> I), which the
 *    guide's responses do not list.
 */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define GLB 0x391
#define PMC0 0x3b0
#define SEL0 0x3c0
#define MESF 0x301
#define EN (1ull << 22)
#define MEM (32ull << 30)
#define N 480ull

static const struct { unsigned code, umask; } ev[8] = {
	{ 0x06, 0x01 }, { 0x07, 0x01 }, { 0x07, 0x20 }, { 0x07, 0x24 },
	{ 0x07, 0x1a }, { 0x0c, 0x01 }, { 0x0c, 0x02 }, { 0x0c, 0x04 },
};

static void program(int cpu)
{
	for (int i = 0; i < 8; i++)
		wrmsr_ok(cpu, SEL0 + (uint32_t)i, ev[i].code | ev[i].umask << 8 | EN);
	wrmsr_ok(cpu, GLB, 0xff);
}

static void expect(int cpu, const uint64_t *want, const char *what)
{
	for (int i = 0; i < 8; i++) {
		char msg[128];
		snprintf(msg, sizeof msg, "%s: event 0x%02x umask 0x%02x", what, ev[i].code, ev[i].umask);
		CHECK_EQ_U64(rdmsr(cpu, PMC0 + (uint32_t)i), want[i], msg);
	}
}

static void traffic(int cpu, uint64_t addr, enum pmon_sim_kind kind)
{
	CHECK_EQ_INT(pmon_sim_traffic(sim, cpu, addr, kind, N), 0, "traffic");
}

static void misses(void)
{
	machine("gen=nhm-ep");
	program(8);
	traffic(0, 0, PMON_SIM_LOAD);
	const uint64_t w1[8] = { 0, N, 0, 0, 0, 0, 0, 0 };
	expect(8, w1, "socket 0 reads its own lines");
	traffic(0, MEM, PMON_SIM_LOAD);
	const uint64_t w2[8] = { N, N, 0, 0, 0, 0, 0, 0 };
	expect(8, w2, "then socket 1's");
}

static void hitm(void)
{
	machine("gen=nhm-ep");
	traffic(8, 0, PMON_SIM_STORE);        /* Modified in socket 1 */
	program(8);
	wrmsr_ok(8, MESF, 0x01);              /* M -> S */
	traffic(0, 0, PMON_SIM_LOAD);
	const uint64_t w[8] = { 0, 0, N, N, 0, N, 0, N };
	expect(8, w, "reads of lines Modified in socket 1");
	wrmsr_ok(8, MESF, 0x02);              /* E -> S: none of them */
	traffic(0, 0, PMON_SIM_LOAD);         /* L1/L2 hits now: no snoop */
	CHECK_EQ_U64(rdmsr(8, PMC0 + 7), N, "MESF E->S: nothing more");
}

static void invalidations(void)
{
	machine("gen=nhm-ep");
	traffic(8, 0, PMON_SIM_LOAD);         /* Exclusive in socket 1 */
	program(8);
	wrmsr_ok(8, SEL0 + 7, 0x080c | EN);   /* GQ_SNOOP GOTO_I with MSR 0x301 */
	wrmsr_ok(8, MESF, 0x20);              /* E -> I */
	traffic(0, 0, PMON_SIM_STORE);
	const uint64_t w[8] = { 0, 0, 0, 0, 0, 0, N, N };
	expect(8, w, "RFOs of lines Exclusive in socket 1");
}

int main(void)
{
	misses();
	hitm();
	invalidations();
	sim_teardown();
	return check_done("test_sim_nhm_snoop");
}
