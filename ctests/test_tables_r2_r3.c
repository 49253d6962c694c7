/*
 * test_tables_r2_r3.c - structural tests of the R2PCIe and R3QPI tables:
 * register maps, unique event identities, umask values that fit the umask
 * field, counter masks within the box (R3QPI has three counters), the
 * counter constraints of the guide and Linux, defaults and required umasks
 * as libpfm4 has them, and the real codes of the events.
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

/* ---------------------------------------------------------------- R2PCIe */

static const struct exp_ev r2_expected[] = {
	{ "UNC_R2_CLOCKTICKS", 0x01, 0, 0xf },
	{ "UNC_R2_RING_AD_USED", 0x07, 0, 0xf },
	{ "UNC_R2_RING_AK_USED", 0x08, 0, 0xf },
	{ "UNC_R2_RING_BL_USED", 0x09, 0, 0xf },
	{ "UNC_R2_RING_IV_USED", 0x0a, 0, 0xf },
	{ "UNC_R2_RXR_CYCLES_NE", 0x10, 0, 0x3 },
	{ "UNC_R2_RXR_AK_BOUNCES", 0x12, 0, 0x1 },
	{ "UNC_R2_TXR_CYCLES_NE", 0x23, 0, 0x1 },
	{ "UNC_R2_TXR_INSERTS", 0x24, 0, 0x1 },
	{ "UNC_R2_TXR_CYCLES_FULL", 0x25, 0, 0x1 },
	{ "UNC_R2_TXR_NACKS", 0x26, 0, 0x3 },
	{ "UNC_R2_IIO_CREDITS_USED", 0x32, 0, 0x3 },
	{ "UNC_R2_IIO_CREDITS_ACQUIRED", 0x33, 0, 0x3 },
	{ "UNC_R2_IIO_CREDITS_REJECT", 0x34, 0, 0x3 },
};

static const char *const r2_need_um[] = {
	"UNC_R2_RXR_CYCLES_NE", "UNC_R2_TXR_CYCLES_NE", "UNC_R2_TXR_CYCLES_FULL", "UNC_R2_TXR_NACKS",
	"UNC_R2_IIO_CREDITS_USED", "UNC_R2_IIO_CREDITS_ACQUIRED", "UNC_R2_IIO_CREDITS_REJECT",
};

static int in_list(const char *const *l, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(l[i], name))
			return 1;
	return 0;
}

static void check_pci_box_common(const struct pmon_box_type *t)
{
	CHECK_EQ_INT(t->space, PMON_SPACE_PCI, t->name);
	CHECK_EQ_INT(t->width, 44, "counter width");
	CHECK_EQ_INT(t->thresh_bits, 8, "threshold bits");
	CHECK_EQ_U64(t->ctl_valid, SNBEP_CTL_GENERIC, "ctl_valid");
	CHECK_EQ_U64(t->pci_box_ctl, 0xf4, "box ctl offset");
	CHECK_EQ_U64(t->pci_ctl0, 0xd8, "ctl0 offset");
	CHECK_EQ_U64(t->pci_ctr0, 0xa0, "ctr0 offset");
	CHECK(t->nfregs == 0 && t->nfields == 0 && t->fregs == NULL && t->fields == NULL, "%s: no filter", t->name);
	CHECK_EQ_INT(t->nmods, 3, "only e, i, t");
	CHECK(t->pci_extra[0].devid == 0, "%s: no extra function", t->name);
	for (const struct pmon_event *e = t->events; e->name; e++) {
		CHECK(e->ext == 0, "%s: no extra select bit", e->name);
		CHECK(e->mods == PMON_M_STD, "%s: takes e, i, t", e->name);
		CHECK(e->fields == 0 && !(e->flags & PMON_EV_OCC), "%s: no filter, not PCU occupancy", e->name);
	}
}

static void test_r2pcie(void)
{
	const struct pmon_box_type *t = &pmon_snbep_r2pcie;

	check_box_generic(t, "UNC_R2_");
	check_event_list(t, r2_expected, PMON_ARRAY_SIZE(r2_expected));
	check_pci_box_common(t);

	CHECK(!strcmp(t->name, "r2pcie") && !strcmp(t->pmu_prefix, "snbep_unc_r2pcie"), "r2pcie names");
	CHECK_EQ_INT(t->max_boxes, 1, "r2pcie boxes");
	CHECK_EQ_INT(t->ncounters, 4, "r2pcie counters");
	CHECK(t->pci[0].dev == 19 && t->pci[0].func == 1 && t->pci[0].devid == 0x3c43, "r2pcie D19:F1 3c43");
	CHECK(t->pci[1].devid == 0, "r2pcie has one instance");

	for (const struct pmon_event *e = t->events; e->name; e++)
		CHECK(((e->flags & PMON_EV_NEED_UM) != 0) == in_list(r2_need_um, PMON_ARRAY_SIZE(r2_need_um), e->name),
		      "%s: NEED_UM as libpfm4", e->name);

	/* ring events: ANY by default, the single bits combine, ANY does not */
	static const char *const rings[] = { "UNC_R2_RING_AD_USED", "UNC_R2_RING_AK_USED", "UNC_R2_RING_BL_USED" };
	for (int r = 0; r < 3; r++) {
		const struct pmon_event *e = find_event(t, rings[r]);
		CHECK(e && e->numasks == 7, "%s: 7 umasks", rings[r]);
		check_umask(t, rings[r], "CW_EVEN", 0x01);
		check_umask(t, rings[r], "CW_ODD", 0x02);
		check_umask(t, rings[r], "CCW_EVEN", 0x04);
		check_umask(t, rings[r], "CCW_ODD", 0x08);
		check_umask(t, rings[r], "CW_ANY", 0x03);
		check_umask(t, rings[r], "CCW_ANY", 0x0c);
		check_umask(t, rings[r], "ANY", 0x0f);
		const struct pmon_umask *any = find_umask(e, "ANY"), *cw = find_umask(e, "CW_EVEN");
		CHECK(any && any->flags == (PMON_UM_DEFAULT | PMON_UM_EXCL), "%s:ANY default, exclusive", rings[r]);
		CHECK(cw && cw->flags == 0, "%s:CW_EVEN combinable", rings[r]);
	}
	const struct pmon_umask *iv = find_umask(find_event(t, "UNC_R2_RING_IV_USED"), "ANY");
	CHECK(iv && iv->value == 0x0f && (iv->flags & PMON_UM_DEFAULT), "R2 RING_IV_USED:ANY default 0xf");

	check_umask(t, "UNC_R2_RXR_CYCLES_NE", "DRS", 0x08);
	check_umask(t, "UNC_R2_RXR_CYCLES_NE", "NCB", 0x10);
	check_umask(t, "UNC_R2_RXR_CYCLES_NE", "NCS", 0x20);
	static const char *const txr[] = { "UNC_R2_TXR_CYCLES_NE", "UNC_R2_TXR_INSERTS",
					   "UNC_R2_TXR_CYCLES_FULL", "UNC_R2_TXR_NACKS" };
	for (int i = 0; i < 4; i++) {
		check_umask(t, txr[i], "AD", 0x01);
		check_umask(t, txr[i], "AK", 0x02);
		check_umask(t, txr[i], "BL", 0x04);
	}
	static const char *const iio[] = { "UNC_R2_IIO_CREDITS_USED", "UNC_R2_IIO_CREDITS_ACQUIRED",
					   "UNC_R2_IIO_CREDITS_REJECT" };
	for (int i = 0; i < 3; i++) {
		check_umask(t, iio[i], "DRS", 0x08);
		check_umask(t, iio[i], "NCB", 0x10);
		check_umask(t, iio[i], "NCS", 0x20);
	}
	/* libpfm4 accepts TXR_INSERTS bare (control 0x24); the inferred umasks stay optional */
	const struct pmon_event *ins = find_event(t, "UNC_R2_TXR_INSERTS");
	CHECK(ins && !(ins->flags & PMON_EV_NEED_UM) && ins->numasks == 3, "R2 TXR_INSERTS optional umasks");
	/* RING_AD_USED bare = ANY: control 0xf07 */
	const struct pmon_event *ad = find_event(t, "UNC_R2_RING_AD_USED");
	if (ad)
		CHECK_EQ_U64(ad->code | 0x0full << 8, 0xf07, "RING_AD_USED default control");
}

/* ----------------------------------------------------------------- R3QPI */

static const struct exp_ev r3_expected[] = {
	{ "UNC_R3_CLOCKTICKS", 0x01, 0, 0x7 },
	{ "UNC_R3_RING_AD_USED", 0x07, 0, 0x7 },
	{ "UNC_R3_RING_AK_USED", 0x08, 0, 0x7 },
	{ "UNC_R3_RING_BL_USED", 0x09, 0, 0x7 },
	{ "UNC_R3_RING_IV_USED", 0x0a, 0, 0x7 },
	{ "UNC_R3_RXR_CYCLES_NE", 0x10, 0, 0x3 },
	{ "UNC_R3_RXR_INSERTS", 0x11, 0, 0x3 },
	{ "UNC_R3_RXR_BYPASSED", 0x12, 0, 0x3 },
	{ "UNC_R3_RXR_OCCUPANCY", 0x13, 0, 0x1 },
	{ "UNC_R3_IIO_CREDITS_ACQUIRED", 0x20, 0, 0x3 },
	{ "UNC_R3_IIO_CREDITS_REJECT", 0x21, 0, 0x3 },
	{ "UNC_R3_IIO_CREDITS_USED", 0x22, 0, 0x3 },
	{ "UNC_R3_TXR_CYCLES_NE", 0x23, 0, 0x3 },
	{ "UNC_R3_TXR_INSERTS", 0x24, 0, 0x3 },
	{ "UNC_R3_TXR_CYCLES_FULL", 0x25, 0, 0x3 },
	{ "UNC_R3_TXR_NACK", 0x26, 0, 0x3 },
	{ "UNC_R3_VNA_CREDIT_CYCLES_OUT", 0x31, 0, 0x3 },
	{ "UNC_R3_VNA_CREDIT_CYCLES_USED", 0x32, 0, 0x3 },
	{ "UNC_R3_VNA_CREDITS_ACQUIRED", 0x33, 0, 0x3 },
	{ "UNC_R3_VNA_CREDITS_REJECT", 0x34, 0, 0x3 },
	{ "UNC_R3_VN0_CREDITS_USED", 0x36, 0, 0x3 },
	{ "UNC_R3_VN0_CREDITS_REJECT", 0x37, 0, 0x3 },
};

static const char *const r3_need_um[] = {
	"UNC_R3_RING_AD_USED", "UNC_R3_RING_AK_USED", "UNC_R3_RING_BL_USED",
	"UNC_R3_RXR_CYCLES_NE", "UNC_R3_RXR_INSERTS", "UNC_R3_RXR_OCCUPANCY",
	"UNC_R3_IIO_CREDITS_ACQUIRED", "UNC_R3_IIO_CREDITS_REJECT", "UNC_R3_IIO_CREDITS_USED",
	"UNC_R3_VNA_CREDITS_REJECT", "UNC_R3_VN0_CREDITS_USED", "UNC_R3_VN0_CREDITS_REJECT",
};

static void test_r3qpi(void)
{
	const struct pmon_box_type *t = &pmon_snbep_r3qpi;

	check_box_generic(t, "UNC_R3_");
	check_event_list(t, r3_expected, PMON_ARRAY_SIZE(r3_expected));
	check_pci_box_common(t);

	CHECK(!strcmp(t->name, "r3qpi") && !strcmp(t->pmu_prefix, "snbep_unc_r3qpi"), "r3qpi names");
	CHECK_EQ_INT(t->max_boxes, 2, "r3qpi links");
	CHECK_EQ_INT(t->ncounters, 3, "r3qpi has three counters");
	CHECK(t->pci[0].dev == 19 && t->pci[0].func == 5 && t->pci[0].devid == 0x3c44, "r3qpi link 0 D19:F5 3c44");
	CHECK(t->pci[1].dev == 19 && t->pci[1].func == 6 && t->pci[1].devid == 0x3c45, "r3qpi link 1 D19:F6 3c45");

	for (const struct pmon_event *e = t->events; e->name; e++) {
		CHECK(!(e->cntmask & 0x8), "%s: no counter 3 on R3QPI", e->name);
		CHECK(((e->flags & PMON_EV_NEED_UM) != 0) == in_list(r3_need_um, PMON_ARRAY_SIZE(r3_need_um), e->name),
		      "%s: NEED_UM as libpfm4", e->name);
		for (int k = 0; k < e->numasks; k++)
			CHECK(e->umasks[k].flags & PMON_UM_EXCL, "%s:%s exclusive", e->name, e->umasks[k].name);
	}

	static const char *const rings[] = { "UNC_R3_RING_AD_USED", "UNC_R3_RING_AK_USED", "UNC_R3_RING_BL_USED" };
	for (int r = 0; r < 3; r++) {
		const struct pmon_event *e = find_event(t, rings[r]);
		CHECK(e && e->numasks == 4, "%s: 4 umasks", rings[r]);
		check_umask(t, rings[r], "CW_EVEN", 0x01);
		check_umask(t, rings[r], "CW_ODD", 0x02);
		check_umask(t, rings[r], "CCW_EVEN", 0x04);
		check_umask(t, rings[r], "CCW_ODD", 0x08);
	}
	const struct pmon_umask *iv = find_umask(find_event(t, "UNC_R3_RING_IV_USED"), "ANY");
	CHECK(iv && iv->value == 0x0f && (iv->flags & PMON_UM_DEFAULT), "R3 RING_IV_USED:ANY default 0xf");
	const struct pmon_umask *byp = find_umask(find_event(t, "UNC_R3_RXR_BYPASSED"), "AD");
	CHECK(byp && byp->value == 0x01 && (byp->flags & PMON_UM_DEFAULT), "R3 RXR_BYPASSED:AD default");

	static const char *const cls[] = { "UNC_R3_RXR_CYCLES_NE", "UNC_R3_RXR_INSERTS", "UNC_R3_RXR_OCCUPANCY",
					   "UNC_R3_VNA_CREDITS_REJECT", "UNC_R3_VN0_CREDITS_USED",
					   "UNC_R3_VN0_CREDITS_REJECT" };
	for (int i = 0; i < 6; i++) {
		const struct pmon_event *e = find_event(t, cls[i]);
		CHECK(e && e->numasks == 6, "%s: six message classes", cls[i]);
		check_umask(t, cls[i], "HOM", 0x01);
		check_umask(t, cls[i], "SNP", 0x02);
		check_umask(t, cls[i], "NDR", 0x04);
		check_umask(t, cls[i], "DRS", 0x08);
		check_umask(t, cls[i], "NCB", 0x10);
		check_umask(t, cls[i], "NCS", 0x20);
	}
	static const char *const iio[] = { "UNC_R3_IIO_CREDITS_ACQUIRED", "UNC_R3_IIO_CREDITS_REJECT",
					   "UNC_R3_IIO_CREDITS_USED" };
	for (int i = 0; i < 3; i++) {
		check_umask(t, iio[i], "DRS", 0x08);
		check_umask(t, iio[i], "NCB", 0x10);
		check_umask(t, iio[i], "NCS", 0x20);
	}
	/* egress events: libpfm4 takes them bare; the inferred ring umasks stay optional */
	static const char *const txr[] = { "UNC_R3_TXR_CYCLES_NE", "UNC_R3_TXR_INSERTS",
					   "UNC_R3_TXR_CYCLES_FULL", "UNC_R3_TXR_NACK" };
	for (int i = 0; i < 4; i++) {
		const struct pmon_event *e = find_event(t, txr[i]);
		CHECK(e && !(e->flags & PMON_EV_NEED_UM) && e->numasks == 3, "%s: optional ring umasks", txr[i]);
		check_umask(t, txr[i], "AD", 0x01);
		check_umask(t, txr[i], "AK", 0x02);
		check_umask(t, txr[i], "BL", 0x04);
	}
	/* VN0_CREDITS_USED:NCS = control 0x2036 (libpfm4's value) */
	const struct pmon_event *vn0 = find_event(t, "UNC_R3_VN0_CREDITS_USED");
	const struct pmon_umask *ncs = find_umask(vn0, "NCS");
	if (vn0 && ncs)
		CHECK_EQ_U64(vn0->code | ncs->value << 8, 0x2036, "VN0_CREDITS_USED:NCS control");
}

int main(void)
{
	test_r2pcie();
	test_r3qpi();
	return check_done("test_tables_r2_r3");
}
