/*
 * test_sim_dram.c - memory traffic into the iMC: address mapping, exact CAS
 * counts per channel, ACT/PRE under the open-page policy, RPQ/WPQ inserts,
 * umask sums, ground truth independent of programming, remote homes,
 * freezing, thresholds on memory events, argument errors.
 */
/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

static void ctl(int bus, int ch, int n, uint32_t v)
{
	CHECK_EQ_INT(pci_wr(imc(bus, ch), 0xD8 + 4u * (uint32_t)n, v), 0, "iMC CTL write");
}

static uint64_t ctr(int bus, int ch, int n)
{
	return pci_rd64(imc(bus, ch), 0xA0 + 8u * (uint32_t)n);
}

static void zero(int bus, int ch)
{
	for (uint32_t off = 0xA0; off < 0xC0; off += 4)
		pci_wr(imc(bus, ch), off, 0);
}

#define CAS_RD   0x400304u
#define CAS_WR   0x400C04u
#define ACT      0x400001u
#define PRE_MISS 0x400102u

static void mapping(void)
{
	struct pmon_sim_dram_loc l;

	machine(NULL);
	CHECK_EQ_INT(pmon_sim_dram_locate(sim, 0, &l), 0, "locate 0");
	CHECK(l.socket == 0 && l.channel == 0 && l.rank == 0 && l.bank == 0 && l.row == 0 &&
	      l.column == 0, "address 0");
	CHECK_EQ_INT(pmon_sim_dram_locate(sim, 64 * 7, &l), 0, "locate line 7");
	CHECK(l.channel == 3 && l.column == 1, "line 7: channel 3 column 1");
	/* line 4*128 = first line of bank 1 in channel 0 */
	pmon_sim_dram_locate(sim, 64ull * 4 * 128, &l);
	CHECK(l.channel == 0 && l.bank == 1 && l.rank == 0 && l.row == 0 && l.column == 0,
	      "bank 1");
	pmon_sim_dram_locate(sim, 64ull * 4 * 1024, &l);
	CHECK(l.bank == 0 && l.rank == 1 && l.row == 0, "rank 1");
	pmon_sim_dram_locate(sim, 64ull * 4 * 2048 * 5 + 64 * 2, &l);
	CHECK(l.channel == 2 && l.bank == 0 && l.rank == 0 && l.row == 5 && l.column == 0,
	      "row 5");
	pmon_sim_dram_locate(sim, (32ull << 30) + 64, &l);
	CHECK(l.socket == 1 && l.channel == 1 && l.row == 0, "socket 1 starts at mem_bytes");
	CHECK_EQ_INT(pmon_sim_dram_locate(sim, 64ull << 30, &l), -1, "beyond the memory");
	machine("sockets=1,channels=3");
	pmon_sim_dram_locate(sim, 64 * 5, &l);
	CHECK(l.channel == 2 && l.column == 1, "3 channels: line 5 -> channel 2, column 1");
}

static void stream(void)
{
	struct pmon_sim_truth t;
	const uint64_t lines = 16384;         /* 1 MiB: per channel 4096 lines, 32 rows */

	machine(NULL);
	for (int ch = 0; ch < 4; ch++) {
		ctl(0x3f, ch, 0, CAS_RD);
		ctl(0x3f, ch, 1, CAS_WR);
		ctl(0x3f, ch, 2, ACT);
		ctl(0x3f, ch, 3, PRE_MISS);
	}
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, lines), 0, "load stream");
	for (int ch = 0; ch < 4; ch++) {
		CHECK_EQ_U64(ctr(0x3f, ch, 0), 4096, "CAS RD per channel");
		CHECK_EQ_U64(ctr(0x3f, ch, 1), 0, "no CAS WR");
		/* 16 banks opened on row 0 (ACT only), then each reopened on row 1 */
		CHECK_EQ_U64(ctr(0x3f, ch, 2), 32, "ACT: one per row chunk");
		CHECK_EQ_U64(ctr(0x3f, ch, 3), 16, "PRE: the second row of each bank");
		pmon_sim_channel_truth(sim, 0, ch, &t);
		CHECK(t.cas_rd == 4096 && t.cas_wr == 0 && t.act == 32 && t.pre_miss == 16 &&
		      t.pre_close == 0, "truth ch %d", ch);
	}
	/* streaming stores over the same range (they write without reading and
	 * drop the cached copies): every chunk finds the other row open */
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_NT_STORE, lines), 0, "store stream");
	for (int ch = 0; ch < 4; ch++) {
		CHECK_EQ_U64(ctr(0x3f, ch, 0), 4096, "CAS RD unchanged");
		CHECK_EQ_U64(ctr(0x3f, ch, 1), 4096, "CAS WR per channel");
		CHECK_EQ_U64(ctr(0x3f, ch, 2), 64, "ACT after stores");
		CHECK_EQ_U64(ctr(0x3f, ch, 3), 48, "PRE after stores");
	}
	/* row hit: CAS only */
	uint64_t last = (lines - 1) * 64;     /* channel 3, row 1 open */
	pmon_sim_traffic(sim, 0, last, PMON_SIM_LOAD, 1);
	CHECK_EQ_U64(ctr(0x3f, 3, 0), 4097, "row hit: CAS");
	CHECK_EQ_U64(ctr(0x3f, 3, 2), 64, "row hit: no ACT");
	CHECK_EQ_U64(ctr(0x3f, 3, 3), 48, "row hit: no PRE");
	/* another row of the same bank: PRE + ACT + CAS */
	struct pmon_sim_dram_loc a, b;
	uint64_t far = last + 64ull * 4 * 2048 * 3;
	pmon_sim_dram_locate(sim, last, &a);
	pmon_sim_dram_locate(sim, far, &b);
	CHECK(a.channel == b.channel && a.rank == b.rank && a.bank == b.bank && b.row == a.row + 3,
	      "same bank, 3 rows further");
	pmon_sim_traffic(sim, 0, far, PMON_SIM_LOAD, 1);
	CHECK_EQ_U64(ctr(0x3f, 3, 0), 4098, "jump: CAS");
	CHECK_EQ_U64(ctr(0x3f, 3, 2), 65, "jump: ACT");
	CHECK_EQ_U64(ctr(0x3f, 3, 3), 49, "jump: PRE (page miss)");
	/* a closed bank (rank 1 of another row range is open, but take a fresh
	 * socket): ACT without PRE */
	CHECK_EQ_U64(ctr(0x7f, 0, 2), 0, "socket 1 idle");
	pmon_sim_channel_truth(sim, 1, 0, &t);
	CHECK(t.act == 0 && t.cas_rd == 0, "socket 1 truth idle");
	/* unaligned address: the line containing it (dropped from the caches
	 * first, else the load would hit there) */
	CHECK_EQ_INT(pmon_sim_flush_caches(sim), 0, "flush");
	pmon_sim_traffic(sim, 0, last + 63, PMON_SIM_LOAD, 1);
	CHECK_EQ_U64(ctr(0x3f, 3, 3), 50, "last+63 is the old row again: PRE");
}

static void queues_and_umasks(void)
{
	machine("sockets=1");
	ctl(0x3f, 0, 0, 0x400010);            /* RPQ_INSERTS */
	ctl(0x3f, 0, 1, 0x400020);            /* WPQ_INSERTS */
	ctl(0x3f, 0, 2, 0x400F04);            /* CAS_COUNT.ALL */
	ctl(0x3f, 0, 3, 0x400204);            /* CAS_COUNT.RD_UNDERFILL */
	ctl(0x3f, 1, 0, 0x400504);            /* RD_REG | WR_WMM */
	ctl(0x3f, 1, 1, 0x400804);            /* WR_RMM */
	ctl(0x3f, 1, 2, 0x400302);            /* PRE_COUNT PAGE_MISS | PAGE_CLOSE */
	ctl(0x3f, 1, 3, 0x400202);            /* PRE_COUNT.PAGE_CLOSE */
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 400);
	pmon_sim_traffic(sim, 1, 64ull * 4 * 2048, PMON_SIM_STORE, 200);    /* row 1 */
	pmon_sim_traffic(sim, 2, 1 << 20, PMON_SIM_NT_STORE, 80);
	/* the stored lines are Modified in the caches until the flush writes
	 * them back (a store miss read each line first) */
	pmon_sim_flush_caches(sim);
	CHECK_EQ_U64(ctr(0x3f, 0, 0), 100 + 50, "RPQ inserts = loads + stores' RFO reads");
	CHECK_EQ_U64(ctr(0x3f, 0, 1), 50 + 20, "WPQ inserts = stores + NT stores");
	CHECK_EQ_U64(ctr(0x3f, 0, 2), 220, "CAS ALL");
	CHECK_EQ_U64(ctr(0x3f, 0, 3), 0, "no underfill reads");
	CHECK_EQ_U64(ctr(0x3f, 1, 0), 220, "RD_REG + WR_WMM");
	CHECK_EQ_U64(ctr(0x3f, 1, 1), 0, "no RMM writes");
	struct pmon_sim_truth t;
	pmon_sim_channel_truth(sim, 0, 1, &t);
	CHECK_EQ_U64(ctr(0x3f, 1, 2), t.pre_miss, "PRE any = page misses");
	CHECK_EQ_U64(t.pre_miss, 3,
		     "page misses in channel 1: row 0 -> 1 -> 2 of bank 0, back to 1 (write-backs)");
	CHECK_EQ_U64(ctr(0x3f, 1, 3), 0, "no page closes (open-page, no idle close)");
	CHECK(t.cas_rd == 150 && t.cas_wr == 70, "truth channel 1");
}

static void gating(void)
{
	struct pmon_sim_truth t;

	machine(NULL);
	/* counters on socket 1 only; socket 0's truth still counts */
	ctl(0x7f, 2, 0, CAS_RD);
	ctl(0x7f, 2, 1, 0x000304);            /* not enabled */
	ctl(0x7f, 2, 2, 0x01400304);          /* thresh 1 */
	ctl(0x7f, 2, 3, 0x02400304);          /* thresh 2: never */
	ctl(0x7f, 3, 0, 0x01C00304);          /* thresh 1 inverted: not modeled, 0 */
	ctl(0x7f, 3, 1, 0x01440304);          /* thresh 1 edge: each access */
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 64);        /* local to socket 0 */
	pmon_sim_channel_truth(sim, 0, 2, &t);
	CHECK_EQ_U64(t.cas_rd, 16, "socket 0 truth without any programming");
	CHECK_EQ_U64(ctr(0x7f, 2, 0), 0, "socket 1 iMC saw nothing");
	/* socket 1's CPU reading socket 0's memory: socket 0's iMC */
	pmon_sim_traffic(sim, 16, 32ull << 30, PMON_SIM_LOAD, 64);   /* home socket 1 */
	pmon_sim_traffic(sim, 16, 1 << 20, PMON_SIM_LOAD, 64);       /* remote, home 0 */
	CHECK_EQ_U64(ctr(0x7f, 2, 0), 16, "socket 1's own memory");
	CHECK_EQ_U64(ctr(0x7f, 2, 1), 0, "en clear");
	CHECK_EQ_U64(ctr(0x7f, 2, 2), 16, "thresh 1");
	CHECK_EQ_U64(ctr(0x7f, 2, 3), 0, "thresh 2");
	CHECK_EQ_U64(ctr(0x7f, 3, 0), 0, "inverted");
	CHECK_EQ_U64(ctr(0x7f, 3, 1), 16, "edge");
	pmon_sim_channel_truth(sim, 0, 2, &t);
	CHECK_EQ_U64(t.cas_rd, 32, "remote reads land at the home");
	/* freeze stops counting, not the truth */
	pci_wr(imc(0x7f, 2), 0xF4, 0x10100);
	pmon_sim_traffic(sim, 16, (32ull << 30) + (1 << 20), PMON_SIM_LOAD, 64);
	CHECK_EQ_U64(ctr(0x7f, 2, 0), 16, "frozen");
	pmon_sim_channel_truth(sim, 1, 2, &t);
	CHECK_EQ_U64(t.cas_rd, 32, "truth while frozen");
	pci_wr(imc(0x7f, 2), 0xF4, 0x10000);
	pmon_sim_traffic(sim, 16, (32ull << 30) + (2 << 20), PMON_SIM_LOAD, 4);
	CHECK_EQ_U64(ctr(0x7f, 2, 0), 17, "unfrozen");
	zero(0x7f, 2);
	CHECK_EQ_U64(ctr(0x7f, 2, 0), 0, "zeroed by software");

	/* argument errors change nothing */
	uint64_t total = 64ull << 30;
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, total, PMON_SIM_LOAD, 1), PMON_ERANGE, "beyond");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, total - 128, PMON_SIM_LOAD, 3), PMON_ERANGE,
		     "runs past the end");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, total - 128, PMON_SIM_LOAD, 2), 0, "up to the end");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, UINT64_MAX), PMON_ERANGE, "huge");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 32, 0, PMON_SIM_LOAD, 1), PMON_EINVAL, "no CPU 32");
	CHECK_EQ_INT(pmon_sim_traffic(sim, -1, 0, PMON_SIM_LOAD, 1), PMON_EINVAL, "CPU -1");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, (enum pmon_sim_kind)7, 1), PMON_EINVAL, "kind");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, total, PMON_SIM_LOAD, 0), 0, "count 0");
	pmon_sim_channel_truth(sim, 0, 2, &t);
	CHECK_EQ_U64(t.cas_rd, 32, "errors added nothing");
	pmon_sim_channel_truth(sim, 1, 3, &t);
	CHECK_EQ_U64(t.cas_rd, 16 + 16 + 1 + 1, "the two lines at the very end");
	pmon_sim_channel_truth(sim, 2, 0, &t);
	CHECK_EQ_U64(t.cas_rd, 0, "no socket 2");
}

static void big(void)
{
	struct pmon_sim_truth t;
	const uint64_t lines = 4000000;       /* 256 MB, 3 channels */

	machine("sockets=1,channels=3");
	ctl(0x3f, 1, 0, CAS_WR);
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_NT_STORE, lines), 0, "4M NT stores");
	pmon_sim_channel_truth(sim, 0, 1, &t);
	CHECK_EQ_U64(t.cas_wr, 1333333, "channel 1 writes (lines 1, 4, ...)");
	CHECK_EQ_U64(ctr(0x3f, 1, 0), 1333333, "counted");
	/* per channel 1333333 lines / 128 per row chunk = 10417 chunks */
	CHECK_EQ_U64(t.act, 10417, "ACT count");
	CHECK_EQ_U64(t.pre_miss, 10417 - 16, "all but the first 16 chunks miss");
	pmon_sim_channel_truth(sim, 0, 0, &t);
	CHECK_EQ_U64(t.cas_wr, 1333334, "channel 0 writes");
}

int main(void)
{
	mapping();
	stream();
	queues_and_umasks();
	gating();
	big();
	sim_teardown();
	return check_done("test_sim_dram");
}
