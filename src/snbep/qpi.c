/* qpi.c - the SNB-EP QPI link layer: one PMON unit per port (D8:F2 and D9:F2),
 * four 48-bit counters, the extra select bit 21, and a packet match/mask pair
 * in a separate function (D8:F6 / D9:F6) read by CTO_COUNT (uncore guide
 * section 2.7, Tables 2-84 to 2-92). */
#include "snbep.h"

/*
 * Filter words: filt[0] = MATCH1<<32 | MATCH0, filt[1] = MASK1<<32 | MASK0
 * (Tables 2-88 to 2-91).  A packet matches when (packet ^ match) & mask == 0,
 * so a field whose mask is 0 is "don't care".  Sub-field names follow Linux's
 * sysfs format names.  Valid bits per word: MATCH0/MASK0 bit 31 and 17:3,
 * MATCH1/MASK1 bits 19:16 and 3:0; everything else is reserved (write 0).
 */
#define QPI_PKT_VALID 0x000f000f8003fff8ull

static const struct pmon_filter_field qpi_fields[] = {
	/* match: word 0 */
	{ .name = "match_rds",    .word = 0, .shift = 48, .width = 4 },
	{ .name = "match_rnid30", .word = 0, .shift = 32, .width = 4 },
	{ .name = "match_rnid4",  .word = 0, .shift = 31, .width = 1 },
	{ .name = "match_dnid",   .word = 0, .shift = 13, .width = 5 },
	{ .name = "match_mc",     .word = 0, .shift = 9,  .width = 4 },
	{ .name = "match_opc",    .word = 0, .shift = 5,  .width = 4 },
	{ .name = "match_vnw",    .word = 0, .shift = 3,  .width = 2 },
	/* mask: word 1 */
	{ .name = "mask_rds",     .word = 1, .shift = 48, .width = 4 },
	{ .name = "mask_rnid30",  .word = 1, .shift = 32, .width = 4 },
	{ .name = "mask_rnid4",   .word = 1, .shift = 31, .width = 1 },
	{ .name = "mask_dnid",    .word = 1, .shift = 13, .width = 5 },
	{ .name = "mask_mc",      .word = 1, .shift = 9,  .width = 4 },
	{ .name = "mask_opc",     .word = 1, .shift = 5,  .width = 4 },
	{ .name = "mask_vnw",     .word = 1, .shift = 3,  .width = 2 },
};

static const struct pmon_filter_reg qpi_fregs[] = {
	{ .name = "Q_Py_PCI_PMON_PKT_MATCH", .word = 0, .lo_off = 0x228, .hi_off = 0x22c,
	  .extra_dev = 1, .whole = 1, .valid = QPI_PKT_VALID },
	{ .name = "Q_Py_PCI_PMON_PKT_MASK", .word = 1, .lo_off = 0x238, .hi_off = 0x23c,
	  .extra_dev = 1, .whole = 1, .valid = QPI_PKT_VALID },
};

#define QPI_FMOD(nm, idx, hi, d) \
	{ .name = nm, .desc = d, .kind = PMON_MOD_FILTER, .field = idx, .min = 0, .max = hi }

/* Modifiers 3-16 set filter fields 0-13 in order (qpi_events.c enables them
 * for CTO_COUNT only). */
static const struct pmon_modifier qpi_mods[] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH8,
	QPI_FMOD("match_rds", 0, 15, "packet match: response data state (DRS, one-hot: 8=M 4=E 2=S 1=F)"),
	QPI_FMOD("match_rnid30", 1, 15, "packet match: remote node ID bits 3:0"),
	QPI_FMOD("match_rnid4", 2, 1, "packet match: remote node ID bit 4"),
	QPI_FMOD("match_dnid", 3, 31, "packet match: destination node ID"),
	QPI_FMOD("match_mc", 4, 15, "packet match: message class (0 HOM req, 1 HOM rsp, 2 NDR, 3 SNP, 4 NCS, 12 NCB, 14 DRS)"),
	QPI_FMOD("match_opc", 5, 15, "packet match: opcode within the message class"),
	QPI_FMOD("match_vnw", 6, 3, "packet match: virtual network (0 VN0, 1 VN1, 2-3 VNA)"),
	QPI_FMOD("mask_rds", 7, 15, "packet mask: response data state bits to compare"),
	QPI_FMOD("mask_rnid30", 8, 15, "packet mask: remote node ID bits 3:0 to compare"),
	QPI_FMOD("mask_rnid4", 9, 1, "packet mask: compare remote node ID bit 4"),
	QPI_FMOD("mask_dnid", 10, 31, "packet mask: destination node ID bits to compare"),
	QPI_FMOD("mask_mc", 11, 15, "packet mask: message class bits to compare"),
	QPI_FMOD("mask_opc", 12, 15, "packet mask: opcode bits to compare"),
	QPI_FMOD("mask_vnw", 13, 3, "packet mask: virtual network bits to compare"),
};

const struct pmon_box_type pmon_snbep_qpi = {
	SNBEP_PCI_COMMON_INIT,
	.name = "qpi",
	.pmu_prefix = "snbep_unc_qpi",
	.perf_name = "uncore_qpi",
	.desc = "SNB-EP QPI link layer port: flits sent and received, link power states, packet matching",
	.max_boxes = 2,
	.ncounters = 4,
	.width = 48,
	.ctl_valid = SNBEP_CTL_QPI,
	.has_rst_ctrs = 1,
	.pci = { { 8, 2, 0x3c41 }, { 9, 2, 0x3c42 } },
	.pci_extra = { { 8, 6, 0x3c86 }, { 9, 6, 0x3c96 } },
	.fregs = qpi_fregs,
	.nfregs = PMON_ARRAY_SIZE(qpi_fregs),
	.fields = qpi_fields,
	.nfields = PMON_ARRAY_SIZE(qpi_fields),
	.mods = qpi_mods,
	.nmods = PMON_ARRAY_SIZE(qpi_mods),
	.events = pmon_snbep_qpi_events,
};
