/*
 * nhm.h - declarations shared by the Nehalem-EP / Westmere-EP uncore
 * description (Xeon 5500 and 5600): one uncore PMU per socket, MSR only,
 * eight general counters and the fixed UCLK counter under one global
 * control.
 *
 * Every event of both PMUs accepts the four modifiers of the event select
 * register in this order (libpfm4's names): e, i, c, o.  Box-specific
 * filter modifiers (the QHL matcher's opc and addr) follow from index 4 on.
 */
#ifndef PMON_NHM_H
#define PMON_NHM_H

#include "../tables.h"
#include "../metric.h"
#include "../names.h"

/* MSR_UNCORE_PerfEvtSelx bits (SDM vol. 3B, "Uncore performance monitoring
 * management facility" of the Xeon 5500): ev_sel 7:0, umask 15:8, occupancy
 * counter reset 17, edge 18, PMI 20, enable 22, invert 23, cmask 31:24.
 * PMI is left to the engine (pmon reads, it does not sample). */
#define NHM_CTL_OCC_RST     (1u << 17)
#define NHM_CTL_PMI         (1u << 20)
#define NHM_CTL_VALID       0xff86ffffu   /* ev_sel umask occ_rst edge invert cmask */

/* Modifier indices (bit i of an event's mods). */
enum { NHM_M_E, NHM_M_I, NHM_M_C, NHM_M_O, NHM_M_OPC, NHM_M_ADDR };
#define NHM_M_STD  ((1u << NHM_M_E) | (1u << NHM_M_I) | (1u << NHM_M_C) | (1u << NHM_M_O))

/* Filter fields: the QHL address/opcode matcher (MSR 0x396, filt[0]) and the
 * snoop MESF-transition select (MSR 0x301, filt[1]). */
enum { NHM_F_ADDR, NHM_F_OPC, NHM_F_MSEL, NHM_F_MESF };

extern const struct pmon_box_type pmon_nhm_unc, pmon_wsm_unc;
extern const struct pmon_event pmon_nhm_unc_events[], pmon_wsm_unc_events[];

/* The generation tables, one box type each (unc.c). */
extern const struct pmon_box_type *const pmon_nhm_boxes[];
extern const struct pmon_box_type *const pmon_wsm_boxes[];
extern const int pmon_nhm_nboxes, pmon_wsm_nboxes;

/* The derived metrics (metrics.c): one table each, the groups shared. */
extern const struct pmon_metric_def pmon_nhm_metrics[], pmon_wsm_metrics[];
extern const int pmon_nhm_nmetrics, pmon_wsm_nmetrics;
extern const struct pmon_metric_group pmon_nhm_metric_groups[];
extern const int pmon_nhm_nmetric_groups;

/* The kernel's perf names and the units of a count (perf_names.c). */
extern const struct pmon_perf_pmu pmon_nhm_perf_pmus[], pmon_wsm_perf_pmus[];
extern const struct pmon_unit_row pmon_nhm_units[], pmon_wsm_units[];

#endif
