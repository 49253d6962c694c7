/* test_pmon_disabled.c - without PMON_BACKEND, on a machine that is not an
 * SNB-EP (every CI machine), the component is disabled and its reason says
 * what was found and mentions PMON_BACKEND=sim. */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "check.h"

int main(void)
{
	unsetenv("PMON_BACKEND");
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	int cid = PAPI_get_component_index("pmon");
	CHECK(cid >= 0, "pmon component compiled in");
	if (cid < 0)
		return check_done("test_pmon_disabled");
	const PAPI_component_info_t *ci = PAPI_get_component_info(cid);
	CHECK(ci->disabled != 0, "disabled without a backend on this machine");
	CHECK(strstr(ci->disabled_reason, "PMON_BACKEND=sim") != NULL,
	      "reason mentions PMON_BACKEND=sim: '%s'", ci->disabled_reason);
	CHECK(strstr(ci->disabled_reason, "not a Sandy Bridge-EP") != NULL ||
	      strstr(ci->disabled_reason, "msr") != NULL,
	      "reason says why: '%s'", ci->disabled_reason);
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	CHECK(PAPI_add_named_event(es, "pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD") != PAPI_OK,
	      "no event can be added to a disabled component");
	PAPI_shutdown();
	return check_done("test_pmon_disabled");
}
