/*
 * test_sim_clock.c - emulated time: every clock domain, exact tick
 * arithmetic (no drift), counter wrap at 48 and 44 bits with dword reads,
 * threshold/invert/edge on a clock event, core fixed counters and overflow.
 */
#include "sim_fixture.h"

static void dclk_wrap(void)
{
	const uint64_t wrap_ns = 351843720888320ull;   /* 2^48 dclk at 800 MHz */

	machine(NULL);
	wr_ok(0x3f, 16, 0, 0xF0, 0x400000);
	pmon_sim_advance_ns(sim, wrap_ns - 2);            /* 2^48 - 1.6 ticks */
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD0), 0xFFFFFFFE, "low dword before the wrap");
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD4), 0xFFFF, "high dword before the wrap");
	pmon_sim_advance_ns(sim, 2);                      /* exactly 2^48 */
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD0), 0, "low dword at 2^48");
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD4), 0, "high dword at 2^48");
	pmon_sim_advance_ns(sim, 1);
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD0), 0, "2^48 + 0.8");
	pmon_sim_advance_ns(sim, 1);
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD0), 1, "2^48 + 1.6");
	CHECK_EQ_U64(pmon_sim_now_ns(sim), wrap_ns + 2, "now");
	/* other channels were not enabled */
	CHECK_EQ_U64(rd(0x3f, 16, 1, 0xD0), 0, "channel 1 fixed idle");

	/* software preset near the top, then across it */
	wr_ok(0x3f, 16, 1, 0xF0, 0x400000);
	wr_ok(0x3f, 16, 1, 0xD0, 0xFFFFFC18);             /* 2^48 - 1000 */
	wr_ok(0x3f, 16, 1, 0xD4, 0xFFFF);
	pmon_sim_advance_ns(sim, 2000);                   /* 1600 ticks */
	CHECK_EQ_U64(rd(0x3f, 16, 1, 0xD0), 600, "wrapped low dword");
	CHECK_EQ_U64(rd(0x3f, 16, 1, 0xD4), 0, "wrapped high dword");
}

static void no_drift(void)
{
	machine("dclk=933.333M,uclk=2.7G");
	wr_ok(0x3f, 16, 0, 0xF0, 0x400000);
	wrmsr(0, 0xC08, 0x400000);
	for (int i = 0; i < 3000; i++)
		pmon_sim_advance_ns(sim, 7);
	/* 21000 ns: floor(21000 * 0.933333) = 19599, floor(21000 * 2.7) = 56700 */
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD0), 19599, "dclk by 7 ns steps");
	CHECK_EQ_U64(rdmsr(0, 0xC09), 56700, "uclk by 7 ns steps");
	for (int i = 0; i < 1000; i++)
		pmon_sim_advance_ns(sim, 1);
	/* 22000 ns: 20533.326 -> 20533, 59400 */
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xD0), 20533, "dclk by 1 ns steps");
	CHECK_EQ_U64(rdmsr(0, 0xC09), 59400, "uclk by 1 ns steps");

	/* a huge interval in one step */
	machine(NULL);
	wrmsr(0, 0xC08, 0x400000);
	wrmsr(0, 0xD04, 0x10000);
	wrmsr(0, 0xD10, 0x400000);
	pmon_sim_advance_ns(sim, 1000000000000000000ull);
	unsigned __int128 t = (unsigned __int128)1000000000000000000ull * 2700000000ull / 1000000000u;
	CHECK_EQ_U64(rdmsr(0, 0xC09), (uint64_t)(t & ((1ull << 48) - 1)), "1e18 ns, 48-bit fixed");
	CHECK_EQ_U64(rdmsr(0, 0xD16), (uint64_t)(t & ((1ull << 44) - 1)), "1e18 ns, 44-bit CBo");
}

static void domains(void)
{
	machine("uclk=2G,dclk=1G,pclk=500M,qclk=3.2G,tsc=3G");
	wrmsr(0, 0xC08, 0x400000);                        /* UBox fixed: uclk */
	wrmsr(0, 0xD10, 0x400000);                        /* CBo 0: uclk */
	wrmsr(0, 0xC30, 0x400000);                        /* PCU: pclk */
	wr_ok(0x3f, 14, 1, 0xD8, 0x400000);               /* HA: uclk */
	wr_ok(0x3f, 16, 4, 0xF0, 0x400000);               /* iMC 2 fixed: dclk */
	wr_ok(0x3f, 8, 2, 0xD8, 0x400014);                /* QPI 0: qclk */
	wr_ok(0x3f, 19, 1, 0xD8, 0x400001);               /* R2PCIe: uclk */
	wr_ok(0x3f, 19, 5, 0xD8, 0x400001);               /* R3QPI 0: uclk */
	wr_ok(0x3f, 16, 4, 0xD8, 0x400000);               /* iMC event 0: not a clock */
	wrmsr(0, 0x38D, 0x220);                           /* fixed 1, 2: USR */
	wrmsr(0, 0x38F, 0x700000001ull);                  /* fixed 0-2 and PMC 0 */
	wrmsr(0, 0x186, 0x41003C);                        /* PMC 0: core cycles, USR */
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC09), 2000, "UBox uclk");
	CHECK_EQ_U64(rdmsr(0, 0xD16), 2000, "CBo uclk");
	CHECK_EQ_U64(rdmsr(0, 0xC36), 500, "PCU pclk");
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0xA0), 2000, "HA uclk");
	CHECK_EQ_U64(rd(0x3f, 16, 4, 0xD0), 1000, "iMC dclk");
	CHECK_EQ_U64(rd(0x3f, 8, 2, 0xA0), 3200, "QPI qclk");
	CHECK_EQ_U64(rd(0x3f, 19, 1, 0xA0), 2000, "R2PCIe uclk");
	CHECK_EQ_U64(rd(0x3f, 19, 5, 0xA0), 2000, "R3QPI uclk");
	CHECK_EQ_U64(rd(0x3f, 16, 4, 0xA0), 0, "iMC event 0x00 counts nothing");
	CHECK_EQ_U64(rdmsr(0, 0x309), 0, "fixed 0 (instructions) not modeled");
	CHECK_EQ_U64(rdmsr(0, 0x30A), 3000, "unhalted core cycles");
	CHECK_EQ_U64(rdmsr(0, 0x30B), 3000, "reference cycles");
	CHECK_EQ_U64(rdmsr(0, 0xC1), 3000, "PMC 0 core cycles");
	CHECK_EQ_U64(rdmsr(1, 0x30A), 0, "CPU 1 not programmed");

	/* core gating: GLOBAL_CTRL, USR, EN */
	wrmsr(0, 0x187, 0x41003C);                        /* PMC 1: no global bit */
	wrmsr(0, 0x188, 0x42003C);                        /* PMC 2: OS only */
	wrmsr(0, 0x38F, 0x70000000Full);
	wrmsr(0, 0x189, 0x01003C);                        /* PMC 3: no EN */
	wrmsr(2, 0x38D, 0x010);                           /* CPU 2 fixed 1: OS only */
	wrmsr(2, 0x38F, 0x200000000ull);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC2), 3000, "PMC 1 once globally enabled");
	CHECK_EQ_U64(rdmsr(0, 0xC3), 0, "PMC 2 OS only: user code never counted");
	CHECK_EQ_U64(rdmsr(0, 0xC4), 0, "PMC 3 not enabled");
	CHECK_EQ_U64(rdmsr(2, 0x30A), 0, "fixed OS only");
}

static void core_overflow(void)
{
	machine(NULL);
	wrmsr(4, 0x38D, 0x020);
	wrmsr(4, 0x38F, 0x200000000ull);
	CHECK_EQ_INT(wrmsr(4, 0x30A, 0xFFFFFFFFF000ull), 0, "fixed 1 preset");
	pmon_sim_advance_ns(sim, 1000);                   /* 2700 cycles */
	CHECK_EQ_U64(rdmsr(4, 0x30A), 2700 - 4096 + (1ull << 48), "no wrap yet");
	CHECK_EQ_U64(rdmsr(4, 0x38E), 0, "no overflow yet");
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(4, 0x30A), 5400 - 4096, "wrapped");
	CHECK_EQ_U64(rdmsr(4, 0x38E), 1ull << 33, "GLOBAL_STATUS fixed 1 overflow");
	CHECK_EQ_INT(wrmsr(4, 0x38E, 0), PMON_EIO, "GLOBAL_STATUS read-only");
	CHECK_EQ_INT(wrmsr(4, 0x390, 1ull << 33), 0, "OVF_CTRL clears");
	CHECK_EQ_U64(rdmsr(4, 0x38E), 0, "status cleared");
	CHECK_EQ_U64(rdmsr(4, 0x390), 0, "OVF_CTRL reads 0");
	/* legacy PMC writes: bits 31:0, sign-extended to 48 bits */
	wrmsr(4, 0xC1, 0xFFFFFFF0);
	CHECK_EQ_U64(rdmsr(4, 0xC1), 0xFFFFFFFFFFF0ull, "PMC write sign-extended");
	wrmsr(4, 0xC1, 0x123456789ull);
	CHECK_EQ_U64(rdmsr(4, 0xC1), 0x23456789, "PMC write keeps bits 31:0");
	wrmsr(4, 0x186, 0x41003C);
	wrmsr(4, 0x38F, 1);
	wrmsr(4, 0xC1, 0xFFFFFFFF);                       /* -1 */
	pmon_sim_advance_ns(sim, 1);                      /* 2.7 -> 2 cycles */
	CHECK_EQ_U64(rdmsr(4, 0xC1), 1, "PMC wrapped");
	CHECK_EQ_U64(rdmsr(4, 0x38E), 1, "PMC 0 overflow bit");
	/* reserved bits raise #GP */
	CHECK_EQ_INT(wrmsr(4, 0x38F, 1ull << 35), PMON_EIO, "GLOBAL_CTRL bit 35");
	CHECK_EQ_INT(wrmsr(4, 0x38D, 0x1000), PMON_EIO, "FIXED_CTR_CTRL bit 12");
	CHECK_EQ_INT(wrmsr(4, 0x186, 1ull << 32), PMON_EIO, "PERFEVTSEL bit 32");
	CHECK_EQ_INT(wrmsr(4, 0x309, 1ull << 48), PMON_EIO, "FIXED_CTR bit 48");
	CHECK_EQ_U64(rdmsr(4, 0x186), 0x41003C, "refused write left the register");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 4, "four violations");
}

/* thresh/invert/edge on CBo CLOCKTICKS (an increment of 1 each cycle) */
static void threshold(void)
{
	static const struct {
		uint32_t ctl;
		uint64_t after1, after2;   /* after 1 us and 2 us */
		const char *what;
	} t[] = {
		{ 0x00400000, 2700, 5400, "raw" },
		{ 0x01400000, 2700, 5400, "thresh 1: 1 >= 1 every cycle" },
		{ 0x02400000, 0, 0, "thresh 2: never" },
		{ 0x02C00000, 2700, 5400, "thresh 2 inverted: 1 < 2 every cycle" },
		{ 0x01C00000, 0, 0, "thresh 1 inverted: never" },
		{ 0x01440000, 1, 1, "thresh 1 edge: one rising edge" },
		{ 0x02C40000, 1, 1, "thresh 2 inverted edge: one rising edge" },
		{ 0x02440000, 0, 0, "thresh 2 edge: output never rises" },
		{ 0x00C40000, 2700, 5400, "thresh 0: invert and edge ignored" },
	};

	machine(NULL);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int cbo = (int)(i % 8), ctr = (int)(i / 8);
		wrmsr(0, 0xD10 + 0x20u * (uint32_t)cbo + (uint32_t)ctr, t[i].ctl);
	}
	pmon_sim_advance_ns(sim, 1000);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int cbo = (int)(i % 8), ctr = (int)(i / 8);
		CHECK_EQ_U64(rdmsr(0, 0xD16 + 0x20u * (uint32_t)cbo + (uint32_t)ctr), t[i].after1,
			     t[i].what);
	}
	pmon_sim_advance_ns(sim, 1000);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int cbo = (int)(i % 8), ctr = (int)(i / 8);
		CHECK_EQ_U64(rdmsr(0, 0xD16 + 0x20u * (uint32_t)cbo + (uint32_t)ctr), t[i].after2,
			     t[i].what);
	}
	/* reprogramming restarts the edge detector; freezing does not */
	wrmsr(0, 0xDA4, 0x10100);
	pmon_sim_advance_ns(sim, 1000);
	wrmsr(0, 0xDA4, 0x10000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xDB6), 1, "edge across a freeze: no new edge");
	wrmsr(0, 0xDB0, 0x01440000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xDB6), 2, "edge after reprogramming");
	/* 5-bit threshold in the PCU: thresh 0x1F inverted counts every cycle */
	wrmsr(0, 0xC30, 0x1FC00000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC36), 800, "PCU thresh 31 inverted");
	/* core cmask on cycles */
	wrmsr(0, 0x38F, 3);
	wrmsr(0, 0x186, 0x0241003C);                      /* cmask 2: never */
	wrmsr(0, 0x187, 0x02C1003C);                      /* cmask 2 inverted */
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC1), 0, "cmask 2");
	CHECK_EQ_U64(rdmsr(0, 0xC2), 2700, "cmask 2 inverted");
}

static void wrap44(void)
{
	machine(NULL);
	wrmsr(17, 0xD30, 0x400000);                       /* socket 1 CBo 1 */
	wrmsr(17, 0xD36, (1ull << 44) - 100);
	pmon_sim_advance_ns(sim, 100);                    /* 270 uclk */
	CHECK_EQ_U64(rdmsr(17, 0xD36), 170, "CBo 44-bit wrap");
	wr_ok(0x7f, 19, 1, 0xD8, 0x400001);
	wr_ok(0x7f, 19, 1, 0xA0, 0xFFFFFFFF);
	wr_ok(0x7f, 19, 1, 0xA4, 0xFFF);                  /* 2^44 - 1 */
	pmon_sim_advance_ns(sim, 1);                      /* 2.7 -> 2 or 3 ticks */
	uint64_t v = rd(0x7f, 19, 1, 0xA0) | ((uint64_t)rd(0x7f, 19, 1, 0xA4) << 32);
	/* now = 101 ns: floor(101*2.7) - floor(100*2.7) = 272 - 270 = 2 */
	CHECK_EQ_U64(v, 1, "R2PCIe 44-bit wrap");
}

/* The PCU's power model: clocks at fixed frequencies, every core in C0. */
static void power(void)
{
	machine("cores=6,uclk=2.4G,pclk=800M");
	wrmsr(0, 0xC34, 24u | 25u << 8 | 12u << 16 | 0u << 24);  /* bands 2.4, 2.5, 1.2, 0 GHz */
	wrmsr(0, 0xC30, 0x40000B);                        /* FREQ_BAND0 */
	wrmsr(0, 0xC31, 0x40000C);                        /* FREQ_BAND1 */
	wrmsr(0, 0xC32, 0x40000D);                        /* FREQ_BAND2 */
	wrmsr(0, 0xC33, 0x40000E);                        /* FREQ_BAND3 */
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC36), 800, "band 2.4 GHz: uclk 2.4 GHz is in it every cycle");
	CHECK_EQ_U64(rdmsr(0, 0xC37), 0, "band 2.5 GHz: above the uncore clock");
	CHECK_EQ_U64(rdmsr(0, 0xC38), 800, "band 1.2 GHz");
	CHECK_EQ_U64(rdmsr(0, 0xC39), 800, "band 0");
	/* the filter moves: band 1 down to 2.4 GHz counts from then on */
	wrmsr(0, 0xC34, 24u | 24u << 8 | 12u << 16 | 255u << 24);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC37), 800, "band 1 lowered: counts after the write only");
	CHECK_EQ_U64(rdmsr(0, 0xC39), 800, "band 3 raised to 25.5 GHz: no more cycles");
	/* C-state occupancy: the cores in the state each cycle */
	wrmsr(0, 0xC30, 0x404080);                        /* CORES_C0 */
	wrmsr(0, 0xC31, 0x408080);                        /* CORES_C3 */
	wrmsr(0, 0xC32, 0x40C080);                        /* CORES_C6 */
	wrmsr(0, 0xC33, 0x40000C);                        /* FREQ_BAND1, still counting */
	wrmsr(0, 0xC24, 0x2);                             /* reset the counters */
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC36), 6 * 800, "C0 occupancy: 6 cores every cycle");
	CHECK_EQ_U64(rdmsr(0, 0xC37), 0, "no core in C3");
	CHECK_EQ_U64(rdmsr(0, 0xC38), 0, "no core in C6");
	CHECK_EQ_U64(rdmsr(0, 0xC39), 800, "band 1 at 2.4 GHz");
	/* histogram use: thresh 6 counts cycles with at least 6 cores in C0 */
	wrmsr(0, 0xC30, 0x06404080);
	wrmsr(0, 0xC31, 0x07404080);                      /* at least 7: never */
	wrmsr(0, 0xC24, 0x2);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC36), 800, "C0 occupancy >= 6: every cycle");
	CHECK_EQ_U64(rdmsr(0, 0xC37), 0, "C0 occupancy >= 7: none");
}

int main(void)
{
	power();
	dclk_wrap();
	no_drift();
	domains();
	core_overflow();
	threshold();
	wrap44();
	sim_teardown();
	return check_done("test_sim_clock");
}
