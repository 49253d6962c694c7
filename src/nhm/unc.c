/*
 * unc.c - the Nehalem-EP (Xeon 5500) and Westmere-EP (Xeon 5600) uncore PMU:
 * one per socket, in MSR space, eight 48-bit general counters and the
 * fixed UCLK counter, all under one global control (no box control).
 *
 * The performance analysis guide (../shared/seeds/000_*) describes the
 * events and the QHL matcher (Table 37, L1495-L1527) and the snoop
 * MESF-transition select MSR 0x301 (Table 28, L1262-L1278) but gives none
 * of the PMU's own registers.  These come from the SDM (vol. 3B, the uncore
 * facility of the Xeon 5500, and vol. 4's MSR list): global control 0x391,
 * status 0x392, overflow clear 0x393 (general counter i = bit i, fixed
 * counter = bit 32), fixed counter 0x394 and its control 0x395 (enable =
 * bit 0), event selects 0x3C0-0x3C7 and counters 0x3B0-0x3B7, 48 bits wide.
 * Westmere-EP keeps the same registers; only its event list differs
 * (unc_events.c).
 */
#include <stddef.h>

#include "nhm.h"

static const struct pmon_filter_reg nhm_fregs[] = {
	/* Guide Table 37: address 39:3, opcode 47:40, match select 63:61;
	 * all other bits reserved.  One setting for the whole register. */
	{ .name = "MSR_UNCORE_ADDR_OPCODE_MATCH", .word = 0, .msr = 0x396, .whole = 1,
	  .valid = 0xe000fffffffffff8ull },
	/* Guide Table 28: one bit per MESF -> S / -> I transition (1-0x80).
	 * The SDM names the register MSR_GQ_SNOOP_MESF. */
	{ .name = "MSR_GQ_SNOOP_MESF", .word = 1, .msr = 0x301, .whole = 1, .valid = 0xff },
};

static const struct pmon_filter_field nhm_fields[] = {
	[NHM_F_ADDR] = { .name = "addr", .word = 0, .shift = 3,  .width = 37 },
	[NHM_F_OPC]  = { .name = "opc",  .word = 0, .shift = 40, .width = 8 },
	[NHM_F_MSEL] = { .name = "msel", .word = 0, .shift = 61, .width = 3 },
	[NHM_F_MESF] = { .name = "mesf", .word = 1, .shift = 0,  .width = 8 },
};

static const struct pmon_modifier nhm_mods[] = {
	[NHM_M_E] = { .name = "e", .desc = "edge detect: count rising edges of the cmask test instead of cycles",
		      .kind = PMON_MOD_CTL, .shift = 18, .width = 1, .min = 0, .max = 1 },
	[NHM_M_I] = { .name = "i", .desc = "invert the cmask test: count when the increment is below cmask",
		      .kind = PMON_MOD_CTL, .shift = 23, .width = 1, .min = 0, .max = 1 },
	[NHM_M_C] = { .name = "c", .desc = "counter mask: count cycles in which the increment is at least this (0 = add it)",
		      .kind = PMON_MOD_CTL, .shift = 24, .width = 8, .min = 0, .max = 255 },
	[NHM_M_O] = { .name = "o", .desc = "occupancy reset: clear the queue occupancy counter behind this event",
		      .kind = PMON_MOD_CTL, .shift = 17, .width = 1, .min = 0, .max = 1 },
	/* Accepted where a umask of UNC_ADDR_OPCODE_MATCH needs them. */
	[NHM_M_OPC] = { .name = "opc", .desc = "QPI opcode (0-255) the QHL matcher compares (MSR 0x396 bits 47:40)",
			.kind = PMON_MOD_FILTER, .field = NHM_F_OPC, .shift = 0, .width = 0,
			.min = 0, .max = 255 },
	[NHM_M_ADDR] = { .name = "addr", .desc = "physical address the QHL matcher compares, bits 39:3 (8-byte granules)",
			 .kind = PMON_MOD_ADDR, .field = NHM_F_ADDR, .shift = 3, .width = 0,
			 .min = 0, .max = 0xfffffffff8ull },
};

/* The performance analysis guide's names where libpfm4's differ (the guide
 * calls the memory controller IMC where libpfm4 says QMC, and names the GQ
 * trackers RT, WT and PPT in UNC_GQ_ALLOC): users of either find the event.
 * Its umasks of several words (UNC_IMC_WRITES.FULL.ANY) are the
 * catalogue's with underscores (names.c). */
static const struct pmon_alias nhm_aliases[] = {
	{ "UNC_IMC_NORMAL_READS", "UNC_QMC_NORMAL_READS", NULL },              /* L1373 */
	{ "UNC_IMC_WRITES", "UNC_QMC_WRITES", NULL },                          /* L1378 */
	{ "UNC_IMC_NORMAL_OCCUPANCY", "UNC_QMC_OCCUPANCY", NULL },             /* L1370 */
	{ "UNC_IMC_HIGH_PRIORITY_READS", "UNC_QMC_HIGH_PRIORITY_READS", NULL },
	{ "UNC_IMC_CRITICAL_PRIORITY_READS", "UNC_QMC_CRITICAL_PRIORITY_READS", NULL },
	{ "UNC_IMC_BUSY", "UNC_QMC_BUSY", NULL },
	{ "UNC_IMC_ISOC_FULL", "UNC_QMC_ISOC_FULL", NULL },
	{ "UNC_GQ_CYCLES_BUSY", "UNC_GQ_CYCLES_NOT_EMPTY", NULL },             /* L1194 */
	{ "RT", "UNC_GQ_ALLOC", "READ_TRACKER" },                               /* L1151 */
	{ "WT", "UNC_GQ_ALLOC", "WRITE_TRACKER" },
	{ "PPT", "UNC_GQ_ALLOC", "PEER_PROBE_TRACKER" },
	{ NULL, NULL, NULL },
};

/* What both generations share: registers, fields, modifiers. */
#define NHM_UNC_COMMON \
	.space = PMON_SPACE_MSR, \
	.max_boxes = 1, \
	.ncounters = 8, \
	.width = 48, \
	.thresh_bits = 8, \
	.ctl_valid = NHM_CTL_VALID, \
	.has_box_ctl = 0, \
	.has_rst_ctrs = 0, \
	.msr_ctl0 = 0x3c0, \
	.msr_ctr0 = 0x3b0, \
	.has_fixed = 1, \
	.fixed_width = 48, \
	.fixed_ctl = 0x395, \
	.fixed_ctr = 0x394, \
	.fixed_en = 1u << 0, \
	.fregs = nhm_fregs, \
	.nfregs = PMON_ARRAY_SIZE(nhm_fregs), \
	.fields = nhm_fields, \
	.nfields = PMON_ARRAY_SIZE(nhm_fields), \
	.mods = nhm_mods, \
	.nmods = PMON_ARRAY_SIZE(nhm_mods), \
	.aliases = nhm_aliases, \
	.msr_glb_ctl = 0x391, \
	.msr_glb_status = 0x392, \
	.msr_glb_ovf = 0x393, \
	.glb_fixed_bit = 1ull << 32

const struct pmon_box_type pmon_nhm_unc = {
	.name = "nhm_unc",
	.pmu_prefix = "nhm_unc",
	.perf_name = "uncore",
	.desc = "Nehalem-EP (Xeon 5500) uncore: global queue, LLC, QPI home logic, memory controller, QPI links",
	NHM_UNC_COMMON,
	.events = pmon_nhm_unc_events,
};

const struct pmon_box_type pmon_wsm_unc = {
	.name = "wsm_unc",
	.pmu_prefix = "wsm_unc",
	.perf_name = "uncore",
	.desc = "Westmere-EP (Xeon 5600) uncore: the Nehalem-EP uncore with retry, thermal and turbo events",
	NHM_UNC_COMMON,
	.events = pmon_wsm_unc_events,
};

const struct pmon_box_type *const pmon_nhm_boxes[] = { &pmon_nhm_unc };
const struct pmon_box_type *const pmon_wsm_boxes[] = { &pmon_wsm_unc };
const int pmon_nhm_nboxes = PMON_ARRAY_SIZE(pmon_nhm_boxes);
const int pmon_wsm_nboxes = PMON_ARRAY_SIZE(pmon_wsm_boxes);
