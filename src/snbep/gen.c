/* gen.c - the SNB-EP generation as the engine sees it (generation.h):
 * Xeon E5-2600, family 6 model 45, every box under a control of its own,
 * the uncore PCI buses mapped to sockets through the UBox. */
#include "snbep.h"
#include "../generation.h"
#include "../busmap.h"

static const unsigned snbep_models[] = { 45, 0 };

const struct pmon_generation pmon_gen_snbep = {
	.name = "snbep",
	.title = "SNB-EP",
	.cpu = "Sandy Bridge-EP (Xeon E5-2600, family 6 model 45)",
	.family = 6,
	.models = snbep_models,
	.control = PMON_CONTROL_BOX,
	.boxes = pmon_snbep_boxes,
	.nboxes = &pmon_snbep_nboxes,
	.metrics = pmon_snbep_metrics,
	.nmetrics = &pmon_snbep_nmetrics,
	.groups = pmon_snbep_metric_groups,
	.ngroups = &pmon_snbep_nmetric_groups,
	.perf_pmus = pmon_snbep_perf_pmus,
	.units = pmon_snbep_units,
	.example = "snbep_unc_imc0::UNC_M_CAS_COUNT:RD",
	.socket_map = pmon_busmap_build,
};
