/* test_assign_add.c - adding events one at a time (pmon_session_add, which
 * checks only the new event's filters and places only its counter group)
 * gives what placing the whole set at once gives (pmon_schedule): the same
 * counters for every event after every add, and the same refusal, word for
 * word, for an event that does not fit.  The events: every event of the
 * catalogue with a complete example name, on both sockets of the emulated
 * machine, in catalogue order; most boxes fill up, so refusals (counters,
 * fixed counters, shared filters) are many. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "assign.h"
#include "pmon/pmon.h"

#define MAXSET 256

int main(void)
{
	pmon_machine_t *m;
	pmon_session_t *s;
	static pmon_encoding_t set[MAXSET + 1];
	int counter[MAXSET + 1], n = 0, tried = 0, refused = 0, moved = 0;
	char err[512], full_err[512], name[PMON_MAX_NAME];

	setenv("PMON_SIM", "clock=manual", 1);
	CHECK_EQ_INT(pmon_machine_open(&m, "sim", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return check_done("test_assign_add");
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	for (int sock = 0; sock < 2; sock++)
		for (int p = 0; p < pmon_pmu_count(); p++)
			for (int ev = 0; ev < pmon_event_count(p) && n < MAXSET; ev++) {
				pmon_encoding_t *e = &set[n];
				if (pmon_event_example(p, ev, -1, name, sizeof(name)) != PMON_OK ||
				    pmon_encode(name, 2, 0, e, err, sizeof(err)) != PMON_OK)
					continue;
				if (e->cpu < 0)
					e->socket = sock;
				else
					e->cpu = pmon_machine_socket_cpu(m, sock);
				if (!pmon_machine_pmu_present(m, e->pmu, sock))
					continue;
				tried++;
				int prev[MAXSET];
				for (int i = 0; i < n; i++)
					prev[i] = pmon_session_counter(s, i);
				int full = pmon_schedule(m, set, n + 1, counter, full_err, sizeof(full_err));
				int inc = pmon_session_add(s, e);
				CHECK_EQ_INT(inc, full, e->name);
				if (inc != PMON_OK) {
					refused++;
					CHECK(strcmp(pmon_session_errmsg(s), full_err) == 0,
					      "same refusal: '%s' vs '%s'", pmon_session_errmsg(s), full_err);
					for (int i = 0; i < n; i++)
						CHECK_EQ_INT(pmon_session_counter(s, i), prev[i],
							     "a refused add moves nothing");
					continue;
				}
				n++;
				CHECK_EQ_INT(pmon_session_count(s), n, "count");
				for (int i = 0; i < n; i++) {
					if (i < n - 1 && prev[i] != counter[i])
						moved++;
					CHECK_EQ_INT(pmon_session_counter(s, i), counter[i], set[i].name);
				}
			}
	CHECK(n > 100 && refused > 100, "a broad set: %d placed, %d refused of %d", n, refused, tried);
	CHECK(moved > 0, "some adds moved earlier events to other counters (%d)", moved);
	pmon_session_destroy(s);
	pmon_machine_close(m);
	return check_done("test_assign_add");
}
