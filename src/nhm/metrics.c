/* metrics.c - the derived metrics of the Nehalem-EP (Xeon 5500) and
 * Westmere-EP (Xeon 5600) uncore that pmon can count, as data: each with
 * its formula over named events, unit, scope and the line of the Nehalem
 * performance analysis guide it comes from (../shared/seeds/000_*, lines
 * "Lnnnn"; shared/reference/seeds-inventory.md section 8).
 *
 * The uncore is one PMU per socket, so every metric is per socket; a
 * channel is a umask, not a box, so the per-channel bandwidths are metrics
 * of their own.  The guide's bandwidth (L1387, L1390) is 64 bytes a line
 * times the count times "Frequency / Cycles" of any cycle event: here the
 * machine's own time, SECONDS (its TSC ticks over TSC_SPEED), GB = 1e9 B
 * as perf, LIKWID and PCM print it.  A latency is a queue's occupancy over
 * its inserts (L1160, L1326) in uncore cycles, made ns through the UCLK
 * fixed counter over the same time (UNC_CLK_UNHALTED / SECONDS, the
 * uncore's frequency).
 *
 * The names are the SNB-EP tables' where the quantity is the same
 * (MEM_BW_READS, -M mem_bw), so `pmon stat -M mem_bw` means the same on
 * either machine; each generation declares its own (metric.c finds a
 * machine's).  Westmere-EP's table is Nehalem-EP's with its read tracker
 * occupancy (libpfm4's wsm_unc: UNC_GC_OCCUPANCY, read tracker only), so
 * no write tracker latency. */
#include "../metric.h"
#include "nhm.h"

#define UCLK(B) { "UCLK", B, "UNC_CLK_UNHALTED", 0, 0 }
#define NS_NOTE "cycles to ns through the uncore's frequency, UNC_CLK_UNHALTED (the fixed UCLK counter) / SECONDS"
#define BW_NOTE "64 B a line over the machine's time (the guide's Frequency / Cycles); GB = 1e9 B"

/* A read, write or total bandwidth, of a channel (":CH0") or all (":ANY"). */
#define BW_RD(B, nm, um, what, group) \
	{ "MEM_BW_READS" nm, group, "DRAM read bandwidth" what ": 64 B a normal read", \
	  "RD * 64 / SECONDS / 1e9", "GB/s", PMON_METRIC_SOCKET, B, \
	  "Read Bandwidth (ch0) = 64 * UNC_IMC_NORMAL_READS.CH0 * Frequency / Cycles, L1387", BW_NOTE, \
	  { { "RD", B, "UNC_QMC_NORMAL_READS:" um, 0, 0 } } }
#define BW_WR(B, nm, um, what, group) \
	{ "MEM_BW_WRITES" nm, group, "DRAM write bandwidth" what ": 64 B a full-line write", \
	  "WR * 64 / SECONDS / 1e9", "GB/s", PMON_METRIC_SOCKET, B, \
	  "Write Bandwidth (ch0) = 64 * UNC_IMC_WRITES.FULL.CH0 * Frequency / Cycles, L1390", \
	  "partial writes left out, as the guide's formula; " BW_NOTE, \
	  { { "WR", B, "UNC_QMC_WRITES:FULL_" um, 0, 0 } } }
#define BW_TOT(B, nm, rum, wum, what, group) \
	{ "MEM_BW_TOTAL" nm, group, "DRAM bandwidth" what ", reads and full-line writes", \
	  "(RD + WR) * 64 / SECONDS / 1e9", "GB/s", PMON_METRIC_SOCKET, B, \
	  "read and write bandwidth added up, L1387, L1390 (LIKWID MEM group: Memory bandwidth)", BW_NOTE, \
	  { { "RD", B, "UNC_QMC_NORMAL_READS:" rum, 0, 0 }, { "WR", B, "UNC_QMC_WRITES:FULL_" wum, 0, 0 } } }
#define BW_CH(B, n) \
	BW_RD(B, "_CH" #n, "CH" #n, " of channel " #n, "mem_bw_channel"), \
	BW_WR(B, "_CH" #n, "CH" #n, " of channel " #n, "mem_bw_channel"), \
	BW_TOT(B, "_CH" #n, "CH" #n, "CH" #n, " of channel " #n, "mem_bw_channel")

/* Requests at the QPI home logic (the lines homed on this socket), 64 B a
 * request: reads (and the InvItoE of uncacheable writes) and write-backs,
 * from this socket's cores or the other socket's. */
#define QHL(B, um) { #um, B, "UNC_QHL_REQUESTS:" #um, 0, 0 }
#define QHL_BW(B, nm, what, formula, line, ...) \
	{ "QHL_BW_" nm, "qhl", "bandwidth of " what " at this socket's home logic, 64 B a request", \
	  formula " * 64 / SECONDS / 1e9", "GB/s", PMON_METRIC_SOCKET, B, line, \
	  "the requests of lines homed here; " BW_NOTE, { __VA_ARGS__ } }
#define QHL_ALL(B) QHL(B, LOCAL_READS), QHL(B, LOCAL_WRITES), QHL(B, REMOTE_READS), QHL(B, REMOTE_WRITES)
#define QHL_PCT(B, nm, what, num) \
	{ "QHL_PCT_" nm "_REQUESTS", "qhl", what " among the requests at this socket's home logic", \
	  num " / (LOCAL_READS + LOCAL_WRITES + REMOTE_READS + REMOTE_WRITES) * 100", "%", \
	  PMON_METRIC_SOCKET, B, "QHL request sources and kinds, L1318, L1348-L1351", \
	  "the I/O hub's requests left out", { QHL_ALL(B) } }

/* A queue's mean occupancy per insert, in ns. */
#define LAT(B, nm, group, what, occ, ins, line, note) \
	{ nm, group, what, "OCC / INS * SECONDS / UCLK * 1e9", "ns", PMON_METRIC_SOCKET, B, line, note, \
	  { { "OCC", B, occ, 0, 0 }, { "INS", B, ins, 0, 0 }, UCLK(B) } }

#define NHM_WSM_METRICS(B) \
	/* ------------------------------------------- IMC, L1387, L1390 */ \
	BW_RD(B, "", "ANY", "", "mem_bw"), \
	BW_WR(B, "", "ANY", "", "mem_bw"), \
	BW_TOT(B, "", "ANY", "ANY", "", "mem_bw"), \
	BW_CH(B, 0), BW_CH(B, 1), BW_CH(B, 2), \
	/* ---------------------------------- QHL, L1318-L1326, L1594-L1602 */ \
	QHL_BW(B, "LOCAL_READS", "this socket's cores' reads", "LOCAL_READS", \
	       "QHL_REQUESTS.LOCAL_READS, L1350; bandwidth as L1387", QHL(B, LOCAL_READS)), \
	QHL_BW(B, "LOCAL_WRITES", "this socket's cores' write-backs of cached lines", "LOCAL_WRITES", \
	       "QHL_REQUESTS.LOCAL_WRITES, L1351, L1596; bandwidth as L1387", QHL(B, LOCAL_WRITES)), \
	QHL_BW(B, "REMOTE_READS", "the other socket's reads (LIKWID MEM: Remote Read BW)", \
	       "REMOTE_READS", "QHL_REQUESTS.REMOTE_READS, L1348; bandwidth as L1387", \
	       QHL(B, REMOTE_READS)), \
	QHL_BW(B, "REMOTE_WRITES", "the other socket's writes, uncached ones too (LIKWID MEM: Remote Write BW)", \
	       "REMOTE_WRITES", "QHL_REQUESTS.REMOTE_WRITES, L1349, L1594; bandwidth as L1387", \
	       QHL(B, REMOTE_WRITES)), \
	QHL_BW(B, "LOCAL", "this socket's cores' reads and write-backs", "(LOCAL_READS + LOCAL_WRITES)", \
	       "QHL_REQUESTS.LOCAL_READS + LOCAL_WRITES, L1350, L1351; bandwidth as L1387", QHL(B, LOCAL_READS), QHL(B, LOCAL_WRITES)), \
	QHL_BW(B, "REMOTE", "the other socket's reads and writes (LIKWID MEM: Remote BW)", \
	       "(REMOTE_READS + REMOTE_WRITES)", "QHL_REQUESTS.REMOTE_READS + REMOTE_WRITES, L1348, L1349; bandwidth as L1387", \
	       QHL(B, REMOTE_READS), QHL(B, REMOTE_WRITES)), \
	QHL_PCT(B, "LOCAL", "this socket's cores' reads and write-backs", "(LOCAL_READS + LOCAL_WRITES)"), \
	QHL_PCT(B, "REMOTE", "the other socket's reads and writes", "(REMOTE_READS + REMOTE_WRITES)"), \
	QHL_PCT(B, "RD", "reads (local and remote)", "(LOCAL_READS + REMOTE_READS)"), \
	{ "UNCACHEABLE_WRITE_BYTES", "qhl", "bytes of uncacheable writes (InvItoE: streaming, USWC, UC stores) " \
	  "to lines homed here", "(LR + RR - RD) * 64", "bytes", PMON_METRIC_SOCKET, B, \
	  "uncacheable writes = QHL_REQUESTS.LOCAL_READS + REMOTE_READS - IMC_NORMAL_READS.ANY, L1598-L1602", \
	  "the home logic's reads count the InvItoE of each uncacheable write, the memory controller's do not", \
	  { { "LR", B, "UNC_QHL_REQUESTS:LOCAL_READS", 0, 0 }, \
	    { "RR", B, "UNC_QHL_REQUESTS:REMOTE_READS", 0, 0 }, \
	    { "RD", B, "UNC_QMC_NORMAL_READS:ANY", 0, 0 } } }, \
	/* -------------------------------------- latency, L1160-L1162, L1326 */ \
	LAT(B, "QHL_LOCAL_READ_LATENCY", "mem_latency", \
	    "mean time a read of this socket's cores lives in the home logic's local tracker", \
	    "UNC_QHL_OCCUPANCY:LOCAL", "UNC_QHL_REQUESTS:LOCAL_READS", \
	    "local QHL read latency = UNC_QHL_OCCUPANCY.LOCAL / UNC_QHL_REQUESTS.LOCAL_READS, L1326", NS_NOTE), \
	LAT(B, "QHL_REMOTE_READ_LATENCY", "mem_latency", \
	    "mean time a read of the other socket lives in the home logic's remote tracker", \
	    "UNC_QHL_OCCUPANCY:REMOTE", "UNC_QHL_REQUESTS:REMOTE_READS", \
	    "UNC_QHL_OCCUPANCY.REMOTE (remote tracker read occupancy, L1344) / QHL_REQUESTS.REMOTE_READS, as L1326; L1318", NS_NOTE), \
	/* ---------------------------------------------- LLC, Table 29 (L1287-L1297) */ \
	{ "LLC_MISS_PCT", "llc", "LLC lookups of this socket's cores (reads and write-backs) that miss, % of all", \
	  "MISS / (HIT + MISS) * 100", "%", PMON_METRIC_SOCKET, B, \
	  "UNC_LLC_HITS.ANY, UNC_LLC_MISS.ANY, L1287-L1294 (LIKWID's L3CACHE: the L3 miss ratio)", \
	  "the local cores' lookups only, not the probes from QPI (L1297)", \
	  { { "MISS", B, "UNC_LLC_MISS:ANY", 0, 0 }, { "HIT", B, "UNC_LLC_HITS:ANY", 0, 0 } } }, \
	{ "LLC_READ_MISS_PCT", "llc", "LLC lookups of this socket's cores' reads that miss, % of all", \
	  "MISS / (HIT + MISS) * 100", "%", PMON_METRIC_SOCKET, B, \
	  "UNC_LLC_HITS.READ, UNC_LLC_MISS.READ, L1287-L1294", \
	  "reads, RFOs and prefetches of the local cores", \
	  { { "MISS", B, "UNC_LLC_MISS:READ", 0, 0 }, { "HIT", B, "UNC_LLC_HITS:READ", 0, 0 } } }

/* The global queue's read tracker: "Total Read Period" = its occupancy over
 * its allocations (L1160-L1162), longer than the data's latency by the
 * queue's bookkeeping. */
#define GQ_NOTE "includes the queue's bookkeeping after the data (L1162); " NS_NOTE
#define GQ_READ(B, occ) \
	LAT(B, "GQ_READ_LATENCY", "mem_latency", \
	    "mean time a read or RFO of this socket's cores lives in the global queue's read tracker", \
	    occ, "UNC_GQ_ALLOC:READ_TRACKER", \
	    "Total Read Period = UNC_GQ_TRACKER_OCCUP.RT / UNC_GQ_ALLOC.RT, L1160-L1162", GQ_NOTE)

const struct pmon_metric_def pmon_nhm_metrics[] = {
	NHM_WSM_METRICS("nhm_unc"),
	GQ_READ("nhm_unc", "UNC_GQ_TRACKER_OCCUP:RT"),
	LAT("nhm_unc", "GQ_WRITE_LATENCY", "mem_latency",
	    "mean time a write-back of this socket's cores lives in the global queue's write tracker",
	    "UNC_GQ_TRACKER_OCCUP:WT", "UNC_GQ_ALLOC:WRITE_TRACKER",
	    "UNC_GQ_TRACKER_OCCUP.X / UNC_GQ_ALLOC.X for the write tracker, L1160; L1182",
	    "the LLC's response time and what else a write-back needs (L1182); " NS_NOTE),
};
const int pmon_nhm_nmetrics = PMON_ARRAY_SIZE(pmon_nhm_metrics);

/* Westmere-EP: the read tracker's occupancy is libpfm4's UNC_GC_OCCUPANCY
 * (wsm_unc, code 0x02, read tracker only): no write tracker latency. */
const struct pmon_metric_def pmon_wsm_metrics[] = {
	NHM_WSM_METRICS("wsm_unc"),
	GQ_READ("wsm_unc", "UNC_GC_OCCUPANCY:READ_TRACKER"),
};
const int pmon_wsm_nmetrics = PMON_ARRAY_SIZE(pmon_wsm_metrics);

const struct pmon_metric_group pmon_nhm_metric_groups[] = {
	{ "mem_bw", "DRAM read, write and total bandwidth of the socket (IMC normal reads, full-line writes)" },
	{ "mem_bw_channel", "DRAM read, write and total bandwidth per channel (IMC umasks CH0-CH2)" },
	{ "qhl", "home logic: local and remote read and write bandwidth, request mix, uncacheable writes" },
	{ "mem_latency", "memory read latency at the home logic (local, remote) and in the global queue" },
	{ "llc", "LLC miss percentages of the local cores' lookups" },
};
const int pmon_nhm_nmetric_groups = PMON_ARRAY_SIZE(pmon_nhm_metric_groups);
