/*
 * test_tables_cbo_ha.c - the CBo and HA tables: register maps, the filter
 * registers, fields and modifiers, the counter constraints, and the real
 * encodings of well-known events and umasks.  The structural rules every
 * box table obeys are checked by test_tables_structure.c.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "snbep/snbep.h"
#include "tables_check.h"

/* Linux's snbep_uncore_cbox_constraints (event code -> counter mask);
 * codes it does not list may use every counter. */
static uint32_t linux_cbo_constraint(unsigned code)
{
	switch (code) {
	case 0x01: case 0x11: case 0x36: case 0x3b: return 0x1;
	case 0x02: case 0x04: case 0x05: case 0x07: case 0x09:
	case 0x12: case 0x13: case 0x21: case 0x23:
	case 0x31: case 0x32: case 0x33: case 0x34: case 0x35:
	case 0x37: case 0x38: case 0x39: return 0x3;
	case 0x1b: case 0x1c: case 0x1d: case 0x1e: return 0xc;
	case 0x1f: return 0xe;
	default: return 0xf;
	}
}

static void test_cbo(void)
{
	const struct pmon_box_type *t = &pmon_snbep_cbo;
	const struct pmon_event *e;
	const struct pmon_umask *m;
	int tid = tc_field_index(t, "tid"), nid = tc_field_index(t, "nid");
	int state = tc_field_index(t, "state"), opc = tc_field_index(t, "opc");
	int tf = tc_mod_index(t, "tf"), cf = tc_mod_index(t, "cf"), nf = tc_mod_index(t, "nf");

	CHECK_EQ_INT(tc_count_events(t), 25, "CBo events (22 libpfm4/guide + 3 Intel-only)");

	/* register map */
	CHECK_EQ_U64(t->space, PMON_SPACE_MSR, "CBo in MSR space");
	CHECK_EQ_INT(t->max_boxes, 8, "up to 8 CBos");
	CHECK_EQ_INT(t->ncounters, 4, "CBo counters");
	CHECK_EQ_INT(t->width, 44, "CBo counter width");
	CHECK_EQ_U64(t->msr_box_ctl, 0xd04, "CBo box ctl");
	CHECK_EQ_U64(t->msr_ctl0, 0xd10, "CBo ctl0");
	CHECK_EQ_U64(t->msr_ctr0, 0xd16, "CBo ctr0");
	CHECK_EQ_U64(t->msr_stride, 0x20, "CBo stride");
	CHECK_EQ_U64(t->ctl_valid & PMON_CTL_TID_EN, PMON_CTL_TID_EN, "tid_en writable");
	CHECK(t->has_box_ctl && t->has_rst_ctrs && !t->has_fixed, "CBo box control, no fixed counter");
	CHECK_EQ_INT(t->nfregs, 1, "one CBo filter");
	CHECK_EQ_U64(t->fregs[0].msr, 0xd14, "filter MSR");
	CHECK_EQ_U64(t->fregs[0].word, 0, "filter word");
	CHECK_EQ_U64(t->fregs[0].valid, 0xfffffc1f, "filter valid bits");

	/* fields: order is relied upon by cbo_events.c */
	CHECK(tid == 0 && nid == 1 && state == 2 && opc == 3, "CBo field order tid nid state opc");
	if (tid == 0 && nid == 1 && state == 2 && opc == 3) {
		CHECK(t->fields[tid].shift == 0 && t->fields[tid].width == 5, "tid 4:0");
		CHECK(t->fields[nid].shift == 10 && t->fields[nid].width == 8, "nid 17:10");
		CHECK(t->fields[state].shift == 18 && t->fields[state].width == 5, "state 22:18");
		CHECK(t->fields[opc].shift == 23 && t->fields[opc].width == 9, "opc 31:23");
	}

	/* modifiers: order is relied upon by cbo_events.c (tf = bit 3, cf = bit 4) */
	CHECK(tf == 3 && cf == 4 && nf == 5, "CBo modifier order e i t tf cf nf");
	if (tf == 3 && cf == 4 && nf == 5) {
		const struct pmon_modifier *M;
		M = &t->mods[tf];
		CHECK(M->kind == PMON_MOD_FILTER && M->field == tid && M->shift == 0 && M->width == 1 &&
		      M->min == 0 && M->max == 1 && M->ctl_also == PMON_CTL_TID_EN, "tf: tid bit 0, 0-1, tid_en");
		M = &t->mods[cf];
		CHECK(M->kind == PMON_MOD_FILTER && M->field == tid && M->shift == 1 && M->width == 4 &&
		      M->min == 0 && M->max == 15 && M->ctl_also == PMON_CTL_TID_EN, "cf: tid bits 4:1, 0-15, tid_en");
		M = &t->mods[nf];
		CHECK(M->kind == PMON_MOD_FILTER && M->field == nid && M->min == 1 && M->max == 255 &&
		      M->ctl_also == 0, "nf: nid mask 1-255");
		CHECK_EQ_U64(t->mods[2].max, 255, "CBo threshold is 8 bits");
	}

	for (e = t->events; e->name; e++) {
		/* nf is never listed in mods: accepted only where a umask needs nid */
		if (nf >= 0)
			CHECK(!(e->mods & (1u << nf)), "%s: nf must come from a NID umask", e->name);
		if (strcmp(e->name, "UNC_C_CLOCKTICKS") && tf >= 0 && cf >= 0)
			CHECK((e->mods & (3u << tf)) == (3u << tf), "%s: tf/cf accepted", e->name);
		CHECK_EQ_U64(e->ext, 0, e->name);
		/* counter constraints: the Linux table, which the guide agrees with */
		CHECK_EQ_U64(e->cntmask, (e->code == 0x03 || e->code == 0x06 || e->code == 0x14) ?
			     0x3 : linux_cbo_constraint(e->code), e->name);
		/* every NID umask needs the nid field, every OPC umask the opc field */
		for (int u = 0; u < e->numasks; u++) {
			m = &e->umasks[u];
			if (!strncmp(m->name, "NID", 3))
				CHECK((m->fields & (1u << nid)) && (m->value & 0x40), "%s:%s: NID bit 0x40 "
				      "and nid field", e->name, m->name);
			if (!strncmp(m->name, "OPC_", 4))
				CHECK(m->value == 0 && m->grp == 1 && (m->flags & PMON_UM_EXCL) &&
				      m->fields == (1u << opc) && m->filt_set[0] >= (0x180ull << 23) &&
				      m->filt_set[0] <= (0x1e6ull << 23), "%s:%s: opcode umask", e->name, m->name);
			if (!strncmp(m->name, "STATE_", 6))
				CHECK(m->value == 0 && m->grp == 2 && m->fields == (1u << state),
				      "%s:%s: state umask", e->name, m->name);
			if (strstr(m->name, "OPCODE"))
				CHECK(m->fields & (1u << opc), "%s:%s: opcode sub-event needs opc", e->name, m->name);
		}
	}

	/* LLC_LOOKUP: three groups, the state filter always needed */
	e = tc_find_event(t, "UNC_C_LLC_LOOKUP");
	CHECK(e != NULL, "LLC_LOOKUP");
	if (e) {
		CHECK_EQ_U64(e->code, 0x34, "LLC_LOOKUP code");
		CHECK_EQ_U64(e->cntmask, 0x3, "LLC_LOOKUP counters 0-1");
		CHECK_EQ_U64(e->fields, 1u << state, "LLC_LOOKUP needs the state field");
		CHECK(!(e->flags & PMON_EV_NEED_UM), "LLC_LOOKUP has defaults");
		CHECK_EQ_INT(e->numasks, 11, "LLC_LOOKUP umasks");
		tc_check_umask(e, "DATA_READ", 0x03, PMON_UM_DEFAULT | PMON_UM_EXCL);
		tc_check_umask(e, "WRITE", 0x05, PMON_UM_EXCL);
		tc_check_umask(e, "REMOTE_SNOOP", 0x09, PMON_UM_EXCL);
		tc_check_umask(e, "ANY", 0x1f, PMON_UM_EXCL);
		tc_check_umask(e, "NID", 0x41, PMON_UM_EXCL);
		CHECK((m = tc_find_umask(e, "NID")) && m->grp == 1, "NID in its own group (ORs with DATA_READ)");
		CHECK((m = tc_find_umask(e, "STATE_MESIF")) && m->filt_set[0] == 0x7c0000 &&
		      m->flags == (PMON_UM_DEFAULT | PMON_UM_EXCL), "STATE_MESIF default, 0x1f<<18");
		CHECK((m = tc_find_umask(e, "STATE_I")) && m->filt_set[0] == 0x40000 && m->flags == 0, "STATE_I");
		CHECK((m = tc_find_umask(e, "STATE_M")) && m->filt_set[0] == 0x200000 && m->flags == 0, "STATE_M");
		CHECK((m = tc_find_umask(e, "STATE_F")) && m->filt_set[0] == 0x400000 && m->flags == 0, "STATE_F");
		/* every request-type umask sets umask bit 0, as the guide requires */
		for (int u = 0; u < e->numasks; u++)
			if (e->umasks[u].grp < 2)
				CHECK(e->umasks[u].value & 1, "LLC_LOOKUP:%s has umask bit 0", e->umasks[u].name);
	}
	/* libpfm4 / validate_x86.c: LLC_LOOKUP:DATA_READ -> 0x334 / 0x7c0000 */
	tc_check_default(t, "UNC_C_LLC_LOOKUP", 0x334, 0x7c0000);
	tc_check_default(t, "UNC_C_TOR_OCCUPANCY", 0x836, 0);
	tc_check_default(t, "UNC_C_RING_IV_USED", 0xf1e, 0);
	tc_check_default(t, "UNC_C_RXR_IRQ_RETRY", 0x132, 0);
	tc_check_default(t, "UNC_C_CLOCKTICKS", 0x000, 0);

	e = tc_find_event(t, "UNC_C_LLC_VICTIMS");
	CHECK(e && e->code == 0x37 && (e->flags & PMON_EV_NEED_UM), "LLC_VICTIMS");
	if (e) {
		tc_check_umask(e, "M_STATE", 0x01, 0);
		tc_check_umask(e, "E_STATE", 0x02, 0);
		tc_check_umask(e, "S_STATE", 0x04, 0);
		tc_check_umask(e, "MISS", 0x08, 0);
		tc_check_umask(e, "NID", 0x40, PMON_UM_EXCL);   /* the guide's text garbles it to 0x20 */
	}

	e = tc_find_event(t, "UNC_C_TOR_INSERTS");
	CHECK(e && e->code == 0x35 && (e->flags & PMON_EV_NEED_UM) && e->numasks == 30, "TOR_INSERTS");
	if (e) {
		tc_check_umask(e, "OPCODE", 0x01, PMON_UM_EXCL);
		tc_check_umask(e, "MISS_OPCODE", 0x03, PMON_UM_EXCL);
		tc_check_umask(e, "EVICTION", 0x04, PMON_UM_EXCL);
		tc_check_umask(e, "MISS_ALL", 0x0a, PMON_UM_EXCL);
		tc_check_umask(e, "WB", 0x10, PMON_UM_EXCL);
		tc_check_umask(e, "NID_OPCODE", 0x41, PMON_UM_EXCL);
		tc_check_umask(e, "NID_MISS_OPCODE", 0x43, PMON_UM_EXCL);
		tc_check_umask(e, "NID_WB", 0x50, PMON_UM_EXCL);
		for (int u = 0; u < e->numasks; u++)
			CHECK_EQ_INT(e->umasks[u].grp, strncmp(e->umasks[u].name, "OPC_", 4) ? 0 : 1,
				     e->umasks[u].name);
	}
	CHECK((m = tc_umask_of(t, "UNC_C_TOR_INSERTS", "OPC_DRD")) && m->filt_set[0] == 0xc1000000ull,
	      "OPC_DRD = 0x182 << 23");
	CHECK((m = tc_umask_of(t, "UNC_C_TOR_INSERTS", "OPC_RFO")) && m->filt_set[0] == 0xc0000000ull,
	      "OPC_RFO = 0x180 << 23");
	CHECK((m = tc_umask_of(t, "UNC_C_TOR_INSERTS", "OPC_PCIITOM")) && m->filt_set[0] == (0x19cull << 23),
	      "OPC_PCIITOM = 0x19c << 23");
	CHECK((m = tc_umask_of(t, "UNC_C_TOR_OCCUPANCY", "OPC_PCINSWRF")) && m->filt_set[0] == (0x1e6ull << 23),
	      "OPC_PCINSWRF = 0x1e6 << 23");
	CHECK((m = tc_umask_of(t, "UNC_C_TOR_INSERTS", "NID_MISS_OPCODE")) && m->fields == ((1u << nid) | (1u << opc)),
	      "NID_MISS_OPCODE needs nid and opc");
	CHECK((m = tc_umask_of(t, "UNC_C_TOR_OCCUPANCY", "ALL")) && m->value == 0x08 &&
	      m->flags == (PMON_UM_DEFAULT | PMON_UM_EXCL), "TOR_OCCUPANCY:ALL default");
	CHECK(tc_umask_of(t, "UNC_C_TOR_OCCUPANCY", "WB") == NULL, "no WB sub-event for TOR occupancy");

	e = tc_find_event(t, "UNC_C_TOR_OCCUPANCY");
	CHECK(e && e->cntmask == 0x1 && e->numasks == 29, "TOR_OCCUPANCY on counter 0");
	e = tc_find_event(t, "UNC_C_RXR_OCCUPANCY");
	CHECK(e && e->code == 0x11 && e->cntmask == 0x1, "RXR_OCCUPANCY on counter 0");
	e = tc_find_event(t, "UNC_C_COUNTER0_OCCUPANCY");
	CHECK(e && e->code == 0x1f && e->cntmask == 0xe, "COUNTER0_OCCUPANCY on counters 1-3");
	e = tc_find_event(t, "UNC_C_RING_BL_USED");
	CHECK(e && e->code == 0x1d && e->cntmask == 0xc, "RING_BL_USED on counters 2-3");
	e = tc_find_event(t, "UNC_C_TXR_INSERTS");
	CHECK(e && e->code == 0x02 && e->numasks == 7, "TXR_INSERTS");
	if (e)
		tc_check_umask(e, "BL_CORE", 0x40, PMON_UM_EXCL);
	CHECK((m = tc_umask_of(t, "UNC_C_RXR_ISMQ_RETRY", "IIO_CREDITS")) && m->value == 0x20, "ISMQ IIO_CREDITS");
	CHECK((m = tc_umask_of(t, "UNC_C_RXR_INSERTS", "VFIFO")) && m->value == 0x10, "RXR_INSERTS:VFIFO");
	CHECK(tc_find_event(t, "UNC_C_RXR_INT_STARVED") && tc_find_event(t, "UNC_C_TXR_STARVED") &&
	      tc_find_event(t, "UNC_C_RING_SINK_STARVED"), "Intel-only CBo events present");
}

static void test_ha(void)
{
	const struct pmon_box_type *t = &pmon_snbep_ha;
	const struct pmon_event *e;
	const struct pmon_umask *m;
	int addr = tc_field_index(t, "addr"), opc = tc_field_index(t, "opc");
	int maddr = tc_mod_index(t, "addr"), mopc = tc_mod_index(t, "opc");

	CHECK_EQ_INT(tc_count_events(t), 38, "HA events (22 libpfm4 + ADDR_OPC_MATCH + 15 Intel-only)");

	/* register map */
	CHECK_EQ_U64(t->space, PMON_SPACE_PCI, "HA in PCI space");
	CHECK(t->pci[0].dev == 14 && t->pci[0].func == 1 && t->pci[0].devid == 0x3c46, "HA at D14:F1, 8086:3c46");
	CHECK_EQ_INT(t->max_boxes, 1, "one HA");
	CHECK_EQ_INT(t->ncounters, 4, "HA counters");
	CHECK_EQ_INT(t->width, 48, "HA counter width");
	CHECK(t->has_box_ctl && !t->has_rst_ctrs && !t->has_fixed, "HA box ctl without reset bits");
	CHECK(t->pci_box_ctl == 0xf4 && t->pci_ctl0 == 0xd8 && t->pci_ctr0 == 0xa0, "HA offsets");
	CHECK_EQ_U64(t->ctl_valid & PMON_CTL_RST, 0, "no per-counter reset on the HA");

	/* match registers */
	CHECK_EQ_INT(t->nfregs, 2, "HA match registers");
	if (t->nfregs == 2) {
		CHECK(t->fregs[0].word == 0 && t->fregs[0].lo_off == 0x40 && t->fregs[0].hi_off == 0x44 &&
		      t->fregs[0].valid == 0x3fffffffffc0ull, "ADDRMATCH0/1 as word 0, PA[45:6]");
		CHECK(t->fregs[1].word == 1 && t->fregs[1].lo_off == 0x48 && t->fregs[1].hi_off == 0 &&
		      t->fregs[1].valid == 0x3f, "OPCODEMATCH as word 1, 6 bits");
	}
	CHECK(addr == 0 && opc == 1, "HA field order addr opc");
	if (addr == 0 && opc == 1) {
		CHECK(t->fields[addr].word == 0 && t->fields[addr].shift == 6 && t->fields[addr].width == 40,
		      "addr field PA[45:6]");
		CHECK(t->fields[opc].word == 1 && t->fields[opc].shift == 0 && t->fields[opc].width == 6,
		      "opc field 5:0");
	}
	CHECK(maddr == 3 && mopc == 4, "HA modifier order e i t addr opc");
	if (maddr >= 0 && mopc >= 0) {
		/* the HA compares PA[45:12] (guide L1617): 4 KiB pages up to PA[45] */
		CHECK(t->mods[maddr].kind == PMON_MOD_ADDR && t->mods[maddr].field == addr &&
		      t->mods[maddr].shift == 12 && t->mods[maddr].max == 0x3ffffffff000ull,
		      "addr: a 4 KiB page address up to PA[45]");
		CHECK(strstr(t->mods[maddr].desc, "4 KiB page") && strstr(t->mods[maddr].desc, "PA[45:12]") &&
		      !strstr(t->mods[maddr].desc, "PA[45:6]"), "addr help: one granularity, 4 KiB");
		CHECK(t->mods[mopc].kind == PMON_MOD_FILTER && t->mods[mopc].field == opc &&
		      t->mods[mopc].max == 63, "opc: 0-63");
	}

	for (e = t->events; e->name; e++) {
		int is_match = !strcmp(e->name, "UNC_H_ADDR_OPC_MATCH");
		CHECK_EQ_U64(e->cntmask, 0xf, e->name);
		CHECK_EQ_U64(e->ext, 0, e->name);
		CHECK_EQ_U64(e->mods, PMON_M_STD, e->name);
		/* only ADDR_OPC_MATCH needs (and so accepts) addr= and opc= */
		CHECK(is_match ? e->fields == 3u : e->fields == 0, "%s: match fields", e->name);
		for (int u = 0; u < e->numasks; u++)
			CHECK(e->umasks[u].fields == 0 && e->umasks[u].filt_set[0] == 0 &&
			      e->umasks[u].filt_set[1] == 0, "%s:%s sets no filter", e->name, e->umasks[u].name);
	}

	e = tc_find_event(t, "UNC_H_ADDR_OPC_MATCH");
	CHECK(e && e->code == 0x20 && e->numasks == 1, "ADDR_OPC_MATCH 0x20");
	if (e)
		tc_check_umask(e, "FILT", 0x03, PMON_UM_DEFAULT | PMON_UM_EXCL);
	tc_check_default(t, "UNC_H_ADDR_OPC_MATCH", 0x320, 0);

	e = tc_find_event(t, "UNC_H_REQUESTS");
	CHECK(e && e->code == 0x01 && (e->flags & PMON_EV_NEED_UM), "REQUESTS");
	if (e) {
		tc_check_umask(e, "READS", 0x03, PMON_UM_EXCL);
		tc_check_umask(e, "WRITES", 0x0c, PMON_UM_EXCL);
	}
	tc_check_default(t, "UNC_H_IMC_WRITES", 0xf1a, 0);
	tc_check_default(t, "UNC_H_DIRECTORY_UPDATE", 0x30d, 0);
	tc_check_default(t, "UNC_H_TRACKER_INSERTS", 0x306, 0);
	tc_check_default(t, "UNC_H_TXR_BL_CYCLES_FULL", 0x336, 0);
	tc_check_default(t, "UNC_H_CLOCKTICKS", 0x000, 0);
	tc_check_default(t, "UNC_H_TXR_AK_NDR", 0x00e, 0);
	CHECK((m = tc_umask_of(t, "UNC_H_TAD_REQUESTS_G0", "REGION7")) && m->value == 0x80, "TAD REGION7");
	CHECK((m = tc_umask_of(t, "UNC_H_TAD_REQUESTS_G1", "REGION11")) && m->value == 0x08, "TAD REGION11");
	CHECK((m = tc_umask_of(t, "UNC_H_TXR_BL", "DRS_QPI")) && m->value == 0x04, "TXR_BL:DRS_QPI");
	CHECK((m = tc_umask_of(t, "UNC_H_WPQ_CYCLES_NO_REG_CREDITS", "CHN3")) && m->value == 0x08, "WPQ CHN3");
	CHECK((e = tc_find_event(t, "UNC_H_RPQ_CYCLES_NO_REG_CREDITS")) && e->code == 0x15, "RPQ no-credit 0x15");
	CHECK(tc_find_event(t, "UNC_H_RPO_CYCLES_NO_REG_CREDITS") == NULL, "guide misprint RPO_ not used");
	CHECK((e = tc_find_event(t, "UNC_H_TXR_BL_OCCUPANCY")) && e->code == 0x34, "Intel-only TXR_BL_OCCUPANCY");
}

int main(void)
{
	test_cbo();
	test_ha();
	return check_done("test_tables_cbo_ha");
}
