/* metrics.c - the derived metrics of the E5-2600 uncore guide that pmon can
 * count, as data: each with its formula over named events (filter values
 * in the event names), unit, finest scope and guide line.  Lines "Lnnnn"
 * are those of the guide's text (shared/reference/seeds-inventory.md, 6).
 *
 * Common terms (guide 1.6.1, L462-L477): a latency in a box's clock ticks
 * becomes ns through UNCORE_FREQUENCY, here the UBox's UCLK fixed counter
 * over the machine's time (UCLK / SECONDS); a byte count becomes GB/s over
 * SAMPLE_INTERVAL / TSC_SPEED, here SECONDS (the machine's own time), with
 * GB = 1e9.  A ratio "/ SAMPLE_INTERVAL" of cycles counted in a box's
 * clock is read against that box's CLOCKTICKS (SAMPLE_INTERVAL counts TSC
 * ticks, another clock). */
#include "../metric.h"
#include "snbep.h"

#define UCLK_EV { "UCLK", "ubox", "UNC_U_CLOCKTICKS", 0, 0 }
#define NS_NOTE "cycles to ns through UNCORE_FREQUENCY = UCLK / SECONDS (guide 1.6.1, L466)"
#define CYC_NOTE "SAMPLE_INTERVAL read as the box's own CLOCKTICKS (the event counts that clock)"

/* Ring use of one direction and polarity, as % of the box's cycles, and
 * the bytes it carried (32 B a BL ring slot). */
#define RING_PCT(pfx, nm, box, ev, clk, line, note) \
	{ pfx "CYC_USED_" nm, "ring", "cycles the BL ring slot (" nm ") is used, % of cycles", \
	  "USED / CLK * 100", "%", PMON_METRIC_BOX, box, line, note, \
	  { { "USED", box, ev, 0, 0 }, { "CLK", box, clk, 0, 0 } } }
#define RING_BYTES(pfx, nm, box, ev, line, note) \
	{ pfx "RING_THRU_" nm "_BYTES", "ring", "bytes through the BL ring (" nm "): 32 B a slot", \
	  "USED * 32", "bytes", PMON_METRIC_BOX, box, line, note, { { "USED", box, ev, 0, 0 } } }
/* iMC per-rank power states, % of DCLK cycles. */
#define RANK_PCT(r) \
	{ "PCT_CYCLES_DRAM_RANK" #r "_IN_CKE", "imc_power", "cycles rank " #r " is in CKE (power-down), % of DCLK", \
	  "CKE / DCLK * 100", "%", PMON_METRIC_BOX, "imc", "Table 2-65 PCT_CYCLES_DRAM_RANKx_IN_CKE, L2226", "", \
	  { { "CKE", "imc", "UNC_M_POWER_CKE_CYCLES:RANK" #r, 0, 0 }, \
	    { "DCLK", "imc", "UNC_M_CLOCKTICKS", 0, 0 } } }, \
	{ "PCT_CYCLES_DRAM_RANK" #r "_IN_THR", "imc_power", "cycles rank " #r " is throttled, % of DCLK", \
	  "THR / DCLK * 100", "%", PMON_METRIC_BOX, "imc", "Table 2-65 PCT_CYCLES_DRAM_RANKx_IN_THR, L2227", "", \
	  { { "THR", "imc", "UNC_M_POWER_THROTTLE_CYCLES:RANK" #r, 0, 0 }, \
	    { "DCLK", "imc", "UNC_M_CLOCKTICKS", 0, 0 } } }
#define IMC_PCT(nm, what, ev, line) \
	{ nm, "imc_power", what ", % of DCLK cycles", "X / DCLK * 100", "%", PMON_METRIC_BOX, "imc", \
	  line, "", { { "X", "imc", ev, 0, 0 }, { "DCLK", "imc", "UNC_M_CLOCKTICKS", 0, 0 } } }
#define PCU_PCT(nm, what, ev, line, note) \
	{ nm, "pcu_freq", "cycles the frequency was limited by " what ", % of PCU cycles", \
	  "X / CLK * 100", "%", PMON_METRIC_SOCKET, "pcu", line, note, \
	  { { "X", "pcu", ev, 0, 0 }, { "CLK", "pcu", "UNC_P_CLOCKTICKS", 0, 0 } } }
#define QPI_PCT(nm, what, ev, line) \
	{ nm, "qpi", "cycles the link's receiver was " what ", % of QPI cycles", "X / CLK * 100", "%", \
	  PMON_METRIC_BOX, "qpi", line, "", \
	  { { "X", "qpi", ev, 0, 0 }, { "CLK", "qpi", "UNC_Q_CLOCKTICKS", 0, 0 } } }
#define HA_PCT(nm, what, ev, line) \
	{ nm, "ha", what ", % of HA cycles", "X / CLK * 100", "%", PMON_METRIC_BOX, "ha", line, \
	  CYC_NOTE, { { "X", "ha", ev, 0, 0 }, { "CLK", "ha", "UNC_H_CLOCKTICKS", 0, 0 } } }
/* A TOR latency of demand data reads: occupancy over inserts, in ns. */
#define TOR_LAT(nm, what, occ, ins, nodes, scope, line, note) \
	{ nm, "tor_latency", "mean time a demand data read (DRd) " what " lives in the TOR", \
	  "OCC / INS * SECONDS / UCLK * 1e9", "ns", scope, "cbo", line, note, \
	  { { "OCC", "cbo", occ, 0, nodes }, { "INS", "cbo", ins, 0, nodes }, UCLK_EV } }

/* A byte count of the received QPI packets CTO_COUNT matches (64 B a
 * packet, guide Table 2-95): the filter values in the event name are the
 * port's one packet match/mask pair, so each different pair is a pass. */
#define CTO "UNC_Q_CTO_COUNT:match_mc=14:mask_mc=15"
#define QPI_PKT(nm, what, mods, line, note) \
	{ nm, "qpi_packets", what ", 64 B a packet", "PKT * 64", "bytes", PMON_METRIC_BOX, "qpi", \
	  line, note, { { "PKT", "qpi", CTO mods, 0, 0 } } }
#define RDS_NOTE "match_rds/mask_rds are MATCH1/MASK1[19:16]; the guide prints MASK0[19:16] for the mask"

const struct pmon_metric_def pmon_snbep_metrics[] = {
	/* ---------------------------------------------------------- iMC, Table 2-65 */
	{ "MEM_BW_READS", "mem_bw", "DRAM read bandwidth: 64 B per read CAS", "RD * 64 / SECONDS / 1e9",
	  "GB/s", PMON_METRIC_BOX, "imc", "Table 2-65 MEM_BW_READS, L2221; GB/s L470",
	  "GB = 1e9 B (the guide's GB_CONVERSION is 2^30)",
	  { { "RD", "imc", "UNC_M_CAS_COUNT:RD", 0, 0 } } },
	{ "MEM_BW_WRITES", "mem_bw", "DRAM write bandwidth: 64 B per write CAS", "WR * 64 / SECONDS / 1e9",
	  "GB/s", PMON_METRIC_BOX, "imc", "Table 2-65 MEM_BW_WRITES, L2223; GB/s L470",
	  "GB = 1e9 B (the guide's GB_CONVERSION is 2^30)",
	  { { "WR", "imc", "UNC_M_CAS_COUNT:WR", 0, 0 } } },
	{ "MEM_BW_TOTAL", "mem_bw", "DRAM bandwidth, reads and writes", "(RD + WR) * 64 / SECONDS / 1e9",
	  "GB/s", PMON_METRIC_BOX, "imc", "Table 2-65 MEM_BW_TOTAL, L2222; GB/s L470",
	  "GB = 1e9 B (the guide's GB_CONVERSION is 2^30)",
	  { { "RD", "imc", "UNC_M_CAS_COUNT:RD", 0, 0 }, { "WR", "imc", "UNC_M_CAS_COUNT:WR", 0, 0 } } },
	{ "IMC_PCT_RD_REQUESTS", "imc", "reads among the requests the channel queued (RPQ / RPQ + WPQ)",
	  "RPQ / (RPQ + WPQ) * 100", "%", PMON_METRIC_BOX, "imc", "Table 2-65 PCT_RD_REQUESTS, L2230",
	  "printed RPO_/WPO_INSERTS: the RPQ and WPQ inserts (0x10, 0x20)",
	  { { "RPQ", "imc", "UNC_M_RPQ_INSERTS", 0, 0 }, { "WPQ", "imc", "UNC_M_WPQ_INSERTS", 0, 0 } } },
	{ "IMC_PCT_WR_REQUESTS", "imc", "writes among the requests the channel queued (WPQ / RPQ + WPQ)",
	  "WPQ / (RPQ + WPQ) * 100", "%", PMON_METRIC_BOX, "imc", "Table 2-65 PCT_WR_REQUESTS, L2234",
	  "printed RPO_/WPO_INSERTS: the RPQ and WPQ inserts (0x10, 0x20)",
	  { { "RPQ", "imc", "UNC_M_RPQ_INSERTS", 0, 0 }, { "WPQ", "imc", "UNC_M_WPQ_INSERTS", 0, 0 } } },
	{ "PCT_REQUESTS_PAGE_EMPTY", "imc", "CAS commands that opened a page in an idle bank",
	  "(ACT - MISS) / (RD + WR) * 100", "%", PMON_METRIC_BOX, "imc",
	  "Table 2-65 PCT_REQUESTS_PAGE_EMPTY, L2231", "",
	  { { "ACT", "imc", "UNC_M_ACT_COUNT", 0, 0 }, { "MISS", "imc", "UNC_M_PRE_COUNT:PAGE_MISS", 0, 0 },
	    { "RD", "imc", "UNC_M_CAS_COUNT:RD", 0, 0 }, { "WR", "imc", "UNC_M_CAS_COUNT:WR", 0, 0 } } },
	{ "PCT_REQUESTS_PAGE_MISS", "imc", "CAS commands that had to close another page first",
	  "MISS / (RD + WR) * 100", "%", PMON_METRIC_BOX, "imc", "Table 2-65 PCT_REQUESTS_PAGE_MISS, L2233", "",
	  { { "MISS", "imc", "UNC_M_PRE_COUNT:PAGE_MISS", 0, 0 },
	    { "RD", "imc", "UNC_M_CAS_COUNT:RD", 0, 0 }, { "WR", "imc", "UNC_M_CAS_COUNT:WR", 0, 0 } } },
	{ "PCT_REQUESTS_PAGE_HIT", "imc", "CAS commands to the page already open",
	  "(1 - ACT / (RD + WR)) * 100", "%", PMON_METRIC_BOX, "imc", "Table 2-65 PCT_REQUESTS_PAGE_HIT, L2232",
	  "1 - (EMPTY + MISS) = 1 - ACT / CAS: the PAGE_MISS terms cancel",
	  { { "ACT", "imc", "UNC_M_ACT_COUNT", 0, 0 },
	    { "RD", "imc", "UNC_M_CAS_COUNT:RD", 0, 0 }, { "WR", "imc", "UNC_M_CAS_COUNT:WR", 0, 0 } } },
	IMC_PCT("PCT_CYCLES_CRITICAL_THROTTLE", "cycles of critical thermal throttling",
		"UNC_M_POWER_CRITICAL_THROTTLE_CYCLES", "Table 2-65 PCT_CYCLES_CRITICAL_THROTTLE, L2224"),
	IMC_PCT("PCT_CYCLES_DLOFF", "cycles with the channel's DLL off", "UNC_M_POWER_CHANNEL_DLLOFF",
		"Table 2-65 PCT_CYCLES_DLOFF, L2225 (printed POWER_CHANNEL_DLOFF)"),
	IMC_PCT("PCT_CYCLES_PPD", "cycles in precharge power-down", "UNC_M_POWER_CHANNEL_PPD",
		"Table 2-65 PCT_CYCLES_PPD, L2228"),
	IMC_PCT("PCT_CYCLES_SELF_REFRESH", "cycles in self-refresh", "UNC_M_POWER_SELF_REFRESH",
		"Table 2-65 PCT_CYCLES_SELF_REFRESH, L2229"),
	RANK_PCT(0), RANK_PCT(1), RANK_PCT(2), RANK_PCT(3),
	RANK_PCT(4), RANK_PCT(5), RANK_PCT(6), RANK_PCT(7),

	/* ---------------------------------------------------------- CBo, Table 2-15 */
	TOR_LAT("AVG_TOR_DRD_LATENCY", "(hit or miss)", "UNC_C_TOR_OCCUPANCY:OPCODE:OPC_DRD",
		"UNC_C_TOR_INSERTS:OPCODE:OPC_DRD", 0, PMON_METRIC_BOX,
		"Table 2-15 AVG_TOR_DRD_LATENCY, L1074; ns L466", NS_NOTE),
	TOR_LAT("AVG_TOR_DRD_MISS_LATENCY", "that misses the LLC", "UNC_C_TOR_OCCUPANCY:MISS_OPCODE:OPC_DRD",
		"UNC_C_TOR_INSERTS:MISS_OPCODE:OPC_DRD", 0, PMON_METRIC_BOX,
		"Table 2-15 AVG_TOR_DRD_MISS_LATENCY, L1076; ns L466", NS_NOTE),
	TOR_LAT("AVG_TOR_DRD_LOC_MISS_LATENCY", "that misses to local memory",
		"UNC_C_TOR_OCCUPANCY:NID_MISS_OPCODE:OPC_DRD", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD",
		PMON_METRIC_NODES_LOCAL, PMON_METRIC_SOCKET,
		"Table 2-15 AVG_TOR_DRD_LOC_MISS_LATENCY, L1075; ns L466",
		"only valid per socket (the guide); remote hits pollute it; " NS_NOTE),
	TOR_LAT("AVG_TOR_DRD_REM_MISS_LATENCY", "that misses to another socket's memory",
		"UNC_C_TOR_OCCUPANCY:NID_MISS_OPCODE:OPC_DRD", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD",
		PMON_METRIC_NODES_REMOTE, PMON_METRIC_SOCKET,
		"Table 2-15 AVG_TOR_DRD_REM_MISS_LATENCY, L1085; ns L466", "only valid per socket; " NS_NOTE),
	{ "AVG_TOR_DRD_HIT_LATENCY", "tor_latency", "mean time a demand data read that hits the LLC lives in the TOR",
	  "(OCC - MOCC) / (INS - MINS) * SECONDS / UCLK * 1e9", "ns", PMON_METRIC_BOX, "cbo",
	  "Table 2-15 AVG_TOR_DRD_HIT_LATENCY, L1073; ns L466",
	  "TOR_OCCUPANCY counts on counter 0 only: all DRds and missing DRds take two passes; " NS_NOTE,
	  { { "OCC", "cbo", "UNC_C_TOR_OCCUPANCY:OPCODE:OPC_DRD", 0, 0 },
	    { "INS", "cbo", "UNC_C_TOR_INSERTS:OPCODE:OPC_DRD", 0, 0 },
	    { "MOCC", "cbo", "UNC_C_TOR_OCCUPANCY:MISS_OPCODE:OPC_DRD", 1, 0 },
	    { "MINS", "cbo", "UNC_C_TOR_INSERTS:MISS_OPCODE:OPC_DRD", 1, 0 }, UCLK_EV } },
	{ "AVG_TOR_DRDS_WHEN_NE", "tor_latency", "TOR occupancy of demand data reads per busy period",
	  "OCC / NE", "entries", PMON_METRIC_BOX, "cbo", "Table 2-15 AVG_TOR_DRDS_WHEN_NE, L1072",
	  "NE: COUNTER0_OCCUPANCY edge-detected at 1, the times counter 0's queue turned non-empty",
	  { { "OCC", "cbo", "UNC_C_TOR_OCCUPANCY:OPCODE:OPC_DRD", 0, 0 },
	    { "NE", "cbo", "UNC_C_COUNTER0_OCCUPANCY:e=1:t=1", 0, 0 } } },
	{ "AVG_TOR_DRDS_MISS_WHEN_NE", "tor_latency", "TOR occupancy of missing demand data reads per busy period",
	  "OCC / NE", "entries", PMON_METRIC_BOX, "cbo", "Table 2-15 AVG_TOR_DRDS_MISS_WHEN_NE, L1071",
	  "NE: COUNTER0_OCCUPANCY edge-detected at 1, the times counter 0's queue turned non-empty",
	  { { "OCC", "cbo", "UNC_C_TOR_OCCUPANCY:MISS_OPCODE:OPC_DRD", 0, 0 },
	    { "NE", "cbo", "UNC_C_COUNTER0_OCCUPANCY:e=1:t=1", 0, 0 } } },
	{ "LLC_DRD_MISS_PCT", "llc", "LLC lookups of data reads that miss (state I), % of all",
	  "MISS / ALL * 100", "%", PMON_METRIC_BOX, "cbo", "Table 2-15 LLC_DRD_MISS_PCT, L1093",
	  "the two state filters (0x1, 0x1F) share the CBo filter: two passes",
	  { { "MISS", "cbo", "UNC_C_LLC_LOOKUP:DATA_READ:STATE_I", 0, 0 },
	    { "ALL", "cbo", "UNC_C_LLC_LOOKUP:DATA_READ:STATE_MESIF", 1, 0 } } },
	{ "LLC_RFO_MISS_PCT", "llc", "RFOs (reads for ownership) that miss the LLC, % of all",
	  "MISS / ALL * 100", "%", PMON_METRIC_BOX, "cbo", "Table 2-15 LLC_RFO_MISS_PCT, L1098", "",
	  { { "MISS", "cbo", "UNC_C_TOR_INSERTS:MISS_OPCODE:OPC_RFO", 0, 0 },
	    { "ALL", "cbo", "UNC_C_TOR_INSERTS:OPCODE:OPC_RFO", 0, 0 } } },
	{ "LLC_DRD_RFO_MISS_TO_LOC_MEM", "llc", "DRd and RFO misses served by local memory, % of all",
	  "(DL + RL) / (DA + RA) * 100", "%", PMON_METRIC_SOCKET, "cbo",
	  "Table 2-15 LLC_DRD_RFO_MISS_TO_LOC_MEM, L1094",
	  "four filter values (two opcodes, two node masks): four passes",
	  { { "DL", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD", 0, PMON_METRIC_NODES_LOCAL },
	    { "RL", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_RFO", 1, PMON_METRIC_NODES_LOCAL },
	    { "DA", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD", 2, PMON_METRIC_NODES_ALL },
	    { "RA", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_RFO", 3, PMON_METRIC_NODES_ALL } } },
	{ "LLC_DRD_RFO_MISS_TO_REM_MEM", "llc", "DRd and RFO misses served by remote memory, % of all",
	  "(DR + RR) / (DA + RA) * 100", "%", PMON_METRIC_SOCKET, "cbo",
	  "Table 2-15 LLC_DRD_RFO_MISS_TO_REM_MEM, L1095",
	  "four filter values (two opcodes, two node masks): four passes",
	  { { "DR", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD", 0, PMON_METRIC_NODES_REMOTE },
	    { "RR", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_RFO", 1, PMON_METRIC_NODES_REMOTE },
	    { "DA", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_DRD", 2, PMON_METRIC_NODES_ALL },
	    { "RA", "cbo", "UNC_C_TOR_INSERTS:NID_MISS_OPCODE:OPC_RFO", 3, PMON_METRIC_NODES_ALL } } },
	{ "MEM_WB_BYTES", "llc", "bytes of modified lines the LLC evicted to memory", "VIC * 64", "bytes",
	  PMON_METRIC_BOX, "cbo", "Table 2-15 MEM_WB_BYTES, L1099", "",
	  { { "VIC", "cbo", "UNC_C_LLC_VICTIMS:M_STATE", 0, 0 } } },
	{ "LLC_PCIE_DATA_BYTES", "llc", "bytes PCIe wrote into the LLC (allocating writes, PCIItoM)",
	  "ITOM * 64", "bytes", PMON_METRIC_BOX, "cbo", "Table 2-15 LLC_PCIE_DATA_BYTES, L1097", "",
	  { { "ITOM", "cbo", "UNC_C_TOR_INSERTS:OPCODE:OPC_PCIITOM", 0, 0 } } },
	{ "PCIE_DATA_BYTES", "llc", "bytes PCIe wrote (non-allocating PCIWiLF and allocating PCIItoM)",
	  "(WILF + ITOM) * 64", "bytes", PMON_METRIC_BOX, "cbo", "Table 2-15 PCIE_DATA_BYTES, L1106",
	  "the two opcodes (0x194, 0x19C) share the CBo filter: two passes",
	  { { "WILF", "cbo", "UNC_C_TOR_INSERTS:OPCODE:OPC_PCIWILF", 0, 0 },
	    { "ITOM", "cbo", "UNC_C_TOR_INSERTS:OPCODE:OPC_PCIITOM", 1, 0 } } },
	{ "AVG_INGRESS_DEPTH", "cbo_ingress", "mean entries in the core-request ingress queue (IRQ)",
	  "OCC / CLK", "entries", PMON_METRIC_BOX, "cbo", "Table 2-15 AVG_INGRESS_DEPTH, L1068", CYC_NOTE,
	  { { "OCC", "cbo", "UNC_C_RXR_OCCUPANCY:IRQ", 0, 0 }, { "CLK", "cbo", "UNC_C_CLOCKTICKS", 0, 0 } } },
	{ "AVG_INGRESS_LATENCY", "cbo_ingress", "mean time a core request waits in the ingress queue (IRQ)",
	  "OCC / INS * SECONDS / UCLK * 1e9", "ns", PMON_METRIC_BOX, "cbo",
	  "Table 2-15 AVG_INGRESS_LATENCY, L1069; ns L466", NS_NOTE,
	  { { "OCC", "cbo", "UNC_C_RXR_OCCUPANCY:IRQ", 0, 0 }, { "INS", "cbo", "UNC_C_RXR_INSERTS:IRQ", 0, 0 },
	    UCLK_EV } },
	{ "AVG_INGRESS_LATENCY_WHEN_NE", "cbo_ingress", "ingress (IRQ) occupancy per busy period",
	  "OCC / NE", "entries", PMON_METRIC_BOX, "cbo", "Table 2-15 AVG_INGRESS_LATENCY_WHEN_NE, L1070",
	  "NE: COUNTER0_OCCUPANCY edge-detected at 1, the times counter 0's queue turned non-empty",
	  { { "OCC", "cbo", "UNC_C_RXR_OCCUPANCY:IRQ", 0, 0 },
	    { "NE", "cbo", "UNC_C_COUNTER0_OCCUPANCY:e=1:t=1", 0, 0 } } },
	{ "CYC_INGRESS_BLOCKED", "cbo_ingress", "cycles the IRQ was blocked by another queue's starvation, %",
	  "X / CLK * 100", "%", PMON_METRIC_BOX, "cbo", "Table 2-15 CYC_INGRESS_BLOCKED, L1086", CYC_NOTE,
	  { { "X", "cbo", "UNC_C_RXR_EXT_STARVED:IRQ", 0, 0 }, { "CLK", "cbo", "UNC_C_CLOCKTICKS", 0, 0 } } },
	{ "CYC_INGRESS_STARVED", "cbo_ingress", "cycles the IRQ was starved, %",
	  "X / CLK * 100", "%", PMON_METRIC_BOX, "cbo", "Table 2-15 CYC_INGRESS_STARVED, L1087", CYC_NOTE,
	  { { "X", "cbo", "UNC_C_RXR_INT_STARVED:IRQ", 0, 0 }, { "CLK", "cbo", "UNC_C_CLOCKTICKS", 0, 0 } } },
	{ "INGRESS_REJ_V_INS", "cbo_ingress", "IRQ inserts rejected, % of IRQ inserts",
	  "REJ / INS * 100", "%", PMON_METRIC_BOX, "cbo", "Table 2-15 INGRESS_REJ_V_INS, L1092", "",
	  { { "REJ", "cbo", "UNC_C_RXR_INSERTS:IRQ_REJECTED", 0, 0 },
	    { "INS", "cbo", "UNC_C_RXR_INSERTS:IRQ", 0, 0 } } },
	RING_PCT("", "DNEVEN", "cbo", "UNC_C_RING_BL_USED:DOWN_EVEN", "UNC_C_CLOCKTICKS",
		 "Table 2-15 CYC_USED_DNEVEN, L1088", "umask named DOWN_EVEN; " CYC_NOTE),
	RING_PCT("", "DNODD", "cbo", "UNC_C_RING_BL_USED:DOWN_ODD", "UNC_C_CLOCKTICKS",
		 "Table 2-15 CYC_USED_DNODD, L1089", "umask named DOWN_ODD; " CYC_NOTE),
	RING_PCT("", "UPEVEN", "cbo", "UNC_C_RING_BL_USED:UP_EVEN", "UNC_C_CLOCKTICKS",
		 "Table 2-15 CYC_USED_UPEVEN, L1090", CYC_NOTE),
	RING_PCT("", "UPODD", "cbo", "UNC_C_RING_BL_USED:UP_ODD", "UNC_C_CLOCKTICKS",
		 "Table 2-15 CYC_USED_UPODD, L1091", CYC_NOTE),
	RING_BYTES("", "DNEVEN", "cbo", "UNC_C_RING_BL_USED:DOWN_EVEN", "Table 2-15 RING_THRU_DNEVEN_BYTES, L1107", ""),
	RING_BYTES("", "DNODD", "cbo", "UNC_C_RING_BL_USED:DOWN_ODD", "Table 2-15 RING_THRU_DNODD_BYTES, L1108", ""),
	RING_BYTES("", "UPEVEN", "cbo", "UNC_C_RING_BL_USED:UP_EVEN", "Table 2-15 RING_THRU_UPEVEN_BYTES, L1109", ""),
	RING_BYTES("", "UPODD", "cbo", "UNC_C_RING_BL_USED:UP_ODD", "Table 2-15 RING_THRU_UPODD_BYTES, L1110", ""),

	/* ----------------------------------------------------------- HA, Table 2-41 */
	HA_PCT("PCT_CYCLES_BL_FULL", "cycles the BL egress queue was full", "UNC_H_TXR_BL_CYCLES_FULL:ALL",
	       "Table 2-41 PCT_CYCLES_BL_FULL, L1685"),
	HA_PCT("PCT_CYCLES_CONFLICT", "cycles with an address conflict", "UNC_H_CONFLICT_CYCLES:CONFLICT",
	       "Table 2-41 PCT_CYCLES_CONFLICT, L1686"),
	HA_PCT("PCT_CYCLES_D2C_DISABLED", "cycles Direct2Core was disabled",
	       "UNC_H_DIRECT2CORE_CYCLES_DISABLED", "Table 2-41 PCT_CYCLES_D2C_DISABLED, L1687"),
	{ "HA_PCT_RD_REQUESTS", "ha", "reads among the requests the home agent served",
	  "RD / (RD + WR) * 100", "%", PMON_METRIC_BOX, "ha", "Table 2-41 PCT_RD_REQUESTS, L1694", "",
	  { { "RD", "ha", "UNC_H_REQUESTS:READS", 0, 0 }, { "WR", "ha", "UNC_H_REQUESTS:WRITES", 0, 0 } } },
	{ "HA_PCT_WR_REQUESTS", "ha", "writes among the requests the home agent served",
	  "WR / (RD + WR) * 100", "%", PMON_METRIC_BOX, "ha", "Table 2-41 PCT_WR_REQUESTS, L1695", "",
	  { { "RD", "ha", "UNC_H_REQUESTS:READS", 0, 0 }, { "WR", "ha", "UNC_H_REQUESTS:WRITES", 0, 0 } } },

	/* ---------------------------------------------------------- PCU, Table 2-82 */
	PCU_PCT("CYC_FREQ_CURRENT_LTD", "current", "UNC_P_FREQ_MAX_CURRENT_CYCLES",
		"Table 2-82 CYC_FREQ_CURRENT_LTD, L2782", ""),
	PCU_PCT("CYC_FREQ_OS_LTD", "the OS", "UNC_P_FREQ_MAX_OS_CYCLES", "Table 2-82 CYC_FREQ_OS_LTD, L2783", ""),
	PCU_PCT("CYC_FREQ_POWER_LTD", "power", "UNC_P_FREQ_MAX_POWER_CYCLES",
		"Table 2-82 CYC_FREQ_POWER_LTD, L2784", ""),
	PCU_PCT("CYC_FREQ_THERMAL_LTD", "temperature", "UNC_P_FREQ_MAX_LIMIT_THERMAL_CYCLES",
		"Table 2-82 CYC_FREQ_THERMAL_LTD, L2785",
		"the guide prints FREQ_MAX_CURRENT_CYCLES, the thermal event is meant"),

	/* ---------------------------------------------------------- QPI, Table 2-95 */
	{ "QPI_LINK_UTIL", "qpi", "received data and non-data flits, % of the link's flit slots",
	  "(DATA + NONDATA) / (2 * CLK) * 100", "%", PMON_METRIC_BOX, "qpi", "Table 2-95 QPI_LINK_UTIL, L3474",
	  "", { { "DATA", "qpi", "UNC_Q_RXL_FLITS_G0:DATA", 0, 0 },
		{ "NONDATA", "qpi", "UNC_Q_RXL_FLITS_G0:NON_DATA", 0, 0 }, { "CLK", "qpi", "UNC_Q_CLOCKTICKS", 0, 0 } } },
	{ "QPI_RX_DATA_BW", "qpi", "payload received on the link: 8 B per data flit",
	  "DATA * 8 / SECONDS / 1e9", "GB/s", PMON_METRIC_BOX, "qpi", "QPI text (8 B a data flit in L0), L3596; GB/s L470",
	  "pmon's, from the guide's text (no table row); a 64 B line is 8 data flits",
	  { { "DATA", "qpi", "UNC_Q_RXL_FLITS_G0:DATA", 0, 0 } } },
	{ "QPI_TX_DATA_BW", "qpi", "payload sent on the link: 8 B per data flit",
	  "DATA * 8 / SECONDS / 1e9", "GB/s", PMON_METRIC_BOX, "qpi", "QPI text (8 B a data flit in L0), L3596; GB/s L470",
	  "pmon's, from the guide's text (no table row); a 64 B line is 8 data flits",
	  { { "DATA", "qpi", "UNC_Q_TXL_FLITS_G0:DATA", 0, 0 } } },
	{ "DRS_DATA_MSGS_FROM_QPI", "qpi", "bytes of data responses (DRS) received", "DRS * 8", "bytes",
	  PMON_METRIC_BOX, "qpi", "Table 2-95 DRS_DATA_MSGS_FROM_QPI, L3443", "",
	  { { "DRS", "qpi", "UNC_Q_RXL_FLITS_G1:DRS_DATA", 0, 0 } } },
	{ "NCB_DATA_MSGS_FROM_QPI", "qpi", "bytes of non-coherent data (NCB) received", "NCB * 8", "bytes",
	  PMON_METRIC_BOX, "qpi", "Table 2-95 NCB_DATA_MSGS_FROM_QPI, L3463", "",
	  { { "NCB", "qpi", "UNC_Q_RXL_FLITS_G2:NCB_DATA", 0, 0 } } },
	{ "DATA_FROM_QPI", "qpi", "bytes of data received (DRS and NCB)", "(DRS + NCB) * 8", "bytes",
	  PMON_METRIC_BOX, "qpi", "Table 2-95 DATA_FROM_QPI, L3439", "",
	  { { "DRS", "qpi", "UNC_Q_RXL_FLITS_G1:DRS_DATA", 0, 0 },
	    { "NCB", "qpi", "UNC_Q_RXL_FLITS_G2:NCB_DATA", 0, 0 } } },
	{ "DATA_FROM_QPI_TO_LLC", "qpi", "bytes received that went straight to a core (Direct2Core)",
	  "D2C * 64", "bytes", PMON_METRIC_BOX, "qpi", "Table 2-95 DATA_FROM_QPI_TO_LLC, L3441", "",
	  { { "D2C", "qpi", "UNC_Q_DIRECT2CORE:SUCCESS", 0, 0 } } },
	{ "DATA_FROM_QPI_TO_HA_OR_IIO", "qpi", "bytes received for the home agent or the I/O hub",
	  "(DRS + NCB) * 8 - D2C * 64", "bytes", PMON_METRIC_BOX, "qpi",
	  "Table 2-95 DATA_FROM_QPI_TO_HA_OR_IIO, L3440", "",
	  { { "DRS", "qpi", "UNC_Q_RXL_FLITS_G1:DRS_DATA", 0, 0 },
	    { "NCB", "qpi", "UNC_Q_RXL_FLITS_G2:NCB_DATA", 0, 0 },
	    { "D2C", "qpi", "UNC_Q_DIRECT2CORE:SUCCESS", 0, 0 } } },
	QPI_PCT("PCT_LINK_FULL_POWER_CYCLES", "in full power (L0)", "UNC_Q_RXL0_POWER_CYCLES",
		"Table 2-95 PCT_LINK_FULL_POWER_CYCLES, L3471"),
	QPI_PCT("PCT_LINK_HALF_DISABLED_CYCLES", "half width (L0p)", "UNC_Q_RXL0P_POWER_CYCLES",
		"Table 2-95 PCT_LINK_HALF_DISABLED_CYCLES, L3472"),
	QPI_PCT("PCT_LINK_SHUTDOWN_CYCLES", "shut down (L1)", "UNC_Q_L1_POWER_CYCLES",
		"Table 2-95 PCT_LINK_SHUTDOWN_CYCLES, L3473"),

	/* ------------------------------- QPI packets (CTO_COUNT), Table 2-95 */
	QPI_PKT("DRS_FULL_CACHELINE_MSGS_FROM_QPI", "bytes of full-line data responses (DRS) received",
		":mask_opc=8", "Table 2-95 DRS_FULL_CACHELINE_MSGS_FROM_QPI, L3445",
		"MATCH0 0x1C00, MASK0 0x1F00: class DRS, opcode bit 3 clear"),
	QPI_PKT("DRS_PTL_CACHELINE_MSGS_FROM_QPI", "bytes of partial-line data responses (DRS) received",
		":match_opc=8:mask_opc=8", "Table 2-95 DRS_PTL_CACHELINE_MSGS_FROM_QPI, L3456",
		"MATCH0 0x1D00, MASK0 0x1F00: class DRS, opcode bit 3 set"),
	QPI_PKT("DRS_M_FROM_QPI", "bytes of data responses (DataC) in M state received",
		":mask_opc=15:match_rds=8:mask_rds=15", "Table 2-95 DRS_M_FROM_QPI, L3455",
		"MATCH0 0x1C00, MASK0 0x1FE0, RDS 0x8 of 0xF; " RDS_NOTE),
	QPI_PKT("DRS_WbI_FROM_QPI", "bytes of write-backs to I state (DRS WbIData) received",
		":match_opc=4:mask_opc=15", "Table 2-95 DRS_WbI_FROM_QPI, L3460", "MATCH0 0x1C80, MASK0 0x1FE0"),
	QPI_PKT("DRS_WbS_FROM_QPI", "bytes of write-backs to S state (DRS WbSData) received",
		":match_opc=5:mask_opc=15", "Table 2-95 DRS_WbS_FROM_QPI, L3461", "MATCH0 0x1CA0, MASK0 0x1FE0"),
	QPI_PKT("DRS_WbE_FROM_QPI", "bytes of write-backs to E state (DRS WbEData) received",
		":match_opc=6:mask_opc=15", "Table 2-95 DRS_WbE_FROM_QPI, L3459", "MATCH0 0x1CC0, MASK0 0x1FE0"),
	{ "DRS_WB_FROM_QPI", "qpi_packets", "bytes of write-backs (DRS WbI, WbS, WbE data) received, 64 B a packet",
	  "(WBI + WBS + WBE) * 64", "bytes", PMON_METRIC_BOX, "qpi", "Table 2-95 DRS_WB_FROM_QPI, L3457",
	  "three match values of the port's one match/mask pair: three passes",
	  { { "WBI", "qpi", CTO ":match_opc=4:mask_opc=15", 0, 0 },
	    { "WBS", "qpi", CTO ":match_opc=5:mask_opc=15", 1, 0 },
	    { "WBE", "qpi", CTO ":match_opc=6:mask_opc=15", 2, 0 } } },
	{ "DRS_F_OR_E_FROM_QPI", "qpi_packets",
	  "bytes of data responses in F or E state received (DataC, DataC_FrcAckCnflt, DataC_Cmp), 64 B a packet",
	  "(CE + CF + KE + KF + PE + PF) * 64", "bytes", PMON_METRIC_BOX, "qpi", "Table 2-95 DRS_F_OR_E_FROM_QPI, L3454",
	  "six match values (MATCH0 0x1C00/0x1C40/0x1C20 x RDS 0x4/0x1, MASK0 0x1FE0) of the port's one "
	  "match/mask pair: six passes; " RDS_NOTE,
	  { { "CE", "qpi", CTO ":mask_opc=15:match_rds=4:mask_rds=15", 0, 0 },
	    { "CF", "qpi", CTO ":mask_opc=15:match_rds=1:mask_rds=15", 1, 0 },
	    { "KE", "qpi", CTO ":match_opc=2:mask_opc=15:match_rds=4:mask_rds=15", 2, 0 },
	    { "KF", "qpi", CTO ":match_opc=2:mask_opc=15:match_rds=1:mask_rds=15", 3, 0 },
	    { "PE", "qpi", CTO ":match_opc=1:mask_opc=15:match_rds=4:mask_rds=15", 4, 0 },
	    { "PF", "qpi", CTO ":match_opc=1:mask_opc=15:match_rds=1:mask_rds=15", 5, 0 } } },

	/* ------------------------------------------------------- R2PCIe, Table 2-109 */
	RING_PCT("R2_", "DNEVEN", "r2pcie", "UNC_R2_RING_BL_USED:CCW_EVEN", "UNC_R2_CLOCKTICKS",
		 "Table 2-109 CYC_USED_DNEVEN, L4038", "down = counter-clockwise (CCW); " CYC_NOTE),
	RING_PCT("R2_", "DNODD", "r2pcie", "UNC_R2_RING_BL_USED:CCW_ODD", "UNC_R2_CLOCKTICKS",
		 "Table 2-109 CYC_USED_DNODD, L4039", "down = counter-clockwise (CCW); " CYC_NOTE),
	RING_PCT("R2_", "UPEVEN", "r2pcie", "UNC_R2_RING_BL_USED:CW_EVEN", "UNC_R2_CLOCKTICKS",
		 "Table 2-109 CYC_USED_UPEVEN, L4040", "up = clockwise (CW); " CYC_NOTE),
	RING_PCT("R2_", "UPODD", "r2pcie", "UNC_R2_RING_BL_USED:CW_ODD", "UNC_R2_CLOCKTICKS",
		 "Table 2-109 CYC_USED_UPODD, L4041", "up = clockwise (CW); " CYC_NOTE),
	{ "IIO_RDS_TO_RING_IN_BYTES", "ring", "bytes the I/O hub put on the BL ring (32 B a slot)",
	  "BL * 32", "bytes", PMON_METRIC_BOX, "r2pcie", "Table 2-109 IIO_RDS_TO_RING_IN_BYTES, L4048", "",
	  { { "BL", "r2pcie", "UNC_R2_TXR_INSERTS:BL", 0, 0 } } },
	RING_BYTES("R2_", "DNEVEN", "r2pcie", "UNC_R2_RING_BL_USED:CCW_EVEN",
		   "Table 2-109 RING_THRU_DNEVEN_BYTES, L4049", "down = CCW"),
	RING_BYTES("R2_", "DNODD", "r2pcie", "UNC_R2_RING_BL_USED:CCW_ODD",
		   "Table 2-109 RING_THRU_DNODD_BYTES, L4050", "down = CCW"),
	RING_BYTES("R2_", "UPEVEN", "r2pcie", "UNC_R2_RING_BL_USED:CW_EVEN",
		   "Table 2-109 RING_THRU_UPEVEN_BYTES, L4051", "up = CW"),
	RING_BYTES("R2_", "UPODD", "r2pcie", "UNC_R2_RING_BL_USED:CW_ODD",
		   "Table 2-109 RING_THRU_UPODD_BYTES, L4052", "up = CW"),

	/* ------------------------------------------------------- R3QPI, Table 2-123 */
	{ "QPI_RDS_TO_RING_IN_BYTES", "ring", "bytes the QPI agent put on the BL ring (32 B a slot)",
	  "BL * 32", "bytes", PMON_METRIC_BOX, "r3qpi", "Table 2-123 QPI_RDS_TO_RING_IN_BYTES, L4343", "",
	  { { "BL", "r3qpi", "UNC_R3_TXR_INSERTS:BL", 0, 0 } } },
};
const int pmon_snbep_nmetrics = PMON_ARRAY_SIZE(pmon_snbep_metrics);

const struct pmon_metric_group pmon_snbep_metric_groups[] = {
	{ "mem_bw", "DRAM read, write and total bandwidth per channel (iMC)" },
	{ "imc", "iMC request mix and DRAM page hits, empties and misses" },
	{ "imc_power", "iMC power states and throttling, per channel and rank" },
	{ "llc", "LLC miss percentages, write-backs, PCIe bytes (CBo)" },
	{ "tor_latency", "demand data-read latency in the TOR: hit, miss, local, remote (CBo)" },
	{ "cbo_ingress", "CBo ingress queue depth, latency, starvation" },
	{ "ring", "ring use and throughput (CBo, R2PCIe, R3QPI)" },
	{ "ha", "home agent: request mix, conflicts, full queues" },
	{ "qpi", "QPI link: utilisation, data bandwidth, power states" },
	{ "qpi_packets", "QPI packets by class and state (CTO_COUNT match/mask; not modeled by the emulator)" },
	{ "pcu_freq", "PCU: what limited the frequency" },
};
const int pmon_snbep_nmetric_groups = PMON_ARRAY_SIZE(pmon_snbep_metric_groups);
