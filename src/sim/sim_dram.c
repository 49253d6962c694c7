/*
 * sim_dram.c - DRAM channels: address mapping, open-page bank state, the
 * ground truth, and the iMC signals each access raises.
 *
 * Within the home socket: line = addr / 64, channel = line % channels,
 * cl = line / channels, column = cl % 128, bank = (cl / 128) % 8,
 * rank = (cl / 1024) % 2, row = cl / 2048.  The mapping and the access
 * itself (dram_locate, dram_access) are inline in sim_hier.h, on the home
 * agent's path.
 */
#include <string.h>

#include "sim_hier.h"
#include "sim_traffic.h"

void sim_dram_init(struct sim_chan *ch)
{
	memset(ch, 0, sizeof *ch);
	for (int i = 0; i < SIM_DRAM_RANKS * SIM_DRAM_BANKS; i++)
		ch->open_row[i] = -1;
}

void sim_dram_locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
		     struct pmon_sim_dram_loc *out)
{
	dram_locate(sh, local_addr, out);
}

int pmon_sim_dram_locate(const pmon_sim_t *sim, uint64_t addr, struct pmon_sim_dram_loc *out)
{
	uint64_t mem = sim->shape.mem_bytes;

	if (addr / mem >= (uint64_t)sim->shape.sockets)
		return -1;
	sim_dram_locate(&sim->shape, addr % mem, out);
	out->socket = (int)(addr / mem);
	return 0;
}

void pmon_sim_channel_truth(const pmon_sim_t *sim, int socket, int channel,
			    struct pmon_sim_truth *out)
{
	memset(out, 0, sizeof *out);
	if (socket < 0 || socket >= sim->shape.sockets || channel < 0 ||
	    channel >= sim->shape.channels)
		return;
	sim_lock(sim);
	*out = sim->sock[socket].chan[channel].truth;
	sim_unlock(sim);
}
