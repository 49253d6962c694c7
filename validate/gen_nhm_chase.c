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
	int lk[2];
	lk[0] = vx_ev(w, 0, "%s::UNC_LLC_HITS:READ:socket=%d", u, s);
	lk[1] = vx_ev(w, 0, "%s::UNC_LLC_MISS:READ:socket=%d", u, s);
	int imc = vx_ev(w, 0, "%s::UNC_IMC_NORMAL_READS:ANY:socket=%d", u, h);
	int qr = vx_ev(w, 0, "%s::UNC_QHL_REQUESTS:%s:socket=%d", u,
		       remote ? "REMOTE_READS" : "LOCAL_READS", h);
	/* The local latency: the memory set, every hop a home read. */
	int lat = cm.lvl == CL_MEM && !remote && cm.dram.kind == CQ_SUM && g->lat_ns[VSUP_DRAM] > 0 &&
		  g->uclk_hz > 0;
	int occ = lat ? vx_ev(w, 0, "%s::UNC_QHL_OCCUPANCY:LOCAL:socket=%d", u, h) : -1;
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
	if (lat) {
		/* Each home read adds its lifetime, the documented DRAM latency
		 * in UCLK cycles (a whole cycle), demand or prefetch. */
		double want = round(g->lat_ns[VSUP_DRAM] * g->uclk_hz * 1e-9);
		struct vband b = k->hw ? (struct vband){ 0.75, 1.25,
			"silicon: queueing and the DRAM page state move the loaded latency" }
			: (struct vband){ 1, 1, "every local home read lives the documented DRAM latency" };
		vx_quot(w, &occ, &qr, 1, want, b, "UCLK",
			"QHL_OCCUPANCY.LOCAL/QHL_REQUESTS.LOCAL_READS s%d latency", h);
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
