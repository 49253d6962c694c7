/*
 * nhm.c - Nehalem and Westmere core PMUs, named as in libpfm4:
 *   nhm    models 26, 30, 31   OFFCORE_RESPONSE_0 only (one RSP register)
 *   nhm_ex model 46            same layout as nhm
 *   wsm    model 37            OFFCORE_RESPONSE_0 and _1
 *   wsm_dp models 44, 47       OFFCORE_RESPONSE_0 and _1, other response names
 *
 * MSR_OFFCORE_RSP_x is 16 bits: request type in 7:0, response (where the
 * line came from) in 15:8.  A request and a response umask are both needed;
 * requests default to ANY_REQUEST, responses have no default (offcore.h).
 * The umasks carry no filter-field side effects here, so RSP_0 and RSP_1
 * share one umask array.
 */
#include "offcore.h"

/* Request types: the same bits on Nehalem and Westmere. */
#define NHM_REQUESTS \
	OC_REQ("DMND_DATA_RD", 0x01, "Request: demand data reads from the L1D (partial lines and L1D prefetches too)") \
	OC_REQ("DMND_RFO", 0x02, "Request: demand reads for ownership (stores that miss)") \
	OC_REQ("DMND_IFETCH", 0x04, "Request: demand instruction fetches") \
	OC_REQ("WB", 0x08, "Request: writebacks of modified lines (L2 evictions, L1D writebacks)") \
	OC_REQ("PF_DATA_RD", 0x10, "Request: data reads made by the L2 prefetchers") \
	OC_REQ("PF_RFO", 0x20, "Request: reads for ownership made by the L2 prefetchers") \
	OC_REQ("PF_IFETCH", 0x40, "Request: code reads made by the L2 prefetchers") \
	OC_REQ("OTHER", 0x80, "Request: everything else, non-temporal stores included") \
	OC_REQ("ANY_IFETCH", 0x44, "Request: demand and prefetch code reads") \
	OC_REQ_DFL("ANY_REQUEST", 0xff, "Request: every request type (the default)") \
	OC_REQ("ANY_DATA", 0x33, "Request: demand and prefetch data reads and RFOs") \
	OC_REQ("ANY_DATA_RD", 0x11, "Request: demand and prefetch data reads") \
	OC_REQ("ANY_RFO", 0x22, "Request: demand and prefetch reads for ownership")

static const struct pmon_umask nhm_rsp[] = {
	NHM_REQUESTS
	OC_RSP("UNCORE_HIT", 0x0100, "Response: L3 hit, no other core had to be snooped")
	OC_RSP("OTHER_CORE_HIT_SNP", 0x0200, "Response: L3 hit, clean copy found by snooping another core")
	OC_RSP("OTHER_CORE_HITM", 0x0400, "Response: L3 hit, modified copy found in another core")
	OC_RSP("REMOTE_CACHE_HITM", 0x0800, "Response: L3 miss, line supplied by the other socket's cache (modified)")
	OC_RSP("REMOTE_CACHE_FWD", 0x1000, "Response: L3 miss, clean line forwarded by the other socket's cache")
	OC_RSP("REMOTE_DRAM", 0x2000, "Response: L3 miss, line read from the other socket's memory")
	OC_RSP("LOCAL_DRAM", 0x4000, "Response: L3 miss, line read from this socket's memory")
	OC_RSP("NON_DRAM", 0x8000, "Response: target was not memory (I/O, CSR, MMIO)")
	OC_RSP("ANY_CACHE_DRAM", 0x7f00, "Response: any cache or memory (all but non-DRAM targets)")
	OC_RSP("ANY_DRAM", 0x6000, "Response: local or remote memory")
	OC_RSP("ANY_LLC_MISS", 0xf800, "Response: any L3 miss (remote caches, memory, non-DRAM)")
	OC_RSP("LOCAL_CACHE_DRAM", 0x4700, "Response: L3 hit or local memory")
	OC_RSP("REMOTE_CACHE_DRAM", 0x3800, "Response: remote cache or remote memory")
	OC_RSP("ANY_RESPONSE", 0xff00, "Response: any source (all response bits)")
};

static const struct pmon_event nhm_events[] = {
	OC_EVENT("OFFCORE_RESPONSE_0", OC_EV_RSP0, OC_F_RSP0, 0x2, nhm_rsp,
		 "Offcore requests of the chosen types answered by the chosen sources (MSR_OFFCORE_RSP_0)"),
	{ .name = NULL },
};

static const struct pmon_filter_reg nhm_fregs[] = {
	{ .name = "MSR_OFFCORE_RSP_0", .word = 0, .msr = OC_MSR_RSP0, .valid = 0xffff },
};

const struct pmon_box_type pmon_core_nhm = {
	OC_BOX_COMMON,
	.pmu_prefix = "nhm",
	.desc = "Nehalem core PMU: offcore response (Core i5/i7 first generation, Xeon 3400/5500)",
	.fregs = nhm_fregs,
	.nfregs = PMON_ARRAY_SIZE(nhm_fregs),
	.fields = pmon_core_fields_nhm,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_nhm),
	.events = nhm_events,
	.core_models = { 26, 30, 31 },
	.rsp_per_core = 1,            /* NHM/WSM: one offcore MSR per core, shared by its threads */
};

/* Nehalem-EX: the same offcore layout in libpfm4. */
const struct pmon_box_type pmon_core_nhm_ex = {
	OC_BOX_COMMON,
	.pmu_prefix = "nhm_ex",
	.desc = "Nehalem-EX core PMU: offcore response (Xeon 7500)",
	.fregs = nhm_fregs,
	.nfregs = PMON_ARRAY_SIZE(nhm_fregs),
	.fields = pmon_core_fields_nhm,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_nhm),
	.events = nhm_events,
	.core_models = { 46 },
	.rsp_per_core = 1,            /* NHM/WSM: one offcore MSR per core, shared by its threads */
};

/* Westmere (single socket): local and remote DRAM bits are swapped with
 * respect to Nehalem (bit 13 local, bit 14 remote), as libpfm4 has them. */
static const struct pmon_umask wsm_rsp[] = {
	NHM_REQUESTS
	OC_RSP("UNCORE_HIT", 0x0100, "Response: L3 hit, no other core had to be snooped")
	OC_RSP("OTHER_CORE_HIT_SNP", 0x0200, "Response: L3 hit, clean copy found by snooping another core")
	OC_RSP("OTHER_CORE_HITM", 0x0400, "Response: L3 hit, modified copy found in another core")
	OC_RSP("REMOTE_CACHE_HITM", 0x0800, "Response: L3 miss, line supplied by another socket's cache (modified)")
	OC_RSP("REMOTE_CACHE_FWD", 0x1000, "Response: L3 miss, clean line forwarded by another socket's cache")
	OC_RSP("LOCAL_DRAM", 0x2000, "Response: L3 miss, line read from this socket's memory")
	OC_RSP("REMOTE_DRAM", 0x4000, "Response: L3 miss, line read from another socket's memory")
	OC_RSP("NON_DRAM", 0x8000, "Response: target was not memory (I/O, CSR, MMIO)")
	OC_RSP("ANY_CACHE_DRAM", 0x7f00, "Response: any cache or memory (all but non-DRAM targets)")
	OC_RSP("ANY_DRAM", 0x6000, "Response: local or remote memory")
	OC_RSP("ANY_LLC_MISS", 0xf800, "Response: any L3 miss (remote caches, memory, non-DRAM)")
	OC_RSP("LOCAL_CACHE_DRAM", 0x2700, "Response: L3 hit or local memory")
	OC_RSP("REMOTE_CACHE_DRAM", 0x5800, "Response: remote cache or remote memory")
	OC_RSP("LOCAL_CACHE", 0x0700, "Response: any L3 hit")
	OC_RSP("ANY_RESPONSE", 0xff00, "Response: any source (all response bits)")
};

/* Westmere-EP/EX: bits 12 and 14 have other meanings (libpfm4 "wsm_dp"). */
static const struct pmon_umask wsm_dp_rsp[] = {
	NHM_REQUESTS
	OC_RSP("UNCORE_HIT", 0x0100, "Response: L3 hit, no other core had to be snooped")
	OC_RSP("OTHER_CORE_HIT_SNP", 0x0200, "Response: L3 hit, clean copy found by snooping another core")
	OC_RSP("OTHER_CORE_HITM", 0x0400, "Response: L3 hit, modified copy found in another core")
	OC_RSP("REMOTE_CACHE_HITM", 0x0800, "Response: L3 miss, line supplied by another socket's cache (modified)")
	OC_RSP("LOCAL_DRAM_AND_REMOTE_CACHE_HIT", 0x1000,
	       "Response: L3 miss, served by this socket's memory or forwarded clean by a remote cache")
	OC_RSP("REMOTE_DRAM", 0x2000, "Response: L3 miss, line read from another socket's memory")
	OC_RSP("OTHER_LLC_MISS", 0x4000, "Response: L3 miss on a line whose home is another socket")
	OC_RSP("NON_DRAM", 0x8000, "Response: target was not memory (I/O, CSR, MMIO)")
	OC_RSP("ANY_CACHE_DRAM", 0x7f00, "Response: any cache or memory (all but non-DRAM targets)")
	OC_RSP("ANY_LLC_MISS", 0xf800, "Response: any L3 miss (remote caches, memory, non-DRAM)")
	OC_RSP("LOCAL_CACHE", 0x0700, "Response: any L3 hit")
	OC_RSP("ANY_RESPONSE", 0xff00, "Response: any source (all response bits)")
};

static const struct pmon_event wsm_events[] = {
	OC_EVENT("OFFCORE_RESPONSE_0", OC_EV_RSP0, OC_F_RSP0, 0x2, wsm_rsp,
		 "Offcore requests of the chosen types answered by the chosen sources (MSR_OFFCORE_RSP_0)"),
	OC_EVENT("OFFCORE_RESPONSE_1", OC_EV_RSP1, OC_F_RSP1, 0x2, wsm_rsp,
		 "Offcore requests of the chosen types answered by the chosen sources (MSR_OFFCORE_RSP_1)"),
	{ .name = NULL },
};

static const struct pmon_event wsm_dp_events[] = {
	OC_EVENT("OFFCORE_RESPONSE_0", OC_EV_RSP0, OC_F_RSP0, 0x2, wsm_dp_rsp,
		 "Offcore requests of the chosen types answered by the chosen sources (MSR_OFFCORE_RSP_0)"),
	OC_EVENT("OFFCORE_RESPONSE_1", OC_EV_RSP1, OC_F_RSP1, 0x2, wsm_dp_rsp,
		 "Offcore requests of the chosen types answered by the chosen sources (MSR_OFFCORE_RSP_1)"),
	{ .name = NULL },
};

static const struct pmon_filter_reg wsm_fregs[] = {
	{ .name = "MSR_OFFCORE_RSP_0", .word = 0, .msr = OC_MSR_RSP0, .valid = 0xffff },
	{ .name = "MSR_OFFCORE_RSP_1", .word = 1, .msr = OC_MSR_RSP1, .valid = 0xffff },
};

const struct pmon_box_type pmon_core_wsm = {
	OC_BOX_COMMON,
	.pmu_prefix = "wsm",
	.desc = "Westmere core PMU, single socket: offcore response (Core i3/i5 Clarkdale/Arrandale)",
	.fregs = wsm_fregs,
	.nfregs = PMON_ARRAY_SIZE(wsm_fregs),
	.fields = pmon_core_fields_wsm,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_wsm),
	.events = wsm_events,
	.core_models = { 37 },
	.rsp_per_core = 1,            /* NHM/WSM: one offcore MSR per core, shared by its threads */
};

const struct pmon_box_type pmon_core_wsm_dp = {
	OC_BOX_COMMON,
	.pmu_prefix = "wsm_dp",
	.desc = "Westmere core PMU, multi socket: offcore response (Xeon 5600, E7)",
	.fregs = wsm_fregs,
	.nfregs = PMON_ARRAY_SIZE(wsm_fregs),
	.fields = pmon_core_fields_wsm,
	.nfields = PMON_ARRAY_SIZE(pmon_core_fields_wsm),
	.events = wsm_dp_events,
	.core_models = { 44, 47 },
	.rsp_per_core = 1,            /* NHM/WSM: one offcore MSR per core, shared by its threads */
};
