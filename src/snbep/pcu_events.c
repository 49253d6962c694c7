/* pcu_events.c - event table of the SNB-EP PCU (uncore guide section 2.6.5/2.6.6,
 * Intel's Jaketown uncore event list, libpfm4's snbep_unc_pcu names).
 *
 * The PCU has no umask field: the only "umasks" are the occupancy selector
 * values of POWER_STATE_OCCUPANCY, which the engine writes to occ_sel
 * (bits 15:14) because that event carries PMON_EV_OCC.  Events with ext = 1
 * need the extra select bit (bit 21); codes 0x00-0x0B exist with both ext
 * values. */
#include <stddef.h>

#include "snbep.h"

/* Modifier bits: indices into pcu_mods[] in pcu.c. */
#define PCU_M_FF     (1u << 3)   /* "ff": band value for FREQ_BANDn_CYCLES */
#define PCU_M_OCC_E  (1u << 4)   /* "e" on the occupancy event: occ_edge_det */
#define PCU_M_OCC_I  (1u << 5)   /* "i" on the occupancy event: occ_invert */
#define PCU_M_OCC    (PMON_M_T | PCU_M_OCC_E | PCU_M_OCC_I)

/* Filter fields: indices into pcu_fields[] in pcu.c. */
#define PCU_F_BAND(n) (1u << (n))

#define ALL4 0xfu

#define UMASKS(a) .umasks = (a), .numasks = (uint16_t)PMON_ARRAY_SIZE(a)

/* Plain PCU event: any counter, e/i/t. */
#define PCU_EV(nm, cd, x, d) \
	{ .name = nm, .code = cd, .ext = x, .cntmask = ALL4, .mods = PMON_M_STD, .desc = d }

/* Frequency band event n: needs band n of the filter, given with ff=. */
#define PCU_BAND(nm, cd, n, d) \
	{ .name = nm, .code = cd, .ext = 0, .cntmask = ALL4, .fields = PCU_F_BAND(n), \
	  .mods = PMON_M_STD | PCU_M_FF, .desc = d }

/* occ_sel values (1-3), not umask bits; they are mutually exclusive since
 * they share the 2-bit field. */
static const struct pmon_umask pcu_power_state_occ[] = {
	{ .name = "CORES_C0", .value = 1, .flags = PMON_UM_EXCL,
	  .desc = "track the number of cores that are active (C0)" },
	{ .name = "CORES_C3", .value = 2, .flags = PMON_UM_EXCL,
	  .desc = "track the number of cores sleeping in C3" },
	{ .name = "CORES_C6", .value = 3, .flags = PMON_UM_EXCL,
	  .desc = "track the number of cores sleeping in C6" },
};

const struct pmon_event pmon_snbep_pcu_events[] = {
	/* ---- ext = 0 ---- */
	PCU_EV("UNC_P_CLOCKTICKS", 0x00, 0,
	       "PCU clock cycles (constant 800 MHz pclk): the time base for the other PCU ratios"),
	PCU_EV("UNC_P_VOLT_TRANS_CYCLES_INCREASE", 0x01, 0,
	       "Cycles during which the package is raising its core voltage"),
	PCU_EV("UNC_P_VOLT_TRANS_CYCLES_DECREASE", 0x02, 0,
	       "Cycles during which the package is lowering its core voltage"),
	PCU_EV("UNC_P_VOLT_TRANS_CYCLES_CHANGE", 0x03, 0,
	       "Cycles spent in any voltage change, upward or downward"),
	PCU_EV("UNC_P_FREQ_MAX_LIMIT_THERMAL_CYCLES", 0x04, 0,
	       "Cycles in which temperature is the limit that keeps the frequency from going higher"),
	PCU_EV("UNC_P_FREQ_MAX_POWER_CYCLES", 0x05, 0,
	       "Cycles in which the power budget is the limit that keeps the frequency from going higher"),
	PCU_EV("UNC_P_FREQ_MAX_OS_CYCLES", 0x06, 0,
	       "Cycles in which the P-state requested by the OS is what caps the frequency"),
	PCU_EV("UNC_P_FREQ_MAX_CURRENT_CYCLES", 0x07, 0,
	       "Cycles in which the electrical current limit is what caps the frequency"),
	PCU_EV("UNC_P_PROCHOT_INTERNAL_CYCLES", 0x09, 0,
	       "Cycles throttled because an on-die sensor raised PROCHOT (die too hot)"),
	PCU_EV("UNC_P_PROCHOT_EXTERNAL_CYCLES", 0x0a, 0,
	       "Cycles throttled because the platform asserted the external PROCHOT signal"),
	PCU_BAND("UNC_P_FREQ_BAND0_CYCLES", 0x0b, 0,
		 "Cycles with the uncore clock at or above band 0 (ff=, 100 MHz units); e=1: entries, i=1: cycles below"),
	PCU_BAND("UNC_P_FREQ_BAND1_CYCLES", 0x0c, 1,
		 "Cycles with the uncore clock at or above band 1 (ff=, 100 MHz units); e=1: entries, i=1: cycles below"),
	PCU_BAND("UNC_P_FREQ_BAND2_CYCLES", 0x0d, 2,
		 "Cycles with the uncore clock at or above band 2 (ff=, 100 MHz units); e=1: entries, i=1: cycles below"),
	PCU_BAND("UNC_P_FREQ_BAND3_CYCLES", 0x0e, 3,
		 "Cycles with the uncore clock at or above band 3 (ff=, 100 MHz units); e=1: entries, i=1: cycles below"),
	PCU_EV("UNC_P_DEMOTIONS_CORE0", 0x1e, 0,
	       "Times core 0 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_DEMOTIONS_CORE1", 0x1f, 0,
	       "Times core 1 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_DEMOTIONS_CORE2", 0x20, 0,
	       "Times core 2 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_DEMOTIONS_CORE3", 0x21, 0,
	       "Times core 3 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_DEMOTIONS_CORE4", 0x22, 0,
	       "Times core 4 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_DEMOTIONS_CORE5", 0x23, 0,
	       "Times core 5 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_DEMOTIONS_CORE6", 0x24, 0,
	       "Times core 6 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_DEMOTIONS_CORE7", 0x25, 0,
	       "Times core 7 was given a shallower C-state than it requested (C-state demotion)"),
	PCU_EV("UNC_P_MEMORY_PHASE_SHEDDING_CYCLES", 0x2f, 0,
	       "Cycles with the memory interface in phase-shedding mode (saves power, adds DRAM latency)"),
	PCU_EV("UNC_P_VR_HOT_CYCLES", 0x32, 0,
	       "Cycles in which the voltage regulator signals that it is overheating (VR_HOT)"),
	{ .name = "UNC_P_POWER_STATE_OCCUPANCY", .code = 0x80, .ext = 0,
	  .flags = PMON_EV_OCC | PMON_EV_NEED_UM, .cntmask = ALL4, .mods = PCU_M_OCC,
	  UMASKS(pcu_power_state_occ),
	  .desc = "Cores in the chosen C-state, added up every cycle (divide by CLOCKTICKS for the mean); t= for histograms" },

	/* ---- ext = 1 (extra select bit 21) ---- */
	PCU_EV("UNC_P_FREQ_TRANS_CYCLES", 0x00, 1,
	       "Cycles the package spends switching to a new frequency (P-state change in flight)"),
	PCU_EV("UNC_P_FREQ_MIN_IO_P_CYCLES", 0x01, 1,
	       "Cycles in which the I/O bandwidth floor (IO P limit) stops the frequency from dropping lower"),
	PCU_EV("UNC_P_FREQ_MIN_PERF_P_CYCLES", 0x02, 1,
	       "Cycles in which other sockets' latency needs (Perf P limit) stop the frequency from dropping lower"),
	PCU_EV("UNC_P_CORE0_TRANSITION_CYCLES", 0x03, 1,
	       "Cycles core 0 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_CORE1_TRANSITION_CYCLES", 0x04, 1,
	       "Cycles core 1 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_CORE2_TRANSITION_CYCLES", 0x05, 1,
	       "Cycles core 2 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_CORE3_TRANSITION_CYCLES", 0x06, 1,
	       "Cycles core 3 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_CORE4_TRANSITION_CYCLES", 0x07, 1,
	       "Cycles core 4 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_CORE5_TRANSITION_CYCLES", 0x08, 1,
	       "Cycles core 5 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_CORE6_TRANSITION_CYCLES", 0x09, 1,
	       "Cycles core 6 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_CORE7_TRANSITION_CYCLES", 0x0a, 1,
	       "Cycles core 7 spends moving into or out of a C-state"),
	PCU_EV("UNC_P_TOTAL_TRANSITION_CYCLES", 0x0b, 1,
	       "Core C-state transition cycles summed over all cores"),

	{ .name = NULL },
};
