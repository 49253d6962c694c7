/*
 * skl.c - Skylake core PMUs, named as in libpfm4:
 *   skl  models 78, 94  (client)
 *   skx  model 85       (Xeon Scalable; Cascade Lake shares the model number)
 *
 * MSR_OFFCORE_RSP_0/1 (0x1A6/0x1A7), 38 bits (SDM "Skylake microarchitecture"
 * offcore tables):  15:0 request type, 16 ANY_RESPONSE, 30:17 supplier,
 * 37:31 snoop result.  Valid bits 0x3fffff8fff (Linux's intel_skl_extra_regs,
 * used for both).  Sources: the SDM excerpt (request bits 0-2, 6:3 reserved,
 * 7), Intel's skylakex_core.json MSR values, libpfm4's skl/skx tables.
 * Combination rules: offcore.h.
 */
#include "offcore.h"

/* Snoop results and ANY_RESPONSE: the same on both parts. */
#define SKL_SNOOPS(w) \
	OC_ANY_RESPONSE("Response: any supplier and snoop result (use alone: no supplier or snoop umask)") \
	OC_SNP(w, "SNP_NONE", OC_BIT(31), "Snoop: no snoop information") \
	OC_SNP(w, "SNP_NOT_NEEDED", OC_BIT(32), "Snoop: no snoop was needed") \
	OC_SNP(w, "SNP_MISS", OC_BIT(33), "Snoop: a snoop was sent and every snooped cache missed") \
	OC_SNP(w, "SNP_HIT_NO_FWD", OC_BIT(34), "Snoop: a snoop hit a clean copy, data not forwarded") \
	OC_SNP(w, "SNP_HIT_WITH_FWD", OC_BIT(35), "Snoop: a snoop hit and the data were forwarded") \
	OC_SNP(w, "SNP_HITM", OC_BIT(36), "Snoop: a snoop hit a modified copy") \
	OC_SNP(w, "SNP_NON_DRAM", OC_BIT(37), "Snoop: the target is not memory (MMIO and the like)") \
	OC_SNP_DFL(w, "SNP_ANY", 0x7full << 31, "Snoop: any snoop result (the default once a supplier is named)")

/* ---- Skylake client: libpfm4's umask set ---- */

#define SKL_UMASKS(w) \
	OC_REQ("DMND_DATA_RD", OC_BIT(0), "Request: demand data reads (page-walk reads included, prefetches not)") \
	OC_REQ("DMND_RFO", OC_BIT(1), "Request: demand reads for ownership (stores)") \
	OC_REQ("DMND_CODE_RD", OC_BIT(2), "Request: demand code reads (L1I prefetches included)") \
	OC_REQ("OTHER", OC_BIT(15), "Request: miscellaneous requests (I/O, uncacheable and the like)") \
	OC_REQ_DFL("ANY_REQUEST", 0x8007, "Request: all of the request umasks above (the default)") \
	OC_SUP(w, "SUPPLIER_NONE", OC_BIT(17), "Supplier: no supplier information") \
	OC_SUP(w, "NO_SUPP", OC_BIT(17), "Supplier: same as SUPPLIER_NONE") \
	OC_SUP(w, "L3_HITM", OC_BIT(18), "Supplier: L3 hit, line in M state") \
	OC_SUP(w, "L3_HITE", OC_BIT(19), "Supplier: L3 hit, line in E state") \
	OC_SUP(w, "L3_HITS", OC_BIT(20), "Supplier: L3 hit, line in S state") \
	OC_SUP(w, "L3_HITMES", 0x7ull << 18, "Supplier: L3 hit in M, E or S state") \
	OC_SUP(w, "L3_HIT", 0x7ull << 18, "Supplier: same as L3_HITMES") \
	OC_SUP(w, "L4_HIT_LOCAL_L4", OC_BIT(22), "Supplier: hit in the eDRAM (L4) cache") \
	OC_SUP(w, "L3_MISS_LOCAL", OC_BIT(26), "Supplier: L3 miss, served by local memory") \
	OC_SUP(w, "L3_MISS_REMOTE_HOP1_DRAM", OC_BIT(28), "Supplier: L3 miss, served by memory one socket hop away") \
	OC_SUP(w, "L3_MISS", OC_BIT(26), "Supplier: L3 miss (memory, local on this part)") \
	OC_SUP(w, "SPL_HIT", OC_BIT(30), "Supplier: SPL hit (bit 30; Intel counts it among the snoop bits)") \
	SKL_SNOOPS(w)

static const struct pmon_umask skl_rsp0[] = { SKL_UMASKS(0) };
static const struct pmon_umask skl_rsp1[] = { SKL_UMASKS(1) };

/* ---- Skylake-SP ---- */

#define SKX_UMASKS(w) \
	OC_REQ("DMND_DATA_RD", OC_BIT(0), "Request: demand data reads (page-walk reads included, prefetches not)") \
	OC_REQ("DMND_RFO", OC_BIT(1), "Request: demand reads for ownership (stores)") \
	OC_REQ("DMND_CODE_RD", OC_BIT(2), "Request: demand code reads (L1I prefetches included)") \
	OC_REQ("PF_L2_DATA_RD", OC_BIT(4), "Request: L2 prefetcher data reads that fill the L2") \
	OC_REQ("PF_L2_RFO", OC_BIT(5), "Request: L2 prefetcher RFOs that fill the L2") \
	OC_REQ("PF_L3_DATA_RD", OC_BIT(7), "Request: L2 prefetcher data reads that fill the L3 only") \
	OC_REQ("PF_L3_RFO", OC_BIT(8), "Request: L2 prefetcher RFOs that fill the L3 only") \
	OC_REQ("PF_L1D_AND_SW", OC_BIT(10), "Request: L1D hardware prefetches and software prefetches") \
	OC_REQ("OTHER", OC_BIT(15), "Request: miscellaneous requests (I/O, uncacheable and the like)") \
	OC_REQ_DFL("ANY_REQUEST", 0x85b7, "Request: all of the request umasks above (the default)") \
	OC_REQ("ANY_DATA_RD", 0x491, "Request: demand and prefetch data reads") \
	OC_REQ("ANY_DATA", 0x5b3, "Request: demand and prefetch data reads and RFOs") \
	OC_REQ("ANY_DATA_PF", 0x490, "Request: prefetch data reads (L2, L3, L1D and software)") \
	OC_REQ("ANY_RFO", 0x122, "Request: demand and prefetch reads for ownership") \
	OC_SUP(w, "SUPPLIER_NONE", OC_BIT(17), "Supplier: no supplier information") \
	OC_SUP(w, "NO_SUPP", OC_BIT(17), "Supplier: same as SUPPLIER_NONE") \
	OC_SUP(w, "L3_HITM", OC_BIT(18), "Supplier: L3 hit, line in M state") \
	OC_SUP(w, "L3_HITE", OC_BIT(19), "Supplier: L3 hit, line in E state") \
	OC_SUP(w, "L3_HITS", OC_BIT(20), "Supplier: L3 hit, line in S state") \
	OC_SUP(w, "L3_HITF", OC_BIT(21), "Supplier: L3 hit, line in F state") \
	OC_SUP(w, "L3_HITMESF", 0xfull << 18, "Supplier: L3 hit in any state") \
	OC_SUP(w, "L3_HIT", 0xfull << 18, "Supplier: same as L3_HITMESF") \
	OC_SUP(w, "L3_MISS_LOCAL", OC_BIT(26), "Supplier: L3 miss, served by this socket's memory") \
	OC_SUP(w, "L3_MISS_REMOTE_HOP1_DRAM", OC_BIT(28), "Supplier: L3 miss, served by memory one socket hop away") \
	OC_SUP(w, "L3_MISS", 0xfull << 26, "Supplier: L3 miss, served by local or remote memory (bits 29:26)") \
	SKL_SNOOPS(w)

static const struct pmon_umask skx_rsp0[] = { SKX_UMASKS(0) };
static const struct pmon_umask skx_rsp1[] = { SKX_UMASKS(1) };

#define SKL_EV_DESC0 "Offcore requests of the chosen types with the chosen supplier and snoop result (MSR_OFFCORE_RSP_0)"
#define SKL_EV_DESC1 "Offcore requests of the chosen types with the chosen supplier and snoop result (MSR_OFFCORE_RSP_1)"

static const struct pmon_event skl_events[] = {
	OC_EVENT("OFFCORE_RESPONSE_0", OC_EV_RSP0, OC_F_RSP0, 0, skl_rsp0, SKL_EV_DESC0),
	OC_EVENT("OFFCORE_RESPONSE_1", OC_EV_RSP1, OC_F_RSP1, 0, skl_rsp1, SKL_EV_DESC1),
	{ .name = NULL },
};

static const struct pmon_event skx_events[] = {
	OC_EVENT("OFFCORE_RESPONSE_0", OC_EV_RSP0, OC_F_RSP0, 0, skx_rsp0, SKL_EV_DESC0),
	OC_EVENT("OFFCORE_RESPONSE_1", OC_EV_RSP1, OC_F_RSP1, 0, skx_rsp1, SKL_EV_DESC1),
	{ .name = NULL },
};

static const struct pmon_filter_reg skl_fregs[] = {
	{ .name = "MSR_OFFCORE_RSP_0", .word = 0, .msr = OC_MSR_RSP0, .valid = 0x3fffff8fffull },
	{ .name = "MSR_OFFCORE_RSP_1", .word = 1, .msr = OC_MSR_RSP1, .valid = 0x3fffff8fffull },
};

const struct pmon_box_type pmon_core_skl = {
	OC_BOX_COMMON,
	.pmu_prefix = "skl",
	.desc = "Skylake client core PMU: offcore response (6th generation Core)",
	.fregs = skl_fregs,
	.nfregs = PMON_ARRAY_SIZE(skl_fregs),
	.fields = pmon_core_fields_snb,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_snb),
	.events = skl_events,
	.core_models = { 78, 94 },
};

const struct pmon_box_type pmon_core_skx = {
	OC_BOX_COMMON,
	.pmu_prefix = "skx",
	.desc = "Skylake-SP core PMU: offcore response (Xeon Scalable)",
	.fregs = skl_fregs,
	.nfregs = PMON_ARRAY_SIZE(skl_fregs),
	.fields = pmon_core_fields_snb,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_snb),
	.events = skx_events,
	.core_models = { 85 },
};
