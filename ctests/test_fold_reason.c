/* test_fold_reason.c - a session's reason (pmon_session_errmsg) is written
 * only by the calls made on the session, never by the machine's fold, which
 * runs in another thread on silicon (here: inside pmon_sim_advance_ns, on
 * emulated time).  A fold that finds a control changed by another agent
 * records the fault; the session's next read reports it, with its own
 * reason.  Until then the reason of the caller's last failed call stays.
 *
 * On the emulated machine: CBo 2 of socket 0 counts its clock; another agent
 * rewrites its control (C2_MSR_PMON_CTL0, MSR 0xD50) while it counts. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fold.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

int main(void)
{
	char err[512], why[256], before[512];
	pmon_machine_t *m = NULL;
	pmon_session_t *s;
	pmon_encoding_t e;
	struct pmon_access *raw;
	uint64_t v;

	setenv("PMON_SIM", "clock=manual", 1);
	CHECK_EQ_INT(pmon_machine_open(&m, "sim", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return check_done("test_fold_reason");
	pmon_sim_t *sim = pmon_sim_current();
	CHECK_EQ_INT(pmon_sim_access_open(&raw, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_cbo2::UNC_C_CLOCKTICKS:socket=0", &e, err,
					 sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));

	/* a failed call, and its reason */
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_EINVAL, "no add while counting");
	snprintf(before, sizeof(before), "%s", pmon_session_errmsg(s));
	CHECK(strstr(before, "while counting") != NULL, "the add's reason: %s", before);

	/* another agent rewrites the control; folds run (two fold periods) */
	CHECK_EQ_INT(raw->ops->msr_write(raw, 0, 0xd50, 0, why, sizeof why), PMON_OK, why);
	pmon_sim_advance_ns(sim, 2 * pmon_fold_period_ns(44));
	CHECK(strcmp(pmon_session_errmsg(s), before) == 0,
	      "the reason of the caller's last call stays through the folds: '%s' became '%s'",
	      before, pmon_session_errmsg(s));

	/* the read reports what the fold found */
	v = 777;
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_EBUSY, "control changed");
	CHECK(strstr(pmon_session_errmsg(s), "cbo2 socket 0 CTL0 (MSR 0xd50)") != NULL,
	      "the read's reason names the control: %s", pmon_session_errmsg(s));
	CHECK_EQ_U64(v, 777, "no number");
	pmon_session_destroy(s);
	raw->ops->close(raw);
	pmon_machine_close(m);
	return check_done("test_fold_reason");
}
