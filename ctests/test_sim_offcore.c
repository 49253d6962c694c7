/*
 * test_sim_offcore.c - offcore-response counting on the core PMU: request,
 * supplier and snoop matching with Intel's SNB-EP values, the RSP MSRs
 * per logical CPU (not shared by a core's hyperthreads on SNB), AnyThread
 * matched against the counting CPU's own RSP, gating, reserved bits, the
 * snoop bits of a read from DRAM with one socket and with two, and the
 * per-CPU ground truth.
 */
/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define RSP0 0x1A6
#define RSP1 0x1A7
#define EVT_B7 0x4101B7u       /* EN | USR | umask 1 | 0xB7 */
#define EVT_BB 0x4101BBu
#define ANYTHREAD (1u << 21)

/* Intel's published SNB-EP values */
#define DRD_LOCAL_DRAM   0x600400001ull
#define DRD_REMOTE_DRAM  0x67f800001ull
#define DRD_ANY_DRAM     0x67fc00001ull
#define DRD_ANY_RESPONSE 0x000010001ull
#define RFO_ANY_RESPONSE 0x000010002ull
#define DRD_LLC_HIT_ANY  0x3f803c0001ull
#define DRD_REMOTE_HITM  0x107fc00001ull
#define STRM_ST_ANY      0x000010800ull

#define MIB(n)  ((uint64_t)(n) << 20)
#define LOCAL0  0ull                   /* socket 0 memory */
#define REMOTE0 (32ull << 30)          /* socket 1 memory */

static void per_thread_rsp(void)
{
	machine(NULL);
	/* CPUs 0 and 1 are the two threads of socket 0 core 0; on SNB-EP each
	 * has its own RSP_0/1 */
	CHECK_EQ_INT(wrmsr(0, RSP0, DRD_LOCAL_DRAM), 0, "RSP_0 written by CPU 0");
	CHECK_EQ_U64(rdmsr(0, RSP0), DRD_LOCAL_DRAM, "CPU 0 reads it back");
	CHECK_EQ_U64(rdmsr(1, RSP0), 0, "CPU 1, its sibling, does not see it");
	CHECK_EQ_U64(rdmsr(2, RSP0), 0, "core 1 has its own");
	CHECK_EQ_U64(rdmsr(16, RSP0), 0, "socket 1 core 0 has its own");
	CHECK_EQ_U64(rdmsr(0, RSP1), 0, "RSP_1 separate");
	CHECK_EQ_INT(wrmsr(1, RSP0, DRD_REMOTE_DRAM), 0, "CPU 1 writes its own RSP_0");
	CHECK_EQ_U64(rdmsr(0, RSP0), DRD_LOCAL_DRAM, "CPU 0 keeps its value");
	CHECK_EQ_U64(rdmsr(1, RSP0), DRD_REMOTE_DRAM, "CPU 1 reads its own");
	wrmsr(1, RSP1, DRD_ANY_DRAM);
	CHECK_EQ_U64(rdmsr(0, RSP1), 0, "RSP_1 per thread too");
	CHECK_EQ_U64(rdmsr(1, RSP1), DRD_ANY_DRAM, "CPU 1's RSP_1");
	/* reserved bits: #GP, register unchanged */
	CHECK_EQ_INT(wrmsr(0, RSP0, DRD_LOCAL_DRAM | (1ull << 14)), PMON_EIO, "bit 14 reserved");
	CHECK_EQ_INT(wrmsr(1, RSP0, 1ull << 38), PMON_EIO, "bit 38 reserved");
	CHECK_EQ_U64(rdmsr(1, RSP0), DRD_REMOTE_DRAM, "refused write leaves it");
	CHECK_EQ_INT(wrmsr(0, RSP0, 0x3fffff8fffull), 0, "the full valid mask");
	CHECK_EQ_U64(rdmsr(0, RSP0), 0x3fffff8fffull, "valid mask stored");
	CHECK_EQ_U64(rdmsr(1, RSP0), DRD_REMOTE_DRAM, "not in the sibling");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 2, "two violations");

	/* counting: PMC 0 of each thread counts RSP_0, CPU 0 local DRAM reads,
	 * CPU 1 remote ones */
	wrmsr(0, RSP0, DRD_LOCAL_DRAM);
	wrmsr(0, 0x186, EVT_B7);
	wrmsr(0, 0x38F, 0xF);
	wrmsr(1, 0x186, EVT_B7);
	wrmsr(1, 0x38F, 0xF);
	/* every call below loads lines no cache holds (a new MiB each time):
	 * each load is an offcore request */
	pmon_sim_traffic(sim, 0, LOCAL0, PMON_SIM_LOAD, 100);
	pmon_sim_traffic(sim, 0, REMOTE0, PMON_SIM_LOAD, 30);
	pmon_sim_traffic(sim, 1, LOCAL0 + MIB(1), PMON_SIM_LOAD, 7);
	pmon_sim_traffic(sim, 1, REMOTE0 + MIB(1), PMON_SIM_LOAD, 9);
	CHECK_EQ_U64(rdmsr(0, 0xC1), 100, "CPU 0 counts its local loads with its own RSP_0");
	CHECK_EQ_U64(rdmsr(1, 0xC1), 9, "CPU 1 counts its remote loads with its own RSP_0");
	/* the sibling reprogramming its RSP_0 does not disturb CPU 0 */
	wrmsr(1, RSP0, 0);
	pmon_sim_traffic(sim, 0, LOCAL0 + MIB(2), PMON_SIM_LOAD, 5);
	pmon_sim_traffic(sim, 1, REMOTE0 + MIB(2), PMON_SIM_LOAD, 4);
	CHECK_EQ_U64(rdmsr(0, 0xC1), 105, "CPU 0 unaffected by CPU 1's RSP_0 write");
	CHECK_EQ_U64(rdmsr(1, 0xC1), 9, "CPU 1 with RSP_0 = 0 counts nothing");
	wrmsr(1, RSP0, DRD_REMOTE_DRAM);
	/* AnyThread counts the sibling's accesses too, matched against the
	 * counting CPU's own RSP: CPU 0 PMC 2 (RSP_0 local DRAM), CPU 1 PMC 1
	 * (RSP_1 any DRAM, while CPU 0's RSP_1 is 0) */
	wrmsr(0, 0x188, EVT_B7 | ANYTHREAD);
	wrmsr(1, 0x187, EVT_BB | ANYTHREAD);
	pmon_sim_traffic(sim, 1, LOCAL0 + MIB(3), PMON_SIM_LOAD, 5);
	pmon_sim_traffic(sim, 1, REMOTE0 + MIB(3), PMON_SIM_LOAD, 6);
	pmon_sim_traffic(sim, 0, LOCAL0 + MIB(4), PMON_SIM_LOAD, 3);
	pmon_sim_traffic(sim, 0, REMOTE0 + MIB(4), PMON_SIM_LOAD, 2);
	CHECK_EQ_U64(rdmsr(0, 0xC3), 8, "AnyThread: both threads' local loads, CPU 0's RSP_0");
	CHECK_EQ_U64(rdmsr(1, 0xC2), 16, "AnyThread: CPU 0's loads through CPU 1's RSP_1");
	CHECK_EQ_U64(rdmsr(0, 0xC1), 108, "PMC 0: own thread only");
	CHECK_EQ_U64(rdmsr(1, 0xC1), 15, "CPU 1 own");
	/* another core never sees them */
	wrmsr(2, 0x186, EVT_B7 | ANYTHREAD);
	wrmsr(2, 0x38F, 1);
	wrmsr(2, RSP0, DRD_LOCAL_DRAM);
	pmon_sim_traffic(sim, 0, LOCAL0 + MIB(5), PMON_SIM_LOAD, 3);
	CHECK_EQ_U64(rdmsr(2, 0xC1), 0, "core 1 saw nothing of core 0");
}

static void matching(void)
{
	static const struct {
		uint64_t rsp;
		uint64_t want;     /* of: 10 local loads, 20 remote loads, 40 local
				      stores, 80 remote stores, 160 NT local, 320 NT remote */
		const char *what;
	} t[] = {
		{ DRD_LOCAL_DRAM, 10, "DEMAND_DATA_RD.LLC_MISS.LOCAL_DRAM" },
		{ DRD_REMOTE_DRAM, 20, "DEMAND_DATA_RD.LLC_MISS.REMOTE_DRAM" },
		{ DRD_ANY_DRAM, 30, "DEMAND_DATA_RD.LLC_MISS.ANY_DRAM" },
		{ DRD_ANY_RESPONSE, 30, "DEMAND_DATA_RD.ANY_RESPONSE" },
		{ RFO_ANY_RESPONSE, 120, "DEMAND_RFO.ANY_RESPONSE" },
		{ 0x600400002ull, 40, "DEMAND_RFO.LLC_MISS.LOCAL_DRAM" },
		{ 0x67f800003ull, 100, "DRD|RFO remote DRAM" },
		{ DRD_LLC_HIT_ANY, 0, "LLC hits: none (every line is new)" },
		{ DRD_REMOTE_HITM, 0, "snoop HITM: none (no other cache holds a line)" },
		{ 0x000400001ull, 0, "supplier without snoop bits: nothing" },
		{ 0x200000001ull, 0, "snoop without supplier bits: nothing" },
		{ 0x200400001ull, 10, "LOCAL_DRAM + SNOOP_MISS" },
		{ 0x200800001ull, 20, "one remote bit (23) + SNOOP_MISS" },
		{ 0x240000001ull, 20, "remote bit 30 + SNOOP_MISS" },
		{ STRM_ST_ANY, 480, "STREAMING_STORES.ANY_RESPONSE" },
		{ 0x080020800ull, 480, "STREAMING_STORES supplier none, snoop none" },
		{ 0x600400800ull, 0, "STREAMING_STORES from local DRAM: no" },
		{ 0x3fffff8fffull, 630, "everything" },
		{ 0x3fffff0000ull, 0, "no request bit" },
		{ 0x000018004ull, 0, "code reads and OTHER: never produced" },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int cpu = (i & 1) ? 19 : 4;        /* socket 1 core 1 thread 1, socket 0 core 2 */
		int sock = cpu >= 16;
		machine(NULL);
		uint64_t local = sock ? REMOTE0 : LOCAL0, remote = sock ? LOCAL0 : REMOTE0;
		wrmsr(cpu, RSP1, t[i].rsp);
		wrmsr(cpu, 0x187, EVT_BB);
		wrmsr(cpu, 0x38F, 2);
		/* distinct lines: every load and store misses every cache */
		pmon_sim_traffic(sim, cpu, local, PMON_SIM_LOAD, 10);
		pmon_sim_traffic(sim, cpu, remote, PMON_SIM_LOAD, 20);
		pmon_sim_traffic(sim, cpu, local + MIB(1), PMON_SIM_STORE, 40);
		pmon_sim_traffic(sim, cpu, remote + MIB(1), PMON_SIM_STORE, 80);
		pmon_sim_traffic(sim, cpu, local + MIB(2), PMON_SIM_NT_STORE, 160);
		pmon_sim_traffic(sim, cpu, remote + MIB(2), PMON_SIM_NT_STORE, 320);
		CHECK_EQ_U64(rdmsr(cpu, 0xC2), t[i].want, t[i].what);
		struct pmon_sim_cpu_truth tr;
		pmon_sim_cpu_truth(sim, cpu, &tr);
		CHECK(tr.load_local == 10 && tr.load_remote == 20 && tr.store_local == 40 &&
		      tr.store_remote == 80 && tr.nt_local == 160 && tr.nt_remote == 320,
		      "cpu truth %d", cpu);
	}
}

static void gating(void)
{
	machine("sockets=1,cores=2");
	wrmsr(0, RSP0, DRD_ANY_RESPONSE);
	wrmsr(0, 0x186, 0x0001B7 | (1u << 16));   /* USR, no EN */
	wrmsr(0, 0x187, 0x4201B7);                /* EN, OS only */
	wrmsr(0, 0x188, EVT_B7);                  /* not in GLOBAL_CTRL */
	wrmsr(0, 0x189, 0x024101B7);              /* cmask 2: never */
	wrmsr(0, 0x38F, 0xB);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 50);
	CHECK_EQ_U64(rdmsr(0, 0xC1), 0, "EN clear");
	CHECK_EQ_U64(rdmsr(0, 0xC2), 0, "OS only");
	CHECK_EQ_U64(rdmsr(0, 0xC3), 0, "globally disabled");
	CHECK_EQ_U64(rdmsr(0, 0xC4), 0, "cmask 2");
	wrmsr(0, 0x38F, 0xF);
	wrmsr(0, 0x189, 0x014101B7);              /* cmask 1 */
	wrmsr(0, 0x186, 0x4101B6);                /* event 0xB6: not offcore */
	wrmsr(0, 0x187, 0x4102B7);                /* umask 2: not offcore */
	pmon_sim_traffic(sim, 0, MIB(1), PMON_SIM_LOAD, 50);     /* new lines */
	CHECK_EQ_U64(rdmsr(0, 0xC3), 50, "globally enabled");
	CHECK_EQ_U64(rdmsr(0, 0xC4), 50, "cmask 1");
	CHECK_EQ_U64(rdmsr(0, 0xC1), 0, "0xB6");
	CHECK_EQ_U64(rdmsr(0, 0xC2), 0, "umask 2");
	/* one socket: everything is local */
	struct pmon_sim_cpu_truth tr;
	pmon_sim_cpu_truth(sim, 0, &tr);
	CHECK(tr.load_local == 100 && tr.load_remote == 0, "all local");
	pmon_sim_cpu_truth(sim, 9, &tr);
	CHECK(tr.load_local == 0, "no CPU 9: zero truth");
	/* 1 thread per core: RSP per CPU, as with 2 */
	machine("sockets=1,cores=2,threads=1");
	wrmsr(0, RSP0, DRD_LOCAL_DRAM);
	CHECK_EQ_U64(rdmsr(1, RSP0), 0, "CPU 1 is another core");
}

/* The snoop bits of a read that misses the LLC and that the home serves
 * from DRAM: with one socket there is no other to snoop (SNOOP_NOT_NEEDED,
 * bit 32); with two the home snoops the other, whose LLC holds nothing
 * here (SNOOP_MISS, bit 33).  The same for demand reads, RFOs and the L2
 * streamer's prefetches, and for a batch of accesses and single ones
 * alike (a batch adds them when it ends). */
static void snoop_bits(void)
{
	char what[120];

	static const struct {
		uint64_t rsp;
		int sock1, sock2;       /* of 200 loads and 100 stores, new lines */
		const char *what;
	} t[] = {
		{ 0x100400001ull, 200, 0, "DEMAND_DATA_RD.LOCAL_DRAM.SNOOP_NOT_NEEDED" },
		{ 0x200400001ull, 0, 200, "DEMAND_DATA_RD.LOCAL_DRAM.SNOOP_MISS" },
		{ 0x100400002ull, 100, 0, "DEMAND_RFO.LOCAL_DRAM.SNOOP_NOT_NEEDED" },
		{ 0x200400002ull, 0, 100, "DEMAND_RFO.LOCAL_DRAM.SNOOP_MISS" },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		for (int sockets = 1; sockets <= 2; sockets++) {
			machine(sockets == 1 ? "sockets=1" : "sockets=2");
			wrmsr(0, RSP0, t[i].rsp);
			wrmsr(0, 0x186, EVT_B7);
			wrmsr(0, 0x38F, 1);
			pmon_sim_traffic(sim, 0, LOCAL0, PMON_SIM_LOAD, 150);      /* one call */
			for (int k = 0; k < 50; k++)                               /* one each */
				pmon_sim_traffic(sim, 0, LOCAL0 + MIB(1) + 64 * (uint64_t)k,
						 PMON_SIM_LOAD, 1);
			pmon_sim_traffic(sim, 0, LOCAL0 + MIB(2), PMON_SIM_STORE, 100);
			snprintf(what, sizeof what, "%s, %d socket(s)", t[i].what, sockets);
			CHECK_EQ_U64(rdmsr(0, 0xC1),
				     (uint64_t)(sockets == 1 ? t[i].sock1 : t[i].sock2), what);
		}
	/* the L2 adjacent-line prefetcher alone (prefetch=0xd): a miss fetches
	 * the other line of its 128-byte pair into the L2, so of a page's 64
	 * lines loaded in order the even ones miss and the odd ones are
	 * prefetched (then hit): 2 pages, 64 each */
	for (int sockets = 1; sockets <= 2; sockets++) {
		machine(sockets == 1 ? "sockets=1,prefetch=0xd" : "sockets=2,prefetch=0xd");
		wrmsr(0, RSP0, sockets == 1 ? 0x100400010ull : 0x200400010ull);
		wrmsr(0, RSP1, sockets == 1 ? 0x100400001ull : 0x200400001ull);
		wrmsr(0, 0x186, EVT_B7);
		wrmsr(0, 0x187, EVT_BB);
		wrmsr(0, 0x38F, 3);
		pmon_sim_traffic(sim, 0, LOCAL0, PMON_SIM_LOAD, 128);
		snprintf(what, sizeof what, "PF_DATA_RD.LOCAL_DRAM with the %s bit, %d socket(s)",
			 sockets == 1 ? "SNOOP_NOT_NEEDED" : "SNOOP_MISS", sockets);
		CHECK_EQ_U64(rdmsr(0, 0xC1), 64, what);
		snprintf(what, sizeof what, "DEMAND_DATA_RD.LOCAL_DRAM likewise, %d socket(s)",
			 sockets);
		CHECK_EQ_U64(rdmsr(0, 0xC2), 64, what);
	}
}

int main(void)
{
	per_thread_rsp();
	matching();
	gating();
	snoop_bits();
	sim_teardown();
	return check_done("test_sim_offcore");
}
