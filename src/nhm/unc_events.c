/*
 * unc_events.c - event tables of the Nehalem-EP and Westmere-EP uncore PMUs
 * (registers in unc.c).
 *
 * Names, codes and umasks follow libpfm4 4.13's nhm_unc and wsm_unc (what
 * users type); the descriptions are pmon's.  Umask groups and exclusivity
 * follow libpfm4 (an aggregate umask such as ANY, LINK_0 or HITM stands
 * alone), except where doc/divergences.md ("Nehalem-EP and Westmere-EP")
 * says otherwise.  Events and umasks the performance analysis guide
 * (../shared/seeds/000_*, cited by line) has and libpfm4 lacks are marked
 * "guide only".  Every event may use every general counter: libpfm4 and the
 * guide restrict none (events sharing MSR 0x396 or 0x301 are kept apart by
 * the shared-register rule instead).
 */
#include <stddef.h>

#include "nhm.h"

#define UM(n, v, f, d) { .name = (n), .value = (v), .flags = (f), .desc = (d) }
#define D (PMON_UM_DEFAULT | PMON_UM_EXCL)
#define X PMON_UM_EXCL
#define UMASKS(a) .umasks = (a), .numasks = PMON_ARRAY_SIZE(a)
#define NEED PMON_EV_NEED_UM
#define EV(n, c, f, u, d) { .name = (n), .code = (c), .flags = (f), .cntmask = 0xff, \
			     .mods = NHM_M_STD, u, .desc = (d) }
#define EV0(n, c, d) { .name = (n), .code = (c), .cntmask = 0xff, .mods = NHM_M_STD, .desc = (d) }

/* ---------------------------------------------------------- global queue */

static const struct pmon_umask trk_um[] = {
	UM("READ_TRACKER", 0x01, 0, "the read tracker (32 entries: core reads that missed L2)"),
	UM("WRITE_TRACKER", 0x02, 0, "the write tracker (16 entries: core writebacks)"),
	UM("PEER_PROBE_TRACKER", 0x04, 0, "the peer probe tracker (12 entries: snoops arriving over QPI)"),
};

static const struct pmon_umask gq_alloc_um[] = {
	UM("READ_TRACKER", 0x01, 0, "entries allocated in the read tracker"),
	UM("RT_LLC_MISS", 0x02, 0, "read tracker entries whose LLC lookup missed"),
	UM("RT_TO_LLC_RESP", 0x04, 0, "read tracker entries reaching the LLC response stage"),
	UM("RT_TO_RTID_ACQUIRED", 0x08, 0, "read tracker LLC misses that went on to acquire an RTID (a QPI request ID)"),
	UM("WT_TO_RTID_ACQUIRED", 0x10, 0, "write tracker LLC misses that went on to acquire an RTID"),
	UM("WRITE_TRACKER", 0x20, 0, "entries allocated in the write tracker"),
	UM("PEER_PROBE_TRACKER", 0x40, 0, "entries allocated in the peer probe tracker"),
};

/* Guide only (Tables 22 and 24, L1141-L1150, L1200-L1208): the occupancy
 * behind UNC_GQ_ALLOC, in the guide's umask names, and the six FULL/BUSY
 * forms that add a counter mask of 32 or 1.  The guide prints the
 * RT_TO_RTID_ACQUIRED forms with umask 80; Table 22 gives 08
 * (doc/divergences.md). */
#define CMASK(n) ((uint32_t)(n) << 24)
static const struct pmon_umask gq_occ_um[] = {
	UM("RT", 0x01, 0, "read tracker occupancy, allocation to deallocation"),
	UM("RT_LLC_MISS", 0x02, 0, "read tracker entries that missed the LLC, per cycle"),
	UM("RT_TO_LLC_RESP", 0x04, 0, "read tracker entries waiting for the LLC response, per cycle"),
	UM("RT_TO_RTID_ACQUIRED", 0x08, 0, "read tracker LLC misses waiting for an RTID, per cycle"),
	UM("WT_TO_RTID_ACQUIRED", 0x10, 0, "write tracker LLC misses waiting for an RTID, per cycle"),
	UM("WT", 0x20, 0, "write tracker occupancy, allocation to deallocation"),
	UM("PPT", 0x40, 0, "peer probe tracker occupancy, allocation to deallocation"),
	{ .name = "RT_LLC_MISS_FULL", .value = 0x02, .flags = X, .ctl_set = CMASK(32),
	  .desc = "cycles with all 32 read tracker entries in the LLC-miss stage (cmask 32)" },
	{ .name = "RT_TO_LLC_RESP_FULL", .value = 0x04, .flags = X, .ctl_set = CMASK(32),
	  .desc = "cycles with all 32 read tracker entries waiting for the LLC (cmask 32)" },
	{ .name = "RT_TO_RTID_ACQUIRED_FULL", .value = 0x08, .flags = X, .ctl_set = CMASK(32),
	  .desc = "cycles with all 32 read tracker entries waiting for an RTID (cmask 32)" },
	{ .name = "RT_LLC_MISS_BUSY", .value = 0x02, .flags = X, .ctl_set = CMASK(1),
	  .desc = "cycles with at least one read tracker entry in the LLC-miss stage (cmask 1)" },
	{ .name = "RT_TO_LLC_RESP_BUSY", .value = 0x04, .flags = X, .ctl_set = CMASK(1),
	  .desc = "cycles with at least one read tracker entry waiting for the LLC (cmask 1)" },
	{ .name = "RT_TO_RTID_ACQUIRED_BUSY", .value = 0x08, .flags = X, .ctl_set = CMASK(1),
	  .desc = "cycles with at least one read tracker entry waiting for an RTID (cmask 1)" },
};

/* The guide lost these two tables' names (L1214-L1227) and prints the
 * cores 1+3 umask as 40 or 00; libpfm4's names and 0x10 are kept. */
static const struct pmon_umask gq_from_um[] = {
	UM("QPI", 0x01, 0, "from the QPI links"),
	UM("QMC", 0x02, 0, "from the integrated memory controller"),
	UM("LLC", 0x04, 0, "from the LLC"),
	UM("CORES_02", 0x08, 0, "from cores 0 and 2"),
	UM("CORES_13", 0x10, 0, "from cores 1 and 3"),
};
static const struct pmon_umask gq_to_um[] = {
	UM("QPI_QMC", 0x01, 0, "to the QPI links or the memory controller"),
	UM("LLC", 0x02, 0, "to the LLC"),
	UM("CORES", 0x04, 0, "to the cores"),
};

/* Snoop responses the GQ sends for lines homed here or on the other
 * socket (Tables 26 and 27, L1237-L1260).  HIT and HITM are the guide's
 * sums; libpfm4 has HITM for remote-home lines only and HIT nowhere. */
static const struct pmon_umask snp_um[] = {
	UM("I_STATE", 0x01, 0, "the LLC did not hold the line"),
	UM("S_STATE", 0x02, 0, "the LLC held the line shared"),
	UM("FWD_S_STATE", 0x04, 0, "the LLC held the line exclusive, forwarded it and kept it shared"),
	UM("FWD_I_STATE", 0x08, 0, "the LLC forwarded a modified line to a read for ownership"),
	UM("CONFLICT", 0x10, 0, "the snoop hit a line with a conflicting request of its own"),
	UM("WB", 0x20, 0, "the LLC held the line modified and wrote it back for a read"),
	UM("HITM", 0x24, X, "the line was modified here: WB and FWD_S_STATE together"),
	UM("HIT", 0x1a, X, "the line was present and clean here: S_STATE, FWD_I_STATE and CONFLICT (guide only)"),
};

/* Guide only (Table 28, L1262-L1278): MESF transitions of LLC lines caused
 * by snoops.  The _HIT_ forms choose one transition in MSR 0x301, one value
 * at a time for the whole uncore ("there is only one MSR").  The guide lost
 * the event's name; UNC_GQ_SNOOP and the umask names are the SDM's. */
#define MESF(n, v, bit, d) { .name = (n), .value = (v), .flags = X | PMON_UM_SELF, .fields = 1u << NHM_F_MESF, \
			     .filt_set = { 0, (bit) }, .desc = (d) }
static const struct pmon_umask gq_snoop_um[] = {
	UM("GOTO_S", 0x01, X, "snoops that left a line shared"),
	UM("GOTO_I", 0x02, X, "snoops that invalidated a line"),
	MESF("GOTO_S_HIT_M", 0x04, 0x01, "snoops that took a line from M to S (MSR 0x301 = 0x01)"),
	MESF("GOTO_S_HIT_E", 0x04, 0x02, "snoops that took a line from E to S (MSR 0x301 = 0x02)"),
	MESF("GOTO_S_HIT_S", 0x04, 0x04, "snoops that left a shared line shared (MSR 0x301 = 0x04)"),
	MESF("GOTO_S_HIT_F", 0x04, 0x08, "snoops that took a line from F to S (MSR 0x301 = 0x08)"),
	MESF("GOTO_I_HIT_M", 0x08, 0x10, "snoops that took a line from M to I (MSR 0x301 = 0x10)"),
	MESF("GOTO_I_HIT_E", 0x08, 0x20, "snoops that took a line from E to I (MSR 0x301 = 0x20)"),
	MESF("GOTO_I_HIT_S", 0x08, 0x40, "snoops that took a line from S to I (MSR 0x301 = 0x40)"),
	MESF("GOTO_I_HIT_F", 0x08, 0x80, "snoops that took a line from F to I (MSR 0x301 = 0x80)"),
};

/* ------------------------------------------------------------------- LLC */

/* The guide prints UNC_LLC_HITS's code as 80 (L1287); 0x08 is kept. */
static const struct pmon_umask llc_hm_um[] = {
	UM("READ", 0x01, 0, "reads from the local cores"),
	UM("WRITE", 0x02, 0, "writes (writebacks) from the local cores"),
	UM("PROBE", 0x04, 0, "snoops (peer probes) arriving over QPI"),
	UM("ANY", 0x03, D, "reads and writes of the local cores (not the probes; the default)"),
};
/* F and I print as 80 in the guide (L1304-L1314); the ANY masks imply 0x08. */
static const struct pmon_umask lines_in_um[] = {
	UM("M_STATE", 0x01, 0, "lines filled in M state"),
	UM("E_STATE", 0x02, 0, "lines filled in E state"),
	UM("S_STATE", 0x04, 0, "lines filled in S state"),
	UM("F_STATE", 0x08, 0, "lines filled in F state"),
	UM("ANY", 0x0f, D, "lines filled in any state (the default)"),
};
static const struct pmon_umask lines_out_um[] = {
	UM("M_STATE", 0x01, 0, "victims in M state (written back)"),
	UM("E_STATE", 0x02, 0, "victims in E state"),
	UM("S_STATE", 0x04, 0, "victims in S state"),
	UM("I_STATE", 0x08, 0, "victims already invalid"),
	UM("F_STATE", 0x10, 0, "victims in F state"),
	UM("ANY", 0x1f, D, "victims in any state (the default)"),
};

/* -------------------------------------------------------- QPI home logic */

static const struct pmon_umask qhl_trk_um[] = {
	UM("IOH", 0x01, 0, "the IOH tracker (requests from the I/O hub)"),
	UM("REMOTE", 0x02, 0, "the remote tracker (requests from the other socket)"),
	UM("LOCAL", 0x04, 0, "the local tracker (requests from this socket's cores)"),
};
static const struct pmon_umask qhl_conf_um[] = {
	UM("2WAY", 0x02, 0, "two requests to one address"),
	UM("3WAY", 0x04, 0, "three requests to one address"),
};
static const struct pmon_umask qhl_frc_um[] = {
	UM("LOCAL", 0x04, PMON_UM_DEFAULT, "sent for lines homed here (the default and only umask)"),
};
static const struct pmon_umask qhl_req_um[] = {
	UM("IOH_READS", 0x01, 0, "reads from the I/O hub"),
	UM("IOH_WRITES", 0x02, 0, "writes from the I/O hub"),
	UM("REMOTE_READS", 0x04, 0, "reads from the other socket"),
	UM("REMOTE_WRITES", 0x08, 0, "writes from the other socket (uncached writebacks included)"),
	UM("LOCAL_READS", 0x10, 0, "reads from this socket's cores"),
	UM("LOCAL_WRITES", 0x20, 0, "writebacks of cached lines from this socket's cores"),
};
static const struct pmon_umask qhl_sleep_um[] = {
	UM("IOH_ORDER", 0x01, 0, "I/O hub requests held for write-after-read ordering"),
	UM("REMOTE_ORDER", 0x02, 0, "other-socket requests held for write-after-read ordering"),
	UM("LOCAL_ORDER", 0x04, 0, "local requests held for write-after-read ordering"),
	UM("IOH_CONFLICT", 0x08, 0, "I/O hub requests held on an address conflict"),
	UM("REMOTE_CONFLICT", 0x10, 0, "other-socket requests held on an address conflict"),
	UM("LOCAL_CONFLICT", 0x20, 0, "local requests held on an address conflict"),
};

/* Guide only (Tables 37 and 38, L1495-L1546): requests the QHL matcher
 * (MSR 0x396) selects.  Group 0: whose requests; group 1: what the matcher
 * compares (match select, bits 63:61; opcode alone by default); group 2: the
 * guide's predefined opcodes.  RSPFWDI with the default OPCODE mode is the
 * guide's 0x4000190000000000 (its IOH row prints one 0 too many). */
#define MSEL(v) ((uint64_t)(v) << 61)
#define OPC(v) ((uint64_t)(v) << 40)
#define F_(f) (1u << NHM_F_##f)
static const struct pmon_umask addr_opc_um[] = {
	UM("IOH", 0x01, 0, "requests from the I/O hub"),
	UM("REMOTE", 0x02, 0, "requests from the other socket"),
	UM("LOCAL", 0x04, 0, "requests from this socket"),
	{ .name = "OPCODE", .flags = D | PMON_UM_SELF, .grp = 1, .fields = F_(OPC) | F_(MSEL),
	  .filt_set = { MSEL(2), 0 }, .desc = "match the opcode only (the default): needs opc= or an opcode umask" },
	{ .name = "ADDR", .flags = X | PMON_UM_SELF, .grp = 1, .fields = F_(ADDR) | F_(MSEL),
	  .filt_set = { MSEL(4), 0 }, .desc = "match the address only: needs addr=" },
	{ .name = "ADDR_OR_OPCODE", .flags = X | PMON_UM_SELF, .grp = 1, .fields = F_(ADDR) | F_(OPC) | F_(MSEL),
	  .filt_set = { MSEL(6), 0 }, .desc = "match the address or the opcode" },
	{ .name = "ADDR_AND_OPCODE", .flags = X | PMON_UM_SELF, .grp = 1, .fields = F_(ADDR) | F_(OPC) | F_(MSEL),
	  .filt_set = { MSEL(1), 0 }, .desc = "match the address and the opcode" },
	{ .name = "RSPFWDI", .flags = X, .grp = 2, .fields = F_(OPC), .filt_set = { OPC(0x19), 0 },
	  .desc = "opcode RspFwdI: a modified line forwarded to a read for ownership" },
	{ .name = "RSPFWDS", .flags = X, .grp = 2, .fields = F_(OPC), .filt_set = { OPC(0x1a), 0 },
	  .desc = "opcode RspFwdS: a clean line (F or S) forwarded to a read" },
	{ .name = "RSPIWB", .flags = X, .grp = 2, .fields = F_(OPC), .filt_set = { OPC(0x1d), 0 },
	  .desc = "opcode RspIWb: a modified line written back on a read snoop" },
};

/* -------------------------------------------------- memory controller */

static const struct pmon_umask ch_um[] = {
	UM("CH0", 0x01, 0, "channel 0"),
	UM("CH1", 0x02, 0, "channel 1"),
	UM("CH2", 0x04, 0, "channel 2"),
};
static const struct pmon_umask ch_any_um[] = {
	UM("CH0", 0x01, 0, "channel 0"),
	UM("CH1", 0x02, 0, "channel 1"),
	UM("CH2", 0x04, 0, "channel 2"),
	UM("ANY", 0x07, D, "all three channels (the default)"),
};
/* The guide prints IMC_BUSY's WRITE.CH0 as 80 (L1398-L1408); 0x08 is kept. */
static const struct pmon_umask rw_ch_um[] = {
	UM("READ_CH0", 0x01, 0, "reads on channel 0"),
	UM("READ_CH1", 0x02, 0, "reads on channel 1"),
	UM("READ_CH2", 0x04, 0, "reads on channel 2"),
	UM("WRITE_CH0", 0x08, 0, "writes on channel 0"),
	UM("WRITE_CH1", 0x10, 0, "writes on channel 1"),
	UM("WRITE_CH2", 0x20, 0, "writes on channel 2"),
};
/* The guide's DRAM CAS rows are garbled (L1451-L1483); libpfm4's values,
 * one command and one auto-precharge bit per channel, are kept. */
static const struct pmon_umask cas_um[] = {
	UM("CH0", 0x01, 0, "channel 0"),
	UM("AUTOPRE_CH0", 0x02, 0, "channel 0, with auto-precharge (closes the page)"),
	UM("CH1", 0x04, 0, "channel 1"),
	UM("AUTOPRE_CH1", 0x08, 0, "channel 1, with auto-precharge"),
	UM("CH2", 0x10, 0, "channel 2"),
	UM("AUTOPRE_CH2", 0x20, 0, "channel 2, with auto-precharge"),
};
/* libpfm4 puts FULL_* and PARTIAL_* in two exclusive groups; here they are
 * one umask byte whose bits combine (doc/divergences.md). */
static const struct pmon_umask writes_um[] = {
	UM("FULL_CH0", 0x01, 0, "full-line writes on channel 0"),
	UM("FULL_CH1", 0x02, 0, "full-line writes on channel 1"),
	UM("FULL_CH2", 0x04, 0, "full-line writes on channel 2"),
	UM("FULL_ANY", 0x07, D, "full-line writes on any channel (the default)"),
	UM("PARTIAL_CH0", 0x08, 0, "partial-line writes on channel 0"),
	UM("PARTIAL_CH1", 0x10, 0, "partial-line writes on channel 1"),
	UM("PARTIAL_CH2", 0x20, 0, "partial-line writes on channel 2"),
	UM("PARTIAL_ANY", 0x38, X, "partial-line writes on any channel"),
};

/* ------------------------------------------------------------ QPI links */

static const struct pmon_umask qpi_nopt_um[] = {
	UM("STALLS_LINK_0", 0x01, 0, "link 0"),
	UM("STALLS_LINK_1", 0x02, 0, "link 1"),
};
static const struct pmon_umask qpi_hdr_um[] = {
	UM("BUSY_LINK_0", 0x02, 0, "link 0"),
	UM("BUSY_LINK_1", 0x08, 0, "link 1"),
};
static const struct pmon_umask qpi_multi_um[] = {
	UM("DRS_LINK_0", 0x01, 0, "data response (DRS) messages on link 0"),
	UM("NCB_LINK_0", 0x02, 0, "non-coherent bypass (NCB) messages on link 0"),
	UM("NCS_LINK_0", 0x04, 0, "non-coherent standard (NCS) messages on link 0"),
	UM("DRS_LINK_1", 0x08, 0, "data response (DRS) messages on link 1"),
	UM("NCB_LINK_1", 0x10, 0, "non-coherent bypass (NCB) messages on link 1"),
	UM("NCS_LINK_1", 0x20, 0, "non-coherent standard (NCS) messages on link 1"),
	UM("LINK_0", 0x07, X, "any multi-flit message class on link 0"),
	UM("LINK_1", 0x38, X, "any multi-flit message class on link 1"),
};
static const struct pmon_umask qpi_single_um[] = {
	UM("HOME_LINK_0", 0x01, 0, "home (HOM) messages on link 0"),
	UM("SNOOP_LINK_0", 0x02, 0, "snoop (SNP) messages on link 0"),
	UM("NDR_LINK_0", 0x04, 0, "non-data response (NDR) messages on link 0"),
	UM("HOME_LINK_1", 0x08, 0, "home (HOM) messages on link 1"),
	UM("SNOOP_LINK_1", 0x10, 0, "snoop (SNP) messages on link 1"),
	UM("NDR_LINK_1", 0x20, 0, "non-data response (NDR) messages on link 1"),
	UM("LINK_0", 0x07, X, "any single-flit message class on link 0"),
	UM("LINK_1", 0x38, X, "any single-flit message class on link 1"),
};

/* ------------------------------------------------ Westmere power events */

static const struct pmon_umask core4_um[] = {
	UM("CORE_0", 0x01, 0, "core 0"),
	UM("CORE_1", 0x02, 0, "core 1"),
	UM("CORE_2", 0x04, 0, "core 2"),
	UM("CORE_3", 0x08, 0, "core 3"),
};
static const struct pmon_umask gc_occ_um[] = {
	UM("READ_TRACKER", 0x01, PMON_UM_DEFAULT, "the read tracker (the default and only umask)"),
};

/* --------------------------------------------------------------- tables */

/* Both generations.  UNC_CLK_UNHALTED is the fixed counter: code 0xff is
 * the conventional pseudo-code, the control word is 0 (tables.h). */
#define NHM_WSM_EVENTS \
	{ .name = "UNC_CLK_UNHALTED", .code = 0xff, .flags = PMON_EV_FIXED, \
	  .desc = "Uncore clock (UCLK) cycles, on the fixed counter" }, \
	EV("UNC_GQ_CYCLES_FULL", 0x00, NEED, UMASKS(trk_um), \
	   "Cycles a global queue tracker is full"), \
	EV("UNC_GQ_CYCLES_NOT_EMPTY", 0x01, NEED, UMASKS(trk_um), \
	   "Cycles a global queue tracker holds at least one entry (the guide's UNC_GQ_CYCLES_BUSY)"), \
	EV("UNC_GQ_ALLOC", 0x03, NEED, UMASKS(gq_alloc_um), \
	   "Entries allocated in the global queue trackers, or read requests reaching a stage"), \
	EV("UNC_GQ_DATA_FROM", 0x04, NEED, UMASKS(gq_from_um), \
	   "Cycles the global queue's data buffer takes data in, by source"), \
	EV("UNC_GQ_DATA_TO", 0x05, NEED, UMASKS(gq_to_um), \
	   "Cycles the global queue's data buffer sends data out, by destination"), \
	EV("UNC_SNP_RESP_TO_LOCAL_HOME", 0x06, NEED, UMASKS(snp_um), \
	   "Snoop responses the uncore sent for lines whose home is this socket"), \
	EV("UNC_SNP_RESP_TO_REMOTE_HOME", 0x07, NEED, UMASKS(snp_um), \
	   "Snoop responses the uncore sent for lines whose home is the other socket"), \
	EV("UNC_LLC_HITS", 0x08, 0, UMASKS(llc_hm_um), \
	   "LLC lookups that hit"), \
	EV("UNC_LLC_MISS", 0x09, 0, UMASKS(llc_hm_um), \
	   "LLC lookups that missed"), \
	EV("UNC_LLC_LINES_IN", 0x0a, 0, UMASKS(lines_in_um), \
	   "Lines filled into the LLC, by the state they are filled in"), \
	EV("UNC_LLC_LINES_OUT", 0x0b, 0, UMASKS(lines_out_um), \
	   "Lines evicted from the LLC, by their state when evicted"), \
	{ .name = "UNC_GQ_SNOOP", .code = 0x0c, .flags = NEED, .cntmask = 0xff, .mods = NHM_M_STD, \
	  UMASKS(gq_snoop_um), \
	  .desc = "LLC line state changes caused by snoops; one MSR 0x301 choice per socket (guide only)" }, \
	EV("UNC_QHL_REQUESTS", 0x20, NEED, UMASKS(qhl_req_um), \
	   "Requests the QPI home logic received, by source and kind"), \
	EV("UNC_QHL_CYCLES_FULL", 0x21, NEED, UMASKS(qhl_trk_um), \
	   "Cycles a QPI home logic tracker is full"), \
	EV("UNC_QHL_CYCLES_NOT_EMPTY", 0x22, NEED, UMASKS(qhl_trk_um), \
	   "Cycles a QPI home logic tracker holds at least one entry"), \
	EV("UNC_QHL_OCCUPANCY", 0x23, NEED, UMASKS(qhl_trk_um), \
	   "QPI home logic tracker entries per cycle, allocation to deallocation (over requests: latency)"), \
	EV("UNC_QHL_ADDRESS_CONFLICTS", 0x24, NEED, UMASKS(qhl_conf_um), \
	   "Address conflicts detected by the QPI home logic"), \
	EV("UNC_QHL_CONFLICT_CYCLES", 0x25, NEED, UMASKS(qhl_trk_um), \
	   "Cycles a QPI home logic tracker has an address conflict pending"), \
	EV0("UNC_QHL_TO_QMC_BYPASS", 0x26, \
	    "Requests sent to the memory controller on the bypass path around the home logic queue"), \
	EV("UNC_QMC_ISOC_FULL", 0x28, NEED, UMASKS(rw_ch_um), \
	   "Cycles a memory channel's isochronous queue is full"), \
	EV("UNC_QMC_BUSY", 0x29, NEED, UMASKS(rw_ch_um), \
	   "Cycles a memory channel has a read or write request outstanding"), \
	EV("UNC_QMC_OCCUPANCY", 0x2a, NEED, UMASKS(ch_um), \
	   "Normal read requests queued in the memory controller, per cycle (the guide's NORMAL_OCCUPANCY)"), \
	EV("UNC_IMC_ISOC_OCCUPANCY", 0x2b, 0, UMASKS(ch_any_um), \
	   "Isochronous read requests queued in the memory controller, per cycle"), \
	EV("UNC_QMC_NORMAL_READS", 0x2c, 0, UMASKS(ch_any_um), \
	   "Normal-priority reads the memory controller issued (the guide's UNC_IMC_NORMAL_READS)"), \
	EV("UNC_QMC_HIGH_PRIORITY_READS", 0x2d, 0, UMASKS(ch_any_um), \
	   "High-priority (isochronous) reads the memory controller issued"), \
	EV("UNC_QMC_CRITICAL_PRIORITY_READS", 0x2e, 0, UMASKS(ch_any_um), \
	   "Critical-priority (isochronous) reads the memory controller issued"), \
	EV("UNC_QMC_WRITES", 0x2f, 0, UMASKS(writes_um), \
	   "Writes the memory controller issued, full or partial line (the guide's UNC_IMC_WRITES)"), \
	EV("UNC_QMC_CANCEL", 0x30, 0, UMASKS(ch_any_um), \
	   "Memory requests cancelled before they were issued"), \
	EV("UNC_QMC_PRIORITY_UPDATES", 0x31, 0, UMASKS(ch_any_um), \
	   "Isochronous requests whose priority was raised while queued"), \
	EV("UNC_QHL_FRC_ACK_CNFLTS", 0x33, 0, UMASKS(qhl_frc_um), \
	   "FrcAckCnflt messages the QPI home logic sent to resolve conflicts"), \
	{ .name = "UNC_ADDR_OPCODE_MATCH", .code = 0x35, .flags = NEED, .cntmask = 0xff, \
	  .mods = NHM_M_STD, UMASKS(addr_opc_um), \
	  .desc = "QPI home logic requests matching MSR 0x396's address and/or opcode (guide only)" }, \
	EV("UNC_QPI_TX_STALLED_SINGLE_FLIT", 0x40, NEED, UMASKS(qpi_single_um), \
	   "Cycles outbound single-flit QPI messages wait for link credits"), \
	EV("UNC_QPI_TX_STALLED_MULTI_FLIT", 0x41, NEED, UMASKS(qpi_multi_um), \
	   "Cycles outbound multi-flit QPI messages wait for link credits"), \
	EV("UNC_QPI_TX_HEADER", 0x42, NEED, UMASKS(qpi_hdr_um), \
	   "Cycles a QPI link's outbound header slot is busy"), \
	EV("UNC_QPI_RX_NO_PPT_CREDIT", 0x43, NEED, UMASKS(qpi_nopt_um), \
	   "Inbound snoops stalled for want of a free peer probe tracker entry"), \
	EV("UNC_DRAM_OPEN", 0x60, NEED, UMASKS(ch_um), \
	   "DRAM page open (activate) commands issued"), \
	EV("UNC_DRAM_PAGE_CLOSE", 0x61, NEED, UMASKS(ch_um), \
	   "DRAM pages closed because their idle timer expired"), \
	EV("UNC_DRAM_PAGE_MISS", 0x62, NEED, UMASKS(ch_um), \
	   "DRAM accesses that found another page open in their bank"), \
	EV("UNC_DRAM_READ_CAS", 0x63, NEED, UMASKS(cas_um), \
	   "DRAM read CAS commands issued"), \
	EV("UNC_DRAM_WRITE_CAS", 0x64, NEED, UMASKS(cas_um), \
	   "DRAM write CAS commands issued"), \
	EV("UNC_DRAM_REFRESH", 0x65, NEED, UMASKS(ch_um), \
	   "DRAM refresh commands issued"), \
	EV("UNC_DRAM_PRE_ALL", 0x66, NEED, UMASKS(ch_um), \
	   "DRAM precharge-all commands issued")

const struct pmon_event pmon_nhm_unc_events[] = {
	NHM_WSM_EVENTS,
	EV("UNC_GQ_TRACKER_OCCUP", 0x02, NEED, UMASKS(gq_occ_um),
	   "Global queue entries per cycle, by tracker and stage (over UNC_GQ_ALLOC: latency; guide only)"),
	EV("UNC_QMC_NORMAL_FULL", 0x27, NEED, UMASKS(rw_ch_um),
	   "Cycles a memory channel's normal-priority queue is full"),
	{ .name = NULL }
};

/* Westmere-EP: libpfm4's wsm_unc.  Code 0x02 is its UNC_GC_OCCUPANCY (read
 * tracker only); it has no UNC_QMC_NORMAL_FULL and adds the rest. */
const struct pmon_event pmon_wsm_unc_events[] = {
	NHM_WSM_EVENTS,
	EV("UNC_GC_OCCUPANCY", 0x02, 0, UMASKS(gc_occ_um),
	   "Global queue read tracker entries per cycle"),
	EV("UNC_QHL_SLEEPS", 0x34, NEED, UMASKS(qhl_sleep_um),
	   "Requests the QPI home logic put to sleep, by cause"),
	EV("UNC_IMC_RETRY", 0x32, 0, UMASKS(ch_any_um),
	   "Memory channel retries (these happen in RAS mode only)"),
	EV0("UNC_DRAM_THERMAL_THROTTLED", 0x67,
	    "Uncore cycles DRAM was throttled because it was above its thermal limit"),
	EV("UNC_THERMAL_THROTTLING_TEMP", 0x80, NEED, UMASKS(core4_um),
	   "Uncore cycles the power unit saw a core above its temperature threshold"),
	EV("UNC_THERMAL_THROTTLED_TEMP", 0x81, NEED, UMASKS(core4_um),
	   "Uncore cycles a core was throttled for temperature"),
	EV0("UNC_PROCHOT_ASSERTION", 0x82,
	    "PROCHOT assertions: the whole package exceeded its thermal limit"),
	EV("UNC_THERMAL_THROTTLING_PROCHOT", 0x83, NEED, UMASKS(core4_um),
	   "Uncore cycles a core was throttled because PROCHOT was asserted"),
	EV("UNC_TURBO_MODE", 0x84, NEED, UMASKS(core4_um),
	   "Uncore cycles a core ran in turbo mode"),
	EV0("UNC_CYCLES_UNHALTED_L3_FLL_ENABLE", 0x85,
	    "Uncore cycles with at least one core running and every L3 way enabled"),
	EV0("UNC_CYCLES_UNHALTED_L3_FLL_DISABLE", 0x86,
	    "Uncore cycles with at least one core running and the L3 ways disabled"),
	{ .name = NULL }
};
