/* r2pcie_events.c - event table of the SNB-EP R2PCIe box (uncore guide
 * section 2.8.5/2.8.7, Intel's Jaketown uncore event list, libpfm4's
 * snbep_unc_r2pcie names).
 *
 * Counter constraints: the guide's Ctrs column and Linux's constraint table,
 * the narrower where they differ (egress events 0x23-0x25: counter 0 only). */
#include <stddef.h>

#include "snbep.h"

#define ALL4 0xfu
#define UMASKS(a) .umasks = (a), .numasks = (uint16_t)PMON_ARRAY_SIZE(a)
#define X PMON_UM_EXCL

#define R2_EV(nm, cd, cm, d) \
	{ .name = nm, .code = cd, .cntmask = cm, .mods = PMON_M_STD, .desc = d }
#define R2_EVU(nm, cd, cm, fl, um, d) \
	{ .name = nm, .code = cd, .flags = fl, .cntmask = cm, .mods = PMON_M_STD, UMASKS(um), .desc = d }

/* Ring direction and polarity: clockwise is the "up" direction of the
 * guide's metrics, counter-clockwise "down". */
static const struct pmon_umask r2_ring_used[] = {
	{ .name = "CW_EVEN", .value = 0x01, .desc = "clockwise (up) direction, even slots" },
	{ .name = "CW_ODD", .value = 0x02, .desc = "clockwise (up) direction, odd slots" },
	{ .name = "CCW_EVEN", .value = 0x04, .desc = "counter-clockwise (down) direction, even slots" },
	{ .name = "CCW_ODD", .value = 0x08, .desc = "counter-clockwise (down) direction, odd slots" },
	{ .name = "CW_ANY", .value = 0x03, .desc = "clockwise (up) direction, both polarities" },
	{ .name = "CCW_ANY", .value = 0x0c, .desc = "counter-clockwise (down) direction, both polarities" },
	{ .name = "ANY", .value = 0x0f, .flags = PMON_UM_DEFAULT | X,
	  .desc = "both directions and polarities" },
};

static const struct pmon_umask r2_ring_iv_used[] = {
	{ .name = "ANY", .value = 0x0f, .flags = PMON_UM_DEFAULT | X,
	  .desc = "all directions and polarities (default; the IV ring is one-way)" },
};

/* Ingress queues by message class. */
static const struct pmon_umask r2_rxr_class[] = {
	{ .name = "DRS", .value = 0x08, .flags = X, .desc = "data-response (coherent data) queue" },
	{ .name = "NCB", .value = 0x10, .flags = X, .desc = "non-coherent bypass queue" },
	{ .name = "NCS", .value = 0x20, .flags = X, .desc = "non-coherent standard queue" },
};

/* Egress queues by ring. */
static const struct pmon_umask r2_txr_ring[] = {
	{ .name = "AD", .value = 0x01, .flags = X, .desc = "egress toward the AD (address/request) ring" },
	{ .name = "AK", .value = 0x02, .flags = X, .desc = "egress toward the AK (acknowledge) ring" },
	{ .name = "BL", .value = 0x04, .flags = X, .desc = "egress toward the BL (data) ring" },
};

/* TxR_INSERTS: the guide's umask table (2-117) is lost and neither Intel's
 * event list nor libpfm4 gives one; the guide uses TxR_INSERTS.BL in a metric
 * and says the event selects one of the three rings.  Values taken from the
 * sibling egress events of this box (Tables 2-115/2-116): INFERRED. */
static const struct pmon_umask r2_txr_inserts[] = {
	{ .name = "AD", .value = 0x01, .flags = X, .desc = "AD ring egress (value inferred from TXR_CYCLES_NE)" },
	{ .name = "AK", .value = 0x02, .flags = X, .desc = "AK ring egress (value inferred from TXR_CYCLES_NE)" },
	{ .name = "BL", .value = 0x04, .flags = X,
	  .desc = "BL ring egress (value inferred); x 32 B = PCIe read data sent to the ring" },
};

/* IIO credits by message class (Intel's event list only). */
static const struct pmon_umask r2_iio_credits[] = {
	{ .name = "DRS", .value = 0x08, .flags = X, .desc = "data-response (coherent) message class" },
	{ .name = "NCB", .value = 0x10, .flags = X, .desc = "non-coherent bypass message class" },
	{ .name = "NCS", .value = 0x20, .flags = X, .desc = "non-coherent standard message class (reads to PCIe)" },
};

const struct pmon_event pmon_snbep_r2pcie_events[] = {
	R2_EV("UNC_R2_CLOCKTICKS", 0x01, ALL4,
	      "Uncore clock cycles seen by the R2PCIe (tracks the UBox clock to within a few cycles)"),
	R2_EVU("UNC_R2_RING_AD_USED", 0x07, ALL4, 0, r2_ring_used,
	       "Cycles the AD (request) ring is busy at this stop, passing or arriving traffic, by direction"),
	R2_EVU("UNC_R2_RING_AK_USED", 0x08, ALL4, 0, r2_ring_used,
	       "Cycles the AK (acknowledge) ring is busy at this stop, passing or arriving traffic, by direction"),
	R2_EVU("UNC_R2_RING_BL_USED", 0x09, ALL4, 0, r2_ring_used,
	       "Cycles the BL (data) ring is busy at this stop, by direction; x 32 B = ring data throughput"),
	R2_EVU("UNC_R2_RING_IV_USED", 0x0a, ALL4, 0, r2_ring_iv_used,
	       "Cycles the IV (snoop/invalidate) ring is busy at this stop"),
	R2_EVU("UNC_R2_RXR_CYCLES_NE", 0x10, 0x3u, PMON_EV_NEED_UM, r2_rxr_class,
	       "Cycles the chosen ingress queue (from the ring toward PCIe) holds at least one entry"),
	R2_EV("UNC_R2_RXR_AK_BOUNCES", 0x12, 0x1u,
	      "Times a message headed for the AK ingress was bounced and had to go round the ring again"),
	R2_EVU("UNC_R2_TXR_CYCLES_NE", 0x23, 0x1u, PMON_EV_NEED_UM, r2_txr_ring,
	       "Cycles the chosen egress queue (PCIe toward the ring) holds at least one entry"),
	R2_EVU("UNC_R2_TXR_INSERTS", 0x24, 0x1u, 0, r2_txr_inserts,
	       "Entries allocated in the chosen egress queue (PCIe toward the ring); umasks inferred"),
	R2_EVU("UNC_R2_TXR_CYCLES_FULL", 0x25, 0x1u, PMON_EV_NEED_UM, r2_txr_ring,
	       "Cycles the chosen egress queue is full, so PCIe traffic waits to enter the ring"),
	R2_EVU("UNC_R2_TXR_NACKS", 0x26, 0x3u, PMON_EV_NEED_UM, r2_txr_ring,
	       "Times the egress was refused (NACKed) by the ring and could not send, per ring"),
	R2_EVU("UNC_R2_IIO_CREDITS_USED", 0x32, 0x3u, PMON_EV_NEED_UM, r2_iio_credits,
	       "Cycles at least one credit for sending BL-ring messages into the IIO is held, per class"),
	R2_EVU("UNC_R2_IIO_CREDITS_ACQUIRED", 0x33, 0x3u, PMON_EV_NEED_UM, r2_iio_credits,
	       "Credits taken for sending BL-ring messages into the IIO, per message class"),
	R2_EVU("UNC_R2_IIO_CREDITS_REJECT", 0x34, 0x3u, PMON_EV_NEED_UM, r2_iio_credits,
	       "Attempts to send into the IIO that found no credit free, per message class"),

	{ .name = NULL },
};
