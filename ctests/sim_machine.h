/*
 * sim_machine.h - the emulated machine as a test opens it through the
 * public API: PMON_SIM=clock=manual (the test moves time) and prefetch=off
 * (the tests count demand traffic exactly), a run directory
 * of its own when asked, the emulator's access log of a given capacity.
 * Includes check.h (the open is one recorded check).
 */
#ifndef PMON_SIM_MACHINE_H
#define PMON_SIM_MACHINE_H

#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

/* Open the "sim" backend into *m; dir, unless NULL, is a mkdtemp template
 * made PMON_RUN_DIR first.  The emulated machine, or NULL when the open
 * failed (err holds why; the failed check is recorded). */
static inline pmon_sim_t *sim_machine_open(pmon_machine_t **m, char *dir, size_t logcap,
					   char *err, size_t len)
{
	if (dir) {
		if (!mkdtemp(dir)) {
			CHECK(0, "a run directory from %s", dir);
			return NULL;
		}
		setenv("PMON_RUN_DIR", dir, 1);
	}
	setenv("PMON_SIM", "clock=manual,prefetch=off", 1);    /* exact demand traffic */
	int rc = pmon_machine_open(m, "sim", err, len);
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return NULL;
	pmon_sim_t *sim = pmon_sim_current();
	pmon_sim_log_set_cap(sim, logcap);
	return sim;
}

#endif
