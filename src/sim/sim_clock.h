/*
 * sim_clock.h - emulated time: the clocks (sim_clock.c), following the wall
 * clock, and the ticks run as time passes (sim_tick.c).
 */
#ifndef PMON_SIM_CLOCK_H
#define PMON_SIM_CLOCK_H

#include <stdint.h>

#include "sim_machine.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

/* ---- clocks (sim_clock.c) ---- */
void sim_clock_mark(struct pmon_sim *sim);
/* At creation: start following the wall clock unless shape.clock is manual. */
void sim_clock_init(struct pmon_sim *sim);
/* While following: advance to the wall time elapsed since creation (in
 * steps of 10 us, sim_clock.c), and run the load stream up to it.  Every
 * register access and now_ns call this.  Has less than a step passed since
 * the wall clock was last read?  On x86 the TSC answers for a fraction of
 * clock_gettime's cost: it ticks at 1 GHz or more on every x86 this runs
 * on, so fewer than SIM_WALL_TSC_STEP ticks is less than that many ns (a
 * TSC that jumps back gives a huge difference: the clock is read).
 * Elsewhere the wall clock is read every time. */
#define SIM_WALL_TSC_STEP 10000u
void sim_clock_sync_wall(struct pmon_sim *sim);
/* Is a look at the wall clock due?  *tsc: the TSC it was decided by.  Also
 * asked without the lock (sim_access.c), hence the atomic loads. */
static inline int sim_clock_due(const struct pmon_sim *sim, uint64_t *tsc)
{
	*tsc = 0;
	if (!__atomic_load_n(&sim->follow, __ATOMIC_RELAXED))
		return 0;
#if defined(__x86_64__) || defined(__i386__)
	*tsc = __builtin_ia32_rdtsc();
	return *tsc - __atomic_load_n(&sim->wall_tsc, __ATOMIC_RELAXED) >= SIM_WALL_TSC_STEP;
#else
	return 1;
#endif
}
static inline void sim_clock_sync(struct pmon_sim *sim)
{
	uint64_t t;

	if (!sim_clock_due(sim, &t))
		return;
	SIM_PUT(sim->wall_tsc, t);
	sim_clock_sync_wall(sim);
}
/* An explicit advance or traffic call: sync, then (auto) stop following. */
void sim_clock_take(struct pmon_sim *sim);
/* Move emulated time on by ns (caller holds the lock). */
void sim_clock_advance(struct pmon_sim *sim, uint64_t ns);

/* ---- ticks (sim_tick.c) ---- */
/* Register (period > 0) or remove (period 0) owner's tick: fn(arg) is called,
 * without the machine's lock, each time an explicit advance carries
 * emulated time past owner's next deadline (every period ns). */
int sim_tick_set(struct pmon_sim *sim, const void *owner, uint64_t period,
		 void (*fn)(void *arg), void *arg);

#pragma GCC visibility pop

#endif
