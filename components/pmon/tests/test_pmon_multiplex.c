/* test_pmon_multiplex.c - PAPI_set_multiplex on a pmon event set is refused
 * with a reason (PAPI_ECMP, and a message on stderr saying why and what to
 * do instead), not accepted and then followed by adds that all fail with
 * PAPI_EINVAL; the set stays an ordinary one: an event added to it counts
 * exactly (PCU clockticks over 1 ms of emulated time). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

int main(void)
{
	char errfile[] = "/tmp/pmon-mpx-err-XXXXXX", out[2048] = "";
	setenv("PMON_SIM", "clock=manual", 1);
	unsetenv("PMON_QUIET");
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	CHECK_EQ_INT(PAPI_multiplex_init(), PAPI_OK, "PAPI_multiplex_init");
	int cidx = PAPI_get_component_index("pmon"), es = PAPI_NULL;
	CHECK(cidx >= 0, "the pmon component");
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "create");
	CHECK_EQ_INT(PAPI_assign_eventset_component(es, cidx), PAPI_OK, "assign to pmon");

	int fd = mkstemp(errfile), saved = dup(2);
	fflush(stderr);
	dup2(fd, 2);
	int rc = PAPI_set_multiplex(es);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t n = pread(fd, out, sizeof(out) - 1, 0);
	out[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(errfile);
	CHECK_EQ_INT(rc, PAPI_ECMP, "PAPI_set_multiplex refused");
	CHECK(strstr(out, "PAPI_set_multiplex is refused") && strstr(out, "separate event sets"),
	      "with its reason: %s", out);
	CHECK_EQ_INT(PAPI_get_multiplex(es), 0, "the set is not multiplexed");

	pmon_sim_t *sim = pmon_sim_current();
	long long v[1] = { -1 };
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0"),
		     PAPI_OK, "an add still works");
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	if (sim)
		pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	CHECK_EQ_U64(v[0], sim ? pmon_sim_shape(sim)->pclk_hz / 1000 : 0, "PCU clockticks over 1 ms");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return check_done("test_pmon_multiplex");
}
