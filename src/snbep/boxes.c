/* boxes.c - the SNB-EP generation: every uncore box type of the E5-2600 guide. */
#include "snbep.h"

const struct pmon_box_type *const pmon_snbep_boxes[] = {
	&pmon_snbep_cbo, &pmon_snbep_ha, &pmon_snbep_imc, &pmon_snbep_pcu,
	&pmon_snbep_qpi, &pmon_snbep_r2pcie, &pmon_snbep_r3qpi, &pmon_snbep_ubox,
};
const int pmon_snbep_nboxes = PMON_ARRAY_SIZE(pmon_snbep_boxes);

const struct pmon_modifier pmon_snbep_eit8_mods[3] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH8,
};
