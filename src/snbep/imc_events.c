/*
 * imc_events.c - event table of one SNB-EP memory-controller channel
 * (register map in imc.c).  The same table serves snbep_unc_imc0..3.
 *
 * Names follow libpfm4's snbep_unc_imc PMUs (the guide's RPO_ / WPO_ spellings
 * are misprints of RPQ_ / WPQ_).  Every umask of this box is exclusive within
 * its event, as in libpfm4 (all NCOMBO); CAS_COUNT defaults to ALL.  All
 * general-purpose events may use any of the four counters (guide Table 2-64;
 * Linux has no iMC constraint table).
 */
#include <stddef.h>

#include "snbep.h"

#define UM(n, v, f, d) { .name = (n), .value = (v), .flags = (f), .desc = (d) }
#define X PMON_UM_EXCL
#define D PMON_UM_DEFAULT

static const struct pmon_umask cas_count_um[] = {
	UM("ALL",          0x0f, D | X, "every read and write CAS; x64 = bytes moved"),
	UM("RD",           0x03, X, "all read CAS commands, underfills included; x64 = read bytes"),
	UM("RD_REG",       0x01, X, "regular read CAS commands, with or without auto-precharge"),
	UM("RD_UNDERFILL", 0x02, X, "underfill reads issued to complete partial-line writes"),
	UM("WR",           0x0c, X, "all write CAS commands, either major mode; x64 = write bytes"),
	UM("WR_WMM",       0x04, X, "write CAS commands issued in write major mode"),
	UM("WR_RMM",       0x08, X, "opportunistic write CAS commands issued in read major mode"),
};

static const struct pmon_umask dram_refresh_um[] = {
	UM("PANIC", 0x02, X, "refreshes issued at panic priority (deadline nearly missed)"),
	UM("HIGH",  0x04, X, "refreshes issued at high priority"),
};

static const struct pmon_umask major_modes_um[] = {
	UM("READ",    0x01, X, "read major mode, the normal state"),
	UM("WRITE",   0x02, X, "write major mode, entered when the write queue fills; reads wait"),
	UM("PARTIAL", 0x04, X, "partial major mode, draining starved underfill reads"),
	UM("ISOCH",   0x08, X, "isochronous major mode, serving only isochronous requests"),
};

static const struct pmon_umask rank_um[] = {
	UM("RANK0", 0x01, X, "rank 0"),
	UM("RANK1", 0x02, X, "rank 1"),
	UM("RANK2", 0x04, X, "rank 2"),
	UM("RANK3", 0x08, X, "rank 3"),
	UM("RANK4", 0x10, X, "rank 4"),
	UM("RANK5", 0x20, X, "rank 5"),
	UM("RANK6", 0x40, X, "rank 6"),
	UM("RANK7", 0x80, X, "rank 7"),
};

static const struct pmon_umask preemption_um[] = {
	UM("RD_PREEMPT_RD", 0x01, X, "a read overtook another read"),
	UM("RD_PREEMPT_WR", 0x02, X, "a read overtook a write"),
};

static const struct pmon_umask pre_count_um[] = {
	UM("PAGE_MISS",  0x01, X, "closes forced by a page miss (a different row was needed); "
				  "auto-precharge and timer closes excluded"),
	UM("PAGE_CLOSE", 0x02, X, "closes issued because the idle-page timer expired"),
};

#define UMASKS(a) .umasks = (a), .numasks = PMON_ARRAY_SIZE(a)
#define ALL4 0xf
#define NU PMON_EV_NEED_UM

const struct pmon_event pmon_snbep_imc_events[] = {
	/* The DCLK fixed counter; 0xff is libpfm4's (and Linux's) code for it. */
	{ .name = "UNC_M_CLOCKTICKS", .code = 0xff, .flags = PMON_EV_FIXED, .cntmask = 0,
	  .desc = "DRAM clock (DCLK) cycles on the channel's fixed counter; DCLK is half the "
		  "DDR transfer rate and constant, so it also serves as a wall clock" },
	{ .name = "UNC_M_ACT_COUNT", .code = 0x01, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "DRAM row activations (ACT) on this channel; minus PRE_COUNT:PAGE_MISS "
		  "gives the accesses that found their bank idle" },
	{ .name = "UNC_M_CAS_COUNT", .code = 0x04, .cntmask = ALL4, .mods = PMON_M_STD,
	  UMASKS(cas_count_um),
	  .desc = "DRAM column commands (CAS) on this channel; each moves one 64-byte line, "
		  "so multiply by 64 for bandwidth" },
	{ .name = "UNC_M_DRAM_PRE_ALL", .code = 0x06, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Precharge-all commands (every open row of a rank closed at once)" },
	{ .name = "UNC_M_DRAM_REFRESH", .code = 0x05, .flags = NU, .cntmask = ALL4,
	  .mods = PMON_M_STD, UMASKS(dram_refresh_um),
	  .desc = "DRAM refresh commands issued, by urgency" },
	{ .name = "UNC_M_ECC_CORRECTABLE_ERRORS", .code = 0x09, .cntmask = ALL4,
	  .mods = PMON_M_STD,
	  .desc = "ECC corrections on this channel, one per corrected access whatever the "
		  "number of bits fixed; always 0 without ECC DIMMs" },
	{ .name = "UNC_M_MAJOR_MODES", .code = 0x07, .flags = NU, .cntmask = ALL4,
	  .mods = PMON_M_STD, UMASKS(major_modes_um),
	  .desc = "DCLK cycles the channel's scheduler spends in the selected major mode "
		  "(a channel-wide state)" },
	{ .name = "UNC_M_POWER_CHANNEL_DLLOFF", .code = 0x84, .cntmask = ALL4,
	  .mods = PMON_M_STD,
	  .desc = "Cycles in which every rank of the channel is in the slow (DLL-off) CKE "
		  "power-down state" },
	{ .name = "UNC_M_POWER_CHANNEL_PPD", .code = 0x85, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Cycles in which every rank of the channel is in precharge power-down" },
	{ .name = "UNC_M_POWER_CKE_CYCLES", .code = 0x83, .flags = NU, .cntmask = ALL4,
	  .mods = PMON_M_STD, UMASKS(rank_um),
	  .desc = "Cycles the selected rank has CKE asserted, i.e. is not powered down; "
		  "the CKE power-down flavours are not told apart" },
	{ .name = "UNC_M_POWER_CRITICAL_THROTTLE_CYCLES", .code = 0x86, .cntmask = ALL4,
	  .mods = PMON_M_STD,
	  .desc = "Cycles of critical thermal throttling on this channel, during which no DRAM "
		  "traffic moves; should stay near zero" },
	{ .name = "UNC_M_POWER_SELF_REFRESH", .code = 0x43, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Cycles the DRAM is in self-refresh while the memory controller is still "
		  "clocked; package C3/C6 stop the clock and are not counted" },
	{ .name = "UNC_M_POWER_THROTTLE_CYCLES", .code = 0x41, .flags = NU, .cntmask = ALL4,
	  .mods = PMON_M_STD, UMASKS(rank_um),
	  .desc = "Cycles the selected rank is throttled, thermally or by the PCU (the two "
		  "causes are not distinguished)" },
	{ .name = "UNC_M_PREEMPTION", .code = 0x08, .flags = NU, .cntmask = ALL4,
	  .mods = PMON_M_STD, UMASKS(preemption_um),
	  .desc = "Reads that the scheduler let overtake an already queued request" },
	{ .name = "UNC_M_PRE_COUNT", .code = 0x02, .flags = NU, .cntmask = ALL4,
	  .mods = PMON_M_STD, UMASKS(pre_count_um),
	  .desc = "DRAM precharge (row close) commands on this channel, by cause" },
	{ .name = "UNC_M_RPQ_CYCLES_FULL", .code = 0x12, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Cycles with no free read pending queue entry, so the HA must hold reads back" },
	{ .name = "UNC_M_RPQ_CYCLES_NE", .code = 0x11, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Cycles the read pending queue holds at least one read; RPQ_OCCUPANCY over "
		  "this is the mean depth while busy" },
	{ .name = "UNC_M_RPQ_INSERTS", .code = 0x10, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Reads entering the read pending queue (isochronous ones included); "
		  "RPQ_OCCUPANCY over this is the mean queueing time in DCLK" },
	{ .name = "UNC_M_RPQ_OCCUPANCY", .code = 0x80, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Read pending queue entries summed every cycle (up to 22 per cycle); an "
		  "entry leaves once its CAS is issued" },
	{ .name = "UNC_M_WPQ_CYCLES_FULL", .code = 0x22, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Cycles with no free write pending queue entry, so the HA must hold writes back" },
	{ .name = "UNC_M_WPQ_CYCLES_NE", .code = 0x21, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Cycles the write pending queue holds at least one write" },
	{ .name = "UNC_M_WPQ_INSERTS", .code = 0x20, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Writes entering the write pending queue" },
	{ .name = "UNC_M_WPQ_OCCUPANCY", .code = 0x81, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Write pending queue entries summed every cycle (up to 32 per cycle); writes "
		  "are already complete for the core while queued, so this is not a latency seen "
		  "by software" },
	{ .name = "UNC_M_WPQ_READ_HIT", .code = 0x23, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Reads that found their line in the write pending queue and were served "
		  "from it instead of DRAM" },
	{ .name = "UNC_M_WPQ_WRITE_HIT", .code = 0x24, .cntmask = ALL4, .mods = PMON_M_STD,
	  .desc = "Writes that found a write to the same line already queued and merged "
		  "into it" },
	{ .name = NULL }
};
