/* perf_names.c - the SNB-EP uncore as the Linux kernel's perf shows it
 * (/sys/bus/event_source/devices/uncore_<box>[_N]/format and events), and
 * the unit of each count pmon can state.
 *
 * Format fields (the kernel's snbep uncore driver): every box takes event,
 * umask, edge, inv and an 8-bit threshold (UBox and PCU: 5 bits); the CBo
 * adds tid_en and its filter (config1: filter_tid 4:0, filter_nid 17:10,
 * filter_state 22:18, filter_opc 31:23, the hardware filter's layout);
 * the PCU selects occupancy with occ_sel (config 15:14) and its events
 * with event (7:0) in some kernel versions, event_ext (7:0 and 21) in
 * others (both are taken here), has occ_invert
 * (30) and occ_edge (31) and its band filter (config1: filter_band0-3, one
 * byte each); QPI's event field is event_ext (config 7:0 and 21: the value
 * 0x102 means ev_sel 0x02 with the extra select bit) and its packet
 * match/mask fields live in config1/config2.  Aliases: the iMC's
 * clockticks (event 0xff, the fixed counter) and its CAS counts, which the
 * kernel scales to MiB (64 bytes per line: 64 / 2^20 = 6.103515625e-5);
 * QPI's clockticks, txl_flits_active, drs_data and ncb_data. */
#include <stddef.h>

#include "snbep.h"

#define F_EVENT   { "event", PMON_PERF_CTL, 0, 8 }
#define F_UMASK   { "umask", PMON_PERF_CTL, 8, 8 }
#define F_EDGE    { "edge", PMON_PERF_CTL, 18, 1 }
#define F_INV     { "inv", PMON_PERF_CTL, 23, 1 }
#define F_THRESH8 { "thresh8", PMON_PERF_CTL, 24, 8 }
#define F_THRESH5 { "thresh5", PMON_PERF_CTL, 24, 5 }
#define F_END     { NULL, PMON_PERF_CTL, 0, 0 }

static const struct pmon_perf_format generic_formats[] = {
	F_EVENT, F_UMASK, F_EDGE, F_INV, F_THRESH8, F_END,
};

static const struct pmon_perf_format ubox_formats[] = {
	F_EVENT, F_UMASK, F_EDGE, F_INV, F_THRESH5, F_END,
};

static const struct pmon_perf_format cbox_formats[] = {
	F_EVENT, F_UMASK, F_EDGE, { "tid_en", PMON_PERF_CTL, 19, 1 }, F_INV, F_THRESH8,
	{ "filter_tid", PMON_PERF_FILTER, 0, 5 },
	{ "filter_nid", PMON_PERF_FILTER, 10, 8 },
	{ "filter_state", PMON_PERF_FILTER, 18, 5 },
	{ "filter_opc", PMON_PERF_FILTER, 23, 9 },
	F_END,
};

static const struct pmon_perf_format pcu_formats[] = {
	F_EVENT, { "event_ext", PMON_PERF_EVENT_EXT, 0, 9 }, { "occ_sel", PMON_PERF_CTL, 14, 2 }, F_EDGE, F_INV, F_THRESH5,
	{ "occ_invert", PMON_PERF_CTL, 30, 1 },
	{ "occ_edge", PMON_PERF_CTL, 31, 1 },
	{ "filter_band0", PMON_PERF_FILTER, 0, 8 },
	{ "filter_band1", PMON_PERF_FILTER, 8, 8 },
	{ "filter_band2", PMON_PERF_FILTER, 16, 8 },
	{ "filter_band3", PMON_PERF_FILTER, 24, 8 },
	F_END,
};

#define QPI_REFUSED(n) { n, PMON_PERF_REFUSED, 0, 0 }
static const struct pmon_perf_format qpi_formats[] = {
	{ "event_ext", PMON_PERF_EVENT_EXT, 0, 9 }, F_UMASK, F_EDGE, F_INV, F_THRESH8,
	QPI_REFUSED("match_rds"), QPI_REFUSED("match_rnid30"), QPI_REFUSED("match_rnid4"),
	QPI_REFUSED("match_dnid"), QPI_REFUSED("match_mc"), QPI_REFUSED("match_opc"),
	QPI_REFUSED("match_vnw"), QPI_REFUSED("match0"), QPI_REFUSED("match1"),
	QPI_REFUSED("mask_rds"), QPI_REFUSED("mask_rnid30"), QPI_REFUSED("mask_rnid4"),
	QPI_REFUSED("mask_dnid"), QPI_REFUSED("mask_mc"), QPI_REFUSED("mask_opc"),
	QPI_REFUSED("mask_vnw"), QPI_REFUSED("mask0"), QPI_REFUSED("mask1"),
	F_END,
};

/* 64 bytes per CAS, in MiB */
#define CAS_MIB "6.103515625e-5"

static const struct pmon_perf_alias imc_aliases[] = {
	{ "clockticks", "event=0xff,umask=0x00", NULL, NULL },
	{ "cas_count_read", "event=0x04,umask=0x03", CAS_MIB, "MiB" },
	{ "cas_count_write", "event=0x04,umask=0x0c", CAS_MIB, "MiB" },
	{ NULL, NULL, NULL, NULL },
};

static const struct pmon_perf_alias qpi_aliases[] = {
	{ "clockticks", "event_ext=0x14", NULL, NULL },
	{ "txl_flits_active", "event_ext=0x00,umask=0x06", NULL, NULL },
	{ "drs_data", "event_ext=0x102,umask=0x08", NULL, NULL },
	{ "ncb_data", "event_ext=0x103,umask=0x04", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

const struct pmon_perf_pmu pmon_snbep_perf_pmus[] = {
	{ "uncore_cbox", "cbo", cbox_formats, NULL, NULL },
	{ "uncore_ha", "ha", generic_formats, NULL, NULL },
	{ "uncore_imc", "imc", generic_formats, imc_aliases, NULL },
	{ "uncore_pcu", "pcu", pcu_formats, NULL, NULL },
	{ "uncore_qpi", "qpi", qpi_formats, qpi_aliases,
	  "the packet match/mask: name the event the pmon way with its match/mask modifiers "
	  "(pmon list snbep_unc_qpi0)" },
	{ "uncore_r2pcie", "r2pcie", generic_formats, NULL, NULL },
	{ "uncore_r3qpi", "r3qpi", generic_formats, NULL, NULL },
	{ "uncore_ubox", "ubox", ubox_formats, NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

/* What one count is.  Clock domains: the CBo, HA, R2PCIe, R3QPI and UBox
 * run on the uncore clock, the iMC on the DRAM clock (DCLK), the QPI link
 * layer on its own clock, the PCU on an 800 MHz clock.  A data flit
 * carries 8 bytes of payload; a CAS moves one 64-byte line. */
const struct pmon_unit_row pmon_snbep_units[] = {
	{ "imc", "UNC_M_CAS_COUNT", NULL, "64-byte lines", 64 },
	{ "imc", "UNC_M_CLOCKTICKS", NULL, "DRAM clock cycles", 0 },
	{ "imc", "UNC_M_*CYCLES*", NULL, "DRAM clock cycles", 0 },
	{ "qpi", "UNC_Q_?XL_FLITS_G0", "DATA", "8-byte data flits", 8 },
	{ "qpi", "UNC_Q_?XL_FLITS_G1", "DRS_DATA", "8-byte data flits", 8 },
	{ "qpi", "UNC_Q_?XL_FLITS_G2", "NCB_DATA", "8-byte data flits", 8 },
	{ "qpi", "UNC_Q_?XL_FLITS_G?", NULL, "flits", 0 },
	{ "qpi", "UNC_Q_CLOCKTICKS", NULL, "QPI clock cycles", 0 },
	{ "qpi", "UNC_Q_*CYCLES*", NULL, "QPI clock cycles", 0 },
	{ "pcu", "UNC_P_CLOCKTICKS", NULL, "PCU clock cycles (800 MHz)", 0 },
	{ "pcu", "UNC_P_*CYCLES*", NULL, "PCU clock cycles (800 MHz)", 0 },
	{ "cbo", "UNC_C_CLOCKTICKS", NULL, "uncore clock cycles", 0 },
	{ "cbo", "UNC_C_*CYCLES*", NULL, "uncore clock cycles", 0 },
	{ "ha", "UNC_H_CLOCKTICKS", NULL, "uncore clock cycles", 0 },
	{ "ha", "UNC_H_*CYCLES*", NULL, "uncore clock cycles", 0 },
	{ "r2pcie", "UNC_R2_CLOCKTICKS", NULL, "uncore clock cycles", 0 },
	{ "r2pcie", "UNC_R2_*CYCLES*", NULL, "uncore clock cycles", 0 },
	{ "r3qpi", "UNC_R3_CLOCKTICKS", NULL, "uncore clock cycles", 0 },
	{ "r3qpi", "UNC_R3_*CYCLES*", NULL, "uncore clock cycles", 0 },
	{ "ubox", "UNC_U_CLOCKTICKS", NULL, "uncore clock cycles", 0 },
	{ "ubox", "UNC_U_*CYCLES*", NULL, "uncore clock cycles", 0 },
	{ NULL, NULL, NULL, NULL, 0 },
};
