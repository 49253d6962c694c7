/*
 * test_vexpect.c - the validation suite's formulas and checks, against
 * values worked out by hand in the comments.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <pmon/sim.h>

#include "check.h"          /* ctests/check.h: the test harness */
#include "../vcheck.h"
#include "../expect.h"
#include "../vbase.h"
#include "../vexp.h"

static struct vgeom geom_default(void)
{
	struct vgeom g;
	memset(&g, 0, sizeof(g));
	g.sockets = 2;
	g.cores = 8;
	g.channels = 4;
	g.llc_bytes = 20u << 20;
	g.l1_bytes = 32u << 10;
	g.l2_bytes = 256u << 10;
	return g;
}

static void test_stream(void)
{
	double rd, wr;
	/* 1000 lines per array.  Copy with write-allocate: a read + c's RFO. */
	stream_expect(SK_COPY, 0, 1000, &rd, &wr);
	CHECK(rd == 2000 && wr == 1000, "copy WA: rd %g wr %g", rd, wr);
	stream_expect(SK_SCALE, 1, 1000, &rd, &wr);
	CHECK(rd == 1000 && wr == 1000, "scale NT: rd %g wr %g", rd, wr);
	stream_expect(SK_ADD, 0, 1000, &rd, &wr);
	CHECK(rd == 3000 && wr == 1000, "add WA: rd %g wr %g", rd, wr);
	stream_expect(SK_TRIAD, 1, 1000, &rd, &wr);
	CHECK(rd == 2000 && wr == 1000, "triad NT: rd %g wr %g", rd, wr);

	struct vgeom g = geom_default();
	struct vband b = stream_band_channel(&g, 64000, 0);
	CHECK(b.lo == 1 && b.hi == 1, "4 channels split a page evenly: exact band");
	g.channels = 3;
	/* 64000 lines = 1000 pages; a channel's share 21333.3; one extra line
	 * a page at most: 1000 / 21333.3 = 0.046875. */
	b = stream_band_channel(&g, 64000, 0);
	CHECK(fabs(b.hi - 1.046875) < 1e-12 && fabs(b.lo - 0.953125) < 1e-12,
	      "3 channels: band %g..%g", b.lo, b.hi);
}

static void test_chase(void)
{
	struct vgeom g = geom_default();
	double lk, ms, dr;

	CHECK_EQ_U64(chase_ws_bytes(&g, CL_L1), 16384, "L1 set");
	CHECK_EQ_U64(chase_ws_bytes(&g, CL_L2), 131072, "L2 set");
	CHECK_EQ_U64(chase_ws_bytes(&g, CL_LLC), 5u << 20, "LLC set");
	CHECK_EQ_U64(chase_ws_bytes(&g, CL_MEM), 160u << 20, "memory set");
	for (int l = CL_L1; l <= CL_MEM; l++)
		CHECK_EQ_INT(chase_level_of(&g, chase_ws_bytes(&g, (enum chase_level)l)), l,
			     "level of the suite's own set");
	CHECK_EQ_INT(chase_level_of(&g, 20u << 20), -1, "a set the size of the LLC is a transition");
	chase_expect(CL_L2, &lk, &ms, &dr);
	CHECK(lk == 0 && ms == 0 && dr == 0, "L2 level: no uncore traffic");
	chase_expect(CL_LLC, &lk, &ms, &dr);
	CHECK(lk == 1 && ms == 0 && dr == 0, "LLC level: one lookup a hop, no miss");
	chase_expect(CL_MEM, &lk, &ms, &dr);
	CHECK(lk == 1 && ms == 1 && dr == 1, "memory level: lookup, miss, DRAM read a hop");
	/* 8 x LLC: another policy than LRU keeps at most 1/8 of the set. */
	struct vband b = chase_band_one(&g, CL_MEM, 160u << 20, 0);
	CHECK(b.lo == 0.875 && b.hi == 1, "memory band %g..%g", b.lo, b.hi);
	/* 81920 lines over 8 slices: 5 sqrt(7 / 81920) = 0.046220. */
	b = slice_band(&g, 81920, 0);
	CHECK(fabs(b.hi - 1 - 5 * sqrt(7.0 / 81920)) < 1e-12, "slice band %g", b.hi);
}

/* The prefetchers on the page-randomised chase, the line-order chase and
 * STREAM. */
static void test_prefetch(void)
{
	uint8_t ord[64];
	/* Adjacent line, ascending: 0 misses and fetches 1, 1 hits, 2 misses
	 * and fetches 3...: 32 demand misses. */
	for (int i = 0; i < 64; i++)
		ord[i] = (uint8_t)i;
	CHECK_EQ_INT(pf_page_demand(ord, 64), 32, "ascending page: every other line a demand miss");
	/* Descending: 63 fetches 62, 61 fetches 60...: 32 again. */
	for (int i = 0; i < 64; i++)
		ord[i] = (uint8_t)(63 - i);
	CHECK_EQ_INT(pf_page_demand(ord, 64), 32, "descending page: every other line a demand miss");
	/* 5 0 1 2 3: 5 misses (fetches 4), 0 misses (fetches 1), 1 hits, 2
	 * misses (fetches 3), 3 hits: 3 misses of 5 lines. */
	const uint8_t few[] = { 5, 0, 1, 2, 3 };
	CHECK_EQ_INT(pf_page_demand(few, 5), 3, "5 0 1 2 3: three demand misses");
	/* The last line of a page: 63 fetches 62, which then hits. */
	const uint8_t last[] = { 63, 62 };
	CHECK_EQ_INT(pf_page_demand(last, 2), 1, "63 62: one demand miss");
	/* The line-order chase's most lines per hop: 8192 lines (128 pages),
	 * all four on: 1 + 1 + 2 x 32/128 = 2.5, + 2 x 520/8192 x 2.5 (DCU). */
	CHECK(fabs(chase_pf_line_hi(0, 8192) - (2.5 + 2 * 520.0 / 8192 * 2.5)) < 1e-12,
	      "chase bound, all on: %g", chase_pf_line_hi(0, 8192));
	CHECK(fabs(chase_pf_line_hi(0xd, 8192) - 2) < 1e-12, "adjacent alone: 2 a hop");
	CHECK(fabs(chase_pf_line_hi(0xe, 64) - 3) < 1e-12, "streamer alone, one page: 3 a hop");
	CHECK(fabs(chase_pf_line_hi(0xf, 8192) - 1) < 1e-12, "all off: the demand only");

	/* STREAM, the default geometry (8-way 256 KiB L2: 512 sets; 20-way
	 * 2.5 MiB LLC slices: 2048 sets), all four prefetchers on: a stream's
	 * lines ahead are 1 (the DCU's request) + 20 (the streamer), behind 1
	 * (a pair): 22 per stream per batch.  Add with ordinary stores reads a
	 * and b and RFOs c (3 fetched streams), 1000 lines an array: 3000
	 * references, one batch of 4096, + 2 threads = 3 batches: 3 x 22 x 3. */
	struct vgeom pg = geom_default();
	pg.l2_ways = 8;
	pg.llc_ways = 20;
	pg.prefetch = 1;
	pg.pf_dis = 0;
	CHECK(stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096) == 3 * 22 * 3, "add, 2 threads: %g",
	      stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096));
	/* Copy with NT stores: one fetched stream; 2 x 1000 references in 2
	 * batches of 1024, + 4 threads: 6 x 22. */
	CHECK(stream_pf_extra(&pg, SK_COPY, 1, 1000, 4, 1024) == 6 * 22, "copy nt, 4 threads: %g",
	      stream_pf_extra(&pg, SK_COPY, 1, 1000, 4, 1024));
	CHECK(stream_pf_extra(&pg, SK_TRIAD, 0, 1000, 1, 4096) == 0, "one thread: no race, no extra");
	/* Each prefetcher's share: streamer off (0x1): 1 + 1 ahead (the DCU's
	 * request and its pair), 1 behind: 3 a stream; the adjacent line alone
	 * (0xd): 1 + 1; the DCU alone (0x3): 1 ahead, none behind (the old
	 * one-line model's 3 x 3). */
	pg.pf_dis = 0x1;
	CHECK(stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096) == 3 * 3 * 3, "streamer off: %g",
	      stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096));
	pg.pf_dis = 0xd;
	CHECK(stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096) == 3 * 2 * 3, "adjacent alone: %g",
	      stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096));
	pg.pf_dis = 0x3;
	CHECK(stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096) == 3 * 1 * 3, "DCU alone: %g",
	      stream_pf_extra(&pg, SK_ADD, 0, 1000, 2, 4096));
	pg.pf_dis = 0;
	/* Inside a batch a line fetched ahead waits while each stream's span
	 * of 2 x 21 + 1 + 1 = 44 lines passes.  Sets a multiple of 64: one line
	 * of a span per set, Triad's 3 streams need 3 ways: a 64 KiB 4-way L2
	 * (256 sets) keeps a bound, 2 ways do not. */
	pg.l2_bytes = 64u << 10;
	pg.l2_ways = 4;
	CHECK(stream_pf_extra(&pg, SK_TRIAD, 0, 1000, 2, 4096) == 3 * 22 * 3, "4 L2 ways: bound");
	pg.l2_ways = 2;
	CHECK(stream_pf_extra(&pg, SK_TRIAD, 0, 1000, 2, 4096) == -1, "2 L2 ways: no bound");
	/* Sets not a multiple of 64 (6 ways of 256 KiB: 682 sets): two lines of
	 * a span crossing a page may share a set: 6 ways hold Triad's 3 x 2, 5
	 * do not. */
	pg.l2_bytes = 256u << 10;
	pg.l2_ways = 6;
	CHECK(stream_pf_extra(&pg, SK_TRIAD, 0, 1000, 2, 4096) > 0, "682 sets x 6 ways: bound");
	pg.l2_ways = 5;
	CHECK(stream_pf_extra(&pg, SK_TRIAD, 0, 1000, 2, 4096) == -1, "819 sets x 5 ways: no bound");
	/* A 64 KiB LLC over 8 slices of 20 ways: 6 sets a slice, up to
	 * ceil(44 / 6) + 1 = 9 lines of a span in one: 27 > 20, no bound. */
	pg.l2_ways = 8;
	pg.llc_bytes = 64u << 10;
	CHECK(stream_pf_extra(&pg, SK_TRIAD, 0, 1000, 2, 4096) == -1, "llc=64K: no bound");
	CHECK(stream_pf_extra(&pg, SK_COPY, 1, 1000, 2, 4096) > 0, "llc=64K, copy nt: 9 <= 20, bound");
	struct vband b = band_plus((struct vband){ 1, 1, "w" }, 9, 3000, "pf");
	CHECK(b.lo == 1 && fabs(b.hi - 1.003) < 1e-12 && strcmp(b.why, "pf") == 0,
	      "band widened to %g..%g", b.lo, b.hi);
	b = band_plus((struct vband){ 1, 1, "w" }, 0, 3000, "pf");
	CHECK(b.hi == 1 && strcmp(b.why, "w") == 0, "no extra: band unchanged");
}

/* Shapes whose chase sets are not apart from the caches: the LLC/4 set of a
 * 1 MiB LLC is the default L2's size; a 64 KiB LLC's is half a 32 KiB L2. */
static void test_small_llc(void)
{
	struct vgeom g = geom_default();
	g.llc_bytes = 1u << 20;
	CHECK_EQ_U64(chase_ws_bytes(&g, CL_LLC), 256u << 10, "1 MiB LLC: LLC/4 set");
	CHECK_EQ_INT(chase_level_of(&g, chase_ws_bytes(&g, CL_LLC)), -1,
		     "1 MiB LLC: LLC/4 = L2, a transition");
	g.llc_bytes = 64u << 10;
	g.l2_bytes = 32u << 10;
	g.l1_bytes = 8u << 10;
	CHECK_EQ_INT(chase_level_of(&g, chase_ws_bytes(&g, CL_LLC)), CL_L2,
		     "64 KiB LLC, 32 KiB L2: the LLC/4 set is an L2 set");
	CHECK_EQ_INT(chase_level_of(&g, chase_ws_bytes(&g, CL_L2)), CL_L2, "its L2 set stays");
	/* An LLC below the L2 (256 KiB): the L2/2 set of 128 KiB is twice a
	 * 64 KiB LLC (memory), and between a quarter and twice a 256 KiB one. */
	g = geom_default();
	g.llc_bytes = 64u << 10;
	CHECK_EQ_INT(chase_level_of(&g, 128u << 10), CL_MEM, "64 KiB LLC: the L2/2 set is a memory set");
	g.llc_bytes = 256u << 10;
	CHECK_EQ_INT(chase_level_of(&g, 128u << 10), -1, "256 KiB LLC: the L2/2 set is a transition");
	CHECK_EQ_INT(chase_level_of(&g, 16u << 10), CL_L1, "256 KiB LLC: the L1/2 set stays");
	/* 8 slices, a handful of lines: 5 sqrt(7 / 100) = 1.32: a band that
	 * cannot fail (the suite skips it). */
	struct vband b = slice_band(&g, 100, 0);
	CHECK(b.lo <= 0, "100 lines over 8 slices: band from %g", b.lo);
	b = slice_band(&g, 0, 0);
	CHECK(b.lo <= 0, "no line: band from %g", b.lo);
}

static void test_dgemm(void)
{
	struct vgeom g = geom_default();
	struct dgemm_expect e;

	/* n = 1024, bk = 64 on a 20 MiB LLC: C's reuse distance 8 MiB + 1 MiB
	 * lies between LLC/4 and 2 LLC: the band spans C read once (3 reads a
	 * line of a matrix) to once per panel (1 + 1 + 16).  B's panel (512
	 * KiB + rows) fits.  Lines per matrix 1024^2 / 8 = 131072. */
	dgemm_expect(&g, 1024, 64, 2, 0, &e);
	CHECK(e.c_fits == -1 && e.b_fits == 1, "1024: c %d b %d", e.c_fits, e.b_fits);
	CHECK(e.rd == 3 * 131072.0 && e.wr == 131072.0 && e.compulsory_rd == 3 * 131072.0,
	      "1024: rd %g wr %g", e.rd, e.wr);
	CHECK(fabs(e.hi - 18.0 / 3) < 1e-12, "1024: band up to %g", e.hi);
	/* C's writes alone: once a line up to once a panel (16 panels) */
	CHECK(e.wr_hi == 16, "1024: writes up to %g", e.wr_hi);
	/* n = 448: C 1.53 MiB + 0.44 MiB <= 5 MiB fits: every operand once. */
	dgemm_expect(&g, 448, 64, 2, 0, &e);
	CHECK(e.c_fits == 1 && e.b_fits == 1 && e.rd == 3 * 448.0 * 448 / 8 && e.hi == 1.01,
	      "448 fits: rd %g hi %g", e.rd, e.hi);
	/* 2 MiB LLC, n = 704, one thread: C is 3.78 MiB + 0.69 MiB of panels
	 * >= 4 MiB: C read and written once per panel (11 panels); B's panel
	 * (352 KiB + rows) fits.  Lines per matrix 704^2 / 8 = 61952. */
	g.llc_bytes = 2u << 20;
	dgemm_expect(&g, 704, 64, 1, 0, &e);
	CHECK(e.c_fits == 0 && e.b_fits == 1, "704 on 2 MiB: c %d b %d", e.c_fits, e.b_fits);
	CHECK(e.rd == 61952.0 * (1 + 1 + 11) && e.wr == 61952.0 * 11, "704: rd %g wr %g", e.rd, e.wr);
	CHECK(e.lo == 0.99 && e.hi == 1.01 && e.wr_hi == 1.01, "704: band %g..%g (wr ..%g)",
	      e.lo, e.hi, e.wr_hi);
	/* The same with two threads: each owns 5 of the 11 row blocks at
	 * least (320 rows), and inside a panel one thread may run ahead of the
	 * other, so between two uses of a C line only its own thread's work is
	 * sure to come: 8 x 704 x 320 (its C rows) + 8 x 320 x 64 (its rows of
	 * A's panels) + 8 x 64 x 704 (a B panel) = 2326528 bytes < 4 MiB.  Not
	 * sure to miss: the band spans 1 + 1 + 1 to 1 + 1 + 11. */
	dgemm_expect(&g, 704, 64, 2, 0, &e);
	CHECK(e.reuse_c_min == 2326528.0 && e.c_fits == -1, "704, 2 threads: min %g c %d",
	      e.reuse_c_min, e.c_fits);
	CHECK(e.wr == 61952.0 && e.lo == 1 && fabs(e.hi - 13.0 / 3) < 1e-12 && e.wr_hi == 11,
	      "704, 2 threads: wr %g band %g..%g (wr ..%g)", e.wr, e.lo, e.hi, e.wr_hi);
	/* n = 384 on 2 MiB: C 1.125 MiB + 0.375 MiB = 1.5 MiB, between 0.5 and 4
	 * MiB: the band spans 1 + 1 + 1 to 1 + 1 + 6 panels. */
	dgemm_expect(&g, 384, 64, 2, 0, &e);
	CHECK(e.c_fits == -1 && fabs(e.hi - 8.0 / 3) < 1e-12, "384: band up to %g", e.hi);

	/* test_vdgemm_order's first shape (it now runs n = 256 on 256 KiB, and
	 * checks that geometry itself): 512 KiB LLC, n = 384 (C 1.125 MiB), 2
	 * threads of 3 row blocks (192 rows) each.  All of C between two
	 * uses would be 1179648 + 16 x 384 x 64 = 1572864 bytes >= 1 MiB, but
	 * only the thread's own work is sure to come: 8 x 384 x 192 + 8 x 192
	 * x 64 + 8 x 64 x 384 = 884736 bytes < 1 MiB.  A C line may then stay
	 * in the LLC from one panel to the next (a set that gets fewer than 20
	 * other lines meanwhile): fewer than 6 write-backs a line are possible,
	 * so the lower bound is one write a line (18432 lines), not six. */
	g.llc_bytes = 512u << 10;
	dgemm_expect(&g, 384, 64, 2, 0, &e);
	CHECK(e.reuse_c == 1572864.0 && e.reuse_c_min == 884736.0 && e.c_fits == -1,
	      "384 on 512 KiB, 2 threads: reuse %g min %g c %d", e.reuse_c, e.reuse_c_min,
	      e.c_fits);
	CHECK(e.wr == 18432.0 && e.lo == 1 && e.wr_hi == 6,
	      "384 on 512 KiB, 2 threads: wr %g band %g..%g", e.wr, e.lo, e.wr_hi);
	/* One thread: its own work is all of C: sure to miss (>= 2 LLC),
	 * written once per panel (6), 1% below for sets that underflow. */
	dgemm_expect(&g, 384, 64, 1, 0, &e);
	CHECK(e.c_fits == 0 && e.wr == 18432.0 * 6 && e.lo == 0.99,
	      "384 on 512 KiB, 1 thread: c %d wr %g lo %g", e.c_fits, e.wr, e.lo);
	/* n = 512, 2 threads of 256 rows: 8 x 512 x 256 + 8 x 256 x 64 + 8 x
	 * 64 x 512 = 1441792 bytes >= 1 MiB: written once per panel (8) by
	 * any timing of the threads; 32768 lines per matrix. */
	dgemm_expect(&g, 512, 64, 2, 0, &e);
	/* B's panel (256 KiB + rows) is between the bounds, C's writes are not:
	 * their band stays 1% either side */
	CHECK(e.reuse_c_min == 1441792.0 && e.c_fits == 0 && e.wr == 32768.0 * 8 &&
	      e.lo == 0.99 && e.wr_hi == 1.01, "512 on 512 KiB, 2 threads: min %g c %d wr %g lo %g",
	      e.reuse_c_min, e.c_fits, e.wr, e.lo);

}

/* Few LLC ways: the Poisson tail of a set's other lines decides how far
 * the nest formula's count can move. */
static void test_dgemm_ways(void)
{
	CHECK(pois_ge(2, 0) == 1, "P(X >= 0) = 1");
	CHECK(fabs(pois_ge(2, 1) - (1 - exp(-2))) < 1e-12, "P(X >= 1) = 1 - e^-2");
	CHECK(fabs(pois_ge(2, 2) - (1 - 3 * exp(-2))) < 1e-12, "P(X >= 2) = 1 - 3 e^-2");

	struct vgeom g = geom_default();
	struct dgemm_expect e;
	g.llc_ways = 20;
	dgemm_expect(&g, 448, 64, 2, 0, &e);
	CHECK(e.c_fits == 1 && e.set_risk < 1e-4, "448 fits, 20 ways: risk %g", e.set_risk);
	/* 2 ways: B's panel and rows, 8 x 64 x 448 + 2 (8 x 448 + 8 x 64) =
	 * 237568 bytes, put lambda = 2 x 237568 / 20 MiB other lines in its
	 * set; a line in a set with 2 or more is read once a row (448) instead
	 * of once: 447 more of the 3 reads a line.  C (2064384 bytes, lambda
	 * 0.197, 6 more reads) moves less. */
	g.llc_ways = 2;
	dgemm_expect(&g, 448, 64, 2, 0, &e);
	double lam = 2 * 237568.0 / (20u << 20);
	double want = (1 - exp(-lam) * (1 + lam)) * 447 / 3;
	CHECK(fabs(e.set_risk - want) < 1e-9 && e.set_risk > 5e-3, "448 fits, 2 ways: risk %g, want %g",
	      e.set_risk, want);
}

static void test_checks(void)
{
	struct vchecks cs = { 0 };
	char t[32];
	struct vcheck *k = vcheck_rel(&cs, "k", "e", "lines", 100, 105, 0.95, 1.05, "w");
	CHECK(k && k->pass, "105 of 100 within 5%%");
	k = vcheck_rel(&cs, "k", "e", "lines", 100, 105.1, 0.95, 1.05, "w");
	CHECK(k && !k->pass, "105.1 of 100 beyond 5%%");
	vcheck_tol_text(k, t, sizeof(t));
	CHECK(strcmp(t, "±5%") == 0, "tolerance text '%s'", t);
	k = vcheck_rel(&cs, "k", "e", "lines", 100, 100, 1, 1, "w");
	vcheck_tol_text(k, t, sizeof(t));
	CHECK(k->pass && strcmp(t, "exact") == 0, "exact: '%s'", t);
	k = vcheck_rel(&cs, "k", "e", "lines", 100, 99, 1, 1, "w");
	CHECK(!k->pass, "99 of 100 is not exact");
	k = vcheck_rel(&cs, "k", "e", "lines", 8, 1e30, 1, INFINITY, "w");
	CHECK(k->pass, "at least: a large value passes");
	k = vcheck_rel(&cs, "k", "e", "lines", 8, -1e30, 1, INFINITY, "w");
	CHECK(!k->pass, "at least: below fails");
	k = vcheck_abs(&cs, "k", "e", "per hop", 0, 0, "w");
	CHECK(k->pass, "zero expected, zero measured");
	k = vcheck_abs(&cs, "k", "e", "per hop", 1e-9, 0, "w");
	CHECK(!k->pass, "zero expected, something measured");
	k = vcheck_rel(&cs, "k", "e", "lines", 100, NAN, 0.5, 2, "w");
	CHECK(!k->pass, "NaN never passes");
	CHECK_EQ_U64(vchecks_failed(&cs), 5, "failed count");
	vchecks_free(&cs);
}

/* The suite's own slice hash and DRAM map (geom.c, written from the
 * documented formulas) agree with the emulator's on many addresses: two
 * implementations of one documented map.  Plus a few worked by hand. */
static void test_address_maps(void)
{
	const char *shapes[] = { "", "cores=6,channels=3", "cores=2,sockets=1,channels=2",
				 "cores=5,mem=1G" };
	for (int k = 0; k < 4; k++) {
		struct pmon_sim_shape sh;
		char err[256];
		CHECK(pmon_sim_shape_parse(shapes[k], &sh, err, sizeof(err)) == 0, "shape %s: %s",
		      shapes[k], err);
		pmon_sim_t *sim = pmon_sim_create(&sh);
		CHECK(sim != NULL, "create %s", shapes[k]);
		if (!sim)
			continue;
		struct vgeom g;
		vgeom_from_sim(sim, &g);
		uint64_t top = g.mem_bytes * (uint64_t)g.sockets, s = 0x243F6A8885A308D3ull;
		size_t bad_slice = 0, bad_dram = 0, n = 0;
		int seen[8] = { 0 };
		for (int i = 0; i < 300000; i++, n++) {
			/* 100000 consecutive lines from 0, then random lines. */
			uint64_t pa;
			if (i < 100000) {
				pa = (uint64_t)i * 64;
			} else {
				s ^= s << 13;
				s ^= s >> 7;
				s ^= s << 17;
				pa = s % top / 64 * 64;
			}
			int sl = vgeom_llc_slice(&g, pa);
			bad_slice += sl != pmon_sim_llc_slice(sim, pa);
			if (sl >= 0 && sl < 8)
				seen[sl]++;
			struct vdram_loc a;
			struct pmon_sim_dram_loc b;
			int ra = vgeom_dram_locate(&g, pa, &a), rb = pmon_sim_dram_locate(sim, pa, &b);
			bad_dram += ra != 0 || rb != 0 || a.socket != b.socket || a.channel != b.channel ||
				    a.rank != b.rank || a.bank != b.bank || a.row != b.row ||
				    a.column != b.column;
		}
		CHECK(bad_slice == 0, "%s: slice formula differs from the emulator's on %zu of %zu lines",
		      shapes[k], bad_slice, n);
		CHECK(bad_dram == 0, "%s: DRAM map differs from the emulator's on %zu of %zu lines",
		      shapes[k], bad_dram, n);
		int used = 0;
		for (int i = 0; i < 8; i++)
			used += seen[i] > 0;
		CHECK_EQ_INT(used, g.cores, "every slice used");
		struct vdram_loc a;
		CHECK(vgeom_dram_locate(&g, top, &a) == -1, "%s: beyond memory refused", shapes[k]);
		pmon_sim_destroy(sim);
	}
	/* By hand, 8 cores, 4 channels, 32 GiB a socket. */
	struct vgeom g = geom_default();
	g.mem_bytes = 32ull << 30;
	CHECK_EQ_INT(vgeom_llc_slice(&g, 0), 0, "line 0: h = 0, slice 0");
	/* line 1: h = 0x9E3779B9 (2654435769); slice = h * 8 >> 32 = 4. */
	CHECK_EQ_INT(vgeom_llc_slice(&g, 64), 4, "line 1: slice 4");
	struct vdram_loc l;
	/* Socket 1's line 4 x 2048 + 4 x 1024 + 4 x 130 + 1: cl = 2048 + 1024 + 130,
	 * channel 1: row 1, rank 1, bank (3202 / 128) % 8 = 1, column 2. */
	uint64_t line = 4ull * (2048 + 1024 + 130) + 1;
	CHECK(vgeom_dram_locate(&g, g.mem_bytes + line * 64 + 5, &l) == 0 && l.socket == 1 &&
	      l.channel == 1 && l.row == 1 && l.rank == 1 && l.bank == 1 && l.column == 2,
	      "by hand: socket %d channel %d row %llu rank %d bank %d column %llu", l.socket,
	      l.channel, (unsigned long long)l.row, l.rank, l.bank, (unsigned long long)l.column);
	g.mem_bytes = 0;
	CHECK(vgeom_dram_locate(&g, 0, &l) == -1, "unknown memory size: no map");
}

/* Whether the L2 keeps part of an LLC-level chase set, from the pages'
 * colours: 256 KiB 8-way L2 = 512 sets, a 4 KiB page covers 64 of them, so
 * 8 colours.  A 512 KiB set (128 pages) is twice the L2: by size "apart".
 * 16 pages of each colour: every set gets 16 lines > 8, all lost.  Colour 0
 * with only 8 pages (the other 120 over colours 1-7): its 512 lines stay in
 * their sets (8 lines, 8 ways), the L2 keeps them. */
static void test_l2_colours(void)
{
	static uint64_t line[128 * 64];
	static uint8_t map[128 * 64];
	for (int p = 0; p < 128; p++)
		for (int l = 0; l < 64; l++)
			line[p * 64 + l] = (uint64_t)(1000 + p) * 64 + l;   /* frame 1000 + p: colour p % 8 */
	CHECK_EQ_INT(overfull_lines(line, 8192, 512, 8, map), 8192, "16 pages a colour: every line lost");
	/* Frames: 8 of colour 0, then 120 spread over colours 1..7. */
	int k = 0;
	for (int p = 0; p < 8; p++)
		for (int l = 0; l < 64; l++)
			line[k++] = (uint64_t)(8 * p) * 64 + l;
	for (int p = 0; p < 120; p++)
		for (int l = 0; l < 64; l++)
			line[k++] = (uint64_t)(8 * (100 + p / 7) + 1 + p % 7) * 64 + l;
	long lost = overfull_lines(line, 8192, 512, 8, map);
	CHECK_EQ_INT(lost, 8192 - 512, "colour 0 with 8 pages: its 512 lines kept");
	CHECK(map[0] == 0 && map[511] == 0 && map[512] == 1, "the kept lines are colour 0's");
}

/* The idle baseline's spread with the prefetchers on: a background line
 * that misses brings the prefetchers' lines with it at once, so the kernel
 * window's own count is off the idle rate by up to that burst, not by one
 * line.  Bursts by hand: the line; DCU (req 1); streamer 20 ahead of the
 * request, else the adjacent pair 1; the pair behind 1 with the adjacent
 * prefetcher.  All on 1 + 21 + 1 = 23; streamer only 1 + 20 = 21; adjacent
 * only 1 + 1 + 1 = 3; the two DCU only 1 + 1 = 2; none 1.  (Measured before:
 * --quick --shape cores=4,llc=2M,noise=10M -k partial failed 2 of 5 runs,
 * CAS_COUNT.RD_REG 14 and 21 lines off the background with a spread of 4.) */
static void test_baseline_burst(void)
{
	struct vgeom g = geom_default();
	static const struct { unsigned dis; int prefetch; uint64_t burst; } t[] = {
		{ 0x0, 1, 23 }, { 0xe, 1, 21 }, { 0xd, 1, 3 }, { 0x3, 1, 2 }, { 0xf, 0, 1 },
		{ 0x0, 0, 1 },  /* --prefetch=off on a machine found with all on */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		g.pf_dis = t[i].dis;
		g.prefetch = t[i].prefetch;
		CHECK(pf_burst(&g) == t[i].burst, "pf_burst, MSR 0x1A4 0x%x, prefetch %d: %llu, want %llu",
		      t[i].dis, t[i].prefetch, (unsigned long long)pf_burst(&g),
		      (unsigned long long)t[i].burst);
	}
	/* One event at 1 line per microsecond (rate spread 0), a window of
	 * 100 us: background 100 lines, spread the burst. */
	struct vctx *c = calloc(1, sizeof(*c));
	struct vevents *e = calloc(1, sizeof(*e));
	if (!c || !e) {
		CHECK(0, "calloc");
		free(c);
		free(e);
		return;
	}
	c->g = geom_default();
	c->g.prefetch = 1;
	e->n = 1;
	e->based = 1;
	e->rate[0] = 1e-3;
	vbase_scale(c, e, 100000);
	CHECK(fabs(e->bgsub[0] - 100) < 1e-9, "background %g, want 100", e->bgsub[0]);
	CHECK(fabs(e->bgsp[0] - 23) < 1e-9, "spread %g, want 23 (all four prefetchers on)", e->bgsp[0]);
	c->g.pf_dis = 0xf;
	c->g.prefetch = 0;
	vbase_scale(c, e, 100000);
	CHECK(fabs(e->bgsp[0] - 1) < 1e-9, "spread %g, want 1 (prefetchers off)", e->bgsp[0]);
	free(c);
	free(e);
}

/* A window without machine time: a metric over it has no value, known only
 * once the window ran, so each such check FAILs naming the cause, never a
 * skip (it was one skip for all the window's metrics).  The runner's
 * window without events (which calls the checks with 0 s) stands for one
 * whose time read 0: two bandwidth metrics of equal reasons, two FAILs. */
static void test_no_machine_time(void)
{
	struct vctx *c = calloc(1, sizeof(*c));
	struct vxset *x = calloc(1, sizeof(*x));
	if (!c || !x) {
		CHECK(0, "calloc");
		free(c);
		free(x);
		return;
	}
	c->g = geom_default();
	vx_init(x);
	struct vxwin *w = vx_win(x);
	const int none[1] = { 0 };
	const struct vxterm t = vx_term(none, 0);
	for (int i = 0; w && i < 2; i++) {
		struct vxck *m = vx_metric(w, "MEM_BW_READS", i ? "s1" : "s0", &t, 1, 6400,
					   (struct vband){ 0.9, 1.1, "test band" });
		CHECK(m != NULL, "metric check %d made", i);
		if (!m)
			break;
		m->over_s = 1;
		m->s_k = 1;
		m->s_div = 1e9;
		m->s_mul = 1;
		snprintf(m->nosec, sizeof(m->nosec), "k: bandwidth metrics: no machine time for the window");
	}
	const struct vxkern kern = { NULL, NULL, NULL, 0 };
	int rc = vx_run(c, "k", x, &kern, NULL);
	CHECK_EQ_INT(rc, 0, "vx_run");
	CHECK_EQ_INT(c->nskipped, 0, "no machine time: nothing skipped");
	CHECK_EQ_INT(c->checks.n, 2, "no machine time: a check per metric");
	for (size_t i = 0; i < c->checks.n; i++) {
		const struct vcheck *k = &c->checks.v[i];
		CHECK(strcmp(vcheck_result(k), "FAIL") == 0, "check %zu: %s, want FAIL", i, vcheck_result(k));
		CHECK(isnan(k->measured), "check %zu: measured %g, want no value", i, k->measured);
		CHECK(strstr(k->why, "no machine time for the window (machine time 0 s") != NULL,
		      "check %zu names the cause: \"%s\"", i, k->why);
	}
	vchecks_free(&c->checks);
	free(x);
	free(c);
}

int main(void)
{
	test_l2_colours();
	test_no_machine_time();
	test_address_maps();
	test_stream();
	test_chase();
	test_prefetch();
	test_small_llc();
	test_dgemm();
	test_dgemm_ways();
	test_checks();
	test_baseline_burst();
	return check_done("test_vexpect");
}
