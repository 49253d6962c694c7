/*
 * sim_home_path.h - the access path's messages between sockets: where a
 * line lives (its home socket, its LLC slice), the QPI messages, the
 * requests arriving at a home agent and the DRAM writes it issues.  Part
 * of the access path (sim_path.h), included by sim_llc_path.h.
 *
 * QPI messages and their flits (a flit carries 8 bytes of payload):
 *   request (RdData/RdInvOwn/InvItoE/WbMtoI/WcIL)  HOM_REQ     1 non-data
 *   snoop                                          SNP         1 non-data
 *   snoop response                                 HOM_NONREQ  1 non-data
 *   data (a full line)                             DRS         1 header + 8 data
 *   completion without data                        NDR         1 non-data
 * The link a message takes is bit 0 of its line number (both links join
 * every pair of sockets in the model).
 */
#ifndef PMON_SIM_HOME_PATH_H
#define PMON_SIM_HOME_PATH_H

#include "sim_hier.h"
#include "sim_traffic.h"

#pragma GCC visibility push(hidden)

static inline int nid_of(const struct pmon_sim *sim, int socket)
{
	return sim->sock[socket].nodeid;
}

/* qpi_msg, ha_request and socket_snoop are on every miss's path: inlined (SIM_HOT) */

/* A requested line and where it lives (its home socket, its slice), worked
 * out once for every step of the request. */
struct sim_at {
	uint64_t line;
	int home;
	unsigned slice;
};

SIM_HOT struct sim_at line_at(const struct pmon_sim *sim, uint64_t line)
{
	int home = sim_line_home(sim, line);
	struct sim_at a = { line, home, sim_line_slice(line, sim->shape.cores) };

	return a;
}

/* n messages of one class from socket `from` to `to` on a link. */
SIM_HOT void qpi_msgs(struct pmon_sim *sim, int from, int to, int link, enum sim_qpi_class cls,
		      uint64_t n)
{
	unsigned data = SIM_QPI_DATA_FLITS(cls);
	struct pmon_sim_qpi_truth *tx = &sim->sock[from].qpi_truth[link];
	struct pmon_sim_qpi_truth *rx = &sim->sock[to].qpi_truth[link];

	tx->tx_data += data * n;
	tx->tx_nondata += n;
	rx->rx_data += data * n;
	rx->rx_nondata += n;
	sim_qpi_count(sim, &sim->sock[from].qpi[link], 0, cls, data, n);
	sim_qpi_count(sim, &sim->sock[to].qpi[link], 1, cls, data, n);
	sim_r3qpi_ingress(sim, &sim->sock[from].r3qpi[link], cls, n);
}

/* A message about a line: it takes the link of the line's bit 0. */
SIM_HOT void qpi_msg(struct pmon_sim *sim, int from, int to, uint64_t line, enum sim_qpi_class cls)
{
	qpi_msgs(sim, from, to, (int)(line & 1), cls, 1);
}

/* A line's number within its home socket's memory. */
static inline uint64_t local_line(const struct pmon_sim *sim, uint64_t line, int home)
{
	return line - (uint64_t)home * sim->lines_per_socket;
}

/* A line written at the home's DRAM, issued by the home agent: a full line,
 * or (partial) part of one, which the iMC first reads to merge it (an
 * underfill read, on the same channel and row as the write). */
static void dram_write_part(struct pmon_sim *sim, int home, uint64_t line, int partial)
{
	struct sim_socket *h = &sim->sock[home];
	uint64_t ll = local_line(sim, line, home);

	if (partial) {
		int ch = (int)(ll % (uint64_t)sim->shape.channels);
		h->ha_truth.imc_writes_partial++;
		h->chan[ch].truth.cas_rd_under++;
		sim_imc_signal(sim, &h->imc[ch], SIM_SIG_CAS_RD_UNDER, 1);
	} else {
		h->ha_truth.imc_writes++;
		if (sim->nhm)             /* the Nehalem iMC counts full writes per channel */
			sim_imc_signal(sim, &h->imc[ll % (uint64_t)sim->shape.channels],
				       SIM_SIG_IMC_WR_FULL, 1);
	}
	sim_ha_imc_write(sim, &h->ha, partial);
	dram_access(sim, home, ll, 1);
}

static void dram_write(struct pmon_sim *sim, int home, uint64_t line)
{
	dram_write_part(sim, home, line, 0);
}

/* A request arriving at the home agent of `home` from socket `from`. */
SIM_HOT void ha_request(struct pmon_sim *sim, int home, int from, enum sim_ha_what what)
{
	struct sim_socket *h = &sim->sock[home];
	int local = home == from;

	if (what == SIM_HA_READ) {
		if (local) h->ha_truth.reads_local++; else h->ha_truth.reads_remote++;
	} else {
		if (local) h->ha_truth.writes_local++; else h->ha_truth.writes_remote++;
	}
	sim_ha_request(sim, &h->ha, what, local, 1);
}

/* A streaming store's write arriving at the home: a write in the ground
 * truth, flagged uncached in the event (bit 1 of its local flag; SNB-EP's
 * home agent ignores the flag, the Nehalem QHL counts it as the guide's
 * InvItoE: a read request, not a write-back, from a local core). */
static void ha_request_uncached(struct pmon_sim *sim, int home, int from)
{
	struct sim_socket *h = &sim->sock[home];
	int local = home == from;

	if (local) h->ha_truth.writes_local++; else h->ha_truth.writes_remote++;
	sim_ha_request(sim, &h->ha, SIM_HA_WRITE, local | 2, 1);
}

/* A Modified line leaves socket `from` for memory (WbMtoI + data). */
static void write_home(struct pmon_sim *sim, int from, uint64_t line)
{
	int home = sim_line_home(sim, line);

	ha_request(sim, home, from, SIM_HA_WRITE);
	if (home != from) {
		qpi_msg(sim, from, home, line, SIM_QPI_HOM_REQ);
		qpi_msg(sim, from, home, line, SIM_QPI_DRS);
	}
	dram_write(sim, home, line);
	if (home != from)
		qpi_msg(sim, home, from, line, SIM_QPI_NDR);
}

#pragma GCC visibility pop

#endif
