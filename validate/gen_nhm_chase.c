/*
 * gen_nhm_chase.c - the pointer chase's expectations on the Nehalem-EP /
 * Westmere-EP uncore (one PMU per socket, no LLC slices), as data
 * (vexp.h).  The chase model (chase_model.c: what the hierarchy does per
 * hop) is the SNB-EP suite's; only the events differ:
 *
 *   LLC lookups (data reads)   UNC_LLC_HITS.READ + UNC_LLC_MISS.READ at the
 *                              threads' socket (the guide's Table 29: reads
 *                              of the local cores, hits and misses)
 *   LLC misses                 UNC_LLC_MISS.READ: one a line a pass of a
 *                              set the LLC cannot hold
 *   DRAM reads at the home     UNC_IMC_NORMAL_READS.ANY, and as many home
 *                              requests UNC_QHL_REQUESTS.LOCAL_READS (or
 *                              REMOTE_READS from the other socket)
 *   the local latency          UNC_QHL_OCCUPANCY.LOCAL / QHL_REQUESTS
 *                              .LOCAL_READS: each home read lives the
 *                              documented DRAM latency in UCLK cycles (the
 *                              memory set, local: every hop is one)
 *   demand responses           OFFCORE_RESPONSE_0 DMND_DATA_RD with
 *                              UNCORE_HIT (an LLC hit no other core had to
 *                              answer) or the DRAM response; Nehalem has one
 *                              response MSR a core, so the LLC-level set
 *                              counts the LLC's answer and the others the
 *                              DRAM's; Westmere counts both (RSP_0, RSP_1).
 *   the metrics (pmon stat -M llc, mem_latency; src/nhm/metrics.c)
 *                              LLC_READ_MISS_PCT: the misses over the
 *                              lookups the model gives; the home's read
 *                              latency (local or remote) and the global
 *                              queue's (Total Read Period, guide L1162) in
 *                              ns through the UCLK fixed counter over the
 *                              window's machine time: the documented
 *                              latency of the supplier of the set.
 */
#include <math.h>
#include <string.h>

#include "vexp.h"
#include "vgen.h"
#include "xchase.h"

/* The DRAM response of the core PMU: local or remote memory. */
static const char *dram_rsp(const struct vgeom *g, int remote)
{
	if (remote)
		return "REMOTE_DRAM";
	return g->gen == VG_WSMEP ? "LOCAL_DRAM_AND_REMOTE_CACHE_HIT" : "LOCAL_DRAM";
}

/* LLC_READ_MISS_PCT of the window: the model's misses over its lookups,
 * the band from the two counts' bands (at most 100 %). */
static void miss_pct(struct vxwin *w, const struct chase_model *cm, const int *lk, int s)
{
	char where[32];
	snprintf(where, sizeof(where), "s%d", s);
	const struct chase_q *L = &cm->lookups, *M = &cm->misses;
	/* no lookup after the warm-up (a set the L1 or L2 holds): the metric
	 * has no value (0 / 0), nothing to check; lookups or misses the
	 * model cannot say (skipped as counts, with their reason): no
	 * expectation for their quotient either */
	if (L->kind != CQ_SUM || M->kind == CQ_SKIP || L->expected <= 0)
		return;
	struct vxterm t[2] = { vx_term(&lk[1], 1), vx_term(&lk[0], 1) };
	t[0].per = t[1].per = 1;
	if (M->kind == CQ_ZERO) {
		/* (misses) / (lookups) at most the zero bound's share */
		double hi = L->b.lo > 0 ? 100 * M->bound / (L->expected * L->b.lo) : INFINITY;
		vx_metric(w, "LLC_READ_MISS_PCT", where, t, 2, 0, (struct vband){ 0, hi, M->why });
		return;
	}
	double want = 100 * M->expected / L->expected;
	struct vband b = { M->b.lo / L->b.hi, M->b.hi / L->b.lo,
			   "the misses' band over the lookups' (at most 100 %)" };
	if (b.hi > 100 / want)
		b.hi = 100 / want;
	vx_metric(w, "LLC_READ_MISS_PCT", where, t, 2, want, b);
}

/* A latency metric in ns: occupancy over inserts (want UCLK cycles a
 * request, band b) through UNCORE_FREQUENCY, the UCLK fixed counter over
 * the window's machine time.  The fixed counter starts and stops apart
 * from the general ones, and the emulated clock follows the host's in
 * 10 us steps: 1 ms of the window's time more either way (as SNB-EP's TOR
 * latency metric). */
static void lat_metric(struct vxwin *w, const struct vgeom *g, const char *kname, const char *metric,
		       int socket, int occ, int ins, int uclk, double want, struct vband b)
{
	char where[32];
	snprintf(where, sizeof(where), "s%d", socket);
	struct vxterm t[3] = { vx_term(&occ, 1), vx_term(&ins, 1), vx_term(&uclk, 1) };
	struct vxck *m = vx_metric(w, metric, where, t, 3, want / g->uclk_hz * 1e9, b);
	if (!m)
		return;
	m->tol_lo_s = m->tol_hi_s = 1e-3;
	snprintf(m->nosec, sizeof(m->nosec), "%s latency metric: no machine time for the window", kname);
}

/* The global queue's read tracker on a memory-sized set: every read that
 * reaches the LLC allocates an entry, which lives the LLC's latency when
 * the line is there and the home's (local or remote DRAM) when it misses,
 * so the mean is the two mixed by the model's miss share of the lookups,
 * its band from the misses' and lookups' bands (prefetched lines can hit
 * the LLC).  0, or -1 when the model has no such share. */
static int gq_mixed(const struct vgeom *g, const struct chase_model *cm, enum vsup sup, double *want,
		    struct vband *b)
{
	const struct chase_q *L = &cm->lookups, *M = &cm->misses;
	if (L->kind != CQ_SUM || M->kind != CQ_SUM || L->expected <= 0 || g->lat_ns[VSUP_LLC] <= 0)
		return -1;
	double l0 = round(g->lat_ns[VSUP_LLC] * g->uclk_hz * 1e-9);
	double lm = round(g->lat_ns[sup] * g->uclk_hz * 1e-9);
	double f = M->expected / L->expected, flo = f * M->b.lo / L->b.hi, fhi = f * M->b.hi / L->b.lo;
	if (fhi > 1)
		fhi = 1;
	if (f > 1)
		f = 1;
	*want = l0 + f * (lm - l0);
	*b = (struct vband){ (l0 + flo * (lm - l0)) / *want, (l0 + fhi * (lm - l0)) / *want,
			     "a read that hits the LLC lives its latency, one that misses the home's: "
			     "mixed by the model's miss share (prefetched lines may hit)" };
	if (M->b.lo == 1 && M->b.hi == 1 && L->b.lo == 1 && L->b.hi == 1)
		b->why = "every read misses the LLC and lives the home's latency";
	b->lo -= g->clk_tol;
	b->hi += g->clk_tol;
	return 0;
}

int nhm_chase(const struct vgeom *g, const struct chase_case *k, struct vxset *x)
{
	const char *u = nhm_unc_pmu(g), *core = nhm_core_pmu(g);
	int wsm = g->gen == VG_WSMEP, s = k->socket, h = k->home, cpu = k->cpu;
	uint64_t ws = chase_ws_bytes(g, k->lvl);
	char kname[40];
	struct chase_model cm;

	vx_init(x);
	chase_kname(k, kname, sizeof(kname));
	if (chase_run_level(g, k->lvl) < 0) {
		/* lookups, misses, DRAM reads, home reads, the responses */
		vx_skip(vx_win(x), 4 + (wsm ? 2 : 1), "%s: not run: its %s/2 set (%llu KiB) exceeds a "
			"quarter of the LLC (%llu KiB) and is under twice it: LLC conflicts decide what "
			"the core keeps", kname, k->lvl == CL_L1 ? "L1" : "L2",
			(unsigned long long)(ws >> 10), (unsigned long long)(g->llc_bytes >> 10));
		return 0;
	}
	if (chase_model(g, k, x, &cm) != 0)
		return -1;
	int remote = cm.remote;
	double hops = cm.hops;
	struct vxwin *w = vx_win(x);
	w->units = k->hops;
	w->timed = 1;
	int lk[2];
	lk[0] = vx_ev(w, 0, "%s::UNC_LLC_HITS:READ:socket=%d", u, s);
	lk[1] = vx_ev(w, 0, "%s::UNC_LLC_MISS:READ:socket=%d", u, s);
	int imc = vx_ev(w, 0, "%s::UNC_IMC_NORMAL_READS:ANY:socket=%d", u, h);
	int qr = vx_ev(w, 0, "%s::UNC_QHL_REQUESTS:%s:socket=%d", u,
		       remote ? "REMOTE_READS" : "LOCAL_READS", h);
	/* The home's latency: the memory set, every hop a home read. */
	enum vsup hsup = remote ? VSUP_RDRAM : VSUP_DRAM;
	int lat = cm.lvl == CL_MEM && cm.dram.kind == CQ_SUM && g->lat_ns[hsup] > 0 && g->uclk_hz > 0;
	int occ = lat ? vx_ev(w, 0, "%s::UNC_QHL_OCCUPANCY:%s:socket=%d", u, remote ? "REMOTE" : "LOCAL",
			      h) : -1;
	/* The global queue's read tracker at the threads' socket: every
	 * request that reaches the LLC lives its supplier's latency. */
	enum vsup gsup = cm.lvl == CL_LLC ? VSUP_LLC : hsup;
	int gq = (cm.lvl == CL_LLC || cm.lvl == CL_MEM) && cm.inserts > 0 && g->lat_ns[gsup] > 0 &&
		 g->uclk_hz > 0;
	int gocc = gq ? vx_ev(w, 0, wsm ? "%s::UNC_GC_OCCUPANCY:READ_TRACKER:socket=%d" :
				   "%s::UNC_GQ_TRACKER_OCCUP:RT:socket=%d", u, s) : -1;
	int galloc = gq ? vx_ev(w, 0, "%s::UNC_GQ_ALLOC:READ_TRACKER:socket=%d", u, s) : -1;
	int uclk = lat || gq ? vx_ev(w, 0, "%s::UNC_CLK_UNHALTED:socket=%d", u, lat ? h : s) : -1;
	int rsp_llc = -1, rsp_dram = -1;
	if (wsm || cm.lvl == CL_LLC)
		rsp_llc = vx_ev(w, 0, "%s::OFFCORE_RESPONSE_0:DMND_DATA_RD:UNCORE_HIT:cpu=%d", core, cpu);
	if (wsm || cm.lvl != CL_LLC)
		rsp_dram = vx_ev(w, 0, "%s::OFFCORE_RESPONSE_%d:DMND_DATA_RD:%s:cpu=%d", core, wsm,
				 dram_rsp(g, remote), cpu);

	char what[96];
	snprintf(what, sizeof(what), "LLC_HITS.READ+LLC_MISS.READ s%d", s);
	chase_quantity(w, &cm.lookups, lk, 2, hops, what);
	snprintf(what, sizeof(what), "LLC_MISS.READ s%d", s);
	chase_quantity(w, &cm.misses, &lk[1], 1, hops, what);
	snprintf(what, sizeof(what), "IMC_NORMAL_READS.ANY s%d", h);
	chase_quantity(w, &cm.dram, &imc, 1, hops, what);
	snprintf(what, sizeof(what), "QHL_REQUESTS.%s s%d%s", remote ? "REMOTE_READS" : "LOCAL_READS", h,
		 remote ? " (home)" : "");
	chase_quantity(w, &cm.dram, &qr, 1, hops, what);
	miss_pct(w, &cm, lk, s);
	if (lat) {
		/* Each home read adds its lifetime, the documented DRAM latency
		 * in UCLK cycles (a whole cycle), demand or prefetch. */
		double want = round(g->lat_ns[hsup] * g->uclk_hz * 1e-9);
		struct vband b = k->hw ? (struct vband){ 0.75, 1.25,
			"silicon: queueing and the DRAM page state move the loaded latency" }
			: (struct vband){ 1, 1, remote ? "every remote home read lives the documented remote "
					  "DRAM latency" : "every local home read lives the documented DRAM latency" };
		if (remote)
			vx_quot(w, &occ, &qr, 1, want, b, "UCLK",
				"QHL_OCCUPANCY.REMOTE/QHL_REQUESTS.REMOTE_READS s%d latency", h);
		else
			vx_quot(w, &occ, &qr, 1, want, b, "UCLK",
				"QHL_OCCUPANCY.LOCAL/QHL_REQUESTS.LOCAL_READS s%d latency", h);
		b.lo -= g->clk_tol;
		b.hi += g->clk_tol;
		lat_metric(w, g, kname, remote ? "QHL_REMOTE_READ_LATENCY" : "QHL_LOCAL_READ_LATENCY", h, occ,
			   qr, uclk, want, b);
	}
	if (gq) {
		double want;
		struct vband b;
		if (cm.lvl == CL_MEM && gq_mixed(g, &cm, hsup, &want, &b) != 0)
			gq = 0;
		else if (cm.lvl == CL_LLC && chase_lat_expect(g, k, &cm, gsup, k->hops, &want, &b) != 0)
			gq = 0;
		if (gq) {
			vx_quot(w, &gocc, &galloc, 1, want, b, "UCLK", "%s/GQ_ALLOC.READ_TRACKER s%d latency",
				wsm ? "GC_OCCUPANCY.READ_TRACKER" : "GQ_TRACKER_OCCUP.RT", s);
			lat_metric(w, g, kname, "GQ_READ_LATENCY", s, gocc, galloc, uclk, want, b);
		}
	}
	if (rsp_llc >= 0) {
		snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.UNCORE_HIT cpu%d", cpu);
		chase_quantity(w, &cm.llc_hit, &rsp_llc, 1, hops, what);
	}
	if (rsp_dram >= 0) {
		snprintf(what, sizeof(what), "OFFCORE DMND_DATA_RD.%s cpu%d", dram_rsp(g, remote), cpu);
		chase_quantity(w, &cm.dram_hit, &rsp_dram, 1, hops, what);
	}
	chase_model_free(&cm);
	return 0;
}
