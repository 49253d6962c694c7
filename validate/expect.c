/*
 * expect.c - expected counts from kernel parameters and geometry (expect.h).
 * Every number here is derived in the comment above it; none is taken from
 * a measurement.
 */
#include <math.h>
#include <stdlib.h>

#include "expect.h"

const char *const stream_kernel_name[SK_N] = { "copy", "scale", "add", "triad" };

int stream_reads(enum stream_kernel k)
{
	return k == SK_ADD || k == SK_TRIAD ? 2 : 1;
}

/* Copy c=a, Scale b=q*c: one array read; Add c=a+b, Triad a=b+q*c: two.
 * An ordinary store to a line that is not cached reads it first (read for
 * ownership) and writes it back when it leaves the caches (at the latest at
 * the window's closing write-back); a non-temporal store writes the full
 * line without reading it. */
void stream_expect(enum stream_kernel k, int nt, uint64_t lines, double *rd, double *wr)
{
	*rd = (double)(stream_reads(k) + (nt ? 0 : 1)) * (double)lines;
	*wr = (double)lines;
}

struct vband stream_band_total(int hw)
{
	if (hw)
		return (struct vband){ 0.95, 1.05,
			"silicon: prefetch overshoot at array ends, OS and page-table traffic (few %)" };
	return (struct vband){ 1, 1,
		"model exact: caches written back before and inside the window, every line missed once" };
}

/* Lines are interleaved over channels by address; a 4 KiB page holds 64
 * lines, split evenly over 1, 2 or 4 channels and 22/21/21 over 3 (which
 * channel gets 22 depends on the frame).  Over P pages the share differs
 * from total/channels by at most one line a page, and averages out. */
struct vband stream_band_channel(const struct vgeom *g, uint64_t lines_total, int hw)
{
	if (hw)
		return (struct vband){ 0.95, 1.05,
			"silicon: channel hash and page placement make shares near-uniform only" };
	if (64 % g->channels == 0)
		return (struct vband){ 1, 1, "64 lines of a page split evenly over the channels" };
	double pages = (double)lines_total / 64.0;
	double share = (double)lines_total / g->channels;
	double t = pages / share;       /* worst case: one extra line on every page */
	return (struct vband){ 1 - t, 1 + t,
		"64 lines of a page split unevenly over the channels: up to one line a page" };
}

#define PF_STREAMER_AHEAD 20     /* lines the L2 streamer runs ahead of its requests */

/* Lines of one stream's span (span lines of consecutive virtual lines)
 * that may fall in one set of a cache of sets sets (set = line mod sets). */
static uint64_t span_per_set(uint64_t span, uint64_t sets)
{
	uint64_t pages = (span + 62) / 64 + 1;        /* a page boundary after any line */

	if (sets == 0)
		return UINT64_MAX;
	if (sets % 64 == 0 && span <= 64)
		return 1;
	return (span + sets - 1) / sets + pages - 1;
}

uint64_t pf_burst(const struct vgeom *g)
{
	unsigned dis = g->pf_dis;
	int dcu = (dis & 0xcu) != 0xcu, adj = !(dis & 2u), streamer = !(dis & 1u);
	uint64_t req = dcu ? 1 : 0;
	uint64_t ahead = req + (streamer ? PF_STREAMER_AHEAD : adj ? 1 : 0), behind = adj ? 1 : 0;

	return g->prefetch ? 1 + ahead + behind : 1;
}

double stream_pf_extra(const struct vgeom *g, enum stream_kernel k, int nt, uint64_t lines,
		       int threads, uint64_t batch)
{
	unsigned dis = g->pf_dis;
	int fetched = stream_reads(k) + (nt ? 0 : 1);
	int dcu = (dis & 0xcu) != 0xcu, adj = !(dis & 2u), streamer = !(dis & 1u);
	uint64_t req = dcu ? 1 : 0;
	uint64_t ahead = req + (streamer ? PF_STREAMER_AHEAD : adj ? 1 : 0);
	uint64_t behind = adj ? 1 : 0, span = 2 * ahead + behind + 1;
	uint64_t l2_sets = g->l2_ways > 0 ? g->l2_bytes / 64 / (uint64_t)g->l2_ways : 0;
	uint64_t llc_sets = g->llc_ways > 0 && vgeom_slices(g) > 0
			    ? g->llc_bytes / (uint64_t)vgeom_slices(g) / 64 / (uint64_t)g->llc_ways : 0;

	if (span_per_set(span, l2_sets) * (uint64_t)fetched > (uint64_t)g->l2_ways ||
	    span_per_set(span, llc_sets) * (uint64_t)fetched > (uint64_t)g->llc_ways)
		return -1;
	if (threads < 2 || batch == 0)
		return 0;
	double refs = (double)lines * (stream_reads(k) + 1);   /* a reference per line per array */
	double batches = ceil(refs / (double)batch) + threads;
	return (double)(fetched * (ahead + behind)) * batches;
}

struct vband band_plus(struct vband b, double extra, double expected, const char *why)
{
	if (extra > 0 && expected > 0) {
		b.hi += extra / expected;
		b.why = why;
	}
	return b;
}

const char *const chase_level_name[4] = { "l1", "l2", "llc", "mem" };

uint64_t chase_ws_bytes(const struct vgeom *g, enum chase_level l)
{
	switch (l) {
	case CL_L1: return g->l1_bytes / 2;
	case CL_L2: return g->l2_bytes / 2;
	case CL_LLC: return g->llc_bytes / 4;
	case CL_MEM: return g->llc_bytes * 8;
	}
	return 0;
}

int chase_level_of(const struct vgeom *g, uint64_t ws)
{
	/* The LLC is inclusive: a core keeps only what the LLC keeps too. */
	int in_llc = ws <= g->llc_bytes / 4;
	if (ws <= g->l1_bytes / 2 && in_llc)
		return CL_L1;
	if (ws <= g->l2_bytes / 2 && ws >= g->l1_bytes * 2 && in_llc)
		return CL_L2;
	if (ws <= g->llc_bytes / 4 && ws >= g->l2_bytes * 2)
		return CL_LLC;
	if (ws >= g->llc_bytes * 2)
		return CL_MEM;
	return -1;
}

/* A cyclic chase visits every line once per pass in the same order.  A
 * cache that holds the whole set (at most half full, so no set of an
 * address-hashed cache overflows) hits every hop after the warm-up pass; a
 * cache smaller than the set, under LRU, has evicted each line before the
 * pass comes back to it, and misses every hop.  Inclusive LLC: a hop that
 * misses L2 looks the LLC up once. */
void chase_expect(enum chase_level l, double *lookups, double *misses, double *dram)
{
	*lookups = l >= CL_LLC ? 1 : 0;
	*misses = l == CL_MEM ? 1 : 0;
	*dram = l == CL_MEM ? 1 : 0;
}

double chase_pf_line_hi(unsigned pf_dis, uint64_t n)
{
	double pages = (double)n / 64, per = 1, hi;
	if (!(pf_dis & 2u))
		per += 1;                        /* the pair */
	if (!(pf_dis & 1u))
		per += 2 * (32 / pages < 1 ? 32 / pages : 1);
	hi = per;
	if ((pf_dis & 0xcu) != 0xcu)
		hi += 2 * (8 * 65.0 / (double)n < 1 ? 8 * 65.0 / (double)n : 1) * per;
	return hi;
}

int pf_page_demand(const uint8_t *ord, int m)
{
	uint64_t in_l2 = 0;
	int demand = 0;
	for (int i = 0; i < m; i++) {
		int l = ord[i] & 63;
		if (in_l2 >> l & 1)
			continue;
		demand++;
		in_l2 |= 3ull << (l & ~1);       /* the line and its pair */
	}
	return demand;
}

/* 1 per hop exactly under LRU.  A replacement other than LRU can keep up to
 * (cache size / working set) of the lines across a pass: L2 for the LLC
 * level's lookups, the LLC for the memory level's misses. */
long overfull_lines(const uint64_t *line, uint64_t n, uint64_t sets, int ways, uint8_t *map)
{
	uint32_t *cnt = calloc(sets ? sets : 1, sizeof(*cnt));
	long lost = 0;
	if (!cnt || sets == 0) {
		free(cnt);
		return -1;
	}
	for (uint64_t i = 0; i < n; i++)
		cnt[line[i] % sets]++;
	for (uint64_t i = 0; i < n; i++) {
		map[i] = cnt[line[i] % sets] > (uint32_t)ways;
		lost += map[i];
	}
	free(cnt);
	return lost;
}

struct vband chase_band_one(const struct vgeom *g, enum chase_level l, uint64_t ws, int hw)
{
	double keep = 0;
	if (l == CL_LLC)
		keep = (double)g->l2_bytes / (double)ws;
	else if (l == CL_MEM)
		keep = (double)g->llc_bytes / (double)ws;
	if (hw)
		return (struct vband){ 1 - keep - 0.05, 1.30,
			"silicon: cache may keep size/WS of the lines; page walks and prefetches add" };
	return (struct vband){ 1 - keep, 1,
		"cyclic sweep larger than the cache: LRU misses every hop; other policies keep <= size/WS" };
}

double chase_zero_bound(int hw)
{
	return hw ? 0.02 : 0;
}

/* Lines hash to slices uniformly: a slice's share of n lines is
 * binomial(n, 1/S); 5 standard deviations: 5 sqrt((S-1)/n). */
struct vband slice_band(const struct vgeom *g, uint64_t lines, int hw)
{
	double s = g->cores;
	double t = lines ? 5 * sqrt((s - 1) / (double)lines) : 1;
	if (hw)
		t += 0.05;
	return (struct vband){ 1 - t, 1 + t,
		"address hash spreads the set's lines binomially over slices: 5 sigma" };
}

double pois_ge(double lambda, int k)
{
	double term = exp(-lambda), below = 0;
	for (int i = 0; i < k; i++) {
		below += term;
		term *= lambda / (i + 1);
	}
	return below >= 1 ? 0 : 1 - below;
}

/* The tail that defeats an operand's classification (dgemm_expect). */
static double set_tail(const struct vgeom *g, int fits, double reuse)
{
	int w = g->llc_ways > 0 ? g->llc_ways : 20;
	double lam = w * reuse / (double)g->llc_bytes;
	if (fits == 1)
		return pois_ge(lam, w);
	if (fits == 0)
		return 1 - pois_ge(lam, w);
	return 0;
}

/* kern_dgemm.c's nest: for kk (panel of bk), for i, for jl (a C line), for
 * k in the panel.  Per socket (the LLC the threads share):
 *   A: a line (8 k of row i) belongs to one panel and is used there for
 *      every jl in a row (reused from L1): read once.
 *   B: the panel's bk x n lines are used by every row; between two rows
 *      the nest touches the panel (8 bk n bytes) plus a row of C and A's
 *      segment per thread: reuse_b.  Fits: read once; else once per row.
 *   C: each line is read and written once per panel, by the thread that
 *      owns its rows: reuse_c, reuse_c_min.  Fits: read once, written back
 *      once; else read and written once per panel.
 * C's reuse distance depends on the threads' relative speed.  The threads
 * meet only at the barrier between panels: inside a panel one may run far
 * ahead of another (on a loaded host a thread can be descheduled for a
 * whole panel, and the emulated machine sees its batches of references
 * whenever they come).  So between a thread's uses of one of its C lines in
 * two panels the nest touches, whatever the timing:
 *   its own rows of C (rows = its share of the n / bk row blocks, at least
 *   floor(n / bk / threads) of them): 8 n rows bytes; its rows' segments of
 *   A (the rows after the line in the first panel, before it in the next):
 *   8 rows bk; at least one whole B panel: 8 bk n.  That is reuse_c_min.
 * and at most, with every other thread's work of both panels in between,
 * all of C plus A's and B's panels: reuse_c = 8 n^2 + 16 n bk.
 * "Fits" means reuse_c at most a quarter of the LLC (few sets of a
 * set-associative cache overflow then, whatever the frames); "does not"
 * means reuse_c_min at least twice it (no set keeps a line under LRU).  In
 * between the band spans both. */
void dgemm_expect(const struct vgeom *g, uint64_t n, uint64_t bk, int threads, int hw,
		  struct dgemm_expect *e)
{
	double nn = (double)n * (double)n / 8.0;     /* lines per matrix */
	double panels = (double)n / (double)bk;
	double llc = (double)g->llc_bytes;
	uint64_t t = threads > 0 ? (uint64_t)threads : 1;
	double rows = (double)(n / bk / t * bk);     /* the smallest thread's rows */

	e->compulsory_rd = 3 * nn;
	e->reuse_c = 8.0 * n * n + 16.0 * n * bk;
	e->reuse_c_min = 8.0 * n * rows + 8.0 * rows * bk + 8.0 * bk * n;
	e->reuse_b = 8.0 * bk * n + 2 * (8.0 * n + 8.0 * bk);
	e->c_fits = e->reuse_c <= llc / 4 ? 1 : e->reuse_c_min >= 2 * llc ? 0 : -1;
	e->b_fits = e->reuse_b <= llc / 4 ? 1 : e->reuse_b >= 2 * llc ? 0 : -1;

	double fc = e->c_fits == 0 ? panels : 1;
	double fb = e->b_fits == 0 ? (double)n : 1;
	e->rd = nn * (1 + fb + fc);
	e->wr = nn * fc;
	/* A share of an operand's lines in sets that defeat its class is
	 * read once instead of once per panel (C) or row (B), or the other
	 * way round: the read count may move by that share of the difference. */
	double rc = set_tail(g, e->c_fits, e->c_fits == 1 ? e->reuse_c : e->reuse_c_min);
	double rb = set_tail(g, e->b_fits, e->reuse_b);
	double mc = rc * (panels - 1) * nn / e->rd, mb = rb * ((double)n - 1) * nn / e->rd;
	e->set_risk = mc > mb ? mc : mb;
	e->lo = 1;
	e->hi = 1;
	e->wr_hi = 1;
	e->why = "reuse distances vs LLC: each operand read once, or once per panel/row";
	if (e->c_fits < 0 || e->b_fits < 0) {
		/* Between the bounds: band from "fits" to "does not". */
		double fc1 = e->c_fits < 0 ? panels : fc;
		double fb1 = e->b_fits < 0 ? (double)n : fb;
		e->hi = nn * (1 + fb1 + fc1) / e->rd;
		/* writes are C's alone: once, up to once a panel */
		e->wr_hi = e->c_fits < 0 ? panels : !hw ? 1.01 : 1;
		e->why = "reuse distance between LLC/4 and 2 LLC: set conflicts decide; band spans both";
	} else if (!hw) {
		/* A fitting operand at <= a quarter of the LLC: a set overflows
		 * only in a far Poisson tail. */
		e->hi = 1.01;
		e->wr_hi = 1.01;
		e->why = "reuse distances vs LLC (<= LLC/4 or >= 2 LLC): model LRU exact; 1% for set overflow/underflow";
	}
	if (!hw && (e->c_fits == 0 || e->b_fits == 0)) {
		/* An operand of >= 2 LLC leaves a few sets with no more lines
		 * than ways, which keep theirs: slightly fewer misses. */
		e->lo = 0.99;
	}
	if (hw) {
		e->lo = 0.95;
		e->hi = e->hi * 1.25;
		e->wr_hi = e->wr_hi * 1.25;
		e->why = "silicon: prefetchers and non-LRU replacement move traffic around the formula";
	}
}

double clock_expect(double hz, double ns)
{
	return hz * ns * 1e-9;
}

/* Elapsed time is taken just after the session starts and just before it
 * stops (ns), and just before it starts and just after it stops (outer):
 * the counters run at least the first and at most the second, whatever
 * the start's and stop's own register accesses and any descheduling there
 * on a loaded machine take.  0.1% beyond each (rounding of the
 * frequencies); an outer time not known (0, or shorter) is taken as ns
 * plus 20 ms. */
struct vband clock_band(double ns, double outer, int hw)
{
	if (outer < ns)
		outer = ns + 20e6;
	return (struct vband){ 1 - 1e-3 - (hw ? 0.01 : 0), outer / ns + 1e-3 + (hw ? 0.01 : 0),
		"counters run at least the elapsed time inside the session and at most the time "
		"from just before its start to just after its stop" };
}
