/*
 * test_offcore_tables.c - the core-PMU offcore-response tables (src/offcore)
 * through the engine: real event names encoded with pmon_encode(), checked
 * against known control and RSP values (libpfm4 4.13's codes, with EN and
 * INT removed from the control word, and Intel's MSR values), plus the
 * combination rules and structural properties of every core box type.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pmon/pmon.h"
#include "catalog.h"

#define CTL_RSP0 0x301b7ull     /* event 0xB7, umask 0x01, USR, OS */
#define CTL_RSP1 0x301bbull

static pmon_encoding_t enc;
static char err[512];

static int encode(const char *name)
{
	memset(&enc, 0, sizeof(enc));
	err[0] = 0;
	return pmon_encode(name, 0, 0, &enc, err, sizeof(err));
}

/* name must encode to ctl and RSP value rsp in filter word w (other word 0). */
static void expect(const char *name, uint64_t ctl, int w, uint64_t rsp)
{
	int rc = encode(name);
	CHECK(rc == PMON_OK, "%s: rc %d (%s)", name, rc, err);
	if (rc != PMON_OK)
		return;
	char what[400];
	snprintf(what, sizeof(what), "%s ctl", name);
	CHECK_EQ_U64(enc.ctl, ctl, what);
	snprintf(what, sizeof(what), "%s RSP word %d", name, w);
	CHECK_EQ_U64(enc.filt[w], rsp, what);
	snprintf(what, sizeof(what), "%s other RSP word", name);
	CHECK_EQ_U64(enc.filt[!w], 0, what);
	CHECK_EQ_U64(enc.filt[2] | enc.filt[3], 0, "unused filter words");
	CHECK(!enc.fixed, "%s: not a fixed-counter event", name);
	CHECK_EQ_U64(enc.cntmask, 0xf, "offcore events use counters 0-3");
}

/* name must be refused with code rc (0 = any error); msg, if given, must
 * appear in the message. */
static void refuse(const char *name, int rc_want, const char *msg)
{
	int rc = encode(name);
	if (rc_want)
		CHECK(rc == rc_want, "%s: rc %d, want %d (%s)", name, rc, rc_want, err);
	else
		CHECK(rc != PMON_OK, "%s: accepted (RSP 0x%llx)", name, (unsigned long long)enc.filt[0]);
	if (msg && rc != PMON_OK)
		CHECK(strstr(err, msg) != NULL, "%s: message '%s' lacks '%s'", name, err, msg);
}

/* ------------------------------------------------------------------ PMUs */

static void test_pmus(void)
{
	static const char *const names[] = { "nhm", "nhm_ex", "wsm", "wsm_dp",
					     "snb", "snb_ep", "skl", "skx" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int p = pmon_pmu_find(names[i]);
		CHECK(p >= 0, "core PMU %s exists", names[i]);
		if (p < 0)
			continue;
		pmon_pmu_info_t pi;
		CHECK_EQ_INT(pmon_pmu_get(p, &pi), PMON_OK, "pmu_get");
		CHECK(!strcmp(pi.name, names[i]), "PMU name %s", pi.name);
		CHECK(!strcmp(pi.box_type, "core"), "%s box type %s", names[i], pi.box_type);
		CHECK_EQ_INT(pi.per_cpu, 1, "core PMUs count per CPU");
		CHECK_EQ_INT(pi.ncounters, 4, "4 general counters");
		CHECK_EQ_INT(pi.width, 48, "48-bit counters");
		CHECK_EQ_INT(pi.has_fixed, 0, "no fixed counter");
		int nev = pmon_event_count(p);
		CHECK_EQ_INT(nev, strncmp(names[i], "nhm", 3) ? 2 : 1, "offcore events");
		for (int e = 0; e < nev; e++) {
			pmon_event_info_t ei;
			CHECK_EQ_INT(pmon_event_get(p, e, &ei), PMON_OK, "event_get");
			CHECK(ei.desc && ei.desc[0], "%s::%s has a description", names[i], ei.name);
			for (int u = 0; u < ei.numasks; u++) {
				pmon_umask_info_t ui;
				CHECK_EQ_INT(pmon_umask_get(p, e, u, &ui), PMON_OK, "umask_get");
				CHECK(ui.desc && ui.desc[0] && !strchr(ui.desc, '\n'),
				      "%s:%s one-line description", ei.name, ui.name);
				CHECK(ui.value != 0, "%s:%s has RSP bits", ei.name, ui.name);
			}
			/* e, i, c, t and cpu */
			CHECK_EQ_INT(pmon_mod_count(p, e), 5, "modifiers of an offcore event");
		}
	}
	CHECK_EQ_INT(pmon_core_nboxes, 8, "core box types");
}

/* ------------------------------------------------------- SNB-EP (the target) */

static void test_snb_ep(void)
{
	/* libpfm4: snb_ep::offcore_response_0:DMND_RFO:ANY_RESPONSE ->
	 * 0x5301b7 / 0x10002 (pmon's control word has no EN and no INT). */
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=3", CTL_RSP0, 0, 0x10002);
	CHECK(!strcmp(enc.name, "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=3"),
	      "canonical name %s", enc.name);
	CHECK_EQ_INT(enc.cpu, 3, "cpu");
	CHECK(enc.fields_used & 1, "RSP_0 event uses field rsp0");

	/* the brief's example, and SNP_ANY as the snoop default */
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:SNP_ANY:cpu=3",
	       CTL_RSP0, 0, 0x3f80400001);
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=3",
	       CTL_RSP0, 0, 0x3f80400001);
	CHECK(strstr(enc.name, ":SNP_ANY") != NULL, "default SNP_ANY in the name: %s", enc.name);
	/* a request given with no request umask: ANY_REQUEST, as libpfm4 */
	expect("snb_ep::OFFCORE_RESPONSE_0:LLC_HITM:cpu=0", CTL_RSP0, 0, 0x3f80048fff);
	expect("snb_ep::OFFCORE_RESPONSE_0:ANY_RESPONSE:cpu=0", CTL_RSP0, 0, 0x18fff);

	/* libpfm4 4.13 codes[1] of the same strings */
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_HITM:SNP_MISS:cpu=0", CTL_RSP0, 0, 0x200040002);
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_HITM:SNP_ANY:SNP_MISS:cpu=0", CTL_RSP0, 0, 0x3f80040002);
	expect("snb_ep::OFFCORE_RESPONSE_0:ANY_REQUEST:DMND_RFO:LLC_HITM:cpu=0", CTL_RSP0, 0, 0x3f80048fff);
	expect("snb_ep::OFFCORE_RESPONSE_0:ANY_DATA:DMND_DATA_RD:LLC_HITM:cpu=0", CTL_RSP0, 0, 0x3f80040091);
	expect("snb_ep::OFFCORE_RESPONSE_0:ANY_IFETCH:ANY_RFO:LLC_HITM:cpu=0", CTL_RSP0, 0, 0x3f80040366);
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_REMOTE:cpu=0", CTL_RSP0, 0, 0x3fff800002);
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_REMOTE_DRAM:cpu=0", CTL_RSP0, 0, 0x3fff800002);
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:L3_MISS:cpu=0", CTL_RSP0, 0, 0x3fffc00002);
	expect("snb_ep::OFFCORE_RESPONSE_0:NO_SUPP:cpu=0", CTL_RSP0, 0, 0x3f80028fff);
	expect("snb_ep::OFFCORE_RESPONSE_0:LLC_HITMESF:cpu=0", CTL_RSP0, 0, 0x3f803c8fff);
	expect("snb_ep::OFFCORE_RESPONSE_0:STRM_ST:ANY_RESPONSE:cpu=0", CTL_RSP0, 0, 0x10800);
	expect("snb_ep::OFFCORE_RESPONSE_0:OTHER:ANY_RESPONSE:cpu=0", CTL_RSP0, 0, 0x18000);

	/* Intel's Jaketown_core.json MSR values */
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:SNP_MISS:SNP_NO_FWD:cpu=0",
	       CTL_RSP0, 0, 0x600400001);          /* DEMAND_DATA_RD.LLC_MISS.LOCAL_DRAM */
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM:SNP_MISS:SNP_NO_FWD:cpu=0",
	       CTL_RSP0, 0, 0x67f800001);          /* DEMAND_DATA_RD.LLC_MISS.REMOTE_DRAM */
	expect("snb_ep::OFFCORE_RESPONSE_0:ANY_DATA:LLC_HITMESF:SNP_NOT_NEEDED:cpu=0",
	       CTL_RSP0, 0, 0x1003c0091);          /* ALL_DATA_RD.LLC_HIT.NO_SNOOP_NEEDED */
	/* Intel's DEMAND_CODE_RD is libpfm4's DMND_IFETCH: libpfm4's names only */
	refuse("snb_ep::OFFCORE_RESPONSE_0:DEMAND_CODE_RD:ANY_RESPONSE:cpu=0", PMON_EUMASK, NULL);
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_IFETCH:ANY_RESPONSE:cpu=0", CTL_RSP0, 0, 0x10004);

	/* OFFCORE_RESPONSE_1 fills filter word 1 (MSR_OFFCORE_RSP_1) */
	expect("snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_HITM:cpu=5", CTL_RSP1, 1, 0x3f80040001);
	CHECK(enc.fields_used & 2, "RSP_1 event uses field rsp1");
	CHECK(!(enc.fields_used & 1), "RSP_1 event leaves rsp0 alone");
	expect("snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:ANY_RESPONSE:cpu=0", CTL_RSP1, 1, 0x10002);

	/* modifiers: libpfm4 e=1:c=2:i=1:t=1 gives 0x2f701b7 with EN and INT */
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_HITM:e=1:c=2:i=1:t=1:cpu=0",
	       0x2f701b7ull & ~0x500000ull, 0, 0x3f80040002);
	expect("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:c=255:cpu=0", CTL_RSP0 | 0xff000000ull, 0, 0x10002);
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:c=256:cpu=0", PMON_ERANGE, NULL);
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:t=2:cpu=0", PMON_ERANGE, NULL);
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:u=1:cpu=0", PMON_EQUAL, "unknown modifier");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:k=1:cpu=0", PMON_EQUAL, NULL);
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:intx=1:cpu=0", PMON_EQUAL, NULL);
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:e:cpu=0", PMON_EQUAL, "needs a value");

	/* a response is required (libpfm4 would add ANY_RESPONSE) */
	refuse("snb_ep::OFFCORE_RESPONSE_0:cpu=0", 0, "response");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:cpu=0", 0, "response");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:SNP_MISS:cpu=0", 0, "response");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:SNP_ANY:cpu=0", 0, "response");
	refuse("snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:cpu=0", 0, "response");
	/* ANY_RESPONSE takes no supplier or snoop umask (as libpfm4) */
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:SNP_MISS:cpu=0", PMON_EUMASK, "cannot be combined");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:SNP_ANY:cpu=0", PMON_EUMASK, NULL);
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:LLC_HITM:cpu=0", 0, "ANY_RESPONSE");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_HITM:ANY_RESPONSE:SNP_ANY:cpu=0", PMON_EUMASK, NULL);

	/* unknown umasks, doubled umasks */
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:FOO:cpu=0", PMON_EUMASK, "FOO");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:RD:ANY_RESPONSE:cpu=0", PMON_EUMASK, NULL);
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:L3_HITM:cpu=0", PMON_EUMASK, NULL);      /* skx name */
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=0", PMON_EUMASK, NULL);   /* nhm name */
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:DMND_RFO:ANY_RESPONSE:cpu=0", PMON_EUMASK, "twice");
	refuse("snb_ep::OFFCORE_RESPONSE_2:DMND_RFO:ANY_RESPONSE:cpu=0", PMON_ENOEVNT, NULL);

	/* per-CPU: cpu= is required, socket= is refused */
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE", PMON_EQUAL, "cpu=");
	refuse("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:socket=0", PMON_EQUAL, "cpu=");
	CHECK(pmon_encode("snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=32", 2, 32, &enc,
			  err, sizeof(err)) == PMON_ERANGE, "cpu beyond the machine");

	/* names are case-insensitive; the canonical name re-encodes identically */
	expect("SNB_EP::offcore_response_0:dmnd_rfo:llc_hitm:snp_miss:cpu=1", CTL_RSP0, 0, 0x200040002);
	char canon[PMON_MAX_NAME];
	snprintf(canon, sizeof(canon), "%s", enc.name);
	expect(canon, CTL_RSP0, 0, 0x200040002);
	CHECK(!strcmp(canon, enc.name), "canonical name stable: %s / %s", canon, enc.name);
	expect("pmon:::snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=0", CTL_RSP0, 0, 0x10002);

	/* SNB-EP has the remote-memory bits, client SNB does not */
	refuse("snb::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_REMOTE:cpu=0", PMON_EUMASK, NULL);
	expect("snb::OFFCORE_RESPONSE_0:DMND_RFO:L3_MISS:cpu=0", CTL_RSP0, 0, 0x3f80400002);
}

/* Expected umask counts per group, per event, of every core PMU. */
static void test_groups(void)
{
	static const struct { const char *pmu; int n[3]; } want[] = {
		{ "nhm", { 13, 14, 0 } }, { "nhm_ex", { 13, 14, 0 } },
		{ "wsm", { 13, 15, 0 } }, { "wsm_dp", { 13, 12, 0 } },
		{ "snb", { 17, 9, 10 } }, { "snb_ep", { 17, 11, 10 } },
		{ "skl", { 5, 12, 9 } }, { "skx", { 14, 11, 9 } },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int p = pmon_pmu_find(want[i].pmu);
		const struct pmon_pmu *pp = pmon_catalog_pmu(p);
		if (!pp)
			continue;
		for (int e = 0; e < pp->nevents; e++) {
			const struct pmon_event *ev = &pp->type->events[e];
			int n[8] = { 0 };
			for (int u = 0; u < ev->numasks; u++)
				n[ev->umasks[u].grp & 7]++;
			for (int g = 0; g < 3; g++)
				CHECK(n[g] == want[i].n[g], "%s::%s group %d: %d umasks, want %d",
				      want[i].pmu, ev->name, g, n[g], want[i].n[g]);
		}
	}
}

/* ------------------------------------------------------- other generations */

static void test_nhm_wsm(void)
{
	/* libpfm4: nhm::offcore_response_0:DMND_RFO:LOCAL_DRAM -> 0x4002 */
	expect("nhm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=0", CTL_RSP0, 0, 0x4002);
	expect("nhm::OFFCORE_RESPONSE_0:LOCAL_DRAM:cpu=0", CTL_RSP0, 0, 0x40ff);
	expect("nhm::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:LOCAL_DRAM:cpu=0", CTL_RSP0, 0, 0xff02);
	expect("nhm::OFFCORE_RESPONSE_0:ANY_DATA:ANY_LLC_MISS:cpu=0", CTL_RSP0, 0, 0xf833);
	expect("nhm_ex::OFFCORE_RESPONSE_0:ANY_DATA_RD:REMOTE_CACHE_DRAM:cpu=0", CTL_RSP0, 0, 0x3811);
	expect("nhm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:e=1:c=1:i=1:t=1:cpu=0",
	       0x1f701b7ull & ~0x500000ull, 0, 0x4002);
	/* response required (libpfm4 would add ANY_RESPONSE = 0xff00) */
	refuse("nhm::OFFCORE_RESPONSE_0:DMND_RFO:cpu=0", PMON_EUMASK, "(response)");
	refuse("nhm::OFFCORE_RESPONSE_0:cpu=0", PMON_EUMASK, "(response)");
	/* Nehalem has a single RSP register */
	refuse("nhm::OFFCORE_RESPONSE_1:DMND_RFO:LOCAL_DRAM:cpu=0", PMON_ENOEVNT, NULL);
	refuse("nhm::OFFCORE_RESPONSE_0:DMND_RFO:LLC_HITM:cpu=0", PMON_EUMASK, NULL);

	/* Westmere: local/remote DRAM swapped with respect to Nehalem */
	expect("wsm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=0", CTL_RSP0, 0, 0x2002);
	expect("wsm::OFFCORE_RESPONSE_1:DMND_RFO:LOCAL_DRAM:cpu=0", CTL_RSP1, 1, 0x2002);
	expect("wsm::OFFCORE_RESPONSE_0:ANY_REQUEST:LOCAL_CACHE:cpu=0", CTL_RSP0, 0, 0x07ff);
	expect("wsm_dp::OFFCORE_RESPONSE_1:ANY_RFO:OTHER_LLC_MISS:cpu=0", CTL_RSP1, 1, 0x4022);
	expect("wsm_dp::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM_AND_REMOTE_CACHE_HIT:cpu=0", CTL_RSP0, 0, 0x1001);
	refuse("wsm_dp::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=0", PMON_EUMASK, NULL);
	refuse("wsm::OFFCORE_RESPONSE_1:DMND_RFO:cpu=0", PMON_EUMASK, "(response)");
}

static void test_skl_skx(void)
{
	expect("skx::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=0", CTL_RSP0, 0, 0x10002);
	expect("skx::OFFCORE_RESPONSE_0:L3_HITM:cpu=0", CTL_RSP0, 0, 0x3f800485b7);
	expect("skx::OFFCORE_RESPONSE_0:ANY_DATA_RD:L3_HITM:cpu=0", CTL_RSP0, 0, 0x3f80040491);
	expect("skx::OFFCORE_RESPONSE_1:ANY_DATA:L3_MISS_LOCAL:cpu=0", CTL_RSP1, 1, 0x3f840005b3);
	/* Intel's skylakex_core.json MSR values */
	expect("skx::OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM:cpu=0",
	       CTL_RSP0, 0, 0x10003c0001);          /* DEMAND_DATA_RD.L3_HIT.HITM_OTHER_CORE */
	expect("skx::OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS:SNP_ANY:cpu=0",
	       CTL_RSP0, 0, 0x3fbc000001);          /* DEMAND_DATA_RD.L3_MISS.ANY_SNOOP */
	expect("skx::OFFCORE_RESPONSE_0:ANY_RFO:L3_MISS_LOCAL:SNP_MISS:SNP_HIT_NO_FWD:cpu=0",
	       CTL_RSP0, 0, 0x604000122);           /* ALL_RFO.L3_MISS_LOCAL_DRAM.SNOOP_MISS_OR_NO_FWD */
	expect("skx::OFFCORE_RESPONSE_0:ANY_DATA_PF:ANY_RESPONSE:cpu=0",
	       CTL_RSP0, 0, 0x10490);               /* ALL_PF_DATA_RD.ANY_RESPONSE */

	/* skl: ANY_REQUEST is the request bits only (libpfm4's default adds bit 16) */
	expect("skl::OFFCORE_RESPONSE_0:L3_HITM:cpu=0", CTL_RSP0, 0, 0x3f80048007);
	expect("skl::OFFCORE_RESPONSE_0:ANY_REQUEST:L3_HITM:cpu=0", CTL_RSP0, 0, 0x3f80048007);
	expect("skl::OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:cpu=0", CTL_RSP0, 0, 0x3f801c0001);
	expect("skl::OFFCORE_RESPONSE_1:DMND_CODE_RD:L3_MISS:SNP_NONE:cpu=0", CTL_RSP1, 1, 0x84000004);
	refuse("skl::OFFCORE_RESPONSE_0:DMND_RFO:cpu=0", 0, "response");
	refuse("skl::OFFCORE_RESPONSE_0:DMND_RFO:L3_HITF:cpu=0", PMON_EUMASK, NULL);   /* skx only */
	refuse("skx::OFFCORE_RESPONSE_0:DMND_RFO:SPL_HIT:cpu=0", PMON_EUMASK, NULL);   /* skl only */
}

/* --------------------------------------------------- structural properties */

static uint64_t valid_of(const struct pmon_box_type *t, int word)
{
	for (int r = 0; r < t->nfregs; r++)
		if (t->fregs[r].word == word)
			return t->fregs[r].valid;
	return 0;
}

/* Every umask's bits are valid RSP bits of its event's register, every box
 * is a well-formed core box, and the largest encodable value (every RSP bit
 * some umask can set, ANY_RESPONSE aside) is accepted and stays inside the
 * valid mask.  The umasks for that are picked per group, widest first,
 * skipping those that add no bit (the engine takes at most 32 attributes). */
static void test_structure(void)
{
	for (int b = 0; b < pmon_core_nboxes; b++) {
		const struct pmon_box_type *t = pmon_core_boxes[b];
		CHECK(t->space == PMON_SPACE_CORE, "%s: core space", t->pmu_prefix);
		CHECK(t->max_boxes == 1 && t->msr_ctl0 == 0x186 && t->msr_ctr0 == 0xc1 &&
		      t->msr_stride == 0 && !t->has_box_ctl && !t->has_fixed,
		      "%s: IA32_PERFEVTSEL0/IA32_PMC0, no box control", t->pmu_prefix);
		CHECK(t->core_models[0] != 0, "%s: native models listed", t->pmu_prefix);
		CHECK((t->ctl_valid & 0xffa7ffffu) == 0xffa7ffffu && !(t->ctl_valid & (1u << 22)),
		      "%s: ctl_valid covers the encodable bits, not EN", t->pmu_prefix);
		for (int r = 0; r < t->nfregs; r++)
			CHECK(t->fregs[r].msr == 0x1a6u + t->fregs[r].word,
			      "%s: %s at 0x%x", t->pmu_prefix, t->fregs[r].name, t->fregs[r].msr);
		for (int e = 0; t->events[e].name; e++) {
			const struct pmon_event *ev = &t->events[e];
			int word = ev->code == 0xb7 ? 0 : 1;
			uint64_t valid = valid_of(t, word), every = 0;
			CHECK(ev->code == 0xb7 || ev->code == 0xbb, "%s: event code", ev->name);
			CHECK(valid != 0, "%s::%s has its RSP register", t->pmu_prefix, ev->name);
			CHECK(ev->flags & PMON_EV_OFFCORE, "%s: offcore flag", ev->name);
			CHECK(ev->fields && ev->fields < (1u << t->nfields) &&
			      t->fields[__builtin_ctz(ev->fields)].word == word,
			      "%s::%s: its rsp field is on word %d", t->pmu_prefix, ev->name, word);
			int ndfl[8] = { 0 };
			for (int u = 0; u < ev->numasks; u++) {
				const struct pmon_umask *um = &ev->umasks[u];
				CHECK(!(um->value & ~valid), "%s::%s:%s value 0x%llx outside valid 0x%llx",
				      t->pmu_prefix, ev->name, um->name, (unsigned long long)um->value,
				      (unsigned long long)valid);
				CHECK(!um->filt_set[!word] && !(um->filt_set[word] & ~um->value),
				      "%s:%s filt_set within its own bits on its own word", ev->name, um->name);
				if (um->flags & PMON_UM_DEFAULT)
					ndfl[um->grp & 7]++;
				if (!(um->flags & PMON_UM_EXCL))
					every |= um->value;
				for (int v = 0; v < u; v++)
					CHECK(strcmp(ev->umasks[v].name, um->name),
					      "%s::%s: umask %s twice", t->pmu_prefix, ev->name, um->name);
			}
			CHECK(ndfl[0] == 1, "%s::%s: one request default", t->pmu_prefix, ev->name);
			CHECK(ndfl[1] == 0, "%s::%s: no response/supplier default", t->pmu_prefix, ev->name);

			char all[PMON_MAX_NAME];
			size_t n = (size_t)snprintf(all, sizeof(all), "%s::%s", t->pmu_prefix, ev->name);
			uint64_t covered = 0;
			for (;;) {
				int best = -1, bestn = 0;
				for (int u = 0; u < ev->numasks; u++) {
					const struct pmon_umask *um = &ev->umasks[u];
					int k = __builtin_popcountll(um->value & ~covered);
					if (!(um->flags & PMON_UM_EXCL) && k > bestn) {
						best = u;
						bestn = k;
					}
				}
				if (best < 0)
					break;
				covered |= ev->umasks[best].value;
				n += (size_t)snprintf(all + n, sizeof(all) - n, ":%s", ev->umasks[best].name);
			}
			snprintf(all + n, sizeof(all) - n, ":cpu=0");
			CHECK_EQ_U64(covered, every, "greedy cover");
			int rc = encode(all);
			CHECK(rc == PMON_OK, "%s: %s", all, err);
			if (rc == PMON_OK) {
				CHECK_EQ_U64(enc.filt[word], every, all);
				CHECK(!(enc.filt[word] & ~valid), "%s::%s: 0x%llx inside 0x%llx", t->pmu_prefix,
				      ev->name, (unsigned long long)enc.filt[word], (unsigned long long)valid);
			}
		}
	}
}

int main(void)
{
	test_pmus();
	test_snb_ep();
	test_groups();
	test_nhm_wsm();
	test_skl_skx();
	test_structure();
	return check_done("test_offcore_tables");
}
