/* test_pmon_sched_sim.c - through PAPI on the emulated machine, the
 * scheduling and filter cases that need the memory hierarchy's events:
 * CBo events with different node filters conflict (PAPI_ECNFLCT) and equal
 * ones share the filter; two counter-0-only occupancy events in one CBo
 * conflict (and do not in two CBos); a second offcore mask named
 * OFFCORE_RESPONSE_0 moves to RSP_1 (MSR 0x1A7, event select 0xBB), the
 * same mask named OFFCORE_RESPONSE_1 shares it, and a third distinct one on
 * the same CPU is refused.  What is added counts
 * exactly: expected values come from the traffic driven and the machine's
 * documented slice hash and latencies. */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "check.h"
#include "pmon/sim.h"

#define LOCAL0  0ull                   /* home socket 0 (node 0) */
#define REMOTE0 (32ull << 30)          /* home socket 1 (node 1) */

static int add(int es, const char *name)
{
	return PAPI_add_named_event(es, name);
}

/* Lines of [addr, addr + n*64) that the documented hash puts in slice k. */
static uint64_t in_slice(pmon_sim_t *sim, uint64_t addr, uint64_t n, int k)
{
	uint64_t c = 0;
	for (uint64_t i = 0; i < n; i++)
		c += pmon_sim_llc_slice(sim, addr + i * 64) == k;
	return c;
}

static void node_filters(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	long long v[2];
	const uint64_t n = 4000;

	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "create");
	CHECK_EQ_INT(add(es, "pmon:::snbep_unc_cbo0::UNC_C_TOR_INSERTS:NID_MISS_ALL:nf=2"), PAPI_OK,
		     "NID_MISS_ALL nf=2");
	CHECK_EQ_INT(add(es, "pmon:::snbep_unc_cbo0::UNC_C_TOR_INSERTS:NID_EVICTION:nf=1"),
		     PAPI_ECNFLCT, "a different node filter in the same CBo conflicts");
	CHECK_EQ_INT(add(es, "pmon:::snbep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:NID:nf=2"), PAPI_OK,
		     "the same node filter shares the register");
	CHECK_EQ_INT(PAPI_num_events(es), 2, "two events");
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	pmon_sim_traffic(sim, 0, LOCAL0, PMON_SIM_LOAD, n);
	pmon_sim_traffic(sim, 0, REMOTE0, PMON_SIM_LOAD, n);
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	uint64_t want = in_slice(sim, REMOTE0, n, 0);
	CHECK(want > 0, "some remote lines in slice 0");
	CHECK_EQ_U64((uint64_t)v[0], want, "TOR misses to node 1 in CBo 0 (new lines: all miss)");
	CHECK_EQ_U64((uint64_t)v[1], want, "LLC lookups to node 1 in CBo 0");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void occupancy_counter0(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	long long v[3];
	const uint64_t n = 3000;

	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "create");
	CHECK_EQ_INT(add(es, "pmon:::snbep_unc_cbo1::UNC_C_TOR_OCCUPANCY:MISS_ALL"), PAPI_OK,
		     "occupancy on counter 0");
	CHECK_EQ_INT(add(es, "pmon:::snbep_unc_cbo1::UNC_C_TOR_OCCUPANCY:EVICTION"), PAPI_ECNFLCT,
		     "a second counter-0-only event in the same CBo conflicts");
	CHECK_EQ_INT(add(es, "pmon:::snbep_unc_cbo2::UNC_C_TOR_OCCUPANCY:MISS_ALL"), PAPI_OK,
		     "another CBo has its own counter 0");
	CHECK_EQ_INT(add(es, "pmon:::snbep_unc_cbo1::UNC_C_TOR_INSERTS:MISS_ALL"), PAPI_OK,
		     "inserts beside it");
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	pmon_sim_traffic(sim, 0, LOCAL0 + (64ull << 20), PMON_SIM_LOAD, n);
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	/* local DRAM: 80 ns at 2.7 GHz UCLK = 216 cycles per miss */
	uint64_t m1 = in_slice(sim, LOCAL0 + (64ull << 20), n, 1);
	uint64_t m2 = in_slice(sim, LOCAL0 + (64ull << 20), n, 2);
	CHECK_EQ_U64((uint64_t)v[2], m1, "CBo 1 misses");
	CHECK_EQ_U64((uint64_t)v[0], 216 * m1, "CBo 1 occupancy: 216 UCLK a miss");
	CHECK_EQ_U64((uint64_t)v[1], 216 * m2, "CBo 2 occupancy");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* Did the last start write value to MSR msr of CPU 0 (mask: the bits
 * compared)? */
static int wrote_msr(pmon_sim_t *sim, uint32_t msr, uint64_t mask, uint64_t value)
{
	for (size_t i = 0; i < pmon_sim_log_count(sim); i++) {
		const struct pmon_sim_log_entry *le = pmon_sim_log_get(sim, i);
		if (le->op == PMON_SIM_MSR_WRITE && !le->status && le->cpu == 0 && le->msr == msr &&
		    (le->value & mask) == value)
			return 1;
	}
	return 0;
}

static void offcore_masks(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	long long v[4];

	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "create");
	CHECK_EQ_INT(add(es, "pmon:::snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PAPI_OK, "first mask (RSP_0)");
	CHECK_EQ_INT(add(es, "pmon:::snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PAPI_OK, "a second RSP_0 mask moves to RSP_1");
	CHECK_EQ_INT(add(es, "pmon:::snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PAPI_OK, "a second mask on RSP_1 (the same as the moved one: shared)");
	CHECK_EQ_INT(add(es, "pmon:::snb_ep::OFFCORE_RESPONSE_0:STRM_ST:NO_SUPP:SNP_NONE:cpu=0"),
		     PAPI_ECNFLCT, "a third distinct mask on one CPU is refused (RSP_0)");
	CHECK_EQ_INT(add(es, "pmon:::snb_ep::OFFCORE_RESPONSE_1:STRM_ST:NO_SUPP:SNP_NONE:cpu=0"),
		     PAPI_ECNFLCT, "a third distinct mask on one CPU is refused (RSP_1)");
	CHECK_EQ_INT(add(es, "pmon:::snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=2"),
		     PAPI_OK, "the same mask on another core is free");
	CHECK_EQ_INT(PAPI_num_events(es), 4, "four events");
	pmon_sim_log_set_cap(sim, 1u << 16);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	/* RSP bits: request 0 DMND_DATA_RD / 1 DMND_RFO, supplier 22 local
	 * DRAM, snoop 37:31 any; PERFEVTSEL: event select 7:0, enable 22 */
	CHECK(wrote_msr(sim, 0x1a6, ~0ull, 0x1ull | 1ull << 22 | 0x7full << 31), "RSP_0 = demand reads");
	CHECK(wrote_msr(sim, 0x1a7, ~0ull, 0x2ull | 1ull << 22 | 0x7full << 31), "RSP_1 = RFOs");
	int evsel_bb = 0;
	for (uint32_t c = 0; c < 4; c++)
		evsel_bb |= wrote_msr(sim, 0x186 + c, 0xff | 1ull << 22, 0xbb | 1ull << 22);
	CHECK(evsel_bb, "a counter of CPU 0 enabled with event select 0xBB");
	pmon_sim_log_set_cap(sim, 0);
	pmon_sim_traffic(sim, 0, LOCAL0 + (128ull << 20), PMON_SIM_LOAD, 700);
	pmon_sim_traffic(sim, 0, LOCAL0 + (160ull << 20), PMON_SIM_STORE, 300);
	pmon_sim_traffic(sim, 0, LOCAL0 + (192ull << 20), PMON_SIM_NT_STORE, 50);
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	CHECK_EQ_U64((uint64_t)v[0], 700, "demand reads from local DRAM");
	CHECK_EQ_U64((uint64_t)v[1], 300, "RFOs from local DRAM (moved to RSP_1)");
	CHECK_EQ_U64((uint64_t)v[2], 300, "RFOs from local DRAM (named on RSP_1, shared)");
	CHECK_EQ_U64((uint64_t)v[3], 0, "CPU 2 drove nothing");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	setenv("PMON_BACKEND", "sim", 1);
	setenv("PMON_QUIET", "1", 1);
	setenv("PMON_SIM", "clock=manual,prefetch=off", 1);    /* exact demand traffic */
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	int cid = PAPI_get_component_index("pmon");
	CHECK(cid >= 0, "pmon component compiled in (%d)", cid);
	pmon_sim_t *sim = pmon_sim_current();
	CHECK(sim != NULL, "the test sees the component's emulated machine");
	if (cid < 0 || !sim)
		return check_done("test_pmon_sched_sim");
	node_filters(sim);
	occupancy_counter0(sim);
	offcore_masks(sim);
	PAPI_shutdown();
	return check_done("test_pmon_sched_sim");
}
