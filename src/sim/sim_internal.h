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
 * Every public entry point takes sim->lock; internal functions assume it.
 */
#ifndef PMON_SIM_INTERNAL_H
#define PMON_SIM_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

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
#define SIM_RSP_SNOOP_NONE       (1ull << 31)
#define SIM_RSP_SNOOP_MISS       (1ull << 33)
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
	uint64_t *ovf;          /* core counters: IA32_PERF_GLOBAL_STATUS */
	uint64_t ovf_bit;
};

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
};

struct sim_box {
	const struct sim_kind *kind;
	int socket, inst;
	uint8_t frz_en, frz;
	struct sim_ctr ctr[4];
	struct sim_ctr fixed;
	uint32_t reg[4];        /* filter/match registers, box specific */
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

struct sim_socket {
	int slot;               /* bus slot (rank of the node ID) */
	int bus, nodeid;
	struct sim_box ubox, cbo[SIM_MAX_CORES], pcu, ha;
	struct sim_box imc[SIM_MAX_CHANS], qpi[2], r2pcie, r3qpi[2];
	struct sim_chan chan[SIM_MAX_CHANS];
};

/* Core PMU of one logical CPU, with its own offcore RSP_0/1 (per thread on
 * Sandy Bridge with HT, unlike Nehalem/Westmere where a core's threads share
 * them). */
struct sim_thread {
	struct sim_ctr pmc[4], fixed[3];
	uint64_t fixed_ctrl, global_ctrl, global_status;
	uint64_t rsp[2];        /* MSR_OFFCORE_RSP_0/1 */
	struct pmon_sim_cpu_truth truth;
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

struct pmon_sim {
	struct pmon_sim_shape shape;
	pthread_mutex_t lock;
	int ncpus;
	uint64_t now_ns;
	uint64_t hz[SIM_NCLOCKS];

	/* following the wall clock (shape.clock wall, or auto until taken) */
	int follow;
	uint64_t wall_t0;       /* CLOCK_MONOTONIC ns at creation */
	uint64_t wall_done;     /* wall ns already added to now_ns */
	uint64_t load_lines;    /* lines the load= stream has issued */
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
	struct pmon_sim_violation *viol;
	size_t viol_n, viol_total;
	struct sim_cur cur;
	char why[160];          /* reason of the last failed access */
};

/* ---- counters and boxes (sim_box.c) ---- */
void sim_ctr_init(struct sim_ctr *c, int width);
void sim_ctr_set_ctl(struct pmon_sim *sim, struct sim_ctr *c, const struct sim_kind *k,
		     uint64_t ctl);
void sim_ctr_add(struct sim_ctr *c, uint64_t n);          /* raw, modulo 2^width */
void sim_ctr_cycles(struct sim_ctr *c, uint64_t cycles);  /* a clock event */
void sim_ctr_events(struct sim_ctr *c, uint64_t n);       /* n memory-event occurrences */
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
void sim_box_signal(struct sim_box *b, uint32_t sigs);
/* Threshold field of a control value for this kind. */
unsigned sim_kind_thresh(const struct sim_kind *k, uint64_t ctl);

/* ---- clocks (sim_clock.c) ---- */
void sim_clock_mark(struct pmon_sim *sim);
/* At creation: start following the wall clock unless shape.clock is manual. */
void sim_clock_init(struct pmon_sim *sim);
/* While following: advance to the wall time elapsed since creation, and run
 * the load stream up to it.  Every register access and now_ns call this. */
void sim_clock_sync(struct pmon_sim *sim);
/* An explicit advance or traffic call: sync, then (auto) stop following. */
void sim_clock_take(struct pmon_sim *sim);

/* ---- MSR space (sim_msr.c dispatches to the box files) ---- */
int sim_msr_read(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t *val);
int sim_msr_write(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t val);
/* Per family: return 1 if msr belongs to it (then *rc is the result). */
int sim_ubox_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		 uint64_t *val, int *rc);
int sim_cbo_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc);
int sim_pcu_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc);
int sim_core_msr(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val, int *rc);
void sim_core_init(struct pmon_sim *sim);
void sim_core_refresh(struct pmon_sim *sim, int cpu);
void sim_core_offcore(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
		      uint64_t snoop);

/* ---- PCI space (sim_pci.c, boxes in sim_pcibox.c) ---- */
int sim_pci_read(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t *val);
int sim_pci_write(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t val);
int sim_pci_find(struct pmon_sim *sim, uint16_t vendor, uint16_t device,
		 pmon_pci_addr_t *out, int max);
/* PMON registers of a PCI box (box ctl, ctls, counters, iMC fixed).  Return
 * 1 if off is one of them. */
int sim_pcibox_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_pcibox_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);
/* Box-specific PCI registers (return 1 if off is one of them). */
int sim_ubox_pci_read(struct pmon_sim *sim, struct sim_socket *s, uint32_t off, uint32_t *val);
int sim_ha_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_ha_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);
int sim_qpi_mm_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_qpi_mm_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);

/* ---- memory traffic ---- */
/* One cache-line access on its way through the hierarchy (sim_traffic.c's
 * hook fills in who supplies it and which DRAM operations it causes). */
struct sim_xact {
	int cpu, socket;        /* requester */
	int home;               /* socket owning the address */
	uint64_t local;         /* address within the home socket's memory */
	enum pmon_sim_kind kind;
	uint64_t req, supplier, snoop;   /* offcore-response view */
	int nops;
	struct {
		int home;
		uint64_t local;
		int write;
	} op[2];                /* DRAM operations caused */
};
/* count line accesses from addr on (lines checked to exist), lock held. */
void sim_traffic_lines(struct pmon_sim *sim, int cpu, uint64_t addr,
		       enum pmon_sim_kind kind, uint64_t count);
/* The load= stream: issue the lines due after wall_ns of followed time. */
void sim_load_run(struct pmon_sim *sim, uint64_t wall_ns);
void sim_dram_init(struct sim_chan *ch);
/* One line access reaching DRAM at its home socket. */
void sim_dram_access(struct pmon_sim *sim, int home, uint64_t local_addr, int write);
void sim_dram_locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
		     struct pmon_sim_dram_loc *out);

/* ---- log and violations (sim_log.c) ---- */
int sim_log_init(struct pmon_sim *sim, size_t cap);
void sim_log_free(struct pmon_sim *sim);
void sim_log_access(struct pmon_sim *sim, uint16_t domain, uint64_t value, int rc);
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
/* Lock/unlock from the public read-only getters (const machine). */
void sim_lock(const struct pmon_sim *sim);
void sim_unlock(const struct pmon_sim *sim);
int sim_cpu_socket(const struct pmon_sim *sim, int cpu);
int sim_cpu_core_global(const struct pmon_sim *sim, int cpu);   /* socket*cores+core */
/* The process's current machine, created from $PMON_SIM when missing. */
int sim_current_get(pmon_sim_t **out, char *err, size_t errlen);

#endif
