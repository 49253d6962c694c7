/*
 * divergences.c - the documented deliberate differences between pmon and
 * libpfm4 / Intel's event data (see divergences.h; doc/divergences.md is the
 * same table for humans: keep the two in step).
 *
 * Evidence citations: "guide" is the Intel Xeon E5-2600 Uncore Performance
 * Monitoring Guide 327043-001 (../shared/seeds/001_1fcd362602c8733f.txt,
 * cited by line); libpfm4 is 4.13.0 (Debian libpfm4 4.13.0-1).
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "divergences.h"

#ifndef PMON_ARRAY_SIZE
#define PMON_ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))
#endif


/* Shorthands for the evidence. */
#define GUIDE "E5-2600 uncore guide 327043-001"

const struct pmon_divergence pmon_divergences[] = {
	/* ------------------------------------------------------------ libpfm4 */
	{ DIV_LIBPFM4, "snbep_unc_cbo::UNC_C_CLOCKTICKS:?=1", DIV_PMON_ACCEPTS,
	  "refuses e=, i= and t= on UNC_C_CLOCKTICKS (its table entry has modmsk 0)",
	  "accepts e, i and t as on every other CBo event (e=1 -> ctl 0x40000)",
	  "CLOCKTICKS is the ordinary event 0x00 on counters 0-3 (" GUIDE " L1032, L1118), "
	  "and Cn_MSR_PMON_CTL's thresh/invert/edge_det fields apply to whatever event "
	  "is selected (Table 2-10, L900-L915); libpfm4's modmsk 0 is an omission "
	  "(lib/events/intel_snbep_unc_cbo_events.h, UNC_C_CLOCKTICKS)", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_cbo::*:cf=15", DIV_FILTER,
	  "keeps 3 bits of cf: cf=15 gives tid field 0xe (core 7); cf=8..15 alias cores 0..7",
	  "writes all 4 core bits [4:1] of the tid field: cf=15 gives 0x1e",
	  "the tid field is 5 bits, [0] thread and the core ID above it (Table 2-12, L946), "
	  "and the value for requests not associated with a core is 0x1E = b11110 (L936), "
	  "which needs the fourth core bit; libpfm4's own attribute text says cf is 0-15 "
	  "but its cbo_filt.cid bit-field is 3 bits wide", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_imc::UNC_M_CLOCKTICKS", DIV_CTL,
	  "ctl 0xff (the pseudo event code that names the fixed counter, as in Linux perf)",
	  "ctl 0 with fixed=1: the value for MC_CHy_PCI_PMON_FIXED_CTL without its enable bit "
	  "(the catalogue still reports code 0xff)",
	  "pmon's ctl is always the register value to write, enable excluded; the fixed "
	  "counter's control register has only en (bit 22) and rst (bit 19) (Table 2-62, "
	  "L2143-L2150), so 0xff would set reserved bits", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_pcu::UNC_P_FREQ_TRANS_CYCLES", DIV_PMON_ACCEPTS,
	  "refuses the event without a umask: it demands C0, C3 or C6",
	  "encodes it with no umask (ctl 0x200000)",
	  "libpfm4 gives this event the POWER_STATE_OCCUPANCY umask list "
	  "(snbep_unc_p_occupancy_counters) by copy and paste; the guide lists no umask for "
	  "FREQ_TRANS_CYCLES (L3049-L3056) and the PCU's only umasks are the occupancy "
	  "selects of POWER_STATE_OCCUPANCY (ev_sel bit 7, L2606-L2625)", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_pcu::UNC_P_FREQ_TRANS_CYCLES:C?*", DIV_PMON_REFUSES,
	  "encodes C0/C3/C6 as ctl bits 8-9 (0x100/0x200/0x300)",
	  "refuses: the event takes no umask",
	  "same libpfm4 table bug as above; since the event is not an occupancy event "
	  "(ev_sel bit 7 clear) the value lands in PCU_MSR_PMON_CTL bits 13:8, which are "
	  "reserved (Table 2-75, L2606-L2630)", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_pcu::UNC_P_FREQ_MIN_IO_P_CYCLES", DIV_PMON_ACCEPTS,
	  "refuses the event without a umask: it demands C0, C3 or C6",
	  "encodes it with no umask (ctl 0x200001)",
	  "libpfm4 copy-paste of the occupancy umasks; the guide lists no umask for "
	  "FREQ_MIN_IO_P_CYCLES (L3029-L3036)", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_pcu::UNC_P_FREQ_MIN_IO_P_CYCLES:C?*", DIV_PMON_REFUSES,
	  "encodes C0/C3/C6 as reserved ctl bits 8-9",
	  "refuses: the event takes no umask",
	  "as for UNC_P_FREQ_TRANS_CYCLES:C0", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_pcu::UNC_P_FREQ_MIN_PERF_P_CYCLES", DIV_PMON_ACCEPTS,
	  "refuses the event without a umask: it demands C0, C3 or C6",
	  "encodes it with no umask (ctl 0x200002)",
	  "libpfm4 copy-paste of the occupancy umasks; the guide lists no umask for "
	  "FREQ_MIN_PERF_P_CYCLES (L2758 and its detail entry)", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_pcu::UNC_P_FREQ_MIN_PERF_P_CYCLES:C?*", DIV_PMON_REFUSES,
	  "encodes C0/C3/C6 as reserved ctl bits 8-9",
	  "refuses: the event takes no umask",
	  "as for UNC_P_FREQ_TRANS_CYCLES:C0", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_qpi::UNC_Q_CTO_COUNT", DIV_CTL,
	  "ctl 0x38: no extra select bit",
	  "ctl 0x200038: extra select bit 21 set",
	  "the guide marks CTO_COUNT 'Extra Select Bit: Y' (L3489-L3494) and Intel's data "
	  "agrees (UNC_Q_CTO_COUNT ExtSel 1); without bit 21, code 0x38 selects nothing "
	  "documented.  libpfm4 table bug (intel_snbep_unc_qpi_events.h, .code = 0x38)", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_qpi::UNC_Q_CTO_COUNT:?=*", DIV_CTL,
	  "ctl without bit 21 (e.g. e=1 -> 0x40038)",
	  "ctl with bit 21 (e=1 -> 0x240038)",
	  "as for UNC_Q_CTO_COUNT: the modifiers are encoded alike, only bit 21 differs", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_qpi::UNC_Q_CTO_COUNT:ma*", DIV_PMON_ACCEPTS,
	  "no QPI packet match/mask support: refuses match_*= and mask_*=",
	  "match_*= / mask_*= fill Q_Py_PCI_PMON_PKT_MATCH/MASK (filt[0]/filt[1])",
	  "pmon extension: the guide's packet match/mask facility is counted by programming "
	  "the match/mask registers and selecting CTO_COUNT (" GUIDE " section 2.7.3.3, "
	  "L3257-L3266, Tables 2-88 to 2-91); libpfm4 4.13 has no modifier for them", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_ubo::*:t=32", DIV_PMON_REFUSES,
	  "accepts t up to 255 on the UBox (it uses the 8-bit threshold attribute)",
	  "refuses t > 31",
	  "U_MSR_PMON_CTL's thresh is bits 28:24, 5 bits, and bits 31:29 are reserved "
	  "(Table 2-2, L599-L603): t=32 would write reserved bit 29", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_ubo::*:t=255", DIV_PMON_REFUSES,
	  "accepts t=255 (ctl bits 31:24 = 0xff)",
	  "refuses t > 31",
	  "as for t=32: the UBox threshold is 5 bits (Table 2-2, L599-L603)", NULL, 0 },
	{ DIV_LIBPFM4, "snbep_unc_cbo::UNC_C_TOR_*:*OPC_*", DIV_PMON_REFUSES,
	  "accepts an OPC_ umask with any TOR sub-event and writes the opcode to the box filter",
	  "refuses an OPC_ umask unless an OPCODE sub-event (OPCODE, MISS_OPCODE, NID_OPCODE, "
	  "NID_MISS_OPCODE) reads it",
	  "the TOR sub-event tables list CBoFilter[31:23] only for the OPCODE sub-events ("
	  GUIDE " L1415-L1430, L1441-L1458); with EVICTION, WB or ALL the opcode selects "
	  "nothing, yet it occupies the filter all four counters of the box share",
	  "sets filter field opc", 0 },
	/* ---- libpfm4, core PMUs (offcore response; src/offcore/offcore.h) ---- */
	{ DIV_LIBPFM4, "*::OFFCORE_RESPONSE_*", DIV_PMON_REFUSES,
	  "Nehalem/Westmere: a request with no response umask gets ANY_RESPONSE by default",
	  "refuses: a response umask must be named",
	  "deliberate (src/offcore/offcore.h): pmon does not silently count 'any response' "
	  "when the user named none; the RSP value is the whole point of the event",
	  "needs a umask (response)", 0 },
	{ DIV_LIBPFM4, "*::OFFCORE_RESPONSE_*", DIV_PMON_REFUSES,
	  "Sandy Bridge and later: no supplier (or only snoop umasks) gets ANY_RESPONSE by default",
	  "refuses: name a supplier umask (snoop defaults to SNP_ANY) or ANY_RESPONSE",
	  "deliberate (src/offcore/offcore.h): same rule as for Nehalem; snoop umasks without "
	  "a supplier select nothing useful, and libpfm4 then drops them for ANY_RESPONSE",
	  "needs a value for filter field response", 0 },
	{ DIV_LIBPFM4, "*::OFFCORE_RESPONSE_*:u=*", DIV_PMON_REFUSES,
	  "accepts u= (privilege level filter, PERFEVTSEL USR)",
	  "refuses u and k: USR and OS are always both set",
	  "deliberate (src/offcore/offcore.h): the encoder sets USR|OS and modifiers only add "
	  "bits; offcore traffic is counted for user and kernel alike",
	  "unknown modifier 'u'", 0 },
	{ DIV_LIBPFM4, "*::OFFCORE_RESPONSE_*:k=*", DIV_PMON_REFUSES,
	  "accepts k= (privilege level filter, PERFEVTSEL OS)",
	  "refuses u and k: USR and OS are always both set",
	  "as for u=", "unknown modifier 'k'", 0 },
	{ DIV_LIBPFM4, "*::OFFCORE_RESPONSE_*:e=1", DIV_PMON_ACCEPTS,
	  "refuses e=1 without c>=1 ('edge requires cmask >= 1', lib/pfmlib_intel_x86.c, "
	  "INTEL_X86_PMU_FL_ECMASK)",
	  "accepts e=1 with any c, setting PERFEVTSEL bit 18 (e=1 -> ctl 0x701b7)",
	  "the SDM defines the edge-detect flag independently of the counter mask, and Linux "
	  "perf accepts edge without cmask; the libpfm4 check is its own policy.  pmon's e "
	  "description says to use it with c", NULL, 0 },
	{ DIV_LIBPFM4, "skl::OFFCORE_RESPONSE_*", DIV_FILTER,
	  "SKL ANY_REQUEST (the default request) is 0x18007: bit 16 (ANY_RESPONSE) included",
	  "ANY_REQUEST is 0x8007 (DMND_DATA_RD|DMND_RFO|DMND_CODE_RD|OTHER), bit 16 only with "
	  "ANY_RESPONSE",
	  "libpfm4 table bug: intel_skl_events.h ANY_REQUEST (umodel SKL) has .ucode = 0x1800700 "
	  "although its own uequiv is DMND_DATA_RD:DMND_RFO:DMND_CODE_RD:OTHER = 0x8007; bit 16 "
	  "is ANY_RESPONSE, which turns every supplier/snoop selection into 'any response' "
	  "(Intel's Skylake data never sets bit 16 together with supplier bits)",
	  NULL, 0x10000ull },
	{ DIV_LIBPFM4, "skx::OFFCORE_RESPONSE_*", DIV_FILTER,
	  "SKX L3_MISS encodes bit 26 only (L3_MISS_LOCAL)",
	  "L3_MISS is bits 29:26 (local and remote DRAM, 0x3c000000)",
	  "libpfm4 bug: its table has an SKX L3_MISS of 0xf<<26 but 4.13 encodes the SKL entry "
	  "(bit 26, uequiv L3_MISS_LOCAL); Intel's skylakex_core.json gives L3_MISS as "
	  "0x3FBC000000 with ANY_SNOOP, i.e. bits 29:26 (e.g. "
	  "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP = 0x3FBC000001)",
	  NULL, 0x38000000ull },

	/* ---------------------- libpfm4: Nehalem-EP / Westmere-EP uncore (test_nhm_tables) */
	{ DIV_LIBPFM4, "nhm_unc::UNC_CLK_UNHALTED", DIV_CTL,
	  "ctl 0xff (code 0xff, the pseudo event code of the fixed counter; EN and PMI masked)",
	  "ctl 0 with fixed=1: the value for MSR_UNCORE_FIXED_CTR_CTRL (0x395) without its enable bit",
	  "pmon's ctl is the register value to write, enable excluded; the fixed counter's control "
	  "register has only enable (bit 0) and PMI (bit 2) (SDM vol. 3B, Nehalem uncore), so 0xff "
	  "would set reserved bits.  As for snbep_unc_imc::UNC_M_CLOCKTICKS", NULL, 0 },
	{ DIV_LIBPFM4, "nhm_unc::UNC_QHL_CYCLES_NOT_EMPTY:*=*", DIV_PMON_ACCEPTS,
	  "refuses e, i, c and o on UNC_QHL_CYCLES_NOT_EMPTY (its table entry has no modmsk)",
	  "accepts them as on every other general-counter event (IOH:c=1 -> ctl 0x1000122)",
	  "the edge, invert, cmask and occupancy-reset fields belong to MSR_UNCORE_PerfEvtSelx "
	  "and apply to whatever event it selects (SDM vol. 3B, Nehalem uncore); libpfm4 sets "
	  "modmsk NHM_UNC_ATTRS on every neighbouring QHL event (0x21, 0x23, 0x25) and omits it "
	  "here only (lib/events/intel_nhm_unc_events.h)", NULL, 0 },
	{ DIV_LIBPFM4, "nhm_unc::UNC_QMC_WRITES:FULL_CH*:PARTIAL_CH*", DIV_PMON_ACCEPTS,
	  "refuses a full-line channel umask with a partial-line one (FULL_* and PARTIAL_* are two "
	  "umask groups of which only one may be used)",
	  "ORs them into one umask (FULL_CH0:PARTIAL_CH1 -> umask 0x11, ctl 0x112f)",
	  "the guide gives the six writes as bits of one umask byte, FULL.ANY 07 and PARTIAL.ANY 38 "
	  "being their unions (Nehalem guide L1378-L1385), so any set of them is a union the counter "
	  "can count; libpfm4's group exclusion is its own policy.  FULL_ANY and PARTIAL_ANY stay "
	  "exclusive, as in libpfm4, and FULL_ANY stays the default", NULL, 0 },
	{ DIV_LIBPFM4, "wsm_unc::UNC_CLK_UNHALTED", DIV_CTL,
	  "ctl 0xff (code 0xff, the pseudo event code of the fixed counter; EN and PMI masked)",
	  "ctl 0 with fixed=1: the value for MSR_UNCORE_FIXED_CTR_CTRL (0x395) without its enable bit",
	  "pmon's ctl is the register value to write, enable excluded; the fixed counter's control "
	  "register has only enable (bit 0) and PMI (bit 2) (SDM vol. 3B, Nehalem uncore), so 0xff "
	  "would set reserved bits.  As for snbep_unc_imc::UNC_M_CLOCKTICKS", NULL, 0 },
	{ DIV_LIBPFM4, "wsm_unc::UNC_QHL_CYCLES_NOT_EMPTY:*=*", DIV_PMON_ACCEPTS,
	  "refuses e, i, c and o on UNC_QHL_CYCLES_NOT_EMPTY (its table entry has no modmsk)",
	  "accepts them as on every other general-counter event (IOH:c=1 -> ctl 0x1000122)",
	  "the edge, invert, cmask and occupancy-reset fields belong to MSR_UNCORE_PerfEvtSelx "
	  "and apply to whatever event it selects (SDM vol. 3B, Nehalem uncore); libpfm4 sets "
	  "modmsk NHM_UNC_ATTRS on every neighbouring QHL event (0x21, 0x23, 0x25) and omits it "
	  "here only (lib/events/intel_wsm_unc_events.h)", NULL, 0 },
	{ DIV_LIBPFM4, "wsm_unc::UNC_QMC_WRITES:FULL_CH*:PARTIAL_CH*", DIV_PMON_ACCEPTS,
	  "refuses a full-line channel umask with a partial-line one (FULL_* and PARTIAL_* are two "
	  "umask groups of which only one may be used)",
	  "ORs them into one umask (FULL_CH0:PARTIAL_CH1 -> umask 0x11, ctl 0x112f)",
	  "the guide gives the six writes as bits of one umask byte, FULL.ANY 07 and PARTIAL.ANY 38 "
	  "being their unions (Nehalem guide L1378-L1385), so any set of them is a union the counter "
	  "can count; libpfm4's group exclusion is its own policy.  FULL_ANY and PARTIAL_ANY stay "
	  "exclusive, as in libpfm4, and FULL_ANY stays the default", NULL, 0 },

	/* -------------------------------------------------------------- Intel */
	{ DIV_INTEL, "iMC/UNC_M_CLOCKTICKS", DIV_CODE,
	  "EventCode 0x0, UMask 0x0 on general counters 0-3",
	  "the DCLK fixed counter: catalogue code 0xff, ctl 0, fixed=1 (as libpfm4 and Linux)",
	  "the guide documents the DRAM clock only as the fixed counter MC_CHy_PCI_PMON_FIXED_CTR "
	  "(L2063, L2136-L2150) and its iMC event table has no clock event (L2187-L2210): event "
	  "0x00 on a general iMC counter is undocumented", NULL, 0 },
	{ DIV_INTEL, "UBOX/UNC_U_CLOCKTICKS", DIV_CODE,
	  "EventCode 0x0, UMask 0x0 on general counters 0-1",
	  "the UCLK fixed counter U_MSR_PMON_UCLK_FIXED_CTL/CTR (0xC08/0xC09): catalogue code "
	  "0xff, ctl 0, fixed=1",
	  "the guide's UBox has two events only, EVENT_MSG and LOCK_CYCLES (L652-L653), and "
	  "documents UCLK as the fixed counter (L573, L622-L639); event 0x00 on a general UBox "
	  "counter is undocumented", NULL, 0 },
	{ DIV_INTEL, "MATRIX/L3_MISS_REMOTE_DRAM", DIV_CODE,
	  "Jaketown_matrix_bit_definitions.json: L3_MISS_REMOTE_DRAM = bits 22-30 (0x7fc00000), "
	  "i.e. local DRAM bit 22 included",
	  "LLC_MISS_REMOTE_DRAM (= LLC_MISS_REMOTE) is bits 30:23 (0x7f800000); local + remote is "
	  "L3_MISS (bits 30:22)",
	  "Intel's own SNB-EP event list uses bits 30:23 for remote DRAM: Jaketown_core.json "
	  "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_MISS.REMOTE_DRAM = 0x67f800001 while "
	  "...LLC_MISS.LOCAL_DRAM = 0x600400001 (bit 22); the bit-definition row contradicts it, "
	  "and libpfm4's snb_ep LLC_MISS_REMOTE_DRAM is 0xff<<23 as well", NULL, 0 },
	{ DIV_INTEL, "CBO/UNC_C_LLC_LOOKUP.NID", DIV_CODE,
	  "UMask 0x41: bit 0 and the NID bit, no request-type bit",
	  "LLC_LOOKUP:NID is 0x43: NID is a qualifier in its own umask group that adds to a "
	  "request type, DATA_READ (0x03) by default (NID:WRITE 0x45, NID:ANY 0x5f), as libpfm4 "
	  "encodes it",
	  "umask bits 3:1 choose the request type looked up (DATA_READ 0x03, WRITE 0x05, "
	  "REMOTE_SNOOP 0x09, guide Table 2-16, L1155-L1159); the NID bit only narrows a lookup "
	  "to target nodes ('in conjunction with STATE', L1159), so 0x41 names no request type. "
	  "The filter fields (state and nid) agree", NULL, 0 },
	{ DIV_INTEL, "PCU/UNC_P_DEMOTIONS_CORE*", DIV_INTEL_FILTER,
	  "Filter PCUFilter[7:0] for CORE0, CORE1 and CORE3-7 (null for CORE2)",
	  "no filter: the events program only their control register",
	  "PCUFilter[7:0] is the frequency-band byte (guide Table 2-77: band thresholds in 100 MHz "
	  "units, used by FREQ_BAND0_CYCLES); nothing in the guide says what a frequency threshold "
	  "means for a C-state demotion count, the dependency is missing for CORE2 in both the "
	  "guide and Intel's data, Linux programs the band filter only for events 0xb-0xe and "
	  "libpfm4 refuses ff= on these events; pmon will not write a register whose effect it "
	  "cannot state", NULL, 0 },
};
const int pmon_ndivergences = PMON_ARRAY_SIZE(pmon_divergences);

const struct pmon_not_in_guide pmon_not_in_guide[] = {
	{ "IRP", NULL,
	  "the guide documents no IRP box: its box list is UBox, CBo, HA, iMC, PCU, QPI, R2PCIe "
	  "and R3QPI (Table 1-1, L271-L281; sections L285-L296); Intel's Jaketown data has 37 IRP "
	  "entries (the IIO ring port, documented from Ivy Bridge-EP on) and pmon has no IRP box" },
	{ "UBOX", "UNC_U_FILTER_MATCH.*",
	  "not in the guide's UBox event list (EVENT_MSG, LOCK_CYCLES: L652-L653); ENABLE and "
	  "U2C_ENABLE need a 'UBoxFilter[3:0]' but the guide's UBox has no filter register (L539, "
	  "L549)" },
	{ "UBOX", "UNC_U_MSG_CHNL_SIZE_COUNT.*",
	  "not in the guide's UBox event list (L652-L653); Intel marks it ExtSel 1, but "
	  "U_MSR_PMON_CTL has no extra select bit (bits 21:20 reserved, Table 2-2, L599-L607)" },
	{ "UBOX", "UNC_U_PHOLD_CYCLES.*",
	  "not in the guide's UBox event list (L652-L653); ExtSel 1, which U_MSR_PMON_CTL does not "
	  "have (Table 2-2, L599-L607)" },
	{ "UBOX", "UNC_U_RACU_REQUESTS.*",
	  "not in the guide's UBox event list (L652-L653); ExtSel 1, which U_MSR_PMON_CTL does not "
	  "have (Table 2-2, L599-L607)" },
};
const int pmon_nnot_in_guide = PMON_ARRAY_SIZE(pmon_not_in_guide);

int div_glob(const char *p, const char *s)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			while (p[1] == '*')
				p++;
			if (!p[1])
				return 1;
			for (; *s; s++)
				if (div_glob(p + 1, s))
					return 1;
			return 0;
		}
		if (!*s)
			return 0;
		if (*p != '?' && tolower((unsigned char)*p) != tolower((unsigned char)*s))
			return 0;
	}
	return !*s;
}

/* "snbep_unc_cbo3::X" -> "snbep_unc_cbo::X" */
static void strip_instance(const char *in, char *out, size_t len)
{
	const char *sep = strstr(in, "::");
	size_t n = sep ? (size_t)(sep - in) : 0;
	while (n > 0 && isdigit((unsigned char)in[n - 1]))
		n--;
	if (!sep || n + strlen(sep) + 1 > len) {
		strncpy(out, in, len - 1);
		out[len - 1] = 0;
		return;
	}
	memcpy(out, in, n);
	strcpy(out + n, sep);
}

int div_find_pfm(const char *evstr, int kind, const char *pmon_err, unsigned long long filt_xor)
{
	char a[512], b[512];
	strip_instance(evstr, a, sizeof(a));
	for (int i = 0; i < pmon_ndivergences; i++) {
		if (pmon_divergences[i].source != DIV_LIBPFM4)
			continue;
		strip_instance(pmon_divergences[i].match, b, sizeof(b));
		if (!div_glob(b, a))
			continue;
		const struct pmon_divergence *d = &pmon_divergences[i];
		if (d->pmon_error && (kind != DIV_PMON_REFUSES || !pmon_err || !strstr(pmon_err, d->pmon_error)))
			continue;
		if (d->filt_xor && (kind != DIV_FILTER || !filt_xor || (filt_xor & ~d->filt_xor)))
			continue;
		return i;
	}
	return -1;
}

int div_find_intel(const char *unit, const char *event)
{
	char a[512];
	size_t n = strlen(unit) + strlen(event) + 2;
	if (n > sizeof(a))
		return -1;
	strcpy(a, unit);
	strcat(a, "/");
	strcat(a, event);
	for (int i = 0; i < pmon_ndivergences; i++)
		if (pmon_divergences[i].source == DIV_INTEL && div_glob(pmon_divergences[i].match, a))
			return i;
	return -1;
}

int div_find_not_in_guide(const char *unit, const char *event)
{
	for (int i = 0; i < pmon_nnot_in_guide; i++) {
		const struct pmon_not_in_guide *g = &pmon_not_in_guide[i];
		if (strcasecmp(g->unit, unit))
			continue;
		if (!g->event || div_glob(g->event, event))
			return i;
	}
	return -1;
}

const char *div_kind_name(int kind)
{
	switch (kind) {
	case DIV_CTL: return "ctl differs";
	case DIV_FILTER: return "filter differs";
	case DIV_CTL_FILTER: return "ctl and filter differ";
	case DIV_PMON_REFUSES: return "pmon refuses, source accepts";
	case DIV_PMON_ACCEPTS: return "pmon accepts, source refuses";
	case DIV_NO_PMON: return "no pmon counterpart";
	case DIV_CODE: return "event code/umask/ext-select differ";
	case DIV_INTEL_FILTER: return "filter fields differ";
	case 0: return "no difference";
	default: return "several differences";
	}
}
