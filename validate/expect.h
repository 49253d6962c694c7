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

/* The prefetchers on (g->pf_dis: MSR 0x1A4, silicon's four, each as the
 * Intel optimization manual documents it): STREAM's arrays are whole pages
 * read in order, so every line fetched ahead is one the kernel reads next,
 * and the counts stay as above, but for one race.  Per fetched stream (the
 * arrays read, and the destination's RFOs with ordinary stores; streaming
 * stores pass the prefetchers by), with L the stream's last demand line:
 *   req   = 1 with a DCU prefetcher (its fetch of L+1 is a request to the
 *           L2 like a demand's, which the L2 prefetchers follow), else 0;
 *   ahead = req + 20 with the L2 streamer (up to 20 lines past the
 *           furthest request, within the page), else req + 1 with the
 *           adjacent-line prefetcher (the pair of a request), else req;
 *   behind = 1 with the adjacent-line prefetcher (the pair of a line
 *           missed again may be the line before it, already used).
 * A thread hands its references to the machine in batches of `batch`,
 * each modeled whole; at a batch's end its `ahead` lines per stream wait
 * while other threads' batches stream through the shared LLC, which may
 * evict them (and back-invalidate the L2): each is then read again, and
 * the first one missed again may fetch its pair behind.  So at most
 * (ahead + behind) lines per stream per batch; none with one thread.
 * Returns that bound.
 * Inside a batch a line X fetched ahead waits in its L2 and LLC sets while
 * each stream's lines from X - ahead - behind to X + ahead (its span) are
 * fetched or used.  A set (line mod sets) receives at most one line of a
 * span of at most 64 lines when the sets are a multiple of 64 (a 4 KiB
 * page's 64 lines are consecutive in the frame: two pages' lines share a
 * set only at the same offset), else at most ceil(span / sets) + (pages
 * the span crosses - 1).  X survives when the streams' lines in its set
 * number at most the ways; where they may not (L2 sets, or LLC sets of a
 * slice, too few or too few ways), there is no bound: -1. */
/* Lines one reference that misses can bring from memory at once, with the
 * prefetchers g->pf_dis leaves on (each as documented, as above): the line,
 * a DCU prefetcher's request (req), the streamer's 20 ahead of it or else
 * the adjacent line's pair (ahead), and the pair behind (behind):
 * 1 + ahead + behind, 23 with all four on; 1 with none (g->prefetch 0). */
uint64_t pf_burst(const struct vgeom *g);
double stream_pf_extra(const struct vgeom *g, enum stream_kernel k, int nt, uint64_t lines,
		       int threads, uint64_t batch);
/* b widened above by extra lines over expected (the prefetch race). */
struct vband band_plus(struct vband b, double extra, double expected, const char *why);

/* ------------------------------------------------------------ pointer chase */
enum chase_level { CL_L1, CL_L2, CL_LLC, CL_MEM };
extern const char *const chase_level_name[4];
/* The working set the suite uses for a level: L1/2, L2/2, LLC/4, 8 x LLC. */
uint64_t chase_ws_bytes(const struct vgeom *g, enum chase_level l);
/* Which level serves a cyclic chase over ws bytes (one line per element,
 * every element once per pass): the smallest cache of at most half its
 * size... exactly: L1 if ws <= L1/2, L2 if 2 x L1 <= ws <= L2/2, LLC if
 * 2 x L2 <= ws <= LLC/4, memory if ws >= 2 x LLC, else -1 (a transition
 * zone the suite avoids).  The LLC is inclusive: L1 and L2 also need
 * ws <= LLC/4 (an LLC smaller than the L2 caps what the L2 keeps). */
int chase_level_of(const struct vgeom *g, uint64_t ws);
/* Per hop, after a warm-up pass, reading the chase's own socket:
 * LLC lookups, LLC misses, DRAM reads.  L1/L2: 0 0 0; LLC: 1 0 0; memory:
 * 1 1 1 (LRU over a cyclic sweep larger than the cache keeps nothing). */
void chase_expect(enum chase_level l, double *lookups, double *misses, double *dram);
/* The L2 adjacent-line prefetcher alone (MSR 0x1A4 = 0xd), the
 * page-randomised chase: the m lines of one page visited once each in the
 * order ord[0..m) (line numbers 0..63 within the page), none of them in
 * the L2 at first.  A line not in the L2 is a demand miss, and the
 * prefetcher fetches the other line of its 128-byte pair; a line fetched so
 * is an L2 hit when its turn comes.  Returns the demand misses: every line
 * still enters the L2 once, the rest by prefetch. */
int pf_page_demand(const uint8_t *ord, int m);
/* The line-order chase over n lines (whole 4 KiB pages) with the
 * prefetchers of pf_dis (MSR 0x1A4) on: the most lines that enter the L2
 * per hop.  The demand's line; its pair when the adjacent-line prefetcher
 * is on (one per L2 miss); with the streamer, two on a request to a page
 * among the 32 it tracks (a random order lands there on 32/pages of the
 * hops); with a DCU prefetcher, two on a load within 32 lines (its longest
 * stride) of one of the 8 streams it follows (8 x 65 / n of the hops),
 * each of which the L2 prefetchers may follow as a demand's. */
double chase_pf_line_hi(unsigned pf_dis, uint64_t n);
/* Lines line[0..n) (physical line numbers) of a cache of sets sets (set =
 * line mod sets) with ways ways: map[i] = 1 when line i's set receives more
 * than ways of them (under LRU a cyclic chase loses every line of such a set
 * each pass; the other sets keep theirs).  Returns the lines so marked, -1
 * on no memory.  The chase decides from it whether the L2 keeps part of a
 * set (any line unmarked), not from the sizes alone. */
long overfull_lines(const uint64_t *line, uint64_t n, uint64_t sets, int ways, uint8_t *map);
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
	double set_risk;         /* share of rd that LLC sets defeating "fits"/"does not" may move */
	const char *why;
};
/* threads: kernel threads sharing the rows (each owns whole row blocks).
 * set_risk: an operand that fits (reuse distance d <= LLC/4) is read once
 * unless its line's set receives ways or more other lines within d; one
 * that does not (d >= 2 LLC) is re-read unless its set receives fewer than
 * ways.  Lines fall in a set as a Poisson count of mean ways x d / LLC; a
 * line in such a set is read once instead of once a panel (C) or a row
 * (B), or the other way round: set_risk is the larger share of rd that may
 * move so (negligible at 20 ways; the formula's count is not pinned when
 * it is not small beside the band). */
void dgemm_expect(const struct vgeom *g, uint64_t n, uint64_t bk, int threads, int hw,
		  struct dgemm_expect *e);

/* P(X >= k) for X Poisson of mean lambda. */
double pois_ge(double lambda, int k);

/* ------------------------------------------------------------------ clocks */
/* Clock ticks over ns of elapsed time at hz; band for the window's edges. */
double clock_expect(double hz, double ns);
struct vband clock_band(double ns, double outer, int hw);

#endif
