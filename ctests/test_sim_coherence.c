/*
 * test_sim_coherence.c - the hierarchy's coherence and the uncore events it
 * drives, from first principles, through the emulated PMON registers and
 * against the ground truth: HITM between cores, the invalidation a store
 * to a shared line sends, remote reads (home agent and QPI: 9 flits a
 * line, on the right sockets), cache-to-cache forwarding between sockets,
 * per-slice LLC lookups (near-uniform hash), the CBo state/NID/opcode
 * filters, LLC victims by state, TOR occupancy over inserts = the
 * documented latency.
 */
/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define CBO_CTL(n, i)  (0xD10u + 0x20u * (n) + (i))
#define CBO_CTR(n, i)  (0xD16u + 0x20u * (n) + (i))
#define CBO_FILT(n)    (0xD14u + 0x20u * (n))
#define EN 0x400000u
#define STATE_ALL (0x1Full << 18)

static uint64_t ha_ctr(int bus, int i)
{
	return pci_rd64(at(bus, 14, 1), 0xA0 + 8 * (uint32_t)i);
}

static void ha_ctl(int bus, int i, uint32_t v)
{
	pci_wr_ok(at(bus, 14, 1), 0xD8 + 4 * (uint32_t)i, v);
}

/* QPI port p (0/1) of a socket's bus. */
static void qpi_ctl(int bus, int p, int i, uint32_t v)
{
	pci_wr_ok(at(bus, 8 + p, 2), 0xD8 + 4 * (uint32_t)i, v);
}

static uint64_t qpi_ctr_both(int bus, int i)
{
	return pci_rd64(at(bus, 8, 2), 0xA0 + 8 * (uint32_t)i) +
	       pci_rd64(at(bus, 9, 2), 0xA0 + 8 * (uint32_t)i);
}

/* R3QPI link p (0/1) of a socket's bus: D19:F5 / D19:F6. */
static void r3_ctl(int bus, int p, int i, uint32_t v)
{
	pci_wr_ok(at(bus, 19, 5 + p), 0xD8 + 4 * (uint32_t)i, v);
}

static uint64_t r3_ctr_both(int bus, int i)
{
	return pci_rd64(at(bus, 19, 5), 0xA0 + 8 * (uint32_t)i) +
	       pci_rd64(at(bus, 19, 6), 0xA0 + 8 * (uint32_t)i);
}

static void hitm(void)
{
	struct pmon_sim_cache_truth t0, t1;
	struct pmon_sim_truth ch;
	const uint64_t x = 0x10000;

	machine("sockets=1,cores=2,threads=1,channels=1");
	/* CPU 1 counts demand reads answered by an LLC hit with HITM, and with
	 * no snoop needed */
	wrmsr_ok(1, 0x1A6, 0x10003C0001ull);
	wrmsr_ok(1, 0x1A7, 0x1003C0001ull);
	wrmsr_ok(1, 0x186, 0x4101B7);
	wrmsr_ok(1, 0x187, 0x4101BB);
	wrmsr_ok(1, 0x38F, 3);
	pmon_sim_traffic(sim, 0, x, PMON_SIM_STORE, 1);      /* Modified in core 0 */
	pmon_sim_traffic(sim, 1, x, PMON_SIM_LOAD, 1);       /* core 1 reads it */
	pmon_sim_cache_truth(sim, 1, &t1);
	CHECK_EQ_U64(t1.hitm, 1, "a load of a line Modified in another core is a HITM");
	CHECK_EQ_U64(t1.supplied[PMON_SIM_SUP_LLC], 1, "served through the LLC");
	CHECK_EQ_U64(rdmsr(1, 0xC1), 1, "offcore: LLC hit, snoop HITM");
	CHECK_EQ_U64(rdmsr(1, 0xC2), 0, "offcore: not 'no snoop needed'");
	struct pmon_sim_slice_truth st;
	int slice = pmon_sim_llc_slice(sim, x);
	pmon_sim_slice_truth(sim, 0, slice, &st);
	CHECK_EQ_U64(st.hitm, 1, "slice truth: one HITM");
	/* both share it now; a store of core 0 invalidates core 1's copy */
	pmon_sim_traffic(sim, 0, x, PMON_SIM_STORE, 1);
	pmon_sim_cache_truth(sim, 0, &t0);
	CHECK_EQ_U64(t0.upgrades, 1, "store to a Shared line: ownership request");
	pmon_sim_traffic(sim, 1, x, PMON_SIM_LOAD, 1);
	pmon_sim_cache_truth(sim, 1, &t1);
	CHECK_EQ_U64(t1.l1_miss[PMON_SIM_LOAD], 2, "core 1's copy was invalidated");
	CHECK_EQ_U64(t1.hitm, 2, "and the line is Modified in core 0 again: HITM");
	CHECK_EQ_U64(rdmsr(1, 0xC1), 2, "offcore HITM twice");
	pmon_sim_channel_truth(sim, 0, 0, &ch);
	CHECK_EQ_U64(ch.cas_rd, 1, "DRAM read once (the first RFO)");
	CHECK_EQ_U64(ch.cas_wr, 0, "nothing written: the line stays on chip");
	/* a clean copy in another core: snoop hit, no forward */
	pmon_sim_traffic(sim, 0, x + 64, PMON_SIM_LOAD, 1);  /* Exclusive in core 0 */
	wrmsr_ok(1, 0x1A6, 0x4003C0001ull);                  /* LLC hit, SNP_NO_FWD */
	pmon_sim_traffic(sim, 1, x + 64, PMON_SIM_LOAD, 1);
	CHECK_EQ_U64(rdmsr(1, 0xC1), 3, "clean copy in core 0: SNP_NO_FWD (2 + 1)");
}

static void remote(void)
{
	struct pmon_sim_ha_truth h0, h1;
	struct pmon_sim_qpi_truth q0[2], q1[2];
	const uint64_t n = 1000;
	/* sockets 0 and 1 (buses 0x3f, 0x7f); CPU 2 is socket 1 */
	machine("sockets=2,cores=2,threads=1");
	ha_ctl(0x3f, 0, EN | 0x0301);                 /* REQUESTS.READS */
	ha_ctl(0x3f, 1, EN | 0x0C01);                 /* REQUESTS.WRITES */
	ha_ctl(0x3f, 2, EN | 0x0410);                 /* TXR_BL.DRS_QPI */
	ha_ctl(0x3f, 3, EN | 0x0306);                 /* TRACKER_INSERTS */
	for (int p = 0; p < 2; p++) {
		qpi_ctl(0x3f, p, 0, EN | 0x0200);     /* TxL_FLITS_G0.DATA */
		qpi_ctl(0x3f, p, 1, EN | 0x0400);     /* TxL_FLITS_G0.NON_DATA */
		qpi_ctl(0x3f, p, 2, EN | 0x201800);   /* TxL_FLITS_G1.DRS */
		qpi_ctl(0x7f, p, 0, EN | 0x0201);     /* RxL_FLITS_G0.DATA */
		qpi_ctl(0x7f, p, 1, EN | 0x200200);   /* TxL_FLITS_G1.HOM_REQ */
		qpi_ctl(0x7f, p, 2, EN | 0x0400);     /* TxL_FLITS_G0.NON_DATA */
		r3_ctl(0x3f, p, 0, EN | 0x0811);      /* RxR_INSERTS.DRS */
		r3_ctl(0x3f, p, 1, EN | 0x0111);      /* RxR_INSERTS.HOM */
		r3_ctl(0x7f, p, 0, EN | 0x0111);      /* RxR_INSERTS.HOM */
		r3_ctl(0x7f, p, 1, EN | 0x0E11);      /* RxR_INSERTS.SNP|NDR|DRS */
	}
	wrmsr_ok(2, 0x1A6, 0x67f800001ull);           /* DRD, remote DRAM, snoop miss */
	wrmsr_ok(2, 0x186, 0x4101B7);
	wrmsr_ok(2, 0x38F, 1);
	pmon_sim_traffic(sim, 2, 0, PMON_SIM_LOAD, n);    /* home socket 0 */
	pmon_sim_ha_truth(sim, 0, &h0);
	pmon_sim_ha_truth(sim, 1, &h1);
	CHECK_EQ_U64(h0.reads_remote, n, "home 0 serves every line for socket 1");
	CHECK_EQ_U64(h0.reads_local + h1.reads_local + h1.reads_remote, 0, "no other HA read");
	CHECK_EQ_U64(h0.imc_reads, n, "from its DRAM");
	CHECK_EQ_U64(ha_ctr(0x3f, 0), n, "HA REQUESTS.READS");
	CHECK_EQ_U64(ha_ctr(0x3f, 1), 0, "HA REQUESTS.WRITES");
	CHECK_EQ_U64(ha_ctr(0x3f, 2), n, "HA TXR_BL.DRS_QPI");
	CHECK_EQ_U64(ha_ctr(0x3f, 3), n, "HA TRACKER_INSERTS");
	for (int p = 0; p < 2; p++) {
		pmon_sim_qpi_truth(sim, 0, p, &q0[p]);
		pmon_sim_qpi_truth(sim, 1, p, &q1[p]);
	}
	uint64_t tx_data = q0[0].tx_data + q0[1].tx_data, tx_nd = q0[0].tx_nondata + q0[1].tx_nondata;
	CHECK_EQ_U64(tx_data, 8 * n, "socket 0 sends 8 data flits a line");
	CHECK_EQ_U64(tx_nd, n, "and 1 header flit a line: 9 flits a line");
	CHECK_EQ_U64(q1[0].rx_data + q1[1].rx_data, 8 * n, "socket 1 receives them");
	CHECK_EQ_U64(q1[0].tx_nondata + q1[1].tx_nondata, n, "socket 1 sends one request a line");
	CHECK_EQ_U64(q1[0].tx_data + q1[1].tx_data, 0, "and no data");
	CHECK(q0[0].tx_data > 0 && q0[1].tx_data > 0, "both links carry traffic");
	CHECK_EQ_U64(qpi_ctr_both(0x3f, 0), 8 * n, "TxL_FLITS_G0.DATA, socket 0");
	CHECK_EQ_U64(qpi_ctr_both(0x3f, 1), n, "TxL_FLITS_G0.NON_DATA, socket 0");
	CHECK_EQ_U64(qpi_ctr_both(0x3f, 2), 9 * n, "TxL_FLITS_G1.DRS: 9 flits a line");
	CHECK_EQ_U64(qpi_ctr_both(0x7f, 0), 8 * n, "RxL_FLITS_G0.DATA, socket 1");
	CHECK_EQ_U64(qpi_ctr_both(0x7f, 1), n, "TxL_FLITS_G1.HOM_REQ, socket 1");
	CHECK_EQ_U64(qpi_ctr_both(0x7f, 2), n, "TxL_FLITS_G0.NON_DATA, socket 1");
	CHECK_EQ_U64(rdmsr(2, 0xC1), n, "offcore: remote DRAM, snoop miss");
	/* each message enters the sending socket's R3QPI ingress of its link */
	CHECK_EQ_U64(r3_ctr_both(0x3f, 0), n, "R3QPI RxR_INSERTS.DRS, socket 0: the data");
	CHECK_EQ_U64(r3_ctr_both(0x3f, 1), 0, "R3QPI RxR_INSERTS.HOM, socket 0: no request");
	CHECK_EQ_U64(r3_ctr_both(0x7f, 0), n, "R3QPI RxR_INSERTS.HOM, socket 1: the requests");
	CHECK_EQ_U64(r3_ctr_both(0x7f, 1), 0, "R3QPI RxR_INSERTS.SNP|NDR|DRS, socket 1");
	CHECK(pci_rd64(at(0x3f, 19, 5), 0xA0) > 0 && pci_rd64(at(0x3f, 19, 6), 0xA0) > 0,
	      "R3QPI: both links carry data");

	/* socket 0 reads the same lines: socket 1's cache forwards them */
	struct pmon_sim_cache_truth t;
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, n);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.supplied[PMON_SIM_SUP_RCACHE], n, "forwarded by socket 1's LLC");
	pmon_sim_ha_truth(sim, 0, &h0);
	CHECK_EQ_U64(h0.imc_reads, n, "no second DRAM read");
	CHECK_EQ_U64(h0.reads_local, n, "the requests still go to the home agent");
	for (int p = 0; p < 2; p++)
		pmon_sim_qpi_truth(sim, 1, p, &q1[p]);
	CHECK_EQ_U64(q1[0].tx_data + q1[1].tx_data, 8 * n, "socket 1 sends the data");
	/* socket 1: a request and a snoop response a line, plus the headers */
	CHECK_EQ_U64(q1[0].tx_nondata + q1[1].tx_nondata, n + 2 * n, "socket 1 non-data flits");

	/* a remote store miss: RFO over QPI; the flush writes the line home */
	machine("sockets=2,cores=2,threads=1");
	pmon_sim_traffic(sim, 2, 0, PMON_SIM_STORE, n);
	pmon_sim_flush_caches(sim);
	pmon_sim_ha_truth(sim, 0, &h0);
	CHECK_EQ_U64(h0.reads_remote, n, "RFO reads at the home");
	CHECK_EQ_U64(h0.writes_remote, n, "write-backs at the home");
	CHECK_EQ_U64(h0.imc_writes, n, "DRAM writes at the home");
	for (int p = 0; p < 2; p++)
		pmon_sim_qpi_truth(sim, 1, p, &q1[p]);
	CHECK_EQ_U64(q1[0].tx_data + q1[1].tx_data, 8 * n, "the dirty lines cross back");
}

static void slices(void)
{
	struct pmon_sim_slice_truth st;
	const uint64_t n = 80000;
	uint64_t sum = 0;

	machine(NULL);
	for (int k = 0; k < 8; k++) {
		wrmsr_ok(0, CBO_FILT(k), STATE_ALL);
		wrmsr_ok(0, CBO_CTL(k, 0), EN | 0x0334);     /* LLC_LOOKUP.DATA_READ */
		wrmsr_ok(0, CBO_CTL(k, 1), EN | 0x0A35);     /* TOR_INSERTS.MISS_ALL */
	}
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, n);
	for (int k = 0; k < 8; k++) {
		pmon_sim_slice_truth(sim, 0, k, &st);
		uint64_t v = rdmsr(0, CBO_CTR(k, 0));
		CHECK_EQ_U64(v, st.lookups, "CBo LLC_LOOKUP = slice truth");
		CHECK_EQ_U64(rdmsr(0, CBO_CTR(k, 1)), st.misses, "TOR MISS_ALL = slice misses");
		/* binomial(80000, 1/8): sd 94; 5% is over 5 sd */
		CHECK(v > n / 8 * 95 / 100 && v < n / 8 * 105 / 100, "slice %d: %llu lookups", k,
		      (unsigned long long)v);
		sum += v;
	}
	CHECK_EQ_U64(sum, n, "every lookup in some slice");
}

/* One slice, LLC of 2048 lines (256 sets of 8): exact occupancy. */
#define SMALL "sockets=2,cores=1,threads=1,llc=128K,llcways=8,l1=4K,l1ways=4,l2=16K,l2ways=4"

static void filters(void)
{
	const uint64_t n = 2048;
	uint64_t remote = (32ull << 30);

	machine(SMALL);
	wrmsr_ok(0, CBO_FILT(0), 0x01ull << 18);             /* state I: misses */
	wrmsr_ok(0, CBO_CTL(0, 0), EN | 0x0334);
	wrmsr_ok(0, CBO_CTL(0, 1), EN | 0x0237);             /* LLC_VICTIMS.E_STATE */
	wrmsr_ok(0, CBO_CTL(0, 2), EN | 0x0137);             /* LLC_VICTIMS.M_STATE */
	wrmsr_ok(0, CBO_CTL(0, 3), EN | 0x1035);             /* TOR_INSERTS.WB */
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 2 * n);   /* twice the LLC */
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 0)), 2 * n, "LLC_LOOKUP state I: every line missed");
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 1)), n, "E victims: the first LLC-full");
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 2)), 0, "no M victim");
	pmon_sim_traffic(sim, 0, 1 << 20, PMON_SIM_STORE, 2 * n);
	/* the first n stores evict the n loaded lines still there */
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 1)), 2 * n, "E victims: every loaded line");
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 2)), n, "M victims: the first stored LLC-full");
	/* the L2 (256 lines) wrote back every stored line it evicted */
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 3)), 2 * n - 256, "TOR WB: L2 write-backs");
	/* hits only (state M|E|S|F): the last 512 stored lines are in the LLC;
	 * the L2 holds the last 256, 4 in each of its 64 sets, but the first
	 * 256 loads (LLC hits) put 4 new lines in each set and evict them, so
	 * all 512 loads reach the LLC, and hit */
	wrmsr_ok(0, CBO_FILT(0), 0x1Eull << 18);
	wrmsr_ok(0, CBO_CTR(0, 0), 0);
	pmon_sim_traffic(sim, 0, (1 << 20) + 2 * n * 64 - 512 * 64, PMON_SIM_LOAD, 512);
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 0)), 512, "hits in the LLC (state filter)");

	/* NID: the home node of the line (socket 1 = node 1) */
	machine(SMALL);
	wrmsr_ok(0, CBO_FILT(0), STATE_ALL | 0x2ull << 10);  /* nf = node 1 */
	wrmsr_ok(0, CBO_CTL(0, 0), EN | 0x4334);             /* LLC_LOOKUP DATA_READ + NID */
	wrmsr_ok(0, CBO_CTL(0, 1), EN | 0x4A35);             /* TOR_INSERTS.NID_MISS_ALL */
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 100);     /* local: node 0 */
	pmon_sim_traffic(sim, 0, remote, PMON_SIM_LOAD, 30); /* node 1 */
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 0)), 30, "NID lookups: node 1 only");
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 1)), 30, "NID misses: node 1 only");
	/* opcode filter: DRd counts loads, RFO counts stores */
	machine(SMALL);
	wrmsr_ok(0, CBO_FILT(0), 0x182ull << 23);
	wrmsr_ok(0, CBO_CTL(0, 0), EN | 0x0135);             /* TOR_INSERTS.OPCODE */
	wrmsr_ok(0, CBO_CTL(0, 1), EN | 0x0335);             /* TOR_INSERTS.MISS_OPCODE */
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 40);
	pmon_sim_traffic(sim, 0, 1 << 20, PMON_SIM_STORE, 7);
	pmon_sim_traffic(sim, 0, 2 << 20, PMON_SIM_NT_STORE, 5);
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 0)), 40, "OPCODE DRd: the loads");
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 1)), 40, "MISS_OPCODE DRd: they all missed");
	wrmsr_ok(0, CBO_FILT(0), 0x180ull << 23);
	pmon_sim_traffic(sim, 0, 3 << 20, PMON_SIM_STORE, 9);
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 0)), 49, "OPCODE RFO: the stores since");
	wrmsr_ok(0, CBO_FILT(0), 0x18cull << 23);
	pmon_sim_traffic(sim, 0, 4 << 20, PMON_SIM_NT_STORE, 11);
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 0)), 60, "OPCODE WCiLF: the streaming stores since");
}

static void occupancy(void)
{
	const uint64_t n = 4000;

	/* default latencies: local DRAM 80 ns = 216 UCLK at 2.7 GHz, LLC 15 ns
	 * = 40.5 -> 41 (rounded) */
	machine("sockets=1,cores=2,threads=1");
	for (int k = 0; k < 2; k++) {
		wrmsr_ok(0, CBO_CTL(k, 0), EN | 0x0A36);     /* TOR_OCCUPANCY.MISS_ALL */
		wrmsr_ok(0, CBO_CTL(k, 1), EN | 0x0A35);     /* TOR_INSERTS.MISS_ALL */
	}
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, n);
	uint64_t occ = 0, ins = 0;
	for (int k = 0; k < 2; k++) {
		occ += rdmsr(0, CBO_CTR(k, 0));
		ins += rdmsr(0, CBO_CTR(k, 1));
	}
	CHECK_EQ_U64(ins, n, "inserts: every load missed");
	CHECK_EQ_U64(occ, 216 * n, "occupancy = 216 UCLK per miss");
	/* other latencies, other clock */
	machine("sockets=1,cores=1,threads=1,lat_dram=100,lat_llc=20,uclk=2G");
	wrmsr_ok(0, CBO_CTL(0, 0), EN | 0x0836);             /* TOR_OCCUPANCY.ALL */
	wrmsr_ok(0, CBO_CTL(0, 1), EN | 0x0A35);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 1000);    /* misses: 200 UCLK each */
	/* L2 of 4096 lines: a second pass of 8192 lines misses it, hits the LLC */
	pmon_sim_traffic(sim, 0, 1 << 20, PMON_SIM_LOAD, 8192);
	pmon_sim_traffic(sim, 0, 1 << 20, PMON_SIM_LOAD, 8192);
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 1)), 1000 + 8192, "misses");
	CHECK_EQ_U64(rdmsr(0, CBO_CTR(0, 0)), (1000 + 8192) * 200 + 8192 * 40,
		     "occupancy: 200 UCLK per miss, 40 per LLC hit");
}

int main(void)
{
	hitm();
	remote();
	slices();
	filters();
	occupancy();
	sim_teardown();
	return check_done("test_sim_coherence");
}
