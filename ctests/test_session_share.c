/* test_session_share.c - two running sessions that use one box's filter
 * register: the register holds the fields of both (a second session's
 * start keeps the first one's), a session that stops takes only its own
 * fields away, and the value the register had before either started comes
 * back when the last one stops, whichever stops first.
 *
 * On the emulated machine: CBo 6 of socket 0, whose single filter register
 * (MSR 0xD14 + 6 * 0x20) carries the state, node and opcode fields.  What
 * each event needs in it is its encoding's filter word; the register is
 * first set to a value another agent left there. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

#define CBO6_FILTER (0xd14 + 6 * 0x20)
#define LEFT        (0x1fu << 18)         /* every state: left by another agent */

static pmon_machine_t *m;
static struct pmon_access *acc;
static char err[512], why[256];

static uint64_t filter(void)
{
	uint64_t v = ~0ull;
	CHECK_EQ_INT(acc->ops->msr_read(acc, 0, CBO6_FILTER, &v, why, sizeof why), PMON_OK, why);
	return v;
}

/* A session of one event; *filt receives what the event needs in the filter. */
static pmon_session_t *one(const char *name, uint64_t *filt)
{
	pmon_session_t *s = NULL;
	pmon_encoding_t e;
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	CHECK_EQ_INT(pmon_machine_encode(m, name, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	*filt = e.filt[0];
	return s;
}

/* a: LLC lookups of Modified lines (state field); b: the second event.
 * stop_b_first: the later session stops first. */
static void share(const char *b_name, int stop_b_first)
{
	uint64_t fa, fb;
	pmon_session_t *a = one("snbep_unc_cbo6::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0", &fa);
	pmon_session_t *b = one(b_name, &fb);
	CHECK_EQ_INT(acc->ops->msr_write(acc, 0, CBO6_FILTER, LEFT, why, sizeof why), PMON_OK, why);

	CHECK_EQ_INT(pmon_session_start(a), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_U64(filter(), fa, "a's filter");
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_U64(filter(), fa | fb, "both sessions' fields while both count");
	uint64_t v[1];
	CHECK_EQ_INT(pmon_session_read(a, v), PMON_OK, pmon_session_errmsg(a));
	CHECK_EQ_INT(pmon_session_read(b, v), PMON_OK, pmon_session_errmsg(b));

	pmon_session_t *first = stop_b_first ? b : a, *last = stop_b_first ? a : b;
	uint64_t f_last = stop_b_first ? fa : fb;
	CHECK_EQ_INT(pmon_session_stop(first, NULL), PMON_OK, pmon_session_errmsg(first));
	CHECK_EQ_U64(filter(), f_last, "the session still counting keeps its fields, alone");
	CHECK_EQ_INT(pmon_session_stop(last, NULL), PMON_OK, pmon_session_errmsg(last));
	CHECK_EQ_U64(filter(), LEFT, "the value from before both comes back");
	pmon_session_destroy(a);
	pmon_session_destroy(b);
}

int main(void)
{
	setenv("PMON_SIM", "clock=manual", 1);
	CHECK_EQ_INT(pmon_machine_open(&m, "sim", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return check_done("test_session_share");
	CHECK_EQ_INT(pmon_sim_access_open(&acc, err, sizeof(err)), PMON_OK, err);
	/* other fields of the register: the node field */
	share("snbep_unc_cbo6::UNC_C_TOR_INSERTS:NID_ALL:nf=1:socket=0", 0);
	share("snbep_unc_cbo6::UNC_C_TOR_INSERTS:NID_ALL:nf=1:socket=0", 1);
	/* the same field with the same value */
	share("snbep_unc_cbo6::UNC_C_LLC_LOOKUP:WRITE:STATE_M:socket=0", 0);
	share("snbep_unc_cbo6::UNC_C_LLC_LOOKUP:WRITE:STATE_M:socket=0", 1);
	acc->ops->close(acc);
	pmon_machine_close(m);
	return check_done("test_session_share");
}
