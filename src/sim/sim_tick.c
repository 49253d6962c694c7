/*
 * sim_tick.c - explicit advances of emulated time, and the ticks they run.
 *
 * A program on the emulated machine may want to act every so much emulated
 * time, as a program on silicon runs a timer every so much wall time
 * (libpmon folds its counters into 64-bit totals that way).  An explicit
 * advance is therefore cut at every registered tick's deadline: time moves
 * to the deadline, the tick's function runs (without the machine's lock, so
 * it may access registers), and time moves on.  However long the advance,
 * each tick sees every one of its periods pass.
 * pmon_sim_advance_stopped_ns() advances as if every program using the
 * machine were stopped meanwhile (SIGSTOP, a suspended laptop): no tick
 * runs, and the overdue ones run at the next explicit advance.
 */
#include <string.h>

#include "pmon/pmon.h"
#include "sim_clock.h"

int sim_tick_set(struct pmon_sim *sim, const void *owner, uint64_t period,
		 void (*fn)(void *arg), void *arg)
{
	int rc = PMON_OK;
	sim_lock(sim);
	int i = 0;
	while (i < sim->nticks && sim->ticks[i].owner != owner)
		i++;
	if (period == 0) {
		if (i < sim->nticks)
			sim->ticks[i] = sim->ticks[--sim->nticks];
	} else if (i == sim->nticks && sim->nticks == SIM_MAX_TICKS) {
		rc = PMON_ENOMEM;
	} else {
		if (i == sim->nticks)
			sim->nticks++;
		sim->ticks[i].owner = owner;
		sim->ticks[i].period = period;
		sim->ticks[i].next = sim->now_ns + period;
		sim->ticks[i].fn = fn;
		sim->ticks[i].arg = arg;
	}
	sim_unlock(sim);
	return rc;
}

void pmon_sim_advance_ns(pmon_sim_t *sim, uint64_t ns)
{
	sim_lock(sim);
	sim_clock_take(sim);
	uint64_t end = ns > UINT64_MAX - sim->now_ns ? UINT64_MAX : sim->now_ns + ns;
	for (;;) {
		uint64_t stop = end;
		for (int i = 0; i < sim->nticks; i++)
			if (sim->ticks[i].next < stop)
				stop = sim->ticks[i].next;
		if (stop > sim->now_ns)
			sim_clock_advance(sim, stop - sim->now_ns);
		/* the ticks due now, called without the lock */
		struct sim_tick due[SIM_MAX_TICKS];
		int ndue = 0;
		for (int i = 0; i < sim->nticks; i++)
			if (sim->ticks[i].next <= sim->now_ns) {
				due[ndue++] = sim->ticks[i];
				sim->ticks[i].next = sim->now_ns + sim->ticks[i].period;
			}
		if (!ndue && sim->now_ns >= end)
			break;
		sim_unlock(sim);
		for (int i = 0; i < ndue; i++)
			due[i].fn(due[i].arg);
		sim_lock(sim);
		if (sim->now_ns >= end && !ndue)
			break;
	}
	sim_unlock(sim);
}

void pmon_sim_advance_stopped_ns(pmon_sim_t *sim, uint64_t ns)
{
	sim_lock(sim);
	sim_clock_take(sim);
	sim_clock_advance(sim, ns);
	sim_unlock(sim);
}
