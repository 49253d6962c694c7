/*
 * sim_traffic.c - memory traffic from the cores: each cache-line access
 * goes through the memory hierarchy hook, then to DRAM and to the core's
 * offcore-response counters.
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

static void access_line(struct pmon_sim *sim, int cpu, int socket, uint64_t addr,
			enum pmon_sim_kind kind)
{
	struct sim_xact x;
	struct pmon_sim_cpu_truth *t = &sim->cpu[cpu].truth;
	int local;

	memset(&x, 0, sizeof x);
	x.cpu = cpu;
	x.socket = socket;
	x.home = (int)(addr / sim->shape.mem_bytes);
	x.local = addr % sim->shape.mem_bytes;
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

int pmon_sim_traffic(pmon_sim_t *sim, int cpu, uint64_t addr, enum pmon_sim_kind kind,
		     uint64_t count)
{
	uint64_t total, line = addr & ~63ull;
	int rc = 0, socket;

	if (kind != PMON_SIM_LOAD && kind != PMON_SIM_STORE && kind != PMON_SIM_NT_STORE)
		return PMON_EINVAL;
	pthread_mutex_lock(&sim->lock);
	total = sim->shape.mem_bytes * (uint64_t)sim->shape.sockets;
	if (cpu < 0 || cpu >= sim->ncpus) {
		rc = PMON_EINVAL;
	} else if (count && (line >= total || count - 1 > (total - 1 - line) / 64)) {
		rc = PMON_ERANGE;            /* some line beyond the memory */
	} else {
		socket = sim_cpu_socket(sim, cpu);
		for (uint64_t i = 0; i < count; i++)
			access_line(sim, cpu, socket, line + i * 64, kind);
	}
	pthread_mutex_unlock(&sim->lock);
	return rc;
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
