/* test_pmon_busy.c - through PAPI on the emulated machine: a box that
 * another owner holds (here a second machine handle of libpmon on the same
 * emulated machine, as another process holds silicon) makes PAPI_start fail
 * with PAPI_ECNFLCT and a message naming the box, a register and the
 * holder (this process, by its pid); nothing of the refused set counts, the holder's count is
 * intact, PAPI_stop after the refused start prints no "not counting"; once
 * the holder stops, the same set starts and counts exactly. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

static char errfile[] = "/tmp/pmon-busy-err-XXXXXX";

/* stderr goes to a file while f runs; its text comes back in buf */
static int saved_fd = -1;
static void capture_begin(void)
{
	int fd = mkstemp(errfile);
	fflush(stderr);
	saved_fd = dup(2);
	dup2(fd, 2);
	close(fd);
}

static void capture_end(char *buf, size_t len)
{
	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	FILE *f = fopen(errfile, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	unlink(errfile);
	memcpy(errfile + strlen(errfile) - 6, "XXXXXX", 6);
}

int main(void)
{
	char dir[] = "/tmp/pmon-busy-XXXXXX", err[512], out[4096], pid[64];
	if (!mkdtemp(dir))
		return 1;
	setenv("PMON_RUN_DIR", dir, 1);
	setenv("PMON_SIM", "clock=manual", 1);
	unsetenv("PMON_QUIET");
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	pmon_sim_t *sim = pmon_sim_current();
	CHECK(sim != NULL, "the component opened the emulated machine");

	/* the other owner: a libpmon machine handle counting PCU clockticks */
	pmon_machine_t *m;
	pmon_session_t *s;
	pmon_encoding_t e;
	uint64_t v = 0;
	CHECK_EQ_INT(pmon_machine_open(&m, "sim", err, sizeof(err)), PMON_OK, err);
	pmon_session_create(m, &s);
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0", &e, err,
					 sizeof(err)), PMON_OK, err);
	pmon_session_add(s, &e);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));

	int es = PAPI_NULL;
	long long pv[1] = { -1 };
	PAPI_create_eventset(&es);
	CHECK_EQ_INT(PAPI_add_named_event(es, "pmon:::snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0"),
		     PAPI_OK, "the event itself is fine");
	capture_begin();
	int rc = PAPI_start(es);
	int rc_stop = PAPI_stop(es, pv);
	capture_end(out, sizeof(out));
	CHECK_EQ_INT(rc, PAPI_ECNFLCT, "a busy box is a conflict");
	/* the holder is this process's own libpmon handle: said so */
	snprintf(pid, sizeof(pid), "already held by this process (pid %ld)", (long)getpid());
	CHECK(strstr(out, pid) && strstr(out, "another pmon machine handle") &&
	      strstr(out, "snbep_unc_pcu") && strstr(out, "CTL0"),
	      "the message names the holder, the box and a register: %s", out);
	CHECK(!strstr(out, "not counting"), "no spurious message: %s", out);
	CHECK(rc_stop != PAPI_OK, "PAPI_stop of a set that never started is refused by PAPI (%d)",
	      rc_stop);

	/* the holder's count is intact */
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_stop(s, &v), PMON_OK, pmon_session_errmsg(s));
	uint64_t pclk = pmon_sim_shape(sim)->pclk_hz;
	CHECK_EQ_U64(v, pclk / 1000, "the holder's PCU clockticks over 1 ms");
	pmon_session_destroy(s);
	pmon_machine_close(m);

	/* free now: the same set starts and counts */
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "starts once the box is free");
	pmon_sim_advance_ns(sim, 2000000);
	CHECK_EQ_INT(PAPI_stop(es, pv), PAPI_OK, "stop");
	CHECK_EQ_U64(pv[0], 2 * pclk / 1000, "PCU clockticks over 2 ms");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	CHECK(rmdir(dir) == 0, "no lock left behind");
	return check_done("test_pmon_busy");
}
