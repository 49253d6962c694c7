/*
 * offcore.h - declarations shared by the core-PMU (offcore response) tables.
 *
 * One box type per core-PMU generation, named as libpfm4 names that PMU
 * (nhm, nhm_ex, wsm, wsm_dp, snb, snb_ep, skl, skx).  Each has the events
 * OFFCORE_RESPONSE_0 (event 0xB7, MSR_OFFCORE_RSP_0 = 0x1A6, filter word 0)
 * and, except Nehalem, OFFCORE_RESPONSE_1 (event 0xBB, MSR_OFFCORE_RSP_1 =
 * 0x1A7, filter word 1).  The umask values are RSP MSR bits (PMON_EV_OFFCORE).
 *
 * Umask groups: 0 = request type, 1 = response (Nehalem/Westmere) or
 * supplier (Sandy Bridge and later), 2 = snoop result (Sandy Bridge and
 * later).  Rules, as in libpfm4 except where marked:
 *  - no request named: ANY_REQUEST (default of group 0);
 *  - NHM/WSM: a response umask is REQUIRED (need_grps bit 1).  libpfm4
 *    defaults to ANY_RESPONSE instead; pmon refuses an event that would count
 *    "any response" without being asked to (deliberate divergence);
 *  - SNB and later: either ANY_RESPONSE alone (bit 16, no supplier and no
 *    snoop bits, as libpfm4 and Intel encode it), or at least one supplier
 *    umask, whose snoop bits default to SNP_ANY when no snoop umask is named.
 *    Snoop umasks without a supplier, or nothing at all, are an error
 *    (libpfm4 would add ANY_RESPONSE: deliberate divergence).
 *
 * How the SNB+ rule is expressed with the generic engine: the engine's
 * group defaults cannot make ANY_RESPONSE (group 1) suppress the snoop
 * default (group 2), so ANY_RESPONSE sits in the snoop group as an exclusive
 * umask (naming it suppresses SNP_ANY and refuses any snoop umask, like
 * libpfm4's "ANY_RESPONSE overrides supplier and snoop").  The "a response is
 * required" check uses two auxiliary filter fields per RSP word that lie over
 * the RSP value itself (they add no bits):
 *    "response" = bits 30:17 (suppliers), "snoop" = bits 37:31.
 * Every snoop umask (SNP_ANY included) requires the response field, which
 * only supplier umasks fill (through filt_set); every supplier umask requires
 * the snoop field, which only snoop umasks fill.  Hence:
 *    DMND_RFO                 -> SNP_ANY default needs a supplier: error
 *    DMND_RFO:SNP_MISS        -> error (no supplier)
 *    DMND_RFO:LLC_HITM        -> LLC_HITM | SNP_ANY
 *    DMND_RFO:ANY_RESPONSE    -> bit 16 only
 *    ANY_RESPONSE:LLC_HITM    -> error (the supplier has no snoop bits)
 *    ANY_RESPONSE:SNP_MISS    -> error (exclusive in its group)
 * So need_grps is 0 on SNB and later (group 0 always has its default), and a
 * missing response fails with PMON_EQUAL ("... needs a value for filter
 * field response ..."), not PMON_EUMASK as on NHM/WSM.  A cleaner engine-level
 * alternative would be a umask flag meaning "no defaults for higher groups,
 * and they must stay empty" (libpfm4's EXCL_GRP_GT) on ANY_RESPONSE in group 1.
 * The umask arrays exist once per RSP word (filt_set must name the word),
 * generated from one list per generation with the OC_* macros below.
 *
 * Modifiers (libpfm4's names for the core PMU): e (edge, bit 18), i (invert,
 * bit 23), c (counter mask, bits 31:24), t (AnyThread, bit 21).  Note that
 * on the core PMU libpfm4's "t" is AnyThread, not the uncore threshold; the
 * threshold is "c".  Not accepted: u and k (pmon always counts both user and
 * kernel: the encoder sets USR and OS, and a modifier can only add bits), and
 * libpfm4's Skylake intx/intxcp (TSX filters in PERFEVTSEL bits 32/33, of no
 * use for offcore events).
 */
#ifndef PMON_OFFCORE_H
#define PMON_OFFCORE_H

#include <stddef.h>

#include "../tables.h"

/* Event codes and registers common to every generation. */
#define OC_EV_RSP0          0xb7
#define OC_EV_RSP1          0xbb
#define OC_MSR_PERFEVTSEL0  0x186
#define OC_MSR_PMC0         0xc1
#define OC_MSR_RSP0         0x1a6
#define OC_MSR_RSP1         0x1a7

/* IA32_PERFEVTSELx bits software may set through pmon: event select,
 * umask, USR, OS, edge, AnyThread, invert, cmask (INT, PC and EN excluded). */
#define OC_CTL_VALID        0xffa7ffffu

/* Filter fields: indices into the box's field array.  NHM has rsp0 only,
 * WSM rsp0 and rsp1, SNB and later all six (pmon_core_fields_snb). */
enum {
	OC_F_RSP0 = 0,      /* the MSR_OFFCORE_RSP_0 value */
	OC_F_RSP1 = 1,      /* the MSR_OFFCORE_RSP_1 value */
	OC_F_SUP0 = 2,      /* auxiliary: supplier bits of RSP_0 */
	OC_F_SUP1 = 3,
	OC_F_SNP0 = 4,      /* auxiliary: snoop bits of RSP_0 */
	OC_F_SNP1 = 5,
};

/* Modifier bits (index into pmon_core_mods). */
#define OC_M_E    (1u << 0)
#define OC_M_I    (1u << 1)
#define OC_M_C    (1u << 2)
#define OC_M_T    (1u << 3)
#define OC_M_ALL  (OC_M_E | OC_M_I | OC_M_C | OC_M_T)
#define OC_NMODS  4

#define OC_BIT(n) (1ull << (n))

extern const struct pmon_modifier pmon_core_mods[OC_NMODS];
extern const struct pmon_filter_field pmon_core_fields_nhm[1];
extern const struct pmon_filter_field pmon_core_fields_wsm[2];
extern const struct pmon_filter_field pmon_core_fields_snb[6];

/* ---- umask entries (each macro ends with a comma) ---- */

/* Request type (group 0). */
#define OC_REQ(n, v, d) \
	{ .name = (n), .value = (v), .grp = 0, .desc = (d) },
#define OC_REQ_DFL(n, v, d) \
	{ .name = (n), .value = (v), .flags = PMON_UM_DEFAULT, .grp = 0, .desc = (d) },

/* Nehalem/Westmere response type (group 1; required, no default). */
#define OC_RSP(n, v, d) \
	{ .name = (n), .value = (v), .grp = 1, .desc = (d) },

/* SNB+ supplier (group 1) on RSP word w: fills the supplier field, needs
 * the snoop field. */
#define OC_SUP(w, n, v, d) \
	{ .name = (n), .value = (v), .grp = 1, .fields = 1u << (OC_F_SNP0 + (w)), \
	  .filt_set = { [w] = (v) }, .desc = (d) },

/* SNB+ snoop (group 2) on RSP word w: fills the snoop field, needs the
 * supplier field. */
#define OC_SNP(w, n, v, d) \
	{ .name = (n), .value = (v), .grp = 2, .fields = 1u << (OC_F_SUP0 + (w)), \
	  .filt_set = { [w] = (v) }, .desc = (d) },
#define OC_SNP_DFL(w, n, v, d) \
	{ .name = (n), .value = (v), .flags = PMON_UM_DEFAULT, .grp = 2, \
	  .fields = 1u << (OC_F_SUP0 + (w)), .filt_set = { [w] = (v) }, .desc = (d) },

/* SNB+ ANY_RESPONSE (bit 16): alone in the snoop group, needs nothing. */
#define OC_ANY_RESPONSE(d) \
	{ .name = "ANY_RESPONSE", .value = OC_BIT(16), .flags = PMON_UM_EXCL, .grp = 2, .desc = (d) },

/* ---- events ---- */

#define OC_EVENT(nm, code_, field, need, um, d) \
	{ .name = (nm), .code = (code_), .flags = PMON_EV_OFFCORE, .cntmask = 0xf, \
	  .fields = 1u << (field), .mods = OC_M_ALL, .need_grps = (need), \
	  .umasks = (um), .numasks = PMON_ARRAY_SIZE(um), .desc = (d) }

/* What every core box type shares. */
#define OC_BOX_COMMON \
	.name = "core", .perf_name = "cpu", .space = PMON_SPACE_CORE, .max_boxes = 1, \
	.ncounters = 4, .width = 48, .thresh_bits = 8, .ctl_valid = OC_CTL_VALID, \
	.has_box_ctl = 0, .has_rst_ctrs = 0, \
	.msr_ctl0 = OC_MSR_PERFEVTSEL0, .msr_ctr0 = OC_MSR_PMC0, .msr_stride = 0, \
	.msr_glb_ctl = 0x38f, .glb_fixed_bit = 7ull << 32, \
	.mods = pmon_core_mods, .nmods = OC_NMODS

extern const struct pmon_box_type pmon_core_nhm, pmon_core_nhm_ex,
	pmon_core_wsm, pmon_core_wsm_dp, pmon_core_snb, pmon_core_snb_ep,
	pmon_core_skl, pmon_core_skx;

#endif
