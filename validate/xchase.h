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

#endif
