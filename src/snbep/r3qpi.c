/* r3qpi.c - the SNB-EP R3QPI ring stop between the ring and the QPI link
 * layer: one PMON unit per link (D19:F5 and D19:F6), only THREE 44-bit
 * counters each, no filter register (uncore guide section 2.9, Tables 2-118
 * to 2-121). */
#include "snbep.h"

const struct pmon_box_type pmon_snbep_r3qpi = {
	SNBEP_PCI_COMMON_INIT,
	.name = "r3qpi",
	.pmu_prefix = "snbep_unc_r3qpi",
	.perf_name = "uncore_r3qpi",
	.desc = "SNB-EP R3QPI ring stop: ring traffic to and from a QPI link, QPI credits, ingress/egress queues",
	.max_boxes = 2,
	.ncounters = 3,
	.width = 44,
	.ctl_valid = SNBEP_CTL_GENERIC,
	.has_rst_ctrs = 1,
	.pci = { { 19, 5, 0x3c44 }, { 19, 6, 0x3c45 } },
	.mods = pmon_snbep_eit8_mods,
	.nmods = PMON_ARRAY_SIZE(pmon_snbep_eit8_mods),
	.events = pmon_snbep_r3qpi_events,
};
