/*
 * sim_traffic.c - memory traffic from the cores: each cache-line access
 * goes through the memory hierarchy hook, then to DRAM and to the core's
 * offcore-response counters.  The load= stream (run while time follows the
 * wall clock) takes the same path, line by line.
 */
#include <string.h>

#include "sim_internal.h"

/*
 * The memory hierarchy between a core and DRAM.  The cache model (per-core
 * L1/L2, the LLC slices of each socket, write-backs, snoops) belongs here:
 * it decides who supplies the line, the snoop outcome, and which DRAM
 * operations result (a fill, a victim write-back...).  For now nothing is
 * cached: every access reaches DRAM at its home socket.
 */
static void hierarchy(struct pmon_sim *sim, struct sim_xact *x)
{
	(void)sim;
	x->nops = 0;
	x->req = x->supplier = x->snoop = 0;
	switch (x->kind) {
	case PMON_SIM_LOAD:
		x->req = SIM_RSP_DEMAND_DATA_RD;
		break;
	case PMON_SIM_STORE:
		x->req = SIM_RSP_DEMAND_RFO;
		break;
	case PMON_SIM_NT_STORE:
		x->req = SIM_RSP_STREAMING_STORES;
		break;
	}
	if (x->kind == PMON_SIM_NT_STORE) {
		x->supplier = SIM_RSP_SUPPLIER_NONE;   /* no data comes back */
		x->snoop = SIM_RSP_SNOOP_NONE;
	} else {
		x->supplier = x->home == x->socket ? SIM_RSP_LOCAL_DRAM : SIM_RSP_REMOTE_DRAM;
		x->snoop = SIM_RSP_SNOOP_MISS;
	}
	x->op[0].home = x->home;
	x->op[0].local = x->local;
	x->op[0].write = x->kind != PMON_SIM_LOAD;
	x->nops = 1;
}

static void access_line(struct pmon_sim *sim, int cpu, int socket, int home,
			uint64_t local_addr, enum pmon_sim_kind kind)
{
	struct sim_xact x;
	struct pmon_sim_cpu_truth *t = &sim->cpu[cpu].truth;
	int local;

	/* field by field: a memset of the whole record costs more than the rest
	 * of the line's model on some machines (the load= stream issues
	 * millions of lines); hierarchy() fills in the rest, op[] up to nops */
	x.cpu = cpu;
	x.socket = socket;
	x.home = home;
	x.local = local_addr;
	x.kind = kind;
	hierarchy(sim, &x);
	for (int i = 0; i < x.nops; i++)
		sim_dram_access(sim, x.op[i].home, x.op[i].local, x.op[i].write);
	sim_core_offcore(sim, cpu, x.req, x.supplier, x.snoop);

	local = x.home == socket;
	switch (kind) {
	case PMON_SIM_LOAD:
		if (local) t->load_local++; else t->load_remote++;
		break;
	case PMON_SIM_STORE:
		if (local) t->store_local++; else t->store_remote++;
		break;
	case PMON_SIM_NT_STORE:
		if (local) t->nt_local++; else t->nt_remote++;
		break;
	}
}

void sim_traffic_lines(struct pmon_sim *sim, int cpu, uint64_t addr,
		       enum pmon_sim_kind kind, uint64_t count)
{
	uint64_t mem = sim->shape.mem_bytes, local = addr % mem;
	int socket = sim_cpu_socket(sim, cpu), home = (int)(addr / mem);

	for (uint64_t i = 0; i < count; i++) {
		access_line(sim, cpu, socket, home, local, kind);
		local += 64;              /* mem_bytes is a multiple of 64 */
		if (local == mem) {
			local = 0;
			home++;
		}
	}
}

int pmon_sim_traffic(pmon_sim_t *sim, int cpu, uint64_t addr, enum pmon_sim_kind kind,
		     uint64_t count)
{
	uint64_t total, line = addr & ~63ull;
	int rc = 0;

	pthread_mutex_lock(&sim->lock);
	sim_clock_take(sim);        /* even a refused call takes control (auto) */
	total = sim->shape.mem_bytes * (uint64_t)sim->shape.sockets;
	if (kind != PMON_SIM_LOAD && kind != PMON_SIM_STORE && kind != PMON_SIM_NT_STORE)
		rc = PMON_EINVAL;
	else if (cpu < 0 || cpu >= sim->ncpus)
		rc = PMON_EINVAL;
	else if (count && (line >= total || count - 1 > (total - 1 - line) / 64))
		rc = PMON_ERANGE;            /* some line beyond the memory */
	else
		sim_traffic_lines(sim, cpu, line, kind, count);
	pthread_mutex_unlock(&sim->lock);
	return rc;
}

/* The load= stream: line n of it (counting from 0 at creation) is a LOAD by
 * CPU 0 of socket 0's line n mod (mem_bytes / 64). */
void sim_load_run(struct pmon_sim *sim, uint64_t wall_ns)
{
	uint64_t per = sim->shape.mem_bytes / 64;
	/* wall_ns < 2^64 and load <= PMON_SIM_LOAD_MAX < 6.4e10: fits 64 bits */
	uint64_t due = (uint64_t)((unsigned __int128)wall_ns * sim->shape.load_bps /
				  64000000000u);

	while (sim->load_lines < due) {
		uint64_t pos = sim->load_lines % per, n = due - sim->load_lines;

		if (n > per - pos)
			n = per - pos;
		sim_traffic_lines(sim, 0, pos * 64, PMON_SIM_LOAD, n);
		sim->load_lines += n;
	}
}

void pmon_sim_cpu_truth(const pmon_sim_t *sim, int cpu, struct pmon_sim_cpu_truth *out)
{
	memset(out, 0, sizeof *out);
	if (cpu < 0 || cpu >= sim->ncpus)
		return;
	sim_lock(sim);
	*out = sim->cpu[cpu].truth;
	sim_unlock(sim);
}
