/*
 * test_tables_ubox_imc.c - the UBox and iMC tables: event counts, codes,
 * counter masks, umask values and flags, PCI locations, and the real
 * encodings of well-known events.  The structural rules every box table
 * obeys are checked by test_tables_structure.c.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "divergences.h"
#include "snbep/snbep.h"
#include "tables_check.h"

/* The UBox events pmon leaves out on purpose are exactly the UBOX rows of
 * the divergence table's "not in the guide" list (doc/divergences.md), each
 * with a reason, and none is also an event of the table. */
static void test_ubox_excluded(void)
{
	const struct pmon_box_type *t = &pmon_snbep_ubox;
	int n = 0;

	CHECK(t->excluded != NULL, "UBox lists its excluded events");
	for (const struct pmon_excluded_event *x = t->excluded; x && x->name; x++, n++) {
		char intel[128];
		snprintf(intel, sizeof(intel), "%s.", x->name);
		CHECK(div_find_not_in_guide("UBOX", intel) >= 0, "%s: a not-in-guide row", x->name);
		CHECK(tc_find_event(t, x->name) == NULL, "%s: excluded, yet an event", x->name);
		CHECK(x->why && tc_one_line(x->why, 200), "%s: one-line reason", x->name);
	}
	for (int i = 0; i < pmon_nnot_in_guide; i++) {
		const struct pmon_not_in_guide *g = &pmon_not_in_guide[i];
		if (strcmp(g->unit, "UBOX") || !g->event)
			continue;
		int found = 0;
		for (const struct pmon_excluded_event *x = t->excluded; x && x->name; x++) {
			size_t len = strlen(x->name);
			found |= !strncmp(g->event, x->name, len) && !strcmp(g->event + len, ".*");
		}
		CHECK(found, "not-in-guide row UBOX/%s: the encoder names it as excluded", g->event);
	}
	CHECK_EQ_INT(n, 4, "UBox excluded events (FILTER_MATCH, MSG_CHNL_SIZE_COUNT, PHOLD_CYCLES, "
		     "RACU_REQUESTS)");
}

static void test_ubox(void)
{
	const struct pmon_box_type *t = &pmon_snbep_ubox;
	const struct pmon_event *e;

	CHECK_EQ_INT(tc_count_events(t), 4, "UBox events");
	CHECK_EQ_INT(t->nfields, 0, "UBox has no filter");
	CHECK_EQ_U64(t->mods[2].max, 31, "UBox threshold is 5 bits");

	e = tc_find_event(t, "UNC_U_CLOCKTICKS");
	CHECK(e && (e->flags & PMON_EV_FIXED) && e->code == 0xff, "UNC_U_CLOCKTICKS is the fixed UCLK counter");

	e = tc_find_event(t, "UNC_U_EVENT_MSG");
	CHECK(e != NULL, "UNC_U_EVENT_MSG");
	if (e) {
		CHECK_EQ_U64(e->code, 0x42, "EVENT_MSG code");
		CHECK_EQ_U64(e->cntmask, 0x3, "EVENT_MSG counters");
		CHECK(e->flags & PMON_EV_NEED_UM, "EVENT_MSG needs a umask (libpfm4)");
		CHECK_EQ_INT(e->numasks, 5, "EVENT_MSG umasks");
		tc_check_umask(e, "VLW_RCVD", 0x01, PMON_UM_EXCL);
		tc_check_umask(e, "MSI_RCVD", 0x02, PMON_UM_EXCL);
		tc_check_umask(e, "IPI_RCVD", 0x04, PMON_UM_EXCL);
		tc_check_umask(e, "DOORBELL_RCVD", 0x08, PMON_UM_EXCL);
		tc_check_umask(e, "INT_PRIO", 0x10, PMON_UM_EXCL);
	}
	e = tc_find_event(t, "UNC_U_LOCK_CYCLES");
	CHECK(e && e->code == 0x44 && e->cntmask == 0x3 && e->numasks == 0, "UNC_U_LOCK_CYCLES");
	e = tc_find_event(t, "UNC_U_U2C_EVENTS");
	CHECK(e && e->code == 0x43 && e->numasks == 8, "UNC_U_U2C_EVENTS");
	if (e)
		tc_check_umask(e, "OTHER", 0x80, 0);

	tc_check_default(t, "UNC_U_LOCK_CYCLES", 0x44, 0);

	/* no UBox event uses the extra select bit: the UBox control has none */
	for (e = t->events; e->name; e++)
		CHECK(e->ext == 0, "%s: UBox has no ev_sel_ext", e->name);
}

static void test_imc(void)
{
	const struct pmon_box_type *t = &pmon_snbep_imc;
	const struct pmon_event *e;

	CHECK_EQ_INT(tc_count_events(t), 25, "iMC events");
	CHECK_EQ_INT(t->nfields, 0, "iMC has no filter");
	CHECK_EQ_U64(t->pci[0].devid, 0x3cb0, "iMC channel 0 device");
	CHECK_EQ_U64(t->pci[3].func, 5, "iMC channel 3 function");

	/* every general iMC event may use all four counters */
	for (e = t->events; e->name; e++)
		if (!(e->flags & PMON_EV_FIXED))
			CHECK_EQ_U64(e->cntmask, 0xf, e->name);

	e = tc_find_event(t, "UNC_M_CLOCKTICKS");
	CHECK(e && (e->flags & PMON_EV_FIXED) && e->code == 0xff, "UNC_M_CLOCKTICKS fixed, 0xff");

	e = tc_find_event(t, "UNC_M_CAS_COUNT");
	CHECK(e != NULL, "UNC_M_CAS_COUNT");
	if (e) {
		CHECK_EQ_U64(e->code, 0x04, "CAS_COUNT code");
		CHECK_EQ_INT(e->numasks, 7, "CAS_COUNT umasks");
		CHECK(!(e->flags & PMON_EV_NEED_UM), "CAS_COUNT has a default");
		tc_check_umask(e, "ALL", 0x0f, PMON_UM_DEFAULT | PMON_UM_EXCL);
		tc_check_umask(e, "RD", 0x03, PMON_UM_EXCL);
		tc_check_umask(e, "WR", 0x0c, PMON_UM_EXCL);
		tc_check_umask(e, "RD_REG", 0x01, PMON_UM_EXCL);
		tc_check_umask(e, "RD_UNDERFILL", 0x02, PMON_UM_EXCL);
		tc_check_umask(e, "WR_WMM", 0x04, PMON_UM_EXCL);
		tc_check_umask(e, "WR_RMM", 0x08, PMON_UM_EXCL);
		/* RD:WR is refused (libpfm4 NCOMBO): every CAS umask shares group 0 */
		for (int u = 0; u < e->numasks; u++)
			CHECK_EQ_INT(e->umasks[u].grp, 0, e->umasks[u].name);
	}
	e = tc_find_event(t, "UNC_M_ACT_COUNT");
	CHECK(e && e->code == 0x01 && e->numasks == 0, "ACT_COUNT");
	e = tc_find_event(t, "UNC_M_PRE_COUNT");
	CHECK(e && e->code == 0x02 && (e->flags & PMON_EV_NEED_UM), "PRE_COUNT");
	if (e) {
		tc_check_umask(e, "PAGE_MISS", 0x01, PMON_UM_EXCL);
		tc_check_umask(e, "PAGE_CLOSE", 0x02, PMON_UM_EXCL);
	}
	e = tc_find_event(t, "UNC_M_MAJOR_MODES");
	CHECK(e && e->code == 0x07 && e->numasks == 4, "MAJOR_MODES (guide event kept)");
	e = tc_find_event(t, "UNC_M_POWER_THROTTLE_CYCLES");
	CHECK(e && e->code == 0x41 && e->numasks == 8, "POWER_THROTTLE_CYCLES");
	if (e) {
		/* the guide's text garbles RANK4-7; the real bits are 0x10..0x80 */
		tc_check_umask(e, "RANK4", 0x10, PMON_UM_EXCL);
		tc_check_umask(e, "RANK5", 0x20, PMON_UM_EXCL);
		tc_check_umask(e, "RANK6", 0x40, PMON_UM_EXCL);
		tc_check_umask(e, "RANK7", 0x80, PMON_UM_EXCL);
	}
	e = tc_find_event(t, "UNC_M_POWER_CKE_CYCLES");
	CHECK(e && e->code == 0x83 && e->numasks == 8, "POWER_CKE_CYCLES");
	e = tc_find_event(t, "UNC_M_RPQ_OCCUPANCY");
	CHECK(e && e->code == 0x80, "RPQ_OCCUPANCY 0x80");
	e = tc_find_event(t, "UNC_M_RPQ_INSERTS");
	CHECK(e && e->code == 0x10, "RPQ_INSERTS 0x10");
	e = tc_find_event(t, "UNC_M_WPQ_OCCUPANCY");
	CHECK(e && e->code == 0x81, "WPQ_OCCUPANCY 0x81");
	e = tc_find_event(t, "UNC_M_WPQ_INSERTS");
	CHECK(e && e->code == 0x20, "WPQ_INSERTS 0x20");
	e = tc_find_event(t, "UNC_M_DRAM_REFRESH");
	CHECK(e && e->code == 0x05, "DRAM_REFRESH");
	if (e) {
		tc_check_umask(e, "PANIC", 0x02, PMON_UM_EXCL);
		tc_check_umask(e, "HIGH", 0x04, PMON_UM_EXCL);
	}
	CHECK(tc_find_event(t, "UNC_M_RPO_INSERTS") == NULL, "guide misprint RPO_ not used");

	/* encodings with defaults only (libpfm4 gives the same ctl) */
	tc_check_default(t, "UNC_M_CAS_COUNT", 0xf04, 0);
	tc_check_default(t, "UNC_M_ACT_COUNT", 0x001, 0);
	tc_check_default(t, "UNC_M_RPQ_OCCUPANCY", 0x080, 0);
	tc_check_default(t, "UNC_M_CLOCKTICKS", 0, 0);
}

int main(void)
{
	test_ubox();
	test_ubox_excluded();
	test_imc();
	return check_done("test_tables_ubox_imc");
}
