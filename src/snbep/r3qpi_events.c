/* r3qpi_events.c - event table of the SNB-EP R3QPI box (uncore guide
 * section 2.9.5/2.9.7, Intel's Jaketown uncore event list, libpfm4's
 * snbep_unc_r3qpi names; the guide's VNO_* are libpfm4's VN0_*).
 *
 * The box has three counters.  Counter constraints: the guide's Ctrs column
 * and Linux's constraint table (they agree): occupancy on counter 0 only, most
 * other events on counters 0-1, clock and ring events on 0-2. */
#include <stddef.h>

#include "snbep.h"

#define ALL3 0x7u
#define C01  0x3u
#define UMASKS(a) .umasks = (a), .numasks = (uint16_t)PMON_ARRAY_SIZE(a)
#define X PMON_UM_EXCL
#define NU PMON_EV_NEED_UM

#define R3_EV(nm, cd, cm, d) \
	{ .name = nm, .code = cd, .cntmask = cm, .mods = PMON_M_STD, .desc = d }
#define R3_EVU(nm, cd, cm, fl, um, d) \
	{ .name = nm, .code = cd, .flags = fl, .cntmask = cm, .mods = PMON_M_STD, UMASKS(um), .desc = d }

/* Ring direction and polarity (one at a time, as in libpfm4). */
static const struct pmon_umask r3_ring_used[] = {
	{ .name = "CW_EVEN", .value = 0x01, .flags = X, .desc = "clockwise (up) direction, even slots" },
	{ .name = "CW_ODD", .value = 0x02, .flags = X, .desc = "clockwise (up) direction, odd slots" },
	{ .name = "CCW_EVEN", .value = 0x04, .flags = X, .desc = "counter-clockwise (down) direction, even slots" },
	{ .name = "CCW_ODD", .value = 0x08, .flags = X, .desc = "counter-clockwise (down) direction, odd slots" },
};

static const struct pmon_umask r3_ring_iv_used[] = {
	{ .name = "ANY", .value = 0x0f, .flags = PMON_UM_DEFAULT | X,
	  .desc = "all directions and polarities (default; the IV ring is one-way)" },
};

/* The guide's table keeps a single row; Intel's list and libpfm4 agree. */
static const struct pmon_umask r3_rxr_bypassed[] = {
	{ .name = "AD", .value = 0x01, .flags = PMON_UM_DEFAULT | X,
	  .desc = "requests arriving on the AD ring" },
};

/* QPI message classes, one at a time. */
static const struct pmon_umask r3_msg_class[] = {
	{ .name = "HOM", .value = 0x01, .flags = X, .desc = "home class: requests and snoop replies" },
	{ .name = "SNP", .value = 0x02, .flags = X, .desc = "snoop class: snoops sent out" },
	{ .name = "NDR", .value = 0x04, .flags = X, .desc = "no-data-response class: grants and completions" },
	{ .name = "DRS", .value = 0x08, .flags = X, .desc = "data-response class: coherent cache-line data" },
	{ .name = "NCB", .value = 0x10, .flags = X, .desc = "non-coherent bypass class: non-coherent data" },
	{ .name = "NCS", .value = 0x20, .flags = X, .desc = "non-coherent standard class: e.g. uncached reads" },
};

/* The three single credits toward the IIO. */
static const struct pmon_umask r3_iio_credits[] = {
	{ .name = "DRS", .value = 0x08, .flags = X, .desc = "data-response credit (cacheable PCIe data)" },
	{ .name = "NCB", .value = 0x10, .flags = X, .desc = "non-coherent bypass credit" },
	{ .name = "NCS", .value = 0x20, .flags = X, .desc = "non-coherent standard credit (reads of PCIe space)" },
};

/* Egress (toward the ring) by ring.  The guide's umask tables 2-135 to 2-138
 * are lost and neither Intel's event list nor libpfm4 has umasks for these
 * events; the guide uses TxR_INSERTS.BL in a metric and says the events pick
 * one of three rings.  Values follow the R2PCIe egress events and Intel's
 * R2PCIe TxR_NACKS (AD 1, AK 2, BL 4): INFERRED, not verified. */
static const struct pmon_umask r3_txr_ring[] = {
	{ .name = "AD", .value = 0x01, .flags = X, .desc = "AD (request) ring egress (value inferred)" },
	{ .name = "AK", .value = 0x02, .flags = X, .desc = "AK (acknowledge) ring egress (value inferred)" },
	{ .name = "BL", .value = 0x04, .flags = X, .desc = "BL (data) ring egress (value inferred)" },
};

const struct pmon_event pmon_snbep_r3qpi_events[] = {
	R3_EV("UNC_R3_CLOCKTICKS", 0x01, ALL3,
	      "Uncore clock cycles seen by this R3QPI link (tracks the UBox clock to within a few cycles)"),
	R3_EVU("UNC_R3_RING_AD_USED", 0x07, ALL3, NU, r3_ring_used,
	       "Cycles the AD (request) ring is busy at this stop, for one direction and polarity"),
	R3_EVU("UNC_R3_RING_AK_USED", 0x08, ALL3, NU, r3_ring_used,
	       "Cycles the AK (acknowledge) ring is busy at this stop, for one direction and polarity"),
	R3_EVU("UNC_R3_RING_BL_USED", 0x09, ALL3, NU, r3_ring_used,
	       "Cycles the BL (data) ring is busy at this stop, for one direction and polarity"),
	R3_EVU("UNC_R3_RING_IV_USED", 0x0a, ALL3, 0, r3_ring_iv_used,
	       "Cycles the IV (snoop/invalidate) ring is busy at this stop"),
	R3_EVU("UNC_R3_RXR_CYCLES_NE", 0x10, C01, NU, r3_msg_class,
	       "Cycles the ingress queue (ring toward QPI) of the chosen message class is not empty"),
	R3_EVU("UNC_R3_RXR_INSERTS", 0x11, C01, NU, r3_msg_class,
	       "Entries allocated in the ingress queue (ring toward QPI) of the chosen message class"),
	R3_EVU("UNC_R3_RXR_BYPASSED", 0x12, C01, 0, r3_rxr_bypassed,
	       "Messages from the ring that skipped the ingress queue and crossed straight to the link clock"),
	R3_EVU("UNC_R3_RXR_OCCUPANCY", 0x13, 0x1u, NU, r3_msg_class,
	       "Entries in the chosen ingress queue summed per cycle (counter 0); / RXR_INSERTS = mean wait"),
	R3_EVU("UNC_R3_IIO_CREDITS_ACQUIRED", 0x20, C01, NU, r3_iio_credits,
	       "Times the credit for sending BL-ring messages to the IIO was taken, for one message class"),
	R3_EVU("UNC_R3_IIO_CREDITS_REJECT", 0x21, C01, NU, r3_iio_credits,
	       "Times a message for the IIO found its credit taken and had to wait, for one message class"),
	R3_EVU("UNC_R3_IIO_CREDITS_USED", 0x22, C01, NU, r3_iio_credits,
	       "Cycles the credit for sending BL-ring messages to the IIO is held, for one message class"),
	R3_EVU("UNC_R3_TXR_CYCLES_NE", 0x23, C01, 0, r3_txr_ring,
	       "Cycles the egress queue (QPI toward the ring) is not empty; umasks inferred"),
	R3_EVU("UNC_R3_TXR_INSERTS", 0x24, C01, 0, r3_txr_ring,
	       "Entries allocated in the egress queue (QPI toward the ring); BL x 32 B = QPI read data to ring"),
	R3_EVU("UNC_R3_TXR_CYCLES_FULL", 0x25, C01, 0, r3_txr_ring,
	       "Cycles the egress queue (QPI toward the ring) is full; umasks inferred"),
	R3_EVU("UNC_R3_TXR_NACK", 0x26, C01, 0, r3_txr_ring,
	       "Times the egress was refused (NACKed) by the ring and could not send; umasks inferred"),
	R3_EV("UNC_R3_VNA_CREDIT_CYCLES_OUT", 0x31, C01,
	      "Cycles with no shared (VNA) QPI credit left: only reserved VN0 credits can move traffic"),
	R3_EV("UNC_R3_VNA_CREDIT_CYCLES_USED", 0x32, C01,
	      "Cycles with at least one shared (VNA) QPI credit in use"),
	R3_EV("UNC_R3_VNA_CREDITS_ACQUIRED", 0x33, C01,
	      "Shared (VNA) QPI credits taken, up to 4 per cycle (data messages need several)"),
	R3_EVU("UNC_R3_VNA_CREDITS_REJECT", 0x34, C01, NU, r3_msg_class,
	       "Attempts to take shared (VNA) QPI credits that failed because the pool was (nearly) empty"),
	R3_EVU("UNC_R3_VN0_CREDITS_USED", 0x36, C01, NU, r3_msg_class,
	       "Messages that fell back to a reserved per-class (VN0) QPI credit after missing VNA"),
	R3_EVU("UNC_R3_VN0_CREDITS_REJECT", 0x37, C01, NU, r3_msg_class,
	       "Messages that found neither a VNA nor a VN0 QPI credit and were delayed (should be rare)"),

	{ .name = NULL },
};
