/* pcu.c - the SNB-EP Power Control Unit: one PMON unit per socket in MSR space,
 * four 48-bit counters, a 5-bit threshold, no umask field (bits 15:14 are the
 * occupancy selector occ_sel) and one band filter register (uncore guide
 * section 2.6, Tables 2-73 to 2-77). */
#include "snbep.h"

/* Filter fields: the four 8-bit frequency bands of PCU_MSR_PMON_BOX_FILTER.
 * FREQ_BANDn_CYCLES compares the uncore frequency against band n. */
static const struct pmon_filter_field pcu_fields[] = {
	{ .name = "band0", .word = 0, .shift = 0,  .width = 8 },
	{ .name = "band1", .word = 0, .shift = 8,  .width = 8 },
	{ .name = "band2", .word = 0, .shift = 16, .width = 8 },
	{ .name = "band3", .word = 0, .shift = 24, .width = 8 },
};

static const struct pmon_filter_reg pcu_fregs[] = {
	{ .name = "PCU_MSR_PMON_BOX_FILTER", .word = 0, .msr = 0xc34, .valid = 0xffffffffull },
};

/*
 * Modifiers.  Indices 0-2 are the common e, i, t (t is 5 bits wide here).
 * The occupancy event (POWER_STATE_OCCUPANCY, ev_sel bit 7 set) has its own
 * edge and invert bits, occ_edge_det (31) and occ_invert (30); libpfm4 sends
 * "e" and "i" there for such events.  That is expressed as two more entries
 * named "e" and "i" (indices 4 and 5): an occupancy event enables bits 2, 4
 * and 5 of .mods, every other event bits 0-2, so among the entries of one
 * name exactly one is enabled for any event.  pcu_events.c uses the same
 * indices (PCU_M_*); ctests/test_tables_pcu_qpi.c checks they agree.
 */
static const struct pmon_modifier pcu_mods[] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH5,
	{ .name = "ff", .desc = "frequency band for FREQ_BANDn_CYCLES, in 100 MHz steps (0-255; 32 = 3.2 GHz)",
	  .kind = PMON_MOD_FILTER, .field = PMON_FIELD_EVENT, .min = 0, .max = 255 },
	{ .name = "e", .desc = "occupancy edge detect (occ_edge_det): count the cycles in which the "
			       "core-count threshold test becomes true",
	  .kind = PMON_MOD_CTL, .shift = 31, .width = 1, .min = 0, .max = 1 },
	{ .name = "i", .desc = "occupancy invert (occ_invert): count cycles with fewer cores than "
			       "the threshold instead of at least as many",
	  .kind = PMON_MOD_CTL, .shift = 30, .width = 1, .min = 0, .max = 1 },
};

const struct pmon_box_type pmon_snbep_pcu = {
	.name = "pcu",
	.pmu_prefix = "snbep_unc_pcu",
	.perf_name = "uncore_pcu",
	.desc = "SNB-EP power control unit: frequency limits and bands, C-state residency and transitions",
	.space = PMON_SPACE_MSR,
	.max_boxes = 1,
	.ncounters = 4,
	.width = 48,
	.thresh_bits = 5,
	.ctl_valid = SNBEP_CTL_PCU,
	.has_box_ctl = 1,
	.has_rst_ctrs = 1,
	.msr_box_ctl = 0xc24,
	.msr_ctl0 = 0xc30,
	.msr_ctr0 = 0xc36,
	.msr_stride = 0,
	.fregs = pcu_fregs,
	.nfregs = PMON_ARRAY_SIZE(pcu_fregs),
	.fields = pcu_fields,
	.nfields = PMON_ARRAY_SIZE(pcu_fields),
	.mods = pcu_mods,
	.nmods = PMON_ARRAY_SIZE(pcu_mods),
	.events = pmon_snbep_pcu_events,
};
