/*
 * fold.h - 64-bit totals that stay exact however long nobody reads.
 *
 * A PMON counter is 44 or 48 bits wide and wraps; libpmon keeps a 64-bit
 * total per event by adding (raw - last) mod 2^width at every read, which is
 * exact as long as no counter wraps twice between two reads.  So a running
 * machine folds every running session's counters into their totals on its
 * own, well within the shortest time any of its counters could take to wrap:
 *
 *   bound(width)  = 2^width / (PMON_FOLD_MAX_HZ * PMON_FOLD_MAX_INC)
 *                   (the fastest PMON clock, 4 GHz, and the most an event can
 *                   add in one cycle, 64): 68.7 s for 44 bits, 1099.5 s for 48
 *   period(width) = bound / 8: 8.6 s for 44-bit counters, 137.4 s for 48
 *
 * On silicon a thread of the machine folds every period of wall time
 * (CLOCK_MONOTONIC); on the emulated machine the backend's tick does it
 * every period of emulated time (pmon_sim_advance_ns stops at each deadline),
 * and the thread still runs for time that follows the wall clock.  A fold
 * or read that finds more than bound(width) since the last fold (the process
 * was stopped, or the machine suspended) cannot know how often the counter
 * wrapped: it fails with PMON_ESTALE, never a wrong total.
 */
#ifndef PMON_FOLD_H
#define PMON_FOLD_H

#include <pthread.h>
#include <stdint.h>

#include "access.h"

#define PMON_FOLD_MAX_HZ 4000000000ull
#define PMON_FOLD_MAX_INC 64u

/* A running session checks that the registers it wrote still hold what it
 * wrote at every fold, at stop and reset, and at a read at least this long
 * (backend clock) after its last full check; a PCI box's controls that come
 * in its counter block are checked at every read (doc/internals.md). */
#define PMON_VERIFY_NS 100000000ull

uint64_t pmon_fold_bound_ns(int width);
uint64_t pmon_fold_period_ns(int width);

/* The backend's clock: its own (emulated time) or CLOCK_MONOTONIC. */
uint64_t pmon_clock_ns(struct pmon_access *a);

struct pmon_fold {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	int started, stop;
	uint64_t period_ns;        /* 0 until a session runs */
	struct pmon_access *acc;
	void (*fn)(void *arg);
	void *arg;
};

void pmon_fold_init(struct pmon_fold *f, struct pmon_access *a, void (*fn)(void *arg), void *arg);
/* Fold at least every period_ns from now on (the shortest asked for wins);
 * starts the thread and the backend's tick on first use. */
int pmon_fold_need(struct pmon_fold *f, uint64_t period_ns);
/* Stop the thread and the tick (the machine is closing). */
void pmon_fold_fini(struct pmon_fold *f);

#endif
