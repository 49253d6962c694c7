/*
 * gen_snbep_chase.c - the pointer chase's expectations on the SNB-EP
 * uncore, as data (vexp.h): per hop, after a warm-up pass, CBo LLC lookups
 * (sum and per slice), TOR miss inserts, iMC CAS reads, offcore demand
 * reads served by the LLC and by DRAM, against chase_expect(); the LLC miss
 * percentage in a window of its own (the CBo state filter is one per box);
 * the TOR latency (occupancy over inserts) and its metric in a third.
 * A pure function of the case (xchase.h) and the geometry.
 */
#include <math.h>
#include <string.h>

#include "vexp.h"
#include "vgen.h"
#include "xchase.h"

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

static void llc_miss(const struct chase_case *k, const char *kname, struct vxset *x, const int *lk,
		     int nc, uint32_t n, const struct llcpct *p)
{
	struct vxwin *w = vx_win(x);
	int miss[8], brk = k->brk == VB_STATE;
	char where[32], why[160];

	if (p->skip) {
		vx_skip(w, 1, "%s LLC_DRD_MISS_PCT: not checked: %s", kname, p->skip);
		return;
	}
	if (p->lookups <= 0) {
		vx_skip(w, 1, "%s LLC_DRD_MISS_PCT: no lookup reaches the LLC (the set fits the L2's "
			"sets): no value (n/a)", kname);
		return;
	}
	for (int i = 0; i < nc; i++)
		miss[i] = vx_ev(w, brk, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:%s:socket=%d", i,
				brk ? "STATE_E" : "STATE_I", k->socket);
	w->clean = p->mem;
	w->units = p->mem ? k->hops : n;
	double m = p->misses;
	if (p->lostmap)
		m = chase_lost_share(k->base, p->lostmap, NULL, w->units);
	double want = 100 * m / p->lookups;
	struct vband b = { p->mb.lo / p->lb.hi, 1, "" };
	if (m > 0) {
		/* the emulated machine repeats the same hops from the same
		 * state: the state-I lookups are some of all, at most 100% */
		b.hi = p->mb.hi / p->lb.lo;
		if (!k->hw && b.hi > p->lookups / m)
			b.hi = p->lookups / m;
		snprintf(why, sizeof(why), "%s set: state-I lookups over all, each per hop of its window; "
			 "band from the two counts' bands%s",
			 p->lostmap ? "overfull LLC sets of an LLC" : "memory", k->hw ? "" : ", at most 100%");
	} else {
		b.hi = p->lb.lo > 0 ? 100 * p->zero / (p->lookups * p->lb.lo) : INFINITY;
		snprintf(why, sizeof(why), "LLC set, no overfull LLC set: every lookup hits");
	}
	b.why = why;
	snprintf(where, sizeof(where), "s%d all CBo", k->socket);
	struct vxterm t[2] = { vx_term(miss, nc), vx_term(lk, nc) };
	t[0].per = (double)w->units;
	t[1].win = 0;
	t[1].per = (double)k->hops;
	vx_metric(w, "LLC_DRD_MISS_PCT", where, t, 2, want, b);
}

/* Latency from the TOR: occupancy summed every cycle over inserts of the
 * same kind is the mean time an entry lives.  LLC level: demand reads that
 * hit (OPCODE DRd), the LLC's latency; memory level: those that miss
 * (MISS_OPCODE DRd), local or remote DRAM's.  One more measured window. */
static void latency(const struct vgeom *g, const struct chase_case *k, const char *kname,
		    struct vxset *x, enum chase_level lvl, double inserts, const uint8_t *lostmap,
		    const uint8_t *within, double keep)
{
	struct vxwin *w = vx_win(x);
	int nc = g->cores, occ[8], ins[8];
	int remote = k->home != k->socket;
	const char *kind = lvl == CL_LLC ? "OPCODE" : "MISS_OPCODE";
	enum vsup sup = lvl == CL_LLC ? VSUP_LLC : remote ? VSUP_RDRAM : VSUP_DRAM;
	char what[96], where[32];

	if (g->lat_ns[sup] <= 0 || g->uclk_hz <= 0) {
		vx_skip(w, 1, "chase latency: the machine's documented latency is not known");
		vx_skip(w, 1, "chase: the TOR latency metric not computed either (no documented latency)");
		return;
	}
	if (inserts <= 0) {
		vx_skip(w, 1, "%s latency: no hop reaches the LLC (the set fits the L2's sets), nothing "
			"to time", kname);
		vx_skip(w, 1, "%s: AVG_TOR_DRD_LATENCY not computed either (nothing reaches the LLC)",
			kname);
		return;
	}
	/* UNCORE_FREQUENCY of the latency metric: the UBox clock (fixed) */
	int uclk = vx_ev(w, 0, "snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=%d", k->socket);
	for (int i = 0; i < nc; i++) {
		occ[i] = vx_ev(w, 0, "snbep_unc_cbo%d::UNC_C_TOR_OCCUPANCY:%s:OPC_DRD:socket=%d", i, kind,
			       k->socket);
		ins[i] = vx_ev(w, 0, "snbep_unc_cbo%d::UNC_C_TOR_INSERTS:%s:OPC_DRD:socket=%d", i, kind,
			       k->socket);
	}
	/* The mean needs no whole pass: at most 64K hops (a memory-sized set
	 * misses on every one of them as in the full pass). */
	w->units = k->hops > 65536 ? 65536 : k->hops;
	w->timed = 1;
	/* Each insert adds its lifetime, the supplier's latency in UCLK
	 * cycles rounded to a whole cycle. */
	double want = round(g->lat_ns[sup] * g->uclk_hz * 1e-9);
	struct vband b = k->hw ? (struct vband){ 0.75, 1.25,
		"silicon: queueing and the DRAM page state move the loaded latency" }
		: (struct vband){ 1, 1, "every insert lives the supplier's documented latency" };
	if (lostmap && g->lat_ns[VSUP_DRAM] > 0) {
		/* LLC level with overfull LLC sets: the share f of this
		 * window's hops on their lines misses and lives the DRAM
		 * latency.  A cache that keeps up to keep of the hops (a policy
		 * other than LRU) moves f by that much. */
		double lm = round(g->lat_ns[VSUP_DRAM] * g->uclk_hz * 1e-9), l0 = want;
		double f = chase_lost_share(k->base, lostmap, within, w->units);
		double flo = f - keep > 0 ? f - keep : 0, fhi = f / (1 - keep) < 1 ? f / (1 - keep) : 1;
		want = l0 + f * (lm - l0);
		b.lo = (l0 + flo * (lm - l0)) / want;
		b.hi = (l0 + fhi * (lm - l0)) / want;
		b.why = "hits live the LLC's latency, misses of overfull LLC sets DRAM's: mixed by "
			"the window's share of those lines";
	}
	snprintf(what, sizeof(what), "TOR_OCC/TOR_INSERTS.%s(DRd) s%d latency", kind, k->socket);
	vx_quot(w, occ, ins, nc, want, b, "UCLK", "%s", what);
	/* The guide's latency metric in ns (pmon stat -M tor_latency): the
	 * same quotient through UNCORE_FREQUENCY, the UBox's UCLK over the
	 * window's machine time; expected: the emulated machine's latency
	 * setting (in whole UCLK cycles).  The UBox starts and stops apart
	 * from the CBos, and the emulated clock follows the host's in 10 us
	 * steps: 1 ms of the window's time more either way (50 us held on an
	 * idle host; the ASan build of make check-asan took 60-100 us). */
	struct vband bm = { b.lo, b.hi, b.lo == 1 && b.hi == 1 ?
		"every insert lives the documented latency; UNCORE_FREQUENCY from the UBox "
		"clock over the window (its start and stop apart from the CBos', up to 1 ms)" : b.why };
	snprintf(where, sizeof(where), "s%d all CBo", k->socket);
	struct vxterm t[3] = { vx_term(occ, nc), vx_term(ins, nc), vx_term(&uclk, 1) };
	struct vxck *m = vx_metric(w, lvl == CL_LLC ? "AVG_TOR_DRD_LATENCY" : "AVG_TOR_DRD_MISS_LATENCY",
				   where, t, 3, want / g->uclk_hz * 1e9, bm);
	if (m) {
		m->tol_lo_s = m->tol_hi_s = 1e-3;
		snprintf(m->nosec, sizeof(m->nosec), "%s latency metric: no machine time for the window",
			 kname);
	}
}

int snbep_chase(const struct vgeom *g, const struct chase_case *k, struct vxset *x)
{
	uint64_t ws = chase_ws_bytes(g, k->lvl);
	uint32_t n = (uint32_t)(ws / 64);
	int remote = k->home != k->socket;
	int cpu = k->cpu, s = k->home, nc = g->cores, ch = g->channels, hw = k->hw;
	int rl = chase_run_level(g, k->lvl);
	enum chase_level lvl = rl < 0 ? k->lvl : (enum chase_level)rl;
	char kname[40], what[96];
	struct chase_layout L;

	vx_init(x);
	chase_kname(k, kname, sizeof(kname));
	if (rl < 0) {
		/* The level's five checks: lookups, TOR misses, DRAM reads,
		 * demand responses from the LLC and from DRAM. */
		vx_skip(vx_win(x), 5, "%s: not run: its %s/2 set (%llu KiB) exceeds a quarter of the "
			"LLC (%llu KiB) and is under twice it: LLC conflicts decide what the core keeps",
			kname, k->lvl == CL_L1 ? "L1" : "L2", (unsigned long long)(ws >> 10),
			(unsigned long long)(g->llc_bytes >> 10));
		return 0;
	}
	if (lvl != k->lvl)
		vx_note(x, "  %s: the set (%llu KiB) is at least twice the LLC: a memory set", kname,
			(unsigned long long)(ws >> 10));
	if (chase_layout(g, k, lvl, x, &L) != 0)
		return -1;

	struct vxwin *w = vx_win(x);
	int lk[8], tor[8], cas[4], ofl, ofd;
	for (int i = 0; i < nc; i++) {
		lk[i] = vx_ev(w, 0, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:socket=%d", i, k->socket);
		tor[i] = vx_ev(w, 0, "snbep_unc_cbo%d::UNC_C_TOR_INSERTS:MISS_OPCODE:OPC_DRD:socket=%d", i,
			       k->socket);
	}
	for (int i = 0; i < ch; i++)
		cas[i] = vx_ev(w, 0, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d", i, s);
	ofl = vx_ev(w, 0, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITMESF:cpu=%d", cpu);
	ofd = vx_ev(w, 0, "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:%s:cpu=%d",
		    remote ? "LLC_MISS_REMOTE_DRAM" : "LLC_MISS_LOCAL_DRAM", cpu);
	w->units = k->hops;
	/* Breakage "wrap": CBo0's lookup counter starts half its expected
	 * count below the top of its width. */
	int wrap = k->brk == VB_WRAP && k->lvl == CL_MEM && !k->page && !remote;
	if (wrap) {
		w->wrap_ev = lk[0];
		w->wrap_top = k->hops / (2 * (uint64_t)nc) + 1;
	}

	double hops = (double)k->hops, lookups, misses, dram;
	chase_expect(lvl, &lookups, &misses, &dram);
	int derived = L.derived;
	long lost = L.lost, llost = L.llost, reach = L.reach;
	const uint8_t *lostmap = L.lostmap;
	/* The prefetchers: an L2 miss may fetch more lines of its page (its
	 * pair, the streamer's lines ahead, the DCU's next line or stride);
	 * how many depends on the order of the hops and on what the L2 holds,
	 * so the counts a miss drives are bounded, not derived (the set spans
	 * whole pages, so the fetched lines are the set's own). */
	int l2miss = lvl >= CL_LLC;
	const char *pfwhy = "prefetchers on: the lines fetched with L2 misses depend on the chase order";
	if (L.reachmap) {
		if (derived) {
			lookups = (double)reach / n;
			l2miss = reach > 0;
		}
		misses = dram = (double)llost / n;
	}
	(void)lost;
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
	 * (and at the memory level TOR misses and DRAM reads) are 1 to
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
	struct vband one = chase_band_one(g, lvl, ws, hw);
	if (pfbound)
		one = (struct vband){ one.lo, one.hi * chase_pf_line_hi(g->pf_dis, n),
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
	double pfkeep = chase_pf_line_hi(g->pf_dis, n) * keep0;
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
	snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d all CBo", k->socket);
	if (nowhy)
		vx_skipm(w, lk, nc, hops, 1, nowhy, "%s", what);
	else if (mixed)
		vx_sum(w, lk, nc, hops, lookups,
		       (struct vband){ (double)llost / reach, 1,
				       "lines of overfull LLC sets miss L2 and LLC each pass, of overfull "
				       "L2 sets at most (LRU)" }, "per hop", "%s", what);
	else if (lookups > 0 && derived)
		vx_sum(w, lk, nc, hops, lookups, conflict, "per hop", "%s", what);
	else if (lookups > 0)
		vx_sum(w, lk, nc, hops, lookups, one, "per hop", "%s", what);
	else
		vx_zero(w, lk, nc, hops, zero, zwhy, "per hop", "%s", what);
	/* The per-slice share: over the lines that reach the LLC each pass. */
	uint64_t slice_lines = derived ? (uint64_t)reach : n;
	struct vband sb = slice_band(g, slice_lines, hw);
	if (pfbound && sb.lo > 0)
		sb = (struct vband){ sb.lo, chase_pf_line_hi(g->pf_dis, n) * sb.hi,
				     "prefetchers on: a slice's demand lookups within 5 standard "
				     "deviations, its prefetches at most chase_pf_line_hi - 1 as many" };
	if (lvl >= CL_LLC) {
		char swhy[160] = "";
		snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d CBo0-%d", k->socket, nc - 1);
		if (!nowhy && sb.lo <= 0 && slice_lines == 0)
			snprintf(swhy, sizeof(swhy), "no line of the set misses the L2 (it fits the L2's "
				 "sets): no per-slice share");
		else if (!nowhy && sb.lo <= 0)
			snprintf(swhy, sizeof(swhy), "only %llu lines of the set miss the L2: too few for "
				 "a per-slice share", (unsigned long long)slice_lines);
		if (!nowhy && mixed)
			snprintf(swhy, sizeof(swhy), "%s", mixwhy);
		if (nowhy || sb.lo <= 0 || mixed)
			vx_skipm(w, lk, nc, hops, nc, nowhy ? nowhy : swhy, "%s", what);
		for (int i = 0; i < nc && !nowhy && !mixed && sb.lo > 0; i++)
			vx_sum(w, &lk[i], 1, hops, lookups / nc, sb, "per hop",
			       "LLC_LOOKUP.DATA_READ s%d CBo%d", k->socket, i);
		if (wrap && !nowhy) {
			struct vxck *c = vx_sum(w, &lk[0], 1, hops, lookups / nc, sb, "per hop",
						"LLC_LOOKUP.DATA_READ s%d CBo0 across a wrap", k->socket);
			if (c)
				c->kind = VX_WRAP;
		}
	}
	/* The LLC level's set is in the LLC: a prefetched next line is the
	 * set's own and hits there too, so its misses stay 0. */
	const char *mwhy = lvl == CL_MEM || llost > 0 ? nowhy : NULL;
	snprintf(what, sizeof(what), "TOR_INSERTS.MISS_OPCODE(DRd) s%d", k->socket);
	if (mwhy)
		vx_skipm(w, tor, nc, hops, 1, mwhy, "%s", what);
	else if (misses > 0)
		vx_sum(w, tor, nc, hops, misses, mb, "per hop", "%s", what);
	else
		vx_zero(w, tor, nc, hops, zero, zwhy, "per hop", "%s", what);
	snprintf(what, sizeof(what), "CAS_COUNT.RD s%d all ch", s);
	if (mwhy)
		vx_skipm(w, cas, ch, hops, 1, mwhy, "%s", what);
	else if (dram > 0)
		vx_sum(w, cas, ch, hops, dram, mb, "per hop", "%s", what);
	else
		vx_zero(w, cas, ch, hops, zero, zwhy, "per hop", "%s", what);
	snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.LLC_HIT cpu%d", cpu);
	if (pfbound && lvl == CL_LLC)
		vx_sum(w, &ofl, 1, hops, 1, pfd, "per hop", "%s", what);
	else if (pfbound)
		vx_zero(w, &ofl, 1, hops, pfkeep + zero,
			"prefetchers on, memory set: the LLC keeps at most LLC/WS of the "
			"chase_pf_line_hi lines a hop brings", "per hop", "%s", what);
	else if (mixed)
		vx_skipm(w, &ofl, 1, hops, 1, mixwhy, "%s", what);
	else if (nowhy && lvl != CL_MEM)
		vx_skipm(w, &ofl, 1, hops, 1, nowhy, "%s", what);
	else if (lvl == CL_LLC && !derived && pfshare > 0)
		vx_sum(w, &ofl, 1, hops, pfshare, pfb, "per hop", "%s", what);
	else if (lvl == CL_LLC && !derived && llost > 0)
		vx_sum(w, &ofl, 1, hops, 1 - misses,
		       (struct vband){ 1 - keep / (1 - misses), 1,
				       "hops on lines of LLC sets that keep them hit the LLC (LRU)" },
		       "per hop", "%s", what);
	else if (lvl == CL_LLC && !derived)
		vx_sum(w, &ofl, 1, hops, 1, one, "per hop", "%s", what);
	else if (derived && lookups - misses > 0)
		vx_sum(w, &ofl, 1, hops, lookups - misses, conflict, "per hop", "%s", what);
	else
		vx_zero(w, &ofl, 1, hops, lvl == CL_MEM ? 1 - one.lo + zero : zero,
			lvl == CL_MEM ? "memory set: the LLC keeps at most LLC/WS of it" : zwhy,
			"per hop", "%s", what);
	snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.%s cpu%d",
		 remote ? "REMOTE_DRAM" : "LOCAL_DRAM", cpu);
	if (mwhy)
		vx_skipm(w, &ofd, 1, hops, 1, mwhy, "%s", what);
	else if (pfbound && dram > 0)
		vx_sum(w, &ofd, 1, hops, 1, pfd, "per hop", "%s", what);
	else if (dram > 0 && pfshare > 0)
		vx_sum(w, &ofd, 1, hops, pfshare, pfb, "per hop", "%s", what);
	else if (dram > 0)
		vx_sum(w, &ofd, 1, hops, dram, mb, "per hop", "%s", what);
	else
		vx_zero(w, &ofd, 1, hops, zero, zwhy, "per hop", "%s", what);
	if (lvl >= CL_LLC) {
		/* the miss percentage: the bands of the two counts checked above */
		struct llcpct p = { lookups, misses, one, misses > 0 ? mb : one, lostmap, zero,
				    nowhy ? nowhy : mwhy, lvl == CL_MEM };
		if (mixed)
			p.lb = (struct vband){ (double)llost / reach, 1, "" };
		else if (derived)
			p.lb = conflict;
		llc_miss(k, kname, x, lk, nc, n, &p);
	}
	/* Every TOR DRd entry, demand or prefetch, lives the supplier's
	 * latency: the quotient holds with the prefetcher on. */
	if (lvl >= CL_LLC && (mixed || (nowhy && llost > 0))) {
		struct vxwin *s2 = vx_win(x);
		vx_skip(s2, 1, "%s latency: not checked: %s", kname, mixed ? mixwhy : nowhy);
		vx_skip(s2, 1, "%s: the TOR latency metric not checked either", kname);
	} else if (lvl >= CL_LLC) {
		latency(g, k, kname, x, lvl, nowhy ? 1 : lookups, nowhy ? NULL : lostmap,
			derived ? L.reachmap : NULL, derived ? 0 : keep);
	}
	chase_layout_free(&L);
	return 0;
}
