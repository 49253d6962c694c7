/*
 * sim_path_base.c - the access path for any shape (the way counts and
 * sockets read from the machine), compiled for any x86-64 (a set's lanes
 * compared two at a time with SSE2, shifted with memmove), and the
 * hierarchy's whole-machine operations (flush, discard), which run rarely
 * and need no other copy.
 */
#define SIM_PATH_LINES sim_lines_base
#include "sim_path.h"

void sim_flush(struct pmon_sim *sim)
{
	if (!sim->hier_ready)
		return;                       /* no line ever cached */
	for (int s = 0; s < sim->shape.sockets; s++)
		for (int k = 0; k < sim->shape.cores; k++) {
			struct sim_cache *c = &sim->sock[s].llc[k];
			for (uint32_t i = 0; i < c->sets && sim->sock[s].llc_valid; i++) {
				struct sim_set set = cache_set_at(c, i);
				/* least recently used first: no lane moves */
				for (int w = (int)c->ways - 1; w >= 0; w--) {
					if (!set.e[w])
						continue;
					uint64_t line = e_line(set.e[w]);
					if (llc_drop(sim, s, &set, w))
						write_home(sim, s, line);
				}
			}
		}
	dram_flush(sim);
	sim_cores_clear(sim);
}

void sim_line_discard(struct pmon_sim *sim, uint64_t line)
{
	unsigned slice = sim_line_slice(line, sim->shape.cores);

	if (!sim->hier_ready)
		return;                       /* no line ever cached */
	for (int s = 0; s < sim->shape.sockets; s++) {
		if (!sim->sock[s].llc_valid)
			continue;
		struct sim_set set = cache_set(&sim->sock[s].llc[slice], line);
		int i = set_find(&set, line);
		if (i >= 0)
			llc_drop(sim, s, &set, i);
	}
	dram_flush(sim);
}

void sim_nt_partial(struct pmon_sim *sim, int cpu, uint64_t line)
{
	struct sim_thread *th = &sim->cpu[cpu];
	struct sim_ctx x;

	if (!sim->hier_ready)
		sim_hier_prepare(sim);
	x = ctx_of(sim, th, cpu, &sim->pcore[th->gcore]);
	access_truth(sim, th, line, PMON_SIM_NT_STORE);
	sim_llc_nt_write(&x, line, 1);
	tally_flush(sim, th->sock);
	sim_core_offcore_end(sim, cpu);
}
