/*
 * exp_chase.c - the pointer chase: one random cycle (Sattolo) over working
 * sets sized for L1, L2, the LLC and 8 x the LLC, in two orders:
 *   line  every hop goes to any line of the set (a random n-cycle of lines);
 *   page  pages in a random cycle, and within each page its 64 lines in a
 *         random cycle, all of a page before the next (few TLB pages live).
 * Each variant checks that the cycle visits every element once.  Per hop,
 * after a warm-up pass: CBo LLC lookups (sum and per slice), TOR miss
 * inserts, iMC CAS reads, offcore demand reads served by the LLC and by
 * DRAM, against chase_expect().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vmetric.h"
#include "vbase.h"
#include "vrun.h"

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64*: a fixed seed gives the same cycle every run. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* Sattolo: a uniformly random single cycle over 0..n-1, as succ[]. */
static void sattolo(uint32_t *succ, uint32_t n, uint64_t *seed)
{
	for (uint32_t i = 0; i < n; i++)
		succ[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(rnd(seed) % i);
		uint32_t t = succ[i];
		succ[i] = succ[j];
		succ[j] = t;
	}
}

/* Link the elements of x (n lines) into one cycle; page: page-randomised. */
static int chase_build(struct chase_el *x, uint32_t n, int page, uint64_t run_seed, char *why,
		       size_t len)
{
	/* --seed 1 (the default) gives the orders of the suite's first runs. */
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ n ^ ((uint64_t)page << 40) ^
			((run_seed - 1) * 0xd1b54a32d192ed03ull);
	if (!seed)
		seed = 1;
	uint32_t *order = malloc(sizeof(*order) * n);
	uint32_t *succ = malloc(sizeof(*succ) * n);
	if (!order || !succ) {
		free(order);
		free(succ);
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (!page || n < 128) {
		sattolo(succ, n, &seed);
		uint32_t e = 0;
		for (uint32_t k = 0; k < n; k++, e = succ[e])
			order[k] = e;
	} else {
		uint32_t np = n / 64, in[64], k = 0;
		sattolo(succ, np, &seed);
		for (uint32_t p = 0, i = 0; i < np; i++, p = succ[p]) {
			sattolo(in, 64, &seed);
			for (uint32_t l = 0, m = 0; m < 64; m++, l = in[l])
				order[k++] = p * 64 + l;
		}
		for (uint32_t r = np * 64; r < n; r++)     /* partial last page */
			order[k++] = r;
	}
	for (uint32_t k = 0; k < n; k++)
		x[order[k]].next = &x[order[(k + 1) % n]];
	free(order);
	free(succ);

	/* Visited-every-element check: n hops from element 0 mark n distinct
	 * elements and come back to 0. */
	unsigned char *seen = calloc(n, 1);
	if (!seen) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	struct chase_el *p = &x[0];
	uint32_t distinct = 0;
	for (uint32_t h = 0; h < n; h++) {
		size_t i = (size_t)(p - x);
		if (i >= n || seen[i])
			break;
		seen[i] = 1;
		distinct++;
		p = p->next;
	}
	free(seen);
	if (distinct != n || p != &x[0]) {
		snprintf(why, len, "cycle visits %u of %u elements", distinct, n);
		return -1;
	}
	return 0;
}

struct carg {
	struct karr *x;
	uint64_t hops;
	struct chase_el *end;
};

static void chase_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct carg *a = arg;
	(void)t;
	(void)n;
	a->end = KCALL(c, chase, f, a->x, (struct chase_el *)a->x->host, a->hops);
}

/* Run a->hops hops from element 0; whole passes must end where they began. */
static int run_pass(struct vctx *c, struct carg *a)
{
	int rc = vpar(c, 1, c->cpus, chase_work, a);
	uint64_t n = a->x->bytes / 64;
	if (rc == 0 && !c->planning && a->hops % n == 0 && a->end != (struct chase_el *)a->x->host) {
		snprintf(c->err, sizeof(c->err), "chase did not come back to its start");
		rc = -1;
	}
	return rc;
}

/* The set's physical line numbers (physical address / 64), line i for its
 * i-th 64 bytes, from the machine's page table (pmon_sim_mem_translate, as
 * /proc/self/pagemap would give them on Linux); malloc'd, NULL if unknown. */
static uint64_t *phys_lines(struct vctx *c, const struct karr *x)
{
	uint64_t n = x->bytes / 64;
	uint64_t *line = malloc(sizeof(*line) * (n ? n : 1));
	if (!line || !c->sim) {
		free(line);
		return NULL;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t pa;
		if (pmon_sim_mem_translate(c->sim, x->vbase + i * 64, &pa) != 0) {
			free(line);
			return NULL;
		}
		line[i] = pa / 64;
	}
	return line;
}

/* Lines of the set that a private cache (sets x ways, set = physical line
 * mod sets: the emulated machine's documented indexing) cannot keep: a set
 * that receives more lines than it has ways loses every one of them on each
 * pass of a cyclic chase under LRU; the others stay.  -1 if unknown. */
static long priv_conflicts(const uint64_t *line, uint64_t n, uint64_t sets, int ways, uint8_t *map)
{
	if (sets & (sets - 1))
		return -1;
	return overfull_lines(line, n, sets, ways, map);
}

/* Lines of the set that the LLC cannot keep: the documented slice hash
 * (vgeom_llc_slice, computed from its formula) and set = line mod sets, sets = llc / cores / 64 /
 * ways (whole sets); a set that receives more lines than ways loses every
 * one of them on each pass of a cyclic chase under LRU.  Each line's LLC set
 * of all slices is slice * sets + its set, one cache of cores * sets sets
 * for overfull_lines.  -1 if unknown. */
static long llc_conflicts(const struct vgeom *g, const uint64_t *line, uint64_t n, uint8_t *lostmap)
{
	uint64_t sets = g->llc_bytes / (uint64_t)g->cores / 64 / (uint64_t)g->llc_ways;
	uint64_t *cell = malloc(sizeof(*cell) * (n ? n : 1));
	long lost = -1;
	if (!cell || sets == 0) {
		free(cell);
		return -1;
	}
	for (uint64_t i = 0; i < n; i++) {
		int sl = vgeom_llc_slice(g, line[i] * 64);
		if (sl < 0 || sl >= g->cores) {
			free(cell);
			return -1;
		}
		cell[i] = (uint64_t)sl * sets + line[i] % sets;
	}
	lost = overfull_lines(cell, n, sets * (uint64_t)g->cores, g->llc_ways, lostmap);
	free(cell);
	return lost;
}

/* Of the first hops hops from element 0 that land on lines of within (all
 * if NULL), the share on lines of lostmap. */
static double lost_share(const struct karr *x, const uint8_t *lostmap, const uint8_t *within,
			 uint64_t hops)
{
	const struct chase_el *base = x->host, *p = base;
	uint64_t k = 0, d = 0;
	for (uint64_t h = 0; h < hops; h++, p = p->next) {
		k += lostmap[p - base];
		d += within ? within[p - base] : 1;
	}
	return d ? (double)k / (double)d : 0;
}

/* Latency from the TOR: occupancy summed every cycle over inserts of the
 * same kind is the mean time an entry lives.  LLC level: demand reads that
 * hit (OPCODE DRd), the LLC's latency; memory level: those that miss
 * (MISS_OPCODE DRd), local or remote DRAM's.  One more measured pass. */
static int chase_latency(struct vctx *c, const char *kname, enum chase_level lvl, int remote,
			 struct carg *a, double inserts, const uint8_t *lostmap, const uint8_t *within,
			 double keep)
{
	int nc = c->g.cores, occ[8], ins[8], rc;
	const char *kind = lvl == CL_LLC ? "OPCODE" : "MISS_OPCODE";
	enum vsup sup = lvl == CL_LLC ? VSUP_LLC : remote ? VSUP_RDRAM : VSUP_DRAM;
	struct vevents e;
	double t0, t1;
	char what[96];

	if (c->g.lat_ns[sup] <= 0 || c->g.uclk_hz <= 0) {
		vskip(c, "chase latency: the machine's documented latency is not known");
		vskip(c, "chase: the TOR latency metric not computed either (no documented latency)");
		return 0;
	}
	if (inserts <= 0) {
		vskip(c, "%s latency: no hop reaches the LLC (the set fits the L2's sets), nothing to time",
		      kname);
		vskip(c, "%s: AVG_TOR_DRD_LATENCY not computed either (nothing reaches the LLC)", kname);
		return 0;
	}
	vev_init(&e, c->m);
	/* UNCORE_FREQUENCY of the latency metric: the UBox clock (fixed) */
	int uclk = vadd(c, &e, kname, "snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=%d", c->o.socket);
	if (uclk == -2) {
		vev_free(&e);
		return -1;
	}
	for (int i = 0; i < nc; i++) {
		occ[i] = vadd(c, &e, kname, "snbep_unc_cbo%d::UNC_C_TOR_OCCUPANCY:%s:OPC_DRD:socket=%d",
			      i, kind, c->o.socket);
		ins[i] = vadd(c, &e, kname, "snbep_unc_cbo%d::UNC_C_TOR_INSERTS:%s:OPC_DRD:socket=%d",
			      i, kind, c->o.socket);
		if (occ[i] == -2 || ins[i] == -2) {
			vev_free(&e);
			return -1;
		}
	}
	/* The mean needs no whole pass: at most 64K hops (a memory-sized set
	 * misses on every one of them as in the full pass). */
	struct carg part = *a;
	if (part.hops > 65536)
		part.hops = 65536;
	rc = vwin_start(c, &e, &t0);
	uint64_t m0 = rc == 0 && e.s ? pmon_session_read_ns(e.s) : 0;
	if (rc == 0)
		rc = run_pass(c, &part);
	if (rc == 0)
		rc = vwin_stop(c, &e, 0, NULL, 0, &t1);
	if (rc == 0) {
		/* Each insert adds its lifetime, the supplier's latency in
		 * UCLK cycles rounded to a whole cycle. */
		double want = round(c->g.lat_ns[sup] * c->g.uclk_hz * 1e-9);
		struct vband b = c->hw ? (struct vband){ 0.75, 1.25,
			"silicon: queueing and the DRAM page state move the loaded latency" }
			: (struct vband){ 1, 1, "every insert lives the supplier's documented latency" };
		if (lostmap && c->g.lat_ns[VSUP_DRAM] > 0) {
			/* LLC level with overfull LLC sets: the share f of this
			 * window's hops on their lines misses and lives the
			 * DRAM latency.  A cache that keeps up to keep of the
			 * hops (a policy other than LRU) moves f by that much. */
			double lm = round(c->g.lat_ns[VSUP_DRAM] * c->g.uclk_hz * 1e-9), l0 = want;
			double f = lost_share(a->x, lostmap, within, part.hops);
			double flo = f - keep > 0 ? f - keep : 0, fhi = f / (1 - keep) < 1 ? f / (1 - keep) : 1;
			want = l0 + f * (lm - l0);
			b.lo = (l0 + flo * (lm - l0)) / want;
			b.hi = (l0 + fhi * (lm - l0)) / want;
			b.why = "hits live the LLC's latency, misses of overfull LLC sets DRAM's: mixed by "
				"the window's share of those lines";
		}
		snprintf(what, sizeof(what), "TOR_OCC/TOR_INSERTS.%s(DRd) s%d latency", kind, c->o.socket);
		vcheck_quot(c, &e, kname, what, "UCLK", occ, ins, nc, want, b);
		/* The guide's latency metric in ns (pmon stat -M tor_latency):
		 * the same quotient through UNCORE_FREQUENCY, the UBox's UCLK
		 * over the window's machine time; expected: the emulated
		 * machine's latency setting (in whole UCLK cycles).  The UBox
		 * starts and stops apart from the CBos, and the emulated clock
		 * follows the host's in 10 us steps: 1 ms of the window's time
		 * more either way (50 us held on an idle host; the ASan build
		 * of make check-asan took 60-100 us). */
		double sec = c->planning ? 1 : vmetric_seconds(&e, m0);
		if (sec > 0) {
			char where[32];
			double tol = 1e-3 / sec;
			struct vband bm = { b.lo - tol, b.hi + tol, b.lo == 1 && b.hi == 1 ?
				"every insert lives the documented latency; UNCORE_FREQUENCY from the UBox "
				"clock over the window (its start and stop apart from the CBos', up to 1 ms)" : b.why };
			snprintf(where, sizeof(where), "s%d all CBo", c->o.socket);
			vcheck_metric(c, &e, kname, lvl == CL_LLC ? "AVG_TOR_DRD_LATENCY" : "AVG_TOR_DRD_MISS_LATENCY",
				      where, (struct vmterm[]){ { .idx = occ, .n = nc }, { .idx = ins, .n = nc }, { .idx = &uclk, .n = 1 } }, 3, sec,
				      want / c->g.uclk_hz * 1e9, bm);
		} else {
			vskip(c, "%s latency metric: no machine time for the window", kname);
		}
	}
	vev_free(&e);
	return rc;
}

/* The LLC miss percentage (the guide's LLC_DRD_MISS_PCT, pmon stat -M llc)
 * of the chase: data-read lookups in state I over lookups in any state.
 * The two need different values of the CBo's one state filter, so they are
 * never counted together: ALL is the main window's lookups (lk, any state),
 * MISS one more window of the chase counting state I on every CBo: an LLC
 * set one whole pass from where the main window's whole passes left the
 * caches (its overfull sets miss as there, and it leaves them as it found
 * them, for the latency's window); a memory set the main window again
 * (its hops from clean caches: with the prefetchers the lines fetched
 * ahead follow the order and the start, so only the same hops from the
 * same state look the lines up as often).  Each window's count per hop, as
 * pmon_mset scales each pass by its share of the time.
 * Expected: the window's misses per hop over the lookups per hop (the
 * working set against the LLC: a memory set misses every lookup, an LLC
 * set only on lines of its overfull sets); the band from the bands of the
 * two counts (lb: lookups, mb: misses).  --break=state counts state E
 * instead of I. */
struct llcpct {
	double lookups, misses;       /* nominal per hop: lookups (main window), misses */
	struct vband lb, mb;
	const uint8_t *lostmap;       /* lines of overfull LLC sets, or NULL */
	double zero;                  /* per-hop bound of a count expected 0 */
	const char *skip;             /* not checked, why (NULL: checked) */
	int mem;                      /* a memory set (else an LLC set) */
};

static int chase_llc_miss(struct vctx *c, const char *kname, struct carg *a, struct vevents *e1,
			  const int *lk, int nc, const struct llcpct *p)
{
	struct vevents e;
	int miss[8], rc, brk = c->o.brk == VB_STATE;
	double t0, t1;
	char where[32];

	if (p->skip) {
		vskip(c, "%s LLC_DRD_MISS_PCT: not checked: %s", kname, p->skip);
		return 0;
	}
	if (p->lookups <= 0) {
		vskip(c, "%s LLC_DRD_MISS_PCT: no lookup reaches the LLC (the set fits the L2's sets): "
		      "no value (n/a)", kname);
		return 0;
	}
	vev_init(&e, c->m);
	for (int i = 0; i < nc; i++) {
		miss[i] = vadd(c, &e, kname, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:%s:socket=%d", i,
			       brk ? "STATE_E" : "STATE_I", c->o.socket);
		if (miss[i] == -2) {
			vev_free(&e);
			return -1;
		}
		if (brk && miss[i] >= 0)
			vev_mark_broken(&e, miss[i]);
	}
	struct carg part = *a;
	struct karr *xs[1] = { a->x };
	(void)t1;
	if (!p->mem)
		part.hops = a->x->bytes / 64;
	if ((p->mem && (rc = vwin_clean(c, xs, 1))) || (rc = vwin_start(c, &e, &t0)) ||
	    (rc = run_pass(c, &part)) || (rc = vwin_stop(c, &e, 0, NULL, 0, &t1))) {
		vev_free(&e);
		return rc;
	}
	double m = p->misses;
	if (p->lostmap)
		m = lost_share(a->x, p->lostmap, NULL, part.hops);
	double want = 100 * m / p->lookups;
	struct vband b = { p->mb.lo / p->lb.hi, 1, "" };
	static char why[160];
	if (m > 0) {
		/* the emulated machine repeats the same hops from the same
		 * state: the state-I lookups are some of all, at most 100% */
		b.hi = p->mb.hi / p->lb.lo;
		if (!c->hw && b.hi > p->lookups / m)
			b.hi = p->lookups / m;
		snprintf(why, sizeof(why), "%s set: state-I lookups over all, each per hop of its window; "
			 "band from the two counts' bands%s",
			 p->lostmap ? "overfull LLC sets of an LLC" : "memory", c->hw ? "" : ", at most 100%");
	} else {
		b.hi = p->lb.lo > 0 ? 100 * p->zero / (p->lookups * p->lb.lo) : INFINITY;
		snprintf(why, sizeof(why), "LLC set, no overfull LLC set: every lookup hits");
	}
	b.why = why;
	snprintf(where, sizeof(where), "s%d all CBo", c->o.socket);
	vcheck_metric(c, &e, kname, "LLC_DRD_MISS_PCT", where,
		      (struct vmterm[]){ { miss, nc, &e, (double)part.hops }, { lk, nc, e1, (double)a->hops } },
		      2, 1, want, b);
	vev_free(&e);
	return 0;
}

/* The adjacent-line prefetcher alone, page-randomised order: the share of
 * hops that are demand misses of the L2 (pf_page_demand over each page's
 * visiting order, the cycle walked from element 0 as the kernel walks it).
 * -1 if the set's pages are not whole pages of the machine. */
static double pf_demand_share(const struct karr *x, uint32_t n)
{
	const struct chase_el *base = x->host, *p = base;
	uint8_t ord[64];
	int m = 0;
	uint64_t page = UINT64_MAX, demand = 0;
	if (x->vbase % 4096 || n % 64)
		return -1;
	for (uint32_t h = 0; h <= n; h++, p = p->next) {
		uint64_t i = (uint64_t)(p - base);
		if (h == n || i / 64 != page || m == 64) {
			demand += (uint64_t)pf_page_demand(ord, m);
			m = 0;
			page = i / 64;
		}
		ord[m++] = (uint8_t)(i % 64);
	}
	return (double)demand / n;
}

/* A check the shape makes meaningless: recorded as skipped, with its reason
 * and the measured value (events idx[0..n) summed, divided by per). */
static void skip_meas(struct vctx *c, const struct vevents *e, const char *kname, const char *what,
		      const int *idx, int n, double per, const char *why, int checks)
{
	for (int i = 0; i < n; i++)
		if (idx[i] < 0)
			return;
	vskip_n(c, checks, "%s %s: not checked (measured %.4g per hop): %s", kname, what,
		vev_sum(e, idx, n, NULL) / per, why);
}

static int chase_one(struct vctx *c, enum chase_level lvl, int page, int home)
{
	uint64_t ws = chase_ws_bytes(&c->g, lvl);
	uint32_t n = (uint32_t)(ws / 64);
	int remote = home != c->o.socket;
	char kname[40], what[96];
	struct karr x;
	int rc, cpu = c->cpus[0], s = home, nc = c->g.cores, ch = c->g.channels;
	uint8_t *lostmap = NULL;     /* lines of overfull LLC sets */
	uint8_t *reachmap = NULL;    /* lines that reach the LLC (overfull L2 or LLC sets) */

	snprintf(kname, sizeof(kname), "chase-%s-%s%s", page ? "page" : "line",
		 chase_level_name[lvl], remote ? "-remote" : "");
	/* The inclusive LLC holds whatever the cores' caches hold: an L1 or
	 * L2 set that is not at most a quarter of the LLC is not served by
	 * that cache.  At least twice the LLC it is a memory set (every hop
	 * misses, as the memory level's); in between, LLC conflicts decide. */
	enum chase_level suite = lvl;
	int eff = chase_level_of(&c->g, ws);
	if (lvl < CL_LLC && ws <= c->g.llc_bytes / 4) {
		/* the cache's own level (or the transitions handled below) */
	} else if (lvl < CL_LLC && eff == CL_MEM) {
		lvl = CL_MEM;
		vprogress(c, "  %s: the set (%llu KiB) is at least twice the LLC: a memory set\n", kname,
			  (unsigned long long)(ws >> 10));
	} else if (lvl < CL_LLC) {
		/* The level's five checks: lookups, TOR misses, DRAM reads,
		 * demand responses from the LLC and from DRAM. */
		vskip_n(c, 5, "%s: not run: its %s/2 set (%llu KiB) exceeds a quarter of the LLC (%llu KiB) "
		      "and is under twice it: LLC conflicts decide what the core keeps", kname,
		      lvl == CL_L1 ? "L1" : "L2", (unsigned long long)(ws >> 10),
		      (unsigned long long)(c->g.llc_bytes >> 10));
		return 0;
	}
	if ((rc = varr_alloc(c, &x, ws, VP_SOCKET, home)) != 0)
		return rc;
	if (chase_build(x.host, n, page, c->o.seed, c->err, sizeof(c->err)) != 0) {
		varr_free(c, &x);
		return -1;
	}
	/* Enough passes for at least ~1M hops in the small sets (quick: 64K). */
	uint64_t passes = (c->o.quick ? 65536 : 1048576) / n;
	passes = passes < 1 ? 1 : passes > 64 ? 64 : passes;
	struct carg a = { &x, (uint64_t)n * passes, NULL };
	double w0 = vnow_ns(), t0, t1;

	/* Warm-up: one pass fills the caches that can hold the set.  The
	 * memory level needs none: from clean caches every hop misses, as it
	 * does in any later pass. */
	struct carg warm = { &x, n, NULL };
	if ((rc = vwin_clean(c, (struct karr *const[]){ &x }, 1)) ||
	    (lvl != CL_MEM && (rc = run_pass(c, &warm))))
		goto out;

	struct vevents e;
	int lk[8], tor[8], cas[4], ofl = -1, ofd = -1;
	vev_init(&e, c->m);
	for (int i = 0; i < nc; i++) {
		lk[i] = vadd(c, &e, kname, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:socket=%d", i,
			     c->o.socket);
		tor[i] = vadd(c, &e, kname, "snbep_unc_cbo%d::UNC_C_TOR_INSERTS:MISS_OPCODE:OPC_DRD:socket=%d",
			      i, c->o.socket);
		if (lk[i] == -2 || tor[i] == -2) {
			rc = -1;
			goto out_ev;
		}
	}
	for (int i = 0; i < ch; i++)
		if ((cas[i] = vadd(c, &e, kname, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d", i, s)) == -2) {
			rc = -1;
			goto out_ev;
		}
	ofl = vadd(c, &e, kname, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITMESF:cpu=%d", cpu);
	ofd = vadd(c, &e, kname, "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:%s:cpu=%d",
		   remote ? "LLC_MISS_REMOTE_DRAM" : "LLC_MISS_LOCAL_DRAM", cpu);
	if (ofl == -2 || ofd == -2) {
		rc = -1;
		goto out_ev;
	}
	int wrap = c->o.brk == VB_WRAP && suite == CL_MEM && !page && !remote && lk[0] >= 0;
	uint64_t handled = 0;
	/* Breakage "wrap": CBo0's lookup counter starts half its expected
	 * count below the top of its width. */
	/* The idle windows before the preset (they start the counters). */
	if (wrap && (rc = vbase_idle(c, &e)))
		goto out_ev;
	if (wrap && (rc = vbreak_wrap_preset(c, &e, lk[0], a.hops / (2 * (uint64_t)nc) + 1))) {
		snprintf(c->err, sizeof(c->err), "breakage wrap: preset: %s", pmon_strerror(rc));
		goto out_ev;
	}
	if ((rc = vwin_start(c, &e, &t0)) || (rc = run_pass(c, &a)) ||
	    (rc = vwin_stop(c, &e, 0, NULL, 0, &t1)))
		goto out_ev;
	if (wrap && (rc = vbreak_wrap_apply(c, &e, lk[0], &handled))) {
		snprintf(c->err, sizeof(c->err), "breakage wrap: read: %s", pmon_strerror(rc));
		goto out_ev;
	}

	double hops = (double)a.hops, lookups, misses, dram;
	chase_expect(lvl, &lookups, &misses, &dram);
	/* The L2 level: lines of overfull L2 sets miss L2 on every pass and
	 * hit the LLC (page colouring: L2 is indexed by physical address).
	 * An LLC level whose set is not apart from the L2 (LLC/4 below twice
	 * the L2, on a small LLC) is counted the same way: the L2 then decides
	 * which lines reach the LLC. */
	int derived = lvl == CL_L1 || lvl == CL_L2 ||
		      (lvl == CL_LLC && chase_level_of(&c->g, ws) != CL_LLC);
	/* The prefetchers: an L2 miss may fetch more lines of its page (its
	 * pair, the streamer's lines ahead, the DCU's next line or stride);
	 * how many depends on the order of the hops and on what the L2 holds,
	 * so the counts a miss drives are bounded, not derived (the set spans
	 * whole pages, so the fetched lines are the set's own). */
	int l2miss = lvl >= CL_LLC;
	const char *pfwhy = "prefetchers on: the lines fetched with L2 misses depend on the chase order";
	/* The same holds of the LLC (inclusive, so an LLC eviction takes the
	 * core's copy too): lines of LLC sets that receive more lines than
	 * ways (few ways, or few sets in a small LLC) miss it on every pass,
	 * at any level; the others stay. */
	long lost = 0, llost = 0, reach = 0;
	/* While planning the pages have no frames yet (taken at first
	 * touch): the plan counts the level as without conflicts; a check
	 * they turn into a skip (or back) keeps the step's total. */
	if (lvl != CL_MEM && c->sim && !c->planning) {
		uint64_t *line = phys_lines(c, &x);
		lostmap = calloc(n, 1);
		reachmap = calloc(n, 1);
		llost = line && lostmap && reachmap ? llc_conflicts(&c->g, line, n, lostmap) : -1;
		/* An LLC set apart from the L2 by size (at least twice it) may
		 * still leave some L2 sets with no more lines than ways (few
		 * pages of one colour): the L2 keeps those lines.  Decided
		 * from the page table: if any line is in such a set, the L2
		 * decides which lines reach the LLC, as above. */
		int llc_l2 = lvl == CL_LLC && !derived;
		if (llost >= 0 && (derived || llc_l2))
			lost = priv_conflicts(line, n, c->g.l2_bytes / 64 / (uint64_t)c->g.l2_ways,
					      c->g.l2_ways, reachmap);
		free(line);
		if (llost < 0 || lost < 0) {
			snprintf(c->err, sizeof(c->err), "chase: physical addresses of the set unknown");
			rc = -1;
			goto out_ev;
		}
		if (llc_l2 && lost < (long)n) {
			derived = 1;
			vprogress(c, "  %s: %ld of %u lines in L2 sets with at most %d lines: the L2 "
				  "keeps them\n", kname, (long)n - lost, n, c->g.l2_ways);
		} else if (llc_l2) {
			lost = 0;
			memset(reachmap, 0, n);
		}
		for (uint32_t i = 0; i < n; i++) {
			reachmap[i] |= lostmap[i];
			reach += reachmap[i];
		}
		if (derived) {
			lookups = (double)reach / n;
			l2miss = reach > 0;
		}
		misses = dram = (double)llost / n;
		if (lost > 0)
			vprogress(c, "  %s: %ld of %u lines in L2 sets with more than %d lines\n", kname,
				  lost, n, c->g.l2_ways);
		if (llost > 0)
			vprogress(c, "  %s: %ld of %u lines in LLC sets with more than %d lines\n", kname,
				  llost, n, c->g.llc_ways);
		else {
			free(lostmap);
			lostmap = NULL;
		}
	}
	/* On silicon the L2's indexing is unknown: a set not apart from the L2
	 * has no expected lookup count. */
	const char *nowhy = NULL;
	if (lvl == CL_LLC && derived && !c->sim)
		nowhy = "the LLC/4 working set is not at least twice the L2: the L2 keeps an unknown part";
	/* Page order with the prefetchers: the pages' lines are visited
	 * together and every prefetcher stays within the page, so each line
	 * enters the L2 once a pass, by its own demand miss or by a prefetch:
	 * lookups, misses and DRAM reads stay as without them.  The demand
	 * responses: with the adjacent-line prefetcher alone, the share of
	 * demand misses the order gives (pf_page_demand); with the others, at
	 * least the first line of each page (nothing fetched it) and at most
	 * every line. */
	double pfshare = -1, pflo = 1;
	/* Line order with the prefetchers (no conflict sets, emulated): which
	 * hops find their line fetched ahead depends on the order; lookups
	 * (and at the memory level TOR misses and DRAM reads) are 1 to
	 * chase_pf_line_hi per hop; the demand responses are not derived. */
	int pfbound = 0;
	if (l2miss && c->g.prefetch) {
		if (page && !derived && llost == 0 && c->g.pf_dis == 0xdu)
			pfshare = pf_demand_share(&x, n);
		else if (page && !derived && llost == 0 && n % 64 == 0) {
			pfshare = 1;
			pflo = 1.0 / 64;
		}
		pfbound = !page && !derived && llost == 0;
		if (pfshare <= 0 && !pfbound)
			nowhy = pfwhy;
	}
	struct vband one = chase_band_one(&c->g, lvl, ws, c->hw);
	if (pfbound)
		one = (struct vband){ one.lo, one.hi * chase_pf_line_hi(c->g.pf_dis, n),
				      "prefetchers on: each L2 miss fetches at most its pair, the "
				      "streamer 2 lines in the 32 pages it tracks, the DCU 2 on a "
				      "stride (chase_pf_line_hi; LRU; other policies keep <= size/WS)" };
	double zero = chase_zero_bound(c->hw);
	const char *zwhy = "set held by a nearer cache: no LLC/DRAM traffic after the warm-up";
	/* Line order, the demand responses: at most one a hop; a hop finds
	 * its line in the L2 (LLC level) or the LLC (memory level) only if the
	 * cache kept it, a prefetch or not: each cache keeps at most size/WS
	 * of what passed through it, and at most chase_pf_line_hi lines a hop
	 * pass. */
	double keep0 = 1 - chase_band_one(&c->g, lvl, ws, c->hw).lo;
	double pfkeep = chase_pf_line_hi(c->g.pf_dis, n) * keep0;
	struct vband pfd = { 1 - pfkeep > 0 ? 1 - pfkeep : 0, c->hw ? 1.30 : 1,
			     "prefetchers on: at most one demand a hop; the cache keeps at most "
			     "size/WS of the chase_pf_line_hi lines a hop brings" };
	/* Demand misses with the prefetchers: the share the page order gives;
	 * below it by what a cache of size/WS could keep across a pass. */
	struct vband pfb = { pflo < 1 ? pflo * one.lo : 1 - (1 - one.lo) / (pfshare > 0 ? pfshare : 1), 1,
			     pflo < 1 ? "prefetchers on, page order: each page's first line misses L2, "
					"the others as the prefetchers fetched them ahead"
				      : "adjacent line, page order: lines whose pair was fetched hit "
					"L2; demand misses as the order gives" };
	if (c->hw || pfb.lo < 0)
		pfb.lo = 0;

	/* Misses of overfull LLC sets: exact under LRU (the emulated machine
	 * documents true LRU: every line of such a set misses each pass, so
	 * their count is the lower bound there); on silicon a policy other
	 * than LRU may keep up to size/WS of the hops in L2. */
	double keep = c->hw ? 1 - chase_band_one(&c->g, lvl, ws, c->hw).lo : 0;
	/* Overfull L2 sets under LRU: exact. */
	struct vband conflict = { 1, 1, "lines of L2 sets holding more lines than ways miss L2 each pass (LRU)" };
	if (lvl == CL_LLC && derived)
		conflict.why = "LLC/4 set not apart from the L2: lines of L2 sets holding more lines "
			       "than ways miss L2 each pass (LRU)";
	if (llost > 0)
		conflict.why = "lines of L2 or LLC sets holding more lines than ways miss them each "
			       "pass (LRU, inclusive LLC)";
	struct vband mb = derived ? conflict : one;
	if (llost > 0 && !derived)
		mb = (struct vband){ 1 - keep * n / llost > 0 ? 1 - keep * n / llost : 0, 1,
				     "LLC sets holding more lines than ways lose them every pass (LRU)" };
	/* Both conflicts at once: an LLC eviction takes the core's copy and
	 * frees an L2 way, so an overfull L2 set may keep some of its lines.
	 * The lines of overfull LLC sets still miss both; the others of
	 * overfull L2 sets miss L2 at most every pass. */
	int mixed = derived && llost > 0 && reach > llost && !nowhy;
	const char *mixwhy = "LLC evictions free L2 ways: which lines of overfull L2 sets miss "
			     "depends on the order";
	snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d all CBo", c->o.socket);
	if (nowhy)
		skip_meas(c, &e, kname, what, lk, nc, hops, nowhy, 1);
	else if (mixed)
		vcheck_sum(c, &e, kname, what, "per hop", lk, nc, hops, lookups,
			   (struct vband){ (double)llost / reach, 1,
					   "lines of overfull LLC sets miss L2 and LLC each pass, of overfull "
					   "L2 sets at most (LRU)" });
	else if (lookups > 0 && derived)
		vcheck_sum(c, &e, kname, what, "per hop", lk, nc, hops, lookups, conflict);
	else if (lookups > 0)
		vcheck_sum(c, &e, kname, what, "per hop", lk, nc, hops, lookups, one);
	else
		vcheck_zero(c, &e, kname, what, "per hop", lk, nc, hops, zero, zwhy);
	/* The per-slice share: over the lines that reach the LLC each pass. */
	uint64_t slice_lines = derived ? (uint64_t)reach : n;
	struct vband sb = slice_band(&c->g, slice_lines, c->hw);
	if (pfbound && sb.lo > 0)
		sb = (struct vband){ sb.lo, chase_pf_line_hi(c->g.pf_dis, n) * sb.hi,
				     "prefetchers on: a slice's demand lookups within 5 standard "
				     "deviations, its prefetches at most chase_pf_line_hi - 1 as many" };
	if (lvl >= CL_LLC) {
		char swhy[160];
		snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d CBo0-%d", c->o.socket, nc - 1);
		if (!nowhy && sb.lo <= 0 && slice_lines == 0)
			snprintf(swhy, sizeof(swhy), "no line of the set misses the L2 (it fits the L2's "
				 "sets): no per-slice share");
		else if (!nowhy && sb.lo <= 0)
			snprintf(swhy, sizeof(swhy), "only %llu lines of the set miss the L2: too few for "
				 "a per-slice share", (unsigned long long)slice_lines);
		if (!nowhy && mixed)
			snprintf(swhy, sizeof(swhy), "%s", mixwhy);
		if (nowhy || sb.lo <= 0 || mixed)
			skip_meas(c, &e, kname, what, lk, nc, hops, nowhy ? nowhy : swhy, nc);
		for (int i = 0; i < nc && !nowhy && !mixed && sb.lo > 0; i++) {
			snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d CBo%d", c->o.socket, i);
			vcheck_sum(c, &e, kname, what, "per hop", &lk[i], 1, hops, lookups / nc, sb);
		}
		if (wrap && !nowhy) {
			/* The same counter as libpmon totals it across the wrap. */
			uint64_t naive = e.val[lk[0]];
			e.val[lk[0]] = handled;
			e.broken[lk[0]] = 0;
			snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d CBo0 across a wrap",
				 c->o.socket);
			vcheck_sum(c, &e, kname, what, "per hop", &lk[0], 1, hops, lookups / nc, sb);
			e.val[lk[0]] = naive;
			e.broken[lk[0]] = 1;
		}
	}
	/* The LLC level's set is in the LLC: a prefetched next line is the
	 * set's own and hits there too, so its misses stay 0. */
	const char *mwhy = lvl == CL_MEM || llost > 0 ? nowhy : NULL;
	snprintf(what, sizeof(what), "TOR_INSERTS.MISS_OPCODE(DRd) s%d", c->o.socket);
	if (mwhy)
		skip_meas(c, &e, kname, what, tor, nc, hops, mwhy, 1);
	else if (misses > 0)
		vcheck_sum(c, &e, kname, what, "per hop", tor, nc, hops, misses, mb);
	else
		vcheck_zero(c, &e, kname, what, "per hop", tor, nc, hops, zero, zwhy);
	snprintf(what, sizeof(what), "CAS_COUNT.RD s%d all ch", s);
	if (mwhy)
		skip_meas(c, &e, kname, what, cas, ch, hops, mwhy, 1);
	else if (dram > 0)
		vcheck_sum(c, &e, kname, what, "per hop", cas, ch, hops, dram, mb);
	else
		vcheck_zero(c, &e, kname, what, "per hop", cas, ch, hops, zero, zwhy);
	snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.LLC_HIT cpu%d", cpu);
	if (pfbound && lvl == CL_LLC)
		vcheck_sum(c, &e, kname, what, "per hop", &ofl, 1, hops, 1, pfd);
	else if (pfbound)
		vcheck_zero(c, &e, kname, what, "per hop", &ofl, 1, hops, pfkeep + zero,
			    "prefetchers on, memory set: the LLC keeps at most LLC/WS of the "
			    "chase_pf_line_hi lines a hop brings");
	else if (mixed)
		skip_meas(c, &e, kname, what, &ofl, 1, hops, mixwhy, 1);
	else if (nowhy && lvl != CL_MEM)
		skip_meas(c, &e, kname, what, &ofl, 1, hops, nowhy, 1);
	else if (lvl == CL_LLC && !derived && pfshare > 0)
		vcheck_sum(c, &e, kname, what, "per hop", &ofl, 1, hops, pfshare, pfb);
	else if (lvl == CL_LLC && !derived && llost > 0)
		vcheck_sum(c, &e, kname, what, "per hop", &ofl, 1, hops, 1 - misses,
			   (struct vband){ 1 - keep / (1 - misses), 1,
					   "hops on lines of LLC sets that keep them hit the LLC (LRU)" });
	else if (lvl == CL_LLC && !derived)
		vcheck_sum(c, &e, kname, what, "per hop", &ofl, 1, hops, 1, one);
	else if (derived && lookups - misses > 0)
		vcheck_sum(c, &e, kname, what, "per hop", &ofl, 1, hops, lookups - misses, conflict);
	else
		vcheck_zero(c, &e, kname, what, "per hop", &ofl, 1, hops,
			    lvl == CL_MEM ? 1 - one.lo + zero : zero,
			    lvl == CL_MEM ? "memory set: the LLC keeps at most LLC/WS of it"
					  : zwhy);
	snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.%s cpu%d", remote ? "REMOTE_DRAM" : "LOCAL_DRAM",
		 cpu);
	if (mwhy)
		skip_meas(c, &e, kname, what, &ofd, 1, hops, mwhy, 1);
	else if (pfbound && dram > 0)
		vcheck_sum(c, &e, kname, what, "per hop", &ofd, 1, hops, 1, pfd);
	else if (dram > 0 && pfshare > 0)
		vcheck_sum(c, &e, kname, what, "per hop", &ofd, 1, hops, pfshare, pfb);
	else if (dram > 0)
		vcheck_sum(c, &e, kname, what, "per hop", &ofd, 1, hops, dram, mb);
	else
		vcheck_zero(c, &e, kname, what, "per hop", &ofd, 1, hops, zero, zwhy);
	if (lvl >= CL_LLC) {
		/* the miss percentage: the bands of the two counts checked above */
		struct llcpct p = { lookups, misses, one, misses > 0 ? mb : one, lostmap, zero,
				    nowhy ? nowhy : mwhy, lvl == CL_MEM };
		if (mixed)
			p.lb = (struct vband){ (double)llost / reach, 1, "" };
		else if (derived)
			p.lb = conflict;
		if ((rc = chase_llc_miss(c, kname, &a, &e, lk, nc, &p)) != 0)
			goto out_ev;
	}
	vev_free(&e);
	/* Every TOR DRd entry, demand or prefetch, lives the supplier's
	 * latency: the quotient holds with the prefetcher on. */
	if (lvl >= CL_LLC && (mixed || (nowhy && llost > 0))) {
		vskip(c, "%s latency: not checked: %s", kname, mixed ? mixwhy : nowhy);
		vskip(c, "%s: the TOR latency metric not checked either", kname);
	} else if (lvl >= CL_LLC && (rc = chase_latency(c, kname, lvl, remote, &a, nowhy ? 1 : lookups,
						  nowhy ? NULL : lostmap, derived ? reachmap : NULL,
						  derived ? 0 : keep)) != 0)
		goto out;
	vprogress(c, "  %-24s %5.2f s  (%u lines = %.0f KiB, %.0f hops, %.1f ns/hop on this host%s)\n",
		  kname, (vnow_ns() - w0) * 1e-9, n, ws / 1024.0, hops, (t1 - t0) / hops,
		  c->sim ? " feeding the model" : "");
out_ev:
	vev_free(&e);
out:
	free(lostmap);
	free(reachmap);
	varr_free(c, &x);
	return rc;
}

int exp_chase(struct vctx *c)
{
	int rc = 0;
	for (int page = 0; page <= 1 && rc == 0; page++)
		for (int l = CL_L1; l <= CL_MEM && rc == 0; l++)
			rc = chase_one(c, (enum chase_level)l, page, vhome(c));
	/* NUMA: the memory-sized line chase with its set on the other socket. */
	if (rc == 0 && (c->o.kernels >> VK_NUMA & 1) && c->g.sockets > 1 && !c->o.place_remote &&
	    vremote_ok(c, "chase-line-mem-remote"))
		rc = chase_one(c, CL_MEM, 0, vremote(c));
	else if (rc == 0 && (c->o.kernels >> VK_NUMA & 1) && !c->o.place_remote)
		/* A memory chase's checks: lookups (total and per slice), TOR
		 * misses, DRAM reads, two demand responses, the miss
		 * percentage, the latency. */
		vskip_n(c, 7 + c->g.cores, "chase-line-mem-remote: one socket only, no remote memory");
	return rc;
}
