/*
 * test_forced.c - a box taken by force (PMON_FORCE=1) is not taken
 * silently: the owner's next read fails with PMON_EBUSY saying its box was
 * taken by force and by which process, gives no number, and so do its
 * later reads and its stop.  On the emulated machine (two machine handles
 * of this process: the owner and the forcer, each counting PCU clockticks
 * of socket 0 on counters of their own, so no control of the owner's
 * changes) and on fake device files (the owner a child process, the forcer
 * this one).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "sim_machine.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

#define PCU "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0"

static char err[512];

static pmon_session_t *started(pmon_machine_t *m, int *rc)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	pmon_session_create(m, &s);
	pmon_machine_encode(m, PCU, &e, err, sizeof(err));
	pmon_session_add(s, &e);
	*rc = pmon_session_start(s);
	return s;
}

static void emulated(void)
{
	pmon_machine_t *owner, *forcer;
	pmon_sim_t *sim = sim_machine_open(&owner, NULL, 0, err, sizeof(err));
	if (!sim)
		return;
	int rc;
	uint64_t v[1];
	pmon_session_t *a = started(owner, &rc);
	CHECK_EQ_INT(rc, PMON_OK, pmon_session_errmsg(a));
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_machine_open(&forcer, "sim", err, sizeof(err)), PMON_OK, err);
	pmon_session_t *b = started(forcer, &rc);
	CHECK_EQ_INT(rc, PMON_EBUSY, "without PMON_FORCE the box is busy");
	pmon_session_destroy(b);
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_OK, "a refused start takes nothing");
	setenv("PMON_FORCE", "1", 1);
	b = started(forcer, &rc);
	unsetenv("PMON_FORCE");
	CHECK_EQ_INT(rc, PMON_OK, pmon_session_errmsg(b));
	CHECK(pmon_session_counter(a, 0) != pmon_session_counter(b, 0), "on another counter");
	pmon_sim_advance_ns(sim, 1000000);
	char pid[64];
	snprintf(pid, sizeof(pid), "process %ld started counting", (long)getpid());
	v[0] = 777;
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_EBUSY, "the owner's next read");
	CHECK_EQ_U64(v[0], 777, "no count");
	CHECK(strstr(pmon_session_errmsg(a), "socket0.snbep_unc_pcu was taken by force") &&
	      strstr(pmon_session_errmsg(a), pid) && strstr(pmon_session_errmsg(a), "PMON_FORCE=1"),
	      "says so: %s", pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_EBUSY, "the read after");
	CHECK_EQ_INT(pmon_session_stop(a, v), PMON_EBUSY, "the stop");
	CHECK_EQ_U64(v[0], 777, "no count");
	CHECK_EQ_INT(pmon_session_stop(b, v), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_U64(v[0], pmon_sim_shape(sim)->pclk_hz / 1000, "the forcer counted 1 ms");
	pmon_session_destroy(a);
	pmon_session_destroy(b);
	pmon_machine_close(forcer);
	pmon_machine_close(owner);
}

/* The owner is a child: it starts, says so, waits for the word, reads, and
 * sends back the read's code and message. */
static void hardware(void)
{
	char base[128];
	struct fake_world w;
	int up[2], down[2];
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w) || pipe(up) || pipe(down)) {
		CHECK(0, "fake device files");
		return;
	}
	pid_t child = fork();
	if (child == 0) {
		pmon_machine_t *m;
		char c = 'n', msg[1024] = "";
		int rc = pmon_machine_open(&m, "msr", msg, sizeof(msg));
		pmon_session_t *s = rc ? NULL : started(m, &rc);
		c = rc ? 'n' : 'y';
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(1);
		uint64_t v[1];
		rc = s ? pmon_session_read(s, v) : rc;
		snprintf(msg, sizeof(msg), "%s", s ? pmon_session_errmsg(s) : "no session");
		if (write(up[1], &rc, sizeof(rc)) < 0 || write(up[1], msg, strlen(msg)) < 0)
			_exit(1);
		if (s)
			pmon_session_stop(s, NULL);
		_exit(0);
	}
	close(up[1]);
	char c = 0, msg[1024] = "";
	CHECK(read(up[0], &c, 1) == 1 && c == 'y', "the owner counts");
	pmon_machine_t *m;
	int rc;
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	setenv("PMON_FORCE", "1", 1);
	pmon_session_t *s = started(m, &rc);
	unsetenv("PMON_FORCE");
	CHECK_EQ_INT(rc, PMON_OK, pmon_session_errmsg(s));
	CHECK(write(down[1], "r", 1) == 1, "tell the owner to read");
	int crc = 0;
	CHECK(read(up[0], &crc, sizeof(crc)) == sizeof(crc), "the owner's answer");
	ssize_t n = read(up[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = 0;
	waitpid(child, NULL, 0);
	char pid[64];
	snprintf(pid, sizeof(pid), "process %ld started counting", (long)getpid());
	CHECK_EQ_INT(crc, PMON_EBUSY, "the owner's next read fails");
	CHECK(strstr(msg, "socket0.snbep_unc_pcu was taken by force") && strstr(msg, pid),
	      "says so: %s", msg);
	pmon_session_stop(s, NULL);
	pmon_session_destroy(s);
	pmon_machine_close(m);
	fake_rmtree(base);
}

int main(void)
{
	setenv("PMON_QUIET", "1", 1);
	emulated();        /* (the forcer's loud line on stderr is expected) */
	hardware();
	return check_done("test_forced");
}
