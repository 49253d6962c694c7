/* perf_names.c - the Nehalem-EP / Westmere-EP uncore as the Linux kernel's
 * perf shows it (/sys/bus/event_source/devices/uncore/format and events):
 * one PMU named "uncore" per machine (the kernel's driver for these CPUs
 * serves both generations under that name), and the unit of each count
 * pmon can state.
 *
 * Format fields (the kernel's Nehalem uncore driver): event (config 7:0),
 * umask (15:8), edge (18), inv (23) and an 8-bit counter mask, cmask
 * (31:24).  Event aliases: clockticks (event 0xff: the fixed UCLK counter),
 * the memory controller's normal reads and full-line writes of every
 * channel, and the home logic's requests by source and kind.  The kernel
 * programs qmc_normal_reads_any and qmc_writes_full_any with umask 0x0f;
 * bit 3 is no umask of the reads and is PARTIAL_CH0 of the writes (the
 * SDM's FULL.ANY is 0x07), so pmon's aliases give 0x07, the "any channel"
 * umask both names promise (doc/events.md says so). */
#include <stddef.h>

#include "nhm.h"

static const struct pmon_perf_format unc_formats[] = {
	{ "event", PMON_PERF_CTL, 0, 8 },
	{ "umask", PMON_PERF_CTL, 8, 8 },
	{ "edge", PMON_PERF_CTL, 18, 1 },
	{ "inv", PMON_PERF_CTL, 23, 1 },
	{ "cmask", PMON_PERF_CTL, 24, 8 },
	{ NULL, PMON_PERF_CTL, 0, 0 },
};

static const struct pmon_perf_alias unc_aliases[] = {
	{ "clockticks", "event=0xff,umask=0x00", NULL, NULL },
	{ "qmc_writes_full_any", "event=0x2f,umask=0x07", NULL, NULL },
	{ "qmc_normal_reads_any", "event=0x2c,umask=0x07", NULL, NULL },
	{ "qhl_request_ioh_reads", "event=0x20,umask=0x01", NULL, NULL },
	{ "qhl_request_ioh_writes", "event=0x20,umask=0x02", NULL, NULL },
	{ "qhl_request_remote_reads", "event=0x20,umask=0x04", NULL, NULL },
	{ "qhl_request_remote_writes", "event=0x20,umask=0x08", NULL, NULL },
	{ "qhl_request_local_reads", "event=0x20,umask=0x10", NULL, NULL },
	{ "qhl_request_local_writes", "event=0x20,umask=0x20", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

const struct pmon_perf_pmu pmon_nhm_perf_pmus[] = {
	{ "uncore", "nhm_unc", unc_formats, unc_aliases, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

const struct pmon_perf_pmu pmon_wsm_perf_pmus[] = {
	{ "uncore", "wsm_unc", unc_formats, unc_aliases, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

/* What one count is: the uncore runs on UCLK; a memory controller read or
 * full-line write, and a home logic request, moves one 64-byte line. */
#define UNITS(B) \
	{ B, "UNC_QMC_NORMAL_READS", NULL, "64-byte lines", 64 }, \
	{ B, "UNC_QMC_WRITES", "FULL_ANY", "64-byte lines", 64 }, \
	{ B, "UNC_QMC_WRITES", "FULL_CH0", "64-byte lines", 64 }, \
	{ B, "UNC_QMC_WRITES", "FULL_CH1", "64-byte lines", 64 }, \
	{ B, "UNC_QMC_WRITES", "FULL_CH2", "64-byte lines", 64 }, \
	{ B, "UNC_QHL_REQUESTS", NULL, "64-byte lines", 64 }, \
	{ B, "UNC_CLK_UNHALTED", NULL, "uncore clock cycles", 0 }, \
	{ B, "UNC_*CYCLES*", NULL, "uncore clock cycles", 0 }

const struct pmon_unit_row pmon_nhm_units[] = {
	UNITS("nhm_unc"),
	{ NULL, NULL, NULL, NULL, 0 },
};

const struct pmon_unit_row pmon_wsm_units[] = {
	UNITS("wsm_unc"),
	{ NULL, NULL, NULL, NULL, 0 },
};
