/*
 * test_sim_nhm_regs.c - the Nehalem-EP uncore PMU's registers on the
 * emulated machine (gen=nhm-ep): the global control gates every counter,
 * the fixed UCLK counter, 48-bit wrap into the global status and its
 * clearing through the overflow control, the event select's enable and
 * cmask/invert/edge, the reserved-bit policy, the per-socket uncore, the
 * matcher and MESF registers, and the offcore RSP MSRs shared by a core's
 * threads.  Counts are from the shape: uclk 2.66 GHz (2660 cycles a
 * microsecond), and N lines read by one core from its own socket's memory
 * with the prefetchers off = N DRAM reads.
 */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define GLB 0x391
#define STATUS 0x392
#define OVF 0x393
#define FIXED_CTR 0x394
#define FIXED_CTL 0x395
#define MATCH 0x396
#define PMC0 0x3b0
#define SEL0 0x3c0
#define MESF 0x301
#define EN (1ull << 22)
#define NORMAL_READS_ANY (0x072cull | EN)   /* UNC_QMC_NORMAL_READS.ANY */
#define MASK48 ((1ull << 48) - 1)

/* n lines read by CPU cpu from address addr on */
static void loads(int cpu, uint64_t addr, uint64_t n)
{
	CHECK_EQ_INT(pmon_sim_traffic(sim, cpu, addr, PMON_SIM_LOAD, n), 0, "traffic");
}

static void global_enable(void)
{
	machine("gen=nhm-ep");
	wrmsr_ok(0, FIXED_CTL, 1);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, FIXED_CTR), 0, "global enable off: the fixed counter stands");
	wrmsr_ok(0, GLB, 1ull << 32);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, FIXED_CTR), 2660, "1 us of uclk");
	CHECK_EQ_U64(rdmsr(5, FIXED_CTR), 2660, "the same uncore from CPU 5 (socket 0)");
	CHECK_EQ_U64(rdmsr(8, FIXED_CTR), 0, "socket 1's uncore is another");
	wrmsr_ok(0, FIXED_CTL, 0);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, FIXED_CTR), 2660, "fixed control's enable off: stands");

	/* a general counter: its select enabled, the global bit not set */
	wrmsr_ok(0, SEL0, NORMAL_READS_ANY);
	loads(0, 0, 300);
	CHECK_EQ_U64(rdmsr(0, PMC0), 0, "global bit 0 clear: nothing counts");
	wrmsr_ok(0, GLB, 1ull << 0);
	loads(0, 300 * 64, 300);
	CHECK_EQ_U64(rdmsr(0, PMC0), 300, "300 lines read from local DRAM");
	wrmsr_ok(0, SEL0, NORMAL_READS_ANY & ~EN);
	loads(0, 600 * 64, 300);
	CHECK_EQ_U64(rdmsr(0, PMC0), 300, "select's enable off: stands");
	CHECK_EQ_U64(rdmsr(0, GLB), 1, "global control reads back");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 0, "no violations");
}

static void wraps(void)
{
	machine("gen=nhm-ep");
	wrmsr_ok(0, FIXED_CTR, MASK48 - 99);
	wrmsr_ok(0, FIXED_CTL, 1);
	wrmsr_ok(0, SEL0 + 3, NORMAL_READS_ANY);
	wrmsr_ok(0, PMC0 + 3, MASK48 - 1);
	wrmsr_ok(0, GLB, 1ull << 32 | 1ull << 3);
	CHECK_EQ_U64(rdmsr(0, STATUS), 0, "no overflow yet");
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, FIXED_CTR), 2660 - 100, "fixed counter wrapped at 48 bits");
	CHECK_EQ_U64(rdmsr(0, STATUS), 1ull << 32, "fixed overflow: status bit 32");
	loads(0, 0, 5);
	CHECK_EQ_U64(rdmsr(0, PMC0 + 3), 3, "PMC3 wrapped at 48 bits");
	CHECK_EQ_U64(rdmsr(0, STATUS), 1ull << 32 | 1ull << 3, "PMC3 overflow: bit 3");
	CHECK_EQ_U64(rdmsr(8, STATUS), 0, "socket 1's status untouched");
	CHECK_EQ_INT(wrmsr(0, STATUS, 0), PMON_EIO, "status is read-only");
	wrmsr_ok(0, OVF, 1ull << 32);
	CHECK_EQ_U64(rdmsr(0, STATUS), 1ull << 3, "bit 32 cleared through 0x393");
	CHECK_EQ_U64(rdmsr(0, OVF), 0, "overflow control reads 0");
	wrmsr_ok(0, OVF, 1ull << 3);
	CHECK_EQ_U64(rdmsr(0, STATUS), 0, "all clear");
	/* a counter write beyond 48 bits: the policy keeps the low 48 */
	wrmsr_ok(0, PMC0, 1ull << 50 | 7);
	CHECK_EQ_U64(rdmsr(0, PMC0), 7, "bits above 48 dropped");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 1, "and recorded");
}

static void select_modifiers(void)
{
	machine("gen=nhm-ep");
	/* the same event in four counters: plain, cmask 1, cmask 2, invert */
	wrmsr_ok(0, SEL0 + 0, NORMAL_READS_ANY);
	wrmsr_ok(0, SEL0 + 1, NORMAL_READS_ANY | 1ull << 24);
	wrmsr_ok(0, SEL0 + 2, NORMAL_READS_ANY | 2ull << 24);
	wrmsr_ok(0, SEL0 + 3, NORMAL_READS_ANY | 1ull << 24 | 1ull << 23);
	wrmsr_ok(0, SEL0 + 4, NORMAL_READS_ANY | 1ull << 17);        /* occupancy reset */
	wrmsr_ok(0, SEL0 + 5, 0x012cull | EN);                       /* channel 0 only */
	wrmsr_ok(0, GLB, 0x3f);
	loads(0, 0, 90);
	CHECK_EQ_U64(rdmsr(0, PMC0 + 0), 90, "plain");
	CHECK_EQ_U64(rdmsr(0, PMC0 + 1), 90, "cmask 1: each read alone in its cycle");
	CHECK_EQ_U64(rdmsr(0, PMC0 + 2), 0, "cmask 2: never two reads in a cycle");
	CHECK_EQ_U64(rdmsr(0, PMC0 + 3), 0, "invert: idle cycles are not modeled");
	CHECK_EQ_U64(rdmsr(0, PMC0 + 4), 90, "occupancy reset changes no count");
	CHECK_EQ_U64(rdmsr(0, PMC0 + 5), 30, "channel 0: line % 3 == 0");
	/* reserved bits (16, 19, 21) are dropped and recorded */
	wrmsr_ok(0, SEL0 + 6, NORMAL_READS_ANY | 1ull << 16 | 1ull << 19);
	CHECK_EQ_U64(rdmsr(0, SEL0 + 6), NORMAL_READS_ANY, "select without reserved bits");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 1, "one violation");
	wrmsr_ok(0, GLB, 1ull << 1 | 1ull << 62);
	CHECK_EQ_U64(rdmsr(0, GLB), 2, "global control without reserved bit 62");
}

static void filter_registers(void)
{
	machine("gen=nhm-ep");
	wrmsr_ok(0, MATCH, 0x4000190000000000ull);
	CHECK_EQ_U64(rdmsr(1, MATCH), 0x4000190000000000ull, "matcher (RSPFWDI) reads back");
	CHECK_EQ_U64(rdmsr(8, MATCH), 0, "socket 1's matcher is its own");
	wrmsr_ok(0, MATCH, 0x4000190000000007ull);
	CHECK_EQ_U64(rdmsr(0, MATCH), 0x4000190000000000ull, "address bits 2:0 reserved");
	wrmsr_ok(0, MESF, 0x10);
	CHECK_EQ_U64(rdmsr(0, MESF), 0x10, "MESF select reads back");
	wrmsr_ok(0, MESF, 0x110);
	CHECK_EQ_U64(rdmsr(0, MESF), 0x10, "8 bits");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 2, "two violations");
}

static void rsp_registers(void)
{
	machine("gen=nhm-ep");
	wrmsr_ok(0, 0x1a6, 0x4001);
	CHECK_EQ_U64(rdmsr(1, 0x1a6), 0x4001, "RSP_0 shared by the core's two threads");
	CHECK_EQ_U64(rdmsr(2, 0x1a6), 0, "the next core's is its own");
	CHECK_EQ_INT(wrmsr(0, 0x1a7, 1), PMON_EIO, "Nehalem has no RSP_1");
	CHECK_EQ_INT(wrmsr(0, 0x1a6, 0x10001), PMON_EIO, "16 bits: bit 16 is a #GP");
	CHECK_EQ_U64(rdmsr(0, 0x1a6), 0x4001, "refused write changed nothing");
	machine("gen=wsm-ep");
	wrmsr_ok(3, 0x1a7, 0x2011);
	CHECK_EQ_U64(rdmsr(2, 0x1a7), 0x2011, "Westmere RSP_1, shared by the core's threads");
	CHECK_EQ_U64(rdmsr(2, 0x1a6), 0, "RSP_0 apart");
	CHECK_EQ_INT(wrmsr(0, 0x3c8, 0), PMON_EIO, "no ninth select");
}

int main(void)
{
	global_enable();
	wraps();
	select_modifiers();
	filter_registers();
	rsp_registers();
	sim_teardown();
	return check_done("test_sim_nhm_regs");
}
