/*
 * sim_clock.c - emulated time.  The machine keeps the total elapsed time in
 * ns; a clock at hz has ticked floor(t * hz / 1e9) times at time t (128-bit
 * arithmetic), so counts never drift however time is sliced.  Advancing is
 * O(number of counters counting a clock), whatever the interval.
 */
#include <stdlib.h>

#include "sim_internal.h"

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
	for (int c = 0; c < sim->ncpus; c++) {
		for (int i = 0; i < 4; i++)
			add(sim, &sim->cpu[c].pmc[i]);
		for (int i = 0; i < 3; i++)
			add(sim, &sim->cpu[c].fixed[i]);
	}
	sim->clk_dirty = 0;
}

static unsigned __int128 ticks(uint64_t t_ns, uint64_t hz)
{
	return (unsigned __int128)t_ns * hz / 1000000000u;
}

void pmon_sim_advance_ns(pmon_sim_t *sim, uint64_t ns)
{
	uint64_t t0, t1, delta[SIM_NCLOCKS];

	pthread_mutex_lock(&sim->lock);
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
	sim->now_ns = t1;
	pthread_mutex_unlock(&sim->lock);
}

uint64_t pmon_sim_now_ns(const pmon_sim_t *sim)
{
	uint64_t t;

	sim_lock(sim);
	t = sim->now_ns;
	sim_unlock(sim);
	return t;
}
