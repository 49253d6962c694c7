/*
 * gen_nhm_pfreq.c - offcore requests by type on Nehalem-EP / Westmere-EP,
 * the L2 prefetchers' apart from the demand's, as data (vspec.h).  The
 * kernels and the prefetchers' documented behaviour are SNB-EP's
 * (gen_snbep_pfreq.c): per page, DMND_DATA_RD 2 and PF_DATA_RD 2A + S(2 - A)
 * for the loads of lines 0 and 2, DMND_RFO 1 and PF_RFO A for the store to
 * line 0, A and S 1 when the adjacent-line prefetcher or the streamer is
 * on.  Every line is new to every cache and homed on the thread's socket:
 * each request is answered by local DRAM (Nehalem's LOCAL_DRAM, 0x4000;
 * Westmere-EP's 0x1000, whose bit 14 the emulated machine refuses).  This
 * generation has one OFFCORE_RESPONSE a core (Westmere's second is not
 * used): the demand's and the prefetches' requests in windows of their
 * own, the kernel run for each.
 */
#include "vgen.h"
#include "vspec.h"

int nhm_pfreq(const struct vgeom *g, const struct pfreq_case *k, struct vxset *x)
{
	int cpu = k->cpu, A = !(k->dis & 2u), S = !(k->dis & 1u), rc;
	const char *core = nhm_core_pmu(g);
	const char *rsp = g->gen == VG_WSMEP ? "LOCAL_DRAM_AND_REMOTE_CACHE_HIT" : "LOCAL_DRAM";
	const struct vspec_on on = { k->brk, k->hw,
		{ 0.5, 3, "silicon: the streamer adapts its distance" }, (double)k->pages, "pages" };
	char f[6][112], what[2][96];
	static const char *const req[6] = { "DMND_DATA_RD", "PF_DATA_RD", "PF_DATA_RD:DMND_DATA_RD",
					    "DMND_RFO", "PF_RFO", "PF_RFO:DMND_RFO" };
	for (int i = 0; i < 6; i++)
		snprintf(f[i], sizeof(f[i]), "%s::OFFCORE_RESPONSE_0:%s:%s:cpu=%%d", core, req[i], rsp);
	snprintf(what[0], sizeof(what[0]), "OFFCORE PF_DATA_RD (adjacent %s, streamer %s)",
		 A ? "on" : "off", S ? "on" : "off");
	snprintf(what[1], sizeof(what[1]), "OFFCORE PF_RFO (adjacent %s)", A ? "on" : "off");
	/* --break=pfreq: the prefetches counted with the demand requests */
	const struct vspec dl[] = {
		{ VS_ONE, f[0], cpu, 2, "OFFCORE DMND_DATA_RD", VS_EXACT, VB_NONE, NULL },
	};
	const struct vspec pl[] = {
		{ VS_ONE, f[1], cpu, 2.0 * A + S * (2.0 - A), what[0], VS_EXACT, VB_PFREQ, f[2] },
	};
	const struct vspec ds[] = {
		{ VS_ONE, f[3], cpu, 1, "OFFCORE DMND_RFO", VS_EXACT, VB_NONE, NULL },
	};
	const struct vspec ps[] = {
		{ VS_ONE, f[4], cpu, A, what[1], VS_EXACT, VB_PFREQ, f[5] },
	};
	vx_init(x);
	if ((rc = vspec_win(g, x, "pf-load-pairs", XP_LOADS, 1, dl, 1, &on)) ||
	    (rc = vspec_win(g, x, "pf-load-pairs", XP_LOADS, 1, pl, 1, &on)) ||
	    (rc = vspec_win(g, x, "pf-store-line", XP_STORES, 1, ds, 1, &on)))
		return rc;
	return vspec_win(g, x, "pf-store-line", XP_STORES, 1, ps, 1, &on);
}
