/*
 * sim_special.c - the rare access kinds (include/pmon/sim.h, enum
 * pmon_sim_kind), served one at a time beside the batched access path:
 *   NT_PARTIAL  streaming stores to part of a line, flushed from the
 *               write-combining buffer as a partial write: the streaming
 *               store's path with a partial write at the home
 *               (sim_nt_partial);
 *   SPLIT_LOCK  a locked read-modify-write across two lines: the core
 *               cannot lock one line in its cache, so it asks the uncore
 *               for a bus lock: one sequence started in its socket's UBox
 *               (LOCK_CYCLES counts sequences, the guide's "number of times
 *               an IDI Lock/SplitLock sequence was started"), then the read
 *               and write of both lines, which the model serves as a store
 *               to each (a read for ownership where the core lacks it).
 */
#include "sim_traffic.h"
#include "sim_events.h"

int sim_special_access(struct pmon_sim *sim, int cpu, uint64_t line, uint64_t next,
		       enum pmon_sim_kind kind)
{
	int sock = sim->cpu[cpu].sock;

	if (kind == PMON_SIM_NT_PARTIAL) {
		if (sim_line_home(sim, line) != sock)
			return PMON_EINVAL;   /* the partial DRS message is not modeled */
		sim_nt_partial(sim, cpu, line);
		return 0;
	}
	uint64_t ref[2] = { line << 2 | PMON_SIM_STORE, next << 2 | PMON_SIM_STORE };

	sim->sock[sock].locks++;
	sim_imc_signal(sim, &sim->sock[sock].ubox, SIM_SIG_UBOX_LOCK, 1);
	sim_lines_access(sim, cpu, ref, 2);
	return 0;
}

int pmon_sim_ubox_locks(const pmon_sim_t *sim, int socket, uint64_t *out)
{
	if (!sim || !out || socket < 0 || socket >= sim->shape.sockets)
		return PMON_EINVAL;
	sim_lock(sim);
	*out = sim->sock[socket].locks;
	sim_unlock(sim);
	return 0;
}
