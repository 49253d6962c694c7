/* ha.c - the SNB-EP home agent: PCI device 14 function 1 (8086:3c46), four
 * 48-bit counters, and the address/opcode match registers at 0x40-0x48
 * (uncore guide section 2.4, Tables 2-33 to 2-40). */
#include "snbep.h"

/* Field order; ha_events.c relies on it (HA_F_* bits), the test checks it. */
enum { HA_F_ADDR, HA_F_OPC };

static const struct pmon_filter_reg ha_fregs[] = {
	/* filt[0] = ADDRMATCH1:ADDRMATCH0 = PA[45:6] in place:
	 * ADDRMATCH0 (0x40) bits 31:6 = PA[31:6], ADDRMATCH1 (0x44) bits 13:0 = PA[45:32].
	 * The registers hold a line address, but the comparison ignores PA[11:0]
	 * (the note under Table 2-39, L1617): the HA matches 4 KiB pages. */
	{ .name = "HA_PCI_PMON_BOX_ADDRMATCH", .word = 0, .lo_off = 0x40, .hi_off = 0x44,
	  .valid = 0x00003fffffffffc0ull },
	/* filt[1] = OPCODEMATCH (0x48), opcode in bits 5:0 */
	{ .name = "HA_PCI_PMON_BOX_OPCODEMATCH", .word = 1, .lo_off = 0x48, .hi_off = 0,
	  .valid = 0x3f },
};

static const struct pmon_filter_field ha_fields[] = {
	[HA_F_ADDR] = { .name = "addr", .word = 0, .shift = 6, .width = 40 },
	[HA_F_OPC]  = { .name = "opc",  .word = 1, .shift = 0, .width = 6 },
};

static const struct pmon_modifier ha_mods[] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH8,
	/* libpfm4 reserves the name "addr" (its SNB-EP ADDR_OPC_MATCH is compiled
	 * out); there the value is the line number PA>>6, here it is the byte
	 * address.  Only ADDR_OPC_MATCH needs the field, so only it accepts it.
	 * shift 12: the HA compares PA[45:12], so only a 4 KiB page address is
	 * accepted (bits 11:6 of ADDRMATCH0 are written as 0). */
	{ .name = "addr",
	  .desc = "physical address of a 4 KiB page, a multiple of 0x1000 (the HA compares "
		  "PA[45:12]; other values are refused)",
	  .kind = PMON_MOD_ADDR, .field = HA_F_ADDR, .shift = 12, .min = 0,
	  .max = 0x3ffffffff000ull },
	{ .name = "opc",
	  .desc = "request opcode to match (6 bits, 0-63)",
	  .kind = PMON_MOD_FILTER, .field = HA_F_OPC, .shift = 0, .width = 0, .min = 0, .max = 63 },
};

const struct pmon_box_type pmon_snbep_ha = {
	SNBEP_PCI_COMMON_INIT,
	.name = "ha",
	.pmu_prefix = "snbep_unc_ha",
	.perf_name = "uncore_ha",
	.desc = "SNB-EP home agent: memory requests, directory, tracker, QPI credits, egress",
	.max_boxes = 1,
	.ncounters = 4,
	.width = 48,
	.ctl_valid = SNBEP_CTL_GENERIC,
	.has_rst_ctrs = 0,        /* box control bits 1:0 are reserved on the HA */
	.pci = { { 14, 1, 0x3c46 } },
	.fregs = ha_fregs,
	.nfregs = PMON_ARRAY_SIZE(ha_fregs),
	.fields = ha_fields,
	.nfields = PMON_ARRAY_SIZE(ha_fields),
	.mods = ha_mods,
	.nmods = PMON_ARRAY_SIZE(ha_mods),
	.events = pmon_snbep_ha_events,
};
