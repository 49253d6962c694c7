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
		    struct vxset *x, const struct chase_model *cm)
{
	struct vxwin *w = vx_win(x);
	int nc = g->cores, occ[8], ins[8];
	enum chase_level lvl = cm->lvl;
	const char *kind = lvl == CL_LLC ? "OPCODE" : "MISS_OPCODE";
	enum vsup sup = lvl == CL_LLC ? VSUP_LLC : cm->remote ? VSUP_RDRAM : VSUP_DRAM;
	uint64_t hops = k->hops > 65536 ? 65536 : k->hops;
	char what[96], where[32];
	double want;
	struct vband b;

	if (g->lat_ns[sup] <= 0 || g->uclk_hz <= 0) {
		vx_skip(w, 1, "chase latency: the machine's documented latency is not known");
		vx_skip(w, 1, "chase: the TOR latency metric not computed either (no documented latency)");
		return;
	}
	if (cm->inserts <= 0) {
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
	w->units = hops;
	w->timed = 1;
	chase_lat_expect(g, k, cm, sup, hops, &want, &b);
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
	int cpu = k->cpu, s = k->home, nc = g->cores, ch = g->channels, hw = k->hw;
	char kname[40], what[96];
	struct chase_model cm;

	vx_init(x);
	chase_kname(k, kname, sizeof(kname));
	if (chase_run_level(g, k->lvl) < 0) {
		/* The level's five checks: lookups, TOR misses, DRAM reads,
		 * demand responses from the LLC and from DRAM. */
		vx_skip(vx_win(x), 5, "%s: not run: its %s/2 set (%llu KiB) exceeds a quarter of the "
			"LLC (%llu KiB) and is under twice it: LLC conflicts decide what the core keeps",
			kname, k->lvl == CL_L1 ? "L1" : "L2", (unsigned long long)(ws >> 10),
			(unsigned long long)(g->llc_bytes >> 10));
		return 0;
	}
	if (chase_model(g, k, x, &cm) != 0)
		return -1;
	enum chase_level lvl = cm.lvl;
	double hops = cm.hops;

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
		    cm.remote ? "LLC_MISS_REMOTE_DRAM" : "LLC_MISS_LOCAL_DRAM", cpu);
	w->units = k->hops;
	/* Breakage "wrap": CBo0's lookup counter starts half its expected
	 * count below the top of its width. */
	if (cm.wrap) {
		w->wrap_ev = lk[0];
		w->wrap_top = k->hops / (2 * (uint64_t)nc) + 1;
	}

	snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d all CBo", k->socket);
	chase_quantity(w, &cm.lookups, lk, nc, hops, what);
	/* The per-slice share: over the lines that reach the LLC each pass. */
	uint64_t slice_lines = cm.slice_lines;
	struct vband sb = slice_band(g, slice_lines, hw);
	if (cm.pfbound && sb.lo > 0)
		sb = (struct vband){ sb.lo, cm.pfhi * sb.hi,
				     "prefetchers on: a slice's demand lookups within 5 standard "
				     "deviations, its prefetches at most chase_pf_line_hi - 1 as many" };
	const char *nowhy = cm.nowhy;
	if (lvl >= CL_LLC) {
		char swhy[160] = "";
		snprintf(what, sizeof(what), "LLC_LOOKUP.DATA_READ s%d CBo0-%d", k->socket, nc - 1);
		if (!nowhy && sb.lo <= 0 && slice_lines == 0)
			snprintf(swhy, sizeof(swhy), "no line of the set misses the L2 (it fits the L2's "
				 "sets): no per-slice share");
		else if (!nowhy && sb.lo <= 0)
			snprintf(swhy, sizeof(swhy), "only %llu lines of the set miss the L2: too few for "
				 "a per-slice share", (unsigned long long)slice_lines);
		if (!nowhy && cm.mixed)
			snprintf(swhy, sizeof(swhy), "%s", cm.mixwhy);
		if (nowhy || sb.lo <= 0 || cm.mixed)
			vx_skipm(w, lk, nc, hops, nc, nowhy ? nowhy : swhy, "%s", what);
		for (int i = 0; i < nc && !nowhy && !cm.mixed && sb.lo > 0; i++)
			vx_sum(w, &lk[i], 1, hops, cm.nlookups / nc, sb, "per hop",
			       "LLC_LOOKUP.DATA_READ s%d CBo%d", k->socket, i);
		if (cm.wrap && !nowhy) {
			struct vxck *c = vx_sum(w, &lk[0], 1, hops, cm.nlookups / nc, sb, "per hop",
						"LLC_LOOKUP.DATA_READ s%d CBo0 across a wrap", k->socket);
			if (c)
				c->kind = VX_WRAP;
		}
	}
	snprintf(what, sizeof(what), "TOR_INSERTS.MISS_OPCODE(DRd) s%d", k->socket);
	chase_quantity(w, &cm.misses, tor, nc, hops, what);
	snprintf(what, sizeof(what), "CAS_COUNT.RD s%d all ch", s);
	chase_quantity(w, &cm.dram, cas, ch, hops, what);
	snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.LLC_HIT cpu%d", cpu);
	chase_quantity(w, &cm.llc_hit, &ofl, 1, hops, what);
	snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.%s cpu%d",
		 cm.remote ? "REMOTE_DRAM" : "LOCAL_DRAM", cpu);
	chase_quantity(w, &cm.dram_hit, &ofd, 1, hops, what);
	if (lvl >= CL_LLC) {
		/* the miss percentage: the bands of the two counts checked above */
		struct llcpct p = { cm.nlookups, cm.nmisses, cm.one, cm.nmisses > 0 ? cm.mb : cm.one,
				    cm.L.lostmap, cm.zero, nowhy ? nowhy : cm.mwhy, lvl == CL_MEM };
		if (cm.mixed)
			p.lb = (struct vband){ (double)cm.L.llost / cm.L.reach, 1, "" };
		else if (cm.derived)
			p.lb = cm.conflict;
		llc_miss(k, kname, x, lk, nc, cm.n, &p);
	}
	/* Every TOR DRd entry, demand or prefetch, lives the supplier's
	 * latency: the quotient holds with the prefetcher on. */
	if (cm.lat_skip) {
		struct vxwin *s2 = vx_win(x);
		vx_skip(s2, 1, "%s latency: not checked: %s", kname, cm.lat_why);
		vx_skip(s2, 1, "%s: the TOR latency metric not checked either", kname);
	} else if (lvl >= CL_LLC) {
		latency(g, k, kname, x, &cm);
	}
	chase_model_free(&cm);
	return 0;
}
