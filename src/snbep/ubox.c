/* ubox.c - the SNB-EP UBox: two 44-bit counters and the UCLK fixed counter, in MSR space.
 * No box control and no filter register (uncore guide section 2.2). */
#include "snbep.h"

static const struct pmon_modifier ubox_mods[] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH5,
};

const struct pmon_box_type pmon_snbep_ubox = {
	.name = "ubox",
	.pmu_prefix = "snbep_unc_ubo",
	.perf_name = "uncore_ubox",
	.desc = "SNB-EP UBox: system configuration agent (interrupt messages, locks, uncore clock)",
	.space = PMON_SPACE_MSR,
	.max_boxes = 1,
	.ncounters = 2,
	.width = 44,
	.thresh_bits = 5,
	.ctl_valid = SNBEP_CTL_UBOX,
	.has_box_ctl = 0,
	.has_rst_ctrs = 0,
	.msr_ctl0 = 0xc10,
	.msr_ctr0 = 0xc16,
	/* The guide calls the UCLK counter 48-bit but its field table stops at
	 * bit 43; Linux treats it as 48 bits.  Reading 48 bits is safe either way. */
	.has_fixed = 1,
	.fixed_width = 48,
	.fixed_ctl = 0xc08,
	.fixed_ctr = 0xc09,
	.fixed_en = PMON_CTL_EN,
	.mods = ubox_mods,
	.nmods = PMON_ARRAY_SIZE(ubox_mods),
	.events = pmon_snbep_ubox_events,
	.excluded = pmon_snbep_ubox_excluded,
};
