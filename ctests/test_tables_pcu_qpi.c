/*
 * test_tables_pcu_qpi.c - structural tests of the PCU and QPI tables:
 * register maps, unique (code, ext) identities, umask values that fit their
 * field, counter masks within the box, filter fields inside their registers,
 * modifiers that resolve unambiguously, and the real codes of the events.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "snbep/snbep.h"

/* ------------------------------------------------------------ generic checks */

static int count_events(const struct pmon_box_type *t)
{
	int n = 0;
	while (t->events[n].name)
		n++;
	return n;
}

static const struct pmon_event *find_event(const struct pmon_box_type *t, const char *name)
{
	for (const struct pmon_event *e = t->events; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

static const struct pmon_umask *find_umask(const struct pmon_event *e, const char *name)
{
	for (int i = 0; e && i < e->numasks; i++)
		if (!strcmp(e->umasks[i].name, name))
			return &e->umasks[i];
	return NULL;
}

static int find_field(const struct pmon_box_type *t, const char *name)
{
	for (int i = 0; i < t->nfields; i++)
		if (!strcmp(t->fields[i].name, name))
			return i;
	return -1;
}

static uint64_t field_mask(const struct pmon_filter_field *f)
{
	uint64_t m = f->width >= 64 ? ~0ull : ((1ull << f->width) - 1);
	return m << f->shift;
}

/* The modifier a name resolves to for an event: the entries of that name
 * enabled by the event's mods bits (or, for filter modifiers, by a field the
 * event needs).  Returns the index, -1 if none, -2 if ambiguous. */
static int resolve_mod(const struct pmon_box_type *t, const struct pmon_event *e, const char *name)
{
	int found = -1;
	for (int i = 0; i < t->nmods; i++) {
		const struct pmon_modifier *m = &t->mods[i];
		if (strcmp(m->name, name))
			continue;
		int on = (e->mods >> i) & 1;
		if (!on && m->kind != PMON_MOD_CTL)
			on = m->field == PMON_FIELD_EVENT ? e->fields != 0 : (int)((e->fields >> m->field) & 1);
		if (!on)
			continue;
		if (found >= 0)
			return -2;
		found = i;
	}
	return found;
}

static int lowest_bit(uint32_t v)
{
	for (int i = 0; i < 32; i++)
		if ((v >> i) & 1)
			return i;
	return -1;
}

static int one_line(const char *s)
{
	return s && *s && !strchr(s, '\n') && strlen(s) <= 120;
}

static void check_box_generic(const struct pmon_box_type *t, const char *prefix)
{
	const char *bn = t->name;
	uint32_t allctr = (1u << t->ncounters) - 1;

	CHECK(t->pmu_prefix && !strncmp(t->pmu_prefix, "snbep_unc_", 10), "%s: pmu prefix", bn);
	CHECK(one_line(t->desc), "%s: box description", bn);
	CHECK(t->width == 44 || t->width == 48, "%s: counter width %d", bn, t->width);
	CHECK(t->has_box_ctl && t->has_rst_ctrs, "%s: box control with rst_ctrs", bn);
	CHECK(!(t->ctl_valid & PMON_CTL_EN), "%s: ctl_valid excludes the enable bit", bn);
	CHECK(!t->has_fixed, "%s: no fixed counter", bn);

	/* modifiers: e, i, t first */
	CHECK(t->nmods >= 3 && !strcmp(t->mods[0].name, "e") && !strcmp(t->mods[1].name, "i") &&
	      !strcmp(t->mods[2].name, "t"), "%s: mods start with e, i, t", bn);
	CHECK_EQ_INT(t->mods[2].width, t->thresh_bits, "threshold modifier width");
	for (int i = 0; i < t->nmods; i++) {
		const struct pmon_modifier *m = &t->mods[i];
		CHECK(one_line(m->desc), "%s: mod %s description", bn, m->name);
		CHECK(m->min <= m->max, "%s: mod %s range", bn, m->name);
		if (m->kind == PMON_MOD_CTL) {
			uint64_t bits = ((1ull << m->width) - 1) << m->shift;
			CHECK((bits & ~(uint64_t)t->ctl_valid) == 0, "%s: mod %s bits 0x%llx outside ctl_valid",
			      bn, m->name, (unsigned long long)bits);
			CHECK_EQ_U64(m->max, (1ull << m->width) - 1, m->name);
		} else {
			CHECK(m->kind == PMON_MOD_FILTER, "%s: mod %s kind", bn, m->name);
			if (m->field != PMON_FIELD_EVENT) {
				CHECK(m->field < t->nfields, "%s: mod %s field index", bn, m->name);
				if (m->field < t->nfields)
					CHECK_EQ_U64(m->max, (1ull << t->fields[m->field].width) - 1, m->name);
			}
		}
	}

	/* filter fields lie in their register's valid bits and do not overlap */
	for (int i = 0; i < t->nfields; i++) {
		const struct pmon_filter_field *f = &t->fields[i];
		int inreg = 0;
		for (int r = 0; r < t->nfregs; r++)
			if (t->fregs[r].word == f->word && (field_mask(f) & ~t->fregs[r].valid) == 0)
				inreg = 1;
		CHECK(inreg, "%s: field %s inside a filter register", bn, f->name);
		for (int j = 0; j < i; j++)
			if (t->fields[j].word == f->word)
				CHECK((field_mask(f) & field_mask(&t->fields[j])) == 0, "%s: fields %s and %s overlap",
				      bn, f->name, t->fields[j].name);
	}

	for (const struct pmon_event *e = t->events; e->name; e++) {
		CHECK(!strncmp(e->name, prefix, strlen(prefix)), "%s: %s has prefix %s", bn, e->name, prefix);
		CHECK(one_line(e->desc), "%s: %s description", bn, e->name);
		CHECK(e->ext <= 1, "%s: %s ext", bn, e->name);
		uint64_t ctl = e->code | ((uint64_t)e->ext << 21);
		CHECK((ctl & ~(uint64_t)t->ctl_valid) == 0, "%s: %s code/ext outside ctl_valid", bn, e->name);
		CHECK(e->cntmask != 0 && (e->cntmask & ~allctr) == 0, "%s: %s cntmask 0x%x within %d counters",
		      bn, e->name, e->cntmask, t->ncounters);
		CHECK((e->fields >> t->nfields) == 0, "%s: %s fields exist", bn, e->name);
		CHECK((e->mods >> t->nmods) == 0, "%s: %s mods exist", bn, e->name);
		CHECK(!(e->flags & (PMON_EV_FIXED | PMON_EV_OFFCORE)), "%s: %s flags", bn, e->name);
		CHECK((e->numasks == 0) == (e->umasks == NULL), "%s: %s umask array/count", bn, e->name);
		if (e->flags & PMON_EV_NEED_UM)
			CHECK(e->numasks > 0, "%s: %s needs a umask but has none", bn, e->name);
		if (e->flags & PMON_EV_OCC)
			CHECK(e->code & 0x80, "%s: occupancy event %s has ev_sel bit 7", bn, e->name);

		/* unique name and identity */
		for (const struct pmon_event *o = t->events; o != e; o++) {
			CHECK(strcasecmp(o->name, e->name) != 0, "%s: duplicate event %s", bn, e->name);
			CHECK(!(o->code == e->code && o->ext == e->ext), "%s: %s and %s share code 0x%x ext %d",
			      bn, o->name, e->name, e->code, e->ext);
		}

		/* every modifier name the event enables resolves to one entry */
		for (int i = 0; i < t->nmods; i++)
			if ((e->mods >> i) & 1)
				CHECK(resolve_mod(t, e, t->mods[i].name) == i, "%s: %s: modifier %s ambiguous",
				      bn, e->name, t->mods[i].name);
		/* PMON_FIELD_EVENT modifiers need exactly one declared field */
		for (int i = 0; i < t->nmods; i++)
			if (((e->mods >> i) & 1) && t->mods[i].kind == PMON_MOD_FILTER &&
			    t->mods[i].field == PMON_FIELD_EVENT)
				CHECK(e->fields && !(e->fields & (e->fields - 1)), "%s: %s: %s needs one field",
				      bn, e->name, t->mods[i].name);

		int ndef0 = 0;
		for (int k = 0; k < e->numasks; k++) {
			const struct pmon_umask *u = &e->umasks[k];
			CHECK(u->name && *u->name, "%s: %s umask %d name", bn, e->name, k);
			CHECK(one_line(u->desc), "%s: %s:%s description", bn, e->name, u->name);
			CHECK(u->value != 0, "%s: %s:%s value non-zero", bn, e->name, u->name);
			uint64_t bits = (e->flags & PMON_EV_OCC) ? u->value << PMON_PCU_OCC_SEL_SHIFT
								 : u->value << PMON_CTL_UMASK_SHIFT;
			uint64_t width = (e->flags & PMON_EV_OCC) ? 0x3 : 0xff;
			CHECK(u->value <= width, "%s: %s:%s value 0x%llx fits its field", bn, e->name, u->name,
			      (unsigned long long)u->value);
			CHECK((bits & ~(uint64_t)t->ctl_valid) == 0, "%s: %s:%s bits inside ctl_valid",
			      bn, e->name, u->name);
			CHECK((u->fields >> t->nfields) == 0, "%s: %s:%s fields exist", bn, e->name, u->name);
			if (u->grp == 0 && (u->flags & PMON_UM_DEFAULT))
				ndef0++;
			for (int j = 0; j < k; j++)
				CHECK(strcasecmp(e->umasks[j].name, u->name) != 0, "%s: %s: duplicate umask %s",
				      bn, e->name, u->name);
		}
		CHECK(ndef0 <= 1, "%s: %s: at most one default", bn, e->name);
		if (e->flags & PMON_EV_NEED_UM)
			CHECK(ndef0 == 0, "%s: %s needs a umask yet has a default", bn, e->name);
	}
}

/* Expected identity of every event: name, code, ext, cntmask. */
struct exp_ev { const char *name; uint8_t code, ext; uint32_t cntmask; };

static void check_event_list(const struct pmon_box_type *t, const struct exp_ev *x, int n)
{
	CHECK_EQ_INT(count_events(t), n, t->name);
	for (int i = 0; i < n; i++) {
		const struct pmon_event *e = find_event(t, x[i].name);
		CHECK(e != NULL, "%s: event %s present", t->name, x[i].name);
		if (!e)
			continue;
		CHECK(e->code == x[i].code && e->ext == x[i].ext, "%s: code 0x%x ext %d, want 0x%x ext %d",
		      x[i].name, e->code, e->ext, x[i].code, x[i].ext);
		CHECK(e->cntmask == x[i].cntmask, "%s: cntmask 0x%x, want 0x%x", x[i].name, e->cntmask, x[i].cntmask);
	}
}

static void check_umask(const struct pmon_box_type *t, const char *ev, const char *um, uint64_t value)
{
	const struct pmon_umask *u = find_umask(find_event(t, ev), um);
	CHECK(u != NULL, "%s:%s present", ev, um);
	if (u)
		CHECK(u->value == value, "%s:%s = 0x%llx, want 0x%llx", ev, um,
		      (unsigned long long)u->value, (unsigned long long)value);
}

/* ------------------------------------------------------------------- PCU */

static const struct exp_ev pcu_expected[] = {
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

	check_box_generic(t, "UNC_P_");
	check_event_list(t, pcu_expected, PMON_ARRAY_SIZE(pcu_expected));

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
	CHECK_EQ_INT(t->nfregs, 1, "pcu filter registers");
	CHECK_EQ_U64(t->fregs[0].msr, 0xc34, "pcu filter msr");
	CHECK_EQ_INT(t->fregs[0].word, 0, "pcu filter word");
	CHECK_EQ_U64(t->fregs[0].valid, 0xffffffffull, "pcu filter valid");

	/* four 8-bit bands */
	CHECK_EQ_INT(t->nfields, 4, "pcu fields");
	for (int n = 0; n < 4; n++) {
		char nm[8];
		snprintf(nm, sizeof nm, "band%d", n);
		int f = find_field(t, nm);
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
	const struct pmon_event *pso = find_event(t, "UNC_P_POWER_STATE_OCCUPANCY");
	CHECK(pso && (pso->flags & PMON_EV_NEED_UM), "POWER_STATE_OCCUPANCY needs a umask");
	CHECK(pso && pso->numasks == 3, "POWER_STATE_OCCUPANCY has 3 selectors");
	check_umask(t, "UNC_P_POWER_STATE_OCCUPANCY", "CORES_C0", 1);
	check_umask(t, "UNC_P_POWER_STATE_OCCUPANCY", "CORES_C3", 2);
	check_umask(t, "UNC_P_POWER_STATE_OCCUPANCY", "CORES_C6", 3);
	for (int k = 0; pso && k < pso->numasks; k++)
		CHECK(pso->umasks[k].flags & PMON_UM_EXCL, "occ_sel values are exclusive");
	if (pso) {
		int ie = resolve_mod(t, pso, "e"), ii = resolve_mod(t, pso, "i"), it = resolve_mod(t, pso, "t");
		CHECK(ie >= 0 && t->mods[ie].shift == 31 && t->mods[ie].width == 1, "occupancy e -> bit 31");
		CHECK(ii >= 0 && t->mods[ii].shift == 30 && t->mods[ii].width == 1, "occupancy i -> bit 30");
		CHECK(it == 2 && t->mods[it].shift == 24 && t->mods[it].width == 5, "occupancy t -> 28:24");
		CHECK(resolve_mod(t, pso, "ff") < 0, "occupancy event takes no ff");
		/* CORES_C0 with t=5, e=1: 0x85004080, as libpfm4 encodes it */
		uint64_t ctl = pso->code | (1ull << PMON_PCU_OCC_SEL_SHIFT) | (5ull << 24) | (1ull << 31);
		CHECK_EQ_U64(ctl, 0x85004080ull, "POWER_STATE_OCCUPANCY:CORES_C0:e=1:t=5");
	}
	const struct pmon_event *clk = find_event(t, "UNC_P_CLOCKTICKS");
	if (clk) {
		int ie = resolve_mod(t, clk, "e"), ii = resolve_mod(t, clk, "i");
		CHECK(ie == 0 && t->mods[ie].shift == 18, "plain e -> bit 18");
		CHECK(ii == 1 && t->mods[ii].shift == 23, "plain i -> bit 23");
		CHECK(resolve_mod(t, clk, "ff") < 0, "CLOCKTICKS takes no ff");
	}

	/* band events: one band each, set with ff (0-255, 100 MHz units) */
	for (int n = 0; n < 4; n++) {
		char nm[32];
		snprintf(nm, sizeof nm, "UNC_P_FREQ_BAND%d_CYCLES", n);
		const struct pmon_event *e = find_event(t, nm);
		CHECK(e != NULL, "%s present", nm);
		if (!e)
			continue;
		CHECK_EQ_U64(e->fields, 1u << n, nm);
		int ff = resolve_mod(t, e, "ff");
		CHECK(ff >= 0 && t->mods[ff].kind == PMON_MOD_FILTER && t->mods[ff].field == PMON_FIELD_EVENT,
		      "%s: ff is the event's band", nm);
		if (ff >= 0)
			CHECK(t->mods[ff].min == 0 && t->mods[ff].max == 255, "ff range 0-255");
	}
	/* FREQ_BAND1_CYCLES:ff=16 -> ctl 0xc, filter 0x1000 (libpfm4's value) */
	const struct pmon_event *b1 = find_event(t, "UNC_P_FREQ_BAND1_CYCLES");
	if (b1 && b1->fields)
		CHECK_EQ_U64(16ull << t->fields[lowest_bit(b1->fields)].shift, 0x1000, "ff=16 on band 1");

	/* demotions: no filter dependency (see the report), no ff */
	for (int c = 0; c < 8; c++) {
		char nm[32];
		snprintf(nm, sizeof nm, "UNC_P_DEMOTIONS_CORE%d", c);
		const struct pmon_event *e = find_event(t, nm);
		CHECK(e && e->fields == 0 && resolve_mod(t, e, "ff") < 0, "%s: no band filter", nm);
	}
}

/* ------------------------------------------------------------------- QPI */

static const struct exp_ev qpi_expected[] = {
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

	check_box_generic(t, "UNC_Q_");
	check_event_list(t, qpi_expected, PMON_ARRAY_SIZE(qpi_expected));

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
			int f = find_field(t, nm);
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
	int mmc = find_field(t, "match_mc"), kmc = find_field(t, "mask_mc"), kop = find_field(t, "mask_opc");
	int mrd = find_field(t, "match_rds"), krd = find_field(t, "mask_rds");
	if (mmc >= 0 && kmc >= 0 && kop >= 0 && mrd >= 0 && krd >= 0) {
		uint64_t match = (0xeull << t->fields[mmc].shift) | (0x8ull << t->fields[mrd].shift);
		uint64_t mask = (0xfull << t->fields[kmc].shift) | (0xfull << t->fields[kop].shift) |
				(0xfull << t->fields[krd].shift);
		CHECK_EQ_U64(match, 0x0008000000001c00ull, "DRS.DataC_M match");
		CHECK_EQ_U64(mask, 0x000f000000001fe0ull, "DRS.DataC_M mask");
	}

	/* the packet filter modifiers belong to CTO_COUNT only */
	const struct pmon_event *cto = find_event(t, "UNC_Q_CTO_COUNT");
	for (const struct pmon_event *e = t->events; e->name; e++) {
		CHECK(e->fields == 0, "%s: no mandatory filter field", e->name);
		for (int k = 3; k < t->nmods; k++) {
			int on = resolve_mod(t, e, t->mods[k].name) == k;
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
		int want = 0;
		for (unsigned i = 0; i < PMON_ARRAY_SIZE(qpi_need_um); i++)
			if (!strcmp(qpi_need_um[i], e->name))
				want = 1;
		CHECK(((e->flags & PMON_EV_NEED_UM) != 0) == want, "%s: NEED_UM", e->name);
		CHECK(want == (e->numasks > 0), "%s: has umasks iff it needs one", e->name);
		for (int k = 0; k < e->numasks; k++)
			CHECK((e->umasks[k].flags & PMON_UM_EXCL) && !(e->umasks[k].flags & PMON_UM_DEFAULT),
			      "%s:%s exclusive, no default", e->name, e->umasks[k].name);
	}

	/* well-known umask values */
	check_umask(t, "UNC_Q_TXL_FLITS_G0", "IDLE", 0x01);
	check_umask(t, "UNC_Q_TXL_FLITS_G0", "DATA", 0x02);
	check_umask(t, "UNC_Q_RXL_FLITS_G0", "NON_DATA", 0x04);
	check_umask(t, "UNC_Q_TXL_FLITS_G1", "SNP", 0x01);
	check_umask(t, "UNC_Q_TXL_FLITS_G1", "HOM", 0x06);
	check_umask(t, "UNC_Q_RXL_FLITS_G1", "DRS_DATA", 0x08);
	check_umask(t, "UNC_Q_RXL_FLITS_G1", "DRS", 0x18);
	check_umask(t, "UNC_Q_RXL_FLITS_G2", "NCB_DATA", 0x04);
	check_umask(t, "UNC_Q_TXL_FLITS_G2", "NCB", 0x0c);
	check_umask(t, "UNC_Q_TXL_FLITS_G2", "NCS", 0x10);
	check_umask(t, "UNC_Q_DIRECT2CORE", "SUCCESS", 0x01);
	check_umask(t, "UNC_Q_DIRECT2CORE", "FAILURE_CREDITS_RBT", 0x08);
	check_umask(t, "UNC_Q_RXL_CREDITS_CONSUMED_VN0", "HOM", 0x08);
	check_umask(t, "UNC_Q_RXL_CREDITS_CONSUMED_VN0", "NDR", 0x20);
	check_umask(t, "UNC_Q_RXL_STALLS", "GV", 0x80);
	check_umask(t, "UNC_Q_RXL_CRC_ERRORS", "NORMAL_OP", 0x02);
	check_umask(t, "UNC_Q_TXL_CRC_NO_CREDITS", "ALMOST_FULL", 0x02);

	/* Linux's named events: drs_data 0x102/0x08, ncb_data 0x103/0x04 */
	const struct pmon_event *g1 = find_event(t, "UNC_Q_RXL_FLITS_G1");
	const struct pmon_event *g2 = find_event(t, "UNC_Q_RXL_FLITS_G2");
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
