/* qpi_events.c - event table of the SNB-EP QPI link layer (uncore guide
 * section 2.7.5/2.7.7, Intel's Jaketown uncore event list, libpfm4's
 * snbep_unc_qpi names).
 *
 * Codes 0x00-0x03 and 0x09-0x0E exist twice: once plain and once with the
 * extra select bit (ext = 1, bit 21).  A flit is 80 bits on the wire and
 * carries 8 bytes of payload; the link moves up to two flits per QPI clock. */
#include <stddef.h>

#include "snbep.h"

/* Modifier bits: indices into qpi_mods[] in qpi.c (3-16 = the 14 packet
 * match/mask sub-fields, in the order of qpi_fields[]). */
#define QPI_M_PKT  (0x3fffu << 3)

#define ALL4 0xfu
#define UMASKS(a) .umasks = (a), .numasks = (uint16_t)PMON_ARRAY_SIZE(a)

#define QPI_EV(nm, cd, x, d) \
	{ .name = nm, .code = cd, .ext = x, .cntmask = ALL4, .mods = PMON_M_STD, .desc = d }
#define QPI_EVU(nm, cd, x, um, d) \
	{ .name = nm, .code = cd, .ext = x, .flags = PMON_EV_NEED_UM, .cntmask = ALL4, \
	  .mods = PMON_M_STD, UMASKS(um), .desc = d }

#define X PMON_UM_EXCL

/* Group 0 flits (TxL_FLITS_G0, RxL_FLITS_G0). */
static const struct pmon_umask qpi_flits_g0[] = {
	{ .name = "IDLE", .value = 0x01, .flags = X,
	  .desc = "null flits: the link slot was free (nothing to send)" },
	{ .name = "DATA", .value = 0x02, .flags = X,
	  .desc = "flits carrying payload data (8 bytes each): the data bandwidth" },
	{ .name = "NON_DATA", .value = 0x04, .flags = X,
	  .desc = "protocol flits without payload (headers, credits, control)" },
};

/* Group 1 flits: snoop, home and data-response classes (ext events). */
static const struct pmon_umask qpi_flits_g1[] = {
	{ .name = "SNP", .value = 0x01, .flags = X, .desc = "snoop-class flits (snoops sent to caching agents)" },
	{ .name = "HOM_REQ", .value = 0x02, .flags = X, .desc = "home-class request flits (reads, ownership requests)" },
	{ .name = "HOM_NONREQ", .value = 0x04, .flags = X, .desc = "home-class flits that are not requests (snoop replies)" },
	{ .name = "HOM", .value = 0x06, .flags = X, .desc = "all home-class flits (requests and snoop replies)" },
	{ .name = "DRS_DATA", .value = 0x08, .flags = X, .desc = "data-response flits that carry cache-line data" },
	{ .name = "DRS_NONDATA", .value = 0x10, .flags = X, .desc = "data-response header flits (no payload)" },
	{ .name = "DRS", .value = 0x18, .flags = X, .desc = "all data-response flits, header and data" },
};

/* Group 2 flits: NDR, NCB, NCS classes (ext events). */
static const struct pmon_umask qpi_flits_g2[] = {
	{ .name = "NDR_AD", .value = 0x01, .flags = X, .desc = "no-data-response flits that go to the AD ring (e.g. grants, completions)" },
	{ .name = "NDR_AK", .value = 0x02, .flags = X, .desc = "no-data-response flits that go to the AK ring" },
	{ .name = "NCB_DATA", .value = 0x04, .flags = X, .desc = "non-coherent bypass flits with payload (uncached/IO data)" },
	{ .name = "NCB_NONDATA", .value = 0x08, .flags = X, .desc = "non-coherent bypass header flits" },
	{ .name = "NCB", .value = 0x0c, .flags = X, .desc = "all non-coherent bypass flits" },
	{ .name = "NCS", .value = 0x10, .flags = X, .desc = "non-coherent standard flits (e.g. config and IO reads)" },
};

static const struct pmon_umask qpi_direct2core[] = {
	{ .name = "SUCCESS", .value = 0x01, .flags = X,
	  .desc = "response data was sent straight to the requesting core" },
	{ .name = "FAILURE_CREDITS", .value = 0x02, .flags = X,
	  .desc = "not sent directly: no egress credits, although the route-back table allowed it" },
	{ .name = "FAILURE_RBT", .value = 0x04, .flags = X,
	  .desc = "not sent directly: the route-back table did not ask for it (typical of IO)" },
	{ .name = "FAILURE_CREDITS_RBT", .value = 0x08, .flags = X,
	  .desc = "not sent directly: no egress credits and not requested by the route-back table" },
};

/* VN0 credits by message class (receive side). */
static const struct pmon_umask qpi_vn0_credits[] = {
	{ .name = "DRS", .value = 0x01, .flags = X, .desc = "data-response class credits" },
	{ .name = "NCB", .value = 0x02, .flags = X, .desc = "non-coherent bypass class credits" },
	{ .name = "NCS", .value = 0x04, .flags = X, .desc = "non-coherent standard class credits" },
	{ .name = "HOM", .value = 0x08, .flags = X, .desc = "home class credits" },
	{ .name = "SNP", .value = 0x10, .flags = X, .desc = "snoop class credits" },
	{ .name = "NDR", .value = 0x20, .flags = X, .desc = "no-data-response class credits" },
};

/* Not in the guide or libpfm4: Intel's Jaketown event list. */
static const struct pmon_umask qpi_txl_crc_no_credits[] = {
	{ .name = "FULL", .value = 0x01, .flags = X, .desc = "the link-level retry buffer is full" },
	{ .name = "ALMOST_FULL", .value = 0x02, .flags = X, .desc = "the link-level retry buffer is nearly full" },
};

static const struct pmon_umask qpi_rxl_crc_errors[] = {
	{ .name = "LINK_INIT", .value = 0x01, .flags = X, .desc = "errors seen while the link was being initialised" },
	{ .name = "NORMAL_OP", .value = 0x02, .flags = X, .desc = "errors seen during normal operation" },
};

static const struct pmon_umask qpi_rxl_stalls[] = {
	{ .name = "BGF_DRS", .value = 0x01, .flags = X, .desc = "data-response traffic held in the clock-crossing FIFO (BGF)" },
	{ .name = "BGF_NCB", .value = 0x02, .flags = X, .desc = "non-coherent bypass traffic held in the BGF" },
	{ .name = "BGF_NCS", .value = 0x04, .flags = X, .desc = "non-coherent standard traffic held in the BGF" },
	{ .name = "BGF_HOM", .value = 0x08, .flags = X, .desc = "home traffic held in the BGF" },
	{ .name = "BGF_SNP", .value = 0x10, .flags = X, .desc = "snoop traffic held in the BGF" },
	{ .name = "BGF_NDR", .value = 0x20, .flags = X, .desc = "no-data-response traffic held in the BGF" },
	{ .name = "EGRESS_CREDITS", .value = 0x40, .flags = X, .desc = "no R3QPI egress credit to forward the flit" },
	{ .name = "GV", .value = 0x80, .flags = X, .desc = "stalled by a frequency/voltage (GV) change" },
};

const struct pmon_event pmon_snbep_qpi_events[] = {
	/* ---- ext = 0 ---- */
	QPI_EVU("UNC_Q_TXL_FLITS_G0", 0x00, 0, qpi_flits_g0,
		"Flits sent on the link, by kind (idle, data, non-data); in L0, DATA x 8 B = payload bytes sent"),
	QPI_EVU("UNC_Q_RXL_FLITS_G0", 0x01, 0, qpi_flits_g0,
		"Flits received from the link, by kind (idle, data, non-data); in L0, DATA x 8 B = payload bytes"),
	QPI_EVU("UNC_Q_TXL_CRC_NO_CREDITS", 0x02, 0, qpi_txl_crc_no_credits,
		"Cycles the transmitter stalls for lack of link-level retry (LLR) buffer space"),
	QPI_EVU("UNC_Q_RXL_CRC_ERRORS", 0x03, 0, qpi_rxl_crc_errors,
		"Received flits that failed their CRC check and had to be resent: link health"),
	QPI_EV("UNC_Q_TXL_INSERTS", 0x04, 0,
	       "Flits written into the transmit buffer (not those that bypass it)"),
	QPI_EV("UNC_Q_TXL_BYPASSED", 0x05, 0,
	       "Flits that skipped the transmit buffer and went straight out on the link (the usual case)"),
	QPI_EV("UNC_Q_TXL_CYCLES_NE", 0x06, 0,
	       "Cycles with at least one flit waiting in the transmit buffer"),
	QPI_EV("UNC_Q_TXL_OCCUPANCY", 0x07, 0,
	       "Flits in the transmit buffer summed per cycle; divide by TXL_INSERTS for mean wait"),
	QPI_EV("UNC_Q_RXL_INSERTS", 0x08, 0,
	       "Flits written into the receive buffer (all message classes)"),
	QPI_EV("UNC_Q_RXL_BYPASSED", 0x09, 0,
	       "Received flits that went straight toward the ring without queueing; fewer than received = ring backpressure"),
	QPI_EV("UNC_Q_RXL_CYCLES_NE", 0x0a, 0,
	       "Cycles with at least one flit waiting in the receive buffer"),
	QPI_EV("UNC_Q_RXL_OCCUPANCY", 0x0b, 0,
	       "Flits in the receive buffer summed per cycle; divide by RXL_INSERTS for mean wait"),
	QPI_EV("UNC_Q_TXL0_POWER_CYCLES", 0x0c, 0,
	       "Cycles the transmit side of the link runs at full width (L0)"),
	QPI_EV("UNC_Q_TXL0P_POWER_CYCLES", 0x0d, 0,
	       "Cycles the transmit side runs with half its lanes off (L0p low-power state)"),
	QPI_EV("UNC_Q_RXL0_POWER_CYCLES", 0x0f, 0,
	       "Cycles the receive side of the link runs at full width (L0)"),
	QPI_EV("UNC_Q_RXL0P_POWER_CYCLES", 0x10, 0,
	       "Cycles the receive side runs with half its lanes off (L0p low-power state)"),
	QPI_EV("UNC_Q_L1_POWER_CYCLES", 0x12, 0,
	       "Cycles the whole link is shut down in the L1 power state"),
	QPI_EVU("UNC_Q_DIRECT2CORE", 0x13, 0, qpi_direct2core,
		"Incoming data responses for cores, by whether they could be forwarded straight to the requesting core"),
	QPI_EV("UNC_Q_CLOCKTICKS", 0x14, 0,
	       "QPI link-layer clock cycles (transfer rate / 8); the time base for this port"),
	QPI_EVU("UNC_Q_RXL_STALLS", 0x35, 0, qpi_rxl_stalls,
		"Cycles in which received traffic could not be forwarded to the R3QPI, by cause"),

	/* ---- ext = 1 (extra select bit 21) ---- */
	QPI_EVU("UNC_Q_TXL_FLITS_G1", 0x00, 1, qpi_flits_g1,
		"Flits sent, for the snoop, home and data-response message classes"),
	QPI_EVU("UNC_Q_TXL_FLITS_G2", 0x01, 1, qpi_flits_g2,
		"Flits sent, for the no-data-response and non-coherent message classes"),
	QPI_EVU("UNC_Q_RXL_FLITS_G1", 0x02, 1, qpi_flits_g1,
		"Flits received, for the snoop, home and data-response message classes"),
	QPI_EVU("UNC_Q_RXL_FLITS_G2", 0x03, 1, qpi_flits_g2,
		"Flits received, for the no-data-response and non-coherent message classes"),
	QPI_EV("UNC_Q_RXL_INSERTS_DRS", 0x09, 1,
	       "Data-response flits written into the receive buffer"),
	QPI_EV("UNC_Q_RXL_INSERTS_NCB", 0x0a, 1,
	       "Non-coherent bypass flits written into the receive buffer"),
	QPI_EV("UNC_Q_RXL_INSERTS_NCS", 0x0b, 1,
	       "Non-coherent standard flits written into the receive buffer"),
	QPI_EV("UNC_Q_RXL_INSERTS_HOM", 0x0c, 1,
	       "Home-class flits written into the receive buffer"),
	QPI_EV("UNC_Q_RXL_INSERTS_SNP", 0x0d, 1,
	       "Snoop-class flits written into the receive buffer"),
	QPI_EV("UNC_Q_RXL_INSERTS_NDR", 0x0e, 1,
	       "No-data-response flits written into the receive buffer"),
	QPI_EV("UNC_Q_RXL_OCCUPANCY_DRS", 0x15, 1,
	       "Data-response flits held in the receive buffer, summed per cycle"),
	QPI_EV("UNC_Q_RXL_OCCUPANCY_NCB", 0x16, 1,
	       "Non-coherent bypass flits held in the receive buffer, summed per cycle"),
	QPI_EV("UNC_Q_RXL_OCCUPANCY_NCS", 0x17, 1,
	       "Non-coherent standard flits held in the receive buffer, summed per cycle"),
	QPI_EV("UNC_Q_RXL_OCCUPANCY_HOM", 0x18, 1,
	       "Home-class flits held in the receive buffer, summed per cycle"),
	QPI_EV("UNC_Q_RXL_OCCUPANCY_SNP", 0x19, 1,
	       "Snoop-class flits held in the receive buffer, summed per cycle"),
	QPI_EV("UNC_Q_RXL_OCCUPANCY_NDR", 0x1a, 1,
	       "No-data-response flits held in the receive buffer, summed per cycle"),
	QPI_EV("UNC_Q_VNA_CREDIT_RETURN_OCCUPANCY", 0x1b, 1,
	       "Shared (VNA) credits freed on the receive side but not yet handed back, summed per cycle"),
	QPI_EV("UNC_Q_VNA_CREDIT_RETURNS", 0x1c, 1,
	       "Shared (VNA) credits handed back to the sender"),
	QPI_EV("UNC_Q_RXL_CREDITS_CONSUMED_VNA", 0x1d, 1,
	       "Received flits that used a shared (VNA) buffer credit"),
	QPI_EVU("UNC_Q_RXL_CREDITS_CONSUMED_VN0", 0x1e, 1, qpi_vn0_credits,
		"Received flits that had to use a reserved per-class (VN0) credit: sign of VNA exhaustion"),
	{ .name = "UNC_Q_CTO_COUNT", .code = 0x38, .ext = 1, .cntmask = ALL4,
	  .mods = PMON_M_STD | QPI_M_PKT,
	  .desc = "Packets accepted by the match/mask filter (match_*=, mask_*=), up to 2 per cycle" },

	{ .name = NULL },
};
