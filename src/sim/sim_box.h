/*
 * sim_box.h - counters and PMON boxes (sim_box.c, one file per family):
 *   sim_ctr     one counter: value, width, decoded control, what it counts
 *   sim_box     one uncore PMON unit: counters, box freeze state, filters,
 *               the queue of its memory events not yet matched (sim_pend.c)
 *   sim_kind    the fixed facts of a box type (valid bits, widths, events)
 */
#ifndef PMON_SIM_BOX_H
#define PMON_SIM_BOX_H

#include <stddef.h>
#include <stdint.h>

#include "sim_regs.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

struct pmon_sim;

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

#pragma GCC visibility pop

#endif
