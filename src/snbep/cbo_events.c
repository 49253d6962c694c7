/*
 * cbo_events.c - event table of the SNB-EP CBo (register map in cbo.c); one
 * table for snbep_unc_cbo0..7.
 *
 * Names, umask groups, defaults and exclusivity follow libpfm4's snbep_unc_cbo
 * PMUs (checked against libpfm4 4.13 with LIBPFM_ENCODE_INACTIVE=1):
 *  - LLC_LOOKUP: group 0 request type (default DATA_READ), group 1 NID
 *    (optional, ORs into the request type), group 2 the line-state filter
 *    (default STATE_MESIF; the single states may be combined).
 *  - TOR_INSERTS / TOR_OCCUPANCY: group 0 the TOR sub-event, group 1 one
 *    OPC_* opcode written to the filter; OPCODE sub-events need one, NID
 *    sub-events need nf=.
 *  - cntmask follows the Linux constraint table, which agrees with the
 *    guide's counter columns for every CBo event.
 */
#include <stddef.h>

#include "snbep.h"

/* Must match the field and modifier order of cbo.c (checked by the test). */
#define F_TID    (1u << 0)
#define F_NID    (1u << 1)
#define F_STATE  (1u << 2)
#define F_OPC    (1u << 3)
#define M_TF     (1u << 3)
#define M_CF     (1u << 4)
#define CBO_MODS (PMON_M_STD | M_TF | M_CF)

#define X  PMON_UM_EXCL
#define D  PMON_UM_DEFAULT
#define NU PMON_EV_NEED_UM

#define UM(n, v, f, d) { .name = (n), .value = (v), .flags = (f), .desc = (d) }
/* a umask that also needs filter fields */
#define UMF(n, v, f, fl, d) { .name = (n), .value = (v), .flags = (f), .fields = (fl), .desc = (d) }
/* a line-state umask: sets state bits of the filter, group 2 */
#define STATE(n, bits, f, d) { .name = (n), .flags = (f), .grp = 2, .fields = F_STATE, \
	.filt_set = { (uint64_t)(bits) << 18, 0 }, .desc = (d) }
/* an opcode umask: writes the 9-bit opcode into the filter, group 1 */
#define OPC(n, op, d) { .name = (n), .flags = X, .grp = 1, .fields = F_OPC, \
	.filt_set = { (uint64_t)(op) << 23, 0 }, .desc = (d) }

#define OPC_UMASKS \
	OPC("OPC_RFO",      0x180, "opcode RFO (0x180): demand read for ownership"), \
	OPC("OPC_CRD",      0x181, "opcode CRd (0x181): demand code read"), \
	OPC("OPC_DRD",      0x182, "opcode DRd (0x182): demand data read"), \
	OPC("OPC_PRD",      0x187, "opcode PRd (0x187): partial (uncacheable) read"), \
	OPC("OPC_WCILF",    0x18c, "opcode WCiLF (0x18c): full-line streaming store"), \
	OPC("OPC_WCIL",     0x18d, "opcode WCiL (0x18d): partial streaming store"), \
	OPC("OPC_PF_RFO",   0x190, "opcode PrefRFO (0x190): ownership prefetch into the LLC only"), \
	OPC("OPC_PF_CODE",  0x191, "opcode PrefCode (0x191): code prefetch into the LLC only"), \
	OPC("OPC_PF_DATA",  0x192, "opcode PrefData (0x192): data prefetch into the LLC only"), \
	OPC("OPC_PCIWILF",  0x194, "opcode PCIWiLF (0x194): non-allocating PCIe write"), \
	OPC("OPC_PCIPRD",   0x195, "opcode PCIPRd (0x195): uncacheable PCIe read"), \
	OPC("OPC_PCIITOM",  0x19c, "opcode PCIItoM (0x19c): allocating PCIe write"), \
	OPC("OPC_PCIRDCUR", 0x19e, "opcode PCIRdCur (0x19e): PCIe read of the current line"), \
	OPC("OPC_WBMTOI",   0x1c4, "opcode WbMtoI (0x1c4): write back a modified line, invalidate it"), \
	OPC("OPC_WBMTOE",   0x1c5, "opcode WbMtoE (0x1c5): write back a modified line, keep it exclusive"), \
	OPC("OPC_ITOM",     0x1c8, "opcode ItoM (0x1c8): take ownership of a line without reading it"), \
	OPC("OPC_PCINSRD",  0x1e4, "opcode PCINSRd (0x1e4): PCIe non-snoop read"), \
	OPC("OPC_PCINSWR",  0x1e5, "opcode PCINSWr (0x1e5): partial PCIe non-snoop write"), \
	OPC("OPC_PCINSWRF", 0x1e6, "opcode PCINSWrF (0x1e6): full-line PCIe non-snoop write")

static const struct pmon_umask llc_lookup_um[] = {
	UM("ANY",          0x1f, X,     "every request type"),
	UM("DATA_READ",    0x03, D | X, "data reads"),
	UM("WRITE",        0x05, X,     "writes, cacheable and uncacheable"),
	UM("REMOTE_SNOOP", 0x09, X,     "snoops arriving from other sockets"),
	{ .name = "NID", .value = 0x41, .flags = X, .grp = 1, .fields = F_NID,
	  .desc = "only requests whose target node is in the nf= mask (adds to the request type)" },
	STATE("STATE_I", 0x01, 0, "lines not present (misses)"),
	STATE("STATE_S", 0x02, 0, "hits on Shared lines"),
	STATE("STATE_E", 0x04, 0, "hits on Exclusive lines"),
	STATE("STATE_M", 0x08, 0, "hits on Modified lines"),
	STATE("STATE_F", 0x10, 0, "hits on Forward lines"),
	STATE("STATE_MESIF", 0x1f, D | X, "any state, hits and misses"),
};

static const struct pmon_umask llc_victims_um[] = {
	UM("M_STATE", 0x01, 0, "victims in Modified state (written back to memory)"),
	UM("E_STATE", 0x02, 0, "victims in Exclusive state"),
	UM("S_STATE", 0x04, 0, "victims in Shared state"),
	UM("MISS",    0x08, 0, "sub-event Intel leaves undefined"),
	UMF("NID",    0x40, X, F_NID, "victims whose home node is in the nf= mask"),
};

static const struct pmon_umask misc_um[] = {
	UM("RSPI_WAS_FSE", 0x01, 0, "snoops that hit a clean F/S/E line and dropped it silently"),
	UM("WC_ALIASING",  0x02, 0, "streaming (USWC) writes that hit a Modified line and forced "
				    "its writeback first"),
	UM("STARTED",      0x04, 0, "sub-event Intel leaves undefined"),
	UM("RFO_HIT_S",    0x08, 0, "RFOs that hit a Shared line"),
};

static const struct pmon_umask ring_updown_um[] = {
	UM("UP_EVEN",   0x01, 0, "up direction, even polarity"),
	UM("UP_ODD",    0x02, 0, "up direction, odd polarity"),
	UM("DOWN_EVEN", 0x04, 0, "down direction, even polarity"),
	UM("DOWN_ODD",  0x08, 0, "down direction, odd polarity"),
};

static const struct pmon_umask ring_bounces_um[] = {
	UM("AK_CORE", 0x02, 0, "acknowledgements to a core"),
	UM("BL_CORE", 0x04, 0, "data to a core"),
	UM("IV_CORE", 0x08, 0, "snoops to a core's caches"),
};

static const struct pmon_umask ring_iv_used_um[] = {
	UM("ANY", 0x0f, D, "any direction and polarity"),
};

static const struct pmon_umask rxr_ext_starved_um[] = {
	UM("IRQ",       0x01, 0, "the core request queue (IRQ) is starved, so the IPQ is held off"),
	UM("IPQ",       0x02, 0, "the snoop queue (IPQ) is starved, so the IRQ is held off"),
	UM("ISMQ",      0x04, 0, "the ISMQ is starved, so IRQ and IPQ are held off"),
	UM("ISMQ_BIDS", 0x08, 0, "ISMQ arbitration bids (a count of bids, not cycles)"),
};

static const struct pmon_umask rxr_inserts_um[] = {
	UM("IPQ",          0x04, X, "snoop (probe) queue fed from other sockets"),
	UM("IRQ",          0x01, X, "core request queue"),
	UM("IRQ_REJECTED", 0x02, X, "core requests rejected and sent back for retry"),
	UM("VFIFO",        0x10, X, "the ordering FIFO that keeps I/O requests in order"),
};

static const struct pmon_umask rxr_ipq_retry_um[] = {
	UM("ADDR_CONFLICT", 0x04, X,     "another request to the same line was in flight"),
	UM("ANY",           0x01, D | X, "any reason"),
	UM("FULL",          0x02, X,     "an egress queue it needed was full"),
	UM("QPI_CREDITS",   0x10, X,     "no QPI credit"),
};

static const struct pmon_umask rxr_irq_retry_um[] = {
	UM("ADDR_CONFLICT", 0x04, X,     "a request to the same line was outstanding"),
	UM("ANY",           0x01, D | X, "any reason"),
	UM("FULL",          0x02, X,     "no egress entry available"),
	UM("QPI_CREDITS",   0x10, X,     "no QPI ingress credit"),
	UM("RTID",          0x08, X,     "no RTID available for a miss"),
};

static const struct pmon_umask rxr_ismq_retry_um[] = {
	UM("ANY",         0x01, D | X, "any reason"),
	UM("FULL",        0x02, X,     "no egress entry available"),
	UM("IIO_CREDITS", 0x20, X,     "no credit for sending to the IIO on the BL ring"),
	UM("QPI_CREDITS", 0x10, X,     "no QPI credit"),
	UM("RTID",        0x08, X,     "no RTID (needed to write a Modified victim back)"),
};

static const struct pmon_umask tor_inserts_um[] = {
	UM("EVICTION",         0x04, X,                "evictions of LLC lines"),
	UM("MISS_ALL",         0x0a, X,                "all misses: requests that took an RTID (memory or MMIO)"),
	UMF("MISS_OPCODE",     0x03, X, F_OPC,         "misses with the opcode of the OPC_ umask given"),
	UMF("NID_ALL",         0x48, X, F_NID,         "all requests targeting the nodes in nf="),
	UMF("NID_EVICTION",    0x44, X, F_NID,         "evictions targeting the nodes in nf="),
	UMF("NID_MISS_ALL",    0x4a, X, F_NID,         "misses targeting the nodes in nf="),
	UMF("NID_MISS_OPCODE", 0x43, X, F_NID | F_OPC, "misses targeting the nodes in nf= with the OPC_ opcode"),
	UMF("NID_OPCODE",      0x41, X, F_NID | F_OPC, "requests targeting the nodes in nf= with the OPC_ opcode"),
	UMF("NID_WB",          0x50, X, F_NID,         "writebacks targeting the nodes in nf="),
	UMF("OPCODE",          0x01, X, F_OPC,         "requests with the opcode of the OPC_ umask given"),
	UM("WB",               0x10, X,                "writebacks carrying data from the cores (RFOs excluded)"),
	OPC_UMASKS,
};

static const struct pmon_umask tor_occupancy_um[] = {
	UM("ALL",              0x08, D | X,            "every valid entry, short hits and retries included"),
	UM("EVICTION",         0x04, X,                "evictions in flight"),
	UM("MISS_ALL",         0x0a, X,                "misses in flight (requests holding an RTID)"),
	UMF("MISS_OPCODE",     0x03, X, F_OPC,         "misses in flight with the OPC_ opcode"),
	UMF("NID_ALL",         0x48, X, F_NID,         "requests in flight to the nodes in nf="),
	UMF("NID_EVICTION",    0x44, X, F_NID,         "evictions in flight to the nodes in nf="),
	UMF("NID_MISS_ALL",    0x4a, X, F_NID,         "misses in flight to the nodes in nf="),
	UMF("NID_MISS_OPCODE", 0x43, X, F_NID | F_OPC, "misses in flight to the nf= nodes with the OPC_ opcode"),
	UMF("NID_OPCODE",      0x41, X, F_NID | F_OPC, "requests in flight to the nodes in nf= with the OPC_ opcode"),
	UMF("OPCODE",          0x01, X, F_OPC,         "requests in flight with the OPC_ opcode"),
	OPC_UMASKS,
};

static const struct pmon_umask txr_inserts_um[] = {
	UM("AD_CACHE", 0x01, X, "AD ring, from the cache side (requests, snoops, snoop responses)"),
	UM("AK_CACHE", 0x02, X, "AK ring, from the cache side (credit returns, completions)"),
	UM("BL_CACHE", 0x04, X, "BL ring, from the cache side (data out of the LLC)"),
	UM("IV_CACHE", 0x08, X, "IV ring, from the cache side (snoops to cores)"),
	UM("AD_CORE",  0x10, X, "AD ring, from the core side (core requests)"),
	UM("AK_CORE",  0x20, X, "AK ring, from the core side (core snoop responses)"),
	UM("BL_CORE",  0x40, X, "BL ring, from the core side (writeback data)"),
};

/* Umasks of the events found only in Intel's event data (single bits, no
 * aggregate, so they may be combined). */
static const struct pmon_umask txr_starved_um[] = {
	UM("AK", 0x02, 0, "AK ring"),
	UM("BL", 0x04, 0, "BL ring"),
};

static const struct pmon_umask ring_sink_starved_um[] = {
	UM("AD_CACHE", 0x01, 0, "AD ring, cache side"),
	UM("AK_CORE",  0x02, 0, "AK ring, core side"),
	UM("BL_CORE",  0x04, 0, "BL ring, core side"),
	UM("IV_CORE",  0x08, 0, "IV ring, core side"),
};

static const struct pmon_umask rxr_int_starved_um[] = {
	UM("IRQ",  0x01, 0, "core request queue"),
	UM("IPQ",  0x04, 0, "snoop (probe) queue"),
	UM("ISMQ", 0x08, 0, "ISMQ"),
};

#define UMASKS(a) .umasks = (a), .numasks = PMON_ARRAY_SIZE(a)

const struct pmon_event pmon_snbep_cbo_events[] = {
	/* libpfm4 accepts no modifier here; the hardware takes e/i/t on any event. */
	{ .name = "UNC_C_CLOCKTICKS", .code = 0x00, .cntmask = 0xf, .mods = PMON_M_STD,
	  .desc = "Uncore clock (UCLK) cycles counted by this CBo" },
	{ .name = "UNC_C_COUNTER0_OCCUPANCY", .code = 0x1f, .cntmask = 0xe, .mods = CBO_MODS,
	  .desc = "The occupancy counter 0 is accumulating, seen by counters 1-3 so each can "
		  "apply its own threshold/edge/invert (t=1: cycles not empty)" },
	{ .name = "UNC_C_ISMQ_DRD_MISS_OCC", .code = 0x21, .cntmask = 0x3, .mods = CBO_MODS,
	  .desc = "Occupancy-type count of demand data-read misses in the ISMQ (Intel gives no "
		  "definition; up to 20 per cycle)" },
	{ .name = "UNC_C_LLC_LOOKUP", .code = 0x34, .cntmask = 0x3, .fields = F_STATE,
	  .mods = CBO_MODS, UMASKS(llc_lookup_um),
	  .desc = "LLC lookups in this slice by request type and line state (default: data "
		  "reads, any state); a request looking up twice counts twice" },
	{ .name = "UNC_C_LLC_VICTIMS", .code = 0x37, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(llc_victims_um),
	  .desc = "Lines evicted from this LLC slice to make room for fills, by the state "
		  "they were in" },
	{ .name = "UNC_C_MISC", .code = 0x39, .flags = NU, .cntmask = 0x3, .mods = CBO_MODS,
	  UMASKS(misc_um),
	  .desc = "Miscellaneous coherence events of the CBo (combinable)" },
	{ .name = "UNC_C_RING_AD_USED", .code = 0x1b, .flags = NU, .cntmask = 0xc,
	  .mods = CBO_MODS, UMASKS(ring_updown_um),
	  .desc = "Cycles the AD (request) ring at this stop carries traffic passing by or "
		  "arriving, own sends excluded; counters 2-3 only" },
	{ .name = "UNC_C_RING_AK_USED", .code = 0x1c, .flags = NU, .cntmask = 0xc,
	  .mods = CBO_MODS, UMASKS(ring_updown_um),
	  .desc = "Cycles the AK (acknowledge) ring at this stop carries traffic passing by "
		  "or arriving, own sends excluded; counters 2-3 only" },
	{ .name = "UNC_C_RING_BL_USED", .code = 0x1d, .flags = NU, .cntmask = 0xc,
	  .mods = CBO_MODS, UMASKS(ring_updown_um),
	  .desc = "Cycles the BL (data) ring at this stop carries traffic passing by or "
		  "arriving, own sends excluded; counters 2-3 only; x32 gives bytes" },
	{ .name = "UNC_C_RING_BOUNCES", .code = 0x05, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(ring_bounces_um),
	  .desc = "Messages to cores that could not be taken off the ring and went round "
		  "again" },
	{ .name = "UNC_C_RING_IV_USED", .code = 0x1e, .cntmask = 0xc, .mods = CBO_MODS,
	  UMASKS(ring_iv_used_um),
	  .desc = "Cycles the single IV (snoop) ring at this stop carries traffic passing by "
		  "or arriving; counters 2-3 only" },
	{ .name = "UNC_C_RING_SRC_THRTL", .code = 0x07, .cntmask = 0x3, .mods = CBO_MODS,
	  .desc = "Ring source throttling (Intel gives no definition)" },
	{ .name = "UNC_C_RXR_EXT_STARVED", .code = 0x12, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(rxr_ext_starved_um),
	  .desc = "Cycles the ingress arbiter blocks other queues because one queue is "
		  "starved by them" },
	{ .name = "UNC_C_RXR_INSERTS", .code = 0x13, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(rxr_inserts_um),
	  .desc = "Allocations into the selected CBo ingress queue" },
	{ .name = "UNC_C_RXR_IPQ_RETRY", .code = 0x31, .cntmask = 0x3, .mods = CBO_MODS,
	  UMASKS(rxr_ipq_retry_um),
	  .desc = "Snoops from other sockets (IPQ) retried after the TOR rejected them, by "
		  "reason" },
	{ .name = "UNC_C_RXR_IRQ_RETRY", .code = 0x32, .cntmask = 0x3, .mods = CBO_MODS,
	  UMASKS(rxr_irq_retry_um),
	  .desc = "Core requests (IRQ) retried after the TOR rejected them, by reason" },
	{ .name = "UNC_C_RXR_ISMQ_RETRY", .code = 0x33, .cntmask = 0x3, .mods = CBO_MODS,
	  UMASKS(rxr_ismq_retry_um),
	  .desc = "Responses for requests already in the CBo (ISMQ) retried after a TOR "
		  "reject, by reason" },
	{ .name = "UNC_C_RXR_OCCUPANCY", .code = 0x11, .flags = NU, .cntmask = 0x1,
	  .mods = CBO_MODS, UMASKS(rxr_inserts_um),
	  .desc = "Entries of the selected ingress queue summed every cycle (counter 0 "
		  "only); over RXR_INSERTS gives the mean wait" },
	{ .name = "UNC_C_TOR_INSERTS", .code = 0x35, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(tor_inserts_um),
	  .desc = "Requests entering the table of requests (TOR), by kind; opcode kinds need "
		  "an OPC_ umask, NID kinds need nf=" },
	{ .name = "UNC_C_TOR_OCCUPANCY", .code = 0x36, .cntmask = 0x1, .mods = CBO_MODS,
	  UMASKS(tor_occupancy_um),
	  .desc = "TOR entries of the selected kind summed every cycle (counter 0 only); "
		  "over TOR_INSERTS of the same kind gives latency in UCLK" },
	{ .name = "UNC_C_TXR_ADS_USED", .code = 0x04, .cntmask = 0x3, .mods = CBO_MODS,
	  .desc = "Egress AD slot use (Intel gives no definition)" },
	{ .name = "UNC_C_TXR_INSERTS", .code = 0x02, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(txr_inserts_um),
	  .desc = "Entries allocated in the CBo egress queues that feed the rings, by ring and "
		  "by cache or core side" },

	/* In Intel's event data (V24) only: not in the guide, not in libpfm4.
	 * Counters 0-1 as Intel lists them (no Linux constraint exists). */
	{ .name = "UNC_C_TXR_STARVED", .code = 0x03, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(txr_starved_um),
	  .desc = "Cycles the egress has been unable to inject onto the ring for a long "
		  "time (from Intel's event list)" },
	{ .name = "UNC_C_RING_SINK_STARVED", .code = 0x06, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(ring_sink_starved_um),
	  .desc = "Ring sink starvation at this stop (listed by Intel without a "
		  "definition)" },
	{ .name = "UNC_C_RXR_INT_STARVED", .code = 0x14, .flags = NU, .cntmask = 0x3,
	  .mods = CBO_MODS, UMASKS(rxr_int_starved_um),
	  .desc = "Cycles an entry of an ingress queue is starved by other entries of the "
		  "same queue (from Intel's event list)" },
	{ .name = NULL }
};
