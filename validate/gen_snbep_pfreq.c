/*
 * gen_snbep_pfreq.c - offcore requests by type on SNB-EP, the L2
 * prefetchers' apart from the demand's, as data (vspec.h).  From one
 * thread, caches clean and empty at the start, page after page (each
 * page's lines new to every cache):
 *   pf-load-pairs  loads of lines 0 and 2 of each page;
 *   pf-store-line  a store to line 0 of each page.
 * The prefetchers' documented behaviour (doc/memory-model.md,
 * "Prefetchers"), per page:
 *   demand: every touch misses the L2 (nothing prefetched reaches line 0
 *   before its load, nor line 2: see below): DMND_DATA_RD 2, DMND_RFO 1;
 *   L2 adjacent line (bit 1 clear): each L2 miss fetches the other line of
 *   its 128-byte pair: lines 1 and 3 (PF_DATA_RD 2), line 1 after the store
 *   (PF_RFO 1: the triggering request was an RFO);
 *   L2 streamer (bit 0 clear): the first request to a page only starts
 *   tracking it; the second (line 2, ascending) fetches the two lines past
 *   it, 3 and 4, of which 3 is already there when the adjacent-line
 *   prefetcher fetched it: PF_DATA_RD 2, or 1 with the adjacent-line
 *   prefetcher on; one store a page never trains it;
 *   DCU next line and IP stride: a load after a load of the line before
 *   (2 after 0 is not), or a repeated step (none within a page, and the 62
 *   lines to the next page are beyond the 32-line reach): nothing; stores
 *   never train them.
 * So PF_DATA_RD = 2A + S(2 - A) and PF_RFO = A per page, A and S 1 when the
 * adjacent-line prefetcher or the streamer is on.  On silicon the streamer
 * adapts its distance and may fetch into the LLC only (PF_LLC_DATA_RD, not
 * counted here; the emulated machine never does and refuses those request
 * types): a wide band there.
 */
#include "vgen.h"
#include "vspec.h"

int snbep_pfreq(const struct vgeom *g, const struct pfreq_case *k, struct vxset *x)
{
	int cpu = k->cpu, A = !(k->dis & 2u), S = !(k->dis & 1u), rc;
	const struct vspec_on on = { k->brk, k->hw,
		{ 0.5, 3, "silicon: the streamer adapts its distance and may fetch into the LLC only "
		  "(PF_LLC_*, not counted here)" }, (double)k->pages, "pages" };
	char what[2][96];
	snprintf(what[0], sizeof(what[0]), "OFFCORE PF_DATA_RD (adjacent %s, streamer %s)",
		 A ? "on" : "off", S ? "on" : "off");
	snprintf(what[1], sizeof(what[1]), "OFFCORE PF_RFO (adjacent %s)", A ? "on" : "off");
	/* --break=pfreq: the prefetches counted with the demand requests (as
	 * the suite did before they were checked apart): one more a page
	 * than the prefetches, whatever the prefetchers' setting */
	const struct vspec loads[] = {
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE:cpu=%d", cpu, 2,
		  "OFFCORE DMND_DATA_RD", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:PF_DATA_RD:ANY_RESPONSE:cpu=%d", cpu,
		  2.0 * A + S * (2.0 - A), what[0], VS_EXACT, VB_PFREQ,
		  "snb_ep::OFFCORE_RESPONSE_1:PF_DATA_RD:DMND_DATA_RD:ANY_RESPONSE:cpu=%d" },
	};
	const struct vspec stores[] = {
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=%d", cpu, 1,
		  "OFFCORE DMND_RFO", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:PF_RFO:ANY_RESPONSE:cpu=%d", cpu, A, what[1],
		  VS_EXACT, VB_PFREQ, "snb_ep::OFFCORE_RESPONSE_1:PF_RFO:DMND_RFO:ANY_RESPONSE:cpu=%d" },
	};
	vx_init(x);
	if ((rc = vspec_win(g, x, "pf-load-pairs", XP_LOADS, 1, loads, 2, &on)) != 0)
		return rc;
	return vspec_win(g, x, "pf-store-line", XP_STORES, 1, stores, 2, &on);
}
