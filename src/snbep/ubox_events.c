/*
 * ubox_events.c - event table of the SNB-EP UBox (register map in ubox.c).
 *
 * Names follow libpfm4's snbep_unc_ubo PMU.  Sources: the E5-2600 uncore
 * guide (327043-001, section 2.2), Intel's Jaketown event data (V24) and
 * libpfm4 4.13 (checked encodings with LIBPFM_ENCODE_INACTIVE=1).
 *
 * Umask groups and exclusivity mirror libpfm4: EVENT_MSG takes exactly one
 * message type (libpfm4 marks every umask NCOMBO and has no default).
 */
#include <stddef.h>

#include "snbep.h"

#define UM(n, v, f, d) { .name = (n), .value = (v), .flags = (f), .desc = (d) }
#define X PMON_UM_EXCL

static const struct pmon_umask event_msg_um[] = {
	UM("VLW_RCVD",      0x01, X, "virtual legacy wire (VLW) messages"),
	UM("MSI_RCVD",      0x02, X, "message-signalled interrupts (MSI)"),
	UM("IPI_RCVD",      0x04, X, "inter-processor interrupts (IPI)"),
	UM("DOORBELL_RCVD", 0x08, X, "doorbell messages"),
	/* The guide spells it INT_PRIOR; libpfm4 and Intel's data say INT_PRIO. */
	UM("INT_PRIO",      0x10, X, "interrupt-priority update messages"),
};

/* Only in Intel's event data (not in the guide or libpfm4).  Plain bit
 * masks without an aggregate umask, so they may be combined. */
static const struct pmon_umask u2c_events_um[] = {
	UM("MONITOR_T0", 0x01, 0, "monitor signal sent to thread 0"),
	UM("MONITOR_T1", 0x02, 0, "monitor signal sent to thread 1"),
	UM("LIVELOCK",   0x04, 0, "livelock-breaker signal"),
	UM("LTERROR",    0x08, 0, "Trusted Execution (LT) error signal"),
	UM("CMC",        0x10, 0, "corrected machine-check notification"),
	UM("UMC",        0x20, 0, "uncorrectable machine-check notification"),
	UM("TRAP",       0x40, 0, "trap signal"),
	UM("OTHER",      0x80, 0, "any other uncore-to-core signal"),
};

#define UMASKS(a) .umasks = (a), .numasks = PMON_ARRAY_SIZE(a)

const struct pmon_event pmon_snbep_ubox_events[] = {
	/* The UCLK fixed counter.  libpfm4 has no event for it; Intel's data
	 * calls the UBox clock event UNC_U_CLOCKTICKS.  Code 0xff is the
	 * Linux pseudo-code for a box's fixed counter; the ctl is 0. */
	{ .name = "UNC_U_CLOCKTICKS", .code = 0xff, .flags = PMON_EV_FIXED, .cntmask = 0,
	  .desc = "Uncore clock (UCLK) cycles on the UBox fixed counter; the timebase of "
		  "the CBo, HA and ring events (cannot be frozen with the other boxes)" },
	{ .name = "UNC_U_EVENT_MSG", .code = 0x42, .flags = PMON_EV_NEED_UM, .cntmask = 0x3,
	  .mods = PMON_M_STD, UMASKS(event_msg_um),
	  .desc = "Interrupt and legacy-wire messages received by the UBox; pick one "
		  "message type" },
	{ .name = "UNC_U_LOCK_CYCLES", .code = 0x44, .cntmask = 0x3, .mods = PMON_M_STD,
	  .desc = "Bus-lock and split-lock sequences started in the socket; despite the "
		  "name it counts sequences, not cycles" },
	/* In Intel's event data only (code 0x43, counters 0-1). */
	{ .name = "UNC_U_U2C_EVENTS", .code = 0x43, .flags = PMON_EV_NEED_UM, .cntmask = 0x3,
	  .mods = PMON_M_STD, UMASKS(u2c_events_um),
	  .desc = "Signals the UBox sent from the uncore to the cores, by kind (not in the "
		  "uncore guide; from Intel's event list)" },
	{ .name = NULL }
};

/* In Intel's event data (V24) but deliberately not offered: the guide's UBox
 * has two events, EVENT_MSG and LOCK_CYCLES (L652-L653).  The encoder names
 * these with their reason; doc/divergences.md ("Not in the E5-2600 guide")
 * has the evidence, and test_tables_ubox_imc keeps the two lists in step. */
const struct pmon_excluded_event pmon_snbep_ubox_excluded[] = {
	{ "UNC_U_FILTER_MATCH",
	  "it is in Intel's event list, not in the uncore guide's, and its ENABLE and U2C_ENABLE "
	  "umasks need a UBox filter register (UBoxFilter[3:0]) that the guide's UBox does not have" },
	{ "UNC_U_MSG_CHNL_SIZE_COUNT",
	  "it is in Intel's event list, not in the uncore guide's, and needs an extra event-select "
	  "bit that U_MSR_PMON_CTL does not have" },
	{ "UNC_U_PHOLD_CYCLES",
	  "it is in Intel's event list, not in the uncore guide's, and needs an extra event-select "
	  "bit that U_MSR_PMON_CTL does not have" },
	{ "UNC_U_RACU_REQUESTS",
	  "it is in Intel's event list, not in the uncore guide's, and needs an extra event-select "
	  "bit that U_MSR_PMON_CTL does not have" },
	{ NULL, NULL }
};
