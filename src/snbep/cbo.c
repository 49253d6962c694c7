/* cbo.c - the SNB-EP caching agent (CBo): one per LLC slice, up to eight per
 * socket, four 44-bit counters each and one shared filter register, in MSR
 * space (uncore guide section 2.3, Tables 2-8 to 2-12). */
#include "snbep.h"

/* Field and modifier positions; cbo_events.c relies on the same numbers
 * (CBO_F_* bits and CBO_M_TF/CBO_M_CF) and the table test checks them. */
enum { CBO_F_TID, CBO_F_NID, CBO_F_STATE, CBO_F_OPC };

static const struct pmon_filter_reg cbo_fregs[] = {
	/* MSR 0xD14 + 0x20*n; bits 9:5 are reserved */
	{ .name = "Cn_MSR_PMON_BOX_FILTER", .word = 0, .msr = 0xd14, .valid = 0xfffffc1fu },
};

static const struct pmon_filter_field cbo_fields[] = {
	[CBO_F_TID]   = { .name = "tid",   .word = 0, .shift = 0,  .width = 5 },  /* [0] thread, [4:1] core */
	[CBO_F_NID]   = { .name = "nid",   .word = 0, .shift = 10, .width = 8 },  /* node bit mask */
	[CBO_F_STATE] = { .name = "state", .word = 0, .shift = 18, .width = 5 },  /* F M E S I mask */
	[CBO_F_OPC]   = { .name = "opc",   .word = 0, .shift = 23, .width = 9 },  /* request opcode */
};

static const struct pmon_modifier cbo_mods[] = {
	SNBEP_MOD_EDGE, SNBEP_MOD_INV, SNBEP_MOD_THRESH8,
	/* libpfm4's tf/cf: either one sets tid_en, so tf=0 alone means
	 * "thread 0 only" and cf alone implies thread 0. */
	{ .name = "tf",
	  .desc = "thread (0-1) whose requests are counted, on the core given by cf (core 0 without cf); sets tid_en",
	  .kind = PMON_MOD_FILTER, .field = CBO_F_TID, .shift = 0, .width = 1,
	  .min = 0, .max = 1, .ctl_also = PMON_CTL_TID_EN },
	/* libpfm4 accepts 0-15 but keeps only 3 bits (cf=8 becomes core 0);
	 * here all four bits above the thread bit of the 5-bit tid field are
	 * written. */
	{ .name = "cf",
	  .desc = "core ID (0-15) whose requests are counted, thread 0 unless tf=1; sets tid_en",
	  .kind = PMON_MOD_FILTER, .field = CBO_F_TID, .shift = 1, .width = 4,
	  .min = 0, .max = 15, .ctl_also = PMON_CTL_TID_EN },
	/* Accepted only where a NID umask needs the nid field (as libpfm4). */
	{ .name = "nf",
	  .desc = "node-ID bit mask the request target must match (1-255, bit n = node n)",
	  .kind = PMON_MOD_FILTER, .field = CBO_F_NID, .shift = 0, .width = 0,
	  .min = 1, .max = 255 },
};

const struct pmon_box_type pmon_snbep_cbo = {
	.name = "cbo",
	.pmu_prefix = "snbep_unc_cbo",
	.perf_name = "uncore_cbox",
	.desc = "SNB-EP caching agent (LLC slice): lookups, victims, TOR, ingress/egress queues, rings",
	.space = PMON_SPACE_MSR,
	.max_boxes = 8,           /* at most: one per core of the socket (quirks) */
	.quirks = PMON_BOX_PER_CORE,
	.ncounters = 4,
	.width = 44,
	.thresh_bits = 8,
	.ctl_valid = SNBEP_CTL_CBO,
	.has_box_ctl = 1,
	.has_rst_ctrs = 1,
	.msr_box_ctl = 0xd04,
	.msr_ctl0 = 0xd10,
	.msr_ctr0 = 0xd16,
	.msr_stride = 0x20,
	.fregs = cbo_fregs,
	.nfregs = PMON_ARRAY_SIZE(cbo_fregs),
	.fields = cbo_fields,
	.nfields = PMON_ARRAY_SIZE(cbo_fields),
	.mods = cbo_mods,
	.nmods = PMON_ARRAY_SIZE(cbo_mods),
	.events = pmon_snbep_cbo_events,
};
