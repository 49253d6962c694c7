/*
 * test_nhm_fold_sim.c - wrap folding over any gap for a PMU under global
 * control (issue 20 item 3): the emulated Nehalem-EP (PMON_SIM=gen=nhm-ep,
 * clock=manual), the same harness as test_fold_sim's for SNB-EP.
 *
 * The uncore's fixed counter (48 bits, UCLK) is started, emulated time moves
 * on by 0.5, 1.5, 3.7 and 100 of its wrap periods in ONE advance, and the
 * only read returns floor(T * uclk / 1e9) exactly; the machine's fold tick
 * runs inside the advance.  Advancing "stopped" (no fold: the process was
 * stopped) by more than the bound gives PMON_ESTALE, never a number; a
 * reset counts again.  While counting, the global control holds the
 * session's enable bit (bit 32); after the stop it is clear again.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"
#include "fold.h"

static pmon_machine_t *m;
static pmon_sim_t *sim;
static struct pmon_access *raw;
static char err[512];

#define UCLK "nhm_unc::UNC_CLK_UNHALTED:socket=1"

static uint64_t uclk_ticks(uint64_t t0, uint64_t t1)
{
	uint64_t hz = pmon_sim_shape(sim)->uclk_hz;
	return (uint64_t)((unsigned __int128)t1 * hz / 1000000000u) -
	       (uint64_t)((unsigned __int128)t0 * hz / 1000000000u);
}

static uint64_t glb(int socket)
{
	uint64_t v = ~0ull;
	raw->ops->msr_read(raw, pmon_machine_socket_cpu(m, socket), 0x391, &v, NULL, 0);
	return v;
}

static pmon_session_t *session_of(const char *ev)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	pmon_session_create(m, &s);
	CHECK_EQ_INT(pmon_machine_encode(m, ev, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	return s;
}

static void gap(double periods)
{
	pmon_session_t *s = session_of(UCLK);
	uint64_t hz = pmon_sim_shape(sim)->uclk_hz, v = 0;
	uint64_t wrap_ns = (uint64_t)((double)(1ull << 48) / (double)hz * 1e9);
	uint64_t dt = (uint64_t)(periods * (double)wrap_ns);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(glb(1) & (1ull << 32), 1ull << 32, "the fixed counter enabled in 0x391");
	CHECK_EQ_U64(glb(0), 0, "socket 0's global control untouched");
	uint64_t t0 = pmon_sim_now_ns(sim);
	pmon_sim_advance_ns(sim, dt);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_OK, pmon_session_errmsg(s));
	uint64_t want = uclk_ticks(t0, t0 + dt);
	CHECK(v == want, "%.1f wrap periods of 48 bits: got %llu, want %llu", periods,
	      (unsigned long long)v, (unsigned long long)want);
	CHECK((double)want > periods * (double)(1ull << 48) * 0.999999, "the gap is %.1f periods",
	      periods);
	CHECK_EQ_INT(pmon_session_stop(s, &v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(glb(1), 0, "the global control put back");
	pmon_session_destroy(s);
}

static void stale(void)
{
	pmon_session_t *s = session_of(UCLK);
	uint64_t v = 12345, bound = pmon_fold_bound_ns(48);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t0 = pmon_sim_now_ns(sim);
	pmon_sim_advance_stopped_ns(sim, bound / 2);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v, uclk_ticks(t0, t0 + bound / 2), "stopped for half the bound");
	v = 12345;
	pmon_sim_advance_stopped_ns(sim, 2 * bound);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_ESTALE, "stopped for twice the bound");
	CHECK_EQ_U64(v, 12345, "no number");
	CHECK_EQ_INT(pmon_session_reset(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t1 = pmon_sim_now_ns(sim);
	pmon_sim_advance_ns(sim, 3 * bound);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v, uclk_ticks(t1, t1 + 3 * bound), "exact again after a reset");
	CHECK_EQ_INT(pmon_session_stop(s, &v), PMON_OK, pmon_session_errmsg(s));
	pmon_session_destroy(s);
}

/* Another agent clears pmon's enable bit in the global control. */
static void global_taken(void)
{
	pmon_session_t *s = session_of(UCLK);
	uint64_t v = 777;
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	int cpu = pmon_machine_socket_cpu(m, 1);
	raw->ops->msr_write(raw, cpu, 0x391, 0, NULL, 0);
	pmon_sim_advance_ns(sim, PMON_VERIFY_NS);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_EBUSY, "global control changed");
	CHECK_EQ_U64(v, 777, "no number");
	CHECK(strstr(pmon_session_errmsg(s), "PERF_GLOBAL_CTRL (MSR 0x391)"), "names it: %s",
	      pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, &v), PMON_EBUSY, "the stop reports it too");
	CHECK_EQ_U64(glb(1), 0, "left as the other agent set it");
	pmon_session_destroy(s);
}

int main(void)
{
	setenv("PMON_SIM", "gen=nhm-ep,clock=manual,prefetch=off", 1);
	int rc = pmon_machine_open(&m, "sim", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return check_done("test_nhm_fold_sim");
	sim = pmon_sim_current();
	CHECK_EQ_INT(pmon_sim_access_open(&raw, err, sizeof(err)), PMON_OK, err);
	static const double p[] = { 0.5, 1.5, 3.7, 100 };
	for (int i = 0; i < 4; i++)
		gap(p[i]);
	stale();
	global_taken();
	pmon_machine_close(m);
	return check_done("test_nhm_fold_sim");
}
