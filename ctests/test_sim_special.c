/*
 * test_sim_special.c - the rare access kinds (include/pmon/sim.h):
 * partial streaming stores (NT_PARTIAL) and split locks (SPLIT_LOCK), their
 * exact counts in the registers that see them and in the ground truth, and
 * the argument checks of the three traffic calls.
 *
 * A partial streaming store of a line of the issuing socket's memory: the
 * home agent writes part of a line (IMC_WRITES.PARTIAL, never FULL), the
 * iMC reads the line first (CAS_COUNT.RD_UNDERFILL) and writes it (one
 * write CAS, one WPQ insert; no RPQ insert, no regular read); the CBo's
 * TOR sees opcode WCiL (0x18D); offcore STREAMING_STORES.  A split lock:
 * one UBox LOCK_CYCLES in the issuing socket, none in the other, and a
 * store to each of its two lines.
 */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define BUS0 0x3f
#define BUS1 0x7f
#define HA_DEV 14
#define HA_FN 1
#define U_CTL0 0xC10
#define U_CTR0 0xC16

#define CAS_RD_REG   0x400104u
#define CAS_RD_UNDER 0x400204u
#define CAS_WR       0x400C04u
#define RPQ          0x400010u
#define IMC_WR_FULL  0x40011Au
#define IMC_WR_PART  0x40021Au
#define LOCK_CYCLES  0x400044u
#define STRM_ST_ANY  0x000010800ull

static void imc_prog(int bus, int ch, const uint32_t *ctl, int n)
{
	for (uint32_t off = 0xA0; off < 0xC0; off += 4)
		pci_wr(imc(bus, ch), off, 0);
	for (int i = 0; i < n; i++)
		pci_wr_ok(imc(bus, ch), 0xD8 + 4u * (uint32_t)i, ctl[i]);
}

static uint64_t imc_ctr(int bus, int ch, int i)
{
	return pci_rd64(imc(bus, ch), 0xA0 + 8u * (uint32_t)i);
}

static void ha_prog(int bus, uint32_t c0, uint32_t c1)
{
	for (uint32_t off = 0xA0; off < 0xC0; off += 4)
		wr(bus, HA_DEV, HA_FN, off, 0);
	wr_ok(bus, HA_DEV, HA_FN, 0xD8, c0);
	wr_ok(bus, HA_DEV, HA_FN, 0xDC, c1);
}

static uint64_t ha_ctr(int bus, int i)
{
	return pci_rd64(at(bus, HA_DEV, HA_FN), 0xA0 + 8u * (uint32_t)i);
}

/* 256 partial streaming stores by CPU 0 to 256 consecutive lines of socket
 * 0 (4 pages): 64 per channel. */
static void partial_local(void)
{
	enum { N = 256 };
	static const uint32_t ctl[4] = { CAS_RD_UNDER, CAS_RD_REG, CAS_WR, RPQ };
	uint64_t va;

	machine(NULL);
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, N * 64, PMON_SIM_ON_SOCKET, 0, &va), 0, "alloc");
	for (int ch = 0; ch < 4; ch++)
		imc_prog(BUS0, ch, ctl, 4);
	ha_prog(BUS0, IMC_WR_PART, IMC_WR_FULL);
	wrmsr_ok(0, 0x1A6, STRM_ST_ANY);
	wrmsr_ok(0, 0x186, 0x4101B7u);
	wrmsr_ok(0, 0x38F, 0xF);
	/* CBo TOR_INSERTS.MISS_OPCODE with opcode WCiL, and with WCiLF, in
	 * every CBo of socket 0 (filter opcode 31:23) */
	for (uint32_t b = 0; b < 8; b++) {
		wrmsr_ok(0, 0xD14 + 0x20 * b, 0x18dull << 23);
		wrmsr_ok(0, 0xD10 + 0x20 * b, 0x400335);
	}
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 0, va, PMON_SIM_NT_PARTIAL, N), 0, "partial stores");
	for (int ch = 0; ch < 4; ch++) {
		CHECK_EQ_U64(imc_ctr(BUS0, ch, 0), N / 4, "RD_UNDERFILL: one per partial line");
		CHECK_EQ_U64(imc_ctr(BUS0, ch, 1), 0, "no regular read CAS");
		CHECK_EQ_U64(imc_ctr(BUS0, ch, 2), N / 4, "one write CAS per partial line");
		CHECK_EQ_U64(imc_ctr(BUS0, ch, 3), 0, "the underfill is no RPQ insert");
		struct pmon_sim_truth t;
		pmon_sim_channel_truth(sim, 0, ch, &t);
		CHECK_EQ_U64(t.cas_rd_under, N / 4, "truth: underfill reads");
		CHECK_EQ_U64(t.cas_rd, 0, "truth: no regular reads");
		CHECK_EQ_U64(t.cas_wr, N / 4, "truth: writes");
	}
	CHECK_EQ_U64(ha_ctr(BUS0, 0), N, "HA IMC_WRITES.PARTIAL");
	CHECK_EQ_U64(ha_ctr(BUS0, 1), 0, "HA IMC_WRITES.FULL: none");
	struct pmon_sim_ha_truth h;
	CHECK_EQ_INT(pmon_sim_ha_truth(sim, 0, &h), 0, "ha truth");
	CHECK_EQ_U64(h.imc_writes_partial, N, "truth: partial writes");
	CHECK_EQ_U64(h.imc_writes, 0, "truth: no full-line writes");
	CHECK_EQ_U64(rdmsr(0, 0xC1), N, "offcore STREAMING_STORES");
	uint64_t tor = 0;
	for (uint32_t b = 0; b < 8; b++)
		tor += rdmsr(0, 0xD16 + 0x20 * b);
	CHECK_EQ_U64(tor, N, "TOR_INSERTS.MISS_OPCODE WCiL: one per partial line");
	for (uint32_t b = 0; b < 8; b++) {
		wrmsr_ok(0, 0xD16 + 0x20 * b, 0);
		wrmsr_ok(0, 0xD14 + 0x20 * b, 0x18cull << 23);
	}
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 0, va, PMON_SIM_NT_PARTIAL, 8), 0, "8 more");
	tor = 0;
	for (uint32_t b = 0; b < 8; b++)
		tor += rdmsr(0, 0xD16 + 0x20 * b);
	CHECK_EQ_U64(tor, 0, "... none with the full line's opcode WCiLF");
	uint64_t base_part = ha_ctr(BUS0, 0);
	CHECK_EQ_U64(base_part, N + 8, "HA IMC_WRITES.PARTIAL + 8");
	struct pmon_sim_cpu_truth ct;
	pmon_sim_cpu_truth(sim, 0, &ct);
	CHECK_EQ_U64(ct.nt_local, N + 8, "cpu truth: streaming stores (partial ones)");

	/* the same through the reference list, mixed with loads of the
	 * region's other lines: 64 partial, 64 loads */
	uint64_t refs[128];
	for (int i = 0; i < 64; i++) {
		refs[2 * i] = (va + 64u * (uint64_t)i) | PMON_SIM_NT_PARTIAL;
		refs[2 * i + 1] = (va + 64u * (uint64_t)(64 + i)) | PMON_SIM_LOAD;
	}
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, refs, 128), 0, "mixed references");
	CHECK_EQ_U64(ha_ctr(BUS0, 0), N + 8 + 64, "HA IMC_WRITES.PARTIAL +64");
	uint64_t under = 0, rd = 0;
	for (int ch = 0; ch < 4; ch++) {
		under += imc_ctr(BUS0, ch, 0);
		rd += imc_ctr(BUS0, ch, 1);
	}
	CHECK_EQ_U64(under, N + 8 + 64, "underfill reads +64");
	CHECK_EQ_U64(rd, 64, "the 64 loads read DRAM (their lines were written, not cached)");
}

/* A partial store to another socket's memory is refused; the refs check. */
static void partial_refused(void)
{
	uint64_t va, vr, h0;
	struct pmon_sim_ha_truth h;

	machine(NULL);
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 4096, PMON_SIM_ON_SOCKET, 1, &vr), 0, "remote");
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 4096, PMON_SIM_ON_SOCKET, 0, &va), 0, "local");
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 0, vr, PMON_SIM_NT_PARTIAL, 1), PMON_EINVAL,
		     "partial store to socket 1's memory from socket 0: not modeled");
	pmon_sim_ha_truth(sim, 1, &h);
	CHECK_EQ_U64(h.imc_writes + h.imc_writes_partial, 0, "nothing written at the remote home");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 32ull << 30, PMON_SIM_NT_PARTIAL, 1), PMON_EINVAL,
		     "the same by physical address");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 16, 32ull << 30, PMON_SIM_NT_PARTIAL, 1), 0,
		     "socket 1's CPU to its own memory");
	pmon_sim_ha_truth(sim, 1, &h);
	CHECK_EQ_U64(h.imc_writes_partial, 1, "written at home");
	uint64_t bad = va | 5;
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, &bad, 1), PMON_EINVAL, "kind 5");
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 0, va, (enum pmon_sim_kind)5, 1), PMON_EINVAL,
		     "kind 5 (vtraffic)");
	pmon_sim_ha_truth(sim, 0, &h);
	h0 = h.imc_writes_partial;
	uint64_t two[2] = { va | PMON_SIM_NT_PARTIAL, (va + 8192) | PMON_SIM_LOAD };
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, two, 2), PMON_ERANGE,
		     "a reference outside the regions");
	pmon_sim_ha_truth(sim, 0, &h);
	CHECK_EQ_U64(h.imc_writes_partial, h0, "nothing modelled before the check failed");
}

/* 100 split locks by CPU 2 (socket 0), a page's last line among them. */
static void split_locks(void)
{
	enum { N = 100 };
	uint64_t va, n;

	machine(NULL);
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 2 * 4096, PMON_SIM_ON_SOCKET, 0, &va), 0, "alloc");
	wrmsr_ok(0, U_CTL0, LOCK_CYCLES);
	wrmsr_ok(0, U_CTL0 + 1, 0x400144u);                     /* umask 1: not modeled */
	wrmsr_ok(16, U_CTL0, LOCK_CYCLES);
	uint64_t refs[N];
	for (int i = 0; i < N; i++)                             /* lines 0..62, 63 (page end) */
		refs[i] = (va + 64u * (uint64_t)(i % 64)) | PMON_SIM_SPLIT_LOCK;
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 2, refs, N), 0, "split locks");
	CHECK_EQ_U64(rdmsr(0, U_CTR0), N, "UBox LOCK_CYCLES: one per split lock");
	CHECK_EQ_U64(rdmsr(0, U_CTR0 + 1), 0, "LOCK_CYCLES with a umask counts nothing");
	CHECK_EQ_U64(rdmsr(16, U_CTR0), 0, "socket 1's UBox: none");
	CHECK_EQ_INT(pmon_sim_ubox_locks(sim, 0, &n), 0, "lock truth");
	CHECK_EQ_U64(n, N, "truth: socket 0's sequences");
	pmon_sim_ubox_locks(sim, 1, &n);
	CHECK_EQ_U64(n, 0, "truth: socket 1's");
	CHECK_EQ_INT(pmon_sim_ubox_locks(sim, 2, &n), PMON_EINVAL, "no socket 2");
	struct pmon_sim_cpu_truth ct;
	pmon_sim_cpu_truth(sim, 2, &ct);
	CHECK_EQ_U64(ct.store_local, 2 * N, "a store to each of the two lines");
	/* ordinary stores and loads start no sequence */
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 2, va, PMON_SIM_STORE, 128), 0, "stores");
	CHECK_EQ_U64(rdmsr(0, U_CTR0), N, "stores: no lock sequence");
	/* physical: 3 locks by socket 1's CPU 17 */
	CHECK_EQ_INT(pmon_sim_traffic(sim, 17, (32ull << 30) + 4096, PMON_SIM_SPLIT_LOCK, 3), 0,
		     "physical split locks");
	CHECK_EQ_U64(rdmsr(16, U_CTR0), 3, "socket 1's UBox: 3");
	CHECK_EQ_U64(rdmsr(0, U_CTR0), N, "socket 0's unchanged");
	/* the next line must exist: the region's last line, the memory's last */
	uint64_t last = (va + 2 * 4096 - 64) | PMON_SIM_SPLIT_LOCK;
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 2, &last, 1), PMON_ERANGE,
		     "a split lock on the region's last line");
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 2, va + 2 * 4096 - 128, PMON_SIM_SPLIT_LOCK, 2),
		     PMON_ERANGE, "the same by count");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, (64ull << 30) - 64, PMON_SIM_SPLIT_LOCK, 1),
		     PMON_ERANGE, "the memory's last line");
	CHECK_EQ_U64(rdmsr(0, U_CTR0), N, "refused calls start no sequence");
}

int main(void)
{
	partial_local();
	partial_refused();
	split_locks();
	sim_teardown();
	return check_done("test_sim_special");
}
