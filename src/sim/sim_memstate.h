/*
 * sim_memstate.h - the state of the emulated memory hierarchy: DRAM
 * channels, the set-associative arrays (operations in sim_hier.h), the
 * prefetchers' tables, the cores' private caches, virtual memory regions,
 * the frame allocator and a batch's tallies.
 */
#ifndef PMON_SIM_MEMSTATE_H
#define PMON_SIM_MEMSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "pmon/sim.h"
#include "sim_regs.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

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

/* How many of some event a batch of accesses raised, by cell (the event's
 * arguments packed into a number below SIM_TALLY_CELLS), with the cells in
 * use as bits (sim_llc_path.h). */
#define SIM_TALLY_CELLS 256
_Static_assert(SIM_MAX_SOCKETS * SIM_MAX_CHANS * 2 <= 64, "a bit for each DRAM tally cell");
struct sim_tally {
	uint32_t n[SIM_TALLY_CELLS];
	uint64_t used[SIM_TALLY_CELLS / 64];
};

#pragma GCC visibility pop

#endif
