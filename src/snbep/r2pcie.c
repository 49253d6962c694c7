/* r2pcie.c - the SNB-EP R2PCIe ring stop between the ring and the IIO (PCIe):
 * one PMON unit at D19:F1, four 44-bit counters, no filter register (uncore
 * guide section 2.8, Tables 2-104 to 2-107). */
#include "snbep.h"

const struct pmon_box_type pmon_snbep_r2pcie = {
	SNBEP_PCI_COMMON_INIT,
	.name = "r2pcie",
	.pmu_prefix = "snbep_unc_r2pcie",
	.perf_name = "uncore_r2pcie",
	.desc = "SNB-EP R2PCIe ring stop: ring traffic to and from PCIe, IIO credits, ingress/egress queues",
	.max_boxes = 1,
	.ncounters = 4,
	.width = 44,
	.ctl_valid = SNBEP_CTL_GENERIC,
	.has_rst_ctrs = 1,
	.pci = { { 19, 1, 0x3c43 } },
	.mods = pmon_snbep_eit8_mods,
	.nmods = PMON_ARRAY_SIZE(pmon_snbep_eit8_mods),
	.events = pmon_snbep_r2pcie_events,
};
