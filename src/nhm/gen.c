/* gen.c - the Nehalem-EP and Westmere-EP generations as the engine sees
 * them (generation.h): one uncore PMU per socket in MSR space, every counter
 * under one global control (PMON_CONTROL_GLOBAL), no PCI boxes to map.
 *
 * The CPU models are the SDM's (vol. 4, the MSR tables of the Xeon 5500 and
 * 5600 series) and libpfm4's (nhm_unc: 26, 30, 31; wsm_unc: 37, 44).  The EX
 * parts of the same cores (Nehalem-EX, model 46; Westmere-EX, model 47) have
 * another uncore (boxes of their own, not this PMU), which pmon does not
 * describe: they are named and refused. */
#include "nhm.h"
#include "../generation.h"

static const unsigned nhm_models[] = { 26, 30, 31, 0 };
static const unsigned wsm_models[] = { 37, 44, 0 };

static const struct pmon_cpu_refused nhm_refused[] = {
	{ 46, "Nehalem-EX (Xeon 6500/7500, family 6 model 46)" },
	{ 0, NULL },
};
static const struct pmon_cpu_refused wsm_refused[] = {
	{ 47, "Westmere-EX (Xeon E7, family 6 model 47)" },
	{ 0, NULL },
};

#define NHM_GEN_COMMON \
	.family = 6, \
	.control = PMON_CONTROL_GLOBAL, \
	.groups = pmon_nhm_metric_groups, \
	.ngroups = &pmon_nhm_nmetric_groups, \
	.socket_map = NULL, \
	.refused_why = "its uncore is not the Xeon 5500/5600 uncore PMU pmon describes " \
		       "(the EX parts have boxes of their own, which pmon has no tables for)"

const struct pmon_generation pmon_gen_nhm = {
	.name = "nhm",
	.title = "Nehalem-EP",
	.cpu = "Nehalem-EP (Xeon 5500, family 6 model 26, 30 or 31)",
	.models = nhm_models,
	.refused = nhm_refused,
	.boxes = pmon_nhm_boxes,
	.nboxes = &pmon_nhm_nboxes,
	.metrics = pmon_nhm_metrics,
	.nmetrics = &pmon_nhm_nmetrics,
	.perf_pmus = pmon_nhm_perf_pmus,
	.units = pmon_nhm_units,
	.example = "nhm_unc::UNC_LLC_MISS:READ",
	NHM_GEN_COMMON,
};

const struct pmon_generation pmon_gen_wsm = {
	.name = "wsm",
	.title = "Westmere-EP",
	.cpu = "Westmere-EP (Xeon 5600, family 6 model 37 or 44)",
	.models = wsm_models,
	.refused = wsm_refused,
	.boxes = pmon_wsm_boxes,
	.nboxes = &pmon_wsm_nboxes,
	.metrics = pmon_wsm_metrics,
	.nmetrics = &pmon_wsm_nmetrics,
	.perf_pmus = pmon_wsm_perf_pmus,
	.units = pmon_wsm_units,
	.example = "wsm_unc::UNC_LLC_MISS:READ",
	NHM_GEN_COMMON,
};
