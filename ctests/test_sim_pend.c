/*
 * test_sim_pend.c - the hierarchy's events are queued per box and matched
 * once per distinct event when a traffic call ends (src/sim/sim_pend.c).
 * The same mixed traffic (loads, stores, streaming stores, eight CPUs on
 * two sockets, local and remote lines, evictions, write-backs, HITMs) fed
 * to two identically programmed machines, one access per call on one and
 * all accesses in one call on the other, must leave every counter equal;
 * and the counters must equal the ground truth they mirror (LLC lookups
 * and snoops, TOR inserts, victims, HA requests, QPI flits, CAS commands,
 * offcore responses of every kind).
 */
/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"
#include "xorshift.h"

#define CBO_CTL(n, i)  (0xD10u + 0x20u * (n) + (i))
#define CBO_CTR(n, i)  (0xD16u + 0x20u * (n) + (i))
#define CBO_FILT(n)    (0xD14u + 0x20u * (n))
#define EN 0x400000u
#define STATE_ALL (0x1Fu << 18)

#define SHAPE "sockets=2,cores=4,threads=1,channels=2,mem=64M,llc=256K,l2=64K,l1=8K"
#define NCPU 8
#define NREF 60000
#define NBUS 2

static uint64_t refs[NREF];

/* Every counter the hierarchy drives, through the registers. */
static void program(void)
{
	for (int cpu = 0; cpu < NCPU; cpu++) {
		/* RSP_0: any request, any response; RSP_1: any request, supplier
		 * local DRAM or an LLC hit, any snoop */
		wrmsr_ok(cpu, 0x1A6, 0x8FFFull | (1ull << 16));
		wrmsr_ok(cpu, 0x1A7, 0x3ull | (0xFull << 18) | (1ull << 22) | (0x3Full << 31));
		wrmsr_ok(cpu, 0x186, 0x4101B7);
		wrmsr_ok(cpu, 0x187, 0x4101BB);
		wrmsr_ok(cpu, 0x38F, 3);
	}
	for (int s = 0; s < 2; s++) {
		int cpu = s * 4;
		for (int k = 0; k < 4; k++) {
			wrmsr_ok(cpu, CBO_FILT(k), STATE_ALL);
			wrmsr_ok(cpu, CBO_CTL(k, 0), EN | 0x0F34);    /* LLC_LOOKUP: all types */
			wrmsr_ok(cpu, CBO_CTL(k, 1), EN | 0x0835);    /* TOR_INSERTS.ALL */
			wrmsr_ok(cpu, CBO_CTL(k, 2), EN | 0x0737);    /* LLC_VICTIMS.M|E|S */
			wrmsr_ok(cpu, CBO_CTL(k, 3), EN | 0x0836);    /* TOR_OCCUPANCY.ALL */
		}
	}
}

static void program_pci(int bus)
{
	pci_wr_ok(at(bus, 14, 1), 0xD8, EN | 0x0301);          /* HA REQUESTS.READS */
	pci_wr_ok(at(bus, 14, 1), 0xDC, EN | 0x0C01);          /* HA REQUESTS.WRITES */
	pci_wr_ok(at(bus, 14, 1), 0xE0, EN | 0x011A);          /* HA IMC_WRITES.FULL */
	pci_wr_ok(at(bus, 14, 1), 0xE4, EN | 0x0306);          /* HA TRACKER_INSERTS */
	for (int p = 0; p < 2; p++) {
		pci_wr_ok(at(bus, 8 + p, 2), 0xD8, EN | 0x0200);  /* TxL G0 DATA */
		pci_wr_ok(at(bus, 8 + p, 2), 0xDC, EN | 0x0400);  /* TxL G0 NON_DATA */
		pci_wr_ok(at(bus, 8 + p, 2), 0xE0, EN | 0x0201);  /* RxL G0 DATA */
		pci_wr_ok(at(bus, 8 + p, 2), 0xE4, EN | 0x0401);  /* RxL G0 NON_DATA */
	}
	for (int ch = 0; ch < 2; ch++) {
		pci_wr_ok(imc(bus, ch), 0xD8, EN | 0x0304);        /* CAS_COUNT.RD */
		pci_wr_ok(imc(bus, ch), 0xDC, EN | 0x0C04);        /* CAS_COUNT.WR */
	}
}

/* Every programmed counter of the machine under test, in a fixed order. */
static size_t read_all(uint64_t *v)
{
	size_t n = 0;

	for (int cpu = 0; cpu < NCPU; cpu++) {
		v[n++] = rdmsr(cpu, 0xC1);
		v[n++] = rdmsr(cpu, 0xC2);
	}
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < 4; k++)
			for (int i = 0; i < 4; i++)
				v[n++] = rdmsr(s * 4, CBO_CTR(k, i));
	for (int b = 0; b < NBUS; b++) {
		int bus = b ? 0x7f : 0x3f;
		for (int i = 0; i < 4; i++)
			v[n++] = pci_rd64(at(bus, 14, 1), 0xA0 + 8 * (uint32_t)i);
		for (int p = 0; p < 2; p++)
			for (int i = 0; i < 4; i++)
				v[n++] = pci_rd64(at(bus, 8 + p, 2), 0xA0 + 8 * (uint32_t)i);
		for (int ch = 0; ch < 2; ch++)
			for (int i = 0; i < 2; i++)
				v[n++] = pci_rd64(imc(bus, ch), 0xA0 + 8 * (uint32_t)i);
	}
	return n;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

/* A machine of SHAPE, programmed, with a 2 MiB region interleaved over the
 * sockets; returns its base. */
static uint64_t setup(void)
{
	uint64_t base = 0;

	machine(SHAPE);
	program();
	program_pci(0x3f);
	program_pci(0x7f);
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 2u << 20, PMON_SIM_INTERLEAVE, 0, &base), 0,
		     "2 MiB interleaved");
	return base;
}

/* Feed the traffic: one reference per call, or runs of one CPU's
 * references per call. */
static void feed(uint64_t base, const int *cpu_of, int single)
{
	static uint64_t run[NREF];

	for (int i = 0; i < NREF;) {
		int j = i;
		while (j < NREF && cpu_of[j] == cpu_of[i] && (j == i || !single)) {
			run[j - i] = (base + (refs[j] & ~63ull)) | (refs[j] & 63);
			j++;
		}
		if (pmon_sim_vtraffic_refs(sim, cpu_of[i], run, (size_t)(j - i))) {
			CHECK(0, "references refused");
			return;
		}
		i = j;
	}
}

int main(void)
{
	static uint64_t one[512], all[512];
	static int cpu_of[NREF];
	struct pmon_sim_cache_truth t;
	struct pmon_sim_cpu_truth ct;
	struct pmon_sim_slice_truth st;
	struct pmon_sim_ha_truth ha;
	struct pmon_sim_qpi_truth q;
	struct pmon_sim_truth ch;
	size_t n1, n2, k = 0;

	/* the traffic: one CPU for each run of 2000 references; most lines
	 * from a 160 KiB hot set shared by all CPUs (HITMs, upgrades, snoops),
	 * the rest over 2 MiB interleaved over the sockets (misses, evictions,
	 * write-backs, remote lines); 1 in 16 a streaming store */
	int cpu = 0;
	for (int i = 0; i < NREF; i++) {
		uint64_t r = xorshift64(&rng), line = (r >> 8) % ((r & 3) ? 2560 : 32768);
		unsigned kind = (r >> 40) % 16 == 0 ? PMON_SIM_NT_STORE
			      : (r >> 44) % 3 == 0 ? PMON_SIM_STORE : PMON_SIM_LOAD;
		if (i % 2000 == 0)
			cpu = (int)((r >> 50) % NCPU);
		cpu_of[i] = cpu;
		refs[i] = line * 64 | kind;
	}

	feed(setup(), cpu_of, 1);
	n1 = read_all(one);
	feed(setup(), cpu_of, 0);
	n2 = read_all(all);
	CHECK_EQ_U64(n1, n2, "as many counters read");
	size_t differ = 0, nonzero = 0;
	for (size_t i = 0; i < n1; i++) {
		differ += one[i] != all[i];
		nonzero += all[i] != 0;
	}
	CHECK_EQ_U64(differ, 0, "every counter equal, one access per call or 2000");
	CHECK_EQ_U64(nonzero, n1, "the traffic reached every counter");

	/* the counters against the ground truth */
	for (int c = 0; c < NCPU; c++, k += 2) {
		pmon_sim_cache_truth(sim, c, &t);
		pmon_sim_cpu_truth(sim, c, &ct);
		/* every request leaving the L2: demand reads and RFOs that
		 * missed it, ownership upgrades, write-backs, streaming stores */
		uint64_t dem = t.llc_hit[0] + t.llc_miss[0] + t.llc_hit[1] + t.llc_miss[1];
		CHECK_EQ_U64(all[k], dem + t.upgrades + t.writebacks + ct.nt_local + ct.nt_remote,
			     "offcore ANY_RESPONSE = L2-miss demands + upgrades + write-backs + NT stores");
	}
	for (int s = 0; s < 2; s++) {
		uint64_t look = 0, tor = 0, vic = 0, lk = 0, tk = 0, vk = 0;
		for (int c = 0; c < 4; c++, k += 4) {
			pmon_sim_slice_truth(sim, s, c, &st);
			look += st.lookups + st.snoops;
			tor += st.tor_inserts;
			vic += st.victims[0] + st.victims[1] + st.victims[2] + st.victims[3];
			lk += all[k];
			tk += all[k + 1];
			vk += all[k + 2];
		}
		CHECK_EQ_U64(lk, look, "LLC_LOOKUP = lookups + remote snoops (truth)");
		CHECK_EQ_U64(tk, tor, "TOR_INSERTS.ALL = TOR inserts (truth)");
		CHECK_EQ_U64(vk, vic, "LLC_VICTIMS = victims (truth)");
		CHECK(look > 1000 && vic > 100, "lookups and victims on the socket");
	}
	for (int s = 0; s < 2; s++) {
		pmon_sim_ha_truth(sim, s, &ha);
		CHECK_EQ_U64(all[k], ha.reads_local + ha.reads_remote, "HA REQUESTS.READS");
		CHECK_EQ_U64(all[k + 1], ha.writes_local + ha.writes_remote, "HA REQUESTS.WRITES");
		CHECK_EQ_U64(all[k + 2], ha.imc_writes, "HA IMC_WRITES");
		CHECK_EQ_U64(all[k + 3], ha.reads_local + ha.reads_remote + ha.writes_local +
			     ha.writes_remote, "HA TRACKER_INSERTS = every request");
		k += 4;
		for (int p = 0; p < 2; p++, k += 4) {
			pmon_sim_qpi_truth(sim, s, p, &q);
			CHECK_EQ_U64(all[k], q.tx_data, "QPI TxL data flits");
			CHECK_EQ_U64(all[k + 1], q.tx_nondata, "QPI TxL non-data flits");
			CHECK_EQ_U64(all[k + 2], q.rx_data, "QPI RxL data flits");
			CHECK_EQ_U64(all[k + 3], q.rx_nondata, "QPI RxL non-data flits");
		}
		for (int c = 0; c < 2; c++, k += 2) {
			pmon_sim_channel_truth(sim, s, c, &ch);
			CHECK_EQ_U64(all[k], ch.cas_rd, "CAS reads");
			CHECK_EQ_U64(all[k + 1], ch.cas_wr, "CAS writes");
		}
	}
	CHECK_EQ_U64(k, n2, "every counter checked against the truth");
	sim_teardown();
	return check_done("test_sim_pend");
}
