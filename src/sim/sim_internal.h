/*
 * sim_internal.h - the emulated SNB-EP machine's private data structures.
 *
 * The register map here is the emulator's own, written from the uncore
 * guide; it deliberately shares nothing with libpmon's box tables.
 *
 * Layers:
 *   sim_ctr     one counter: value, width, decoded control, what it counts
 *   sim_box     one uncore PMON unit: counters, box freeze state, filters
 *   sim_kind    the fixed facts of a box type (valid bits, widths, events)
 *   pmon_sim    the machine: sockets of boxes, per-CPU core PMUs, DRAM,
 *               clock, log
 * Every public entry point takes sim->lock (sim_lock), and internal
 * functions assume it, except the batch of counter reads that sim_access.c
 * serves without it (hold_seq, sim_lock's comment).
 */
#ifndef PMON_SIM_INTERNAL_H
#define PMON_SIM_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

/* Everything declared below is the emulator's own: hidden from libpmon's
 * exported symbols, so calls between its files are direct and a function
 * can be inlined in its own file. */
#pragma GCC visibility push(hidden)

#define SIM_MAX_SOCKETS 8
#define SIM_MAX_CORES   8
#define SIM_MAX_CHANS   4

/* Clock domains. */
enum sim_clock { SIM_UCLK, SIM_DCLK, SIM_PCLK, SIM_QCLK, SIM_TSC, SIM_NCLOCKS };

/* Signals the activity model produces; a counter selects a set of them. */
#define SIM_SIG_CAS_RD_REG   (1u << 0)
#define SIM_SIG_CAS_RD_UNDER (1u << 1)
#define SIM_SIG_CAS_WR_WMM   (1u << 2)
#define SIM_SIG_CAS_WR_RMM   (1u << 3)
#define SIM_SIG_ACT          (1u << 4)
#define SIM_SIG_PRE_MISS     (1u << 5)
#define SIM_SIG_PRE_CLOSE    (1u << 6)
#define SIM_SIG_RPQ          (1u << 7)
#define SIM_SIG_WPQ          (1u << 8)
#define SIM_SIG_OFFCORE0     (1u << 9)
#define SIM_SIG_OFFCORE1     (1u << 10)
/* Events of the memory hierarchy; the counter's arg holds what the event
 * selects (umask, direction...), matched by the box's emitter. */
#define SIM_SIG_LLC_LOOKUP   (1u << 11)   /* CBo, arg = umask */
#define SIM_SIG_LLC_VICTIM   (1u << 12)   /* CBo, arg = umask */
#define SIM_SIG_TOR_INS      (1u << 13)   /* CBo, arg = umask */
#define SIM_SIG_TOR_OCC      (1u << 14)   /* CBo, arg = umask */
#define SIM_SIG_HA_REQ       (1u << 15)   /* HA REQUESTS, arg = umask */
#define SIM_SIG_HA_IMC_WR    (1u << 16)   /* HA IMC_WRITES */
#define SIM_SIG_HA_TRACKER   (1u << 17)   /* HA TRACKER_INSERTS */
#define SIM_SIG_HA_TXR_BL    (1u << 18)   /* HA TXR_BL, arg = umask */
#define SIM_SIG_QPI_FLITS    (1u << 19)   /* QPI, arg = rx << 16 | group << 8 | umask */
#define SIM_SIG_R3_RXR       (1u << 20)   /* R3QPI RxR_INSERTS, arg = umask (classes) */
#define SIM_SIG_UBOX_LOCK    (1u << 21)   /* UBox LOCK_CYCLES (sequences) */

/* Offcore-response MSR bits (Intel's SNB-EP matrix bit definitions). */
#define SIM_RSP_VALID            0x3fffff8fffull
#define SIM_RSP_DEMAND_DATA_RD   (1ull << 0)
#define SIM_RSP_DEMAND_RFO       (1ull << 1)
#define SIM_RSP_STREAMING_STORES (1ull << 11)
#define SIM_RSP_REQ_MASK         0xffffull
#define SIM_RSP_ANY_RESPONSE     (1ull << 16)
#define SIM_RSP_SUPPLIER_NONE    (1ull << 17)
#define SIM_RSP_LOCAL_DRAM       (1ull << 22)
#define SIM_RSP_REMOTE_DRAM      (0xffull << 23)   /* bits 30:23 */
#define SIM_RSP_WB               (1ull << 3)
#define SIM_RSP_PF_DATA_RD       (1ull << 4)
#define SIM_RSP_PF_RFO           (1ull << 5)
#define SIM_RSP_LLC_HITM         (1ull << 18)
#define SIM_RSP_LLC_HITE         (1ull << 19)
#define SIM_RSP_LLC_HITS         (1ull << 20)
#define SIM_RSP_LLC_HITF         (1ull << 21)
#define SIM_RSP_SNOOP_NONE       (1ull << 31)
#define SIM_RSP_SNOOP_NOT_NEEDED (1ull << 32)
#define SIM_RSP_SNOOP_MISS       (1ull << 33)
#define SIM_RSP_SNOOP_NO_FWD     (1ull << 34)
#define SIM_RSP_SNOOP_FWD        (1ull << 35)
#define SIM_RSP_SNOOP_HITM       (1ull << 36)
/* Does an access (request, supplier, snoop) count under this RSP value? */
int sim_offcore_match(uint64_t rsp, uint64_t req, uint64_t supplier, uint64_t snoop);

/* Common control-register fields (uncore and core alike). */
#define SIM_CTL_EDGE    (1u << 18)
#define SIM_CTL_EN      (1u << 22)
#define SIM_CTL_INVERT  (1u << 23)
#define SIM_CTL_RST     (1u << 17)
#define SIM_CTL_TID_EN  (1u << 19)
#define SIM_CTL_EXT     (1u << 21)

#define SIM_BOX_RST_CTRL (1u << 0)
#define SIM_BOX_RST_CTRS (1u << 1)
#define SIM_BOX_FRZ      (1u << 8)
#define SIM_BOX_FRZ_EN   (1u << 16)

struct sim_ctr {
	uint64_t val;           /* always < 2^width */
	uint64_t mask;          /* 2^width - 1 */
	uint64_t ctl;           /* control as it reads back */
	int clock;              /* clock domain it counts, -1 none */
	uint32_t sig;           /* memory signals it counts */
	uint8_t thresh, invert, edge;
	uint8_t prev;           /* edge detector: last cycle's output */
	uint8_t enabled;        /* control-level enable */
	uint8_t active;         /* counting now */
	uint32_t arg;           /* memory-hierarchy events: what the event selects */
	uint32_t per_cycle;     /* clock events: the increment each cycle (1; PCU
				   occupancy and frequency bands: see sim_pcu.c) */
	uint64_t *ovf;          /* core counters: IA32_PERF_GLOBAL_STATUS */
	uint64_t ovf_bit;
};

struct sim_box;

struct sim_kind {
	const char *name;       /* pmon_sim_models() box type: "cbo" */
	const char *label;      /* for violation records: "CBo" */
	int multi;              /* instances are numbered in names ("CBo3") */
	int nctr, width;
	uint32_t ctl_valid;     /* bits that exist in a counter control */
	uint32_t ctl_wo;        /* write-only among them (rst) */
	int thresh_bits;
	uint32_t box_valid;     /* bits of BOX_CTL that exist; 0 = no box control */
	int has_fixed, fixed_width, fixed_clock;
	uint32_t fixed_valid, fixed_wo;
	/* Set c->clock / c->sig from the event fields of ctl. */
	void (*decode)(struct sim_ctr *c, uint32_t ctl);
	/* Memory events (sig != 0) accept only thresh <= 1 and no invert/edge
	 * in pmon_sim_models(); clock events accept everything. */
	/* Optional: the SIM_REL_* bits of the events some active counter of
	 * the box may count (sim_box_refresh keeps sim_box.rel with it). */
	uint32_t (*relevant)(const struct sim_box *b);
};

/* Memory events waiting to be matched against counters (sim_pend.c):
 * distinct events (k: what the event is, box specific, never 0) with their
 * multiplicity and summed occupancy, in SIM_NPEND slots: an event goes to
 * one of two neighbouring slots chosen by a hash of it (a new event whose
 * two slots are taken has the first slot's events matched first).  A traffic call queues its events and matches them once per
 * distinct event before it returns (it holds the machine's lock
 * throughout), so counters read after the call hold exactly what
 * event-by-event matching would have given. */
#define SIM_NPEND 16
struct sim_pend {
	uint64_t k, n, occ;           /* k == 0: a free slot */
};
struct sim_pendq {
	struct sim_pendq *next;   /* on sim->pend while it holds events */
	int cpu;                  /* owner: the CPU whose offcore responses it holds, -1 a box */
	uint16_t used;            /* slots holding an event; nonzero: on sim->pend */
	struct sim_pend e[SIM_NPEND];
};

struct sim_box {
	struct sim_pendq pq;        /* first: a box's queue converts to the box */
	const struct sim_kind *kind;
	int socket, inst;
	uint8_t frz_en, frz;
	struct sim_ctr ctr[4];
	struct sim_ctr fixed;
	uint32_t reg[4];        /* filter/match registers, box specific */
	uint32_t mon;           /* memory signals some active counter counts (SIM_SIG_*) */
	uint32_t rel;           /* finer: events some active counter may count (SIM_REL_*) */
};

/* Kinds (one file per family). */
extern const struct sim_kind sim_kind_ubox, sim_kind_cbo, sim_kind_pcu;
extern const struct sim_kind sim_kind_ha, sim_kind_imc, sim_kind_qpi;
extern const struct sim_kind sim_kind_r2pcie, sim_kind_r3qpi, sim_kind_core;
const struct sim_kind *sim_kind_find(const char *name);

/* DRAM channel state. */
#define SIM_DRAM_RANKS   2
#define SIM_DRAM_BANKS   8
#define SIM_DRAM_ROWLINES 128   /* 8 KiB rows */
struct sim_chan {
	int64_t open_row[SIM_DRAM_RANKS * SIM_DRAM_BANKS];   /* -1 closed */
	struct pmon_sim_truth truth;
	uint64_t rpq, wpq;
};

/* ---- the memory hierarchy ---- */
enum sim_st { SIM_I = 0, SIM_S = 1, SIM_E = 2, SIM_M = 3, SIM_F = 4 };

/* One set-associative array.  Each set is one block of 64-bit entries in
 * most-recently-used order, (line + 1) << 12 | core-valid bits << 4 | enum
 * sim_st, 0 when empty (layout and operations in sim_hier.h); the core-valid
 * bits (bit = core in its socket) are the LLC's.  Set s starts at mem + s *
 * stride (the LLC slices of a socket interleave their sets, so that
 * neighbouring lines share host cache lines). */
struct sim_cache {
	uint8_t *mem;
	uint8_t *alloc;         /* what to free (NULL: a slice of a shared block) */
	size_t stride;
	uint32_t sets, ways;
	uint32_t setmask;       /* sets - 1 when sets is a power of two, else 0 */
};

/* MSR 0x1A4 (MISC_FEATURE_CONTROL): a bit set disables a prefetcher of the
 * core (shared by its threads); 0, all on, is silicon's default. */
#define SIM_MSR_PF_CTL      0x1a4u
#define SIM_PF_NO_STREAMER  (1u << 0)     /* L2 streamer */
#define SIM_PF_NO_ADJACENT  (1u << 1)     /* L2 adjacent line (spatial) */
#define SIM_PF_NO_DCU_NEXT  (1u << 2)     /* DCU (L1) next line */
#define SIM_PF_NO_DCU_IP    (1u << 3)     /* DCU (L1) IP stride */
#define SIM_PF_OFF          0xfu

/* The L2 streamer's view of the 4 KiB pages it tracks (sim_pf_path.h),
 * one array per field: a lookup compares every page's key at once. */
#define SIM_PF_PAGES 32                   /* streams tracked per core */
struct sim_pf_pages {
	uint64_t page[SIM_PF_PAGES];      /* line >> 6, + 1 (0: free) */
	uint32_t age[SIM_PF_PAGES];       /* the lookup count (clock) when last used */
	int8_t last[SIM_PF_PAGES];        /* line of the page last requested */
	int8_t ahead[SIM_PF_PAGES];       /* furthest line prefetched, in dir */
	int8_t dir[SIM_PF_PAGES];         /* +1 ascending, -1 descending, 0 not yet known */
	uint32_t clock;                   /* lookups so far */
};

/* The load streams of the DCU prefetchers (per thread, standing for the
 * IP-indexed table of silicon: sim_pf_path.h), one array per field. */
#define SIM_PF_STRIDES 8
struct sim_pf_strides {
	uint64_t last[SIM_PF_STRIDES];    /* line of its last load, + 1 (0: free) */
	int64_t stride[SIM_PF_STRIDES];   /* last step in lines */
	uint32_t age[SIM_PF_STRIDES];
	uint8_t conf[SIM_PF_STRIDES];     /* the step repeated */
	uint32_t clock;                   /* loads seen so far */
};

struct sim_pcore {              /* a physical core's private caches */
	struct sim_cache l1, l2;
	unsigned pf_dis;        /* MSR 0x1A4: SIM_PF_NO_* */
	struct sim_pf_pages pf;
};

/* A region of the emulated virtual memory (sim_mem.c). */
struct sim_region {
	uint64_t base, pages;
	int place, socket;
	uint64_t *frame;        /* per page: physical frame number + 1, 0 untouched */
};

/* Per-socket frame allocator: a fixed pseudo-random permutation of the
 * socket's frames, taken in order; freed frames are reused first. */
struct sim_frames {
	uint64_t nframes, next;
	uint64_t *free;
	size_t nfree, capfree;
	int bits;               /* permutation domain 2^bits >= nframes, bits even */
	uint32_t key;
};

struct sim_socket {
	int slot;               /* bus slot (rank of the node ID) */
	int bus, nodeid;
	struct sim_box ubox, cbo[SIM_MAX_CORES], pcu, ha;
	struct sim_box imc[SIM_MAX_CHANS], qpi[2], r2pcie, r3qpi[2];
	struct sim_chan chan[SIM_MAX_CHANS];
	struct sim_cache llc[SIM_MAX_CORES];       /* one per slice */
	uint8_t *llc_mem;                          /* the slices' sets, interleaved */
	uint64_t llc_valid;                        /* valid LLC lines (snoop filter) */
	struct pmon_sim_slice_truth slice_truth[SIM_MAX_CORES];
	struct pmon_sim_ha_truth ha_truth;
	struct pmon_sim_qpi_truth qpi_truth[2];
	uint64_t locks;                            /* split-lock sequences started here */
	struct sim_frames frames;
};

/* Core PMU of one logical CPU, with its own offcore RSP_0/1 (per thread on
 * Sandy Bridge with HT, unlike Nehalem/Westmere where a core's threads share
 * them). */
struct sim_thread {
	struct sim_pendq pq;        /* queued offcore responses (pq.cpu: this CPU) */
	struct sim_ctr pmc[4], fixed[3];
	uint64_t fixed_ctrl, global_ctrl, global_status;
	uint64_t rsp[2];        /* MSR_OFFCORE_RSP_0/1 */
	struct pmon_sim_cpu_truth truth;
	struct pmon_sim_cache_truth ctruth;
	int sock, lcore, gcore;     /* its socket, core in the socket, core in the machine */
	int offcore_on;             /* some PMC counts this CPU's offcore responses */
	int pf_recent;              /* host-cache look-ahead: accesses left to run it */
	struct sim_pf_strides ip;   /* DCU prefetchers' streams */
	uint64_t rsp_key, rsp_n;    /* a run of equal offcore responses not yet queued */
	/* the batch's demand clean reads by store * 2 + local (their
	 * core-side counts are added when it ends: sim_core_path.h) */
	uint64_t clean_core[4];
};

/* The access being served (for violation records). */
struct sim_cur {
	enum pmon_sim_op op;
	int cpu;
	uint32_t msr;
	uint8_t bus, dev, func;
	uint16_t off;
	uint64_t value;
};

#define SIM_MAX_TICKS 16

/* How many of some event a batch of accesses raised, by cell (the event's
 * arguments packed into a number below SIM_TALLY_CELLS), with the cells in
 * use as bits (sim_llc_path.h). */
#define SIM_TALLY_CELLS 256
_Static_assert(SIM_MAX_SOCKETS * SIM_MAX_CHANS * 2 <= 64, "a bit for each DRAM tally cell");
struct sim_tally {
	uint32_t n[SIM_TALLY_CELLS];
	uint64_t used[SIM_TALLY_CELLS / 64];
};

struct pmon_sim {
	struct pmon_sim_shape shape;
	pthread_mutex_t lock;
	unsigned hold_seq;      /* odd while the lock is held (sim_lock) */
	int ncpus;
	uint64_t now_ns;
	uint64_t hz[SIM_NCLOCKS];
	/* ticks: callbacks run as emulated time passes (sim_tick.c) */
	struct sim_tick {
		const void *owner;      /* one tick per owner (a backend handle) */
		uint64_t period, next;  /* ns; next: emulated time of the next call */
		void (*fn)(void *arg);
		void *arg;
	} ticks[SIM_MAX_TICKS];
	int nticks;

	/* following the wall clock (shape.clock wall, or auto until taken) */
	int follow;
	uint64_t wall_t0;       /* CLOCK_MONOTONIC ns at creation */
	uint64_t wall_done;     /* wall ns already added to now_ns */
	uint64_t wall_tsc;      /* x86 TSC when the wall clock was last read */
	uint64_t load_lines;    /* lines the load= stream has issued */
	uint64_t noise_lines;   /* lines the noise= trickle has issued, per socket */
	struct sim_socket sock[SIM_MAX_SOCKETS];   /* by package index */
	int bus_socket[256];                       /* package on a bus, -1 none */
	struct sim_thread *cpu;                    /* [ncpus] */

	/* counters counting a clock now (rebuilt when clk_dirty) */
	struct sim_ctr **clk;
	size_t clk_n, clk_cap;
	int clk_dirty;

	/* access log: ring of log_cap entries (0: off, the default) */
	struct pmon_sim_log_entry *log;
	size_t log_cap, log_alloc, log_head, log_n, log_total, log_writes;
	size_t log_unlocked;    /* accesses served without the lock (atomic) */
	struct sim_window *windows;     /* PMON blocks read (sim_pcibox.c) */
	struct pmon_sim_violation *viol;
	size_t viol_n, viol_total;
	struct sim_cur cur;
	char why[160];          /* reason of the last failed access */

	/* the memory hierarchy */
	struct sim_pcore *pcore;                   /* [sockets * cores] */
	int hier_ready;         /* cache arrays filled (at the first line access) */
	/* the copy of the access path for this host (sim_cache.c) */
	void (*lines)(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n);
	const char *lines_isa;
	uint64_t lines_per_socket;                 /* mem_bytes / 64 */
	int lps_shift;                             /* log2 of it when a power of two, else -1 */
	uint64_t occ_uclk[PMON_SIM_NSUPPLIERS];    /* latencies in UCLK cycles */
	struct sim_region *regions;
	size_t nregions, capregions;
	uint64_t vnext;                            /* next free virtual address */
	uint64_t frames_total;                     /* 4 KiB frames per socket */
	struct sim_region *last_region;            /* translation cache */
	uint64_t last_vpage, last_pline;
	uint32_t rel_any;       /* the SIM_REL_* bits of every CBo and QPI port together */
	struct sim_pendq *pend;                    /* queues holding events */
	int pend_direct;        /* match events at once (a call of one access) */
	/* the current batch's clean reads and LLC evictions, tallied
	 * (sim_llc_path.h) */
	struct sim_tally clean, evicts;
	/* the batch's DRAM reads and writes by (home * SIM_MAX_CHANS +
	 * channel) * 2 + write, with the cells in use as bits */
	uint32_t dram_n[SIM_MAX_SOCKETS * SIM_MAX_CHANS * 2];
	uint64_t dram_used;
	uint32_t llc_busy;      /* bit s: socket s's LLC holds a line (llc_valid) */
	/* the default shape's way counts (sim_hier.h's SIM_L1W, SIM_L2W,
	 * SIM_LLCW), and those and its sockets (SIM_SOCKETS): the access
	 * path's copies with them as constants run */
	int default_ways, default_llc;
};

/* ---- counters and boxes (sim_box.c) ---- */
void sim_ctr_init(struct sim_ctr *c, int width);
void sim_ctr_set_ctl(struct pmon_sim *sim, struct sim_ctr *c, const struct sim_kind *k,
		     uint64_t ctl);
void sim_ctr_cycles(struct sim_ctr *c, uint64_t cycles);  /* a clock event */
/* A counter's value or control as it reads back is also read without the
 * machine's lock (sim_access.c): stored atomically (relaxed; hold_seq
 * orders it), and so is every other field such a read looks at. */
#define SIM_PUT(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/* Raw, modulo 2^width (inline: every modelled access counts through it). */
static inline void sim_ctr_add(struct sim_ctr *c, uint64_t n)
{
	uint64_t sum = c->val + (n & c->mask);   /* both < 2^48: no carry out */
	int ovf = n > c->mask || sum > c->mask;

	SIM_PUT(c->val, sum & c->mask);
	if (ovf && c->ovf)
		*c->ovf |= c->ovf_bit;
}

/* n occurrences of a memory event, each alone in its cycle; the idle cycles
 * around them are unknown, so invert counts nothing. */
static inline void sim_ctr_events(struct sim_ctr *c, uint64_t n)
{
	if (n && (!c->thresh || (!c->invert && c->thresh == 1)))
		sim_ctr_add(c, n);
}
/* "CBo3", "HA": the box's name in messages. */
const char *sim_box_name(const struct sim_box *b, char *buf, size_t len);
void sim_box_init(struct sim_box *b, const struct sim_kind *k, int socket, int inst);
void sim_box_refresh(struct pmon_sim *sim, struct sim_box *b);
void sim_box_write_boxctl(struct pmon_sim *sim, struct sim_box *b, uint64_t v);
void sim_box_write_ctl(struct pmon_sim *sim, struct sim_box *b, int i, uint64_t v);
void sim_box_write_ctr(struct pmon_sim *sim, struct sim_box *b, int i, uint64_t v);
void sim_box_write_fixed_ctl(struct pmon_sim *sim, struct sim_box *b, uint64_t v);
void sim_box_write_reg(struct pmon_sim *sim, struct sim_box *b, int i, uint64_t v,
		       uint32_t valid, const char *regname);
/* Feed n occurrences of memory signals sigs to a box's counters. */
void sim_box_signal_counted(struct sim_box *b, uint32_t sigs, uint64_t n);
/* Threshold field of a control value for this kind. */
unsigned sim_kind_thresh(const struct sim_kind *k, uint64_t ctl);

/* ---- clocks (sim_clock.c) ---- */
void sim_clock_mark(struct pmon_sim *sim);
/* At creation: start following the wall clock unless shape.clock is manual. */
void sim_clock_init(struct pmon_sim *sim);
/* While following: advance to the wall time elapsed since creation (in
 * steps of 10 us, sim_clock.c), and run the load stream up to it.  Every
 * register access and now_ns call this.  Has less than a step passed since
 * the wall clock was last read?  On x86 the TSC answers for a fraction of
 * clock_gettime's cost: it ticks at 1 GHz or more on every x86 this runs
 * on, so fewer than SIM_WALL_TSC_STEP ticks is less than that many ns (a
 * TSC that jumps back gives a huge difference: the clock is read).
 * Elsewhere the wall clock is read every time. */
#define SIM_WALL_TSC_STEP 10000u
void sim_clock_sync_wall(struct pmon_sim *sim);
/* Is a look at the wall clock due?  *tsc: the TSC it was decided by.  Also
 * asked without the lock (sim_access.c), hence the atomic loads. */
static inline int sim_clock_due(const struct pmon_sim *sim, uint64_t *tsc)
{
	*tsc = 0;
	if (!__atomic_load_n(&sim->follow, __ATOMIC_RELAXED))
		return 0;
#if defined(__x86_64__) || defined(__i386__)
	*tsc = __builtin_ia32_rdtsc();
	return *tsc - __atomic_load_n(&sim->wall_tsc, __ATOMIC_RELAXED) >= SIM_WALL_TSC_STEP;
#else
	return 1;
#endif
}
static inline void sim_clock_sync(struct pmon_sim *sim)
{
	uint64_t t;

	if (!sim_clock_due(sim, &t))
		return;
	SIM_PUT(sim->wall_tsc, t);
	sim_clock_sync_wall(sim);
}
/* An explicit advance or traffic call: sync, then (auto) stop following. */
void sim_clock_take(struct pmon_sim *sim);
/* Move emulated time on by ns (caller holds the lock). */
void sim_clock_advance(struct pmon_sim *sim, uint64_t ns);
/* ---- ticks (sim_tick.c) ---- */
/* Register (period > 0) or remove (period 0) owner's tick: fn(arg) is called,
 * without the machine's lock, each time an explicit advance carries
 * emulated time past owner's next deadline (every period ns). */
int sim_tick_set(struct pmon_sim *sim, const void *owner, uint64_t period,
		 void (*fn)(void *arg), void *arg);

/* ---- MSR space (sim_msr.c dispatches to the box files) ---- */
int sim_msr_read(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t *val);
int sim_msr_write(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t val);
/* Per family: return 1 if msr belongs to it (then *rc is the result). */
int sim_ubox_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		 uint64_t *val, int *rc);
int sim_cbo_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc);
/* The PMON counter a read of (cpu, msr) reaches, NULL when it is not one
 * (a read's fast path: nothing to check, count or log but the access): a
 * CBo's, the UBox's (general or fixed), the PCU's, or a core PMU's
 * (IA32_PMCx, IA32_FIXED_CTRx, which count the offcore responses too);
 * per family, and all of them (sim_msr.c). */
const struct sim_ctr *sim_cbo_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_ubox_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_pcu_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_core_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_msr_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
int sim_pcu_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc);
int sim_core_msr(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val, int *rc);
void sim_core_init(struct pmon_sim *sim);
void sim_core_refresh(struct pmon_sim *sim, int cpu);

/* ---- PCI space (sim_pci.c, boxes in sim_pcibox.c) ---- */
int sim_pci_read(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t *val);
int sim_pci_write(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t val);
int sim_pci_find(struct pmon_sim *sim, uint16_t vendor, uint16_t device,
		 pmon_pci_addr_t *out, int max);
/* PMON registers of a PCI box (box ctl, ctls, counters, iMC fixed).  Return
 * 1 if off is one of them. */
int sim_pcibox_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_pcibox_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);
/* ndw dwords from off, all at or above the counters (0xA0): the PMON block. */
#define SIM_PCIBOX_BLOCK 0xA0u
/* Such a block of box b, worked out once (kept on the machine until it is
 * destroyed, one per box, offset, size and wanted dwords as access.h's
 * pmon_read_req has them; NULL when out of memory; under the lock), and
 * read: its wanted dwords into val. */
struct sim_window;
const struct sim_window *sim_pcibox_window(struct pmon_sim *sim, const struct sim_box *b,
					   uint32_t off, int ndw, uint64_t want);
void sim_window_read(const struct sim_window *w, uint32_t *val);
void sim_windows_free(struct pmon_sim *sim);
/* The PMON box whose PMON register block holds the ndw dwords from off of
 * function d (all at or above the counters, within the function's 4 KiB),
 * NULL when they are not such a block (sim_pcibox_window then serves it). */
const struct sim_box *sim_pci_pmon_block(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off,
					 int ndw);
/* Box-specific PCI registers (return 1 if off is one of them). */
int sim_ubox_pci_read(struct pmon_sim *sim, struct sim_socket *s, uint32_t off, uint32_t *val);
int sim_ha_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_ha_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);
int sim_qpi_mm_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_qpi_mm_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);

/* ---- memory traffic ---- */
/* count line accesses from addr on (lines checked to exist), lock held. */
void sim_traffic_lines(struct pmon_sim *sim, int cpu, uint64_t addr,
		       enum pmon_sim_kind kind, uint64_t count);
/* The load= stream: issue the lines due after wall_ns of followed time. */
void sim_load_run(struct pmon_sim *sim, uint64_t wall_ns);
void sim_noise_run(struct pmon_sim *sim);
void sim_dram_init(struct sim_chan *ch);
void sim_dram_locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
		     struct pmon_sim_dram_loc *out);

/* ---- the memory hierarchy (sim_cache.c, sim_path.h, sim_mem.c) ---- */
int sim_hier_init(struct pmon_sim *sim);
void sim_hier_free(struct pmon_sim *sim);
/* n line accesses by cpu, lock held: ref[i] = line << 2 | kind (line =
 * physical address / 64).  The sets of the access SIM_LOOKAHEAD ahead are
 * brought into the host caches (no effect on the model). */
void sim_lines_access(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n);
#define SIM_LOOKAHEAD 8
/* References translated per sim_lines_access call (1024: the batch-end
 * flush of the tallies costs a few references; 8 KiB of stack). */
#define SIM_BATCH 1024
/* One access of a rare kind (sim_special.c) to line (physical) and, for a
 * split lock, next: its second line.  0, or PMON_EINVAL (a partial streaming store
 * to another socket's memory: nothing done). */
int sim_special_access(struct pmon_sim *sim, int cpu, uint64_t line, uint64_t next,
		       enum pmon_sim_kind kind);
/* A partial streaming store of cpu to line at its own socket's memory
 * (sim_path_base.c: the streaming store's path). */
void sim_nt_partial(struct pmon_sim *sim, int cpu, uint64_t line);
/* Drop every cached copy of a line, in every socket, without a write-back. */
void sim_line_discard(struct pmon_sim *sim, uint64_t line);
void sim_flush(struct pmon_sim *sim);
void sim_frames_init(struct sim_frames *f, uint64_t nframes, int socket);
void sim_mem_free_all(struct pmon_sim *sim);
static inline int sim_line_home(const struct pmon_sim *sim, uint64_t line)
{
	return sim->lps_shift >= 0 ? (int)(line >> sim->lps_shift)
				   : (int)(line / sim->lines_per_socket);
}
static inline unsigned sim_line_slice(uint64_t line, int cores)
{
	uint64_t h = (line * 0x9E3779B97F4A7C15ull) >> 32;
	return (unsigned)((h * (uint64_t)cores) >> 32);
}
/* Events the hierarchy raises in the boxes: each is queued (sim_pend_add)
 * only when some active counter of the box counts that signal, and matched
 * by the box's *_counted function, n events at once, when the traffic call
 * ends (sim_pend_flush). */
#define SIM_LOOKUP_READ   0x02u        /* LLC_LOOKUP request types */
#define SIM_LOOKUP_WRITE  0x04u
#define SIM_LOOKUP_SNOOP  0x08u
enum sim_tor_class { SIM_TOR_REQ, SIM_TOR_WB, SIM_TOR_EVICT };
#define SIM_OPC_RFO     0x180u
#define SIM_OPC_DRD     0x182u
#define SIM_OPC_WCILF   0x18cu
#define SIM_OPC_WCIL    0x18du
#define SIM_OPC_WBMTOI  0x1c4u
/* n events at once; occ: their summed TOR occupancy in UCLK cycles. */
void sim_cbo_lookup_counted(struct sim_box *b, unsigned type, int state, int nid, uint64_t n);
void sim_cbo_victim_counted(struct sim_box *b, int state, int nid, uint64_t n);
void sim_cbo_tor_counted(struct sim_box *b, enum sim_tor_class cls, unsigned opc, int miss,
			 int nid, uint64_t n, uint64_t occ);
enum sim_ha_what { SIM_HA_READ, SIM_HA_WRITE };
void sim_ha_request_counted(struct sim_box *b, enum sim_ha_what what, int local, uint64_t n);
void sim_ha_imc_write_counted(struct sim_box *b, int partial, uint64_t n);
void sim_ha_txr_bl_counted(struct sim_box *b, int to_qpi, uint64_t n);
enum sim_qpi_class { SIM_QPI_SNP, SIM_QPI_HOM_REQ, SIM_QPI_HOM_NONREQ, SIM_QPI_DRS, SIM_QPI_NDR };
/* A message's data flits: a DRS message carries a line, the others none. */
#define SIM_QPI_DATA_FLITS(cls) ((cls) == SIM_QPI_DRS ? 8u : 0u)
void sim_qpi_count_counted(struct sim_box *b, int rx, enum sim_qpi_class cls, unsigned data_flits,
			   uint64_t n);
void sim_r3qpi_rxr_counted(struct sim_box *b, enum sim_qpi_class cls, uint64_t n);
void sim_core_offcore_counted(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
			      uint64_t snoop, uint64_t n);

/* ---- queued events (sim_pend.c) ---- */
void sim_pend_new(struct pmon_sim *sim, struct sim_pendq *q, uint64_t k, uint64_t occ,
		  uint64_t n);
/* Match every queued event; every traffic entry point calls it before it
 * lets the lock go. */
void sim_pend_match_all(struct pmon_sim *sim);
static inline void sim_pend_flush(struct pmon_sim *sim)
{
	if (sim->pend)
		sim_pend_match_all(sim);
}
static inline unsigned sim_pend_slot(uint64_t k)
{
	return (unsigned)((k * 0x9E3779B97F4A7C15ull) >> 60);    /* 0..SIM_NPEND-1 */
}
static inline __attribute__((always_inline)) void sim_pend_add(struct pmon_sim *sim,
							       struct sim_pendq *q, uint64_t k,
							       uint64_t occ, uint64_t n)
{
	struct sim_pend *e = &q->e[sim_pend_slot(k)];

	if (e->k != k)
		e = &q->e[sim_pend_slot(k) ^ 1];
	if (e->k == k) {
		e->n += n;
		e->occ += occ * n;
		return;
	}
	sim_pend_new(sim, q, k, occ, n);
}
/* Keys: bits 63:56 the event, the rest its arguments. */
#define SIM_PK(ev) ((uint64_t)(ev) << 56)
enum { SIM_PK_LOOKUP = 1, SIM_PK_VICTIM, SIM_PK_TOR, SIM_PK_HA_REQ, SIM_PK_HA_IMC_WR,
       SIM_PK_HA_TXR_BL, SIM_PK_QPI, SIM_PK_IMC, SIM_PK_R3 };

/* Finer than mon, for the events most accesses raise: a CBo's lookups by
 * request type and its TOR entries by class and miss, a QPI port's messages
 * by direction and class.  An event none of the box's active counters may
 * count (whatever the filters hold) is not queued: matched, it would count
 * nothing.  sim->rel_any, the bits of all those boxes together, answers
 * first for the machine (most events concern no counter anywhere). */
#define SIM_REL_LOOKUP(type)   ((uint32_t)(type))                     /* bits 1-3 */
#define SIM_REL_TOR(cls, miss) (1u << (8 + 2 * (unsigned)(cls) + (unsigned)(miss)))
#define SIM_REL_QPI(rx, cls)   (1u << (16 + 5 * (unsigned)(rx) + (unsigned)(cls)))

static inline void sim_cbo_lookup(struct pmon_sim *sim, struct sim_box *b, unsigned type,
				  int state, int nid, uint64_t n)
{
	if ((sim->rel_any & SIM_REL_LOOKUP(type)) && (b->rel & SIM_REL_LOOKUP(type)))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_LOOKUP) | type << 16 | (unsigned)state << 8 |
			     (unsigned)nid, 0, n);
}
static inline void sim_cbo_victim(struct pmon_sim *sim, struct sim_box *b, int state, int nid,
				  uint64_t n)
{
	if (b->mon & SIM_SIG_LLC_VICTIM)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_VICTIM) | (unsigned)state << 8 |
			     (unsigned)nid, 0, n);
}
static inline void sim_cbo_tor(struct pmon_sim *sim, struct sim_box *b, enum sim_tor_class cls,
			       unsigned opc, int miss, int nid, uint64_t occ_cycles, uint64_t n)
{
	if ((sim->rel_any & SIM_REL_TOR(cls, miss)) && (b->rel & SIM_REL_TOR(cls, miss)))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_TOR) | (uint64_t)cls << 32 |
			     (unsigned)miss << 24 | opc << 8 | (unsigned)nid, occ_cycles, n);
}
static inline void sim_ha_request(struct pmon_sim *sim, struct sim_box *b, enum sim_ha_what what,
				  int local, uint64_t n)
{
	if (b->mon & (SIM_SIG_HA_REQ | SIM_SIG_HA_TRACKER))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_HA_REQ) | (unsigned)what << 8 |
			     (unsigned)local, 0, n);
}
static inline void sim_ha_imc_write(struct pmon_sim *sim, struct sim_box *b, int partial)
{
	if (b->mon & SIM_SIG_HA_IMC_WR)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_HA_IMC_WR) | (unsigned)partial, 0, 1);
}
static inline void sim_ha_txr_bl(struct pmon_sim *sim, struct sim_box *b, int to_qpi, uint64_t n)
{
	if (b->mon & SIM_SIG_HA_TXR_BL)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_HA_TXR_BL) | (unsigned)to_qpi, 0, n);
}
static inline void sim_qpi_count(struct pmon_sim *sim, struct sim_box *b, int rx,
				 enum sim_qpi_class cls, unsigned data_flits, uint64_t n)
{
	if ((sim->rel_any & SIM_REL_QPI(rx, cls)) && (b->rel & SIM_REL_QPI(rx, cls)))
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_QPI) | data_flits << 16 | (unsigned)rx << 8 |
			     (unsigned)cls, 0, n);
}
/* n messages of a class leave the ring for QPI through an R3QPI link's
 * ingress (the link they are sent on). */
static inline void sim_r3qpi_ingress(struct pmon_sim *sim, struct sim_box *b, enum sim_qpi_class cls,
				     uint64_t n)
{
	if (b->mon & SIM_SIG_R3_RXR)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_R3) | (unsigned)cls, 0, n);
}
/* iMC signals of one DRAM access (sim_box_signal, queued); any box's plain
 * signals take the same way (the UBox's lock sequences). */
static inline void sim_imc_signal(struct pmon_sim *sim, struct sim_box *b, uint32_t sigs,
				  uint64_t n)
{
	if (b->mon & sigs)
		sim_pend_add(sim, &b->pq, SIM_PK(SIM_PK_IMC) | sigs, 0, n);
}
/* An offcore response of cpu's access (counted when some counter of the
 * CPU, or of a sibling with AnyThread, counts offcore responses).  A run
 * of equal responses is queued once, n at a time, when a different one
 * comes or the batch ends (sim_core_offcore_end). */
static inline void sim_core_offcore(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
				    uint64_t snoop)
{
	struct sim_thread *t = &sim->cpu[cpu];
	uint64_t k = req | supplier | snoop;

	if (!t->offcore_on)
		return;
	if (k == t->rsp_key) {
		t->rsp_n++;
		return;
	}
	if (t->rsp_n)
		sim_pend_add(sim, &t->pq, t->rsp_key, 0, t->rsp_n);
	t->rsp_key = k;
	t->rsp_n = 1;
}
static inline void sim_core_offcore_end(struct pmon_sim *sim, int cpu)
{
	struct sim_thread *t = &sim->cpu[cpu];

	if (t->rsp_n)
		sim_pend_add(sim, &t->pq, t->rsp_key, 0, t->rsp_n);
	t->rsp_n = 0;
}

/* ---- log and violations (sim_log.c) ---- */
int sim_log_init(struct pmon_sim *sim, size_t cap);
void sim_log_free(struct pmon_sim *sim);
void sim_log_keep(struct pmon_sim *sim, uint16_t domain, uint64_t value, int rc);
/* One access served (described by sim->cur): counted, and kept when the
 * log is on. */
static inline void sim_log_access(struct pmon_sim *sim, uint16_t domain, uint64_t value, int rc)
{
	sim->log_total++;
	if (rc == 0 && (sim->cur.op == PMON_SIM_MSR_WRITE || sim->cur.op == PMON_SIM_PCI_WRITE))
		sim->log_writes++;
	if (sim->log_cap)
		sim_log_keep(sim, domain, value, rc);
}
void sim_violation(struct pmon_sim *sim, uint64_t bad, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Fail the current access: set sim->why, return rc. */
int sim_fail(struct pmon_sim *sim, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- shape (sim_shape.c) ---- */
/* pmon_sim_shape_parse, also telling whether spec named a clock. */
int sim_shape_parse(const char *spec, struct pmon_sim_shape *shape, int *clock_named,
		    char *err, size_t errlen);

/* ---- machine (sim_machine.c) ---- */
/* The machine's lock, with a sequence count for the reads that do not
 * take it (sim_access.c): every holder makes hold_seq odd on entry and even
 * again before it lets go, so a reader that finds the same even count
 * before and after its loads saw the machine as no holder was changing it.
 * Const for the public read-only getters (which lock a const machine). */
static inline void sim_lock(const struct pmon_sim *sim)
{
	struct pmon_sim *m = (struct pmon_sim *)sim;

	pthread_mutex_lock(&m->lock);
	__atomic_store_n(&m->hold_seq, m->hold_seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void sim_unlock(const struct pmon_sim *sim)
{
	struct pmon_sim *m = (struct pmon_sim *)sim;

	__atomic_store_n(&m->hold_seq, m->hold_seq + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&m->lock);
}
int sim_cpu_socket(const struct pmon_sim *sim, int cpu);
int sim_cpu_core_global(const struct pmon_sim *sim, int cpu);   /* socket*cores+core */
/* The process's current machine, created from $PMON_SIM when missing. */
int sim_current_get(pmon_sim_t **out, char *err, size_t errlen);

#pragma GCC visibility pop

#endif
