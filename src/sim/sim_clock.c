/*
 * sim_clock.c - emulated time.  The machine keeps the total elapsed time in
 * ns; a clock at hz has ticked floor(t * hz / 1e9) times at time t (128-bit
 * arithmetic), so counts never drift however time is sliced.  Advancing is
 * O(number of counters counting a clock), whatever the interval.
 *
 * Clock modes (shape.clock): manual moves only with pmon_sim_advance_ns;
 * wall (and auto until the program takes control) first brings now_ns up
 * to the CLOCK_MONOTONIC time elapsed since creation, through the same
 * advance, at every register access and pmon_sim_now_ns.  The time spent
 * modelling the load= stream and the noise= trickle is left out of the
 * emulated time.  Every advance brings the noise= trickle up to date.
 */
#include <stdlib.h>
#include <time.h>

#include "sim_clock.h"
#include "sim_traffic.h"
#include "nhm_sim.h"

void sim_clock_mark(struct pmon_sim *sim)
{
	sim->clk_dirty = 1;
}

static void add(struct pmon_sim *sim, struct sim_ctr *c)
{
	if (c->active && c->clock >= 0 && sim->clk_n < sim->clk_cap)
		sim->clk[sim->clk_n++] = c;
}

static void add_box(struct pmon_sim *sim, struct sim_box *b)
{
	for (int i = 0; i < b->kind->nctr; i++)
		add(sim, &b->ctr[i]);
	if (b->kind->has_fixed)
		add(sim, &b->fixed);
}

static void rebuild(struct pmon_sim *sim)
{
	sim->clk_n = 0;
	for (int s = 0; s < sim->shape.sockets; s++) {
		struct sim_socket *k = &sim->sock[s];
		add_box(sim, &k->ubox);
		for (int i = 0; i < sim->shape.cores; i++)
			add_box(sim, &k->cbo[i]);
		add_box(sim, &k->pcu);
		add_box(sim, &k->ha);
		for (int i = 0; i < sim->shape.channels; i++)
			add_box(sim, &k->imc[i]);
		for (int i = 0; i < 2; i++) {
			add_box(sim, &k->qpi[i]);
			add_box(sim, &k->r3qpi[i]);
		}
		add_box(sim, &k->r2pcie);
	}
	if (sim->nhm)
		sim_nhm_clocks(sim, add);
	for (int c = 0; c < sim->ncpus; c++) {
		for (int i = 0; i < 4; i++)
			add(sim, &sim->cpu[c].pmc[i]);
		for (int i = 0; i < 3; i++)
			add(sim, &sim->cpu[c].fixed[i]);
	}
	sim->clk_dirty = 0;
}

/* floor(t_ns * hz / 1e9), split at whole seconds so that no 128-bit
 * division is needed: q * hz is whole, and r * hz < 1e9 * 5 GHz (the
 * shape's highest clock) fits in 64 bits. */
static unsigned __int128 ticks(uint64_t t_ns, uint64_t hz)
{
	uint64_t q = t_ns / 1000000000u, r = t_ns % 1000000000u;

	return (unsigned __int128)q * hz + r * hz / 1000000000u;
}

/* Move now_ns on by ns (saturating), ticking every clock-counting counter. */
void sim_clock_advance(struct pmon_sim *sim, uint64_t ns)
{
	uint64_t t0, t1, delta[SIM_NCLOCKS];

	if (sim->clk_dirty)
		rebuild(sim);
	t0 = sim->now_ns;
	t1 = ns > UINT64_MAX - t0 ? UINT64_MAX : t0 + ns;
	for (int d = 0; d < SIM_NCLOCKS; d++) {
		unsigned __int128 dt = ticks(t1, sim->hz[d]) - ticks(t0, sim->hz[d]);
		delta[d] = dt > UINT64_MAX ? UINT64_MAX : (uint64_t)dt;
	}
	for (size_t i = 0; i < sim->clk_n; i++)
		sim_ctr_cycles(sim->clk[i], delta[sim->clk[i]->clock]);
	SIM_PUT(sim->now_ns, t1);
	if (sim->shape.noise_bps)
		sim_noise_run(sim);
}

/* Emulated time moves in steps of at least this much wall time: reads in
 * quick succession (one read of several counters, a program reading in a
 * tight loop) see one instant, and the wall clock is looked at about once
 * per step (SIM_WALL_TSC_STEP in sim_clock.h). */
#define SIM_WALL_QUANTUM_NS 10000u
_Static_assert(SIM_WALL_TSC_STEP <= SIM_WALL_QUANTUM_NS, "the TSC step is at most a quantum at 1 GHz");
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void sim_clock_init(struct pmon_sim *sim)
{
	SIM_PUT(sim->follow, sim->shape.clock != PMON_SIM_CLOCK_MANUAL);
	sim->wall_t0 = sim->follow ? mono_ns() : 0;
	sim->wall_done = 0;
	sim->load_lines = 0;
	sim->noise_lines = 0;
}

/* sim_clock_sync (sim_clock.h) found the TSC moved on by a quantum or
 * more (or no TSC): read the wall clock. */
void sim_clock_sync_wall(struct pmon_sim *sim)
{
	uint64_t m, w;

	m = mono_ns();
	w = m - sim->wall_t0;
	if (w < sim->wall_done + SIM_WALL_QUANTUM_NS)
		return;
	sim_clock_advance(sim, w - sim->wall_done);
	sim->wall_done = w;
	if (sim->shape.load_bps || sim->shape.noise_bps) {
		if (sim->shape.load_bps)
			sim_load_run(sim, w);
		/* The machine stands still while the emulator models the lines
		 * (milliseconds for a long interval): otherwise the next access
		 * would find that much more time passed, and two counters read
		 * one after the other would cover different intervals. */
		sim->wall_t0 += mono_ns() - m;
	}
}

void sim_clock_take(struct pmon_sim *sim)
{
	sim_clock_sync(sim);
	if (sim->shape.clock == PMON_SIM_CLOCK_AUTO)
		SIM_PUT(sim->follow, 0);
}

uint64_t pmon_sim_now_ns(const pmon_sim_t *sim)
{
	/* the machine is never const itself: time may catch up with the wall */
	struct pmon_sim *m = (struct pmon_sim *)sim;
	uint64_t t;

	sim_lock(m);
	sim_clock_sync(m);
	t = m->now_ns;
	sim_unlock(m);
	return t;
}
