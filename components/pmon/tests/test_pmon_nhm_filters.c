/* test_pmon_nhm_filters.c - through PAPI on fake device files of a
 * Nehalem-EP (the hardware backend: the emulator does not model the events
 * that use these registers and refuses them), the uncore's two shared
 * filter registers: events needing different values of the QHL
 * address/opcode matcher (MSR 0x396) or of the snoop MESF-transition
 * select (MSR 0x301) conflict (PAPI_ECNFLCT), equal ones share the
 * register.  Only event sets are built: nothing is written. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "check.h"
#include "fake_hw.h"

static int add(int es, const char *name)
{
	return PAPI_add_named_event(es, name);
}

static void matcher(void)
{
	int es = PAPI_NULL;
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "create");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI"), PAPI_OK,
		     "LOCAL requests with opcode RspFwdI");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_ADDR_OPCODE_MATCH:REMOTE:RSPFWDS"), PAPI_ECNFLCT,
		     "another opcode in MSR 0x396 conflicts");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR:addr=0x1000"),
		     PAPI_ECNFLCT, "another match select in MSR 0x396 conflicts");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_ADDR_OPCODE_MATCH:REMOTE:RSPFWDI"), PAPI_OK,
		     "the same opcode shares MSR 0x396");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_ADDR_OPCODE_MATCH:IOH:opc=0x19"), PAPI_OK,
		     "the same opcode given raw shares it too");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDS:socket=1"), PAPI_OK,
		     "another socket's matcher is another register");
	CHECK_EQ_INT(PAPI_num_events(es), 4, "four events");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void mesf(void)
{
	int es = PAPI_NULL;
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "create");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_M"), PAPI_OK, "M -> S");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_GQ_SNOOP:GOTO_I_HIT_E"), PAPI_ECNFLCT,
		     "another transition in MSR 0x301 conflicts");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_M:e=1"), PAPI_OK,
		     "the same transition shares MSR 0x301");
	CHECK_EQ_INT(add(es, "pmon:::nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI"), PAPI_OK,
		     "the matcher is another register");
	CHECK_EQ_INT(PAPI_num_events(es), 3, "three events");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	char base[128];
	struct fake_world w;
	if (fake_tmpdir(base, sizeof(base)) ||
	    fake_nhm_world(base, 26, "Intel(R) Xeon(R) CPU X5570 @ 2.93GHz", &w)) {
		CHECK(0, "could not build the fake device files");
		return check_done("test_pmon_nhm_filters");
	}
	setenv("PMON_BACKEND", "msr", 1);
	setenv("PMON_QUIET", "1", 1);
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	int cid = PAPI_get_component_index("pmon");
	CHECK(cid >= 0, "pmon component compiled in (%d)", cid);
	const PAPI_component_info_t *ci = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
	CHECK(ci && !ci->disabled, "the component runs on the fake Nehalem-EP: %s",
	      ci ? ci->disabled_reason : "");
	if (ci && !ci->disabled) {
		matcher();
		mesf();
	}
	PAPI_shutdown();
	fake_rmtree(base);
	return check_done("test_pmon_nhm_filters");
}
