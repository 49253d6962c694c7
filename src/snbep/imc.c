/* imc.c - the SNB-EP integrated memory controller: one PMON unit per DDR3
 * channel (D16 F0/F1/F4/F5), four 48-bit counters and the DCLK fixed counter. */
#include "snbep.h"

const struct pmon_box_type pmon_snbep_imc = {
	SNBEP_PCI_COMMON_INIT,
	.name = "imc",
	.pmu_prefix = "snbep_unc_imc",
	.perf_name = "uncore_imc",
	.desc = "SNB-EP memory controller channel: DRAM commands, queues, power states",
	.max_boxes = 4,
	.ncounters = 4,
	.width = 48,
	.ctl_valid = SNBEP_CTL_GENERIC,
	.has_rst_ctrs = 0,        /* box control bits 1:0 are reserved on the iMC */
	.pci = { { 16, 0, 0x3cb0 }, { 16, 1, 0x3cb1 }, { 16, 4, 0x3cb4 }, { 16, 5, 0x3cb5 } },
	.has_fixed = 1,
	.fixed_width = 48,
	.fixed_ctl = 0xf0,
	.fixed_ctr = 0xd0,
	.fixed_en = PMON_CTL_EN,
	.fixed_rst = 1u << 19,
	.mods = pmon_snbep_eit8_mods,
	.nmods = PMON_ARRAY_SIZE(pmon_snbep_eit8_mods),
	.events = pmon_snbep_imc_events,
};
