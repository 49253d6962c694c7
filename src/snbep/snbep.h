/*
 * snbep.h - declarations shared by the SNB-EP box descriptions.
 *
 * Every box's modifier array starts with e, i, t in that order, so the
 * PMON_M_* bits below mean the same in every box; box-specific modifiers
 * follow from index 3 on.
 */
#ifndef PMON_SNBEP_H
#define PMON_SNBEP_H

#include "../tables.h"
#include "../metric.h"
#include "../names.h"

/* The generation's tables, which its descriptor (gen.c) hands to the
 * engine: every box type (boxes.c), the derived metrics and their groups
 * (metrics.c), the perf PMU names and the units of a count (perf_names.c). */
extern const struct pmon_box_type *const pmon_snbep_boxes[];
extern const int pmon_snbep_nboxes;
extern const struct pmon_metric_def pmon_snbep_metrics[];
extern const int pmon_snbep_nmetrics;
extern const struct pmon_metric_group pmon_snbep_metric_groups[];
extern const int pmon_snbep_nmetric_groups;
extern const struct pmon_perf_pmu pmon_snbep_perf_pmus[];
extern const struct pmon_unit_row pmon_snbep_units[];

#define PMON_M_E    (1u << 0)
#define PMON_M_I    (1u << 1)
#define PMON_M_T    (1u << 2)
#define PMON_M_STD  (PMON_M_E | PMON_M_I | PMON_M_T)

#define SNBEP_MOD_EDGE \
	{ .name = "e", .desc = "edge detect: count only when the threshold test turns true", \
	  .kind = PMON_MOD_CTL, .shift = 18, .width = 1, .min = 0, .max = 1 }
#define SNBEP_MOD_INV \
	{ .name = "i", .desc = "invert the threshold test: count when below the threshold", \
	  .kind = PMON_MOD_CTL, .shift = 23, .width = 1, .min = 0, .max = 1 }
#define SNBEP_MOD_THRESH8 \
	{ .name = "t", .desc = "threshold: count cycles in which the increment is at least this", \
	  .kind = PMON_MOD_CTL, .shift = 24, .width = 8, .min = 0, .max = 255 }
#define SNBEP_MOD_THRESH5 \
	{ .name = "t", .desc = "threshold: count cycles in which the increment is at least this", \
	  .kind = PMON_MOD_CTL, .shift = 24, .width = 5, .min = 0, .max = 31 }

/* Control bits writable in each box family (enable bit excluded). */
#define SNBEP_CTL_GENERIC  0xff84ffffu   /* ev_sel umask edge invert thresh[31:24] */
#define SNBEP_CTL_CBO      0xff8cffffu   /* + tid_en */
#define SNBEP_CTL_QPI      0xffa4ffffu   /* + ev_sel_ext */
#define SNBEP_CTL_UBOX     0x1f84ffffu   /* thresh[28:24] */
#define SNBEP_CTL_PCU      0xdfa4c0ffu   /* ev_sel occ_sel edge ext invert thresh[28:24] occ_inv occ_edge */

/* What every SNB-EP PCI box shares (cf. the kernel's
 * SNBEP_UNCORE_PCI_COMMON_INIT): the register block of the function (box
 * control at 0xF4, counter controls from 0xD8, counters from 0xA0 as
 * low/high dword pairs), a box control, and 8-bit thresholds.  A box adds
 * its name, instances, counters, control bits, functions and tables. */
#define SNBEP_PCI_COMMON_INIT \
	.space = PMON_SPACE_PCI, \
	.thresh_bits = 8, \
	.has_box_ctl = 1, \
	.pci_box_ctl = 0xf4, \
	.pci_ctl0 = 0xd8, \
	.pci_ctr0 = 0xa0

/* The modifiers of a box with no filter: e, i and an 8-bit t (boxes.c). */
extern const struct pmon_modifier pmon_snbep_eit8_mods[3];

extern const struct pmon_box_type pmon_snbep_ubox, pmon_snbep_cbo, pmon_snbep_ha,
	pmon_snbep_imc, pmon_snbep_pcu, pmon_snbep_qpi, pmon_snbep_r2pcie, pmon_snbep_r3qpi;

/* Event tables, one per box type, defined in <box>_events.c; each ends
 * with a terminating entry { .name = NULL }. */
#define SNBEP_EVENTS(box) \
	extern const struct pmon_event pmon_snbep_##box##_events[]
SNBEP_EVENTS(ubox); SNBEP_EVENTS(cbo); SNBEP_EVENTS(ha); SNBEP_EVENTS(imc);
SNBEP_EVENTS(pcu); SNBEP_EVENTS(qpi); SNBEP_EVENTS(r2pcie); SNBEP_EVENTS(r3qpi);

/* The UBox events of Intel's list that pmon does not offer (ubox_events.c). */
extern const struct pmon_excluded_event pmon_snbep_ubox_excluded[];

#endif
