/*
 * test_tables_structure.c - the structural rules every box table obeys,
 * checked for every box type of pmon_snbep_boxes[] and pmon_core_boxes[]
 * (a box added to either list is checked without further ado):
 * names, descriptions, unique event identities and umask names, counter
 * masks within the box, filter fields inside their registers, modifiers that
 * fit their control bits or fields and resolve unambiguously, umask values
 * that fit where they go, and consistent umask groups and defaults.
 *
 * The known values of particular boxes are checked by test_tables_<boxes>.c.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "catalog.h"
#include "snbep/snbep.h"
#include "tables_check.h"

/* What differs between box types and cannot be read from the tables: the
 * prefix of the event names, and the longest description of an event or
 * umask (the PCU, QPI, R2PCIe and R3QPI tables keep theirs within 120
 * characters; the others have some of up to 165).  Box type descriptions and
 * modifier descriptions are held to 120 characters everywhere. */
static const struct box_rules {
	const char *name;
	const char *event_prefix;
	int desc_max;
} box_rules[] = {
	{ "cbo", "UNC_C_", 199 },
	{ "ha", "UNC_H_", 199 },
	{ "imc", "UNC_M_", 199 },
	{ "ubox", "UNC_U_", 199 },
	{ "pcu", "UNC_P_", 120 },
	{ "qpi", "UNC_Q_", 120 },
	{ "r2pcie", "UNC_R2_", 120 },
	{ "r3qpi", "UNC_R3_", 120 },
	{ "core", "OFFCORE_RESPONSE_", 120 },   /* every core-PMU (offcore) box type */
};

/* Events with umasks but neither a default nor PMON_EV_NEED_UM: libpfm4
 * accepts them bare (umask 0), and their umasks are optional refinements
 * inferred from related events. */
static const char *const bare_ok[] = {
	"UNC_R2_TXR_INSERTS",
	"UNC_R3_TXR_CYCLES_NE", "UNC_R3_TXR_INSERTS", "UNC_R3_TXR_CYCLES_FULL", "UNC_R3_TXR_NACK",
};

#define BOX_DESC_MAX 120
#define MOD_DESC_MAX 120

static uint64_t ones(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static int has_occ_event(const struct pmon_box_type *t)
{
	for (const struct pmon_event *e = t->events; e->name; e++)
		if (e->flags & PMON_EV_OCC)
			return 1;
	return 0;
}

static void check_modifiers(const struct pmon_box_type *t)
{
	const char *bn = t->pmu_prefix;
	/* uncore: e, i, t (threshold); core PMU: e, i, c (counter mask), then t (AnyThread) */
	const char *thresh = t->space == PMON_SPACE_CORE ? "c" : "t";
	int occ = has_occ_event(t);

	CHECK(t->nmods >= 3 && !strcmp(t->mods[0].name, "e") && !strcmp(t->mods[1].name, "i") &&
	      !strcmp(t->mods[2].name, thresh), "%s: mods must start with e, i, %s", bn, thresh);
	if (t->nmods >= 3)
		CHECK_EQ_INT(t->mods[2].width, t->thresh_bits, "threshold modifier width");
	/* A name twice only for the PCU's occupancy edge/invert bits (an
	 * occupancy event enables one entry, every other event the other one:
	 * checked per event below). */
	for (int i = 0; i < t->nmods; i++)
		for (int j = i + 1; j < t->nmods; j++)
			CHECK(strcmp(t->mods[i].name, t->mods[j].name) || occ, "%s: modifier %s twice",
			      bn, t->mods[i].name);

	for (int i = 0; i < t->nmods; i++) {
		const struct pmon_modifier *M = &t->mods[i];
		CHECK(tc_one_line(M->desc, MOD_DESC_MAX), "%s: modifier %s description", bn, M->name);
		CHECK(M->min <= M->max, "%s: modifier %s range", bn, M->name);
		CHECK((M->ctl_also & ~t->ctl_valid) == 0, "%s: modifier %s sets control bits 0x%x outside "
		      "ctl_valid", bn, M->name, M->ctl_also);
		if (M->kind == PMON_MOD_CTL) {
			uint64_t bits = ones(M->width) << M->shift;
			CHECK(M->width > 0 && M->shift + M->width <= 32 && (bits & ~(uint64_t)t->ctl_valid) == 0,
			      "%s: modifier %s bits outside the control bits", bn, M->name);
			CHECK_EQ_U64(M->max, ones(M->width), M->name);
			continue;
		}
		CHECK(M->kind == PMON_MOD_FILTER || M->kind == PMON_MOD_ADDR, "%s: modifier %s kind %d",
		      bn, M->name, M->kind);
		CHECK((M->field == PMON_FIELD_EVENT && M->kind == PMON_MOD_FILTER) || M->field < t->nfields,
		      "%s: modifier %s names a missing field", bn, M->name);
		if (M->field >= t->nfields)
			continue;
		const struct pmon_filter_field *F = &t->fields[M->field];
		if (M->kind == PMON_MOD_ADDR) {
			/* an address: the hardware compares bits M->shift up to the
			 * field's top; no other bit may be set */
			CHECK(M->shift >= F->shift && M->shift < F->shift + F->width,
			      "%s: modifier %s compares from bit %u, outside field %s", bn, M->name,
			      M->shift, F->name);
			CHECK_EQ_U64(M->max, ones(F->shift + F->width) & ~ones(M->shift), M->name);
		} else {
			unsigned w = M->width ? M->width : F->width;
			CHECK(M->shift + w <= F->width, "%s: modifier %s does not fit field %s", bn, M->name,
			      F->name);
			CHECK_EQ_U64(M->max, ones(w), M->name);
		}
	}
}

static void check_fields(const struct pmon_box_type *t)
{
	const char *bn = t->pmu_prefix;

	for (int f = 0; f < t->nfields; f++) {
		const struct pmon_filter_field *F = &t->fields[f];
		CHECK(F->width > 0 && F->shift + F->width <= 64 && F->word < 2, "%s: field %s bits", bn,
		      F->name);
		/* The core PMU's RSP fields span the whole RSP register, reserved
		 * bits included (its umask values are held to the valid bits), and
		 * its auxiliary supplier/snoop fields lie over them on purpose
		 * (offcore.h). */
		if (t->space == PMON_SPACE_CORE)
			continue;
		int inreg = 0;
		for (int r = 0; r < t->nfregs; r++)
			if (t->fregs[r].word == F->word && (tc_field_bits(F) & ~t->fregs[r].valid) == 0)
				inreg = 1;
		CHECK(inreg, "%s: field %s inside a filter register", bn, F->name);
		for (int g = f + 1; g < t->nfields; g++)
			CHECK(F->word != t->fields[g].word || !(tc_field_bits(F) & tc_field_bits(&t->fields[g])),
			      "%s: fields %s and %s overlap", bn, F->name, t->fields[g].name);
	}
}

static void check_umasks(const struct pmon_box_type *t, const struct pmon_event *e, int desc_max)
{
	uint32_t allfields = t->nfields >= 32 ? ~0u : (1u << t->nfields) - 1;
	int ndef[8] = {0}, nexcl_def[8] = {0}, seen[8] = {0};

	for (int u = 0; u < e->numasks; u++) {
		const struct pmon_umask *m = &e->umasks[u];
		CHECK(m->name && m->name[0], "%s: umask %d unnamed", e->name, u);
		CHECK(tc_one_line(m->desc, desc_max), "%s:%s: description missing or not one line",
		      e->name, m->name);
		if (e->flags & PMON_EV_OFFCORE) {
			/* the value goes to the RSP register of the event's field */
			int f = tc_lowest_bit(e->fields);
			uint64_t valid = f >= 0 && f < t->nfields ? tc_valid_bits(t, t->fields[f].word) : 0;
			CHECK(m->value != 0 && (m->value & ~valid) == 0, "%s:%s: value 0x%llx outside the "
			      "valid bits 0x%llx", e->name, m->name, (unsigned long long)m->value,
			      (unsigned long long)valid);
		} else {
			/* umask[15:8], or occ_sel[15:14] for a PCU occupancy event */
			int occ = (e->flags & PMON_EV_OCC) != 0;
			uint64_t bits = m->value << (occ ? PMON_PCU_OCC_SEL_SHIFT : PMON_CTL_UMASK_SHIFT);
			CHECK(m->value <= (occ ? 0x3u : 0xffu), "%s:%s: value 0x%llx does not fit its field",
			      e->name, m->name, (unsigned long long)m->value);
			CHECK((bits & ~(uint64_t)t->ctl_valid) == 0, "%s:%s: bits outside ctl_valid",
			      e->name, m->name);
		}
		CHECK(m->value != 0 || m->filt_set[0] || m->filt_set[1], "%s:%s: umask sets nothing",
		      e->name, m->name);
		CHECK(m->grp < 8, "%s:%s: group %d", e->name, m->name, m->grp);
		CHECK((m->flags & ~(PMON_UM_DEFAULT | PMON_UM_EXCL)) == 0, "%s:%s: flags", e->name, m->name);
		CHECK((m->fields & ~allfields) == 0, "%s:%s: unknown filter field", e->name, m->name);
		for (int w = 0; w < 2; w++) {
			uint64_t ok = tc_fields_mask(t, e->fields | m->fields, w) & tc_valid_bits(t, w);
			CHECK((m->filt_set[w] & ~ok) == 0, "%s:%s: filter bits 0x%llx outside the fields it "
			      "declares or their register's valid bits", e->name, m->name,
			      (unsigned long long)m->filt_set[w]);
		}
		for (int v = u + 1; v < e->numasks; v++)
			CHECK(strcasecmp(m->name, e->umasks[v].name), "%s: umask %s twice", e->name, m->name);
		if (m->grp < 8) {
			seen[m->grp] = 1;
			if (m->flags & PMON_UM_DEFAULT) {
				ndef[m->grp]++;
				if (m->flags & PMON_UM_EXCL)
					nexcl_def[m->grp]++;
			}
		}
	}

	int maxdef = 0;
	for (int g = 0; g < 8; g++) {
		CHECK(!nexcl_def[g] || ndef[g] == 1, "%s: group %d has an exclusive default next to "
		      "another default", e->name, g);
		if (g > 0 && seen[g])
			CHECK(seen[g - 1], "%s: umask groups not contiguous", e->name);
		if (ndef[g] > maxdef)
			maxdef = ndef[g];
	}
	CHECK(maxdef <= 1, "%s: at most one default per umask group", e->name);
	if (e->flags & PMON_EV_NEED_UM)
		CHECK(ndef[0] == 0, "%s: NEED_UM event with a default umask", e->name);
	/* named alone, an event with umasks must either get a default or be refused */
	if (seen[0])
		CHECK((e->flags & PMON_EV_NEED_UM) || ndef[0] > 0 ||
		      tc_in_list(bare_ok, PMON_ARRAY_SIZE(bare_ok), e->name),
		      "%s: no default umask and not NEED_UM (would count with umask 0)", e->name);
	for (int g = 0; g < 8; g++)
		if (e->need_grps & (1u << g))
			CHECK(seen[g] && ndef[g] == 0, "%s: need_grps names group %d", e->name, g);
}

static void check_events(const struct pmon_box_type *t, const struct box_rules *r)
{
	const char *bn = t->pmu_prefix;
	int n = tc_count_events(t);
	uint32_t allctr = (1u << t->ncounters) - 1;
	uint32_t allmods = t->nmods >= 32 ? ~0u : (1u << t->nmods) - 1;
	uint32_t allfields = t->nfields >= 32 ? ~0u : (1u << t->nfields) - 1;
	const uint8_t known_flags = PMON_EV_FIXED | PMON_EV_OCC | PMON_EV_NEED_UM | PMON_EV_OFFCORE;

	CHECK(n > 0, "%s: empty event table", bn);
	for (int i = 0; i < n; i++) {
		const struct pmon_event *e = &t->events[i];
		int fixed = (e->flags & PMON_EV_FIXED) != 0;
		uint64_t ctl = e->code | ((uint64_t)e->ext << 21);

		if (r)
			CHECK(!strncmp(e->name, r->event_prefix, strlen(r->event_prefix)), "%s: %s has prefix %s",
			      bn, e->name, r->event_prefix);
		CHECK(tc_one_line(e->desc, r ? r->desc_max : 0), "%s: description missing or not one line",
		      e->name);
		for (int j = i + 1; j < n; j++) {
			CHECK(strcasecmp(e->name, t->events[j].name), "%s: duplicate event", e->name);
			if (!fixed && !(t->events[j].flags & PMON_EV_FIXED))
				CHECK(e->code != t->events[j].code || e->ext != t->events[j].ext,
				      "%s and %s share code 0x%x ext %d", e->name, t->events[j].name, e->code, e->ext);
		}
		CHECK(e->ext <= 1, "%s: ext must be 0 or 1", e->name);
		CHECK((ctl & ~(uint64_t)t->ctl_valid) == 0, "%s: code/ext outside ctl_valid", e->name);
		CHECK((e->mods & ~allmods) == 0, "%s: mods 0x%x beyond the box's %d modifiers", e->name,
		      e->mods, t->nmods);
		CHECK((e->fields & ~allfields) == 0, "%s: unknown filter field in 0x%x", e->name, e->fields);
		CHECK((e->cntmask & ~allctr) == 0, "%s: cntmask 0x%x beyond %d counters", e->name,
		      e->cntmask, t->ncounters);
		CHECK((e->flags & ~known_flags) == 0, "%s: unknown flags 0x%x", e->name, e->flags);
		CHECK(!(e->flags & PMON_EV_OFFCORE) || t->space == PMON_SPACE_CORE,
		      "%s: offcore event outside a core PMU", e->name);
		if (e->flags & PMON_EV_OCC)
			CHECK(e->code & 0x80, "%s: occupancy event has ev_sel bit 7", e->name);
		if (fixed) {
			CHECK(t->has_fixed, "%s: fixed event on a box without a fixed counter", e->name);
			CHECK(e->cntmask == 0 && e->numasks == 0 && e->mods == 0 && e->fields == 0,
			      "%s: a fixed-counter event takes no counters, umasks or modifiers", e->name);
		} else {
			CHECK(e->cntmask != 0, "%s: no counter allowed", e->name);
			/* edge, invert and threshold: for the PCU occupancy event the
			 * names e and i resolve to occ_edge and occ_invert */
			CHECK(t->nmods >= 3 && tc_resolve_mod(t, e, t->mods[0].name) >= 0 &&
			      tc_resolve_mod(t, e, t->mods[1].name) >= 0 &&
			      tc_resolve_mod(t, e, t->mods[2].name) >= 0, "%s: e/i/t not accepted", e->name);
		}
		CHECK((e->numasks == 0) == (e->umasks == NULL), "%s: umask array/count", e->name);
		if (!e->numasks)
			CHECK(!(e->flags & PMON_EV_NEED_UM) && e->need_grps == 0,
			      "%s: needs a umask but has none", e->name);

		/* every modifier the event enables is the one its name resolves to */
		for (int m = 0; m < t->nmods && m < 32; m++)
			if ((e->mods >> m) & 1)
				CHECK(tc_resolve_mod(t, e, t->mods[m].name) == m, "%s: modifier %s ambiguous",
				      e->name, t->mods[m].name);
		/* a PMON_FIELD_EVENT modifier sets the one field the event declares */
		for (int m = 0; m < t->nmods && m < 32; m++)
			if (((e->mods >> m) & 1) && t->mods[m].kind == PMON_MOD_FILTER &&
			    t->mods[m].field == PMON_FIELD_EVENT) {
				int f = tc_lowest_bit(e->fields);
				CHECK(e->fields && !(e->fields & (e->fields - 1)), "%s: %s needs one field",
				      e->name, t->mods[m].name);
				if (f >= 0 && f < t->nfields)
					CHECK(t->mods[m].shift == 0 && t->mods[m].width == 0 &&
					      t->mods[m].max == ones(t->fields[f].width),
					      "%s: %s fits field %s", e->name, t->mods[m].name, t->fields[f].name);
			}

		check_umasks(t, e, r ? r->desc_max : 0);
	}
}

static const struct box_rules *rules_of(const struct pmon_box_type *t)
{
	for (int i = 0; i < PMON_ARRAY_SIZE(box_rules); i++)
		if (!strcmp(box_rules[i].name, t->name))
			return &box_rules[i];
	return NULL;
}

static void check_box(const struct pmon_box_type *t, int core)
{
	const struct box_rules *r = rules_of(t);
	const char *bn = t->pmu_prefix;

	CHECK(r != NULL, "%s: box type %s has no entry in box_rules[] (event prefix, description "
	      "length)", bn, t->name);
	if (core)
		CHECK(t->space == PMON_SPACE_CORE && tc_one_line(t->pmu_prefix, 31), "%s: core PMU", bn);
	else
		CHECK(t->space != PMON_SPACE_CORE && t->pmu_prefix &&
		      !strncmp(t->pmu_prefix, "snbep_unc_", 10), "%s: pmu prefix", bn);
	CHECK(tc_one_line(t->desc, BOX_DESC_MAX), "%s: box description", bn);
	CHECK(t->width == 44 || t->width == 48, "%s: counter width %d", bn, t->width);
	CHECK(t->ncounters > 0 && t->ncounters <= 8, "%s: %d counters", bn, t->ncounters);
	CHECK(!(t->ctl_valid & PMON_CTL_EN), "%s: ctl_valid excludes the enable bit", bn);
	CHECK(t->has_box_ctl || !t->has_rst_ctrs, "%s: rst_ctrs without a box control", bn);

	check_modifiers(t);
	check_fields(t);
	check_events(t, r);
}

int main(void)
{
	const struct pmon_box_type *all[64];
	int nall = 0;

	CHECK(pmon_snbep_nboxes > 0 && pmon_core_nboxes > 0 &&
	      pmon_snbep_nboxes + pmon_core_nboxes <= PMON_ARRAY_SIZE(all), "box lists");
	for (int b = 0; b < pmon_snbep_nboxes && nall < PMON_ARRAY_SIZE(all); b++) {
		check_box(pmon_snbep_boxes[b], 0);
		all[nall++] = pmon_snbep_boxes[b];
	}
	for (int b = 0; b < pmon_core_nboxes && nall < PMON_ARRAY_SIZE(all); b++) {
		check_box(pmon_core_boxes[b], 1);
		all[nall++] = pmon_core_boxes[b];
	}
	/* PMU names are built from pmu_prefix: no two box types may share one */
	for (int i = 0; i < nall; i++)
		for (int j = i + 1; j < nall; j++)
			CHECK(strcmp(all[i]->pmu_prefix, all[j]->pmu_prefix), "pmu prefix %s twice",
			      all[i]->pmu_prefix);
	return check_done("test_tables_structure");
}
