/*
 * pmon/sim.h - the emulated Sandy Bridge-EP machine.
 *
 * A register-level model of the uncore PMON boxes (MSR and PCI configuration
 * space) and of the core PMU MSRs of a Xeon E5-2600 system.  libpmon programs
 * it through the same access interface it uses for silicon; tests and the
 * validation suite drive it with emulated time and memory traffic and inspect
 * the log of every register access.
 *
 * Its functions are in libpmon-sim (link -lpmon-sim -lpmon; libpmon.a holds
 * them too), which libpmon's "sim" backend loads from libpmon's directory.
 *
 * Shape string (environment variable PMON_SIM, all keys optional):
 *   "sockets=2,cores=8,threads=2,channels=4,llc=20M,mem=64G,dclk=800M,uclk=2.7G,tsc=2.7G"
 *   further keys: qclk, pclk (frequencies), nodeids (see below),
 *   clock=manual|wall|auto (what moves emulated time) and load=<bytes per
 *   second> (a DRAM read stream while time follows the wall clock); both are
 *   described at pmon_sim_advance_ns() below.
 * Sizes take K/M/G suffixes (powers of two); frequencies and load take K/M/G
 * (powers of ten).
 * THE ONE DIFFERENT DEFAULT: pmon_sim_shape_parse() defaults to clock=manual,
 * but the process-wide machine that the "sim" backend creates from $PMON_SIM
 * (pmon_sim_current(), pmon_sim_access_open()) uses clock=auto when $PMON_SIM
 * names no clock, so that an unmodified program sees time pass.
 */
#ifndef PMON_SIM_H
#define PMON_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Who supplies a line to a core (index of pmon_sim_shape.lat_ns). */
enum pmon_sim_supplier {
	PMON_SIM_SUP_L1 = 0,    /* default latency  2 ns */
	PMON_SIM_SUP_L2,        /*                  5 ns */
	PMON_SIM_SUP_LLC,       /*                 15 ns */
	PMON_SIM_SUP_DRAM,      /* local memory    80 ns */
	PMON_SIM_SUP_RDRAM,     /* remote memory  130 ns */
	PMON_SIM_SUP_RCACHE,    /* another socket's cache forwards the line 110 ns */
	PMON_SIM_NSUPPLIERS
};

struct pmon_sim_shape {
	int sockets;            /* 1..8, default 2 */
	int cores;              /* cores per socket 1..8, default 8 (one CBo each) */
	int threads;            /* threads per core 1..2, default 2 */
	int channels;           /* DDR3 channels per socket 1..4, default 4 */
	uint64_t llc_bytes;     /* per socket, default 20 MiB */
	uint64_t mem_bytes;     /* DRAM per socket, default 32 GiB */
	uint64_t dclk_hz;       /* DRAM clock, default 800 MHz */
	uint64_t uclk_hz;       /* uncore clock, default 2.7 GHz */
	uint64_t tsc_hz;        /* core/TSC clock, default 2.7 GHz */
	uint64_t qclk_hz;       /* QPI flit clock, default 1.0 GHz (8 GT/s / 8) */
	uint64_t pclk_hz;       /* PCU clock, default 800 MHz */
	/* Added fields (keep the ones above first). */
	int nodeids[8];         /* QPI node ID of package i, 0..7, distinct; default i.
				   Shape key "nodeids=1,0" (or "nodeids=1:0"); see the
				   PCI section below for what it changes. */
	int clock;              /* enum pmon_sim_clock_mode, key "clock"; default manual */
	uint64_t load_bps;      /* key "load": bytes per second read while time follows
				   the wall clock, 0..PMON_SIM_LOAD_MAX, default 0 */
	/* The memory hierarchy (see MEMORY HIERARCHY below). */
	uint64_t l1_bytes;      /* key l1: private L1D per core, default 32K */
	uint64_t l2_bytes;      /* key l2: private L2 per core, default 256K */
	int l1_ways;            /* key l1ways, default 8 */
	int l2_ways;            /* key l2ways, default 8 */
	int llc_ways;           /* key llcways: ways of each LLC slice, default 20 */
	int prefetch;           /* key prefetch=on|off|0x0..0xf: the initial value of
				   every core's MSR 0x1A4 (bit set: that prefetcher off;
				   0 L2 streamer, 1 L2 adjacent line, 2 DCU next line,
				   3 DCU IP stride); on = 0, the default (silicon's),
				   off = 0xf */
	/* keys lat_l1, lat_l2, lat_llc, lat_dram, lat_rdram, lat_rcache: the
	 * documented latency in ns of each supplier (enum pmon_sim_supplier) */
	uint32_t lat_ns[PMON_SIM_NSUPPLIERS];
	/* key noise: an OS-like trickle on every socket, in bytes per emulated
	 * second per socket, 0..PMON_SIM_LOAD_MAX, default 0.  Whenever emulated
	 * time moves (any clock mode), socket s's first logical CPU has issued
	 * floor(now_ns * noise / 64e9) lines of it since creation: line n a LOAD
	 * if n is even, else a streaming store (NT_STORE); LOAD k reads line
	 * k mod (mem/128) of the lower half of the socket's memory, NT_STORE k
	 * writes the same line of its upper half.  So n lines are ceil(n/2) reads
	 * and floor(n/2) writes; with the prefetchers off (prefetch=off) every
	 * one is a DRAM line read or written by that socket's memory controller,
	 * with them on the reads bring the prefetchers' lines too. */
	uint64_t noise_bps;
	/* key gen: the machine's generation (enum pmon_sim_gen), default
	 * snb-ep.  It sets the other keys' defaults and ranges (doc/sim-nhm.md):
	 * nhm-ep and wsm-ep are Xeon 5500 / 5600 machines with the Nehalem
	 * uncore PMU in MSR space and no PCI boxes (2 sockets x 4 (6) cores x 2
	 * threads, an 8 (12) MiB 16-way LLC, 3 channels; pclk and nodeids are
	 * refused).  Everything below this comment about registers, boxes and
	 * the activity model is SNB-EP's; doc/sim-nhm.md has theirs. */
	int gen;
	/* key nt_erratum=on|off (nhm-ep and wsm-ep only, default on, as
	 * silicon): a streaming store to a locally homed line counts in the
	 * offcore response under OTHER.OTHER_CORE_HIT_SNP (0x280), not
	 * OTHER.LOCAL_DRAM (0x4080); off gives the documented behaviour. */
	int nt_erratum;
};

/* Shape key gen. */
enum pmon_sim_gen {
	PMON_SIM_GEN_SNBEP = 0,     /* "snb-ep": Xeon E5-2600, CPU model 45 */
	PMON_SIM_GEN_NHMEP = 1,     /* "nhm-ep": Xeon 5500, CPU model 26 */
	PMON_SIM_GEN_WSMEP = 2,     /* "wsm-ep": Xeon 5600, CPU model 44 */
};


/* Shape key clock (see pmon_sim_advance_ns). */
enum pmon_sim_clock_mode {
	PMON_SIM_CLOCK_MANUAL = 0,
	PMON_SIM_CLOCK_WALL = 1,
	PMON_SIM_CLOCK_AUTO = 2,
};

/* Highest load= rate (bytes per second).  The emulator models every line of
 * the stream one by one, through the whole memory hierarchy (each line is
 * an L1, L2 and LLC miss and an LLC eviction: measured about 125 ns a line
 * on an x86-64 server core), so 1G (15.6 M lines a second) costs about two
 * CPUs per second of wall time and 100M about a fifth of one, paid by the
 * register access that catches up.  The modelling time is left out of the
 * followed time, so a stream too fast to keep up stays consistent: its
 * emulated time just advances more slowly than the wall clock. */
#define PMON_SIM_LOAD_MAX 2000000000ull

/* Fill *shape with the defaults, then apply spec (NULL or "" = defaults).
 * Returns 0, or -1 with a message naming the bad key or value in err. */
int pmon_sim_shape_parse(const char *spec, struct pmon_sim_shape *shape,
			 char *err, size_t errlen);

typedef struct pmon_sim pmon_sim_t;

/* The emulated machine the current process's libpmon uses (created on first
 * use by the "sim" backend from $PMON_SIM), or NULL if none exists yet. */
pmon_sim_t *pmon_sim_current(void);

/* Create/destroy a machine explicitly (tests).  pmon_sim_create returns NULL
 * only on allocation failure; the shape must come from pmon_sim_shape_parse. */
pmon_sim_t *pmon_sim_create(const struct pmon_sim_shape *shape);
void pmon_sim_destroy(pmon_sim_t *sim);
const struct pmon_sim_shape *pmon_sim_shape(const pmon_sim_t *sim);

/* Emulated time.  Advancing time ticks every clock-driven event: UBox UCLK
 * fixed counter, iMC DCLK fixed counter, box CLOCKTICKS, PCU clockticks, core
 * cycles.  Computed in O(1) however large ns is.
 *
 * What moves time is the shape key clock:
 *   manual  only pmon_sim_advance_ns() (pmon_sim_shape_parse's default).
 *   wall    time follows the process's CLOCK_MONOTONIC: every register
 *           access of the "sim" backend and every pmon_sim_now_ns() first
 *           advances time, exactly as pmon_sim_advance_ns() does, to the wall
 *           time elapsed since pmon_sim_create() (less the time spent
 *           modelling load=, below), in steps of at least 10 us: accesses
 *           less than a step apart see one instant (emulated time lags the
 *           wall by at most about 20 us).  Explicit advances add on top.
 *   auto    wall until the first call of pmon_sim_advance_ns() or
 *           pmon_sim_traffic() (which first catches up with the wall time),
 *           manual from then on: a program that drives the machine takes
 *           control of it.
 * The truth, log and violation getters never move time.
 *
 * Shape key load (bytes per second, default 0): while time follows the wall
 * clock (wall, or auto before the switch), the machine streams DRAM reads at
 * that rate.  After W ns of followed wall time it has issued exactly
 * floor(W * load / 64e9) cache-line LOADs in all, by CPU 0, to consecutive
 * lines from address 0 of socket 0's memory (wrapping within its mem_bytes),
 * through the same path as pmon_sim_traffic(): channel truth, iMC counters,
 * offcore counters and CPU 0's truth all see them.  Explicit advances add no
 * load (with no explicit advance, W = pmon_sim_now_ns()); with clock=manual
 * the key has no effect.  The lines due are modelled one by one at the next
 * access, and the emulated clock stands still meanwhile: the followed time W
 * is the wall time since creation minus the time spent modelling the
 * stream, so that counters read one after the other still cover the same
 * interval (without load, W is the wall time exactly). */
void pmon_sim_advance_ns(pmon_sim_t *sim, uint64_t ns);
/* An explicit advance runs the ticks of the programs using the machine
 * (libpmon folds its counters every so much emulated time, as it does every
 * so much wall time on silicon): time stops at each tick's deadline while
 * the tick runs.  This one advances as if every such program were stopped
 * meanwhile (SIGSTOP, a suspended laptop): no tick runs; the overdue ones
 * run at the next pmon_sim_advance_ns(). */
void pmon_sim_advance_stopped_ns(pmon_sim_t *sim, uint64_t ns);
uint64_t pmon_sim_now_ns(const pmon_sim_t *sim);

/* Memory traffic: one cache-line-sized access by a CPU (logical CPU number
 * 0..sockets*cores*threads-1) to a physical address.  Addresses are split
 * over sockets in contiguous mem_bytes ranges (socket s owns
 * [s*mem_bytes, (s+1)*mem_bytes)), and over the socket's channels by cache line.
 * Every access goes through the issuing core's caches and the memory
 * hierarchy (MEMORY HIERARCHY below): what reaches DRAM are LLC misses (a
 * read), write-backs of Modified lines and streaming stores (writes); a
 * bank's open row decides ACT/PRE (open-page policy).  count repeats the
 * access over count consecutive lines starting at addr (stride 64 bytes).
 * Two kinds are rarer (doc/memory-model.md, "Partial streaming stores and
 * split locks"):
 *  - NT_PARTIAL: streaming stores to part of the line, flushed from the
 *    write-combining buffer as a partial write (TOR opcode WCiL): the home
 *    agent issues a partial write (IMC_WRITES.PARTIAL) and the iMC reads the
 *    line first to merge it (CAS_COUNT.RD_UNDERFILL) before its write CAS.
 *    Only to the issuing socket's own memory: a remote one is PMON_EINVAL
 *    (the 11-flit partial DRS message is not modeled);
 *  - SPLIT_LOCK: a locked read-modify-write whose operand spans this line
 *    and the next: one bus-lock sequence in the issuing socket's UBox
 *    (LOCK_CYCLES), then a store to each of the two lines. */
enum pmon_sim_kind {
	PMON_SIM_LOAD = 0,
	PMON_SIM_STORE = 1,
	PMON_SIM_NT_STORE = 2,
	PMON_SIM_NT_PARTIAL = 3,
	PMON_SIM_SPLIT_LOCK = 4,
};
int pmon_sim_traffic(pmon_sim_t *sim, int cpu, uint64_t addr,
		     enum pmon_sim_kind kind, uint64_t count);

/* Ground truth kept by the model (independent of any PMON programming), for
 * tests to compare counter readings against. */
struct pmon_sim_truth {
	uint64_t cas_rd, cas_wr, act, pre_miss, pre_close;
	uint64_t cas_rd_under;                /* underfill reads (partial writes) */
};
void pmon_sim_channel_truth(const pmon_sim_t *sim, int socket, int channel,
			    struct pmon_sim_truth *out);

/* Does the emulated machine drive the event that this control value (enable
 * bit ignored) selects in a box of this type ("ubox", "cbo", "ha", "imc",
 * "pcu", "qpi", "r2pcie", "r3qpi", "core"; fixed counters are "ubox-fixed"
 * and "imc-fixed")?  filt0 is the event's first filter word (offcore: the
 * response MSR value).  1 = modeled, 0 = not modeled: programming it would
 * count nothing meaningful, so libpmon refuses it on the emulated machine.
 * A pure function: no machine needs to exist. */
int pmon_sim_models(const char *box_type, uint64_t ctl, uint64_t filt0);

/* The access log: every MSR and PCI config access the backend served, once
 * turned on with pmon_sim_log_set_cap() (below). */
enum pmon_sim_op {
	PMON_SIM_MSR_READ, PMON_SIM_MSR_WRITE,
	PMON_SIM_PCI_READ, PMON_SIM_PCI_WRITE,
};
struct pmon_sim_log_entry {
	enum pmon_sim_op op;
	int cpu;                /* MSR accesses */
	uint32_t msr;
	uint16_t domain;        /* PCI accesses */
	uint8_t bus, dev, func;
	uint16_t off;
	uint64_t value;         /* value written, or value returned by a read */
	int status;             /* 0, or the error returned */
};
size_t pmon_sim_log_count(const pmon_sim_t *sim);
const struct pmon_sim_log_entry *pmon_sim_log_get(const pmon_sim_t *sim, size_t i);
size_t pmon_sim_log_writes(const pmon_sim_t *sim);   /* successful writes so far */
void pmon_sim_log_clear(pmon_sim_t *sim);

/* PCI bus numbers of a socket's uncore devices in the emulated machine. */
int pmon_sim_socket_bus(const pmon_sim_t *sim, int socket);

/* ======================================================================
 * Additions.  What the emulated machine is, in detail.
 *
 * TOPOLOGY.  Logical CPU numbers follow hwloc's synthetic topologies
 * ("package:S core:C pu:T"), whose PU os_index runs depth first: the
 * hyperthreads of a core are adjacent,
 *     cpu = (socket * cores + core) * threads + thread.
 * With the default shape CPUs 0 and 1 are the two threads of core 0 of
 * socket 0, CPU 16 is core 0 of socket 1.  pmon_sim_synthetic() gives the
 * matching hwloc description.  cpu_ident: GenuineIntel, family 6, model 45,
 * stepping 7, "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz".
 *
 * MSR SPACE.  Per socket, reached from any CPU of the socket: UBox
 * (0xC08-0xC11, 0xC16-0xC17), CBo 0..cores-1 (0xD04+0x20n ... 0xD19+0x20n),
 * PCU (0xC24, 0xC30-0xC34, 0xC36-0xC39) and the read-only C3/C6 residency
 * counters 0x3FC/0x3FD (always 0: cores never sleep).  Per logical CPU:
 * IA32_PERFEVTSEL0-3, IA32_PMC0-3 (a write sets bits 31:0 sign-extended, as
 * on silicon), IA32_FIXED_CTR0-2, IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_STATUS
 * (read-only), _CTRL, _OVF_CTRL (write 1 to clear status bits, reads 0),
 * and MSR_OFFCORE_RSP_0/1: as on Sandy Bridge with hyperthreading, each
 * thread has its own pair and a write on one is not seen by its sibling
 * (Nehalem/Westmere share them per core; SNB-EP does not).
 * Any other MSR, a CBo beyond the cores present, or a write to a read-only
 * MSR fails with PMON_EIO, like a #GP; a CPU that does not exist fails with
 * PMON_ENODEV.
 * Widths: UBox 44 (UCLK fixed 48), CBo 44, PCU 48, core 48.
 *
 * PCI SPACE (domain 0).  Each package has one bus; with S <= 4 sockets the
 * k-th bus is 0x3f + 0x40*k (0x3f, 0x7f, 0xbf, 0xff), with S > 4 it is
 * 0x1f + 0x20*k.  Packages take the buses in ascending order of their node
 * IDs (nodeids key), so "nodeids=1,0" puts package 0 on bus 0x7f.  Functions
 * per bus, ascending: 08.2 QPI0 3c41, 08.6 QPI0 match/mask 3c86, 09.2 QPI1
 * 3c42, 09.6 QPI1 match/mask 3c96, 0b.0 UBox 3ce0, 0e.1 HA 3c46, 10.0/10.1/
 * 10.4/10.5 iMC channels 0-3 3cb0/3cb1/3cb4/3cb5 (only `channels` of them),
 * 13.1 R2PCIe 3c43, 13.5/13.6 R3QPI links 0/1 3c44/3c45.  Dword 0 holds the
 * IDs, 0x08 revision 0x07 and class (PMON functions 0x1101 "performance
 * counters", the others 0x0880), 0x0C header type 0x80.  UBox: CPUNODEID
 * (0x40) bits 2:0 = the package's node ID; GIDNIDMAP (0x54) field i (bits
 * 3i+2:3i) = node ID of package i, unused fields 0.  Every undefined offset of
 * an existing function reads 0.  Writes are accepted only at the function's
 * PMON registers (box ctl, counter ctls, counters, iMC fixed ctl/ctr, HA
 * match 0x40/0x44/0x48, QPI F6 0x228/0x22C/0x238/0x23C); any other write is
 * refused with PMON_EIO.  A function that does not exist: PMON_ENODEV.
 * Offsets must be dword aligned and below 0x1000 (else PMON_EINVAL).
 * Widths: HA/iMC/QPI 48, R2PCIe/R3QPI 44.  Counters are two dwords, low at
 * the lower offset; a write sets that half.
 *
 * REGISTER SEMANTICS AND THE RESERVED-BIT POLICY.
 *  - BOX_CTL is write-only (reads 0): frz_en 16, frz 8, rst_ctrs 1 (zero the
 *    general counters), rst_ctrl 0 (zero the counter controls).  A box is
 *    frozen while frz and frz_en were both set by the last write.  HA and iMC
 *    have no reset bits: 1:0 are reserved there.
 *  - A counter counts while its control has en (bit 22) and its box is not
 *    frozen (the UBox cannot be frozen; the iMC fixed counter freezes with
 *    its channel).  rst (bit 17, CBo/PCU/QPI/R2PCIe/
 *    R3QPI/UBox) and the iMC fixed rst (bit 19) clear the counter and read 0.
 *  - Valid control bits per box: thresh 31:24 (UBox and PCU 28:24), invert
 *    23, en 22, edge 18, umask 15:8, ev_sel 7:0, plus tid_en 19 (CBo only),
 *    rst 17 (not HA/iMC), ev_sel_ext 21 (QPI, PCU), occ_edge 31, occ_invert
 *    30, occ_sel 15:14 (PCU, which has no umask).
 *  - POLICY: a write that sets a bit which does not exist in that register
 *    (reserved bits, bits above a counter's width, bits 63:32 of a 32-bit
 *    MSR) is recorded as a violation (pmon_sim_violation_*).  Uncore
 *    registers accept the write without the reserved bits (so a reserved
 *    reset bit has no effect) and the access status is 0.  Core MSRs refuse
 *    the write with PMON_EIO, as silicon raises #GP there; the offcore RSP
 *    MSRs' valid mask is 0x3fffff8fff.
 *  - thresh/invert/edge act on each cycle's increment: thresh 0 counts the
 *    raw increment (invert and edge are then ignored); otherwise the cycle's
 *    output is (inc >= thresh), or (inc < thresh) with invert, and edge
 *    counts the output's 0->1 transitions.  Clock events increment by 1 each
 *    cycle.  Memory events are taken as one occurrence in a cycle of its own
 *    with idle cycles unknown: thresh 1 (with or without edge) counts them,
 *    thresh > 1 or invert counts nothing (not modeled: see pmon_sim_models).
 *
 * ACTIVITY MODEL (what pmon_sim_models() returns 1 for, enable bit ignored):
 *  - clocks (umask 0): "cbo" 0x00, "ha" 0x00, "r2pcie" 0x01, "r3qpi" 0x01
 *    (uclk); "pcu" 0x00 without ev_sel_ext (pclk); "qpi" 0x14 without
 *    ev_sel_ext (qclk); "core" 0x3C umask 0 (core cycles = tsc); any
 *    thresh/invert/edge except invert or edge with thresh 0 (undefined per
 *    the guide).  Not with CBo tid_en.
 *  - fixed counters: "ubox-fixed" (uclk), "imc-fixed" (dclk), any ctl;
 *    "core-fixed" with ctl = fixed counter index: 1 (unhalted core cycles)
 *    and 2 (reference cycles), both at tsc.  Fixed counter 0 (instructions)
 *    is not modeled.
 *  - "imc": CAS_COUNT 0x04 with a non-zero umask within 0x0F (RD_REG 0x01,
 *    RD_UNDERFILL 0x02, WR_WMM 0x04, WR_RMM 0x08; the counter sums the
 *    selected ones; underfill and RMM never occur), ACT_COUNT 0x01 umask 0,
 *    PRE_COUNT 0x02 with a non-zero umask within 0x03 (PAGE_MISS 0x01,
 *    PAGE_CLOSE 0x02, which never occurs: no idle page closing), RPQ_INSERTS
 *    0x10 and WPQ_INSERTS 0x20 umask 0; thresh 0 or 1, no invert or edge.
 *  - "core": OFFCORE_RESPONSE 0xB7 (RSP_0) / 0xBB (RSP_1), umask 0x01, cmask
 *    0 or 1, no invert or edge, when filt0 (the RSP value) has no reserved bit
 *    and matches an access the model produces.  Responses produced:
 *    each request that leaves the core's L2:
 *      LOAD      request DEMAND_DATA_RD (bit 0)
 *      STORE     request DEMAND_RFO (bit 1): a miss, or a store to a line
 *                the core holds Shared
 *      L2 prefetchers: PF_DATA_RD (bit 4) / PF_RFO (bit 5); the DCU's
 *                fetches that miss the L2: DEMAND_DATA_RD
 *      NT_STORE  request STREAMING_STORES (bit 11)
 *      dirty L2 victim: request WB (bit 3)
 *    Reads and RFOs that hit the LLC: supplier LLC_HIT M/E/S/F (bits 18-21)
 *    by the LLC state at lookup; snoop SNP_NOT_NEEDED (32: no other core
 *    snooped), SNP_MISS (33: the snooped cores had no copy), SNP_NO_FWD (34:
 *    a clean copy), HITM (36: a Modified copy).  Reads and RFOs that miss
 *    it: supplier L3_MISS_LOCAL_DRAM (bit 22) when the line's home is the
 *    CPU's socket, else the remote DRAM bits 23-30 (also when another
 *    socket's cache forwards the line); snoop: SNP_NOT_NEEDED with one
 *    socket, else the other sockets' answer: SNP_MISS, SNP_NO_FWD (a Shared
 *    copy), SNP_FWD (a clean copy forwarded), HITM (a Modified one).
 *    NT_STORE and WB: supplier SUPPLIER_NONE (bit 17), snoop SNOOP_NONE
 *    (bit 31): no data come back.  An access
 *    counts when its request bit is set and either ANY_RESPONSE (bit 16) is
 *    set or both its supplier and its snoop bits intersect the RSP value.
 *    Core counters (PMCs and fixed) count only with USR set (bit 16 of
 *    PERFEVTSEL, bit 1 of each FIXED_CTR_CTRL nibble) and the counter's
 *    IA32_PERF_GLOBAL_CTRL bit: the emulated CPUs run user code only.
 *    AnyThread (bit 21 / nibble bit 2) also counts the sibling's accesses.
 *    An offcore counter matches every access it counts (its own thread's,
 *    and with AnyThread the sibling's) against the RSP value of the CPU the
 *    counter belongs to, never against the sibling's RSP.
 *  - "cbo" (LLC slice of the line; MEMORY HIERARCHY and doc/memory-model.md):
 *    LLC_LOOKUP 0x34: umask bit 0 plus request types DATA_READ 0x02 (reads,
 *    RFOs, prefetches), WRITE 0x04 (L2 write-backs, streaming stores),
 *    REMOTE_SNOOP 0x08 (another socket's snoop), ANY 0x1F; the filter's
 *    state field (I 18, S 19, E 20, M 21, F 22: the LLC state at lookup)
 *    must not be empty; NID 0x40 with the filter's nid mask (the line's home
 *    node).  LLC_VICTIMS 0x37: M 0x01, E 0x02, S 0x04 (F victims count as
 *    S), NID 0x40 (alone: every state); MISS 0x08 is not modeled.
 *    TOR_INSERTS 0x35 / TOR_OCCUPANCY 0x36 (occupancy: thresh 0 only):
 *    OPCODE 0x01 and MISS_OPCODE 0x03 with the filter's opc among DRd 0x182,
 *    RFO 0x180, WCiLF 0x18C and (OPCODE only) WbMtoI 0x1C4; EVICTION 0x04,
 *    MISS_ALL 0x0A, WB 0x10 (inserts), ALL 0x08, and their NID forms
 *    (| 0x40: the line's home node in the filter's nid mask).  The TOR holds the slice's core requests (a miss: it
 *    left for the home agent), write-backs and evictions; snoops are not
 *    entered.  Occupancy adds each entry's lifetime at its insert (see
 *    MEMORY HIERARCHY).  tid_en (the thread filter) is not modeled.
 *  - "ha": REQUESTS 0x01 READS 0x03 / WRITES 0x0C / both; IMC_WRITES 0x1A
 *    with FULL 0x01 (PARTIAL and ISOCH never occur); TRACKER_INSERTS 0x06
 *    ALL 0x03; TXR_BL 0x10 DRS_CACHE 0x01 / DRS_QPI 0x04 (data read from
 *    DRAM for a local / remote requester; no Direct2Core).
 *  - "qpi": TxL_FLITS_G0 0x00 / RxL_FLITS_G0 0x01 DATA 0x02, NON_DATA 0x04;
 *    (ev_sel_ext) TxL_FLITS_G1 0x00 / RxL_FLITS_G1 0x02 SNP 0x01, HOM_REQ
 *    0x02, HOM_NONREQ 0x04, DRS_DATA 0x08, DRS_NONDATA 0x10; TxL_FLITS_G2
 *    0x01 / RxL_FLITS_G2 0x03 NDR_AK 0x02 (completions).  IDLE, NDR_AD, NCB
 *    and NCS are not modeled.
 *  - "pcu" (the power model: the clocks keep their frequencies, every core
 *    is in C0 all the time), each PCLK cycle: FREQ_BANDn_CYCLES 0x0B-0x0E
 *    count 1 when uclk is at or above band n of the filter (bits 8n+7:8n,
 *    100 MHz units), else 0; POWER_STATE_OCCUPANCY 0x80 adds the cores in
 *    the occ_sel state: CORES_C0 (1) the socket's cores, CORES_C3 (2) and
 *    CORES_C6 (3) 0; thresh/invert/edge act on that increment as on a
 *    clock; occ_invert/occ_edge are not modeled.
 *  - "r3qpi": RxR_INSERTS 0x11 with a non-zero umask within 0x0F (HOM
 *    0x01, SNP 0x02, NDR 0x04, DRS 0x08): every QPI message a socket sends
 *    on link L enters its R3QPI L ingress (ring toward QPI) once, in its
 *    class (HOM_REQ and HOM_NONREQ are HOM); NCB/NCS never occur.
 *  Everything else counts nothing (ring, the other ingress/egress queues,
 *  R3QPI's egress and credits, R2PCIe and the rest stay refused: the model
 *  carries no such traffic).
 *
 * DRAM.  What the hierarchy sends to memory reaches DRAM at the line's
 * home socket.  Home socket = addr / mem_bytes; in it,
 *     line = (addr mod mem_bytes) / 64, channel = line % channels,
 *     cl = line / channels, column = cl % 128 (8 KiB rows),
 *     bank = (cl / 128) % 8, rank = (cl / 1024) % 2, row = cl / 2048.
 * Open-page policy per (rank, bank): row hit = CAS; bank closed = ACT + CAS;
 * other row open = PRE (page miss) + ACT + CAS.  A read = CAS RD_REG + RPQ
 * insert; a write = CAS WR_WMM + WPQ insert.
 * ====================================================================== */

/* CONCURRENCY.  Every function above and below may be called from several
 * threads; each machine has a lock.  Destroying a machine that an open "sim"
 * backend still uses is the caller's error. */

/* Topology helpers (pure, from a shape).  -1 when out of range. */
int pmon_sim_ncpus(const struct pmon_sim_shape *shape);
int pmon_sim_cpu_of(const struct pmon_sim_shape *shape, int socket, int core, int thread);
int pmon_sim_cpu_place(const struct pmon_sim_shape *shape, int cpu,
		       int *socket, int *core, int *thread);
/* The hwloc synthetic description of the shape: "package:2 core:8 pu:2". */
int pmon_sim_synthetic(const struct pmon_sim_shape *shape, char *buf, size_t len);

/* Make sim the process's current machine (the one the "sim" backend opens
 * from now on; NULL: none, the next open creates one from $PMON_SIM).
 * Returns the previous one, which the caller may destroy. */
pmon_sim_t *pmon_sim_set_current(pmon_sim_t *sim);

/* Where the emulated DRAM puts an address (mapping above).  0 or -1 when
 * the address is beyond sockets * mem_bytes. */
struct pmon_sim_dram_loc {
	int socket, channel, rank, bank;
	uint64_t row, column;
};
int pmon_sim_dram_locate(const pmon_sim_t *sim, uint64_t addr, struct pmon_sim_dram_loc *out);

/* Accesses issued by a CPU, by kind and by whether the home was its own
 * socket (ground truth for offcore-response counts). */
struct pmon_sim_cpu_truth {
	uint64_t load_local, load_remote;
	uint64_t store_local, store_remote;
	uint64_t nt_local, nt_remote;
};
void pmon_sim_cpu_truth(const pmon_sim_t *sim, int cpu, struct pmon_sim_cpu_truth *out);

/* The log is off on a new machine (cap 0): it costs nothing and holds no
 * entry.  pmon_sim_log_set_cap(sim, n) turns it on: it then keeps the last
 * n entries (entry 0 the oldest kept), in memory that grows with use up to
 * n entries (about 32 bytes each).  Setting the cap empties the ring and
 * keeps the totals; cap 0 turns the log off again and frees it.  The totals
 * (pmon_sim_log_total, pmon_sim_log_writes) count every access since
 * creation or the last pmon_sim_log_clear(), which also clears the
 * violations; they are kept whether the log is on or not (counter reads
 * served without the machine's lock, with the log off, included).
 * pmon_sim_log_get()'s entry stays valid until the ring wraps over it. */
size_t pmon_sim_log_total(const pmon_sim_t *sim);
size_t pmon_sim_log_cap(const pmon_sim_t *sim);
void pmon_sim_log_set_cap(pmon_sim_t *sim, size_t cap);

/* Violations of the register rules (policy above).  The first 4096 are kept
 * in detail; pmon_sim_violation_count() counts all of them. */
struct pmon_sim_violation {
	size_t seq;             /* access number (0-based, as pmon_sim_log_total counts) */
	enum pmon_sim_op op;
	int cpu;                /* MSR writes */
	uint32_t msr;
	uint8_t bus, dev, func; /* PCI writes */
	uint16_t off;
	uint64_t value;         /* value written */
	uint64_t bad;           /* the offending bits */
	char reg[40];           /* register name, e.g. "HA BOX_CTL", "CBo3 CTL2" */
};
size_t pmon_sim_violation_count(const pmon_sim_t *sim);
const struct pmon_sim_violation *pmon_sim_violation_get(const pmon_sim_t *sim, size_t i);

/* ======================================================================
 * THE MEMORY HIERARCHY (design note: doc/memory-model.md).
 *
 * Every access (pmon_sim_traffic, pmon_sim_vtraffic, pmon_sim_vtraffic_refs,
 * the load= stream) goes through the caches of the issuing CPU's core:
 *  - per core (its hyperthreads share them): L1D (l1=32K, l1ways=8) and L2
 *    (l2=256K, l2ways=8), 64-byte lines, write-back, write-allocate, true
 *    LRU; L2 includes L1 (an L2 eviction invalidates the L1 copy); sets =
 *    size / (64 * ways) must be a power of two.
 *  - per socket: the LLC, one slice per core/CBo (llc / cores bytes,
 *    llcways=20), inclusive of the cores' caches: an LLC victim
 *    back-invalidates the copies of the cores in its core-valid bits.
 *    Slice of a line (the real hash is undocumented; this one is uniform):
 *        h = (line * 0x9E3779B97F4A7C15) >> 32,  slice = (h * cores) >> 32
 *    (line = physical address / 64), set = line mod sets, sets =
 *    floor(llc / cores / 64 / llcways).
 *  - coherence MESIF with core-valid bits; cross-socket requests go to the
 *    home agent of the line's home socket, which snoops the other sockets
 *    (home snoop) and moves messages over QPI; see doc/memory-model.md for
 *    each message, its flits and which counter sees it.
 *  - LOAD: a read (offcore DEMAND_DATA_RD, TOR opcode DRd); STORE: a read
 *    for ownership when the core does not own the line (RFO), the line
 *    becomes Modified and is written to DRAM when it leaves the LLC;
 *    NT_STORE: no read, the caches' copies are invalidated and the full
 *    line is written to DRAM at its home (offcore STREAMING_STORES, TOR
 *    opcode WCiLF).
 *  - the four prefetchers of each core (L2 streamer, L2 adjacent line, DCU
 *    next line, DCU IP stride), each off when its bit of the core's MSR
 *    0x1A4 is set (reset value: the prefetch= key).  The L2's fetches are
 *    offcore PF_DATA_RD / PF_RFO, the DCU's DEMAND_DATA_RD; TOR opcode DRd
 *    / RFO.  doc/memory-model.md ("Prefetchers") gives the rules.
 *  - traffic does not move emulated time.  Occupancy events add, at each
 *    insert, the entry's lifetime: the supplier's lat_ns converted to the
 *    box clock, round(lat_ns * hz / 1e9) cycles.
 * Defaults of the latencies (ns): lat_l1=2, lat_l2=5, lat_llc=15,
 * lat_dram=80, lat_rdram=130, lat_rcache=110 (0..100000).
 * ====================================================================== */

/* Emulated memory: virtual addresses of the machine in 4 KiB pages.  Frames
 * of a socket are handed out in a pseudo-random order (a fixed permutation
 * of the socket's frames, documented in doc/memory-model.md), so that
 * channels, banks and LLC slices see realistic address distributions. */
enum pmon_sim_place {
	PMON_SIM_FIRST_TOUCH = 0,   /* the socket of the first CPU touching a page */
	PMON_SIM_ON_SOCKET = 1,     /* the socket given */
	PMON_SIM_INTERLEAVE = 2,    /* page i of the region on socket i % sockets */
};
/* Reserve bytes (rounded up to pages, > 0) of virtual memory; *vaddr = its
 * page-aligned base, never 0.  Frames are taken at first touch (of the
 * touching CPU's socket, of `socket`, or interleaved).  PMON_EINVAL: bad
 * argument; PMON_ENOMEM: no room (a socket's frames run out at first touch:
 * that access fails with PMON_ENOMEM). */
int pmon_sim_mem_alloc(pmon_sim_t *sim, uint64_t bytes, enum pmon_sim_place place,
		       int socket, uint64_t *vaddr);
/* Release a region (vaddr = its base): its frames return to their sockets,
 * and the caches drop their lines of them (discarded without a write-back:
 * freed contents no longer matter; nothing is counted). */
int pmon_sim_mem_free(pmon_sim_t *sim, uint64_t vaddr);
/* Physical address of a virtual one: 0, or PMON_EINVAL when it is not in a
 * region or its page was never touched. */
int pmon_sim_mem_translate(const pmon_sim_t *sim, uint64_t vaddr, uint64_t *paddr);
/* count accesses of one kind by cpu to consecutive lines from vaddr (all in
 * allocated regions, else PMON_ERANGE and nothing is done). */
int pmon_sim_vtraffic(pmon_sim_t *sim, int cpu, uint64_t vaddr, enum pmon_sim_kind kind,
		      uint64_t count);
/* The fast path for kernels: n line references by one CPU, in order; each
 * element is a line-aligned virtual address OR'ed with its kind (bits 2:0;
 * a SPLIT_LOCK's next line must be in the same region).
 * One lock round trip per call.  Checks every element before modelling any:
 * a bad kind or an address outside the regions is PMON_EINVAL / PMON_ERANGE
 * and nothing is done.  (A first touch that finds its socket out of frames
 * stops the call there with PMON_ENOMEM: the references before it were
 * modelled.) */
int pmon_sim_vtraffic_refs(pmon_sim_t *sim, int cpu, const uint64_t *refs, size_t n);
/* Write back every dirty line (DRAM writes at the homes, counted by HA/iMC/
 * QPI like any write-back) and drop every cached line of every socket. */
int pmon_sim_flush_caches(pmon_sim_t *sim);

/* Ground truth of the hierarchy, independent of any PMON programming. */
struct pmon_sim_cache_truth {            /* per logical CPU */
	/* by kind (enum pmon_sim_kind; NT stores bypass L1/L2: always 0) */
	uint64_t l1_hit[3], l1_miss[3];
	uint64_t l2_hit[3], l2_miss[3];      /* accesses that missed L1 */
	uint64_t llc_hit[3], llc_miss[3];    /* demand requests reaching the LLC */
	uint64_t upgrades;                   /* stores to a Shared line held in L1/L2 */
	uint64_t hitm;                       /* demand requests answered HITM (core or socket) */
	uint64_t supplied[PMON_SIM_NSUPPLIERS]; /* demand loads+stores by supplier */
	uint64_t prefetches;                 /* L2 prefetchers' requests to the LLC */
	uint64_t writebacks;                 /* dirty L2 victims written to the LLC */
	/* the prefetchers (MSR 0x1A4; see MEMORY HIERARCHY) */
	uint64_t pf_streamer, pf_adjacent;   /* L2 prefetches issued, by prefetcher */
	uint64_t pf_dcu_next, pf_dcu_ip;     /* L1 prefetches of lines not in the L1 */
	uint64_t pf_dcu_l2;                  /* of those, lines the L2 lacked (to the LLC) */
};
int pmon_sim_cache_truth(const pmon_sim_t *sim, int cpu, struct pmon_sim_cache_truth *out);

struct pmon_sim_slice_truth {            /* per socket and LLC slice (CBo) */
	uint64_t lookups, hits, misses;      /* lookups by requests of this socket */
	uint64_t snoops;                     /* lookups by other sockets' snoops */
	uint64_t victims[4];                 /* by state: 0 M, 1 E, 2 S, 3 F */
	uint64_t hitm;                       /* core snoops that found a Modified copy */
	uint64_t tor_inserts, tor_misses;
	uint64_t writebacks;                 /* core write-backs (WbMtoI) received */
};
int pmon_sim_slice_truth(const pmon_sim_t *sim, int socket, int slice,
			 struct pmon_sim_slice_truth *out);

struct pmon_sim_ha_truth {               /* per socket (its home agent) */
	uint64_t reads_local, reads_remote;  /* by the requesting socket */
	uint64_t writes_local, writes_remote;
	uint64_t imc_reads, imc_writes;      /* DRAM lines read / written (full lines) */
	uint64_t imc_writes_partial;         /* partial lines written */
};
int pmon_sim_ha_truth(const pmon_sim_t *sim, int socket, struct pmon_sim_ha_truth *out);

struct pmon_sim_qpi_truth {              /* per socket and link (port 0..1) */
	uint64_t tx_data, tx_nondata;        /* flits sent: payload / every other flit */
	uint64_t rx_data, rx_nondata;
};
int pmon_sim_qpi_truth(const pmon_sim_t *sim, int socket, int link,
		       struct pmon_sim_qpi_truth *out);
/* Bus-lock sequences (split locks) started by a socket's CPUs. */
int pmon_sim_ubox_locks(const pmon_sim_t *sim, int socket, uint64_t *out);
/* The slice (CBo) a physical address maps to (hash above). */
int pmon_sim_llc_slice(const pmon_sim_t *sim, uint64_t paddr);

#ifdef __cplusplus
}
#endif
#endif
