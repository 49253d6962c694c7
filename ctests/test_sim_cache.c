/*
 * test_sim_cache.c - the emulated memory hierarchy from first principles:
 * LRU capacity (a working set of half the LLC read twice misses only on the
 * first pass, twice the LLC misses on both), stores (one RFO read per line,
 * one write-back per line when it leaves), streaming stores (writes, no
 * reads), the prefetcher's halving of demand misses, the flush, and the
 * ground truth agreeing with the iMC counters.
 *
 * Shapes are small and have one LLC slice where the property needs exact
 * set occupancy: with one slice the set of line L is L mod sets, so a
 * contiguous range fills every set evenly.
 */
/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define CAS_RD 0x400304u
#define CAS_WR 0x400C04u

/* CAS reads and writes of every channel of a socket (truth). */
static void cas(int socket, uint64_t *rd, uint64_t *wr)
{
	struct pmon_sim_truth t;

	*rd = *wr = 0;
	for (int c = 0; c < pmon_sim_shape(sim)->channels; c++) {
		pmon_sim_channel_truth(sim, socket, c, &t);
		*rd += t.cas_rd;
		*wr += t.cas_wr;
	}
}

/* iMC counters 0 (CAS RD) and 1 (CAS WR) on every channel of socket 0. */
static void imc_program(void)
{
	for (int c = 0; c < pmon_sim_shape(sim)->channels; c++) {
		pci_wr_ok(imc(0x3f, c), 0xD8, CAS_RD);
		pci_wr_ok(imc(0x3f, c), 0xDC, CAS_WR);
	}
}

static void imc_read(uint64_t *rd, uint64_t *wr)
{
	*rd = *wr = 0;
	for (int c = 0; c < pmon_sim_shape(sim)->channels; c++) {
		*rd += pci_rd64(imc(0x3f, c), 0xA0);
		*wr += pci_rd64(imc(0x3f, c), 0xA8);
	}
}

/* One socket, one core (one slice), LLC 128 KiB of 8 ways = 256 sets of 2048
 * lines; L1 4 KiB and L2 16 KiB (4-way) so that passes reach the LLC. */
#define SMALL "sockets=1,cores=1,threads=1,channels=2,llc=128K,llcways=8,l1=4K,l1ways=4," \
	      "l2=16K,l2ways=4"
#define LLC_LINES 2048u

static void capacity(void)
{
	struct pmon_sim_cache_truth t;
	struct pmon_sim_slice_truth st;
	uint64_t rd, wr;

	machine(SMALL);
	imc_program();
	/* half the LLC: 4 lines per set of 8 ways */
	const uint64_t half = LLC_LINES / 2;
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, half), 0, "pass 1");
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.llc_miss[PMON_SIM_LOAD], half, "half: pass 1 misses every line");
	CHECK_EQ_U64(t.llc_hit[PMON_SIM_LOAD], 0, "half: pass 1 no hit");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, half), 0, "pass 2");
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.llc_miss[PMON_SIM_LOAD], half, "half: pass 2 misses nothing");
	/* the L2 (256 lines) kept only the last quarter... of which LRU over a
	 * stream keeps nothing useful: every pass-2 line comes from the LLC */
	CHECK_EQ_U64(t.llc_hit[PMON_SIM_LOAD], half, "half: pass 2 hits the LLC");
	CHECK_EQ_U64(t.l1_hit[PMON_SIM_LOAD] + t.l2_hit[PMON_SIM_LOAD], 0, "no L1/L2 hit");
	CHECK_EQ_U64(t.supplied[PMON_SIM_SUP_LLC], half, "supplier LLC");
	CHECK_EQ_U64(t.supplied[PMON_SIM_SUP_DRAM], half, "supplier DRAM");
	cas(0, &rd, &wr);
	CHECK_EQ_U64(rd, half, "half: DRAM read once per line");
	imc_read(&rd, &wr);
	CHECK_EQ_U64(rd, half, "half: iMC CAS RD counters");
	pmon_sim_slice_truth(sim, 0, 0, &st);
	CHECK_EQ_U64(st.lookups, 2 * half, "slice lookups: both passes");
	CHECK_EQ_U64(st.victims[0] + st.victims[1] + st.victims[2] + st.victims[3], 0,
		     "half: no LLC victim");

	/* twice the LLC: 16 lines per set of 8, LRU evicts each before reuse */
	machine(SMALL);
	imc_program();
	const uint64_t twice = 2 * LLC_LINES;
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, twice);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, twice);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.llc_miss[PMON_SIM_LOAD], 2 * twice, "twice: both passes miss");
	CHECK_EQ_U64(t.llc_hit[PMON_SIM_LOAD], 0, "twice: no LLC hit");
	imc_read(&rd, &wr);
	CHECK_EQ_U64(rd, 2 * twice, "twice: CAS RD = every access");
	CHECK_EQ_U64(wr, 0, "twice: clean lines are never written");
	pmon_sim_slice_truth(sim, 0, 0, &st);
	CHECK_EQ_U64(st.victims[1], 2 * twice - LLC_LINES, "E victims: all but the last LLC-full");
}

static void stores(void)
{
	struct pmon_sim_cache_truth t;
	struct pmon_sim_slice_truth st;
	uint64_t rd, wr;
	const uint64_t n = 1000;

	machine(SMALL);
	imc_program();
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_STORE, n);
	imc_read(&rd, &wr);
	CHECK_EQ_U64(rd, n, "a store miss reads its line (RFO)");
	CHECK_EQ_U64(wr, 0, "nothing written yet: the lines are in the caches");
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_STORE], n, "store misses");
	/* evict them: read two LLCs' worth of other lines */
	pmon_sim_traffic(sim, 0, 1 << 20, PMON_SIM_LOAD, 2 * LLC_LINES);
	imc_read(&rd, &wr);
	CHECK_EQ_U64(wr, n, "one write-back per stored line");
	CHECK_EQ_U64(rd, n + 2 * LLC_LINES, "reads: RFOs + loads");
	pmon_sim_slice_truth(sim, 0, 0, &st);
	CHECK_EQ_U64(st.victims[0], n, "M victims = stored lines");
	/* the L2 wrote its dirty victims into the LLC first (WbMtoI) */
	CHECK_EQ_U64(st.writebacks, n, "L2 write-backs into the LLC");

	/* streaming stores: writes without reads, nothing cached */
	machine(SMALL);
	imc_program();
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_NT_STORE, n);
	imc_read(&rd, &wr);
	CHECK_EQ_U64(rd, 0, "NT stores read nothing");
	CHECK_EQ_U64(wr, n, "NT stores write every line");
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, n);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.llc_miss[PMON_SIM_LOAD], n, "NT-stored lines were not cached");

	/* a store over a loaded line: no second read; a flush writes it */
	machine(SMALL);
	imc_program();
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 100);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_STORE, 100);
	imc_read(&rd, &wr);
	CHECK_EQ_U64(rd, 100, "the lines were read once (loaded Exclusive)");
	CHECK_EQ_INT(pmon_sim_flush_caches(sim), 0, "flush");
	imc_read(&rd, &wr);
	CHECK_EQ_U64(wr, 100, "the flush writes the Modified lines");
	CHECK_EQ_INT(pmon_sim_flush_caches(sim), 0, "flush again");
	imc_read(&rd, &wr);
	CHECK_EQ_U64(wr, 100, "a second flush has nothing to write");
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 100);
	imc_read(&rd, &wr);
	CHECK_EQ_U64(rd, 200, "after the flush every line misses");
}

static void prefetcher(void)
{
	struct pmon_sim_cache_truth t;
	uint64_t rd, wr;

	/* 4 pages = 256 lines: the adjacent-line prefetcher alone (MSR 0x1A4
	 * 0xd) fetches the odd line of each pair */
	machine(SMALL ",prefetch=0xd");
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 256);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 128, "prefetch: half the lines miss the L2");
	CHECK_EQ_U64(t.l2_hit[PMON_SIM_LOAD], 128, "the other half were prefetched");
	CHECK_EQ_U64(t.prefetches, 128, "prefetches issued");
	cas(0, &rd, &wr);
	CHECK_EQ_U64(rd, 256, "every line read once");
	/* the last line of a page brings its pair, the line before it */
	machine(SMALL ",prefetch=0xd");
	pmon_sim_traffic(sim, 0, 63 * 64, PMON_SIM_LOAD, 1);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.prefetches, 1, "line 63 fetches line 62");
	cas(0, &rd, &wr);
	CHECK_EQ_U64(rd, 2, "both read from DRAM");
	machine(SMALL);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 256);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 256, "prefetch off: every line misses");
	CHECK_EQ_U64(t.prefetches, 0, "prefetch off: none issued");
}

int main(void)
{
	capacity();
	stores();
	prefetcher();
	sim_teardown();
	return check_done("test_sim_cache");
}
