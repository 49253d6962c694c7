/*
 * xchase.h - the pointer chase as its expectations see it: the case (the
 * kernel's parameters and, once placed, its layout: the order of the
 * cycle and the physical lines of its set) and pure helpers that derive
 * from the layout which lines each cache loses (the emulated machine's
 * documented indexing and LRU).  A generation's chase expectations
 * (gen_*_chase.c) take a struct chase_case and the geometry and fill a
 * vxset (vexp.h); exp_chase.c runs them.
 */
#ifndef PMON_VALIDATE_XCHASE_H
#define PMON_VALIDATE_XCHASE_H

#include <stdint.h>

#include "expect.h"
#include "kern.h"
#include "vrun.h"

struct chase_case {
	enum chase_level lvl;     /* the level the suite names (chase_ws_bytes) */
	int page;                 /* page-randomised order (else line order) */
	int socket;               /* the threads' socket: its cores' uncore events */
	int home;                 /* the socket that holds the set */
	int cpu;                  /* the chasing thread's CPU (core events) */
	uint64_t hops;            /* hops of the main window (whole passes) */
	int hw, sim, planning;    /* silicon; the emulated machine; the plan (no layout yet) */
	enum vbreak brk;
	/* The layout, NULL before the set is placed (the plan), on silicon, or
	 * for a set not run: line[i] the physical line number of the set's
	 * i-th 64 bytes, base the cycle (its elements in host memory) at
	 * virtual address vbase of the machine. */
	const uint64_t *line;
	const struct chase_el *base;
	uint64_t vbase;
};

/* The name of the case's kernel: "chase-line-llc", "chase-page-mem-remote". */
void chase_kname(const struct chase_case *k, char *buf, size_t len);
/* The level that serves the case's set (the inclusive LLC holds what the
 * cores hold: an L1 or L2 set that is not at most a quarter of the LLC is
 * not served there; at least twice the LLC it is a memory set), or -1: a
 * transition zone the suite does not run. */
int chase_run_level(const struct vgeom *g, enum chase_level lvl);

/* Lines of the set a private cache (sets x ways, set = line mod sets)
 * cannot keep (overfull_lines); -1 when sets is not a power of two. */
long chase_priv_conflicts(const uint64_t *line, uint64_t n, uint64_t sets, int ways, uint8_t *map);
/* Lines of the set the LLC cannot keep: the documented slice hash
 * (vgeom_llc_slice) and set = line mod sets of a slice; -1 if unknown. */
long chase_llc_conflicts(const struct vgeom *g, const uint64_t *line, uint64_t n, uint8_t *lostmap);
/* Of the first hops hops from element 0 that land on lines of within (all
 * if NULL), the share on lines of lostmap. */
double chase_lost_share(const struct chase_el *base, const uint8_t *lostmap, const uint8_t *within,
			uint64_t hops);
/* The adjacent-line prefetcher alone, page order: the share of hops that
 * are L2 demand misses (pf_page_demand over each page's visiting order);
 * -1 if the set's pages are not whole pages of the machine. */
double chase_pf_demand_share(const struct chase_el *base, uint64_t vbase, uint32_t n);

/* What the layout gives a level (the analysis every generation's chase
 * shares): derived (the L2 decides which lines reach the LLC), the lines
 * of overfull LLC sets (llost, lostmap), of overfull L2 sets (lost), the
 * lines that reach the LLC each pass (reach, reachmap).  Maps malloc'd
 * (chase_layout_free).  0, or -1 with why. */
struct chase_layout {
	int derived;
	long lost, llost, reach;
	uint8_t *lostmap, *reachmap;
};
int chase_layout(const struct vgeom *g, const struct chase_case *k, enum chase_level lvl,
		 struct vxset *x, struct chase_layout *out);
void chase_layout_free(struct chase_layout *l);

/* ------------------------------------------------------------ the model */
/* One quantity the chase makes the hierarchy count, per hop: checked
 * within a band (CQ_SUM), bounded above (CQ_ZERO: expected 0), or not
 * checked (CQ_SKIP), with the reason.  A generation counts each with its
 * own events (gen_*_chase.c). */
enum cq_kind { CQ_SUM, CQ_ZERO, CQ_SKIP };
struct chase_q {
	enum cq_kind kind;
	double expected;
	struct vband b;
	double bound;
	const char *why;          /* CQ_ZERO's and CQ_SKIP's reason */
};

/* What a chase case does to the hierarchy (chase_model.c), from the level
 * that serves its set, the prefetchers and the layout, every generation's
 * expectations read it:
 *   lookups   the LLC's data-read lookups (hits and misses)
 *   misses    its data-read misses
 *   dram      DRAM line reads at the set's home
 *   llc_hit   the core's demand reads answered by the LLC
 *   dram_hit  the core's demand reads answered by DRAM (local or remote)
 * and the nominal figures and bands behind them (the LLC miss percentage
 * and the latencies are built from these). */
struct chase_model {
	enum chase_level lvl;     /* the level that serves the set */
	uint32_t n;               /* lines of the set */
	double hops;
	int remote, wrap;         /* --break=wrap applies to this case */
	struct chase_layout L;
	struct chase_q lookups, misses, dram, llc_hit, dram_hit;
	double nlookups, nmisses; /* nominal per hop */
	double zero, keep, pfhi;  /* the bound of a zero; what a cache may keep; chase_pf_line_hi */
	struct vband one, mb, conflict;
	const char *nowhy, *mwhy, *mixwhy;
	int derived, mixed, pfbound;
	uint64_t slice_lines;     /* lines that reach the LLC each pass */
	int lat_skip;             /* the latency not checked (lat_why) */
	const char *lat_why;
	double inserts;           /* requests the latency window times (0: none reach the LLC) */
	const uint8_t *lat_lost, *lat_within;
	double lat_keep;
};
/* 0, or -1 with x->err (the layout could not be read).  The case must run
 * (chase_run_level >= 0).  chase_model_free releases the layout. */
int chase_model(const struct vgeom *g, const struct chase_case *k, struct vxset *x,
		struct chase_model *m);
void chase_model_free(struct chase_model *m);
/* The mean lifetime of the requests of the latency window (hops hops):
 * the supplier's documented latency sup in UCLK cycles (a whole cycle), or
 * with lines of overfull LLC sets mixed with DRAM's by their share of the
 * window's hops.  *want and its band; 0, or -1 when a latency is unknown. */
int chase_lat_expect(const struct vgeom *g, const struct chase_case *k, const struct chase_model *m,
		     enum vsup sup, uint64_t hops, double *want, struct vband *b);

/* One quantity of the model (its kind: a sum, none, or skipped with its
 * reason) checked per hop on the events ev[0..n), named what. */
struct vxwin;
void chase_quantity(struct vxwin *w, const struct chase_q *q, const int *ev, int n, double hops,
		    const char *what);

#endif
