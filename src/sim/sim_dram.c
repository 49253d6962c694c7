/*
 * sim_dram.c - DRAM channels: address mapping, open-page bank state, the
 * ground truth, and the iMC signals each access raises.
 *
 * Within the home socket: line = addr / 64, channel = line % channels,
 * cl = line / channels, column = cl % 128, bank = (cl / 128) % 8,
 * rank = (cl / 1024) % 2, row = cl / 2048.
 */
#include <string.h>

#include "sim_internal.h"

void sim_dram_init(struct sim_chan *ch)
{
	memset(ch, 0, sizeof *ch);
	for (int i = 0; i < SIM_DRAM_RANKS * SIM_DRAM_BANKS; i++)
		ch->open_row[i] = -1;
}

/* line / channels with a constant divisor (a division by a variable is one
 * of the dearest steps of an access). */
static inline uint64_t per_channel(uint64_t line, int channels)
{
	switch (channels) {
	case 1: return line;
	case 2: return line / 2;
	case 3: return line / 3;
	default: return line / 4;
	}
}

static inline void locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
			  struct pmon_sim_dram_loc *out)
{
	uint64_t line = local_addr / 64, cl = per_channel(line, sh->channels);

	out->channel = (int)(line - cl * (uint64_t)sh->channels);
	out->column = cl % SIM_DRAM_ROWLINES;
	out->bank = (int)((cl / SIM_DRAM_ROWLINES) % SIM_DRAM_BANKS);
	out->rank = (int)((cl / (SIM_DRAM_ROWLINES * SIM_DRAM_BANKS)) % SIM_DRAM_RANKS);
	out->row = cl / (SIM_DRAM_ROWLINES * SIM_DRAM_BANKS * SIM_DRAM_RANKS);
}

void sim_dram_locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
		     struct pmon_sim_dram_loc *out)
{
	locate(sh, local_addr, out);
}

void sim_dram_access(struct pmon_sim *sim, int home, uint64_t local_addr, int write)
{
	struct pmon_sim_dram_loc loc;
	struct sim_socket *s = &sim->sock[home];
	struct sim_chan *ch;
	int64_t *open;
	uint32_t sigs = 0;

	locate(&sim->shape, local_addr, &loc);
	ch = &s->chan[loc.channel];
	open = &ch->open_row[loc.rank * SIM_DRAM_BANKS + loc.bank];
	if (*open != (int64_t)loc.row) {
		if (*open >= 0) {             /* another row open: page miss */
			sigs |= SIM_SIG_PRE_MISS;
			ch->truth.pre_miss++;
		}
		sigs |= SIM_SIG_ACT;
		ch->truth.act++;
		*open = (int64_t)loc.row;
	}
	if (write) {
		sigs |= SIM_SIG_CAS_WR_WMM | SIM_SIG_WPQ;
		ch->truth.cas_wr++;
		ch->wpq++;
	} else {
		sigs |= SIM_SIG_CAS_RD_REG | SIM_SIG_RPQ;
		ch->truth.cas_rd++;
		ch->rpq++;
	}
	sim_imc_signal(sim, &s->imc[loc.channel], sigs);
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
