/* test_rsp_session.c - offcore-response events sharing a CPU's two RSP
 * registers, counted on the emulated machine: a second mask is programmed in
 * MSR_OFFCORE_RSP_1 with event select 0xBB, an equal mask shares the
 * register that holds it, a third is refused; sessions running side by side
 * take the register the others leave free, share equal masks, are refused
 * (nothing written) when both hold other masks, and each register goes back
 * to its original value when its last user stops.  Expected counts come
 * from the traffic driven: a load of a line no cache holds, homed on the
 * CPU's socket, is one DMND_DATA_RD answered by local DRAM; a store to such
 * a line one DMND_RFO answered by local DRAM; a load of a fresh line homed
 * on the other socket one DMND_DATA_RD answered by remote DRAM. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim_machine.h"
#include "access.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

#define RSP0      0x1a6u
#define RSP1      0x1a7u
#define EVTSEL0   0x186u
#define EN        (1ull << 22)

/* RSP values (SNB-EP bits: request 0 DMND_DATA_RD, 1 DMND_RFO; supplier 22
 * local DRAM, 23-30 remote DRAM; snoop 31-37 any) */
#define SNP_ANY   (0x7full << 31)
#define MASK_A    ((1ull << 0) | (1ull << 22) | SNP_ANY)
#define MASK_B    ((1ull << 1) | (1ull << 22) | SNP_ANY)
#define MASK_R    ((1ull << 0) | (0xffull << 23) | SNP_ANY)
/* values found in the registers before (another agent's, to be restored) */
#define ORIG0     0x10001ull        /* DMND_DATA_RD | ANY_RESPONSE */
#define ORIG1     0x10004ull        /* DMND_IFETCH | ANY_RESPONSE */

#define A0 "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM"
#define A1 "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM"
#define B0 "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM"
#define R0 "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM"
#define R1 "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM"

static pmon_machine_t *m;
static pmon_sim_t *sim;
static struct pmon_access *a;
static char err[1024], op_why[256];
static uint64_t next_local = 512ull << 20, next_remote = 512ull << 20;

/* count lines no cache has seen, homed on socket 0 (local to CPUs 0, 1) or
 * socket 1 (remote) */
static uint64_t fresh_local(uint64_t count)
{
	uint64_t at = next_local;
	next_local += (count * 64 + 4095) / 4096 * 4096;
	return at;
}

static uint64_t fresh_remote(uint64_t count)
{
	uint64_t at = pmon_sim_shape(sim)->mem_bytes + next_remote;
	next_remote += (count * 64 + 4095) / 4096 * 4096;
	return at;
}

static void traffic(int cpu, uint64_t addr, enum pmon_sim_kind k, uint64_t n)
{
	CHECK_EQ_INT(pmon_sim_traffic(sim, cpu, addr, k, n), PMON_OK, "traffic");
}

static uint64_t rdmsr(int cpu, uint32_t msr)
{
	uint64_t v = 0;
	CHECK_EQ_INT(a->ops->msr_read(a, cpu, msr, &v, op_why, sizeof op_why), PMON_OK, op_why);
	return v;
}

static void wrmsr(int cpu, uint32_t msr, uint64_t v)
{
	CHECK_EQ_INT(a->ops->msr_write(a, cpu, msr, v, op_why, sizeof op_why), PMON_OK, op_why);
}

static int add(pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	int rc = pmon_machine_encode(m, name, &e, err, sizeof(err));
	if (!rc && (rc = pmon_session_add(s, &e)))
		snprintf(err, sizeof(err), "%s", pmon_session_errmsg(s));
	return rc;
}

/* The event select event i of s programs (its counter's control, enabled). */
static uint64_t evsel(pmon_session_t *s, int cpu, int i)
{
	uint64_t ctl = rdmsr(cpu, EVTSEL0 + (uint32_t)pmon_session_counter(s, i));
	CHECK(ctl & EN, "counter of event %d enabled (0x%llx)", i, (unsigned long long)ctl);
	return ctl & 0xff;
}

static void originals(void)
{
	for (int cpu = 0; cpu < 2; cpu++) {
		wrmsr(cpu, RSP0, ORIG0);
		wrmsr(cpu, RSP1, ORIG1);
	}
}

static void one_session(void)
{
	pmon_session_t *s;
	uint64_t v[4];
	const uint64_t nl = 1000, ns = 400, nr = 250;
	originals();
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	CHECK_EQ_INT(add(s, A0 ":cpu=0"), PMON_OK, err);
	CHECK_EQ_INT(add(s, B0 ":cpu=0"), PMON_OK, "a second mask on CPU 0 moves to RSP_1");
	CHECK_EQ_INT(add(s, A1 ":cpu=0"), PMON_OK, "the first mask named on RSP_1 shares RSP_0");
	CHECK_EQ_INT(add(s, R0 ":cpu=1"), PMON_OK, "the sibling thread has its own registers");
	CHECK_EQ_INT(add(s, R1 ":cpu=0"), PMON_ECONFLICT, "a third mask on CPU 0");
	CHECK(strstr(err, "0x3f80400001") && strstr(err, "0x3f80400002"), "names both masks in use: %s", err);
	CHECK_EQ_INT(pmon_session_count(s), 4, "four events");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(rdmsr(0, RSP0), MASK_A, "CPU 0 RSP_0: demand reads, local DRAM");
	CHECK_EQ_U64(rdmsr(0, RSP1), MASK_B, "CPU 0 RSP_1: RFOs, local DRAM");
	CHECK_EQ_U64(rdmsr(1, RSP0), MASK_R, "CPU 1 RSP_0: demand reads, remote DRAM");
	CHECK_EQ_U64(rdmsr(1, RSP1), ORIG1, "CPU 1 RSP_1 untouched");
	CHECK_EQ_U64(evsel(s, 0, 0), 0xb7, "event 0 selects OFFCORE_RESPONSE_0");
	CHECK_EQ_U64(evsel(s, 0, 1), 0xbb, "event 1 moved: selects OFFCORE_RESPONSE_1");
	CHECK_EQ_U64(evsel(s, 0, 2), 0xb7, "event 2 shares RSP_0: selects OFFCORE_RESPONSE_0");
	CHECK_EQ_U64(evsel(s, 1, 3), 0xb7, "event 3 on CPU 1's RSP_0");
	traffic(0, fresh_local(nl), PMON_SIM_LOAD, nl);
	traffic(0, fresh_local(ns), PMON_SIM_STORE, ns);
	traffic(1, fresh_remote(nr), PMON_SIM_LOAD, nr);
	traffic(0, fresh_remote(128), PMON_SIM_LOAD, 128);   /* no local mask matches */
	traffic(1, fresh_local(64), PMON_SIM_LOAD, 64);      /* CPU 1 counts remote only */
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], nl, "CPU 0 demand reads from local DRAM (RSP_0)");
	CHECK_EQ_U64(v[1], ns, "CPU 0 RFOs from local DRAM (moved to RSP_1)");
	CHECK_EQ_U64(v[2], nl, "the same reads through the shared RSP_0");
	CHECK_EQ_U64(v[3], nr, "CPU 1 demand reads from remote DRAM");
	CHECK_EQ_U64(rdmsr(0, RSP0), ORIG0, "CPU 0 RSP_0 restored");
	CHECK_EQ_U64(rdmsr(0, RSP1), ORIG1, "CPU 0 RSP_1 restored");
	CHECK_EQ_U64(rdmsr(1, RSP0), ORIG0, "CPU 1 RSP_0 restored");
	pmon_session_destroy(s);
}

static pmon_session_t *started(const char *name)
{
	pmon_session_t *s;
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	CHECK_EQ_INT(add(s, name), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	return s;
}

static void side_by_side(void)
{
	uint64_t va, vb, vd;
	originals();
	pmon_session_t *sa = started(A0 ":cpu=0");
	CHECK_EQ_U64(rdmsr(0, RSP0), MASK_A, "A holds RSP_0");
	pmon_session_t *sb = started(B0 ":cpu=0");
	CHECK_EQ_U64(rdmsr(0, RSP0), MASK_A, "RSP_0 left to A");
	CHECK_EQ_U64(rdmsr(0, RSP1), MASK_B, "B took the free RSP_1");
	CHECK_EQ_U64(evsel(sb, 0, 0), 0xbb, "B selects OFFCORE_RESPONSE_1");
	CHECK(pmon_session_counter(sa, 0) != pmon_session_counter(sb, 0), "A and B on different counters");

	/* a third mask: both registers are held by running sessions */
	pmon_session_t *sc;
	CHECK_EQ_INT(pmon_session_create(m, &sc), PMON_OK, "session");
	CHECK_EQ_INT(add(sc, R1 ":cpu=0"), PMON_OK, err);
	size_t writes = pmon_sim_log_writes(sim);
	CHECK_EQ_INT(pmon_session_start(sc), PMON_EBUSY, "a third mask while A and B run");
	CHECK(strstr(pmon_session_errmsg(sc), "0x3f80400001") && strstr(pmon_session_errmsg(sc), "0x3f80400002"),
	      "names both masks in use: %s", pmon_session_errmsg(sc));
	/* the offcore registers by name and address, each with its mask, and
	 * the mask wanted; not the wording of a shared box filter */
	CHECK(strstr(pmon_session_errmsg(sc), "MSR_OFFCORE_RSP_0 (MSR 0x1a6) = 0x3f80400001") &&
	      strstr(pmon_session_errmsg(sc), "MSR_OFFCORE_RSP_1 (MSR 0x1a7) = 0x3f80400002") &&
	      strstr(pmon_session_errmsg(sc), "holds the offcore-response registers") &&
	      strstr(pmon_session_errmsg(sc), "needs offcore-response mask 0x") &&
	      !strstr(pmon_session_errmsg(sc), "shared filter"),
	      "names the offcore registers and their masks: %s", pmon_session_errmsg(sc));
	CHECK_EQ_U64(pmon_sim_log_writes(sim), writes, "the refused start wrote nothing");
	pmon_session_destroy(sc);

	/* A's mask named on RSP_1: shares A's RSP_0 */
	pmon_session_t *sd = started(A1 ":cpu=0");
	CHECK_EQ_U64(evsel(sd, 0, 0), 0xb7, "D shares RSP_0: selects OFFCORE_RESPONSE_0");
	CHECK_EQ_U64(rdmsr(0, RSP0), MASK_A, "RSP_0 still A's mask");
	CHECK_EQ_U64(rdmsr(0, RSP1), MASK_B, "RSP_1 still B's mask");

	const uint64_t l1 = 600, s1 = 200, l2 = 100, s2 = 50, s3 = 30;
	traffic(0, fresh_local(l1), PMON_SIM_LOAD, l1);
	traffic(0, fresh_local(s1), PMON_SIM_STORE, s1);
	CHECK_EQ_INT(pmon_session_stop(sa, &va), PMON_OK, pmon_session_errmsg(sa));
	CHECK_EQ_U64(va, l1, "A: demand reads from local DRAM");
	CHECK_EQ_U64(rdmsr(0, RSP0), MASK_A, "RSP_0 stays for D after A stops");
	traffic(0, fresh_local(l2), PMON_SIM_LOAD, l2);
	traffic(0, fresh_local(s2), PMON_SIM_STORE, s2);
	CHECK_EQ_INT(pmon_session_stop(sd, &vd), PMON_OK, pmon_session_errmsg(sd));
	CHECK_EQ_U64(vd, l1 + l2, "D: demand reads through the shared RSP_0");
	CHECK_EQ_U64(rdmsr(0, RSP0), ORIG0, "RSP_0's last user restores it while B still runs");
	CHECK_EQ_U64(rdmsr(0, RSP1), MASK_B, "RSP_1 still B's");
	traffic(0, fresh_local(s3), PMON_SIM_STORE, s3);
	CHECK_EQ_INT(pmon_session_stop(sb, &vb), PMON_OK, pmon_session_errmsg(sb));
	CHECK_EQ_U64(vb, s1 + s2 + s3, "B: RFOs from local DRAM through RSP_1");
	CHECK_EQ_U64(rdmsr(0, RSP1), ORIG1, "RSP_1 restored by its last user");
	pmon_session_destroy(sa);
	pmon_session_destroy(sb);
	pmon_session_destroy(sd);

	/* the later user of a shared register stops first: the earlier one
	 * still restores the original, not the value the later one found */
	pmon_session_t *se = started(A0 ":cpu=0");
	pmon_session_t *sf = started(A1 ":cpu=0");
	CHECK_EQ_INT(pmon_session_stop(sf, &vd), PMON_OK, pmon_session_errmsg(sf));
	CHECK_EQ_U64(rdmsr(0, RSP0), MASK_A, "RSP_0 stays for the earlier session");
	CHECK_EQ_INT(pmon_session_stop(se, &va), PMON_OK, pmon_session_errmsg(se));
	CHECK_EQ_U64(rdmsr(0, RSP0), ORIG0, "the original comes back");
	CHECK_EQ_U64(rdmsr(0, RSP1), ORIG1, "RSP_1 never touched");
	pmon_session_destroy(se);
	pmon_session_destroy(sf);
}

int main(void)
{
	if (!(sim = sim_machine_open(&m, NULL, 1u << 16, err, sizeof(err))))
		return check_done("test_rsp_session");
	CHECK_EQ_INT(pmon_sim_access_open(&a, err, sizeof(err)), PMON_OK, err);
	one_session();
	side_by_side();
	a->ops->close(a);
	pmon_machine_close(m);
	return check_done("test_rsp_session");
}
