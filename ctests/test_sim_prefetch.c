/*
 * test_sim_prefetch.c - the emulated core's four prefetchers
 * (src/sim/sim_pf_path.h), each on alone through the shape's initial MSR
 * 0x1A4, on a sequential pattern (4 pages loaded in order) and a random one
 * (one line in each of 64 pages far apart), counts derived from the
 * documented rules; the MSR switching them per core through the msr
 * interface, shared by a core's threads, reserved bits refused; the
 * offcore request types (PF_DATA_RD for the L2's fetches, DMND_DATA_RD for
 * the DCU's) and the TOR opcode DRd they are counted under.
 */
#include "sim_fixture.h"

#define PF_MSR  0x1A4
#define RSP0    0x1A6
#define EVT_B7  0x4101B7u       /* EN | USR | umask 1 | 0xB7 */
/* One socket, one core, one thread: L1 4 KiB (4 ways), L2 16 KiB (4 ways),
 * LLC 128 KiB: 4 pages (256 lines) fit every level. */
#define SMALL "sockets=1,cores=1,threads=1,channels=2,llc=128K,llcways=8,l1=4K,l1ways=4," \
	      "l2=16K,l2ways=4"

static uint64_t cas_reads(void)
{
	struct pmon_sim_truth t;
	uint64_t rd = 0;

	for (int c = 0; c < pmon_sim_shape(sim)->channels; c++) {
		pmon_sim_channel_truth(sim, 0, c, &t);
		rd += t.cas_rd;
	}
	return rd;
}

/* The sequential pattern: lines 0..255 (4 pages) loaded in order. */
static void seq(const char *pf, struct pmon_sim_cache_truth *t)
{
	char shape[256];

	snprintf(shape, sizeof shape, SMALL ",prefetch=%s", pf);
	machine(shape);
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 256), 0, "256 lines in order");
	pmon_sim_cache_truth(sim, 0, t);
	CHECK_EQ_U64(cas_reads(), 256, "every line read from DRAM once (a reordering)");
}

static void sequential(void)
{
	struct pmon_sim_cache_truth t;
	char what[96];

	/* Adjacent line alone: line 2k misses and fetches 2k+1, which hits. */
	seq("0xd", &t);
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 128, "adjacent: even lines miss the L2");
	CHECK_EQ_U64(t.l2_hit[PMON_SIM_LOAD], 128, "adjacent: odd lines hit it");
	CHECK_EQ_U64(t.pf_adjacent, 128, "adjacent: 128 pairs fetched");
	CHECK_EQ_U64(t.prefetches, 128, "adjacent: all of the L2's fetches");
	CHECK_EQ_U64(t.pf_streamer + t.pf_dcu_next + t.pf_dcu_ip, 0, "adjacent: no other");

	/* Streamer alone: in each page line 0 opens the stream, line 1 (a
	 * miss) sets its direction and fetches 2 and 3; every later request
	 * fetches two more (20 ahead at most) to the page's end: 2 demand
	 * misses and 62 fetches a page. */
	seq("0xe", &t);
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 8, "streamer: lines 0 and 1 of each page miss");
	CHECK_EQ_U64(t.pf_streamer, 248, "streamer: the other 62 lines of each page fetched");
	CHECK_EQ_U64(t.pf_adjacent + t.pf_dcu_next + t.pf_dcu_ip, 0, "streamer: no other");

	/* DCU next line alone: a load of L after L-1 fetches L+1 into the L1
	 * (from DRAM: the L2 lacks it) within the page.  Page 0: 0 and 1
	 * miss, 2..63 fetched; pages 1-3: line 0 misses (the stream goes on
	 * from 63, so it fetches 1), 1..63 fetched. */
	seq("0xb", &t);
	CHECK_EQ_U64(t.l1_miss[PMON_SIM_LOAD], 5, "DCU next line: 2 + 3 L1 misses");
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 5, "DCU next line: and L2 misses");
	CHECK_EQ_U64(t.pf_dcu_next, 251, "DCU next line: 62 + 3 x 63 lines fetched");
	CHECK_EQ_U64(t.pf_dcu_l2, 251, "DCU next line: all from past the L2");
	CHECK_EQ_U64(t.prefetches + t.pf_dcu_ip, 0, "DCU next line: no other");

	/* DCU IP stride alone: the step 1 seen twice (loads 0, 1, 2) fetches
	 * 3, then every load fetches the next in the page.  Page 0: 0, 1, 2
	 * miss; pages 1-3: line 0 misses. */
	seq("0x7", &t);
	CHECK_EQ_U64(t.l1_miss[PMON_SIM_LOAD], 6, "DCU IP: 3 + 3 L1 misses");
	CHECK_EQ_U64(t.pf_dcu_ip, 250, "DCU IP: 61 + 3 x 63 lines fetched");
	CHECK_EQ_U64(t.prefetches + t.pf_dcu_next, 0, "DCU IP: no other");

	/* All four: line 0 misses (its pair 1 fetched); the DCU fetches
	 * every line from 2 on (next line, and the IP stride finds it in the
	 * L1), the streamer runs ahead of those requests.  Whatever the
	 * split, each line enters once. */
	seq("on", &t);
	snprintf(what, sizeof what, "all on: demand + prefetched lines = 256 (%llu demand)",
		 (unsigned long long)t.l2_miss[PMON_SIM_LOAD]);
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD] + t.prefetches + t.pf_dcu_l2, 256, what);
	CHECK(t.l2_miss[PMON_SIM_LOAD] < 8, "all on: fewer demand misses than any alone (%llu)",
	      (unsigned long long)t.l2_miss[PMON_SIM_LOAD]);

	/* Off: every line a demand miss. */
	seq("off", &t);
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 256, "off: every line misses");
	CHECK_EQ_U64(t.prefetches + t.pf_dcu_next + t.pf_dcu_ip, 0, "off: nothing fetched");
}

/* The random pattern: one line (a scrambled offset) in each of 64 pages two
 * pages apart: no page is requested twice (the streamer never learns a
 * direction) and no two loads are within 32 lines (no DCU stream). */
static void rnd(const char *pf, struct pmon_sim_cache_truth *t)
{
	char shape[256];

	snprintf(shape, sizeof shape, SMALL ",prefetch=%s", pf);
	machine(shape);
	for (uint64_t k = 0; k < 64; k++) {
		uint64_t line = k * 128 + (k * 37 + 11) % 64;
		pmon_sim_traffic(sim, 0, line * 64, PMON_SIM_LOAD, 1);
	}
	pmon_sim_cache_truth(sim, 0, t);
}

static void random_lines(void)
{
	struct pmon_sim_cache_truth t;

	rnd("0xd", &t);
	CHECK_EQ_U64(t.pf_adjacent, 64, "random, adjacent: each miss fetches its pair");
	CHECK_EQ_U64(cas_reads(), 128, "random, adjacent: two DRAM reads a line");
	rnd("0xe", &t);
	CHECK_EQ_U64(t.pf_streamer, 0, "random, streamer: no stream");
	CHECK_EQ_U64(cas_reads(), 64, "random, streamer: one DRAM read a line");
	rnd("0xb", &t);
	CHECK_EQ_U64(t.pf_dcu_next, 0, "random, DCU next line: no ascending pair");
	rnd("0x7", &t);
	CHECK_EQ_U64(t.pf_dcu_ip, 0, "random, DCU IP: no repeated step");
	rnd("on", &t);
	CHECK_EQ_U64(t.prefetches, 64, "random, all on: only the pairs");
	CHECK_EQ_U64(t.pf_adjacent, 64, "random, all on: by the adjacent-line prefetcher");
	CHECK_EQ_U64(t.pf_dcu_next + t.pf_dcu_ip, 0, "random, all on: no DCU fetch");
	CHECK_EQ_U64(cas_reads(), 128, "random, all on: two DRAM reads a line");
}

/* MSR 0x1A4 through the msr interface: per core, shared by its threads. */
static void msr(void)
{
	struct pmon_sim_cache_truth t;

	machine("sockets=1,cores=2,threads=2,prefetch=on");
	CHECK_EQ_U64(rdmsr(0, PF_MSR), 0, "prefetch=on: 0, all four on");
	wrmsr_ok(1, PF_MSR, 0xd);
	CHECK_EQ_U64(rdmsr(0, PF_MSR), 0xd, "thread 0 sees what thread 1 wrote (one per core)");
	CHECK_EQ_U64(rdmsr(2, PF_MSR), 0, "the other core keeps its own");
	CHECK(wrmsr(0, PF_MSR, 0x10) != 0, "reserved bit 4: refused (#GP)");
	CHECK_EQ_U64(rdmsr(0, PF_MSR), 0xd, "the refused write changed nothing");
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 64);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.pf_adjacent, 32, "0xd written: the adjacent-line prefetcher alone");
	CHECK_EQ_U64(t.pf_streamer + t.pf_dcu_next + t.pf_dcu_ip, 0, "0xd: the others off");
	wrmsr_ok(0, PF_MSR, 0xf);
	pmon_sim_traffic(sim, 0, 64 * 64, PMON_SIM_LOAD, 64);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.prefetches, 32, "0xf written: no fetch since");
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 32 + 64, "0xf: every line of the page misses");
	machine("sockets=1,prefetch=0x5");
	CHECK_EQ_U64(rdmsr(3, PF_MSR), 0x5, "the shape's prefetch= is the MSR's reset value");
}

/* What the events see: PF_DATA_RD for the L2's fetches, DMND_DATA_RD for
 * the DCU's (the SDM counts them with demand reads), TOR opcode DRd. */
static void events(void)
{
	machine(SMALL ",prefetch=0xd");
	wrmsr_ok(0, RSP0, 0x100400010ull);        /* PF_DATA_RD, local DRAM, no snoop needed */
	wrmsr_ok(0, 0x186, EVT_B7);
	wrmsr_ok(0, 0x38F, 1);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 256);
	CHECK_EQ_U64(rdmsr(0, 0xC1), 128, "adjacent: 128 PF_DATA_RD from local DRAM");

	machine(SMALL ",prefetch=0xb");
	wrmsr_ok(0, RSP0, 0x100400001ull);        /* DMND_DATA_RD, local DRAM */
	wrmsr_ok(0, 0x186, EVT_B7);
	wrmsr_ok(0, 0x38F, 1);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 256);
	CHECK_EQ_U64(rdmsr(0, 0xC1), 256, "DCU next line: 5 demand + 251 DCU reads, all DMND_DATA_RD");
	wrmsr_ok(0, 0x186, 0);
	wrmsr_ok(0, RSP0, 0x100400010ull);
	wrmsr_ok(0, 0xC1, 0);
	wrmsr_ok(0, 0x186, EVT_B7);
	pmon_sim_traffic(sim, 0, 256 * 64, PMON_SIM_LOAD, 64);
	CHECK_EQ_U64(rdmsr(0, 0xC1), 0, "DCU next line: no PF_DATA_RD");
}

int main(void)
{
	sequential();
	random_lines();
	msr();
	events();
	sim_teardown();
	return check_done("test_sim_prefetch");
}
