/* test_rsp_slots.c - the scheduler treats the offcore-response registers of
 * a CPU (of a core on Nehalem/Westmere) as one resource of slots (src/rsp.h):
 * a second mask moves to the free register and its control word's event
 * select follows (0xB7 <-> 0xBB), an equal mask shares the register that
 * holds it, a third distinct mask is refused naming the masks in use; on
 * Nehalem/Westmere the hyperthreads of a core share the registers.  The same
 * answers whole-set (pmon_schedule) and one event at a time
 * (pmon_schedule_add).  Expected masks come from the RSP bit definitions of
 * the SNB-EP, Nehalem and Westmere matrices. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "assign.h"
#include "machine.h"
#include "rsp.h"

/* SNB-EP RSP bits: requests 0 (DMND_DATA_RD), 1 (DMND_RFO), 2 (DMND_IFETCH),
 * 11 (STRM_ST); supplier 17 (none), 22 (local DRAM), 23-30 (remote DRAM);
 * snoop 31 (none), 31-37 (any). */
#define SNP_ANY   (0x7full << 31)
#define MASK_A    ((1ull << 0) | (1ull << 22) | SNP_ANY)          /* DMND_DATA_RD, local */
#define MASK_B    ((1ull << 1) | (1ull << 22) | SNP_ANY)          /* DMND_RFO, local */
#define MASK_C    ((1ull << 11) | (1ull << 17) | (1ull << 31))    /* STRM_ST, none, none */
#define MASK_R    ((1ull << 0) | (0xffull << 23) | SNP_ANY)       /* DMND_DATA_RD, remote */
/* control word without the enable bit: event select, umask 0x01, USR, OS */
#define CTL(ev)   ((ev) | 0x100ull | (1ull << 16) | (1ull << 17))

#define A0 "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM"
#define B0 "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM"
#define C0 "snb_ep::OFFCORE_RESPONSE_0:STRM_ST:NO_SUPP:SNP_NONE"
#define A1 "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM"
#define B1 "snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:LLC_MISS_LOCAL_DRAM"
#define C1 "snb_ep::OFFCORE_RESPONSE_1:STRM_ST:NO_SUPP:SNP_NONE"

static pmon_machine_t *m;
static char err[1024];

static pmon_encoding_t enc(const char *name)
{
	pmon_encoding_t e;
	memset(&e, 0, sizeof(e));
	int rc = pmon_encode(name, 2, 0, &e, err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, name);
	return e;
}

/* A set of events by name: set[i] = enc(names[i]). */
static int make(pmon_encoding_t *set, const char *const *names)
{
	int n = 0;
	for (; names[n]; n++)
		set[n] = enc(names[n]);
	return n;
}

/* e programs exactly what naming its umasks on the event of RSP register w
 * programs (fresh encoding of `as`): event, control word, filter words,
 * fields; and that register holds mask. */
static void on_slot(const pmon_encoding_t *e, const char *as, int w, uint64_t mask)
{
	pmon_encoding_t x = enc(as);
	char what[PMON_MAX_NAME + 64];
	snprintf(what, sizeof(what), "%s on RSP_%d", e->name, w);
	CHECK_EQ_INT(pmon_rsp_slot(e), w, what);
	CHECK_EQ_INT(e->event, x.event, what);
	CHECK_EQ_U64(e->ctl, x.ctl, what);
	CHECK_EQ_U64(e->ctl & 0xff, w ? 0xbb : 0xb7, what);
	CHECK_EQ_U64(e->filt[w], mask, what);
	for (int k = 0; k < PMON_FILTER_WORDS; k++)
		CHECK_EQ_U64(e->filt[k], x.filt[k], what);
	CHECK_EQ_U64(e->fields_used, x.fields_used, what);
	CHECK_EQ_U64(e->filt_used, 1u << w, what);
	CHECK_EQ_U64(e->cpu, x.cpu, what);
}

/* Whole set and incremental give the same result: slots, counters, error. */
static int both_ways(pmon_encoding_t *set, int n, int *counter)
{
	static pmon_encoding_t inc[16];
	pmon_encoding_t *p[16];
	int ci[16], rc = PMON_OK;
	char e2[1024] = "";
	memcpy(inc, set, sizeof(*set) * (size_t)n);
	for (int k = 1; k <= n && rc == PMON_OK; k++) {
		p[k - 1] = &inc[k - 1];
		ci[k - 1] = 0;
		rc = pmon_schedule_add(m, p, k, ci, e2, sizeof(e2));
	}
	int whole = pmon_schedule(m, set, n, counter, err, sizeof(err));
	CHECK_EQ_INT(rc, whole, "incremental and whole set agree");
	if (whole)
		CHECK(!strcmp(err, e2), "same refusal: '%s' vs '%s'", err, e2);
	else
		for (int i = 0; i < n; i++) {
			CHECK(!memcmp(&inc[i], &set[i], sizeof(set[i])), "same encoding of %s", set[i].name);
			CHECK_EQ_INT(ci[i], counter[i], "same counter");
		}
	return whole;
}

static void second_mask_moves(void)
{
	pmon_encoding_t set[8];
	int ctr[8];
	const char *names[] = { A0 ":cpu=0", B0 ":cpu=0", NULL };
	int n = make(set, names);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, err);
	on_slot(&set[0], A0 ":cpu=0", 0, MASK_A);
	on_slot(&set[1], B1 ":cpu=0", 1, MASK_B);
	CHECK_EQ_U64(set[1].ctl, CTL(0xbbull), "the moved event selects 0xBB");
	CHECK(!strcmp(set[1].name, "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM:SNP_ANY:cpu=0"),
	      "the name given stays: %s", set[1].name);
	CHECK(ctr[0] != ctr[1], "two counters");

	/* named RSP_1 first: stays; a second mask named RSP_1 moves to RSP_0 */
	const char *n2[] = { A1 ":cpu=0", B1 ":cpu=0", NULL };
	n = make(set, n2);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, err);
	on_slot(&set[0], A1 ":cpu=0", 1, MASK_A);
	on_slot(&set[1], B0 ":cpu=0", 0, MASK_B);
	CHECK_EQ_U64(set[1].ctl, CTL(0xb7ull), "the moved event selects 0xB7");

	/* each named on its own free register: nothing moves */
	const char *n3[] = { A1 ":cpu=0", B0 ":cpu=0", NULL };
	n = make(set, n3);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, err);
	on_slot(&set[0], A1 ":cpu=0", 1, MASK_A);
	on_slot(&set[1], B0 ":cpu=0", 0, MASK_B);
}

static void equal_masks_share(void)
{
	pmon_encoding_t set[8];
	int ctr[8];
	/* A on RSP_0, B moves to RSP_1, A named on RSP_1 joins RSP_0, B with a
	 * counter mask (another control word, the same RSP value) joins RSP_1 */
	const char *names[] = { A0 ":cpu=0", B0 ":cpu=0", A1 ":cpu=0", B0 ":c=1:cpu=0", NULL };
	int n = make(set, names);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, err);
	on_slot(&set[0], A0 ":cpu=0", 0, MASK_A);
	on_slot(&set[1], B1 ":cpu=0", 1, MASK_B);
	on_slot(&set[2], A0 ":cpu=0", 0, MASK_A);
	on_slot(&set[3], B1 ":c=1:cpu=0", 1, MASK_B);
	CHECK_EQ_U64(set[3].ctl, CTL(0xbbull) | (1ull << 24), "c=1 kept on the moved event");
	unsigned used = 0;
	for (int i = 0; i < n; i++)
		used |= 1u << ctr[i];
	CHECK_EQ_U64(used, 0xf, "four events, four counters");
	/* a fifth event sharing a mask still needs a counter: none left */
	const char *n5[] = { A0 ":cpu=0", B0 ":cpu=0", A1 ":cpu=0", B0 ":c=1:cpu=0", A0 ":e=1:c=1:cpu=0", NULL };
	n = make(set, n5);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_ECONFLICT, "counters exhausted");
	CHECK(strstr(err, "counter") && !strstr(err, "offcore-response mask"), "a counter refusal: %s", err);
}

static void third_mask_refused(void)
{
	pmon_encoding_t set[8];
	int ctr[8];
	char want[64];
	const char *third[] = { C0 ":cpu=0", C1 ":cpu=0" };
	for (int t = 0; t < 2; t++) {
		const char *names[] = { A0 ":cpu=0", B0 ":cpu=0", third[t], NULL };
		int n = make(set, names);
		pmon_encoding_t before = set[2];
		CHECK_EQ_INT(both_ways(set, n, ctr), PMON_ECONFLICT, third[t]);
		CHECK(strstr(err, set[2].name) != NULL, "names the refused event: %s", err);
		snprintf(want, sizeof(want), "0x%llx", (unsigned long long)MASK_C);
		CHECK(strstr(err, want) != NULL, "names its mask %s: %s", want, err);
		snprintf(want, sizeof(want), "MSR_OFFCORE_RSP_0 (MSR 0x1a6) = 0x%llx", (unsigned long long)MASK_A);
		CHECK(strstr(err, want) != NULL, "names RSP_0's mask (%s): %s", want, err);
		snprintf(want, sizeof(want), "MSR_OFFCORE_RSP_1 (MSR 0x1a7) = 0x%llx", (unsigned long long)MASK_B);
		CHECK(strstr(err, want) != NULL, "names RSP_1's mask (%s): %s", want, err);
		CHECK(strstr(err, "CPU 0") != NULL, "names the CPU: %s", err);
		CHECK(!memcmp(&before, &set[2], sizeof(before)), "the refused event is not rewritten");
	}
	/* SNB-EP: the sibling hyperthread (and any other CPU) has its own pair */
	CHECK(m->topo.cpu_core[0] == m->topo.cpu_core[1] &&
	      m->topo.cpu_socket[0] == m->topo.cpu_socket[1], "CPUs 0 and 1 are one core's threads");
	const char *names[] = { A0 ":cpu=0", B0 ":cpu=0", C0 ":cpu=1", "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM:cpu=1",
				C1 ":cpu=2", NULL };
	int n = make(set, names);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, err);
	on_slot(&set[2], C0 ":cpu=1", 0, MASK_C);
	on_slot(&set[3], "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM:cpu=1", 1, MASK_R);
	on_slot(&set[4], C1 ":cpu=2", 1, MASK_C);
}

/* Nehalem: one RSP register per core, shared by its hyperthreads. */
static void nehalem_per_core(void)
{
	pmon_encoding_t set[8];
	int ctr[8];
	const char *share[] = { "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0",
				"nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=1", NULL };
	int n = make(set, share);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, "the same mask on both threads of a core");
	CHECK_EQ_U64(set[1].filt[0], 0x4001, "DMND_DATA_RD | LOCAL_DRAM");
	CHECK_EQ_INT(pmon_rsp_slot(&set[1]), 0, "the only register");
	const char *clash[] = { "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0",
				"nhm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=1", NULL };
	n = make(set, clash);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_ECONFLICT, "another mask on the sibling thread");
	CHECK(strstr(err, "only one") && strstr(err, "hyperthreads") && strstr(err, "0x4001") &&
	      strstr(err, "0x4002"), "says the core has one register, names both masks: %s", err);
	const char *same_cpu[] = { "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0",
				   "nhm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=0", NULL };
	n = make(set, same_cpu);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_ECONFLICT, "another mask on the same CPU");
	const char *other_core[] = { "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0",
				     "nhm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=2", NULL };
	n = make(set, other_core);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, "another core has its own register");
}

/* Westmere: two registers per core, shared by its hyperthreads. */
static void westmere_per_core(void)
{
	pmon_encoding_t set[8];
	int ctr[8];
	const char *names[] = { "wsm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0",
				"wsm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=1",
				"wsm::OFFCORE_RESPONSE_1:DMND_DATA_RD:LOCAL_DRAM:cpu=1", NULL };
	int n = make(set, names);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, err);
	CHECK_EQ_INT(pmon_rsp_slot(&set[1]), 1, "the sibling's second mask takes the core's RSP_1");
	CHECK_EQ_U64(set[1].ctl & 0xff, 0xbb, "event select 0xBB");
	CHECK_EQ_U64(set[1].filt[1], 0x2002, "DMND_RFO | LOCAL_DRAM (Westmere: bit 13)");
	CHECK_EQ_U64(set[1].filt[0], 0, "RSP_0 word cleared");
	CHECK_EQ_INT(pmon_rsp_slot(&set[2]), 0, "the first mask, named on RSP_1, shares RSP_0");
	CHECK_EQ_U64(set[2].ctl & 0xff, 0xb7, "event select 0xB7");
	const char *third[] = { "wsm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0",
				"wsm::OFFCORE_RESPONSE_0:DMND_RFO:LOCAL_DRAM:cpu=1",
				"wsm::OFFCORE_RESPONSE_0:DMND_IFETCH:LOCAL_DRAM:cpu=0", NULL };
	n = make(set, third);
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_ECONFLICT, "a third mask on the core");
	CHECK(strstr(err, "0x2001") && strstr(err, "0x2002") && strstr(err, "0x2004"),
	      "names the three masks: %s", err);
}

/* Uncore events and their filters are not touched. */
static void uncore_untouched(void)
{
	pmon_encoding_t set[8];
	int ctr[8];
	const char *names[] = { A0 ":cpu=0", "snbep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M",
				B0 ":cpu=0", "snbep_unc_cbo0::UNC_C_TOR_INSERTS:NID_MISS_ALL:nf=2", NULL };
	int n = make(set, names);
	pmon_encoding_t u1 = set[1], u3 = set[3];
	CHECK_EQ_INT(both_ways(set, n, ctr), PMON_OK, err);
	CHECK(!memcmp(&u1, &set[1], sizeof(u1)) && !memcmp(&u3, &set[3], sizeof(u3)), "CBo events unchanged");
	CHECK_EQ_INT(pmon_rsp_slot(&set[1]), -1, "a CBo event has no RSP register");
	on_slot(&set[2], B1 ":cpu=0", 1, MASK_B);
}

int main(void)
{
	setenv("PMON_SIM", "clock=manual", 1);
	int rc = pmon_machine_open(&m, "sim", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return check_done("test_rsp_slots");
	second_mask_moves();
	equal_masks_share();
	third_mask_refused();
	nehalem_per_core();
	westmere_per_core();
	uncore_untouched();
	pmon_machine_close(m);
	return check_done("test_rsp_slots");
}
