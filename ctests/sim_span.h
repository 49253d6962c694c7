/*
 * sim_span.h - what the tests of a count's window on the emulated machine
 * share (test_start_span, test_stop_span, test_read_unlocked): the UCLK
 * ticks the machine's clock has counted at an instant of its time, and an
 * event added to a session by its name.
 */
#ifndef PMON_SIM_SPAN_H
#define PMON_SIM_SPAN_H

#include <stdint.h>

#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

/* UCLK ticks from the machine's time 0 to ns (whole ticks, as it counts). */
static inline uint64_t span_uclk(const pmon_sim_t *sim, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * pmon_sim_shape(sim)->uclk_hz / 1000000000u);
}

/* Encode name on m and add it to s; a failure is a failed check. */
static inline void span_add(pmon_machine_t *m, pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	char err[512];
	CHECK_EQ_INT(pmon_machine_encode(m, name, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
}

#endif
