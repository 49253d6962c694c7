/*
 * snb.c - Sandy Bridge core PMUs, named as in libpfm4:
 *   snb     model 42  (client: no remote-memory supplier bits)
 *   snb_ep  model 45  (Xeon E5-2600, the emulated E5-2680)
 *
 * MSR_OFFCORE_RSP_0/1 (0x1A6/0x1A7), 38 bits:
 *   15:0   request type (bits 14:12 reserved)
 *   16     ANY_RESPONSE (counts whatever the supplier and snoop result)
 *   30:17  supplier: 17 none, 18-21 L3 hit M/E/S/F, 22 L3 miss to local
 *          DRAM, 30:23 L3 miss to remote DRAM (SNB-EP only)
 *   37:31  snoop result
 * Valid bits (Linux's masks): SNB-EP 0x3fffff8fff, SNB 0x3f807f8fff.
 * Sources: Intel's Jaketown matrix bit definitions and offcore events,
 * libpfm4's snb/snb_ep tables.  Combination rules: offcore.h.
 */
#include "offcore.h"

#define SNB_REQUESTS \
	OC_REQ("DMND_DATA_RD", OC_BIT(0), "Request: demand data reads (L1D prefetches and page-walk reads included)") \
	OC_REQ("DMND_RFO", OC_BIT(1), "Request: demand reads for ownership (stores)") \
	OC_REQ("DMND_IFETCH", OC_BIT(2), "Request: demand code reads (L1I prefetches included)") \
	OC_REQ("WB", OC_BIT(3), "Request: writebacks of modified lines by the core") \
	OC_REQ("PF_DATA_RD", OC_BIT(4), "Request: data reads of the L2 prefetchers") \
	OC_REQ("PF_RFO", OC_BIT(5), "Request: reads for ownership of the L2 prefetchers") \
	OC_REQ("PF_IFETCH", OC_BIT(6), "Request: code reads of the L2 prefetchers") \
	OC_REQ("PF_LLC_DATA_RD", OC_BIT(7), "Request: L2 prefetcher data reads that fill the L3 only") \
	OC_REQ("PF_LLC_RFO", OC_BIT(8), "Request: L2 prefetcher RFOs that fill the L3 only") \
	OC_REQ("PF_LLC_IFETCH", OC_BIT(9), "Request: L2 prefetcher code reads that fill the L3 only") \
	OC_REQ("BUS_LOCKS", OC_BIT(10), "Request: split locks and uncacheable locks") \
	OC_REQ("STRM_ST", OC_BIT(11), "Request: streaming (non-temporal) stores") \
	OC_REQ("OTHER", OC_BIT(15), "Request: miscellaneous (I/O, uncacheable, flushes, fences, L3 invalidations)") \
	OC_REQ("ANY_IFETCH", 0x244, "Request: demand and prefetch code reads") \
	OC_REQ_DFL("ANY_REQUEST", 0x8fff, "Request: every request type (the default)") \
	OC_REQ("ANY_DATA", 0x91, "Request: demand and prefetch data reads") \
	OC_REQ("ANY_RFO", 0x122, "Request: demand and prefetch reads for ownership")

#define SNB_SUPPLIERS(w) \
	OC_SUP(w, "NO_SUPP", OC_BIT(17), "Supplier: no supplier information") \
	OC_SUP(w, "LLC_HITM", OC_BIT(18), "Supplier: L3 hit, line in M state") \
	OC_SUP(w, "LLC_HITE", OC_BIT(19), "Supplier: L3 hit, line in E state") \
	OC_SUP(w, "LLC_HITS", OC_BIT(20), "Supplier: L3 hit, line in S state") \
	OC_SUP(w, "LLC_HITF", OC_BIT(21), "Supplier: L3 hit, line in F state") \
	OC_SUP(w, "LLC_HITMESF", 0xfull << 18, "Supplier: L3 hit in any state") \
	OC_SUP(w, "LLC_MISS_LOCAL_DRAM", OC_BIT(22), "Supplier: L3 miss, served by this socket's memory") \
	OC_SUP(w, "LLC_MISS_LOCAL", OC_BIT(22), "Supplier: same as LLC_MISS_LOCAL_DRAM")

/* ANY_RESPONSE and the snoop results (snoop group, offcore.h). */
#define SNB_SNOOPS(w) \
	OC_ANY_RESPONSE("Response: any supplier and snoop result (use alone: no supplier or snoop umask)") \
	OC_SNP(w, "SNP_NONE", OC_BIT(31), "Snoop: no snoop information") \
	OC_SNP(w, "SNP_NOT_NEEDED", OC_BIT(32), "Snoop: no snoop was needed") \
	OC_SNP(w, "NO_SNP_NEEDED", OC_BIT(32), "Snoop: same as SNP_NOT_NEEDED") \
	OC_SNP(w, "SNP_MISS", OC_BIT(33), "Snoop: a snoop was sent and every snooped cache missed") \
	OC_SNP(w, "SNP_NO_FWD", OC_BIT(34), "Snoop: a snoop hit a clean copy, data not forwarded") \
	OC_SNP(w, "SNP_FWD", OC_BIT(35), "Snoop: a snoop hit and the data were forwarded (remote socket)") \
	OC_SNP(w, "HITM", OC_BIT(36), "Snoop: a snoop hit a modified copy") \
	OC_SNP(w, "NON_DRAM", OC_BIT(37), "Snoop: the target is not memory (MMIO and the like)") \
	OC_SNP_DFL(w, "SNP_ANY", 0x7full << 31, "Snoop: any snoop result (the default once a supplier is named)")

/* Client: the only memory is local, so an L3 miss is bit 22. */
#define SNB_CLIENT_UMASKS(w) \
	SNB_REQUESTS \
	SNB_SUPPLIERS(w) \
	OC_SUP(w, "L3_MISS", OC_BIT(22), "Supplier: L3 miss (served by memory, all local on this part)") \
	SNB_SNOOPS(w)

/* SNB-EP: bits 30:23 are the remote-memory suppliers. */
#define SNB_EP_UMASKS(w) \
	SNB_REQUESTS \
	SNB_SUPPLIERS(w) \
	OC_SUP(w, "LLC_MISS_REMOTE", 0xffull << 23, "Supplier: L3 miss, served by another socket's memory") \
	OC_SUP(w, "LLC_MISS_REMOTE_DRAM", 0xffull << 23, "Supplier: same as LLC_MISS_REMOTE") \
	OC_SUP(w, "L3_MISS", 0x1ffull << 22, "Supplier: L3 miss, served by local or remote memory") \
	SNB_SNOOPS(w)

static const struct pmon_umask snb_rsp0[] = { SNB_CLIENT_UMASKS(0) };
static const struct pmon_umask snb_rsp1[] = { SNB_CLIENT_UMASKS(1) };
static const struct pmon_umask snb_ep_rsp0[] = { SNB_EP_UMASKS(0) };
static const struct pmon_umask snb_ep_rsp1[] = { SNB_EP_UMASKS(1) };

#define SNB_EV_DESC0 "Offcore requests of the chosen types with the chosen supplier and snoop result (MSR_OFFCORE_RSP_0)"
#define SNB_EV_DESC1 "Offcore requests of the chosen types with the chosen supplier and snoop result (MSR_OFFCORE_RSP_1)"

static const struct pmon_event snb_events[] = {
	OC_EVENT("OFFCORE_RESPONSE_0", OC_EV_RSP0, OC_F_RSP0, 0, snb_rsp0, SNB_EV_DESC0),
	OC_EVENT("OFFCORE_RESPONSE_1", OC_EV_RSP1, OC_F_RSP1, 0, snb_rsp1, SNB_EV_DESC1),
	{ .name = NULL },
};

static const struct pmon_event snb_ep_events[] = {
	OC_EVENT("OFFCORE_RESPONSE_0", OC_EV_RSP0, OC_F_RSP0, 0, snb_ep_rsp0, SNB_EV_DESC0),
	OC_EVENT("OFFCORE_RESPONSE_1", OC_EV_RSP1, OC_F_RSP1, 0, snb_ep_rsp1, SNB_EV_DESC1),
	{ .name = NULL },
};

static const struct pmon_filter_reg snb_fregs[] = {
	{ .name = "MSR_OFFCORE_RSP_0", .word = 0, .msr = OC_MSR_RSP0, .valid = 0x3f807f8fffull },
	{ .name = "MSR_OFFCORE_RSP_1", .word = 1, .msr = OC_MSR_RSP1, .valid = 0x3f807f8fffull },
};

static const struct pmon_filter_reg snb_ep_fregs[] = {
	{ .name = "MSR_OFFCORE_RSP_0", .word = 0, .msr = OC_MSR_RSP0, .valid = 0x3fffff8fffull },
	{ .name = "MSR_OFFCORE_RSP_1", .word = 1, .msr = OC_MSR_RSP1, .valid = 0x3fffff8fffull },
};

const struct pmon_box_type pmon_core_snb = {
	OC_BOX_COMMON,
	.pmu_prefix = "snb",
	.desc = "Sandy Bridge client core PMU: offcore response (2nd generation Core)",
	.fregs = snb_fregs,
	.nfregs = PMON_ARRAY_SIZE(snb_fregs),
	.fields = pmon_core_fields_snb,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_snb),
	.events = snb_events,
	.core_models = { 42 },
};

/* The emulated machine's core PMU.  4 counters: what each hyperthread has
 * with HT on, and the only ones offcore events may use in any case. */
const struct pmon_box_type pmon_core_snb_ep = {
	OC_BOX_COMMON,
	.pmu_prefix = "snb_ep",
	.desc = "Sandy Bridge-EP core PMU: offcore response (Xeon E5-2600/4600)",
	.fregs = snb_ep_fregs,
	.nfregs = PMON_ARRAY_SIZE(snb_ep_fregs),
	.fields = pmon_core_fields_snb,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_snb),
	.events = snb_ep_events,
	.core_models = { 45 },
};
