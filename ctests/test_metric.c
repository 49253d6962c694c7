/*
 * test_metric.c - the derived metrics (src/snbep/metrics.c, src/metric.c):
 * every declared metric is well formed (its formula names only its events
 * and SECONDS, each event encodes, a pass's events are counted together in
 * one box, events of different passes really need different filter
 * values); formulas against values computed by hand from fixed counts; a
 * division by zero gives no value (PMON_ERANGE, 0), never a NaN; the
 * formula language's errors name the problem.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pmon/pmon.h"
#include "pmon/metric.h"
#include "check.h"

static const char *const units[] = { "GB/s", "ns", "%", "bytes", "cycles", "entries" };

/* Does the formula name label as a whole word? */
static int names_label(const char *f, const char *label)
{
	size_t l = strlen(label);
	for (const char *p = f; (p = strstr(p, label)); p += l) {
		int before = p == f || !(p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'Z'));
		int after = !(p[l] == '_' || (p[l] >= 'A' && p[l] <= 'Z') || (p[l] >= '0' && p[l] <= '9'));
		if (before && after)
			return 1;
	}
	return 0;
}

/* The first catalogue PMU of a box type. */
static int first_pmu(const char *box)
{
	pmon_pmu_info_t pi;
	for (int p = 0; p < pmon_pmu_count(); p++)
		if (!pmon_pmu_get(p, &pi) && !strcmp(pi.box_type, box))
			return p;
	return -1;
}

static double value(const char *name, const double *c, double s, int *rc)
{
	double v = -1;
	int i = pmon_metric_find(name);
	CHECK(i >= 0, "metric %s exists", name);
	*rc = i >= 0 ? pmon_metric_compute(i, c, s, &v) : -1;
	return v;
}

#define NEAR(got, want, what) \
	CHECK(fabs((double)(got) - (double)(want)) <= 1e-9 * fabs((double)(want)) + 1e-12, "%s: got %.12g, want %.12g", what, \
	      (double)(got), (double)(want))

static void hand_values(void)
{
	int rc;
	double v;
	/* 1e9 bytes read in one second: 15,625,000 CAS of 64 B = 1 GB/s. */
	v = value("MEM_BW_READS", (double[]){ 15625000 }, 1.0, &rc);
	CHECK_EQ_INT(rc, PMON_OK, "MEM_BW_READS rc");
	NEAR(v, 1.0, "MEM_BW_READS 15.625 M CAS in 1 s");
	v = value("mem_bw_total", (double[]){ 1e6, 5e5 }, 0.5, &rc);
	NEAR(v, 1.5e6 * 64 / 0.5 / 1e9, "MEM_BW_TOTAL (1 M + 0.5 M CAS in 0.5 s = 0.192 GB/s)");
	/* 1000 DRd misses living 216 UCLK cycles each at 2.7 GHz (2.7 M UCLK
	 * in 1 ms): 80 ns. */
	v = value("AVG_TOR_DRD_MISS_LATENCY", (double[]){ 216000, 1000, 2.7e6 }, 1e-3, &rc);
	CHECK_EQ_INT(rc, PMON_OK, "TOR miss latency rc");
	NEAR(v, 80.0, "AVG_TOR_DRD_MISS_LATENCY 216 cycles at 2.7 GHz");
	/* Hits: (all - miss) occupancy over (all - miss) inserts: (300000 -
	 * 216000) / (2000 - 1000) = 84 cycles = 31.11 ns at 2.7 GHz. */
	v = value("AVG_TOR_DRD_HIT_LATENCY", (double[]){ 300000, 2000, 216000, 1000, 2.7e6 }, 1e-3, &rc);
	NEAR(v, 84 / 2.7, "AVG_TOR_DRD_HIT_LATENCY 84 cycles");
	v = value("PCT_REQUESTS_PAGE_HIT", (double[]){ 25, 80, 20 }, 1, &rc);
	NEAR(v, 75.0, "PCT_REQUESTS_PAGE_HIT 25 ACT of 100 CAS");
	v = value("PCT_REQUESTS_PAGE_EMPTY", (double[]){ 25, 10, 80, 20 }, 1, &rc);
	NEAR(v, 15.0, "PCT_REQUESTS_PAGE_EMPTY (25 - 10) / 100");
	v = value("QPI_LINK_UTIL", (double[]){ 400, 100, 1000 }, 1, &rc);
	NEAR(v, 25.0, "QPI_LINK_UTIL 500 flits over 2 x 1000 cycles");
	v = value("QPI_TX_DATA_BW", (double[]){ 1.25e8 }, 1, &rc);
	NEAR(v, 1.0, "QPI_TX_DATA_BW 125 M data flits of 8 B in 1 s");
	v = value("LLC_DRD_MISS_PCT", (double[]){ 30, 120 }, 1, &rc);
	NEAR(v, 25.0, "LLC_DRD_MISS_PCT 30 of 120");
	v = value("LLC_DRD_RFO_MISS_TO_LOC_MEM", (double[]){ 30, 10, 60, 20 }, 1, &rc);
	NEAR(v, 50.0, "LLC_DRD_RFO_MISS_TO_LOC_MEM 40 of 80");
	v = value("PCIE_DATA_BYTES", (double[]){ 3, 5 }, 1, &rc);
	NEAR(v, 512.0, "PCIE_DATA_BYTES (3 + 5) x 64");
	v = value("DATA_FROM_QPI_TO_HA_OR_IIO", (double[]){ 80, 16, 1 }, 1, &rc);
	NEAR(v, 96 * 8 - 64, "DATA_FROM_QPI_TO_HA_OR_IIO 96 flits x 8 - one line");
	v = value("CYC_FREQ_THERMAL_LTD", (double[]){ 200, 800 }, 1, &rc);
	NEAR(v, 25.0, "CYC_FREQ_THERMAL_LTD 200 of 800");
	v = value("RING_THRU_UPODD_BYTES", (double[]){ 10 }, 1, &rc);
	NEAR(v, 320.0, "RING_THRU_UPODD_BYTES 10 slots x 32 B");

	/* No value: never a NaN, never a crash. */
	v = value("MEM_BW_READS", (double[]){ 1000 }, 0.0, &rc);
	CHECK_EQ_INT(rc, PMON_ERANGE, "MEM_BW_READS in no time: no value");
	CHECK(v == 0 && !isnan(v), "no value reads 0, got %g", v);
	v = value("LLC_RFO_MISS_PCT", (double[]){ 0, 0 }, 1, &rc);
	CHECK_EQ_INT(rc, PMON_ERANGE, "LLC_RFO_MISS_PCT with no RFO: no value");
	v = value("AVG_TOR_DRD_LATENCY", (double[]){ 5, 0, 0 }, 1, &rc);
	CHECK_EQ_INT(rc, PMON_ERANGE, "TOR latency with no insert: no value");
	v = value("MEM_BW_READS", (double[]){ 0 }, 1.0, &rc);
	CHECK(rc == PMON_OK && v == 0, "no read in 1 s is 0 GB/s (a value), got rc %d v %g", rc, v);
}

static void language(void)
{
	const char *names[] = { "A", "B", "SECONDS" };
	double vals[] = { 6, 3, 2 }, v;
	char err[256];
	CHECK_EQ_INT(pmon_metric_eval("2 + 3 * 4", NULL, NULL, 0, &v, err, sizeof(err)), PMON_OK, "prec");
	NEAR(v, 14, "2 + 3 * 4");
	pmon_metric_eval("(2 + 3) * 4", NULL, NULL, 0, &v, err, sizeof(err));
	NEAR(v, 20, "(2 + 3) * 4");
	pmon_metric_eval("A - B - 1", names, vals, 3, &v, err, sizeof(err));
	NEAR(v, 2, "left to right: 6 - 3 - 1");
	pmon_metric_eval("A / B / SECONDS", names, vals, 3, &v, err, sizeof(err));
	NEAR(v, 1, "6 / 3 / 2");
	pmon_metric_eval("1 - -A", names, vals, 3, &v, err, sizeof(err));
	NEAR(v, 7, "1 - -6");
	pmon_metric_eval("1.5e9 / 1e9", NULL, NULL, 0, &v, err, sizeof(err));
	NEAR(v, 1.5, "exponents");
	CHECK_EQ_INT(pmon_metric_eval("A *", names, vals, 3, &v, err, sizeof(err)), PMON_EINVAL, "A *");
	CHECK(strstr(err, "unexpected end") != NULL, "A *: %s", err);
	CHECK_EQ_INT(pmon_metric_eval("(A", names, vals, 3, &v, err, sizeof(err)), PMON_EINVAL, "(A");
	CHECK(strstr(err, "')' expected") != NULL, "(A: %s", err);
	CHECK_EQ_INT(pmon_metric_eval("A B", names, vals, 3, &v, err, sizeof(err)), PMON_EINVAL, "A B");
	CHECK(strstr(err, "operator expected") != NULL, "A B: %s", err);
	CHECK_EQ_INT(pmon_metric_eval("A + C", names, vals, 3, &v, err, sizeof(err)), PMON_EINVAL, "C");
	CHECK(strstr(err, "unknown name 'C'") != NULL, "A + C: %s", err);
	CHECK_EQ_INT(pmon_metric_eval("A / (B - 3)", names, vals, 3, &v, err, sizeof(err)), PMON_ERANGE,
		     "6 / 0");
	CHECK(v == 0, "6 / 0 reads 0");
	CHECK_EQ_INT(pmon_metric_eval("0 / 0", NULL, NULL, 0, &v, err, sizeof(err)), PMON_ERANGE, "0 / 0");
	CHECK_EQ_INT(pmon_metric_eval("1e308 * 1e308", NULL, NULL, 0, &v, err, sizeof(err)), PMON_ERANGE,
		     "overflow: not finite");
}

/* The first metric of this name of generation gen, and the first group. */
static int find_in(const char *gen, const char *name)
{
	for (int i = 0; i < pmon_metric_count(); i++) {
		pmon_metric_info_t mi;
		pmon_metric_get(i, &mi);
		if (!strcmp(mi.generation, gen) && !strcmp(mi.name, name))
			return i;
	}
	return -1;
}

static int group_in(const char *gen, const char *name)
{
	for (int g = 0; g < pmon_metric_group_count(); g++) {
		const char *gname;
		pmon_metric_group_get(g, &gname, NULL);
		if (!strcmp(pmon_metric_group_generation(g), gen) && !strcmp(gname, name))
			return g;
	}
	return -1;
}

/* Every metric well formed; its passes counted as declared (on the
 * machine's own generation's metrics; test_nhm_metric for the others). */
static void declared(pmon_machine_t *m)
{
	int n = pmon_metric_count();
	CHECK(n >= 60, "at least 60 metrics declared, got %d", n);
	for (int i = 0; i < n; i++) {
		pmon_metric_info_t mi;
		CHECK_EQ_INT(pmon_metric_get(i, &mi), PMON_OK, "metric get");
		/* a name once in its generation; another generation may have it */
		CHECK_EQ_INT(find_in(mi.generation, mi.name), i, mi.name);
		CHECK(pmon_metric_find(mi.name) >= 0, "%s found by name", mi.name);
		CHECK(group_in(mi.generation, mi.group) >= 0, "%s: group %s declared in %s", mi.name, mi.group,
		      mi.generation);
		CHECK(strstr(mi.guide, ", L") != NULL, "%s: a guide line (%s)", mi.name, mi.guide);
		int unit_ok = 0;
		for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
			unit_ok |= !strcmp(mi.unit, units[u]);
		CHECK(unit_ok, "%s: unit %s", mi.name, mi.unit);
		CHECK(mi.nevents >= 1 && mi.npasses >= 1 && mi.npasses <= mi.nevents, "%s: %d events %d passes",
		      mi.name, mi.nevents, mi.npasses);
		/* The formula evaluates with its own names, and uses them all. */
		double c[PMON_METRIC_MAX_EVENTS], v;
		for (int k = 0; k < PMON_METRIC_MAX_EVENTS; k++)
			c[k] = 1000 + 7 * k;
		int rc = pmon_metric_compute(i, c, 1.0, &v);
		CHECK(rc == PMON_OK, "%s: formula '%s' evaluates (rc %d)", mi.name, mi.formula, rc);
		/* a pass needs a box of the metric's type first */
		int pass_has[PMON_METRIC_MAX_EVENTS] = { 0 };
		for (int k = 0; k < mi.nevents; k++) {
			pmon_metric_event_t me;
			char name[PMON_MAX_NAME], err[256];
			pmon_encoding_t e;
			CHECK_EQ_INT(pmon_metric_event_get(i, k, &me), PMON_OK, "event get");
			CHECK(names_label(mi.formula, me.label), "%s: formula uses %s", mi.name, me.label);
			pass_has[me.pass] = 1;
			int p = first_pmu(me.box_type);
			CHECK(p >= 0, "%s: box type %s", mi.name, me.box_type);
			rc = pmon_metric_event_name(i, k, p, 1, 0x2, 0x3, name, sizeof(name));
			CHECK_EQ_INT(rc, PMON_OK, "event name");
			rc = pmon_encode(name, 2, 0, &e, err, sizeof(err));
			CHECK(rc == PMON_OK, "%s: %s encodes (%s)", mi.name, name, err);
		}
		for (int q = 0; q < mi.npasses; q++)
			CHECK(pass_has[q], "%s: pass %d has events", mi.name, q);
		/* Each pass's events (on instance 0 of their boxes) count
		 * together; two passes' events on one box do not. */
		if (!m || pmon_machine_metric_find(m, mi.name, NULL, 0) != i)
			continue;
		for (int q = 0; q < mi.npasses; q++) {
			pmon_session_t *s;
			pmon_session_create(m, &s);
			for (int k = 0; k < mi.nevents; k++) {
				pmon_metric_event_t me;
				pmon_encoding_t e;
				char name[PMON_MAX_NAME];
				pmon_metric_event_get(i, k, &me);
				if (me.pass != q)
					continue;
				pmon_metric_event_name(i, k, first_pmu(me.box_type), 0, 0x1, 0x3, name, sizeof(name));
				pmon_encode(name, 2, 0, &e, NULL, 0);
				rc = pmon_session_add(s, &e);
				CHECK(rc == PMON_OK, "%s pass %d: %s added (%s)", mi.name, q, name,
				      pmon_session_errmsg(s));
			}
			pmon_session_destroy(s);
		}
		if (mi.npasses > 1) {
			pmon_session_t *s;
			int refused = 0;
			pmon_session_create(m, &s);
			for (int k = 0; k < mi.nevents; k++) {
				pmon_metric_event_t me;
				pmon_encoding_t e;
				char name[PMON_MAX_NAME];
				pmon_metric_event_get(i, k, &me);
				pmon_metric_event_name(i, k, first_pmu(me.box_type), 0, 0x1, 0x3, name, sizeof(name));
				pmon_encode(name, 2, 0, &e, NULL, 0);
				if (pmon_session_add(s, &e) == PMON_ECONFLICT)
					refused++;
			}
			CHECK(refused > 0, "%s: its %d passes' events do not count together on one box",
			      mi.name, mi.npasses);
			pmon_session_destroy(s);
		}
	}
	/* Passes as the guide needs them. */
	pmon_metric_info_t mi;
	pmon_metric_get(pmon_metric_find("PCIE_DATA_BYTES"), &mi);
	CHECK_EQ_INT(mi.npasses, 2, "PCIE_DATA_BYTES: two opcodes, two passes");
	pmon_metric_get(pmon_metric_find("LLC_DRD_RFO_MISS_TO_REM_MEM"), &mi);
	CHECK_EQ_INT(mi.npasses, 4, "LLC_DRD_RFO_MISS_TO_REM_MEM: four filter values");
	pmon_metric_get(pmon_metric_find("MEM_BW_READS"), &mi);
	CHECK(mi.npasses == 1 && mi.scope == PMON_METRIC_BOX && !strcmp(mi.unit, "GB/s"),
	      "MEM_BW_READS: one pass, per box, GB/s");
	pmon_metric_get(pmon_metric_find("AVG_TOR_DRD_REM_MISS_LATENCY"), &mi);
	CHECK(mi.scope == PMON_METRIC_SOCKET && !strcmp(mi.unit, "ns"), "remote miss latency: per socket, ns");
}

/* The QPI packet metrics (guide Table 2-95, CTO_COUNT under the port's one
 * packet match/mask pair): each event encodes to the guide's MATCH/MASK
 * values (filt[0] = MATCH1<<32 | MATCH0, filt[1] = MASK1<<32 | MASK0; RDS
 * is MATCH1/MASK1[19:16]), one pass per pair; the emulated machine does
 * not model packet matching and refuses every one of them, by name, while
 * every other metric is accepted there. */
#define RDS(v) ((uint64_t)(v) << 48)
static const struct {
	const char *metric, *label;
	uint64_t match, mask;
	int pass;
} cto[] = {
	{ "DRS_FULL_CACHELINE_MSGS_FROM_QPI", "PKT", 0x1C00, 0x1F00, 0 },     /* L3445 */
	{ "DRS_PTL_CACHELINE_MSGS_FROM_QPI", "PKT", 0x1D00, 0x1F00, 0 },      /* L3456 */
	{ "DRS_M_FROM_QPI", "PKT", RDS(0x8) | 0x1C00, RDS(0xF) | 0x1FE0, 0 }, /* L3455 */
	{ "DRS_WbI_FROM_QPI", "PKT", 0x1C80, 0x1FE0, 0 },                     /* L3460 */
	{ "DRS_WbS_FROM_QPI", "PKT", 0x1CA0, 0x1FE0, 0 },                     /* L3461 */
	{ "DRS_WbE_FROM_QPI", "PKT", 0x1CC0, 0x1FE0, 0 },                     /* L3459 */
	{ "DRS_WB_FROM_QPI", "WBI", 0x1C80, 0x1FE0, 0 },                      /* L3457 */
	{ "DRS_WB_FROM_QPI", "WBS", 0x1CA0, 0x1FE0, 1 },
	{ "DRS_WB_FROM_QPI", "WBE", 0x1CC0, 0x1FE0, 2 },
	{ "DRS_F_OR_E_FROM_QPI", "CE", RDS(0x4) | 0x1C00, RDS(0xF) | 0x1FE0, 0 }, /* L3454 */
	{ "DRS_F_OR_E_FROM_QPI", "CF", RDS(0x1) | 0x1C00, RDS(0xF) | 0x1FE0, 1 },
	{ "DRS_F_OR_E_FROM_QPI", "KE", RDS(0x4) | 0x1C40, RDS(0xF) | 0x1FE0, 2 },
	{ "DRS_F_OR_E_FROM_QPI", "KF", RDS(0x1) | 0x1C40, RDS(0xF) | 0x1FE0, 3 },
	{ "DRS_F_OR_E_FROM_QPI", "PE", RDS(0x4) | 0x1C20, RDS(0xF) | 0x1FE0, 4 },
	{ "DRS_F_OR_E_FROM_QPI", "PF", RDS(0x1) | 0x1C20, RDS(0xF) | 0x1FE0, 5 },
};
#define NCTO ((int)(sizeof(cto) / sizeof(cto[0])))
#define NOT_MODELED "is not modeled by the emulated machine"

static int cto_metric(const char *name)
{
	for (int j = 0; j < NCTO; j++)
		if (!strcmp(cto[j].metric, name))
			return 1;
	return 0;
}

static void qpi_packets(pmon_machine_t *m)
{
	int qpi1 = pmon_pmu_find("snbep_unc_qpi1"), seen = 0;
	for (int j = 0; j < NCTO; j++) {
		int i = pmon_metric_find(cto[j].metric), found = 0;
		CHECK(i >= 0, "%s declared", cto[j].metric);
		if (i < 0)
			continue;
		pmon_metric_info_t mi;
		pmon_metric_get(i, &mi);
		CHECK(!strcmp(mi.group, "qpi_packets") && !strcmp(mi.unit, "bytes") && mi.scope == PMON_METRIC_BOX,
		      "%s: group qpi_packets, bytes, per box", mi.name);
		for (int k = 0; k < mi.nevents; k++) {
			pmon_metric_event_t me;
			pmon_encoding_t e;
			char name[PMON_MAX_NAME], err[256] = "";
			pmon_metric_event_get(i, k, &me);
			if (strcmp(me.label, cto[j].label))
				continue;
			found = 1;
			CHECK_EQ_INT(me.pass, cto[j].pass, cto[j].label);
			CHECK_EQ_INT(pmon_metric_event_name(i, k, qpi1, 1, 0x2, 0x3, name, sizeof(name)), PMON_OK,
				     "name");
			CHECK_EQ_INT(pmon_encode(name, 2, 0, &e, err, sizeof(err)), PMON_OK, err);
			CHECK_EQ_U64(e.ctl, 0x200038, "CTO_COUNT: 0x38 with the extra select bit");
			CHECK_EQ_U64(e.filt[0], cto[j].match, name);
			CHECK_EQ_U64(e.filt[1], cto[j].mask, name);
			CHECK(e.pmu == qpi1 && e.socket == 1, "%s: on qpi1 of socket 1", name);
			if (!m)
				continue;
			CHECK_EQ_INT(pmon_machine_encode(m, name, &e, err, sizeof(err)), PMON_ENOTMODELED, name);
			CHECK(strstr(err, NOT_MODELED) && strstr(err, "UNC_Q_CTO_COUNT"),
			      "the emulator's refusal names the event: %s", err);
		}
		CHECK(found, "%s: event %s", cto[j].metric, cto[j].label);
		seen += found;
	}
	CHECK_EQ_INT(seen, NCTO, "every packet event checked");
	int np[2];
	pmon_metric_info_t mi;
	pmon_metric_get(pmon_metric_find("DRS_WB_FROM_QPI"), &mi);
	np[0] = mi.npasses;
	pmon_metric_get(pmon_metric_find("DRS_F_OR_E_FROM_QPI"), &mi);
	np[1] = mi.npasses;
	CHECK(np[0] == 3 && np[1] == 6, "one pass per match/mask pair: WB %d (3), F_OR_E %d (6)", np[0], np[1]);
	if (!m)
		return;
	/* The metric set on the emulated machine refuses each packet metric
	 * with the emulator's message naming CTO_COUNT (a modeled metric, the
	 * control, is accepted by the same set). */
	int refused = 0;
	for (int i = 0; i < pmon_metric_count(); i++) {
		pmon_mset_t *set;
		char why[512] = "";
		pmon_metric_get(i, &mi);
		if (!cto_metric(mi.name))
			continue;
		CHECK_EQ_INT(pmon_mset_create(m, &set), PMON_OK, "mset");
		int rc = pmon_mset_add_metric(set, i, -1, why, sizeof(why));
		CHECK(rc == PMON_ENOTMODELED && strstr(why, NOT_MODELED) && strstr(why, "UNC_Q_CTO_COUNT"),
		      "%s refused on the emulator (rc %d): %s", mi.name, rc, why);
		refused++;
		char cwhy[512] = "";
		CHECK(pmon_mset_add_metric(set, pmon_metric_find("MEM_BW_READS"), -1, cwhy, sizeof(cwhy)) >= 0,
		      "control MEM_BW_READS accepted: %s", cwhy);
		pmon_mset_destroy(set);
	}
	CHECK_EQ_INT(refused, 8, "eight packet metrics refused on the emulator");
}

static void names(void)
{
	char buf[PMON_MAX_NAME];
	int i = pmon_metric_find("AVG_TOR_DRD_REM_MISS_LATENCY"), cbo3 = pmon_pmu_find("snbep_unc_cbo3");
	CHECK_EQ_INT(pmon_metric_event_name(i, 1, cbo3, 1, 0x2, 0x3, buf, sizeof(buf)), PMON_OK, "name");
	CHECK(!strcmp(buf, "snbep_unc_cbo3::UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD:nf=0x1:socket=1"),
	      "remote of socket 1 (node 1) is node 0: %s", buf);
	pmon_metric_event_name(i, 0, cbo3, 0, 0x1, 0xf, buf, sizeof(buf));
	CHECK(strstr(buf, ":nf=0xe:socket=0") != NULL, "remote of node 0 among 4: %s", buf);
	CHECK_EQ_INT(pmon_metric_event_name(i, 0, cbo3, 0, 0x1, 0x1, buf, sizeof(buf)), PMON_ERANGE,
		     "one socket: no remote node to filter on");
	CHECK_EQ_INT(pmon_metric_event_name(i, 0, pmon_pmu_find("snbep_unc_imc0"), 0, 1, 3, buf, sizeof(buf)),
		     PMON_EINVAL, "a CBo event on an iMC");
	CHECK_EQ_INT(pmon_metric_event_name(i, 0, cbo3, 0, 1, 3, buf, 20), PMON_ERANGE, "too small");
	CHECK_EQ_INT(pmon_metric_event_name(i, 9, cbo3, 0, 1, 3, buf, sizeof(buf)), PMON_ERANGE, "no event 9");
	CHECK_EQ_INT(pmon_metric_find("NO_SUCH_METRIC"), PMON_ENOEVNT, "unknown metric");
	CHECK_EQ_INT(pmon_metric_group_find("MEM_BW"), 0, "group by name, case ignored");
	CHECK_EQ_INT(pmon_metric_group_find("nope"), PMON_ENOEVNT, "unknown group");
	CHECK_EQ_INT(pmon_metric_get(-1, NULL), PMON_ERANGE, "metric -1");
	CHECK_EQ_INT(pmon_metric_get(pmon_metric_count(), NULL), PMON_ERANGE, "metric past the end");
}

int main(void)
{
	pmon_machine_t *m = NULL;
	char why[512];
	int rc = pmon_machine_open(&m, "sim", why, sizeof(why));
	CHECK(rc == PMON_OK, "emulated machine: %s", why);
	hand_values();
	language();
	names();
	declared(m);
	qpi_packets(m);
	if (m)
		pmon_machine_close(m);
	return check_done("test_metric");
}
