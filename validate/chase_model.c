/*
 * chase_model.c - what the pointer chase makes the memory hierarchy do,
 * per hop (xchase.h): the level that serves the set, the prefetchers and
 * the layout's conflicting sets decide each quantity and its band.  Every
 * generation's chase expectations read this; none touches a machine.
 */
#include <math.h>
#include <string.h>

#include "vexp.h"
#include "xchase.h"

static struct chase_q q_sum(double expected, struct vband b)
{
	return (struct chase_q){ CQ_SUM, expected, b, 0, b.why };
}

static struct chase_q q_zero(double bound, const char *why)
{
	return (struct chase_q){ CQ_ZERO, 0, { 0, 0, NULL }, bound, why };
}

static struct chase_q q_skip(const char *why)
{
	return (struct chase_q){ CQ_SKIP, 0, { 0, 0, NULL }, 0, why };
}

void chase_model_free(struct chase_model *m)
{
	chase_layout_free(&m->L);
}

int chase_model(const struct vgeom *g, const struct chase_case *k, struct vxset *x,
		struct chase_model *m)
{
	uint64_t ws = chase_ws_bytes(g, k->lvl);
	uint32_t n = (uint32_t)(ws / 64);
	int hw = k->hw, rl = chase_run_level(g, k->lvl);
	enum chase_level lvl = (enum chase_level)rl;
	char kname[40];

	memset(m, 0, sizeof(*m));
	chase_kname(k, kname, sizeof(kname));
	if (rl < 0) {
		snprintf(x->err, sizeof(x->err), "%s: not run (transition zone)", kname);
		return -1;
	}
	if (lvl != k->lvl)
		vx_note(x, "  %s: the set (%llu KiB) is at least twice the LLC: a memory set", kname,
			(unsigned long long)(ws >> 10));
	if (chase_layout(g, k, lvl, x, &m->L) != 0)
		return -1;
	m->lvl = lvl;
	m->n = n;
	m->hops = (double)k->hops;
	m->remote = k->home != k->socket;
	/* Breakage "wrap": a lookup counter starts half its expected count
	 * below the top of its width. */
	m->wrap = k->brk == VB_WRAP && k->lvl == CL_MEM && !k->page && !m->remote;

	double lookups, misses, dram;
	chase_expect(lvl, &lookups, &misses, &dram);
	int derived = m->L.derived;
	long llost = m->L.llost, reach = m->L.reach;
	/* The prefetchers: an L2 miss may fetch more lines of its page (its
	 * pair, the streamer's lines ahead, the DCU's next line or stride);
	 * how many depends on the order of the hops and on what the L2 holds,
	 * so the counts a miss drives are bounded, not derived (the set spans
	 * whole pages, so the fetched lines are the set's own). */
	int l2miss = lvl >= CL_LLC;
	const char *pfwhy = "prefetchers on: the lines fetched with L2 misses depend on the chase order";
	if (m->L.reachmap) {
		if (derived) {
			lookups = (double)reach / n;
			l2miss = reach > 0;
		}
		misses = dram = (double)llost / n;
	}
	/* On silicon the L2's indexing is unknown: a set not apart from the L2
	 * has no expected lookup count. */
	const char *nowhy = NULL;
	if (lvl == CL_LLC && derived && !k->sim)
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
	 * (and at the memory level misses and DRAM reads) are 1 to
	 * chase_pf_line_hi per hop; the demand responses are not derived. */
	int pfbound = 0;
	if (l2miss && g->prefetch) {
		if (k->page && !derived && llost == 0 && g->pf_dis == 0xdu)
			pfshare = k->base ? chase_pf_demand_share(k->base, k->vbase, n) : -1;
		else if (k->page && !derived && llost == 0 && n % 64 == 0) {
			pfshare = 1;
			pflo = 1.0 / 64;
		}
		pfbound = !k->page && !derived && llost == 0;
		if (pfshare <= 0 && !pfbound)
			nowhy = pfwhy;
	}
	m->pfhi = chase_pf_line_hi(g->pf_dis, n);
	struct vband one = chase_band_one(g, lvl, ws, hw);
	if (pfbound)
		one = (struct vband){ one.lo, one.hi * m->pfhi,
				      "prefetchers on: each L2 miss fetches at most its pair, the "
				      "streamer 2 lines in the 32 pages it tracks, the DCU 2 on a "
				      "stride (chase_pf_line_hi; LRU; other policies keep <= size/WS)" };
	double zero = chase_zero_bound(hw);
	const char *zwhy = "set held by a nearer cache: no LLC/DRAM traffic after the warm-up";
	/* Line order, the demand responses: at most one a hop; a hop finds
	 * its line in the L2 (LLC level) or the LLC (memory level) only if the
	 * cache kept it, a prefetch or not: each cache keeps at most size/WS
	 * of what passed through it, and at most chase_pf_line_hi lines a hop
	 * pass. */
	double keep0 = 1 - chase_band_one(g, lvl, ws, hw).lo;
	double pfkeep = m->pfhi * keep0;
	struct vband pfd = { 1 - pfkeep > 0 ? 1 - pfkeep : 0, hw ? 1.30 : 1,
			     "prefetchers on: at most one demand a hop; the cache keeps at most "
			     "size/WS of the chase_pf_line_hi lines a hop brings" };
	/* Demand misses with the prefetchers: the share the page order gives;
	 * below it by what a cache of size/WS could keep across a pass. */
	struct vband pfb = { pflo < 1 ? pflo * one.lo : 1 - (1 - one.lo) / (pfshare > 0 ? pfshare : 1), 1,
			     pflo < 1 ? "prefetchers on, page order: each page's first line misses L2, "
					"the others as the prefetchers fetched them ahead"
				      : "adjacent line, page order: lines whose pair was fetched hit "
					"L2; demand misses as the order gives" };
	if (hw || pfb.lo < 0)
		pfb.lo = 0;

	/* Misses of overfull LLC sets: exact under LRU (the emulated machine
	 * documents true LRU: every line of such a set misses each pass, so
	 * their count is the lower bound there); on silicon a policy other
	 * than LRU may keep up to size/WS of the hops in L2. */
	double keep = hw ? 1 - chase_band_one(g, lvl, ws, hw).lo : 0;
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

	if (nowhy)
		m->lookups = q_skip(nowhy);
	else if (mixed)
		m->lookups = q_sum(lookups, (struct vband){ (double)llost / reach, 1,
				   "lines of overfull LLC sets miss L2 and LLC each pass, of overfull "
				   "L2 sets at most (LRU)" });
	else if (lookups > 0 && derived)
		m->lookups = q_sum(lookups, conflict);
	else if (lookups > 0)
		m->lookups = q_sum(lookups, one);
	else
		m->lookups = q_zero(zero, zwhy);
	/* The LLC level's set is in the LLC: a prefetched next line is the
	 * set's own and hits there too, so its misses stay 0. */
	const char *mwhy = lvl == CL_MEM || llost > 0 ? nowhy : NULL;
	m->misses = mwhy ? q_skip(mwhy) : misses > 0 ? q_sum(misses, mb) : q_zero(zero, zwhy);
	m->dram = mwhy ? q_skip(mwhy) : dram > 0 ? q_sum(dram, mb) : q_zero(zero, zwhy);
	if (pfbound && lvl == CL_LLC)
		m->llc_hit = q_sum(1, pfd);
	else if (pfbound)
		m->llc_hit = q_zero(pfkeep + zero, "prefetchers on, memory set: the LLC keeps at most "
				    "LLC/WS of the chase_pf_line_hi lines a hop brings");
	else if (mixed)
		m->llc_hit = q_skip(mixwhy);
	else if (nowhy && lvl != CL_MEM)
		m->llc_hit = q_skip(nowhy);
	else if (lvl == CL_LLC && !derived && pfshare > 0)
		m->llc_hit = q_sum(pfshare, pfb);
	else if (lvl == CL_LLC && !derived && llost > 0)
		m->llc_hit = q_sum(1 - misses, (struct vband){ 1 - keep / (1 - misses), 1,
				   "hops on lines of LLC sets that keep them hit the LLC (LRU)" });
	else if (lvl == CL_LLC && !derived)
		m->llc_hit = q_sum(1, one);
	else if (derived && lookups - misses > 0)
		m->llc_hit = q_sum(lookups - misses, conflict);
	else
		m->llc_hit = q_zero(lvl == CL_MEM ? 1 - one.lo + zero : zero,
				    lvl == CL_MEM ? "memory set: the LLC keeps at most LLC/WS of it" : zwhy);
	if (mwhy)
		m->dram_hit = q_skip(mwhy);
	else if (pfbound && dram > 0)
		m->dram_hit = q_sum(1, pfd);
	else if (dram > 0 && pfshare > 0)
		m->dram_hit = q_sum(pfshare, pfb);
	else if (dram > 0)
		m->dram_hit = q_sum(dram, mb);
	else
		m->dram_hit = q_zero(zero, zwhy);

	m->nlookups = lookups;
	m->nmisses = misses;
	m->zero = zero;
	m->keep = keep;
	m->one = one;
	m->mb = mb;
	m->conflict = conflict;
	m->nowhy = nowhy;
	m->mwhy = mwhy;
	m->mixwhy = mixwhy;
	m->derived = derived;
	m->mixed = mixed;
	m->pfbound = pfbound;
	m->slice_lines = derived ? (uint64_t)reach : n;
	/* Every request, demand or prefetch, lives the supplier's latency:
	 * the quotient holds with the prefetchers on. */
	m->lat_skip = lvl >= CL_LLC && (mixed || (nowhy && llost > 0));
	m->lat_why = mixed ? mixwhy : nowhy;
	m->inserts = nowhy ? 1 : lookups;
	m->lat_lost = nowhy ? NULL : m->L.lostmap;
	m->lat_within = derived ? m->L.reachmap : NULL;
	m->lat_keep = derived ? 0 : keep;
	return 0;
}

int chase_lat_expect(const struct vgeom *g, const struct chase_case *k, const struct chase_model *m,
		     enum vsup sup, uint64_t hops, double *want, struct vband *b)
{
	if (g->lat_ns[sup] <= 0 || g->uclk_hz <= 0)
		return -1;
	/* Each request adds its lifetime, the supplier's latency in UCLK
	 * cycles rounded to a whole cycle. */
	*want = round(g->lat_ns[sup] * g->uclk_hz * 1e-9);
	*b = k->hw ? (struct vband){ 0.75, 1.25,
		"silicon: queueing and the DRAM page state move the loaded latency" }
		: (struct vband){ 1, 1, "every insert lives the supplier's documented latency" };
	if (m->lat_lost && g->lat_ns[VSUP_DRAM] > 0) {
		/* LLC level with overfull LLC sets: the share f of this
		 * window's hops on their lines misses and lives the DRAM
		 * latency.  A cache that keeps up to keep of the hops (a policy
		 * other than LRU) moves f by that much. */
		double keep = m->lat_keep;
		double lm = round(g->lat_ns[VSUP_DRAM] * g->uclk_hz * 1e-9), l0 = *want;
		double f = chase_lost_share(k->base, m->lat_lost, m->lat_within, hops);
		double flo = f - keep > 0 ? f - keep : 0, fhi = f / (1 - keep) < 1 ? f / (1 - keep) : 1;
		*want = l0 + f * (lm - l0);
		b->lo = (l0 + flo * (lm - l0)) / *want;
		b->hi = (l0 + fhi * (lm - l0)) / *want;
		b->why = "hits live the LLC's latency, misses of overfull LLC sets DRAM's: mixed by "
			 "the window's share of those lines";
	}
	/* A UCLK the run measured (exp_clock.c): its uncertainty too. */
	b->lo -= g->clk_tol;
	b->hi += g->clk_tol;
	return 0;
}

void chase_quantity(struct vxwin *w, const struct chase_q *q, const int *ev, int n, double hops,
		    const char *what)
{
	switch (q->kind) {
	case CQ_SUM:
		vx_sum(w, ev, n, hops, q->expected, q->b, "per hop", "%s", what);
		break;
	case CQ_ZERO:
		vx_zero(w, ev, n, hops, q->bound, q->why, "per hop", "%s", what);
		break;
	case CQ_SKIP:
		vx_skipm(w, ev, n, hops, 1, q->why, "%s", what);
		break;
	}
}
