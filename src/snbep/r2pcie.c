/* r2pcie.c - the SNB-EP R2PCIe ring stop between the ring and the IIO (PCIe):
 * one PMON unit at D19:F1, four 44-bit counters, no filter register (uncore
 * guide section 2.8, Tables 2-104 to 2-107). */
#include "snbep.h"

static const struct pmon_modifier r2pcie_mods[] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH8,
};

const struct pmon_box_type pmon_snbep_r2pcie = {
	.name = "r2pcie",
	.pmu_prefix = "snbep_unc_r2pcie",
	.perf_name = "uncore_r2pcie",
	.desc = "SNB-EP R2PCIe ring stop: ring traffic to and from PCIe, IIO credits, ingress/egress queues",
	.space = PMON_SPACE_PCI,
	.max_boxes = 1,
	.ncounters = 4,
	.width = 44,
	.thresh_bits = 8,
	.ctl_valid = SNBEP_CTL_GENERIC,
	.has_box_ctl = 1,
	.has_rst_ctrs = 1,
	.pci = { { 19, 1, 0x3c43 } },
	.pci_box_ctl = 0xf4,
	.pci_ctl0 = 0xd8,
	.pci_ctr0 = 0xa0,
	.mods = r2pcie_mods,
	.nmods = PMON_ARRAY_SIZE(r2pcie_mods),
	.events = pmon_snbep_r2pcie_events,
};
