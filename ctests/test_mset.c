/*
 * test_mset.c - metric sets (src/mset.c) on the emulated machine, clock
 * manual: bandwidth from known traffic (lines x 64 B over the machine's
 * own time) per channel, socket and machine, totals and intervals; a
 * metric of two filter values counted in two passes that take turns, its
 * value an estimate scaled by the share of time each pass counted; no
 * value (n/a) without requests; refusals that name the event.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmon/pmon.h"
#include "pmon/metric.h"
#include "pmon/sim.h"
#include "check.h"

static pmon_machine_t *m;

#define NEAR(got, want, rel, what) \
	CHECK(fabs((double)(got) - (double)(want)) <= (rel) * fabs((double)(want)) + 1e-12, \
	      "%s: got %.9g, want %.9g", what, (double)(got), (double)(want))

static void bandwidth(pmon_sim_t *sim)
{
	pmon_mset_t *s;
	char why[256];
	double v, share;
	CHECK_EQ_INT(pmon_mset_create(m, &s), PMON_OK, "create");
	int rd = pmon_mset_add_metric(s, pmon_metric_find("MEM_BW_READS"), -1, why, sizeof(why));
	int wr = pmon_mset_add_metric(s, pmon_metric_find("MEM_BW_WRITES"), -1, why, sizeof(why));
	int ev = pmon_mset_add_event(s, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD", why, sizeof(why));
	CHECK(rd == 0 && wr == 1 && ev == 2, "items %d %d %d (%s)", rd, wr, ev, why);
	CHECK_EQ_INT(pmon_mset_npasses(s), 1, "2 sockets x 4 channels x 3 events fit one pass");
	CHECK_EQ_INT(pmon_mset_start(s, why, sizeof(why)), PMON_OK, why);
	/* 15625 lines (1e6 B) read on socket 0 in 1 ms of machine time: 1 GB/s. */
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 15625), 0, "loads");
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_mset_sample(s, why, sizeof(why)), PMON_OK, why);
	double sec = pmon_mset_seconds(s, PMON_MSET_TOTAL);
	NEAR(sec, 1e-3, 1e-6, "1 ms of machine time");
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, rd, 0, -1, &v, &share), PMON_OK, "socket 0");
	NEAR(v, 15625 * 64 / sec / 1e9, 1e-9, "socket 0 reads GB/s");
	NEAR(v, 1.0, 1e-4, "socket 0 reads: 1 GB/s");
	CHECK(share == 1, "one pass: exact (share %g)", share);
	pmon_mset_value(s, PMON_MSET_TOTAL, rd, 1, -1, &v, NULL);
	CHECK(v == 0, "socket 1 reads nothing: %g", v);
	pmon_mset_value(s, PMON_MSET_TOTAL, rd, -1, -1, &v, NULL);
	NEAR(v, 1.0, 1e-4, "machine reads: 1 GB/s");
	/* per channel: the four add up to the socket */
	double sum = 0;
	for (int c = 0; c < 4; c++) {
		char n[32];
		snprintf(n, sizeof(n), "snbep_unc_imc%d", c);
		CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, rd, 0, pmon_pmu_find(n), &v, NULL), PMON_OK, n);
		sum += v;
	}
	NEAR(sum, 1.0, 1e-4, "channels add up to the socket");
	pmon_mset_value(s, PMON_MSET_TOTAL, ev, 0, -1, &v, NULL);
	CHECK(v > 0 && v < 15625, "raw CAS_COUNT.RD of channel 0 on socket 0: part of the lines (%g)", v);
	/* an interval with no traffic: 0 GB/s; the totals keep the first ms */
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_mset_stop(s, why, sizeof(why)), PMON_OK, why);
	pmon_mset_value(s, PMON_MSET_INTERVAL, rd, 0, -1, &v, NULL);
	CHECK(v == 0, "idle interval: 0 GB/s, got %g", v);
	NEAR(pmon_mset_seconds(s, PMON_MSET_INTERVAL), 1e-3, 1e-6, "interval 1 ms");
	pmon_mset_value(s, PMON_MSET_TOTAL, rd, 0, -1, &v, NULL);
	NEAR(v, 0.5, 1e-4, "1e6 B over 2 ms: 0.5 GB/s");
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, rd, 0, 999, &v, NULL), PMON_ENODEV, "no box 999");
	pmon_mset_destroy(s);
}

static void passes(pmon_sim_t *sim)
{
	pmon_mset_t *s;
	char why[256];
	double v, share;
	pmon_mset_create(m, &s);
	int it = pmon_mset_add_metric(s, pmon_metric_find("LLC_DRD_MISS_PCT"), 0, why, sizeof(why));
	CHECK(it == 0, "LLC_DRD_MISS_PCT added (%s)", why);
	CHECK_EQ_INT(pmon_mset_npasses(s), 2, "two state filters: two passes");
	int lat = pmon_mset_add_metric(s, pmon_metric_find("AVG_TOR_DRD_LATENCY"), 0, why, sizeof(why));
	CHECK(lat == 1, "TOR latency added (%s)", why);
	CHECK_EQ_INT(pmon_mset_start(s, why, sizeof(why)), PMON_OK, why);
	{
		pmon_enabled_ctl_t ctl[4];
		CHECK(pmon_machine_enabled_ctls(m, 0, ctl, 4, why, sizeof(why)) > 0, "running: controls enabled");
	}
	/* same traffic in each pass's turn: fresh lines, every lookup misses */
	pmon_sim_traffic(sim, 0, 64ull << 20, PMON_SIM_LOAD, 1000);
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_mset_rotate(s, why, sizeof(why)), PMON_OK, why);
	pmon_sim_traffic(sim, 0, 65ull << 20, PMON_SIM_LOAD, 1000);
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_mset_stop(s, why, sizeof(why)), PMON_OK, why);
	/* stopped: no uncore PMON control left enabled on either socket */
	for (int so = 0; so < 2; so++) {
		pmon_enabled_ctl_t ctl[4];
		CHECK_EQ_INT(pmon_machine_enabled_ctls(m, so, ctl, 4, why, sizeof(why)), 0,
			     "registers restored after the passes");
	}
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, it, 0, -1, &v, &share), PMON_OK, "miss pct");
	NEAR(v, 100.0, 1e-6, "fresh lines: every data read misses");
	NEAR(share, 0.5, 1e-3, "each pass counted half the time");
	pmon_mset_destroy(s);

	/* no request at all: no value, never NaN */
	pmon_mset_create(m, &s);
	lat = pmon_mset_add_metric(s, pmon_metric_find("AVG_TOR_DRD_LATENCY"), 1, why, sizeof(why));
	pmon_mset_start(s, why, sizeof(why));
	pmon_sim_advance_ns(sim, 1000000);
	pmon_mset_stop(s, why, sizeof(why));
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, lat, 1, -1, &v, NULL), PMON_ERANGE, "n/a");
	CHECK(v == 0 && !isnan(v), "n/a reads 0");
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, lat, 1, pmon_pmu_find("snbep_unc_cbo0"), &v, NULL),
		     PMON_ERANGE, "per box: n/a too");
	pmon_mset_destroy(s);
}

/* A raw event named for every instance (Intel's dotted name, perf's PMU
 * without its number): every channel of the socket, summed. */
static void all_instances(pmon_sim_t *sim)
{
	pmon_mset_t *s;
	char why[256] = "";
	double v[3];
	CHECK_EQ_INT(pmon_mset_create(m, &s), PMON_OK, "create");
	int a = pmon_mset_add_event(s, "UNC_M_CAS_COUNT.RD", why, sizeof(why));
	int b = pmon_mset_add_event(s, "uncore_imc/cas_count_read/", why, sizeof(why));
	int c = pmon_mset_add_event(s, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD", why, sizeof(why));
	CHECK(a == 0 && b == 1 && c == 2, "every-instance names added: %d %d %d (%s)", a, b, c, why);
	CHECK_EQ_INT(pmon_mset_start(s, why, sizeof(why)), PMON_OK, why);
	pmon_sim_traffic(sim, 0, 80ull << 20, PMON_SIM_LOAD, 15625);
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_mset_stop(s, why, sizeof(why)), PMON_OK, why);
	for (int i = 0; i < 3; i++)
		CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, i, 0, -1, &v[i], NULL), PMON_OK, "value");
	CHECK(v[0] == 15625 && v[1] == 15625, "all four channels summed: %g and %g of 15625 lines", v[0], v[1]);
	CHECK(v[2] > 0 && v[2] < 15625, "one channel: part of them (%g)", v[2]);
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, a, 0, pmon_pmu_find("snbep_unc_imc1"), &v[0], NULL),
		     PMON_OK, "per box");
	CHECK(v[0] == v[2], "its channel 1 alone is the named channel's count (%g, %g)", v[0], v[2]);
	pmon_mset_destroy(s);
}

/* Node IDs that are not the socket numbers (nodeids=1,0: socket 0 is node
 * 1): the node filter of the local/remote metrics follows the UBox's
 * CPUNODEID, so socket 0 reading its own memory is 100% local. */
static void node_ids(void)
{
	pmon_mset_t *s;
	char why[256] = "";
	double loc, rem;
	pmon_sim_t *sim = pmon_sim_current();
	CHECK_EQ_INT(pmon_machine_socket_node(m, 0), 1, "socket 0 is node 1");
	CHECK_EQ_INT(pmon_machine_socket_node(m, 1), 0, "socket 1 is node 0");
	CHECK_EQ_INT(pmon_machine_socket_node(m, 2), -1, "no socket 2");
	pmon_mset_create(m, &s);
	int l = pmon_mset_add_metric(s, pmon_metric_find("LLC_DRD_RFO_MISS_TO_LOC_MEM"), 0, why, sizeof(why));
	int r = pmon_mset_add_metric(s, pmon_metric_find("LLC_DRD_RFO_MISS_TO_REM_MEM"), 0, why, sizeof(why));
	CHECK(l == 0 && r == 1, "local and remote metrics added (%s)", why);
	CHECK_EQ_INT(pmon_mset_start(s, why, sizeof(why)), PMON_OK, why);
	/* the same local reads in every pass's turn */
	for (int q = 0; q < pmon_mset_npasses(s); q++) {
		if (q)
			CHECK_EQ_INT(pmon_mset_rotate(s, why, sizeof(why)), PMON_OK, why);
		pmon_sim_traffic(sim, 0, (96ull + (uint64_t)q) << 20, PMON_SIM_LOAD, 1000);
		pmon_sim_advance_ns(sim, 1000000);
	}
	CHECK_EQ_INT(pmon_mset_stop(s, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, l, 0, -1, &loc, NULL), PMON_OK, "local");
	CHECK_EQ_INT(pmon_mset_value(s, PMON_MSET_TOTAL, r, 0, -1, &rem, NULL), PMON_OK, "remote");
	NEAR(loc, 100.0, 1e-6, "socket 0's own memory: every miss local");
	CHECK(rem == 0, "and none remote (%g)", rem);
	pmon_mset_destroy(s);
}

static void refusals(void)
{
	pmon_mset_t *s;
	char why[256] = "";
	pmon_mset_create(m, &s);
	int rc = pmon_mset_add_event(s, "snbep_unc_imc0::UNC_M_NO_SUCH", why, sizeof(why));
	CHECK(rc < 0 && strstr(why, "UNC_M_NO_SUCH"), "unknown event refused, named: %s", why);
	rc = pmon_mset_add_metric(s, pmon_metric_find("MEM_BW_READS"), 5, why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_ERANGE, "socket 5 of 2");
	CHECK_EQ_INT(pmon_mset_item_count(s), 0, "nothing left behind");
	CHECK_EQ_INT(pmon_mset_npasses(s), 0, "no pass left behind");
	CHECK_EQ_INT(pmon_mset_start(s, why, sizeof(why)), PMON_EINVAL, "nothing to start");
	pmon_mset_destroy(s);
}

int main(void)
{
	char err[256];
	setenv("PMON_SIM", "clock=manual,prefetch=off", 1);    /* exact demand traffic */
	int rc = pmon_machine_open(&m, "sim", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return check_done("test_mset");
	pmon_sim_t *sim = pmon_sim_current();
	bandwidth(sim);
	passes(sim);
	all_instances(sim);
	refusals();
	pmon_machine_close(m);
	/* a new emulated machine, created from $PMON_SIM at the next open */
	pmon_sim_destroy(pmon_sim_set_current(NULL));
	setenv("PMON_SIM", "clock=manual,prefetch=off,nodeids=1,0", 1);
	rc = pmon_machine_open(&m, "sim", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return check_done("test_mset");
	node_ids();
	pmon_machine_close(m);
	return check_done("test_mset");
}
