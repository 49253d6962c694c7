/*
 * test_sim_nhm_events.c - the Nehalem-EP uncore and offcore events on the
 * emulated machine's real traffic (gen=nhm-ep, prefetchers off so that a
 * line read is one request).  Every expected count follows from the
 * kernel (lines, kind, which socket's memory) and the shape: 3 channels
 * (line % 3), 8 KiB DRAM rows (128 lines of a channel per row, 8 banks),
 * uclk 2.66 GHz and the documented latencies lat_dram 80 ns and lat_rdram
 * 130 ns (213 and 346 UCLK cycles, rounded), the home snoop of the other
 * socket on every miss.
 */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define GLB 0x391
#define PMC0 0x3b0
#define SEL0 0x3c0
#define EN (1ull << 22)
#define MEM (32ull << 30)              /* the default mem= per socket */

/* UCLK cycles of a latency, as the model rounds them: ns * 2.66 GHz */
#define UCLK_OF(ns) (((ns) * 2660000000ull + 500000000ull) / 1000000000ull)

struct ev {
	unsigned code, umask;
	const char *name;
};

/* Program up to 8 events on the uncore of CPU cpu's socket, all enabled. */
static void program(int cpu, const struct ev *e, int n)
{
	for (int i = 0; i < n; i++)
		wrmsr_ok(cpu, SEL0 + (uint32_t)i, e[i].code | e[i].umask << 8 | EN);
	wrmsr_ok(cpu, GLB, (1ull << n) - 1);
}

static void expect(int cpu, const struct ev *e, int n, const uint64_t *want, const char *what)
{
	for (int i = 0; i < n; i++) {
		char msg[128];
		snprintf(msg, sizeof msg, "%s: %s.%02x", what, e[i].name, e[i].umask);
		CHECK_EQ_U64(rdmsr(cpu, PMC0 + (uint32_t)i), want[i], msg);
	}
}

static void traffic(int cpu, uint64_t addr, enum pmon_sim_kind kind, uint64_t n)
{
	CHECK_EQ_INT(pmon_sim_traffic(sim, cpu, addr, kind, n), 0, "traffic");
}

/* N lines read by CPU 0 from socket 0's memory: 3 * 384 lines, so each
 * channel reads 384 consecutive lines of its own: rows 0 of banks 0-2 (3
 * activates, no page miss). */
static void local_stream(void)
{
	const uint64_t N = 1152;
	static const struct ev e[] = {
		{ 0x2c, 0x07, "IMC_NORMAL_READS" }, { 0x2c, 0x02, "IMC_NORMAL_READS" },
		{ 0x09, 0x01, "LLC_MISS" }, { 0x0a, 0x02, "LLC_LINES_IN" },
		{ 0x20, 0x10, "QHL_REQUESTS" }, { 0x23, 0x04, "QHL_OCCUPANCY" },
		{ 0x60, 0x04, "DRAM_OPEN" }, { 0x62, 0x07, "DRAM_PAGE_MISS" },
	};
	const uint64_t want[] = { N, N / 3, N, N, N, N * UCLK_OF(80), 3, 0 };

	machine("gen=nhm-ep");
	program(0, e, 8);
	program(8, e, 8);
	traffic(0, 0, PMON_SIM_LOAD, N);
	expect(0, e, 8, want, "local stream, socket 0");
	/* socket 1 saw the home's snoops only: nothing of this list */
	const uint64_t none[8] = { 0 };
	expect(8, e, 8, none, "local stream, socket 1");
	/* the QHL's latency identity: occupancy / requests = lat_dram in UCLK */
	CHECK_EQ_U64(rdmsr(0, PMC0 + 5) / rdmsr(0, PMC0 + 4), UCLK_OF(80), "occupancy/requests");
}

/* The same lines' other views: the read tracker, the LLC of the other
 * socket (the home snoops it on each miss), LLC hits by another core. */
static void trackers_and_hits(void)
{
	const uint64_t N = 600;
	static const struct ev e[] = {
		{ 0x03, 0x01, "GQ_ALLOC" }, { 0x03, 0x02, "GQ_ALLOC" },
		{ 0x02, 0x01, "GQ_TRACKER_OCCUP" }, { 0x08, 0x01, "LLC_HITS" },
		{ 0x09, 0x04, "LLC_MISS" }, { 0x03, 0x40, "GQ_ALLOC" },
		{ 0x0b, 0x1f, "LLC_LINES_OUT" }, { 0x08, 0x06, "LLC_HITS" },
	};

	machine("gen=nhm-ep");
	program(0, e, 8);
	program(8, e, 8);
	traffic(0, 0, PMON_SIM_LOAD, N);
	/* core 1 (CPU 2) reads them again: LLC hits, no DRAM */
	traffic(2, 0, PMON_SIM_LOAD, N);
	const uint64_t want0[] = { 2 * N, N, N * UCLK_OF(80) + N * UCLK_OF(15), N, 0, 0, 0, 0 };
	expect(0, e, 8, want0, "reads, then core 1's hits, socket 0");
	const uint64_t want1[] = { 0, 0, 0, 0, N, N, 0, 0 };
	expect(8, e, 8, want1, "socket 1: the home's snoops of its (empty) LLC");
}

/* CPU 0 reads N lines homed on socket 1: the home's QHL counts remote
 * reads, its memory controller the reads, its occupancy lat_rdram. */
static void remote_stream(void)
{
	const uint64_t N = 900;
	static const struct ev e[] = {
		{ 0x20, 0x04, "QHL_REQUESTS" }, { 0x20, 0x10, "QHL_REQUESTS" },
		{ 0x23, 0x02, "QHL_OCCUPANCY" }, { 0x23, 0x04, "QHL_OCCUPANCY" },
		{ 0x2c, 0x07, "IMC_NORMAL_READS" }, { 0x09, 0x01, "LLC_MISS" },
		{ 0x09, 0x04, "LLC_MISS" },
	};

	machine("gen=nhm-ep");
	program(0, e, 7);
	program(8, e, 7);
	traffic(0, MEM, PMON_SIM_LOAD, N);
	const uint64_t want0[] = { 0, 0, 0, 0, 0, N, 0 };
	expect(0, e, 7, want0, "remote stream, requester socket 0");
	const uint64_t want1[] = { N, 0, N * UCLK_OF(130), 0, N, 0, N };
	expect(8, e, 7, want1, "remote stream, home socket 1");
}

/* Streaming stores write whole lines (partial: part of one) at the home
 * without reading them: full or partial writes per channel. */
static void writes(void)
{
	const uint64_t N = 300;
	static const struct ev e[] = {
		{ 0x2f, 0x07, "IMC_WRITES" }, { 0x2f, 0x01, "IMC_WRITES" },
		{ 0x2f, 0x38, "IMC_WRITES" }, { 0x2f, 0x20, "IMC_WRITES" },
		{ 0x20, 0x30, "QHL_REQUESTS" }, { 0x2c, 0x07, "IMC_NORMAL_READS" },
		{ 0x03, 0x20, "GQ_ALLOC" }, { 0x64, 0x15, "DRAM_WRITE_CAS" },
	};
	static const struct ev r[] = {
		{ 0x20, 0x04, "QHL_REQUESTS" }, { 0x20, 0x08, "QHL_REQUESTS" },
		{ 0x23, 0x02, "QHL_OCCUPANCY" },
	};

	/* a local core's streaming store is the guide's InvItoE: a QHL read
	 * (LOCAL_READS), not a write-back (LOCAL_WRITES): QHL reads - IMC
	 * reads = the uncacheable writes (L1596-L1604, Table 39) */
	machine("gen=nhm-ep");
	program(0, e, 8);
	program(8, r, 3);
	traffic(0, 0, PMON_SIM_NT_STORE, N);
	const uint64_t want[] = { N, N / 3, 0, 0, N, 0, N, N };
	expect(0, e, 8, want, "NT stores");
	traffic(1, 64 * N, PMON_SIM_NT_PARTIAL, N);
	const uint64_t want2[] = { N, N / 3, N, N / 3, 2 * N, 0, 2 * N, 2 * N };
	expect(0, e, 8, want2, "then partial NT stores");
	CHECK_EQ_U64(rdmsr(0, PMC0 + 4) - rdmsr(0, PMC0 + 5), 2 * N,
		     "QHL reads - IMC reads = the uncacheable writes");
	/* from the other socket: REMOTE_READS (InvItoE) and REMOTE_WRITES */
	traffic(0, MEM, PMON_SIM_NT_STORE, N);
	const uint64_t want3[] = { N, N, 2 * N * UCLK_OF(130) };
	expect(8, r, 3, want3, "NT stores to socket 1's memory, at its QHL");
}

/* OFFCORE_RESPONSE_0 (0xB7, umask 1; USR and EN) on CPU 0's PMC0 with RSP
 * value rsp; n lines of kind at addr; its count. */
static uint64_t offcore(const char *spec, uint64_t rsp, uint64_t addr, enum pmon_sim_kind kind,
			uint64_t n)
{
	machine(spec);
	wrmsr_ok(0, 0x1a6, rsp);
	wrmsr_ok(0, 0x186, 0x01b7 | 1ull << 16 | EN);
	wrmsr_ok(0, 0x38f, 1);
	traffic(0, addr, kind, n);
	return rdmsr(0, 0xc1);
}

static void offcore_erratum(void)
{
	const uint64_t N = 240;

	/* the guide's erratum (on by default): local NT stores count under
	 * OTHER.LLC_OTHER_CORE_HIT (0x280), not OTHER.LOCAL_DRAM (0x4080) */
	CHECK_EQ_U64(offcore("gen=nhm-ep", 0x280, 0, PMON_SIM_NT_STORE, N), N,
		     "erratum on: 0x280 counts local NT stores");
	CHECK_EQ_U64(offcore("gen=nhm-ep", 0x4080, 0, PMON_SIM_NT_STORE, N), 0,
		     "erratum on: 0x4080 counts none");
	CHECK_EQ_U64(offcore("gen=nhm-ep,nt_erratum=off", 0x4080, 0, PMON_SIM_NT_STORE, N), N,
		     "erratum off: 0x4080 counts them, as documented");
	CHECK_EQ_U64(offcore("gen=nhm-ep,nt_erratum=off", 0x280, 0, PMON_SIM_NT_STORE, N), 0,
		     "erratum off: 0x280 counts none");
	CHECK_EQ_U64(offcore("gen=nhm-ep", 0x2080, MEM, PMON_SIM_NT_STORE, N), N,
		     "remote NT stores: OTHER.REMOTE_DRAM either way");
	CHECK_EQ_U64(offcore("gen=nhm-ep", 0x4001, 0, PMON_SIM_LOAD, N), N,
		     "DMND_DATA_RD.LOCAL_DRAM");
	CHECK_EQ_U64(offcore("gen=nhm-ep", 0x2001, 0, PMON_SIM_LOAD, N), 0,
		     "DMND_DATA_RD.REMOTE_DRAM: local reads are not");
	CHECK_EQ_U64(offcore("gen=nhm-ep", 0x2001, MEM, PMON_SIM_LOAD, N), N,
		     "DMND_DATA_RD.REMOTE_DRAM");
	CHECK_EQ_U64(offcore("gen=nhm-ep", 0x4002, 0, PMON_SIM_STORE, N), N,
		     "DMND_RFO.LOCAL_DRAM");
	/* Westmere-EP (wsm_dp): a local DRAM read is bit 12 */
	CHECK_EQ_U64(offcore("gen=wsm-ep", 0x1001, 0, PMON_SIM_LOAD, N), N,
		     "WSM-EP DMND_DATA_RD.LOCAL_DRAM_AND_REMOTE_CACHE_HIT");
}

/* Westmere-EP: six cores, its own code 0x02 (GC_OCCUPANCY, the read
 * tracker) and OFFCORE_RESPONSE_1 (0xBB) with RSP_1 (0x1A7). */
static void westmere(void)
{
	const uint64_t N = 600;
	static const struct ev e[] = {
		{ 0x2c, 0x07, "IMC_NORMAL_READS" }, { 0x02, 0x01, "GC_OCCUPANCY" },
		{ 0x20, 0x10, "QHL_REQUESTS" },
	};
	const uint64_t no_filt[2] = { 0, 0 }, bit14[2] = { 0x4001, 0 };

	machine("gen=wsm-ep");
	program(0, e, 3);
	wrmsr_ok(10, 0x1a7, 0x2001);          /* core 5: DMND_DATA_RD.REMOTE_DRAM */
	wrmsr_ok(10, 0x186, 0x01bb | 1ull << 16 | EN);
	wrmsr_ok(10, 0x38f, 1);
	traffic(10, 0, PMON_SIM_LOAD, N);     /* CPU 10: core 5 of socket 0 */
	const uint64_t want[] = { N, N * UCLK_OF(80), N };
	expect(0, e, 3, want, "WSM-EP local stream by core 5");
	CHECK_EQ_U64(rdmsr(10, 0xc1), 0, "RSP_1 remote DRAM: local reads are not");
	traffic(11, MEM, PMON_SIM_LOAD, N);   /* its sibling thread, remote lines */
	CHECK_EQ_U64(rdmsr(10, 0xc1), 0, "the sibling's reads: not without AnyThread");
	wrmsr_ok(10, 0x186, 0x01bb | 1ull << 16 | 1ull << 21 | EN);
	traffic(11, MEM + 64 * N, PMON_SIM_LOAD, N);
	CHECK_EQ_U64(rdmsr(10, 0xc1), N, "AnyThread: the sibling's remote reads, under the shared RSP_1");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "wsm_unc", 0x0102, no_filt), 1, "GC_OCCUPANCY");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "wsm_unc", 0x2002, no_filt), 0,
		     "0x02 umask 0x20: not Westmere's");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "core", 0x01bb, bit14), 0,
		     "RSP bit 14 (OTHER_LLC_MISS): meaning unsure, refused");
}

static void refused(void)
{
	const uint64_t no_filt[2] = { 0, 0 }, rsp[2] = { 0x4001, 0 };

	machine("gen=nhm-ep");
	/* the catalogue's question, answered by this machine */
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc", 0x072c, no_filt), 1, "NORMAL_READS.ANY");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc-fixed", 0, no_filt), 1, "UCLK");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc", 0x0120, no_filt), 0,
		     "QHL_REQUESTS.IOH_READS: no I/O hub traffic");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc", 0x0161, no_filt), 0,
		     "DRAM_PAGE_CLOSE: no idle page closing");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc", 0x0100, no_filt), 0,
		     "GQ_CYCLES_FULL: no cycle-by-cycle queue state");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc", 0x20000202ull, no_filt), 0,
		     "GQ_TRACKER_OCCUP.RT_LLC_MISS_FULL (cmask 32)");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc", 0x010b08ull, no_filt), 0,
		     "LLC_LINES_OUT.I_STATE alone");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "nhm_unc", 0x072c | 1u << 18, no_filt), 0,
		     "edge on a memory event");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "wsm_unc", 0x072c, no_filt), 0,
		     "the other generation's PMU");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "core", 0x01b7, rsp), 1, "OFFCORE_RESPONSE_0");
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "core", 0x01bb, rsp), 0,
		     "Nehalem has no OFFCORE_RESPONSE_1");
	const uint64_t nondram[2] = { 0x80ff, 0 };
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "core", 0x01b7, nondram), 0, "NON_DRAM only");
	const uint64_t ifetch[2] = { 0x4044, 0 };
	CHECK_EQ_INT(acc->ops->event_modeled(acc, "core", 0x01b7, ifetch), 0, "code reads only");
	/* the registers still count nothing for a refused event: IOH reads */
	wrmsr_ok(0, SEL0, 0x0120 | EN);
	wrmsr_ok(0, GLB, 1);
	traffic(0, 0, PMON_SIM_LOAD, 30);
	CHECK_EQ_U64(rdmsr(0, PMC0), 0, "IOH reads: none");
	/* SNB-EP's answers are unchanged by the generation's */
	CHECK_EQ_INT(pmon_sim_models("imc", 0x0104, 0), 1, "SNB-EP CAS_COUNT.RD");
}

int main(void)
{
	local_stream();
	trackers_and_hits();
	remote_stream();
	writes();
	offcore_erratum();
	westmere();
	refused();
	sim_teardown();
	return check_done("test_sim_nhm_events");
}
