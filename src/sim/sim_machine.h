/*
 * sim_machine.h - the emulated machine (struct pmon_sim): sockets of boxes,
 * per-CPU core PMUs, the memory hierarchy, clock, ticks and log; its lock.
 * Every public entry point takes sim->lock (sim_lock), and internal
 * functions assume it, except the batch of counter reads that sim_access.c
 * serves without it (hold_seq, sim_lock's comment).
 */
#ifndef PMON_SIM_MACHINE_H
#define PMON_SIM_MACHINE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "sim_box.h"
#include "sim_memstate.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

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
	/* the copy of the access path for this machine and host (sim_cache.c) */
	void (*lines)(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n);
	const char *lines_isa;  /* its name: "avx512" or "base" */
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
	struct sim_nhm *nhm;    /* the Nehalem personality (nhm_sim.h), NULL on SNB-EP */
};

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
