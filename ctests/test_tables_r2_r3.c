/*
 * test_tables_r2_r3.c - the R2PCIe and R3QPI tables: register maps, the
 * code and counter mask of every event (R3QPI has three counters, and the
 * constraints of the guide and Linux), defaults and required umasks as
 * libpfm4 has them, and the real umask values.  The structural rules every
 * box table obeys are checked by test_tables_structure.c.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "snbep/snbep.h"
#include "tables_check.h"

/* ---------------------------------------------------------------- R2PCIe */

static const struct tc_exp_ev r2_expected[] = {
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

static void check_pci_box_common(const struct pmon_box_type *t)
{
	CHECK_EQ_INT(t->space, PMON_SPACE_PCI, t->name);
	CHECK_EQ_INT(t->width, 44, "counter width");
	CHECK_EQ_INT(t->thresh_bits, 8, "threshold bits");
	CHECK_EQ_U64(t->ctl_valid, SNBEP_CTL_GENERIC, "ctl_valid");
	CHECK_EQ_U64(t->pci_box_ctl, 0xf4, "box ctl offset");
	CHECK_EQ_U64(t->pci_ctl0, 0xd8, "ctl0 offset");
	CHECK_EQ_U64(t->pci_ctr0, 0xa0, "ctr0 offset");
	CHECK(t->has_box_ctl && t->has_rst_ctrs && !t->has_fixed, "%s: box control with rst_ctrs, "
	      "no fixed counter", t->name);
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

	tc_check_event_list(t, r2_expected, PMON_ARRAY_SIZE(r2_expected));
	check_pci_box_common(t);

	CHECK(!strcmp(t->name, "r2pcie") && !strcmp(t->pmu_prefix, "snbep_unc_r2pcie"), "r2pcie names");
	CHECK_EQ_INT(t->max_boxes, 1, "r2pcie boxes");
	CHECK_EQ_INT(t->ncounters, 4, "r2pcie counters");
	CHECK(t->pci[0].dev == 19 && t->pci[0].func == 1 && t->pci[0].devid == 0x3c43, "r2pcie D19:F1 3c43");
	CHECK(t->pci[1].devid == 0, "r2pcie has one instance");

	for (const struct pmon_event *e = t->events; e->name; e++)
		CHECK(((e->flags & PMON_EV_NEED_UM) != 0) == tc_in_list(r2_need_um, PMON_ARRAY_SIZE(r2_need_um), e->name),
		      "%s: NEED_UM as libpfm4", e->name);

	/* ring events: ANY by default, the single bits combine, ANY does not */
	static const char *const rings[] = { "UNC_R2_RING_AD_USED", "UNC_R2_RING_AK_USED", "UNC_R2_RING_BL_USED" };
	for (int r = 0; r < 3; r++) {
		const struct pmon_event *e = tc_find_event(t, rings[r]);
		CHECK(e && e->numasks == 7, "%s: 7 umasks", rings[r]);
		tc_check_umask_value(t, rings[r], "CW_EVEN", 0x01);
		tc_check_umask_value(t, rings[r], "CW_ODD", 0x02);
		tc_check_umask_value(t, rings[r], "CCW_EVEN", 0x04);
		tc_check_umask_value(t, rings[r], "CCW_ODD", 0x08);
		tc_check_umask_value(t, rings[r], "CW_ANY", 0x03);
		tc_check_umask_value(t, rings[r], "CCW_ANY", 0x0c);
		tc_check_umask_value(t, rings[r], "ANY", 0x0f);
		const struct pmon_umask *any = tc_find_umask(e, "ANY"), *cw = tc_find_umask(e, "CW_EVEN");
		CHECK(any && any->flags == (PMON_UM_DEFAULT | PMON_UM_EXCL), "%s:ANY default, exclusive", rings[r]);
		CHECK(cw && cw->flags == 0, "%s:CW_EVEN combinable", rings[r]);
	}
	const struct pmon_umask *iv = tc_find_umask(tc_find_event(t, "UNC_R2_RING_IV_USED"), "ANY");
	CHECK(iv && iv->value == 0x0f && (iv->flags & PMON_UM_DEFAULT), "R2 RING_IV_USED:ANY default 0xf");

	tc_check_umask_value(t, "UNC_R2_RXR_CYCLES_NE", "DRS", 0x08);
	tc_check_umask_value(t, "UNC_R2_RXR_CYCLES_NE", "NCB", 0x10);
	tc_check_umask_value(t, "UNC_R2_RXR_CYCLES_NE", "NCS", 0x20);
	static const char *const txr[] = { "UNC_R2_TXR_CYCLES_NE", "UNC_R2_TXR_INSERTS",
					   "UNC_R2_TXR_CYCLES_FULL", "UNC_R2_TXR_NACKS" };
	for (int i = 0; i < 4; i++) {
		tc_check_umask_value(t, txr[i], "AD", 0x01);
		tc_check_umask_value(t, txr[i], "AK", 0x02);
		tc_check_umask_value(t, txr[i], "BL", 0x04);
	}
	static const char *const iio[] = { "UNC_R2_IIO_CREDITS_USED", "UNC_R2_IIO_CREDITS_ACQUIRED",
					   "UNC_R2_IIO_CREDITS_REJECT" };
	for (int i = 0; i < 3; i++) {
		tc_check_umask_value(t, iio[i], "DRS", 0x08);
		tc_check_umask_value(t, iio[i], "NCB", 0x10);
		tc_check_umask_value(t, iio[i], "NCS", 0x20);
	}
	/* libpfm4 accepts TXR_INSERTS bare (control 0x24); the inferred umasks stay optional */
	const struct pmon_event *ins = tc_find_event(t, "UNC_R2_TXR_INSERTS");
	CHECK(ins && !(ins->flags & PMON_EV_NEED_UM) && ins->numasks == 3, "R2 TXR_INSERTS optional umasks");
	/* RING_AD_USED bare = ANY: control 0xf07 */
	const struct pmon_event *ad = tc_find_event(t, "UNC_R2_RING_AD_USED");
	if (ad)
		CHECK_EQ_U64(ad->code | 0x0full << 8, 0xf07, "RING_AD_USED default control");
}

/* ----------------------------------------------------------------- R3QPI */

static const struct tc_exp_ev r3_expected[] = {
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

	tc_check_event_list(t, r3_expected, PMON_ARRAY_SIZE(r3_expected));
	check_pci_box_common(t);

	CHECK(!strcmp(t->name, "r3qpi") && !strcmp(t->pmu_prefix, "snbep_unc_r3qpi"), "r3qpi names");
	CHECK_EQ_INT(t->max_boxes, 2, "r3qpi links");
	CHECK_EQ_INT(t->ncounters, 3, "r3qpi has three counters");
	CHECK(t->pci[0].dev == 19 && t->pci[0].func == 5 && t->pci[0].devid == 0x3c44, "r3qpi link 0 D19:F5 3c44");
	CHECK(t->pci[1].dev == 19 && t->pci[1].func == 6 && t->pci[1].devid == 0x3c45, "r3qpi link 1 D19:F6 3c45");

	for (const struct pmon_event *e = t->events; e->name; e++) {
		CHECK(!(e->cntmask & 0x8), "%s: no counter 3 on R3QPI", e->name);
		CHECK(((e->flags & PMON_EV_NEED_UM) != 0) == tc_in_list(r3_need_um, PMON_ARRAY_SIZE(r3_need_um), e->name),
		      "%s: NEED_UM as libpfm4", e->name);
		for (int k = 0; k < e->numasks; k++)
			CHECK(e->umasks[k].flags & PMON_UM_EXCL, "%s:%s exclusive", e->name, e->umasks[k].name);
	}

	static const char *const rings[] = { "UNC_R3_RING_AD_USED", "UNC_R3_RING_AK_USED", "UNC_R3_RING_BL_USED" };
	for (int r = 0; r < 3; r++) {
		const struct pmon_event *e = tc_find_event(t, rings[r]);
		CHECK(e && e->numasks == 4, "%s: 4 umasks", rings[r]);
		tc_check_umask_value(t, rings[r], "CW_EVEN", 0x01);
		tc_check_umask_value(t, rings[r], "CW_ODD", 0x02);
		tc_check_umask_value(t, rings[r], "CCW_EVEN", 0x04);
		tc_check_umask_value(t, rings[r], "CCW_ODD", 0x08);
	}
	const struct pmon_umask *iv = tc_find_umask(tc_find_event(t, "UNC_R3_RING_IV_USED"), "ANY");
	CHECK(iv && iv->value == 0x0f && (iv->flags & PMON_UM_DEFAULT), "R3 RING_IV_USED:ANY default 0xf");
	const struct pmon_umask *byp = tc_find_umask(tc_find_event(t, "UNC_R3_RXR_BYPASSED"), "AD");
	CHECK(byp && byp->value == 0x01 && (byp->flags & PMON_UM_DEFAULT), "R3 RXR_BYPASSED:AD default");

	static const char *const cls[] = { "UNC_R3_RXR_CYCLES_NE", "UNC_R3_RXR_INSERTS", "UNC_R3_RXR_OCCUPANCY",
					   "UNC_R3_VNA_CREDITS_REJECT", "UNC_R3_VN0_CREDITS_USED",
					   "UNC_R3_VN0_CREDITS_REJECT" };
	for (int i = 0; i < 6; i++) {
		const struct pmon_event *e = tc_find_event(t, cls[i]);
		CHECK(e && e->numasks == 6, "%s: six message classes", cls[i]);
		tc_check_umask_value(t, cls[i], "HOM", 0x01);
		tc_check_umask_value(t, cls[i], "SNP", 0x02);
		tc_check_umask_value(t, cls[i], "NDR", 0x04);
		tc_check_umask_value(t, cls[i], "DRS", 0x08);
		tc_check_umask_value(t, cls[i], "NCB", 0x10);
		tc_check_umask_value(t, cls[i], "NCS", 0x20);
	}
	static const char *const iio[] = { "UNC_R3_IIO_CREDITS_ACQUIRED", "UNC_R3_IIO_CREDITS_REJECT",
					   "UNC_R3_IIO_CREDITS_USED" };
	for (int i = 0; i < 3; i++) {
		tc_check_umask_value(t, iio[i], "DRS", 0x08);
		tc_check_umask_value(t, iio[i], "NCB", 0x10);
		tc_check_umask_value(t, iio[i], "NCS", 0x20);
	}
	/* egress events: libpfm4 takes them bare; the inferred ring umasks stay optional */
	static const char *const txr[] = { "UNC_R3_TXR_CYCLES_NE", "UNC_R3_TXR_INSERTS",
					   "UNC_R3_TXR_CYCLES_FULL", "UNC_R3_TXR_NACK" };
	for (int i = 0; i < 4; i++) {
		const struct pmon_event *e = tc_find_event(t, txr[i]);
		CHECK(e && !(e->flags & PMON_EV_NEED_UM) && e->numasks == 3, "%s: optional ring umasks", txr[i]);
		tc_check_umask_value(t, txr[i], "AD", 0x01);
		tc_check_umask_value(t, txr[i], "AK", 0x02);
		tc_check_umask_value(t, txr[i], "BL", 0x04);
	}
	/* VN0_CREDITS_USED:NCS = control 0x2036 (libpfm4's value) */
	const struct pmon_event *vn0 = tc_find_event(t, "UNC_R3_VN0_CREDITS_USED");
	const struct pmon_umask *ncs = tc_find_umask(vn0, "NCS");
	if (vn0 && ncs)
		CHECK_EQ_U64(vn0->code | ncs->value << 8, 0x2036, "VN0_CREDITS_USED:NCS control");
}

int main(void)
{
	test_r2pcie();
	test_r3qpi();
	return check_done("test_tables_r2_r3");
}
