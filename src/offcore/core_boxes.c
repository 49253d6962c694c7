/*
 * core_boxes.c - the core-PMU box types (offcore response), one per
 * generation, and the pieces they share: modifiers and filter fields.
 * The catalogue appends these after the uncore boxes (catalog.c).
 */
#include "offcore.h"
#include "../catalog.h"

/* libpfm4's core-PMU modifier names; see offcore.h for why u/k are absent. */
const struct pmon_modifier pmon_core_mods[OC_NMODS] = {
	{ .name = "e", .desc = "edge detect: count 0->1 transitions of the counter-mask test (use with c)",
	  .kind = PMON_MOD_CTL, .shift = 18, .width = 1, .min = 0, .max = 1 },
	{ .name = "i", .desc = "invert the counter-mask test (count cycles below c)",
	  .kind = PMON_MOD_CTL, .shift = 23, .width = 1, .min = 0, .max = 1 },
	{ .name = "c", .desc = "counter mask: count cycles with at least this many occurrences",
	  .kind = PMON_MOD_CTL, .shift = 24, .width = 8, .min = 0, .max = 255 },
	{ .name = "t", .desc = "AnyThread: also count the sibling hyperthread's requests",
	  .kind = PMON_MOD_CTL, .shift = 21, .width = 1, .min = 0, .max = 1 },
};

/* Nehalem: one 16-bit RSP register. */
const struct pmon_filter_field pmon_core_fields_nhm[1] = {
	[OC_F_RSP0] = { .name = "rsp0", .word = 0, .shift = 0, .width = 16 },
};

/* Westmere: two 16-bit RSP registers. */
const struct pmon_filter_field pmon_core_fields_wsm[2] = {
	[OC_F_RSP0] = { .name = "rsp0", .word = 0, .shift = 0, .width = 16 },
	[OC_F_RSP1] = { .name = "rsp1", .word = 1, .shift = 0, .width = 16 },
};

/* Sandy Bridge and later: two 38-bit RSP registers, plus the auxiliary
 * supplier/snoop fields that enforce "supplier or ANY_RESPONSE" (offcore.h).
 * The auxiliary names appear in the encoder's "needs a value for filter
 * field X" message, so they say what to do. */
const struct pmon_filter_field pmon_core_fields_snb[6] = {
	[OC_F_RSP0] = { .name = "rsp0", .word = 0, .shift = 0, .width = 38 },
	[OC_F_RSP1] = { .name = "rsp1", .word = 1, .shift = 0, .width = 38 },
	[OC_F_SUP0] = { .name = "response (name a supplier umask, or ANY_RESPONSE)",
			.word = 0, .shift = 17, .width = 14 },
	[OC_F_SUP1] = { .name = "response (name a supplier umask, or ANY_RESPONSE)",
			.word = 1, .shift = 17, .width = 14 },
	[OC_F_SNP0] = { .name = "snoop (ANY_RESPONSE takes no supplier umask)",
			.word = 0, .shift = 31, .width = 7 },
	[OC_F_SNP1] = { .name = "snoop (ANY_RESPONSE takes no supplier umask)",
			.word = 1, .shift = 31, .width = 7 },
};

const struct pmon_box_type *const pmon_core_boxes[] = {
	&pmon_core_nhm, &pmon_core_nhm_ex,
	&pmon_core_wsm, &pmon_core_wsm_dp,
	&pmon_core_snb, &pmon_core_snb_ep,
	&pmon_core_skl, &pmon_core_skx,
};
const int pmon_core_nboxes = PMON_ARRAY_SIZE(pmon_core_boxes);
