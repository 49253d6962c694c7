/*
 * test_tables_pcu_qpi.c - the PCU and QPI tables: register maps, the code,
 * ext and counter mask of every event, filter fields and modifiers (the
 * PCU bands and occupancy bits, the QPI match/mask fields), required umasks
 * and the real umask values.  The structural rules every box table obeys
 * are checked by test_tables_structure.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "snbep/snbep.h"
#include "tables_check.h"

/* ------------------------------------------------------------------- PCU */

static const struct tc_exp_ev pcu_expected[] = {
	{ "UNC_P_CLOCKTICKS", 0x00, 0, 0xf },
	{ "UNC_P_VOLT_TRANS_CYCLES_INCREASE", 0x01, 0, 0xf },
	{ "UNC_P_VOLT_TRANS_CYCLES_DECREASE", 0x02, 0, 0xf },
	{ "UNC_P_VOLT_TRANS_CYCLES_CHANGE", 0x03, 0, 0xf },
	{ "UNC_P_FREQ_MAX_LIMIT_THERMAL_CYCLES", 0x04, 0, 0xf },
	{ "UNC_P_FREQ_MAX_POWER_CYCLES", 0x05, 0, 0xf },
	{ "UNC_P_FREQ_MAX_OS_CYCLES", 0x06, 0, 0xf },
	{ "UNC_P_FREQ_MAX_CURRENT_CYCLES", 0x07, 0, 0xf },
	{ "UNC_P_PROCHOT_INTERNAL_CYCLES", 0x09, 0, 0xf },
	{ "UNC_P_PROCHOT_EXTERNAL_CYCLES", 0x0a, 0, 0xf },
	{ "UNC_P_FREQ_BAND0_CYCLES", 0x0b, 0, 0xf },
	{ "UNC_P_FREQ_BAND1_CYCLES", 0x0c, 0, 0xf },
	{ "UNC_P_FREQ_BAND2_CYCLES", 0x0d, 0, 0xf },
	{ "UNC_P_FREQ_BAND3_CYCLES", 0x0e, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE0", 0x1e, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE1", 0x1f, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE2", 0x20, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE3", 0x21, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE4", 0x22, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE5", 0x23, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE6", 0x24, 0, 0xf },
	{ "UNC_P_DEMOTIONS_CORE7", 0x25, 0, 0xf },
	{ "UNC_P_MEMORY_PHASE_SHEDDING_CYCLES", 0x2f, 0, 0xf },
	{ "UNC_P_VR_HOT_CYCLES", 0x32, 0, 0xf },
	{ "UNC_P_POWER_STATE_OCCUPANCY", 0x80, 0, 0xf },
	{ "UNC_P_FREQ_TRANS_CYCLES", 0x00, 1, 0xf },
	{ "UNC_P_FREQ_MIN_IO_P_CYCLES", 0x01, 1, 0xf },
	{ "UNC_P_FREQ_MIN_PERF_P_CYCLES", 0x02, 1, 0xf },
	{ "UNC_P_CORE0_TRANSITION_CYCLES", 0x03, 1, 0xf },
	{ "UNC_P_CORE1_TRANSITION_CYCLES", 0x04, 1, 0xf },
	{ "UNC_P_CORE2_TRANSITION_CYCLES", 0x05, 1, 0xf },
	{ "UNC_P_CORE3_TRANSITION_CYCLES", 0x06, 1, 0xf },
	{ "UNC_P_CORE4_TRANSITION_CYCLES", 0x07, 1, 0xf },
	{ "UNC_P_CORE5_TRANSITION_CYCLES", 0x08, 1, 0xf },
	{ "UNC_P_CORE6_TRANSITION_CYCLES", 0x09, 1, 0xf },
	{ "UNC_P_CORE7_TRANSITION_CYCLES", 0x0a, 1, 0xf },
	{ "UNC_P_TOTAL_TRANSITION_CYCLES", 0x0b, 1, 0xf },
};

static void test_pcu(void)
{
	const struct pmon_box_type *t = &pmon_snbep_pcu;

	tc_check_event_list(t, pcu_expected, PMON_ARRAY_SIZE(pcu_expected));

	/* register map */
	CHECK(!strcmp(t->name, "pcu") && !strcmp(t->pmu_prefix, "snbep_unc_pcu"), "pcu names");
	CHECK_EQ_INT(t->space, PMON_SPACE_MSR, "pcu space");
	CHECK_EQ_INT(t->max_boxes, 1, "pcu boxes");
	CHECK_EQ_INT(t->ncounters, 4, "pcu counters");
	CHECK_EQ_INT(t->width, 48, "pcu width");
	CHECK_EQ_INT(t->thresh_bits, 5, "pcu threshold bits");
	CHECK_EQ_U64(t->ctl_valid, SNBEP_CTL_PCU, "pcu ctl_valid");
	CHECK_EQ_U64(t->msr_box_ctl, 0xc24, "pcu box ctl");
	CHECK_EQ_U64(t->msr_ctl0, 0xc30, "pcu ctl0");
	CHECK_EQ_U64(t->msr_ctr0, 0xc36, "pcu ctr0");
	CHECK(t->has_box_ctl && t->has_rst_ctrs && !t->has_fixed, "pcu box control with rst_ctrs, "
	      "no fixed counter");
	CHECK_EQ_INT(t->nfregs, 1, "pcu filter registers");
	CHECK_EQ_U64(t->fregs[0].msr, 0xc34, "pcu filter msr");
	CHECK_EQ_INT(t->fregs[0].word, 0, "pcu filter word");
	CHECK_EQ_U64(t->fregs[0].valid, 0xffffffffull, "pcu filter valid");

	/* e, i, t, ff, and the occupancy event's own e and i */
	CHECK_EQ_INT(t->nmods, 6, "pcu modifiers");

	/* four 8-bit bands */
	CHECK_EQ_INT(t->nfields, 4, "pcu fields");
	for (int n = 0; n < 4; n++) {
		char nm[8];
		snprintf(nm, sizeof nm, "band%d", n);
		int f = tc_field_index(t, nm);
		CHECK_EQ_INT(f, n, nm);
		if (f >= 0) {
			CHECK_EQ_INT(t->fields[f].shift, 8 * n, "band shift");
			CHECK_EQ_INT(t->fields[f].width, 8, "band width");
		}
	}

	/* the PCU has no umask field: only the occupancy event has "umasks" */
	for (const struct pmon_event *e = t->events; e->name; e++) {
		int occ = (e->flags & PMON_EV_OCC) != 0;
		CHECK(occ == !strcmp(e->name, "UNC_P_POWER_STATE_OCCUPANCY"), "%s: OCC flag", e->name);
		CHECK(occ == ((e->code & 0x80) != 0), "%s: OCC iff ev_sel bit 7", e->name);
		if (!occ)
			CHECK(e->numasks == 0, "%s: PCU event without occupancy has no umask", e->name);
	}

	/* extra select bit exactly on the 12 events of the guide's table */
	int next = 0;
	for (const struct pmon_event *e = t->events; e->name; e++)
		next += e->ext;
	CHECK_EQ_INT(next, 12, "pcu events with ext");
	for (int c = 0x00; c <= 0x0b; c++) {
		int plain = 0, ext = 0;
		for (const struct pmon_event *e = t->events; e->name; e++)
			if (e->code == c)
				*(e->ext ? &ext : &plain) += 1;
		CHECK(ext == 1 && (plain == 1 || c == 0x08), "pcu code 0x%x exists with ext (and without)", c);
	}

	/* occupancy: occ_sel values, and e/i go to occ_edge/occ_invert */
	const struct pmon_event *pso = tc_find_event(t, "UNC_P_POWER_STATE_OCCUPANCY");
	CHECK(pso && (pso->flags & PMON_EV_NEED_UM), "POWER_STATE_OCCUPANCY needs a umask");
	CHECK(pso && pso->numasks == 3, "POWER_STATE_OCCUPANCY has 3 selectors");
	tc_check_umask_value(t, "UNC_P_POWER_STATE_OCCUPANCY", "CORES_C0", 1);
	tc_check_umask_value(t, "UNC_P_POWER_STATE_OCCUPANCY", "CORES_C3", 2);
	tc_check_umask_value(t, "UNC_P_POWER_STATE_OCCUPANCY", "CORES_C6", 3);
	for (int k = 0; pso && k < pso->numasks; k++)
		CHECK(pso->umasks[k].flags & PMON_UM_EXCL, "occ_sel values are exclusive");
	if (pso) {
		int ie = tc_resolve_mod(t, pso, "e"), ii = tc_resolve_mod(t, pso, "i"), it = tc_resolve_mod(t, pso, "t");
		CHECK(ie >= 0 && t->mods[ie].kind == PMON_MOD_CTL && t->mods[ie].shift == 31 &&
		      t->mods[ie].width == 1, "occupancy e -> bit 31");
		CHECK(ii >= 0 && t->mods[ii].kind == PMON_MOD_CTL && t->mods[ii].shift == 30 &&
		      t->mods[ii].width == 1, "occupancy i -> bit 30");
		CHECK(it == 2 && t->mods[it].shift == 24 && t->mods[it].width == 5, "occupancy t -> 28:24");
		CHECK(tc_resolve_mod(t, pso, "ff") < 0, "occupancy event takes no ff");
		/* CORES_C0 with t=5, e=1: 0x85004080, as libpfm4 encodes it */
		uint64_t ctl = pso->code | (1ull << PMON_PCU_OCC_SEL_SHIFT) | (5ull << 24) | (1ull << 31);
		CHECK_EQ_U64(ctl, 0x85004080ull, "POWER_STATE_OCCUPANCY:CORES_C0:e=1:t=5");
	}
	const struct pmon_event *clk = tc_find_event(t, "UNC_P_CLOCKTICKS");
	if (clk) {
		int ie = tc_resolve_mod(t, clk, "e"), ii = tc_resolve_mod(t, clk, "i");
		CHECK(ie == 0 && t->mods[ie].shift == 18, "plain e -> bit 18");
		CHECK(ii == 1 && t->mods[ii].shift == 23, "plain i -> bit 23");
		CHECK(tc_resolve_mod(t, clk, "ff") < 0, "CLOCKTICKS takes no ff");
	}

	/* band events: one band each, set with ff (0-255, 100 MHz units) */
	for (int n = 0; n < 4; n++) {
		char nm[32];
		snprintf(nm, sizeof nm, "UNC_P_FREQ_BAND%d_CYCLES", n);
		const struct pmon_event *e = tc_find_event(t, nm);
		CHECK(e != NULL, "%s present", nm);
		if (!e)
			continue;
		CHECK_EQ_U64(e->fields, 1u << n, nm);
		int ff = tc_resolve_mod(t, e, "ff");
		CHECK(ff >= 0 && t->mods[ff].kind == PMON_MOD_FILTER && t->mods[ff].field == PMON_FIELD_EVENT,
		      "%s: ff is the event's band", nm);
		if (ff >= 0)
			CHECK(t->mods[ff].min == 0 && t->mods[ff].max == 255, "ff range 0-255");
	}
	/* FREQ_BAND1_CYCLES:ff=16 -> ctl 0xc, filter 0x1000 (libpfm4's value) */
	const struct pmon_event *b1 = tc_find_event(t, "UNC_P_FREQ_BAND1_CYCLES");
	if (b1 && b1->fields)
		CHECK_EQ_U64(16ull << t->fields[tc_lowest_bit(b1->fields)].shift, 0x1000, "ff=16 on band 1");

	/* demotions: no filter dependency (see the report), no ff */
	for (int c = 0; c < 8; c++) {
		char nm[32];
		snprintf(nm, sizeof nm, "UNC_P_DEMOTIONS_CORE%d", c);
		const struct pmon_event *e = tc_find_event(t, nm);
		CHECK(e && e->fields == 0 && tc_resolve_mod(t, e, "ff") < 0, "%s: no band filter", nm);
	}
}

/* ------------------------------------------------------------------- QPI */

static const struct tc_exp_ev qpi_expected[] = {
	{ "UNC_Q_TXL_FLITS_G0", 0x00, 0, 0xf },
	{ "UNC_Q_RXL_FLITS_G0", 0x01, 0, 0xf },
	{ "UNC_Q_TXL_CRC_NO_CREDITS", 0x02, 0, 0xf },
	{ "UNC_Q_RXL_CRC_ERRORS", 0x03, 0, 0xf },
	{ "UNC_Q_TXL_INSERTS", 0x04, 0, 0xf },
	{ "UNC_Q_TXL_BYPASSED", 0x05, 0, 0xf },
	{ "UNC_Q_TXL_CYCLES_NE", 0x06, 0, 0xf },
	{ "UNC_Q_TXL_OCCUPANCY", 0x07, 0, 0xf },
	{ "UNC_Q_RXL_INSERTS", 0x08, 0, 0xf },
	{ "UNC_Q_RXL_BYPASSED", 0x09, 0, 0xf },
	{ "UNC_Q_RXL_CYCLES_NE", 0x0a, 0, 0xf },
	{ "UNC_Q_RXL_OCCUPANCY", 0x0b, 0, 0xf },
	{ "UNC_Q_TXL0_POWER_CYCLES", 0x0c, 0, 0xf },
	{ "UNC_Q_TXL0P_POWER_CYCLES", 0x0d, 0, 0xf },
	{ "UNC_Q_RXL0_POWER_CYCLES", 0x0f, 0, 0xf },
	{ "UNC_Q_RXL0P_POWER_CYCLES", 0x10, 0, 0xf },
	{ "UNC_Q_L1_POWER_CYCLES", 0x12, 0, 0xf },
	{ "UNC_Q_DIRECT2CORE", 0x13, 0, 0xf },
	{ "UNC_Q_CLOCKTICKS", 0x14, 0, 0xf },
	{ "UNC_Q_RXL_STALLS", 0x35, 0, 0xf },
	{ "UNC_Q_TXL_FLITS_G1", 0x00, 1, 0xf },
	{ "UNC_Q_TXL_FLITS_G2", 0x01, 1, 0xf },
	{ "UNC_Q_RXL_FLITS_G1", 0x02, 1, 0xf },
	{ "UNC_Q_RXL_FLITS_G2", 0x03, 1, 0xf },
	{ "UNC_Q_RXL_INSERTS_DRS", 0x09, 1, 0xf },
	{ "UNC_Q_RXL_INSERTS_NCB", 0x0a, 1, 0xf },
	{ "UNC_Q_RXL_INSERTS_NCS", 0x0b, 1, 0xf },
	{ "UNC_Q_RXL_INSERTS_HOM", 0x0c, 1, 0xf },
	{ "UNC_Q_RXL_INSERTS_SNP", 0x0d, 1, 0xf },
	{ "UNC_Q_RXL_INSERTS_NDR", 0x0e, 1, 0xf },
	{ "UNC_Q_RXL_OCCUPANCY_DRS", 0x15, 1, 0xf },
	{ "UNC_Q_RXL_OCCUPANCY_NCB", 0x16, 1, 0xf },
	{ "UNC_Q_RXL_OCCUPANCY_NCS", 0x17, 1, 0xf },
	{ "UNC_Q_RXL_OCCUPANCY_HOM", 0x18, 1, 0xf },
	{ "UNC_Q_RXL_OCCUPANCY_SNP", 0x19, 1, 0xf },
	{ "UNC_Q_RXL_OCCUPANCY_NDR", 0x1a, 1, 0xf },
	{ "UNC_Q_VNA_CREDIT_RETURN_OCCUPANCY", 0x1b, 1, 0xf },
	{ "UNC_Q_VNA_CREDIT_RETURNS", 0x1c, 1, 0xf },
	{ "UNC_Q_RXL_CREDITS_CONSUMED_VNA", 0x1d, 1, 0xf },
	{ "UNC_Q_RXL_CREDITS_CONSUMED_VN0", 0x1e, 1, 0xf },
	{ "UNC_Q_CTO_COUNT", 0x38, 1, 0xf },
};

/* Events libpfm4 refuses without a umask (plus the three from Intel's list). */
static const char *const qpi_need_um[] = {
	"UNC_Q_TXL_FLITS_G0", "UNC_Q_RXL_FLITS_G0", "UNC_Q_TXL_FLITS_G1", "UNC_Q_TXL_FLITS_G2",
	"UNC_Q_RXL_FLITS_G1", "UNC_Q_RXL_FLITS_G2", "UNC_Q_DIRECT2CORE",
	"UNC_Q_RXL_CREDITS_CONSUMED_VN0", "UNC_Q_TXL_CRC_NO_CREDITS", "UNC_Q_RXL_CRC_ERRORS",
	"UNC_Q_RXL_STALLS",
};

static void test_qpi(void)
{
	const struct pmon_box_type *t = &pmon_snbep_qpi;

	tc_check_event_list(t, qpi_expected, PMON_ARRAY_SIZE(qpi_expected));

	CHECK(!strcmp(t->name, "qpi") && !strcmp(t->pmu_prefix, "snbep_unc_qpi"), "qpi names");
	CHECK_EQ_INT(t->space, PMON_SPACE_PCI, "qpi space");
	CHECK_EQ_INT(t->max_boxes, 2, "qpi ports");
	CHECK_EQ_INT(t->ncounters, 4, "qpi counters");
	CHECK_EQ_INT(t->width, 48, "qpi width");
	CHECK_EQ_INT(t->thresh_bits, 8, "qpi threshold bits");
	CHECK_EQ_U64(t->ctl_valid, SNBEP_CTL_QPI, "qpi ctl_valid");
	CHECK(t->pci[0].dev == 8 && t->pci[0].func == 2 && t->pci[0].devid == 0x3c41, "qpi port 0 D8:F2 3c41");
	CHECK(t->pci[1].dev == 9 && t->pci[1].func == 2 && t->pci[1].devid == 0x3c42, "qpi port 1 D9:F2 3c42");
	CHECK(t->pci_extra[0].dev == 8 && t->pci_extra[0].func == 6 && t->pci_extra[0].devid == 0x3c86,
	      "qpi port 0 extra D8:F6 3c86");
	CHECK(t->pci_extra[1].dev == 9 && t->pci_extra[1].func == 6 && t->pci_extra[1].devid == 0x3c96,
	      "qpi port 1 extra D9:F6 3c96");
	CHECK_EQ_U64(t->pci_box_ctl, 0xf4, "qpi box ctl");
	CHECK_EQ_U64(t->pci_ctl0, 0xd8, "qpi ctl0");
	CHECK_EQ_U64(t->pci_ctr0, 0xa0, "qpi ctr0");
	CHECK(t->has_box_ctl && t->has_rst_ctrs && !t->has_fixed, "qpi box control with rst_ctrs, "
	      "no fixed counter");

	/* match (word 0) and mask (word 1) in function 6 */
	CHECK_EQ_INT(t->nfregs, 2, "qpi filter registers");
	for (int r = 0; r < t->nfregs; r++) {
		const struct pmon_filter_reg *f = &t->fregs[r];
		CHECK(f->extra_dev == 1, "qpi %s lives in the extra function", f->name);
		CHECK_EQ_U64(f->valid, 0x000f000f8003fff8ull, "qpi match/mask valid bits");
		if (f->word == 0)
			CHECK(f->lo_off == 0x228 && f->hi_off == 0x22c, "MATCH0/1 at 0x228/0x22c");
		else
			CHECK(f->word == 1 && f->lo_off == 0x238 && f->hi_off == 0x23c, "MASK0/1 at 0x238/0x23c");
	}

	/* sub-fields, Linux's layout: config1/config2 bit ranges */
	static const struct { const char *n; int shift, width; } sub[] = {
		{ "rds", 48, 4 }, { "rnid30", 32, 4 }, { "rnid4", 31, 1 }, { "dnid", 13, 5 },
		{ "mc", 9, 4 }, { "opc", 5, 4 }, { "vnw", 3, 2 },
	};
	CHECK_EQ_INT(t->nfields, 14, "qpi fields");
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < 7; i++) {
			char nm[32];
			snprintf(nm, sizeof nm, "%s_%s", w ? "mask" : "match", sub[i].n);
			int f = tc_field_index(t, nm);
			CHECK(f >= 0, "qpi field %s", nm);
			if (f < 0)
				continue;
			CHECK(t->fields[f].word == w && t->fields[f].shift == sub[i].shift &&
			      t->fields[f].width == sub[i].width, "qpi field %s position", nm);
			/* a modifier of the same name sets it */
			int m = -1;
			for (int k = 0; k < t->nmods; k++)
				if (!strcmp(t->mods[k].name, nm))
					m = k;
			CHECK(m >= 0 && t->mods[m].kind == PMON_MOD_FILTER && t->mods[m].field == f,
			      "qpi modifier %s sets its field", nm);
		}

	/* DRS.DataC_M from the guide's Table 2-92, built from the fields */
	int mmc = tc_field_index(t, "match_mc"), kmc = tc_field_index(t, "mask_mc"), kop = tc_field_index(t, "mask_opc");
	int mrd = tc_field_index(t, "match_rds"), krd = tc_field_index(t, "mask_rds");
	if (mmc >= 0 && kmc >= 0 && kop >= 0 && mrd >= 0 && krd >= 0) {
		uint64_t match = (0xeull << t->fields[mmc].shift) | (0x8ull << t->fields[mrd].shift);
		uint64_t mask = (0xfull << t->fields[kmc].shift) | (0xfull << t->fields[kop].shift) |
				(0xfull << t->fields[krd].shift);
		CHECK_EQ_U64(match, 0x0008000000001c00ull, "DRS.DataC_M match");
		CHECK_EQ_U64(mask, 0x000f000000001fe0ull, "DRS.DataC_M mask");
	}

	/* e, i, t and one modifier per match/mask field */
	CHECK_EQ_INT(t->nmods, 17, "qpi modifiers");

	/* the packet filter modifiers belong to CTO_COUNT only */
	const struct pmon_event *cto = tc_find_event(t, "UNC_Q_CTO_COUNT");
	for (const struct pmon_event *e = t->events; e->name; e++) {
		CHECK(e->fields == 0, "%s: no mandatory filter field", e->name);
		for (int k = 3; k < t->nmods; k++) {
			int on = tc_resolve_mod(t, e, t->mods[k].name) == k;
			CHECK(on == (e == cto), "%s: %s accepted only by CTO_COUNT", e->name, t->mods[k].name);
		}
	}
	CHECK(cto && cto->code == 0x38 && cto->ext == 1 && cto->numasks == 0, "CTO_COUNT is 0x38 with ext");

	/* codes 0x00-0x03 and 0x09-0x0d exist twice; 0x0e only with ext
	 * (RXL_INSERTS_NDR: no plain event uses 0x0e) */
	for (int c = 0x00; c <= 0x0e; c++) {
		int plain = 0, ext = 0;
		for (const struct pmon_event *e = t->events; e->name; e++)
			if (e->code == c)
				*(e->ext ? &ext : &plain) += 1;
		if (c <= 0x03 || (c >= 0x09 && c <= 0x0d))
			CHECK(plain == 1 && ext == 1, "qpi code 0x%x exists with and without ext", c);
		else if (c == 0x0e)
			CHECK(plain == 0 && ext == 1, "qpi code 0x0e exists with ext only");
		else
			CHECK(plain == 1 && ext == 0, "qpi code 0x%x exists without ext only", c);
	}
	int next = 0;
	for (const struct pmon_event *e = t->events; e->name; e++)
		next += e->ext;
	CHECK_EQ_INT(next, 21, "qpi events with ext (the guide's 21)");

	/* NEED_UM exactly where libpfm4 refuses the bare event */
	for (const struct pmon_event *e = t->events; e->name; e++) {
		int want = tc_in_list(qpi_need_um, PMON_ARRAY_SIZE(qpi_need_um), e->name);
		CHECK(((e->flags & PMON_EV_NEED_UM) != 0) == want, "%s: NEED_UM", e->name);
		CHECK(want == (e->numasks > 0), "%s: has umasks iff it needs one", e->name);
		/* the match/mask fields are set by modifiers only, never by a umask */
		for (int k = 0; k < e->numasks; k++) {
			const struct pmon_umask *u = &e->umasks[k];
			CHECK((u->flags & PMON_UM_EXCL) && !(u->flags & PMON_UM_DEFAULT) && u->fields == 0 &&
			      u->filt_set[0] == 0 && u->filt_set[1] == 0, "%s:%s exclusive, no default, no filter",
			      e->name, u->name);
		}
	}

	/* well-known umask values */
	tc_check_umask_value(t, "UNC_Q_TXL_FLITS_G0", "IDLE", 0x01);
	tc_check_umask_value(t, "UNC_Q_TXL_FLITS_G0", "DATA", 0x02);
	tc_check_umask_value(t, "UNC_Q_RXL_FLITS_G0", "NON_DATA", 0x04);
	tc_check_umask_value(t, "UNC_Q_TXL_FLITS_G1", "SNP", 0x01);
	tc_check_umask_value(t, "UNC_Q_TXL_FLITS_G1", "HOM", 0x06);
	tc_check_umask_value(t, "UNC_Q_RXL_FLITS_G1", "DRS_DATA", 0x08);
	tc_check_umask_value(t, "UNC_Q_RXL_FLITS_G1", "DRS", 0x18);
	tc_check_umask_value(t, "UNC_Q_RXL_FLITS_G2", "NCB_DATA", 0x04);
	tc_check_umask_value(t, "UNC_Q_TXL_FLITS_G2", "NCB", 0x0c);
	tc_check_umask_value(t, "UNC_Q_TXL_FLITS_G2", "NCS", 0x10);
	tc_check_umask_value(t, "UNC_Q_DIRECT2CORE", "SUCCESS", 0x01);
	tc_check_umask_value(t, "UNC_Q_DIRECT2CORE", "FAILURE_CREDITS_RBT", 0x08);
	tc_check_umask_value(t, "UNC_Q_RXL_CREDITS_CONSUMED_VN0", "HOM", 0x08);
	tc_check_umask_value(t, "UNC_Q_RXL_CREDITS_CONSUMED_VN0", "NDR", 0x20);
	tc_check_umask_value(t, "UNC_Q_RXL_STALLS", "GV", 0x80);
	tc_check_umask_value(t, "UNC_Q_RXL_CRC_ERRORS", "NORMAL_OP", 0x02);
	tc_check_umask_value(t, "UNC_Q_TXL_CRC_NO_CREDITS", "ALMOST_FULL", 0x02);

	/* Linux's named events: drs_data 0x102/0x08, ncb_data 0x103/0x04 */
	const struct pmon_event *g1 = tc_find_event(t, "UNC_Q_RXL_FLITS_G1");
	const struct pmon_event *g2 = tc_find_event(t, "UNC_Q_RXL_FLITS_G2");
	CHECK(g1 && (g1->code | g1->ext << 8) == 0x102, "RXL_FLITS_G1 is perf event 0x102");
	CHECK(g2 && (g2->code | g2->ext << 8) == 0x103, "RXL_FLITS_G2 is perf event 0x103");
	/* guide worked values: RxL_FLITS_G1.DRS_DATA = 0x0060_0802 with en */
	if (g1)
		CHECK_EQ_U64(g1->code | (uint64_t)g1->ext << 21 | 0x08u << 8 | PMON_CTL_EN, 0x00600802ull,
			     "RxL_FLITS_G1.DRS_DATA control");
}

int main(void)
{
	test_pcu();
	test_qpi();
	return check_done("test_tables_pcu_qpi");
}
