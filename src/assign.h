/* assign.h - counter assignment and shared-filter arbitration. */
#ifndef PMON_ASSIGN_H
#define PMON_ASSIGN_H

#include <stddef.h>
#include "machine.h"

#define PMON_SCHED_MAX 256

/* counter[i] receives the counter of ev[i] (-1: the fixed counter).
 * PMON_ECONFLICT with a message naming the events when impossible. */
int pmon_schedule(const struct pmon_machine *m, const pmon_encoding_t *ev, int n,
		  int *counter, char *err, size_t errlen);

/* The shared-filter part alone: PMON_ECONFLICT when two of the events need
 * different values in one filter field (or one whole-register matcher). */
int pmon_check_filters(const struct pmon_machine *m, const pmon_encoding_t *ev, int n,
		       char *err, size_t errlen);

#endif
