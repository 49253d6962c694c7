/*
 * ha_events.c - event table of the SNB-EP home agent (register map in ha.c).
 *
 * Names follow libpfm4's snbep_unc_ha PMU.  libpfm4 marks every HA umask
 * NCOMBO, so every umask here is exclusive; the defaults are libpfm4's.
 * Every HA event may use all four counters (guide Table 2-40; Linux has no
 * HA constraint table).  ADDR_OPC_MATCH is in the guide and in Intel's data;
 * libpfm4 has it compiled out.  The events after it are in Intel's event data
 * (V24) only.
 */
#include <stddef.h>

#include "snbep.h"

/* Must match the field order of ha.c (checked by the test). */
#define F_ADDR (1u << 0)
#define F_OPC  (1u << 1)

#define X  PMON_UM_EXCL
#define D  PMON_UM_DEFAULT
#define NU PMON_EV_NEED_UM
#define ALL4 0xf

#define UM(n, v, f, d) { .name = (n), .value = (v), .flags = (f), .desc = (d) }

static const struct pmon_umask conflict_cycles_um[] = {
	UM("CONFLICT",    0x02, X, "cycles spent handling a conflict"),
	UM("NO_CONFLICT", 0x01, X, "cycles with no conflict being handled"),
};

static const struct pmon_umask directory_lookup_um[] = {
	UM("NO_SNP", 0x02, X, "directory bit clear, no snoop needed"),
	UM("SNP",    0x01, X, "directory bit set, snoops sent"),
};

static const struct pmon_umask directory_update_um[] = {
	UM("ANY",   0x03, D | X, "sets and clears"),
	UM("CLEAR", 0x02, X,     "clears: every snoop answered invalid"),
	UM("SET",   0x01, X,     "sets: the line went to a cache in another socket"),
};

static const struct pmon_umask igr_no_credit_cycles_um[] = {
	UM("AD_QPI0", 0x01, X, "AD ring credits for QPI link 0"),
	UM("AD_QPI1", 0x02, X, "AD ring credits for QPI link 1"),
	UM("BL_QPI0", 0x04, X, "BL ring credits for QPI link 0"),
	UM("BL_QPI1", 0x08, X, "BL ring credits for QPI link 1"),
};

static const struct pmon_umask imc_writes_um[] = {
	UM("ALL",           0x0f, D | X, "all writes"),
	UM("FULL",          0x01, X,     "full-line writes, not isochronous"),
	UM("FULL_ISOCH",    0x04, X,     "full-line isochronous writes"),
	UM("PARTIAL",       0x02, X,     "partial-line writes, not isochronous"),
	UM("PARTIAL_ISOCH", 0x08, X,     "partial-line isochronous writes"),
};

static const struct pmon_umask requests_um[] = {
	UM("READS",  0x03, X, "reads of every kind, RFOs included; a proxy for LLC read misses"),
	UM("WRITES", 0x0c, X, "writes of every kind: streaming stores, evictions, HitM writebacks"),
};

static const struct pmon_umask channel_um[] = {
	UM("CHN0", 0x01, X, "memory channel 0"),
	UM("CHN1", 0x02, X, "memory channel 1"),
	UM("CHN2", 0x04, X, "memory channel 2"),
	UM("CHN3", 0x08, X, "memory channel 3"),
};

static const struct pmon_umask tad_requests_g0_um[] = {
	UM("REGION0", 0x01, X, "TAD region 0"),
	UM("REGION1", 0x02, X, "TAD region 1"),
	UM("REGION2", 0x04, X, "TAD region 2"),
	UM("REGION3", 0x08, X, "TAD region 3"),
	UM("REGION4", 0x10, X, "TAD region 4"),
	UM("REGION5", 0x20, X, "TAD region 5"),
	UM("REGION6", 0x40, X, "TAD region 6"),
	UM("REGION7", 0x80, X, "TAD region 7"),
};

static const struct pmon_umask tad_requests_g1_um[] = {
	UM("REGION8",  0x01, X, "TAD region 8"),
	UM("REGION9",  0x02, X, "TAD region 9"),
	UM("REGION10", 0x04, X, "TAD region 10"),
	UM("REGION11", 0x08, X, "TAD region 11"),
};

static const struct pmon_umask tracker_inserts_um[] = {
	UM("ALL", 0x03, D | X, "requests from the local and the remote sockets"),
};

static const struct pmon_umask txr_ad_um[] = {
	UM("NDR", 0x01, X, "non-data responses, sent to other sockets"),
	UM("SNP", 0x02, X, "snoops to caching agents; zero when early snoop is on"),
};

static const struct pmon_umask sched_um[] = {
	UM("ALL",    0x03, D | X, "both schedulers"),
	UM("SCHED0", 0x01, X,     "scheduler 0"),
	UM("SCHED1", 0x02, X,     "scheduler 1"),
};

static const struct pmon_umask txr_bl_um[] = {
	UM("DRS_CACHE", 0x01, X, "data sent to the LLC"),
	UM("DRS_CORE",  0x02, X, "data sent straight to the requesting core"),
	UM("DRS_QPI",   0x04, X, "data sent to another socket over QPI"),
};

static const struct pmon_umask addr_opc_match_um[] = {
	UM("FILT", 0x03, D | X, "match both the address and the opcode"),
};

/* Umasks of the Intel-only events. */
static const struct pmon_umask bypass_imc_um[] = {
	UM("TAKEN",     0x01, X, "the bypass was taken"),
	UM("NOT_TAKEN", 0x02, X, "the bypass was not taken"),
};

static const struct pmon_umask ring_cw_um[] = {
	UM("CW_EVEN",  0x01, 0, "clockwise, even polarity"),
	UM("CW_ODD",   0x02, 0, "clockwise, odd polarity"),
	UM("CCW_EVEN", 0x04, 0, "counter-clockwise, even polarity"),
	UM("CCW_ODD",  0x08, 0, "counter-clockwise, odd polarity"),
};

#define UMASKS(a) .umasks = (a), .numasks = PMON_ARRAY_SIZE(a)
#define STD .mods = PMON_M_STD

const struct pmon_event pmon_snbep_ha_events[] = {
	{ .name = "UNC_H_CLOCKTICKS", .code = 0x00, .cntmask = ALL4, STD,
	  .desc = "Uncore clock (UCLK) cycles counted in the home agent; drifts a little from "
		  "the UBox fixed counter since boxes start and stop at different moments" },
	{ .name = "UNC_H_CONFLICT_CYCLES", .code = 0x0b, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(conflict_cycles_um),
	  .desc = "Cycles the home agent is, or is not, resolving conflicting requests to the "
		  "same line" },
	{ .name = "UNC_H_DIRECT2CORE_COUNT", .code = 0x11, .cntmask = ALL4, STD,
	  .desc = "Direct2Core responses: data returned straight to the requesting core "
		  "instead of through its CBo" },
	{ .name = "UNC_H_DIRECT2CORE_CYCLES_DISABLED", .code = 0x12, .cntmask = ALL4, STD,
	  .desc = "Cycles with the Direct2Core optimisation turned off" },
	{ .name = "UNC_H_DIRECT2CORE_TXN_OVERRIDE", .code = 0x13, .cntmask = ALL4, STD,
	  .desc = "Reads that could have used Direct2Core but were sent the normal way" },
	{ .name = "UNC_H_DIRECTORY_LOOKUP", .code = 0x0c, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(directory_lookup_um),
	  .desc = "Memory-directory lookups, by whether snoops were needed (parts with a "
		  "directory only)" },
	{ .name = "UNC_H_DIRECTORY_UPDATE", .code = 0x0d, .cntmask = ALL4, STD,
	  UMASKS(directory_update_um),
	  .desc = "Memory-directory updates, each costing a DRAM write (parts with a "
		  "directory only)" },
	{ .name = "UNC_H_IGR_NO_CREDIT_CYCLES", .code = 0x22, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(igr_no_credit_cycles_um),
	  .desc = "Cycles the home agent has no credit to send to a QPI agent, per ring and "
		  "link" },
	{ .name = "UNC_H_IMC_RETRY", .code = 0x1e, .cntmask = ALL4, STD,
	  .desc = "Retried requests to the memory controller (Intel gives no definition)" },
	{ .name = "UNC_H_IMC_WRITES", .code = 0x1a, .cntmask = ALL4, STD, UMASKS(imc_writes_um),
	  .desc = "Writes sent from the home agent to DRAM, summed over the four channels" },
	{ .name = "UNC_H_REQUESTS", .code = 0x01, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(requests_um),
	  .desc = "Read or write requests arriving at the home agent from any socket" },
	{ .name = "UNC_H_RPQ_CYCLES_NO_REG_CREDITS", .code = 0x15, .flags = NU, .cntmask = ALL4,
	  STD, UMASKS(channel_um),
	  .desc = "Cycles without a regular credit for the selected channel's read pending "
		  "queue, so reads to it must wait" },
	{ .name = "UNC_H_TAD_REQUESTS_G0", .code = 0x1b, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(tad_requests_g0_um),
	  .desc = "Home-agent requests decoded to the selected target address (TAD) region "
		  "0-7" },
	{ .name = "UNC_H_TAD_REQUESTS_G1", .code = 0x1c, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(tad_requests_g1_um),
	  .desc = "Home-agent requests decoded to the selected target address (TAD) region "
		  "8-11" },
	{ .name = "UNC_H_TRACKER_INSERTS", .code = 0x06, .cntmask = ALL4, STD,
	  UMASKS(tracker_inserts_um),
	  .desc = "Allocations into the home agent's 128-entry request tracker" },
	{ .name = "UNC_H_TXR_AD", .code = 0x0f, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(txr_ad_um),
	  .desc = "Messages the home agent sends on the AD ring, by class" },
	{ .name = "UNC_H_TXR_AD_CYCLES_FULL", .code = 0x2a, .cntmask = ALL4, STD,
	  UMASKS(sched_um),
	  .desc = "Cycles with no free entry in the AD egress queue, per scheduler" },
	{ .name = "UNC_H_TXR_AK_CYCLES_FULL", .code = 0x32, .cntmask = ALL4, STD,
	  UMASKS(sched_um),
	  .desc = "Cycles with no free entry in the AK egress queue, per scheduler" },
	{ .name = "UNC_H_TXR_AK_NDR", .code = 0x0e, .cntmask = ALL4, STD,
	  .desc = "Non-data responses (completions without data) sent on the AK ring to the "
		  "local socket" },
	{ .name = "UNC_H_TXR_BL", .code = 0x10, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(txr_bl_um),
	  .desc = "Data messages the home agent sends on the BL ring, by destination" },
	{ .name = "UNC_H_TXR_BL_CYCLES_FULL", .code = 0x36, .cntmask = ALL4, STD,
	  UMASKS(sched_um),
	  .desc = "Cycles with no free entry in the BL egress queue, per scheduler" },
	{ .name = "UNC_H_WPQ_CYCLES_NO_REG_CREDITS", .code = 0x18, .flags = NU, .cntmask = ALL4,
	  STD, UMASKS(channel_um),
	  .desc = "Cycles without a regular credit for the selected channel's write pending "
		  "queue, so writes to it must wait" },

	/* In the guide and Intel's data; compiled out of libpfm4.  Needs both
	 * match registers: addr= and opc= (accepted because the event needs
	 * their fields). */
	{ .name = "UNC_H_ADDR_OPC_MATCH", .code = 0x20, .cntmask = ALL4, .fields = F_ADDR | F_OPC,
	  STD, UMASKS(addr_opc_match_um),
	  .desc = "Requests matching both the address (addr=) and the 6-bit opcode (opc=) "
		  "match registers" },

	/* In Intel's event data (V24) only: not in the guide, not in libpfm4. */
	{ .name = "UNC_H_BYPASS_IMC", .code = 0x14, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(bypass_imc_um),
	  .desc = "Attempts at the light-load shortcut from the home agent to the iMC, by "
		  "outcome (from Intel's event list)" },
	{ .name = "UNC_H_RING_AD_USED", .code = 0x3e, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(ring_cw_um),
	  .desc = "Cycles the AD ring at the home agent's stop carries traffic passing by or "
		  "arriving (from Intel's event list)" },
	{ .name = "UNC_H_RING_AK_USED", .code = 0x3f, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(ring_cw_um),
	  .desc = "Cycles the AK ring at the home agent's stop carries traffic passing by or "
		  "arriving (from Intel's event list)" },
	{ .name = "UNC_H_RING_BL_USED", .code = 0x40, .flags = NU, .cntmask = ALL4, STD,
	  UMASKS(ring_cw_um),
	  .desc = "Cycles the BL ring at the home agent's stop carries traffic passing by or "
		  "arriving (from Intel's event list)" },
	{ .name = "UNC_H_RPQ_CYCLES_NO_SPEC_CREDITS", .code = 0x16, .flags = NU, .cntmask = ALL4,
	  STD, UMASKS(channel_um),
	  .desc = "Cycles without a special (e.g. isochronous) credit for the selected "
		  "channel's read pending queue (from Intel's event list)" },
	{ .name = "UNC_H_WPQ_CYCLES_NO_SPEC_CREDITS", .code = 0x19, .flags = NU, .cntmask = ALL4,
	  STD, UMASKS(channel_um),
	  .desc = "Cycles without a special (e.g. isochronous) credit for the selected "
		  "channel's write pending queue (from Intel's event list)" },
	{ .name = "UNC_H_TXR_AD_INSERTS", .code = 0x27, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "Allocations into the AD egress queue, per scheduler (from Intel's event "
		  "list)" },
	{ .name = "UNC_H_TXR_AD_OCCUPANCY", .code = 0x28, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "AD egress queue entries summed every cycle, per scheduler (from Intel's "
		  "event list)" },
	{ .name = "UNC_H_TXR_AD_CYCLES_NE", .code = 0x29, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "Cycles the AD egress queue is not empty, per scheduler (from Intel's event "
		  "list)" },
	{ .name = "UNC_H_TXR_AK_INSERTS", .code = 0x2f, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "Allocations into the AK egress queue, per scheduler (from Intel's event "
		  "list)" },
	{ .name = "UNC_H_TXR_AK_OCCUPANCY", .code = 0x30, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "AK egress queue entries summed every cycle, per scheduler (from Intel's "
		  "event list)" },
	{ .name = "UNC_H_TXR_AK_CYCLES_NE", .code = 0x31, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "Cycles the AK egress queue is not empty, per scheduler (from Intel's event "
		  "list)" },
	{ .name = "UNC_H_TXR_BL_INSERTS", .code = 0x33, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "Allocations into the BL egress queue, per scheduler (from Intel's event "
		  "list)" },
	{ .name = "UNC_H_TXR_BL_OCCUPANCY", .code = 0x34, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "BL egress queue entries summed every cycle, per scheduler (from Intel's "
		  "event list)" },
	{ .name = "UNC_H_TXR_BL_CYCLES_NE", .code = 0x35, .cntmask = ALL4, STD, UMASKS(sched_um),
	  .desc = "Cycles the BL egress queue is not empty, per scheduler (from Intel's event "
		  "list)" },
	{ .name = NULL }
};
