/* test_pmon_nhm_sched.c - through PAPI on the emulated Nehalem-EP
 * (PMON_SIM=gen=nhm-ep), the guide's spelling of the acceptance event,
 * pmon:::UNC_IMC_NORMAL_READS:ANY (libpfm4's UNC_QMC_NORMAL_READS), adds to
 * an event set and counts: n loads of lines no cache holds (prefetchers
 * off) are n normal reads of the home socket's memory controller, 0 on
 * the other socket, and the Westmere-only UNC_TURBO_MODE is no event of
 * this machine.  The counters papi_native_avail states, from the shape (2
 * sockets x 4 cores x 2 threads): per socket the uncore PMU's 8 general
 * counters and the fixed UCLK counter, and one offcore event per core (its
 * hyperthreads share the one RSP register), not two per CPU.  The shared
 * filters' conflicts through PAPI are in
 * test_pmon_nhm_filters (the emulator does not model the events that use
 * them, and refuses them). */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "check.h"
#include "pmon/sim.h"

static int add(int es, const char *name)
{
	return PAPI_add_named_event(es, name);
}

static void guide_name(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	long long v[2] = { -1, -1 };
	const uint64_t n = 5000;
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "create");
	CHECK_EQ_INT(add(es, "pmon:::UNC_IMC_NORMAL_READS:ANY:socket=0"), PAPI_OK,
		     "the guide's name adds");
	CHECK_EQ_INT(add(es, "pmon:::UNC_IMC_NORMAL_READS.ANY:socket=1"), PAPI_OK,
		     "its dotted form too");
	CHECK_EQ_INT(add(es, "pmon:::UNC_TURBO_MODE:CORE_0"), PAPI_ENOSUPP,
		     "a Westmere-EP event: its box (wsm_unc) is not this machine's");
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, n);      /* CPU 0: socket 0's memory */
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	CHECK_EQ_U64((uint64_t)v[0], n, "one normal read per line missed (socket 0)");
	CHECK_EQ_U64((uint64_t)v[1], 0, "none on socket 1");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void counters_stated(int cid)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(cid);
	PAPI_event_info_t info;
	int code;
	CHECK(ci != NULL, "component info");
	if (ci)
		CHECK_EQ_INT(ci->num_cntrs, 2 * (8 + 1) + 1 * 8, "counters of the machine");
	CHECK_EQ_INT(PAPI_event_name_to_code("pmon:::nhm::OFFCORE_RESPONSE_0", &code), PAPI_OK,
		     "the core PMU's offcore event");
	CHECK_EQ_INT(PAPI_get_event_info(code, &info), PAPI_OK, "its info");
	CHECK(strstr(info.long_descr, "[4 counters per CPU; 1 offcore event per core: its "
		      "hyperthreads share the register]") != NULL, "its note: '%s'", info.long_descr);
}

int main(void)
{
	setenv("PMON_BACKEND", "sim", 1);
	setenv("PMON_QUIET", "1", 1);
	setenv("PMON_SIM", "gen=nhm-ep,clock=manual,prefetch=off", 1);
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	int cid = PAPI_get_component_index("pmon");
	CHECK(cid >= 0, "pmon component compiled in (%d)", cid);
	if (cid < 0)
		return check_done("test_pmon_nhm_sched");
	pmon_sim_t *sim = pmon_sim_current();
	CHECK(sim != NULL, "the test sees the component's emulated machine");
	if (sim)
		guide_name(sim);
	counters_stated(cid);
	PAPI_shutdown();
	return check_done("test_pmon_nhm_sched");
}
