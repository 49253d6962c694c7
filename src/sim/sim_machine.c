/*
 * sim_machine.c - creating and destroying a machine, the process's current
 * machine, and the socket/CPU/bus bookkeeping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_clock.h"
#include "sim_log.h"
#include "sim_space.h"
#include "sim_traffic.h"
#include "nhm_sim.h"


static pthread_mutex_t cur_lock = PTHREAD_MUTEX_INITIALIZER;
static pmon_sim_t *cur;

int sim_cpu_socket(const struct pmon_sim *sim, int cpu)
{
	return cpu / (sim->shape.cores * sim->shape.threads);
}

int sim_cpu_core_global(const struct pmon_sim *sim, int cpu)
{
	return cpu / sim->shape.threads;
}

/* Buses: packages in ascending node-ID order take 0x3f, 0x7f, 0xbf, 0xff
 * (more than 4 sockets: 0x1f, 0x3f, ... 0xff). */
static void assign_buses(struct pmon_sim *sim)
{
	int n = sim->shape.sockets;

	for (int b = 0; b < 256; b++)
		sim->bus_socket[b] = -1;
	for (int p = 0; p < n; p++) {
		struct sim_socket *s = &sim->sock[p];
		s->nodeid = sim->shape.nodeids[p];
		s->slot = 0;
		for (int q = 0; q < n; q++)
			if (sim->shape.nodeids[q] < s->nodeid)
				s->slot++;
		s->bus = n <= 4 ? 0x3f + 0x40 * s->slot : 0x1f + 0x20 * s->slot;
		sim->bus_socket[s->bus] = p;
	}
}

static void init_socket(struct pmon_sim *sim, int p)
{
	struct sim_socket *s = &sim->sock[p];

	sim_box_init(&s->ubox, &sim_kind_ubox, p, 0);
	for (int i = 0; i < SIM_MAX_CORES; i++)
		sim_box_init(&s->cbo[i], &sim_kind_cbo, p, i);
	sim_box_init(&s->pcu, &sim_kind_pcu, p, 0);
	sim_box_init(&s->ha, &sim_kind_ha, p, 0);
	for (int i = 0; i < SIM_MAX_CHANS; i++) {
		sim_box_init(&s->imc[i], &sim_kind_imc, p, i);
		sim_dram_init(&s->chan[i]);
	}
	for (int i = 0; i < 2; i++) {
		sim_box_init(&s->qpi[i], &sim_kind_qpi, p, i);
		sim_box_init(&s->r3qpi[i], &sim_kind_r3qpi, p, i);
	}
	sim_box_init(&s->r2pcie, &sim_kind_r2pcie, p, 0);
}

pmon_sim_t *pmon_sim_create(const struct pmon_sim_shape *shape)
{
	struct pmon_sim *sim = calloc(1, sizeof *sim);

	if (!sim)
		return NULL;
	sim->shape = *shape;
	pthread_mutex_init(&sim->lock, NULL);
	sim->ncpus = pmon_sim_ncpus(shape);
	sim->hz[SIM_UCLK] = shape->uclk_hz;
	sim->hz[SIM_DCLK] = shape->dclk_hz;
	sim->hz[SIM_PCLK] = shape->pclk_hz;
	sim->hz[SIM_QCLK] = shape->qclk_hz;
	sim->hz[SIM_TSC] = shape->tsc_hz;
	sim->cpu = calloc((size_t)sim->ncpus, sizeof *sim->cpu);
	/* at most 3 + 4*8 + 4 + 4 + 5*4 + 4*2 + 4 + 3*2 = 81 uncore counters per
	 * socket, 7 per CPU */
	sim->clk_cap = (size_t)shape->sockets * 96 + (size_t)sim->ncpus * 8;
	sim->clk = calloc(sim->clk_cap, sizeof *sim->clk);
	if (!sim->cpu || !sim->clk || sim_log_init(sim, 0)) {
		pmon_sim_destroy(sim);
		return NULL;
	}
	assign_buses(sim);
	for (int p = 0; p < shape->sockets; p++)
		init_socket(sim, p);
	sim->frames_total = shape->mem_bytes / 4096;
	for (int p = 0; p < shape->sockets; p++)
		sim_frames_init(&sim->sock[p].frames, sim->frames_total, p);
	if (sim_nhm_init(sim) || sim_hier_init(sim)) {
		pmon_sim_destroy(sim);
		return NULL;
	}
	sim_core_init(sim);
	sim->clk_dirty = 1;
	sim_clock_init(sim);
	return sim;
}

void pmon_sim_destroy(pmon_sim_t *sim)
{
	if (!sim)
		return;
	pthread_mutex_lock(&cur_lock);
	if (cur == sim)
		cur = NULL;
	pthread_mutex_unlock(&cur_lock);
	sim_log_free(sim);
	sim_windows_free(sim);
	sim_hier_free(sim);
	sim_nhm_free(sim);
	sim_mem_free_all(sim);
	free(sim->clk);
	free(sim->cpu);
	pthread_mutex_destroy(&sim->lock);
	free(sim);
}

const struct pmon_sim_shape *pmon_sim_shape(const pmon_sim_t *sim)
{
	return &sim->shape;
}

int pmon_sim_socket_bus(const pmon_sim_t *sim, int socket)
{
	if (!sim || socket < 0 || socket >= sim->shape.sockets)
		return -1;
	return sim->sock[socket].bus;
}

pmon_sim_t *pmon_sim_current(void)
{
	pmon_sim_t *s;

	pthread_mutex_lock(&cur_lock);
	s = cur;
	pthread_mutex_unlock(&cur_lock);
	return s;
}

pmon_sim_t *pmon_sim_set_current(pmon_sim_t *sim)
{
	pmon_sim_t *old;

	pthread_mutex_lock(&cur_lock);
	old = cur;
	cur = sim;
	pthread_mutex_unlock(&cur_lock);
	return old;
}

/* The current machine, created from $PMON_SIM if there is none yet.  It is
 * the one machine whose clock defaults to auto (see sim.h): a program that
 * never drives time still sees it pass. */
int sim_current_get(pmon_sim_t **out, char *err, size_t errlen)
{
	int rc = 0;

	pthread_mutex_lock(&cur_lock);
	if (!cur) {
		struct pmon_sim_shape sh;
		int clock_named = 0;
		if (sim_shape_parse(getenv("PMON_SIM"), &sh, &clock_named, err, errlen))
			rc = PMON_EINVAL;
		if (!rc && !clock_named)
			sh.clock = PMON_SIM_CLOCK_AUTO;
		if (!rc && !(cur = pmon_sim_create(&sh))) {
			rc = PMON_ENOMEM;
			if (err && errlen)
				snprintf(err, errlen, "PMON_SIM: out of memory creating the machine");
		}
	}
	*out = cur;
	pthread_mutex_unlock(&cur_lock);
	return rc;
}
