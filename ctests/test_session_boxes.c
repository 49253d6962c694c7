/* test_session_boxes.c - sessions over every box type of the emulated machine:
 * the clock events of each box count exactly in that box's clock; offcore
 * response counts through the core PMU; the scheduler places events by their
 * counter constraints (optimally) and refuses shared-filter conflicts; filter
 * registers are programmed while counting and restored afterwards. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim_machine.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

/* The reason a register access gives when it fails. */
static char op_why[256];

static pmon_machine_t *m;
static pmon_sim_t *sim;
static char err[512];

static uint64_t ticks(uint64_t ns, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)ns * hz / 1000000000u);
}

/* add through the machine (checks presence and modeling) */
static int add_m(pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	int rc = pmon_machine_encode(m, name, &e, err, sizeof(err));
	if (!rc && (rc = pmon_session_add(s, &e)))
		snprintf(err, sizeof(err), "%s", pmon_session_errmsg(s));
	return rc;
}

/* add an encoding without the emulator's modeling check: for scheduling and
 * register-programming checks of events the emulator does not drive */
static int add_raw(pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	int rc = pmon_encode(name, 2, 32, &e, err, sizeof(err));
	if (!rc && (rc = pmon_session_add(s, &e)))
		snprintf(err, sizeof(err), "%s", pmon_session_errmsg(s));
	return rc;
}

static void clocks_of_every_box(void)
{
	const struct pmon_sim_shape *sh = pmon_sim_shape(sim);
	struct { const char *name; uint64_t hz; } ev[] = {
		{ "snbep_unc_cbo3::UNC_C_CLOCKTICKS:socket=1", sh->uclk_hz },
		{ "snbep_unc_ha::UNC_H_CLOCKTICKS:socket=0", sh->uclk_hz },
		{ "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=1", sh->pclk_hz },
		{ "snbep_unc_qpi1::UNC_Q_CLOCKTICKS:socket=0", sh->qclk_hz },
		{ "snbep_unc_r2pcie::UNC_R2_CLOCKTICKS:socket=1", sh->uclk_hz },
		{ "snbep_unc_r3qpi1::UNC_R3_CLOCKTICKS:socket=0", sh->uclk_hz },
		{ "snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=0", sh->uclk_hz },
		{ "snbep_unc_imc3::UNC_M_CLOCKTICKS:socket=1", sh->dclk_hz },
	};
	const int n = (int)(sizeof(ev) / sizeof(ev[0]));
	pmon_session_t *s;
	uint64_t v[8];
	pmon_session_create(m, &s);
	for (int i = 0; i < n; i++)
		CHECK_EQ_INT(add_m(s, ev[i].name), PMON_OK, err);
	uint64_t t0 = pmon_sim_now_ns(sim);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	pmon_sim_advance_ns(sim, 3333333);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, "read");
	uint64_t t1 = pmon_sim_now_ns(sim);
	for (int i = 0; i < n; i++)
		CHECK_EQ_U64(v[i], ticks(t1, ev[i].hz) - ticks(t0, ev[i].hz), ev[i].name);
	/* e=1:t=1 on a clock: the test turns true once, at the start */
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, "stop");
	pmon_session_destroy(s);
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add_m(s, "snbep_unc_ha::UNC_H_CLOCKTICKS:e=1:t=1"), PMON_OK, err);
	CHECK_EQ_INT(add_m(s, "snbep_unc_ha::UNC_H_CLOCKTICKS:t=2"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, "stop");
	CHECK_EQ_U64(v[1], 0, "threshold 2 on a 1-per-cycle clock never passes");
	CHECK(v[0] <= 1, "edge on a steady clock counts at most one transition (%llu)",
	      (unsigned long long)v[0]);
	pmon_session_destroy(s);
}

static void offcore(void)
{
	pmon_session_t *s;
	uint64_t v[3];
	struct pmon_access *a;
	uint64_t global_before, global_after, rsp_before, rsp_after;
	CHECK_EQ_INT(pmon_sim_access_open(&a, err, sizeof(err)), PMON_OK, err);
	a->ops->msr_read(a, 0, 0x38f, &global_before, op_why, sizeof op_why);
	a->ops->msr_read(a, 0, 0x1a6, &rsp_before, op_why, sizeof op_why);
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add_m(s, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PMON_OK, err);
	CHECK_EQ_INT(add_m(s, "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM:cpu=0"),
		     PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t rsp;
	a->ops->msr_read(a, 0, 0x1a6, &rsp, op_why, sizeof op_why);
	CHECK_EQ_U64(rsp, 0x3f80400001ull, "RSP_0 while counting: demand data read, local DRAM, any snoop");
	const struct pmon_sim_shape *sh = pmon_sim_shape(sim);
	pmon_sim_traffic(sim, 0, 0x100000, PMON_SIM_LOAD, 1000);                 /* local loads */
	pmon_sim_traffic(sim, 0, sh->mem_bytes + 0x100000, PMON_SIM_LOAD, 300);  /* remote loads */
	pmon_sim_traffic(sim, 0, 0x900000, PMON_SIM_STORE, 500);                 /* RFOs: not counted */
	pmon_sim_traffic(sim, 2, 0x100000, PMON_SIM_LOAD, 700);                  /* another core */
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, "stop");
	CHECK_EQ_U64(v[0], 1000, "local DRAM demand reads of CPU 0");
	CHECK_EQ_U64(v[1], 300, "remote DRAM demand reads of CPU 0");
	a->ops->msr_read(a, 0, 0x38f, &global_after, op_why, sizeof op_why);
	a->ops->msr_read(a, 0, 0x1a6, &rsp_after, op_why, sizeof op_why);
	CHECK_EQ_U64(global_after, global_before, "IA32_PERF_GLOBAL_CTRL restored");
	/* another agent's enable bits (a fixed counter, PMC 3) survive start and stop */
	pmon_session_destroy(s);
	a->ops->msr_write(a, 0, 0x38f, 0x200000008ull, op_why, sizeof op_why);
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add_m(s, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	a->ops->msr_read(a, 0, 0x38f, &global_after, op_why, sizeof op_why);
	CHECK_EQ_U64(global_after, 0x200000009ull, "our PMC 0 enabled beside the others' bits");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, "stop");
	a->ops->msr_read(a, 0, 0x38f, &global_after, op_why, sizeof op_why);
	CHECK_EQ_U64(global_after, 0x200000008ull, "only our bit cleared on stop");
	a->ops->msr_write(a, 0, 0x38f, global_before, op_why, sizeof op_why);
	CHECK_EQ_U64(rsp_after, rsp_before, "MSR_OFFCORE_RSP_0 restored");
	pmon_session_destroy(s);
	a->ops->close(a);
}

static void scheduling(void)
{
	pmon_session_t *s;
	pmon_session_create(m, &s);
	/* optimal matching: LLC_VICTIMS may use 0-1, TOR_OCCUPANCY only 0 */
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo1::UNC_C_LLC_VICTIMS:M_STATE"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo1::UNC_C_TOR_OCCUPANCY:ALL"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_counter(s, 0), 1, "LLC_VICTIMS moved to counter 1");
	CHECK_EQ_INT(pmon_session_counter(s, 1), 0, "TOR_OCCUPANCY on counter 0");
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo1::UNC_C_RING_AD_USED:UP_EVEN"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo1::UNC_C_COUNTER0_OCCUPANCY:t=1"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo1::UNC_C_CLOCKTICKS"), PMON_ECONFLICT, "fifth event");
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo2::UNC_C_CLOCKTICKS"), PMON_OK, "another CBo is free");
	pmon_session_clear(s);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo1::UNC_C_TOR_OCCUPANCY:ALL"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo1::UNC_C_RXR_OCCUPANCY:IRQ"), PMON_ECONFLICT,
		     "two counter-0-only events");
	/* CBo filter fields are shared per box */
	pmon_session_clear(s);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo4::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo4::UNC_C_LLC_LOOKUP:WRITE:STATE_M"), PMON_OK,
		     "same state filter shares");
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo4::UNC_C_LLC_LOOKUP:WRITE:STATE_I"), PMON_ECONFLICT,
		     "different state filter");
	CHECK(strstr(err, "'state'") != NULL, "the refusal names the field: %s", err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo5::UNC_C_LLC_LOOKUP:WRITE:STATE_I"), PMON_OK,
		     "another box has its own filter");
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo4::UNC_C_LLC_LOOKUP:WRITE:STATE_I:socket=1"), PMON_OK,
		     "the same box on another socket has its own filter");
	/* PCU bands: each band event owns one byte */
	pmon_session_clear(s);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=10"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_pcu::UNC_P_FREQ_BAND1_CYCLES:ff=20"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=10:e=1:t=1"), PMON_OK,
		     "same band value shares");
	CHECK_EQ_INT(add_raw(s, "snbep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=12"), PMON_ECONFLICT,
		     "band 0 holds 10 already");
	/* QPI match/mask is one setting per port */
	pmon_session_clear(s);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_qpi0::UNC_Q_CTO_COUNT:match_opc=1:mask_opc=15"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_qpi0::UNC_Q_CTO_COUNT:match_opc=1:mask_opc=15:t=1"), PMON_OK,
		     "identical match shares");
	CHECK_EQ_INT(add_raw(s, "snbep_unc_qpi0::UNC_Q_CTO_COUNT:match_vnw=1:mask_vnw=3"),
		     PMON_ECONFLICT, "different match on one port");
	CHECK_EQ_INT(add_raw(s, "snbep_unc_qpi1::UNC_Q_CTO_COUNT:match_vnw=1:mask_vnw=3"), PMON_OK,
		     "the other port");
	/* on Sandy Bridge with hyperthreading each logical CPU has its own offcore
	 * MSRs (on Nehalem/Westmere the two threads of a core share them) */
	pmon_session_clear(s);
	CHECK_EQ_INT(add_raw(s, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PMON_OK, "one CPU, a second RSP_0 value: moves to the free RSP_1");
	CHECK_EQ_INT(add_raw(s, "snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PMON_OK, "RSP_1 holds the same value: shared");
	CHECK_EQ_INT(add_raw(s, "snb_ep::OFFCORE_RESPONSE_1:DMND_IFETCH:LLC_MISS_LOCAL_DRAM:cpu=0"),
		     PMON_ECONFLICT, "one CPU, a third RSP value");
	CHECK(strstr(err, "MSR_OFFCORE_RSP_0") && strstr(err, "MSR_OFFCORE_RSP_1"),
	      "names the registers: %s", err);
	CHECK_EQ_INT(add_raw(s, "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM:cpu=1"),
		     PMON_OK, "the sibling thread has its own RSP_0");
	pmon_session_destroy(s);
}

/* The CBo filter and PCU band filter are written while counting and restored. */
static void filters_programmed(void)
{
	struct pmon_access *a;
	pmon_session_t *s;
	uint64_t x, cbo_before, pcu_before;
	const uint32_t cbo3_filter = 0xd14 + 3 * 0x20;
	int cpu_s1 = pmon_machine_socket_cpu(m, 1);
	CHECK_EQ_INT(pmon_sim_access_open(&a, err, sizeof(err)), PMON_OK, err);
	a->ops->msr_write(a, cpu_s1, cbo3_filter, 0x1f << 18, op_why, sizeof op_why);   /* left by another agent */
	a->ops->msr_read(a, cpu_s1, cbo3_filter, &cbo_before, op_why, sizeof op_why);
	a->ops->msr_read(a, 0, 0xc34, &pcu_before, op_why, sizeof op_why);
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_cbo3::UNC_C_LLC_LOOKUP:NID:STATE_M:nf=3:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(s, "snbep_unc_pcu::UNC_P_FREQ_BAND2_CYCLES:ff=27:socket=0"), PMON_OK, err);
	size_t log0 = pmon_sim_log_count(sim);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	a->ops->msr_read(a, cpu_s1, cbo3_filter, &x, op_why, sizeof op_why);
	CHECK_EQ_U64(x, 0x200c00, "CBo 3 filter: state M, nodes 0-1");
	a->ops->msr_read(a, cpu_s1, 0xd10 + 3 * 0x20 + (uint32_t)pmon_session_counter(s, 0), &x, op_why, sizeof op_why);
	CHECK_EQ_U64(x, 0x404334, "CBo 3 control: LLC_LOOKUP NID with enable");
	a->ops->msr_read(a, 0, 0xc34, &x, op_why, sizeof op_why);
	CHECK_EQ_U64(x, 27u << 16, "PCU band 2 = 2.7 GHz");
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, "stop");
	a->ops->msr_read(a, cpu_s1, cbo3_filter, &x, op_why, sizeof op_why);
	CHECK_EQ_U64(x, cbo_before, "CBo filter restored");
	a->ops->msr_read(a, 0, 0xc34, &x, op_why, sizeof op_why);
	CHECK_EQ_U64(x, pcu_before, "PCU filter restored");
	size_t refused = 0;
	for (size_t i = log0; i < pmon_sim_log_count(sim); i++)
		refused += pmon_sim_log_get(sim, i)->status != 0;
	CHECK_EQ_INT((int)refused, 0, "no access refused by the emulator");
	pmon_session_destroy(s);
	a->ops->msr_write(a, cpu_s1, cbo3_filter, 0, op_why, sizeof op_why);
	a->ops->close(a);
}

/* A second session never takes over a running one's counters or filters. */
static void two_sessions(void)
{
	pmon_session_t *a, *b;
	uint64_t va[1], vb[1];
	size_t w0;
	pmon_session_create(m, &a);
	pmon_session_create(m, &b);
	CHECK_EQ_INT(add_m(a, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(add_m(b, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:t=2:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(a), PMON_OK, pmon_session_errmsg(a));
	w0 = pmon_sim_log_writes(sim);
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, "b moves to a free counter");
	CHECK(pmon_session_counter(b, 0) != pmon_session_counter(a, 0), "different counters (%d, %d)",
	      pmon_session_counter(a, 0), pmon_session_counter(b, 0));
	pmon_session_stop(b, NULL);
	/* with every counter of the box taken, b is refused before any write */
	pmon_session_t *c;
	pmon_session_create(m, &c);
	CHECK_EQ_INT(add_m(c, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:t=1:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(add_m(c, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:t=3:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(add_m(c, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:t=4:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(c), PMON_OK, pmon_session_errmsg(c));
	w0 = pmon_sim_log_writes(sim);
	CHECK_EQ_INT(pmon_session_start(b), PMON_EBUSY, "no counter left");
	CHECK(strstr(pmon_session_errmsg(b), "in use by another agent") != NULL, "message: %s",
	      pmon_session_errmsg(b));
	CHECK_EQ_U64(pmon_sim_log_writes(sim), w0, "the refused start wrote nothing");
	pmon_session_destroy(c);
	uint64_t t0 = pmon_sim_now_ns(sim);
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_read(a, va), PMON_OK, "read a");
	CHECK_EQ_U64(va[0], ticks(pmon_sim_now_ns(sim), pmon_sim_shape(sim)->uclk_hz) -
		     ticks(t0, pmon_sim_shape(sim)->uclk_hz), "a keeps counting");
	pmon_session_stop(a, NULL);
	/* filters: b may share a's CBo state filter value, and keeps it after a stops */
	pmon_session_clear(a);
	pmon_session_clear(b);
	CHECK_EQ_INT(add_raw(a, "snbep_unc_cbo6::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M"), PMON_OK, err);
	CHECK_EQ_INT(add_raw(b, "snbep_unc_cbo6::UNC_C_LLC_LOOKUP:WRITE:STATE_I"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(a), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_session_start(b), PMON_EBUSY, "state filter held with another value");
	CHECK(strstr(pmon_session_errmsg(b), "'state'") != NULL, "names the field: %s", pmon_session_errmsg(b));
	pmon_session_clear(b);
	CHECK_EQ_INT(add_raw(b, "snbep_unc_cbo6::UNC_C_LLC_LOOKUP:WRITE:STATE_M"), PMON_OK, err);
	struct pmon_access *acc;
	uint64_t f;
	pmon_sim_access_open(&acc, err, sizeof(err));
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, pmon_session_errmsg(b));
	pmon_session_stop(a, va);
	acc->ops->msr_read(acc, 0, 0xd14 + 6 * 0x20, &f, op_why, sizeof op_why);
	CHECK_EQ_U64(f, 0x200000, "the filter stays for b after a stops");
	pmon_session_stop(b, vb);
	acc->ops->msr_read(acc, 0, 0xd14 + 6 * 0x20, &f, op_why, sizeof op_why);
	CHECK_EQ_U64(f, 0, "the last user restores the original filter");
	acc->ops->close(acc);
	pmon_session_destroy(a);
	pmon_session_destroy(b);
}

int main(void)
{
	/* the checks read the access log */
	if (!(sim = sim_machine_open(&m, NULL, 1u << 16, err, sizeof(err))))
		return check_done("test_session_boxes");
	clocks_of_every_box();
	offcore();
	scheduling();
	filters_programmed();
	two_sessions();
	pmon_machine_close(m);
	return check_done("test_session_boxes");
}
