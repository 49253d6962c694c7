/*
 * expect.h - expected counts computed analytically from a kernel's
 * parameters and the machine's geometry (geom.h), with the tolerance each
 * one deserves on the emulated machine and on silicon, and why.
 */
#ifndef PMON_VALIDATE_EXPECT_H
#define PMON_VALIDATE_EXPECT_H

#include <stdint.h>

#include "geom.h"

/* A band around the expected value: PASS when lo <= measured/expected <= hi. */
struct vband {
	double lo, hi;
	const char *why;
};

/* ---------------------------------------------------------------- STREAM */
enum stream_kernel { SK_COPY, SK_SCALE, SK_ADD, SK_TRIAD, SK_N };
extern const char *const stream_kernel_name[SK_N];
/* Arrays read by the kernel (1 for Copy/Scale, 2 for Add/Triad). */
int stream_reads(enum stream_kernel k);
/* DRAM lines moved by one pass over L lines per array, caches clean at the
 * start and written back at the end of the window:
 *   ordinary stores (write-allocate): reads = (arrays read + 1 RFO) * L,
 *   non-temporal stores: reads = arrays read * L; writes = L in both. */
void stream_expect(enum stream_kernel k, int nt, uint64_t lines, double *rd, double *wr);
/* Band for socket totals and for one channel's share (1/channels of it). */
struct vband stream_band_total(int hw);
struct vband stream_band_channel(const struct vgeom *g, uint64_t lines_total, int hw);

/* ------------------------------------------------------------ pointer chase */
enum chase_level { CL_L1, CL_L2, CL_LLC, CL_MEM };
extern const char *const chase_level_name[4];
/* The working set the suite uses for a level: L1/2, L2/2, LLC/4, 8 x LLC. */
uint64_t chase_ws_bytes(const struct vgeom *g, enum chase_level l);
/* Which level serves a cyclic chase over ws bytes (one line per element,
 * every element once per pass): the smallest cache of at most half its
 * size... exactly: L1 if ws <= L1/2, L2 if ws <= L2/2, LLC if ws <= LLC/4,
 * memory if ws >= 2 x LLC, else -1 (a transition zone the suite avoids). */
int chase_level_of(const struct vgeom *g, uint64_t ws);
/* Per hop, after a warm-up pass, reading the chase's own socket:
 * LLC lookups, LLC misses, DRAM reads.  L1/L2: 0 0 0; LLC: 1 0 0; memory:
 * 1 1 1 (LRU over a cyclic sweep larger than the cache keeps nothing). */
void chase_expect(enum chase_level l, double *lookups, double *misses, double *dram);
/* Band for an expected 1 per hop. */
struct vband chase_band_one(const struct vgeom *g, enum chase_level l, uint64_t ws, int hw);
/* Bound per hop for an expected 0. */
double chase_zero_bound(int hw);
/* Band for one LLC slice's share of the lookups (near-uniform address hash):
 * 5 standard deviations of a binomial spread of the set's lines. */
struct vband slice_band(const struct vgeom *g, uint64_t lines, int hw);

/* ------------------------------------------------------------------ DGEMM */
struct dgemm_expect {
	double compulsory_rd;    /* lines: A, B and C read once (3 n^2 * 8 / 64) */
	double rd, wr;           /* lines read / written by the loop nest of kern_dgemm.c */
	double reuse_c, reuse_b; /* bytes touched between two uses of a C / B line (at most) */
	double reuse_c_min;      /* bytes surely touched between two uses of a C line
				    (threads run unsynchronised inside a panel) */
	int c_fits, b_fits;      /* 1 fits (<= LLC/4), 0 does not (>= 2 LLC), -1 between */
	double lo, hi;           /* band on rd (lo also on wr) */
	double wr_hi;            /* upper end of the band on wr (C's write-backs alone) */
	const char *why;
};
/* threads: kernel threads sharing the rows (each owns whole row blocks). */
void dgemm_expect(const struct vgeom *g, uint64_t n, uint64_t bk, int threads, int hw,
		  struct dgemm_expect *e);

/* ------------------------------------------------------------------ clocks */
/* Clock ticks over ns of elapsed time at hz; band for the window's edges. */
double clock_expect(double hz, double ns);
struct vband clock_band(double ns, int hw);

#endif
