/*
 * test_tables_ubox_imc.c - structural checks of the UBox and iMC tables:
 * shape of every entry (names, codes, counter masks, umask values and flags,
 * modifiers) plus the real encodings of well-known events.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "snbep/snbep.h"

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

static uint64_t field_mask(const struct pmon_box_type *t, uint32_t fields, int word)
{
	uint64_t m = 0;
	for (int f = 0; f < t->nfields; f++)
		if ((fields & (1u << f)) && t->fields[f].word == word)
			m |= (t->fields[f].width >= 64 ? ~0ull : ((1ull << t->fields[f].width) - 1))
			     << t->fields[f].shift;
	return m;
}

/* ctl and filt[0..1] of an event named without umasks or modifiers: the
 * event code plus the default umask of every group (tables.h rules). */
static void default_encoding(const struct pmon_event *e, uint64_t *ctl, uint64_t filt[2])
{
	uint64_t um = 0;
	filt[0] = filt[1] = 0;
	for (int u = 0; u < e->numasks; u++)
		if (e->umasks[u].flags & PMON_UM_DEFAULT) {
			um |= e->umasks[u].value;
			filt[0] |= e->umasks[u].filt_set[0];
			filt[1] |= e->umasks[u].filt_set[1];
		}
	*ctl = (e->flags & PMON_EV_FIXED) ? 0 :
	       e->code | ((uint64_t)e->ext << 21) |
	       (um << ((e->flags & PMON_EV_OCC) ? PMON_PCU_OCC_SEL_SHIFT : PMON_CTL_UMASK_SHIFT));
}

static void check_default(const struct pmon_box_type *t, const char *name, uint64_t ctl, uint64_t filt0)
{
	const struct pmon_event *e = find_event(t, name);
	uint64_t c, f[2];
	CHECK(e != NULL, "%s missing", name);
	if (!e)
		return;
	default_encoding(e, &c, f);
	CHECK_EQ_U64(c, ctl, name);
	CHECK_EQ_U64(f[0], filt0, name);
}

static int one_line(const char *s)
{
	return s && s[0] && !strchr(s, '\n') && strlen(s) < 200;
}

/* Checks every box table must pass, whatever the box. */
static void check_box_shape(const struct pmon_box_type *t, const char *prefix)
{
	int n = count_events(t);
	uint32_t allctr = (1u << t->ncounters) - 1;
	uint32_t allmods = t->nmods >= 32 ? ~0u : (1u << t->nmods) - 1;
	uint32_t allfields = t->nfields >= 32 ? ~0u : (1u << t->nfields) - 1;

	CHECK(n > 0, "%s: empty event table", t->name);
	CHECK(t->nmods >= 3 && !strcmp(t->mods[0].name, "e") && !strcmp(t->mods[1].name, "i") &&
	      !strcmp(t->mods[2].name, "t"), "%s: mods must start with e, i, t", t->name);
	for (int i = 0; i < t->nmods; i++)
		for (int j = i + 1; j < t->nmods; j++)
			CHECK(strcmp(t->mods[i].name, t->mods[j].name), "%s: modifier %s twice",
			      t->name, t->mods[i].name);

	for (int f = 0; f < t->nfields; f++) {
		const struct pmon_filter_field *F = &t->fields[f];
		uint64_t valid = 0;
		CHECK(F->width > 0 && F->shift + F->width <= 64, "%s: field %s bits", t->name, F->name);
		for (int r = 0; r < t->nfregs; r++)
			if (t->fregs[r].word == F->word)
				valid |= t->fregs[r].valid;
		CHECK((field_mask(t, 1u << f, F->word) & ~valid) == 0,
		      "%s: field %s outside its register's valid bits", t->name, F->name);
		for (int g = f + 1; g < t->nfields; g++)
			CHECK(F->word != t->fields[g].word ||
			      !(field_mask(t, 1u << f, F->word) & field_mask(t, 1u << g, F->word)),
			      "%s: fields %s and %s overlap", t->name, F->name, t->fields[g].name);
	}
	for (int i = 0; i < t->nmods; i++) {
		const struct pmon_modifier *M = &t->mods[i];
		CHECK(one_line(M->desc), "%s: modifier %s description", t->name, M->name);
		CHECK(M->min <= M->max, "%s: modifier %s range", t->name, M->name);
		if (M->kind == PMON_MOD_CTL)
			CHECK(M->width > 0 && M->max <= (1ull << M->width) - 1 &&
			      ((((1ull << M->width) - 1) << M->shift) & ~(uint64_t)t->ctl_valid) == 0,
			      "%s: modifier %s outside the control bits", t->name, M->name);
		else
			CHECK(M->field == PMON_FIELD_EVENT || M->field < t->nfields,
			      "%s: modifier %s names a missing field", t->name, M->name);
		if (M->kind == PMON_MOD_FILTER && M->field < t->nfields) {
			unsigned w = M->width ? M->width : t->fields[M->field].width;
			CHECK(M->shift + w <= t->fields[M->field].width && (w >= 64 || M->max < (1ull << w)),
			      "%s: modifier %s does not fit field %s", t->name, M->name,
			      t->fields[M->field].name);
		}
	}

	for (int i = 0; i < n; i++) {
		const struct pmon_event *e = &t->events[i];
		int fixed = (e->flags & PMON_EV_FIXED) != 0;

		CHECK(!strncmp(e->name, prefix, strlen(prefix)), "%s: bad prefix", e->name);
		CHECK(one_line(e->desc), "%s: description missing or not one line", e->name);
		for (int j = i + 1; j < n; j++) {
			CHECK(strcasecmp(e->name, t->events[j].name), "%s: duplicate event", e->name);
			if (!fixed && !(t->events[j].flags & PMON_EV_FIXED))
				CHECK(e->code != t->events[j].code || e->ext != t->events[j].ext,
				      "%s and %s share code 0x%x", e->name, t->events[j].name, e->code);
		}
		CHECK(e->ext <= 1, "%s: ext must be 0 or 1", e->name);
		CHECK((e->mods & ~allmods) == 0, "%s: mods 0x%x beyond the box's %d modifiers",
		      e->name, e->mods, t->nmods);
		CHECK((e->fields & ~allfields) == 0, "%s: unknown filter field in 0x%x", e->name,
		      e->fields);
		CHECK((e->cntmask & ~allctr) == 0, "%s: cntmask 0x%x beyond %d counters", e->name,
		      e->cntmask, t->ncounters);
		if (fixed) {
			CHECK(t->has_fixed, "%s: fixed event on a box without a fixed counter", e->name);
			CHECK(e->cntmask == 0 && e->numasks == 0 && e->mods == 0 && e->fields == 0,
			      "%s: a fixed-counter event takes no counters, umasks or modifiers", e->name);
		} else {
			CHECK(e->cntmask != 0, "%s: no counter allowed", e->name);
			CHECK((e->mods & PMON_M_STD) == PMON_M_STD, "%s: e/i/t not accepted", e->name);
		}
		if (e->numasks)
			CHECK(e->umasks != NULL, "%s: numasks without umasks", e->name);
		else
			CHECK(!(e->flags & PMON_EV_NEED_UM) && e->need_grps == 0,
			      "%s: needs a umask but has none", e->name);

		int ndef[8] = {0}, nexcl_def[8] = {0}, seen[8] = {0};
		for (int u = 0; u < e->numasks; u++) {
			const struct pmon_umask *m = &e->umasks[u];
			CHECK(m->name && m->name[0], "%s: umask %d unnamed", e->name, u);
			CHECK(one_line(m->desc), "%s:%s: description missing", e->name, m->name);
			CHECK(m->value <= 0xff, "%s:%s: value 0x%llx does not fit umask[15:8]", e->name,
			      m->name, (unsigned long long)m->value);
			CHECK(m->value != 0 || m->filt_set[0] || m->filt_set[1],
			      "%s:%s: umask sets nothing", e->name, m->name);
			CHECK(m->grp < 8, "%s:%s: group %d", e->name, m->name, m->grp);
			CHECK((m->flags & ~(PMON_UM_DEFAULT | PMON_UM_EXCL)) == 0, "%s:%s: flags",
			      e->name, m->name);
			CHECK((m->fields & ~allfields) == 0, "%s:%s: unknown filter field", e->name,
			      m->name);
			for (int w = 0; w < 2; w++) {
				uint64_t ok = field_mask(t, e->fields | m->fields, w);
				CHECK((m->filt_set[w] & ~ok) == 0, "%s:%s: filter bits 0x%llx outside "
				      "the fields it declares", e->name, m->name,
				      (unsigned long long)m->filt_set[w]);
			}
			for (int v = u + 1; v < e->numasks; v++)
				CHECK(strcasecmp(m->name, e->umasks[v].name), "%s: umask %s twice",
				      e->name, m->name);
			if (m->grp < 8) {
				seen[m->grp] = 1;
				if (m->flags & PMON_UM_DEFAULT) {
					ndef[m->grp]++;
					if (m->flags & PMON_UM_EXCL)
						nexcl_def[m->grp]++;
				}
			}
		}
		for (int g = 0; g < 8; g++) {
			CHECK(!nexcl_def[g] || ndef[g] == 1, "%s: group %d has an exclusive default "
			      "next to another default", e->name, g);
			if (g > 0 && seen[g])
				CHECK(seen[g - 1], "%s: umask groups not contiguous", e->name);
		}
		if (e->flags & PMON_EV_NEED_UM)
			CHECK(ndef[0] == 0, "%s: NEED_UM event with a default umask", e->name);
		/* named alone, an event with umasks must either get a default or be refused */
		if (seen[0])
			CHECK((e->flags & PMON_EV_NEED_UM) || ndef[0] > 0,
			      "%s: no default umask and not NEED_UM (would count with umask 0)", e->name);
		for (int g = 0; g < 8; g++)
			if (e->need_grps & (1u << g))
				CHECK(seen[g] && ndef[g] == 0, "%s: need_grps names group %d", e->name, g);
	}
}

static void check_umask(const struct pmon_event *e, const char *um, uint64_t value, uint32_t flags)
{
	const struct pmon_umask *m = find_umask(e, um);
	CHECK(m != NULL, "%s: umask %s missing", e ? e->name : "?", um);
	if (!m)
		return;
	CHECK_EQ_U64(m->value, value, um);
	CHECK_EQ_U64(m->flags, flags, um);
}

static void test_ubox(void)
{
	const struct pmon_box_type *t = &pmon_snbep_ubox;
	const struct pmon_event *e;

	check_box_shape(t, "UNC_U_");
	CHECK_EQ_INT(count_events(t), 4, "UBox events");
	CHECK_EQ_INT(t->nfields, 0, "UBox has no filter");
	CHECK_EQ_U64(t->mods[2].max, 31, "UBox threshold is 5 bits");

	e = find_event(t, "UNC_U_CLOCKTICKS");
	CHECK(e && (e->flags & PMON_EV_FIXED) && e->code == 0xff, "UNC_U_CLOCKTICKS is the fixed UCLK counter");

	e = find_event(t, "UNC_U_EVENT_MSG");
	CHECK(e != NULL, "UNC_U_EVENT_MSG");
	if (e) {
		CHECK_EQ_U64(e->code, 0x42, "EVENT_MSG code");
		CHECK_EQ_U64(e->cntmask, 0x3, "EVENT_MSG counters");
		CHECK(e->flags & PMON_EV_NEED_UM, "EVENT_MSG needs a umask (libpfm4)");
		CHECK_EQ_INT(e->numasks, 5, "EVENT_MSG umasks");
		check_umask(e, "VLW_RCVD", 0x01, PMON_UM_EXCL);
		check_umask(e, "MSI_RCVD", 0x02, PMON_UM_EXCL);
		check_umask(e, "IPI_RCVD", 0x04, PMON_UM_EXCL);
		check_umask(e, "DOORBELL_RCVD", 0x08, PMON_UM_EXCL);
		check_umask(e, "INT_PRIO", 0x10, PMON_UM_EXCL);
	}
	e = find_event(t, "UNC_U_LOCK_CYCLES");
	CHECK(e && e->code == 0x44 && e->cntmask == 0x3 && e->numasks == 0, "UNC_U_LOCK_CYCLES");
	e = find_event(t, "UNC_U_U2C_EVENTS");
	CHECK(e && e->code == 0x43 && e->numasks == 8, "UNC_U_U2C_EVENTS");
	if (e)
		check_umask(e, "OTHER", 0x80, 0);

	check_default(t, "UNC_U_LOCK_CYCLES", 0x44, 0);

	/* no UBox event uses the extra select bit: the UBox control has none */
	for (e = t->events; e->name; e++)
		CHECK(e->ext == 0, "%s: UBox has no ev_sel_ext", e->name);
}

static void test_imc(void)
{
	const struct pmon_box_type *t = &pmon_snbep_imc;
	const struct pmon_event *e;

	check_box_shape(t, "UNC_M_");
	CHECK_EQ_INT(count_events(t), 25, "iMC events");
	CHECK_EQ_INT(t->nfields, 0, "iMC has no filter");
	CHECK_EQ_U64(t->pci[0].devid, 0x3cb0, "iMC channel 0 device");
	CHECK_EQ_U64(t->pci[3].func, 5, "iMC channel 3 function");

	/* every general iMC event may use all four counters */
	for (e = t->events; e->name; e++)
		if (!(e->flags & PMON_EV_FIXED))
			CHECK_EQ_U64(e->cntmask, 0xf, e->name);

	e = find_event(t, "UNC_M_CLOCKTICKS");
	CHECK(e && (e->flags & PMON_EV_FIXED) && e->code == 0xff, "UNC_M_CLOCKTICKS fixed, 0xff");

	e = find_event(t, "UNC_M_CAS_COUNT");
	CHECK(e != NULL, "UNC_M_CAS_COUNT");
	if (e) {
		CHECK_EQ_U64(e->code, 0x04, "CAS_COUNT code");
		CHECK_EQ_INT(e->numasks, 7, "CAS_COUNT umasks");
		CHECK(!(e->flags & PMON_EV_NEED_UM), "CAS_COUNT has a default");
		check_umask(e, "ALL", 0x0f, PMON_UM_DEFAULT | PMON_UM_EXCL);
		check_umask(e, "RD", 0x03, PMON_UM_EXCL);
		check_umask(e, "WR", 0x0c, PMON_UM_EXCL);
		check_umask(e, "RD_REG", 0x01, PMON_UM_EXCL);
		check_umask(e, "RD_UNDERFILL", 0x02, PMON_UM_EXCL);
		check_umask(e, "WR_WMM", 0x04, PMON_UM_EXCL);
		check_umask(e, "WR_RMM", 0x08, PMON_UM_EXCL);
		/* RD:WR is refused (libpfm4 NCOMBO): every CAS umask shares group 0 */
		for (int u = 0; u < e->numasks; u++)
			CHECK_EQ_INT(e->umasks[u].grp, 0, e->umasks[u].name);
	}
	e = find_event(t, "UNC_M_ACT_COUNT");
	CHECK(e && e->code == 0x01 && e->numasks == 0, "ACT_COUNT");
	e = find_event(t, "UNC_M_PRE_COUNT");
	CHECK(e && e->code == 0x02 && (e->flags & PMON_EV_NEED_UM), "PRE_COUNT");
	if (e) {
		check_umask(e, "PAGE_MISS", 0x01, PMON_UM_EXCL);
		check_umask(e, "PAGE_CLOSE", 0x02, PMON_UM_EXCL);
	}
	e = find_event(t, "UNC_M_MAJOR_MODES");
	CHECK(e && e->code == 0x07 && e->numasks == 4, "MAJOR_MODES (guide event kept)");
	e = find_event(t, "UNC_M_POWER_THROTTLE_CYCLES");
	CHECK(e && e->code == 0x41 && e->numasks == 8, "POWER_THROTTLE_CYCLES");
	if (e) {
		/* the guide's text garbles RANK4-7; the real bits are 0x10..0x80 */
		check_umask(e, "RANK4", 0x10, PMON_UM_EXCL);
		check_umask(e, "RANK5", 0x20, PMON_UM_EXCL);
		check_umask(e, "RANK6", 0x40, PMON_UM_EXCL);
		check_umask(e, "RANK7", 0x80, PMON_UM_EXCL);
	}
	e = find_event(t, "UNC_M_POWER_CKE_CYCLES");
	CHECK(e && e->code == 0x83 && e->numasks == 8, "POWER_CKE_CYCLES");
	e = find_event(t, "UNC_M_RPQ_OCCUPANCY");
	CHECK(e && e->code == 0x80, "RPQ_OCCUPANCY 0x80");
	e = find_event(t, "UNC_M_RPQ_INSERTS");
	CHECK(e && e->code == 0x10, "RPQ_INSERTS 0x10");
	e = find_event(t, "UNC_M_WPQ_OCCUPANCY");
	CHECK(e && e->code == 0x81, "WPQ_OCCUPANCY 0x81");
	e = find_event(t, "UNC_M_WPQ_INSERTS");
	CHECK(e && e->code == 0x20, "WPQ_INSERTS 0x20");
	e = find_event(t, "UNC_M_DRAM_REFRESH");
	CHECK(e && e->code == 0x05, "DRAM_REFRESH");
	if (e) {
		check_umask(e, "PANIC", 0x02, PMON_UM_EXCL);
		check_umask(e, "HIGH", 0x04, PMON_UM_EXCL);
	}
	CHECK(find_event(t, "UNC_M_RPO_INSERTS") == NULL, "guide misprint RPO_ not used");

	/* encodings with defaults only (libpfm4 gives the same ctl) */
	check_default(t, "UNC_M_CAS_COUNT", 0xf04, 0);
	check_default(t, "UNC_M_ACT_COUNT", 0x001, 0);
	check_default(t, "UNC_M_RPQ_OCCUPANCY", 0x080, 0);
	check_default(t, "UNC_M_CLOCKTICKS", 0, 0);
}

int main(void)
{
	test_ubox();
	test_imc();
	return check_done("test_tables_ubox_imc");
}
