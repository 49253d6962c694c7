/* test_pmon_papi.c - the pmon component through PAPI's own API on the
 * emulated machine: active, events enumerate (umasks, socket qualifiers),
 * counts under driven traffic are exact, reset zeroes, accumulate across a
 * 48-bit wrap gives the exact 64-bit total, and bad names are refused
 * without writing a register. */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "check.h"
#include "pmon/sim.h"

static int cid = -1;

static void enumeration(void)
{
	int code = PAPI_NATIVE_MASK, nbase = 0, found_cas = 0, found_rd = 0, found_s1 = 0;
	int found_ubox = 0, found_mod = 0;
	PAPI_event_info_t info;
	CHECK_EQ_INT(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cid), PAPI_OK, "first event");
	do {
		nbase++;
		CHECK_EQ_INT(PAPI_get_event_info(code, &info), PAPI_OK, "event info");
		if (!strcmp(info.symbol, "pmon:::snbep_unc_imc2::UNC_M_CAS_COUNT")) {
			found_cas = 1;
			int k = code;
			while (PAPI_enum_cmp_event(&k, PAPI_NTV_ENUM_UMASKS, cid) == PAPI_OK) {
				char name[PAPI_MAX_STR_LEN];
				PAPI_event_code_to_name(k, name);
				PAPI_get_event_info(k, &info);
				/* the name is the full one; the info symbol is the row
				 * papi_native_avail prints as ":RD" */
				if (!strcmp(name, "pmon:::snbep_unc_imc2::UNC_M_CAS_COUNT:RD")) {
					found_rd = 1;
					CHECK(!strcmp(info.symbol, "pmon:::UNC_M_CAS_COUNT:RD"),
					      "umask row symbol: %s", info.symbol);
					CHECK(!strcmp(info.units, "64-byte lines"), "CAS unit: %s", info.units);
				}
				found_s1 |= !strcmp(name, "pmon:::snbep_unc_imc2::UNC_M_CAS_COUNT:socket=1") &&
					!strcmp(info.symbol, "pmon:::UNC_M_CAS_COUNT:socket=1") &&
					!strcmp(info.units, "64-byte lines");
				/* a modifier changes what a count is: edges, cycles */
				if (!strcmp(name, "pmon:::snbep_unc_imc2::UNC_M_CAS_COUNT:e=0") ||
				    !strcmp(name, "pmon:::snbep_unc_imc2::UNC_M_CAS_COUNT:t=0")) {
					found_mod++;
					CHECK(!strcmp(info.units, ""), "%s: unit '%s'", name, info.units);
				}
			}
		}
		found_ubox |= !strcmp(info.symbol, "pmon:::snbep_unc_ubo::UNC_U_CLOCKTICKS");
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cid) == PAPI_OK);
	CHECK(nbase >= 4 * 25 + 3, "base events enumerated: %d", nbase);
	CHECK(found_cas, "imc2 CAS_COUNT listed");
	CHECK(found_rd, "CAS_COUNT:RD enumerated as a umask");
	CHECK(found_s1, "socket=1 enumerated as a qualifier, in lines");
	CHECK_EQ_INT(found_mod, 2, "e= and t= rows enumerated");
	CHECK(found_ubox, "UBox UCLK listed");
}

/* The counters papi_native_avail states, from the machine's geometry (the
 * default PMON_SIM: 2 sockets, 8 cores, 2 threads, 4 channels) and the
 * uncore guide: per socket UBox 2 + UCLK, CBo 8 x 4, PCU 4, HA 4, iMC
 * 4 x (4 + DCLK), QPI 2 x 4, R2PCIe 4, R3QPI 2 x 3; two offcore events per
 * logical CPU. */
static void counters_stated(void)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(cid);
	int per_socket = (2 + 1) + 8 * 4 + 4 + 4 + 4 * (4 + 1) + 2 * 4 + 4 + 2 * 3;
	PAPI_event_info_t info;
	int code;

	CHECK(ci != NULL, "component info");
	if (ci)
		CHECK_EQ_INT(ci->num_cntrs, 2 * per_socket + 2 * 32, "counters of the machine");
	static const struct { const char *name, *note, *units; } ev[] = {
		{ "pmon:::snbep_unc_ubo::UNC_U_EVENT_MSG", "[2 counters in this box]", "" },
		{ "pmon:::snbep_unc_r3qpi0::UNC_R3_CLOCKTICKS", "[3 counters in this box]",
		  "uncore clock cycles" },
		{ "pmon:::snbep_unc_imc0::UNC_M_ACT_COUNT", "[4 counters in this box]", "" },
		{ "pmon:::snbep_unc_imc0::UNC_M_CLOCKTICKS", "[the box's fixed counter]",
		  "DRAM clock cycles" },
	};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		CHECK_EQ_INT(PAPI_event_name_to_code(ev[i].name, &code), PAPI_OK, ev[i].name);
		CHECK_EQ_INT(PAPI_get_event_info(code, &info), PAPI_OK, ev[i].name);
		CHECK(strstr(info.long_descr, ev[i].note) != NULL, "%s: '%s' in '%s'", ev[i].name,
		      ev[i].note, info.long_descr);
		CHECK_EQ_INT(strcmp(info.symbol, ev[i].name), 0, "a base event's symbol is its name");
		CHECK(!strcmp(info.units, ev[i].units), "%s: units '%s'", ev[i].name, info.units);
	}
	CHECK_EQ_INT(PAPI_event_name_to_code("pmon:::snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1", &code),
		     PAPI_OK, "a full name");
	CHECK_EQ_INT(PAPI_get_event_info(code, &info), PAPI_OK, "its info");
	CHECK(!strcmp(info.symbol, "pmon:::snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1"),
	      "a typed name's symbol is the name: %s", info.symbol);
	CHECK_EQ_INT(strcmp(info.units, "64-byte lines"), 0, "CAS WR unit");
	CHECK(strstr(info.long_descr, "[4 counters in this box]") != NULL,
	      "a typed name states its box's counters: '%s'", info.long_descr);
	/* a threshold counts cycles, not lines (the emulated machine models
	 * thresholds; edge detect and invert it refuses) */
	static const char *const not_lines[] = {
		"pmon:::snbep_unc_imc1::UNC_M_CAS_COUNT:RD:t=1",
		"pmon:::snbep_unc_imc1::UNC_M_CAS_COUNT:WR:t=1:socket=1",
	};
	for (size_t i = 0; i < sizeof(not_lines) / sizeof(not_lines[0]); i++) {
		CHECK_EQ_INT(PAPI_event_name_to_code(not_lines[i], &code), PAPI_OK, not_lines[i]);
		CHECK_EQ_INT(PAPI_get_event_info(code, &info), PAPI_OK, not_lines[i]);
		CHECK(!strcmp(info.units, ""), "%s: unit '%s'", not_lines[i], info.units);
	}
}

/* Resolving a full name first must not shorten the later enumeration. */
static void enumeration_after_lookup(void)
{
	int code, n0 = 0, n1 = 0, k;
	CHECK_EQ_INT(PAPI_event_name_to_code("pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT", &code), PAPI_OK,
		     "imc0 base event");
	for (k = code; PAPI_enum_cmp_event(&k, PAPI_NTV_ENUM_UMASKS, cid) == PAPI_OK;)
		n0++;
	int full;
	CHECK_EQ_INT(PAPI_event_name_to_code("pmon:::snbep_unc_imc1::UNC_M_CAS_COUNT:RD", &full), PAPI_OK,
		     "resolve a full name");
	CHECK_EQ_INT(PAPI_event_name_to_code("pmon:::snbep_unc_imc1::UNC_M_CAS_COUNT", &code), PAPI_OK,
		     "imc1 base event");
	for (k = code; PAPI_enum_cmp_event(&k, PAPI_NTV_ENUM_UMASKS, cid) == PAPI_OK;)
		n1++;
	CHECK(n0 >= 7 + 3 + 2, "imc0 CAS_COUNT options: %d", n0);
	CHECK_EQ_INT(n1, n0, "imc1 enumerates as many options as imc0 after a lookup");
}

/* Only user+kernel together can be honoured. */
static void domains(void)
{
	int es = PAPI_NULL;
	PAPI_option_t opt;
	PAPI_create_eventset(&es);
	CHECK_EQ_INT(PAPI_assign_eventset_component(es, cid), PAPI_OK, "assign component");
	memset(&opt, 0, sizeof(opt));
	opt.domain.eventset = es;
	opt.domain.domain = PAPI_DOM_USER;
	CHECK(PAPI_set_opt(PAPI_DOMAIN, &opt) != PAPI_OK, "PAPI_DOM_USER refused");
	opt.domain.domain = PAPI_DOM_ALL;
	CHECK_EQ_INT(PAPI_set_opt(PAPI_DOMAIN, &opt), PAPI_OK, "PAPI_DOM_ALL accepted");
	PAPI_destroy_eventset(&es);
}

static void counting(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	long long v[4], acc[4] = { 0 };
	struct pmon_sim_truth t0, t1;

	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "eventset");
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_imc0::UNC_M_CLOCKTICKS:socket=0"),
		     PAPI_OK, "add DCLK");
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0"),
		     PAPI_OK, "add CAS RD");
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:WR:cpu=1"),
		     PAPI_OK, "add CAS WR by cpu");
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=1"),
		     PAPI_OK, "add UCLK");
	pmon_sim_channel_truth(sim, 0, 0, &t0);
	uint64_t ns0 = pmon_sim_now_ns(sim);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	pmon_sim_advance_ns(sim, 250000);
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 10000);
	pmon_sim_traffic(sim, 2, 4096, PMON_SIM_STORE, 3000);
	pmon_sim_flush_caches(sim);            /* the stored (Modified) lines reach DRAM */
	CHECK_EQ_INT(PAPI_read(es, v), PAPI_OK, "read");
	pmon_sim_channel_truth(sim, 0, 0, &t1);
	uint64_t ns1 = pmon_sim_now_ns(sim);
	CHECK_EQ_U64(v[0], ns1 * 4 / 5 - ns0 * 4 / 5, "DCLK = 0.8 ticks per ns");
	CHECK_EQ_U64(v[1], t1.cas_rd - t0.cas_rd, "CAS RD = emulator truth");
	CHECK_EQ_U64(v[2], t1.cas_wr - t0.cas_wr, "CAS WR = emulator truth");
	CHECK(v[1] > 0 && v[2] > 0, "traffic reached channel 0 (%lld, %lld)", v[1], v[2]);
	uint64_t uclk = pmon_sim_shape(sim)->uclk_hz;
	CHECK_EQ_U64(v[3], (uint64_t)((unsigned __int128)ns1 * uclk / 1000000000u) -
		     (uint64_t)((unsigned __int128)ns0 * uclk / 1000000000u), "UCLK");

	CHECK_EQ_INT(PAPI_reset(es), PAPI_OK, "reset");
	CHECK_EQ_INT(PAPI_read(es, v), PAPI_OK, "read after reset");
	CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0, "reset zeroes (%lld %lld %lld %lld)",
	      v[0], v[1], v[2], v[3]);

	/* accumulate across the 48-bit wrap of the DCLK counter */
	uint64_t start = pmon_sim_now_ns(sim);
	uint64_t step = (1ull << 48) / 4 * 5 - 500000;
	pmon_sim_advance_ns(sim, step);
	CHECK_EQ_INT(PAPI_accum(es, acc), PAPI_OK, "accum 1");
	pmon_sim_advance_ns(sim, 2000000);
	CHECK_EQ_INT(PAPI_accum(es, acc), PAPI_OK, "accum 2");
	uint64_t end = pmon_sim_now_ns(sim);
	uint64_t want = end * 4 / 5 - start * 4 / 5;
	CHECK(want > (1ull << 48), "crossed 2^48");
	CHECK_EQ_U64(acc[0], want, "accumulated DCLK across the wrap");
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	CHECK_EQ_INT(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	CHECK_EQ_INT(PAPI_destroy_eventset(&es), PAPI_OK, "destroy");
}

/* A set grows one event at a time (the component adds only the new one), a
 * fifth general event of a full box is refused and leaves the four, and a
 * removed event leaves the others counting exactly. */
static void grow_and_remove(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	long long v[5];
	struct pmon_sim_truth t0, t1;
	static const char *const ev[] = {
		"pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
		"pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:WR:socket=0",
		"pmon:::snbep_unc_imc0::UNC_M_CLOCKTICKS:socket=0",
		"pmon:::snbep_unc_imc0::UNC_M_ACT_COUNT:socket=0",
		"pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:ALL:socket=0",
	};
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "eventset");
	for (int i = 0; i < 5; i++)
		CHECK_EQ_INT(PAPI_add_named_event(es, ev[i]), PAPI_OK, ev[i]);
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD_REG:socket=0"),
		     PAPI_ECNFLCT, "a fifth general event of the box is refused");
	CHECK_EQ_INT(PAPI_num_events(es), 5, "the five stay");

	pmon_sim_channel_truth(sim, 0, 0, &t0);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 5000);
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	pmon_sim_channel_truth(sim, 0, 0, &t1);
	CHECK_EQ_U64(v[0], t1.cas_rd - t0.cas_rd, "CAS RD");
	CHECK_EQ_U64(v[3], t1.act - t0.act, "ACT");
	CHECK_EQ_U64(v[4], (t1.cas_rd - t0.cas_rd) + (t1.cas_wr - t0.cas_wr), "CAS ALL");
	CHECK(v[0] > 0, "traffic counted (%lld)", v[0]);

	CHECK_EQ_INT(PAPI_remove_named_event(es, ev[1]), PAPI_OK, "remove CAS WR");
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD_REG:socket=0"),
		     PAPI_OK, "its counter is free again");
	CHECK_EQ_INT(PAPI_num_events(es), 5, "five again");
	pmon_sim_channel_truth(sim, 0, 0, &t0);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start again");
	pmon_sim_traffic(sim, 0, 1 << 20, PMON_SIM_LOAD, 3000);
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop again");
	pmon_sim_channel_truth(sim, 0, 0, &t1);
	CHECK_EQ_U64(v[0], t1.cas_rd - t0.cas_rd, "CAS RD after the removal");
	CHECK_EQ_U64(v[2], t1.act - t0.act, "ACT after the removal");
	CHECK_EQ_U64(v[3], (t1.cas_rd - t0.cas_rd) + (t1.cas_wr - t0.cas_wr), "CAS ALL after the removal");
	CHECK(v[0] > 0, "traffic counted (%lld)", v[0]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void refusals(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	size_t w0 = pmon_sim_log_writes(sim);
	PAPI_create_eventset(&es);
	const char *bad[] = {
		"pmon:::snbep_unc_imc0::UNC_M_NO_SUCH_EVENT",
		"pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:NOPE",
		"pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=9",
		"pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket",
		"pmon:::snbep_unc_imc9::UNC_M_CAS_COUNT:RD",
		"pmon:::snbep_unc_imc0::UNC_M_ACT_COUNT:t=999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = PAPI_add_named_event(es, bad[i]);
		CHECK(rc != PAPI_OK, "%s accepted", bad[i]);
	}
	int n = PAPI_num_events(es);
	CHECK_EQ_INT(n, 0, "nothing was added");
	PAPI_destroy_eventset(&es);
	CHECK_EQ_U64(pmon_sim_log_writes(sim), w0, "refused names wrote no register");
}

int main(void)
{
	setenv("PMON_BACKEND", "sim", 1);
	setenv("PMON_QUIET", "1", 1);
	setenv("PMON_SIM", "clock=manual", 1);   /* exact counts: only the test moves time */
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	cid = PAPI_get_component_index("pmon");
	CHECK(cid >= 0, "pmon component compiled in (%d)", cid);
	if (cid < 0)
		return check_done("test_pmon_papi");
	const PAPI_component_info_t *ci = PAPI_get_component_info(cid);
	CHECK(ci && !ci->disabled, "pmon active: %s", ci ? ci->disabled_reason : "?");
	pmon_sim_t *sim = pmon_sim_current();
	CHECK(sim != NULL, "the test sees the component's emulated machine");
	if (!sim || ci->disabled)
		return check_done("test_pmon_papi");
	enumeration();
	enumeration_after_lookup();
	counters_stated();
	domains();
	counting(sim);
	grow_and_remove(sim);
	refusals(sim);
	PAPI_shutdown();
	return check_done("test_pmon_papi");
}
