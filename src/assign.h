/* assign.h - counter assignment and shared-filter arbitration. */
#ifndef PMON_ASSIGN_H
#define PMON_ASSIGN_H

#include <stddef.h>
#include "machine.h"

#define PMON_SCHED_MAX 256

/* counter[i] receives the counter of ev[i] (-1: the fixed counter).
 * PMON_ECONFLICT with a message naming the events when impossible.  The
 * offcore-response events are first given RSP registers in order (rsp.h):
 * one whose slot changes has its encoding rewritten in ev[]. */
int pmon_schedule(const struct pmon_machine *m, pmon_encoding_t *ev, int n,
		  int *counter, char *err, size_t errlen);

/* The same for a set that was placed before and gained one event, ev[n-1]
 * (pointers, so that a caller's events need not be copied): only the new
 * event's RSP register and filters are checked against the others (ev[n-1]
 * may be rewritten to another RSP register; the others are not changed), and
 * only its counter group is placed again; counter[] holds the earlier
 * placement and receives the new one, identical to what pmon_schedule()
 * gives for the whole set. */
int pmon_schedule_add(const struct pmon_machine *m, pmon_encoding_t *const *ev, int n,
		      int *counter, char *err, size_t errlen);

/* The shared-filter part alone: PMON_ECONFLICT when two of the events need
 * different values in one filter field (or one whole-register matcher). */
int pmon_check_filters(const struct pmon_machine *m, const pmon_encoding_t *ev, int n,
		       char *err, size_t errlen);

#endif
