/* imc.c - the SNB-EP integrated memory controller: one PMON unit per DDR3
 * channel (D16 F0/F1/F4/F5), four 48-bit counters and the DCLK fixed counter. */
#include "snbep.h"

static const struct pmon_modifier imc_mods[] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH8,
};

const struct pmon_box_type pmon_snbep_imc = {
	.name = "imc",
	.pmu_prefix = "snbep_unc_imc",
	.perf_name = "uncore_imc",
	.desc = "SNB-EP memory controller channel: DRAM commands, queues, power states",
	.space = PMON_SPACE_PCI,
	.max_boxes = 4,
	.ncounters = 4,
	.width = 48,
	.thresh_bits = 8,
	.ctl_valid = SNBEP_CTL_GENERIC,
	.has_box_ctl = 1,
	.has_rst_ctrs = 0,        /* box control bits 1:0 are reserved on the iMC */
	.pci = { { 16, 0, 0x3cb0 }, { 16, 1, 0x3cb1 }, { 16, 4, 0x3cb4 }, { 16, 5, 0x3cb5 } },
	.pci_box_ctl = 0xf4,
	.pci_ctl0 = 0xd8,
	.pci_ctr0 = 0xa0,
	.has_fixed = 1,
	.fixed_width = 48,
	.fixed_ctl = 0xf0,
	.fixed_ctr = 0xd0,
	.fixed_en = PMON_CTL_EN,
	.fixed_rst = 1u << 19,
	.mods = imc_mods,
	.nmods = PMON_ARRAY_SIZE(imc_mods),
	.events = pmon_snbep_imc_events,
};
